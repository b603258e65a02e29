package lower_test

import (
	"slices"
	"testing"

	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/spirv"
)

const dotPacked = `#version 450
#extension GL_EXT_integer_dot_product : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Buf { int i[8]; uint u[8]; };
void main() {
	i[0] = dotPacked4x8EXT(i[1], i[2]);
	u[0] = dotPacked4x8EXT(u[1], u[2]);
	i[3] = dotPacked4x8EXT(i[1], u[2]);
	i[4] = dotPacked4x8EXT(u[1], i[2]);
	i[5] = dotPacked4x8AccSatEXT(i[1], i[2], i[6]);
	u[5] = dotPacked4x8AccSatEXT(u[1], u[2], u[6]);
	i[7] = dotPacked4x8AccSatEXT(u[1], i[2], i[6]);
}
`

// TestDotPacked4x8 checks that each signedness pair picks glslang's dot
// instruction (a uint-int pair swaps into OpSUDot) and capabilities.
func TestDotPacked4x8(t *testing.T) {
	if !slices.Contains(pp.KnownExtensions, "GL_EXT_integer_dot_product") {
		t.Skip("the preprocessor does not know GL_EXT_integer_dot_product")
	}
	want := []spirv.Op{spirv.OpSDot, spirv.OpUDot, spirv.OpSUDot, spirv.OpSUDot, spirv.OpSDotAccSat, spirv.OpUDotAccSat, spirv.OpSUDotAccSat}
	for _, env := range []string{"vulkan1.2", "vulkan1.3"} {
		m := compileSrc(t, "dot.comp", []byte(dotPacked), env)
		validate(t, m, env)
		var ops []spirv.Op
		for _, in := range m.Insts {
			switch in.Op {
			case spirv.OpSDot, spirv.OpUDot, spirv.OpSUDot, spirv.OpSDotAccSat, spirv.OpUDotAccSat, spirv.OpSUDotAccSat:
				ops = append(ops, in.Op)
			}
		}
		if !slices.Equal(ops, want) {
			t.Errorf("%s: dot instructions %v, want %v", env, ops, want)
		}
		if ref := glslang(t, "dot.comp", []byte(dotPacked), env); ref != nil {
			if a, b := features(m), features(ref); !slices.Equal(a, b) {
				t.Errorf("%s: features\n%v\nglslang:\n%v", env, a, b)
			}
		}
	}
}

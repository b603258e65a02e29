package lower_test

import (
	"slices"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// A buffer reference in a local variable is an address: the 8- and 16-bit
// members of the block it points to are storage, not values, and need no
// Int8, Int16 or Float16.
const refLocal = `#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 1) in;
layout(buffer_reference, std430, buffer_reference_align = 2) buffer Blocks { float16_t d; uint16_t qs[3]; uint8_t b[2]; };
layout(std430, binding = 0) buffer Out { uint r[]; };
layout(push_constant) uniform P { Blocks blk; } p;
void main() {
	Blocks bl = p.blk;
	r[0] = uint(bl.qs[1]) | uint(bl.b[1]) << 16;
	r[1] = floatBitsToUint(float(bl.d));
}
`

func TestBufferReferenceLocalCaps(t *testing.T) {
	env := "vulkan1.2"
	m := compileSrc(t, "reflocal.comp", []byte(refLocal), env)
	validate(t, m, env)
	for _, in := range m.Insts {
		if in.Op == spirv.OpCapability {
			switch c := spirv.Capability(in.Words[0]); c {
			case spirv.CapabilityFloat16, spirv.CapabilityInt8, spirv.CapabilityInt16:
				t.Errorf("capability %v declared", c)
			}
		}
	}
	if ref := glslang(t, "reflocal.comp", []byte(refLocal), env); ref != nil {
		if a, b := features(m), features(ref); !slices.Equal(a, b) {
			t.Errorf("features\n%v\nglslang:\n%v", a, b)
		}
	}
}

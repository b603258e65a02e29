package lower_test

import (
	"slices"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// An uncalled function is dropped with what only it needs: its uint8_t
// parameter (Int8), the built-in it reads (GroupNonUniform) and the
// function it calls; globals stay declared, as glslang keeps them.
const uncalled = `#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
layout(local_size_x = 4) in;
layout(binding = 0) buffer A { uint a[]; };
layout(binding = 1) buffer B { uint b[]; };
shared uint sh[4];

uint helper(uint x) { return x * 3u; }
uint onlyFromDead(uint x) { return x + 1u; }
float dead(uint8_t x) { sh[0] = gl_SubgroupInvocationID; b[0] = onlyFromDead(uint(x)); return float(x); }

void main() { a[gl_LocalInvocationID.x] = helper(gl_LocalInvocationID.x); }
`

func TestUncalledFunctionsDropped(t *testing.T) {
	env := "vulkan1.2"
	m := compileSrc(t, "uncalled.comp", []byte(uncalled), env)
	validate(t, m, env)
	funcs, vars := 0, 0
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpFunction:
			funcs++
		case spirv.OpVariable:
			if in.Words[2] != uint32(spirv.StorageClassFunction) {
				vars++
			}
		case spirv.OpCapability:
			if c := spirv.Capability(in.Words[0]); c != spirv.CapabilityShader {
				t.Errorf("capability %v declared", c)
			}
		}
	}
	// main and helper; a, b, sh and gl_LocalInvocationID.
	if funcs != 2 || vars != 4 {
		t.Errorf("%d functions and %d global variables, want 2 and 4", funcs, vars)
	}
	if ref := glslang(t, "uncalled.comp", []byte(uncalled), env); ref != nil {
		if a, b := features(m), features(ref); !slices.Equal(a, b) {
			t.Errorf("features\n%v\nglslang:\n%v", a, b)
		}
	}
	want := []uint32{0, 3, 6, 9}
	if got := run(t, m, 1, make([]uint32, 4)); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

package lower_test

import (
	"slices"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// With only the storage extensions, narrow constants are 32-bit constants
// converted at run time, so the module needs no Float16, Int8 or Int16.
const storageOnlyConsts = `#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer D { float16_t h[2]; uint8_t b[4]; int16_t s[2]; uint16_t u[2]; f16vec2 v; };
void main() {
	h[0] = float16_t(0);
	h[1] = float16_t(2.5);
	b[0] = uint8_t(7);
	b[1] = uint8_t(200);
	s[0] = int16_t(-3);
	u[1] = uint16_t(5u);
	v = f16vec2(vec2(1.0, -0.5));
}
`

func TestStorageOnlyNarrowConstants(t *testing.T) {
	env := "vulkan1.2"
	m := compileSrc(t, "narrow.comp", []byte(storageOnlyConsts), env)
	validate(t, m, env)
	for _, in := range m.Insts {
		if in.Op == spirv.OpCapability {
			switch c := spirv.Capability(in.Words[0]); c {
			case spirv.CapabilityFloat16, spirv.CapabilityInt8, spirv.CapabilityInt16:
				t.Errorf("capability %v declared", c)
			}
		}
	}
	if ref := glslang(t, "narrow.comp", []byte(storageOnlyConsts), env); ref != nil {
		if a, b := features(m), features(ref); !slices.Equal(a, b) {
			t.Errorf("features\n%v\nglslang:\n%v", a, b)
		}
	}
	want := []uint32{0x4100_0000, 0x0000_c807, 0x0000_fffd, 0x0005_0000, 0xb800_3c00}
	if got := run(t, m, 1, make([]uint32, 5)); !slices.Equal(got, want) {
		t.Errorf("got %#x, want %#x", got, want)
	}
}

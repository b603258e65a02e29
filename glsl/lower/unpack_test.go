package lower_test

import (
	"slices"
	"testing"
)

// unpackSrc calls built-ins whose vector result comes from a scalar
// argument, next to ones that splat a scalar beside a vector (max, mix).
const unpackSrc = `#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer Buf { uint v[]; };
void main() {
	uint i = gl_LocalInvocationID.x;
	uint w = v[i] * 0x3c01u + 0x40004000u;
	vec2 h = unpackHalf2x16(w);
	vec4 u = unpackUnorm4x8(w);
	vec2 s = unpackSnorm2x16(uint16_t(w));
	vec2 m = max(h, 0.5) + mix(h, vec2(2.0), 0.25);
	v[i] = packHalf2x16(h + m) ^ packUnorm4x8(u) ^ packSnorm2x16(s);
}
`

func TestUnpackScalarArgument(t *testing.T) {
	in := []uint32{1, 7, 300, 65535}
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		m := compileSrc(t, "unpack.comp", []byte(unpackSrc), env)
		validate(t, m, env)
		got := run(t, m, 1, slices.Clone(in))
		ref := glslang(t, "unpack.comp", []byte(unpackSrc), env)
		if ref == nil {
			t.Skip("glslangValidator not present")
		}
		if want := run(t, ref, 1, slices.Clone(in)); !slices.Equal(got, want) {
			t.Errorf("%s: coop %v\nglslang %v", env, got, want)
		}
	}
}

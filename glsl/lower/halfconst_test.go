package lower_test

import (
	"slices"
	"testing"
)

// float16 and bfloat16 constants are written as glslang writes them: the
// value rounded to float32, then toward zero (bfloat16: the high half of
// the float32), with overflow to infinity; with only 16-bit storage the
// float32 constant is converted at run time (to nearest).
const halfConsts = `#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_bfloat16 : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint v[]; };
const float K = 3.0 * 0.6931;
void main() {
	v[0] = uint(float16BitsToUint16(float16_t(K)));
	v[1] = uint(float16BitsToUint16(float16_t(1.0 / 3.0)));
	v[2] = uint(float16BitsToUint16(float16_t(65519.0)));
	v[3] = uint(float16BitsToUint16(float16_t(65540.0)));
	v[4] = uint(float16BitsToUint16(float16_t(-6e-8)));
	v[5] = uint(float16BitsToUint16(float16_t(0.1) * float16_t(3.0)));
	// Through a variable: glslang folds bfloat16BitsToUintEXT of a
	// constant wrongly (the low half of the float32 bits).
	bfloat16_t third = bfloat16_t(1.0 / 3.0);
	v[6] = uint(bfloat16BitsToUintEXT(third));
}
`

const storageHalf = `#version 450
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float16_t h[2]; };
const float K = 3.0 * 0.6931;
void main() { h[0] = float16_t(K); h[1] = float16_t(1.0 / 3.0); }
`

func TestHalfConstantsAsGlslang(t *testing.T) {
	env := "vulkan1.3"
	m := compileSrc(t, "half.comp", []byte(halfConsts), env)
	validate(t, m, env)
	// 2.0793 truncates to 0x4028 (nearest would be 0x4029); 1/3 to 0x3555;
	// 65519 to 65504; 65540 and up is infinity; -6e-8 to the smallest
	// subnormal; 0.1 * 3 folds in full
	// precision before the one rounding (0x34cc, nearest is 0x34cd).
	want := []uint32{0x4028, 0x3555, 0x7bff, 0x7c00, 0x8001, 0x34cc, 0x3eaa}
	got := run(t, m, 1, make([]uint32, 7))
	if !slices.Equal(got, want) {
		t.Errorf("got %#x, want %#x", got, want)
	}
	if ref := glslang(t, "half.comp", []byte(halfConsts), env); ref != nil {
		if r := run(t, ref, 1, make([]uint32, 7)); !slices.Equal(got, r) {
			t.Errorf("coop %#x, glslang %#x", got, r)
		}
	}
	s := compileSrc(t, "storage.comp", []byte(storageHalf), env)
	validate(t, s, env)
	if got := run(t, s, 1, make([]uint32, 1)); got[0] != 0x35554029 {
		t.Errorf("storage-only: %#x, want 0x35554029 (converted to nearest at run time)", got[0])
	}
}

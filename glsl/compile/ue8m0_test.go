package compile

import (
	"math"
	"testing"

	"github.com/coopshader/coop/num"
)

// TestUE8M0Runs: GL_EXT_float_ue8m0's floatue8m0_t (SPIR-V's
// Float8UnsignedE8M0EXT: 2^(e-127), 0xff NaN) reinterprets 8-bit integers
// and converts to float on the executor; constants fold as glslang folds
// them (toward zero to a power of two). Vulkan has no conversion to the
// type at run time (testdata/shaders/microscaling_convert_errors.comp).
func TestUE8M0Runs(t *testing.T) {
	src := `#version 450
#extension GL_EXT_float_ue8m0 : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 8) in;
layout(binding = 0) buffer B { float f[8]; float h[8]; uint back[8]; int folded[4]; };
const floatue8m0_t k[4] = { floatue8m0_t(10.0), 1.0fue8m0, floatue8m0_t(-3.0), floatue8m0_t(1.0 / 0.0) };
void main() {
	uint i = gl_LocalInvocationID.x;
	floatue8m0_t e = uintBitsToFloatue8m0EXT(uint8_t(i * 36u + 3u));
	f[i] = float(e);
	h[i] = float(float16_t(e));
	back[i] = uint(floatue8m0BitsToUintEXT(e));
	if (i < 4u) {
		folded[i] = int(floatue8m0BitsToIntEXT(k[i]));
	}
}
`
	out := runShader(t, src, 1, make([]uint32, 28), nil)
	same := func(a float32, b float64) bool { return float64(a) == b || a != a && b != b }
	for i := range 8 {
		bits := uint64(i*36 + 3)
		v := num.DecodeE8M0(bits)
		if got := math.Float32frombits(out[i]); !same(got, float64(float32(v))) {
			t.Errorf("float(%#x) = %v, want %v", bits, got, v)
		}
		if got, w := math.Float32frombits(out[8+i]), num.Float16.Decode(num.Float16.Encode(v, num.NearestEven, false)); !same(got, w) {
			t.Errorf("float16_t(%#x) = %v, want %v", bits, got, w)
		}
		if got := out[16+i]; uint64(got) != bits {
			t.Errorf("bits of %#x came back as %#x", bits, got)
		}
	}
	// 10 rounds toward zero to 2^3 (0x82, int8_t -126), -3 to the
	// smallest, 2^-127; the infinity gives NaN, 0xff (int8_t -1).
	for i, w := range []int32{130 - 256, 127, 0, -1} {
		if got := int32(out[24+i]); got != w {
			t.Errorf("folded constant %d: %d, want %d", i, got, w)
		}
	}
}

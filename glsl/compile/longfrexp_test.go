package compile

import (
	"math"
	"testing"
)

// TestLongVectorFrexpRuns: GL_EXT_long_vector's frexp and ldexp take an
// exponent vector of any signed integer width (glslang's
// spv.longVectorBuiltinsfp16.comp uses int16 with float16). coop computes
// the exponent as FrexpStruct's 32-bit one and converts it, so the module
// needs no SPV_AMD_gpu_shader_int16; the results are frexp's.
func TestLongVectorFrexpRuns(t *testing.T) {
	src := `#version 450
#extension GL_EXT_long_vector : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { float x[5]; int e[5]; float m[5]; float y[5]; int e8[5]; };
void main() {
	vector<float16_t, 5> v = vector<float16_t, 5>(float16_t(x[0]), float16_t(x[1]), float16_t(x[2]), float16_t(x[3]), float16_t(x[4]));
	vector<int16_t, 5> ex;
	vector<float16_t, 5> mant = frexp(v, ex);
	vector<float, 5> w = vector<float, 5>(x[0], x[1], x[2], x[3], x[4]);
	vector<int8_t, 5> ex8;
	vector<float, 5> mw = frexp(w, ex8);
	vector<float16_t, 5> back = ldexp(mant, ex);
	for (int i = 0; i < 5; i++) {
		e[i] = int(ex[i]);
		m[i] = float(mant[i]);
		y[i] = float(back[i]) + float(mw[i]) * 0.0;
		e8[i] = int(ex8[i]);
	}
}
`
	xs := []float32{6, -0.375, 1, 1000, 0.0009765625}
	in := make([]uint32, 25)
	for i, x := range xs {
		in[i] = math.Float32bits(x)
	}
	out := runShader(t, src, 1, in, nil)
	for i, x := range xs {
		fm, fe := math.Frexp(float64(x))
		if got := int32(out[5+i]); got != int32(fe) {
			t.Errorf("frexp(%v) exponent %d, want %d", x, got, fe)
		}
		if got := math.Float32frombits(out[10+i]); float64(got) != fm {
			t.Errorf("frexp(%v) mantissa %v, want %v", x, got, fm)
		}
		if got := math.Float32frombits(out[15+i]); got != x {
			t.Errorf("ldexp(frexp(%v)) = %v", x, got)
		}
		if got := int32(out[20+i]); got != int32(fe) {
			t.Errorf("frexp(%v) 8-bit exponent %d, want %d", x, got, fe)
		}
	}
}

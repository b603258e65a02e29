package compile

import (
	"math"
	"testing"

	"github.com/coopshader/coop/num"
)

// The OCP microscaling types (GL_EXT_float_e2m1, _e2m3, _e3m2,
// GL_EXT_float_mxint8) compiled, validated and run on the executor.

const microHdr = `#version 450
#extension GL_EXT_float_e2m1 : require
#extension GL_EXT_float_e2m3 : require
#extension GL_EXT_float_e3m2 : require
#extension GL_EXT_float_mxint8 : require
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_long_vector : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint v[]; };
`

// Every FP4 and FP6 pattern decodes (bitcastExtract from a byte, then a
// conversion to float), and float inputs round back to each format,
// read through the pack functions. Vulkan forbids conversions that
// produce these types (VUID-StandaloneSpirv-OpFConvert-12466), so this
// module targets plain SPIR-V 1.6.
func TestMicroscalingConversionsRun(t *testing.T) {
	src := microHdr + `
void main() {
	uint i = gl_LocalInvocationIndex;
	uint8_t b = uint8_t(i);
	v[i] = floatBitsToUint(float(bitcastExtractfe2m1EXT(b, 0u)));
	v[64u + i] = floatBitsToUint(float(bitcastExtractfe2m3EXT(b, 0u)));
	v[128u + i] = floatBitsToUint(float(bitcastExtractfe3m2EXT(b, 0u)));
	float x = uintBitsToFloat(v[192u + i]);
	v[256u + i] = uint(packFloat2xfe2m1EXT(fe2m1vec2(floate2m1_t(x), floate2m1_t(0.0))));
	v[320u + i] = uint(packFloat4xfe2m3EXT(fe2m3vec4(floate2m3_t(x), floate2m3_t(0.0), floate2m3_t(0.0), floate2m3_t(0.0))).x);
	v[384u + i] = uint(packFloat4xfe3m2EXT(fe3m2vec4(floate3m2_t(x), floate3m2_t(0.0), floate3m2_t(0.0), floate3m2_t(0.0))).x);
	v[448u + i] = uint(floatmxint8BitsToUintEXT(floatmxint8_t(x)));
}
`
	xs := []float64{0, math.Copysign(0, -1), 0.25, 0.75, 1.25, 2.5, 3.5, 5, 7, -7, 1e9, math.Inf(-1), math.NaN(), 1.0 / 128, 3.0 / 128,
		0.0625, 0.09375, 1.0625, 7.75, 29, 30, -100, 0.3, 2.9}
	in := make([]uint32, 512)
	for i := range 64 {
		x := 0.0
		if i < len(xs) {
			x = xs[i]
		}
		in[192+i] = math.Float32bits(float32(x))
	}
	out := runShaderEnv(t, src, "spirv1.6", 1, in, nil)
	for p := range 64 {
		for k, f := range []num.Format{num.E2M1, num.E2M3, num.E3M2} {
			if p >= 1<<f.Bits() {
				continue
			}
			if got, want := math.Float32frombits(out[64*k+p]), float32(f.Decode(uint64(p))); got != want || math.Signbit(float64(got)) != math.Signbit(float64(want)) {
				t.Errorf("format %d pattern %#x = %v, want %v", k, p, got, want)
			}
		}
	}
	for i, x := range xs {
		x = float64(float32(x))
		for k, f := range []num.Format{num.E2M1, num.E2M3, num.E3M2} {
			if got, want := uint64(out[256+64*k+i]), f.Encode(x, num.NearestEven, false); got != want {
				t.Errorf("format %d: %v converts to %#x, want %#x", k, x, got, want)
			}
		}
		if got, want := uint64(out[448+i]), num.EncodeMXInt8(x, num.NearestEven); got != want {
			t.Errorf("mxint8: %v converts to %#x, want %#x", x, got, want)
		}
	}
}

// Constants fold with the same rounding as conversions at run time (to
// nearest even, saturating), and packing and unpacking round-trip.
func TestMicroscalingConstantsRun(t *testing.T) {
	src := microHdr + `
const floate2m1_t c0 = floate2m1_t(2.9);
const floate2m1_t c1 = floate2m1_t(-10.0);
const fe2m3vec2 c2 = fe2m3vec2(1.0625, 0.1875);
const floate3m2_t c3 = floate3m2_t(100);
const floatmxint8_t c4 = floatmxint8_t(-100);
const floatmxint8_t c5 = floatmxint8_t(3.0 / 128.0);
void main() {
	v[0] = floatBitsToUint(float(c0));
	v[1] = floatBitsToUint(float(c1));
	v[2] = floatBitsToUint(float(c2.x));
	v[3] = floatBitsToUint(float(c2.y));
	v[4] = floatBitsToUint(float(c3));
	v[5] = floatBitsToUint(float(c4));
	v[6] = uint(floatmxint8BitsToIntEXT(c5) + int8_t(100));
	vector<floate2m1_t, 8> e8 = unpackFloat8xfe2m1EXT(0x9abcdef1u);
	v[7] = packFloat8xfe2m1EXT(e8);
	v[8] = floatBitsToUint(float(e8[0]));
	vector<floate3m2_t, 16> s16 = unpackFloat16xfe3m2EXT(u32vec3(0x12345678u, 0x9abcdef0u, 0x0fedcba9u));
	u32vec3 back = packFloat16xfe3m2EXT(s16);
	v[9] = back.x ^ 0x12345678u | back.y ^ 0x9abcdef0u | back.z ^ 0x0fedcba9u;
	v[10] = floatBitsToUint(float(s16[1]));
	v[11] = floatBitsToUint(float(bitcastExtractfe3m2EXT(uint8_t(0xffu), 3u)));
	fmxint8vec2 m = fmxint8vec2(0.0234375fmxint8, 1.999fmxint8);
	v[12] = floatBitsToUint(float(m.x));
	v[13] = floatBitsToUint(float(m.y));
}
`
	out := runShader(t, src, 1, make([]uint32, 14), nil)
	f := func(i int) float32 { return math.Float32frombits(out[i]) }
	want := []float32{3, -6, 1, 0.25, 28, -127.0 / 64} // ties to even
	for i, w := range want {
		if f(i) != w {
			t.Errorf("v[%d] = %v, want %v", i, f(i), w)
		}
	}
	if out[6] != 102 || out[7] != 0x9abcdef1 || f(8) != 0.5 || out[9] != 0 {
		t.Errorf("v[6..9] = %d %#x %v %#x", out[6], out[7], f(8), out[9])
	}
	// Pattern 1 of the stream 0x...678 (6 bits from bit 6) is 0x19: 1.25*2^3.
	if f(10) != 10 || f(11) != float32(num.E3M2.Decode(0x1f)) {
		t.Errorf("v[10], v[11] = %v %v", f(10), f(11))
	}
	// 1.5/64 is a tie, to the even 2/64; 1.999 saturates.
	if f(12) != 2.0/64 || f(13) != 127.0/64 {
		t.Errorf("mxint8 literals: %v %v", f(12), f(13))
	}
}

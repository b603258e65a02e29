package exec

import (
	"math"
	"sort"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// The OCP microscaling types (SPV_EXT_ocp_microscaling_types) checked
// against the formats' definitions: every pattern's value, and rounding by
// brute force over all values.

type ocpFormat struct {
	name     string
	enc      spirv.FPEncoding
	width    uint32
	exp, man int // 0, 0 for MXINT8
}

var ocpFormats = []ocpFormat{
	{"e2m1", spirv.FPEncodingFloat4E2M1EXT, 4, 2, 1},
	{"e2m3", spirv.FPEncodingFloat6E2M3EXT, 6, 2, 3},
	{"e3m2", spirv.FPEncodingFloat6E3M2EXT, 6, 3, 2},
	{"mxint8", spirv.FPEncodingMXInt8EXT, 8, 0, 0},
}

// value is the number a pattern encodes, from the OCP definitions: sign,
// exponent with bias 2^(exp-1)-1, subnormals at exponent 0, no infinities
// or NaNs; MXINT8 is a two's complement integer in units of 1/64.
func (f ocpFormat) value(b uint64) float64 {
	if f.exp == 0 {
		n := float64(b & 0x7f)
		if b&0x80 != 0 {
			n -= 128
		}
		return n / 64
	}
	m := float64(b & (1<<f.man - 1))
	e := int(b>>f.man) & (1<<f.exp - 1)
	bias := 1<<(f.exp-1) - 1
	v := m / float64(int(1)<<f.man) * math.Pow(2, float64(1-bias))
	if e > 0 {
		v = (1 + m/float64(int(1)<<f.man)) * math.Pow(2, float64(e-bias))
	}
	if b>>(f.exp+f.man)&1 != 0 {
		v = -v
	}
	return v
}

// expect is the pattern x converts to, by brute force: the nearest value
// (ties to the even pattern) or, toward zero, the largest magnitude not
// above |x|; beyond the range the largest value (saturation); NaN gives +0.
// MXINT8 saturates to ±127/64.
func (f ocpFormat) expect(x float64, towardZero bool) uint64 {
	if x != x {
		return 0
	}
	maxv := f.value(1<<(f.width-1) - 1)
	x = max(-maxv, min(x, maxv))
	best, bestD := uint64(0), math.Inf(1)
	n := uint64(1) << f.width
	for b := uint64(0); b < n; b++ {
		if f.exp == 0 && b == 0x80 {
			continue // -2 is never produced
		}
		v := f.value(b)
		if f.exp != 0 && (math.Signbit(v) != math.Signbit(x)) {
			continue
		}
		d := math.Abs(v - x)
		if towardZero && math.Abs(v) > math.Abs(x) {
			continue
		}
		if d < bestD || d == bestD && b&1 == 0 {
			best, bestD = b, d
		}
	}
	return best
}

// ocpType declares the format's float type.
func ocpType(k *kernel, f ocpFormat) uint32 {
	switch f.width {
	case 4:
		k.b.Capability(spirv.CapabilityFloat4EXT)
	case 6:
		k.b.Capability(spirv.CapabilityFloat6EXT)
	default:
		k.b.Capability(spirv.CapabilityMXInt8EXT)
	}
	return k.b.TypeFloatEncoded(f.width, f.enc)
}

// fromByte makes a value of the format from the low bits of a uint8.
func fromByte(k *kernel, f ocpFormat, ft, u8, v uint32) uint32 {
	if f.width == 8 {
		return k.op(spirv.OpBitcast, ft, v)
	}
	return k.op(spirv.OpBitcastExtractEXT, ft, v, k.c32(0))
}

// toBits gives the pattern of a value as a uint: through a vector of the
// type bitcast to bytes, the value being component 0 (the low bits).
func toBits(k *kernel, f ocpFormat, ft, v uint32) uint32 {
	u8 := k.b.TypeInt(8, false)
	switch f.width {
	case 8:
		return k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpBitcast, u8, v))
	case 4:
		zero := k.b.Const(spirv.OpConstantNull, ft)
		pair := k.op(spirv.OpCompositeConstruct, k.b.TypeVector(ft, 2), v, zero)
		return k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpBitcast, u8, pair))
	}
	zero := k.b.Const(spirv.OpConstantNull, ft)
	four := k.op(spirv.OpCompositeConstruct, k.b.TypeVector(ft, 4), v, zero, zero, zero)
	bytes := k.op(spirv.OpBitcast, k.b.TypeVector(u8, 3), four)
	lo := k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpCompositeExtract, u8, bytes, 0))
	hi := k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpCompositeExtract, u8, bytes, 1))
	return k.op(spirv.OpBitwiseOr, k.u32, lo, k.op(spirv.OpShiftLeftLogical, k.u32, hi, k.c32(8)))
}

// Every pattern converts exactly to float32 and to float16.
func TestOCPDecodeEveryPattern(t *testing.T) {
	dev := New(Options{})
	for _, f := range ocpFormats {
		n := uint32(1) << f.width
		k := newKernel(t, n)
		k.b.Capability(spirv.CapabilityInt8)
		k.b.Capability(spirv.CapabilityFloat16)
		ft := ocpType(k, f)
		u8 := k.b.TypeInt(8, false)
		f16t := k.b.TypeFloat(16)
		out := k.buffer(0, k.f32, 4)
		b := k.op(spirv.OpUConvert, u8, k.x)
		v := fromByte(k, f, ft, u8, b)
		base := k.op(spirv.OpIMul, k.u32, k.x, k.c32(2))
		k.store(out, k.f32, base, k.op(spirv.OpFConvert, k.f32, v))
		h := k.op(spirv.OpFConvert, f16t, v)
		k.store(out, k.f32, k.op(spirv.OpIAdd, k.u32, base, k.c32(1)), k.op(spirv.OpFConvert, k.f32, h))
		bo := u32buf(t, dev, make([]uint32, 2*n))
		mustRun(t, dev, k.words(), 1, bo)
		got := f32s(bo)
		for p := uint64(0); p < uint64(n); p++ {
			want := float32(f.value(p))
			for j, g := range got[2*p : 2*p+2] {
				if g != want || math.Signbit(float64(g)) != math.Signbit(float64(want)) {
					t.Errorf("%s pattern %#x: conversion %d gives %v, want %v", f.name, p, j, g, want)
				}
			}
		}
	}
}

// Conversions from float32 round to nearest even (ties between every pair
// of neighbours), or toward zero when decorated so, and saturate.
func TestOCPEncodeRounding(t *testing.T) {
	dev := New(Options{})
	for _, f := range ocpFormats {
		// Every value, and a quarter, half and three quarters of the way
		// to its upper neighbour.
		var vals []float64
		n := uint64(1) << f.width
		for p := uint64(0); p < n; p++ {
			vals = append(vals, f.value(p))
		}
		sort.Float64s(vals)
		var xs []float32
		for i, v := range vals {
			xs = append(xs, float32(v))
			if i+1 < len(vals) && vals[i+1] > v {
				w := vals[i+1]
				xs = append(xs, float32((v+w)/2), float32(v+(w-v)/4), float32(v+3*(w-v)/4))
			}
		}
		xs = append(xs, 1000, -1000, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e-30, -1e-30)
		for len(xs)%64 != 0 {
			xs = append(xs, 0)
		}
		k := newKernel(t, 64)
		k.b.Capability(spirv.CapabilityInt8)
		ft := ocpType(k, f)
		in := k.buffer(0, k.f32, 4)
		out := k.buffer(1, k.u32, 4)
		x := k.load(in, k.f32, k.x)
		rne := k.op(spirv.OpFConvert, ft, x)
		rtz := k.op(spirv.OpFConvert, ft, x)
		k.b.Decorate(rtz, spirv.DecorationFPRoundingMode, uint32(spirv.FPRoundingModeRTZ))
		base := k.op(spirv.OpIMul, k.u32, k.x, k.c32(2))
		k.store(out, k.u32, base, toBits(k, f, ft, rne))
		k.store(out, k.u32, k.op(spirv.OpIAdd, k.u32, base, k.c32(1)), toBits(k, f, ft, rtz))
		var ins []uint32
		for _, x := range xs {
			ins = append(ins, math.Float32bits(x))
		}
		bi, bo := u32buf(t, dev, ins), u32buf(t, dev, make([]uint32, 2*len(xs)))
		mustRun(t, dev, k.words(), uint32(len(xs)/64), bi, bo)
		got := u32s(bo)
		for i, x := range xs {
			if w := f.expect(float64(x), false); uint64(got[2*i]) != w {
				t.Errorf("%s: %v rounds to %#x, want %#x", f.name, x, got[2*i], w)
			}
			if w := f.expect(float64(x), true); uint64(got[2*i+1]) != w {
				t.Errorf("%s: %v rounds toward zero to %#x, want %#x", f.name, x, got[2*i+1], w)
			}
		}
	}
}

// Conversions between the narrow formats: E4M3 and E5M2 to FP4 saturate
// and round to even; FP4 and FP6 widen to fp8 exactly where fp8 holds them.
func TestOCPFromFloat8(t *testing.T) {
	dev := New(Options{})
	e2m1 := ocpFormats[0]
	k := newKernel(t, 256)
	k.b.Capability(spirv.CapabilityInt8)
	k.b.Capability(spirv.CapabilityFloat8EXT)
	ft := ocpType(k, e2m1)
	u8 := k.b.TypeInt(8, false)
	e4 := k.b.TypeFloatEncoded(8, spirv.FPEncodingFloat8E4M3EXT)
	out := k.buffer(0, k.u32, 4)
	v := k.op(spirv.OpBitcast, e4, k.op(spirv.OpUConvert, u8, k.x))
	k.store(out, k.u32, k.x, toBits(k, e2m1, ft, k.op(spirv.OpFConvert, ft, v)))
	bo := u32buf(t, dev, make([]uint32, 256))
	mustRun(t, dev, k.words(), 1, bo)
	for p, g := range u32s(bo) {
		x := toF64(uint64(p), e4m3)
		if want := e2m1.expect(x, false); uint64(g) != want {
			t.Errorf("e4m3 %#x (%v) to e2m1 = %#x, want %#x", p, x, g, want)
		}
	}
}

// OpBitcast between vectors of 4- or 6-bit floats and bytes lays the
// components out from the lowest bits; OpBitcastExtractEXT takes a bit
// field of each component, reading zeros past the base's width.
func TestOCPBitLayout(t *testing.T) {
	dev := New(Options{})
	k := newKernel(t, 1)
	k.b.Capability(spirv.CapabilityInt8)
	k.b.Capability(spirv.CapabilityInt16)
	k.b.Capability(spirv.CapabilityBitcastExtractEXT)
	fp4 := ocpType(k, ocpFormats[0])
	fp6 := ocpType(k, ocpFormats[1])
	u8 := k.b.TypeInt(8, false)
	u16 := k.b.TypeInt(16, false)
	out := k.buffer(0, k.u32, 4)
	c8 := func(v uint32) uint32 { return k.b.Const(spirv.OpConstant, u8, v) }
	outs := 0
	put := func(v uint32) {
		k.store(out, k.u32, k.c32(uint32(outs)), v)
		outs++
	}
	// A byte as two fp4s, and each fp4 back out alone.
	pair := k.op(spirv.OpBitcast, k.b.TypeVector(fp4, 2), c8(0xb6))
	for c := uint32(0); c < 2; c++ {
		put(toBits(k, ocpFormats[0], fp4, k.op(spirv.OpCompositeExtract, fp4, pair, c)))
	}
	// Four fp6s (1, 2, 3, 63) as three bytes.
	v4 := k.b.TypeVector(fp6, 4)
	ex := func(p uint32) uint32 { return k.op(spirv.OpBitcastExtractEXT, fp6, c8(p), k.c32(0)) }
	four := k.op(spirv.OpCompositeConstruct, v4, ex(1), ex(2), ex(3), ex(63))
	bytes := k.op(spirv.OpBitcast, k.b.TypeVector(u8, 3), four)
	for c := uint32(0); c < 3; c++ {
		put(k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpCompositeExtract, u8, bytes, c)))
	}
	// And back.
	back := k.op(spirv.OpBitcast, v4, bytes)
	put(toBits(k, ocpFormats[1], fp6, k.op(spirv.OpCompositeExtract, fp6, back, 3)))
	// Bit fields at offsets 2, 6 and 9 of 0xb6 (9 is past the byte).
	for _, off := range []uint32{2, 6, 9} {
		put(toBits(k, ocpFormats[0], fp4, k.op(spirv.OpBitcastExtractEXT, fp4, c8(0xb6), k.c32(off))))
	}
	// A vector: fp6 fields at offset 5 of uint16 components.
	base := k.op(spirv.OpCompositeConstruct, k.b.TypeVector(u16, 2), k.b.Const(spirv.OpConstant, u16, 0xffff), k.b.Const(spirv.OpConstant, u16, 0x0460))
	fields := k.op(spirv.OpBitcastExtractEXT, k.b.TypeVector(fp6, 2), base, k.c32(5))
	for c := uint32(0); c < 2; c++ {
		put(toBits(k, ocpFormats[1], fp6, k.op(spirv.OpCompositeExtract, fp6, fields, c)))
	}
	bo := u32buf(t, dev, make([]uint32, outs))
	mustRun(t, dev, k.words(), 1, bo)
	// 1 | 2<<6 | 3<<12 | 63<<18 = 0xfc3081.
	want := []uint32{0x6, 0xb, 0x81, 0x30, 0xfc, 63, 0xb6 >> 2 & 0xf, 0xb6 >> 6, 0, 0x3f, 0x0460 >> 5 & 0x3f}
	for i, g := range u32s(bo) {
		if g != want[i] {
			t.Errorf("output %d = %#x, want %#x", i, g, want[i])
		}
	}
}

// E8M0 (Float8UnsignedE8M0EXT), the microscaling scale: pattern e is
// 2^(e-127) and 0xff NaN, widened exactly; conversions to it go toward
// zero to a power of two (as glslang folds constants; the Vulkan
// environment leaves the rounding to the implementation and allows none at
// run time), zero and negatives to 2^-127, overflow and NaN to NaN.
func TestE8M0Conversions(t *testing.T) {
	dev := New(Options{})
	k := newKernel(t, 64)
	k.b.Capability(spirv.CapabilityInt8)
	k.b.Capability(spirv.CapabilityFloat8UnsignedE8M0EXT)
	ft := k.b.TypeFloatEncoded(8, spirv.FPEncodingFloat8UnsignedE8M0EXT)
	u8 := k.b.TypeInt(8, false)
	in := k.buffer(0, k.f32, 4)
	out := k.buffer(1, k.u32, 4)
	base := k.op(spirv.OpIMul, k.u32, k.x, k.c32(2))
	v := k.op(spirv.OpBitcast, ft, k.op(spirv.OpUConvert, u8, k.x))
	k.store(out, k.u32, base, k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpFConvert, k.f32, v)))
	e := k.op(spirv.OpFConvert, ft, k.load(in, k.f32, k.x))
	k.store(out, k.u32, k.op(spirv.OpIAdd, k.u32, base, k.c32(1)), k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpBitcast, u8, e)))
	xs := []float32{1, 3, 0.75, 1e-39, -2, 0, 1e38, float32(math.Inf(1)), float32(math.NaN()), 1.5, 0x1p-126, 0x1p127}
	wants := []uint32{127, 128, 126, 0, 0, 0, 253, 0xff, 0xff, 127, 1, 254}
	ins := make([]uint32, 256)
	for i, x := range xs {
		ins[i] = math.Float32bits(x)
	}
	bi, bo := u32buf(t, dev, ins), u32buf(t, dev, make([]uint32, 512))
	mustRun(t, dev, k.words(), 4, bi, bo)
	got := u32s(bo)
	for p := range 256 {
		want := float32(math.Ldexp(1, p-127))
		if g := math.Float32frombits(got[2*p]); g != want && !(p == 0xff && g != g) {
			t.Errorf("pattern %#x widens to %v, want %v", p, g, want)
		}
	}
	for i, x := range xs {
		if g := got[2*i+1]; g != wants[i] {
			t.Errorf("%v converts to %#x, want %#x", x, g, wants[i])
		}
	}
}

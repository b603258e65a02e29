package exec

import (
	"math"
	"math/rand"
	"sort"
	"testing"

	"github.com/coopshader/coop/spirv"
)

var narrow = map[string]ffmt{"f16": f16, "bf16": bf16, "e4m3": e4m3, "e5m2": e5m2, "e3m2": e3m2, "e2m3": e2m3, "e2m1": e2m1}

// TestNarrowRoundTrip: every bit pattern widens and narrows back to itself
// (NaNs to a NaN).
func TestNarrowRoundTrip(t *testing.T) {
	for name, f := range narrow {
		n := uint64(1) << f.bits()
		for b := uint64(0); b < n; b++ {
			v := toF64(b, f)
			got := fromF64(v, f, rne, false)
			if v != v {
				if !isNaNBits(got, f) {
					t.Errorf("%s: NaN %#x narrows to %#x", name, b, got)
				}
				continue
			}
			if got != b {
				t.Errorf("%s: %#x = %g narrows to %#x", name, b, v, got)
			}
		}
	}
}

// TestNarrowRounding checks every rounding mode at, just below and just
// above the midpoint of every pair of neighbouring positive values.
func TestNarrowRounding(t *testing.T) {
	for name, f := range narrow {
		var vals []uint64
		for b := uint64(0); b < 1<<(f.bits()-1); b++ {
			if v := toF64(b, f); v == v && !math.IsInf(v, 0) {
				vals = append(vals, b)
			}
		}
		sort.Slice(vals, func(i, j int) bool { return toF64(vals[i], f) < toF64(vals[j], f) })
		for i := 0; i+1 < len(vals); i++ {
			lo, hi := vals[i], vals[i+1]
			mid := (toF64(lo, f) + toF64(hi, f)) / 2
			even := lo
			if lo&1 == 1 {
				even = hi
			}
			check := func(x float64, rm rounding, want uint64) {
				if got := fromF64(x, f, rm, false); got != want {
					t.Errorf("%s: round(%g, mode %d) = %#x, want %#x", name, x, rm, got, want)
				}
				if got := fromF64(-x, f, rm^b2r(rm >= rtp), false); got != want|1<<(f.bits()-1) {
					t.Errorf("%s: round(%g, mode %d) = %#x, want %#x", name, -x, rm^b2r(rm >= rtp), got, want|1<<(f.bits()-1))
				}
			}
			check(mid, rne, even)
			check(math.Nextafter(mid, 0), rne, lo)
			check(math.Nextafter(mid, math.Inf(1)), rne, hi)
			check(mid, rtz, lo)
			check(mid, rtp, hi)
			check(mid, rtn, lo)
		}
	}
}

// b2r swaps RTP and RTN for negated inputs (rtp^1 == rtn).
func b2r(b bool) rounding {
	if b {
		return 1
	}
	return 0
}

func TestNarrowOverflow(t *testing.T) {
	cases := []struct {
		f    ffmt
		x    float64
		rm   rounding
		sat  bool
		want uint64
	}{
		{f16, 65519.99, rne, false, 0x7bff},
		{f16, 65520, rne, false, 0x7c00},
		{f16, 1e10, rtz, false, 0x7bff},
		{f16, -1e10, rtn, false, 0xfc00},
		{f16, 1e-8, rne, false, 0},
		{f16, 6e-8, rne, false, 1},
		{e4m3, 464, rne, false, 0x7e},
		{e4m3, 465, rne, false, 0x7f},
		{e4m3, 1e6, rne, true, 0x7e},
		{e4m3, math.Inf(-1), rne, true, 0xfe},
		{e4m3, math.Inf(1), rne, false, 0x7f},
		{e5m2, 61440, rne, false, 0x7c},
		{e5m2, 61439, rne, false, 0x7b},
		{e5m2, 1e6, rne, true, 0x7b},
		{bf16, 3.4e38, rne, false, 0x7f80},
		{bf16, 1.00390625, rne, false, 0x3f80},
		{bf16, 1.01171875, rne, false, 0x3f82},
		{f32, math.MaxFloat64, rtz, false, 0x7f7fffff},
		// The microscaling formats saturate and take NaN to +0.
		{e2m1, 7, rne, false, 0x7},
		{e2m1, 1e9, rtp, false, 0x7},
		{e2m1, math.Inf(-1), rne, false, 0xf},
		{e3m2, 30, rne, false, 0x1f},
		{e2m3, math.NaN(), rne, false, 0},
		{mxint8, -2, rne, false, 0x81},
		{mxint8, math.Inf(1), rtz, false, 0x7f},
	}
	for _, c := range cases {
		if got := fromF64(c.x, c.f, c.rm, c.sat); got != c.want {
			t.Errorf("fromF64(%g, %d, mode %d, sat %v) = %#x, want %#x", c.x, c.f, c.rm, c.sat, got, c.want)
		}
	}
}

func TestF32MatchesGo(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 100000; i++ {
		x := math.Float64frombits(rng.Uint64())
		if x != x {
			continue
		}
		want := uint64(math.Float32bits(float32(x)))
		// The generic path (taken for saturating conversions) must agree
		// with Go's conversion, which rounds to nearest even.
		if got := fromF64(x, f32, rne, true); got != want && !math.IsInf(float64(float32(x)), 0) {
			t.Fatalf("fromF64(%g) = %#x, want %#x", x, got, want)
		}
	}
}

// TestConversions runs OpConvertFToS/FToU on edge values (saturation,
// NaN), OpQuantizeToF16, and OpFConvert to f16 with RTZ and RTE.
func TestConversions(t *testing.T) {
	k := newKernel(t, 16)
	b := k.b
	b.Capability(spirv.CapabilityFloat16)
	f16t := b.TypeFloat(16)
	in := k.buffer(0, k.f32, 4)
	out := k.buffer(1, k.u32, 4)
	v := k.load(in, k.f32, k.x)
	base := k.op(spirv.OpIMul, k.u32, k.x, k.c32(5))
	at := func(i uint32) uint32 { return k.op(spirv.OpIAdd, k.u32, base, k.c32(i)) }
	k.store(out, k.u32, at(0), k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpConvertFToS, k.i32, v)))
	k.store(out, k.u32, at(1), k.op(spirv.OpConvertFToU, k.u32, v))
	k.store(out, k.u32, at(2), k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpQuantizeToF16, k.f32, v)))
	rz := k.op(spirv.OpFConvert, f16t, v)
	b.Decorate(rz, spirv.DecorationFPRoundingMode, uint32(spirv.FPRoundingModeRTZ))
	re := k.op(spirv.OpFConvert, f16t, v)
	k.store(out, k.u32, at(3), k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpBitcast, b.TypeInt(16, false), rz)))
	k.store(out, k.u32, at(4), k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpBitcast, b.TypeInt(16, false), re)))
	b.Capability(spirv.CapabilityInt16)
	vals := []float32{0, float32(math.Copysign(0, -1)), 1.9, -1.9, 3e9, -3e9, 5e9, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
		1e-6, 65519, 65521, 2.5, -2147483648, 4294967040}
	var ins []uint32
	for _, x := range vals {
		ins = append(ins, math.Float32bits(x))
	}
	dev := New(Options{})
	bi, bo := u32buf(t, dev, ins), u32buf(t, dev, make([]uint32, 5*len(vals)))
	mustRun(t, dev, k.words(), 1, bi, bo)
	got := u32s(bo)
	for i, x := range vals {
		fx := float64(x)
		var ws uint32
		switch {
		case x != x:
			ws = 0
		case fx >= 2147483648:
			ws = 0x7fffffff
		case fx < -2147483648:
			ws = 0x80000000
		default:
			ws = uint32(int32(math.Trunc(fx)))
		}
		wu := uint32(0)
		switch {
		case x != x || fx <= 0:
		case fx >= 4294967296:
			wu = 0xffffffff
		default:
			wu = uint32(math.Trunc(fx))
		}
		if got[5*i] != ws || got[5*i+1] != wu {
			t.Errorf("convert %g: s=%#x u=%#x, want %#x %#x", x, got[5*i], got[5*i+1], ws, wu)
		}
		h := fromF64(fx, f16, rne, false)
		q := float32(toF64(h, f16))
		if h&0x7c00 == 0 {
			q = float32(math.Copysign(0, fx))
		}
		if x != x {
			q = float32(math.NaN())
		}
		if g := math.Float32frombits(got[5*i+2]); g != q && !(g != g && q != q) {
			t.Errorf("quantize %g = %g, want %g", x, g, q)
		}
		if got[5*i+3] != uint32(fromF64(fx, f16, rtz, false)) || got[5*i+4] != uint32(h) {
			t.Errorf("fconvert %g: rtz %#x rte %#x", x, got[5*i+3], got[5*i+4])
		}
	}
	if got[5*11+3] != 0x7bff || got[5*12+4] != 0x7c00 || got[5*12+3] != 0x7bff {
		t.Errorf("f16 overflow by rounding mode: %#x %#x %#x", got[5*11+3], got[5*12+4], got[5*12+3])
	}
}

// TestGLSLFloat compares GLSL.std.450 functions on float32 with formulas.
func TestGLSLFloat(t *testing.T) {
	type fcase struct {
		inst uint32
		n    int
		f    func(a, b, c float64) float64
	}
	cases := []fcase{
		{spirv.GLSLstd450Floor, 1, func(a, _, _ float64) float64 { return math.Floor(a) }},
		{spirv.GLSLstd450Fract, 1, func(a, _, _ float64) float64 { return a - math.Floor(a) }},
		{spirv.GLSLstd450Sqrt, 1, func(a, _, _ float64) float64 { return math.Sqrt(a) }},
		{spirv.GLSLstd450Exp2, 1, func(a, _, _ float64) float64 { return math.Exp2(a) }},
		{spirv.GLSLstd450RoundEven, 1, func(a, _, _ float64) float64 { return math.RoundToEven(a) }},
		{spirv.GLSLstd450FMin, 2, func(a, b, _ float64) float64 { return math.Min(a, b) }},
		{spirv.GLSLstd450Pow, 2, func(a, b, _ float64) float64 { return math.Pow(a, b) }},
		{spirv.GLSLstd450FClamp, 3, func(a, b, c float64) float64 { return math.Min(math.Max(a, b), c) }},
		{spirv.GLSLstd450FMix, 3, func(a, b, c float64) float64 { return a*(1-c) + b*c }},
		{spirv.GLSLstd450Fma, 3, func(a, b, c float64) float64 { return math.FMA(a, b, c) }},
	}
	args := [][3]float32{{1.5, 2, 0.25}, {-2.25, 3, 0.5}, {0.1, -7, 1}, {9, 0.5, 0.75}, {100, 1e-3, 2}, {-0.5, -0.25, 0}, {7.75, 2.5, 3}, {16, 4, 0.125}}
	dev := New(Options{})
	for _, c := range cases {
		k := newKernel(t, 8)
		ext := k.b.ExtInstImport("GLSL.std.450")
		in := k.buffer(0, k.f32, 4)
		out := k.buffer(1, k.f32, 4)
		var ops []uint32
		for j := 0; j < c.n; j++ {
			idx := k.op(spirv.OpIAdd, k.u32, k.op(spirv.OpIMul, k.u32, k.x, k.c32(3)), k.c32(uint32(j)))
			ops = append(ops, k.load(in, k.f32, idx))
		}
		r := k.op(spirv.OpExtInst, k.f32, append([]uint32{ext, c.inst}, ops...)...)
		k.store(out, k.f32, k.x, r)
		var flat []uint32
		for _, a := range args {
			for _, v := range a {
				flat = append(flat, math.Float32bits(v))
			}
		}
		bi, bo := u32buf(t, dev, flat), u32buf(t, dev, make([]uint32, len(args)))
		mustRun(t, dev, k.words(), 1, bi, bo)
		for i, g := range f32s(bo) {
			a := args[i]
			want := float32(c.f(float64(a[0]), float64(a[1]), float64(a[2])))
			if g != want && !(g != g && want != want) {
				t.Errorf("GLSL.std.450 %d%v = %g, want %g", c.inst, a, g, want)
			}
		}
	}
}

// isNaNBits reports whether b is a NaN of format f.
func isNaNBits(b uint64, f ffmt) bool { return math.IsNaN(toF64(b, f)) }

func (f ffmt) bits() uint { return uint(fmtDescs[f].nf.Bits()) }

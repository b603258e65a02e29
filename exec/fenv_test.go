package exec

import (
	"testing"

	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
)

// fenvKernel computes out[i] = a[i] OP b[i] in fp32 with the given
// execution modes (mode, width pairs).
func fenvKernel(t *testing.T, op spirv.Op, modes ...spirv.ExecutionMode) []uint32 {
	k := newKernel(t, 1)
	for _, m := range modes {
		k.b.ExecutionMode(k.fn, m, 32)
	}
	in := k.buffer(0, k.f32, 4)
	out := k.buffer(1, k.f32, 4)
	two := k.op(spirv.OpIMul, k.u32, k.x, k.c32(2))
	a := k.load(in, k.f32, two)
	b := k.load(in, k.f32, k.op(spirv.OpIAdd, k.u32, two, k.c32(1)))
	k.store(out, k.f32, k.x, k.op(op, k.f32, a, b))
	return k.words()
}

func fenvRun(t *testing.T, opts Options, code []uint32, pairs ...uint32) []uint32 {
	t.Helper()
	dev := New(opts)
	in := u32buf(t, dev, pairs)
	out := u32buf(t, dev, make([]uint32, len(pairs)/2))
	mustRun(t, dev, code, uint32(len(pairs)/2), in, out)
	return u32s(out)
}

const (
	fOne       = 0x3f800000
	fTiny      = 0x00000003 // a denormal
	fMinusTiny = 0x80000003
	f2p24      = 0x4b800000 // 2^24: 2^24 - 1 is exactly representable, 2^24 - 0.5 not
	fHalf      = 0x3f000000
	fInf       = 0x7f800000
)

func TestFloatControls(t *testing.T) {
	// Defaults: denormals kept, round to nearest even, canonical NaN.
	got := fenvRun(t, Options{}, fenvKernel(t, spirv.OpFAdd), fTiny, 0, f2p24, 0xbf000000, fInf, 0xff800000)
	if got[0] != fTiny || got[1] != f2p24 || got[2] != 0x7fc00000 {
		t.Errorf("defaults: %#x", got)
	}
	// DenormFlushToZero 32: operands and results flushed, sign kept.
	got = fenvRun(t, Options{}, fenvKernel(t, spirv.OpFAdd, spirv.ExecutionModeDenormFlushToZero), fTiny, 0, fMinusTiny, 0x80000000, fOne, fTiny)
	if got[0] != 0 || got[1] != 0x80000000 || got[2] != fOne {
		t.Errorf("flush: %#x", got)
	}
	// RoundingModeRTZ 32: 2^24 - 0.5 rounds down to 2^24 - 1 (nearest
	// even would give 2^24); 1 - 2^-100 rounds down below 1.
	got = fenvRun(t, Options{}, fenvKernel(t, spirv.OpFAdd, spirv.ExecutionModeRoundingModeRTZ), f2p24, 0xbf000000, fOne, 0x8d800000)
	if got[0] != f2p24-1 || got[1] != fOne-1 {
		t.Errorf("rtz add: %#x", got)
	}
	// RTZ division: 1/3 truncated is 0x3eaaaaaa (nearest is ...ab).
	got = fenvRun(t, Options{}, fenvKernel(t, spirv.OpFDiv, spirv.ExecutionModeRoundingModeRTZ), fOne, 0x40400000, fOne, 0x40400000)
	if got[0] != 0x3eaaaaaa {
		t.Errorf("rtz div: %#x", got)
	}
	got = fenvRun(t, Options{}, fenvKernel(t, spirv.OpFDiv), fOne, 0x40400000)
	if got[0] != 0x3eaaaaab {
		t.Errorf("rte div: %#x", got)
	}
}

// TestProfileNumerics: the H100 profile's numerics (NaN 0x7fffffff, fp32
// denormals flushed), and DenormPreserve overriding the profile's flush.
func TestProfileNumerics(t *testing.T) {
	p, err := profile.Builtin("h100")
	if err != nil {
		t.Fatal(err)
	}
	got := fenvRun(t, Options{Profile: p}, fenvKernel(t, spirv.OpFMul), fInf, 0, fTiny, fOne, fOne, fHalf)
	if got[0] != 0x7fffffff || got[1] != 0 || got[2] != fHalf {
		t.Errorf("h100: %#x", got)
	}
	got = fenvRun(t, Options{Profile: p}, fenvKernel(t, spirv.OpFMul, spirv.ExecutionModeDenormPreserve), fTiny, fOne)
	if got[0] != fTiny {
		t.Errorf("h100 with DenormPreserve: %#x", got)
	}
}

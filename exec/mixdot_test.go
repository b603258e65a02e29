package exec

import (
	"math"
	"strings"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// TestMixedFloatDot covers SPV_VALVE_mixed_float_dot_product: exact
// products added to the accumulator one at a time, each sum rounded to the
// result type.
func TestMixedFloatDot(t *testing.T) {
	k := newKernel(t, 1)
	b := k.b
	for _, c := range []spirv.Capability{spirv.CapabilityFloat16, spirv.CapabilityBFloat16TypeKHR, spirv.CapabilityFloat8EXT,
		spirv.CapabilityDotProductFloat16AccFloat32VALVE, spirv.CapabilityDotProductFloat16AccFloat16VALVE,
		spirv.CapabilityDotProductBFloat16AccVALVE, spirv.CapabilityDotProductFloat8AccFloat32VALVE} {
		b.Capability(c)
	}
	out := k.buffer(0, k.u32, 4)
	h := b.TypeFloat(16)
	bf := b.TypeFloatEncoded(16, spirv.FPEncodingBFloat16KHR)
	e4 := b.TypeFloatEncoded(8, spirv.FPEncodingFloat8E4M3EXT)
	u16 := b.TypeInt(16, false)
	u8 := b.TypeInt(8, false)
	b.Capability(spirv.CapabilityInt16)
	b.Capability(spirv.CapabilityInt8)
	// vec builds an n-vector of type ft from raw bits (constants of
	// encoded float types are made by bitcasting integers).
	vec := func(ft, it uint32, bits ...uint32) uint32 {
		parts := make([]uint32, len(bits))
		for i, x := range bits {
			parts[i] = k.op(spirv.OpBitcast, ft, b.Const(spirv.OpConstant, it, x))
		}
		return k.op(spirv.OpCompositeConstruct, b.TypeVector(ft, uint32(len(bits))), parts...)
	}
	f := func(x float32) uint32 { return b.Const(spirv.OpConstant, k.f32, math.Float32bits(x)) }
	one := uint32(0x3c01) // 1 + 2^-10
	vals := []uint32{
		// 10 + 1.5*4 + (-2)*0.25 = 15.5
		k.op(spirv.OpFDot2MixAcc32VALVE, k.f32, vec(h, u16, 0x3e00, 0xc000), vec(h, u16, 0x4400, 0x3400), f(10)),
		// 16 + (1+2^-10)^2 is a tie in float32 and rounds to 17 + 2^-9;
		// adding 2^-20 ties again: 17 + 2^-9, not the exact 17 + 2^-9 + 2^-19.
		k.op(spirv.OpFDot2MixAcc32VALVE, k.f32, vec(h, u16, one, 0x1400), vec(h, u16, one, 0x1400), f(16)),
		// bfloat16: 1 + 3*2 + 0.5*(-4) = 5.
		k.op(spirv.OpFDot2MixAcc32VALVE, k.f32, vec(bf, u16, 0x4040, 0x3f00), vec(bf, u16, 0x4000, 0xc080), f(1)),
		// float16 accumulator: 2 + 0.5 + 0.25 = 2.75 (0x4180).
		k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpBitcast, u16, k.op(spirv.OpFDot2MixAcc16VALVE, h,
			vec(h, u16, 0x3c00, 0x3c00), vec(h, u16, 0x3800, 0x3400), k.op(spirv.OpBitcast, h, b.Const(spirv.OpConstant, u16, 0x4000))))),
		// E4M3: 0.5 + 1*2 + 1.5*(-1) + 448*0.125 + 0.25*0.25 = 57.0625.
		k.op(spirv.OpFDot4MixAcc32VALVE, k.f32, vec(e4, u8, 0x38, 0x3c, 0x7e, 0x28), vec(e4, u8, 0x40, 0xb8, 0x20, 0x28), f(0.5)),
	}
	for i, v := range vals {
		if i != 3 {
			v = k.op(spirv.OpBitcast, k.u32, v)
		}
		k.store(out, k.u32, k.c32(uint32(i)), v)
	}
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, len(vals)))
	mustRun(t, dev, k.words(), 1, bo)
	want := []uint32{math.Float32bits(15.5), math.Float32bits(17 + 1.0/512), math.Float32bits(5), 0x4180, math.Float32bits(57.0625)}
	for i, g := range u32s(bo) {
		if g != want[i] {
			t.Errorf("value %d = %#x (%v), want %#x (%v)", i, g, math.Float32frombits(g), want[i], math.Float32frombits(want[i]))
		}
	}
}

// TestSumToOdd checks the helper that keeps a float64 sum from rounding
// twice: 1 + 2^-60 rounds to 1 in float64, but to odd it keeps the
// sticky bit, so a later rounding to float32 of 1 + 2^-24 + 2^-60 goes up.
func TestSumToOdd(t *testing.T) {
	if s := sumToOdd(1, 0x1p-60); s != math.Nextafter(1, 2) {
		t.Errorf("sumToOdd(1, 2^-60) = %v", s)
	}
	if s := float32(sumToOdd(1+0x1p-24, 0x1p-60)); s != 1+0x1p-23 {
		t.Errorf("1 + 2^-24 + 2^-60 rounds to %v in float32, want 1 + 2^-23", s)
	}
	if s := sumToOdd(3, 4); s != 7 {
		t.Errorf("sumToOdd(3, 4) = %v", s)
	}
}

// TestMixedFloatDotOperands refuses operands of the wrong types at load.
func TestMixedFloatDotOperands(t *testing.T) {
	k := newKernel(t, 1)
	b := k.b
	b.Capability(spirv.CapabilityDotProductFloat16AccFloat32VALVE)
	out := k.buffer(0, k.u32, 4)
	v2 := b.TypeVector(k.f32, 2)
	one := b.Const(spirv.OpConstant, k.f32, math.Float32bits(1))
	v := b.Const(spirv.OpConstantComposite, v2, one, one)
	k.store(out, k.u32, k.c32(0), k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpFDot2MixAcc32VALVE, k.f32, v, v, one)))
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, 1))
	if err := run(t, dev, k.words(), 1, bo); err == nil || !strings.Contains(err.Error(), "OpFDot2MixAcc32VALVE needs two 2-component vectors of 16-bit floats") {
		t.Errorf("float32 vectors: %v", err)
	}
}

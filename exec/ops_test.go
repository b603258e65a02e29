package exec

import (
	"math"
	"math/bits"
	"testing"

	"github.com/coopshader/coop/spirv"
)

var intEdge = []uint32{0, 1, 2, 3, 7, 31, 32, 33, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 12345, 0xdeadbeef, 100}

// binaryKernel builds out[i] = op(a[i], b[i]) over 32-bit values of type ty.
func binaryKernel(t *testing.T, op spirv.Op, ty, rty func(k *kernel) uint32) []uint32 {
	k := newKernel(t, 16)
	in1 := k.buffer(0, ty(k), 4)
	in2 := k.buffer(1, ty(k), 4)
	out := k.buffer(2, rty(k), 4)
	a := k.load(in1, ty(k), k.x)
	b := k.load(in2, ty(k), k.x)
	r := k.op(op, rty(k), a, b)
	if rty(k) == k.boo {
		r = k.op(spirv.OpSelect, k.u32, r, k.c32(1), k.c32(0))
		k.store(out, k.u32, k.x, r)
	} else {
		k.store(out, rty(k), k.x, r)
	}
	return k.words()
}

func pairs(vals []uint32) (a, b []uint32) {
	for _, x := range vals {
		for _, y := range vals {
			a = append(a, x)
			b = append(b, y)
		}
	}
	return
}

func TestIntBinary(t *testing.T) {
	u := func(k *kernel) uint32 { return k.u32 }
	s := func(k *kernel) uint32 { return k.i32 }
	bo := func(k *kernel) uint32 { return k.boo }
	cases := []struct {
		op       spirv.Op
		ty, rty  func(k *kernel) uint32
		f        func(a, b uint32) uint32
		skipZero bool
	}{
		{spirv.OpIAdd, u, u, func(a, b uint32) uint32 { return a + b }, false},
		{spirv.OpISub, s, s, func(a, b uint32) uint32 { return a - b }, false},
		{spirv.OpIMul, u, u, func(a, b uint32) uint32 { return a * b }, false},
		{spirv.OpUDiv, u, u, func(a, b uint32) uint32 { return a / b }, true},
		{spirv.OpUMod, u, u, func(a, b uint32) uint32 { return a % b }, true},
		{spirv.OpSDiv, s, s, func(a, b uint32) uint32 {
			if int32(b) == -1 {
				return -a
			}
			return uint32(int32(a) / int32(b))
		}, true},
		{spirv.OpSRem, s, s, func(a, b uint32) uint32 {
			if int32(b) == -1 {
				return 0
			}
			return uint32(int32(a) % int32(b))
		}, true},
		{spirv.OpSMod, s, s, func(a, b uint32) uint32 {
			if int32(b) == -1 {
				return 0
			}
			r := int32(a) % int32(b)
			if r != 0 && (r < 0) != (int32(b) < 0) {
				r += int32(b)
			}
			return uint32(r)
		}, true},
		{spirv.OpShiftLeftLogical, u, u, func(a, b uint32) uint32 { return a << (b & 31) }, false},
		{spirv.OpShiftRightLogical, u, u, func(a, b uint32) uint32 { return a >> (b & 31) }, false},
		{spirv.OpShiftRightArithmetic, s, s, func(a, b uint32) uint32 { return uint32(int32(a) >> (b & 31)) }, false},
		{spirv.OpBitwiseAnd, u, u, func(a, b uint32) uint32 { return a & b }, false},
		{spirv.OpBitwiseOr, u, u, func(a, b uint32) uint32 { return a | b }, false},
		{spirv.OpBitwiseXor, u, u, func(a, b uint32) uint32 { return a ^ b }, false},
		{spirv.OpIEqual, u, bo, func(a, b uint32) uint32 { return bu(a == b) }, false},
		{spirv.OpINotEqual, u, bo, func(a, b uint32) uint32 { return bu(a != b) }, false},
		{spirv.OpULessThan, u, bo, func(a, b uint32) uint32 { return bu(a < b) }, false},
		{spirv.OpULessThanEqual, u, bo, func(a, b uint32) uint32 { return bu(a <= b) }, false},
		{spirv.OpUGreaterThan, u, bo, func(a, b uint32) uint32 { return bu(a > b) }, false},
		{spirv.OpUGreaterThanEqual, u, bo, func(a, b uint32) uint32 { return bu(a >= b) }, false},
		{spirv.OpSLessThan, s, bo, func(a, b uint32) uint32 { return bu(int32(a) < int32(b)) }, false},
		{spirv.OpSLessThanEqual, s, bo, func(a, b uint32) uint32 { return bu(int32(a) <= int32(b)) }, false},
		{spirv.OpSGreaterThan, s, bo, func(a, b uint32) uint32 { return bu(int32(a) > int32(b)) }, false},
		{spirv.OpSGreaterThanEqual, s, bo, func(a, b uint32) uint32 { return bu(int32(a) >= int32(b)) }, false},
	}
	dev := New(Options{})
	for _, c := range cases {
		t.Run(c.op.String(), func(t *testing.T) {
			a, b := pairs(intEdge)
			code := binaryKernel(t, c.op, c.ty, c.rty)
			ba, bb, bo := u32buf(t, dev, a), u32buf(t, dev, b), u32buf(t, dev, make([]uint32, len(a)))
			mustRun(t, dev, code, uint32(len(a)/16), ba, bb, bo)
			for i, got := range u32s(bo) {
				if c.skipZero && b[i] == 0 {
					continue
				}
				if want := c.f(a[i], b[i]); got != want {
					t.Errorf("%s(%#x, %#x) = %#x, want %#x", c.op, a[i], b[i], got, want)
				}
			}
		})
	}
}

func bu(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

var floatEdge = []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, 3, 1e-45, -1e-45, 1.17549435e-38, 3.4028235e38, -3.4028235e38,
	float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 0.1, 1e30, 16777217}

func TestFloatBinary(t *testing.T) {
	f := func(k *kernel) uint32 { return k.f32 }
	bo := func(k *kernel) uint32 { return k.boo }
	cases := []struct {
		op      spirv.Op
		rty     func(k *kernel) uint32
		f       func(a, b float32) float32
		cmp     func(a, b float32) bool
		special bool
	}{
		{op: spirv.OpFAdd, rty: f, f: func(a, b float32) float32 { return a + b }},
		{op: spirv.OpFSub, rty: f, f: func(a, b float32) float32 { return a - b }},
		{op: spirv.OpFMul, rty: f, f: func(a, b float32) float32 { return a * b }},
		{op: spirv.OpFDiv, rty: f, f: func(a, b float32) float32 { return a / b }},
		{op: spirv.OpFOrdLessThan, rty: bo, cmp: func(a, b float32) bool { return a < b }},
		{op: spirv.OpFUnordLessThan, rty: bo, cmp: func(a, b float32) bool { return !(a >= b) }},
		{op: spirv.OpFOrdEqual, rty: bo, cmp: func(a, b float32) bool { return a == b }},
		{op: spirv.OpFUnordNotEqual, rty: bo, cmp: func(a, b float32) bool { return a != b }},
		{op: spirv.OpFOrdNotEqual, rty: bo, cmp: func(a, b float32) bool { return a == a && b == b && a != b }},
		{op: spirv.OpFOrdGreaterThanEqual, rty: bo, cmp: func(a, b float32) bool { return a >= b }},
	}
	dev := New(Options{})
	var vals []uint32
	for _, v := range floatEdge {
		vals = append(vals, math.Float32bits(v))
	}
	for len(vals)%16 != 0 {
		vals = append(vals, math.Float32bits(2))
	}
	for _, c := range cases {
		t.Run(c.op.String(), func(t *testing.T) {
			a, b := pairs(vals)
			code := binaryKernel(t, c.op, f, c.rty)
			ba, bb, bo := u32buf(t, dev, a), u32buf(t, dev, b), u32buf(t, dev, make([]uint32, len(a)))
			mustRun(t, dev, code, uint32(len(a)/16), ba, bb, bo)
			for i, got := range u32s(bo) {
				x, y := math.Float32frombits(a[i]), math.Float32frombits(b[i])
				if c.cmp != nil {
					if want := bu(c.cmp(x, y)); got != want {
						t.Errorf("%s(%g, %g) = %d, want %d", c.op, x, y, got, want)
					}
					continue
				}
				want := c.f(x, y)
				if want != want {
					if got != 0x7fc00000 {
						t.Errorf("%s(%g, %g) = %#x, want the canonical NaN", c.op, x, y, got)
					}
					continue
				}
				if got != math.Float32bits(want) {
					t.Errorf("%s(%g, %g) = %g (%#x), want %g", c.op, x, y, math.Float32frombits(got), got, want)
				}
			}
		})
	}
}

func TestIntUnary(t *testing.T) {
	cases := []struct {
		op  spirv.Op
		f   func(a uint32) uint32
		ext uint32
	}{
		{op: spirv.OpNot, f: func(a uint32) uint32 { return ^a }},
		{op: spirv.OpSNegate, f: func(a uint32) uint32 { return -a }},
		{op: spirv.OpBitReverse, f: bits.Reverse32},
		{op: spirv.OpBitCount, f: func(a uint32) uint32 { return uint32(bits.OnesCount32(a)) }},
		{op: spirv.OpExtInst, ext: spirv.GLSLstd450FindILsb, f: func(a uint32) uint32 {
			if a == 0 {
				return 0xffffffff
			}
			return uint32(bits.TrailingZeros32(a))
		}},
		{op: spirv.OpExtInst, ext: spirv.GLSLstd450FindUMsb, f: func(a uint32) uint32 { return uint32(31 - bits.LeadingZeros32(a)) }},
		{op: spirv.OpExtInst, ext: spirv.GLSLstd450FindSMsb, f: func(a uint32) uint32 {
			if int32(a) < 0 {
				a = ^a
			}
			return uint32(31 - bits.LeadingZeros32(a))
		}},
		{op: spirv.OpExtInst, ext: spirv.GLSLstd450SAbs, f: func(a uint32) uint32 {
			if int32(a) < 0 {
				return -a
			}
			return a
		}},
	}
	dev := New(Options{})
	for _, c := range cases {
		k := newKernel(t, 16)
		in := k.buffer(0, k.u32, 4)
		out := k.buffer(1, k.u32, 4)
		a := k.load(in, k.u32, k.x)
		var r uint32
		if c.op == spirv.OpExtInst {
			r = k.op(spirv.OpExtInst, k.u32, k.b.ExtInstImport("GLSL.std.450"), c.ext, a)
		} else {
			r = k.op(c.op, k.u32, a)
		}
		k.store(out, k.u32, k.x, r)
		bi, bo := u32buf(t, dev, intEdge), u32buf(t, dev, make([]uint32, len(intEdge)))
		mustRun(t, dev, k.words(), 1, bi, bo)
		for i, got := range u32s(bo) {
			if want := c.f(intEdge[i]); got != want {
				t.Errorf("%s %d(%#x) = %#x, want %#x", c.op, c.ext, intEdge[i], got, want)
			}
		}
	}
}

func TestBitField(t *testing.T) {
	dev := New(Options{})
	k := newKernel(t, 16)
	in := k.buffer(0, k.u32, 4)
	out := k.buffer(1, k.u32, 4)
	a := k.load(in, k.u32, k.x)
	off, cnt := k.c32(4), k.c32(8)
	ins := k.op(spirv.OpBitFieldInsert, k.u32, a, k.c32(0xabc), off, cnt)
	ue := k.op(spirv.OpBitFieldUExtract, k.u32, a, off, cnt)
	se := k.op(spirv.OpBitFieldSExtract, k.i32, k.op(spirv.OpBitcast, k.i32, a), off, cnt)
	sum := k.op(spirv.OpBitwiseXor, k.u32, ins, k.op(spirv.OpIAdd, k.u32, ue, k.op(spirv.OpBitcast, k.u32, se)))
	k.store(out, k.u32, k.x, sum)
	bi, bo := u32buf(t, dev, intEdge), u32buf(t, dev, make([]uint32, len(intEdge)))
	mustRun(t, dev, k.words(), 1, bi, bo)
	for i, got := range u32s(bo) {
		x := intEdge[i]
		ins := x&^0xff0 | 0xbc0
		ue := x >> 4 & 0xff
		se := uint32(int32(int8(x >> 4)))
		if want := ins ^ (ue + se); got != want {
			t.Errorf("bitfield(%#x) = %#x, want %#x", x, got, want)
		}
	}
}

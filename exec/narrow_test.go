package exec

import (
	"encoding/binary"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// narrowCase is out = op(a, b) on a 16- or 8-bit type, with hand-computed
// results (ties to even, overflow, denormals, NaN).
type narrowCase struct {
	op      spirv.Op
	a, b, r uint16
}

func runNarrow(t *testing.T, width uint32, enc int, cases []narrowCase) {
	t.Helper()
	dev := New(Options{})
	for _, c := range cases {
		k := newKernel(t, 1)
		b := k.b
		var ty uint32
		switch {
		case enc >= 0:
			ty = b.TypeFloatEncoded(width, spirv.FPEncoding(enc))
		default:
			ty = b.TypeFloat(width)
		}
		in := k.buffer(0, ty, width/8)
		out := k.buffer(1, ty, width/8)
		x := k.load(in, ty, k.c32(0))
		y := k.load(in, ty, k.c32(1))
		k.store(out, ty, k.c32(0), k.op(c.op, ty, x, y))
		bi, _ := dev.NewBuffer(4, backend.UsageStorage)
		bo, _ := dev.NewBuffer(2, backend.UsageStorage)
		if width == 16 {
			binary.LittleEndian.PutUint16(Bytes(bi), c.a)
			binary.LittleEndian.PutUint16(Bytes(bi)[2:], c.b)
		} else {
			Bytes(bi)[0], Bytes(bi)[1] = byte(c.a), byte(c.b)
		}
		mustRun(t, dev, k.words(), 1, bi, bo)
		got := binary.LittleEndian.Uint16(Bytes(bo))
		if width == 8 {
			got = uint16(Bytes(bo)[0])
		}
		if got != c.r {
			t.Errorf("%d-bit enc %d: %s(%#x, %#x) = %#x, want %#x", width, enc, c.op, c.a, c.b, got, c.r)
		}
	}
}

func TestHalfArithmetic(t *testing.T) {
	runNarrow(t, 16, -1, []narrowCase{
		{spirv.OpFAdd, 0x3c00, 0x1000, 0x3c00}, // 1 + 2^-11: a tie, to even
		{spirv.OpFAdd, 0x3c01, 0x1000, 0x3c02}, // tie, up to even
		{spirv.OpFAdd, 0x7bff, 0x5000, 0x7c00}, // 65504 + 32 overflows
		{spirv.OpFMul, 0x0003, 0x3800, 0x0002}, // denormal 3 * 0.5 = 1.5 ulp: to even
		{spirv.OpFMul, 0x0001, 0x3800, 0x0000},
		{spirv.OpFDiv, 0x3c00, 0x0000, 0x7c00},
		{spirv.OpFSub, 0x7c00, 0x7c00, 0x7e00}, // inf - inf: canonical NaN
		{spirv.OpFDiv, 0x3c00, 0x4200, 0x3555}, // 1/3
	})
}

func TestBFloat16Arithmetic(t *testing.T) {
	runNarrow(t, 16, int(spirv.FPEncodingBFloat16KHR), []narrowCase{
		{spirv.OpFAdd, 0x3f80, 0x3b80, 0x3f80}, // 1 + 2^-8: a tie, to even
		{spirv.OpFAdd, 0x3f81, 0x3b80, 0x3f82},
		{spirv.OpFMul, 0x7f7f, 0x4000, 0x7f80}, // overflow to inf
		{spirv.OpFDiv, 0x3f80, 0x4040, 0x3eab}, // 1/3
	})
}

func TestFloat8Arithmetic(t *testing.T) {
	runNarrow(t, 8, int(spirv.FPEncodingFloat8E4M3EXT), []narrowCase{
		{spirv.OpFAdd, 0x7e, 0x50, 0x7e}, // 448 + 8 rounds down
		{spirv.OpFAdd, 0x7e, 0x58, 0x7e}, // 448 + 16 = 464: a tie, to 448 (even)
		{spirv.OpFAdd, 0x7e, 0x60, 0x7f}, // 448 + 32 = 480: NaN (no infinity)
		{spirv.OpFMul, 0x01, 0x30, 0x00}, // 2^-9 * 0.5: a tie, to zero
		{spirv.OpFSub, 0x38, 0x38, 0x00},
	})
	runNarrow(t, 8, int(spirv.FPEncodingFloat8E5M2EXT), []narrowCase{
		{spirv.OpFAdd, 0x7b, 0x68, 0x7b}, // 57344 + 2048 rounds down
		{spirv.OpFAdd, 0x7b, 0x6c, 0x7c}, // 57344 + 4096: a tie, to even (infinity)
		{spirv.OpFMul, 0x3c, 0x3d, 0x3d}, // 1 * 1.25
	})
}

// TestSmallInts: 8- and 16-bit integer arithmetic wraps, shifts and
// comparisons see the sign of the narrow type.
func TestSmallInts(t *testing.T) {
	dev := New(Options{})
	for _, w := range []uint32{8, 16} {
		k := newKernel(t, 1)
		b := k.b
		s := b.TypeInt(w, true)
		u := b.TypeInt(w, false)
		out := k.buffer(0, k.u32, 4)
		cs := func(v int64) uint32 { return b.Const(spirv.OpConstant, s, uint32(v)&uint32(mask(int(w)))) }
		mx := cs(1<<(w-1) - 1)
		sum := k.op(spirv.OpIAdd, s, mx, cs(1))                           // wraps to min
		neg := k.op(spirv.OpSLessThan, k.boo, sum, cs(0))                 // true
		shr := k.op(spirv.OpShiftRightArithmetic, s, sum, cs(int64(w-1))) // -1
		wide := k.op(spirv.OpSConvert, k.i32, shr)
		uw := k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpBitcast, u, shr))
		k.store(out, k.u32, k.c32(0), k.op(spirv.OpSelect, k.u32, neg, k.c32(1), k.c32(0)))
		k.store(out, k.u32, k.c32(1), k.op(spirv.OpBitcast, k.u32, wide))
		k.store(out, k.u32, k.c32(2), uw)
		b.Capability(spirv.CapabilityInt8)
		b.Capability(spirv.CapabilityInt16)
		bo := u32buf(t, dev, make([]uint32, 3))
		mustRun(t, dev, k.words(), 1, bo)
		got := u32s(bo)
		if got[0] != 1 || got[1] != 0xffffffff || got[2] != uint32(mask(int(w))) {
			t.Errorf("%d-bit: %#x", w, got)
		}
	}
}

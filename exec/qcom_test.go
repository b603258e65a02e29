package exec

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// SPV_QCOM_cooperative_matrix_conversion against its definition: lane i's
// array is row i (MatrixA, Accumulator) or column i (MatrixB) of the
// matrix, uint32 arrays packing narrower components from the low bits;
// the matrices are checked through cooperative matrix loads and stores.
func TestQCOMConversion(t *testing.T) {
	const lanes = 32
	k := newKernel(t, lanes)
	b := k.b
	b.Capability(spirv.CapabilityCooperativeMatrixKHR)
	b.Capability(spirv.CapabilityCooperativeMatrixConversionQCOM)
	b.Capability(spirv.CapabilityFloat16)
	b.Capability(spirv.CapabilityInt8)
	b.Capability(spirv.CapabilityInt16)
	f16 := b.TypeFloat(16)
	u16 := b.TypeInt(16, false)
	i8 := b.TypeInt(8, true)
	sub := k.c32(uint32(spirv.ScopeSubgroup))
	mat := func(comp, rows, cols, use uint32) uint32 {
		return b.Type(spirv.OpTypeCooperativeMatrixKHR, comp, sub, k.c32(rows), k.c32(cols), k.c32(use))
	}
	arr := func(elem, n uint32) uint32 { return b.Type(spirv.OpTypeArray, elem, k.c32(n)) }
	// words makes a uint32 array of n elements f(lane, j).
	words := func(n uint32, f func(j uint32) uint32) uint32 {
		var el []uint32
		for j := uint32(0); j < n; j++ {
			el = append(el, f(j))
		}
		return k.op(spirv.OpCompositeConstruct, arr(k.u32, n), el...)
	}
	lane := k.x
	mul := func(a, c uint32) uint32 { return k.op(spirv.OpIMul, k.u32, a, k.c32(c)) }
	add := func(a, c uint32) uint32 { return k.op(spirv.OpIAdd, k.u32, a, k.c32(c)) }
	or := func(a, c uint32) uint32 { return k.op(spirv.OpBitwiseOr, k.u32, a, c) }
	shl := func(a, c uint32) uint32 { return k.op(spirv.OpShiftLeftLogical, k.u32, a, k.c32(c)) }
	store := func(buf, elem, m, stride uint32) {
		b.Emit(spirv.OpCooperativeMatrixStoreKHR, k.ptr(buf, elem, k.c32(0)), m, k.c32(0), k.c32(stride))
	}
	storeArr := func(buf, a, n, base uint32) {
		for j := uint32(0); j < n; j++ {
			k.store(buf, k.u32, add(mul(lane, n), base+j), k.op(spirv.OpCompositeExtract, k.u32, a, j))
		}
	}

	outA := k.buffer(0, k.f32, 4)
	outB := k.buffer(1, u16, 2)
	inC := k.buffer(2, k.u32, 4)
	inD := k.buffer(3, i8, 1)
	outW := k.buffer(4, k.u32, 4)

	// A: a 16x8 float MatrixA from 8 float bit patterns per lane, lane*10+j.
	fa := words(8, func(j uint32) uint32 {
		return k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpConvertUToF, k.f32, add(mul(lane, 10), j)))
	})
	store(outA, k.f32, k.op(spirv.OpCompositeConstructCoopMatQCOM, mat(k.f32, 16, 8, 0), fa), 8)
	// B: a 16x4 half MatrixB; lane c's word j holds rows 2j and 2j+1, raw
	// patterns c*64+r.
	fb := words(8, func(j uint32) uint32 {
		lo := add(mul(lane, 64), 2*j)
		return or(lo, shl(add(lo, 1), 16))
	})
	store(outB, u16, k.op(spirv.OpCompositeConstructCoopMatQCOM, mat(f16, 16, 4, 1), fb), 4)
	// C: an 8x4 uint32 Accumulator (r*100+c) extracted to 4-word rows.
	mc := b.EmitResult(spirv.OpCooperativeMatrixLoadKHR, mat(k.u32, 8, 4, 2), k.ptr(inC, k.u32, k.c32(0)), k.c32(0), k.c32(4))
	storeArr(outW, k.op(spirv.OpCompositeExtractCoopMatQCOM, arr(k.u32, 4), mc), 4, 0)
	// D: an 8x32 int8 MatrixA (bytes r*32+c) extracted to 8 packed words.
	md := b.EmitResult(spirv.OpCooperativeMatrixLoadKHR, mat(i8, 8, 32, 0), k.ptr(inD, i8, k.c32(0)), k.c32(0), k.c32(32))
	storeArr(outW, k.op(spirv.OpCompositeExtractCoopMatQCOM, arr(k.u32, 8), md), 8, 4*lanes)
	// E: two words bitcast to four halves (read back as two words of
	// swapped halves through a second bitcast), and a sub-array of 4 from
	// index 6 of 8 words (two past the end).
	two := words(2, func(j uint32) uint32 { return add(mul(lane, 0x10001), 0x11112222*(j+1)) })
	halves := k.op(spirv.OpBitCastArrayQCOM, arr(f16, 4), two)
	h := func(j uint32) uint32 {
		return k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpBitcast, u16, k.op(spirv.OpCompositeExtract, f16, halves, j)))
	}
	storeArr(outW, words(4, h), 4, 12*lanes)
	eight := words(8, func(j uint32) uint32 { return add(mul(lane, 8), j) })
	storeArr(outW, k.op(spirv.OpExtractSubArrayQCOM, arr(k.u32, 4), eight, k.c32(6)), 4, 16*lanes)

	for _, noLock := range []bool{false, true} {
		dev := New(Options{noLockstep: noLock})
		bufA, _ := dev.NewBuffer(16*8*4, backend.UsageStorage)
		bufB, _ := dev.NewBuffer(16*4*2, backend.UsageStorage)
		cv := make([]uint32, 8*4)
		for r := 0; r < 8; r++ {
			for c := 0; c < 4; c++ {
				cv[r*4+c] = uint32(r*100 + c)
			}
		}
		bufC := u32buf(t, dev, cv)
		bufD, _ := dev.NewBuffer(8*32, backend.UsageStorage)
		for i := range Bytes(bufD) {
			Bytes(bufD)[i] = byte(i)
		}
		bufW := u32buf(t, dev, make([]uint32, 20*lanes))
		mustRun(t, dev, k.words(), 1, bufA, bufB, bufC, bufD, bufW)

		for r := 0; r < 16; r++ {
			for c := 0; c < 8; c++ {
				if got := math.Float32frombits(binary.LittleEndian.Uint32(Bytes(bufA)[4*(r*8+c):])); got != float32(r*10+c) {
					t.Errorf("A[%d][%d] = %v, want %d", r, c, got, r*10+c)
				}
			}
		}
		for r := 0; r < 16; r++ {
			for c := 0; c < 4; c++ {
				if got := binary.LittleEndian.Uint16(Bytes(bufB)[2*(r*4+c):]); got != uint16(c*64+r) {
					t.Errorf("B[%d][%d] = %#x, want %#x", r, c, got, c*64+r)
				}
			}
		}
		w := u32s(bufW)
		for l := 0; l < lanes; l++ {
			for c := 0; c < 4; c++ {
				want := uint32(0)
				if l < 8 {
					want = uint32(l*100 + c)
				}
				if got := w[4*l+c]; got != want {
					t.Errorf("lane %d: accumulator row word %d = %d, want %d", l, c, got, want)
				}
			}
			for j := 0; j < 8; j++ {
				want := uint32(0)
				if l < 8 {
					base := l*32 + 4*j
					want = binary.LittleEndian.Uint32([]byte{byte(base), byte(base + 1), byte(base + 2), byte(base + 3)})
				}
				if got := w[4*lanes+8*l+j]; got != want {
					t.Errorf("lane %d: int8 row word %d = %#x, want %#x", l, j, got, want)
				}
			}
			w0, w1 := uint32(l*0x10001+0x11112222), uint32(l*0x10001+0x22224444)
			halves := []uint32{w0 & 0xffff, w0 >> 16, w1 & 0xffff, w1 >> 16}
			for j, hv := range halves {
				if got := w[12*lanes+4*l+j]; got != hv {
					t.Errorf("lane %d: half %d = %#x, want %#x", l, j, got, hv)
				}
			}
			sub := []uint32{uint32(l*8 + 6), uint32(l*8 + 7), 0, 0}
			for j, sv := range sub {
				if got := w[16*lanes+4*l+j]; got != sv {
					t.Errorf("lane %d: sub-array %d = %d, want %d", l, j, got, sv)
				}
			}
		}
	}
}

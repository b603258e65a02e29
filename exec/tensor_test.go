package exec

import (
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// TestTensorLoadStore loads a 16x8 slice of a 32x32 f32 tensor, with the
// slice overhanging the tensor (Constant clamp gives 7 there), stores it
// through a second layout into a 16x8 tensor, and loads through a decode
// function that returns the block coordinates it is given.
func TestTensorLoadStore(t *testing.T) {
	ts := newTensorShader(8, spirv.TensorClampModeConstant)
	b, c, f, u32, tm, tl, in, out, pf, decode, zero := ts.b, ts.c, ts.f, ts.u32, ts.tm, ts.tl, ts.in, ts.out, ts.pf, ts.decode, ts.zero
	l0 := b.EmitResult(spirv.OpCreateTensorLayoutNV, tl)
	l1 := b.EmitResult(spirv.OpTensorLayoutSetDimensionNV, tl, l0, c(32), c(32))
	l2 := b.EmitResult(spirv.OpTensorLayoutSetClampValueNV, tl, l1, b.ConstFloat32(f, 7)) // bits of 7.0
	l3 := b.EmitResult(spirv.OpTensorLayoutSliceNV, tl, l2, c(24), c(16), c(4), c(8))
	pin := b.EmitResult(spirv.OpAccessChain, pf, in, c(0), c(0))
	m := b.EmitResult(spirv.OpCooperativeMatrixLoadTensorNV, tm, pin, zero, l3, 0, 0)
	o1 := b.EmitResult(spirv.OpTensorLayoutSetDimensionNV, tl, l0, c(16), c(8))
	pout := b.EmitResult(spirv.OpAccessChain, pf, out, c(0), c(0))
	b.Emit(spirv.OpCooperativeMatrixStoreTensorNV, pout, m, o1, 0, 0)
	d1 := b.EmitResult(spirv.OpTensorLayoutSetBlockSizeNV, tl, l1, c(4), c(2))
	md := b.EmitResult(spirv.OpCooperativeMatrixLoadTensorNV, tm, pin, zero, d1, 0, 2, decode)
	pout2 := b.EmitResult(spirv.OpAccessChain, pf, out, c(0), c(128))
	b.Emit(spirv.OpCooperativeMatrixStoreKHR, pout2, md, c(0), c(8))
	// A permuted view stores an 8x16 matrix transposed into a 16x8 tensor.
	tw := b.Type(spirv.OpTypeCooperativeMatrixKHR, f, c(uint32(spirv.ScopeSubgroup)), c(8), c(16), c(2))
	tv := b.Type(spirv.OpTypeTensorViewNV, c(2), b.ConstBool(b.TypeBool(), false), c(1), c(0))
	wide := b.EmitResult(spirv.OpCooperativeMatrixLoadKHR, tw, pin, c(0), c(16))
	view := b.EmitResult(spirv.OpCreateTensorViewNV, tv)
	pout3 := b.EmitResult(spirv.OpAccessChain, pf, out, c(0), c(256))
	b.Emit(spirv.OpCooperativeMatrixStoreTensorNV, pout3, wide, o1, 0, 1, view)
	b.Emit(spirv.OpReturn)
	b.EndFunction()
	_, bc, ib := ts.beginDecode()
	b0 := b.EmitResult(spirv.OpCompositeExtract, u32, bc, 0)
	b1 := b.EmitResult(spirv.OpCompositeExtract, u32, bc, 1)
	i1 := b.EmitResult(spirv.OpCompositeExtract, u32, ib, 1)
	v := b.EmitResult(spirv.OpIAdd, u32, b.EmitResult(spirv.OpIAdd, u32, b.EmitResult(spirv.OpIMul, u32, b0, c(1000)), b.EmitResult(spirv.OpIMul, u32, b1, c(10))), i1)
	b.Emit(spirv.OpReturnValue, b.EmitResult(spirv.OpConvertUToF, f, v))
	b.Emit(spirv.OpFunctionEnd)
	ts.finish()
	code, _ := b.Module().Words()
	dev := New(Options{})
	vals := make([]uint32, 32*32)
	for i := range vals {
		vals[i] = f32bitsU(float32(i))
	}
	bin := u32buf(t, dev, vals)
	bout := u32buf(t, dev, make([]uint32, 384))
	if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: bin}, {Binding: 1, Buffer: bout}}}); err != nil {
		t.Fatal(err)
	}
	got := f32s(bout)
	for r := 0; r < 8; r++ {
		for cc := 0; cc < 16; cc++ {
			if g := got[256+cc*8+r]; g != float32(r*16+cc) {
				t.Fatalf("transposed view store (%d,%d) = %v, want %v", r, cc, g, r*16+cc)
			}
		}
	}
	for r := 0; r < 16; r++ {
		for cc := 0; cc < 8; cc++ {
			want := float32(7)
			if tr, tc := 24+r, 4+cc; tr < 32 {
				want = float32(tr*32 + tc)
			}
			if g := got[r*8+cc]; g != want {
				t.Fatalf("sliced load (%d,%d) = %v, want %v", r, cc, g, want)
			}
			// The span is 32x32: element (r, c) of the 16x8 matrix is span
			// coordinate (lin/32, lin%32) with lin = r*8 + c; with blocks of
			// 4x2 the block coordinates are those divided by (4, 2).
			lin := r*8 + cc
			sr, sc := lin/32, lin%32
			if g, w := got[128+r*8+cc], float32((sr/4)*1000+(sc/2)*10+sc%2); g != w {
				t.Fatalf("decoded (%d,%d) = %v, want %v", r, cc, g, w)
			}
		}
	}
}

// tensorShader is the common start of the tensor tests' shaders: a 16xcols
// f32 matrix type, a 2-D tensor layout, two storage buffers of floats
// (bindings 0 and 1), a decode function's id, and main begun with a zero
// matrix.
type tensorShader struct {
	b                                                           *spirv.Builder
	c                                                           func(uint32) uint32
	f, u32, tm, tl, in, out, arr2, pfPhys, pf, decode, fn, zero uint32
}

func newTensorShader(cols uint32, clamp spirv.TensorClampMode) *tensorShader {
	b := spirv.NewBuilder(spirv.MakeVersion(1, 6), 0)
	b.Capability(spirv.CapabilityShader)
	b.Capability(spirv.CapabilityCooperativeMatrixKHR)
	b.Capability(spirv.CapabilityTensorAddressingNV)
	b.Capability(spirv.CapabilityPhysicalStorageBufferAddresses)
	b.MemoryModel(spirv.AddressingModelPhysicalStorageBuffer64, spirv.MemoryModelGLSL450)
	ts := &tensorShader{b: b, u32: b.TypeInt(32, false), f: b.TypeFloat(32)}
	void := b.TypeVoid()
	c := func(v uint32) uint32 { return b.ConstUint32(ts.u32, v) }
	ts.c = c
	ts.tm = b.Type(spirv.OpTypeCooperativeMatrixKHR, ts.f, c(uint32(spirv.ScopeSubgroup)), c(16), c(cols), c(2))
	ts.tl = b.Type(spirv.OpTypeTensorLayoutNV, c(2), c(uint32(clamp)))
	ra := b.NewType(spirv.OpTypeRuntimeArray, ts.f)
	b.Decorate(ra, spirv.DecorationArrayStride, 4)
	st := b.NewType(spirv.OpTypeStruct, ra)
	b.Decorate(st, spirv.DecorationBlock)
	b.MemberDecorate(st, 0, spirv.DecorationOffset, 0)
	ts.in = b.Variable(b.TypePointer(spirv.StorageClassStorageBuffer, st), spirv.StorageClassStorageBuffer)
	ts.out = b.Variable(b.TypePointer(spirv.StorageClassStorageBuffer, st), spirv.StorageClassStorageBuffer)
	for k, v := range []uint32{ts.in, ts.out} {
		b.Decorate(v, spirv.DecorationDescriptorSet, 0)
		b.Decorate(v, spirv.DecorationBinding, uint32(k))
	}
	ts.arr2 = b.Type(spirv.OpTypeArray, ts.u32, c(2))
	ts.pfPhys = b.TypePointer(spirv.StorageClassPhysicalStorageBuffer, ts.f)
	ts.decode = b.ID()
	ts.pf = b.TypePointer(spirv.StorageClassStorageBuffer, ts.f)
	ts.fn = b.BeginFunction(void, 0, b.TypeFunction(void))
	b.Label(b.ID())
	ts.zero = b.EmitResult(spirv.OpCompositeConstruct, ts.tm, b.ConstFloat32(ts.f, 0))
	return ts
}

// beginDecode opens the decode function (after main has ended) and returns
// its parameters: the element's pointer, the block coordinates and the
// coordinates within the block.
func (ts *tensorShader) beginDecode() (ptr, block, inBlock uint32) {
	b := ts.b
	b.Add(spirv.SecFunction, spirv.OpFunction, ts.f, ts.decode, 0, b.TypeFunction(ts.f, ts.pfPhys, ts.arr2, ts.arr2))
	ptr, block, inBlock = b.ID(), b.ID(), b.ID()
	b.Emit(spirv.OpFunctionParameter, ts.pfPhys, ptr)
	b.Emit(spirv.OpFunctionParameter, ts.arr2, block)
	b.Emit(spirv.OpFunctionParameter, ts.arr2, inBlock)
	b.Label(b.ID())
	return ptr, block, inBlock
}

// finish declares main as a 32-wide compute entry point.
func (ts *tensorShader) finish() {
	ts.b.EntryPoint(spirv.ExecutionModelGLCompute, ts.fn, "main", ts.in, ts.out)
	ts.b.ExecutionMode(ts.fn, spirv.ExecutionModeLocalSize, 32, 1, 1)
}

package exec

import (
	"math"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// TestCoopMatrix2 loads a 16x8 f32 accumulator of the given scope, applies
// a per-element function, reduces rows with a combine function, transposes
// the original, and stores all three.
func TestCoopMatrix2(t *testing.T) {
	for _, scope := range []spirv.Scope{spirv.ScopeSubgroup, spirv.ScopeWorkgroup} {
		b := spirv.NewBuilder(spirv.MakeVersion(1, 6), 0)
		b.Capability(spirv.CapabilityShader)
		b.Capability(spirv.CapabilityCooperativeMatrixKHR)
		b.MemoryModel(spirv.AddressingModelLogical, spirv.MemoryModelGLSL450)
		void := b.TypeVoid()
		u32 := b.TypeInt(32, false)
		f := b.TypeFloat(32)
		c := func(v uint32) uint32 { return b.ConstUint32(u32, v) }
		sc := c(uint32(scope))
		tm := b.Type(spirv.OpTypeCooperativeMatrixKHR, f, sc, c(16), c(8), c(2))
		tt := b.Type(spirv.OpTypeCooperativeMatrixKHR, f, sc, c(8), c(16), c(1))
		ra := b.NewType(spirv.OpTypeRuntimeArray, f)
		b.Decorate(ra, spirv.DecorationArrayStride, 4)
		st := b.NewType(spirv.OpTypeStruct, ra)
		b.Decorate(st, spirv.DecorationBlock)
		b.MemberDecorate(st, 0, spirv.DecorationOffset, 0)
		buf := b.Variable(b.TypePointer(spirv.StorageClassStorageBuffer, st), spirv.StorageClassStorageBuffer)
		b.Decorate(buf, spirv.DecorationDescriptorSet, 0)
		b.Decorate(buf, spirv.DecorationBinding, 0)
		pf := b.TypePointer(spirv.StorageClassStorageBuffer, f)
		combine, perElem := b.ID(), b.ID()
		fn := b.BeginFunction(void, 0, b.TypeFunction(void))
		b.Label(b.ID())
		at := func(i uint32) uint32 { return b.EmitResult(spirv.OpAccessChain, pf, buf, c(0), c(i)) }
		m := b.EmitResult(spirv.OpCooperativeMatrixLoadKHR, tm, at(0), c(0), c(8))
		pe := b.EmitResult(spirv.OpCooperativeMatrixPerElementOpNV, tm, m, perElem)
		red := b.EmitResult(spirv.OpCooperativeMatrixReduceNV, tm, m, uint32(spirv.CooperativeMatrixReduceRow), combine)
		tr := b.EmitResult(spirv.OpCooperativeMatrixTransposeNV, tt, m)
		b.Emit(spirv.OpCooperativeMatrixStoreKHR, at(128), pe, c(0), c(8))
		b.Emit(spirv.OpCooperativeMatrixStoreKHR, at(256), red, c(0), c(8))
		b.Emit(spirv.OpCooperativeMatrixStoreKHR, at(384), tr, c(0), c(16))
		b.Emit(spirv.OpReturn)
		b.EndFunction()
		b.Add(spirv.SecFunction, spirv.OpFunction, f, combine, 0, b.TypeFunction(f, f, f))
		x, y := b.ID(), b.ID()
		b.Emit(spirv.OpFunctionParameter, f, x)
		b.Emit(spirv.OpFunctionParameter, f, y)
		b.Label(b.ID())
		b.Emit(spirv.OpReturnValue, b.EmitResult(spirv.OpFAdd, f, x, y))
		b.Emit(spirv.OpFunctionEnd)
		b.Add(spirv.SecFunction, spirv.OpFunction, f, perElem, 0, b.TypeFunction(f, u32, u32, f))
		r, col, v := b.ID(), b.ID(), b.ID()
		b.Emit(spirv.OpFunctionParameter, u32, r)
		b.Emit(spirv.OpFunctionParameter, u32, col)
		b.Emit(spirv.OpFunctionParameter, f, v)
		b.Label(b.ID())
		off := b.EmitResult(spirv.OpConvertUToF, f, b.EmitResult(spirv.OpIAdd, u32, b.EmitResult(spirv.OpIMul, u32, r, c(100)), col))
		b.Emit(spirv.OpReturnValue, b.EmitResult(spirv.OpFAdd, f, v, off))
		b.Emit(spirv.OpFunctionEnd)
		b.EntryPoint(spirv.ExecutionModelGLCompute, fn, "main", buf)
		b.ExecutionMode(fn, spirv.ExecutionModeLocalSize, 64, 1, 1)
		code, _ := b.Module().Words()
		dev := New(Options{SubgroupSize: 32})
		vals := make([]uint32, 512)
		for i := 0; i < 128; i++ {
			vals[i] = f32bitsU(float32(i))
		}
		bo := u32buf(t, dev, vals)
		groups := uint32(1)
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{groups, 1, 1}, Bindings: []backend.Binding{{Buffer: bo}}}); err != nil {
			t.Fatalf("scope %d: %v", scope, err)
		}
		got := f32s(bo)
		for r := 0; r < 16; r++ {
			rowSum := float32(0)
			for cc := 0; cc < 8; cc++ {
				rowSum += float32(r*8 + cc)
			}
			for cc := 0; cc < 8; cc++ {
				e := float32(r*8 + cc)
				if g := got[128+r*8+cc]; g != e+float32(r*100+cc) {
					t.Fatalf("scope %d: per-element (%d,%d) = %v", scope, r, cc, g)
				}
				if g := got[256+r*8+cc]; g != rowSum {
					t.Fatalf("scope %d: row reduce (%d,%d) = %v, want %v", scope, r, cc, g, rowSum)
				}
				if g := got[384+cc*16+r]; g != e {
					t.Fatalf("scope %d: transpose (%d,%d) = %v, want %v", scope, cc, r, g, e)
				}
			}
		}
	}
}

func f32bitsU(v float32) uint32 { return math.Float32bits(v) }

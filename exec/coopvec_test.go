package exec

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// TestCoopVecMatMulAdd: y = M*x + b with an fp16 3x4 matrix in row-major
// and in (transposed) optimal layouts, fp16 input and bias, fp32 result,
// and a ReduceSumAccumulate of the result.
func TestCoopVecMatMulAdd(t *testing.T) {
	for _, transpose := range []bool{false, true} {
		b := spirv.NewBuilder(spirv.MakeVersion(1, 6), 0)
		b.Capability(spirv.CapabilityShader)
		b.Capability(spirv.CapabilityCooperativeVectorNV)
		b.Capability(spirv.CapabilityFloat16)
		b.MemoryModel(spirv.AddressingModelLogical, spirv.MemoryModelGLSL450)
		void := b.TypeVoid()
		u32 := b.TypeInt(32, false)
		h := b.TypeFloat(16)
		f := b.TypeFloat(32)
		boo := b.TypeBool()
		c := func(v uint32) uint32 { return b.ConstUint32(u32, v) }
		vh := b.Type(spirv.OpTypeVectorIdEXT, h, c(4))
		vf := b.Type(spirv.OpTypeVectorIdEXT, f, c(3))
		ra := b.NewType(spirv.OpTypeRuntimeArray, h)
		b.Decorate(ra, spirv.DecorationArrayStride, 2)
		st := b.NewType(spirv.OpTypeStruct, ra)
		b.Decorate(st, spirv.DecorationBlock)
		b.MemberDecorate(st, 0, spirv.DecorationOffset, 0)
		rf := b.NewType(spirv.OpTypeRuntimeArray, f)
		b.Decorate(rf, spirv.DecorationArrayStride, 4)
		sf := b.NewType(spirv.OpTypeStruct, rf)
		b.Decorate(sf, spirv.DecorationBlock)
		b.MemberDecorate(sf, 0, spirv.DecorationOffset, 0)
		in := b.Variable(b.TypePointer(spirv.StorageClassStorageBuffer, st), spirv.StorageClassStorageBuffer)
		out := b.Variable(b.TypePointer(spirv.StorageClassStorageBuffer, sf), spirv.StorageClassStorageBuffer)
		b.Decorate(in, spirv.DecorationDescriptorSet, 0)
		b.Decorate(in, spirv.DecorationBinding, 0)
		b.Decorate(out, spirv.DecorationDescriptorSet, 0)
		b.Decorate(out, spirv.DecorationBinding, 1)
		fn := b.BeginFunction(void, 0, b.TypeFunction(void))
		b.Label(b.ID())
		arr := b.EmitResult(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassStorageBuffer, ra), in, c(0))
		oarr := b.EmitResult(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassStorageBuffer, rf), out, c(0))
		x := b.EmitResult(spirv.OpCooperativeVectorLoadNV, vh, arr, c(0))
		lay := uint32(spirv.CooperativeVectorMatrixLayoutRowMajorNV)
		if transpose {
			lay = uint32(spirv.CooperativeVectorMatrixLayoutInferencingOptimalNV)
		}
		fp16 := c(uint32(spirv.ComponentTypeFloat16NV))
		y := b.EmitResult(spirv.OpCooperativeVectorMatrixMulAddNV, vf, x, fp16, arr, c(8), fp16, arr, c(32), fp16,
			c(3), c(4), c(lay), b.ConstBool(boo, transpose), c(8))
		b.Emit(spirv.OpCooperativeVectorStoreNV, oarr, c(0), y)
		b.Emit(spirv.OpCooperativeVectorReduceSumAccumulateNV, oarr, c(12), y)
		b.Emit(spirv.OpReturn)
		b.EndFunction()
		b.EntryPoint(spirv.ExecutionModelGLCompute, fn, "main", in, out)
		b.ExecutionMode(fn, spirv.ExecutionModeLocalSize, 1, 1, 1)
		code, _ := b.Module().Words()
		dev := New(Options{})
		xs := []float64{1, 2, -1, 0.5}
		mat := [3][4]float64{{1, 0, 2, 4}, {0.5, 0.25, 1, -2}, {3, 3, 3, 3}}
		bias := []float64{10, 20, 30}
		bin, _ := dev.NewBuffer(64, backend.UsageStorage)
		put := func(i int, v float64) {
			binary.LittleEndian.PutUint16(Bytes(bin)[2*i:], uint16(fromF64(v, f16, rne, false)))
		}
		for i, v := range xs {
			put(i, v)
		}
		for m := 0; m < 3; m++ {
			for k := 0; k < 4; k++ {
				if transpose { // stored K x M, rows packed
					put(4+k*3+m, mat[m][k])
				} else {
					put(4+m*4+k, mat[m][k])
				}
			}
			put(16+m, bias[m])
		}
		bout, _ := dev.NewBuffer(24, backend.UsageStorage)
		binary.LittleEndian.PutUint32(Bytes(bout)[12:], math.Float32bits(100))
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: bin}, {Binding: 1, Buffer: bout}}})
		if err != nil {
			t.Fatal(err)
		}
		got := f32s(bout)
		total := 100.0
		for m := 0; m < 3; m++ {
			want := bias[m]
			for k := 0; k < 4; k++ {
				want += mat[m][k] * xs[k]
			}
			if float64(got[m]) != want {
				t.Errorf("transpose %v: y[%d] = %v, want %v", transpose, m, got[m], want)
			}
			if m == 0 {
				total += want
			}
		}
		if float64(got[3]) != total {
			t.Errorf("reduce-sum-accumulate: %v, want %v", got[3], total)
		}
	}
}

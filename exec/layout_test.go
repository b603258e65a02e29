package exec

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// TestRowMajorMatrix reads a row-major mat3 (3 columns of vec2, MatrixStride
// 16, so each row is a padded vec4) from a storage buffer as a whole, by
// column through an access chain, and by element; multiplies it by a
// vector; and reports the runtime array length after it.
func TestRowMajorMatrix(t *testing.T) {
	k := newKernel(t, 1)
	b := k.b
	v2 := b.TypeVector(k.f32, 2)
	v3 := b.TypeVector(k.f32, 3)
	m32 := b.TypeMatrix(v2, 3) // 3 columns, 2 rows
	ra := b.NewType(spirv.OpTypeRuntimeArray, k.f32)
	b.Decorate(ra, spirv.DecorationArrayStride, 4)
	st := b.NewType(spirv.OpTypeStruct, m32, ra)
	b.Decorate(st, spirv.DecorationBlock)
	b.MemberDecorate(st, 0, spirv.DecorationOffset, 0)
	b.MemberDecorate(st, 0, spirv.DecorationRowMajor)
	b.MemberDecorate(st, 0, spirv.DecorationMatrixStride, 16)
	b.MemberDecorate(st, 1, spirv.DecorationOffset, 32)
	in := b.Variable(b.TypePointer(spirv.StorageClassStorageBuffer, st), spirv.StorageClassStorageBuffer)
	b.Decorate(in, spirv.DecorationDescriptorSet, 0)
	b.Decorate(in, spirv.DecorationBinding, 0)
	k.ifc = append(k.ifc, in)
	out := k.buffer(1, k.f32, 4)
	m := k.op(spirv.OpLoad, m32, k.op(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassStorageBuffer, m32), in, k.c32(0)))
	col1 := k.op(spirv.OpLoad, v2, k.op(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassStorageBuffer, v2), in, k.c32(0), k.c32(1)))
	e21 := k.op(spirv.OpLoad, k.f32, k.op(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassStorageBuffer, k.f32), in, k.c32(0), k.c32(2), k.c32(1)))
	vec := b.Const(spirv.OpConstantComposite, v3, b.ConstFloat32(k.f32, 1), b.ConstFloat32(k.f32, 10), b.ConstFloat32(k.f32, 100))
	mv := k.op(spirv.OpMatrixTimesVector, v2, m, vec)
	n := k.op(spirv.OpArrayLength, k.u32, in, 1)
	vals := []uint32{
		k.op(spirv.OpCompositeExtract, k.f32, m, 0, 0), k.op(spirv.OpCompositeExtract, k.f32, m, 0, 1),
		k.op(spirv.OpCompositeExtract, k.f32, m, 2, 0), k.op(spirv.OpCompositeExtract, k.f32, col1, 0),
		k.op(spirv.OpCompositeExtract, k.f32, col1, 1), e21,
		k.op(spirv.OpCompositeExtract, k.f32, mv, 0), k.op(spirv.OpCompositeExtract, k.f32, mv, 1),
		k.op(spirv.OpConvertUToF, k.f32, n),
	}
	for i, v := range vals {
		k.store(out, k.f32, k.c32(uint32(i)), v)
	}
	// Store a column back: column 0 := column 1.
	b.Emit(spirv.OpStore, k.op(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassStorageBuffer, v2), in, k.c32(0), k.c32(0)), col1)
	dev := New(Options{})
	bin, _ := dev.NewBuffer(32+4*5, backend.UsageStorage)
	// Row 0 = (1, 2, 3), row 1 = (4, 5, 6): element (row r, column c) at r*16 + c*4.
	for r := 0; r < 2; r++ {
		for c := 0; c < 3; c++ {
			binary.LittleEndian.PutUint32(Bytes(bin)[r*16+c*4:], math.Float32bits(float32(r*3+c+1)))
		}
	}
	bout := u32buf(t, dev, make([]uint32, len(vals)))
	mustRun(t, dev, k.words(), 1, bin, bout)
	want := []float32{1, 4, 3, 2, 5, 6, 1 + 20 + 300, 4 + 50 + 600, 5}
	for i, g := range f32s(bout) {
		if g != want[i] {
			t.Errorf("value %d = %v, want %v", i, g, want[i])
		}
	}
	d := Bytes(bin)
	if math.Float32frombits(binary.LittleEndian.Uint32(d[0:])) != 2 || math.Float32frombits(binary.LittleEndian.Uint32(d[16:])) != 5 {
		t.Errorf("column store into a row-major matrix landed wrong: % x", d[:32])
	}
}

// TestMatrixOps checks OpTranspose, OpMatrixTimesMatrix, OpVectorTimesMatrix,
// OpDot, OpOuterProduct and GLSL Determinant/MatrixInverse on a mat2.
func TestMatrixOps(t *testing.T) {
	k := newKernel(t, 1)
	b := k.b
	v2 := b.TypeVector(k.f32, 2)
	m2 := b.TypeMatrix(v2, 2)
	fc := func(v float32) uint32 { return b.ConstFloat32(k.f32, v) }
	c0 := b.Const(spirv.OpConstantComposite, v2, fc(1), fc(2)) // column 0
	c1 := b.Const(spirv.OpConstantComposite, v2, fc(3), fc(4)) // column 1
	m := b.Const(spirv.OpConstantComposite, m2, c0, c1)        // [[1 3] [2 4]]
	out := k.buffer(0, k.f32, 4)
	ext := b.ExtInstImport("GLSL.std.450")
	tr := k.op(spirv.OpTranspose, m2, m)
	mm := k.op(spirv.OpMatrixTimesMatrix, m2, m, tr)
	vm := k.op(spirv.OpVectorTimesMatrix, v2, c0, m)
	dot := k.op(spirv.OpDot, k.f32, c0, c1)
	op := k.op(spirv.OpOuterProduct, m2, c0, c1)
	det := k.op(spirv.OpExtInst, k.f32, ext, spirv.GLSLstd450Determinant, m)
	inv := k.op(spirv.OpExtInst, m2, ext, spirv.GLSLstd450MatrixInverse, m)
	vals := []uint32{
		k.op(spirv.OpCompositeExtract, k.f32, tr, 0, 1), k.op(spirv.OpCompositeExtract, k.f32, mm, 1, 0),
		k.op(spirv.OpCompositeExtract, k.f32, vm, 1), dot, k.op(spirv.OpCompositeExtract, k.f32, op, 1, 0), det,
		k.op(spirv.OpCompositeExtract, k.f32, inv, 0, 0), k.op(spirv.OpCompositeExtract, k.f32, inv, 1, 0),
	}
	for i, v := range vals {
		k.store(out, k.f32, k.c32(uint32(i)), v)
	}
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, len(vals)))
	mustRun(t, dev, k.words(), 1, bo)
	// M = [[1 3] [2 4]] (rows); M*Mt = [[10 14] [14 20]]; (1,2)*M = (5, 11);
	// outer (1,2)x(3,4): column 1 = (4, 8); det = -2; inverse = [[-2 1.5] [1 -0.5]].
	want := []float32{3, 14, 11, 11, 4, -2, -2, 1.5}
	for i, g := range f32s(bo) {
		if g != want[i] {
			t.Errorf("value %d = %v, want %v", i, g, want[i])
		}
	}
}

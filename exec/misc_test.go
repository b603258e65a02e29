package exec

import (
	"testing"

	"github.com/coopshader/coop/spirv"
)

// TestCompositeAndExtended covers shuffles, dynamic extract/insert,
// composite insert, vector select, the extended-arithmetic structs,
// saturating conversions, OpCopyMemory and OpCopyLogical.
func TestCompositeAndExtended(t *testing.T) {
	k := newKernel(t, 1)
	b := k.b
	v4 := b.TypeVector(k.u32, 4)
	bv4 := b.TypeVector(k.boo, 4)
	out := k.buffer(0, k.u32, 4)
	c := k.c32
	a := b.Const(spirv.OpConstantComposite, v4, c(1), c(2), c(3), c(4))
	bb := b.Const(spirv.OpConstantComposite, v4, c(10), c(20), c(30), c(40))
	sh := k.op(spirv.OpVectorShuffle, v4, a, bb, 7, 0, 5, 2)                                                                                                                                  // 40 1 20 3
	ins := k.op(spirv.OpCompositeInsert, v4, c(99), sh, 1)                                                                                                                                    // 40 99 20 3
	dyn := k.op(spirv.OpVectorExtractDynamic, k.u32, ins, c(1))                                                                                                                               // 99
	di := k.op(spirv.OpVectorInsertDynamic, v4, ins, c(7), c(3))                                                                                                                              // 40 99 20 7
	sel := k.op(spirv.OpSelect, v4, b.Const(spirv.OpConstantComposite, bv4, b.ConstBool(k.boo, true), b.ConstBool(k.boo, false), b.ConstBool(k.boo, true), b.ConstBool(k.boo, false)), a, bb) // 1 20 3 40
	st := b.Type(spirv.OpTypeStruct, k.u32, k.u32)
	carry := k.op(spirv.OpIAddCarry, st, c(0xffffffff), c(2))  // 1, 1
	mul := k.op(spirv.OpUMulExtended, st, c(0x80000000), c(6)) // 0, 3
	sst := b.Type(spirv.OpTypeStruct, k.i32, k.i32)
	smul := k.op(spirv.OpSMulExtended, sst, b.Const(spirv.OpConstant, k.i32, 0xfffffffe), b.Const(spirv.OpConstant, k.i32, 3)) // -6: lo 0xfffffffa hi 0xffffffff
	b.Capability(spirv.CapabilityInt8)
	u8 := b.TypeInt(8, false)
	s8 := b.TypeInt(8, true)
	satU := k.op(spirv.OpUConvert, k.u32, k.op(spirv.OpSatConvertSToU, u8, b.Const(spirv.OpConstant, k.i32, 300))) // 255
	satS := k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpSConvert, k.i32, k.op(spirv.OpSatConvertUToS, s8, c(200))))  // 127
	fv := b.LocalVariable(b.TypePointer(spirv.StorageClassFunction, v4))
	b.Emit(spirv.OpStore, fv, di)
	b.Emit(spirv.OpCopyMemory, k.op(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassStorageBuffer, v4), out, c(0), c(12)), fv) // out[12..15] = di
	cl := k.op(spirv.OpCopyLogical, v4, sel)
	vals := []uint32{
		k.op(spirv.OpCompositeExtract, k.u32, sh, 0), k.op(spirv.OpCompositeExtract, k.u32, sh, 3), dyn,
		k.op(spirv.OpCompositeExtract, k.u32, cl, 1), k.op(spirv.OpCompositeExtract, k.u32, cl, 3),
		k.op(spirv.OpCompositeExtract, k.u32, carry, 0), k.op(spirv.OpCompositeExtract, k.u32, carry, 1),
		k.op(spirv.OpCompositeExtract, k.u32, mul, 1),
		k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpCompositeExtract, k.i32, smul, 0)),
		k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpCompositeExtract, k.i32, smul, 1)),
		satU, satS,
	}
	for i, v := range vals {
		k.store(out, k.u32, c(uint32(i)), v)
	}
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, 16))
	mustRun(t, dev, k.words(), 1, bo)
	want := []uint32{40, 3, 99, 20, 40, 1, 1, 3, 0xfffffffa, 0xffffffff, 255, 127, 40, 99, 20, 7}
	for i, g := range u32s(bo) {
		if g != want[i] {
			t.Errorf("value %d = %#x, want %#x", i, g, want[i])
		}
	}
}

// TestSubgroupMore covers rotate, quad swap and broadcast, partitioned
// reduction, ballot bit count and inverse ballot, with subgroup size 16.
func TestSubgroupMore(t *testing.T) {
	k := newKernel(t, 16)
	b := k.b
	out := k.buffer(0, k.u32, 4)
	v4 := b.TypeVector(k.u32, 4)
	sg := k.c32(uint32(spirv.ScopeSubgroup))
	lid := k.builtin(spirv.BuiltInSubgroupLocalInvocationId, k.u32)
	val := k.op(spirv.OpIMul, k.u32, lid, k.c32(10))
	at := func(j uint32) uint32 {
		return k.op(spirv.OpIAdd, k.u32, k.op(spirv.OpIMul, k.u32, lid, k.c32(8)), k.c32(j))
	}
	k.store(out, k.u32, at(0), k.op(spirv.OpGroupNonUniformRotateKHR, k.u32, sg, val, k.c32(3)))
	k.store(out, k.u32, at(1), k.op(spirv.OpGroupNonUniformRotateKHR, k.u32, sg, val, k.c32(1), k.c32(4)))
	k.store(out, k.u32, at(2), k.op(spirv.OpGroupNonUniformQuadSwap, k.u32, sg, val, k.c32(2)))
	k.store(out, k.u32, at(3), k.op(spirv.OpGroupNonUniformQuadBroadcast, k.u32, sg, val, k.c32(1)))
	part := k.op(spirv.OpGroupNonUniformPartitionEXT, v4, k.op(spirv.OpUMod, k.u32, lid, k.c32(3)))
	k.store(out, k.u32, at(4), k.op(spirv.OpGroupNonUniformIAdd, k.u32, sg, uint32(spirv.GroupOperationPartitionedReduceEXT), val, part))
	bal := k.op(spirv.OpGroupNonUniformBallot, v4, sg, k.op(spirv.OpULessThan, k.boo, lid, k.c32(5)))
	k.store(out, k.u32, at(5), k.op(spirv.OpGroupNonUniformBallotBitCount, k.u32, sg, uint32(spirv.GroupOperationExclusiveScan), bal))
	inv := k.op(spirv.OpGroupNonUniformInverseBallot, k.boo, sg, bal)
	k.store(out, k.u32, at(6), k.op(spirv.OpSelect, k.u32, inv, k.c32(1), k.c32(0)))
	k.store(out, k.u32, at(7), k.op(spirv.OpGroupNonUniformBallotFindMSB, k.u32, sg, bal))
	dev := New(Options{SubgroupSize: 16})
	bo := u32buf(t, dev, make([]uint32, 128))
	mustRun(t, dev, k.words(), 1, bo)
	got := u32s(bo)
	for i := 0; i < 16; i++ {
		psum := 0
		for j := 0; j < 16; j++ {
			if j%3 == i%3 {
				psum += 10 * j
			}
		}
		want := []uint32{uint32(10 * ((i + 3) % 16)), uint32(10 * (i&^3 + (i+1)%4)), uint32(10 * (i ^ 3)), uint32(10 * (i&^3 + 1)),
			uint32(psum), uint32(min(i, 5)), bu(i < 5), 4}
		for j, w := range want {
			if got[i*8+j] != w {
				t.Errorf("lane %d result %d = %d, want %d", i, j, got[i*8+j], w)
			}
		}
	}
}

// TestDivergentLoopInstances: in iteration j of a loop, lanes with
// (lane + j) even add subgroupAdd(1). Each iteration's call must see only
// that iteration's lanes (8 of 16), even though lanes of different parity
// reach the instruction in different iterations.
func TestDivergentLoopInstances(t *testing.T) {
	k := newKernel(t, 16)
	b := k.b
	out := k.buffer(0, k.u32, 4)
	sg := k.c32(uint32(spirv.ScopeSubgroup))
	lid := k.builtin(spirv.BuiltInSubgroupLocalInvocationId, k.u32)
	pre, header, body, then, cont, merge := b.ID(), b.ID(), b.ID(), b.ID(), b.ID(), b.ID()
	b.Emit(spirv.OpBranch, pre)
	b.Label(pre)
	b.Emit(spirv.OpBranch, header)
	b.Label(header)
	j, s, j2, s2 := b.ID(), b.ID(), b.ID(), b.ID()
	b.Emit(spirv.OpPhi, k.u32, j, k.c32(0), pre, j2, cont)
	b.Emit(spirv.OpPhi, k.u32, s, k.c32(0), pre, s2, cont)
	more := k.op(spirv.OpULessThan, k.boo, j, k.c32(4))
	b.Emit(spirv.OpLoopMerge, merge, cont, 0)
	b.Emit(spirv.OpBranchConditional, more, body, merge)
	b.Label(body)
	even := k.op(spirv.OpIEqual, k.boo, k.op(spirv.OpBitwiseAnd, k.u32, k.op(spirv.OpIAdd, k.u32, lid, j), k.c32(1)), k.c32(0))
	b.Emit(spirv.OpSelectionMerge, cont, 0)
	b.Emit(spirv.OpBranchConditional, even, then, cont)
	b.Label(then)
	n := k.op(spirv.OpGroupNonUniformIAdd, k.u32, sg, uint32(spirv.GroupOperationReduce), k.c32(1))
	sn := k.op(spirv.OpIAdd, k.u32, s, n)
	b.Emit(spirv.OpBranch, cont)
	b.Label(cont)
	b.Emit(spirv.OpPhi, k.u32, s2, s, body, sn, then)
	b.Emit(spirv.OpIAdd, k.u32, j2, j, k.c32(1))
	b.Emit(spirv.OpBranch, header)
	b.Label(merge)
	k.store(out, k.u32, lid, s)
	dev := New(Options{SubgroupSize: 16})
	bo := u32buf(t, dev, make([]uint32, 16))
	mustRun(t, dev, k.words(), 1, bo)
	for i, g := range u32s(bo) {
		if g != 16 {
			t.Errorf("lane %d: %d, want 16 (two iterations of 8 lanes)", i, g)
		}
	}
}

// TestIntegerDot covers packed and vector integer dot products and the
// saturating accumulation.
func TestIntegerDot(t *testing.T) {
	k := newKernel(t, 1)
	b := k.b
	out := k.buffer(0, k.u32, 4)
	c := k.c32
	b.Capability(spirv.CapabilityInt8)
	u8 := b.TypeInt(8, false)
	v4u8 := b.TypeVector(u8, 4)
	c8 := func(v uint32) uint32 { return b.Const(spirv.OpConstant, u8, v) }
	va := b.Const(spirv.OpConstantComposite, v4u8, c8(1), c8(2), c8(3), c8(0xff))
	vb := b.Const(spirv.OpConstantComposite, v4u8, c8(10), c8(20), c8(30), c8(2))
	packA, packB := c(0xff030201), c(0x021e140a) // the same bytes, packed
	vals := []uint32{
		k.op(spirv.OpUDot, k.u32, va, vb),                                         // 10+40+90+510 = 650
		k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpSDot, k.i32, va, vb)),           // 140 - 2 = 138
		k.op(spirv.OpUDot, k.u32, packA, packB, 0),                                // 650
		k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpSUDot, k.i32, packA, packB, 0)), // 138
		k.op(spirv.OpUDotAccSat, k.u32, packA, packB, c(0xfffffff0), 0),           // saturates
		k.op(spirv.OpBitcast, k.u32, k.op(spirv.OpSDotAccSat, k.i32, packA, packB, b.Const(spirv.OpConstant, k.i32, 0x7fffff00), 0)),
	}
	for i, v := range vals {
		k.store(out, k.u32, c(uint32(i)), v)
	}
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, len(vals)))
	mustRun(t, dev, k.words(), 1, bo)
	want := []uint32{650, 138, 650, 138, 0xffffffff, 0x7fffff8a}
	for i, g := range u32s(bo) {
		if g != want[i] {
			t.Errorf("value %d = %#x, want %#x", i, g, want[i])
		}
	}
}

// TestInitializedFunctionArray runs a Function variable with an
// initializer that stays in memory (it is indexed dynamically), as
// glslang emits for constant arrays from SPIR-V 1.4 on.
func TestInitializedFunctionArray(t *testing.T) {
	k := newKernel(t, 4)
	b := k.b
	c := k.c32
	arr := b.Type(spirv.OpTypeArray, k.u32, c(4))
	init := b.Const(spirv.OpConstantComposite, arr, c(5), c(6), c(7), c(8))
	out := k.buffer(0, k.u32, 4)
	v := b.LocalVariable(b.TypePointer(spirv.StorageClassFunction, arr), init)
	e := k.op(spirv.OpLoad, k.u32, k.op(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassFunction, k.u32), v, k.x))
	k.store(out, k.u32, k.x, e)
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, 4))
	mustRun(t, dev, k.words(), 1, bo)
	for i, g := range u32s(bo) {
		if g != uint32(5+i) {
			t.Errorf("out[%d] = %d, want %d", i, g, 5+i)
		}
	}
}

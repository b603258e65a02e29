package exec

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// ifLess emits "if (x < n) { body() }".
func (k *kernel) ifLess(n uint32, body func()) {
	b := k.b
	lt := k.op(spirv.OpULessThan, k.boo, k.x, k.c32(n))
	then, merge := b.ID(), b.ID()
	b.Emit(spirv.OpSelectionMerge, merge, 0)
	b.Emit(spirv.OpBranchConditional, lt, then, merge)
	b.Label(then)
	body()
	b.Emit(spirv.OpBranch, merge)
	b.Label(merge)
}

// TestPartialCollective: a cooperative matrix load that only half of the
// subgroup reaches, and a subgroup barrier reached by two of four
// invocations, are errors naming the instruction and an invocation.
func TestPartialCollective(t *testing.T) {
	k := newKernel(t, 32)
	b := k.b
	b.Capability(spirv.CapabilityCooperativeMatrixKHR)
	b.Capability(spirv.CapabilityFloat16)
	h := b.TypeFloat(16)
	sub := k.c32(uint32(spirv.ScopeSubgroup))
	tm := b.Type(spirv.OpTypeCooperativeMatrixKHR, h, sub, k.c32(16), k.c32(16), k.c32(0))
	in := k.buffer(0, h, 2)
	k.ifLess(16, func() {
		p := b.EmitResult(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassStorageBuffer, h), in, k.c32(0), k.c32(0))
		b.EmitResult(spirv.OpCooperativeMatrixLoadKHR, tm, p, k.c32(0), k.c32(16))
	})
	dev := New(Options{})
	buf, _ := dev.NewBuffer(512, 0)
	e := wantErr(t, run(t, dev, k.words(), 1, buf), spirv.OpCooperativeMatrixLoadKHR, "reached by 16 of the 32")
	if e.Invocation[0] >= 16 {
		t.Errorf("error names invocation %v, not one that reached the load", e.Invocation)
	}

	// Invocations 0 and 1 wait at one subgroup barrier, 2 and 3 at another.
	k = newKernel(t, 4)
	b = k.b
	sg := k.c32(uint32(spirv.ScopeSubgroup))
	lt := k.op(spirv.OpULessThan, k.boo, k.x, k.c32(2))
	then, els, merge := b.ID(), b.ID(), b.ID()
	b.Emit(spirv.OpSelectionMerge, merge, 0)
	b.Emit(spirv.OpBranchConditional, lt, then, els)
	for _, l := range []uint32{then, els} {
		b.Label(l)
		b.Emit(spirv.OpControlBarrier, sg, sg, k.c32(0))
		b.Emit(spirv.OpBranch, merge)
	}
	b.Label(merge)
	dev = New(Options{SubgroupSize: 4})
	wantErr(t, run(t, dev, k.words(), 1), spirv.OpControlBarrier, "2 of 4 invocations")
}

// TestFaultsNameThePlace: faults in uniform code (run once for a whole
// subgroup) and in divergent code name the instruction, with its text
// when Options.Describe is set, the invocation and the address.
func TestFaultsNameThePlace(t *testing.T) {
	describe := func(m *spirv.Module, i int) string { return "line " + m.Insts[i].Op.String() }
	// Every invocation stores to element 100 of a 4-element buffer.
	k := newKernel(t, 32)
	out := k.buffer(0, k.u32, 4)
	k.store(out, k.u32, k.c32(100), k.x)
	dev := New(Options{Describe: describe})
	e := wantErr(t, run(t, dev, k.words(), 2, u32buf(t, dev, make([]uint32, 4))), spirv.OpStore, "out-of-bounds")
	if !e.HasAddr || e.Addr&(1<<offBits-1) != 400 || e.Text != "line OpStore" || !strings.Contains(e.Error(), "`line OpStore`") {
		t.Errorf("error %v: want address offset 400 and the instruction's text", e)
	}
	// Only invocation 37 (of the second workgroup) goes out of bounds.
	k = newKernel(t, 32)
	out = k.buffer(0, k.u32, 4)
	k.ifLess(64, func() {
		idx := k.op(spirv.OpIMul, k.u32, k.op(spirv.OpUDiv, k.u32, k.x, k.c32(37)), k.c32(50))
		k.store(out, k.u32, idx, k.x)
	})
	dev = New(Options{})
	e = wantErr(t, run(t, dev, k.words(), 2, u32buf(t, dev, make([]uint32, 4))), spirv.OpStore, "out-of-bounds")
	if e.Invocation != [3]uint32{37, 0, 0} || e.Addr&(1<<offBits-1) != 200 {
		t.Errorf("error %v: want invocation 37, address offset 200", e)
	}
}

// TestStepBudgetDivergent: one invocation of a subgroup loops forever
// while the others finish; the budget stops it and names it.
func TestStepBudgetDivergent(t *testing.T) {
	k := newKernel(t, 32)
	b := k.b
	k.ifLess(32, func() {
		eq := k.op(spirv.OpIEqual, k.boo, k.x, k.c32(5))
		loop, body, merge := b.ID(), b.ID(), b.ID()
		b.Emit(spirv.OpBranch, loop)
		b.Label(loop)
		b.Emit(spirv.OpLoopMerge, merge, body, 0)
		b.Emit(spirv.OpBranchConditional, eq, body, merge)
		b.Label(body)
		b.Emit(spirv.OpBranch, loop)
		b.Label(merge)
	})
	dev := New(Options{StepBudget: 5000})
	err := run(t, dev, k.words(), 1)
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "step budget") || e.Invocation[0] != 5 {
		t.Errorf("error %v: want the step budget of invocation 5", err)
	}
}

// TestLockstepTiles: a cooperative matrix the subgroup holds whole goes
// through a copy, a phi on a branch all invocations agree on, a function
// parameter, per-invocation arithmetic, and a branch the invocations
// disagree on, before it is stored.
func TestLockstepTiles(t *testing.T) {
	b := spirv.NewBuilder(spirv.MakeVersion(1, 6), 0)
	b.Capability(spirv.CapabilityShader)
	b.Capability(spirv.CapabilityCooperativeMatrixKHR)
	b.MemoryModel(spirv.AddressingModelLogical, spirv.MemoryModelGLSL450)
	void, boo, u32, f := b.TypeVoid(), b.TypeBool(), b.TypeInt(32, false), b.TypeFloat(32)
	c := func(v uint32) uint32 { return b.ConstUint32(u32, v) }
	tm := b.Type(spirv.OpTypeCooperativeMatrixKHR, f, c(uint32(spirv.ScopeSubgroup)), c(16), c(16), c(2))
	buf := func(binding uint32) uint32 {
		ra := b.NewType(spirv.OpTypeRuntimeArray, f)
		b.Decorate(ra, spirv.DecorationArrayStride, 4)
		st := b.NewType(spirv.OpTypeStruct, ra)
		b.Decorate(st, spirv.DecorationBlock)
		b.MemberDecorate(st, 0, spirv.DecorationOffset, 0)
		v := b.Variable(b.TypePointer(spirv.StorageClassStorageBuffer, st), spirv.StorageClassStorageBuffer)
		b.Decorate(v, spirv.DecorationDescriptorSet, 0)
		b.Decorate(v, spirv.DecorationBinding, binding)
		return v
	}
	in, out := buf(0), buf(1)
	lidV := b.Variable(b.TypePointer(spirv.StorageClassInput, u32), spirv.StorageClassInput)
	b.Decorate(lidV, spirv.DecorationBuiltIn, uint32(spirv.BuiltInSubgroupLocalInvocationId))

	dbl := b.BeginFunction(tm, 0, b.TypeFunction(tm, tm))
	par := b.EmitResult(spirv.OpFunctionParameter, tm)
	b.Label(b.ID())
	b.Emit(spirv.OpReturnValue, b.EmitResult(spirv.OpMatrixTimesScalar, tm, par, b.ConstFloat32(f, 2)))
	b.EndFunction()

	fn := b.BeginFunction(void, 0, b.TypeFunction(void))
	b.Label(b.ID())
	pf := b.TypePointer(spirv.StorageClassStorageBuffer, f)
	m := b.EmitResult(spirv.OpCooperativeMatrixLoadKHR, tm, b.EmitResult(spirv.OpAccessChain, pf, in, c(0), c(0)), c(0), c(16))
	m2 := b.EmitResult(spirv.OpCopyObject, tm, m)
	lid := b.EmitResult(spirv.OpLoad, u32, lidV)
	// All agree (lid < 64), so this stays in lockstep.
	l1, l2, j := b.ID(), b.ID(), b.ID()
	agree := b.EmitResult(spirv.OpULessThan, boo, lid, c(64))
	b.Emit(spirv.OpSelectionMerge, j, 0)
	b.Emit(spirv.OpBranchConditional, agree, l1, l2)
	b.Label(l1)
	b.Emit(spirv.OpBranch, j)
	b.Label(l2)
	b.Emit(spirv.OpBranch, j)
	b.Label(j)
	m3 := b.ID()
	b.Emit(spirv.OpPhi, tm, m3, m2, l1, m, l2)
	d := b.EmitResult(spirv.OpFunctionCall, tm, dbl, m3)
	// Half of the subgroup adds 1 to its first element.
	pre, then, merge := b.CurrentLabel(), b.ID(), b.ID()
	half := b.EmitResult(spirv.OpULessThan, boo, lid, c(16))
	b.Emit(spirv.OpSelectionMerge, merge, 0)
	b.Emit(spirv.OpBranchConditional, half, then, merge)
	b.Label(then)
	e1 := b.EmitResult(spirv.OpFAdd, f, b.EmitResult(spirv.OpCompositeExtract, f, d, 0), b.ConstFloat32(f, 1))
	dm := b.EmitResult(spirv.OpCompositeInsert, tm, e1, d, 0)
	b.Emit(spirv.OpBranch, merge)
	b.Label(merge)
	res := b.ID()
	b.Emit(spirv.OpPhi, tm, res, dm, then, d, pre)
	b.Emit(spirv.OpCooperativeMatrixStoreKHR, b.EmitResult(spirv.OpAccessChain, pf, out, c(0), c(0)), res, c(0), c(16))
	b.Emit(spirv.OpReturn)
	b.EndFunction()
	b.EntryPoint(spirv.ExecutionModelGLCompute, fn, "main", in, out, lidV)
	b.ExecutionMode(fn, spirv.ExecutionModeLocalSize, 32, 1, 1)
	code, err := b.Module().Words()
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range []bool{false, true} {
		dev := New(Options{noLockstep: off})
		vals := make([]uint32, 256)
		for i := range vals {
			vals[i] = math.Float32bits(float32(i) / 4)
		}
		bin := u32buf(t, dev, vals)
		bout := u32buf(t, dev, make([]uint32, 256))
		mustRun(t, dev, code, 1, bin, bout)
		for e, g := range f32s(bout) {
			want := float32(e) / 2
			if e%8 == 0 && e/8 < 16 {
				want++ // the first element of each of invocations 0 to 15
			}
			if g != want {
				t.Fatalf("lockstep off %v: element %d = %v, want %v", off, e, g, want)
			}
		}
	}
}

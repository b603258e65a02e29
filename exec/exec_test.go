package exec

import (
	"bytes"
	"encoding/binary"
	"errors"

	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// TestLoopPhiCall: out[i] = sum(0..x) computed by a loop with phis, passed
// through a function call that doubles it, then a switch on x%3.
func TestLoopPhiCall(t *testing.T) {
	k := newKernel(t, 8)
	b := k.b
	out := k.buffer(0, k.u32, 4)
	// uint twice(uint v) { return v + v; } declared after main's body.
	fnTy := b.TypeFunction(k.u32, k.u32)
	twice := b.ID()
	header, body, merge := b.ID(), b.ID(), b.ID()
	pre := b.ID()
	b.Emit(spirv.OpBranch, pre)
	b.Label(pre)
	b.Emit(spirv.OpBranch, header)
	b.Label(header)
	i, s, i2, s2 := b.ID(), b.ID(), b.ID(), b.ID()
	b.Emit(spirv.OpPhi, k.u32, i, k.c32(0), pre, i2, body)
	b.Emit(spirv.OpPhi, k.u32, s, k.c32(0), pre, s2, body)
	cond := k.op(spirv.OpULessThanEqual, k.boo, i, k.x)
	b.Emit(spirv.OpLoopMerge, merge, body, 0)
	b.Emit(spirv.OpBranchConditional, cond, body, merge)
	b.Label(body)
	b.Emit(spirv.OpIAdd, k.u32, s2, s, i)
	b.Emit(spirv.OpIAdd, k.u32, i2, i, k.c32(1))
	b.Emit(spirv.OpBranch, header)
	b.Label(merge)
	d := k.op(spirv.OpFunctionCall, k.u32, twice, s)
	sel := k.op(spirv.OpUMod, k.u32, k.x, k.c32(3))
	c0, c1, cdef, after := b.ID(), b.ID(), b.ID(), b.ID()
	b.Emit(spirv.OpSelectionMerge, after, 0)
	b.Emit(spirv.OpSwitch, sel, cdef, 0, c0, 1, c1)
	b.Label(c0)
	b.Emit(spirv.OpBranch, after)
	b.Label(c1)
	b.Emit(spirv.OpBranch, after)
	b.Label(cdef)
	b.Emit(spirv.OpBranch, after)
	b.Label(after)
	add := b.ID()
	b.Emit(spirv.OpPhi, k.u32, add, k.c32(1000), c0, k.c32(2000), c1, k.c32(3000), cdef)
	k.store(out, k.u32, k.x, k.op(spirv.OpIAdd, k.u32, d, add))
	b.Emit(spirv.OpReturn)
	b.EndFunction()
	// The callee.
	b.Add(spirv.SecFunction, spirv.OpFunction, k.u32, twice, 0, fnTy)
	prm := b.ID()
	b.Emit(spirv.OpFunctionParameter, k.u32, prm)
	b.Label(b.ID())
	r := k.op(spirv.OpIAdd, k.u32, prm, prm)
	b.Emit(spirv.OpReturnValue, r)
	b.Emit(spirv.OpFunctionEnd)
	b.EntryPoint(spirv.ExecutionModelGLCompute, k.fn, "main", k.ifc...)
	k.done = true
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, 16))
	mustRun(t, dev, k.words(), 2, bo)
	for x, got := range u32s(bo) {
		want := uint32(x*(x+1)) + []uint32{1000, 2000, 3000}[x%3]
		if got != want {
			t.Errorf("out[%d] = %d, want %d", x, got, want)
		}
	}
}

// TestSubgroupOps runs subgroup operations, some in divergent control flow
// (only odd lanes), with subgroup size 8 and a workgroup of 16.
func TestSubgroupOps(t *testing.T) {
	k := newKernel(t, 16)
	b := k.b
	b.Capability(spirv.CapabilityGroupNonUniformArithmetic)
	out := k.buffer(0, k.u32, 4)
	v4 := b.TypeVector(k.u32, 4)
	sg := k.c32(uint32(spirv.ScopeSubgroup))
	lid := k.builtin(spirv.BuiltInSubgroupLocalInvocationId, k.u32)
	val := k.op(spirv.OpIAdd, k.u32, k.op(spirv.OpIMul, k.u32, k.x, k.c32(3)), k.c32(1))
	idx := func(slot uint32) uint32 {
		return k.op(spirv.OpIAdd, k.u32, k.op(spirv.OpIMul, k.u32, k.x, k.c32(8)), k.c32(slot))
	}
	sum := k.op(spirv.OpGroupNonUniformIAdd, k.u32, sg, uint32(spirv.GroupOperationReduce), val)
	scan := k.op(spirv.OpGroupNonUniformIAdd, k.u32, sg, uint32(spirv.GroupOperationInclusiveScan), val)
	xscan := k.op(spirv.OpGroupNonUniformUMax, k.u32, sg, uint32(spirv.GroupOperationExclusiveScan), val)
	shx := k.op(spirv.OpGroupNonUniformShuffleXor, k.u32, sg, val, k.c32(1))
	clus := k.op(spirv.OpGroupNonUniformIAdd, k.u32, sg, uint32(spirv.GroupOperationClusteredReduce), val, k.c32(4))
	k.store(out, k.u32, idx(0), sum)
	k.store(out, k.u32, idx(1), scan)
	k.store(out, k.u32, idx(2), xscan)
	k.store(out, k.u32, idx(3), shx)
	k.store(out, k.u32, idx(4), clus)
	odd := k.op(spirv.OpIEqual, k.boo, k.op(spirv.OpBitwiseAnd, k.u32, lid, k.c32(1)), k.c32(1))
	then, merge := b.ID(), b.ID()
	b.Emit(spirv.OpSelectionMerge, merge, 0)
	b.Emit(spirv.OpBranchConditional, odd, then, merge)
	b.Label(then)
	bal := k.op(spirv.OpGroupNonUniformBallot, v4, sg, k.b.ConstBool(k.boo, true))
	k.store(out, k.u32, idx(5), k.op(spirv.OpCompositeExtract, k.u32, bal, 0))
	first := k.op(spirv.OpGroupNonUniformBroadcastFirst, k.u32, sg, val)
	k.store(out, k.u32, idx(6), first)
	el := k.op(spirv.OpGroupNonUniformElect, k.boo, sg)
	k.store(out, k.u32, idx(7), k.op(spirv.OpSelect, k.u32, el, k.c32(1), k.c32(0)))
	b.Emit(spirv.OpBranch, merge)
	b.Label(merge)
	dev := New(Options{SubgroupSize: 8})
	bo := u32buf(t, dev, make([]uint32, 16*8))
	mustRun(t, dev, k.words(), 1, bo)
	got := u32s(bo)
	for x := 0; x < 16; x++ {
		base := x &^ 7
		v := func(i int) uint32 { return uint32(3*i + 1) }
		var sum, scan, xs, cl uint32
		for i := base; i < base+8; i++ {
			sum += v(i)
			if i <= x {
				scan += v(i)
			}
			if i < x {
				xs = max(xs, v(i))
			}
			if i/4 == x/4 {
				cl += v(i)
			}
		}
		want := []uint32{sum, scan, xs, v(x ^ 1), cl}
		if x&1 == 1 {
			want = append(want, 0xaa, v(base+1), bu(x == base+1))
		} else {
			want = append(want, 0, 0, 0)
		}
		for j, w := range want {
			if got[x*8+j] != w {
				t.Errorf("invocation %d, result %d: got %#x, want %#x", x, j, got[x*8+j], w)
			}
		}
	}
}

// TestBarrierShared reverses each workgroup's slice through shared memory.
func TestBarrierShared(t *testing.T) {
	k := newKernel(t, 64)
	b := k.b
	out := k.buffer(0, k.u32, 4)
	arr := b.Type(spirv.OpTypeArray, k.u32, k.c32(64))
	sh := b.Variable(b.TypePointer(spirv.StorageClassWorkgroup, arr), spirv.StorageClassWorkgroup)
	lidx := k.builtin(spirv.BuiltInLocalInvocationIndex, k.u32)
	pw := b.TypePointer(spirv.StorageClassWorkgroup, k.u32)
	b.Emit(spirv.OpStore, k.op(spirv.OpAccessChain, pw, sh, lidx), k.op(spirv.OpIMul, k.u32, k.x, k.c32(7)))
	wgs := k.c32(uint32(spirv.ScopeWorkgroup))
	b.Emit(spirv.OpControlBarrier, wgs, wgs, k.c32(0x108))
	other := k.op(spirv.OpISub, k.u32, k.c32(63), lidx)
	v := k.op(spirv.OpLoad, k.u32, k.op(spirv.OpAccessChain, pw, sh, other))
	k.store(out, k.u32, k.x, v)
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, 256))
	mustRun(t, dev, k.words(), 4, bo)
	for x, got := range u32s(bo) {
		if want := uint32((x&^63 + 63 - x&63) * 7); got != want {
			t.Fatalf("out[%d] = %d, want %d", x, got, want)
		}
	}
}

// TestAtomics: every invocation of many parallel workgroups adds to one
// counter and takes the max of its id.
func TestAtomics(t *testing.T) {
	k := newKernel(t, 32)
	out := k.buffer(0, k.u32, 4)
	dev := k.c32(1)
	sem := k.c32(0)
	old := k.op(spirv.OpAtomicIAdd, k.u32, k.ptr(out, k.u32, k.c32(0)), dev, sem, k.c32(1))
	k.op(spirv.OpAtomicUMax, k.u32, k.ptr(out, k.u32, k.c32(1)), dev, sem, k.x)
	k.op(spirv.OpAtomicOr, k.u32, k.ptr(out, k.u32, k.c32(2)), dev, sem, k.op(spirv.OpShiftLeftLogical, k.u32, k.c32(1), k.op(spirv.OpUMod, k.u32, old, k.c32(32))))
	d := New(Options{Parallel: true, Workers: 4})
	bo := u32buf(t, d, make([]uint32, 3))
	mustRun(t, d, k.words(), 100, bo)
	got := u32s(bo)
	if got[0] != 3200 || got[1] != 3199 || got[2] != 0xffffffff {
		t.Fatalf("atomics: %v", got)
	}
}

func wantErr(t *testing.T, err error, op spirv.Op, substr string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *Error", err)
	}
	if e.Op != op || !strings.Contains(e.Error(), substr) {
		t.Fatalf("error %q: want op %s and %q", e.Error(), op, substr)
	}
	return e
}

func TestOutOfBounds(t *testing.T) {
	k := newKernel(t, 4)
	out := k.buffer(0, k.u32, 4)
	k.store(out, k.u32, k.op(spirv.OpIAdd, k.u32, k.x, k.c32(2)), k.x)
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, 4))
	e := wantErr(t, run(t, dev, k.words(), 1, bo), spirv.OpStore, "out-of-bounds")
	if !e.HasAddr || e.Invocation[0] != 2 {
		t.Fatalf("error %v: want invocation 2 and an address", e)
	}
}

func TestStepBudget(t *testing.T) {
	k := newKernel(t, 1)
	b := k.b
	loop := b.ID()
	b.Emit(spirv.OpBranch, loop)
	b.Label(loop)
	merge := b.ID()
	b.Emit(spirv.OpLoopMerge, merge, loop, 0)
	b.Emit(spirv.OpBranch, loop)
	b.Label(merge)
	b.Emit(spirv.OpReturn)
	b.EndFunction()
	b.EntryPoint(spirv.ExecutionModelGLCompute, k.fn, "main", k.ifc...)
	k.done = true
	dev := New(Options{StepBudget: 10000})
	if err := run(t, dev, k.words(), 1); err == nil || !strings.Contains(err.Error(), "step budget") {
		t.Fatalf("got %v, want a step budget error", err)
	}
}

func TestBarrierDivergence(t *testing.T) {
	k := newKernel(t, 8)
	b := k.b
	lt := k.op(spirv.OpULessThan, k.boo, k.x, k.c32(4))
	then, merge := b.ID(), b.ID()
	b.Emit(spirv.OpSelectionMerge, merge, 0)
	b.Emit(spirv.OpBranchConditional, lt, then, merge)
	b.Label(then)
	wgs := k.c32(uint32(spirv.ScopeWorkgroup))
	b.Emit(spirv.OpControlBarrier, wgs, wgs, k.c32(0))
	b.Emit(spirv.OpBranch, merge)
	b.Label(merge)
	dev := New(Options{SubgroupSize: 4})
	wantErr(t, run(t, dev, k.words(), 1), spirv.OpControlBarrier, "barrier divergence")
}

func TestUnsupportedListed(t *testing.T) {
	k := newKernel(t, 1)
	k.op(spirv.OpUCountLeadingZerosINTEL, k.u32, k.x)
	k.op(spirv.OpUCountTrailingZerosINTEL, k.u32, k.x)
	m, err := spirv.DecodeWords(k.words(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load(m, "main", nil, 32)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "OpUCountLeadingZerosINTEL") || !strings.Contains(err.Error(), "OpUCountTrailingZerosINTEL") {
		t.Fatalf("got %v, want both instructions listed as unsupported", err)
	}
}

// TestSpecAndPush: the local size comes from a specialization constant
// through the WorkgroupSize built-in, an OpSpecConstantOp doubles another
// one, and a push constant is added.
func TestSpecAndPush(t *testing.T) {
	k := newKernel(t, 1)
	b := k.b
	sx := b.Const(spirv.OpSpecConstant, k.u32, 1)
	b.Decorate(sx, spirv.DecorationSpecId, 0)
	one := k.c32(1)
	v3 := b.TypeVector(k.u32, 3)
	wgsz := b.Const(spirv.OpSpecConstantComposite, v3, sx, one, one)
	b.Decorate(wgsz, spirv.DecorationBuiltIn, uint32(spirv.BuiltInWorkgroupSize))
	sv := b.Const(spirv.OpSpecConstant, k.u32, 5)
	b.Decorate(sv, spirv.DecorationSpecId, 1)
	dbl := b.Const(spirv.OpSpecConstantOp, k.u32, uint32(spirv.OpIMul), sv, k.c32(2))
	pst := b.NewType(spirv.OpTypeStruct, k.u32)
	b.Decorate(pst, spirv.DecorationBlock)
	b.MemberDecorate(pst, 0, spirv.DecorationOffset, 0)
	pc := b.Variable(b.TypePointer(spirv.StorageClassPushConstant, pst), spirv.StorageClassPushConstant)
	out := k.buffer(0, k.u32, 4)
	pv := k.op(spirv.OpLoad, k.u32, k.op(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassPushConstant, k.u32), pc, k.c32(0)))
	k.store(out, k.u32, k.x, k.op(spirv.OpIAdd, k.u32, dbl, pv))
	k.ifc = append(k.ifc, pc)
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, 24))
	spec := map[uint32][]byte{0: {8, 0, 0, 0}, 1: {21, 0, 0, 0}}
	_, err := dev.Dispatch(&backend.Dispatch{Code: k.words(), Entry: "main", Groups: [3]uint32{3, 1, 1},
		Bindings: []backend.Binding{{Buffer: bo}}, PushConstants: []byte{100, 0, 0, 0}, Spec: spec})
	if err != nil {
		t.Fatal(err)
	}
	for i, got := range u32s(bo) {
		if got != 142 {
			t.Fatalf("out[%d] = %d, want 142 (local size 8 from the spec constant)", i, got)
		}
	}
}

// TestPhysicalPointer stores through a PhysicalStorageBuffer pointer made
// from an address in a push constant, and faults for an address outside
// every buffer.
func TestPhysicalPointer(t *testing.T) {
	b := spirv.NewBuilder(spirv.MakeVersion(1, 5), 0)
	b.Capability(spirv.CapabilityShader)
	b.Capability(spirv.CapabilityPhysicalStorageBufferAddresses)
	b.Capability(spirv.CapabilityInt64)
	b.MemoryModel(spirv.AddressingModelPhysicalStorageBuffer64, spirv.MemoryModelGLSL450)
	void := b.TypeVoid()
	u32 := b.TypeInt(32, false)
	u64 := b.TypeInt(64, false)
	pst := b.NewType(spirv.OpTypeStruct, u64)
	b.Decorate(pst, spirv.DecorationBlock)
	b.MemberDecorate(pst, 0, spirv.DecorationOffset, 0)
	pc := b.Variable(b.TypePointer(spirv.StorageClassPushConstant, pst), spirv.StorageClassPushConstant)
	v3 := b.TypeVector(u32, 3)
	gid := b.Variable(b.TypePointer(spirv.StorageClassInput, v3), spirv.StorageClassInput)
	b.Decorate(gid, spirv.DecorationBuiltIn, uint32(spirv.BuiltInGlobalInvocationId))
	pp := b.TypePointer(spirv.StorageClassPhysicalStorageBuffer, u32)
	b.Decorate(pp, spirv.DecorationArrayStride, 4)
	fn := b.BeginFunction(void, 0, b.TypeFunction(void))
	b.Label(b.ID())
	x := b.EmitResult(spirv.OpCompositeExtract, u32, b.EmitResult(spirv.OpLoad, v3, gid), 0)
	addr := b.EmitResult(spirv.OpLoad, u64, b.EmitResult(spirv.OpAccessChain, b.TypePointer(spirv.StorageClassPushConstant, u64), pc, b.ConstUint32(u32, 0)))
	p := b.EmitResult(spirv.OpConvertUToPtr, pp, addr)
	e := b.EmitResult(spirv.OpPtrAccessChain, pp, p, x)
	b.Emit(spirv.OpStore, e, x, uint32(spirv.MemoryAccessAligned), 4)
	b.Emit(spirv.OpReturn)
	b.EndFunction()
	b.EntryPoint(spirv.ExecutionModelGLCompute, fn, "main", pc, gid)
	b.ExecutionMode(fn, spirv.ExecutionModeLocalSize, 8, 1, 1)
	code, _ := b.Module().Words()
	dev := New(Options{})
	buf, _ := dev.NewBuffer(32, backend.UsageAddress)
	push := binary.LittleEndian.AppendUint64(nil, buf.Address())
	if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, PushConstants: push}); err != nil {
		t.Fatal(err)
	}
	for i, v := range u32s(buf) {
		if v != uint32(i) {
			t.Fatalf("buf[%d] = %d", i, v)
		}
	}
	push = binary.LittleEndian.AppendUint64(nil, buf.Address()+4)
	_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, PushConstants: push})
	e2 := wantErr(t, err, spirv.OpStore, "out-of-bounds")
	if e2.Invocation[0] != 7 || e2.Addr != buf.Address()+32 {
		t.Fatalf("fault %v: want invocation 7 at the end of the buffer", e2)
	}
}

func TestDebugPrintf(t *testing.T) {
	k := newKernel(t, 2)
	set := k.b.ExtInstImport("NonSemantic.DebugPrintf")
	k.b.Extension("SPV_KHR_non_semantic_info")
	f := k.b.String("x=%u f=%.2f")
	k.op(spirv.OpExtInst, k.void, set, spirv.DebugPrintfDebugPrintf, f, k.x, k.b.ConstFloat32(k.f32, 1.5))
	var buf bytes.Buffer
	dev := New(Options{Printf: &buf, Workers: 1})
	mustRun(t, dev, k.words(), 1)
	if got := buf.String(); got != "[0,0,0] x=0 f=1.50\n[1,0,0] x=1 f=1.50\n" {
		t.Fatalf("printf output %q", got)
	}
}

func TestBitcastVectors(t *testing.T) {
	k := newKernel(t, 1)
	b := k.b
	b.Capability(spirv.CapabilityInt64)
	u64 := b.TypeInt(64, false)
	v2 := b.TypeVector(k.u32, 2)
	out := k.buffer(0, k.u32, 4)
	w := k.op(spirv.OpBitcast, u64, b.Const(spirv.OpConstantComposite, v2, k.c32(0x11223344), k.c32(0x55667788)))
	sh := k.op(spirv.OpShiftRightLogical, u64, w, b.ConstUint64(u64, 16))
	back := k.op(spirv.OpBitcast, v2, sh)
	k.store(out, k.u32, k.c32(0), k.op(spirv.OpCompositeExtract, k.u32, back, 0))
	k.store(out, k.u32, k.c32(1), k.op(spirv.OpCompositeExtract, k.u32, back, 1))
	dev := New(Options{})
	bo := u32buf(t, dev, make([]uint32, 2))
	mustRun(t, dev, k.words(), 1, bo)
	want := uint64(0x5566778811223344) >> 16
	if got := u32s(bo); got[0] != uint32(want) || got[1] != uint32(want>>32) {
		t.Fatalf("bitcast: %#x", got)
	}

}

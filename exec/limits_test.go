package exec

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// countKernel: every invocation adds 1 to out[0] atomically.
func countKernel(t *testing.T, localX uint32) []uint32 {
	k := newKernel(t, localX)
	out := k.buffer(0, k.u32, 4)
	k.op(spirv.OpAtomicIAdd, k.u32, k.ptr(out, k.u32, k.c32(0)), k.c32(1), k.c32(0), k.c32(1))
	return k.words()
}

// TestDispatchCounts: workgroup counts are multiplied in 64 bits; one
// that does not fit is an error (4194304 x 2097152 x 2097152 used to wrap
// to 0 and run nothing), and so is a dispatch whose invocations alone
// exceed the work budget, at once.
func TestDispatchCounts(t *testing.T) {
	dev := New(Options{})
	out := u32buf(t, dev, []uint32{0})
	code := countKernel(t, 1)
	for _, c := range []struct {
		groups [3]uint32
		want   string
	}{
		{[3]uint32{4194304, 2097152, 2097152}, "dispatch of 4194304 x 2097152 x 2097152 workgroups: the workgroup count does not fit in 64 bits"},
		{[3]uint32{65535, 65535, 64}, "dispatch of 65535 x 65535 x 64 workgroups of 1 x 1 x 1 invocations (274869518400 invocations) exceeds the work budget of 68719476736 instructions per dispatch"},
		{[3]uint32{0xffffffff, 0xffffffff, 1}, "(18446744065119617025 invocations) exceeds the work budget"},
		// 2^32 one-invocation workgroups: few instructions, but starting
		// each workgroup costs (it took half an hour).
		{[3]uint32{65535, 65535, 1}, "(4294836225 invocations) exceeds the work budget of 68719476736 instructions per dispatch (an invocation costs at least 1, a workgroup 256"},
	} {
		start := time.Now()
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: c.groups, Bindings: []backend.Binding{{Buffer: out}}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.groups, err, c.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%v: took %v to refuse", c.groups, d)
		}
	}
	if got := u32s(out)[0]; got != 0 {
		t.Errorf("a refused dispatch ran %d invocations", got)
	}
	// 64 x 64 x 64 invocations of 1 x 1 x 1 fit when invocations are counted in 64 bits.
	mustDispatch := func(groups [3]uint32, budget int64) error {
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: groups, Bindings: []backend.Binding{{Buffer: out}}, WorkBudget: budget})
		return err
	}
	if err := mustDispatch([3]uint32{64, 64, 64}, 0); err != nil || u32s(out)[0] != 64*64*64 {
		t.Fatalf("64^3: %v, counted %d", err, u32s(out)[0])
	}
	// A dispatch's own budget replaces the default; negative means none.
	if err := mustDispatch([3]uint32{65535, 65535, 64}, 1000); err == nil || !strings.Contains(err.Error(), "work budget of 1000 instructions") {
		t.Errorf("dispatch budget: %v", err)
	}
}

// TestWorkBudget: a dispatch that executes more instructions than its
// budget stops with an error naming the budget, from the device's
// Options or from the dispatch.
func TestWorkBudget(t *testing.T) {
	// Each invocation loops 1000 times.
	k := newKernel(t, 64)
	out := k.buffer(0, k.u32, 4)
	b := k.b
	head, body, cont, merge := b.ID(), b.ID(), b.ID(), b.ID()
	entry := b.ID()
	b.Emit(spirv.OpBranch, entry)
	b.Label(entry)
	b.Emit(spirv.OpBranch, head)
	b.Label(head)
	i := b.ID()
	next := b.ID()
	b.Emit(spirv.OpPhi, k.u32, i, k.c32(0), entry, next, cont)
	lt := k.op(spirv.OpULessThan, k.boo, i, k.c32(1000))
	b.Emit(spirv.OpLoopMerge, merge, cont, 0)
	b.Emit(spirv.OpBranchConditional, lt, body, merge)
	b.Label(body)
	b.Emit(spirv.OpBranch, cont)
	b.Label(cont)
	b.Emit(spirv.OpIAdd, k.u32, next, i, k.c32(1))
	b.Emit(spirv.OpBranch, head)
	b.Label(merge)
	k.store(out, k.u32, k.x, i)
	code := k.words()
	for _, c := range []struct {
		opts   Options
		budget int64
		ok     bool
	}{
		{Options{WorkBudget: 100000}, 0, false},
		{Options{}, 100000, false},
		{Options{WorkBudget: 100000}, -1, true},
		{Options{WorkBudget: 100000, Parallel: true, Workers: 2}, 0, false},
		{Options{}, 0, true},
	} {
		dev := New(c.opts)
		buf := u32buf(t, dev, make([]uint32, 64*16))
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{16, 1, 1}, Bindings: []backend.Binding{{Buffer: buf}}, WorkBudget: c.budget})
		if c.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "the work budget of 100000 instructions per dispatch is spent") {
			t.Errorf("%+v, dispatch budget %d: %v", c.opts, c.budget, err)
		}
	}
}

// TestDeterministic: by default workgroups run one after another in
// index order, so racing stores and float atomics across workgroups give
// the same bytes every run (and the last workgroup's store wins).
func TestDeterministic(t *testing.T) {
	k := newKernel(t, 32)
	out := k.buffer(0, k.u32, 4)
	fout := k.buffer(1, k.f32, 4)
	k.b.Capability(spirv.CapabilityAtomicFloat32AddEXT)
	k.b.Extension("SPV_EXT_shader_atomic_float_add")
	k.store(out, k.u32, k.c32(0), k.x)
	f := k.op(spirv.OpConvertUToF, k.f32, k.x)
	f = k.op(spirv.OpFMul, k.f32, f, k.b.ConstFloat32(k.f32, 0.1))
	k.op(spirv.OpAtomicFAddEXT, k.f32, k.ptr(fout, k.f32, k.c32(0)), k.c32(1), k.c32(0), f)
	code := k.words()
	var first []uint32
	for r := range 10 {
		dev := New(Options{})
		a, b := u32buf(t, dev, []uint32{0}), u32buf(t, dev, []uint32{0})
		mustRun(t, dev, code, 64, a, b)
		got := []uint32{u32s(a)[0], u32s(b)[0]}
		if got[0] != 64*32-1 {
			t.Fatalf("run %d: racing store left %d, want the last invocation's %d", r, got[0], 64*32-1)
		}
		if r == 0 {
			first = got
		} else if !slices.Equal(got, first) {
			t.Fatalf("run %d: %v, run 0: %v", r, got, first)
		}
	}
}

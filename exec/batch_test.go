package exec

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// batchSrc's invocations take a loop of their own length and a branch
// they disagree on, so a batch of workgroups leaves its wide lockstep
// (handOff) as well as finishing in it.
const batchSrc = `#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = y[i] * 3u + gl_NumWorkGroups.x;
    if (y[i] % 7u == 3u) {
        for (uint k = 0u; k < i % 5u; k++) {
            v = v * 31u + k;
        }
    }
    y[i] = v;
}
`

func batchProg(t *testing.T, src string) *prog {
	t.Helper()
	pr, err := Load(mustModule(t, glslWords(t, src)), "main", nil, 32)
	if err != nil {
		t.Fatal(err)
	}
	return pr.p
}

func mustModule(t *testing.T, words []uint32) *spirv.Module {
	t.Helper()
	m, err := spirv.DecodeWords(words, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestBatchGroups: workgroups run several at once (batchSize) give the
// bytes running them one by one gives, in and out of lockstep.
func TestBatchGroups(t *testing.T) {
	if !batchProg(t, batchSrc).batch {
		t.Fatal("the kernel is not batchable")
	}
	const groups = 1000 // batches of 16, and rows that end in a part batch
	in := make([]uint32, groups*64)
	for i := range in {
		in[i] = uint32(i*2654435761) >> 7
	}
	var got [2][]uint32
	for k, o := range []Options{{}, {Parallel: true, Workers: 2}} {
		dev := New(o)
		b := u32buf(t, dev, in)
		mustRun(t, dev, glslWords(t, batchSrc), groups, b)
		got[k] = u32s(b)
	}
	if !slices.Equal(got[0], got[1]) {
		for i := range got[0] {
			if got[0][i] != got[1][i] {
				t.Fatalf("y[%d]: one by one %d, batched %d", i, got[0][i], got[1][i])
			}
		}
	}
}

// TestBatchRows: batches stay within a row of workgroups along x, and
// GlobalInvocationId's y is the workgroup's.
func TestBatchRows(t *testing.T) {
	src := `#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
void main() {
    uint i = gl_GlobalInvocationID.y * 50u * 32u + gl_GlobalInvocationID.x;
    y[i] += i + 1u;
}
`
	dev := New(Options{Parallel: true, Workers: 2})
	b := u32buf(t, dev, make([]uint32, 50*32*300))
	_, err := dev.Dispatch(&backend.Dispatch{Code: glslWords(t, src), Entry: "main", Groups: [3]uint32{50, 300, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: b}}})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range u32s(b) {
		if v != uint32(i)+1 {
			t.Fatalf("y[%d] = %d, want %d", i, v, i+1)
		}
	}
}

// TestBatchFault: a fault in a later workgroup of a batch names its
// invocation, as running the workgroups one by one does.
func TestBatchFault(t *testing.T) {
	src := `#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i == 5000u ? i + 100000u : i] = i;
}
`
	for _, o := range []Options{{}, {Parallel: true, Workers: 2}} {
		dev := New(o)
		b := u32buf(t, dev, make([]uint32, 1000*64))
		err := run(t, dev, glslWords(t, src), 1000, b)
		e := wantErr(t, err, spirv.OpStore, "out-of-bounds")
		if e.Invocation != [3]uint32{5000, 0, 0} {
			t.Errorf("parallel %v: fault at %v, want (5000,0,0): %v", o.Parallel, e.Invocation, err)
		}
	}
}

// TestBatchRunaway: a runaway loop in one invocation of a batch is
// stopped by its step budget there, as one by one.
func TestBatchRunaway(t *testing.T) {
	src := `#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i == 5000u) {
        for (;;) { y[i] += 1u; }
    }
    y[i] = i;
}
`
	for _, o := range []Options{{StepBudget: 5000}, {StepBudget: 5000, Parallel: true, Workers: 2}} {
		dev := New(o)
		b := u32buf(t, dev, make([]uint32, 1000*64))
		err := run(t, dev, glslWords(t, src), 1000, b)
		if err == nil || !strings.Contains(err.Error(), "step budget exhausted") {
			t.Fatalf("parallel %v: %v, want the step budget", o.Parallel, err)
		}
		var e *Error
		if !errors.As(err, &e) || e.Invocation != [3]uint32{5000, 0, 0} {
			t.Errorf("parallel %v: %v, want invocation (5000,0,0)", o.Parallel, err)
		}
	}
}

// TestBatchWork: a batched dispatch spends exactly the work running its
// workgroups one by one spends: the least budget that lets that through
// lets the batches through, one less stops them.
func TestBatchWork(t *testing.T) {
	code := glslWords(t, batchSrc)
	in := make([]uint32, 1000*64)
	for i := range in {
		in[i] = uint32(i * 7919)
	}
	fits := func(o Options) bool {
		dev := New(o)
		b := u32buf(t, dev, in)
		err := run(t, dev, code, 1000, b) // batches of 7
		if err != nil && !strings.Contains(err.Error(), "work budget") {
			t.Fatal(err)
		}
		return err == nil
	}
	lo, hi := int64(1), int64(1)<<30 // fits(hi), not fits(lo)
	for lo+1 < hi {
		if mid := (lo + hi) / 2; fits(Options{WorkBudget: mid}) {
			hi = mid
		} else {
			lo = mid
		}
	}
	if !fits(Options{WorkBudget: hi, Parallel: true, Workers: 2}) || fits(Options{WorkBudget: hi - 1, Parallel: true, Workers: 2}) {
		t.Errorf("one by one the dispatch needs %d work; batched it does not", hi)
	}
}

// TestBatchable: workgroups that could tell they share a row never run
// as a batch.
func TestBatchable(t *testing.T) {
	for _, c := range []struct{ name, decl, body string }{
		{"local id", "", "y[gl_GlobalInvocationID.x] = gl_LocalInvocationID.x;"},
		{"local index", "", "y[gl_GlobalInvocationID.x] = gl_LocalInvocationIndex;"},
		{"workgroup id", "", "y[gl_GlobalInvocationID.x] = gl_WorkGroupID.x;"},
		{"shared", "shared uint s[64];", "s[gl_GlobalInvocationID.x % 64u] = 1u; y[gl_GlobalInvocationID.x] = s[0];"},
		{"barrier", "", "barrier(); y[gl_GlobalInvocationID.x] = 1u;"},
		{"subgroup", "#extension GL_KHR_shader_subgroup_basic : require\n", "y[gl_GlobalInvocationID.x] = gl_SubgroupID;"},
		{"2d", "layout(local_size_y = 2) in;", "y[gl_GlobalInvocationID.x] = 1u;"},
	} {
		decl := c.decl
		version := "#version 450\n"
		if strings.HasPrefix(decl, "#extension") {
			version, decl = version+decl, ""
		}
		src := version + `layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
` + decl + `
void main() { ` + c.body + ` }
`
		if batchProg(t, src).batch {
			t.Errorf("%s: batchable", c.name)
		}
	}
}

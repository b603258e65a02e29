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
	for k, src := range []string{batchSrc, batchConvSrc, batchSharedSrc} {
		code := glslWords(t, src)
		in := make([]uint32, 1000*64)
		for i := range in {
			in[i] = uint32(i * 7919)
		}
		fits := func(o Options) bool {
			dev := New(o)
			y, z := u32buf(t, dev, in), u32buf(t, dev, make([]uint32, 1000*4))
			err := run(t, dev, code, 1000, y, z) // batches of 7
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
			t.Errorf("kernel %d: one by one the dispatch needs %d work; batched it does not", k, hi)
		}
	}
}

// TestBatchable: workgroups batch unless a subgroup could span two of
// them or a collective gathers more than a subgroup (or is cooperative).
func TestBatchable(t *testing.T) {
	for _, c := range []struct {
		name, decl, body string
		want             bool
	}{
		{"local id", "", "y[gl_GlobalInvocationID.x] = gl_LocalInvocationID.x;", true},
		{"local index", "", "y[gl_GlobalInvocationID.x] = gl_LocalInvocationIndex;", true},
		{"workgroup id", "", "y[gl_GlobalInvocationID.x] = gl_WorkGroupID.x;", true},
		{"shared", "shared uint s[64];", "s[gl_GlobalInvocationID.x % 64u] = 1u; y[gl_GlobalInvocationID.x] = s[0];", true},
		{"barrier", "", "barrier(); y[gl_GlobalInvocationID.x] = 1u;", true},
		{"subgroup", "#extension GL_KHR_shader_subgroup_basic : require\n", "y[gl_GlobalInvocationID.x] = gl_SubgroupID;", true},
		{"2d", "layout(local_size_y = 2) in;", "y[gl_GlobalInvocationID.x] = gl_LocalInvocationID.y;", true},
		{"3d", "layout(local_size_z = 2) in;", "y[gl_GlobalInvocationID.x] = 1u;", false},
		{"half subgroup", "layout(local_size_x = 16) in;", "y[gl_GlobalInvocationID.x] = 1u;", false},
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
		if got := batchProg(t, src).batch; got != c.want {
			t.Errorf("%s: batchable %v, want %v", c.name, got, c.want)
		}
	}
	if !batchProg(t, batchSharedSrc).batch {
		t.Error("the shared-memory kernel is not batchable")
	}
}

// batchSharedSrc reduces each workgroup's values in shared memory with
// barriers, as llama.cpp's matrix-vector kernels do, with control flow
// that depends on the workgroup: some workgroups return at once, some
// wait at barriers the others skip, some take a loop of their own length
// between barriers, and subgroup operations combine the subgroups.
const batchSharedSrc = `#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
layout(set = 0, binding = 1) buffer Z { uint z[]; };
shared uint part[64];
shared uint sub[8];
shared uint count;
void main() {
    uint tid = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x;
    if (row % 7u == 5u) {
        return;
    }
    if (tid == 0u) {
        count = row;
    }
    uint acc = y[row * 64u + tid] * (gl_LocalInvocationIndex + 1u);
    for (uint k = 0u; k < row % 4u; k++) {
        acc = acc * 31u + k + gl_SubgroupInvocationID;
    }
    sub[7] = 11u;
    part[tid] = acc;
    barrier();
    acc += part[0] + sub[7];
    barrier();
    if (row % 3u == 1u) {
        atomicAdd(count, tid);
        barrier();
        part[tid] += count;
        barrier();
    }
    for (uint s = 32u; s > 0u; s >>= 1u) {
        if (tid < s) {
            part[tid] += part[tid + s];
        }
        barrier();
    }
    uint t = subgroupAdd(acc ^ row);
    if (subgroupElect()) {
        sub[gl_SubgroupID] = t + gl_NumSubgroups * 1000u;
    }
    barrier();
    if (tid == 0u) {
        uint u = 0u;
        for (uint i = 0u; i < gl_NumSubgroups; i++) {
            u = u * 7u + sub[i];
        }
        z[row * 4u] = part[0];
        z[row * 4u + 1u] = u;
        z[row * 4u + 2u] = count;
        z[row * 4u + 3u] = gl_NumWorkGroups.x + subgroupBallot(true).x;
    }
    y[row * 64u + tid] = part[tid] + gl_WorkGroupID.x * 3u;
}
`

// batchConvSrc stays in the batch's wide lockstep up to its masked
// reduction: loads and stores of shared memory at addresses the same
// everywhere, with values the same everywhere or the workgroup's.
const batchConvSrc = `#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
layout(set = 0, binding = 1) buffer Z { uint z[]; };
shared uint part[64];
shared uint sub[8];
void main() {
    uint tid = gl_LocalInvocationID.x;
    uint row = gl_WorkGroupID.x;
    sub[7] = row + 11u;
    sub[6] = 5u;
    uint acc = y[row * 64u + tid] + gl_LocalInvocationIndex * row;
    part[tid] = acc;
    barrier();
    acc += part[0] + sub[7] * sub[6] + part[63u - tid];
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1u) {
        if (tid < s) {
            part[tid] += part[tid + s];
        }
        barrier();
    }
    uint t = subgroupAdd(acc);
    if (subgroupElect()) {
        sub[gl_SubgroupID] = t;
    }
    barrier();
    if (tid == 0u) {
        uint u = 0u;
        for (uint i = 0u; i < gl_NumSubgroups; i++) {
            u = u * 7u + sub[i];
        }
        z[row * 4u] = part[0];
        z[row * 4u + 1u] = u;
    }
    y[row * 64u + tid] = acc + row;
}
`

// batchRun runs src over groups workgroups one by one and batched (the
// buffers y of 64 values and z of 4 per workgroup), with the subgroup
// size sg, and returns both runs' buffers and errors.
func batchRun(t *testing.T, src string, groups uint32, sg int, o Options) (got [2][2][]uint32, errs [2]error) {
	t.Helper()
	code := glslWords(t, src)
	in := make([]uint32, groups*64)
	for i := range in {
		in[i] = uint32(i*2654435761) >> 9
	}
	o.SubgroupSize = sg
	for k, par := range []bool{false, true} {
		o.Parallel, o.Workers = par, 2
		if !par {
			o.Workers = 0
		}
		dev := New(o)
		y, z := u32buf(t, dev, in), u32buf(t, dev, make([]uint32, groups*4))
		errs[k] = run(t, dev, code, groups, y, z)
		got[k] = [2][]uint32{u32s(y), u32s(z)}
	}
	return got, errs
}

// batchOf is the batch size a dispatch of groups workgroups of src gets
// with two workers.
func batchOf(t *testing.T, src string, groups uint32, sg int) uint64 {
	t.Helper()
	pr, err := Load(mustModule(t, glslWords(t, src)), "main", nil, sg)
	if err != nil {
		t.Fatal(err)
	}
	x := &dispatchRun{p: pr.p, tmpl: pr.p.tmpl, groups: [3]uint32{groups, 1, 1}}
	return x.batchSize(uint64(groups), 2)
}

// TestBatchShared: workgroups with shared memory, barriers (some in
// control flow only some workgroups take), subgroup operations and the
// ids that tell workgroups and subgroups apart give, run in batches, the
// bytes running them one by one gives.
func TestBatchShared(t *testing.T) {
	for k, src := range []string{batchConvSrc, batchSharedSrc} {
		for _, sg := range []int{32, 16, 64} {
			const groups = 1000
			if b := batchOf(t, src, groups, sg); b < 2 {
				t.Fatalf("kernel %d, subgroup size %d: batches of %d", k, sg, b)
			}
			got, errs := batchRun(t, src, groups, sg, Options{})
			if errs[0] != nil || errs[1] != nil {
				t.Fatalf("kernel %d, subgroup size %d: %v / %v", k, sg, errs[0], errs[1])
			}
			for b, name := range []string{"y", "z"} {
				for i := range got[0][b] {
					if got[0][b][i] != got[1][b][i] {
						t.Fatalf("kernel %d, subgroup size %d: %s[%d]: one by one %d, batched %d", k, sg, name, i, got[0][b][i], got[1][b][i])
					}
				}
			}
		}
	}
}

// TestBatchFaults: a barrier only some invocations of one workgroup
// reach, a fault in one workgroup after a barrier, and a workgroup that
// runs out of steps between barriers are reported in a batch as one by
// one.
func TestBatchFaults(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"barrier divergence", `if (gl_WorkGroupID.x == 700u && gl_LocalInvocationID.x < 5u) { barrier(); }`, "barrier divergence"},
		{"fault", `if (gl_WorkGroupID.x == 700u && gl_LocalInvocationID.x == 9u) { y[part[9] + 100000u] = 1u; }`, "out-of-bounds"},
		{"steps", `if (gl_WorkGroupID.x == 700u) { for (uint k = 0u; k < y[0] + 1u; k += part[1] & 0u) { part[gl_LocalInvocationID.x] += k; } }`, "step budget exhausted"},
	} {
		src := `#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
layout(set = 0, binding = 1) buffer Z { uint z[]; };
shared uint part[64];
void main() {
    part[gl_LocalInvocationID.x] = gl_WorkGroupID.x;
    barrier();
    ` + c.body + `
    barrier();
    y[gl_GlobalInvocationID.x] = part[63u - gl_LocalInvocationID.x];
}
`
		_, errs := batchRun(t, src, 1000, 32, Options{StepBudget: 20000})
		for k, err := range errs {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%s (parallel %v): %v, want %q", c.name, k == 1, err, c.want)
			}
		}
		var e0, e1 *Error
		if !errors.As(errs[0], &e0) || !errors.As(errs[1], &e1) || e0.Invocation != e1.Invocation || e0.Msg != e1.Msg {
			t.Errorf("%s: one by one %v, batched %v", c.name, errs[0], errs[1])
		}
	}
}

// TestBatchTiles: tiled matrix products through two-dimensional shared
// arrays, with local sizes (256, 1, 1) and (16, 16, 1), whose loads and
// stores run on each workgroup's memory in the batch's row (affine and
// per invocation), and a kernel writing out every id of a 2-D local size,
// give the bytes of running the workgroups one by one.
func TestBatchTiles(t *testing.T) {
	const head = `#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(set = 0, binding = 0) buffer Y { uint y[]; };
layout(set = 0, binding = 1) buffer Z { uint z[]; };
shared uint ta[16][16];
shared uint tb[16][16];
`
	const body = `
    uint acc = 0u;
    for (uint k = 0u; k < 128u; k += 16u) {
        ta[ty][tx] = y[(by * 16u + ty) * 128u + k + tx];
        tb[ty][tx] = y[(k + ty) * 128u + bx * 16u + tx];
        barrier();
        for (uint j = 0u; j < 16u; j++) {
            acc += ta[ty][j] * tb[j][(tx + gl_WorkGroupID.x) % 16u];
        }
        barrier();
    }
    z[(by * 16u + ty) * 128u + bx * 16u + tx] = acc + ta[tx][ty];
}
`
	for _, c := range []struct {
		name, src string
		groups    [3]uint32
	}{
		{"1d", head + `layout(local_size_x = 256) in;
void main() {
    uint tx = gl_LocalInvocationID.x % 16u, ty = gl_LocalInvocationID.x / 16u;
    uint bx = gl_WorkGroupID.x % 8u, by = gl_WorkGroupID.x / 8u;` + body, [3]uint32{64, 1, 1}},
		{"2d", head + `layout(local_size_x = 16, local_size_y = 16) in;
void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint bx = gl_WorkGroupID.x, by = gl_WorkGroupID.y;` + body, [3]uint32{8, 8, 1}},
		{"ids", head + `layout(local_size_x = 8, local_size_y = 8) in;
void main() {
    uint i = gl_GlobalInvocationID.y * 64u + gl_GlobalInvocationID.x;
    ta[gl_LocalInvocationID.y][gl_LocalInvocationID.x] = gl_LocalInvocationIndex + gl_WorkGroupID.x;
    barrier();
    z[i] = ((gl_WorkGroupID.x * 8u + gl_WorkGroupID.y) * 64u + ta[gl_LocalInvocationID.x][gl_LocalInvocationID.y]) * 16u
        + gl_SubgroupID * 4u + gl_NumSubgroups + gl_SubgroupInvocationID * 1000000u;
}
`, [3]uint32{8, 64, 1}},
	} {
		code := glslWords(t, c.src)
		in := make([]uint32, 128*128)
		for i := range in {
			in[i] = uint32(i*2654435761) >> 11
		}
		var got [2][]uint32
		for k, o := range []Options{{SubgroupSize: 16}, {SubgroupSize: 16, batchAll: true}} {
			dev := New(o)
			y, z := u32buf(t, dev, in), u32buf(t, dev, make([]uint32, 128*256))
			_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: c.groups,
				Bindings: []backend.Binding{{Binding: 0, Buffer: y}, {Binding: 1, Buffer: z}}})
			if err != nil {
				t.Fatal(err)
			}
			got[k] = u32s(z)
		}
		if !slices.Equal(got[0], got[1]) {
			t.Errorf("%s: batched and one by one differ", c.name)
		}
	}
}

package exec

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
)

// regionShaders diverge at ifs whose sides are more than straight-line
// code, or at loops' exits. Those named in regionWant run as divergent
// regions (region.go): loops of different trip counts, nested branches,
// both sides with loops, a variable written on a side and read past the
// merge, a region inside a loop with barriers, calls, a switch, the
// reduction of bench/reduce_subgroup.amber, loops left at different
// iterations (their exit test, a break out of an if, a do-while's
// conditional back edge, an inner loop inside an outer one with a
// subgroup operation); subgroup operations after the merge see the whole
// subgroup again. The early return leaves lockstep as before (its inner
// loop is a region), and so does the subgroup operation on a side.
var regionShaders = map[string]string{
	"loop": `
    uint s = i;
    if ((i % 3u) == 0u) {
        for (uint j = 0u; j < (i & 7u); j++) s = s * 5u + j;
    }
    o[i] = subgroupAdd(s) + s;`,
	"nested": `
    uint s = 1u, t = 2u;
    if (i > 5u) {
        if ((i & 1u) == 1u) {
            for (uint j = 0u; j < i % 4u; j++) s += j * i;
        } else {
            t = i * 3u;
        }
        while (t < 50u) t += i + 1u;
    }
    uint e = subgroupElect() ? 1u : 0u;
    o[i] = s + t * 7u + e * 1000u + subgroupMax(s) * 13u;`,
	"ifelse": `
    uint s = i + 1u;
    if ((i % 2u) == 0u) {
        for (uint j = 0u; j < i % 5u; j++) s += j;
    } else {
        for (uint j = 0u; j < i % 3u; j++) s *= 3u;
    }
    o[i] = subgroupAdd(s) ^ s;`,
	"inloop": `
    uint s = i;
    for (uint r = 0u; r < 3u; r++) {
        if (((i + r) % 4u) == 0u) {
            for (uint j = 0u; j < r + 2u; j++) s = s * 3u + j;
        }
        sh[i] = s;
        barrier();
        s += sh[(i + 1u) % gl_WorkGroupSize.x];
        barrier();
    }
    o[i] = s;`,
	"call": `
    uint s = 0u;
    if ((i % 5u) == 1u) {
        s = f(i) + f(i + 1u);
    }
    o[i] = subgroupAdd(s) + f(s);`,
	"switch": `
    uint s = i;
    if ((i % 2u) == 0u) {
        switch (i % 6u) {
        case 0u: s += 11u; break;
        case 2u: for (uint j = 0u; j < i; j++) s ^= j; break;
        default: s *= 7u;
        }
    }
    o[i] = subgroupAdd(s) - s;`,
	"reduce": `
    uint s = i * 3u + 1u;
    s = subgroupAdd(s);
    if (subgroupElect()) {
        sh[gl_SubgroupID] = s;
    }
    barrier();
    if (i == 0u) {
        uint t = 0u;
        for (uint k = 0u; k < gl_NumSubgroups; k++) {
            t += sh[k];
        }
        o[0] = t;
    } else {
        o[i] = 0u;
    }`,
	"variable": `
    uint s = i * 3u;
    if ((i & 3u) == 1u) {
        for (uint j = 0u; j < i % 3u; j++) o[i] = j;
        s = i * 7u + 5u;
    }
    o[i] = subgroupAdd(s) + s;`,
	"signed": `
    int s = int(i) - 20;
    if ((i % 3u) != 1u) {
        for (int j = -3; j < int(i % 9u) - 4; j++) s = s * -3 + j;
    }
    o[i] = uint(subgroupAdd(s) + s);`,
	"float": `
    float f = float(i) * 0.37;
    if ((i & 5u) == 4u) {
        for (uint j = 0u; j < i % 7u; j++) f = f * 1.0625 + float(j) / 3.0;
    }
    o[i] = floatBitsToUint(subgroupAdd(f)) ^ floatBitsToUint(f);`,
	"memory": `
    sh[i % 64u] = i * 5u;
    barrier();
    uint s = 0u;
    if ((i % 4u) == 2u) {
        for (uint j = 0u; j < 64u; j += i % 5u + 1u) {
            s += sh[j] ^ j;
            sm[j & 3u] = s;
        }
    }
    barrier();
    o[i] = s + sm[i & 3u];`,
	"tripcount": `
    uint s = i, t = 0u;
    for (uint j = 0u; j < i % 11u; j++) {
        t += j * i;
        s = s * 3u + t;
    }
    o[i] = subgroupAdd(s) + s * 5u + t;`,
	"dowhile": `
    uint s = i * 37u + 5u, n = 0u;
    do {
        s = s / 3u + (s & 1u);
        n += s;
    } while (s > 4u);
    s += n;
    o[i] = subgroupMax(s) ^ s;`,
	"breakif": `
    uint s = i;
    for (uint r = 0u; r < 20u; r++) {
        s = s * 5u + r;
        if ((s % 7u) == 3u) {
            s += 1000u;
            break;
        }
        if ((s & 15u) == 0u) continue;
        s ^= r;
    }
    o[i] = subgroupAdd(s) + s;`,
	"nestedloops": `
    uint s = i;
    for (uint r = 0u; r < 3u; r++) {
        uint j = 0u;
        while (j < (i + r) % 6u) {
            s = s * 3u + j;
            j++;
        }
        s += subgroupAdd(j);
    }
    o[i] = s;`,
	"return": `
    uint s = i;
    if ((i % 7u) == 3u) {
        for (uint j = 0u; j < i % 4u; j++) s += j;
        o[i] = s;
        return;
    }
    o[i] = subgroupAdd(s) + s;`,
	"break": `
    uint s = i;
    for (uint r = 0u; r < 4u; r++) {
        if ((i % 3u) == r) {
            for (uint j = 0u; j < r; j++) s += j;
            break;
        }
        s += 2u;
    }
    o[i] = subgroupAdd(s) + s;`,
	"subgroup": `
    uint s = i;
    if (i < 9u) {
        for (uint j = 0u; j < 2u; j++) s += subgroupAdd(j + i);
    }
    o[i] = subgroupAdd(s) + s;`,
}

var regionWant = map[string]bool{"tripcount": true, "dowhile": true, "breakif": true, "nestedloops": true, "return": true, "break": true, "signed": true, "float": true, "memory": true, "variable": true, "loop": true, "nested": true, "ifelse": true, "inloop": true, "call": true, "switch": true, "reduce": true}

func regionCode(t *testing.T, body string, local int) []uint32 {
	return glslWords(t, fmt.Sprintf(`#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = %d) in;
layout(binding = 0) buffer O { uint o[]; };
layout(binding = 1) buffer Small { uint sm[]; };
shared uint sh[64];
uint f(uint x) {
    uint y = 0u;
    for (uint j = 0u; j < x %% 6u; j++) y += x >> j;
    return y;
}
void main() {
    uint i = gl_LocalInvocationIndex;%s
}`, local, body))
}

// hasRegion reports whether code has a branch that runs as a region.
func hasRegion(t *testing.T, code []uint32) bool {
	pr := loadWords(t, code, 16)
	for k := range pr.p.code {
		if pr.p.code[k].region != nil {
			return true
		}
	}
	return false
}

// regionRun runs code on 3 workgroups of local invocations, in lockstep
// or one invocation at a time, and returns the output and the error.
func regionRun(t *testing.T, code []uint32, local int, oneByOne bool) ([]byte, error) {
	dev := New(Options{SubgroupSize: 16, noLockstep: oneByOne})
	out, err := dev.NewBuffer(local*4, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	small, err := dev.NewBuffer(16, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	_, err = dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{3, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: out}, {Binding: 1, Buffer: small}}})
	return bytes.Clone(Bytes(out)), err
}

// TestRegions runs each shader in lockstep (a subgroup's, 16
// invocations, and a whole workgroup's, 64) and one invocation at a
// time: the outputs must be the same.
func TestRegions(t *testing.T) {
	for name, body := range regionShaders {
		for _, local := range []int{16, 64} {
			code := regionCode(t, body, local)
			if got := hasRegion(t, code); got != regionWant[name] {
				t.Errorf("%s: has a region %v, want %v", name, got, regionWant[name])
			}
			a, errA := regionRun(t, code, local, false)
			b, errB := regionRun(t, code, local, true)
			if errA != nil || errB != nil {
				t.Fatalf("%s, %d invocations: lockstep %v, one by one %v", name, local, errA, errB)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s, %d invocations: lockstep and one by one differ:\n%v\n%v", name, local, u32sOf(a), u32sOf(b))
			}
		}
	}
}

// soloWant are the shaders of regionShaders whose regions have solo runs
// (solo.go): all but the one whose only region's side has a subgroup
// operation (the call's loop in the function is a region of its own).
var soloWant = map[string]bool{"tripcount": true, "dowhile": true, "breakif": true, "nestedloops": true, "return": true, "break": true, "call": true, "signed": true, "float": true, "memory": true, "variable": true, "loop": true,
	"nested": true, "ifelse": true, "inloop": true, "switch": true, "reduce": true}

// TestSoloRuns checks which regions' sides run as solo runs (TestRegions
// compares what they compute with one invocation at a time).
func TestSoloRuns(t *testing.T) {
	for name, body := range regionShaders {
		pr := loadWords(t, regionCode(t, body, 64), 16)
		if got := pr.p.solo != nil; got != soloWant[name] {
			t.Errorf("%s: solo runs %v, want %v", name, got, soloWant[name])
		}
	}
}

// TestRegionReduce checks the reduction's sum against Go's.
func TestRegionReduce(t *testing.T) {
	out, err := regionRun(t, regionCode(t, regionShaders["reduce"], 64), 64, false)
	if err != nil {
		t.Fatal(err)
	}
	want := uint32(0)
	for i := range uint32(64) {
		want += i*3 + 1
	}
	if got := u32sOf(out)[0]; got != want {
		t.Errorf("sum %d, want %d", got, want)
	}
}

// TestRegionFaults: a fault on a side of a region is reported as running
// the invocations one at a time reports it, even where an earlier
// invocation faults later, past the merge (the region's fault comes
// second then), and in another subgroup of a wide workgroup; an index out
// of range and a store past its buffer in a solo run's loop (solo.go).
func TestRegionFaults(t *testing.T) {
	for _, body := range []string{`
    uint s = i;
    if (i == 7u || i == 40u) {
        for (uint j = 0u; j < 3u; j++) s += j;
        sm[1000000u + i] = s;
    }
    if (i == 3u) {
        sm[2000000u] = 1u;
    }
    o[i] = s;`, `
    uint s = i;
    if (i == 7u || i == 40u) {
        for (uint j = 0u; j < 3u; j++) s += j;
        sm[1000000u + i] = s;
    }
    if (i == 35u) {
        sm[2000000u] = 1u;
    }
    o[i] = s;`, `
    uint s = i;
    if (i >= 10u) {
        for (uint j = 0u; j < 3u; j++) s += j;
        sm[1000000u + i] = s;
    }
    o[i] = s;`, `
    uint s = i;
    if (i == 9u || i == 40u) {
        for (uint j = 60u; j < 70u; j++) s += sh[j] * j;
    }
    o[i] = s;`, `
    uint s = i;
    if (i == 9u || i == 40u) {
        for (uint j = 0u; j < 9u; j++) sm[j * i] = s;
    }
    o[i] = s;`} {
		for _, local := range []int{16, 64} {
			code := regionCode(t, body, local)
			if !hasRegion(t, code) {
				t.Fatal("no region")
			}
			_, errA := regionRun(t, code, local, false)
			_, errB := regionRun(t, code, local, true)
			if errA == nil || fmt.Sprint(errA) != fmt.Sprint(errB) {
				t.Errorf("%d invocations:\nlockstep   %v\none by one %v", local, errA, errB)
			}
		}
	}
}

func u32sOf(b []byte) []uint32 {
	v := make([]uint32, len(b)/4)
	for k := range v {
		v[k] = uint32(b[4*k]) | uint32(b[4*k+1])<<8 | uint32(b[4*k+2])<<16 | uint32(b[4*k+3])<<24
	}
	return v
}

// TestRegionSteps: invocations that spend more steps on a side than the
// others run out past the merge, in lockstep, where and when running the
// invocations one at a time they do, or finish, at every step budget
// around the point where they start to run out.
func TestRegionSteps(t *testing.T) {
	code := budgetCode(t, `
    uint a = gl_LocalInvocationIndex, n = a;
    if ((a % 3u) == 2u) {
        for (uint j = 0u; j < n * 2u; j++) a = a * 3u + j;
    }
    for (uint i = 0u; i < pc.n; i++) a = a * 7u + i;
    o[gl_LocalInvocationIndex] = a;`, 64)
	if !hasRegion(t, code) {
		t.Fatal("no region")
	}
	for steps := int64(200); steps < 3000; steps += 37 {
		a := budgetRun(t, code, false, 20, steps, -1)
		b := budgetRun(t, code, true, 20, steps, -1)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("step budget %d:\nlockstep   %v\none by one %v", steps, a, b)
		}
	}
}

// TestRegionBatch runs regions where workgroups run several at once as
// one wide row (a batch: several workers, no workgroup memory or
// collectives), against one invocation at a time: the outputs, and a
// fault on a side in one workgroup where an earlier workgroup faults past
// the merge.
func TestRegionBatch(t *testing.T) {
	for _, tc := range []struct{ body, fault string }{
		{`
    uint s = g;
    if ((g % 3u) == 1u) {
        for (uint j = 0u; j < g % 7u; j++) s = s * 3u + j;
    }
    o[g] = s;`, ""},
		{`
    uint s = g;
    if (g == 37u * 64u + 5u) {
        for (uint j = 0u; j < 3u; j++) s += j;
        sm[1000000u + g] = s;
    }
    if (g == 36u * 64u + 9u) {
        sm[2000000u] = 1u;
    }
    o[g] = s;`, "(2313,0,0)"},
	} {
		code := glslWords(t, `#version 450
layout(local_size_x = 64) in;
layout(binding = 0) buffer O { uint o[]; };
layout(binding = 1) buffer Small { uint sm[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;`+tc.body+`
}`)
		var outs [2][]byte
		var errs [2]error
		for n, oneByOne := range []bool{false, true} {
			dev := New(Options{SubgroupSize: 16, Parallel: true, Workers: 2, noLockstep: oneByOne})
			out, _ := dev.NewBuffer(1024*64*4, backend.UsageStorage)
			small, _ := dev.NewBuffer(16, backend.UsageStorage)
			_, errs[n] = dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1024, 1, 1},
				Bindings: []backend.Binding{{Binding: 0, Buffer: out}, {Binding: 1, Buffer: small}}})
			outs[n] = bytes.Clone(Bytes(out))
		}
		if fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) || tc.fault != "" && (errs[0] == nil || !strings.Contains(errs[0].Error(), tc.fault)) {
			t.Errorf("lockstep %v, one by one %v, want a fault of %s", errs[0], errs[1], tc.fault)
		}
		if tc.fault == "" && !bytes.Equal(outs[0], outs[1]) {
			t.Error("lockstep and one by one differ")
		}
	}
}

// TestSoloSteps: an invocation that runs out of steps in a solo run's
// loop stops at the instruction, with the error, running it one
// invocation at a time gives, at every step budget in a range (a run
// starts only with the steps for all of it).
func TestSoloSteps(t *testing.T) {
	code := budgetCode(t, `
    uint a = gl_LocalInvocationIndex;
    if (a == 0u || a == 5u) {
        for (uint i = 0u; i < pc.n; i++) a = a * 3u + i;
    }
    o[gl_LocalInvocationIndex] = a;`, 16)
	if pr := loadWords(t, code, 16); pr.p.solo == nil {
		t.Fatal("no solo runs")
	}
	for steps := int64(20); steps < 260; steps++ {
		a := budgetRun(t, code, false, 1<<20, steps, -1)
		b := budgetRun(t, code, true, 1<<20, steps, -1)
		if a == nil || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("step budget %d:\nlockstep   %v\none by one %v", steps, a, b)
		}
	}
}

// BenchmarkRegionTail: a matrix-vector product's row loop in the style
// of llama.cpp's mul_mat_vec, whose trip count differs by one between
// the invocations (a row length not a multiple of the workgroup size),
// then a subgroup reduction: the loop's exit test is a region (the
// invocations with one more iteration run it on their own, then all
// reduce in lockstep).
func BenchmarkRegionTail(b *testing.B) {
	code := glslWords(b, `#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 32) in;
layout(binding = 0) buffer O { float o[]; };
layout(binding = 1) readonly buffer A { float a[]; };
void main() {
    uint row = gl_WorkGroupID.x, tid = gl_LocalInvocationID.x;
    float s = 0.0;
    for (uint k = tid; k < 1000u; k += 32u) {
        s += a[row * 1000u + k] * a[k];
    }
    s = subgroupAdd(s);
    if (tid == 0u) o[row] = s;
}`)
	dev := New(Options{SubgroupSize: 32})
	out, _ := dev.NewBuffer(256*4, backend.UsageStorage)
	a, _ := dev.NewBuffer(256*1000*4, backend.UsageStorage)
	b.ResetTimer()
	for range b.N {
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{256, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: out}, {Binding: 1, Buffer: a}}}); err != nil {
			b.Fatal(err)
		}
	}
}

// retFuncs are functions whose ifs return early, in the style of
// llama.cpp's load_b and rope functions: each runs as a region ending at
// the function's return (regionIf.ret).
const retFuncs = `
uint h(uint x) {
    if ((x % 3u) == 1u) return x * 7u;
    uint y = x;
    for (uint j = 0u; j < x % 5u; j++) {
        if (y > 40u) return y + j;
        y += j * 3u;
    }
    return y ^ 5u;
}
void put(uint x, uint at) {
    if (x > 30u) {
        sm[at & 3u] = x;
        return;
    }
    o[at] = x + 1u;
}
`

// TestRegionReturns runs functions with early returns, called where the
// invocations disagree, in lockstep and one invocation at a time: the
// outputs, faults (a store past its buffer on a returning side) and step
// budgets must be the same.
func TestRegionReturns(t *testing.T) {
	code := func(body string, local int) []uint32 {
		return glslWords(t, fmt.Sprintf(`#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = %d) in;
layout(push_constant) uniform P { uint n; } pc;
layout(binding = 0) buffer O { uint o[]; };
layout(binding = 1) buffer Small { uint sm[]; };
%s
void main() {
    uint i = gl_LocalInvocationIndex;%s
}`, local, retFuncs, body))
	}
	for _, body := range []string{`
    uint s = h(i) + h(i * 3u + 1u);
    o[i] = subgroupAdd(s) + s;`, `
    uint s = i;
    for (uint r = 0u; r < 3u; r++) {
        s = h(s + r) + subgroupMax(s);
        put(s % 50u, i);
    }
    o[i] += s;`, `
    uint s = h(i);
    if (i == 9u) put(s, 1000000u);
    o[i] = subgroupAdd(s);`} {
		for _, local := range []int{16, 64} {
			c := code(body, local)
			pr := loadWords(t, c, 16)
			rets := 0
			for k := range pr.p.code {
				if ri := pr.p.code[k].region; ri != nil && ri.ret {
					rets++
				}
			}
			if rets == 0 || pr.p.solo == nil {
				t.Fatalf("%d regions ending at a return, solo runs %v", rets, pr.p.solo != nil)
			}
			a, errA := regionRun(t, c, local, false)
			b, errB := regionRun(t, c, local, true)
			if fmt.Sprint(errA) != fmt.Sprint(errB) || !bytes.Equal(a, b) {
				t.Errorf("%d invocations: lockstep %v, one by one %v:\n%v\n%v", local, errA, errB, u32sOf(a), u32sOf(b))
			}
		}
	}
	c := code(`
    uint s = h(i) + h(i + 7u);
    o[i] = s;`, 16)
	for steps := int64(20); steps < 200; steps++ {
		a := budgetRun(t, c, false, 1, steps, -1)
		b := budgetRun(t, c, true, 1, steps, -1)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("step budget %d:\nlockstep   %v\none by one %v", steps, a, b)
		}
	}
}

package exec

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
)

// budgetShaders run a loop of pc.n iterations after code that lockstep
// handles in different ways: a subgroup that finishes in lockstep (its
// loop varying, or uniform in leader runs), a
// masked branch whose sides differ in length, divergent regions (a loop
// on one side, of different lengths; a runaway loop there in a few
// invocations, the others running out past the merge), invocations whose step
// counts differ when they reconverge at a subgroup operation, and
// instructions with work of their own (copies of a large array), also
// on a masked branch's side.
var budgetShaders = map[string]string{
	"finish": `
    uint a = gl_LocalInvocationIndex;
    for (uint i = 0u; i < pc.n; i++) a = a * 3u + i;
    o[gl_LocalInvocationIndex] = a;`,
	"uniform": `
    uint a = 1u, b = 2u;
    for (uint i = 0u; i < pc.n; i++) { a = a * 3u + i; b = (b + a) * (i & 7u); }
    o[gl_LocalInvocationIndex] = a + b + gl_LocalInvocationIndex;`,
	"masked": `
    uint a = gl_LocalInvocationIndex, b = 1u;
    for (uint i = 0u; i < pc.n; i++) {
        if ((a & 1u) == 0u) { a = a * 3u + 1u; b ^= a; b += i; } else { a = a + 7u; }
        a ^= i;
    }
    o[gl_LocalInvocationIndex] = a + b;`,
	"reconverge": `
    uint a = 0u;
    for (uint i = 0u; i < gl_LocalInvocationIndex % 5u; i++) a += i * 7u;
    a = subgroupAdd(a);
    for (uint i = 0u; i < pc.n; i++) a = a * 3u + i;
    o[gl_LocalInvocationIndex] = a;`,
	"work": `
    uint t[256];
    for (uint i = 0u; i < 256u; i++) t[i] = i ^ gl_LocalInvocationIndex;
    uint a = 0u;
    for (uint i = 0u; i < pc.n; i++) {
        uint u[256] = t;
        a += u[(i * 7u + a) & 255u];
        t[i & 255u] = a;
    }
    o[gl_LocalInvocationIndex] = a;`,
	"region": `
    uint a = gl_LocalInvocationIndex, b = 1u;
    for (uint i = 0u; i < pc.n; i++) {
        if ((a & 3u) == 0u) {
            for (uint j = 0u; j < (a & 7u) + 1u; j++) b += a ^ j;
            a += b;
        } else {
            a = a * 5u + 1u;
        }
        a ^= i;
    }
    o[gl_LocalInvocationIndex] = a + b;`,
	"regionlong": `
    uint a = gl_LocalInvocationIndex;
    if (a == 5u || a == 21u) {
        for (uint i = 0u; i < pc.n; i++) a = a * 3u + i;
    }
    for (uint i = 0u; i < pc.n; i++) a = a * 7u + i;
    o[gl_LocalInvocationIndex] = a;`,
	"maskedstore": `
    uint a = gl_LocalInvocationIndex;
    for (uint i = 0u; i < pc.n; i++) {
        if ((a & 3u) == 1u) { o[(a ^ i) & 63u] = a + i; }
        a = a * 3u + i;
    }
    o[gl_LocalInvocationIndex] = a;`,
	"maskedwork": `
    uint t[256];
    for (uint i = 0u; i < 256u; i++) t[i] = i * gl_LocalInvocationIndex;
    uint a = gl_LocalInvocationIndex;
    for (uint i = 0u; i < pc.n; i++) {
        if ((a & 1u) == 0u) { uint u[256] = t; a += u[i & 255u] + 1u; } else { a += 3u; }
        t[a & 255u] = i;
    }
    o[gl_LocalInvocationIndex] = a;`,
}

func budgetCode(t *testing.T, body string, local int) []uint32 {
	return glslWords(t, fmt.Sprintf(`#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = %d) in;
layout(push_constant) uniform P { uint n; } pc;
layout(binding = 0) buffer O { uint o[]; };
void main() {%s
}`, local, body))
}

func budgetRun(t *testing.T, code []uint32, oneByOne bool, n uint32, steps, work int64) error {
	dev := New(Options{SubgroupSize: 16, StepBudget: steps, noLockstep: oneByOne})
	out, err := dev.NewBuffer(64*4, backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	_, err = dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{2, 1, 1},
		PushConstants: binary.LittleEndian.AppendUint32(nil, n), WorkBudget: work,
		Bindings: []backend.Binding{{Binding: 0, Buffer: out}}})
	return err
}

// TestBudgetsMatchOneByOne: lockstep (a subgroup's rows, a whole
// workgroup's wide rows, masked branches) charges the step and work
// budgets as running the invocations one at a time does: a runaway loop
// stops with the same error (instruction and invocation) at every step
// budget, and the least work budget a dispatch runs within is the same.
func TestBudgetsMatchOneByOne(t *testing.T) {
	for _, name := range []string{"finish", "uniform", "masked", "maskedstore", "reconverge", "work", "maskedwork", "region", "regionlong"} {
		for _, local := range []int{16, 64} {
			code := budgetCode(t, budgetShaders[name], local)
			for _, steps := range []int64{60, 61, 200, 1001, 1002, 1003, 4099, 9000, 9001} {
				a := budgetRun(t, code, false, 1<<20, steps, -1)
				b := budgetRun(t, code, true, 1<<20, steps, -1)
				if a == nil || !strings.Contains(a.Error(), "step budget") || fmt.Sprint(a) != fmt.Sprint(b) {
					t.Errorf("%s, %d invocations, step budget %d:\nlockstep   %v\none by one %v", name, local, steps, a, b)
				}
			}
			least := func(oneByOne bool) int64 {
				lo, hi := int64(1), int64(1<<22)
				for lo < hi {
					mid := (lo + hi) / 2
					if budgetRun(t, code, oneByOne, 40, 0, mid) == nil {
						hi = mid
					} else {
						lo = mid + 1
					}
				}
				return lo
			}
			if a, b := least(false), least(true); a != b {
				t.Errorf("%s, %d invocations: the least work budget is %d in lockstep, %d one by one", name, local, a, b)
			}
		}
	}
}

package exec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
)

// TestMaskedBranches runs branches the invocations of a subgroup disagree
// on (an if, an if-else, phis at the merge, a local variable written on
// one side, a store and a uniform computation under the mask, nested
// ifs that leave lockstep) with lockstep and one invocation at a time,
// and checks both against the values computed here.
func TestMaskedBranches(t *testing.T) {
	src := `#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint outv[]; };
layout(set = 0, binding = 1) buffer S { uint side[]; };
layout(push_constant) uniform P { uint k; } p;
void main() {
    uint i = gl_LocalInvocationIndex;
    uint v = i * 3u;
    uint w = 7u;
    if ((i & 1u) == 0u) {
        v = v + p.k;
        side[i] = v;
        w = p.k * 2u;
    }
    uint u = (i % 3u == 0u) ? v + 1u : v * 2u;
    if (i < 10u) {
        u += 100u;
    } else {
        u ^= 0x55u;
    }
    if (i > 40u) {
        if (i > 50u) {
            u += 1000u;
        }
    }
    outv[i] = u + w;
}`
	want := func(i uint32, k uint32) (uint32, uint32) {
		v, w := i*3, uint32(7)
		s := uint32(0)
		if i&1 == 0 {
			v += k
			s = v
			w = k * 2
		}
		var u uint32
		if i%3 == 0 {
			u = v + 1
		} else {
			u = v * 2
		}
		if i < 10 {
			u += 100
		} else {
			u ^= 0x55
		}
		if i > 50 {
			u += 1000
		}
		return u + w, s
	}
	code := glslWords(t, src)
	var outs [2][]byte
	for n, noLock := range []bool{false, true} {
		dev := New(Options{noLockstep: noLock, SubgroupSize: 16})
		out, _ := dev.NewBuffer(64*4, backend.UsageStorage)
		side, _ := dev.NewBuffer(64*4, backend.UsageStorage)
		push := binary.LittleEndian.AppendUint32(nil, 5)
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, PushConstants: push,
			Bindings: []backend.Binding{{Binding: 0, Buffer: out}, {Binding: 1, Buffer: side}}}); err != nil {
			t.Fatal(err)
		}
		for i := uint32(0); i < 64; i++ {
			u, s := want(i, 5)
			if got := binary.LittleEndian.Uint32(Bytes(out)[4*i:]); got != u {
				t.Errorf("noLockstep %v: out[%d] = %d, want %d", noLock, i, got, u)
			}
			if got := binary.LittleEndian.Uint32(Bytes(side)[4*i:]); got != s {
				t.Errorf("noLockstep %v: side[%d] = %d, want %d", noLock, i, got, s)
			}
		}
		outs[n] = bytes.Clone(Bytes(out))
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("lockstep and one-by-one differ")
	}
}

// TestMaskedFaultNamesActive: a masked store the same in every active
// invocation runs once; its fault names the first active invocation,
// not the subgroup's leader, which is masked out (in a subgroup's
// lockstep and in a whole workgroup's).
func TestMaskedFaultNamesActive(t *testing.T) {
	for _, local := range []int{16, 64} {
		code := regionCode(t, `
    if (i == 3u || i == 37u) {
        sm[2000000u] = 1u;
    }
    o[i] = i;`, local)
		_, errA := regionRun(t, code, local, false)
		_, errB := regionRun(t, code, local, true)
		if errA == nil || !strings.Contains(errA.Error(), "invocation (3,0,0)") || fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Errorf("%d invocations:\nlockstep   %v\none by one %v", local, errA, errB)
		}
	}
}

// TestMaskedAcrossFaults: a masked side run for the invocations of all
// subgroups of a workgroup at once (a store at its end, a load before)
// reports the fault that running the subgroups one after another finds:
// the first faulting invocation of the store, a later subgroup's store,
// and an earlier subgroup's store fault before a later one's load fault.
func TestMaskedAcrossFaults(t *testing.T) {
	cases := []struct{ body, want string }{
		{`
    if ((i & 7u) == 5u) {
        sm[i * 1000000u] = i;
    }
    o[i] = i;`, "invocation (5,0,0)"},
		{`
    if ((i & 7u) == 5u) {
        sm[1u + i / 41u * 1000000u] = i;
    }
    o[i] = i;`, "invocation (45,0,0)"},
		{`
    if ((i & 7u) == 5u) {
        uint v = sm[i / 41u * 1000000u];
        sm[1u + 1u / (1u + (i ^ 21u)) * 2000000u] = v;
    }
    o[i] = i;`, "invocation (21,0,0)"},
		{`
    if ((i & 7u) == 5u) {
        uint v = sm[i / 41u * 1000000u];
        sm[2u] = v + i;
    }
    o[i] = i;`, "invocation (45,0,0)"},
	}
	for n, c := range cases {
		code := regionCode(t, c.body, 64)
		if !hasAcross(t, code) {
			t.Errorf("case %d: no masked branch runs across subgroups", n)
		}
		_, errA := regionRun(t, code, 64, false)
		_, errB := regionRun(t, code, 64, true)
		if errA == nil || !strings.Contains(errA.Error(), c.want) || fmt.Sprint(errA) != fmt.Sprint(errB) {
			t.Errorf("case %d, want %s:\nlockstep   %v\none by one %v", n, c.want, errA, errB)
		}
	}
}

// hasAcross reports whether code has a masked branch whose side can run
// across subgroups.
func hasAcross(t *testing.T, code []uint32) bool {
	pr := loadWords(t, code, 16)
	for k := range pr.p.code {
		if mi := pr.p.code[k].masked; mi != nil && mi.across {
			return true
		}
	}
	return false
}

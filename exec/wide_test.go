package exec

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
)

// TestWideFaultOrder runs workgroups of several subgroups (the last one
// partial with subgroups of 32), which start in
// lockstep as a whole, where an invocation of a later subgroup faults at
// an earlier instruction than one of the first subgroup: the fault
// reported must be the first subgroup's (unless a barrier comes between),
// as running the subgroups one after another (and one invocation at a
// time) finds it, whether the
// faults are plain accesses, inside masked branches or around subgroup
// operations and barriers, or loads fused with their access chains.
func TestWideFaultOrder(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"plain", `
    o[i == 40u ? i + p.bad : i] = 1u;
    o[i == 3u ? i + p.bad : i] += 2u;`},
		{"masked", `
    if (i == 40u) { o[i + p.bad] = 1u; } else { o[i] = 5u; }
    if (i == 3u) { o[i + p.bad] = 2u; }`},
		{"subgroup", `
    uint s = subgroupAdd(i);
    o[i == 40u ? i + p.bad : i] = s;
    s = subgroupMax(s + i);
    if (subgroupElect()) {
        s += 7u;
    }
    o[i == 3u ? i + p.bad : i] += s;`},
		{"barrier", `
    o[i == 40u ? i + p.bad : i] = 1u;
    barrier();
    o[i == 3u ? i + p.bad : i] += 2u;`},
		{"load", `
    uint v = o[i == 40u ? i + p.bad : i];
    o[i] = v + 1u;
    uint w = o[i == 3u ? i + p.bad : i];
    o[i] += w;`},
		{"shared", `
    t[i] = i;
    uint v = t[i == 40u ? i + p.bad : i];
    o[i] = v + 1u;
    uint w = t[i == 3u ? i + p.bad : i];
    o[i] += w;`},
		{"early barrier", `
    o[i == 3u ? i + p.bad : i] = 1u;
    barrier();
    o[i == 40u ? i + p.bad : i] += 2u;`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(push_constant) uniform P { uint bad; } p;
shared uint t[48];
void main() {
    uint i = gl_LocalInvocationIndex;` + tc.body + `
}`
			code := glslWords(t, src)
			for _, sgs := range []int{16, 32} {
				run := func(noLock bool, bad uint32) ([]byte, error) {
					dev := New(Options{noLockstep: noLock, SubgroupSize: sgs})
					buf, _ := dev.NewBuffer(64*4, backend.UsageStorage)
					push := binary.LittleEndian.AppendUint32(nil, bad)
					_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, PushConstants: push,
						Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}})
					return Bytes(buf), err
				}
				lock, err := run(false, 0)
				if err != nil {
					t.Fatal(err)
				}
				one, err := run(true, 0)
				if err != nil {
					t.Fatal(err)
				}
				if string(lock) != string(one) {
					t.Errorf("subgroups of %d: results differ between lockstep and one-by-one execution", sgs)
				}
				_, e1 := run(false, 1<<20)
				_, e2 := run(true, 1<<20)
				// A barrier orders: faults before it come first.
				want := "invocation (3,0,0)"
				if tc.name == "barrier" {
					want = "invocation (40,0,0)"
				}
				if e1 == nil || e2 == nil || e1.Error() != e2.Error() || !strings.Contains(e1.Error(), want) {
					t.Errorf("subgroups of %d: lockstep %v\none by one %v", sgs, e1, e2)
				}
			}
		})
	}
}

// TestBuiltinRows loads the integer built-ins in lockstep, where rows
// compute them from the invocations' places (rows crossing y and z
// boundaries of the workgroup), and one invocation at a time from memory.
func TestBuiltinRows(t *testing.T) {
	src := `#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 3, local_size_y = 2, local_size_z = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
    uint g = gl_LocalInvocationIndex + 24u * (gl_WorkGroupID.x + 2u * gl_WorkGroupID.y + 4u * gl_WorkGroupID.z);
    uint b = g * 11u;
    o[b] = gl_GlobalInvocationID.x;
    o[b + 1u] = gl_GlobalInvocationID.y;
    o[b + 2u] = gl_GlobalInvocationID.z;
    o[b + 3u] = gl_LocalInvocationID.x;
    o[b + 4u] = gl_LocalInvocationID.y;
    o[b + 5u] = gl_LocalInvocationID.z;
    o[b + 6u] = gl_LocalInvocationIndex;
    o[b + 7u] = gl_SubgroupInvocationID;
    o[b + 8u] = gl_SubgroupID;
    o[b + 9u] = gl_WorkGroupID.y;
    o[b + 10u] = gl_WorkGroupID.z;
}`
	code := glslWords(t, src)
	var outs [2][]byte
	for k, noLock := range []bool{false, true} {
		dev := New(Options{noLockstep: noLock, SubgroupSize: 4})
		buf, _ := dev.NewBuffer(24*8*11*4, backend.UsageStorage)
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{2, 2, 2},
			Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}}); err != nil {
			t.Fatal(err)
		}
		outs[k] = Bytes(buf)
	}
	if string(outs[0]) != string(outs[1]) {
		t.Error("built-ins differ between lockstep and one-by-one execution")
	}
	// Invocation 23 of workgroup (1,1,1) is (2,1,3) in it, (5,3,7) in all.
	b := (23 + 24*7) * 11 * 4
	for k, want := range []uint32{5, 3, 7, 2, 1, 3, 23, 3, 5, 1, 1} {
		if got := binary.LittleEndian.Uint32(outs[0][b+4*k:]); got != want {
			t.Errorf("value %d: got %d, want %d", k, got, want)
		}
	}
}

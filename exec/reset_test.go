package exec

import (
	"encoding/binary"
	"testing"

	"github.com/coopshader/coop/backend"
)

// TestResetBetweenWorkgroups runs workgroups one after another on one
// worker (so each reuses the last one's invocations) and checks every
// built-in and a Function variable each invocation sees, in lockstep and
// one invocation at a time: a worker restores only some slots and copies
// the built-ins fixed for an invocation from bytes encoded once.
func TestResetBetweenWorkgroups(t *testing.T) {
	src := `#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 4, local_size_y = 3) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 8u;
    uint acc = 7u;
    for (uint j = 0u; j < gl_LocalInvocationIndex; j++) {
        acc += j;
    }
    uint b = g * 10u;
    o[b + 0u] = gl_LocalInvocationID.x;
    o[b + 1u] = gl_LocalInvocationID.y;
    o[b + 2u] = gl_WorkGroupID.x;
    o[b + 3u] = gl_WorkGroupID.y;
    o[b + 4u] = gl_LocalInvocationIndex;
    o[b + 5u] = gl_SubgroupInvocationID;
    o[b + 6u] = gl_SubgroupID;
    o[b + 7u] = gl_NumSubgroups;
    o[b + 8u] = gl_NumWorkGroups.x * 100u + gl_NumWorkGroups.y;
    o[b + 9u] = acc;
}`
	code := glslWords(t, src)
	for _, noLock := range []bool{false, true} {
		dev := New(Options{noLockstep: noLock, SubgroupSize: 8})
		buf, _ := dev.NewBuffer(8*6*10*4, backend.UsageStorage)
		binds := []backend.Binding{{Binding: 0, Buffer: buf}}
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{2, 2, 1}, Bindings: binds}); err != nil {
			t.Fatal(err)
		}
		out := Bytes(buf)
		for wy := uint32(0); wy < 2; wy++ {
			for wx := uint32(0); wx < 2; wx++ {
				for ly := uint32(0); ly < 3; ly++ {
					for lx := uint32(0); lx < 4; lx++ {
						li := lx + ly*4
						g := wx*4 + lx + (wy*3+ly)*8
						want := []uint32{lx, ly, wx, wy, li, li % 8, li / 8, 2, 202, 7 + li*(li-1)/2}
						for k, w := range want {
							if got := binary.LittleEndian.Uint32(out[(g*10+uint32(k))*4:]); got != w {
								t.Errorf("noLockstep %v: workgroup (%d,%d) invocation (%d,%d) value %d: got %d, want %d", noLock, wx, wy, lx, ly, k, got, w)
							}
						}
					}
				}
			}
		}
	}
}

package exec

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/coopshader/coop/backend"
)

// TestLeadRuns runs uniform scalar code that leader runs take (leadrun.go)
// in lockstep and one invocation at a time: a loop whose counter indexes
// buffers and push constants, a run whose operand starts to vary midway
// (the invocation's id joins), and indices that leave the buffer or the
// push constants partway through the loop, which must fault at the same
// instruction and invocation.
func TestLeadRuns(t *testing.T) {
	code := glslWords(t, `#version 450
layout(local_size_x = 16) in;
layout(push_constant) uniform P { uint n, m, s[4]; } pc;
layout(binding = 0) buffer I { uint v[]; } src;
layout(binding = 1) buffer O { uint o[]; };
void main() {
    uint a = 1u, b = 0u;
    for (uint k = 0u; k < pc.n; k++) {
        uint i = k * pc.m + pc.s[k & 3u];
        a = a * 3u + src.v[i];
        b += pc.s[k % pc.m];
        uint j = k * 2u + gl_LocalInvocationIndex;
        b ^= src.v[j & 31u] + j;
    }
    o[gl_GlobalInvocationID.x] = a + b;
}`)
	in := make([]uint32, 64)
	for i := range in {
		in[i] = uint32(i*i + 7)
	}
	type setup struct {
		dev     *Device
		ib, out backend.Buffer
	}
	// One device for every dispatch in lockstep: what a dispatch's runs
	// remember of push constants (uop.inv) is not the next's.
	var shared *setup
	run := func(oneByOne bool, n, m uint32) ([]uint32, error) {
		su := shared
		if su == nil || oneByOne {
			dev := New(Options{SubgroupSize: 8, noLockstep: oneByOne})
			out, err := dev.NewBuffer(32*4, backend.UsageStorage)
			if err != nil {
				t.Fatal(err)
			}
			su = &setup{dev, u32buf(t, dev, in), out}
			if !oneByOne {
				shared = su
			}
		}
		dev, ib, out := su.dev, su.ib, su.out
		clear(Bytes(out))
		var pc []byte
		for _, v := range []uint32{n, m, 3, 1, 4, 1} {
			pc = binary.LittleEndian.AppendUint32(pc, v)
		}
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{2, 1, 1}, PushConstants: pc,
			Bindings: []backend.Binding{{Binding: 0, Buffer: ib}, {Binding: 1, Buffer: out}}})
		return u32s(out), err
	}
	for _, c := range [][2]uint32{{0, 1}, {1, 1}, {9, 5}, {20, 3}, {40, 2}, {30, 9}, {5, 0x40000000}} {
		a, errA := run(false, c[0], c[1])
		b, errB := run(true, c[0], c[1])
		if fmt.Sprint(errA) != fmt.Sprint(errB) || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("n=%d m=%d:\nlockstep   %v %v\none by one %v %v", c[0], c[1], errA, a, errB, b)
		}
	}
	// A wide m puts i past the buffer in the second iteration; m = 9
	// indexes pc.s past its end (k % m = 4) before that.
	if _, err := run(false, 5, 0x40000000); err == nil {
		t.Error("an index past the buffer did not fault")
	}
}

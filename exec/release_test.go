package exec

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/coopshader/coop/backend"
)

// TestReleaseLiveMatchesOneByOne diverges subgroups at branches that
// cannot run masked (a loop inside), where release hands out only the
// slots still read (liveAt): values computed before, read after the
// branch, in a later loop iteration, through a phi or in a function,
// must come out as running the invocations one by one gives them.
func TestReleaseLiveMatchesOneByOne(t *testing.T) {
	src := `#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer In { uint u[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
layout(push_constant) uniform P { uint k; } p;
uint mix3(uint a, uint b, uint c) { return a * 7u + (b ^ c); }
void main() {
    uint i = gl_LocalInvocationID.x;
    uint a = u[i], b = u[i + 64u] * 3u, c = p.k + 5u, d = a ^ b;
    uint e = i * 4u + 1u;
    uint a2 = a * 9u + 1u, b2 = b * 5u + 3u;
    uint r = 0u;
    if ((a & 3u) == 1u) {
        for (uint j = 0u; j < (b & 7u); j++) {
            r += a * j + c;
        }
    } else {
        r = d;
    }
    uint s = r;
    for (uint j = 0u; j < 3u; j++) {
        if (((s + j) & 5u) == 4u) {
            for (uint q = 0u; q < (a & 3u); q++) {
                s += e + q;
            }
        }
        s = mix3(s, b, c + j);
    }
    uint z = ((s & 1u) != 0u) ? a2 : b2;
    o[i] = s + d + z;
    if (i == 0u) {
        uint t = 0u;
        for (uint j = 0u; j < 64u; j++) {
            t += u[j] ^ e;
        }
        o[64u] = t + c + b;
    }
}`
	code := glslWords(t, src)
	in := make([]byte, 128*4)
	for k := 0; k < 128; k++ {
		binary.LittleEndian.PutUint32(in[4*k:], uint32(k*2654435761)>>7)
	}
	run := func(noLock bool) []byte {
		dev := New(Options{noLockstep: noLock, SubgroupSize: 16})
		bi, _ := dev.NewBuffer(len(in), backend.UsageStorage)
		copy(Bytes(bi), in)
		bo, _ := dev.NewBuffer(65*4, backend.UsageStorage)
		push := binary.LittleEndian.AppendUint32(nil, 11)
		binds := []backend.Binding{{Binding: 0, Buffer: bi}, {Binding: 1, Buffer: bo}}
		if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{2, 1, 1}, PushConstants: push, Bindings: binds}); err != nil {
			t.Fatal(err)
		}
		return bytes.Clone(Bytes(bo))
	}
	if lock, one := run(false), run(true); !bytes.Equal(lock, one) {
		t.Errorf("lockstep and one-by-one results differ:\n%x\n%x", lock, one)
	}
}

package exec

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"testing"

	"github.com/coopshader/coop/backend"
)

// TestAffineRowsMatchOneByOne runs, in lockstep (subgroups whose rows
// cross the workgroup's y and z boundaries, and whole workgroups) and one
// invocation at a time, a shader whose addresses are affine in the
// invocation's id: contiguous, strided, reversed and broadcast loads and
// stores of each width, sums and products of ids, 2D shared-memory tiles
// with barriers; then with push constants that put some invocations' indices out
// of range (a runtime array, a fixed-size array, a negative index), and
// requires the same bytes, or the same fault.
func TestAffineRowsMatchOneByOne(t *testing.T) {
	src := `#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 6, local_size_y = 4, local_size_z = 2) in;
layout(set = 0, binding = 0) buffer In { uint u[]; };
layout(set = 0, binding = 1) buffer H { uint16_t h[]; };
layout(set = 0, binding = 2) buffer B8 { uint8_t b8[]; };
layout(set = 0, binding = 3) buffer L { uint64_t q[]; };
layout(set = 0, binding = 4) buffer Out { uint o[]; };
layout(push_constant) uniform P { uint k; int bad; int off; int neg; } p;
shared uint tile[2][4][6];
shared uint lin[48];
void main() {
    uint gx = gl_GlobalInvocationID.x, gy = gl_GlobalInvocationID.y, gz = gl_GlobalInvocationID.z;
    uvec3 l = gl_LocalInvocationID;
    uint li = gl_LocalInvocationIndex;
    uint g = gx + 18u * (gy + 8u * gz);
    uint r = u[g] + u[287u - g] * 3u + u[gy] + u[(gx << 2) + 1u] + u[g * 2u - gx];
    r ^= uint(h[g + p.k]) + uint(h[2u * li]) * 7u;
    r += uint(b8[g]) + uint(b8[300u - li]);
    uint64_t qv = q[g] + q[li * 3u];
    tile[l.z][l.y][l.x] = r;
    lin[47u - li] = r + 1u;
    barrier();
    uint acc = 0u;
    for (uint j = 0u; j < 6u; j++) {
        acc += tile[l.z][l.y][j] * (j + 1u) + tile[l.z][3u - l.y][l.x] + lin[li];
    }
    o[g] = acc;
    o[300u + g] = uint(qv) ^ uint(qv >> 32);
    h[400u + g] = uint16_t(acc);
    b8[400u + 2u * g] = uint8_t(acc);
    q[300u + g] = qv * 3ul;
    if (p.bad != 0) {
        o[g + uint(p.bad)] = 1u;
    }
    if (p.off != 0) {
        o[700u + gx] = tile[l.z][l.y + uint(p.off)][l.x];
    }
    if (p.neg != 0) {
        o[700u + gx] = u[int(g) - p.neg];
    }
}`
	code := glslWords(t, src)
	rng := rand.New(rand.NewSource(3))
	inits := [][]byte{make([]byte, 1024*4), make([]byte, 1024*2), make([]byte, 1024), make([]byte, 1024*8), make([]byte, 1024*4)}
	for _, b := range inits[:4] {
		rng.Read(b)
	}
	run := func(opts Options, push [4]int32) ([][]byte, error) {
		dev := New(opts)
		var binds []backend.Binding
		var bufs []backend.Buffer
		for k, init := range inits {
			b, _ := dev.NewBuffer(len(init), backend.UsageStorage)
			copy(Bytes(b), init)
			bufs = append(bufs, b)
			binds = append(binds, backend.Binding{Binding: uint32(k), Buffer: b})
		}
		var pc []byte
		for _, v := range push {
			pc = binary.LittleEndian.AppendUint32(pc, uint32(v))
		}
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{3, 2, 1}, PushConstants: pc, Bindings: binds})
		var out [][]byte
		for _, b := range bufs {
			out = append(out, bytes.Clone(Bytes(b)))
		}
		return out, err
	}
	for _, push := range [][4]int32{{5, 0, 0, 0}, {5, 1000, 0, 0}, {5, 4096 - 300, 0, 0}, {5, 0, 2, 0}, {5, 0, 0, 7}, {5, 0, 0, 1 << 30}} {
		one, e1 := run(Options{noLockstep: true, SubgroupSize: 16}, push)
		for _, sgs := range []int{16, 32, 64} {
			lock, e2 := run(Options{SubgroupSize: sgs}, push)
			if (e1 == nil) != (e2 == nil) || e1 != nil && e1.Error() != e2.Error() {
				t.Errorf("push %v, subgroup size %d: lockstep %v; one by one %v", push, sgs, e2, e1)
				continue
			}
			if e1 != nil {
				continue // what was written before the fault depends on the order
			}
			for k := range lock {
				if !bytes.Equal(lock[k], one[k]) {
					t.Errorf("push %v, subgroup size %d: buffer %d differs between lockstep and one-by-one execution", push, sgs, k)
				}
			}
		}
	}
}

package compile

import (
	"math/bits"
	"testing"
)

// GL_ARB_shader_ballot compiled, validated and run: the 64-bit masks,
// ballotARB over a divergent branch, readInvocationARB of vectors and
// readFirstInvocationARB.
func TestShaderBallotARBRuns(t *testing.T) {
	src := `#version 450
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
	uint i = gl_LocalInvocationIndex;
	uint64_t masks = gl_SubGroupEqMaskARB | gl_SubGroupLtMaskARB << 1;
	v[8u * i] = uint(masks);
	v[8u * i + 1u] = uint(gl_SubGroupGeMaskARB ^ gl_SubGroupGtMaskARB ^ gl_SubGroupLeMaskARB);
	v[8u * i + 2u] = gl_SubGroupSizeARB * 100u + gl_SubGroupInvocationARB;
	if (i % 3u != 0u) {
		uint64_t b = ballotARB(i % 2u == 0u);
		v[8u * i + 3u] = uint(b);
		v[8u * i + 4u] = uint(b >> 32);
		uvec2 r = readInvocationARB(uvec2(i, i * 2u), 4u);
		v[8u * i + 5u] = r.x;
		v[8u * i + 6u] = r.y;
		v[8u * i + 7u] = readFirstInvocationARB(i + 1000u);
	}
}
`
	out := runShader(t, src, 1, make([]uint32, 8*64), nil)
	const size = 32 // the executor's default subgroup size
	for i := range 64 {
		me, first := uint64(i%size), i/size*size
		g := out[8*i : 8*i+8]
		eq, lt := uint64(1)<<me, uint64(1)<<me-1
		full := uint64(1)<<size - 1
		ge, gt, le := full&^lt, full&^(lt|eq), lt|eq
		if uint64(g[0]) != (eq|lt<<1)&0xffffffff || uint64(g[1]) != (ge^gt^le)&0xffffffff || g[2] != uint32(size*100+int(me)) {
			t.Errorf("lane %d masks: %#x %#x %d", i, g[0], g[1], g[2])
		}
		if i%3 == 0 {
			continue
		}
		var ballot uint64
		firstActive := -1
		for j := first; j < first+size; j++ {
			if j%3 != 0 {
				if firstActive < 0 {
					firstActive = j
				}
				if j%2 == 0 {
					ballot |= 1 << uint(j-first)
				}
			}
		}
		if uint64(g[3])|uint64(g[4])<<32 != ballot || bits.OnesCount64(ballot) == 0 {
			t.Errorf("lane %d ballot %#x %#x, want %#x", i, g[3], g[4], ballot)
		}
		// Lane 4 of each subgroup is active (4 % 3 != 0, and 36 % 3 == 0:
		// the second subgroup's lane 4 is inactive and reads as 0).
		rx := uint32(first + 4)
		if (first+4)%3 == 0 {
			rx = 0
		}
		if g[5] != rx || g[6] != 2*rx || g[7] != uint32(firstActive+1000) {
			t.Errorf("lane %d reads %d %d %d, want %d %d %d", i, g[5], g[6], g[7], rx, 2*rx, firstActive+1000)
		}
	}
}

// GL_AMD_shader_ballot compiled, validated and run over a divergent
// branch: the swizzles, writeInvocationAMD, mbcntAMD and the non-uniform
// scans see the active invocations only.
func TestShaderBallotAMDRuns(t *testing.T) {
	src := `#version 450
#extension GL_AMD_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
	uint i = gl_LocalInvocationIndex;
	if (i % 3u != 0u) {
		v[8u * i] = swizzleInvocationsAMD(i, uvec4(1, 0, 3, 2));
		v[8u * i + 1u] = uint(swizzleInvocationsMaskedAMD(vec2(i), uvec3(0x1f, 0, 1)).y);
		v[8u * i + 2u] = writeInvocationAMD(i, 100u, 5u);
		v[8u * i + 3u] = mbcntAMD(0x5555555555555555ul);
		uvec2 s = addInvocationsInclusiveScanNonUniformAMD(uvec2(i, 1u));
		v[8u * i + 4u] = s.x;
		v[8u * i + 5u] = s.y;
		v[8u * i + 6u] = uint(minInvocationsExclusiveScanNonUniformAMD(int(i)));
		v[8u * i + 7u] = uint(maxInvocationsNonUniformAMD(float(i)));
	}
}
`
	out := runShader(t, src, 1, make([]uint32, 8*64), nil)
	const size = 32
	active := func(j int) bool { return j%3 != 0 }
	for i := range 64 {
		if !active(i) {
			continue
		}
		me, first := i%size, i/size*size
		at := func(id int) uint32 {
			if id >= size || !active(first+id) {
				return 0
			}
			return uint32(first + id)
		}
		g := out[8*i : 8*i+8]
		want := []uint32{at(me&^3 + []int{1, 0, 3, 2}[me&3]), at(me ^ 1), uint32(i), uint32(bits.OnesCount64(0x5555555555555555 & (1<<uint(me) - 1)))}
		if me == 5 {
			want[2] = 100
		}
		sum, cnt, lo, hi := 0, 0, int32(0x7fffffff), 0
		for id := 0; id < size; id++ {
			if j := first + id; active(j) {
				if id <= me {
					sum, cnt = sum+j, cnt+1
				}
				if id < me {
					lo = min(lo, int32(j))
				}
				hi = max(hi, j)
			}
		}
		want = append(want, uint32(sum), uint32(cnt), uint32(lo), uint32(hi))
		for c := range want {
			if g[c] != want[c] {
				t.Errorf("lane %d output %d = %d, want %d", i, c, g[c], want[c])
			}
		}
	}
}

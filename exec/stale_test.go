package exec_test

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
)

// Stale reads. Lockstep keeps values that vary between the invocations
// in rows, values affine in the invocation id as that function, values
// the same everywhere in the leader alone, and promoted variables in
// slots their loads share; the collective paths (cooperative loads,
// stores and multiply-adds, tensor loads and their decode functions,
// reductions and per-element functions, cooperative vectors, subgroup
// operations) read operands from the invocations' registers and memory.
// These shaders give every such path operands and memory that differ per
// invocation and change from one loop iteration to the next, held in
// each of those forms where the collective runs, and require the bytes
// (or the fault) of running the invocations one at a time.

// staleHeader declares the buffers every stale shader uses: A halves,
// B bytes, C and D floats (outputs), U uints; N is the matrices' size.
const staleHeader = `#version 450 core
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { int8_t b[]; };
layout(std430, binding = 2) buffer C { float c[]; };
layout(std430, binding = 3) buffer U { uint u[]; };
layout(std430, binding = 5) buffer D { float d[]; };
layout(buffer_reference, std430, buffer_reference_align = 1) buffer W { int8_t q; };
const uint N = 64;
`

// staleCoop: 16x16 tiles through every cooperative path, one subgroup of
// 32 per workgroup. The Private variables g, gu and sc differ per
// invocation (rows, an affine function) and change every iteration; the
// decode functions read them on each element's owner (dec: on rows,
// decb: in rounds, as bitCount has no row handler; decl: one call per element, a
// loop), the reduction's combine function on the first invocation, the
// per-element function takes per-invocation and affine extra operands.
// Pointers, offsets and strides come from values the same everywhere
// but computed from the id (affine functions of zero slope, rows) or
// through promoted variables.
const staleCoop = staleHeader + `layout(local_size_x = 32) in;
float16_t g = float16_t(0.5);
uint gu = 0u;
float sc = 1.0;
float16_t dec(const in W w, const in uint32_t bc[2], const in uint32_t ib[2]) {
	return float16_t(w.q) * g + float16_t(gu & 7u) - float16_t(ib[1] & 1u);
}
float16_t decb(const in W w, const in uint32_t bc[2], const in uint32_t ib[2]) {
	return float16_t(w.q) * g + float16_t(bitCount(gu ^ gl_LocalInvocationID.x) & 3);
}
float16_t decl(const in W w, const in uint32_t bc[2], const in uint32_t ib[2]) {
	float16_t s = float16_t(0);
	for (uint i = 0u; i <= (gu & 1u); i++) {
		s += g;
	}
	return float16_t(w.q) * s;
}
float comb(const in float x, const in float y) { return x + y * sc; }
float pe(const in uint r, const in uint col, const in float e, const in uint x, const in float f, const in float s) {
	return e * 0.5 + float(x & 15u) * 0.125 + f + s + float(gu & 3u);
}
void main() {
	uint tm = gl_WorkGroupID.y * 16u, tn = gl_WorkGroupID.x * 16u;
	uint lx = gl_LocalInvocationID.x;
	uint zero = lx - lx;            // affine, no slope
	uint zrow = lx / 1000u;         // a row, the same everywhere
	tensorLayoutNV<2> lb = createTensorLayoutNV(2);
	lb = setTensorLayoutDimensionNV(lb, N, N + zrow);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
		coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
	uint off = tm * N + zero;       // a promoted variable
	for (uint k = 0u; k < N; k += 16u) {
		g = float16_t(lx & 3u) + float16_t(k / 16u) * float16_t(0.25);
		gu = lx * 3u + k;
		sc = float(lx) * 0.5 + float(k);
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
		coopMatLoad(ma, a, off + k, N + zero, gl_CooperativeMatrixLayoutRowMajor);
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
		coopMatLoadTensorNV(mb, b, zero, sliceTensorLayoutNV(lb, k + zrow, 16, tn, 16), DEC);
		acc = coopMatMulAdd(ma, mb, acc);
		coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> r;
		coopMatReduceNV(r, acc, gl_CooperativeMatrixReduceRowNV, comb);
		acc = acc * 0.25 + r * 0.001;
		coopMatPerElementNV(acc, acc, pe, lx + k, float(lx & 1u), sc);
		u[(gl_WorkGroupID.y * 4u + gl_WorkGroupID.x) * 32u + lx] += gu;
	}
	coopMatStore(acc, c, tm * N + tn + zrow, N + zero, gl_CooperativeMatrixLayoutRowMajor);
	tensorLayoutNV<2> ld = createTensorLayoutNV(2);
	ld = setTensorLayoutDimensionNV(ld, N + zero, N + zrow);
	coopMatStoreTensorNV(acc * 2.0, d, zrow, sliceTensorLayoutNV(ld, tm + zero, 16, tn + zrow, 16));
}
`

// staleShared: cooperative loads and stores of workgroup memory that
// the invocations write and read through affine addresses between
// barriers, at offsets and strides the same everywhere but affine.
const staleShared = staleHeader + `layout(local_size_x = 32) in;
shared float16_t sa[16 * 24];
shared float sf[16 * 16 + 4];
void main() {
	uint tm = gl_WorkGroupID.y * 16u, tn = gl_WorkGroupID.x * 16u;
	uint lx = gl_LocalInvocationID.x;
	uint zero = lx - lx;
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
		coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
	for (uint k = 0u; k < N; k += 16u) {
		for (uint j = 0u; j < 8u; j++) {
			sa[(lx >> 1) * 24u + (lx & 1u) * 8u + j] = a[(tm + (lx >> 1)) * N + k + (lx & 1u) * 8u + j] * float16_t(k / 16u + 1u);
		}
		barrier();
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
		coopMatLoad(ma, sa, zero, 24u + zero, gl_CooperativeMatrixLayoutRowMajor);
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
		coopMatLoad(mb, a, k * N + tn + zero, N, gl_CooperativeMatrixLayoutRowMajor);
		acc = coopMatMulAdd(ma, mb, acc);
		coopMatStore(acc, sf, zero + k / 16u, 16u + zero, gl_CooperativeMatrixLayoutRowMajor);
		barrier();
		u[(gl_WorkGroupID.y * 4u + gl_WorkGroupID.x) * 32u + lx] += floatBitsToUint(sf[lx * 7u + k / 16u]);
		barrier();
	}
	coopMatStore(acc, c, tm * N + tn, N, gl_CooperativeMatrixLayoutRowMajor);
}
`

// staleGroup: subgroup operations on affine values, rows and promoted
// variables in a loop with barriers (the whole workgroup's lockstep where
// there are several subgroups), and masked branches writing them.
const staleGroup = staleHeader + `layout(local_size_x = 16, local_size_y = 4) in;
shared uint sh[64];
uint pv = 0u;
void main() {
	uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y, li = gl_LocalInvocationIndex;
	uint acc = u[gl_WorkGroupID.x * 64u + li] & 255u;
	uint lv = li * 9u;
	for (uint k = 0u; k < 4u; k++) {
		uint v = lx * 3u + ly * 17u + k;
		uint w = (li * 7u) / (k + 1u);
		pv += v;
		acc += subgroupAdd(v);
		acc ^= subgroupMax(v + acc) * 7u;
		acc += subgroupBroadcast(v, 3u) + subgroupBroadcastFirst(v + w);
		acc += subgroupShuffle(v, (li + k) & (gl_SubgroupSize - 1u));
		acc += subgroupInclusiveAdd(v) ^ subgroupExclusiveAdd(w);
		acc += subgroupBallotBitCount(subgroupBallot(((v + pv) & 1u) == 0u));
		acc += subgroupShuffleXor(li * 5u + pv, 1u);
		acc += subgroupMin(pv);
		sh[li] = acc;
		barrier();
		acc += sh[63u - li] + sh[(li * 5u + k) & 63u];
		barrier();
		if (subgroupElect()) {
			acc += 1u;
		}
		if ((v & 3u) == 1u) {
			pv += w;
			lv ^= v;
		} else {
			lv += pv + li;
		}
		acc += subgroupXor(lv);
	}
	u[256u + gl_WorkGroupID.x * 64u + li] = acc;
	c[gl_WorkGroupID.x * 64u + li] = float(pv);
}
`

// staleVec: cooperative vectors whose offsets are affine in the id, or
// rows, or promoted, changing every iteration, loaded in a masked branch
// too.
const staleVec = staleHeader + `#extension GL_NV_cooperative_vector : enable
#extension GL_EXT_long_vector : enable
layout(local_size_x = 32) in;
layout(std430, binding = 4) buffer F { float f[]; };
void main() {
	uint lx = gl_LocalInvocationID.x;
	uint base = gl_WorkGroupID.x * 32u;
	coopvecNV<float, 4> s = coopvecNV<float, 4>(0.0);
	uint o = (lx * 7u) % 5u;
	for (uint k = 0u; k < 4u; k++) {
		coopvecNV<float, 4> x;
		coopVecLoadNV(x, f, (base + lx + k) * 16u);
		coopvecNV<float, 4> y;
		coopVecLoadNV(y, f, (o + k) * 16u);
		coopvecNV<float, 4> r;
		coopVecMatMulAddNV(r, x, gl_ComponentTypeFloat32NV, f, (lx & 3u) * 64u + k * 64u, gl_ComponentTypeFloat32NV,
			f, o * 16u, gl_ComponentTypeFloat32NV, 4, 4, gl_CooperativeVectorMatrixLayoutRowMajorNV, false, 16);
		s = s + r * 0.5 + y;
		if ((lx & 1u) == 0u) {
			coopVecLoadNV(y, f, (o + k + lx) * 16u);
			s = s - y * 0.25;
		}
		o = (o + lx) % 7u;
	}
	coopVecStoreNV(s, c, (base + lx) * 16u);
}
`

// runStale compiles src, fills its buffers the same way each time and
// runs groups workgroups under opts: all buffers' bytes, or the error.
func runStale(t *testing.T, src string, groups [3]uint32, opts exec.Options) ([]byte, error) {
	t.Helper()
	code, err := compile.Words("stale.comp", []byte(src), compile.Options{TargetEnv: "vulkan1.3"})
	if err != nil {
		t.Fatal(err)
	}
	dev := exec.New(opts)
	r := rand.New(rand.NewPCG(3, 4))
	const n = 64
	sizes := []int{2 * n * n, n * n, 4 * n * n, 4 * 1024, 4 * 1024, 4 * n * n}
	var binds []backend.Binding
	var bufs []backend.Buffer
	for k, size := range sizes {
		b, err := dev.NewBuffer(size, backend.UsageStorage)
		if err != nil {
			t.Fatal(err)
		}
		d := exec.Bytes(b)
		switch k {
		case 0:
			for i := 0; i < len(d)/2; i++ {
				binary.LittleEndian.PutUint16(d[2*i:], f16(float32(r.IntN(256)-128)/64))
			}
		case 4:
			for i := 0; i < len(d)/4; i++ {
				binary.LittleEndian.PutUint32(d[4*i:], uint32(r.IntN(64)-32)<<20+0x3f800000)
			}
		case 2, 5:
		default:
			for i := range d {
				d[i] = byte(r.IntN(256))
			}
		}
		bufs = append(bufs, b)
		binds = append(binds, backend.Binding{Binding: uint32(k), Buffer: b})
	}
	_, err = dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: groups, Bindings: binds})
	var out []byte
	for _, b := range bufs {
		out = append(out, exec.Bytes(b)...)
	}
	return out, err
}

// checkStale runs src one invocation at a time and in lockstep (with
// and without Options.Check), with each subgroup size of sgs, and
// requires the same bytes.
func checkStale(t *testing.T, src string, groups [3]uint32, sgs ...int) {
	t.Helper()
	for _, s := range sgs {
		want, werr := runStale(t, src, groups, exec.NoLockstep(exec.Options{SubgroupSize: s}))
		if werr != nil {
			t.Fatalf("subgroup size %d: one at a time: %v", s, werr)
		}
		for _, o := range []exec.Options{{SubgroupSize: s}, {SubgroupSize: s, Check: true}} {
			got, err := runStale(t, src, groups, o)
			if err != nil {
				t.Fatalf("%+v: %v", o, err)
			}
			if !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && got[i] == want[i] {
					i++
				}
				t.Fatalf("%+v: bytes differ from one at a time's, first at byte %d", o, i)
			}
		}
	}
}

// TestStaleCoop: each decode path (rows, rounds, one call per element)
// with Private variables that differ per invocation and change in the
// loop, reductions and per-element functions reading them, loads,
// stores (plain and tensor) and tensor views whose operands lockstep
// holds as affine functions, rows or promoted variables.
func TestStaleCoop(t *testing.T) {
	for _, dec := range []string{"dec", "decb", "decl"} {
		t.Run(dec, func(t *testing.T) {
			checkStale(t, strings.ReplaceAll(staleCoop, "DEC", dec), [3]uint32{4, 4, 1}, 32)
		})
	}
}

// TestStaleShared: cooperative loads and stores of workgroup memory
// between the invocations' own affine accesses to it.
func TestStaleShared(t *testing.T) {
	checkStale(t, staleShared, [3]uint32{4, 4, 1}, 32)
}

// TestStaleGroup: subgroup operations on affine values, rows and
// promoted variables, in one subgroup and in a workgroup of several.
func TestStaleGroup(t *testing.T) {
	checkStale(t, staleGroup, [3]uint32{4, 1, 1}, 4, 16, 32, 64)
}

// TestStaleVec: cooperative vector loads and products at offsets that
// are affine, rows, or promoted variables.
func TestStaleVec(t *testing.T) {
	checkStale(t, staleVec, [3]uint32{4, 1, 1}, 8, 32)
}

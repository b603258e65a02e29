package exec_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/coopshader/coop/exec"
)

// Decode functions reading values the same in every invocation. Lockstep
// holds such values in the leader alone (sLead) or as affine functions
// of zero slope (sAff), and a decode function's fallbacks (decodeBatch's
// rounds, one call per element) run on each element's owner, reading its
// registers and memory. What a decode function reads besides its
// parameters and its own results is module-scope: constants (every
// invocation's registers hold them from the template, and nothing writes
// them) and Private variables, which live in invocation memory that
// lockstep stores write in every invocation (a store runs once only
// outside it) and that an owner fills when first touched (fillMem). These
// shaders pin that: Private variables written uniformly from leader-only,
// affine and row values, changing every iteration, one written in one
// workgroup only (the next workgroup on the same lanes must see its
// initializer), a table never written, read by decode functions that run
// on rows, in rounds, and one call per element (a loop, a branch, a call
// to a helper that main calls in lockstep too).
const decStale = staleHeader + `layout(local_size_x = 32) in;
float16_t g = float16_t(0.5);
uint gu = 1u;
uint ga = 0u;
float16_t gw = float16_t(0.125);
float16_t tb[4] = float16_t[4](float16_t(0.25), float16_t(-1.5), float16_t(3.0), float16_t(0.75));
const float16_t K4[4] = float16_t[4](float16_t(1.0), float16_t(0.5), float16_t(-0.25), float16_t(2.0));
float16_t helper(uint x) {
	float16_t s = g;
	for (uint i = 0u; i < (x & 3u); i++) {
		s += tb[(i + gu) & 3u] * gw;
	}
	return s;
}
float16_t decr(const in W w, const in uint32_t bc[2], const in uint32_t ib[2]) {
	return float16_t(w.q) * g + float16_t((gu + ga) & 7u) * gw + tb[ib[1] & 3u] + K4[1];
}
float16_t decb(const in W w, const in uint32_t bc[2], const in uint32_t ib[2]) {
	return float16_t(w.q) * g + float16_t(bitCount(gu ^ ga ^ ib[1]) & 3) * gw + tb[gu & 3u];
}
float16_t decl(const in W w, const in uint32_t bc[2], const in uint32_t ib[2]) {
	float16_t s = float16_t(0);
	for (uint i = 0u; i <= ((gu + ga) & 3u); i++) {
		s += g + tb[(i + ib[1]) & 3u] * gw;
	}
	return float16_t(w.q) * s;
}
float16_t decf(const in W w, const in uint32_t bc[2], const in uint32_t ib[2]) {
	if (((ib[0] + gu) & 1u) == 0u) {
		return float16_t(w.q) * g + K4[ga & 3u];
	}
	return float16_t(w.q) * gw - tb[(ib[1] + ga) & 3u];
}
float16_t decc(const in W w, const in uint32_t bc[2], const in uint32_t ib[2]) {
	return float16_t(w.q) * helper(ib[1] + ga);
}
void main() {
	uint tm = gl_WorkGroupID.y * 16u, tn = gl_WorkGroupID.x * 16u;
	uint lx = gl_LocalInvocationID.x;
	uint zero = lx - lx;            // affine, no slope
	uint zrow = lx / 1000u;         // a row, the same everywhere
	if (gl_WorkGroupID.x == 1u && gl_WorkGroupID.y == 2u) {
		gw = float16_t(-2.0);       // the next workgroup on these lanes must not see it
	}
	tensorLayoutNV<2> lb = createTensorLayoutNV(2);
	lb = setTensorLayoutDimensionNV(lb, N, N);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
		coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
	for (uint k = 0u; k < N; k += 16u) {
		g = float16_t(k / 16u) * float16_t(0.25) + float16_t(gl_WorkGroupID.x);
		gu = k * 3u + gl_WorkGroupID.y + zrow;
		ga = k / 16u + zero;
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
		coopMatLoad(ma, a, tm * N + k, N, gl_CooperativeMatrixLayoutRowMajor);
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
		coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(lb, k, 16, tn, 16), DEC);
		acc = coopMatMulAdd(ma, mb, acc);
		u[(gl_WorkGroupID.y * 4u + gl_WorkGroupID.x) * 32u + lx] += uint(helper(k / 16u + lx) * float16_t(8));
	}
	coopMatStore(acc, c, tm * N + tn, N, gl_CooperativeMatrixLayoutRowMajor);
}
`

// TestStaleDecodeUniform: each decode path (rows, rounds, one call per
// element through a loop, a branch, a call) reading Private variables
// and constants that are the same in every invocation, in lockstep
// against one invocation at a time, bit for bit.
func TestStaleDecodeUniform(t *testing.T) {
	for _, dec := range []string{"decr", "decb", "decl", "decf", "decc"} {
		t.Run(dec, func(t *testing.T) {
			checkStale(t, strings.ReplaceAll(decStale, "DEC", dec), [3]uint32{4, 4, 1}, 32)
		})
	}
}

// TestStaleDecodeVectorUniform: vector decode functions (on rows beside
// the scalar function, decodeVectorsRows; one call per group where the
// vector function has a loop, decodeVectors) reading a Private variable
// that lockstep computes in the leader alone, or as an affine function
// of zero slope, changing every iteration, against one invocation at a
// time and the exact path.
func TestStaleDecodeVectorUniform(t *testing.T) {
	straight := "return f16vec4(unpack8(blk.qs[ib[1] / 4])) * float16_t(0.25) * g;"
	loop := "f16vec4 v = f16vec4(0); for (uint i = 0u; i < 1u + (bc[0] & 1u); i++) { v = f16vec4(unpack8(blk.qs[ib[1] / 4])) * float16_t(0.25) * g; } return v;"
	lead := "g = float16_t(k / 16u) * float16_t(0.5) + float16_t(gl_WorkGroupID.x + 1u);"
	aff := "g = float16_t(k / 16u + gl_LocalInvocationID.x - gl_LocalInvocationID.x) * float16_t(0.75);"
	for _, c := range []struct{ name, vec, loop string }{
		{"rows-lead", straight, lead},
		{"rows-affine", straight, aff},
		{"calls-lead", loop, lead},
		{"calls-affine", loop, aff},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.NewReplacer("VEC", c.vec, "OFF", "0", "LOOP", c.loop).Replace(vecShader)
			want, werr := runFast(t, src, 64, 1, 0, 0, exec.Options{Check: true})
			if werr != nil {
				t.Fatalf("exact path: %v", werr)
			}
			for _, o := range []exec.Options{{}, exec.NoLockstep(exec.Options{})} {
				got, err := runFast(t, src, 64, 1, 0, 0, o)
				if err != nil {
					t.Fatalf("%+v: %v", o, err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%+v: C differs from the exact path's", o)
				}
			}
		})
	}
}

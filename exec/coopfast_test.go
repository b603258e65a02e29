package exec_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
)

// The fast paths of the cooperative instructions (decode functions on
// rows, tile loads and stores) against the exact one: the same shaders run
// with Options.Check, which runs the invocations one by one and every
// decode call on its own, must give the same bytes, and the same fault
// where there is one.

// decodeShader is a coopmat2 GEMM's inner load: 16x16 tiles of B (bytes)
// through a decode function (BODY, returning float16_t from w, bc and ib),
// with B's layout given block size 1 x BS, times A into C.
const decodeShader = `#version 450 core
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
layout(local_size_x = 32) in;
layout(push_constant) uniform Dims { uint M, N, K, BS; };
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { int8_t b[]; };
layout(std430, binding = 2) buffer C { float c[]; };
layout(buffer_reference, std430, buffer_reference_align = 1) buffer W { int8_t q; };
float16_t g = float16_t(0.5);
float16_t dec(const in W w, const in uint32_t bc[2], const in uint32_t ib[2]) {
	BODY
}
void main() {
	uint tm = gl_WorkGroupID.y * 16, tn = gl_WorkGroupID.x * 16;
	GLOBAL
	tensorLayoutNV<2, CLAMP> la = createTensorLayoutNV(2, CLAMP);
	la = setTensorLayoutDimensionNV(la, M - MCUT, K);
	tensorLayoutNV<2> lb = createTensorLayoutNV(2);
	lb = setTensorLayoutDimensionNV(lb, K, N);
	lb = setTensorLayoutBlockSizeNV(lb, 1, BS);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
		coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
	for (uint k = 0; k < K; k += 16) {
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
		coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(la, tm, 16, k, 16));
		coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(lb, k, 16, tn, 16), dec);
		acc = coopMatMulAdd(ma, mb, acc);
	}
	coopMatStore(acc, c, tm * N + tn, N, gl_CooperativeMatrixLayoutRowMajor);
}
`

type fastCase struct {
	name, body, global string
	bs                 uint32
}

var decodeCases = []fastCase{
	{"scale", "return float16_t(w.q) * float16_t(0.25);", "", 1},
	{"coords", "return float16_t(w.q) * float16_t(0.125) + float16_t(ib[1]) - float16_t(bc[0] & 3u);", "", 4},
	{"select", "int8_t q = w.q; return q > int8_t(0) ? float16_t(q) : float16_t(-q) * float16_t(0.5);", "", 1},
	{"private", "return float16_t(w.q) * g;", "g = float16_t(dims_scale);", 1},
	{"builtin", "return float16_t(w.q) + float16_t(gl_LocalInvocationID.x);", "", 1},
	{"nan", "return float16_t(w.q) / float16_t(bc[0] & 1u);", "", 1},
}

// runFast compiles src and runs it with inputs of M=N=K=n (B short by
// cut bytes, A by cutA) under opts; it returns C's bytes or the error.
func runFast(t *testing.T, src string, n int, bs uint32, cutA, cut int, opts exec.Options) ([]byte, error) {
	t.Helper()
	code, err := compile.Words("fast.comp", []byte(src), compile.Options{TargetEnv: "vulkan1.3"})
	if err != nil {
		t.Fatal(err)
	}
	dev := exec.New(opts)
	r := rand.New(rand.NewPCG(1, 2))
	buf := func(size int, fill func(b []byte)) backend.Buffer {
		b, err := dev.NewBuffer(size, backend.UsageStorage)
		if err != nil {
			t.Fatal(err)
		}
		fill(exec.Bytes(b))
		return b
	}
	A := buf(2*n*n-cutA, func(b []byte) {
		for i := 0; i < len(b)/2; i++ {
			// Halves of [-2, 2) in steps of 1/64.
			binary.LittleEndian.PutUint16(b[2*i:], f16(float32(r.IntN(256)-128)/64))
		}
	})
	B := buf(n*n-cut, func(b []byte) {
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
	})
	C := buf(4*n*n, func(b []byte) {})
	pc := make([]byte, 16)
	for k, v := range []uint32{uint32(n), uint32(n), uint32(n), bs} {
		binary.LittleEndian.PutUint32(pc[4*k:], v)
	}
	_, err = dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{uint32(n / 16), uint32(n / 16), 1},
		PushConstants: pc,
		Bindings:      []backend.Binding{{Binding: 0, Buffer: A}, {Binding: 1, Buffer: B}, {Binding: 2, Buffer: C}}})
	return bytes.Clone(exec.Bytes(C)), err
}

// f16 encodes a float32 that a half holds exactly.
func f16(v float32) uint16 {
	if v == 0 {
		return 0
	}
	s := uint16(0)
	if v < 0 {
		s, v = 0x8000, -v
	}
	e := 15
	for v >= 2 {
		v /= 2
		e++
	}
	for v < 1 {
		v *= 2
		e--
	}
	return s | uint16(e)<<10 | uint16((v-1)*1024)
}

// TestDecodeRowsDiffer: decode functions of several shapes (coordinates,
// selections, a Private variable, a built-in, NaN results) give the bytes of the
// exact path; with B cut short the fault is the exact path's, whichever
// element of the tile meets it first.
func TestDecodeRowsDiffer(t *testing.T) {
	for _, c := range decodeCases {
		src := strings.NewReplacer("CLAMP", "gl_CooperativeMatrixClampModeUndefinedNV", "MCUT", "0", "BODY", c.body, "GLOBAL", strings.ReplaceAll(c.global, "dims_scale", "float(BS) * 0.25")).Replace(decodeShader)
		for _, cut := range []int{0, 1, 77, 300} {
			t.Run(fmt.Sprintf("%s/cut%d", c.name, cut), func(t *testing.T) {
				want, werr := runFast(t, src, 64, c.bs, 0, cut, exec.Options{Check: true})
				opts := []exec.Options{{}}
				if cut == 0 {
					// In parallel the first workgroup to fault is any.
					opts = append(opts, exec.Options{Parallel: true})
				}
				for _, o := range opts {
					got, err := runFast(t, src, 64, c.bs, 0, cut, o)
					if fmt.Sprint(err) != fmt.Sprint(werr) {
						t.Fatalf("%+v: error %v, want %v", o, err, werr)
					}
					if cut == 0 && werr != nil {
						t.Fatalf("exact path faults: %v", werr)
					}
					if cut > 0 && c.bs == 1 && werr == nil {
						t.Fatal("no fault with B cut short")
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%+v: C differs from the exact path's", o)
					}
				}
			})
		}
	}
}

// TestTensorLoadTileDiffer: plain tensor loads (A) straight into tiles
// give the exact path's bytes, also where the layout clamps rows past its
// end, and its fault where A is cut short.
func TestTensorLoadTileDiffer(t *testing.T) {
	for _, c := range []struct {
		clamp     string
		mcut, cut int
	}{
		{"gl_CooperativeMatrixClampModeUndefinedNV", 0, 0},
		{"gl_CooperativeMatrixClampModeConstantNV", 5, 0},
		{"gl_CooperativeMatrixClampModeClampToEdgeNV", 3, 0},
		{"gl_CooperativeMatrixClampModeUndefinedNV", 0, 2},
		{"gl_CooperativeMatrixClampModeUndefinedNV", 0, 700},
	} {
		t.Run(fmt.Sprintf("%s/%d/%d", c.clamp, c.mcut, c.cut), func(t *testing.T) {
			src := strings.NewReplacer("CLAMP", c.clamp, "MCUT", fmt.Sprint(c.mcut), "BODY", decodeCases[0].body, "GLOBAL", "").Replace(decodeShader)
			want, werr := runFast(t, src, 64, 1, c.cut, 0, exec.Options{Check: true})
			if (werr != nil) != (c.cut > 0) {
				t.Fatalf("exact path: error %v", werr)
			}
			got, err := runFast(t, src, 64, 1, c.cut, 0, exec.Options{})
			if fmt.Sprint(err) != fmt.Sprint(werr) {
				t.Fatalf("error %v, want %v", err, werr)
			}
			if !bytes.Equal(got, want) {
				t.Fatal("C differs from the exact path's")
			}
		})
	}
}

// TestCoopBudgetDiffer: where the step budget runs out amid cooperative
// loads, multiply-adds and decode calls, lockstep stops at the
// instruction and invocation the exact path stops at.
func TestCoopBudgetDiffer(t *testing.T) {
	src := strings.NewReplacer("CLAMP", "gl_CooperativeMatrixClampModeUndefinedNV", "MCUT", "0", "BODY", decodeCases[1].body, "GLOBAL", "").Replace(decodeShader)
	budgets := []int64{40, 100, 150, 1000}
	for b := int64(300); b < 500; b += 7 {
		budgets = append(budgets, b)
	}
	for _, budget := range budgets {
		want, werr := runFast(t, src, 32, 4, 0, 0, exec.Options{Check: true, StepBudget: budget})
		got, err := runFast(t, src, 32, 4, 0, 0, exec.Options{StepBudget: budget})
		if fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("budget %d: error %v, want %v", budget, err, werr)
		}
		if werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("budget %d: C differs from the exact path's", budget)
		}
	}
}

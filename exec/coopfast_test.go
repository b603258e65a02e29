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
				opts := []exec.Options{{}, exec.NoLockstep(exec.Options{})}
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

// TestDecodeRowsPartial: decode loads of partial tiles give the exact
// path's bytes (Options.Check: one call per element, each in its owner):
// B's layout ends inside the tiles, in every defined clamp mode, with
// blocks along the rows (the coordinates reach the body), and through a
// transposing view that clips a corner (Object's values kept there).
func TestDecodeRowsPartial(t *testing.T) {
	const (
		layout = "tensorLayoutNV<2> lb = createTensorLayoutNV(2);"
		dims   = "lb = setTensorLayoutDimensionNV(lb, K, N);"
		load   = "coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(lb, k, 16, tn, 16), dec);"
		decl   = "coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;"
	)
	modes := []string{"gl_CooperativeMatrixClampModeConstantNV", "gl_CooperativeMatrixClampModeClampToEdgeNV",
		"gl_CooperativeMatrixClampModeRepeatNV", "gl_CooperativeMatrixClampModeMirrorRepeatNV"}
	for _, mode := range modes {
		for _, view := range []bool{false, true} {
			for _, c := range []fastCase{decodeCases[0], decodeCases[1], decodeCases[2]} {
				t.Run(fmt.Sprintf("%s/view%v/%s", mode[len("gl_CooperativeMatrixClampMode"):], view, c.name), func(t *testing.T) {
					d, l := "lb = setTensorLayoutDimensionNV(lb, K - 5u, N - 3u); lb = setTensorLayoutClampValueNV(lb, 0x3c00u);", load
					if view {
						// B read as N x K, transposed by the view.
						d = "lb = setTensorLayoutDimensionNV(lb, N - 7u, K - 2u); lb = setTensorLayoutClampValueNV(lb, 0xbc00u);" +
							"tensorViewNV<2, false, 1, 0> tv = createTensorViewNV(2, false, 1, 0);" +
							"tv = setTensorViewClipNV(tv, 1, 14, 0, 15);"
						l = "coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(lb, tn, 16, k, 16), tv, dec);"
					}
					src := strings.NewReplacer(layout, "tensorLayoutNV<2, "+mode+"> lb = createTensorLayoutNV(2, "+mode+");",
						dims, d, load, l,
						decl, decl[:len(decl)-1]+" = coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB>(float16_t(2.0));").Replace(decodeShader)
					src = strings.NewReplacer("CLAMP", "gl_CooperativeMatrixClampModeUndefinedNV", "MCUT", "0", "BODY", c.body, "GLOBAL", "").Replace(src)
					want, werr := runFast(t, src, 48, c.bs, 0, 0, exec.Options{Check: true})
					if werr != nil {
						t.Fatalf("exact path: %v", werr)
					}
					for _, o := range []exec.Options{{}, exec.NoLockstep(exec.Options{}), {Parallel: true}} {
						got, err := runFast(t, src, 48, c.bs, 0, 0, o)
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

// TestDecodeVectorsBudget: where the step budget runs out amid the calls
// of a vector decode function and its scalar twin (on rows in lockstep),
// the run stops where the exact path stops.
func TestDecodeVectorsBudget(t *testing.T) {
	src := strings.NewReplacer("VEC", "return f16vec4(unpack8(blk.qs[ib[1] / 4])) * float16_t(0.25) * g;", "OFF", "2", "LOOP", "").Replace(vecShader)
	budgets := []int64{60, 2000}
	for b := int64(200); b < 700; b += 11 {
		budgets = append(budgets, b)
	}
	for _, budget := range budgets {
		want, werr := runFast(t, src, 32, 1, 0, 0, exec.Options{Check: true, StepBudget: budget})
		for _, o := range []exec.Options{{StepBudget: budget}, exec.NoLockstep(exec.Options{StepBudget: budget})} {
			got, err := runFast(t, src, 32, 1, 0, 0, o)
			if fmt.Sprint(err) != fmt.Sprint(werr) {
				t.Fatalf("budget %d, %+v: error %v, want %v", budget, o, err, werr)
			}
			if werr == nil && !bytes.Equal(got, want) {
				t.Fatalf("budget %d, %+v: C differs from the exact path's", budget, o)
			}
		}
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
		for _, o := range []exec.Options{{StepBudget: budget}, exec.NoLockstep(exec.Options{StepBudget: budget})} {
			got, err := runFast(t, src, 32, 4, 0, 0, o)
			if fmt.Sprint(err) != fmt.Sprint(werr) {
				t.Fatalf("%+v: error %v, want %v", o, err, werr)
			}
			if werr == nil && !bytes.Equal(got, want) {
				t.Fatalf("%+v: C differs from the exact path's", o)
			}
		}
	}
}

// vecShader is decodeShader's GEMM with a vector decode function beside
// the scalar one (GL_NV_cooperative_matrix_decode_vector): blocks of 1x32
// int8 quants, B's tiles sliced OFF columns into the matrix (so that
// groups of four can be cut at the edges), VEC the vector function's
// body.
const vecShader = `#version 450 core
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_NV_cooperative_matrix_decode_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable
layout(local_size_x = 32) in;
layout(push_constant) uniform Dims { uint M, N, K, BS; };
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { int8_t b[]; };
layout(std430, binding = 2) buffer C { float c[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Block8 { int8_t qs[32]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Block32 { int32_t qs[8]; };
float16_t g = float16_t(1);
float16_t decode1(const in Block8 blk, const in uint32_t bc[2], const in uint32_t ib[2]) {
	return float16_t(blk.qs[ib[1]]) * float16_t(0.25) * g;
}
f16vec4 decode4(const in Block32 blk, const in uint32_t bc[2], const in uint32_t ib[2]) {
	VEC
}
void main() {
	uint tm = gl_WorkGroupID.y * 16, tn = gl_WorkGroupID.x * 16;
	tensorLayoutNV<2> la = createTensorLayoutNV(2);
	la = setTensorLayoutDimensionNV(la, M, K);
	tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> lb = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
	lb = setTensorLayoutBlockSizeNV(lb, 1, 32);
	lb = setTensorLayoutDimensionNV(lb, K, N);
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
		coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
	for (uint k = 0; k < K; k += 16) {
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
		coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(la, tm, 16, k, 16));
		LOOP
		coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(lb, k, 16, tn + OFF, 16), decode1, decode4);
		acc = coopMatMulAdd(ma, mb, acc);
	}
	coopMatStore(acc, c, tm * N + tn, N, gl_CooperativeMatrixLayoutRowMajor);
}
`

// TestDecodeVectorsDiffer: vector decode functions with the scalar calls
// batched give the exact path's bytes, the same first disagreement
// between the two functions, and the same fault where B is cut short.
func TestDecodeVectorsDiffer(t *testing.T) {
	agree := "return f16vec4(unpack8(blk.qs[ib[1] / 4])) * float16_t(0.25) * g;"
	// A Private variable both functions read, different in each
	// invocation (the same in the owners of a vector's elements) and in
	// each iteration.
	priv := "g = float16_t(gl_LocalInvocationID.x & 3u) + float16_t(k / 16u);"
	for _, c := range []struct {
		name, vec, loop string
		off, cut        int
	}{
		{"agree", agree, "", 0, 0},
		{"edges", agree, "", 2, 0},
		{"cut", agree, "", 0, 45},
		{"private", agree, priv, 0, 0},
		{"disagree", "f16vec4 v = f16vec4(unpack8(blk.qs[ib[1] / 4])) * float16_t(0.25) * g; v.z += float16_t(bc[0] == 37u ? 1 : 0); return v;", priv, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.NewReplacer("VEC", c.vec, "OFF", fmt.Sprint(c.off), "LOOP", c.loop).Replace(vecShader)
			want, werr := runFast(t, src, 64, 1, 0, c.cut, exec.Options{Check: true})
			if (werr != nil) != (c.name == "cut" || c.name == "disagree") {
				t.Fatalf("exact path: error %v", werr)
			}
			for _, o := range []exec.Options{{}, exec.NoLockstep(exec.Options{})} {
				got, err := runFast(t, src, 64, 1, 0, c.cut, o)
				if fmt.Sprint(err) != fmt.Sprint(werr) {
					t.Fatalf("%+v: error %v, want %v", o, err, werr)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%+v: C differs from the exact path's", o)
				}
			}
		})
	}
}

// TestHalfTileDiffer: halves loaded into lockstep tiles as values alone
// (no NaN among them) or with their bits (NaNs) store back bit for bit,
// every one of the 65536 patterns included, and a load past the buffer
// faults as in the exact path.
func TestHalfTileDiffer(t *testing.T) {
	const src = `#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer BufA { float16_t a[]; };
layout(set = 0, binding = 1) writeonly buffer BufB { float16_t b[]; };
void main() {
	uint base = gl_WorkGroupID.x * 256 * 2;
	coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> m;
	coopMatLoad(m, a, base, 32, gl_CooperativeMatrixLayoutRowMajor);
	coopMatStore(m, b, base, 32, gl_CooperativeMatrixLayoutRowMajor);
	coopMatLoad(m, a, base + 16, 32, gl_CooperativeMatrixLayoutRowMajor);
	coopMatStore(m, b, base + 16, 32, gl_CooperativeMatrixLayoutRowMajor);
}
`
	code, err := compile.Words("halves.comp", []byte(src), compile.Options{TargetEnv: "vulkan1.3"})
	if err != nil {
		t.Fatal(err)
	}
	run := func(o exec.Options, cut int) ([]byte, error) {
		dev := exec.New(o)
		a, _ := dev.NewBuffer(2*65536-cut, backend.UsageStorage)
		b, _ := dev.NewBuffer(2*65536, backend.UsageStorage)
		ab := exec.Bytes(a)
		for h := 0; h < len(ab)/2; h++ {
			binary.LittleEndian.PutUint16(ab[2*h:], uint16(h))
		}
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{128, 1, 1},
			Bindings: []backend.Binding{{Binding: 0, Buffer: a}, {Binding: 1, Buffer: b}}})
		return bytes.Clone(exec.Bytes(b)), err
	}
	// The exact path is the invocations' own (Check reports a load past
	// the buffer as undefined behaviour instead).
	for _, cut := range []int{0, 2} {
		want, werr := run(exec.NoLockstep(exec.Options{}), cut)
		got, err := run(exec.Options{}, cut)
		if fmt.Sprint(err) != fmt.Sprint(werr) || (werr != nil) != (cut > 0) {
			t.Fatalf("cut %d: error %v, want %v", cut, err, werr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("cut %d: the halves differ from the exact path's", cut)
		}
		if cut == 0 {
			for h := 0; h < 65536; h++ {
				if g := binary.LittleEndian.Uint16(got[2*h:]); g != uint16(h) {
					t.Fatalf("half %#04x stored as %#04x", h, g)
				}
			}
		}
	}
}

// wgShader is a workgroup-scope coopmat2 GEMM (BM x BN tiles, steps of
// BK, 128 invocations of 4 subgroups): DIVERGE, in the loop, may send
// the workgroup's subgroups their own ways.
const wgShader = `#version 450 core
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 128) in;
layout(push_constant) uniform Dims { uint M, N, K, BS; };
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) buffer B { float16_t b[]; };
layout(std430, binding = 2) buffer C { float c[]; };
const uint BM = 32, BN = 64, BK = 16;
float maxf(const in float x, const in float y) { return max(x, y); }
float sumf(const in float x, const in float y) { return x + y; }
float pe(const in uint r, const in uint col, const in float e, const in uint x) { return e + float(x & 7u) * 0.25; }
void main() {
	uint zero = ZERO;
	uint tm = gl_WorkGroupID.y * BM + zero, tn = gl_WorkGroupID.x * BN;
	if (tm >= M || tn >= N) {
		return; // runFast dispatches N/16 x M/16 workgroups
	}
	tensorLayoutNV<2> la = createTensorLayoutNV(2);
	la = setTensorLayoutDimensionNV(la, M, K);
	tensorLayoutNV<2> lb = createTensorLayoutNV(2);
	lb = setTensorLayoutDimensionNV(lb, K, N);
	coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> acc =
		coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>(0.0);
	for (uint k = 0; k < K; k += BK) {
		coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA> ma;
		coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB> mb;
		coopMatLoadTensorNV(ma, a, zero, sliceTensorLayoutNV(la, tm, BM, k, BK));
		coopMatLoad(mb, b, k * N + tn + zero, N + zero, gl_CooperativeMatrixLayoutRowMajor);
		acc = coopMatMulAdd(ma, mb, acc);
		DIVERGE
	}
	AFTER
	coopMatStore(acc, c, tm * N + tn, N, gl_CooperativeMatrixLayoutRowMajor);
}
`

// TestWideCoopDiffer: workgroup-scope matrices held as tiles by the
// workgroup's wide lockstep give the exact paths' bytes, where the
// workgroup stays converged and where it diverges mid-loop (its tiles
// then handed to the invocations), with the exact path's faults and
// budget stops.
func TestWideCoopDiffer(t *testing.T) {
	type wideCase struct {
		name, diverge string
		cutA          int
		budget        int64
		after         string
	}
	reduce := `coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> r;
	coopMatReduceNV(r, acc, gl_CooperativeMatrixReduceRowNV, maxf);
	acc = acc - r;
	coopMatReduceNV(r, acc, gl_CooperativeMatrixReduceColumnNV | gl_CooperativeMatrixReduceRowNV, sumf);
	acc = acc + r;`
	cases := []wideCase{
		{"converged", "", 0, 0, ""},
		{"reduce", "", 0, 0, reduce},
		{"rows", "", 0, 0, ""},
		{"affine", "", 0, 0, reduce},
		// Each invocation's own, affine, extra operand.
		{"perelement", "coopMatPerElementNV(acc, acc, pe, gl_LocalInvocationIndex * 3u + k);", 0, 0, reduce},
		{"diverged", "for (uint j = 0u; k == 32u && j < gl_LocalInvocationIndex % 3u; j++) { b[K * N + (gl_WorkGroupID.y * 8u + gl_WorkGroupID.x) * 128u + gl_LocalInvocationIndex] += float16_t(1); }", 0, 0, reduce},
		{"cut", "", 1000, 0, ""},
	}
	for b := int64(60); b < 400; b += 29 {
		cases = append(cases, wideCase{fmt.Sprint("budget", b), "", 0, b, reduce})
	}
	for b := int64(1000); b < 40000; b = b * 3 / 2 {
		// Stops in the reductions' calls.
		cases = append(cases, wideCase{fmt.Sprint("budget", b), "", 0, b, reduce})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			zero := "0u"
			switch c.name {
			case "rows":
				// The same everywhere, but computed from the invocation's
				// id: the pointer and the layout held in rows.
				zero = "gl_LocalInvocationIndex / 1000u"
			case "affine":
				// The same everywhere, an affine function of the id with
				// no slope (a row by the time B's pointer and stride
				// reach the load: the general path).
				zero = "gl_LocalInvocationIndex - gl_LocalInvocationIndex"
			}
			src := strings.NewReplacer("DIVERGE", c.diverge, "AFTER", c.after, "ZERO", zero).Replace(wgShader)
			o := exec.Options{StepBudget: c.budget}
			const halvesB = -2 * 128 * 128 // B's cut: three times the bytes, halves and room past them
			want, werr := runFast(t, src, 128, 1, c.cutA, halvesB, exec.NoLockstep(o))
			if c.cutA > 0 && werr == nil {
				t.Fatal("no fault")
			}
			if c.cutA == 0 && c.budget == 0 && werr != nil {
				t.Fatal(werr)
			}
			for _, o := range []exec.Options{o, {Check: true, StepBudget: c.budget}} {
				got, err := runFast(t, src, 128, 1, c.cutA, halvesB, o)
				if c.cutA == 0 && fmt.Sprint(err) != fmt.Sprint(werr) {
					t.Fatalf("%+v: error %v, want %v", o, err, werr)
				}
				if werr == nil && !bytes.Equal(got, want) {
					t.Fatalf("%+v: C differs from the exact path's", o)
				}
			}
			if c.cutA > 0 {
				_, err := runFast(t, src, 128, 1, c.cutA, halvesB, o)
				if fmt.Sprint(err) != fmt.Sprint(werr) {
					t.Fatalf("error %v, want %v", err, werr)
				}
			}
		})
	}
}

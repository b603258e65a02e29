package exec_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
)

// khrShader is the README's KHR fp16 example (examples/shaders/
// matmul_khr_f16.comp) with its accumulator's first value (INIT) and
// the loads' column offset (OFF) to vary, and a statement ending the loop
// (EXTRA): what lockstep's quick
// cooperative paths (cooprun.go) and leader runs (leadrun.go) take.
const khrShader = `#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer BufA { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer BufB { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer BufC { float c[]; };
layout(push_constant) uniform Dims { uint M, N, K; } dims;
const uint T = 16;
void main() {
    uint row = gl_WorkGroupID.y * T;
    uint col = gl_WorkGroupID.x * T;
    coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> acc =
        coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(INIT);
    for (uint k = 0; k < dims.K; k += T) {
        coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseA> ma;
        coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseB> mb;
        coopMatLoad(ma, a, row * dims.K + k + OFF, dims.K, gl_CooperativeMatrixLayoutRowMajor);
        coopMatLoad(mb, b, k * dims.N + col, dims.N, gl_CooperativeMatrixLayoutRowMajor);
        acc = coopMatMulAdd(ma, mb, acc);
        EXTRA
    }
    coopMatStore(acc, c, row * dims.N + col, dims.N, gl_CooperativeMatrixLayoutRowMajor);
}
`

// runKHR runs khrShader with M = N = K = n, A holding the half special at
// element at (where at >= 0) and cut bytes short.
func runKHR(t *testing.T, init, off, extra string, n, at int, special uint16, cut int, opts exec.Options) ([]byte, error) {
	t.Helper()
	src := strings.NewReplacer("INIT", init, "OFF", off, "EXTRA", extra).Replace(khrShader)
	code, err := compile.Words("khr.comp", []byte(src), compile.Options{TargetEnv: "vulkan1.3"})
	if err != nil {
		t.Fatal(err)
	}
	dev := exec.New(opts)
	buf := func(size int) backend.Buffer {
		b, err := dev.NewBuffer(size, backend.UsageStorage)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	A, B, C := buf(2*n*n-cut), buf(2*n*n), buf(4*n*n)
	for i := range n * n {
		if 2*i+2 <= len(exec.Bytes(A)) {
			binary.LittleEndian.PutUint16(exec.Bytes(A)[2*i:], f16(float32(i*7%33-16)/8))
		}
		binary.LittleEndian.PutUint16(exec.Bytes(B)[2*i:], f16(float32(i*5%29-14)/4))
	}
	if at >= 0 {
		binary.LittleEndian.PutUint16(exec.Bytes(A)[2*at:], special)
	}
	pc := make([]byte, 12)
	for k := range 3 {
		binary.LittleEndian.PutUint32(pc[4*k:], uint32(n))
	}
	_, err = dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{uint32(n / 16), uint32(n / 16), 1},
		PushConstants: pc,
		Bindings:      []backend.Binding{{Binding: 0, Buffer: A}, {Binding: 1, Buffer: B}, {Binding: 2, Buffer: C}}})
	return bytes.Clone(exec.Bytes(C)), err
}

// TestCoopQuickDiffer: the quick paths of KHR loads and multiply-adds give
// the exact path's bytes and faults: a constant first accumulator, NaNs
// and infinities among the halves (a NaN's payload goes through the
// general load), A cut short, a pointer that differs between invocations,
// and step budgets running out amid the loop.
func TestCoopQuickDiffer(t *testing.T) {
	type kcase struct {
		name, init, off, extra string
		at                     int
		special                uint16
		cut                    int
		steps                  int64
	}
	cases := []kcase{
		{"plain", "0.0", "0", "", -1, 0, 0, 0},
		{"init", "1.5", "0", "", -1, 0, 0, 0},
		{"nan", "0.25", "0", "", 70, 0x7e01, 0, 0},
		{"inf", "0.0", "0", "", 1000, 0xfc00, 0, 0},
		{"cut", "0.0", "0", "", -1, 0, 40, 0},
		{"varying", "0.0", "(gl_LocalInvocationID.x & 1u)", "", -1, 0, 0, 0},
		// An element of each invocation's share written through an
		// access chain: acc lives in invocation memory, not promoted.
		{"element", "0.5", "0", "acc[1] = acc[1] * 0.5 + float(k);", -1, 0, 0, 0},
		// The accumulator handed to the invocations and back each
		// iteration (a length and a component read).
		{"handed", "0.0", "0", "if (acc[0] > 1e30) { acc = coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(acc.length()); }", -1, 0, 0, 0},
	}
	// 280 steps is the least the dispatch runs within.
	for steps := int64(30); steps < 400; steps += 23 {
		cases = append(cases, kcase{fmt.Sprint("steps", steps), "1.0", "0", "", -1, 0, 0, steps})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The exact path's fault messages say more (the rule broken,
			// the row): faults are compared with one invocation at a
			// time.
			want, werr := runKHR(t, c.init, c.off, c.extra, 64, c.at, c.special, c.cut, exec.Options{Check: true, StepBudget: c.steps})
			one, oerr := runKHR(t, c.init, c.off, c.extra, 64, c.at, c.special, c.cut, exec.NoLockstep(exec.Options{StepBudget: c.steps}))
			if (werr != nil) != (oerr != nil) || werr == nil && !bytes.Equal(one, want) {
				t.Fatalf("one at a time: error %v, exact path %v", oerr, werr)
			}
			if (oerr != nil) != (c.cut > 0 || c.off != "0" || c.steps > 0 && c.steps < 280) {
				t.Fatalf("error %v", oerr)
			}
			got, err := runKHR(t, c.init, c.off, c.extra, 64, c.at, c.special, c.cut, exec.Options{StepBudget: c.steps})
			if fmt.Sprint(err) != fmt.Sprint(oerr) {
				t.Fatalf("lockstep: error %v, want %v", err, oerr)
			}
			if !bytes.Equal(got, one) {
				t.Fatal("lockstep: C differs")
			}
		})
	}
}

package exec

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/coopshader/coop/backend"
)

// The testdata/matmul_*.spv modules are glslang's compilation of
// examples/shaders/matmul_*.comp (glslangValidator -V --target-env
// vulkan1.3): C = A x B, row-major, push constants M, N, K, bindings
// 0 = A, 1 = B, 2 = C, one subgroup of 32 per workgroup computing one tile.

// glslMatmul is one of those shaders with its tile shape and element kinds.
type glslMatmul struct {
	file   string
	tm, tn int
	tk     int  // the K step: sizes must be multiples of it
	int8   bool // int8 inputs, int32 result; otherwise fp16 inputs
	f16out bool // fp16 result (NV); otherwise fp32
}

var glslMatmuls = []glslMatmul{
	{file: "matmul_khr_f16.spv", tm: 16, tn: 16, tk: 16},
	{file: "matmul_khr_i8.spv", tm: 16, tn: 16, tk: 32, int8: true},
	{file: "matmul_nv_f16.spv", tm: 16, tn: 8, tk: 16, f16out: true},
}

type glslRun struct {
	g       glslMatmul
	dev     *Device
	code    []uint32
	a, b, c backend.Buffer
	M, N, K int
	av, bv  []float64 // the inputs' exact values
}

func loadSPV(t testing.TB, name string) []uint32 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return w
}

// newGlslRun fills A and B with random values: int8 over the whole range;
// fp16 multiples of 1/8 in [-2, 2] (so every fp32 partial sum is exact) or,
// with wide set, any fp16 in [-2, 2).
func newGlslRun(t testing.TB, g glslMatmul, M, N, K int, wide bool, opts Options) *glslRun {
	s := &glslRun{g: g, dev: New(opts), code: loadSPV(t, g.file), M: M, N: N, K: K}
	rng := rand.New(rand.NewSource(int64(M*N + K)))
	es, cs := 2, 4
	if g.int8 {
		es = 1
	}
	if g.f16out {
		cs = 2
	}
	s.a, _ = s.dev.NewBuffer(M*K*es, backend.UsageStorage)
	s.b, _ = s.dev.NewBuffer(K*N*es, backend.UsageStorage)
	s.c, _ = s.dev.NewBuffer(M*N*cs, backend.UsageStorage)
	fill := func(buf backend.Buffer, n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			switch {
			case g.int8:
				x := int8(rng.Intn(256) - 128)
				Bytes(buf)[i] = byte(x)
				v[i] = float64(x)
			default:
				x := float64(rng.Intn(33)-16) / 8
				if wide {
					x = rng.Float64()*4 - 2
				}
				h := fromF64(x, f16, rne, false)
				binary.LittleEndian.PutUint16(Bytes(buf)[2*i:], uint16(h))
				v[i] = toF64(h, f16)
			}
		}
		return v
	}
	s.av = fill(s.a, M*K)
	s.bv = fill(s.b, K*N)
	return s
}

func (s *glslRun) dispatch() error {
	push := make([]byte, 12)
	binary.LittleEndian.PutUint32(push[0:], uint32(s.M))
	binary.LittleEndian.PutUint32(push[4:], uint32(s.N))
	binary.LittleEndian.PutUint32(push[8:], uint32(s.K))
	_, err := s.dev.Dispatch(&backend.Dispatch{
		Code: s.code, Entry: "main", PushConstants: push,
		Groups:   [3]uint32{uint32(s.N / s.g.tn), uint32(s.M / s.g.tm), 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: s.a}, {Binding: 1, Buffer: s.b}, {Binding: 2, Buffer: s.c}},
	})
	return err
}

// check compares C with a plain Go product: int32 wrapping sums for int8;
// for fp16 inputs a float32 (or, for the NV shader, fp16) accumulator
// rounded after every addition in increasing k, which is what the
// executor documents, and, for exactly representable sums, any order.
func (s *glslRun) check(t *testing.T) {
	t.Helper()
	out := Bytes(s.c)
	bad := 0
	for i := 0; i < s.M; i++ {
		for j := 0; j < s.N; j++ {
			e := i*s.N + j
			var got, want uint64
			switch {
			case s.g.int8:
				var acc int32
				for k := 0; k < s.K; k++ {
					acc += int32(s.av[i*s.K+k]) * int32(s.bv[k*s.N+j])
				}
				got, want = uint64(binary.LittleEndian.Uint32(out[4*e:])), uint64(uint32(acc))
			case s.g.f16out:
				acc := 0.0
				for k := 0; k < s.K; k++ {
					acc = toF64(fromF64(acc+s.av[i*s.K+k]*s.bv[k*s.N+j], f16, rne, false), f16)
				}
				got, want = uint64(binary.LittleEndian.Uint16(out[2*e:])), fromF64(acc, f16, rne, false)
			default:
				var acc float32
				for k := 0; k < s.K; k++ {
					acc += float32(s.av[i*s.K+k]) * float32(s.bv[k*s.N+j])
				}
				got, want = uint64(binary.LittleEndian.Uint32(out[4*e:])), uint64(math.Float32bits(acc))
			}
			if got != want {
				if bad++; bad <= 5 {
					t.Errorf("C[%d][%d] = %#x, want %#x", i, j, got, want)
				}
			}
		}
	}
}

// TestGlslangMatmul runs glslang's modules of the example matmul shaders
// against a Go matrix product for a few sizes; K = 1024 makes more
// matrices than a subgroup keeps whole at once (maxTiles).
func TestGlslangMatmul(t *testing.T) {
	sizes := [][3]int{{64, 64, 64}, {32, 48, 64}, {16, 16, 32}, {48, 32, 96}, {16, 16, 1024}}
	for _, g := range glslMatmuls {
		for _, sz := range sizes {
			for _, wide := range []bool{false, true} {
				if wide && g.int8 {
					continue
				}
				name := fmt.Sprintf("%s/%dx%dx%d/wide=%v", g.file, sz[0], sz[1], sz[2], wide)
				t.Run(name, func(t *testing.T) {
					s := newGlslRun(t, g, sz[0], sz[1], sz[2], wide, Options{Parallel: true, Workers: 2})
					if err := s.dispatch(); err != nil {
						t.Fatal(err)
					}
					s.check(t)
				})
			}
		}
	}
}

package exec_test

import (
	"path/filepath"
	"testing"

	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/internal/llamadiff"
)

// BenchmarkLlamaDecode runs llama.cpp's coopmat2 matrix products of
// quantized weights (tensor loads through decode functions, vector ones
// among them) with the harness's inputs, compilation included.
func BenchmarkLlamaDecode(b *testing.B) {
	const corpus = "../../shared/corpus/ggml-vulkan"
	vs, err := llamadiff.ReadVariants(corpus)
	if err != nil {
		b.Skipf("ggml-vulkan corpus absent: %v", err)
	}
	dev := exec.New(exec.Options{})
	for _, name := range []string{"matmul_q4_0_f16_cm2", "matmul_q8_0_f16_cm2", "matmul_q4_k_f16_cm2"} {
		for i := range vs {
			v := &vs[i]
			if v.Name != name {
				continue
			}
			b.Run(name, func(b *testing.B) {
				for range b.N {
					if _, ok, err := llamadiff.Run(dev, filepath.Join(corpus, "shaders"), v); !ok || err != nil {
						b.Fatal(ok, err)
					}
				}
			})
		}
	}
}

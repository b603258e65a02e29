package exec_test

import (
	"hash/fnv"
	"path/filepath"
	"testing"

	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/internal/llamadiff"
)

// TestLlamaBatch runs llama.cpp's variants (matrix-vector products,
// reductions through shared memory and subgroup operations, softmax,
// norms, ...) with the harness's realistic inputs with their workgroups
// in batches (exec.Batched: batchSize in dispatches of any size) and one
// workgroup at a time, and requires the same buffers, or the same fault:
// a batch must give each workgroup its own ids, shared memory and
// barriers. A sample of one variant in eight (32 with -short);
// -llama.all or -llama.every runs them all.
func TestLlamaBatch(t *testing.T) {
	const corpus = "../../shared/corpus/ggml-vulkan"
	vs, err := llamadiff.ReadVariants(corpus)
	if err != nil {
		t.Skipf("ggml-vulkan corpus absent: %v", err)
	}
	dir := filepath.Join(corpus, "shaders")
	sample := uint32(8)
	if testing.Short() {
		sample = 32
	}
	one, batched := exec.New(exec.Options{}), exec.New(exec.Batched(exec.Options{}))
	for i := range vs {
		v := &vs[i]
		h := fnv.New32a()
		h.Write([]byte(v.Name))
		if !*llamaAll && !*llamaEvery && h.Sum32()%sample != 1 {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			want, ok, werr := llamadiff.Run(one, dir, v)
			if !ok {
				t.Skip("no realistic inputs for this variant")
			}
			got, _, err := llamadiff.Run(batched, dir, v)
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("batched: %v; one by one: %v", err, werr)
			}
			if d := llamadiff.FirstDiff(got, want); d != "" {
				t.Fatalf("batched and one by one differ: %s", d)
			}
		})
	}
}

package exec_test

import (
	"flag"
	"hash/fnv"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/internal/llamadiff"
)

var llamaAll = flag.Bool("llama.all", false, "TestLlamaLockstep: every coopmat variant, not a sample")

// TestLlamaLockstep runs llama.cpp's coopmat and coopmat2 variants (tensor
// loads with decode functions, reductions, per-element functions,
// workgroup-scope matrices, shared-memory tiles) with the harness's
// realistic inputs in lockstep and one invocation at a time, and requires
// the same buffers, or the same fault: what lockstep holds in rows, as
// affine functions, in the leader or in promoted variables must reach the
// collective paths as the invocations hold it. A sample of one variant in
// eight (32 with -short); -llama.all runs them all.
func TestLlamaLockstep(t *testing.T) {
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
	lock, one := exec.New(exec.Options{}), exec.New(exec.NoLockstep(exec.Options{}))
	for i := range vs {
		v := &vs[i]
		if !strings.Contains(v.Name, "_cm") && !strings.Contains(v.Name, "coopmat") {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(v.Name))
		if !*llamaAll && h.Sum32()%sample != 0 {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			want, ok, werr := llamadiff.Run(one, dir, v)
			if !ok {
				t.Skip("no realistic inputs for this variant")
			}
			got, _, err := llamadiff.Run(lock, dir, v)
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("lockstep: %v; one at a time: %v", err, werr)
			}
			if d := llamadiff.FirstDiff(got, want); d != "" {
				t.Fatalf("lockstep and one at a time differ: %s", d)
			}
		})
	}
}

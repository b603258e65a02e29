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

var (
	llamaAll   = flag.Bool("llama.all", false, "TestLlamaLockstep: every coopmat variant, not a sample")
	llamaEvery = flag.Bool("llama.every", false, "TestLlamaLockstep: every variant of the corpus, cooperative or not (about 15 minutes)")
)

// TestLlamaLockstep runs llama.cpp's coopmat and coopmat2 variants (tensor
// loads with decode functions, reductions, per-element functions,
// workgroup-scope matrices, shared-memory tiles) with the harness's
// realistic inputs in lockstep and one invocation at a time, and requires
// the same buffers, or the same fault: what lockstep holds in rows, as
// affine functions, in the leader or in promoted variables must reach the
// collective paths as the invocations hold it. A sample of one variant in
// eight (32 with -short); -llama.all runs them all, -llama.every every
// variant of the corpus (subgroup reductions, shared-memory tiles).
func TestLlamaLockstep(t *testing.T) {
	cooperative := func(name string) bool {
		return *llamaEvery || strings.Contains(name, "_cm") || strings.Contains(name, "coopmat")
	}
	compareLlama(t, cooperative, 0, exec.New(exec.Options{}), "lockstep",
		exec.New(exec.NoLockstep(exec.Options{})), "one at a time")
}

// compareLlama runs the corpus's variants that keep accepts, a sample of
// one in eight (32 with -short; residue picks which) unless -llama.all or
// -llama.every, on both devices with the harness's realistic inputs, and
// requires the same buffers, or the same fault.
func compareLlama(t *testing.T, keep func(string) bool, residue uint32, got *exec.Device, gotName string, want *exec.Device, wantName string) {
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
	for i := range vs {
		v := &vs[i]
		if !keep(v.Name) {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(v.Name))
		if !*llamaAll && !*llamaEvery && h.Sum32()%sample != residue {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			w, ok, werr := llamadiff.Run(want, dir, v)
			if !ok {
				t.Skip("no realistic inputs for this variant")
			}
			g, _, err := llamadiff.Run(got, dir, v)
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("%s: %v; %s: %v", gotName, err, wantName, werr)
			}
			if d := llamadiff.FirstDiff(g, w); d != "" {
				t.Fatalf("%s and %s differ: %s", gotName, wantName, d)
			}
		})
	}
}

package icd

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/internal/llamadiff"
	"github.com/coopshader/coop/spirv"
)

// TestLlamaKernels compiles llama.cpp's Vulkan kernels (the corpus's
// variants: the first of each source file, or all with
// COOP_ICD_ALL_KERNELS set) and creates each as a pipeline would:
// validated for this device with its specialization, prepared for the
// executor. A variant takes the specialization constants ggml-vulkan
// gives it where the llamadiff harness knows them (llamadiff.SpecFor:
// ggml's tuning for a 32-wide NVIDIA subgroup, so the cooperative-matrix
// kernels get the tile shapes ggml picks); another has its workgroup size
// (SpecId 0, which also sizes its blocks) set to the block constant's
// default, as llama.cpp's defaults do.
func TestLlamaKernels(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles many kernels")
	}
	dir := "../../shared/corpus/ggml-vulkan"
	shaders := filepath.Join(dir, "shaders")
	vs, err := llamadiff.ReadVariants(dir)
	if err != nil {
		t.Skipf("no corpus: %v", err)
	}
	all := os.Getenv("COOP_ICD_ALL_KERNELS") != ""
	start := time.Now()
	n, ggml := 0, 0
	seen := map[string]bool{}
	for i := range vs {
		v := &vs[i]
		if !all && seen[v.Source] {
			continue
		}
		seen[v.Source] = true
		src, err := os.ReadFile(filepath.Join(shaders, v.Source))
		if err != nil {
			t.Fatal(err)
		}
		opts := compile.Options{TargetEnv: v.Env, IncludeDirs: []string{shaders}, IncludeDirective: true, Defines: v.Defines}
		words, err := compile.Words(v.Source, src, opts)
		if err != nil {
			t.Errorf("%s: compile: %v", v.Name, err)
			continue
		}
		spec := workgroupSpec(words)
		if fam, known := llamadiff.SpecFor(v); known {
			ggml++
			spec = map[uint32][]byte{}
			for id, x := range fam {
				spec[id] = binary.LittleEndian.AppendUint32(nil, x)
			}
		}
		if _, err := prepare(words, "main", spec, defaultSubgroup); err != nil {
			t.Errorf("%s: refused: %v", v.Name, err)
		}
		n++
	}
	t.Logf("%d kernels created (%d with ggml's specialization constants) in %v", n, ggml, time.Since(start))
}

// workgroupSpec specializes SpecId 0 to the largest default any constant
// with that SpecId has (the block size the kernel declares; the workgroup
// size's own default is 1).
func workgroupSpec(words []uint32) map[uint32][]byte {
	m, err := spirv.DecodeWords(words, nil)
	if err != nil {
		return nil
	}
	zero := map[uint32]bool{}
	for _, in := range m.Insts {
		if in.Op == spirv.OpDecorate && len(in.Words) >= 3 && in.Words[1] == uint32(spirv.DecorationSpecId) && in.Words[2] == 0 {
			zero[in.Words[0]] = true
		}
	}
	best := uint32(0)
	for _, in := range m.Insts {
		if in.Op == spirv.OpSpecConstant && len(in.Words) == 3 && zero[in.Words[1]] {
			best = max(best, in.Words[2])
		}
	}
	if best == 0 {
		return nil
	}
	return map[uint32][]byte{0: binary.LittleEndian.AppendUint32(nil, best)}
}

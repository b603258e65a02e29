package icd

import (
	"bufio"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/spirv"
)

// TestLlamaKernels compiles llama.cpp's Vulkan kernels (the corpus's
// variants: the first of each source file, or all with
// COOP_ICD_ALL_KERNELS set) and creates each as a pipeline would:
// validated for this device, checked against its cooperative properties,
// prepared for the executor. llama.cpp always specializes a kernel's
// workgroup size (SpecId 0, which also sizes its blocks); the test sets
// it to the block constant's default, as llama.cpp's defaults do. The
// cooperative-matrix 1 kernels and cooperative-matrix 2 flash attention
// and convolutions are left out: their shapes and workgroup sizes come
// from specialization constants llama.cpp sets from the device's
// properties (flash attention's row count defaults to 1).
func TestLlamaKernels(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles many kernels")
	}
	dir := "../../shared/corpus/ggml-vulkan"
	shaders := filepath.Join(dir, "shaders")
	f, err := os.Open(filepath.Join(dir, "variants.tsv"))
	if err != nil {
		t.Skipf("no corpus: %v", err)
	}
	defer f.Close()
	all := os.Getenv("COOP_ICD_ALL_KERNELS") != ""
	start := time.Now()
	n := 0
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 3 || strings.HasSuffix(cols[0], "_cm1") || (strings.HasSuffix(cols[0], "_cm2") && (strings.HasPrefix(cols[1], "flash_attn") || strings.HasPrefix(cols[1], "conv"))) ||
			(!all && seen[cols[1]]) {
			continue
		}
		seen[cols[1]] = true
		src, err := os.ReadFile(filepath.Join(shaders, cols[1]))
		if err != nil {
			t.Fatal(err)
		}
		opts := compile.Options{TargetEnv: cols[2], IncludeDirs: []string{shaders}, IncludeDirective: true}
		if len(cols) > 3 {
			for _, d := range strings.Fields(cols[3]) {
				name, val, _ := strings.Cut(d, "=")
				opts.Defines = append(opts.Defines, pp.Define{Name: name, Value: val})
			}
		}
		words, err := compile.Words(cols[1], src, opts)
		if err != nil {
			t.Errorf("%s: compile: %v", cols[0], err)
			continue
		}
		if _, err := prepare(words, "main", workgroupSpec(words), defaultSubgroup); err != nil {
			t.Errorf("%s: refused: %v", cols[0], err)
		}
		n++
	}
	t.Logf("%d kernels accepted in %v", n, time.Since(start))
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

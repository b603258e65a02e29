package exec

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/internal/fuzzwatch"
	"github.com/coopshader/coop/spirv/text"
)

// FuzzAsmRun: assembled text through the executor. No text, however
// malformed, may panic the assembler, reach an internal error in Load or
// a dispatch, or run unbounded (the step and work budgets are small).
func FuzzAsmRun(f *testing.F) {
	f.Add(corruptSrc)
	f.Add(strings.ReplaceAll(coopmatHuge, "{{N}}", "16"))
	f.Add(strings.ReplaceAll(storeKernel, "{{FMT}}", "R32ui"))
	if b, err := os.ReadFile(filepath.Join("testdata", "int4_pairs.spvasm")); err == nil {
		f.Add(string(b))
	}
	// The glslang corpus's disassemblies, where present.
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "glslang", "*.comp.spvasm"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		defer fuzzwatch.Start()()
		m, err := text.Assemble([]byte(src), "fuzz.spvasm")
		if err != nil {
			return
		}
		pr, err := Load(m, "", nil, 32)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			return
		}
		if l := pr.LocalSize(); uint64(l[0])*uint64(l[1])*uint64(l[2]) > 256 {
			return
		}
		var e *Error
		if err := runCorpus(pr, nil, Options{StepBudget: 1 << 12, WorkBudget: 1 << 18}); errors.As(err, &e) && e.Internal {
			t.Fatal(err)
		}
	})
}

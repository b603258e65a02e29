package gpucheck

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/coopshader/coop/exec"
)

// TestCorpusOnExecutors runs the corpus check with the executor on both
// sides: every runnable module must give the same bytes twice.
func TestCorpusOnExecutors(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "glslang")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("corpus absent")
	}
	a, b := exec.New(exec.Options{StepBudget: 1 << 20}), exec.New(exec.Options{StepBudget: 1 << 20})
	same, total := 0, 0
	_, err := Corpus(dir, 0, a, b, func(r Result) {
		total++
		switch r.Outcome {
		case Differ:
			t.Errorf("%s: %s", r.Name, r.Why)
		case Same:
			same++
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if same == 0 {
		t.Fatal("no corpus module ran")
	}
	t.Logf("%d of %d modules ran and agreed", same, total)
}

package exec

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/spirv"
)

// refTool finds a reference tool from COOP_REF_BIN or PATH.
func refTool(name string) string { return reftool.Path(name) }

// assembleRef assembles SPIR-V text with spirv-as.
func assembleRef(t *testing.T, as, path string) *spirv.Module {
	out := filepath.Join(t.TempDir(), "m.spv")
	cmd := exec.Command(as, "--target-env", "spv1.6", "-o", out, path)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Logf("%s: spirv-as: %v %s", filepath.Base(path), err, b)
		return nil
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(b)
	if err != nil {
		t.Logf("%s: decode: %v", filepath.Base(path), err)
		return nil
	}
	return m
}

// TestCorpus loads every positive glslang shader of the corpus and runs it
// once with zeroed buffers: none may hit an unsupported instruction at run
// time, and the count that load cleanly is logged. It assembles with
// spirv-as (PATH or COOP_REF_BIN) until spirv/text has an assembler.
func TestCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "glslang")
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus absent")
	}
	defer f.Close()
	as := refTool("spirv-as")
	if as == "" {
		t.Skip("no assembler (spirv-as) available")
	}
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 2 && fs[1] == "pos" {
			names = append(names, fs[0])
		}
	}
	loaded, ran, total := 0, 0, 0
	var unsupported []string
	for _, n := range names {
		m := assembleRef(t, as, filepath.Join(dir, n+".spvasm"))
		if m == nil {
			continue
		}
		total++
		pr, err := Load(m, "", nil, 32)
		if err != nil {
			if errors.Is(err, ErrUnsupported) {
				unsupported = append(unsupported, n+": "+strings.ReplaceAll(err.Error(), "\n", "; "))
			} else {
				t.Errorf("%s: %v", n, err)
			}
			continue
		}
		loaded++
		dev := New(Options{StepBudget: 1 << 20})
		var bs []backend.Binding
		for _, d := range pr.p.descs {
			for e := 0; e < max(min(d.count, 4), 1); e++ {
				b, _ := dev.NewBuffer(1<<16, backend.UsageStorage|backend.UsageAddress)
				bs = append(bs, backend.Binding{Set: d.set, Binding: d.binding, ArrayElement: uint32(e), Buffer: b})
			}
		}
		err = dev.Run(pr, [3]uint32{1, 1, 1}, bs, make([]byte, 256))
		if err != nil && strings.Contains(err.Error(), "not implemented") {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if err != nil {
			t.Logf("%s: runs with a fault on zeroed input: %v", n, err)
		}
		ran++
	}
	for _, u := range unsupported {
		t.Log(u)
	}
	t.Logf("corpus: %d positive shaders assembled, %d load with no unsupported instruction, %d of them run", total, loaded, ran)
}

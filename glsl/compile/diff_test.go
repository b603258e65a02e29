package compile

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/spirv"
)

// runZeroed runs m on the executor with every descriptor bound to a
// zeroed 4 KiB buffer and returns the buffers' contents afterwards.
func runZeroed(m *spirv.Module) ([][]byte, error) {
	pr, err := cpu.Load(m, "", nil, 32)
	if err != nil {
		return nil, err
	}
	dev := cpu.New(cpu.Options{StepBudget: 1 << 20})
	var bs []backend.Binding
	var bufs []backend.Buffer
	for _, d := range pr.Descriptors() {
		for e := 0; e < max(min(d.Count, 4), 1); e++ {
			b, _ := dev.NewBuffer(4096, backend.UsageStorage|backend.UsageAddress)
			bufs = append(bufs, b)
			bs = append(bs, backend.Binding{Set: d.Set, Binding: d.Binding, ArrayElement: uint32(e), Buffer: b})
		}
	}
	if err := dev.Run(pr, [3]uint32{1, 1, 1}, bs, make([]byte, 256)); err != nil {
		return nil, err
	}
	out := make([][]byte, len(bufs))
	for i, b := range bufs {
		out[i] = make([]byte, b.Size())
		b.Read(0, out[i])
	}
	return out, nil
}

// TestDifferentialCorpus runs each corpus shader compiled by coop and the
// same shader as glslang compiled it (the corpus's .spvasm, assembled by
// spirv-as) on the executor with zeroed inputs, and compares every buffer.
func TestDifferentialCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "glslang")
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus not present")
	}
	as := refTool("spirv-as")
	if as == "" {
		t.Skip("spirv-as not found (set COOP_REF_BIN)")
	}
	tmp := t.TempDir()
	compared, same := 0, 0
	for _, line := range strings.Split(string(man), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 || f[1] != "pos" {
			continue
		}
		path := filepath.Join(dir, f[0])
		env := corpusEnv(path + ".spvasm")
		src, _ := os.ReadFile(path)
		ours, _ := Compile(path, src, Options{TargetEnv: env})
		if ours == nil {
			continue
		}
		AutoMapBindings(ours)
		out := filepath.Join(tmp, "ref.spv")
		if b, err := exec.Command(as, "--target-env", "spv1.6", "-o", out, path+".spvasm").CombinedOutput(); err != nil {
			t.Fatalf("spirv-as: %v %s", err, b)
		}
		bin, _ := os.ReadFile(out)
		ref, err := spirv.Decode(bin)
		if err != nil {
			t.Fatal(err)
		}
		want, err := runZeroed(ref)
		if err != nil {
			continue // the executor cannot run glslang's module either
		}
		got, err := runZeroed(ours)
		compared++
		if err != nil {
			t.Errorf("%s: glslang's module runs, ours fails: %v", f[0], err)
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d buffers, glslang's module has %d", f[0], len(got), len(want))
			continue
		}
		diff := ""
		for i := range got {
			if !bytes.Equal(got[i], want[i]) {
				diff = fmt.Sprintf("buffer %d differs", i)
				break
			}
		}
		if diff != "" {
			t.Errorf("%s: %s", f[0], diff)
			continue
		}
		same++
	}
	t.Logf("%d corpus shaders compiled by coop and by glslang ran on the executor; %d gave identical buffers", compared, same)
}

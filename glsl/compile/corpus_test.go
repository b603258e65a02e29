package compile

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// corpusEnv picks the target environment from the SPIR-V version glslang
// wrote in the corpus's disassembly.
func corpusEnv(spvasm string) string {
	f, err := os.Open(spvasm)
	if err != nil {
		return "vulkan1.0"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 0; i < 5 && sc.Scan(); i++ {
		if v, ok := strings.CutPrefix(sc.Text(), "; Version: "); ok {
			switch v {
			case "1.0":
				return "vulkan1.0"
			case "1.3":
				return "vulkan1.1"
			case "1.4":
				return "spirv1.4"
			case "1.5":
				return "vulkan1.2"
			case "1.6":
				return "vulkan1.3"
			}
		}
	}
	return "vulkan1.0"
}

// knownInvalid lists corpus shaders whose output spirv-val still rejects,
// with the missing piece.
var knownInvalid = map[string]string{}

// TestCorpus compiles every pos shader of the corpus. Shaders using
// features the code generator does not cover yet are counted, not failed;
// an internal error (a code-generator bug) or output that spirv-val
// rejects fails the test.
func TestCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "glslang")
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus not present")
	}
	val := refTool("spirv-val")
	total, compiled, valid := 0, 0, 0
	unsupported := map[string]int{}
	for _, line := range strings.Split(string(man), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 || f[1] != "pos" {
			continue
		}
		total++
		path := filepath.Join(dir, f[0])
		env := corpusEnv(path + ".spvasm")
		src, _ := os.ReadFile(path)
		m, d := Compile(path, src, Options{TargetEnv: env})
		if m == nil {
			msg := d.Error()
			if strings.Contains(msg, "internal error") {
				t.Errorf("%s: %s", f[0], msg)
			}
			first, _, _ := strings.Cut(msg, "\n")
			if i := strings.Index(first, "' : "); i >= 0 {
				first = first[i+4:]
			}
			unsupported[first]++
			t.Logf("%s: %s", f[0], first)
			continue
		}
		// glslang's test harness maps bindings automatically.
		AutoMapBindings(m)
		compiled++
		coopValidate(t, m, env)
		if val == "" {
			continue
		}
		b, _ := m.Encode()
		out := filepath.Join(t.TempDir(), "m.spv")
		os.WriteFile(out, b, 0o644)
		if o, err := exec.Command(val, "--target-env", env, out).CombinedOutput(); err != nil {
			if why, ok := knownInvalid[f[0]]; ok {
				t.Logf("%s: known invalid output (%s): %s", f[0], why, o)
				continue
			}
			t.Errorf("%s: spirv-val --target-env %s: %s", f[0], env, o)
			continue
		}
		valid++
	}
	t.Logf("corpus: %d pos shaders, %d compiled, %d passed spirv-val (validator present: %v)", total, compiled, valid, val != "")
}

// TestCorpusAllTargets compiles every pos shader of the corpus for every
// Vulkan target: it may be refused (glslang refuses many below the SPIR-V
// version they need), but whatever comes out must pass spirv-val for that
// target.
func TestCorpusAllTargets(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "glslang")
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus not present")
	}
	val := refTool("spirv-val")
	if val == "" {
		t.Skip("spirv-val not present")
	}
	compiled := 0
	for _, line := range strings.Split(string(man), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 || f[1] != "pos" {
			continue
		}
		path := filepath.Join(dir, f[0])
		src, _ := os.ReadFile(path)
		for _, env := range []string{"vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3", "vulkan1.4"} {
			m, d := Compile(path, src, Options{TargetEnv: env})
			if m == nil {
				if strings.Contains(d.Error(), "internal error") {
					t.Errorf("%s (%s): %v", f[0], env, d)
				}
				continue
			}
			AutoMapBindings(m)
			compiled++
			coopValidate(t, m, env)
			b, _ := m.Encode()
			out := filepath.Join(t.TempDir(), "m.spv")
			os.WriteFile(out, b, 0o644)
			if o, err := exec.Command(val, "--target-env", env, out).CombinedOutput(); err != nil {
				t.Errorf("%s: spirv-val --target-env %s: %s", f[0], env, o)
			}
		}
	}
	t.Logf("%d modules compiled for vulkan1.0 to vulkan1.4, all valid", compiled)
}

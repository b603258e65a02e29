package compile

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// posShaders returns the path of every shader the corpus manifest marks
// pos (glslang compiles it), or skips the test when the corpus is absent.
func posShaders(t *testing.T) []string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "glslang")
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus not present")
	}
	var paths []string
	for _, line := range strings.Split(string(man), "\n") {
		if f := strings.Split(line, "\t"); len(f) >= 2 && f[1] == "pos" {
			paths = append(paths, filepath.Join(dir, f[0]))
		}
	}
	return paths
}

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
		m, d := Compile(path, src, Options{TargetEnv: env, AutoMapBindings: true})
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

// negMissed lists the lines of the corpus's neg shaders where glslang's
// expected output (FILE.out) has an error and coop has none, with why.
var negMissed = map[string]string{}

// TestCorpusNeg: every neg shader of the corpus (glslang's error tests)
// is rejected with a positioned error, never an internal one, and has an
// error on every line glslang's expected output has one on (unless listed
// in negMissed); and every .comp file of the corpus is in the manifest, so
// TestCorpus and this test see them all.
func TestCorpusNeg(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "glslang")
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus not present")
	}
	listed := map[string]bool{}
	total, rejected := 0, 0
	for _, line := range strings.Split(string(man), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			continue
		}
		listed[f[0]] = true
		if f[1] != "neg" {
			continue
		}
		total++
		path := filepath.Join(dir, f[0])
		src, _ := os.ReadFile(path)
		m, d := Compile(path, src, Options{TargetEnv: "vulkan1.3", AutoMapBindings: true})
		switch {
		case m != nil:
			t.Errorf("%s: compiled; glslang rejects it", f[0])
			continue
		case strings.Contains(d.Error(), "internal error"):
			t.Errorf("%s: %v", f[0], d)
			continue
		}
		rejected++
		ours := map[int]bool{}
		for _, e := range d.Diags {
			ours[e.Pos.Line] = true
		}
		out, err := os.ReadFile(path + ".out")
		if err != nil {
			continue
		}
		var missed []int
		for _, l := range strings.Split(string(out), "\n") {
			var n int
			if _, err := fmt.Sscanf(l, "ERROR: 0:%d:", &n); err == nil && !ours[n] && !slices.Contains(missed, n) {
				missed = append(missed, n)
			}
		}
		why, known := negMissed[f[0]]
		switch {
		case len(missed) > 0 && known:
			t.Logf("%s: glslang reports errors on lines %v, coop does not (%s)", f[0], missed, why)
		case len(missed) > 0:
			t.Errorf("%s: glslang reports errors on lines %v, coop does not", f[0], missed)
		case known:
			t.Errorf("%s: coop now reports every error glslang does; remove it from negMissed", f[0])
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.comp"))
	for _, p := range files {
		if !listed[filepath.Base(p)] {
			t.Errorf("%s: not in MANIFEST.tsv", filepath.Base(p))
		}
	}
	t.Logf("corpus: %d neg shaders, %d rejected", total, rejected)
}

// TestCorpusAllTargets compiles every pos shader of the corpus for every
// Vulkan target: it may be refused (glslang refuses many below the SPIR-V
// version they need), but whatever comes out must pass spirv-val for that
// target.
func TestCorpusAllTargets(t *testing.T) {
	shaders := posShaders(t)
	val := refTool("spirv-val")
	if val == "" {
		t.Skip("spirv-val not present")
	}
	compiled := 0
	for _, path := range shaders {
		name := filepath.Base(path)
		src, _ := os.ReadFile(path)
		for _, env := range []string{"vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3", "vulkan1.4"} {
			m, d := Compile(path, src, Options{TargetEnv: env, AutoMapBindings: true})
			if m == nil {
				if strings.Contains(d.Error(), "internal error") {
					t.Errorf("%s (%s): %v", name, env, d)
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
				t.Errorf("%s: spirv-val --target-env %s: %s", name, env, o)
			}
		}
	}
	t.Logf("%d modules compiled for vulkan1.0 to vulkan1.4, all valid", compiled)
}

package validate

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

var corpusDir = filepath.Join("..", "..", "shared", "corpus")

// envForVersion picks the Vulkan environment whose SPIR-V version a
// module has, as the corpus's producers chose it.
func envForVersion(v spirv.Version) string {
	switch v {
	case spirv.MakeVersion(1, 3):
		return "vulkan1.1"
	case spirv.MakeVersion(1, 4):
		return "vulkan1.1spv1.4"
	case spirv.MakeVersion(1, 5):
		return "vulkan1.2"
	case spirv.MakeVersion(1, 6):
		return "vulkan1.3"
	}
	return "vulkan1.0"
}

// spirvValEnv names env as spirv-val does.
func spirvValEnv(env string) string { return strings.Replace(env, "spirv", "spv", 1) }

// refVal runs spirv-val on m; ok is false when it rejects the module, out
// its message; present is false when the tool is absent.
func refVal(t testing.TB, m *spirv.Module, env string, flags ...string) (ok bool, out string, present bool) {
	val := reftool.Path("spirv-val")
	if val == "" {
		return false, "", false
	}
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "m.spv")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--target-env", spirvValEnv(env)}, flags...)
	o, err := exec.Command(val, append(args, f)...).CombinedOutput()
	return err == nil, string(o), true
}

func glslangCorpus(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "glslang", "*.spvasm"))
	if len(files) == 0 {
		t.Skip("corpus not present")
	}
	return files
}

func loadSpvasm(t testing.TB, path string) *spirv.Module {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := text.AssembleOptions(src, path, text.AsmOptions{KeepHeader: true})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// TestGlslangCorpusValid: every module glslang wrote for the corpus that
// spirv-val accepts (or every one, without spirv-val) validates.
func TestGlslangCorpusValid(t *testing.T) {
	n := 0
	for _, f := range glslangCorpus(t) {
		m := loadSpvasm(t, f)
		env := envForVersion(m.Version)
		if _, err := Validate(m, Options{TargetEnv: env}); err != nil {
			if ok, out, present := refVal(t, m, env); present && !ok {
				t.Logf("%s: spirv-val rejects it too: %s", filepath.Base(f), firstLine(out))
				continue
			}
			t.Errorf("%s (%s): %v", filepath.Base(f), env, err)
			continue
		}
		n++
	}
	t.Logf("%d glslang corpus modules valid", n)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// readLines returns the non-comment lines of a tab-separated file.
func readLines(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, strings.Split(l, "\t"))
		}
	}
	return out, sc.Err()
}

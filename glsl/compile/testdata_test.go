package compile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/diag"
)

// TestShaderFiles compiles every shader in testdata/shaders. A line
// ending in "// ERROR: text" expects an error on that line whose message
// contains text; every error must be on such a line. A shader without
// those must compile, and spirv-val must accept the module. When
// glslangValidator is present it must agree on accepting or rejecting,
// unless the shader says why it differs in a "// glslang differs: ..."
// line. "// target: ENV" picks the target environment (vulkan1.3 unless
// given).
func TestShaderFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "shaders", "*.comp"))
	if len(files) == 0 {
		t.Fatal("no shaders in testdata/shaders")
	}
	glslang := refTool("glslangValidator")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			env, want, differs := "vulkan1.3", map[int]string{}, false
			for i, line := range strings.Split(string(src), "\n") {
				if _, msg, ok := strings.Cut(line, "// ERROR: "); ok {
					want[i+1] = strings.TrimSpace(msg)
				}
				if _, v, ok := strings.Cut(line, "// target: "); ok {
					env = strings.TrimSpace(v)
				}
				differs = differs || strings.Contains(line, "// glslang differs: ")
			}
			m, d := Compile(path, src, Options{TargetEnv: env})
			checkErrors(t, d, want)
			if len(want) == 0 && m != nil {
				validate(t, m, env)
			}
			if glslang == "" || differs {
				return
			}
			out, err := exec.Command(glslang, "-V", "--target-env", env, "-o", filepath.Join(t.TempDir(), "g.spv"), path).CombinedOutput()
			if accepted := err == nil; accepted != (len(want) == 0) {
				t.Errorf("glslangValidator accepted=%v, coop accepted=%v:\n%s", accepted, len(want) == 0, out)
			}
		})
	}
}

// checkErrors matches d's errors against the lines that expect one.
func checkErrors(t *testing.T, d *diag.List, want map[int]string) {
	t.Helper()
	seen := map[int]bool{}
	for _, e := range d.Diags {
		if e.Sev != diag.Error {
			continue
		}
		text := "'" + e.Token + "' : " + e.Msg
		w, ok := want[e.Pos.Line]
		if !ok {
			t.Errorf("unexpected error: %v", e)
			continue
		}
		if strings.Contains(text, w) {
			seen[e.Pos.Line] = true
		}
	}
	for line, w := range want {
		if !seen[line] {
			t.Errorf("line %d: no error containing %q; got:\n%v", line, w, d)
		}
	}
}

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/internal/reftool"
)

// TestCompileDebugInfo: compile -gV writes NonSemantic.Shader.DebugInfo.100
// (-gVS with the source text), which coop val accepts and coop dis prints
// as spirv-dis does; glslc has no such flag (shaderc's -g is OpLine only).
func TestCompileDebugInfo(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a.comp")
	text := "#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { uint v[]; };\nvoid main() {\n    uint i = 1u;\n    v[i] = 2u;\n}\n"
	os.WriteFile(src, []byte(text), 0o644)
	for _, flag := range []string{"-gV", "-gVS"} {
		out := filepath.Join(dir, "a"+flag+".spv")
		if rc, so, se := runCLI("compile", flag, src, "-o", out); rc != 0 {
			t.Fatalf("%s: rc %d %s%s", flag, rc, so, se)
		}
		if rc, so, se := runCLI("val", out); rc != 0 {
			t.Errorf("%s: coop val: rc %d %s%s", flag, rc, so, se)
		}
		rc, dis, se := runCLI("dis", out)
		if rc != 0 || !strings.Contains(dis, `OpExtInstImport "NonSemantic.Shader.DebugInfo.100"`) || !strings.Contains(dis, "DebugDeclare") {
			t.Errorf("%s: coop dis: rc %d %s%s", flag, rc, dis, se)
		}
		if got := strings.Contains(dis, "uint i = 1u;"); got != (flag == "-gVS") {
			t.Errorf("%s: source text present %v", flag, got)
		}
		if d := reftool.Path("spirv-dis"); d != "" {
			want, err := exec.Command(d, out).Output()
			if err != nil || string(want) != dis {
				t.Errorf("%s: coop dis differs from spirv-dis (%v)", flag, err)
			}
		}
		if v := reftool.Path("spirv-val"); v != "" {
			if o, err := exec.Command(v, out).CombinedOutput(); err != nil {
				t.Errorf("%s: spirv-val: %s", flag, o)
			}
		}
	}
	if rc, _, _ := runCLI("glslc", "-gV", "-c", src, "-o", filepath.Join(dir, "g.spv")); rc != 2 {
		t.Errorf("glslc -gV: rc %d, want 2 (unknown flag)", rc)
	}
}

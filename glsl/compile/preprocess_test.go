package compile

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/coopshader/coop/internal/reftool"
)

// TestPreprocessText checks -E's layout: tokens on their lines, glslang's
// spacing, directives kept, #line around an include.
func TestPreprocessText(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "inc.glsl"), []byte("#define N 3\nfloat g(float x) { return x * N; }\n"), 0o644)
	src := "#version 450\n#extension GL_GOOGLE_include_directive : enable\n// comment\n#include \"inc.glsl\"\n#define TWO(a) (a + a)\nlayout(local_size_x = 1) in;\n\nlayout(binding=0) buffer B { float v[]; };\nvoid main() {\n  v[0] = TWO(g(1.0))\n     + N;\n  for(int i=0;i<2;i++) {}\n}\n"
	name := filepath.Join(dir, "p.comp")
	got, d := Preprocess(name, []byte(src), Options{})
	if got == nil {
		t.Fatal(d)
	}
	want := "#version 450\n#extension GL_GOOGLE_include_directive : enable\n\n#line 1 \"" + filepath.Join(dir, "inc.glsl") + "\"\n\nfloat g(float x) { return x * 3; }\n#line 5 \"" + name + "\"\n\nlayout(local_size_x = 1) in;\n\nlayout(binding = 0) buffer B { float v[]; };\nvoid main() {\n  v[0] = (g(1.0) + g(1.0))\n     + 3;\n  for (int i = 0; i < 2; i ++) { }\n}\n\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got, _ := Preprocess("e.comp", []byte("#version 450\n#error stop\n"), Options{}); got != nil {
		t.Errorf("an #error gave text %q", got)
	}
}

// TestPreprocessMatchesGlslang compares -E with glslangValidator -E on
// the examples (all identical) and the corpus's compute shaders (logged).
func TestPreprocessMatchesGlslang(t *testing.T) {
	gv := reftool.Path("glslangValidator")
	if gv == "" {
		t.Skip("glslangValidator not found (set COOP_REF_BIN)")
	}
	same := func(path string) (bool, string, string) {
		ref, err := exec.Command(gv, "-E", path).Output()
		if err != nil {
			return true, "", "" // glslang refuses it: nothing to compare
		}
		src, _ := os.ReadFile(path)
		got, _ := Preprocess(path, src, Options{})
		return bytes.Equal(got, ref), string(got), string(ref)
	}
	examples, _ := filepath.Glob("../../examples/shaders/*.comp")
	for _, f := range examples {
		if ok, got, ref := same(f); !ok {
			t.Errorf("%s:\ncoop:\n%s\nglslang:\n%s", f, got, ref)
		}
	}
	corpus, _ := filepath.Glob("../../../shared/corpus/glslang/*.comp")
	if testing.Short() && len(corpus) > 20 {
		corpus = corpus[:20]
	}
	n := 0
	for _, f := range corpus {
		if ok, _, _ := same(f); ok {
			n++
		} else {
			t.Logf("differs from glslang -E: %s", filepath.Base(f))
		}
	}
	t.Logf("%d of %d corpus compute shaders preprocess to glslang's text", n, len(corpus))
}

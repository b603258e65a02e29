package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/spirv"
)

// TestCoopCorpusValid: coop's own module of every corpus pos shader it
// compiles validates.
func TestCoopCorpusValid(t *testing.T) {
	dir := filepath.Join(corpusDir, "glslang")
	rows, err := readLines(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus not present")
	}
	n := 0
	for _, f := range rows {
		if len(f) < 2 || f[1] != "pos" {
			continue
		}
		path := filepath.Join(dir, f[0])
		src, _ := os.ReadFile(path)
		m0 := loadSpvasmIfPresent(t, path+".spvasm")
		env := "vulkan1.0"
		if m0 != nil {
			env = envForVersion(m0.Version)
		}
		// With -g too: debug instructions (OpLine between functions,
		// OpSource with the text) are part of what must validate.
		for _, debug := range []bool{false, true} {
			m, _ := compile.Compile(path, src, compile.Options{TargetEnv: strings.Replace(env, "vulkan1.1spv1.4", "spirv1.4", 1), Debug: debug})
			if m == nil {
				continue
			}
			compile.AutoMapBindings(m)
			if _, err := Validate(m, Options{TargetEnv: env}); err != nil {
				if ok, out, present := refVal(t, m, env); present && !ok {
					t.Logf("%s (-g %v): spirv-val rejects it too: %s", f[0], debug, firstLine(out))
					continue
				}
				t.Errorf("%s (%s, -g %v): %v", f[0], env, debug, err)
				continue
			}
			n++
		}
	}
	t.Logf("%d modules coop compiled from the corpus validate", n)
}

func loadSpvasmIfPresent(t testing.TB, path string) *spirv.Module {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	return loadSpvasm(t, path)
}

// TestGgmlVariantsValid: coop's module of every llama.cpp shader variant
// validates (-short: every 16th variant).
func TestGgmlVariantsValid(t *testing.T) {
	dir := filepath.Join(corpusDir, "ggml-vulkan")
	rows, err := readLines(filepath.Join(dir, "variants.tsv"))
	if err != nil {
		t.Skip("ggml-vulkan corpus not present")
	}
	sdir := filepath.Join(dir, "shaders")
	n, compiled := 0, 0
	for k, v := range rows {
		if len(v) < 3 || testing.Short() && k%16 != 0 {
			continue
		}
		var defs []pp.Define
		if len(v) > 3 {
			for _, d := range strings.Fields(v[3]) {
				name, val, _ := strings.Cut(d, "=")
				defs = append(defs, pp.Define{Name: name, Value: val})
			}
		}
		path := filepath.Join(sdir, v[1])
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := compile.Compile(path, src, compile.Options{TargetEnv: v[2], Defines: defs,
			IncludeDirs: []string{sdir}, IncludeDirective: true})
		n++
		if m == nil {
			continue
		}
		compiled++
		if _, err := Validate(m, Options{TargetEnv: v[2]}); err != nil {
			if ok, out, present := refVal(t, m, v[2]); present && !ok {
				t.Logf("%s: spirv-val rejects it too: %s", v[0], firstLine(out))
				continue
			}
			t.Errorf("%s (%s): %v", v[0], v[2], err)
		}
	}
	t.Logf("%d variants, %d compiled and validated", n, compiled)
}

package compile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/internal/fuzzwatch"
)

// FuzzCompile runs arbitrary source through the whole compiler: errors are
// fine, but no input may reach the code generator's internal-error
// recovery, and a module that comes out must encode.
func FuzzCompile(f *testing.F) {
	for _, dir := range []string{filepath.Join("..", "..", "examples", "shaders"), filepath.Join("testdata", "shaders"), filepath.Join("..", "..", "..", "shared", "corpus", "glslang")} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.comp"))
		for _, p := range files {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		defer fuzzwatch.Start()()
		m, d := Compile("fuzz.comp", src, Options{TargetEnv: "vulkan1.3"})
		if d != nil && strings.Contains(d.Error(), "internal error") {
			t.Fatalf("%s", d.Error())
		}
		if m != nil {
			if _, err := m.Encode(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

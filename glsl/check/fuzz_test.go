package check

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/coopshader/coop/internal/fuzzwatch"
)

// FuzzCheck feeds arbitrary source through the whole front end: whatever
// the input, the checker must return (errors are fine, panics are not).
func FuzzCheck(f *testing.F) {
	f.Add([]byte(hdr + "void main() { int a = 1; a += 2; }"))
	f.Add([]byte(hdr + "struct S { float x[2]; };\nvoid main() { S s = S(float[](1.0, 2.0)); s.x[1]++; }"))
	if dir := corpusDir(); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*.comp"))
		for _, p := range files {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		defer fuzzwatch.Start()()
		frontEnd("fuzz.comp", src)
	})
}

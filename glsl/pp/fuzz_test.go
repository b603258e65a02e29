package pp

import (
	"io/fs"
	"testing"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/token"
	"github.com/coopshader/coop/internal/fuzzwatch"
)

// fuzzFiles are what #include finds while fuzzing, including a file that
// includes itself.
var fuzzFiles = map[string]string{
	"./a.h":    "#define A_H 1\nint a;\n",
	"./self.h": "#include \"self.h\"\n",
	"inc/b.h":  "#if B\nb\n#else\n#include \"a.h\"\n#endif\n",
}

func FuzzPreprocess(f *testing.F) {
	for _, c := range glslangCases {
		f.Add([]byte("#version 450\n" + c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		defer fuzzwatch.Start()()
		d := &diag.List{MaxErrors: 100}
		opts := Options{
			IncludeDirs: []string{"inc"},
			Vulkan:      true,
			ReadFile: func(path string) ([]byte, error) {
				if s, ok := fuzzFiles[path]; ok {
					return []byte(s), nil
				}
				return nil, fs.ErrNotExist
			},
		}
		r := Preprocess("t.comp", src, opts, d)
		n := len(r.Tokens)
		if n == 0 || r.Tokens[n-1].Kind != token.EOF {
			t.Fatal("tokens do not end with EOF")
		}
		for _, tk := range r.Tokens[:n-1] {
			if tk.Kind == token.EOF || tk.Text == "" {
				t.Fatalf("bad token %+v", tk)
			}
		}
	})
}

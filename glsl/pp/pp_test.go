package pp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/token"
)

// texts preprocesses src and returns the output tokens' texts joined by
// spaces, and the diagnostics.
func texts(t *testing.T, src string, opts Options) (string, *diag.List) {
	t.Helper()
	d := &diag.List{}
	r := Preprocess("t.comp", []byte(src), opts, d)
	var parts []string
	for _, tk := range r.Tokens[:len(r.Tokens)-1] {
		parts = append(parts, tk.Text)
	}
	return strings.Join(parts, " "), d
}

func TestPreprocess(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"plain", "int a = 0x1Fu + 1.5e3f;", "int a = 0x1Fu + 1.5e3f ;"},
		{"puncts", "a<<=b>>=c++&&d^^e", "a <<= b >>= c ++ && d ^^ e"},
		{"comments", "a /* x\ny */ b // c\nd", "a b d"},
		{"continuation", "#define X 1 \\\n + 2\nX", "1 + 2"},
		{"object", "#define N 16\nint a[N];", "int a [ 16 ] ;"},
		{"function", "#define ADD(a, b) ((a) + (b))\nADD(1, x*2)", "( ( 1 ) + ( x * 2 ) )"},
		{"nested", "#define A B\n#define B 3\nA", "3"},
		{"selfref", "#define X X + 1\nX", "X + 1"},
		{"fnNoArgs", "#define F(x) x\nF", "F"},
		{"argsPreExpanded", "#define N 4\n#define F(x) x*x\nF(N)", "4 * 4"},
		{"paste", "#define CAT(a,b) a##b\nCAT(foo, 1)", "foo1"},
		{"ifdef", "#define A\n#ifdef A\nyes\n#else\nno\n#endif", "yes"},
		{"ifndef", "#ifndef A\nyes\n#endif", "yes"},
		{"if", "#if 1 + 2 * 3 == 7 && defined(GL_SPIRV)\nyes\n#elif 1\nno\n#endif", "yes"},
		{"elif", "#if 0\na\n#elif 2 > 1\nb\n#else\nc\n#endif", "b"},
		{"nestedFalse", "#if 0\n#if 1\na\n#endif\n#else\nb\n#endif", "b"},
		{"undef", "#define A 1\n#undef A\nA", "A"},
		{"line", "#line 10\n__LINE__", "10"},
		{"version", "#version 450\n__VERSION__", "450"},
		{"shortCircuitDiv", "#if 0 && (1/0)\na\n#else\nb\n#endif", "b"},
		{"extMacro", "#ifdef GL_KHR_cooperative_matrix\ny\n#endif", "y"},
		{"string", `debugPrintfEXT("x=%d\n", x);`, `debugPrintfEXT ( "x=%d\n" , x ) ;`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, d := texts(t, tc.src, Options{Vulkan: true})
			if d.HasErrors() {
				t.Fatalf("errors: %v", d)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestPositions(t *testing.T) {
	d := &diag.List{}
	r := Preprocess("f.comp", []byte("#define M a +\nx\n  M b"), Options{}, d)
	want := []string{"f.comp:2:1", "f.comp:3:3", "f.comp:3:3", "f.comp:3:5"}
	for i, w := range want {
		if got := r.Tokens[i].Pos.String(); got != w {
			t.Errorf("token %d (%s) at %s, want %s", i, r.Tokens[i].Text, got, w)
		}
	}
}

func TestDefinesAndVersion(t *testing.T) {
	got, d := texts(t, "#version 460 core\n#extension GL_KHR_cooperative_matrix : enable\nA B", Options{Defines: []Define{{"A", "7"}, {"B", "1"}}, Undefs: []string{"B"}})
	if d.HasErrors() || got != "7 B" {
		t.Fatalf("got %q, %v", got, d)
	}
	r := Preprocess("t", []byte("#version 460 core\n#extension GL_KHR_cooperative_matrix : require\n"), Options{}, &diag.List{})
	if r.Version != 460 || r.Profile != "core" || len(r.Extensions) != 1 || r.Extensions[0].Behavior != Require || r.Extensions[0].Pos.Line != 2 {
		t.Fatalf("result %+v", r)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"error", "#error bad thing", "ERROR: t.comp:1: '#error' : bad thing"},
		{"divzero", "#if 1/0\n#endif", "division by 0"},
		{"unterminated", "#if 1\n", "missing #endif"},
		{"endif", "#endif", "without matching #if"},
		{"versionLate", "int a;\n#version 450", "must occur first"},
		{"fewArgs", "#define F(a,b) a\nF(1)", "Too few args"},
		{"manyArgs", "#define F(a) a\nF(1,2)", "Too many args"},
		{"eofArgs", "#define F(a) a\nF(1", "End of input in macro"},
		{"redefine", "#define A 1\n#define A 2", "Macro redefined"},
		{"glPrefix", "#define GL_FOO 1", "can't be (un)defined"},
		{"badDirective", "#foo", "invalid directive"},
		{"requireUnknown", "#extension GL_FOO_bar : require", "extension not supported"},
		{"includeOff", "#include \"x.h\"", "GL_GOOGLE_include_directive"},
		{"includeMissing", "#extension GL_GOOGLE_include_directive : enable\n#include \"nope.h\"", "could not process include directive"},
		{"comment", "/* never closed", "end of input in comment"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, d := texts(t, tc.src, Options{})
			if !d.HasErrors() || !strings.Contains(d.Error(), tc.want) {
				t.Errorf("got %q, want an error containing %q", d.Error(), tc.want)
			}
		})
	}
}

func TestInclude(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "inc"), 0o755)
	os.WriteFile(filepath.Join(dir, "local.h"), []byte("local\n__LINE__"), 0o644)
	os.WriteFile(filepath.Join(dir, "inc", "sys.h"), []byte("#pragma once\nsys"), 0o644)
	src := "#extension GL_GOOGLE_include_directive : require\n#include \"local.h\"\n#include <sys.h>\nend"
	d := &diag.List{}
	r := Preprocess(filepath.Join(dir, "main.comp"), []byte(src), Options{IncludeDirs: []string{filepath.Join(dir, "inc")}}, d)
	if d.HasErrors() {
		t.Fatal(d)
	}
	var got []string
	for _, tk := range r.Tokens[:len(r.Tokens)-1] {
		got = append(got, tk.Text+"@"+filepath.Base(tk.Pos.File))
	}
	want := "local@local.h 2@local.h sys@sys.h end@main.comp"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}

func TestNoHang(t *testing.T) {
	// Exponential macro growth is cut off with an error, not a hang.
	src := "#define A B B\n#define B C C\n#define C D D\n#define D E E\n#define E F F\n#define F G G\n#define G H H\n#define H I I\n#define I J J\n#define J K K\n#define K L L\n#define L M M\n#define M N N\n#define N O O\n#define O P P\n#define P Q Q\n#define Q R R\n#define R S S\n#define S T T\n#define T U U\n#define U V V\n A"
	d := &diag.List{}
	Preprocess("t", []byte(src), Options{}, d)
	if !d.HasErrors() {
		t.Fatal("want an error for runaway expansion")
	}
	// Mutual recursion terminates.
	got, _ := texts(t, "#define f(x) g(x)\n#define g(x) f(x)\nf(1)", Options{})
	if got != "f ( 1 )" {
		t.Fatalf("got %q", got)
	}
}

// corpusDir finds the shared corpus, or skips.
func corpusDir(t testing.TB) string {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "glslang")
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		t.Skip("corpus not present")
	}
	return dir
}

func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	man, _ := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	n, failed := 0, 0
	for _, line := range strings.Split(string(man), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 || f[1] != "pos" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, f[0]))
		if err != nil {
			continue
		}
		n++
		d := &diag.List{}
		Preprocess(filepath.Join(dir, f[0]), src, Options{Vulkan: true}, d)
		if d.HasErrors() {
			failed++
			t.Errorf("%s: %v", f[0], d)
		}
	}
	t.Logf("%d pos corpus shaders preprocessed, %d with errors", n, failed)
}

func BenchmarkPreprocess(b *testing.B) {
	dir := corpusDir(b)
	files, _ := filepath.Glob(filepath.Join(dir, "*.comp"))
	var srcs [][]byte
	total := 0
	for _, f := range files {
		s, _ := os.ReadFile(f)
		srcs = append(srcs, s)
		total += len(s)
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		for _, s := range srcs {
			Preprocess("b", s, Options{Vulkan: true}, &diag.List{})
		}
	}
}

func FuzzPreprocess(f *testing.F) {
	for _, s := range []string{
		"#version 450\n#define F(a, b) a##b\nF(x, 1) __LINE__ __FILE__\n",
		"#if defined(A) && (1 << 3) > 2\nx\n#elif 1\ny\n#else\nz\n#endif\n",
		"#extension GL_GOOGLE_include_directive : enable\n#include \"missing.h\"\n",
		"#define X X X\n#define Y(a) Y(a) a\nX Y(Y(1))\n#line 7 2\n#error e\n",
		"/* unterminated",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		d := &diag.List{MaxErrors: 100}
		r := Preprocess("f.comp", []byte(src), Options{Vulkan: true, ReadFile: func(string) ([]byte, error) {
			return []byte("#include \"self.h\"\n"), nil
		}}, d)
		if n := len(r.Tokens); n == 0 || r.Tokens[n-1].Kind != token.EOF {
			t.Fatalf("token stream does not end with EOF")
		}
	})
}

package pp

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/internal/reftool"
)

// glslangCases are compared against glslangValidator -E: the same tokens
// when it accepts the source, an error on the first line it flags when it
// does not. Each is prefixed with "#version 450\n".
var glslangCases = []string{
	// Macros.
	"#define A 1\nA",
	"#define A(x) x+1\nA(2) A (3) A",
	"#define A(x, y) y x\nA((1,2),[3,4])",
	"#define A() z\nA() A( )",
	"#define A(x) #x\nA(1)",
	"#define CAT(a,b) a ## b\nCAT(x, y) CAT(1, 2) CAT(, q) CAT(q, )",
	"#define CAT(a,b) a ## b\nCAT(+, =) CAT(<<, =)",
	"#define X X Y\n#define Y X\nX Y",
	"#define f(x) x f\nf(1)(2)(3)",
	"#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)",
	"#define N 4\n#define F(x) x N\nF(N)",
	"#define EMPTY\n#define F(x) [x]\nF(EMPTY) F() EMPTY F(EMPTY EMPTY)",
	"#define F(x) x\nF(\n1\n,\n)",
	"#define F(x) x\nF(\n#define Q 1\nQ)",
	"#define F(x,y) x y\nF(1)",
	"#define F(x) x\nF(1,2)",
	"#define F(x) x\nF(1",
	"#define A 1\n#define A 1\n#define A  1\nA",
	"#define A 1\n#define A 2\nA",
	"#define F(x) x\n#define F(y) y\n",
	"#define GL_X 1\n",
	"#define __X 1\n__X",
	"#undef GL_KHR_cooperative_matrix\n",
	"#undef __LINE__\n",
	"#define __LINE__ 3\n",
	"#define\n",
	"#define 3\n",
	"#define F(x,x) x\n",
	"#define F(x\n",
	"#define F(1) x\n",
	"#undef\n",
	"#undef X Y\n",
	"#define A B\n#undef A\nA",
	"__LINE__ __VERSION__\n__LINE__",
	"#define L __LINE__\nL\nL",
	"#define F(x) x __LINE__\nF(\n1\n)",
	"VULKAN GL_SPIRV GL_core_profile GL_ES GL_compatibility_profile",
	"GL_KHR_cooperative_matrix GL_EXT_shader_explicit_arithmetic_types_float16 GL_NV_cooperative_vector GL_EXT_bfloat16",
	"GL_GOOGLE_include_directive GL_ARB_shading_language_include GL_GOOGLE_cpp_style_line_directive",
	// Conditionals.
	"#if 1\na\n#elif 1\nb\n#else\nc\n#endif",
	"#if 0\na\n#elif 0\nb\n#else\nc\n#endif",
	"#if 0\n#if garbage (((\n#endif\n#else\nok\n#endif",
	"#ifdef A\na\n#endif\n#ifndef A\nb\n#endif",
	"#ifdef\n#endif",
	"#ifdef 3\n#endif",
	"#ifdef A B\n#endif",
	"#ifndef A B\n#endif",
	"#if\n#endif",
	"#if 1 +\n#endif",
	"#if (1\n#endif",
	"#if 1 2\n#endif",
	"#if 1/0\n#endif",
	"#if 1%0\n#endif",
	"#if 0 && 1/0\nx\n#endif",
	"#if 1 || 1/0\nx\n#endif",
	"#if UNDEFINED\nx\n#else\ny\n#endif",
	"#if UNDEFINED + 1\nx\n#endif",
	"#if defined A || defined(GL_SPIRV)\nx\n#endif",
	"#if defined\n#endif",
	"#if defined(\n#endif",
	"#if defined(A\n#endif",
	"#define D defined(A)\n#if D\nx\n#endif",
	"#if -1 < 0 && ~0 == -1 && !0 && (7 >> 1) == 3 && (1 << 4) == 16 && (5 ^ 3) == 6 && (5 | 2) == 7 && (6 & 3) == 2\nx\n#endif",
	"#if 7 / 2 == 3 && 7 % 2 == 1 && -7 / 2 == -3 && 2 * 3 - 1 == 5 && 1 != 2 && 2 >= 2 && 1 <= 1 && 2 > 1\nx\n#endif",
	"#if 0x10 == 16 && 010 == 8 && 1u == 1\nx\n#endif",
	"#if 1.0\nx\n#endif",
	"#if 2147483647 + 1 < 0\nx\n#endif",
	"#if 1 ? 2 : 0\nx\n#endif",
	"#if 1 == 1 == 1\nx\n#endif",
	"#else\n",
	"#elif 1\n",
	"#endif\n",
	"#if 1\n#else\n#else\n#endif",
	"#if 1\n#else\n#elif 1\n#endif",
	"#if 1\n#endif junk",
	"#if 1\n#else junk\n#endif",
	"#if 1\n",
	"#if 0\n#elif 1/0\n#endif",
	"#if 1\n#elif 1/0\n#endif",
	"#if 0\n#error no\n#foo\n#endif\nok",
	// Other directives.
	"#error this is bad\n",
	"#error\n",
	"#pragma optimize(off)\n#pragma debug(on)\n#pragma STDGL invariant(all)\nx",
	"#pragma\nx",
	"#foo\n",
	"#\nx",
	"# define A 1\nA",
	"#line 10\n__LINE__",
	"#line 10 3\n__LINE__ __FILE__",
	"#line 0x10\n__LINE__",
	"#define L 12\n#line L\n__LINE__",
	"#line\n",
	"#line x\n",
	"#line 9 3 4\n",
	"#line 9 \"x.h\"\n",
	"#extension GL_GOOGLE_cpp_style_line_directive : enable\n#line 9 \"x.h\"\n__LINE__",
	"#extension GL_KHR_cooperative_matrix : require\n#extension GL_EXT_bfloat16 : enable\n#extension GL_NV_cooperative_matrix2 : warn\n#extension GL_EXT_debug_printf : disable\nx",
	"#extension all : disable\n#extension all : warn\nx",
	"#extension all : enable\n",
	"#extension all : require\n",
	"#extension GL_FOO_bar : require\n",
	"#extension GL_FOO_bar : enable\nx",
	"#extension GL_KHR_cooperative_matrix : maybe\n",
	"#extension GL_KHR_cooperative_matrix\n",
	"#extension GL_KHR_cooperative_matrix :\n",
	"#extension : enable\n",
	"#include \"x.h\"\n",
	"#version 450\n",
	"int a;\n#version 450\n",
	// Tokens.
	"a<<=b>>=c++&&d^^e--||f!=g==h<=i>=j+=k-=l*=m/=n%=o&=p|=q^=r",
	"a[[b]] { } ( ) . , ; : ? ~ ! < > + - * / % & | ^ =",
	"1 1u 1U 1l 1L 1ul 1UL 1s 1S 1us 1US 0x1F 0X1fu 017 1.0 1. .5 1e3 1E-3 1.5e+3 1.0f 1.0F 1.0lf 1.0LF 1.0hf 1.0HF 2e3f",
	"a/*c*/b//d\ne /* multi\nline */ f",
	"a\\\nb c\\\n\\\nd",
	"#define A 1 \\\n + 2\nA",
	"debugPrintfEXT(\"x=%d\\n\", x);",
}

// glslangRun preprocesses src with glslangValidator -E in dir and returns
// its output tokens (directive lines removed), the lines of its errors, and
// whether it succeeded.
func glslangRun(t *testing.T, tool, dir, src string) ([]string, []string, bool) {
	t.Helper()
	path := filepath.Join(dir, "t.comp")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, "-E", "t.comp")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var errLines []string
	for _, m := range glslangErr.FindAllStringSubmatch(string(out), -1) {
		errLines = append(errLines, m[1])
	}
	if err != nil || len(errLines) > 0 {
		return nil, errLines, false
	}
	var kept []string
	for _, l := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			kept = append(kept, l)
		}
	}
	s := &scanner{src: []byte(strings.Join(kept, "\n")), d: &pp{d: &diag.List{}}}
	var toks []string
	for _, tk := range s.scanAll() {
		if tk.Kind != 0 {
			toks = append(toks, tk.Text)
		}
	}
	return toks, nil, true
}

var glslangErr = regexp.MustCompile(`(?m)^ERROR: t\.comp:(\d+):`)

func TestAgainstGlslang(t *testing.T) {
	tool := reftool.Path("glslangValidator")
	if tool == "" {
		t.Skip("glslangValidator not found")
	}
	dir := t.TempDir()
	for _, c := range glslangCases {
		src := "#version 450\n" + c
		if strings.HasPrefix(c, "#version") || strings.HasPrefix(c, "int a;\n#version") {
			src = c
		}
		want, wantErr, ok := glslangRun(t, tool, dir, src)
		d := &diag.List{}
		r := Preprocess("t.comp", []byte(src), Options{}, d)
		var got []string
		for _, tk := range r.Tokens[:len(r.Tokens)-1] {
			got = append(got, tk.Text)
		}
		if ok {
			if d.HasErrors() {
				t.Errorf("%q: glslang accepts, we report\n%v", c, d)
			} else if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%q:\n got %q\nwant %q", c, strings.Join(got, " "), strings.Join(want, " "))
			}
			continue
		}
		if !d.HasErrors() {
			t.Errorf("%q: glslang rejects at lines %v, we accept", c, wantErr)
			continue
		}
		found := false
		for _, dg := range d.Diags {
			if dg.Sev == diag.Error && len(wantErr) > 0 && strconv.Itoa(dg.Pos.Line) == wantErr[0] {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: glslang's first error is on line %v; ours:\n%v", c, wantErr, d)
		}
	}
}

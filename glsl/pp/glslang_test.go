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
	"github.com/coopshader/coop/glsl/token"
	"github.com/coopshader/coop/internal/reftool"
)

// glslangCases are compared against glslangValidator -E: the same tokens
// when it accepts the source, an error on the first file:line it flags
// when it does not. Each is prefixed with "#version 450\n" unless it has
// its own #version. Behaviour that -E does not show as -V does (string
// literals, VULKAN and GL_SPIRV, #extension checks) is tested in
// pp_test.go against facts taken from glslangValidator -V.
var glslangCases = []string{
	// Macros.
	"#define A 1\nA",
	"#define A(x) x+1\nA(2) A (3) A",
	"#define A(x, y) y x\nA((1,2),[3,4])",
	"#define A() z\nA() A( )",
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
	"#define F(x) x\nF(__LINE__\n\n)",
	"#define F(x) x\nF\n(1) F\n__LINE__",
	"#define F(x) x\n#if F\n#else\nno\n#endif",
	"#define AB(x) [x]\n#define CAT(a,b) a##b\nCAT(A,B)(1)",
	"#define X 1\n#undef X\n#ifdef X\nno\n#endif\nX",
	"#define E\n#define F(x, y) x y\nF(E, E) F(, 1) F((a, b), (c))",
	"#define q(x) x\n#define r(x,y) x ## y\nr(1, q(2)) q(r(3, 4))",
	"#define L(x) __LINE__ x\nL(\nL(a\n)\n)",
	"#define L __LINE__\nL\nL",
	"#define F(x) x __LINE__\nF(\n1\n)",
	"GL_core_profile GL_ES GL_compatibility_profile GL_COMPUTE_SHADER",
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
	"#if defined A || defined(GL_core_profile)\nx\n#endif",
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
	"#extension GL_FOO_bar : enable\nx",
	"#extension GL_KHR_cooperative_matrix\n",
	"#extension GL_KHR_cooperative_matrix :\n",
	"#extension : enable\n",
	"#include \"x.h\"\n",
	// Includes (files in includeFiles; -Iinc).
	"#extension GL_GOOGLE_include_directive : enable\n#include \"a.h\"\nafter __LINE__ __FILE__",
	"#extension GL_ARB_shading_language_include : enable\n#include \"sub/s.h\"\n#include <i.h>\n#include \"i.h\"\n__LINE__",
	"#extension GL_GOOGLE_include_directive : enable\n#include \"sub/t.h\"\n#include <deep.h>\n",
	"#extension GL_GOOGLE_include_directive : enable\n#include <sib.h>",
	"#extension GL_GOOGLE_include_directive : enable\n#include \"nope.h\"",
	"#extension GL_GOOGLE_include_directive : enable\n#include",
	"#extension GL_GOOGLE_include_directive : enable\n#include x",
	"#extension GL_GOOGLE_include_directive : enable\n#define H \"sib.h\"\n#include H",
	"#extension GL_GOOGLE_include_directive : enable\n#include \"sib.h\" x",
	"#extension GL_GOOGLE_include_directive : enable\n#include \"bad.h\"\n#endif\nz",
	"#extension GL_GOOGLE_include_directive : enable\n#include \"err.h\"\n",
	"#extension GL_GOOGLE_include_directive : enable\n#include \"m.h\"\nFROM_H",
	"#extension GL_GOOGLE_include_directive : enable\n#include \"cont.h\"\n__LINE__",
	"#extension GL_GOOGLE_include_directive : disable\n#include \"sib.h\"",
	"#extension GL_GOOGLE_include_directive : enable\n#if 0\n#include \"nope.h\"\n#endif\nok",
	"__FILE__",
	"#extension GL_GOOGLE_cpp_style_line_directive : enable\n__FILE__\n#line 20 \"n.glsl\"\n__FILE__ __LINE__\n#line 30 4\n__FILE__",
	// ES rules.
	"#version 310 es\n#if UNDEFINED\n#endif",
	"#version 310 es\n#define __X 1\n__X",
	"#version 310 es\n#define __LINE__ 1\n",
	"#version 310 es\nGL_ES GL_core_profile",
	"#version 460\nGL_ARM_tensors GL_ARM_tensors_bfloat16",
	"#version 450 compatibility\nGL_compatibility_profile GL_core_profile",
	"#version 450 foo\n",
	"#version 450 core extra\n",
	"#version 451\n",
	"#version\n",
	"#version x\n",
	"/* comment */ // line\n#version 450\nok",
	"#version 450\n#version 450\n",
	"#version 450\n",
	"int a;\n#version 450\n",
	// Tokens.
	"a<<=b>>=c++&&d^^e--||f!=g==h<=i>=j+=k-=l*=m/=n%=o&=p|=q^=r",
	"a[[b]] { } ( ) . , ; : ? ~ ! < > + - * / % & | ^ =",
	"1 1u 1U 1l 1L 1ul 1UL 1s 1S 1us 1US 0x1F 0X1fu 017 1.0 1. .5 1e3 1E-3 1.5e+3 1.0f 1.0F 1.0lf 1.0LF 1.0hf 1.0HF 2e3f",
	"a/*c*/b//d\ne /* multi\nline */ f",
	"a\\\nb c\\\n\\\nd",
	"#define A 1 \\\n + 2\nA",
}

// includeFiles are written next to t.comp for the #include cases.
var includeFiles = map[string]string{
	"a.h":        "a_h __LINE__ __FILE__\n",
	"sib.h":      "sib_top\n",
	"top_only.h": "top_only\n",
	"sub/s.h":    "sub_s\n#include \"sib.h\"\n__LINE__\n",
	"sub/sib.h":  "sib_sub\n",
	"sub/t.h":    "#include \"top_only.h\"\n",
	"inc/i.h":    "inc_i\n",
	"inc/deep.h": "#include \"i.h\"\n",
	"bad.h":      "#if 1\nbad_h\n",
	"err.h":      "x\n#error in header\n",
	"m.h":        "#define FROM_H 7\n",
	"cont.h":     "#define C 1 \\\n + 2\nC __LINE__\n",
}

// glslangRun preprocesses t.comp (src) with glslangValidator -E in dir and
// returns its output tokens (directive lines removed), the file:line of
// its errors, and whether it succeeded.
func glslangRun(t *testing.T, tool, dir, src string) ([]string, []string, bool) {
	t.Helper()
	path := filepath.Join(dir, "t.comp")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, "-Iinc", "-E", "t.comp")
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var errLines []string
	for _, m := range glslangErr.FindAllStringSubmatch(stderr.String()+string(out), -1) {
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
	var toks []string
	for _, tk := range scan([]byte(strings.Join(kept, "\n")), "", discard{}) {
		if tk.Kind != 0 {
			toks = append(toks, tk.Text)
		}
	}
	return toks, nil, true
}

var glslangErr = regexp.MustCompile(`(?m)^ERROR: ([^: ]+:\d+):`)

func TestAgainstGlslang(t *testing.T) {
	tool := reftool.Path("glslangValidator")
	if tool == "" || testing.Short() {
		t.Skip("glslangValidator not found, or -short")
	}
	dir := t.TempDir()
	for name, text := range includeFiles {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := Options{
		IncludeDirs: []string{"inc"},
		ReadFile:    func(path string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, path)) },
	}
	for _, c := range glslangCases {
		src := "#version 450\n" + c
		if strings.HasPrefix(c, "#version") || strings.HasPrefix(c, "int a;\n#version") {
			src = c
		}
		want, wantErr, ok := glslangRun(t, tool, dir, src)
		d := &diag.List{}
		r := Preprocess("t.comp", []byte(src), opts, d)
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
			t.Errorf("%q: glslang rejects at %v, we accept", c, wantErr)
			continue
		}
		found := len(wantErr) == 0 // glslang gave no position
		for _, dg := range d.Diags {
			if dg.Sev == diag.Error && !found && dg.Pos.File+":"+strconv.Itoa(dg.Pos.Line) == wantErr[0] {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: glslang's first error is at %v; ours:\n%v", c, wantErr, d)
		}
	}
}

// TestCorpusAgainstGlslang compares the tokens of every corpus shader
// with glslangValidator -E's.
func TestCorpusAgainstGlslang(t *testing.T) {
	tool := reftool.Path("glslangValidator")
	if tool == "" || testing.Short() {
		t.Skip("glslangValidator not found, or -short")
	}
	dir := corpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.comp"))
	same, rejected := 0, 0
	for _, f := range files {
		cmd := exec.Command(tool, "-E", filepath.Base(f))
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			rejected++
			continue
		}
		var kept []string
		for _, l := range strings.Split(string(out), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(l), "#") {
				kept = append(kept, l)
			}
		}
		// glslang -E drops string literals unless an extension allows
		// them, so strings are left out of the comparison.
		var want []string
		for _, tk := range scan([]byte(strings.Join(kept, "\n")), "", discard{}) {
			if tk.Kind != token.EOF && tk.Kind != token.String {
				want = append(want, tk.Text)
			}
		}
		src, _ := os.ReadFile(f)
		r := Preprocess(f, src, Options{}, &diag.List{})
		var got []string
		for _, tk := range r.Tokens[:len(r.Tokens)-1] {
			if tk.Kind != token.String {
				got = append(got, tk.Text)
			}
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: tokens differ from glslang -E", filepath.Base(f))
			continue
		}
		same++
	}
	t.Logf("%d corpus shaders give glslang's tokens; %d rejected by glslang -E", same, rejected)
}

package pp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	if n := len(r.Tokens); n == 0 || r.Tokens[n-1].Kind != token.EOF {
		t.Fatalf("%q: tokens do not end with EOF", src)
	}
	var parts []string
	for _, tk := range r.Tokens[:len(r.Tokens)-1] {
		parts = append(parts, tk.Text)
	}
	return strings.Join(parts, " "), d
}

func TestScanner(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a<<=b>>=c++&&d^^e--||f", "a <<= b >>= c ++ && d ^^ e -- || f"},
		{"a==b!=c<=d>=e+=f-=g*=h/=i%=j&=k|=l^=m", "a == b != c <= d >= e += f -= g *= h /= i %= j &= k |= l ^= m"},
		{"a<<b>>c<d>e", "a << b >> c < d > e"},
		{"x[[y]]", "x [ [ y ] ]"},
		{"{}();,.:?~!=+-*/%&|^", "{ } ( ) ; , . : ? ~ != + - * / % & | ^"},
		{"a/*c*/b//d\ne", "a b e"},
		{"a/**/b/*\n*/c", "a b c"},
		{"a\\\nb", "ab"},
		{"a\\\r\nb", "ab"},
		{"_x1 X_2", "_x1 X_2"},
		{`debugPrintfEXT("a\"b\\", x)`, `debugPrintfEXT ( "a\"b\\" , x )`},
	}
	for _, tc := range tests {
		got, d := texts(t, tc.src, Options{})
		if d.HasErrors() || got != tc.want {
			t.Errorf("%q: got %q (%v), want %q", tc.src, got, d, tc.want)
		}
	}
}

func TestNumbers(t *testing.T) {
	ints := "1 0 1u 1U 1l 1L 1ul 1UL 1s 1S 1us 1US 0x1F 0X1fu 0xABCDEFul 017 0777u"
	floats := "1.0 1. .5 1e3 1E-3 1.5e+3 1.0f 1.0F 1.0lf 1.0LF 1.0hf 1.0HF 2e3f 5f 1.5bf"
	for _, c := range []struct {
		src  string
		kind token.Kind
	}{{ints, token.IntLit}, {floats, token.FloatLit}} {
		d := &diag.List{}
		r := Preprocess("t", []byte(c.src), Options{}, d)
		words := strings.Fields(c.src)
		if d.HasErrors() || len(r.Tokens) != len(words)+1 {
			t.Fatalf("%q: %d tokens, %v", c.src, len(r.Tokens), d)
		}
		for i, w := range words {
			if tk := r.Tokens[i]; tk.Text != w || tk.Kind != c.kind {
				t.Errorf("%q scanned as %v %q", w, tk.Kind, tk.Text)
			}
		}
	}
	// "1.e" has no exponent digits: the e is a suffix for the parser to reject.
	got, _ := texts(t, "1.e 1e+ x.5", Options{})
	if got != "1.e 1e + x .5" {
		t.Errorf("got %q", got)
	}
}

func TestPositions(t *testing.T) {
	d := &diag.List{}
	src := "#define M a +\nx\n  M b\n/* c\n */ y \\\n z\n\tw"
	r := Preprocess("f.comp", []byte(src), Options{}, d)
	want := []string{"x@f.comp:2:1", "a@f.comp:3:3", "+@f.comp:3:3", "b@f.comp:3:5", "y@f.comp:5:5", "z@f.comp:6:2", "w@f.comp:7:2", "@f.comp:7:3"}
	var got []string
	for _, tk := range r.Tokens {
		got = append(got, tk.Text+"@"+tk.Pos.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestMacros(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"object", "#define N 16\nint a[N];", "int a [ 16 ] ;"},
		{"empty", "#define E\na E b", "a b"},
		{"function", "#define ADD(a, b) ((a) + (b))\nADD(1, x*2)", "( ( 1 ) + ( x * 2 ) )"},
		{"nestedParens", "#define F(a, b) b a\nF((1,2), [3])", "[ 3 ] ( 1 , 2 )"},
		{"noParams", "#define F() z\nF() F( )", "z z"},
		{"argsAcrossLines", "#define F(x) x\nF(\n1\n)", "1"},
		{"nameWithoutArgs", "#define F(x) x\nF + F", "F + F"},
		{"spaceBeforeParen", "#define F (x) x\nF", "( x ) x"},
		{"chain", "#define A B\n#define B 3\nA", "3"},
		{"selfRef", "#define X X + 1\nX", "X + 1"},
		{"mutual", "#define X Y\n#define Y X\nX Y", "X Y"},
		{"argPreExpanded", "#define N 4\n#define F(x) x*x\nF(N)", "4 * 4"},
		{"rescan", "#define f(x) x f\nf(1)(2)", "1 f ( 2 )"},
		{"rescanOuter", "#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)", "2 * 9 * g"},
		{"paintedStays", "#define F(x) x\nF(F)(1)", "F ( 1 )"},
		{"nameFromMacro", "#define G F\n#define F(x) [x]\nG(1)", "[ 1 ]"},
		{"paste", "#define CAT(a,b) a##b\nCAT(foo, 1) CAT(+, =) CAT(<<, =) CAT(a, _b)", "foo1 += <<= a_b"},
		{"pasteNoExpand", "#define N 4\n#define CAT(a,b) a##b\nCAT(N, 2)", "N2"},
		{"pasteRescan", "#define AB 7\n#define CAT(a,b) a##b\nCAT(A, B)", "7"},
		{"pasteEmptyRight", "#define CAT(a,b) [a##b]\nCAT(q, )", "[ q ]"},
		{"stringize", "#define S(x) #x\nS(a  +\tb) S(\"q\\\\\")", `"a + b" "\"q\\\\\""`},
		{"undef", "#define A 1\n#undef A\nA", "A"},
		{"undefUnknown", "#undef NEVER\nok", "ok"},
		{"redefineSame", "#define A 1 +  2\n#define A 1 + 2\nA", "1 + 2"},
		{"line", "a\n__LINE__\n#define L __LINE__\nL", "a 2 4"},
		{"lineInArgs", "#define F(x) x __LINE__\nF(\n1\n)", "1 4"},
		{"lineOwnInArgs", "#define F(x) x\nF(__LINE__\n\n)", "2"},
		{"lineNested", "#define L(x) __LINE__ x\nL(\nL(a\n)\n)", "5 5 a"},
		{"version", "#version 450\n__VERSION__", "450"},
		{"noVersion", "__VERSION__", "100"},
		{"definedBuiltin", "#if defined(__LINE__) && defined __FILE__\ny\n#endif", "y"},
		{"extensionMacro", "GL_KHR_cooperative_matrix GL_EXT_shader_explicit_arithmetic_types_float16 GL_NV_cooperative_matrix2", "1 1 1"},
		{"notPredefined", "GL_NV_cooperative_vector GL_EXT_long_vector GL_ARM_tensors", "GL_NV_cooperative_vector GL_EXT_long_vector GL_ARM_tensors"},
		{"from460", "#version 460\nGL_ARM_tensors GL_ARM_tensors_float_e5m2", "1 1"},
		{"spirv", "GL_SPIRV GL_COMPUTE_SHADER", "100 1"},
		{"core", "#version 450\nGL_core_profile GL_ES", "1 GL_ES"},
		{"es", "#version 310 es\nGL_core_profile GL_ES", "GL_core_profile 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, d := texts(t, tc.src, Options{})
			if d.HasErrors() {
				t.Fatalf("errors: %v", d)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestConditionals(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"ifdef", "#define A\n#ifdef A\nyes\n#else\nno\n#endif", "yes"},
		{"ifndef", "#ifndef A\nyes\n#endif", "yes"},
		{"if", "#if 1 + 2 * 3 == 7 && defined(GL_SPIRV)\nyes\n#elif 1\nno\n#endif", "yes"},
		{"elif", "#if 0\na\n#elif 2 > 1\nb\n#else\nc\n#endif", "b"},
		{"else", "#if 0\na\n#elif 0\nb\n#else\nc\n#endif", "c"},
		{"nestedFalse", "#if 0\n#if 1\na\n#endif\n#else\nb\n#endif", "b"},
		{"skippedGarbage", "#if 0\n#if (((\n#bogus\n#error no\n#elif 1/0\n#endif\n#endif\nok", "ok"},
		{"elifAfterTaken", "#if 1\na\n#elif 1/0\nb\n#endif", "a"},
		{"definedForms", "#define X\n#if defined X && !defined(Y) && defined ( X )\ny\n#endif", "y"},
		{"undefinedIsZero", "#if UNDEFINED || UNDEFINED + 1 == 1\ny\n#endif", "y"},
		{"macroInIf", "#define N 3\n#define F(x) x+1\n#if F(N) == 4\ny\n#endif", "y"},
		{"operators", "#if -1 < 0 && ~0 == -1 && !0 && (7 >> 1) == 3 && (1 << 4) == 16 && (5 ^ 3) == 6 && (5 | 2) == 7 && (6 & 3) == 2 && +2 == 2\ny\n#endif", "y"},
		{"arith", "#if 7 / 2 == 3 && 7 % 2 == 1 && -7 / 2 == -3 && 2 * 3 - 1 == 5 && 1 != 2 && 2 >= 2 && 1 <= 1 && 2 > 1\ny\n#endif", "y"},
		{"radix", "#if 0x10 == 16 && 010 == 8 && 0XfF == 255\ny\n#endif", "y"},
		{"wrap32", "#if 2147483647 + 1 < 0 && (-2147483647 - 1) / -1 < 0\ny\n#endif", "y"},
		{"precedence", "#if 1 || 0 && 0\ny\n#endif\n#if (1 | 2 ^ 3 & 4) == 3\nz\n#endif", "y z"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, d := texts(t, tc.src, Options{})
			if d.HasErrors() {
				t.Fatalf("errors: %v", d)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestErrors checks each error's glslang-style text and line.
func TestErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"error", "#error bad  thing", "t.comp:1: '#error' : bad thing"},
		{"errorEmpty", "#error\n", "t.comp:2: '#error' : "},
		{"divZero", "#if 1/0\n#endif", "t.comp:1: 'preprocessor evaluation' : division by 0"},
		{"modZero", "#if 1%0\n#endif", "division by 0"},
		{"divZeroShortCircuit", "#if 0 && 1/0\n#endif", "division by 0"},
		{"badExpr", "#if 1 +\n#endif", "t.comp:2: 'preprocessor evaluation' : bad expression"},
		{"emptyIf", "#if\n#endif", "t.comp:2: 'preprocessor evaluation' : bad expression"},
		{"unsignedInIf", "#if 1u\n#endif", "t.comp:1: 'preprocessor evaluation' : bad expression"},
		{"floatInIf", "#if 1.0\n#endif", "bad expression"},
		{"ternary", "#if 1 ? 2 : 3\n#endif", "t.comp:1: '#if' : unexpected tokens following directive"},
		{"paren", "#if (1\n#endif", "t.comp:1: 'preprocessor evaluation' : expected ')'"},
		{"definedNoName", "#if defined\n#endif", "'preprocessor evaluation' : incorrect directive, expected identifier"},
		{"definedNoParen", "#if defined(A\n#endif", "expected ')'"},
		{"definedFromMacro", "#define D defined(A)\n#if D\n#endif", "t.comp:2: 'defined' : cannot use in preprocessor expression when expanded from macros"},
		{"esUndefined", "#version 310 es\n#if FOO\n#endif", "t.comp:2: 'FOO' : undefined macro in expression not allowed in es profile"},
		{"missingEndif", "#if 1\n\n", "t.comp:3: '' : missing #endif"},
		{"endif", "#endif", "'#endif' : without matching #if"},
		{"else", "#else", "without matching #if"},
		{"elif", "#elif 1", "without matching #if"},
		{"elseElse", "#if 1\n#else\n#else\n#endif", "'#else' : #else after #else"},
		{"elifElse", "#if 1\n#else\n#elif 1\n#endif", "#elif after #else"},
		{"endifJunk", "#if 1\n#endif x", "'#endif' : unexpected tokens following directive"},
		{"ifdefNoName", "#ifdef\n#endif", "t.comp:2: '#ifdef' : must be followed by macro name"},
		{"ifdefJunk", "#ifdef A B\n#endif", "unexpected tokens following directive"},
		{"versionLate", "int a;\n#version 450", "t.comp:2: '#version' : must occur first in shader"},
		{"versionTwice", "#version 450\n#version 450", "must occur first in shader"},
		{"versionBad", "#version 451", "version not supported: 451"},
		{"versionProfile", "#version 450 foo", "bad profile name"},
		{"versionNeedsES", "#version 310", "versions 300, 310, and 320 require specifying the 'es' profile"},
		{"versionMissing", "#version\n", "t.comp:2: '#version' : must be followed by version number"},
		{"fewArgs", "#define F(a,b) a\nF(1)", "t.comp:2: 'macro expansion' : Too few args in Macro F"},
		{"emptyArgs", "#define F(a) a\nF()", "Too few args in Macro F"},
		{"manyArgs", "#define F(a) a\nF(1,2)", "Too many args in macro F"},
		{"eofArgs", "#define F(a) a\nF(1", "End of input in macro F"},
		{"directiveInArgs", "#define F(a) a\nF(\n#define Q\n)", "t.comp:3: 'macro expansion' : unexpected '#' F"},
		{"redefine", "#define A 1\n#define A 2", "Macro redefined; different substitutions: A"},
		{"redefineParams", "#define F(x) x\n#define F(y) y", "Macro redefined"},
		{"glPrefix", "#define GL_FOO 1", "names beginning with \"GL_\" can't be (un)defined: GL_FOO"},
		{"undefGL", "#undef GL_SPIRV", "names beginning with \"GL_\" can't be (un)defined"},
		{"defineDefined", "#define defined 1", "\"defined\" can't be (un)defined"},
		{"esBuiltin", "#version 310 es\n#define __LINE__ 1", "predefined names can't be (un)defined: __LINE__"},
		{"esOld", "#version 100\n#define __X 1", "and an error if version < 300"},
		{"defineNoName", "#define\n", "t.comp:2: '#define' : must be followed by macro name"},
		{"defineNumber", "#define 3", "must be followed by macro name"},
		{"dupParam", "#define F(x,x) x", "duplicate macro parameter"},
		{"badParam", "#define F(1) x", "bad argument"},
		{"openParams", "#define F(x\n", "t.comp:2: '#define' : missing parenthesis"},
		{"hashNoParam", "#define B a # b", "'#' : '#' is not followed by a macro parameter."},
		{"pasteAtEnd", "#define P(a) a ##", "'##' cannot appear at either end"},
		{"pasteEmptyLeft", "#define CAT(a,b) a##b\nCAT(, q)", "'##' : unexpected location"},
		{"pasteBad", "#define CAT(a,b) a##b\nCAT(+, /)", "'##' : not supported for these tokens"},
		{"pasteNumber", "#define CAT(a,b) a##b\nCAT(1, 2)", "'##' : not supported for these tokens"},
		{"functionNameInIf", "#define F(x) x\n#if F\n#endif", "t.comp:2: 'preprocessor evaluation' : can't evaluate expression"},
		{"undefNoName", "#undef\n", "t.comp:2: '#undef' : must be followed by macro name"},
		{"undefTwo", "#undef A B", "can only be followed by a single macro name"},
		{"badDirective", "#foo", "'#' : invalid directive: foo"},
		{"strayHash", "a # b", "preprocessor directive cannot be preceded by another token"},
		{"strayPaste", "a ## b", "preprocessor directive cannot be preceded by another token"},
		{"extNoName", "#extension\n", "t.comp:2: '#extension' : extension name not specified"},
		{"extNoColon", "#extension GL_KHR_cooperative_matrix\n", "':' missing after extension name"},
		{"extNoBehavior", "#extension GL_KHR_cooperative_matrix :\n", "behavior for extension not specified"},
		{"extBadBehavior", "#extension GL_KHR_cooperative_matrix : maybe", "behavior not supported: maybe"},
		{"extJunk", "#extension GL_KHR_cooperative_matrix : enable x", "extra tokens -- expected newline"},
		{"extAllEnable", "#extension all : enable", "extension 'all' cannot have 'require' or 'enable' behavior"},
		{"requireUnknown", "#extension GL_FOO_bar : require", "t.comp:1: '#extension' : extension not supported: GL_FOO_bar"},
		{"lineEmpty", "#line\n", "t.comp:2: '#line' : must be followed by an integral literal"},
		{"lineJunk", "#line 9 3 4\n", "t.comp:8: '#line' : unexpected tokens following directive"},
		{"lineFileName", "#line 9 \"x.h\"", "'filename-based #line' : required extension not requested: GL_GOOGLE_cpp_style_line_directive"},
		{"fileName", "__FILE__", "'filename-based __FILE__' : required extension not requested"},
		{"includeOff", "#include \"x.h\"", "'#include' : required extension not requested: GL_GOOGLE_include_directive"},
		{"includeDisabled", "#extension GL_GOOGLE_include_directive : enable\n#extension all : disable\n#include \"x.h\"", "required extension not requested"},
		{"includeMissing", "#extension GL_GOOGLE_include_directive : enable\n#include \"nope.h\"", "t.comp:2: '#include' : Could not process include directive for header name: nope.h"},
		{"includeNoName", "#extension GL_GOOGLE_include_directive : enable\n#include\n", "t.comp:3: '#include' : must be followed by a header name"},
		{"includeMacro", "#extension GL_GOOGLE_include_directive : enable\n#define H \"a.h\"\n#include H", "must be followed by a header name"},
		{"includeJunk", "#extension GL_GOOGLE_include_directive : enable\n#include \"a.h\" x", "extra content after header name: a.h"},
		{"includeOpenAngle", "#extension GL_GOOGLE_include_directive : enable\n#include <a.h", "must be followed by a header name"},
		{"comment", "a /* never closed", "t.comp:1: '/*' : end of input in comment"},
		{"string", "\"abc\nx", "t.comp:1: '\"abc' : end of line in string"},
		{"char", "a @ b", "t.comp:1: '@' : unexpected character"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, d := texts(t, tc.src, Options{ReadFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }})
			if !d.HasErrors() || !strings.Contains(d.Error(), tc.want) {
				t.Errorf("got %q, want an error containing %q", d.Error(), tc.want)
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct{ src, want string }{
		{"#define __X 1", "WARNING: t.comp:1: '#define' : names containing consecutive underscores are reserved: __X"},
		{"#undef a__b", "names containing consecutive underscores are reserved: a__b"},
		{"#extension GL_FOO_bar : enable", "WARNING: t.comp:1: '#extension' : extension not supported: GL_FOO_bar"},
		{"#extension GL_FOO_bar : disable", "extension not supported"},
		{"#pragma once", "'#pragma once' : not implemented"},
		{"#extension GL_GOOGLE_cpp_style_line_directive : warn\n#line 3 \"f\"", "extension GL_GOOGLE_cpp_style_line_directive is being used for filename-based #line"},
	}
	for _, tc := range tests {
		_, d := texts(t, tc.src, Options{})
		if d.HasErrors() || !strings.Contains(d.Error(), tc.want) {
			t.Errorf("%q: got %q, want only a warning containing %q", tc.src, d.Error(), tc.want)
		}
	}
	// Defining a built-in name only warns, and changes nothing.
	got, d := texts(t, "#define __LINE__ 7\n#undef __VERSION__\n__LINE__ __VERSION__", Options{})
	if d.HasErrors() || got != "3 100" {
		t.Errorf("got %q, %v", got, d)
	}
}

func TestLine(t *testing.T) {
	d := &diag.List{}
	src := "#line 10\na\n#line 20 3\nb __LINE__ __FILE__\n#line 0x10 + 1\nc"
	r := Preprocess("t.comp", []byte(src), Options{}, d)
	var got []string
	for _, tk := range r.Tokens[:len(r.Tokens)-1] {
		got = append(got, tk.Text+"@"+tk.Pos.File+":"+strconv.Itoa(tk.Pos.Line))
	}
	want := []string{"a@t.comp:10", "b@3:20", "20@3:20", "3@3:20", "c@3:17"}
	if d.HasErrors() || !slices.Equal(got, want) {
		t.Errorf("got %v (%v), want %v", got, d, want)
	}
	got2, d := texts(t, "#extension GL_GOOGLE_cpp_style_line_directive : enable\n__FILE__\n#line 5 \"n.glsl\"\n__FILE__ __LINE__", Options{})
	if d.HasErrors() || got2 != `"t.comp" "n.glsl" 5` {
		t.Errorf("got %q, %v", got2, d)
	}
	got3, _ := texts(t, "#line 7 2\n__FILE__", Options{})
	if got3 != "2" {
		t.Errorf("got %q", got3)
	}
	if got, _ := texts(t, "#define L 12\n#line L\n__LINE__ __FILE__", Options{}); got != "12 \"t.comp\"" {
		t.Errorf("got %q", got)
	}
	d = &diag.List{}
	Preprocess("t.comp", []byte("#line 10\n#error here"), Options{}, d)
	if !strings.Contains(d.Error(), "t.comp:10: '#error' : here") {
		t.Errorf("got %q", d.Error())
	}
}

func TestResult(t *testing.T) {
	src := "// lead comment\n#version 460 core\n#extension GL_KHR_cooperative_matrix : require\n#extension GL_EXT_bfloat16 : enable\n#extension all : warn\n#pragma optimize(off)\n#pragma STDGL invariant(all)\nx"
	d := &diag.List{}
	r := Preprocess("t", []byte(src), Options{}, d)
	if d.HasErrors() {
		t.Fatal(d)
	}
	if r.Version != 460 || r.Profile != "core" || !r.HasVersion || r.VersionPos.Line != 2 {
		t.Errorf("version %d %q %v %v", r.Version, r.Profile, r.HasVersion, r.VersionPos)
	}
	wantExt := []Extension{
		{token.Pos{File: "t", Line: 3, Col: 2}, "GL_KHR_cooperative_matrix", Require},
		{token.Pos{File: "t", Line: 4, Col: 2}, "GL_EXT_bfloat16", Enable},
		{token.Pos{File: "t", Line: 5, Col: 2}, "all", Warn},
	}
	if !slices.Equal(r.Extensions, wantExt) {
		t.Errorf("extensions %+v", r.Extensions)
	}
	if len(r.Pragmas) != 2 || r.Pragmas[0].Pos.Line != 6 || len(r.Pragmas[1].Tokens) != 5 || r.Pragmas[1].Tokens[0].Text != "STDGL" {
		t.Errorf("pragmas %+v", r.Pragmas)
	}
	if r2 := Preprocess("t", []byte("x"), Options{}, &diag.List{}); r2.Version != 100 || r2.HasVersion {
		t.Errorf("default version %d", r2.Version)
	}
}

func TestOptions(t *testing.T) {
	opts := Options{Defines: []Define{{"A", "7"}, {"B", "1"}, {"E", ""}, {"F", "(x) + 1"}}, Undefs: []string{"B", "GL_SPIRV"}}
	got, d := texts(t, "A B [E] F GL_SPIRV VULKAN", opts)
	if d.HasErrors() || got != "7 B [ ] ( x ) + 1 GL_SPIRV VULKAN" {
		t.Errorf("got %q, %v", got, d)
	}
	got, _ = texts(t, "VULKAN", Options{Vulkan: true})
	if got != "100" {
		t.Errorf("VULKAN: got %q", got)
	}
	// As in glslangValidator, -D X=1 -D X=2 redefines X; repeating a
	// definition unchanged is fine.
	if _, d := texts(t, "X", Options{Defines: []Define{{"X", "1"}, {"Y", "2"}, {"Y", "2"}, {"X", "2"}}}); !strings.Contains(d.Error(), "<command line>:4: '#define' : Macro redefined; different substitutions: X") {
		t.Errorf("redefined -D: %v", d)
	}
}

// memFS serves includes from a map, recording the paths asked for.
type memFS struct {
	files map[string]string
	asked []string
}

func (m *memFS) read(path string) ([]byte, error) {
	m.asked = append(m.asked, path)
	if s, ok := m.files[path]; ok {
		return []byte(s), nil
	}
	return nil, fs.ErrNotExist
}

func TestInclude(t *testing.T) {
	m := &memFS{files: map[string]string{
		"dir/local.h":      "local __LINE__\n#include \"sub/nested.h\"\n",
		"dir/sub/nested.h": "nested __FILE__\n#include \"up.h\"",
		"dir/up.h":         "up",
		"inc/sys.h":        "#define SYS 5\nsys",
		"inc2/other.h":     "other",
	}}
	src := "#extension GL_GOOGLE_include_directive : require\n#include \"local.h\"\n#include <sys.h>\n#include \"other.h\"\nSYS end __LINE__"
	d := &diag.List{}
	r := Preprocess("dir/main.comp", []byte(src), Options{IncludeDirs: []string{"inc", "inc2"}, ReadFile: m.read}, d)
	if d.HasErrors() {
		t.Fatal(d)
	}
	var got []string
	for _, tk := range r.Tokens[:len(r.Tokens)-1] {
		got = append(got, tk.Text+"@"+tk.Pos.File+":"+strconv.Itoa(tk.Pos.Line))
	}
	want := []string{"local@dir/local.h:1", "1@dir/local.h:1", "nested@dir/sub/nested.h:1", `"dir/sub/nested.h"@dir/sub/nested.h:1`,
		"up@dir/up.h:1", "sys@inc/sys.h:2", "other@inc2/other.h:1", "5@dir/main.comp:5", "end@dir/main.comp:5", "5@dir/main.comp:5"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	wantIncl := []string{"dir/local.h", "dir/sub/nested.h", "dir/up.h", "inc/sys.h", "inc2/other.h"}
	if !slices.Equal(r.Includes, wantIncl) {
		t.Errorf("includes %v", r.Includes)
	}
	// Quoted names search the includers' directories, innermost first,
	// then -I; angled names only -I.
	wantAsked := []string{"dir/local.h", "dir/sub/nested.h", "dir/sub/up.h", "dir/up.h", "inc/sys.h", "dir/other.h", "inc/other.h", "inc2/other.h"}
	if !slices.Equal(m.asked, wantAsked) {
		t.Errorf("asked %v\nwant  %v", m.asked, wantAsked)
	}
}

func TestIncludeErrors(t *testing.T) {
	m := &memFS{files: map[string]string{
		"./self.h": "#include \"self.h\"\n",
		"./err.h":  "a\n#error in header\n",
		"./if.h":   "#if 1\n",
	}}
	opts := Options{ReadFile: m.read}
	pre := "#extension GL_ARB_shading_language_include : enable\n"
	_, d := texts(t, pre+"#include \"self.h\"", opts)
	if !strings.Contains(d.Error(), "includes nested too deeply") || d.ErrorCount() != 1 {
		t.Errorf("self include: %v", d)
	}
	_, d = texts(t, pre+"#include \"err.h\"", opts)
	if !strings.Contains(d.Error(), "ERROR: ./err.h:2: '#error' : in header") {
		t.Errorf("error in header: %v", d)
	}
	got, d := texts(t, pre+"#include \"if.h\"\n#endif\nz", opts)
	if d.HasErrors() || got != "z" {
		t.Errorf("conditional across files: %q %v", got, d)
	}
	_, d = texts(t, pre+"#if 0\n#include \"nope.h\"\n#endif", opts)
	if d.HasErrors() {
		t.Errorf("skipped include: %v", d)
	}
}

func TestIncludeFromDisk(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "h.glsl"), []byte("from_disk"), 0o644); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.comp")
	d := &diag.List{}
	r := Preprocess(main, []byte("#extension GL_GOOGLE_include_directive : enable\n#include \"h.glsl\""), Options{}, d)
	if d.HasErrors() || r.Tokens[0].Text != "from_disk" || r.Tokens[0].Pos.File != dir+"/h.glsl" {
		t.Fatalf("%v %+v", d, r.Tokens[0])
	}
}

func TestLimits(t *testing.T) {
	// Exponential macro growth is cut off with an error, not a hang.
	var b strings.Builder
	for c := 'A'; c < 'Z'; c++ {
		b.WriteString("#define " + string(c) + " " + string(c+1) + " " + string(c+1) + "\n")
	}
	b.WriteString("A")
	_, d := texts(t, b.String(), Options{})
	if !strings.Contains(d.Error(), "too many macro expansions") {
		t.Fatalf("runaway expansion: %v", d)
	}
	// So is growth through arguments.
	_, d = texts(t, "#define F(x) x x x x x x x x\n#define G(x) F(F(F(F(x))))\nG(G(G(1)))", Options{})
	if !d.HasErrors() {
		t.Fatal("want an error for runaway argument growth")
	}
	// Errors stay bounded when MaxErrors is set.
	d = &diag.List{MaxErrors: 5}
	Preprocess("t", []byte(strings.Repeat("@", 1000)), Options{}, d)
	if len(d.Diags) != 5 || d.ErrorCount() != 1000 {
		t.Fatalf("%d diags, %d errors", len(d.Diags), d.ErrorCount())
	}
}

// TestIncludeLimits: a file including itself twice (2^64 includes
// unbounded) and a header included many times are stopped with one error
// each.
func TestIncludeLimits(t *testing.T) {
	m := &memFS{files: map[string]string{
		"./twice.h": "#include \"twice.h\"\n#include \"twice.h\"\n",
		"./wide.h":  strings.Repeat("#include \"leaf.h\"\n", 100),
		"./leaf.h":  "x\n",
	}}
	opts := Options{ReadFile: m.read}
	pre := "#extension GL_GOOGLE_include_directive : enable\n"
	_, d := texts(t, pre+"#include \"twice.h\"", opts)
	if !strings.Contains(d.Error(), "includes nested too deeply") || d.ErrorCount() != 1 {
		t.Errorf("self include twice: %v", d)
	}
	_, d = texts(t, pre+strings.Repeat("#include \"wide.h\"\n", 200), opts)
	if !strings.Contains(d.Error(), "too many includes (more than 16384 in all)") || d.ErrorCount() != 1 {
		t.Errorf("many includes: %v", d)
	}
}

// TestTextLimit: a macro doubling one token's text through ## at each
// level (28 levels, 2^28 bytes) is stopped by the bound on text bytes,
// though it makes few tokens and expansions.
func TestTextLimit(t *testing.T) {
	src := "#define P(a) a##a\n#define Q(a) P(a)\n#define Q2(a) Q(Q(a))\n#define Q4(a) Q2(Q2(a))\n" +
		"#define Q8(a) Q4(Q4(a))\n#define Q16(a) Q8(Q8(a))\nint Q16(Q8(Q4(x)));\n"
	_, d := texts(t, src, Options{})
	if !strings.Contains(d.Error(), "t.comp:7: '' : preprocessed text too large (more than 67108864 bytes)") || d.ErrorCount() != 1 {
		t.Fatalf("doubling paste: %v", d)
	}
}

func TestReadFileError(t *testing.T) {
	opts := Options{ReadFile: func(string) ([]byte, error) { return nil, errors.New("denied") }}
	_, d := texts(t, "#extension GL_GOOGLE_include_directive : enable\n#include <x.h>", opts)
	if !strings.Contains(d.Error(), "Could not process include directive for header name: x.h") {
		t.Fatal(d)
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

// TestCorpus preprocesses every shader the manifest marks pos: none may
// have an error.
func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	n, failed, toks := 0, 0, 0
	for _, line := range strings.Split(string(man), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 || f[1] != "pos" {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, f[0]))
		if err != nil {
			t.Errorf("%s: %v", f[0], err)
			continue
		}
		n++
		d := &diag.List{}
		r := Preprocess(filepath.Join(dir, f[0]), src, Options{Vulkan: true}, d)
		toks += len(r.Tokens)
		if d.HasErrors() {
			failed++
			t.Errorf("%s: %v", f[0], d)
		}
	}
	if n == 0 {
		t.Fatal("no pos shaders in the manifest")
	}
	t.Logf("%d pos corpus shaders preprocessed (%d tokens), %d with errors", n, toks, failed)
}

// BenchmarkPreprocess preprocesses every corpus shader once per iteration.
func BenchmarkPreprocess(b *testing.B) {
	dir := corpusDir(b)
	files, _ := filepath.Glob(filepath.Join(dir, "*.comp"))
	var srcs [][]byte
	total := 0
	for _, f := range files {
		s, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, s)
		total += len(s)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range srcs {
			Preprocess("b.comp", s, Options{Vulkan: true}, &diag.List{})
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(srcs))/1e3, "µs/shader")
}

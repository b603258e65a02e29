package syntax

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/glsl/token"
	"github.com/coopshader/coop/internal/fuzzwatch"
)

func parse(t testing.TB, src string) (*File, *diag.List) {
	t.Helper()
	d := &diag.List{}
	r := pp.Preprocess("t.comp", []byte(src), pp.Options{Vulkan: true}, d)
	return Parse(r.Tokens, d), d
}

func mustParse(t *testing.T, src string) *File {
	t.Helper()
	f, d := parse(t, src)
	if d.HasErrors() {
		t.Fatalf("unexpected errors in %q:\n%v", src, d)
	}
	return f
}

// body parses src as the body of main and returns its statements.
func body(t *testing.T, src string) []Stmt {
	t.Helper()
	f := mustParse(t, "void main() {\n"+src+"\n}")
	return f.Decls[len(f.Decls)-1].(*FuncDecl).Body.Stmts
}

// sexpr renders an expression fully parenthesised, to check precedence
// and associativity.
func sexpr(e Expr) string {
	switch e := e.(type) {
	case *Ident:
		return e.Name
	case *Lit:
		return e.Text
	case *StringLit:
		return fmt.Sprintf("%q", e.Value)
	case *Unary:
		if e.Postfix {
			return "(" + sexpr(e.X) + e.Op + ")"
		}
		return "(" + e.Op + sexpr(e.X) + ")"
	case *Binary:
		return "(" + sexpr(e.X) + " " + e.Op + " " + sexpr(e.Y) + ")"
	case *Assign:
		return "(" + sexpr(e.L) + " " + e.Op + " " + sexpr(e.R) + ")"
	case *Cond:
		return "(" + sexpr(e.C) + " ? " + sexpr(e.T) + " : " + sexpr(e.F) + ")"
	case *Call:
		name := e.Func
		if e.Type != nil {
			name = typeString(e.Type)
		}
		return name + "(" + exprList(e.Args) + ")"
	case *MethodCall:
		return sexpr(e.X) + "." + e.Name + "(" + exprList(e.Args) + ")"
	case *Index:
		return sexpr(e.X) + "[" + sexpr(e.Index) + "]"
	case *Field:
		return sexpr(e.X) + "." + e.Name
	case *InitList:
		return "{" + exprList(e.Elems) + "}"
	}
	return fmt.Sprintf("?%T", e)
}

func exprList(es []Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = sexpr(e)
	}
	return strings.Join(s, ", ")
}

func typeString(ts *TypeSpec) string {
	s := ts.Name
	if ts.Struct != nil {
		s = "struct " + ts.Struct.Name
	}
	if ts.Params != nil {
		ps := make([]string, len(ts.Params))
		for i, a := range ts.Params {
			if a.Type != nil {
				ps[i] = "T:" + typeString(a.Type)
			} else {
				ps[i] = sexpr(a.Expr)
			}
		}
		s += "<" + strings.Join(ps, ", ") + ">"
	}
	for _, a := range ts.ArraySizes {
		s += arrayString(a)
	}
	return s
}

func arrayString(a *ArraySize) string {
	if a.Size == nil {
		return "[]"
	}
	return "[" + sexpr(a.Size) + "]"
}

func TestExpressions(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a + b * c", "(a + (b * c))"},
		{"a * b + c", "((a * b) + c)"},
		{"a - b - c", "((a - b) - c)"},
		{"a / b % c", "((a / b) % c)"},
		{"a << 1 + b", "(a << (1 + b))"},
		{"a < b << c", "(a < (b << c))"},
		{"a == b < c", "(a == (b < c))"},
		{"a & b == c", "(a & (b == c))"},
		{"a ^ b & c", "(a ^ (b & c))"},
		{"a | b ^ c", "(a | (b ^ c))"},
		{"a && b | c", "(a && (b | c))"},
		{"a ^^ b && c", "(a ^^ (b && c))"},
		{"a || b ^^ c", "(a || (b ^^ c))"},
		{"a || b ? c : d", "((a || b) ? c : d)"},
		{"a ? b : c ? d : e", "(a ? b : (c ? d : e))"},
		{"a ? b, c : d", "(a ? (b , c) : d)"},
		{"a ? b : c = d", "(a ? b : (c = d))"},
		{"a = b = c", "(a = (b = c))"},
		{"a += b -= c", "(a += (b -= c))"},
		{"a *= 2, b /= 3", "((a *= 2) , (b /= 3))"},
		{"a %= 1, b <<= 1, c >>= 1, d &= 1, e |= 1, f ^= 1", "((((((a %= 1) , (b <<= 1)) , (c >>= 1)) , (d &= 1)) , (e |= 1)) , (f ^= 1))"},
		{"a <= b != c >= d", "((a <= b) != (c >= d))"},
		{"a > b >> 2", "(a > (b >> 2))"},
		{"-a * b", "((-a) * b)"},
		{"- -a", "(-(-a))"},
		{"!~+a", "(!(~(+a)))"},
		{"++a--", "(++(a--))"},
		{"-a++", "(-(a++))"},
		{"a++ + ++b", "((a++) + (++b))"},
		{"(a + b) * c", "((a + b) * c)"},
		{"(a, b)", "(a , b)"},
		{"a.b.c[1].d(2)[3]", "a.b.c[1].d(2)[3]"},
		{"a.length()", "a.length()"},
		{"v.xyz.x", "v.xyz.x"},
		{"f()", "f()"},
		{"f(void)", "f()"},
		{"f(a, b = c, (d, e))", "f(a, (b = c), (d , e))"},
		{"vec4(1.0)", "vec4(1.0)"},
		{"float[3](1.0, 2.0, 3.0)", "float[3](1.0, 2.0, 3.0)"},
		{"float[](1.0)[0]", "float[](1.0)[0]"},
		{"float[2][2](a, b)", "float[2][2](a, b)"},
		{"int[2](1, 2).length()", "int[2](1, 2).length()"},
		{"coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>(0.0)", "coopmat<T:float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>(0.0)"},
		{"coopmat<float, gl_ScopeSubgroup, (M > 8 ? 16 : 8), N >> 1, gl_MatrixUseB>(x)", "coopmat<T:float, gl_ScopeSubgroup, ((M > 8) ? 16 : 8), N, gl_MatrixUseB>(x)"},
		{"coopvecNV<float16_t, 6>(0.0hf)", "coopvecNV<T:float16_t, 6>(0.0hf)"},
		{"vector<float, 5>(1.0)", "vector<T:float, 5>(1.0)"},
		{"vector<vector<float, 2>, 3>(a)", "vector<T:vector<T:float, 2>, 3>(a)"},
		{"vector + 1", "(vector + 1)"},
		{"float16_t(a) + float16_t", "(float16_t(a) + float16_t)"},
		{"uint8_t[2](a, b)", "uint8_t[2](a, b)"},
		{"true && false", "(true && false)"},
		{"a[b[c]]", "a[b[c]]"},
		{"a[i, j]", "a[(i , j)]"},
		{`debugPrintfEXT("x=%d\n", x)`, `debugPrintfEXT("x=%d\n", x)`},
		{"S(1.0).a", "S(1.0).a"},
	}
	for _, tc := range tests {
		src := "struct S { float a; };\nvoid main() { x = (" + tc.src + "); }"
		if strings.Contains(tc.want, "N, gl_MatrixUseB") {
			// ">>" in a type parameter list closes it: a syntax error
			// after N, as in glslang.
			_, d := parse(t, src)
			if !d.HasErrors() {
				t.Errorf("%s: want an error for >> in type parameters", tc.src)
			}
			continue
		}
		f := mustParse(t, src)
		x := f.Decls[1].(*FuncDecl).Body.Stmts[0].(*ExprStmt).X.(*Assign).R
		if got := sexpr(x); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestAssignNeedsUnary(t *testing.T) {
	for _, src := range []string{"a + 1 = 2;", "a ? b : c = d;", "-a = b;"} {
		_, d := parse(t, "void main() { "+src+" }")
		if src == "-a = b;" || src == "a ? b : c = d;" {
			// A unary expression may be assigned to (the checker rejects
			// -a as an l-value); "c = d" is the conditional's last operand.
			if d.HasErrors() {
				t.Errorf("%s: %v", src, d)
			}
			continue
		}
		if !strings.Contains(d.Error(), "unexpected EQUAL") {
			t.Errorf("%s: got %q", src, d.Error())
		}
	}
}

func TestDeclarations(t *testing.T) {
	f := mustParse(t, `#version 450
layout(local_size_x = 32, local_size_y = 1, local_size_z_id = 2) in;
layout(std430, set = 0, binding = 1) readonly buffer A { float16_t a[]; } bufA;
layout(push_constant) uniform P { uint M, N; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node;
layout(buffer_reference) buffer Node { Node next; vec4 v; };
struct S { int a[2], b; vec3 c; };
const S s0 = S(int[2](1, 2), 3, vec3(0));
shared float tile[16][16];
layout(constant_id = 3) const int K = 4;
float f(in float x, out int y[2], inout S s);
float f(in float x, out int y[2], inout S s) { return x; }
precision highp float;
coherent bufA;
layout(shared, column_major) uniform U { mat4 m; } u[4];
float[2] g(const float[2] a, uint) { return a; }
int a = 1, b[3] = {1, 2, 3,}, c[] = int[](1, 2);
struct { float x; } anon;
struct T { float x; } t1, t2[2];
layout(std430) buffer;
invariant gl_Position, foo;
void main(void) {}
`)
	ds := f.Decls
	if len(ds) != 21 {
		t.Fatalf("got %d decls", len(ds))
	}
	if q := ds[0].(*QualDecl); q.Quals[0].Layout[0].Name != "local_size_x" || sexpr(q.Quals[0].Layout[0].Value) != "32" || len(q.Names) != 0 || q.Pos.Line != 2 {
		t.Errorf("layout decl %+v", q)
	}
	if b := ds[1].(*BlockDecl); b.BlockName != "A" || b.Instance != "bufA" || b.Members[0].Type.Name != "float16_t" ||
		len(b.Members[0].Names[0].ArraySizes) != 1 || b.Members[0].Names[0].ArraySizes[0].Size != nil || len(b.Quals) != 3 || b.Quals[1].Name != "readonly" {
		t.Errorf("block %+v", b)
	}
	if b := ds[2].(*BlockDecl); b.Instance != "" || len(b.Members[0].Names) != 2 {
		t.Errorf("anonymous block %+v", b)
	}
	if q := ds[3].(*QualDecl); len(q.Names) != 1 || q.Names[0].Name != "Node" {
		t.Errorf("forward %+v", q)
	}
	if b := ds[4].(*BlockDecl); b.BlockName != "Node" || b.Members[0].Type.Name != "Node" {
		t.Errorf("reference block %+v", b)
	}
	if v := ds[5].(*VarDecl); v.Type.Struct == nil || v.Type.Struct.Name != "S" || len(v.Names) != 0 || len(v.Type.Struct.Members) != 2 || len(v.Type.Struct.Members[0].Names) != 2 {
		t.Errorf("struct %+v", v)
	}
	if v := ds[6].(*VarDecl); v.Type.Quals[0].Name != "const" || v.Type.Name != "S" || sexpr(v.Names[0].Init) != "S(int[2](1, 2), 3, vec3(0))" {
		t.Errorf("const %+v", v)
	}
	if v := ds[7].(*VarDecl); len(v.Names[0].ArraySizes) != 2 || v.Type.Quals[0].Name != "shared" {
		t.Errorf("2D array %+v", v.Names[0])
	}
	if fn := ds[9].(*FuncDecl); fn.Body != nil || len(fn.Params) != 3 || fn.Params[1].Type.Quals[0].Name != "out" || len(fn.Params[1].ArraySizes) != 1 {
		t.Errorf("prototype %+v", fn)
	}
	if fn := ds[10].(*FuncDecl); fn.Body == nil || len(fn.Body.Stmts) != 1 {
		t.Errorf("definition %+v", fn)
	}
	if p := ds[11].(*PrecisionDecl); p.Precision != "highp" || p.Type.Name != "float" {
		t.Errorf("precision %+v", p)
	}
	if q := ds[12].(*QualDecl); q.Quals[0].Name != "coherent" || q.Names[0].Name != "bufA" {
		t.Errorf("qualified name %+v", q)
	}
	if b := ds[13].(*BlockDecl); b.Quals[0].Layout[0].Name != "shared" || b.Instance != "u" || len(b.ArraySizes) != 1 {
		t.Errorf("shared layout %+v", b)
	}
	if fn := ds[14].(*FuncDecl); typeString(fn.Result) != "float[2]" || typeString(fn.Params[0].Type) != "float[2]" || fn.Params[1].Name != "" {
		t.Errorf("array function %+v", fn)
	}
	if v := ds[15].(*VarDecl); len(v.Names) != 3 || sexpr(v.Names[1].Init) != "{1, 2, 3}" || sexpr(v.Names[2].Init) != "int[](1, 2)" {
		t.Errorf("declarators %+v", v)
	}
	if v := ds[16].(*VarDecl); v.Type.Struct == nil || v.Type.Struct.Name != "" || v.Names[0].Name != "anon" {
		t.Errorf("anonymous struct %+v", v)
	}
	if v := ds[17].(*VarDecl); len(v.Names) != 2 || len(v.Names[1].ArraySizes) != 1 {
		t.Errorf("struct declarators %+v", v)
	}
	if q := ds[18].(*QualDecl); q.Quals[0].Layout[0].Name != "std430" || q.Quals[1].Name != "buffer" {
		t.Errorf("default %+v", q)
	}
	if q := ds[19].(*QualDecl); len(q.Names) != 2 {
		t.Errorf("invariant %+v", q)
	}
	if fn := ds[20].(*FuncDecl); len(fn.Params) != 0 {
		t.Errorf("main(void) %+v", fn)
	}
}

func TestCoopTypes(t *testing.T) {
	stmts := body(t, `
	coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a;
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> c = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
	fcoopmatNV<16, gl_ScopeSubgroup, 16, 8> n;
	icoopmatNV<8, gl_ScopeSubgroup, 16, 8> ni;
	ucoopmatNV<32, gl_ScopeSubgroup, 16, 8> nu[2];
	coopvecNV<float16_t, 6> v;
	tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tl = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
	tensorViewNV<3, false, 0, 1, 2> tv;
	vector<float, 5> lv;
	coopmat<float, gl_ScopeSubgroup, (N > 2 ? 16 : 8), 16, gl_MatrixUseB> b;
	coopmat<float, gl_ScopeSubgroup, uint(K), 16, gl_MatrixUseB>[2] arr;
	x = a.length();
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>(a);`)
	want := []string{
		"coopmat<T:float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA>",
		"coopmat<T:float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>",
		"fcoopmatNV<16, gl_ScopeSubgroup, 16, 8>",
		"icoopmatNV<8, gl_ScopeSubgroup, 16, 8>",
		"ucoopmatNV<32, gl_ScopeSubgroup, 16, 8>",
		"coopvecNV<T:float16_t, 6>",
		"tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV>",
		"tensorViewNV<3, false, 0, 1, 2>",
		"vector<T:float, 5>",
		"coopmat<T:float, gl_ScopeSubgroup, ((N > 2) ? 16 : 8), 16, gl_MatrixUseB>",
		"coopmat<T:float, gl_ScopeSubgroup, uint(K), 16, gl_MatrixUseB>[2]",
	}
	for i, w := range want {
		if got := typeString(stmts[i].(*DeclStmt).Decl.Type); got != w {
			t.Errorf("type %d: got %s, want %s", i, got, w)
		}
	}
	if got := sexpr(stmts[1].(*DeclStmt).Decl.Names[0].Init); got != "coopmat<T:float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0)" {
		t.Errorf("constructor %s", got)
	}
	if _, ok := stmts[11].(*ExprStmt).X.(*Assign).R.(*MethodCall); !ok {
		t.Errorf("length() call")
	}
	if c, ok := stmts[12].(*ExprStmt).X.(*Call); !ok || c.Type == nil || c.Func != "coopmat" {
		t.Errorf("constructor statement %T", stmts[12])
	}
	// Type parameters in members, parameters and results.
	mustParse(t, `struct M { coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> m[2]; };
coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> f(coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> m, coopvecNV<float, 4> v[2]) { return m; }`)
}

// TestTypeParamsNoMutation: splitting ">>" must not touch the caller's
// tokens.
func TestTypeParamsNoMutation(t *testing.T) {
	d := &diag.List{}
	r := pp.Preprocess("t.comp", []byte("void main() { vector<vector<float, 2>> x; }"), pp.Options{}, d)
	before := slices.Clone(r.Tokens)
	f := Parse(r.Tokens, d)
	if d.HasErrors() {
		t.Fatal(d)
	}
	if !slices.Equal(before, r.Tokens) {
		t.Error("Parse modified its input tokens")
	}
	if got := typeString(f.Decls[0].(*FuncDecl).Body.Stmts[0].(*DeclStmt).Decl.Type); got != "vector<T:vector<T:float, 2>>" {
		t.Errorf("got %s", got)
	}
}

func TestStatements(t *testing.T) {
	stmts := body(t, `
	for (int i = 0, j = 1; i < 4; ++i, j--) { if (i == 2) continue; else break; }
	while (true) { discard; }
	do { x++; } while (x < 3);
	switch (x) { case 1: case 2: y = 1; break; default: y = 2; }
	[[unroll]] for (;;) {}
	[[dont_unroll, loop(2)]] while (false) ;
	{ int inner; }
	return;
	return x + 1;
	;
	precision mediump float;
	float;
	while (bool b = x > 0) b = false;
	for (i = 0; bool c = i < 4; i++) {}
	[[flatten]] if (a) {} else if (b) {} else {}
	[[dependency_infinite]] do x++; while (x < 10);
	[[dont_flatten]] switch (x) {}
	terminateInvocation;
	demote;
	if (a) int z;
	struct L { int q; } l;
	L l2 = L(1);
	x = 1, y = 2;`)
	kinds := []string{"*syntax.ForStmt", "*syntax.WhileStmt", "*syntax.DoStmt", "*syntax.SwitchStmt", "*syntax.ForStmt",
		"*syntax.WhileStmt", "*syntax.BlockStmt", "*syntax.ReturnStmt", "*syntax.ReturnStmt", "*syntax.EmptyStmt",
		"*syntax.PrecisionStmt", "*syntax.DeclStmt", "*syntax.WhileStmt", "*syntax.ForStmt", "*syntax.IfStmt",
		"*syntax.DoStmt", "*syntax.SwitchStmt", "*syntax.BranchStmt", "*syntax.BranchStmt", "*syntax.IfStmt",
		"*syntax.DeclStmt", "*syntax.DeclStmt", "*syntax.ExprStmt"}
	if len(stmts) != len(kinds) {
		t.Fatalf("got %d statements, want %d", len(stmts), len(kinds))
	}
	for i, k := range kinds {
		if got := fmt.Sprintf("%T", stmts[i]); got != k {
			t.Errorf("statement %d: got %s, want %s", i, got, k)
		}
	}
	fs := stmts[0].(*ForStmt)
	if d := fs.Init.(*DeclStmt).Decl; len(d.Names) != 2 || sexpr(fs.Cond) != "(i < 4)" || sexpr(fs.Post) != "((++i) , (j--))" {
		t.Errorf("for %+v", fs)
	}
	if is := fs.Body.(*BlockStmt).Stmts[0].(*IfStmt); is.Else.(*BranchStmt).Kind != "break" || is.Then.(*BranchStmt).Kind != "continue" {
		t.Errorf("if %+v", is)
	}
	sw := stmts[3].(*SwitchStmt)
	if len(sw.Body) != 6 || sw.Body[0].(*CaseLabel).X == nil || sw.Body[4].(*CaseLabel).X != nil {
		t.Fatalf("switch body %d", len(sw.Body))
	}
	if f := stmts[4].(*ForStmt); f.Attrs[0].Name != "unroll" || f.Cond != nil || f.Post != nil || f.Init.(*EmptyStmt) == nil {
		t.Errorf("for(;;) %+v", f)
	}
	if a := stmts[5].(*WhileStmt).Attrs; len(a) != 2 || a[1].Name != "loop" || len(a[1].Args) != 1 {
		t.Fatalf("attrs %+v", a)
	}
	if r := stmts[8].(*ReturnStmt); sexpr(r.X) != "(x + 1)" {
		t.Errorf("return %s", sexpr(r.X))
	}
	if p := stmts[10].(*PrecisionStmt); p.Decl.Precision != "mediump" {
		t.Errorf("precision %+v", p.Decl)
	}
	if w := stmts[12].(*WhileStmt); w.Cond != nil || w.CondDecl == nil || w.CondDecl.Names[0].Name != "b" {
		t.Errorf("while decl %+v", w)
	}
	if f := stmts[13].(*ForStmt); f.CondDecl == nil || f.Init.(*ExprStmt) == nil {
		t.Errorf("for decl %+v", f)
	}
	if is := stmts[14].(*IfStmt); is.Else.(*IfStmt).Else.(*BlockStmt) == nil || is.Attrs[0].Name != "flatten" {
		t.Errorf("else if %+v", is)
	}
	if b := stmts[18].(*BranchStmt); b.Kind != "demote" {
		t.Errorf("demote %+v", b)
	}
}

func TestUserTypes(t *testing.T) {
	good := []string{
		"struct S { float a; }; void main() { S s; S(1.0); S[2] a; S b[2] = S[2](s, s); }",
		// A variable hides the type in an inner scope only.
		"struct S { float a; }; void main() { { float S = 1.0; S = 2.0; } S t; }",
		// A parameter hides it in the function.
		"struct S { float a; }; void f(float S) { S = 1.0; } void main() { S s; }",
		// After a type, a type name is the declared name.
		"struct S { float a; }; void f(S S) {} void main() { S S; }",
		"void main() { struct L { int x; }; L l; { L m; } }",
		"layout(buffer_reference) buffer R; layout(buffer_reference, std430) buffer R { R next; int v; }; void main() { R r = R(0ul); }",
		"layout(buffer_reference) buffer R { int v; } ; R f(R r) { return r; }",
		// Extension type words are identifiers where a type cannot be.
		"void main() { int vector = 1; vector += 2; int demote = 3; demote = 4; float16_t(1.0); }",
	}
	for _, src := range good {
		mustParse(t, src)
	}
	bad := []struct{ src, want string }{
		{"struct S { float a; }; void main() { float S; S t; }", "'t' : syntax error, unexpected IDENTIFIER"},
		{"void main() { { struct L { int x; }; } L l; }", "'l' : syntax error, unexpected IDENTIFIER"},
		{"void f(Unknown u);", "unexpected IDENTIFIER, expecting TYPE"},
	}
	for _, tc := range bad {
		_, d := parse(t, tc.src)
		if !strings.Contains(d.Error(), tc.want) {
			t.Errorf("%s: got %q, want %q", tc.src, d.Error(), tc.want)
		}
	}
}

func TestQualifiers(t *testing.T) {
	f := mustParse(t, `layout(local_size_x = 16 * 2, local_size_y = (1 + 1)) in;
layout(set = 0, binding = 0, std430) restrict coherent volatile readonly writeonly buffer B { highp int x; precise float y; layout(offset = 16) vec4 z; } b;
spirv_execution_mode(4446, 1) spirv_decorate(extensions = ["SPV_X", "SPV_Y"], capabilities = [1, 2], 11, "s") uniform float q;
spirv_instruction(set = "GLSL.std.450", id = 81) float fmin3(spirv_by_reference float a, spirv_literal int b);
devicecoherent queuefamilycoherent workgroupcoherent subgroupcoherent nonprivate buffer C { int c; };
void main() { const highp float k = 1.0; }`)
	q := f.Decls[0].(*QualDecl).Quals[0].Layout
	if sexpr(q[0].Value) != "(16 * 2)" || sexpr(q[1].Value) != "(1 + 1)" {
		t.Errorf("layout values %s %s", sexpr(q[0].Value), sexpr(q[1].Value))
	}
	b := f.Decls[1].(*BlockDecl)
	if len(b.Quals) != 7 || b.Members[0].Type.Quals[0].Name != "highp" || b.Members[2].Type.Quals[0].Layout[0].Name != "offset" {
		t.Errorf("block quals %+v", b)
	}
	v := f.Decls[2].(*VarDecl).Type.Quals
	if len(v) != 3 || len(v[0].Layout) != 2 || len(v[1].Layout) != 4 || v[1].Layout[0].Name != "extensions" || len(v[1].Layout[0].Value.(*InitList).Elems) != 2 || v[1].Layout[2].Name != "" {
		t.Errorf("spirv qualifiers %+v", v)
	}
	fn := f.Decls[3].(*FuncDecl)
	if l := fn.Result.Quals[0].Layout; l[0].Name != "set" || l[1].Name != "id" || sexpr(l[1].Value) != "81" || fn.Params[0].Type.Quals[0].Name != "spirv_by_reference" {
		t.Errorf("spirv_instruction %+v", fn.Result.Quals[0])
	}
}

// TestLiterals checks literal kinds, values and suffixes. float literals
// keep double precision (glslang rounds them where it writes them).
func TestLiterals(t *testing.T) {
	tests := []struct {
		text   string
		kind   LitKind
		i      uint64
		f      float64
		suffix string
	}{
		{"0", LitInt, 0, 0, ""},
		{"0x1Fu", LitUint, 31, 0, "u"},
		{"0X1fU", LitUint, 31, 0, "u"},
		{"017", LitInt, 15, 0, ""},
		{"4294967295", LitInt, 4294967295, 0, ""},
		{"0xFFFFFFFF", LitInt, 0xFFFFFFFF, 0, ""},
		{"037777777777", LitInt, 0xFFFFFFFF, 0, ""},
		{"7l", LitInt64, 7, 0, "l"},
		{"7L", LitInt64, 7, 0, "l"},
		{"18446744073709551615ul", LitUint64, math.MaxUint64, 0, "ul"},
		{"0xFFFFFFFFFFFFFFFFUL", LitUint64, math.MaxUint64, 0, "ul"},
		{"3s", LitInt16, 3, 0, "s"},
		{"65535us", LitUint16, 65535, 0, "us"},
		{"0x1FFFFs", LitInt16, 0xFFFF, 0, "s"},
		{"1.5", LitFloat, 0, 1.5, ""},
		{"1.", LitFloat, 0, 1, ""},
		{".5", LitFloat, 0, 0.5, ""},
		{"2e3f", LitFloat, 0, 2000, "f"},
		{"2E-1F", LitFloat, 0, 0.2, "f"},
		{"0.1", LitFloat, 0, 0.1, ""},
		{"0.1lf", LitDouble, 0, 0.1, "lf"},
		{"1.0LF", LitDouble, 0, 1, "lf"},
		{"0.5hf", LitFloat16, 0, 0.5, "hf"},
		{"0.1hf", LitFloat16, 0, 0.0999755859375, "hf"},
		{"1e50", LitFloat, 0, 1e50, ""},
		{"1e-50", LitFloat, 0, 1e-50, ""},
		{"1e400", LitFloat, 0, math.Inf(1), ""},
		{"1.5fe4m3", LitFloat, 0, 1.5, "fe4m3"},
		{"1.5bf16", LitFloat, 0, 1.5, "bf16"},
	}
	var src strings.Builder
	src.WriteString("void main() {\n")
	for _, tc := range tests {
		src.WriteString("x = " + tc.text + ";\n")
	}
	src.WriteString("}")
	f, d := parse(t, src.String())
	for _, dg := range d.Diags {
		if dg.Sev == diag.Error {
			t.Errorf("unexpected error %v", dg)
		}
	}
	for i, st := range f.Decls[0].(*FuncDecl).Body.Stmts {
		l := st.(*ExprStmt).X.(*Assign).R.(*Lit)
		w := tests[i]
		if l.Kind != w.kind || l.Int != w.i || l.Float != w.f || l.Suffix != w.suffix || l.Text != w.text {
			t.Errorf("literal %s: got kind %v int %v float %v suffix %q", w.text, l.Kind, l.Int, l.Float, l.Suffix)
		}
	}
	if b := body(t, "x = true; y = false;"); !b[0].(*ExprStmt).X.(*Assign).R.(*Lit).Bool || b[1].(*ExprStmt).X.(*Assign).R.(*Lit).Kind != LitBool {
		t.Error("bool literals")
	}
}

// TestFloatRounding checks the narrow float literals against the nearest
// value found by brute force over every value of the format.
func TestFloatRounding(t *testing.T) {
	type format struct {
		suffix    string
		sig, emin int
		maxExp    int
	}
	formats := []format{{"hf", 11, -14, 15}, {"bf16", 8, -126, 127}, {"fe5m2", 3, -14, 15}, {"fe4m3", 4, -6, 8}}
	inputs := []string{"0.1", "1.00048828125", "1.000488281250001", "0.00048828125", "2.98023223876953125e-8",
		"2.98023223876953126e-8", "5.9604644775390625e-8", "1.00390625", "1.0039062500000001", "3.0e-39", "0.3", "0.0001",
		"0.00000001", "1.1", "65519.99", "0.0625", "0.09375", "7.62939453125e-6", "0.001953125", "0.0009765625"}
	for _, fm := range formats {
		// Every finite non-negative value of the format.
		var vals []*big.Rat
		for e := fm.emin; e <= fm.maxExp; e++ {
			for m := 0; m < 1<<(fm.sig-1); m++ {
				if e == fm.emin {
					vals = append(vals, new(big.Rat).SetFrac(big.NewInt(int64(m)), new(big.Int).Lsh(big.NewInt(1), uint(fm.sig-1-fm.emin))))
				}
				num := big.NewInt(int64(m + 1<<(fm.sig-1)))
				r := new(big.Rat).SetInt(num)
				sh := e - (fm.sig - 1)
				if sh >= 0 {
					r.Mul(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(sh))))
				} else {
					r.Quo(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(-sh))))
				}
				vals = append(vals, r)
			}
		}
		slices.SortFunc(vals, func(a, b *big.Rat) int { return a.Cmp(b) })
		for _, in := range inputs {
			x, _ := new(big.Rat).SetString(in)
			i, _ := slices.BinarySearchFunc(vals, x, func(a, b *big.Rat) int { return a.Cmp(b) })
			if i == len(vals) {
				continue // past the largest value: left to the checker
			}
			want := vals[i]
			if i > 0 && want.Cmp(x) != 0 {
				lo := vals[i-1]
				dlo := new(big.Rat).Sub(x, lo)
				dhi := new(big.Rat).Sub(want, x)
				switch c := dlo.Cmp(dhi); {
				case c < 0:
					want = lo
				case c == 0:
					// Tie: the even one has the even position in vals
					// (the significand's last bit alternates).
					if (i-1)%2 == 0 {
						want = lo
					}
				}
			}
			wf, _ := want.Float64()
			got := roundDecimal(in, fm.sig, fm.emin)
			if got != wf {
				t.Errorf("%s%s: got %g, want %g", in, fm.suffix, got, wf)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		// Syntax errors, glslang's token names.
		{"void main() { x = ; }", "t.comp:1: ';' : syntax error, unexpected SEMICOLON"},
		{"void main() { x = 1 }", "'}' : syntax error, unexpected RIGHT_BRACE, expecting SEMICOLON"},
		{"void main() { int x = 1 int y; }", "'int' : syntax error, unexpected INT, expecting COMMA or SEMICOLON"},
		{"void main() { float a; a + 1 = 2.0; }", "'=' : syntax error, unexpected EQUAL, expecting SEMICOLON"},
		{"void main() { if (x) { }", "syntax error, unexpected end of file, expecting RIGHT_BRACE"},
		{"void main() { a = b[; }", "syntax error, unexpected SEMICOLON"},
		{"void main() { a = b[]; }", "syntax error, unexpected RIGHT_BRACKET"},
		{"void main() { a = f(1,); }", "')' : syntax error, unexpected RIGHT_PAREN"},
		{"void main() { a = (1; }", "expecting RIGHT_PAREN"},
		{"void main() { a = b.; }", "expecting FIELD_SELECTION"},
		{"void main() { a = b.1; }", "unexpected FLOATCONSTANT"},
		{"void main() { a = vec4; }", "unexpected SEMICOLON, expecting LEFT_PAREN"},
		{"void main() { a = float[2]; }", "expecting LEFT_PAREN"},
		{"void main() { a = in; }", "unexpected IN"},
		{"void main() { a = 1 ? 2 ; }", "expecting COLON"},
		{"void main() { int a[2] = {1, 2; }", "expecting RIGHT_BRACE"},
		{"void main() { int a[2] = {1, , 2}; }", "unexpected COMMA"},
		{"float f(float a,);", "unexpected RIGHT_PAREN"},
		{"float f(float a) int", "expecting SEMICOLON or LEFT_BRACE"},
		{"float f(float a b);", "unexpected IDENTIFIER, expecting RIGHT_PAREN"},
		{"int 3;", "unexpected INTCONSTANT, expecting IDENTIFIER"},
		{"x = 1;", "'x' : syntax error, unexpected IDENTIFIER"},
		{"}", "unexpected RIGHT_BRACE"},
		{"precision float;", "expecting HIGH_PRECISION or MEDIUM_PRECISION or LOW_PRECISION"},
		{"layout() in;", "')' : syntax error, unexpected RIGHT_PAREN, expecting IDENTIFIER"},
		{"layout(local_size_x = ) in;", "unexpected RIGHT_PAREN"},
		{"layout(local_size_x = 1 in;", "expecting RIGHT_PAREN"},
		{"layout local_size_x;", "expecting LEFT_PAREN"},
		{"uniform B { float x = 1.0; };", "'=' : syntax error, unexpected EQUAL, expecting COMMA or SEMICOLON"},
		{"uniform B { float x; } b", "expecting IDENTIFIER or SEMICOLON"},
		{"struct S { float; };", "unexpected SEMICOLON, expecting IDENTIFIER"},
		{"struct S { float a; }", "unexpected end of file"},
		{"struct S float a;", "expecting LEFT_BRACE"},
		{"coherent buf x;", "'buf' : syntax error, unexpected IDENTIFIER"},
		{"void main() { for (int i = 0; i < 4; i++ { } }", "expecting RIGHT_PAREN"},
		{"void main() { for (;;", "syntax error, unexpected end of file"},
		{"void main() { while x {} }", "expecting LEFT_PAREN"},
		{"void main() { do {} until (x); }", "expecting WHILE"},
		{"void main() { do {} while (x) }", "expecting SEMICOLON"},
		{"void main() { switch (x) case 1: ; }", "expecting LEFT_BRACE"},
		{"void main() { switch (x) { case 1 x = 1; } }", "expecting COLON"},
		{"void main() { else x = 1; }", "unexpected ELSE"},
		{"void main() { break }", "expecting SEMICOLON"},
		{"void main() { return 1 }", "expecting SEMICOLON"},
		{"void main() { [[unroll]] x = 1; }", "attribute must be followed by a selection or iteration statement"},
		{"void main() { [[unroll for (;;) {} }", "expecting RIGHT_BRACKET"},
		{"void main() { [[1]] for (;;) {} }", "unexpected INTCONSTANT, expecting IDENTIFIER"},
		{"void main() { [[loop(1,)]] for (;;) {} }", "unexpected RIGHT_PAREN"},
		{"void main() { while (bool b) {} }", "expecting EQUAL"},
		{"void main() { coopmat<float, gl_ScopeSubgroup, 16, 16 x; }", "expecting RIGHT_ANGLE"},
		{"void main() { coopmat<float, gl_ScopeSubgroup, 16, 16, N >> 1, 2> x; }", "syntax error"},
		{"float f(float x) { return x; }\nvoid main() { float g() {} }", "t.comp:2: 'g' : function definitions must be at global scope"},
		{"void main() { uniform B { int x; } b; }", "this declaration is only allowed at global scope"},
		{"struct Outer { struct Inner { int x; } i; };", "'' : cannot nest a structure definition inside a structure or block"},
		{"spirv_decorate(1, ) float x;", "unexpected RIGHT_PAREN"},
		{"spirv_decorate(extensions = [\"a\" 1) float x;", "expecting RIGHT_BRACKET"},
		// Reserved words.
		{"void main() { goto x; }", "'goto' : Reserved word."},
		{"void main() { int common = 2; }", "'common' : Reserved word."},
		{"void main() { int x = partition; }", "'partition' : Reserved word."},
		{"void main() { active(); }", "'active' : Reserved word."},
		{"union U;", "'union' : Reserved word."},
		{"void main() { long x; }", "'long' : Reserved word."},
		{"void f(half h);", "'half' : Reserved word."},
		{"filter x;", "'filter' : Reserved word."},
		// Literals, glslang's messages.
		{"void main() { int a = 4294967296; }", "'' : numeric literal too big"},
		{"void main() { int a = 0x100000000; }", "'' : hexadecimal literal too big"},
		{"void main() { int a = 040000000000; }", "'' : octal literal too big"},
		{"void main() { int a = 09; }", "'' : octal literal digit too large"},
		{"void main() { int a = 0x; }", "'' : bad digit in hexadecimal literal"},
		{"void main() { int a = 65536s; }", "'' : numeric literal too big"},
		{"void main() { int a = 18446744073709551616ul; }", "'' : numeric literal too big"},
		{"void main() { int a = 0x1FFFFFFFFFFFFFFFFl; }", "'' : hexadecimal literal too big"},
		{"void main() { int a = 1abc; }", "'1abc' : syntax error, bad numeric literal"},
		{"void main() { int a = 1uu; }", "'1uu' : syntax error, bad numeric literal"},
		{"void main() { float a = 1f; }", "'' : float literal needs a decimal point or exponent"},
		{"void main() { float a = 2hf; }", "float literal needs a decimal point or exponent"},
		{"void main() { float a = 1.0e; }", "'' : bad character in float exponent"},
		{"void main() { float a = 1.0ff; }", "'1.0ff' : bad floating-point literal"},
	}
	for _, tc := range tests {
		_, d := parse(t, tc.src)
		if !d.HasErrors() || !strings.Contains(d.Error(), tc.want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.src, d.Error(), tc.want)
		}
	}
}

func TestWarnings(t *testing.T) {
	for _, src := range []string{"int a__b;", "void f__() {}", "struct S__ { int x; };", "void f(int p__);", "uniform B__ { int x; };"} {
		_, d := parse(t, src)
		if d.HasErrors() || len(d.Diags) != 1 || !strings.Contains(d.Diags[0].Msg, `consecutive underscores ("__") are reserved`) {
			t.Errorf("%s: got %q", src, d.Error())
		}
	}
	_, d := parse(t, "void main() { float x = 1e39; double y = 1e999lf; }")
	if d.HasErrors() || len(d.Diags) != 2 {
		t.Errorf("out of range floats: got %q", d.Error())
	}
}

// TestRecovery: errors on several lines are all reported, each once, and
// the declarations around them still parse.
func TestRecovery(t *testing.T) {
	f, d := parse(t, `int a = 1;
int b = ;
int c = 2 int d;
void f() {
	x = ;
	y = 1;
	if (x { z = 2; }
	w = 3;
}
void g( { }
struct S { float a = 1.0; float b; };
int e = 5;
void main() {}
`)
	var lines []int
	for _, dg := range d.Diags {
		lines = append(lines, dg.Pos.Line)
	}
	if want := []int{2, 3, 5, 7, 10, 11}; !slices.Equal(lines, want) {
		t.Errorf("error lines %v, want %v:\n%v", lines, want, d)
	}
	var names []string
	for _, dcl := range f.Decls {
		switch dcl := dcl.(type) {
		case *VarDecl:
			for _, n := range dcl.Names {
				names = append(names, n.Name)
			}
		case *FuncDecl:
			names = append(names, dcl.Name+"()")
		}
	}
	for _, want := range []string{"a", "f()", "e", "main()"} {
		if !slices.Contains(names, want) {
			t.Errorf("lost %s after errors: %v", want, names)
		}
	}
}

func TestPositions(t *testing.T) {
	f := mustParse(t, "void main() {\n  x = a +\n    f(b);\n}")
	as := f.Decls[0].(*FuncDecl).Body.Stmts[0].(*ExprStmt).X.(*Assign)
	bin := as.R.(*Binary)
	call := bin.Y.(*Call)
	if as.Pos != (Pos{File: "t.comp", Line: 2, Col: 5}) || bin.Pos.Line != 2 || bin.Pos.Col != 9 || call.Pos.Line != 3 || call.Pos.Col != 5 {
		t.Errorf("positions %v %v %v", as.Pos, bin.Pos, call.Pos)
	}
}

func TestDeepNesting(t *testing.T) {
	tests := []string{
		"void main() { x = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "; }",
		"void main() " + strings.Repeat("{", 5000) + strings.Repeat("}", 5000),
		"void main() { x = " + strings.Repeat("-", 5000) + "1; }",
		"int a[] = " + strings.Repeat("{", 5000) + "1" + strings.Repeat("}", 5000) + ";",
		"void main() { " + strings.Repeat("if (a) ", 5000) + "x = 1; }",
		"void main() { x = " + strings.Repeat("a[", 5000) + "1" + strings.Repeat("]", 5000) + "; }",
		"void main() { x = " + strings.Repeat("f(", 5000) + "1" + strings.Repeat(")", 5000) + "; }",
		"void main() { x = " + strings.Repeat("a ? ", 5000) + "1" + strings.Repeat(" : 2", 5000) + "; }",
		"void main() { x = " + strings.Repeat("a = ", 5000) + "1; }",
		"void main() { " + strings.Repeat("vector<", 5000) + "float" + strings.Repeat(", 2>", 5000) + " x; }",
		"struct S " + strings.Repeat("{ struct T ", 5000) + strings.Repeat("} t;", 5000) + ";",
	}
	for _, src := range tests {
		_, d := parse(t, src)
		if !strings.Contains(d.Error(), "nesting too deep") {
			t.Errorf("%.40s...: want nesting too deep, got %.200s", src, d.Error())
		}
	}
	// 500 levels are fine.
	mustParse(t, "void main() { x = "+strings.Repeat("(", 500)+"1"+strings.Repeat(")", 500)+"; }")
	mustParse(t, "void main() "+strings.Repeat("{", 500)+strings.Repeat("}", 500))
}

// TestGarbage: arbitrary token soup gives errors, never a panic or a hang.
func TestGarbage(t *testing.T) {
	words := []string{"void", "main", "(", ")", "{", "}", "[", "]", ";", ",", "=", "x", "1", "1.0", "struct", "S", "layout",
		"uniform", "buffer", "if", "else", "for", "while", "do", "switch", "case", "default", ":", "?", "<", ">", ">>",
		"coopmat", "vector", "float", ".", "++", "return", "goto", "[[", "]]", "precision", "highp", "\"s\"", "0x", "1e"}
	seed := uint32(1)
	for n := 0; n < 300; n++ {
		var b strings.Builder
		for range 60 {
			seed = seed*1664525 + 1013904223
			b.WriteString(words[seed>>8%uint32(len(words))])
			b.WriteByte(' ')
		}
		parse(t, b.String())
	}
}

func corpusFiles(t testing.TB, kind string) []string {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "glslang")
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus not present")
	}
	var files []string
	for _, line := range strings.Split(string(man), "\n") {
		f := strings.Split(line, "\t")
		if len(f) >= 2 && f[1] == kind {
			files = append(files, filepath.Join(dir, f[0]))
		}
	}
	return files
}

func TestCorpus(t *testing.T) {
	files := corpusFiles(t, "pos")
	bad := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d := &diag.List{}
		r := pp.Preprocess(path, src, pp.Options{Vulkan: true}, d)
		Parse(r.Tokens, d)
		if d.HasErrors() {
			bad++
			t.Errorf("%s:\n%v", filepath.Base(path), d)
		}
	}
	neg := corpusFiles(t, "neg")
	rejected := 0
	for _, path := range neg {
		src, _ := os.ReadFile(path)
		d := &diag.List{}
		r := pp.Preprocess(path, src, pp.Options{Vulkan: true}, d)
		Parse(r.Tokens, d)
		if d.HasErrors() {
			rejected++
		}
	}
	t.Logf("%d pos corpus shaders parsed, %d with errors; %d of %d neg shaders already rejected by pp+parser", len(files), bad, rejected, len(neg))
}

func TestExamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "shaders", "*.comp"))
	if len(files) == 0 {
		t.Fatal("no example shaders found")
	}
	for _, path := range files {
		src, _ := os.ReadFile(path)
		d := &diag.List{}
		r := pp.Preprocess(path, src, pp.Options{Vulkan: true}, d)
		Parse(r.Tokens, d)
		if d.HasErrors() {
			t.Errorf("%s:\n%v", path, d)
		}
	}
}

// TestNoEOF: a token slice without its EOF still parses.
func TestNoEOF(t *testing.T) {
	d := &diag.List{}
	toks := []token.Token{{Kind: token.Ident, Text: "int"}, {Kind: token.Ident, Text: "x"}, {Kind: token.Punct, Text: ";"}}
	f := Parse(toks, d)
	if d.HasErrors() || len(f.Decls) != 1 {
		t.Fatalf("%v %v", d, f.Decls)
	}
	Parse(nil, d)
}

// FuzzParse preprocesses and parses arbitrary text: no panic, no hang.
// Seeds: testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add("void main() { x = a[1] + f(2, 3.0); }")
	f.Fuzz(func(t *testing.T, src string) {
		defer fuzzwatch.Start()()
		d := &diag.List{MaxErrors: 100}
		r := pp.Preprocess("f", []byte(src), pp.Options{}, d)
		Parse(r.Tokens, d)
	})
}

func BenchmarkParse(b *testing.B) {
	files := corpusFiles(b, "pos")
	var toks [][]token.Token
	total := 0
	for _, path := range files {
		src, _ := os.ReadFile(path)
		total += len(src)
		toks = append(toks, pp.Preprocess(path, src, pp.Options{Vulkan: true}, &diag.List{}).Tokens)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, ts := range toks {
			Parse(ts, &diag.List{})
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/shader")
}

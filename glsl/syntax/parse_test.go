package syntax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/glsl/token"
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
		t.Fatalf("unexpected errors:\n%v", d)
	}
	return f
}

func TestDeclarations(t *testing.T) {
	f := mustParse(t, `#version 450
layout(local_size_x = 32, local_size_y = 1) in;
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
void main() {}
`)
	if len(f.Decls) != 14 {
		t.Fatalf("got %d decls", len(f.Decls))
	}
	if q := f.Decls[0].(*QualDecl); q.Quals[0].Layout[0].Name != "local_size_x" || len(q.Names) != 0 {
		t.Errorf("layout decl %+v", q)
	}
	if b := f.Decls[1].(*BlockDecl); b.BlockName != "A" || b.Instance != "bufA" || b.Members[0].Type.Name != "float16_t" || len(b.Members[0].Names[0].ArraySizes) != 1 {
		t.Errorf("block %+v", b)
	}
	if b := f.Decls[2].(*BlockDecl); b.Instance != "" || len(b.Members[0].Names) != 2 {
		t.Errorf("anonymous block %+v", b)
	}
	if q := f.Decls[3].(*QualDecl); len(q.Names) != 1 || q.Names[0].Name != "Node" {
		t.Errorf("forward %+v", q)
	}
	if b := f.Decls[4].(*BlockDecl); b.Members[0].Type.Name != "Node" {
		t.Errorf("reference member %+v", b.Members[0].Type)
	}
	if v := f.Decls[7].(*VarDecl); len(v.Names[0].ArraySizes) != 2 {
		t.Errorf("2D array %+v", v.Names[0])
	}
	if fn := f.Decls[9].(*FuncDecl); fn.Body != nil || len(fn.Params) != 3 || fn.Params[1].Type.Quals[0].Name != "out" {
		t.Errorf("prototype %+v", fn)
	}
	if fn := f.Decls[10].(*FuncDecl); fn.Body == nil {
		t.Errorf("definition has no body")
	}
}

func TestCoopTypes(t *testing.T) {
	f := mustParse(t, `#version 450
void main() {
	coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> a;
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> c = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
	fcoopmatNV<16, gl_ScopeSubgroup, 16, 8> n;
	coopvecNV<float16_t, 6> v;
	tensorLayoutNV<2, gl_CooperativeMatrixClampModeConstantNV> tl = createTensorLayoutNV(2, gl_CooperativeMatrixClampModeConstantNV);
	tensorViewNV<3, false, 0, 1, 2> tv;
	vector<float, 5> lv;
	coopmat<float, gl_ScopeSubgroup, (N > 2 ? 16 : 8), 16, gl_MatrixUseB> b;
	x = a.length();
}`)
	body := f.Decls[0].(*FuncDecl).Body.Stmts
	ts := body[0].(*DeclStmt).Decl.Type
	if ts.Name != "coopmat" || len(ts.Params) != 5 || ts.Params[0].Type == nil || ts.Params[0].Type.Name != "float16_t" || ts.Params[1].Expr == nil {
		t.Fatalf("coopmat type %+v", ts)
	}
	init := body[1].(*DeclStmt).Decl.Names[0].Init.(*Call)
	if init.Type == nil || init.Type.Name != "coopmat" || len(init.Args) != 1 {
		t.Fatalf("constructor %+v", init)
	}
	if ts := body[5].(*DeclStmt).Decl.Type; len(ts.Params) != 5 {
		t.Fatalf("tensorView params %d", len(ts.Params))
	}
	if ts := body[7].(*DeclStmt).Decl.Type; len(ts.Params) != 5 {
		t.Fatalf("parenthesised > param: %d", len(ts.Params))
	}
	if _, ok := body[8].(*ExprStmt).X.(*Assign).R.(*MethodCall); !ok {
		t.Fatalf("length() call")
	}
}

func TestExpressions(t *testing.T) {
	f := mustParse(t, `void main() { x = a + b * c - d << 2 < e == f & g ^ h | i && j ^^ k || l ? m : n, o; y += ++z--; w = v.xyz[1]; u = float[3](1.0, 2.0, 3.0)[i]; }`)
	stmts := f.Decls[0].(*FuncDecl).Body.Stmts
	seq := stmts[0].(*ExprStmt).X.(*Binary)
	if seq.Op != "," {
		t.Fatalf("top is %s", seq.Op)
	}
	as := seq.X.(*Assign)
	cond := as.R.(*Cond)
	if cond.C.(*Binary).Op != "||" {
		t.Fatalf("cond is %s", cond.C.(*Binary).Op)
	}
	inc := stmts[1].(*ExprStmt).X.(*Assign).R.(*Unary)
	if inc.Op != "++" || inc.Postfix || !inc.X.(*Unary).Postfix {
		t.Fatalf("inc %+v", inc)
	}
}

func TestStatements(t *testing.T) {
	f := mustParse(t, `void main() {
	for (int i = 0; i < 4; ++i) { if (i == 2) continue; else break; }
	while (true) { discard; }
	do { x++; } while (x < 3);
	switch (x) { case 1: case 2: y = 1; break; default: y = 2; }
	[[unroll]] for (;;) {}
	[[dont_unroll, loop(2)]] while (false) ;
	{ int inner; }
	return;
}`)
	stmts := f.Decls[0].(*FuncDecl).Body.Stmts
	if len(stmts) != 8 {
		t.Fatalf("got %d statements", len(stmts))
	}
	sw := stmts[3].(*SwitchStmt)
	if len(sw.Body) != 6 {
		t.Fatalf("switch body %d", len(sw.Body))
	}
	if a := stmts[5].(*WhileStmt).Attrs; len(a) != 2 || a[1].Name != "loop" || len(a[1].Args) != 1 {
		t.Fatalf("attrs %+v", a)
	}
}

func TestLiterals(t *testing.T) {
	f := mustParse(t, `void main() { a = 0x1Fu; b = 017; c = 4294967295; d = 1.5; e = 2e3f; g = 1.0lf; h = 0.5hf; i = 7l; j = 3us; k = 0xFFFFFFFFFFFFFFFFul; }`)
	want := []struct {
		kind LitKind
		i    uint64
		f    float64
	}{{LitUint, 31, 0}, {LitInt, 15, 0}, {LitInt, 4294967295, 0}, {LitFloat, 0, 1.5}, {LitFloat, 0, 2000}, {LitDouble, 0, 1}, {LitFloat16, 0, 0.5}, {LitInt64, 7, 0}, {LitUint16, 3, 0}, {LitUint64, 1<<64 - 1, 0}}
	for i, st := range f.Decls[0].(*FuncDecl).Body.Stmts {
		l := st.(*ExprStmt).X.(*Assign).R.(*Lit)
		if l.Kind != want[i].kind || l.Int != want[i].i || l.Float != want[i].f {
			t.Errorf("literal %s: got %v %v %v", l.Text, l.Kind, l.Int, l.Float)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"void main() { x = ; }", "0:1: ';' : syntax error"},
		{"void main() { int a = 4294967296; }", "integer literal too big"},
		{"void main() { int a = 09; }", "octal literal digit too large"},
		{"void main() { x = 1 }", "expecting ';'"},
		{"void main() { goto x; }", "Reserved word."},
		{"void main() { if (x) { }", "expecting '}'"},
		{"float f(float x) { return x; }\nvoid main() { float g() {} }", "function definitions must be at global scope"},
		{"int a = 1; int b = ; int c = 2 int d;", "syntax error"},
		{"void main() { a = b[; }", "syntax error"},
	}
	for _, tc := range tests {
		_, d := parse(t, tc.src)
		if !d.HasErrors() || !strings.Contains(strings.ReplaceAll(d.Error(), "t.comp", "0"), tc.want) {
			t.Errorf("%q: got %q, want %q", tc.src, d.Error(), tc.want)
		}
	}
}

func TestDeepNesting(t *testing.T) {
	src := "void main() { x = " + strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000) + "; }"
	_, d := parse(t, src)
	if !d.HasErrors() {
		t.Fatal("want an error for nesting too deep")
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
	t.Logf("%d pos corpus shaders parsed, %d with errors", len(files), bad)
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

func FuzzParse(f *testing.F) {
	for _, s := range []string{"void main() { x = a[1] + f(2, 3.0); }", "layout(std430) buffer B { int a[]; } b;", "struct S { coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> m; };", "#define F(x) x\nF(1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
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
	for b.Loop() {
		for _, ts := range toks {
			Parse(ts, &diag.List{})
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(files)), "ns/shader")
}

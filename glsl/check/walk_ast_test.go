package check

import (
	"testing"

	"github.com/coopshader/coop/glsl/diag"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/glsl/syntax"
)

// A syntax tree built by hand checks the walk independently of the parser.
func TestWalkHandBuiltAST(t *testing.T) {
	p := func(line int) Pos { return Pos{File: "0", Line: line} }
	id := func(n string, line int) *syntax.Ident { return &syntax.Ident{Pos: p(line), Name: n} }
	ts := func(n string, quals ...*syntax.Qualifier) *syntax.TypeSpec {
		return &syntax.TypeSpec{Pos: p(1), Name: n, Quals: quals}
	}
	lay := func(items ...*syntax.LayoutItem) *syntax.Qualifier {
		return &syntax.Qualifier{Pos: p(1), Name: "layout", Layout: items}
	}
	item := func(n string, v syntax.Expr) *syntax.LayoutItem {
		return &syntax.LayoutItem{Pos: p(1), Name: n, Value: v}
	}
	lit := func(n uint64) *syntax.Lit { return &syntax.Lit{Pos: p(1), Kind: syntax.LitInt, Int: n} }
	f := &syntax.File{Decls: []syntax.Decl{
		&syntax.QualDecl{Pos: p(2), Quals: []*syntax.Qualifier{lay(item("local_size_x", lit(64))), {Pos: p(2), Name: "in"}}},
		&syntax.BlockDecl{Pos: p(3), Quals: []*syntax.Qualifier{lay(item("std430", nil), item("binding", lit(0))), {Pos: p(3), Name: "buffer"}},
			BlockName: "B", Members: []*syntax.Member{{Type: ts("float"), Names: []*syntax.Declarator{{Pos: p(3), Name: "data", ArraySizes: []*syntax.ArraySize{{Pos: p(3)}}}}}}},
		&syntax.FuncDecl{Pos: p(4), Result: ts("void"), Name: "main", Body: &syntax.BlockStmt{Pos: p(4), Stmts: []syntax.Stmt{
			&syntax.DeclStmt{Decl: &syntax.VarDecl{Type: ts("uint"), Names: []*syntax.Declarator{{Pos: p(5), Name: "i",
				Init: &syntax.Field{Pos: p(5), X: id("gl_GlobalInvocationID", 5), Name: "x"}}}}},
			&syntax.ExprStmt{X: &syntax.Assign{Pos: p(6), Op: "=", L: &syntax.Index{Pos: p(6), X: id("data", 6), Index: id("i", 6)},
				R: &syntax.Binary{Pos: p(6), Op: "*", X: &syntax.Index{Pos: p(6), X: id("data", 6), Index: id("i", 6)}, Y: &syntax.Lit{Pos: p(6), Kind: syntax.LitFloat, Float: 2}}}},
			&syntax.BranchStmt{Pos: p(7), Kind: "break"},
		}}},
	}}
	var d diag.List
	prog := Check(&pp.Result{Version: 450}, f, Options{Vulkan: true, AutoMapBindings: true}, &d)
	if len(d.Diags) != 1 || d.Diags[0].Error() != "ERROR: 0:7: 'break' : break statement only allowed in switch and loops" {
		t.Fatalf("diagnostics:\n%v", d.Error())
	}
	if prog.LocalSize != [3]int{64, 1, 1} || prog.Main == nil || len(prog.Main.Body.Stmts) != 3 {
		t.Fatalf("program %+v", prog)
	}
	as := prog.Main.Body.Stmts[1].(*ExprStmt).X.(*Assign)
	if _, ok := as.LHS.(*Index).X.(*Field); !ok {
		t.Errorf("anonymous member is not a Field: %#v", as.LHS)
	}
	if !Identical(as.RHS.Type(), TFloat) {
		t.Errorf("rhs type %v", as.RHS.Type())
	}
}

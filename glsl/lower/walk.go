package lower

import "github.com/coopshader/coop/glsl/check"

// walkProgram calls f on every expression of the program's function bodies
// and global initializers, parents before their operands.
func walkProgram(p *check.Program, f func(check.Expr)) {
	for _, v := range p.Globals {
		walkExpr(v.Init, f)
	}
	for _, fn := range p.Funcs {
		if fn.Body != nil {
			walkStmt(fn.Body, f)
		}
	}
}

// walkExpr calls f on e and every expression inside it, parents first.
func walkExpr(e check.Expr, f func(check.Expr)) {
	walkStmt(&check.ExprStmt{X: e}, f)
}

// walkStmt calls f on every expression of s, parents before their operands.
func walkStmt(s check.Stmt, f func(check.Expr)) {
	var expr func(e check.Expr)
	exprs := func(es []check.Expr) {
		for _, x := range es {
			expr(x)
		}
	}
	expr = func(e check.Expr) {
		if e == nil {
			return
		}
		f(e)
		switch e := e.(type) {
		case *check.Index:
			expr(e.X)
			expr(e.Index)
		case *check.Field:
			expr(e.X)
		case *check.Swizzle:
			expr(e.X)
		case *check.Unary:
			expr(e.X)
		case *check.Binary:
			expr(e.X)
			expr(e.Y)
		case *check.Assign:
			expr(e.LHS)
			expr(e.RHS)
		case *check.Cond:
			exprs([]check.Expr{e.C, e.X, e.Y})
		case *check.Call:
			exprs(e.Args)
		case *check.BuiltinCall:
			exprs(e.Args)
		case *check.Construct:
			exprs(e.Args)
		case *check.Convert:
			expr(e.X)
		case *check.Length:
			expr(e.X)
		case *check.Sequence:
			exprs(e.List)
		}
	}
	var stmt func(s check.Stmt)
	stmt = func(s check.Stmt) {
		switch s := s.(type) {
		case *check.Block:
			for _, x := range s.Stmts {
				stmt(x)
			}
		case *check.DeclStmt:
			expr(s.Init)
		case *check.ExprStmt:
			expr(s.X)
		case *check.If:
			expr(s.Cond)
			stmt(s.Then)
			if s.Else != nil {
				stmt(s.Else)
			}
		case *check.For:
			if s.Init != nil {
				stmt(s.Init)
			}
			expr(s.Cond)
			expr(s.Post)
			stmt(s.Body)
		case *check.While:
			expr(s.Cond)
			stmt(s.Body)
		case *check.DoWhile:
			stmt(s.Body)
			expr(s.Cond)
		case *check.Switch:
			expr(s.X)
			for _, c := range s.Cases {
				for _, x := range c.Body {
					stmt(x)
				}
			}
		case *check.Return:
			expr(s.X)
		}
	}
	stmt(s)
}

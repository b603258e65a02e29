package check

import (
	"fmt"
	"testing"
)

// TestTreeInvariants checks the promises of the package comment on every
// corpus shader that checks cleanly.
func TestTreeInvariants(t *testing.T) {
	_, entries := corpus(t)
	for _, e := range entries {
		if !e.pos {
			continue
		}
		prog, d := frontEnd(e.name, e.src)
		if d.HasErrors() {
			continue
		}
		var problems []string
		bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
		var expr func(x Expr)
		expr = func(x Expr) {
			if x == nil {
				return
			}
			if x.Type() == nil || x.Type() == tError {
				bad("%T at %v has no type", x, x.Position())
				return
			}
			switch x := x.(type) {
			case *Binary:
				expr(x.X)
				expr(x.Y)
				ref := x.X.Type().Kind == KReference || x.Y.Type().Kind == KReference
				if x.Op != Shl && x.Op != Shr && !ref && x.X.Type().Scalar != x.Y.Type().Scalar {
					bad("%v: %v operands %v and %v differ", x.Pos, x.Op, x.X.Type(), x.Y.Type())
				}
			case *Unary:
				expr(x.X)
			case *Assign:
				expr(x.LHS)
				expr(x.RHS)
				if x.Op == 0 && !Identical(x.LHS.Type(), x.RHS.Type()) {
					bad("%v: assignment of %v to %v", x.Pos, x.RHS.Type(), x.LHS.Type())
				}
			case *Cond:
				expr(x.C)
				expr(x.X)
				expr(x.Y)
				if !Identical(x.X.Type(), x.Y.Type()) {
					bad("%v: ?: arms %v and %v", x.Pos, x.X.Type(), x.Y.Type())
				}
			case *Call:
				for i, a := range x.Args {
					expr(a)
					if !Identical(a.Type(), x.Func.Params[i].Type) {
						bad("%v: argument %d of %s is %v, parameter %v", x.Pos, i, x.Func.Name, a.Type(), x.Func.Params[i].Type)
					}
				}
			case *BuiltinCall:
				for i, a := range x.Args {
					expr(a)
					if i < len(x.Params) && a.Type().Kind != KFunction && !Identical(a.Type(), x.Params[i]) {
						bad("%v: argument %d of %v is %v, parameter %v", x.Pos, i, x.Fn, a.Type(), x.Params[i])
					}
				}
			case *Construct:
				for _, a := range x.Args {
					expr(a)
				}
			case *Convert:
				expr(x.X)
			case *Index:
				expr(x.X)
				expr(x.Index)
			case *Field:
				expr(x.X)
			case *Swizzle:
				expr(x.X)
			case *Length:
				expr(x.X)
			case *Sequence:
				for _, a := range x.List {
					expr(a)
				}
			case *NullInit:
			}
		}
		var stmt func(s Stmt)
		stmt = func(s Stmt) {
			switch s := s.(type) {
			case *Block:
				for _, x := range s.Stmts {
					stmt(x)
				}
			case *DeclStmt:
				if s.Init != nil {
					expr(s.Init)
					if !Identical(s.Init.Type(), s.Var.Type) {
						bad("%v: %s initialized with %v", s.Var.Pos, s.Var.Name, s.Init.Type())
					}
				}
			case *ExprStmt:
				expr(s.X)
			case *If:
				expr(s.Cond)
				stmt(s.Then)
				if s.Else != nil {
					stmt(s.Else)
				}
			case *For:
				if s.Init != nil {
					stmt(s.Init)
				}
				expr(s.Cond)
				expr(s.Post)
				stmt(s.Body)
			case *While:
				expr(s.Cond)
				stmt(s.Body)
			case *DoWhile:
				stmt(s.Body)
				expr(s.Cond)
			case *Switch:
				expr(s.X)
				for _, c := range s.Cases {
					for _, x := range c.Body {
						stmt(x)
					}
				}
			case *Return:
				expr(s.X)
			}
		}
		for _, v := range prog.Globals {
			if v.Type == nil {
				bad("global %s has no type", v.Name)
			}
			if v.Init != nil {
				expr(v.Init)
			}
			if v.Type.IsUnsizedArray() && v.Storage != StorageUniform && v.Storage != StorageBuffer {
				bad("global %s of unsized type %v", v.Name, v.Type)
			}
		}
		for _, f := range prog.Funcs {
			stmt(f.Body)
		}
		for i, p := range problems {
			if i == 5 {
				break
			}
			t.Errorf("%s: %s", e.name, p)
		}
	}
}

// TestScalarTypes: the static scalarTypes has every scalar, each once.
func TestScalarTypes(t *testing.T) {
	for s := Bool; s <= lastScalar; s++ {
		if st := scalarTypes[s]; st == nil || st.Kind != KScalar || st.Scalar != s || ScalarType(s) != st {
			t.Errorf("scalarTypes[%d] = %v", s, st)
		}
	}
}

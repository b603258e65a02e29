package check

// declareFunc declares or defines a function, matching it with earlier
// prototypes of the same signature.
func (c *checker) declareFunc(name string, ret *Type, params []*Var, define bool, pos Pos) *Func {
	if c.scope.parent != nil {
		c.errorf(pos, name, "function definitions and declarations are only allowed at global scope")
	}
	sym := c.scope.syms[name]
	if sym != nil && sym.funcs == nil {
		c.errorf(pos, name, "redefinition")
		return &Func{Name: name, Params: params, Result: ret, Pos: pos}
	}
	if sym == nil {
		if builtinTable[name] != nil && c.prog.ES {
			c.errorf(pos, name, "redefinition of built-in function")
		}
		sym = &symbol{}
		c.scope.syms[name] = sym
	}
	for _, f := range sym.funcs {
		if !sameParams(f.Params, params) {
			continue
		}
		if !Identical(f.Result, ret) {
			c.errorf(pos, name, "overloaded functions must have the same return type")
		}
		if define {
			if f.Body != nil {
				c.errorf(pos, name, "redefinition")
				return &Func{Name: name, Params: params, Result: ret, Pos: pos}
			}
			// The definition's parameter names and qualifiers win.
			f.Params, f.Pos = params, pos
		}
		return f
	}
	f := &Func{Name: name, Params: params, Result: ret, Pos: pos}
	sym.funcs = append(sym.funcs, f)
	if name == "main" {
		if len(params) > 0 || ret.Kind != KVoid {
			c.errorf(pos, "main", "function cannot take any parameter(s) and must return void")
		}
		c.prog.Main = f
	}
	return f
}

func sameParams(a, b []*Var) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Identical(a[i].Type, b[i].Type) {
			return false
		}
	}
	return true
}

// returnStmt checks "return e;" against the current function.
func (c *checker) returnStmt(e Expr, pos Pos) Stmt {
	f := c.fn
	if f == nil {
		return &Return{X: e}
	}
	if e == nil {
		if f.Result.Kind != KVoid {
			c.errorf(pos, "return", "non-void function must return a value")
		}
		return &Return{}
	}
	if isErr(e) {
		return &Return{X: e}
	}
	if f.Result.Kind == KVoid {
		c.errorf(pos, "return", "void function cannot return a value")
		return &Return{}
	}
	if c.implicitRank(e.Type(), f.Result) == rankNone {
		c.errorf(pos, "return", "type does not match, or is not convertible to, the function's return type")
		return &Return{X: e}
	}
	return &Return{X: c.convert(e, f.Result)}
}

// condExpr checks an if/while/for condition.
func (c *checker) condExpr(e Expr, pos Pos) Expr {
	if isErr(e) {
		return e
	}
	if !Identical(e.Type(), TBool) {
		c.errorf(pos, "", "boolean expression expected")
		return bad(pos)
	}
	return e
}

// caseLabel checks a case label: a constant integer of the switch's type,
// not repeated.
func (c *checker) caseLabel(e Expr, sel *Type, seen map[int64]bool, pos Pos) (int64, bool) {
	if isErr(e) {
		return 0, false
	}
	v := constOf(e)
	if v == nil || e.Type().Kind != KScalar || !e.Type().Scalar.IsInt() {
		c.errorf(pos, "case", "case label must be a constant integer expression")
		return 0, false
	}
	if sel != nil && sel.Kind == KScalar && sel.Scalar != e.Type().Scalar && c.implicitRank(e.Type(), sel) == rankNone {
		c.errorf(pos, "case", "case label type does not match the switch expression type")
	}
	n := v.Int()
	if seen[n] {
		c.errorf(pos, "case", "duplicated value")
		return n, false
	}
	seen[n] = true
	return n, true
}

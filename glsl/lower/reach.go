package lower

import "github.com/coopshader/coop/glsl/check"

// reachable returns p with only the functions the entry point (or a global
// initializer) calls or names as a callback, directly or not, and without
// the built-in variables only the others used. glslang drops uncalled
// functions before generating code, so their types, built-ins and
// capabilities (an unused uint8_t parameter needs Int8) stay out of the
// module.
func reachable(p *check.Program) *check.Program {
	used := map[*check.Func]bool{}
	vars := map[*check.Var]bool{}
	var visit func(s check.Stmt)
	note := func(e check.Expr) {
		var f *check.Func
		switch e := e.(type) {
		case *check.Call:
			f = e.Func
		case *check.FuncRef:
			f = e.Func
		case *check.VarRef:
			vars[e.Var] = true
		}
		if f != nil && !used[f] {
			used[f] = true
			if f.Body != nil {
				visit(f.Body)
			}
		}
	}
	visit = func(s check.Stmt) { walkStmt(s, note) }
	for _, v := range p.Globals {
		walkExpr(v.Init, note)
	}
	if p.Main != nil {
		note(&check.Call{Func: p.Main})
	}
	q := *p
	q.Funcs = nil
	for _, f := range p.Funcs {
		if used[f] {
			q.Funcs = append(q.Funcs, f)
		}
	}
	q.Globals = nil
	for _, v := range p.Globals {
		if v.Builtin == check.BuiltinNone || v.Storage != check.StorageIn || vars[v] {
			q.Globals = append(q.Globals, v)
		}
	}
	return &q
}

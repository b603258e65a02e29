package check

// ident resolves a name used as an expression: user symbols first, then
// built-in variables and constants.
func (c *checker) ident(name string, pos Pos) Expr {
	if sym := c.lookup(name); sym != nil {
		switch {
		case sym.v != nil:
			return c.varRef(sym.v, pos)
		case len(sym.funcs) > 0:
			return &FuncRef{exprBase: exprBase{T: tFunction, Pos: pos}, Func: sym.funcs[0]}
		}
		c.errorf(pos, name, " a type name is not an expression")
		return bad(pos)
	}
	if b, ok := builtinVars[name]; ok {
		info := builtinVarTable[b]
		if !c.requireExt(pos, name, info.ext...) {
			return bad(pos)
		}
		if b == BuiltinWorkGroupSize && !c.localSizeSet {
			// Its value would be the default size, not the one declared later.
			c.errorf(pos, name, "can't read from gl_WorkGroupSize before a fixed workgroup size has been declared")
			return bad(pos)
		}
		return c.varRef(c.builtinVar(b), pos)
	}
	if k, ok := builtinConsts[name]; ok && (k.min == 0 || !c.prog.ES && c.prog.Version >= k.min) {
		if name == opacity2StateName {
			c.prog.OpacityMicromap2State = true
		}
		if !c.requireExt(pos, name, k.ext...) {
			return bad(pos)
		}
		if k.unsigned {
			return newConst(IntConst(Uint32, k.val), pos)
		}
		return newConst(IntConst(Int32, k.val), pos)
	}
	if v, ok := builtinIVec3Consts.Get()[name]; ok {
		return newConst(&Value{Type: VectorType(Int32, 3), Elems: []*Value{IntConst(Int32, v[0]), IntConst(Int32, v[1]), IntConst(Int32, v[2])}}, pos)
	}
	c.errorf(pos, name, "undeclared identifier")
	return bad(pos)
}

// varRef refers to v; constants with folded values become Const nodes.
func (c *checker) varRef(v *Var, pos Pos) Expr {
	if b := v.anonBlock; b != nil {
		return &Field{exprBase: exprBase{T: v.Type, Pos: pos}, X: &VarRef{exprBase: exprBase{T: b.Type, Pos: pos}, Var: b}, Index: v.anonIndex, Name: v.Name}
	}
	if v.Storage == StorageConst && v.Value != nil && v.Init == nil {
		return newConst(v.Value, pos)
	}
	return &VarRef{exprBase: exprBase{T: v.Type, Pos: pos}, Var: v}
}

// builtinVar returns the Var of a built-in variable, adding it to the
// program's globals on first use.
func (c *checker) builtinVar(b BuiltinVar) *Var {
	if v := c.builtinUsed[b]; v != nil {
		return v
	}
	info := builtinVarTable[b]
	v := &Var{Name: info.name, Type: info.typ, Storage: StorageIn, Builtin: b, SpecID: -1, Layout: noLayout()}
	if b == BuiltinEnableOpacityMicromapEXT {
		v.Storage, v.Value = StorageConst, BoolConst(false)
	}
	if b == BuiltinWorkGroupSize {
		v.Storage = StorageConst
		v.Value = c.workGroupSizeValue()
		if c.prog.LocalSizeSpec != [3]int{-1, -1, -1} {
			// A spec-constant composite of the sizes, each either a constant
			// or a specialization constant with its local_size_*_id.
			args := make([]Expr, 3)
			for i, id := range c.prog.LocalSizeSpec {
				def := IntConst(Uint32, int64(c.prog.LocalSize[i]))
				if id < 0 {
					args[i] = newConst(def, Pos{})
					continue
				}
				// Builtin marks it as the workgroup size itself: its default
				// is local_size_*, whatever a constant_id of the same id says.
				sv := &Var{Name: "gl_WorkGroupSize." + "xyz"[i:i+1], Type: TUint, Storage: StorageSpecConst, SpecID: id, Value: def, Layout: noLayout(), Builtin: BuiltinWorkGroupSize}
				c.prog.Globals = append(c.prog.Globals, sv)
				args[i] = &VarRef{exprBase: exprBase{T: TUint}, Var: sv}
			}
			v.Init = &Construct{exprBase: exprBase{T: uvec3}, Args: args}
		}
	}
	c.builtinUsed[b] = v
	c.prog.Globals = append(c.prog.Globals, v)
	return v
}

func (c *checker) workGroupSizeValue() *Value {
	v := &Value{Type: uvec3}
	for _, n := range c.prog.LocalSize {
		v.Elems = append(v.Elems, IntConst(Uint32, int64(n)))
	}
	return v
}

func noLayout() Layout { return Layout{Set: -1, Binding: -1, Location: -1} }

package check

// bad is the result of an expression that failed to check; it carries a
// void type so later rules stay quiet about it.
func bad(pos Pos) Expr {
	return &Const{exprBase: exprBase{T: tError, Pos: pos}, Val: &Value{Type: tError}}
}

// tError is the type of erroneous expressions; rules accept it silently.
var tError = &Type{Kind: KVoid, Name: "error"}

func isErr(e Expr) bool { return e.Type() == tError }

func constOf(e Expr) *Value {
	if k, ok := e.(*Const); ok && k.T != tError {
		return k.Val
	}
	return nil
}

func newConst(v *Value, pos Pos) Expr {
	return &Const{exprBase: exprBase{T: v.Type, Pos: pos}, Val: v}
}

// convert converts e to t (same shape or cooperative), folding constants.
func (c *checker) convert(e Expr, t *Type) Expr {
	if Identical(e.Type(), t) || isErr(e) {
		return e
	}
	if v := constOf(e); v != nil && (t.Kind == KScalar || t.Kind == KVector || t.Kind == KMatrix || t.IsCoop()) {
		nv := convertValue(v, t)
		nv.Type = t
		return newConst(nv, e.Position())
	}
	return &Convert{exprBase: exprBase{T: t, Pos: e.Position()}, X: e}
}

// coerce implicitly converts e to t for an assignment-like context, or
// reports op's glslang-style error.
func (c *checker) coerce(e Expr, t *Type, op string, pos Pos) Expr {
	if isErr(e) || t == tError {
		return e
	}
	if c.implicitRank(e.Type(), t) == rankNone {
		c.errorf(pos, op, " cannot convert from ' %s' to ' temp %s'", c.typeDesc(e), t)
		return bad(pos)
	}
	return c.convert(e, t)
}

// typeDesc spells an operand's type with glslang's "const"/"temp" prefix.
func (c *checker) typeDesc(e Expr) string {
	if constOf(e) != nil {
		return "const " + e.Type().String()
	}
	return "temp " + e.Type().String()
}

func (c *checker) opError(pos Pos, op string, x, y Expr) Expr {
	c.errorf(pos, op, " wrong operand types: no operation '%s' exists that takes a left-hand operand of type ' %s' and a right operand of type ' %s' (or there is no acceptable conversion)", op, c.typeDesc(x), c.typeDesc(y))
	return bad(pos)
}

// arithScalar reports whether s supports arithmetic operators.
func arithScalar(s Scalar) bool { return s.IsInt() || s.IsIEEEFloat() }

// binary checks x op y and returns the typed node (folded when constant).
func (c *checker) binary(op BinaryOp, x, y Expr, pos Pos) Expr {
	if isErr(x) || isErr(y) {
		return bad(pos)
	}
	tx, ty := x.Type(), y.Type()
	if tx.Kind == KReference || ty.Kind == KReference {
		return c.refBinary(op, x, y, pos)
	}
	opName := op.String()
	var rt *Type
	switch op {
	case LogAnd, LogOr, LogXor:
		if !Identical(tx, TBool) || !Identical(ty, TBool) {
			return c.opError(pos, opName, x, y)
		}
		rt = TBool
	case Eq, Ne:
		// bfloat16 and the 8-bit and smaller floats have no comparisons
		// (glslang has none, SPIR-V none for them); nor has a spirv_type
		// (glslang emits OpIEqual, which SPV_INTEL_int4 forbids).
		if tx.Contains(func(t *Type) bool { return t.IsOpaque() || t.IsCoop() || t.Scalar.IsNarrowFloat() || t.Kind == KSpirv }) || ty.Scalar.IsNarrowFloat() {
			return c.opError(pos, opName, x, y)
		}
		if !Identical(tx, ty) {
			s, ok := c.binaryScalar(tx.Scalar, ty.Scalar)
			if !ok || tx.Kind != ty.Kind || tx.N != ty.N || tx.Rows != ty.Rows || !(tx.Kind == KScalar || tx.Kind == KVector || tx.Kind == KMatrix) {
				return c.opError(pos, opName, x, y)
			}
			x, y = c.convert(x, tx.WithScalar(s)), c.convert(y, ty.WithScalar(s))
		}
		rt = TBool
	case Lt, Gt, Le, Ge:
		if tx.Kind != KScalar || ty.Kind != KScalar || !arithScalar(tx.Scalar) || !arithScalar(ty.Scalar) {
			return c.opError(pos, opName, x, y)
		}
		s, ok := c.binaryScalar(tx.Scalar, ty.Scalar)
		if !ok {
			return c.opError(pos, opName, x, y)
		}
		x, y = c.convert(x, ScalarType(s)), c.convert(y, ScalarType(s))
		rt = TBool
	case Shl, Shr:
		// Cooperative vectors shift only by a vector of their own type;
		// cooperative matrices have no shifts in SPIR-V.
		if !intShaped(tx) || !intShaped(ty) || tx.Kind == KScalar && ty.Kind != KScalar ||
			tx.Kind != KScalar && ty.Kind != KScalar && (tx.Kind != ty.Kind || tx.N != ty.N) ||
			(tx.IsCoop() || ty.IsCoop()) && (tx.Kind != KCoopVec || !Identical(tx, ty)) {
			return c.opError(pos, opName, x, y)
		}
		rt = tx
	case Mod, BitAnd, BitOr, BitXor:
		// SPIR-V's cooperative matrices have + - * / only.
		if !intShaped(tx) || !intShaped(ty) || tx.IsCoopMat() || ty.IsCoopMat() {
			return c.opError(pos, opName, x, y)
		}
		var ok bool
		x, y, rt, ok = c.componentwise(x, y)
		if !ok {
			return c.opError(pos, opName, x, y)
		}
	default: // + - * /
		var ok bool
		x, y, rt, ok = c.arith(op, x, y)
		if !ok {
			return c.opError(pos, opName, x, y)
		}
	}
	if vx, vy := constOf(x), constOf(y); vx != nil && vy != nil {
		if v := foldBinary(op, vx, vy, rt); v != nil {
			v.Type = rt
			if rt.Kind == KScalar {
				v = normalizeScalar(v, rt)
			}
			return newConst(v, pos)
		}
	}
	return &Binary{exprBase: exprBase{T: rt, Pos: pos}, Op: op, X: x, Y: y}
}

// refBinary checks GL_EXT_buffer_reference2's pointer arithmetic as
// glslang has it: ref + n, n + ref and ref - n step by RefStride bytes and
// keep the reference type; ref - ref is the int64_t distance in steps of
// the left operand's stride. n is any scalar integer, converted to int64_t
// here as glslang does. Every other operator on references is an error
// (glslang also takes an integer vector for n, and then writes a module
// spirv-val rejects).
func (c *checker) refBinary(op BinaryOp, x, y Expr, pos Pos) Expr {
	tx, ty := x.Type(), y.Type()
	intScalar := func(t *Type) bool { return t.Kind == KScalar && t.Scalar.IsInt() }
	var rt, ref *Type
	switch {
	case (op == Eq || op == Ne) && tx.Kind == KReference && ty.Kind == KReference:
		c.errorf(pos, op.String(), "can't use with reference types")
		return bad(pos)
	case (op == Add || op == Sub) && tx.Kind == KReference && intScalar(ty):
		rt, ref = tx, tx
	case op == Add && intScalar(tx) && ty.Kind == KReference:
		rt, ref = ty, ty
	case op == Sub && tx.Kind == KReference && ty.Kind == KReference:
		rt, ref = TInt64, tx
	}
	if rt == nil || ref.Struct.Fields != nil && !refSized(ref) {
		return c.opError(pos, op.String(), x, y)
	}
	if !c.requireExt(pos, "buffer reference math", "GL_EXT_buffer_reference2") {
		return bad(pos)
	}
	if intScalar(tx) {
		x = c.convert(x, TInt64)
	}
	if intScalar(ty) {
		y = c.convert(y, TInt64)
	}
	return &Binary{exprBase: exprBase{T: rt, Pos: pos}, Op: op, X: x, Y: y}
}

func normalizeScalar(v *Value, t *Type) *Value {
	v.Type = t
	return v
}

func intShaped(t *Type) bool {
	return (t.Kind == KScalar || t.Kind == KVector || t.Kind == KCoopVec || t.Kind == KCoopMat || t.Kind == KCoopMatNV) && t.Scalar.IsInt()
}

// componentwise converts scalar/vector operands of a component-wise
// operator to a common component type; a scalar may pair with a vector.
func (c *checker) componentwise(x, y Expr) (Expr, Expr, *Type, bool) {
	tx, ty := x.Type(), y.Type()
	if tx.IsCoop() || ty.IsCoop() {
		if Identical(tx, ty) {
			return x, y, tx, true
		}
		return x, y, nil, false
	}
	if tx.Kind == KVector && ty.Kind == KVector && (tx.N != ty.N || !sameSpec(tx.SpecLen, ty.SpecLen)) {
		return x, y, nil, false
	}
	s, ok := c.binaryScalar(tx.Scalar, ty.Scalar)
	if !ok {
		return x, y, nil, false
	}
	x, y = c.convert(x, tx.WithScalar(s)), c.convert(y, ty.WithScalar(s))
	if tx.Kind == KScalar {
		return x, y, y.Type(), true
	}
	return x, y, x.Type(), true
}

// arith checks + - * / operands: numeric scalars, vectors and matrices with
// GLSL's shape rules, and cooperative matrices/vectors of identical type
// (or, for *, a scalar of their exact component type).
func (c *checker) arith(op BinaryOp, x, y Expr) (Expr, Expr, *Type, bool) {
	tx, ty := x.Type(), y.Type()
	if tx.IsCoop() || ty.IsCoop() {
		if !arithScalar(tx.Scalar) || !arithScalar(ty.Scalar) {
			return x, y, nil, false
		}
		if Identical(tx, ty) {
			if op == Mul && tx.Kind == KCoopMatNV {
				return x, y, nil, false
			}
			return x, y, tx, true
		}
		if op != Mul {
			return x, y, nil, false
		}
		// A cooperative matrix's scalar is exactly its component type, as
		// in glslang; a cooperative vector's scalar converts implicitly to
		// the component type (int constants for uint components), never
		// the other way.
		if tx.IsCoopMat() && !Identical(ty, ScalarType(tx.Scalar)) || ty.IsCoopMat() && !Identical(tx, ScalarType(ty.Scalar)) {
			return x, y, nil, false
		}
		if tx.Kind == KScalar && c.implicitRank(tx, ScalarType(ty.Scalar)) != rankNone {
			return c.convert(x, ScalarType(ty.Scalar)), y, ty, true
		}
		if ty.Kind == KScalar && c.implicitRank(ty, ScalarType(tx.Scalar)) != rankNone {
			return x, c.convert(y, ScalarType(tx.Scalar)), tx, true
		}
		return x, y, nil, false
	}
	if !tx.IsNumeric() || !ty.IsNumeric() || !arithScalar(tx.Scalar) || !arithScalar(ty.Scalar) {
		return x, y, nil, false
	}
	s, ok := c.binaryScalar(tx.Scalar, ty.Scalar)
	if !ok {
		return x, y, nil, false
	}
	x, y = c.convert(x, tx.WithScalar(s)), c.convert(y, ty.WithScalar(s))
	tx, ty = x.Type(), y.Type()
	switch {
	case tx.Kind == KScalar:
		return x, y, ty, true
	case ty.Kind == KScalar:
		return x, y, tx, true
	case tx.Kind == KVector && ty.Kind == KVector:
		if tx.N != ty.N || !sameSpec(tx.SpecLen, ty.SpecLen) {
			return x, y, nil, false
		}
		return x, y, tx, true
	case op == Mul && tx.Kind == KMatrix && ty.Kind == KMatrix:
		if tx.N != ty.Rows {
			return x, y, nil, false
		}
		return x, y, MatrixType(s, ty.N, tx.Rows), true
	case op == Mul && tx.Kind == KMatrix && ty.Kind == KVector:
		if tx.N != ty.N {
			return x, y, nil, false
		}
		return x, y, VectorType(s, tx.Rows), true
	case op == Mul && tx.Kind == KVector && ty.Kind == KMatrix:
		if tx.N != ty.Rows {
			return x, y, nil, false
		}
		return x, y, VectorType(s, ty.N), true
	case tx.Kind == KMatrix && ty.Kind == KMatrix:
		if tx.N != ty.N || tx.Rows != ty.Rows {
			return x, y, nil, false
		}
		return x, y, tx, true
	}
	return x, y, nil, false
}

// unary checks -x, !x, ~x (increments are checked by incDec).
func (c *checker) unary(op UnaryOp, x Expr, pos Pos, tok string) Expr {
	if isErr(x) {
		return bad(pos)
	}
	t := x.Type()
	ok := false
	switch op {
	case Neg:
		ok = (t.IsNumeric() || t.IsCoop()) && arithScalar(t.Scalar)
	case Not:
		ok = Identical(t, TBool)
	case BitNot:
		ok = intShaped(t) && !t.IsCoopMat()
	}
	if !ok {
		c.errorf(pos, tok, " wrong operand type no operation '%s' exists that takes an operand of type %s (or there is no acceptable conversion)", tok, c.typeDesc(x))
		return bad(pos)
	}
	if v := constOf(x); v != nil && t.Kind != KCoopMat && t.Kind != KCoopMatNV {
		return newConst(foldUnary(op, v), pos)
	}
	return &Unary{exprBase: exprBase{T: t, Pos: pos}, Op: op, X: x}
}

// incDec checks ++/-- on an l-value.
func (c *checker) incDec(op UnaryOp, x Expr, pos Pos, tok string) Expr {
	if isErr(x) {
		return bad(pos)
	}
	t := x.Type()
	if !(t.Kind == KScalar || t.Kind == KVector || t.Kind == KMatrix) || !arithScalar(t.Scalar) {
		c.errorf(pos, tok, " wrong operand type no operation '%s' exists that takes an operand of type %s (or there is no acceptable conversion)", tok, c.typeDesc(x))
		return bad(pos)
	}
	if !c.checkLValue(x, tok, pos) {
		return bad(pos)
	}
	return &Unary{exprBase: exprBase{T: t, Pos: pos}, Op: op, X: x}
}

// lvalueVar returns the variable at the root of an l-value expression and
// whether the path is assignable (no swizzle repeats, no rvalues).
func lvalueRoot(e Expr) (*Var, bool) {
	switch e := e.(type) {
	case *VarRef:
		return e.Var, true
	case *Index:
		return lvalueRoot(e.X)
	case *Field:
		// References and buffer_type descriptors lead to memory of their
		// own, whatever holds the pointer or descriptor.
		if xt := e.X.Type(); xt.Kind == KReference || xt.Kind == KStruct && xt.Struct.BufferType == StorageBuffer {
			return nil, true
		}
		return lvalueRoot(e.X)
	case *Swizzle:
		seen := 0
		for _, k := range e.Comps {
			if seen&(1<<k) != 0 {
				return nil, false
			}
			seen |= 1 << k
		}
		return lvalueRoot(e.X)
	}
	return nil, false
}

// checkLValue reports an error unless e can be assigned.
func (c *checker) checkLValue(e Expr, op string, pos Pos) bool {
	if isErr(e) {
		return false
	}
	v, ok := lvalueRoot(e)
	if !ok {
		c.errorf(pos, op, " l-value required")
		return false
	}
	if v == nil {
		if fieldReadOnly(e) {
			c.errorf(pos, op, " l-value required (can't modify a readonly buffer)")
			return false
		}
		return true
	}
	switch {
	case v.Storage == StorageConst || v.Storage == StorageSpecConst:
		c.errorf(pos, op, " l-value required (can't modify a const)")
	case v.Storage == StorageIn || v.Builtin != BuiltinNone:
		c.errorf(pos, op, " l-value required (can't modify shader input)")
	case v.Storage == StorageUniform || v.Storage == StoragePushConstant:
		c.errorf(pos, op, " l-value required (can't modify a uniform)")
	case v.Storage == StorageResourceHeap || v.Storage == StorageSamplerHeap:
		c.errorf(pos, op, " l-value required (can't modify a descriptor heap)")
	case v.Memory&ReadOnly != 0 || fieldReadOnly(e):
		c.errorf(pos, op, " l-value required (can't modify a readonly buffer)")
	case v.Storage == StorageParam && v.ConstParam:
		c.errorf(pos, op, " l-value required (can't modify a const)")
	default:
		return true
	}
	return false
}

func fieldReadOnly(e Expr) bool {
	for {
		switch x := e.(type) {
		case *Field:
			st := x.X.Type()
			if st.Struct != nil && x.Index < len(st.Struct.Fields) && st.Struct.Fields[x.Index].Memory&ReadOnly != 0 {
				return true
			}
			e = x.X
		case *Index:
			e = x.X
		case *Swizzle:
			e = x.X
		default:
			return false
		}
	}
}

// assign checks lhs op= rhs.
func (c *checker) assign(op BinaryOp, lhs, rhs Expr, pos Pos, tok string) Expr {
	if isErr(lhs) || isErr(rhs) {
		return bad(pos)
	}
	if !c.checkLValue(lhs, tok, pos) {
		return bad(pos)
	}
	lt := lhs.Type()
	if op == 0 {
		if lt.Contains((*Type).IsOpaque) {
			c.errorf(pos, tok, " cannot assign to an opaque type")
			return bad(pos)
		}
		r := c.coerce(rhs, lt, "assign", pos)
		if isErr(r) {
			return r
		}
		return &Assign{exprBase: exprBase{T: lt, Pos: pos}, LHS: lhs, RHS: r}
	}
	// Compound: check lhs op rhs, then the result must convert back to lhs.
	// Like glslang, a bfloat16/fp8 right operand first widens to the left
	// operand's component type (these types have no arithmetic of their
	// own, so lhs op rhs would otherwise be rejected).
	if rs := rhs.Type().Scalar; rs.IsNarrowFloat() && lt.Scalar.IsIEEEFloat() && rhs.Type().IsNumeric() {
		if to := rhs.Type().WithScalar(lt.Scalar); c.implicitRank(rhs.Type(), to) != rankNone {
			rhs = c.convert(rhs, to)
		}
	}
	res := c.binary(op, lhs, rhs, pos)
	if isErr(res) {
		return res
	}
	rt := res.Type()
	if !Identical(rt, lt) && c.implicitRank(rt, lt) == rankNone {
		c.errorf(pos, "assign", " cannot convert from ' temp %s' to ' temp %s'", rt, lt)
		return bad(pos)
	}
	r := rhs
	if b, ok := res.(*Binary); ok {
		r = b.Y
	}
	return &Assign{exprBase: exprBase{T: lt, Pos: pos}, Op: op, LHS: lhs, RHS: r}
}

// cond checks c ? x : y.
func (c *checker) cond(cnd, x, y Expr, pos Pos) Expr {
	if isErr(cnd) || isErr(x) || isErr(y) {
		return bad(pos)
	}
	if !Identical(cnd.Type(), TBool) {
		c.errorf(cnd.Position(), "?", "boolean expression expected")
		return bad(pos)
	}
	tx, ty := x.Type(), y.Type()
	if tx.Contains((*Type).isResource) || ty.Contains((*Type).isResource) {
		// SPIR-V cannot select between samplers, textures or images.
		c.errorf(pos, ":", " wrong operand types: no operation ':' exists that takes a left-hand operand of type ' %s' and a right operand of type ' %s' (or there is no acceptable conversion)", c.typeDesc(x), c.typeDesc(y))
		return bad(pos)
	}
	if !Identical(tx, ty) {
		switch {
		case c.implicitRank(ty, tx) != rankNone:
			y = c.convert(y, tx)
		case c.implicitRank(tx, ty) != rankNone:
			x = c.convert(x, ty)
		default:
			c.errorf(pos, ":", " wrong operand types: no operation ':' exists that takes a left-hand operand of type ' %s' and a right operand of type ' %s' (or there is no acceptable conversion)", c.typeDesc(x), c.typeDesc(y))
			return bad(pos)
		}
	}
	if v := constOf(cnd); v != nil && constOf(x) != nil && constOf(y) != nil {
		if v.Bool() {
			return x
		}
		return y
	}
	return &Cond{exprBase: exprBase{T: x.Type(), Pos: pos}, C: cnd, X: x, Y: y}
}

// index checks x[i].
func (c *checker) index(x, i Expr, pos Pos) Expr {
	if isErr(x) || isErr(i) {
		return bad(pos)
	}
	t := x.Type()
	it := i.Type()
	if it.Kind != KScalar || !it.Scalar.IsInt() {
		c.errorf(i.Position(), "[", " integer expression required")
		return bad(pos)
	}
	var et *Type
	limit := -1
	switch t.Kind {
	case KArray:
		et = t.Elem
		if t.SpecLen == nil && t.N > 0 {
			limit = t.N
		}
	case KVector:
		et = ScalarType(t.Scalar)
		if t.SpecLen == nil {
			limit = t.N
		}
	case KMatrix:
		et = t.Column()
		limit = t.N
	case KCoopMat, KCoopMatNV, KCoopVec:
		et = ScalarType(t.Scalar)
	default:
		c.errorf(pos, "expression", " left of '[' is not of type array, matrix, or vector ")
		return bad(pos)
	}
	maxIdx, implicit := c.implicitArrays[t]
	if implicit && constOf(i) == nil {
		c.errorf(pos, "[", " array must be redeclared with a size before being indexed with a variable")
		return bad(pos)
	}
	if v := constOf(i); v != nil {
		n := v.Int()
		if implicit && n > maxIdx {
			c.implicitArrays[t] = n
		}
		if it.Scalar.IsUnsigned() {
			n = int64(v.Uint() & (1<<63 - 1))
		}
		if n < 0 || limit >= 0 && n >= int64(limit) {
			c.errorf(i.Position(), "[", " index out of range '%d'", n)
			return bad(pos)
		}
		if xv := constOf(x); xv != nil && xv.Elems != nil && t.Kind != KCoopMat && t.Kind != KCoopMatNV && t.Kind != KCoopVec {
			return newConst(xv.Elems[n], pos)
		}
	}
	return &Index{exprBase: exprBase{T: et, Pos: pos}, X: x, Index: i}
}

// swizzle checks x.sel on a scalar or short vector.
func (c *checker) swizzle(x Expr, sel string, pos Pos) Expr {
	t := x.Type()
	if t.Kind == KVector && (t.Long || t.N > 4 || t.SpecLen != nil) {
		c.errorf(pos, sel, " can't use swizzle on a long vector")
		return bad(pos)
	}
	n := t.N
	if t.Kind == KScalar {
		n = 1
	}
	if len(sel) > 4 {
		c.errorf(pos, sel, " illegal vector field selection")
		return bad(pos)
	}
	sets := [3]string{"xyzw", "rgba", "stpq"}
	set := -1
	comps := make([]int, len(sel))
	for i, ch := range sel {
		found := false
		for si, s := range sets {
			for k, sc := range s {
				if sc == ch && (set == -1 || set == si) {
					set, comps[i], found = si, k, true
				}
			}
		}
		if !found {
			c.errorf(pos, sel, " illegal vector field selection")
			return bad(pos)
		}
		if comps[i] >= n {
			c.errorf(pos, sel, " vector field selection out of range")
			return bad(pos)
		}
	}
	rt := VectorType(t.Scalar, len(comps))
	if v := constOf(x); v != nil {
		if len(comps) == 1 {
			return newConst(v.component(comps[0]), pos)
		}
		out := &Value{Type: rt}
		for _, k := range comps {
			out.Elems = append(out.Elems, v.component(k))
		}
		return newConst(out, pos)
	}
	return &Swizzle{exprBase: exprBase{T: rt, Pos: pos}, X: x, Comps: comps}
}

// field selects a struct/block/reference member by name.
func (c *checker) field(x Expr, name string, pos Pos) Expr {
	t := x.Type()
	for i, f := range t.Struct.Fields {
		if f.Name == name {
			if v := constOf(x); v != nil && v.Elems != nil {
				return newConst(v.Elems[i], pos)
			}
			return &Field{exprBase: exprBase{T: f.Type, Pos: pos}, X: x, Index: i, Name: name}
		}
	}
	c.errorf(pos, name, " no such field in structure")
	return bad(pos)
}

func (c *checker) intConst(e Expr, what string) (int64, bool) {
	v := constOf(e)
	if v == nil || e.Type().Kind != KScalar || !e.Type().Scalar.IsInt() {
		c.errorf(e.Position(), what, " constant expression required (integer)")
		return 0, false
	}
	return v.Int(), true
}

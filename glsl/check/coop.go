package check

// Built-ins of the cooperative matrix and vector extensions, whose
// signatures are generic over cooperative types, arrays and callbacks and so
// are checked here rather than from the signature table.

var tFunction = &Type{Kind: KFunction}

// coopExt gives the extension each cooperative built-in needs.
func coopExt(fn Builtin) string {
	switch {
	case fn <= BCoopMatMulAdd:
		return "GL_KHR_cooperative_matrix"
	case fn <= BCoopMatMulAddNV:
		return "GL_NV_cooperative_matrix"
	case fn <= BSetTensorViewClipNV:
		return "GL_NV_cooperative_matrix2"
	}
	return "GL_NV_cooperative_vector"
}

func (c *checker) builtinResult(fn Builtin, rt *Type, args []Expr, pos Pos) Expr {
	params := make([]*Type, len(args))
	for i, a := range args {
		params[i] = a.Type()
	}
	return &BuiltinCall{exprBase: exprBase{T: rt, Pos: pos}, Fn: fn, Params: params, Args: args}
}

// memoryArg checks the array argument of cooperative loads and stores: an
// l-value in a buffer block, a buffer reference, or shared memory.
func (c *checker) memoryArg(a Expr) bool {
	v, ok := lvalueRoot(a)
	if !ok {
		return false
	}
	if v == nil { // through a buffer reference
		return true
	}
	return v.Storage == StorageBuffer || v.Storage == StorageShared
}

// scalarArg converts an argument to an integer scalar parameter type.
func (c *checker) scalarArg(a Expr, t *Type, name string) (Expr, bool) {
	if c.implicitRank(a.Type(), t) == rankNone {
		// glslang accepts int where uint is asked for in these built-ins.
		at := a.Type()
		if at.Kind == KScalar && at.Scalar.IsInt() && t.Kind == KScalar && t.Scalar.IsInt() {
			return c.convert(a, t), true
		}
		c.errorf(a.Position(), name, " no matching overloaded function found")
		return a, false
	}
	return c.convert(a, t), true
}

func (c *checker) coopCall(fn Builtin, name string, args []Expr, pos Pos) Expr {
	if !c.requireExt(pos, name, coopExt(fn)) {
		return bad(pos)
	}
	noMatch := func() Expr {
		c.errorf(pos, name, " no matching overloaded function found")
		return bad(pos)
	}
	kind := func(i int, k Kind) bool { return i < len(args) && args[i].Type().Kind == k }
	intsTo := func(from, to int, t *Type) bool {
		for i := from; i < to; i++ {
			a, ok := c.scalarArg(args[i], t, name)
			if !ok {
				return false
			}
			args[i] = a
		}
		return true
	}
	ints := func(from int, t *Type) bool { return intsTo(from, len(args), t) }
	loadStoreMsg := func() Expr {
		c.errorf(pos, name, " Only l-values corresponding to storage block or shared variables can be used with cooperative matrix load/store functions.")
		return bad(pos)
	}
	switch fn {
	case BCoopMatLoad, BCoopMatStore, BCoopMatLoadNV, BCoopMatStoreNV:
		mk := KCoopMat
		if fn == BCoopMatLoadNV || fn == BCoopMatStoreNV {
			mk = KCoopMatNV
		}
		if len(args) != 5 || !kind(0, mk) {
			return noMatch()
		}
		if (fn == BCoopMatLoad || fn == BCoopMatLoadNV) && !c.checkLValue(args[0], name, pos) {
			return bad(pos)
		}
		if !c.memoryArg(args[1]) {
			return loadStoreMsg()
		}
		last := TInt
		if mk == KCoopMatNV {
			last = TBool
		}
		if !intsTo(2, 4, TUint) {
			return bad(pos)
		}
		if a, ok := c.scalarArg(args[4], last, name); ok {
			args[4] = a
		} else {
			return bad(pos)
		}
		return c.builtinResult(fn, TVoid, args, pos)
	case BCoopMatMulAdd, BCoopMatMulAddNV:
		mk := KCoopMat
		if fn == BCoopMatMulAddNV {
			mk = KCoopMatNV
		}
		if len(args) < 3 || len(args) > 4 || fn == BCoopMatMulAddNV && len(args) != 3 || !kind(0, mk) || !kind(1, mk) || !kind(2, mk) {
			return noMatch()
		}
		a, b, acc := args[0].Type(), args[1].Type(), args[2].Type()
		if mk == KCoopMat && (!useIs(a, 0) || !useIs(b, 1) || !useIs(acc, 2)) {
			c.errorf(pos, name, " cooperative matrix uses must be A, B and Accumulator")
			return bad(pos)
		}
		if !dimEq(a.Params[1], acc.Params[1]) || !dimEq(a.Params[2], b.Params[1]) || !dimEq(b.Params[2], acc.Params[2]) {
			c.errorf(pos, name, " cooperative matrix dimensions do not match (A is MxK, B is KxN, C is MxN)")
			return bad(pos)
		}
		if len(args) == 4 {
			if _, ok := c.intConst(args[3], name); !ok {
				return bad(pos)
			}
		}
		return c.builtinResult(fn, acc, args, pos)
	case BCoopMatLoadTensorNV, BCoopMatStoreTensorNV:
		if len(args) < 4 || !kind(0, KCoopMat) || !kind(3, KTensorLayout) {
			return noMatch()
		}
		if fn == BCoopMatLoadTensorNV && !c.checkLValue(args[0], name, pos) {
			return bad(pos)
		}
		if !c.memoryArg(args[1]) {
			return loadStoreMsg()
		}
		if a, ok := c.scalarArg(args[2], TUint, name); ok {
			args[2] = a
		} else {
			return bad(pos)
		}
		rest := args[4:]
		if len(rest) > 0 && rest[0].Type().Kind == KTensorView {
			rest = rest[1:]
		}
		if fn == BCoopMatStoreTensorNV && len(rest) > 0 || len(rest) > 2 {
			return noMatch()
		}
		dim := args[3].Type().Params[0].Val
		for i, r := range rest {
			f, ok := r.(*FuncRef)
			if !ok {
				return noMatch()
			}
			if i == 1 && !c.requireExt(pos, name, "GL_NV_cooperative_matrix_decode_vector") {
				return bad(pos)
			}
			c.checkDecodeFunc(f.Func, args[0].Type(), dim, i == 1, pos)
		}
		return c.builtinResult(fn, TVoid, args, pos)
	case BCoopMatReduceNV:
		if len(args) != 4 || !kind(0, KCoopMat) || !kind(1, KCoopMat) {
			return noMatch()
		}
		if !c.checkLValue(args[0], name, pos) {
			return bad(pos)
		}
		if _, ok := c.intConst(args[2], name); !ok {
			return bad(pos)
		}
		f, ok := args[3].(*FuncRef)
		if !ok {
			return noMatch()
		}
		c.checkCombineFunc(f.Func, args[1].Type().Scalar, pos)
		if args[0].Type().Scalar != args[1].Type().Scalar {
			c.errorf(pos, "", " cooperative matrix input and result types must match")
		}
		return c.builtinResult(fn, TVoid, args, pos)
	case BCoopMatPerElementNV:
		if len(args) < 3 || !kind(0, KCoopMat) || !kind(1, KCoopMat) {
			return noMatch()
		}
		if !c.checkLValue(args[0], name, pos) {
			return bad(pos)
		}
		f, ok := args[2].(*FuncRef)
		if !ok {
			return noMatch()
		}
		if !Identical(args[0].Type(), args[1].Type()) {
			c.errorf(pos, "", " cooperative matrix input and result types must match")
		}
		c.checkElemFunc(f.Func, args[1].Type(), args[3:], pos)
		return c.builtinResult(fn, TVoid, args, pos)
	case BCoopMatTransposeNV:
		if len(args) != 2 || !kind(0, KCoopMat) || !kind(1, KCoopMat) {
			return noMatch()
		}
		if !c.checkLValue(args[0], name, pos) {
			return bad(pos)
		}
		return c.builtinResult(fn, TVoid, args, pos)
	case BCreateTensorLayoutNV:
		if len(args) < 1 || len(args) > 2 {
			return noMatch()
		}
		t := &Type{Kind: KTensorLayout, Params: []Dim{{}, {}}}
		for i, a := range args {
			d, ok := c.dimOf(typeArg{e: a})
			if !ok {
				c.errorf(a.Position(), name, " constant expression required (integer)")
				return bad(pos)
			}
			t.Params[i] = d
		}
		return c.builtinResult(fn, t, args, pos)
	case BSetTensorLayoutBlockSizeNV, BSetTensorLayoutDimensionNV, BSetTensorLayoutStrideNV, BSliceTensorLayoutNV, BSetTensorLayoutClampValueNV:
		if len(args) < 2 || !kind(0, KTensorLayout) || !ints(1, TUint) {
			return noMatch()
		}
		return c.builtinResult(fn, args[0].Type(), args, pos)
	case BCreateTensorViewNV:
		if len(args) < 1 {
			return noMatch()
		}
		t := &Type{Kind: KTensorView}
		for i, a := range args {
			d, ok := c.dimOf(typeArg{e: a})
			if i == 1 {
				v := constOf(a)
				if v == nil || !Identical(a.Type(), TBool) {
					c.errorf(a.Position(), name, " constant expression required (bool)")
					return bad(pos)
				}
				d, ok = Dim{Val: int64(v.Bits)}, true
			}
			if !ok {
				c.errorf(a.Position(), name, " constant expression required (integer)")
				return bad(pos)
			}
			t.Params = append(t.Params, d)
		}
		t.Params = tensorViewDefaults(t.Params)
		return c.builtinResult(fn, t, args, pos)
	case BSetTensorViewDimensionsNV, BSetTensorViewStrideNV, BSetTensorViewClipNV:
		if len(args) < 2 || !kind(0, KTensorView) || !ints(1, TUint) {
			return noMatch()
		}
		return c.builtinResult(fn, args[0].Type(), args, pos)
	case BCoopVecLoadNV, BCoopVecStoreNV:
		if len(args) != 3 || !kind(0, KCoopVec) {
			return noMatch()
		}
		if fn == BCoopVecLoadNV && !c.checkLValue(args[0], name, pos) {
			return bad(pos)
		}
		if args[1].Type().Kind != KArray || !c.memoryArg(args[1]) {
			c.errorf(pos, name, " buffer argument must be in buffer or shared storage")
			return bad(pos)
		}
		if !ints(2, TUint) {
			return bad(pos)
		}
		return c.builtinResult(fn, TVoid, args, pos)
	case BCoopVecMatMulNV, BCoopVecMatMulAddNV:
		want := 11
		if fn == BCoopVecMatMulAddNV {
			want = 14
		}
		if len(args) != want || !kind(0, KCoopVec) || !kind(1, KCoopVec) {
			return noMatch()
		}
		if !c.checkLValue(args[0], name, pos) {
			return bad(pos)
		}
		// (result, input, inputInterp, matrix, matrixOffset, matrixInterp,
		// [bias, biasOffset, biasInterp,] M, K, layout, transpose, stride)
		kinds := "vvi@ui"
		if want == 14 {
			kinds += "@ui"
		}
		kinds += "uuibu"
		for i, k := range kinds {
			switch k {
			case 'i', 'u':
				t := TInt
				if k == 'u' {
					t = TUint
				}
				a, ok := c.scalarArg(args[i], t, name)
				if !ok {
					return bad(pos)
				}
				args[i] = a
			case 'b':
				if !Identical(args[i].Type(), TBool) {
					return noMatch()
				}
			case '@':
				if args[i].Type().Kind != KArray || !c.memoryArg(args[i]) {
					c.errorf(pos, name, " buffer argument must be in buffer or shared storage")
					return bad(pos)
				}
			}
		}
		return c.builtinResult(fn, TVoid, args, pos)
	case BCoopVecOuterProductAccumulateNV:
		if len(args) != 7 || !kind(0, KCoopVec) || !kind(1, KCoopVec) || !kind(2, KArray) {
			return noMatch()
		}
		if args[0].Type().Scalar != args[1].Type().Scalar {
			c.errorf(pos, name, " cooperative vector basic types must match")
			return bad(pos)
		}
		if !c.memoryArg(args[2]) {
			c.errorf(pos, name, " buffer argument must be in buffer or shared storage")
			return bad(pos)
		}
		if !ints(3, TUint) {
			return bad(pos)
		}
		return c.builtinResult(fn, TVoid, args, pos)
	case BCoopVecReduceSumAccumulateNV:
		if len(args) != 3 || !kind(0, KCoopVec) || !kind(1, KArray) {
			return noMatch()
		}
		if !c.memoryArg(args[1]) {
			c.errorf(pos, name, " buffer argument must be in buffer or shared storage")
			return bad(pos)
		}
		if !ints(2, TUint) {
			return bad(pos)
		}
		return c.builtinResult(fn, TVoid, args, pos)
	}
	return noMatch()
}

func useIs(t *Type, use int64) bool {
	return t.Params[3].Spec != nil || t.Params[3].Val == use
}

// dimEq compares two dimensions, trusting specialization constants.
func dimEq(a, b Dim) bool {
	if a.Spec != nil || b.Spec != nil {
		return true
	}
	return a.Val == b.Val
}

func (c *checker) funcErr(f *Func, pos Pos, msg string) {
	c.errorf(pos, mangledName(f), "%s", msg)
}

// mangledName spells a function as glslang's messages do: name(params;).
func mangledName(f *Func) string {
	s := f.Name + "("
	for _, p := range f.Params {
		s += mangleType(p.Type) + ";"
	}
	return s
}

func mangleType(t *Type) string {
	switch t.Kind {
	case KScalar:
		return scalarMangle(t.Scalar)
	case KVector:
		return "v" + string(rune('0'+t.N)) + scalarMangle(t.Scalar)
	case KArray:
		return mangleType(t.Elem) + "[" + itoa(t.N) + "]"
	case KReference:
		return "1"
	}
	return t.String()
}

func scalarMangle(s Scalar) string {
	switch s {
	case Int32:
		return "i1"
	case Uint32:
		return "u1"
	case Float32:
		return "f1"
	case Float16:
		return "f161"
	case Uint16:
		return "u161"
	case Int16:
		return "i161"
	}
	return s.String()
}

func itoa(n int) string {
	if n == 0 {
		return ""
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func constIn(p *Var) bool { return p.ConstParam && p.Dir == DirIn }

// checkDecodeFunc applies the decodeFunc (and, with vector set, the
// decodeVectorFunc) signature rules of GL_NV_cooperative_matrix2 and
// GL_NV_cooperative_matrix_decode_vector.
func (c *checker) checkDecodeFunc(f *Func, m *Type, dim int64, vector bool, pos Pos) {
	for _, p := range f.Params {
		if !constIn(p) {
			c.funcErr(f, pos, "function parameters must all be qualified 'const in'")
		}
	}
	if len(f.Params) != 3 {
		c.funcErr(f, pos, "decode function must have three parameters")
		return
	}
	if f.Params[0].Type.Kind != KReference {
		c.funcErr(f, pos, "first parameter must be buffer reference type")
	}
	for _, p := range f.Params[1:] {
		t := p.Type
		if t.Kind != KArray || !Identical(t.Elem, TUint) || t.SpecLen == nil && int64(t.N) != dim {
			c.funcErr(f, pos, "coordinate parameters must be uint32_t")
			break
		}
	}
	r := f.Result
	if !vector {
		if r.Kind != KScalar || r.Scalar != m.Scalar {
			c.funcErr(f, pos, "decodeFunc return type must be the cooperative matrix component type (scalar)")
		}
		return
	}
	if r.Kind != KVector || r.N != 2 && r.N != 4 && r.N != 8 {
		c.funcErr(f, pos, "decodeVectorFunc return vector length must be 2, 4, or 8")
		return
	}
	if r.Scalar != m.Scalar {
		c.funcErr(f, pos, "decodeVectorFunc return type component must match cooperative matrix component type")
	}
}

// checkCombineFunc applies coopMatReduceNV's combineOp rules.
func (c *checker) checkCombineFunc(f *Func, s Scalar, pos Pos) {
	for _, p := range f.Params {
		if !constIn(p) {
			c.funcErr(f, pos, "function parameters must all be qualified 'const in'")
		}
	}
	if len(f.Params) != 2 {
		c.funcErr(f, pos, "combineOp must have two parameters")
		return
	}
	for _, p := range f.Params {
		if !Identical(p.Type, ScalarType(s)) {
			c.funcErr(f, pos, "parameter types must match cooperative matrix component type")
		}
	}
	if !Identical(f.Result, ScalarType(s)) {
		c.funcErr(f, pos, "return type must match cooperative matrix component type")
	}
}

// checkElemFunc applies coopMatPerElementNV's elemOp rules.
func (c *checker) checkElemFunc(f *Func, m *Type, extra []Expr, pos Pos) {
	for _, p := range f.Params {
		if !constIn(p) {
			c.funcErr(f, pos, "function parameters must all be qualified 'const in'")
			break
		}
	}
	if len(f.Params) != 3+len(extra) {
		c.funcErr(f, pos, "number of parameters must match call to coopMatPerElementNV")
		return
	}
	for i, p := range f.Params {
		var want *Type
		switch {
		case i < 2:
			want = TUint
		case i == 2:
			want = ScalarType(m.Scalar)
		default:
			at := extra[i-3].Type()
			want = at
			if at.IsCoopMat() {
				want = ScalarType(at.Scalar)
			}
		}
		if !Identical(p.Type, want) {
			c.funcErr(f, pos, "parameter types must match or be cooperative matrix component type")
		}
	}
	if !Identical(f.Result, ScalarType(m.Scalar)) {
		c.funcErr(f, pos, "return type must match cooperative matrix component type")
	}
}

package check

// typeArg is one type parameter between '<' and '>': a type or an
// expression.
type typeArg struct {
	t   *Type
	e   Expr
	pos Pos
}

// specDefault evaluates a specialization-constant expression with every
// specialization constant at its default value.
func specDefault(e Expr) *Value {
	switch e := e.(type) {
	case *Const:
		return e.Val
	case *VarRef:
		if e.Var.Init != nil && e.Var.Storage == StorageConst {
			return specDefault(e.Var.Init)
		}
		return e.Var.Value
	case *Unary:
		if x := specDefault(e.X); x != nil {
			return foldUnary(e.Op, x)
		}
	case *Binary:
		x, y := specDefault(e.X), specDefault(e.Y)
		if x != nil && y != nil {
			if v := foldBinary(e.Op, x, y, e.T); v != nil {
				v.Type = e.T
				return v
			}
		}
	case *Convert:
		if x := specDefault(e.X); x != nil && x.Elems == nil {
			return convertScalar(x, e.T.Scalar)
		}
	case *Cond:
		if k := specDefault(e.C); k != nil {
			if k.Bool() {
				return specDefault(e.X)
			}
			return specDefault(e.Y)
		}
	}
	return nil
}

// dimOf turns a constant or spec-constant integer expression into a Dim.
func (c *checker) dimOf(a typeArg) (Dim, bool) {
	if a.e == nil || isErr(a.e) {
		return Dim{}, false
	}
	t := a.e.Type()
	if t.Kind != KScalar || !t.Scalar.IsInt() {
		return Dim{}, false
	}
	if v := constOf(a.e); v != nil {
		return Dim{Val: v.Int()}, true
	}
	if IsSpecConst(a.e) {
		d := Dim{Spec: a.e}
		if v := specDefault(a.e); v != nil {
			d.Val = v.Int()
		}
		return d, true
	}
	return Dim{}, false
}

// paramType builds a parameterized type: coopmat, [fiu]coopmatNV,
// coopvecNV, vector, tensorLayoutNV, tensorViewNV. name is the declared
// name used in messages.
func (c *checker) paramType(kw string, args []typeArg, hasArgs bool, declName string, pos Pos) *Type {
	dims := func(from int) ([]Dim, bool) {
		var ds []Dim
		for _, a := range args[from:] {
			d, ok := c.dimOf(a)
			if !ok {
				c.errorf(a.pos, "", "type parameter must be a constant integer expression")
				return nil, false
			}
			ds = append(ds, d)
		}
		return ds, true
	}
	switch kw {
	case "tensorARM":
		return c.tensorARMType(args, declName, pos)
	case "coopmat":
		if !c.requireExt(pos, kw, "GL_KHR_cooperative_matrix") {
			return nil
		}
		if !hasArgs {
			c.errorf(pos, "", "coopmat missing type parameters")
			return nil
		}
		if len(args) != 5 {
			c.errorf(pos, "", "coopmat incorrect number of type parameters")
			return nil
		}
		et := args[0].t
		if et != nil && et.Kind == KSpirv {
			// A component type glslang has no keyword for (4-bit integers).
			ds, ok := dims(1)
			if !ok {
				return nil
			}
			return &Type{Kind: KCoopMat, Elem: et, Params: ds}
		}
		if et == nil || et.Kind != KScalar || !et.Scalar.IsNumeric() {
			c.errorf(pos, "void", "coopmat invalid basic type")
			return nil
		}
		ds, ok := dims(1)
		if !ok {
			return nil
		}
		return &Type{Kind: KCoopMat, Scalar: et.Scalar, Params: ds}
	case "fcoopmatNV", "icoopmatNV", "ucoopmatNV":
		if !c.requireExt(pos, kw, "GL_NV_cooperative_matrix") {
			return nil
		}
		if !hasArgs {
			c.errorf(pos, declName, "expected four type parameters")
			return nil
		}
		if len(args) != 4 {
			c.errorf(pos, declName, "expected four type parameters")
			return nil
		}
		ds, ok := dims(0)
		if !ok {
			return nil
		}
		var s Scalar
		bits := ds[0].Val
		switch kw[0] {
		case 'f':
			s = map[int64]Scalar{16: Float16, 32: Float32, 64: Float64}[bits]
		case 'i':
			s = map[int64]Scalar{8: Int8, 16: Int16, 32: Int32, 64: Int64}[bits]
		default:
			s = map[int64]Scalar{8: Uint8, 16: Uint16, 32: Uint32, 64: Uint64}[bits]
		}
		if s == NoScalar || ds[0].Spec != nil {
			if kw[0] == 'f' {
				c.errorf(pos, declName, "expected 16, 32, or 64 bits for first type parameter")
			} else {
				c.errorf(pos, declName, "expected 8, 16, 32, or 64 bits for first type parameter")
			}
			return nil
		}
		return &Type{Kind: KCoopMatNV, Scalar: s, Params: ds[1:]}
	case "coopvecNV", "vector":
		ext := "GL_NV_cooperative_vector"
		if kw == "vector" {
			ext = "GL_EXT_long_vector"
		}
		if !c.requireExt(pos, kw, ext) {
			return nil
		}
		if len(args) != 2 {
			c.errorf(pos, kw, "expected two type parameters")
			return nil
		}
		et := args[0].t
		if et == nil || et.Kind != KScalar || kw == "coopvecNV" && !et.Scalar.IsNumeric() {
			c.errorf(pos, kw, "expected a scalar component type")
			return nil
		}
		ds, ok := dims(1)
		if !ok {
			return nil
		}
		if kw == "coopvecNV" {
			return &Type{Kind: KCoopVec, Scalar: et.Scalar, Params: ds}
		}
		return &Type{Kind: KVector, Scalar: et.Scalar, N: int(ds[0].Val), SpecLen: ds[0].Spec, Long: true}
	case "tensorLayoutNV", "tensorViewNV":
		if !c.requireExt(pos, kw, "GL_NV_cooperative_matrix2") {
			return nil
		}
		var ds []Dim
		for i, a := range args {
			d, ok := c.dimOf(a)
			// tensorViewNV's second parameter, hasDimensions, is a bool.
			if kw == "tensorViewNV" && i == 1 && a.e != nil && Identical(a.e.Type(), TBool) {
				if v := constOf(a.e); v != nil {
					d, ok = Dim{Val: int64(v.Bits)}, true
				}
			}
			if !ok {
				c.errorf(a.pos, "", "type parameter must be a constant integer expression")
				return nil
			}
			ds = append(ds, d)
		}
		if kw == "tensorLayoutNV" {
			if len(ds) < 1 || len(ds) > 2 {
				c.errorf(pos, kw, "expected one or two type parameters")
				return nil
			}
			if len(ds) == 1 {
				ds = append(ds, Dim{})
			}
			return &Type{Kind: KTensorLayout, Params: ds}
		}
		if len(ds) < 1 || len(ds) > 7 {
			c.errorf(pos, kw, "expected one to seven type parameters")
			return nil
		}
		return &Type{Kind: KTensorView, Params: tensorViewDefaults(ds)}
	}
	c.errorf(pos, declName, "unexpected type parameters")
	return nil
}

// tensorViewDefaults completes tensorViewNV parameters: hasDimensions
// defaults to false and the permutation to the identity.
func tensorViewDefaults(ds []Dim) []Dim {
	if len(ds) == 1 {
		ds = append(ds, Dim{})
	}
	for i := int64(len(ds) - 2); i < ds[0].Val && i < 5; i++ {
		ds = append(ds, Dim{Val: i})
	}
	return ds
}

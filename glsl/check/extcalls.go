package check

// takesString reports whether name is a built-in whose first argument may
// be a string literal (and not shadowed by a user function).
func (c *checker) takesString(name string) bool {
	if name != "debugPrintfEXT" && name != "abortEXT" {
		return false
	}
	sym := c.lookup(name)
	return sym == nil || len(sym.funcs) == 0
}

// extCall checks the built-ins of the extensions whose rules do not fit the
// signature tables.
func (c *checker) extCall(fn Builtin, name string, args []Expr, pos Pos) Expr {
	switch fn {
	case BDebugPrintfEXT:
		if !c.requireExt(pos, name, "GL_EXT_debug_printf") {
			return bad(pos)
		}
		if len(args) == 0 {
			c.errorf(pos, name, " no matching overloaded function found")
			return bad(pos)
		}
		return c.printfCall(fn, name, args, pos)
	case BAbortEXT:
		if !c.requireExt(pos, name, "GL_EXT_abort") {
			return bad(pos)
		}
		return c.printfCall(fn, name, args, pos)
	}
	if _, ok := texForms[fn]; ok || fn == BTextureQueryLevels || fn == BTextureSamples {
		return c.textureCall(fn, name, args, pos)
	}
	if fn == BSparseImageLoadARB {
		return c.imageCall(fn, name, args, pos)
	}
	if fn == BNonuniformEXT {
		return c.nonuniform(name, args, pos)
	}
	if fn >= BTensorReadARM && fn <= BTensorSizeARM {
		return c.tensorCall(fn, name, args, pos)
	}
	if fn >= BBitcastQCOM && fn <= BCoopmatToVectorQCOM {
		return c.qcomConversion(fn, name, args, pos)
	}
	c.errorf(pos, name, " no matching overloaded function found")
	return bad(pos)
}

// nonuniformEXT(x) (GL_EXT_nonuniform_qualifier) marks x as varying
// between invocations, for indexing descriptor arrays.
func (c *checker) nonuniform(name string, args []Expr, pos Pos) Expr {
	if !c.requireExt(pos, name, "GL_EXT_nonuniform_qualifier") {
		return bad(pos)
	}
	if len(args) != 1 || args[0].Type().Kind == KVoid || args[0].Type().Kind == KFunction || args[0].Type().Kind == KString {
		c.errorf(pos, name, " no matching overloaded function found")
		return bad(pos)
	}
	if v := constOf(args[0]); v != nil {
		return args[0]
	}
	return c.builtinResult(BNonuniformEXT, args[0].Type(), args, pos)
}

// qcomConversion checks the built-ins of GL_QCOM_cooperative_matrix_conversion,
// whose arrays may have any (specialization-constant) length, with
// glslang's element types:
//
//	bitcastQCOM(src[], out dst[])                      int, uint, float, float16_t
//	extractSubArrayQCOM(src[], uint start, out dst[])  the same, dst's as src's
//	vectorToCoopmatQCOM(src[], out coopmat dst)        src of uint or dst's components
//	coopmatToVectorQCOM(coopmat src, out dst[])        dst of uint or src's components
//
// The result is void; the last argument is the out l-value.
func (c *checker) qcomConversion(fn Builtin, name string, args []Expr, pos Pos) Expr {
	if !c.requireExt(pos, name, "GL_QCOM_cooperative_matrix_conversion") {
		return bad(pos)
	}
	// elem is the element of an array argument (NoScalar if it is none) among
	// the scalars allowed.
	elem := func(a Expr, allowed compSet) Scalar {
		t := a.Type()
		if t.Kind != KArray || t.IsUnsizedArray() || t.Elem.Kind != KScalar || !allowed.has(t.Elem.Scalar) {
			return NoScalar
		}
		return t.Elem.Scalar
	}
	words := comps(Int32, Uint32, Float32, Float16)
	vecs := words | comps(Int8, Uint8)
	mat := func(a Expr) bool { return a.Type().Kind == KCoopMat }
	compatible := func(arr, comp Scalar) bool { return arr == Uint32 || arr == comp }
	var ok bool
	switch fn {
	case BBitcastQCOM:
		ok = len(args) == 2 && elem(args[0], words) != NoScalar && elem(args[1], words) != NoScalar
		if ok {
			src, dst := args[0].Type(), args[1].Type()
			if src.SpecLen == nil && dst.SpecLen == nil && src.N*src.Elem.Scalar.Bits() != dst.N*dst.Elem.Scalar.Bits() {
				c.errorf(pos, name, "source and target arrays have different bit sizes")
				return bad(pos)
			}
		}
	case BExtractSubArrayQCOM:
		ok = len(args) == 3 && elem(args[0], words) != NoScalar && elem(args[0], words) == elem(args[2], words) &&
			c.implicitRank(args[1].Type(), TUint) != rankNone
		if ok {
			args[1] = c.convert(args[1], TUint)
		}
	case BVectorToCoopmatQCOM:
		ok = len(args) == 2 && elem(args[0], vecs) != NoScalar && mat(args[1])
		if ok && !compatible(elem(args[0], vecs), args[1].Type().Scalar) {
			c.errorf(pos, name, "source and destination element types are not compatible")
			return bad(pos)
		}
	case BCoopmatToVectorQCOM:
		ok = len(args) == 2 && mat(args[0]) && elem(args[1], vecs) != NoScalar
		if ok && !compatible(elem(args[1], vecs), args[0].Type().Scalar) {
			c.errorf(pos, name, "source and destination element types are not compatible")
			return bad(pos)
		}
	}
	if !ok {
		c.errorf(pos, name, " no matching overloaded function found")
		return bad(pos)
	}
	if !c.checkLValue(args[len(args)-1], name, pos) {
		return bad(pos)
	}
	return c.builtinResult(fn, TVoid, args, pos)
}

// printfCall checks the format-string calls debugPrintfEXT(fmt, ...) and
// abortEXT([fmt, ...]): a string literal, then any number of scalars and
// vectors of numeric or boolean type. The format itself is not parsed: its
// directives are the consumer's business, as in glslang.
func (c *checker) printfCall(fn Builtin, name string, args []Expr, pos Pos) Expr {
	for i, a := range args {
		t := a.Type()
		if i == 0 {
			if t.Kind != KString {
				c.errorf(a.Position(), name, " first argument must be a string literal")
				return bad(pos)
			}
			continue
		}
		if (t.Kind != KScalar && t.Kind != KVector) || !(t.Scalar.IsNumeric() || t.Scalar == Bool) {
			c.errorf(a.Position(), name, " argument %d must be a scalar or vector, not %s", i+1, t)
			return bad(pos)
		}
	}
	return c.builtinResult(fn, TVoid, args, pos)
}

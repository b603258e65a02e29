package check

// resQuals are the memory qualifiers and format qualifier of the sampler,
// texture or image an expression names.
type resQuals struct {
	mem    MemoryQual
	format string
}

// resourceQuals gives the qualifiers of the sampler, texture or image
// expression e (through array indexing and nonuniformEXT): its variable's,
// or those of a descriptor heap member with the heap block's memory
// qualifiers. ok is false when e names no variable.
func resourceQuals(e Expr) (q resQuals, ok bool) {
	member := false
	for {
		switch x := e.(type) {
		case *VarRef:
			q.mem |= x.Var.Memory
			if !member {
				q.format = x.Var.Layout.Format
			}
			return q, true
		case *Index:
			e = x.X
		case *Field:
			st := x.X.Type().Struct
			if st == nil || x.Index >= len(st.Fields) {
				return q, false
			}
			if f := st.Fields[x.Index]; !member {
				q.format, member = f.Format, true
				q.mem |= f.Memory
			}
			e = x.X
		case *BuiltinCall:
			if x.Fn != BNonuniformEXT {
				return q, false
			}
			e = x.Args[0]
		default:
			return q, false
		}
	}
}

// imageCall checks the image built-ins: imageLoad, imageStore, imageSize,
// imageSamples and imageAtomic* (with the GL_KHR_memory_scope_semantics
// forms taking scope and semantics).
func (c *checker) imageCall(fn Builtin, name string, args []Expr, pos Pos) Expr {
	noMatch := func() Expr {
		c.errorf(pos, name, " no matching overloaded function found")
		return bad(pos)
	}
	if len(args) == 0 {
		return noMatch()
	}
	it := args[0].Type()
	if it.Kind != KOpaque || it.Image == nil || it.Image.Kind != 'i' {
		return noMatch()
	}
	im := it.Image
	s := it.Scalar
	coordT := VectorType(Int32, im.imageCoords())
	texel := VectorType(s, 4)
	data := ScalarType(s)
	// want are the parameters after the image: the coordinate, the sample
	// of multisampled images, then the function's own.
	want := []*Type{coordT}
	if im.MS {
		want = append(want, TInt)
	}
	var rt *Type
	scoped := 0 // trailing scope and semantics arguments
	switch fn {
	case BImageSize:
		want, rt = nil, VectorType(Int32, im.sizeComps())
	case BImageSamples:
		if !im.MS {
			return noMatch()
		}
		want, rt = nil, TInt
	case BImageLoad:
		rt = texel
	case BSparseImageLoadARB:
		if !c.requireExt(pos, name, "GL_ARB_sparse_texture2") {
			return bad(pos)
		}
		if im.Dim == "1D" || im.Dim == "Buffer" {
			return noMatch()
		}
		want, rt = append(want, texel), TInt
	case BImageStore:
		want, rt = append(want, texel), TVoid
	case BImageAtomicLoad:
		rt, scoped = data, 3
	case BImageAtomicStore:
		want, rt, scoped = append(want, data), TVoid, 3
	case BImageAtomicCompSwap:
		want, rt = append(want, data, data), data
		if len(args)-1 == len(want)+5 {
			scoped = 5
		}
	default:
		want, rt = append(want, data), data
		if len(args)-1 == len(want)+3 {
			scoped = 3
		}
	}
	for range scoped {
		want = append(want, TInt)
	}
	if len(args)-1 != len(want) {
		return noMatch()
	}
	conv := []Expr{args[0]}
	for i, a := range args[1:] {
		if fn == BSparseImageLoadARB && i == len(want)-1 {
			// The texel comes back through an out argument.
			if !Identical(a.Type(), texel) {
				return noMatch()
			}
			if !c.checkLValue(a, name, pos) {
				return bad(pos)
			}
			conv = append(conv, a)
			continue
		}
		if c.implicitRank(a.Type(), want[i]) == rankNone {
			return noMatch()
		}
		conv = append(conv, c.convert(a, want[i]))
	}
	if q, ok := resourceQuals(args[0]); ok && !c.imageAccessOK(fn, name, it, q, pos) {
		return bad(pos)
	}
	if scoped > 0 {
		if !c.requireExt(pos, name, "GL_KHR_memory_scope_semantics") {
			return bad(pos)
		}
		for _, a := range conv[len(conv)-scoped:] {
			if constOf(a) == nil {
				c.errorf(a.Position(), name, "scope and semantics arguments must be compile-time constants")
				return bad(pos)
			}
		}
		if !c.memorySemantics(name, conv[len(conv)-scoped+1:], pos) {
			return bad(pos)
		}
	}
	return c.builtinResult(fn, rt, conv, pos)
}

// imageAccessOK applies the rules that depend on the image variable: the
// memory qualifiers an access may not drop, and the formats and extensions
// of atomics.
func (c *checker) imageAccessOK(fn Builtin, name string, it *Type, q resQuals, pos Pos) bool {
	const drop = "argument cannot drop memory qualifier when passed to formal parameter"
	atomic := fn >= BImageAtomicAdd && fn <= BImageAtomicStore
	floatImage := it.Scalar.IsFloat()
	switch {
	case fn == BImageLoad || fn == BSparseImageLoadARB || atomic && !(floatImage && fn == BImageAtomicStore):
		if q.mem&WriteOnly != 0 {
			c.errorf(pos, "writeonly", drop)
			return false
		}
	}
	switch {
	case fn == BImageStore || atomic && !(floatImage && fn == BImageAtomicLoad):
		if q.mem&ReadOnly != 0 {
			c.errorf(pos, "readonly", drop)
			return false
		}
	}
	if !atomic {
		return true
	}
	f := q.format
	if !floatImage {
		switch {
		case f != "r32i" && f != "r32ui" && f != "r64i" && f != "r64ui":
			c.errorf(pos, name, "only supported on image with format r32i or r32ui")
			return false
		case it.Scalar == Int64 && f != "r64i":
			c.errorf(pos, name, "only supported on image with format r64i")
			return false
		case it.Scalar == Uint64 && f != "r64ui":
			c.errorf(pos, name, "only supported on image with format r64ui")
			return false
		}
		return true
	}
	switch fn {
	case BImageAtomicExchange:
	case BImageAtomicAdd, BImageAtomicLoad, BImageAtomicStore:
		if !c.requireExt(pos, name, "GL_EXT_shader_atomic_float") {
			return false
		}
	case BImageAtomicMin, BImageAtomicMax:
		if !c.requireExt(pos, name, "GL_EXT_shader_atomic_float2") {
			return false
		}
	default:
		c.errorf(pos, name, " no matching overloaded function found")
		return false
	}
	if c.prog.ES && f != "r32f" {
		c.errorf(pos, name, "only supported on image with format r32f")
		return false
	}
	return true
}

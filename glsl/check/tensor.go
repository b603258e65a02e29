package check

// GL_ARM_tensors: the tensorARM<T, rank> type and tensorReadARM,
// tensorWriteARM and tensorSizeARM.

var tensorExt = []string{"GL_ARM_tensors"}

// Tensor operand bits (SPIR-V TensorOperands) that shaders pass as the
// optional fourth argument of tensorReadARM/tensorWriteARM.
const (
	tensorNonTemporal = 0x1
	tensorOutOfBounds = 0x2 // followed by the value read out of bounds
)

// tensorElemExt names the extension a tensor element type needs beyond
// GL_ARM_tensors, or "".
func tensorElemExt(s Scalar) string {
	switch s {
	case BFloat16:
		return "GL_ARM_tensors_bfloat16"
	case E5M2:
		return "GL_ARM_tensors_float_e5m2"
	case E4M3:
		return "GL_ARM_tensors_float_e4m3"
	}
	return ""
}

// tensorARMType builds tensorARM<T, rank>: T a bool, integer or float
// scalar, rank a constant of at least 1.
func (c *checker) tensorARMType(args []typeArg, declName string, pos Pos) *Type {
	if !c.requireExt(pos, "tensorARM", tensorExt...) {
		return nil
	}
	if len(args) != 2 || args[0].t == nil || args[1].t != nil {
		c.errorf(pos, declName, "tensorARM needs an element type and a rank")
		return nil
	}
	et := args[0].t
	if et.Kind != KScalar || !(et.Scalar.IsInt() || et.Scalar == Bool || et.Scalar.IsIEEEFloat() || tensorElemExt(et.Scalar) != "") {
		c.errorf(pos, declName, "tensorARM element type must be a bool, integer or float scalar")
		return nil
	}
	if ext := tensorElemExt(et.Scalar); ext != "" && !c.requireExt(pos, "tensorARM<"+et.Scalar.String()+">", ext) {
		return nil
	}
	d, ok := c.dimOf(args[1])
	if !ok || d.Spec != nil || d.Val < 1 {
		c.errorf(args[1].pos, declName, "tensorARM rank must be a constant integer of at least 1")
		return nil
	}
	return &Type{Kind: KTensorARM, Scalar: et.Scalar, Params: []Dim{d}}
}

// tensorCall checks the tensor built-ins:
//
//	uint tensorSizeARM(tensorARM t, uint dim)
//	void tensorReadARM(tensorARM t, uint coords[rank], out T data [, operands [, T oobValue]])
//	void tensorWriteARM(tensorARM t, uint coords[rank], T data [, operands])
//
// data is a scalar of the element type or an array of them; operands is a
// constant mask of gl_TensorOperands*ARM, and the out-of-bounds bit (reads
// only) adds the value to read outside the tensor.
func (c *checker) tensorCall(fn Builtin, name string, args []Expr, pos Pos) Expr {
	if !c.requireExt(pos, name, tensorExt...) {
		return bad(pos)
	}
	noMatch := func() Expr {
		c.errorf(pos, name, " no matching overloaded function found")
		return bad(pos)
	}
	if len(args) < 2 || args[0].Type().Kind != KTensorARM {
		return noMatch()
	}
	tt := args[0].Type()
	rank := tt.Params[0].Val
	elem := ScalarType(tt.Scalar)
	if fn == BTensorSizeARM {
		if len(args) != 2 || c.implicitRank(args[1].Type(), TUint) == rankNone {
			return noMatch()
		}
		args[1] = c.convert(args[1], TUint)
		k := constOf(args[1])
		if k == nil {
			c.errorf(args[1].Position(), name, " dimension argument must be constant")
			return bad(pos)
		}
		if int64(k.Uint()) >= rank {
			c.errorf(args[1].Position(), name, " dimension %d out of range for a tensor of rank %d", k.Uint(), rank)
			return bad(pos)
		}
		if !c.tensorArgMemory(args[0], ReadOnly|WriteOnly, pos) {
			return bad(pos)
		}
		return c.builtinResult(fn, TUint, args, pos)
	}
	// The data is read from a readonly formal and written to a writeonly
	// one, so a tensor passes its qualifiers on only where they fit.
	formal := MemoryQual(WriteOnly)
	if fn == BTensorReadARM {
		formal = ReadOnly
	}
	if !c.tensorArgMemory(args[0], formal, pos) {
		return bad(pos)
	}
	if len(args) < 3 || len(args) > 5 {
		return noMatch()
	}
	ct := args[1].Type()
	if ct.Kind != KArray || ct.Elem.Kind != KScalar || ct.Elem.Scalar != Uint32 || ct.SpecLen != nil || ct.IsUnsizedArray() {
		c.errorf(args[1].Position(), name, " coordinates must be a sized array of uint")
		return bad(pos)
	}
	if int64(ct.N) != rank {
		c.errorf(args[1].Position(), name, " %d coordinates given for a tensor of rank %d", ct.N, rank)
		return bad(pos)
	}
	dt := args[2].Type()
	if !Identical(dt, elem) && !(dt.Kind == KArray && !dt.IsUnsizedArray() && Identical(dt.Elem, elem)) {
		c.errorf(args[2].Position(), name, " data must be %s or an array of %s", elem, elem)
		return bad(pos)
	}
	if fn == BTensorReadARM && !c.checkLValue(args[2], name, pos) {
		return bad(pos)
	}
	if len(args) > 3 {
		k := constOf(args[3])
		if k == nil || args[3].Type().Kind != KScalar || !args[3].Type().Scalar.IsInt() {
			c.errorf(args[3].Position(), name, " tensor operands must be a constant integer")
			return bad(pos)
		}
		mask := k.Uint()
		allowed := uint64(tensorNonTemporal)
		if fn == BTensorReadARM {
			allowed |= tensorOutOfBounds
		}
		if mask&^allowed != 0 {
			c.errorf(args[3].Position(), name, " unsupported tensor operands 0x%x", mask&^allowed)
			return bad(pos)
		}
		want := 4
		if mask&tensorOutOfBounds != 0 {
			want = 5
		}
		if len(args) != want {
			c.errorf(pos, name, " tensor operands 0x%x need %d arguments", mask, want)
			return bad(pos)
		}
		if want == 5 {
			// SPIR-V wants a constant instruction of the element type
			// itself: no conversion, no specialization constant.
			if !Identical(args[4].Type(), elem) {
				c.errorf(args[4].Position(), name, " out-of-bounds value must be %s", elem)
				return bad(pos)
			}
			if constOf(args[4]) == nil || IsSpecConst(args[4]) {
				c.errorf(args[4].Position(), name, " argument following gl_TensorOperandsOutOfBoundsValueARM must be constant")
				return bad(pos)
			}
		}
	}
	return c.builtinResult(fn, TVoid, args, pos)
}

// tensorArgMemory checks that passing tensor arg to a formal parameter
// qualified formal drops none of the tensor's memory qualifiers (restrict
// may be dropped), as for other opaque types.
func (c *checker) tensorArgMemory(arg Expr, formal MemoryQual, pos Pos) bool {
	m := rootMemory(arg)
	coherent := Coherent | DeviceCoherent | QueueFamilyCoherent | WorkgroupCoherent | SubgroupCoherent
	ok := true
	for _, q := range []struct {
		m    MemoryQual
		name string
		fits MemoryQual
	}{
		{Volatile, "volatile", Volatile},
		{Coherent, "coherent", Coherent | DeviceCoherent},
		{DeviceCoherent, "devicecoherent", Coherent | DeviceCoherent},
		{QueueFamilyCoherent, "queuefamilycoherent", Coherent | DeviceCoherent | QueueFamilyCoherent},
		{WorkgroupCoherent, "workgroupcoherent", coherent &^ SubgroupCoherent},
		{SubgroupCoherent, "subgroupcoherent", coherent},
		{ReadOnly, "readonly", ReadOnly},
		{WriteOnly, "writeonly", WriteOnly},
	} {
		if m&q.m != 0 && formal&q.fits == 0 {
			c.errorf(pos, q.name, "argument cannot drop memory qualifier when passed to formal parameter ")
			ok = false
		}
	}
	return ok
}

// rootMemory is the memory qualifiers of the variable an opaque value
// comes from (through array indexing).
func rootMemory(e Expr) MemoryQual {
	for {
		switch x := e.(type) {
		case *VarRef:
			return x.Var.Memory
		case *Index:
			e = x.X
		default:
			return 0
		}
	}
}

// tensorVarCheck rejects tensors (and arrays of them) outside uniform
// variables; parameters are declared elsewhere.
func (c *checker) tensorVarCheck(v *Var) {
	t := v.Type
	for t.Kind == KArray {
		t = t.Elem
	}
	if t.Kind == KTensorARM && v.Storage != StorageUniform {
		c.errorf(v.Pos, "tensorARM", "tensorARM types can only be used in uniform variables or function parameters: %s", v.Name)
	}
}

package check

import (
	"slices"
	"strings"
)

// construct checks a constructor call T(args).
func (c *checker) construct(t *Type, args []Expr, pos Pos) Expr {
	for _, a := range args {
		if isErr(a) {
			return bad(pos)
		}
	}
	tname := t.String()
	if len(args) == 0 {
		c.errorf(pos, "constructor", " constructor does not have any arguments")
		return bad(pos)
	}
	for _, a := range args {
		if a.Type().Kind == KVoid || a.Type().Kind == KFunction {
			c.errorf(pos, "constructor", " cannot construct with void")
			return bad(pos)
		}
	}
	// uint64_t(ref) and, with GL_EXT_buffer_reference_uvec2, uvec2(ref)
	// give a buffer reference's address.
	if len(args) == 1 && args[0].Type().Kind == KReference {
		if Identical(t, TUint64) || Identical(t, VectorType(Uint32, 2)) && c.extOn("GL_EXT_buffer_reference_uvec2") {
			return &Convert{exprBase: exprBase{T: t, Pos: pos}, X: args[0]}
		}
	}
	if (t.Kind == KScalar || t.Kind == KVector) && t.Scalar >= E2M1 && strings.HasPrefix(c.opts.TargetEnv, "vulkan") {
		// Vulkan has no conversion to the microscaling types (SPIR-V's
		// OpFConvert may not produce one there): only constants convert,
		// folded here, as glslang requires in any environment.
		for _, a := range args {
			if a.Type().Scalar != t.Scalar && slices.ContainsFunc(args, func(a Expr) bool { return constOf(a) == nil }) {
				c.errorf(pos, "constructor", "constructor argument must be a non-spec constant")
				return bad(pos)
			}
		}
	}
	switch t.Kind {
	case KScalar:
		return c.constructScalar(t, args, pos, tname)
	case KVector, KMatrix:
		return c.constructVecMat(t, args, pos, tname)
	case KArray:
		return c.constructArray(t, args, pos)
	case KStruct:
		if len(args) != len(t.Struct.Fields) {
			c.errorf(pos, "constructor", " Number of constructor parameters does not match the number of structure fields")
			return bad(pos)
		}
		out := make([]Expr, len(args))
		for i, a := range args {
			out[i] = c.coerce(a, t.Struct.Fields[i].Type, "constructor", pos)
			if isErr(out[i]) {
				return out[i]
			}
		}
		return c.foldConstruct(t, out, pos)
	case KCoopMat, KCoopMatNV, KCoopVec:
		if t.Elem != nil || len(args) == 1 && args[0].Type().IsCoop() && args[0].Type().Elem != nil {
			// A spirv_type component: GLSL has no value to fill it with;
			// integer ones (SPV_INTEL_int4) convert to and from numeric
			// cooperative matrices.
			if len(args) == 1 && args[0].Type().Kind == t.Kind && t.Kind == KCoopMat && spirvNumeric(t) && spirvNumeric(args[0].Type()) {
				if !c.coopConvertible(args[0].Type(), t) {
					c.errorf(pos, "constructor", " Cooperative matrix type parameters mismatch")
					return bad(pos)
				}
				return c.convert(args[0], t)
			}
			break
		}
		return c.constructCoop(t, args, pos)
	case KOpaque:
		// sampler2D(texture2D, sampler) combines a texture and a sampler.
		if t.Image != nil && t.Image.Kind == 's' && len(args) == 2 {
			tt, sm := args[0].Type(), args[1].Type()
			if tt.Image != nil && tt.Image.Kind == 't' && tt.Image.Dim == t.Image.Dim && tt.Image.Arrayed == t.Image.Arrayed && tt.Image.MS == t.Image.MS && tt.Scalar == t.Scalar && sm.IsSampler() {
				return &Construct{exprBase: exprBase{T: t, Pos: pos}, Args: args}
			}
		}
		// accelerationStructureEXT(uint64_t or uvec2 address).
		if t.Name == "accelerationStructureEXT" && len(args) == 1 {
			if at := args[0].Type(); Identical(at, TUint64) || Identical(at, VectorType(Uint32, 2)) {
				return &Convert{exprBase: exprBase{T: t, Pos: pos}, X: args[0]}
			}
		}
	case KReference:
		// Buffer references convert from uint64_t (GL_EXT_buffer_reference)
		// and uvec2 (GL_EXT_buffer_reference_uvec2), and from references.
		if len(args) == 1 {
			at := args[0].Type()
			if Identical(at, TUint64) || at.Kind == KReference || Identical(at, VectorType(Uint32, 2)) && c.extOn("GL_EXT_buffer_reference_uvec2") {
				return &Convert{exprBase: exprBase{T: t, Pos: pos}, X: args[0]}
			}
		}
	}
	c.errorf(pos, "constructor", " cannot construct this type")
	return bad(pos)
}

// convertibleScalars: explicit conversions exist between all numeric types
// and bool, except bool and the narrow floats (bfloat16, fp8).
func convertibleScalars(from, to Scalar) bool {
	if from == Bool && to.IsNarrowFloat() || to == Bool && from.IsNarrowFloat() {
		return false
	}
	return true
}

func (c *checker) cannotConstruct(pos Pos, tname string) Expr {
	c.errorf(pos, "constructor", " can't convert")
	c.errorf(pos, " temp "+tname, " cannot construct with these arguments")
	return bad(pos)
}

func (c *checker) constructScalar(t *Type, args []Expr, pos Pos, tname string) Expr {
	if len(args) > 1 {
		c.errorf(pos, "constructor", " too many arguments")
		return bad(pos)
	}
	a := args[0]
	at := a.Type()
	switch at.Kind {
	case KScalar:
	case KVector:
		a = c.index(a, newConst(IntConst(Int32, 0), pos), pos)
	case KMatrix:
		a = c.index(c.index(a, newConst(IntConst(Int32, 0), pos), pos), newConst(IntConst(Int32, 0), pos), pos)
	default:
		return c.cannotConstruct(pos, tname)
	}
	if !convertibleScalars(at.Scalar, t.Scalar) {
		return c.cannotConstruct(pos, tname)
	}
	return c.convert(a, t)
}

// flatten splits matrices into columns so that component lists hold only
// scalars and vectors.
func (c *checker) flatten(args []Expr, pos Pos) []Expr {
	var out []Expr
	for _, a := range args {
		if t := a.Type(); t.Kind == KMatrix {
			for k := 0; k < t.N; k++ {
				out = append(out, c.index(a, newConst(IntConst(Int32, int64(k)), pos), pos))
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

func (c *checker) constructVecMat(t *Type, args []Expr, pos Pos, tname string) Expr {
	s := t.Scalar
	for _, a := range args {
		at := a.Type()
		if at.Kind != KScalar && at.Kind != KVector && at.Kind != KMatrix && at.Kind != KCoopVec {
			return c.cannotConstruct(pos, tname)
		}
		if !convertibleScalars(at.Scalar, s) {
			return c.cannotConstruct(pos, tname)
		}
	}
	if len(args) == 1 {
		a := args[0]
		at := a.Type()
		switch {
		case at.Kind == KScalar:
			return c.foldConstruct(t, []Expr{c.convert(a, ScalarType(s))}, pos)
		case at.Kind == t.Kind && at.N == t.N && at.Rows == t.Rows && sameSpec(at.SpecLen, t.SpecLen):
			return c.convert(a, t)
		case at.Kind == KCoopVec && t.Kind == KVector:
			return &Convert{exprBase: exprBase{T: t, Pos: pos}, X: a}
		case at.Kind == KMatrix && t.Kind == KMatrix:
			return c.foldConstruct(t, []Expr{c.convert(a, at.WithScalar(s))}, pos)
		}
	}
	need := t.Components()
	if t.SpecLen != nil {
		need = -1
	}
	flat := c.flatten(args, pos)
	var out []Expr
	have := 0
	for i, a := range flat {
		if need >= 0 && have >= need {
			c.errorf(pos, "constructor", " too many arguments")
			return bad(pos)
		}
		n := a.Type().Components()
		if need >= 0 && have+n > need {
			if i != len(flat)-1 || t.Kind == KMatrix && len(args) > 1 {
				c.errorf(pos, "constructor", " too many arguments")
				return bad(pos)
			}
			// The last argument may be wider than needed: keep its leading
			// components.
			sel := "xyzw"[:need-have]
			a = c.swizzle(a, sel, pos)
			n = need - have
		}
		out = append(out, c.convert(a, a.Type().WithScalar(s)))
		have += n
	}
	if need >= 0 && have < need {
		c.errorf(pos, "constructor", " not enough data provided for construction")
		return bad(pos)
	}
	return c.foldConstruct(t, out, pos)
}

func (c *checker) constructArray(t *Type, args []Expr, pos Pos) Expr {
	if t.N == 0 && t.SpecLen == nil {
		t = &Type{Kind: KArray, Elem: t.Elem, N: len(args)}
	} else if t.SpecLen == nil && len(args) != t.N {
		c.errorf(pos, "constructor", " array constructor needs one argument per array element")
		return bad(pos)
	}
	out := make([]Expr, len(args))
	for i, a := range args {
		out[i] = c.coerce(a, t.Elem, "constructor", pos)
		if isErr(out[i]) {
			return out[i]
		}
	}
	return c.foldConstruct(t, out, pos)
}

func (c *checker) constructCoop(t *Type, args []Expr, pos Pos) Expr {
	if len(args) > 1 {
		if t.Kind == KCoopVec {
			return c.constructCoopVecList(t, args, pos)
		}
		c.errorf(pos, "constructor", " too many arguments")
		return bad(pos)
	}
	a := args[0]
	at := a.Type()
	switch {
	case at.Kind == KScalar:
		// Like any constructor, this converts explicitly.
		if !convertibleScalars(at.Scalar, t.Scalar) || at.Scalar == Bool {
			return c.cannotConstruct(pos, t.String())
		}
		return c.foldConstruct(t, []Expr{c.convert(a, ScalarType(t.Scalar))}, pos)
	case at.Kind == t.Kind:
		if !c.coopConvertible(at, t) {
			c.errorf(pos, "constructor", " Cooperative matrix type parameters mismatch")
			return bad(pos)
		}
		return c.convert(a, t)
	case t.Kind == KCoopVec && at.Kind == KVector:
		return &Convert{exprBase: exprBase{T: t, Pos: pos}, X: a}
	}
	if t.Kind == KCoopVec {
		return c.constructCoopVecList(t, args, pos)
	}
	c.errorf(pos, "constructor", " Cooperative matrix constructor argument must be scalar or cooperative matrix")
	return bad(pos)
}

// coopConvertible: element-type conversions between cooperative types with
// the same shape; KHR matrices may also change use from Accumulator to A or
// B (GL_NV_cooperative_matrix2).
func (c *checker) coopConvertible(from, to *Type) bool {
	switch to.Kind {
	case KCoopVec:
		return from.Params[0].same(to.Params[0])
	case KCoopMatNV:
		for i := range 3 {
			if !from.Params[i].same(to.Params[i]) {
				return false
			}
		}
		return true
	}
	for i := range 3 {
		if !from.Params[i].same(to.Params[i]) {
			return false
		}
	}
	if from.Params[3].same(to.Params[3]) {
		return true
	}
	return c.extOn("GL_NV_cooperative_matrix2") && from.Params[3].Spec == nil && from.Params[3].Val == 2
}

func (c *checker) constructCoopVecList(t *Type, args []Expr, pos Pos) Expr {
	flat := c.flatten(args, pos)
	out := make([]Expr, len(flat))
	for i, a := range flat {
		at := a.Type()
		if at.Kind != KScalar && at.Kind != KVector {
			c.errorf(pos, "constructor", " cooperative vector constructor arguments must be scalars or vectors")
			return bad(pos)
		}
		out[i] = c.convert(a, at.WithScalar(t.Scalar))
	}
	return &Construct{exprBase: exprBase{T: t, Pos: pos}, Args: out}
}

// foldConstruct builds the Construct node, folding it when every argument
// is constant.
func (c *checker) foldConstruct(t *Type, args []Expr, pos Pos) Expr {
	vals := make([]*Value, len(args))
	for i, a := range args {
		if vals[i] = constOf(a); vals[i] == nil {
			return &Construct{exprBase: exprBase{T: t, Pos: pos}, Args: args}
		}
	}
	if v := buildValue(t, vals); v != nil {
		return newConst(v, pos)
	}
	return &Construct{exprBase: exprBase{T: t, Pos: pos}, Args: args}
}

// buildValue folds constructor arguments (already of t's component type)
// into a value of type t.
func buildValue(t *Type, vals []*Value) *Value {
	switch t.Kind {
	case KArray, KStruct:
		return &Value{Type: t, Elems: vals}
	case KCoopMat, KCoopMatNV, KCoopVec:
		if len(vals) != 1 || vals[0].Elems != nil {
			return nil
		}
		return &Value{Type: t, Elems: vals}
	case KVector:
		if t.SpecLen != nil {
			return nil
		}
		if len(vals) == 1 && vals[0].Elems == nil {
			return splat(t, func(int, int) *Value { return vals[0] })
		}
		var comps []*Value
		for _, v := range vals {
			comps = append(comps, v.components()...)
		}
		return &Value{Type: t, Elems: comps[:t.N]}
	case KMatrix:
		s := t.Scalar
		if len(vals) == 1 && vals[0].Elems == nil {
			return splat(t, func(col, i int) *Value {
				if col == i {
					return vals[0]
				}
				return FloatConst(s, 0)
			})
		}
		if len(vals) == 1 && vals[0].Type.Kind == KMatrix {
			m := vals[0]
			return splat(t, func(col, i int) *Value {
				if col < m.Type.N && i < m.Type.Rows {
					return m.Elems[col].Elems[i]
				}
				if col == i {
					return FloatConst(s, 1)
				}
				return FloatConst(s, 0)
			})
		}
		var comps []*Value
		for _, v := range vals {
			comps = append(comps, v.components()...)
		}
		return splat(t, func(col, i int) *Value { return comps[col*t.Rows+i] })
	}
	return nil
}

// spirvNumeric reports whether a cooperative matrix's component is a
// number conversions can reach: a GLSL integer or float, or a spirv_type
// integer (OpTypeInt, the route to SPV_INTEL_int4's 4-bit integers).
func spirvNumeric(t *Type) bool {
	if t.Elem == nil {
		return t.Scalar != Bool
	}
	_, _, ok := t.Elem.SpirvInt()
	return ok
}

// SpirvInt reports the width and signedness of a spirv_type integer
// (OpTypeInt with literal operands).
func (t *Type) SpirvInt() (bits uint32, signed, ok bool) {
	const opTypeInt = 21
	if t == nil || t.Kind != KSpirv || t.Spirv.Op != opTypeInt || len(t.Spirv.Params) != 2 {
		return 0, false, false
	}
	w, s := t.Spirv.Params[0].Words, t.Spirv.Params[1].Words
	if len(w) != 1 || len(s) != 1 || w[0] == 0 || w[0] > 64 {
		return 0, false, false
	}
	return w[0], s[0] != 0, true
}

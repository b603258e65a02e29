package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/spirv"
)

// coopVecFuncs are the component-wise built-ins that also accept
// cooperative vectors (GL_NV_cooperative_vector).
var coopVecFuncs = lazy.Value[map[string]bool]{F: func() map[string]bool {
	return map[string]bool{"fma": true, "exp": true, "log": true, "tanh": true, "atan": true, "min": true, "max": true, "clamp": true, "step": true}
}}

// call checks name(args): user functions, built-ins and the cooperative
// built-ins with their special rules.
func (c *checker) call(name string, args []Expr, pos Pos) Expr {
	for _, a := range args {
		if isErr(a) {
			return bad(pos)
		}
	}
	sym := c.lookup(name)
	if sym != nil && sym.v != nil {
		c.errorf(pos, name, " function name expected")
		return bad(pos)
	}
	if fn, ok := builtinByName[name]; ok && fn >= BCoopMatLoad && builtinTable[name] == nil && (sym == nil || len(sym.funcs) == 0) {
		if fn >= BDebugPrintfEXT {
			return c.extCall(fn, name, args, pos)
		}
		if fn >= BTexture {
			return c.textureCall(fn, name, args, pos)
		}
		if fn >= BImageSize {
			return c.imageCall(fn, name, args, pos)
		}
		return c.coopCall(fn, name, args, pos)
	}
	if name == "saturatedConvertEXT" && (sym == nil || len(sym.funcs) == 0) {
		return c.saturatedConvert(args, pos)
	}
	if coopVecFuncs.Get()[name] {
		for _, a := range args {
			if a.Type().Kind == KCoopVec {
				return c.coopVecElementwise(builtinByName[name], name, args, pos)
			}
		}
	}
	if e := c.longFrexp(name, args, sym, pos); e != nil {
		return e
	}
	var cands []*candidate
	if sym != nil {
		for _, f := range sym.funcs {
			cd := &candidate{ret: f.Result, user: f}
			for _, p := range f.Params {
				cd.params = append(cd.params, p.Type)
				cd.dirs = append(cd.dirs, p.Dir)
			}
			cands = append(cands, cd)
		}
	}
	cands = append(cands, c.builtinCandidates(name, args)...)
	best, amb := c.pickBest(cands, args)
	if amb {
		c.errorf(pos, name, " ambiguous best function under implicit type conversion")
		return bad(pos)
	}
	long := slices.ContainsFunc(args, func(a Expr) bool { return a.Type().Kind == KVector && (a.Type().Long || a.Type().N > 4) })
	if long && (best == nil && hasLongOverload(name) || best != nil && best.user == nil && !longVectorArgs(best, args)) {
		// glslang resolves built-ins on long vectors without implicit
		// conversions: the operands are of one type.
		c.errorf(pos, name, "can't resolve types (ambiguous long vector overload)")
		return bad(pos)
	}
	if best == nil {
		if sym == nil && builtinTable[name] == nil {
			c.errorf(pos, name, " no matching overloaded function found")
		} else if sym == nil && !c.anyBuiltinEnabled(name) {
			c.reportBuiltinExt(name, pos)
		} else {
			c.errorf(pos, name, " no matching overloaded function found")
		}
		return bad(pos)
	}
	conv := make([]Expr, len(args))
	for i, a := range args {
		if best.user != nil && a.Type().Kind == KTensorARM && !c.tensorArgMemory(a, best.user.Params[i].Memory, pos) {
			return bad(pos)
		}
		if best.user != nil && baseOfArrays(best.params[i]).isResource() && !c.resourceArg(a, best.user.Params[i], pos) {
			return bad(pos)
		}
		if best.dirs[i] != DirIn {
			if !c.checkLValue(a, name, pos) {
				return bad(pos)
			}
			conv[i] = a
			continue
		}
		conv[i] = c.convert(a, best.params[i])
	}
	if best.user != nil {
		return &Call{exprBase: exprBase{T: best.ret, Pos: pos}, Func: best.user, Args: conv}
	}
	if atomicFuncs.Get()[name] {
		if v, _ := lvalueRoot(args[0]); v != nil && v.Storage != StorageBuffer && v.Storage != StorageShared && v.Storage != StorageResourceHeap {
			c.errorf(pos, name, "Only l-values corresponding to shader block storage or shared variables can be used with atomic memory functions.")
			return bad(pos)
		}
	}
	if derivativeFuncs.Get()[name] && c.extOn("GL_KHR_compute_shader_derivatives") && c.prog.DerivativeGroup == "" {
		c.errorf(pos, name, "requires a derivative_group_quads* or derivative_group_linear* layout qualifier")
		return bad(pos)
	}
	if sems := scopedSemantics(name, conv); sems != nil && !c.memorySemantics(name, sems, pos) {
		return bad(pos)
	}
	if !c.constantOperands(best.fn, conv, pos) || !c.rayQueryCommitted(best.fn, conv, pos) || !c.subgroupRules(best.fn, conv, pos) {
		return bad(pos)
	}
	if v := c.foldBuiltin(best.fn, conv, best.ret); v != nil {
		return newConst(v, pos)
	}
	return &BuiltinCall{exprBase: exprBase{T: best.ret, Pos: pos}, Fn: best.fn, Params: best.params, Args: conv}
}

func (c *checker) anyBuiltinEnabled(name string) bool {
	for _, ov := range builtinTable[name] {
		if c.extAnyOn(ov.ext) {
			return true
		}
	}
	return false
}

// reportBuiltinExt reports a built-in used without its extension.
func (c *checker) reportBuiltinExt(name string, pos Pos) {
	ovs := builtinTable[name]
	c.requireExt(pos, name, ovs[0].ext...)
}

// coopVecElementwise checks the component-wise built-ins on cooperative
// vectors: every cooperative operand has the same type, scalars match the
// component type exactly.
func (c *checker) coopVecElementwise(fn Builtin, name string, args []Expr, pos Pos) Expr {
	var vt *Type
	for _, a := range args {
		if a.Type().Kind == KCoopVec {
			vt = a.Type()
			break
		}
	}
	params := make([]*Type, len(args))
	for i, a := range args {
		at := a.Type()
		if !Identical(at, vt) && !(at.Kind == KScalar && at.Scalar == vt.Scalar) {
			c.errorf(pos, name, " no matching overloaded function found")
			return bad(pos)
		}
		params[i] = at
	}
	return &BuiltinCall{exprBase: exprBase{T: vt, Pos: pos}, Fn: fn, Params: params, Args: args}
}

// foldBuiltin folds the few built-ins glslang evaluates in constant
// expressions that shaders use for sizes: min, max, abs, clamp on integers.
func (c *checker) foldBuiltin(fn Builtin, args []Expr, rt *Type) *Value {
	if rt.Kind != KScalar || !rt.Scalar.IsInt() {
		return nil
	}
	vals := make([]*Value, len(args))
	for i, a := range args {
		if vals[i] = constOf(a); vals[i] == nil || vals[i].Elems != nil {
			return nil
		}
	}
	less := func(a, b *Value) bool {
		if rt.Scalar.IsSigned() {
			return a.Int() < b.Int()
		}
		return a.Uint() < b.Uint()
	}
	switch fn {
	case BMin:
		if less(vals[1], vals[0]) {
			return vals[1]
		}
		return vals[0]
	case BMax:
		if less(vals[0], vals[1]) {
			return vals[1]
		}
		return vals[0]
	case BClamp:
		v := vals[0]
		if less(v, vals[1]) {
			v = vals[1]
		}
		if less(vals[2], v) {
			v = vals[2]
		}
		return v
	case BAbs:
		if vals[0].Int() < 0 {
			return IntConst(rt.Scalar, -vals[0].Int())
		}
		return vals[0]
	}
	return nil
}

// saturatedConvertEXT(out dst, src) of GL_EXT_float_e5m2/e4m3 converts any
// numeric scalar, vector or cooperative matrix to fp8 of the same shape
// (cooperative matrices may also change use), saturating.
func (c *checker) saturatedConvert(args []Expr, pos Pos) Expr {
	if !c.requireExt(pos, "saturatedConvertEXT", extFP8...) {
		return bad(pos)
	}
	if len(args) != 2 {
		c.errorf(pos, "", " requires exactly two parameters")
		return bad(pos)
	}
	dst, src := args[0].Type(), args[1].Type()
	if dst.Scalar != E5M2 && dst.Scalar != E4M3 {
		c.errorf(pos, "", " first parameter must have floate5m2 or floate4m3 basic type")
		return bad(pos)
	}
	if src.Scalar == E5M2 || src.Scalar == E4M3 || !src.Scalar.IsNumeric() {
		c.errorf(pos, "", " second parameter must not have floate5m2 or floate4m3 basic type")
		return bad(pos)
	}
	same := dst.Kind == src.Kind && dst.N == src.N && sameSpec(dst.SpecLen, src.SpecLen)
	if same && dst.Kind == KCoopMat {
		for i := range 3 {
			same = same && dst.Params[i].same(src.Params[i])
		}
	} else if same && dst.IsCoop() {
		same = Identical(dst.WithScalar(src.Scalar), src)
	}
	if !same || !(dst.Kind == KScalar || dst.Kind == KVector || dst.IsCoop()) {
		c.errorf(pos, "", " types must match other than scalar type and coopmat Use")
		return bad(pos)
	}
	if !c.checkLValue(args[0], "saturatedConvertEXT", pos) {
		return bad(pos)
	}
	return c.builtinResult(builtinByName["saturatedConvertEXT"], TVoid, args, pos)
}

// constantOperands checks the built-ins whose operands must be constant
// expressions in a range: the swizzle patterns of GL_AMD_shader_ballot.
func (c *checker) constantOperands(fn Builtin, args []Expr, pos Pos) bool {
	var what string
	var limit uint64
	switch fn {
	case BSwizzleInvocationsAMD:
		what, limit = "offset", 3
	case BSwizzleInvocationsMaskedAMD:
		what, limit = "mask", 31
	default:
		return true
	}
	k, ok := args[1].(*Const)
	if !ok {
		c.errorf(pos, what, "argument must be compile-time constant")
		return false
	}
	for _, e := range k.Val.Elems {
		if e.Bits > limit {
			c.errorf(pos, what, "components must be in the range [0, %d]", limit)
			return false
		}
	}
	return true
}

// subgroupRules applies glslang's target rules to subgroup operations:
// they need SPIR-V 1.3, and before SPIR-V 1.5 the invocation id of a
// broadcast must be a constant (OpGroupNonUniformBroadcast's Id then has
// to be).
func (c *checker) subgroupRules(fn Builtin, args []Expr, pos Pos) bool {
	if !strings.HasPrefix(builtinNames[fn], "subgroup") {
		return true
	}
	if !c.requireSPIRV(pos, "subgroup op", spirv.MakeVersion(1, 3)) {
		return false
	}
	if len(args) > 0 {
		// 8-, 16- and 64-bit operands need GL_EXT_shader_subgroup_extended_types_*.
		var ext string
		switch s := args[0].Type().Scalar; {
		case s == Float16:
			ext = "GL_EXT_shader_subgroup_extended_types_float16"
		case s.IsInt() && s.Bits() != 32:
			ext = fmt.Sprintf("GL_EXT_shader_subgroup_extended_types_int%d", s.Bits())
		}
		if k := args[0].Type().Kind; ext != "" && (k == KScalar || k == KVector) && !c.requireExt(pos, " "+c.typeDesc(args[0]), ext) {
			return false
		}
	}
	if name := builtinNames[fn]; strings.HasPrefix(name, "subgroupClustered") && name != "subgroupClusteredRotate" {
		// The cluster size is a constant integral power of 2.
		k, ok := args[1].(*Const)
		switch {
		case !ok:
			c.errorf(pos, "cluster size", "argument must be compile-time constant")
			return false
		case int32(k.Val.Bits) < 1:
			c.errorf(pos, "cluster size", "argument must be at least 1")
			return false
		case k.Val.Bits&(k.Val.Bits-1) != 0:
			c.errorf(pos, "cluster size", "argument must be a power of 2")
			return false
		}
	}
	if fn == BSubgroupBroadcast || fn == BSubgroupQuadBroadcast {
		if v, ok := spirv.TargetVersion(c.opts.TargetEnv); ok && v < spirv.MakeVersion(1, 5) {
			if _, isConst := args[1].(*Const); !isConst {
				c.errorf(pos, "id", "argument must be compile-time constant")
				return false
			}
		}
	}
	return true
}

// derivativeFuncs are the derivative built-ins; in a compute shader
// GL_KHR_compute_shader_derivatives lets them run only in a derivative
// group declared before.
var derivativeFuncs = lazy.Value[map[string]bool]{F: func() map[string]bool {
	return map[string]bool{
		"dFdx": true, "dFdy": true, "fwidth": true, "dFdxFine": true, "dFdyFine": true, "fwidthFine": true,
		"dFdxCoarse": true, "dFdyCoarse": true, "fwidthCoarse": true,
	}
}}

// atomicFuncs are the atomic built-ins on memory; their first operand
// must be in a buffer or shared memory.
var atomicFuncs = lazy.Value[map[string]bool]{F: func() map[string]bool {
	return map[string]bool{
		"atomicAdd": true, "atomicMin": true, "atomicMax": true, "atomicAnd": true, "atomicOr": true, "atomicXor": true,
		"atomicExchange": true, "atomicCompSwap": true, "atomicLoad": true, "atomicStore": true,
	}
}}

// longVectorArgs reports whether a built-in's arguments of its component
// type (long vectors, and scalars standing for one) are of the
// candidate's parameter types, needing no implicit conversion; other
// parameters (offsets, bit counts, cluster sizes) convert as usual.
func longVectorArgs(cd *candidate, args []Expr) bool {
	for i, a := range args {
		if i < len(cd.generic) && cd.generic[i] && !Identical(a.Type(), cd.params[i]) {
			return false
		}
	}
	return true
}

// longFrexp resolves frexp and ldexp on long vectors whose exponent is a
// signed integer vector of another width than 32 bits (the table's
// overloads take int): GL_EXT_long_vector allows any signed integer
// component there, of the same shape as the value. It returns nil for
// other calls.
func (c *checker) longFrexp(name string, args []Expr, sym *symbol, pos Pos) Expr {
	if name != "frexp" && name != "ldexp" || len(args) != 2 || sym != nil && len(sym.funcs) > 0 {
		return nil
	}
	x, e := args[0].Type(), args[1].Type()
	if x.Kind != KVector || e.Kind != KVector || !x.Long && x.N <= 4 || !x.Scalar.IsFloat() || !e.Scalar.IsSigned() || e.Scalar.Bits() == 32 ||
		x.N != e.N || !sameSpec(x.SpecLen, e.SpecLen) {
		return nil
	}
	if name == "frexp" && !c.checkLValue(args[1], name, pos) {
		return bad(pos)
	}
	return &BuiltinCall{exprBase: exprBase{T: x, Pos: pos}, Fn: builtinByName[name], Params: []*Type{x, e}, Args: args}
}

// hasLongOverload reports whether a built-in has overloads on long vectors.
func hasLongOverload(name string) bool {
	for _, ov := range builtinTable[name] {
		if ov.sizes&szLong != 0 {
			return true
		}
	}
	return false
}

package validate

import (
	"slices"
	"strings"

	"github.com/coopshader/coop/spirv"
)

// The arithmetic, bit, relational and logical, conversion and derivative
// instructions on scalars and vectors (long vectors included), from the
// SPIR-V specification's text of each instruction (3.56.11 Conversion,
// 3.56.13 Arithmetic, 3.56.14 Bit, 3.56.15 Relational and Logical, 3.56.16
// Derivative). Cooperative
// matrices and vectors have their families' rules (coopmat.go, coopvec.go):
// a rule here stops when the result is one. The same rules check the
// operation of an OpSpecConstantOp.

// num is the shape of a scalar or vector type.
type num struct {
	t     *Type  // the scalar component type
	n     uint64 // 1 for a scalar
	known bool   // n is known (a long vector's count may be a spec constant)
	vec   bool
}

// numOf returns the shape of the type id. ok is false when it is not a
// scalar or vector; coop is true for a cooperative matrix or vector.
func (s *state) numOf(id uint32) (v num, ok, coop bool) {
	t := s.types[id]
	switch {
	case t == nil:
	case isCoopMat(t) || s.isCoopVec(t):
		return v, false, true
	case t.Op == spirv.OpTypeInt || t.Op == spirv.OpTypeFloat || t.Op == spirv.OpTypeBool:
		return num{t: t, n: 1, known: true}, true, false
	case t.Op == spirv.OpTypeVector || t.Op == spirv.OpTypeVectorIdEXT:
		if c := s.scalar(t.Elem); c != nil {
			return num{t: c, n: t.Count, known: t.CountKnown, vec: true}, true, false
		}
	}
	return v, false, false
}

func (v num) is(op spirv.Op) bool { return v.t != nil && v.t.Op == op }

// sameDim: both scalars, or vectors of one count (an unknown count is
// not compared).
func (v num) sameDim(u num) bool {
	if v.vec != u.vec {
		return false
	}
	return !v.known || !u.known || v.n == u.n
}

// op is one arithmetic-family operation: the instruction's index, the
// name spirv-val prints ("IAdd", or "SpecConstantOp"), its result type
// and operands.
type op struct {
	s    *state
	i    int
	name string
	rt   uint32
	args []uint32
}

func (c *op) fail(rule, format string, args ...any) { c.s.fail(c.i, rule, format, args...) }

// result returns the result type's shape; done is true when the rule
// stops here (a cooperative result, or a failure).
func (c *op) result(want spirv.Op, unsigned bool, what string) (r num, done bool) {
	r, ok, coop := c.s.numOf(c.rt)
	if coop {
		return r, true
	}
	if !ok || !r.is(want) || unsigned && r.t.Signed {
		c.fail("arith.result", "Expected %s scalar or vector type as Result Type: %s", what, c.name)
		return r, true
	}
	return r, false
}

// operand returns operand k's shape, or fails with msg when it is not a
// scalar or vector of want.
func (c *op) operand(k int, want spirv.Op, msg string) (num, bool) {
	if k >= len(c.args) {
		return num{}, false
	}
	v, ok, _ := c.s.numOf(c.s.typeOf(c.args[k]))
	if !ok || !v.is(want) {
		c.fail("arith.operand", msg, c.name, k+2)
		return v, false
	}
	return v, true
}

func (c *op) sameAsResult(k int, msg string) bool {
	if k < len(c.args) && c.s.typeOf(c.args[k]) != c.rt {
		c.fail("arith.operand", msg, c.name, k+2)
		return false
	}
	return true
}

// coopArith: arithmetic on cooperative matrices and vectors
// (SPV_KHR_cooperative_matrix, SPV_NV_cooperative_vector): "OpF
// instructions can be used with cooperative matrix types whose 'Component
// Type' is a floating-point type. OpI, OpS, and OpU instructions ... an
// integer type." and "Binary arithmetic instructions operate on the
// individual elements of a pair of cooperative matrices whose type must
// match." It reports whether the result is cooperative.
func coopArith(c *op, kind spirv.Op) bool {
	if _, _, coop := c.s.numOf(c.rt); !coop {
		return false
	}
	if op := c.s.m.Insts[c.i].Op; op != spirv.OpSpecConstantOp && !coopArithAllowed(c.s.types[c.rt], c.s.isCoopVec(c.s.types[c.rt]), op) {
		c.fail("arith.coop", "%s cannot be used with a cooperative %s Result Type", c.name,
			map[bool]string{true: "vector", false: "matrix"}[c.s.isCoopVec(c.s.types[c.rt])])
		return true
	}
	if comp := c.s.types[c.s.types[c.rt].Elem]; !comp.is(kind) {
		c.fail("arith.coop", "%s: the cooperative Result Type's Component Type must be of %s type", c.name, kindName(kind))
		return true
	}
	for k := range c.args {
		if !c.sameAsResult(k, "Expected arithmetic operands to be of Result Type: %s operand index %d") {
			break
		}
	}
	return true
}

// coopArithAllowed: "Allow cooperative matrix types for the following
// arithmetic instructions: OpSNegate and OpFNegate; OpIAdd, OpFAdd, OpISub,
// OpFSub, OpFMul, OpIMul, OpFDiv, OpSDiv, and OpUDiv"
// (SPV_KHR_cooperative_matrix; SPV_NV_cooperative_matrix's list has no
// OpFMul and OpIMul); SPV_NV_cooperative_vector allows the same list and
// "the following bit instructions: OpShiftRightLogical,
// OpShiftRightArithmetic, OpShiftLeftLogical, OpBitwiseOr, OpBitwiseXor,
// OpBitwiseAnd, and OpNot".
func coopArithAllowed(t *Type, vec bool, op spirv.Op) bool {
	switch op {
	case spirv.OpSNegate, spirv.OpFNegate, spirv.OpIAdd, spirv.OpFAdd, spirv.OpISub, spirv.OpFSub,
		spirv.OpFDiv, spirv.OpSDiv, spirv.OpUDiv:
		return true
	case spirv.OpFMul, spirv.OpIMul:
		return !t.is(spirv.OpTypeCooperativeMatrixNV)
	case spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic, spirv.OpShiftLeftLogical,
		spirv.OpBitwiseOr, spirv.OpBitwiseXor, spirv.OpBitwiseAnd, spirv.OpNot:
		return vec
	case spirv.OpUMod, spirv.OpSRem, spirv.OpSMod:
		// Not in the list, but glslang (and coop's compiler after it)
		// writes them for % on integer cooperative vectors, and spirv-val
		// takes them: accepted rather than failing every such module.
		return vec
	}
	return false
}

// floatArith: "Result Type must be a scalar or vector of floating-point
// type. The types of Operand 1 and Operand 2 both must be the same as
// Result Type." (OpFAdd ... OpFMod, OpFNegate)
func floatArith(c *op) {
	if coopArith(c, spirv.OpTypeFloat) {
		return
	}
	if _, done := c.result(spirv.OpTypeFloat, false, "floating"); done {
		return
	}
	for k := range c.args {
		if !c.sameAsResult(k, "Expected arithmetic operands to be of Result Type: %s operand index %d") {
			return
		}
	}
}

// uintArith: "Result Type must be a scalar or vector of integer type,
// whose Signedness operand is 0. The types of Operand 1 and Operand 2
// both must be the same as Result Type." (OpUDiv, OpUMod)
func uintArith(c *op) {
	if coopArith(c, spirv.OpTypeInt) {
		return
	}
	if _, done := c.result(spirv.OpTypeInt, true, "unsigned int"); done {
		return
	}
	for k := range c.args {
		if !c.sameAsResult(k, "Expected arithmetic operands to be of Result Type: %s operand index %d") {
			return
		}
	}
}

// intArith: "Result Type must be a scalar or vector of integer type. The
// type of Operand 1 and Operand 2 must be a scalar or vector of integer
// type. They must have the same number of components as Result Type.
// They must have the same component width as Result Type." (OpIAdd,
// OpISub, OpIMul, OpSDiv, OpSRem, OpSMod, OpSNegate, and the bitwise
// instructions)
func intArith(c *op) {
	if coopArith(c, spirv.OpTypeInt) {
		return
	}
	r, done := c.result(spirv.OpTypeInt, false, "int")
	if done {
		return
	}
	for k := range c.args {
		v, ok := c.operand(k, spirv.OpTypeInt, "Expected int scalar or vector type as operand: %s operand index %d")
		if !ok {
			return
		}
		if !v.sameDim(r) {
			c.fail("arith.operand", "Expected arithmetic operands to have the same dimension as Result Type: %s operand index %d", c.name, k+2)
			return
		}
		if v.t.Width != r.t.Width {
			c.fail("arith.operand", "Expected arithmetic operands to have the same bit width as Result Type: %s operand index %d", c.name, k+2)
			return
		}
	}
}

// shift: "Result Type must be a scalar or vector of integer type. The
// type of each Base and Shift must be a scalar or vector of integer type.
// Base and Shift must have the same number of components. The number of
// components and bit width of the type of Base must be the same as in
// Result Type." (OpShiftRightLogical, OpShiftRightArithmetic,
// OpShiftLeftLogical)
func shift(c *op) {
	if _, _, coop := c.s.numOf(c.rt); coop {
		// A cooperative vector shifts as it takes the other bit
		// instructions: its Base has the Result Type.
		if !coopArithAllowed(c.s.types[c.rt], c.s.isCoopVec(c.s.types[c.rt]), c.s.m.Insts[c.i].Op) {
			c.fail("arith.coop", "%s cannot be used with a cooperative matrix Result Type", c.name)
		} else if len(c.args) == 2 && c.s.typeOf(c.args[0]) != c.rt {
			c.fail("bit.shift", "Expected Base to be of Result Type: %s", c.name)
		}
		return
	}
	r, done := c.result(spirv.OpTypeInt, false, "int")
	if done || len(c.args) != 2 {
		return
	}
	b, ok := c.operand(0, spirv.OpTypeInt, "Expected Base to be int scalar or vector: %s (operand index %d)")
	if !ok {
		return
	}
	if !b.sameDim(r) || b.t.Width != r.t.Width {
		c.fail("bit.shift", "Expected Base to have the same dimension and bit width as Result Type: %s", c.name)
		return
	}
	sh, ok := c.operand(1, spirv.OpTypeInt, "Expected Shift to be int scalar or vector: %s (operand index %d)")
	if ok && !sh.sameDim(r) {
		c.fail("bit.shift", "Expected Shift to have the same dimension as Result Type: %s", c.name)
	}
}

// bitField: "The type of Base (and Insert) must be the same as Result
// Type. Offset and Count must be integer type scalars." (OpBitFieldInsert,
// OpBitFieldSExtract, OpBitFieldUExtract, OpBitReverse)
func bitField(c *op) {
	if _, done := c.result(spirv.OpTypeInt, false, "int"); done {
		return
	}
	nSame := len(c.args)
	switch len(c.args) {
	case 4: // Base, Insert, Offset, Count
		nSame = 2
	case 3: // Base, Offset, Count
		nSame = 1
	}
	for k := 0; k < nSame; k++ {
		if !c.sameAsResult(k, "Expected Base and Insert types to be equal to Result Type: %s (operand index %d)") {
			return
		}
	}
	for k := nSame; k < len(c.args); k++ {
		v, ok, _ := c.s.numOf(c.s.typeOf(c.args[k]))
		if !ok || v.vec || !v.is(spirv.OpTypeInt) {
			what := "Offset"
			if k == len(c.args)-1 {
				what = "Count"
			}
			c.fail("bit.field", "Expected %s Type to be int scalar: %s", what, c.name)
			return
		}
	}
}

// bitCount: "Result Type must be a scalar or vector of integer type ...
// Base must be a scalar or vector of integer type. It must have the same
// number of components as Result Type."
func bitCount(c *op) {
	r, done := c.result(spirv.OpTypeInt, false, "int")
	if done || len(c.args) != 1 {
		return
	}
	b, ok, _ := c.s.numOf(c.s.typeOf(c.args[0]))
	if !ok || !b.is(spirv.OpTypeInt) {
		c.fail("bit.count", "Expected int scalar or vector type for Base operand: %s", c.name)
		return
	}
	if !b.sameDim(r) {
		c.fail("bit.count", "Expected Base dimension to be equal to Result Type dimension: %s", c.name)
	}
}

// anyAll: "Result Type must be a Boolean type scalar. Vector must be a
// vector of Boolean type." (OpAny, OpAll)
func anyAll(c *op) {
	r, ok, _ := c.s.numOf(c.rt)
	if !ok || r.vec || !r.is(spirv.OpTypeBool) {
		c.fail("logical.result", "Expected bool scalar type as Result Type: %s", c.name)
		return
	}
	if v, ok, _ := c.s.numOf(c.s.typeOf(c.args[0])); !ok || !v.vec || !v.is(spirv.OpTypeBool) {
		c.fail("logical.operand", "Expected operand to be vector bool: %s", c.name)
	}
}

// boolResult checks a scalar or vector Boolean result.
func (c *op) boolResult() (num, bool) {
	r, ok, coop := c.s.numOf(c.rt)
	if coop {
		return r, true
	}
	if !ok || !r.is(spirv.OpTypeBool) {
		c.fail("logical.result", "Expected bool scalar or vector type as Result Type: %s", c.name)
		return r, true
	}
	return r, false
}

// floatCompare: "Result Type must be a scalar or vector of Boolean type.
// x (Operand 1 and Operand 2) must be a scalar or vector of floating-point
// type. They must have the same type, and they must have the same number
// of components as Result Type." (OpFOrdEqual ... OpFUnordGreaterThanEqual,
// OpIsNan, OpIsInf, OpIsFinite, OpIsNormal, OpSignBitSet,
// OpLessOrGreater, OpOrdered, OpUnordered)
func floatCompare(c *op) {
	r, done := c.boolResult()
	if done || len(c.args) == 0 {
		return
	}
	v, ok, coop := c.s.numOf(c.s.typeOf(c.args[0]))
	if coop {
		return
	}
	if !ok || !v.is(spirv.OpTypeFloat) {
		c.fail("logical.operand", "Expected operand to be scalar or vector float: %s", c.name)
		return
	}
	if !v.sameDim(r) {
		c.fail("logical.operand", "Expected vector sizes of Result Type and the operand to be equal: %s", c.name)
		return
	}
	for _, a := range c.args[1:] {
		if c.s.typeOf(a) != c.s.typeOf(c.args[0]) {
			c.fail("logical.operand", "Expected left and right operands to have the same type: %s", c.name)
			return
		}
	}
}

// intCompare: "Result Type must be a scalar or vector of Boolean type.
// The type of Operand 1 and Operand 2 must be a scalar or vector of
// integer type. They must have the same component width, and they must
// have the same number of components as Result Type." (OpIEqual ...
// OpSLessThanEqual)
func intCompare(c *op) {
	r, done := c.boolResult()
	if done {
		return
	}
	var first num
	for k := range c.args {
		v, ok, coop := c.s.numOf(c.s.typeOf(c.args[k]))
		if coop {
			return
		}
		if !ok || !v.is(spirv.OpTypeInt) {
			c.fail("logical.operand", "Expected operands to be scalar or vector int: %s", c.name)
			return
		}
		if !v.sameDim(r) {
			c.fail("logical.operand", "Expected vector sizes of Result Type and the operands to be equal: %s", c.name)
			return
		}
		if k == 0 {
			first = v
		} else if v.t.Width != first.t.Width {
			c.fail("logical.operand", "Expected both operands to have the same component bit width: %s", c.name)
			return
		}
	}
}

// logical: "Result Type must be a scalar or vector of Boolean type. The
// type of Operand 1 (and Operand 2) must be the same as Result Type."
// (OpLogicalEqual, OpLogicalNotEqual, OpLogicalOr, OpLogicalAnd,
// OpLogicalNot)
func logical(c *op) {
	if _, done := c.boolResult(); done {
		return
	}
	for k := range c.args {
		if !c.sameAsResult(k, "Expected both operands to be of Result Type: %s (operand index %d)") {
			return
		}
	}
}

// selectRule (OpSelect): "Condition must be a scalar or vector of Boolean
// type. It must have the same number of components as Result Type. The
// type of Object 1 must be the same as Result Type. The type of Object 2
// must be the same as Result Type."
func selectRule(c *op) {
	if len(c.args) != 3 {
		return
	}
	if _, _, coop := c.s.numOf(c.rt); coop {
		return
	}
	cond, ok, coop := c.s.numOf(c.s.typeOf(c.args[0]))
	if coop {
		return
	}
	if !ok || !cond.is(spirv.OpTypeBool) {
		c.fail("select.condition", "Expected bool scalar or vector type as condition: %s", c.name)
		return
	}
	if cond.vec {
		if r, ok, _ := c.s.numOf(c.rt); !ok || !r.sameDim(cond) {
			c.fail("select.condition", "Expected vector sizes of Result Type and the condition to be equal: %s", c.name)
			return
		}
	}
	for _, a := range c.args[1:] {
		if c.s.typeOf(a) != c.rt {
			c.fail("select.object", "Expected both objects to be of Result Type: %s", c.name)
			return
		}
	}
}

// convert is the conversion rules: "Result Type must be a scalar or
// vector of <to> type (whose Signedness operand is 0 for OpConvertFToU and
// OpUConvert). <Value> must be a scalar or vector of <from> type. It must
// have the same number of components as Result Type." OpUConvert,
// OpSConvert and OpFConvert add: "The component width cannot equal the
// component width in Result Type" (a float's encoding may differ instead:
// SPV_KHR_bfloat16, SPV_EXT_float8).
func convert(c *op, to, from spirv.Op, unsigned, widen bool) {
	names := func(op spirv.Op) string {
		if op == spirv.OpTypeInt {
			return "int"
		}
		return "float"
	}
	what := names(to)
	if unsigned {
		what = "unsigned int"
	}
	if rt := c.s.types[c.rt]; isCoopMat(rt) || c.s.isCoopVec(rt) {
		// A cooperative matrix or vector converts its components: they
		// are of the kinds the instruction takes (the shapes are the
		// cooperative families' rules).
		e := c.s.types[rt.Elem]
		if !e.is(to) || unsigned && e.Signed {
			c.fail("arith.result", "Expected %s scalar or vector type as Result Type: %s", what, c.name)
			return
		}
		if len(c.args) == 1 {
			if it := c.s.valueType(c.args[0]); (isCoopMat(it) || c.s.isCoopVec(it)) && !c.s.types[it.Elem].is(from) {
				c.fail("convert.input", "Expected input to be %s scalar or vector: %s", names(from), c.name)
			}
		}
		return
	}
	r, done := c.result(to, unsigned, what)
	if done || len(c.args) != 1 {
		return
	}
	v, ok, coop := c.s.numOf(c.s.typeOf(c.args[0]))
	if coop {
		return
	}
	if !ok || !v.is(from) {
		c.fail("convert.input", "Expected input to be %s scalar or vector: %s", names(from), c.name)
		return
	}
	if !v.sameDim(r) {
		c.fail("convert.input", "Expected input to have the same dimension as Result Type: %s", c.name)
		return
	}
	if widen && v.t.Width == r.t.Width && v.t.Encoding == r.t.Encoding {
		c.fail("convert.width", "Expected input to have different bit width from Result Type: %s", c.name)
	}
}

// quantize (OpQuantizeToF16): "Result Type must be a scalar or vector of
// floating-point type. The component width must be 32 bits. The type of
// Value must be the same as Result Type."
func quantize(c *op) {
	r, done := c.result(spirv.OpTypeFloat, false, "float")
	if done {
		return
	}
	if r.t.Width != 32 {
		c.fail("convert.quantize", "Expected 32-bit float scalar or vector type as Result Type: %s", c.name)
		return
	}
	c.sameAsResult(0, "Expected input type to be equal to Result Type: %s (operand index %d)")
}

// bitcast (OpBitcast): "Result Type must be an OpTypePointer, or a scalar
// or vector of numerical-type"; "Operand must have a type of
// OpTypePointer, or a scalar or vector of numerical-type"; a pointer
// converts to or from a pointer, an integer scalar or, from SPIR-V 1.5 or
// with SPV_KHR_physical_storage_buffer, a vector of 32-bit integers; "The
// total number of bits in Operand must equal the total number of bits in
// Result Type"; and in the Logical addressing model only a physical
// storage buffer pointer may be cast (SPIR-V 2.16.1: a logical pointer is
// an operand of the memory, access-chain, call and copy instructions only).
// Cooperative types are left to their rules.
func bitcast(c *op) {
	if len(c.args) != 1 {
		return
	}
	vt := c.s.typeOf(c.args[0])
	if vt == 0 {
		c.fail("convert.bitcast", "Expected input to have a type: %s", c.name)
		return
	}
	r, rok, rcoop := c.s.numOf(c.rt)
	v, vok, vcoop := c.s.numOf(vt)
	if rcoop || vcoop {
		// With SPV_EXT_long_vector too, OpTypeVectorIdEXT may be a long
		// vector, which bitcasts as vectors do (checkCoopVecConversion).
		if c.s.hasCap(spirv.CapabilityLongVectorEXT) {
			rb, rk := c.s.vecIDBits(c.rt)
			vb, vk := c.s.vecIDBits(vt)
			if rk && vk && rb != vb {
				c.fail("convert.bitcast", "Expected input to have the same total bit width as Result Type: %s", c.name)
			}
		}
		return
	}
	rptr, vptr := c.s.isPointerType(c.rt), c.s.isPointerType(vt)
	if !rptr && (!rok || r.is(spirv.OpTypeBool)) {
		c.fail("convert.bitcast", "Expected Result Type to be a pointer or int or float vector or scalar type: %s", c.name)
		return
	}
	if !vptr && (!vok || v.is(spirv.OpTypeBool)) {
		c.fail("convert.bitcast", "Expected input to be a pointer or int or float vector or scalar: %s", c.name)
		return
	}
	if vptr && c.s.addressing == spirv.AddressingModelLogical && c.s.types[vt].Storage != spirv.StorageClassPhysicalStorageBuffer {
		c.fail("convert.bitcast-logical", "Instruction may not have a logical pointer operand")
		return
	}
	if rptr != vptr {
		other := r
		if rptr {
			other = v
		}
		if !other.is(spirv.OpTypeInt) || other.vec && (other.t.Width != 32 || !c.s.pointerVectors()) {
			if c.s.pointerVectors() {
				c.fail("convert.bitcast-pointer", "In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer, int scalar or 32-bit int vector: %s", c.name)
			} else {
				c.fail("convert.bitcast-pointer", "Before SPIR-V 1.5, pointer can only be converted to another pointer or int scalar: %s", c.name)
			}
			return
		}
	}
	if rptr || vptr || !r.known || !v.known {
		return
	}
	if r.n*uint64(r.t.Width) != v.n*uint64(v.t.Width) {
		c.fail("convert.bitcast", "Expected input to have the same total bit width as Result Type: %s", c.name)
	}
}

// vecIDBits is the total bit width of a scalar, vector or
// OpTypeVectorIdEXT type, known is false where a count is not.
func (s *state) vecIDBits(id uint32) (bits uint64, known bool) {
	t := s.types[id]
	switch {
	case t == nil:
		return 0, false
	case t.is(spirv.OpTypeInt) || t.is(spirv.OpTypeFloat):
		return uint64(t.Width), true
	case t.is(spirv.OpTypeVector) || t.is(spirv.OpTypeVectorIdEXT):
		if c := s.types[t.Elem]; c != nil && t.CountKnown {
			return t.Count * uint64(c.Width), true
		}
	}
	return 0, false
}

// pointerVectors: a pointer may be bitcast to or from a vector of 32-bit
// integers (SPIR-V 1.5, SPV_KHR_physical_storage_buffer).
func (s *state) pointerVectors() bool {
	return s.m.Version >= spirv.MakeVersion(1, 5) || s.exts["SPV_KHR_physical_storage_buffer"]
}

// isPointerType: a typed or untyped pointer type.
func (s *state) isPointerType(id uint32) bool {
	t := s.types[id]
	return t != nil && (t.Op == spirv.OpTypePointer || t.Op == spirv.OpTypeUntypedPointerKHR)
}

// expect (OpExpectKHR, SPV_KHR_expect_assume): "Result Type must be a
// scalar or vector of integer type or boolean type. The type of Value
// must be Result Type. The type of ExpectedValue must be Result Type."
func expect(c *op) {
	r, ok, _ := c.s.numOf(c.rt)
	if !ok || r.is(spirv.OpTypeFloat) {
		c.fail("expect.result", "Result of OpExpectKHR must be a scalar or vector of integer type or boolean type")
		return
	}
	if len(c.args) != 2 {
		return
	}
	if c.s.typeOf(c.args[0]) != c.rt {
		c.fail("expect.operand", "Type of Value operand of OpExpectKHR does not match the result type ")
	} else if c.s.typeOf(c.args[1]) != c.rt {
		c.fail("expect.operand", "Type of ExpectedValue operand of OpExpectKHR does not match the result type ")
	}
}

// checkAssumeTrue (OpAssumeTrueKHR, SPV_KHR_expect_assume): "Condition
// must be a Boolean type scalar" (paraphrased, no local copy).
func (s *state) checkAssumeTrue(i int) {
	if !s.valueType(s.m.Insts[i].Words[0]).is(spirv.OpTypeBool) {
		s.fail(i, "assume.operand", "Value operand of OpAssumeTrueKHR must be a boolean scalar")
	}
}

// derivative: "Result Type must be a scalar or vector of floating-point
// type ... The type of P must be the same as Result Type." (OpDPdx ...
// OpFwidthCoarse)
func derivative(c *op) {
	r, done := c.result(spirv.OpTypeFloat, false, "float")
	if done {
		return
	}
	// OpDPdx ...: "The component width must be 32 bits" (no local copy);
	// SPV_AMD_gpu_shader_half_float adds 16-bit ones.
	half := c.s.exts["SPV_AMD_gpu_shader_half_float"]
	if r.t.Width != 32 && (!half || r.t.Width != 16) {
		c.fail("derivative.width", "Result type component width must be %s", map[bool]string{false: "32 bits", true: "16 bits or 32 bits"}[half])
		return
	}
	if len(c.args) == 1 && c.s.typeOf(c.args[0]) != c.rt {
		c.fail("derivative.operand", "Expected P type and Result Type to be the same: %s", c.name)
	}
}

// bitcastExtract (OpBitcastExtractEXT) takes a narrower value out of each
// component of Base at bit Offset: Result Type and Base are numeric
// scalars or vectors of one component count, Base's components wider, and
// Offset an integer scalar (paraphrased, no local copy); in Vulkan "The
// Result Type operand of OpBitcastExtractEXT must be OpTypeFloat with a
// Float6E2M3EXT, Float6E3M2EXT, or Float4E2M1EXT encoding" and "The Base
// operand of OpBitcastExtractEXT must be a scalar or vector integer type"
// (VUID-12468, -12469).
func bitcastExtract(c *op) {
	r, ok, _ := c.s.numOf(c.rt)
	if !ok || r.is(spirv.OpTypeBool) {
		c.fail("bitcast-extract.result", "[VUID-StandaloneSpirv-Result-12468] Expected Result Type to be a numerical scalar or vector type: %s", c.name)
		return
	}
	if c.s.env.vulkan {
		switch spirv.FPEncoding(r.t.Encoding) {
		case spirv.FPEncodingFloat6E2M3EXT, spirv.FPEncodingFloat6E3M2EXT, spirv.FPEncodingFloat4E2M1EXT:
		default:
			c.fail("bitcast-extract.result", "[VUID-StandaloneSpirv-Result-12468] Expected Result Type to be a Float4EXT or Float6EXT type in the Vulkan environment: %s", c.name)
			return
		}
	}
	if len(c.args) != 2 {
		return
	}
	b, ok, _ := c.s.numOf(c.s.typeOf(c.args[0]))
	switch {
	case !ok || b.is(spirv.OpTypeBool):
		c.fail("bitcast-extract.base", "[VUID-StandaloneSpirv-Base-12469] Expected Base to be a numerical scalar or vector type: %s", c.name)
	case c.s.env.vulkan && !b.is(spirv.OpTypeInt):
		c.fail("bitcast-extract.base", "[VUID-StandaloneSpirv-Base-12469] Expected Base to be an integer scalar or vector type in the Vulkan environment: %s", c.name)
	case !b.sameDim(r):
		c.fail("bitcast-extract.base", "Expected Base to have the same dimension as Result Type: %s", c.name)
	case b.t.Width <= r.t.Width:
		c.fail("bitcast-extract.base", "Expected Base component bit width to be greater than Result Type component bit width: %s", c.name)
	case !c.s.valueType(c.args[1]).is(spirv.OpTypeInt):
		c.fail("bitcast-extract.offset", "Expected Offset to be a scalar integer type: %s", c.name)
	}
}

// arithRules are the arithmetic family's rules by instruction: a static
// table, which package init and the first Validate of a process do not
// build.
var arithRules = [...]opValue[func(*op)]{
	{spirv.OpDPdx, derivative}, {spirv.OpDPdy, derivative}, {spirv.OpFwidth, derivative}, {spirv.OpDPdxFine, derivative},
	{spirv.OpDPdyFine, derivative}, {spirv.OpFwidthFine, derivative}, {spirv.OpDPdxCoarse, derivative},
	{spirv.OpDPdyCoarse, derivative}, {spirv.OpFwidthCoarse, derivative},
	{spirv.OpFAdd, floatArith}, {spirv.OpFSub, floatArith}, {spirv.OpFMul, floatArith}, {spirv.OpFDiv, floatArith},
	{spirv.OpFRem, floatArith}, {spirv.OpFMod, floatArith}, {spirv.OpFNegate, floatArith},
	{spirv.OpUDiv, uintArith}, {spirv.OpUMod, uintArith},
	{spirv.OpIAdd, intArith}, {spirv.OpISub, intArith}, {spirv.OpIMul, intArith}, {spirv.OpSDiv, intArith},
	{spirv.OpSRem, intArith}, {spirv.OpSMod, intArith}, {spirv.OpSNegate, intArith},
	{spirv.OpBitwiseOr, intArith}, {spirv.OpBitwiseXor, intArith}, {spirv.OpBitwiseAnd, intArith}, {spirv.OpNot, intArith},
	{spirv.OpShiftRightLogical, shift}, {spirv.OpShiftRightArithmetic, shift}, {spirv.OpShiftLeftLogical, shift},
	{spirv.OpBitFieldInsert, bitField}, {spirv.OpBitFieldSExtract, bitField}, {spirv.OpBitFieldUExtract, bitField},
	{spirv.OpBitReverse, bitField}, {spirv.OpBitCount, bitCount},
	{spirv.OpAny, anyAll}, {spirv.OpAll, anyAll},
	{spirv.OpIsNan, floatCompare}, {spirv.OpIsInf, floatCompare}, {spirv.OpIsFinite, floatCompare}, {spirv.OpIsNormal, floatCompare},
	{spirv.OpSignBitSet, floatCompare}, {spirv.OpLessOrGreater, floatCompare}, {spirv.OpOrdered, floatCompare}, {spirv.OpUnordered, floatCompare},
	{spirv.OpFOrdEqual, floatCompare}, {spirv.OpFUnordEqual, floatCompare}, {spirv.OpFOrdNotEqual, floatCompare},
	{spirv.OpFUnordNotEqual, floatCompare}, {spirv.OpFOrdLessThan, floatCompare}, {spirv.OpFUnordLessThan, floatCompare},
	{spirv.OpFOrdGreaterThan, floatCompare}, {spirv.OpFUnordGreaterThan, floatCompare}, {spirv.OpFOrdLessThanEqual, floatCompare},
	{spirv.OpFUnordLessThanEqual, floatCompare}, {spirv.OpFOrdGreaterThanEqual, floatCompare}, {spirv.OpFUnordGreaterThanEqual, floatCompare},
	{spirv.OpIEqual, intCompare}, {spirv.OpINotEqual, intCompare}, {spirv.OpUGreaterThan, intCompare}, {spirv.OpSGreaterThan, intCompare},
	{spirv.OpUGreaterThanEqual, intCompare}, {spirv.OpSGreaterThanEqual, intCompare}, {spirv.OpULessThan, intCompare},
	{spirv.OpSLessThan, intCompare}, {spirv.OpULessThanEqual, intCompare}, {spirv.OpSLessThanEqual, intCompare},
	{spirv.OpLogicalEqual, logical}, {spirv.OpLogicalNotEqual, logical}, {spirv.OpLogicalOr, logical},
	{spirv.OpLogicalAnd, logical}, {spirv.OpLogicalNot, logical},
	{spirv.OpSelect, selectRule},
	{spirv.OpConvertFToU, func(c *op) { convert(c, spirv.OpTypeInt, spirv.OpTypeFloat, true, false) }},
	{spirv.OpConvertFToS, func(c *op) { convert(c, spirv.OpTypeInt, spirv.OpTypeFloat, false, false) }},
	{spirv.OpConvertSToF, func(c *op) { convert(c, spirv.OpTypeFloat, spirv.OpTypeInt, false, false) }},
	{spirv.OpConvertUToF, func(c *op) { convert(c, spirv.OpTypeFloat, spirv.OpTypeInt, false, false) }},
	{spirv.OpUConvert, func(c *op) { convert(c, spirv.OpTypeInt, spirv.OpTypeInt, true, true) }},
	{spirv.OpSConvert, func(c *op) { convert(c, spirv.OpTypeInt, spirv.OpTypeInt, false, true) }},
	{spirv.OpFConvert, func(c *op) { convert(c, spirv.OpTypeFloat, spirv.OpTypeFloat, false, true) }},
	{spirv.OpQuantizeToF16, quantize},
	{spirv.OpBitcast, bitcast},
	{spirv.OpBitcastExtractEXT, bitcastExtract},
	{spirv.OpExpectKHR, expect},
}

// specConstantOps are the operations OpSpecConstantOp may perform (SPIR-V
// 3.56.7 OpSpecConstantOp: the Shader and Kernel lists), with
// OpCooperativeMatrixLengthNV (SPV_NV_cooperative_matrix: "the following
// opcode is also valid") and its KHR successor.
var specConstantOps = [...]spirv.Op{
	spirv.OpSConvert, spirv.OpUConvert, spirv.OpFConvert, spirv.OpSNegate, spirv.OpNot,
	spirv.OpIAdd, spirv.OpISub, spirv.OpIMul, spirv.OpUDiv, spirv.OpSDiv, spirv.OpUMod,
	spirv.OpSRem, spirv.OpSMod, spirv.OpShiftRightLogical, spirv.OpShiftRightArithmetic,
	spirv.OpShiftLeftLogical, spirv.OpBitwiseOr, spirv.OpBitwiseXor, spirv.OpBitwiseAnd,
	spirv.OpVectorShuffle, spirv.OpCompositeExtract, spirv.OpCompositeInsert,
	spirv.OpLogicalOr, spirv.OpLogicalAnd, spirv.OpLogicalNot, spirv.OpLogicalEqual,
	spirv.OpLogicalNotEqual, spirv.OpSelect, spirv.OpIEqual, spirv.OpINotEqual,
	spirv.OpULessThan, spirv.OpSLessThan, spirv.OpUGreaterThan, spirv.OpSGreaterThan,
	spirv.OpULessThanEqual, spirv.OpSLessThanEqual, spirv.OpUGreaterThanEqual,
	spirv.OpSGreaterThanEqual, spirv.OpQuantizeToF16,
	spirv.OpConvertFToS, spirv.OpConvertSToF, spirv.OpConvertFToU, spirv.OpConvertUToF,
	spirv.OpConvertPtrToU, spirv.OpConvertUToPtr, spirv.OpGenericCastToPtr, spirv.OpPtrCastToGeneric,
	spirv.OpBitcast, spirv.OpFNegate, spirv.OpFAdd, spirv.OpFSub, spirv.OpFMul,
	spirv.OpFDiv, spirv.OpFRem, spirv.OpFMod, spirv.OpAccessChain, spirv.OpInBoundsAccessChain,
	spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain,
	spirv.OpCooperativeMatrixLengthNV, spirv.OpCooperativeMatrixLengthKHR,
}

// checkSpecConstantOp: the operation is one OpSpecConstantOp may perform,
// its <id> operands are values, and it follows the operation's own rules.
func (s *state) checkSpecConstantOp(i int) {
	w := s.m.Insts[i].Words
	inner := spirv.Op(w[2])
	if !slices.Contains(specConstantOps[:], inner) {
		s.fail(i, "spec-constant-op.opcode", "Invalid OpSpecConstantOp opcode: %d", w[2])
		return
	}
	d := inner.Desc()
	if d == nil {
		return
	}
	// The operation's operands after its result: <id>s first, then
	// literals (OpVectorShuffle's components, OpCompositeExtract's indices).
	for k, a := range w[3:] {
		if k+2 < len(d.Operands) && d.Operands[k+2].Kind != spirv.KindIdRef {
			break
		}
		if k+2 < len(d.Operands) && strings.Contains(d.Operands[k+2].Name, "Type") {
			continue // OpCooperativeMatrixLength* names a type
		}
		if di := s.defInst(a); di != nil && di.Op.Desc().Class == "Type-Declaration" {
			s.fail(i, "operand.type", "Operand '%d' cannot be a type", a)
			return
		}
	}
	if r := valueRule(inner); r != nil {
		r(&op{s: s, i: i, name: "SpecConstantOp", rt: w[0], args: w[3:]})
	}
}

// checkValueOp runs the arithmetic-family or composite rule of
// instruction i.
func (s *state) checkValueOp(i int) {
	in := &s.m.Insts[i]
	valueRule(in.Op)(&op{s: s, i: i, name: in.Op.String()[2:], rt: in.Words[0], args: in.Words[2:]})
}

var derivativeOps = []spirv.Op{spirv.OpDPdx, spirv.OpDPdy, spirv.OpFwidth, spirv.OpDPdxFine, spirv.OpDPdyFine,
	spirv.OpFwidthFine, spirv.OpDPdxCoarse, spirv.OpDPdyCoarse, spirv.OpFwidthCoarse}

// arithLimits are the family's execution-model limits (execmodel.go lists them).
func arithLimits() opLimits {
	m := opLimits{}
	for _, o := range derivativeOps {
		m[o] = func(s *state, i int, out []modelLimit) []modelLimit {
			grouped := s.exts["SPV_KHR_compute_shader_derivatives"] || s.exts["SPV_NV_compute_shader_derivatives"]
			return derivativeLimits(out, "Derivative instructions require", ": "+o.String()[2:], grouped)
		}
	}
	return m
}

// arithEach adds the family's rules (instructions.go lists the families).
func arithEach(add func(spirv.Op, func(*state, int))) {
	add(spirv.OpSpecConstantOp, (*state).checkSpecConstantOp)
	add(spirv.OpAssumeTrueKHR, (*state).checkAssumeTrue)
	for _, table := range [...][]opValue[func(*op)]{arithRules[:], compositeRules[:]} {
		for _, r := range table {
			add(r.op, (*state).checkValueOp)
		}
	}
}

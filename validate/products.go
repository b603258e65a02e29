package validate

import "github.com/coopshader/coop/spirv"

// Scaling products and the arithmetic with extended results (SPIR-V
// 3.56.13 Arithmetic Instructions, paraphrased, no local copy):
// OpVectorTimesScalar, OpMatrixTimesScalar, OpIAddCarry, OpISubBorrow,
// OpUMulExtended and OpSMulExtended. Cooperative vectors scale as vectors
// do ("Allow floating point cooperative vector types for
// OpVectorTimesScalar", SPV_NV_cooperative_vector); cooperative matrices
// have their family's rule (coopmat.go).

// productsChecks are the family's rules (instructions.go lists the families).
var productsChecks = []opCheck{
	{spirv.OpVectorTimesScalar, (*state).checkTimesScalar},
	{spirv.OpMatrixTimesScalar, (*state).checkTimesScalar},
	{spirv.OpIAddCarry, (*state).checkExtendedArith},
	{spirv.OpISubBorrow, (*state).checkExtendedArith},
	{spirv.OpUMulExtended, (*state).checkExtendedArith},
	{spirv.OpSMulExtended, (*state).checkExtendedArith},
}

// checkTimesScalar: "Result Type must be a vector (a matrix) of
// floating-point type. The type of Vector (Matrix) must be the same as
// Result Type. Scalar must have the same type as the Component Type in
// Result Type."
func (s *state) checkTimesScalar(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	rt := s.types[w[0]]
	if rt == nil || isCoopMat(rt) {
		return
	}
	name := in.Op.String()[2:]
	comp := s.types[rt.Elem]
	if in.Op == spirv.OpMatrixTimesScalar {
		if !rt.is(spirv.OpTypeMatrix) {
			s.fail(i, "arith.times-scalar", "Expected float matrix type as Result Type: %s", name)
			return
		}
		comp = s.component(rt.Elem)
	} else if !rt.is(spirv.OpTypeVector) && !rt.is(spirv.OpTypeVectorIdEXT) {
		s.fail(i, "arith.times-scalar", "Expected float vector type as Result Type: %s", name)
		return
	}
	if !comp.is(spirv.OpTypeFloat) {
		s.fail(i, "arith.times-scalar", "Expected floating-point components in Result Type: %s", name)
		return
	}
	if s.typeOf(w[2]) != w[0] {
		s.fail(i, "arith.times-scalar", "Expected %s operand type to be equal to Result Type: %s",
			map[bool]string{true: "matrix", false: "vector"}[in.Op == spirv.OpMatrixTimesScalar], name)
		return
	}
	if s.typeOf(w[3]) != comp.ID {
		s.fail(i, "arith.times-scalar", "Expected scalar operand type to be equal to the component type of the %s operand: %s",
			map[bool]string{true: "matrix", false: "vector"}[in.Op == spirv.OpMatrixTimesScalar], name)
	}
}

// checkExtendedArith: "Result Type must be from OpTypeStruct. The struct
// must have two members, and the two members must be the same type. The
// member type must be a scalar or vector of integer type ... Operand 1 and
// Operand 2 must have the same type as the members of Result Type";
// OpIAddCarry, OpISubBorrow and OpUMulExtended take unsigned members.
func (s *state) checkExtendedArith(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	name := in.Op.String()[2:]
	rt := s.types[w[0]]
	if !rt.is(spirv.OpTypeStruct) || len(rt.Members) != 2 || rt.Members[0] != rt.Members[1] {
		s.fail(i, "arith.extended", "Expected a struct with two members of the same type as Result Type: %s", name)
		return
	}
	m, ok, _ := s.numOf(rt.Members[0])
	if !ok || !m.is(spirv.OpTypeInt) || in.Op != spirv.OpSMulExtended && m.t.Signed {
		s.fail(i, "arith.extended", "Expected Result Type struct to have %sint scalar or vector members: %s",
			map[bool]string{true: "", false: "unsigned "}[in.Op == spirv.OpSMulExtended], name)
		return
	}
	if s.typeOf(w[2]) != rt.Members[0] || s.typeOf(w[3]) != rt.Members[0] {
		s.fail(i, "arith.extended", "Expected both operands to be of Result Type member type: %s", name)
	}
}

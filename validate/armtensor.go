package validate

import "github.com/coopshader/coop/spirv"

// SPV_ARM_tensors: the operands of OpTensorReadARM, OpTensorWriteARM and
// OpTensorQuerySizeARM, and their Tensor Operands. The extension's text
// is not among the local specifications; the rules are paraphrased from
// it.

// armTensorChecks are the family's rules (instructions.go lists the families).
var armTensorChecks = []opCheck{
	{spirv.OpTensorReadARM, (*state).checkTensorReadARM},
	{spirv.OpTensorWriteARM, (*state).checkTensorWriteARM},
	{spirv.OpTensorQuerySizeARM, (*state).checkTensorQuerySizeARM},
	{spirv.OpTypeTensorARM, (*state).checkTensorTypeARM},
}

// checkTensorTypeARM (OpTypeTensorARM): "Element Type must be a scalar
// type"; "Rank ... must be a constant instruction with scalar integer
// type" whose value is greater than 0; "Shape ... must be a constant
// instruction" of an array of integers, Rank of them, each greater than
// 0.
func (s *state) checkTensorTypeARM(i int) {
	w := s.m.Insts[i].Words
	if s.scalar(w[1]) == nil {
		s.fail(i, "tensor-arm.type", "OpTypeTensorARM Element Type <id> '%d' is not a scalar type.", w[1])
		return
	}
	if len(w) < 3 {
		return
	}
	if !s.isConst(w[2]) {
		s.fail(i, "tensor-arm.type", "OpTypeTensorARM Rank <id> '%d' is not a constant instruction.", w[2])
		return
	}
	if !s.valueType(w[2]).is(spirv.OpTypeInt) {
		s.fail(i, "tensor-arm.type", "OpTypeTensorARM Rank <id> '%d' does not have a scalar integer type.", w[2])
		return
	}
	rank, known := s.constValue(w[2])
	if known && rank == 0 {
		s.fail(i, "tensor-arm.type", "OpTypeTensorARM Rank <id> '%d' must define a value greater than 0.", w[2])
		return
	}
	if len(w) < 4 {
		return
	}
	if !s.isConst(w[3]) {
		s.fail(i, "tensor-arm.type", "OpTypeTensorARM Shape <id> '%d' is not a constant instruction.", w[3])
		return
	}
	if st := s.valueType(w[3]); !st.is(spirv.OpTypeArray) || !s.types[st.Elem].is(spirv.OpTypeInt) || known && st.CountKnown && st.Count != rank {
		s.fail(i, "tensor-arm.type", "OpTypeTensorARM Shape <id> '%d' is not an array of integer type whose Length is equal to Rank.", w[3])
	}
}

// rankedTensorARM returns the OpTypeTensorARM instruction of the value id
// when it declares a Rank, and that rank (known false for a
// specialization constant).
func (s *state) rankedTensorARM(id uint32) (elem uint32, rank uint64, known, ok bool) {
	d := s.defInst(s.typeOf(id))
	if d == nil || d.Op != spirv.OpTypeTensorARM || len(d.Words) < 3 {
		return 0, 0, false, false
	}
	rank, known = s.constValue(d.Words[2])
	return d.Words[1], rank, known, true
}

// scalarOrScalarArray returns the scalar type of a scalar type or of an
// array of scalars, or 0.
func (s *state) scalarOrScalarArray(t uint32) uint32 {
	if s.scalar(t) != nil {
		return t
	}
	if at := s.types[t]; at.is(spirv.OpTypeArray) && s.scalar(at.Elem) != nil {
		return at.Elem
	}
	return 0
}

// checkTensorCoordinates: "Coordinates must be an array whose Element
// Type is an integer type and whose Length is the Rank of Tensor."
func (s *state) checkTensorCoordinates(i int, coord uint32, rank uint64, known bool) {
	t := s.valueType(coord)
	if !t.is(spirv.OpTypeArray) || !s.types[t.Elem].is(spirv.OpTypeInt) || known && t.CountKnown && t.Count != rank {
		s.fail(i, "tensor-arm.coordinates", "Expected Coordinates to be an array whose Element Type is an integer type and whose Length is equal to the Rank of Tensor.")
	}
}

// checkTensorReadARM: "Result Type must be a scalar type or an array of
// a scalar type, which must be the Element Type of Tensor. Tensor must be
// an OpTypeTensorARM with a Rank."; an OutOfBoundsValueARM value has the
// Element Type; MakeElementAvailableARM is not used with a read, and
// MakeElementVisibleARM needs NonPrivateElementARM.
func (s *state) checkTensorReadARM(i int) {
	w := s.m.Insts[i].Words
	c := s.scalarOrScalarArray(w[0])
	if c == 0 {
		s.fail(i, "tensor-arm.result", "Expected Result Type to be a scalar type or array of scalar type.")
		return
	}
	elem, rank, known, ok := s.rankedTensorARM(w[2])
	if !ok {
		s.fail(i, "tensor-arm.tensor", "Expected Tensor to be an OpTypeTensorARM whose Rank is specified")
		return
	}
	if c != elem {
		s.fail(i, "tensor-arm.result", "Expected Result Type to be the same as the Element Type of Tensor.")
		return
	}
	if s.checkTensorCoordinates(i, w[3], rank, known); s.err != nil || len(w) < 5 {
		return
	}
	ops := spirv.TensorOperands(w[4])
	switch {
	case ops&spirv.TensorOperandsOutOfBoundsValueARM != 0 && (len(w) < 6 || s.scalarOrScalarArray(s.typeOf(w[5])) != elem):
		s.fail(i, "tensor-arm.operands", "Expected the type of the OutOfBoundsValueARM value to be the same as the Element Type of Tensor.")
	case ops&spirv.TensorOperandsMakeElementAvailableARM != 0:
		s.fail(i, "tensor-arm.operands", "MakeElementAvailableARM cannot be used with OpTensorReadARM.")
	case ops&spirv.TensorOperandsMakeElementVisibleARM != 0 && ops&spirv.TensorOperandsNonPrivateElementARM == 0:
		s.fail(i, "tensor-arm.operands", "MakeElementVisibleARM requires NonPrivateElementARM.")
	}
}

// checkTensorWriteARM: "Object must be an object of scalar type or array
// of scalar type, the Element Type of Tensor"; OutOfBoundsValueARM and
// MakeElementVisibleARM are not used with a write, and
// MakeElementAvailableARM needs NonPrivateElementARM.
func (s *state) checkTensorWriteARM(i int) {
	w := s.m.Insts[i].Words
	elem, rank, known, ok := s.rankedTensorARM(w[0])
	if !ok {
		s.fail(i, "tensor-arm.tensor", "Expected Tensor to be an OpTypeTensorARM whose Rank is specified")
		return
	}
	if s.checkTensorCoordinates(i, w[1], rank, known); s.err != nil {
		return
	}
	if s.scalarOrScalarArray(s.typeOf(w[2])) != elem {
		s.fail(i, "tensor-arm.object", "Expected Object to be a scalar type or array of scalar type that is the same as the Element Type of Tensor.")
		return
	}
	if len(w) < 4 {
		return
	}
	ops := spirv.TensorOperands(w[3])
	switch {
	case ops&spirv.TensorOperandsOutOfBoundsValueARM != 0:
		s.fail(i, "tensor-arm.operands", "OutOfBoundsValue Tensor Operand not allowed with OpTensorWriteARM.")
	case ops&spirv.TensorOperandsMakeElementVisibleARM != 0:
		s.fail(i, "tensor-arm.operands", "MakeElementVisibleARM not allowed with OpTensorWriteARM.")
	case ops&spirv.TensorOperandsMakeElementAvailableARM != 0 && ops&spirv.TensorOperandsNonPrivateElementARM == 0:
		s.fail(i, "tensor-arm.operands", "MakeElementAvailableARM requires NonPrivateElementARM.")
	}
}

// checkTensorQuerySizeARM: "Result Type must be an integer type scalar.
// Dimension must be a constant instruction of scalar integer type, less
// than the Rank of Tensor."
func (s *state) checkTensorQuerySizeARM(i int) {
	w := s.m.Insts[i].Words
	if !s.types[w[0]].is(spirv.OpTypeInt) {
		s.fail(i, "tensor-arm.result", "Expected Result Type to be an integer type scalar")
		return
	}
	_, rank, known, ok := s.rankedTensorARM(w[2])
	if !ok {
		s.fail(i, "tensor-arm.tensor", "Expected Tensor to be an OpTypeTensorARM whose Rank is specified")
		return
	}
	if !s.isConst(w[3]) || !s.valueType(w[3]).is(spirv.OpTypeInt) {
		s.fail(i, "tensor-arm.dimension", "Dimension must come from a constant instruction of scalar integer type.")
		return
	}
	if d, dk := s.constValue(w[3]); known && dk && d >= rank {
		s.fail(i, "tensor-arm.dimension", "Dimension (%d) must be less than the Rank of Tensor (%d).", d, rank)
	}
}

package validate

import "github.com/coopshader/coop/spirv"

// SPV_EXT_replicated_composites: OpCompositeConstructReplicateEXT,
// OpConstantCompositeReplicateEXT and OpSpecConstantCompositeReplicateEXT
// build a composite whose every constituent is the one Value. The
// extension's text is not among the local specifications; the rules are
// paraphrased from it.

// replicateChecks are the family's rules (instructions.go lists the families).
var replicateChecks = []opCheck{
	{spirv.OpCompositeConstructReplicateEXT, (*state).checkReplicate},
	{spirv.OpConstantCompositeReplicateEXT, (*state).checkReplicate},
	{spirv.OpSpecConstantCompositeReplicateEXT, (*state).checkReplicate},
}

// checkReplicate: "Result Type must be a composite type"; "the type of
// Value must be the same as the element type of Result Type" (each member
// type for a structure); a constant replicates a constant (a
// specialization constant, or a constant, for the Spec form).
func (s *state) checkReplicate(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	rt := s.types[w[0]]
	v := w[2]
	if in.Op != spirv.OpCompositeConstructReplicateEXT {
		d := s.defInst(v)
		if d == nil || !isConstInst(d.Op) || in.Op == spirv.OpConstantCompositeReplicateEXT && isSpecConstOp(d.Op) {
			s.fail(i, "replicate.constant", "%s Constituent <id> '%d' is not a constant.", in.Op, v)
			return
		}
	}
	var elems []uint32
	composite := true
	switch {
	case rt == nil:
		composite = false
	case rt.Op == spirv.OpTypeStruct:
		elems = rt.Members
	case rt.Op == spirv.OpTypeVector, rt.Op == spirv.OpTypeVectorIdEXT, rt.Op == spirv.OpTypeMatrix, rt.Op == spirv.OpTypeArray,
		isCoopMat(rt):
		elems = []uint32{rt.Elem}
	default:
		composite = false
	}
	if !composite {
		s.fail(i, "replicate.result", "%s Result Type <id> '%d' must be a composite type.", in.Op, w[0])
		return
	}
	vt := s.typeOf(v)
	for _, e := range elems {
		if e != vt {
			s.fail(i, "replicate.value", "%s Constituent <id> '%d's type does not match Result Type <id> '%d's element type.", in.Op, v, w[0])
			return
		}
	}
}

func isSpecConstOp(op spirv.Op) bool {
	switch op {
	case spirv.OpSpecConstant, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse, spirv.OpSpecConstantComposite,
		spirv.OpSpecConstantOp, spirv.OpSpecConstantCompositeReplicateEXT:
		return true
	}
	return false
}

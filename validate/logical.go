package validate

import "github.com/coopshader/coop/spirv"

// OpCopyLogical (SPIR-V 3.56.12, paraphrased, no local copy): "Result
// Type must not equal the type of Operand ... but Result Type must
// logically match the Operand type": two arrays of one length whose
// element types logically match, or two structures whose members
// logically match, or the same type (a length that is a specialization
// constant is not compared). OpAbortKHR (SPV_KHR_abort, paraphrased, no
// local copy) takes a Message whose type logically matches its Message
// Type, which may differ only in decorations (its explicit layout).

// logicalChecks are the family's rules (instructions.go lists the families).
var logicalChecks = []opCheck{
	{spirv.OpCopyLogical, (*state).checkCopyLogical},
	{spirv.OpAbortKHR, (*state).checkAbort},
}

func (s *state) checkAbort(i int) {
	w := s.m.Insts[i].Words
	if !s.logicallyMatch(w[0], s.typeOf(w[1])) {
		s.fail(i, "abort.message", "Type of Message operand does not logically match the type of the Message Type operand")
	}
}

func (s *state) checkCopyLogical(i int) {
	w := s.m.Insts[i].Words
	ot := s.typeOf(w[2])
	if w[0] == ot {
		s.fail(i, "composite.copy-logical", "Result Type must not equal the Operand type")
		return
	}
	if !s.logicallyMatch(w[0], ot) {
		s.fail(i, "composite.copy-logical", "Result Type does not logically match the Operand type")
	}
}

func (s *state) logicallyMatch(a, b uint32) bool {
	if a == b {
		return true
	}
	ta, tb := s.types[a], s.types[b]
	if ta == nil || tb == nil || ta.Op != tb.Op {
		return false
	}
	switch ta.Op {
	case spirv.OpTypeArray:
		return (!ta.CountKnown || !tb.CountKnown || ta.Count == tb.Count) && s.logicallyMatch(ta.Elem, tb.Elem)
	case spirv.OpTypeStruct:
		if len(ta.Members) != len(tb.Members) {
			return false
		}
		for k := range ta.Members {
			if !s.logicallyMatch(ta.Members[k], tb.Members[k]) {
				return false
			}
		}
		return true
	}
	return false
}

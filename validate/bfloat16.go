package validate

import "github.com/coopshader/coop/spirv"

// SPV_KHR_bfloat16.

func isBF16(_ *state, t *Type) bool {
	return t.is(spirv.OpTypeFloat) && t.Encoding == int32(spirv.FPEncodingBFloat16KHR)
}

// checkBFloat16Type: the BFloat16KHR encoding has a width of 16 and needs
// BFloat16TypeKHR (SPV_KHR_bfloat16, FP Encoding table).
func (s *state) checkBFloat16Type(i int, t *Type) {
	if t.Width != 16 {
		s.fail(i, "bfloat16.width", "OpTypeFloat with the BFloat16KHR encoding must have a Width of 16, not %d (SPV_KHR_bfloat16 FP Encoding)", t.Width)
		return
	}
	if !s.hasCap(spirv.CapabilityBFloat16TypeKHR) {
		s.fail(i, "bfloat16.type", "OpTypeFloat with the BFloat16KHR encoding requires the BFloat16TypeKHR capability (SPV_KHR_bfloat16 FP Encoding)")
	}
}

var bf16Uses = &restricted{
	rule: "bfloat16.use",
	what: "BFloat16KHR floating-point type",
	is:   isBF16,
	// "Objects with a type that is or includes a floating-point type with
	// the BFloat16KHR encoding must only be used with the following
	// instructions: ..."
	// SPV_ARM_tensors adds its tensor instructions ("Tensor" class).
	classes: [][]string{{"Annotation", "Debug", "Miscellaneous", "Extension", "Mode-Setting", "Tensor"}, dataClasses},
	ops: []spirv.Op{spirv.OpDot, spirv.OpCooperativeMatrixMulAddKHR, spirv.OpCooperativeMatrixLengthKHR, spirv.OpSelect,
		spirv.OpPhi, spirv.OpReturnValue, spirv.OpLifetimeStart, spirv.OpLifetimeStop},
	cite: "SPV_KHR_bfloat16 Validation Rules",
}

// checkBFloat16Dot: "If the Result Type (and the component types of
// Vector 1 and Vector 2) has a BFloat16KHR encoding then
// BFloat16DotProductKHR must be declared." (SPV_KHR_bfloat16, OpDot)
func checkBFloat16Dot(s *state, i int) {
	if isBF16(s, s.types[s.m.Insts[i].Words[0]]) && !s.hasCap(spirv.CapabilityBFloat16DotProductKHR) {
		s.fail(i, "bfloat16.dot", "OpDot with a BFloat16KHR Result Type requires the BFloat16DotProductKHR capability (SPV_KHR_bfloat16 OpDot)")
	}
}

// bfloat16Checks are the family's rules (instructions.go lists the families).
var bfloat16Checks = []opCheck{
	{spirv.OpDot, checkBFloat16Dot},
}

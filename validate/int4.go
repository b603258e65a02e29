package validate

import "github.com/coopshader/coop/spirv"

// SPV_INTEL_int4.

func isInt4(_ *state, t *Type) bool { return t.is(spirv.OpTypeInt) && t.Width == 4 }

var int4Uses = &restricted{
	rule: "int4.use",
	what: "4-bit integer type",
	is:   isInt4,
	// "Types that are or include an integer type with a 'Width' of 4, or
	// objects with such a type, must only be used with the following
	// instructions: Constant Creation, Memory, Function, Conversion and
	// Composite Instructions, OpCooperativeMatrixMulAddKHR,
	// OpCooperativeMatrixLengthKHR, OpSelect, OpPhi, OpReturnValue,
	// OpLifetimeStart, OpLifetimeStop."
	classes: [][]string{dataClasses},
	ops: []spirv.Op{spirv.OpCooperativeMatrixMulAddKHR, spirv.OpCooperativeMatrixLengthKHR, spirv.OpSelect,
		spirv.OpPhi, spirv.OpReturnValue, spirv.OpLifetimeStart, spirv.OpLifetimeStop},
	cite: "SPV_INTEL_int4 Validation Rules",
}

// checkInt4 applies SPV_INTEL_int4's instruction list (and the other
// narrow types' lists: bfloat16, 8-bit floats, storage-only 8- and 16-bit
// types), and its rule that
// OpCooperativeMatrixMulAddKHR and OpCooperativeMatrixLengthKHR reach
// 4-bit matrices only with Int4CooperativeMatrixINTEL (checked with the
// matrix type itself, in checkCoopMatType).
func (s *state) checkInt4() {
	s.checkRestricted(int4Uses)
	if s.err == nil {
		s.checkRestricted(bf16Uses)
	}
	if s.err == nil {
		s.checkRestricted(fp8Uses)
	}
	if s.err == nil {
		s.checkRestricted(smallUses)
	}
}

// checkInt4Storage: "Scalar integer variables with a Width of 4 can only be
// declared in the Private or Function storage classes. In other storage
// classes, they must be included in an OpTypeVector with an even Component
// Count" (SPV_INTEL_int4, Memory Layout).
func (s *state) checkInt4Storage(i int, t *Type) {
	if !s.int4OnlyInEvenVectors(t) {
		s.fail(i, "int4.storage", "4-bit integer variables outside the Private and Function storage classes must be in an OpTypeVector with an even Component Count (SPV_INTEL_int4 Memory Layout)")
	}
}

// int4OnlyInEvenVectors reports whether every 4-bit integer within t sits
// in a vector of an even, known component count.
func (s *state) int4OnlyInEvenVectors(t *Type) bool {
	if t == nil {
		return true
	}
	switch t.Op {
	case spirv.OpTypeInt:
		return t.Width != 4
	case spirv.OpTypeVector, spirv.OpTypeVectorIdEXT:
		if isInt4(s, s.types[t.Elem]) {
			return t.CountKnown && t.Count%2 == 0
		}
		return true
	case spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeMatrix:
		return s.int4OnlyInEvenVectors(s.types[t.Elem])
	case spirv.OpTypeStruct:
		for _, m := range t.Members {
			if !s.int4OnlyInEvenVectors(s.types[m]) {
				return false
			}
		}
	}
	return true
}

package validate

import "github.com/coopshader/coop/spirv"

// SPV_EXT_float8.

func isFP8(_ *state, t *Type) bool {
	return t.is(spirv.OpTypeFloat) && (t.Encoding == int32(spirv.FPEncodingFloat8E4M3EXT) || t.Encoding == int32(spirv.FPEncodingFloat8E5M2EXT))
}

// checkFloat8Type: the Float8E4M3EXT and Float8E5M2EXT encodings have a
// width of 8 and need Float8EXT (SPV_EXT_float8, FP Encoding table).
func (s *state) checkFloat8Type(i int, t *Type) {
	if t.Width != 8 {
		s.fail(i, "float8.width", "OpTypeFloat with an 8-bit float encoding must have a Width of 8, not %d (SPV_EXT_float8 FP Encoding)", t.Width)
		return
	}
	if !s.hasCap(spirv.CapabilityFloat8EXT) {
		s.fail(i, "float8.type", "OpTypeFloat with the Float8E4M3EXT or Float8E5M2EXT encoding requires the Float8EXT capability (SPV_EXT_float8 FP Encoding)")
	}
}

var fp8Uses = &restricted{
	rule: "float8.use",
	what: "Float8E4M3EXT or Float8E5M2EXT floating-point type",
	is:   isFP8,
	// "Objects with a type that is or includes a floating-point type with
	// the Float8E4M3EXT or Float8E5M2EXT FP Encoding must only be used
	// with the following instructions: ..."
	// SPV_ARM_tensors adds its tensor instructions ("Tensor" class).
	classes: [][]string{{"Annotation", "Debug", "Miscellaneous", "Extension", "Mode-Setting", "Tensor"}, dataClasses},
	ops: []spirv.Op{spirv.OpSelect, spirv.OpPhi, spirv.OpReturnValue, spirv.OpLifetimeStart, spirv.OpLifetimeStop,
		spirv.OpCooperativeMatrixMulAddKHR},
	cite: "SPV_EXT_float8 Validation Rules",
}

// checkSaturatedFP8: "This decoration must only be applied to the
// OpFConvert, OpConvertSToF, or OpConvertUToF instructions with a Result
// Type that uses an Float8E4M3EXT or Float8E5M2EXT FP Encoding."
func (s *state) checkSaturatedFP8(i int, target uint32) {
	in := s.defInst(target)
	ok := in != nil && (in.Op == spirv.OpFConvert || in.Op == spirv.OpConvertSToF || in.Op == spirv.OpConvertUToF)
	if ok {
		ok = s.contains(s.types[in.TypeID()], func(t *Type) bool { return isFP8(s, t) }) != nil
	}
	if !ok {
		s.fail(i, "float8.saturated", "SaturatedToLargestFloat8NormalConversionEXT must decorate an OpFConvert, OpConvertSToF or OpConvertUToF with an 8-bit float Result Type (SPV_EXT_float8 Decoration)")
	}
}

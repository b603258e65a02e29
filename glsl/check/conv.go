package check

// Implicit conversions: GLSL 4.60 section 4.1.10 extended by
// GL_EXT_shader_explicit_arithmetic_types, GL_EXT_bfloat16 (bfloat16 widens
// to float and double) and GL_EXT_float8_e5m2_e4m3 (fp8 widens to bfloat16,
// float16, float and double). Nothing converts implicitly to the narrow
// floats.

// Conversion ranks used by overload resolution; lower is better.
const (
	rankExact      = 0
	rankPromotion  = 1 // int8/16 -> int32 class, float16/32 -> double
	rankIntConv    = 2 // other integral and float16 -> float conversions
	rankIntToFloat = 3 // integral -> float16/float
	rankToDouble   = 4 // integral -> double
	rankNone       = -1
)

// scalarRank ranks the implicit conversion from one scalar type to another.
func scalarRank(from, to Scalar) int {
	if from == to {
		return rankExact
	}
	if from == Bool || to == Bool {
		return rankNone
	}
	if from.IsNarrowFloat() {
		switch {
		case to == Float64:
			return rankPromotion
		case to == Float32, to == Float16 && from != BFloat16, to == BFloat16 && from != BFloat16:
			return rankIntConv
		}
		return rankNone
	}
	if to.IsNarrowFloat() {
		return rankNone
	}
	fb, tb := from.Bits(), to.Bits()
	switch {
	case from.IsInt() && to.IsInt():
		// Never to a smaller type, nor unsigned to signed of the same width.
		if tb < fb || (tb == fb && from.IsUnsigned() && to.IsSigned()) {
			return rankNone
		}
		if fb < 32 && to == Int32 && (from.IsSigned() || from == Uint8 || from == Uint16) {
			return rankPromotion
		}
		return rankIntConv
	case from.IsInt() && to.IsFloat():
		// Integers convert to floats that hold more bits than themselves,
		// except that 32-bit ints go to float and 64-bit ones only to double.
		switch to {
		case Float16:
			if fb <= 16 {
				return rankIntToFloat
			}
		case Float32:
			if fb <= 32 {
				return rankIntToFloat
			}
		case Float64:
			return rankToDouble
		}
		return rankNone
	case from.IsFloat() && to.IsFloat():
		if tb < fb {
			return rankNone
		}
		if to == Float64 {
			return rankPromotion
		}
		return rankIntConv
	}
	return rankNone
}

// implicitRank ranks the implicit conversion of a value of type from to type
// to: same shape, convertible components. Aggregates and cooperative types
// must match exactly.
func (c *checker) implicitRank(from, to *Type) int {
	if Identical(from, to) {
		return rankExact
	}
	if from.Kind != to.Kind || from.N != to.N || from.Rows != to.Rows {
		return rankNone
	}
	switch from.Kind {
	case KScalar, KVector:
		if from.Kind == KVector && !sameSpec(from.SpecLen, to.SpecLen) {
			return rankNone
		}
	case KMatrix:
	default:
		return rankNone
	}
	if !c.implicitAllowed() {
		return rankNone
	}
	return scalarRank(from.Scalar, to.Scalar)
}

// implicitAllowed: ES shaders have no implicit conversions unless an
// extension that adds them is enabled.
func (c *checker) implicitAllowed() bool {
	if !c.prog.ES {
		return true
	}
	return c.extOn("GL_EXT_shader_explicit_arithmetic_types") || c.extOn("GL_EXT_shader_implicit_conversions") ||
		c.extOn("GL_EXT_shader_explicit_arithmetic_types_int8") || c.extOn("GL_EXT_shader_explicit_arithmetic_types_int16") ||
		c.extOn("GL_EXT_shader_explicit_arithmetic_types_int64") || c.extOn("GL_EXT_shader_explicit_arithmetic_types_float16")
}

// binaryScalar picks the common component type of a binary operator's
// operands (the extension's "usual arithmetic conversions"); ok is false
// when neither converts to the other.
func (c *checker) binaryScalar(a, b Scalar) (Scalar, bool) {
	if a == b {
		return a, true
	}
	ra, rb := scalarRank(a, b), scalarRank(b, a)
	if !c.implicitAllowed() {
		return 0, false
	}
	switch {
	case ra != rankNone && rb == rankNone:
		return b, true
	case rb != rankNone && ra == rankNone:
		return a, true
	}
	// Neither converts to the other (e.g. int64 and uint32 both go to
	// uint64): find the best common target.
	best, bestRank := NoScalar, 99
	for t := Int8; t <= Float64; t++ {
		x, y := scalarRank(a, t), scalarRank(b, t)
		if x == rankNone || y == rankNone {
			continue
		}
		if r := max(x, y); r < bestRank {
			best, bestRank = t, r
		}
	}
	return best, best != NoScalar
}

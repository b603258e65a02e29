// Package num encodes and decodes the narrow number formats the
// cooperative-matrix and microscaling extensions use (float16, bfloat16,
// fp8 E4M3/E5M2, the OCP microscaling FP6 E2M3/E3M2, FP4 E2M1 and MXINT8,
// and any other sign/exponent/fraction layout) exactly, for the compiler's
// constants, the executor's conversions and the test scripts' buffers.
package num

import "math"

// Specials says which special values a binary float format encodes.
type Specials uint8

const (
	// IEEE: the all-ones exponent holds the infinities and NaNs.
	IEEE Specials = iota
	// NaNOnly: no infinities; only the all-ones exponent and fraction is
	// NaN (fp8 E4M3).
	NaNOnly
	// Finite: neither infinities nor NaNs; every pattern is a number (the
	// OCP microscaling FP6 and FP4 formats).
	Finite
)

// Format is a binary float format: a sign bit, Exp exponent bits (bias
// 2^(Exp-1)-1) and Man fraction bits, with subnormals.
type Format struct {
	Exp, Man int
	Specials Specials
}

// The formats of SPIR-V's FP encodings.
var (
	Float16  = Format{5, 10, IEEE}
	BFloat16 = Format{8, 7, IEEE}
	E5M2     = Format{5, 2, IEEE}
	E4M3     = Format{4, 3, NaNOnly}
	E3M2     = Format{3, 2, Finite}
	E2M3     = Format{2, 3, Finite}
	E2M1     = Format{2, 1, Finite}
)

// Rounding is a rounding mode, numbered as SPIR-V's FPRoundingMode.
type Rounding uint8

const (
	NearestEven Rounding = iota
	TowardZero
	TowardPositive
	TowardNegative
)

// Bits is the width of the format.
func (f Format) Bits() int { return 1 + f.Exp + f.Man }

func (f Format) signBit() uint64 { return 1 << (f.Exp + f.Man) }

// MaxBits is the encoding of the largest finite value.
func (f Format) MaxBits() uint64 {
	switch f.Specials {
	case IEEE:
		return (1<<f.Exp-2)<<f.Man | (1<<f.Man - 1)
	case NaNOnly:
		return (1<<f.Exp-1)<<f.Man | (1<<f.Man - 2)
	}
	return f.signBit() - 1
}

// Max is the largest finite value.
func (f Format) Max() float64 { return f.Decode(f.MaxBits()) }

// Decode returns the value of bits, exactly.
func (f Format) Decode(bits uint64) float64 {
	expMax := uint64(1)<<f.Exp - 1
	e := bits >> f.Man & expMax
	m := bits & (uint64(1)<<f.Man - 1)
	bias := 1<<(f.Exp-1) - 1
	var v float64
	switch {
	case f.Specials == IEEE && e == expMax && m == 0:
		v = math.Inf(1)
	case f.Specials == IEEE && e == expMax, f.Specials == NaNOnly && e == expMax && m == uint64(1)<<f.Man-1:
		return math.NaN()
	case e == 0:
		v = math.Ldexp(float64(m), 1-bias-f.Man)
	default:
		v = math.Ldexp(float64(m|1<<f.Man), int(e)-bias-f.Man)
	}
	if bits&f.signBit() != 0 {
		v = -v
	}
	return v
}

// Encode rounds x to the format with rounding mode rm. Values beyond the
// largest finite one (after rounding) become infinity in IEEE formats and
// NaN in NaNOnly ones, unless sat is set or the rounding mode rounds them
// down in magnitude: then they become the largest finite value. Finite
// formats always saturate, infinities included, and take NaN to +0. A
// NaN keeps its sign and becomes quiet.
func (f Format) Encode(x float64, rm Rounding, sat bool) uint64 {
	var sign uint64
	if math.Signbit(x) {
		sign = f.signBit()
	}
	expMax := uint64(1)<<f.Exp - 1
	if x != x {
		switch f.Specials {
		case IEEE:
			return sign | expMax<<f.Man | 1<<(f.Man-1)
		case NaNOnly:
			return sign | expMax<<f.Man | (1<<f.Man - 1)
		}
		return 0
	}
	if f.Specials == Finite {
		sat = true
	}
	maxBits := f.MaxBits()
	up := rm == NearestEven || rm == TowardPositive && sign == 0 || rm == TowardNegative && sign != 0
	overflow := func() uint64 {
		switch {
		case sat || !up:
			return sign | maxBits
		case f.Specials == IEEE:
			return sign | expMax<<f.Man
		}
		return sign | expMax<<f.Man | (1<<f.Man - 1)
	}
	a := math.Abs(x)
	if math.IsInf(a, 0) {
		// An infinity is exact, not an overflow: rounding leaves it.
		switch {
		case sat:
			return sign | maxBits
		case f.Specials == IEEE:
			return sign | expMax<<f.Man
		}
		return sign | expMax<<f.Man | (1<<f.Man - 1)
	}
	if a == 0 {
		return sign
	}
	// Quantize at the value's exponent, or the subnormal one.
	bias := 1<<(f.Exp-1) - 1
	emin := 1 - bias
	_, e := math.Frexp(a) // a = frac * 2^e, frac in [0.5, 1)
	E := max(e-1, emin)
	n := math.Ldexp(a, f.Man-E) // exact: a scaling by a power of two
	switch {
	case rm == NearestEven:
		n = math.RoundToEven(n)
	case up:
		n = math.Ceil(n)
	default:
		n = math.Trunc(n)
	}
	if n == 0 {
		return sign
	}
	// n < 2^(Man+1), or == 2^(Man+1) after a carry into the next binade.
	var bits uint64
	if n < float64(uint64(1)<<f.Man) {
		bits = uint64(n) // subnormal
	} else {
		if n >= float64(uint64(2)<<f.Man) {
			n /= 2
			E++
		}
		bits = uint64(E+bias)<<f.Man | (uint64(n) - 1<<f.Man)
	}
	if bits > maxBits {
		return overflow()
	}
	return sign | bits
}

// Round returns x rounded to the nearest value of the format (ties to
// even), with Encode's treatment of overflow and NaN.
func (f Format) Round(x float64) float64 { return f.Decode(f.Encode(x, NearestEven, false)) }

// MXInt8 is the OCP MXINT8 element: an 8-bit two's complement integer
// scaled by 2^-6 (so -2 to 127/64 in steps of 1/64).

// E8M0 is the OCP microscaling scale (Float8UnsignedE8M0EXT): no sign,
// 8 exponent bits with bias 127 and no fraction, so encoding e is 2^(e-127)
// and 0xff is NaN; there is no zero or infinity.

// DecodeE8M0 returns the value of an E8M0 encoding.
func DecodeE8M0(bits uint64) float64 {
	if bits&0xff == 0xff {
		return math.NaN()
	}
	return math.Ldexp(1, int(bits&0xff)-127)
}

// EncodeE8M0 converts x to E8M0 as glslang writes such constants: x rounded
// to float32, then that float's exponent field, so values round toward
// zero to a power of two; zero, negatives and float32 subnormals give the
// smallest (2^-127), values past float32's range and NaN give NaN.
func EncodeE8M0(x float64) uint64 {
	f := float32(x)
	if f != f {
		return 0xff
	}
	if f <= 0 {
		return 0
	}
	return uint64(math.Float32bits(f) >> 23)
}

// DecodeMXInt8 returns the value of an MXINT8 encoding.
func DecodeMXInt8(bits uint64) float64 { return float64(int8(bits)) / 64 }

// EncodeMXInt8 rounds x to MXINT8 with rounding mode rm, saturating to the
// symmetric range [-127/64, 127/64] (the encoding of -2 is never produced,
// as glslang's constant encoder does). NaN gives 0.
func EncodeMXInt8(x float64, rm Rounding) uint64 {
	if x != x {
		return 0
	}
	n := x * 64
	switch rm {
	case NearestEven:
		n = math.RoundToEven(n)
	case TowardZero:
		n = math.Trunc(n)
	case TowardPositive:
		n = math.Ceil(n)
	default:
		n = math.Floor(n)
	}
	n = max(-127, min(n, 127))
	return uint64(int8(n)) & 0xff
}

// Encode rounds f to nearest even in the binary float format of expBits
// exponent and manBits fraction bits; ieee says whether it has infinities
// (IEEE) or not (E4M3's NaNOnly).
func Encode(f float64, expBits, manBits int, ieee bool) uint64 {
	return legacy(expBits, manBits, ieee).Encode(f, NearestEven, false)
}

// Decode is the inverse of Encode.
func Decode(bits uint64, expBits, manBits int, ieee bool) float64 {
	return legacy(expBits, manBits, ieee).Decode(bits)
}

func legacy(expBits, manBits int, ieee bool) Format {
	if ieee {
		return Format{expBits, manBits, IEEE}
	}
	return Format{expBits, manBits, NaNOnly}
}

// Package num encodes and decodes the narrow binary float formats the
// cooperative-matrix extensions use (float16, bfloat16, fp8 E4M3/E5M2, and
// any other sign/exponent/fraction layout) exactly, for the compiler's
// constants and the test scripts' buffers.
package num

import "math"

// Encode rounds f to nearest even in a binary float format of expBits
// exponent and manBits fraction bits and returns its bits. Values beyond the largest finite number
// become infinity (ieee) or NaN (E4M3, which has no infinity).
func Encode(f float64, expBits, manBits int, ieee bool) uint64 {
	var sign uint64
	if math.Signbit(f) {
		sign = 1 << (expBits + manBits)
		f = -f
	}
	expMax := uint64(1)<<expBits - 1
	nan := sign | expMax<<manBits | (uint64(1)<<manBits - 1)
	if math.IsNaN(f) {
		if ieee {
			return sign | expMax<<manBits | 1<<(manBits-1)
		}
		return nan
	}
	bias := 1<<(expBits-1) - 1
	if math.IsInf(f, 0) {
		if ieee {
			return sign | expMax<<manBits
		}
		return nan
	}
	// Scale so the integer part holds the significand with manBits
	// fraction bits, at the value's exponent (or the subnormal one).
	_, e := math.Frexp(f) // f = frac * 2^e, frac in [0.5, 1)
	exp := e - 1
	if exp < 1-bias {
		exp = 1 - bias
	}
	m := math.RoundToEven(math.Ldexp(f, manBits-exp))
	// m may have carried into the next binade.
	if m >= float64(uint64(2)<<manBits) {
		m /= 2
		exp++
	}
	var bits uint64
	if m < float64(uint64(1)<<manBits) {
		bits = uint64(m) // subnormal (or zero)
	} else {
		bits = uint64(exp+bias)<<manBits | (uint64(m) - 1<<manBits)
	}
	maxExp := expMax
	if ieee {
		maxExp--
	}
	if bits>>manBits > maxExp || !ieee && bits >= expMax<<manBits|(uint64(1)<<manBits-1) {
		if ieee {
			return sign | expMax<<manBits
		}
		return nan
	}
	return sign | bits
}

// Decode is the inverse of Encode.
func Decode(bits uint64, expBits, manBits int, ieee bool) float64 {
	sign := 1.0
	if bits>>(expBits+manBits)&1 != 0 {
		sign = -1
	}
	expMax := uint64(1)<<expBits - 1
	e := bits >> manBits & expMax
	m := bits & (uint64(1)<<manBits - 1)
	bias := 1<<(expBits-1) - 1
	switch {
	case ieee && e == expMax && m == 0:
		return math.Inf(int(sign))
	case ieee && e == expMax, !ieee && e == expMax && m == uint64(1)<<manBits-1:
		return math.NaN()
	case e == 0:
		return sign * math.Ldexp(float64(m), 1-bias-manBits)
	}
	return sign * math.Ldexp(float64(m|1<<manBits), int(e)-bias-manBits)
}

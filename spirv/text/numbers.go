package text

import (
	"math"
	"strconv"

	"github.com/coopshader/coop/spirv"
)

// fpFormat is a binary floating-point format: exponent and fraction widths
// and the width of the container SPIRV-Tools parses it in (which decides
// how many written hex digits count).
type fpFormat struct {
	exp, frac int
	// inf: the all-ones exponent is infinity/NaN; nanOnes: only the all-ones
	// pattern is NaN (E4M3); neither: every pattern is finite (FP6, FP4).
	inf, nanOnes bool
}

var (
	fpHalf   = fpFormat{exp: 5, frac: 10, inf: true}
	fpFloat  = fpFormat{exp: 8, frac: 23, inf: true}
	fpDouble = fpFormat{exp: 11, frac: 52, inf: true}
	fpBF16   = fpFormat{exp: 8, frac: 7, inf: true}
	fpE4M3   = fpFormat{exp: 4, frac: 3, nanOnes: true}
	fpE5M2   = fpFormat{exp: 5, frac: 2, inf: true}
	fpE2M3   = fpFormat{exp: 2, frac: 3}
	fpE3M2   = fpFormat{exp: 3, frac: 2}
	fpE2M1   = fpFormat{exp: 2, frac: 1}
)

// Special encodings that are not sign/exponent/fraction formats.
const (
	fpNone = iota
	fpIEEE
	fpE8M0
	fpMXInt8
)

// floatFormat returns the format of a float type: kind is fpIEEE with f
// set, fpE8M0, fpMXInt8, or fpNone for a width SPIR-V tools cannot print.
func floatFormat(n spirv.NumType) (f fpFormat, kind int) {
	if n.Encoding < 0 {
		switch n.Width {
		case 16:
			return fpHalf, fpIEEE
		case 32:
			return fpFloat, fpIEEE
		case 64:
			return fpDouble, fpIEEE
		}
		return f, fpNone
	}
	switch spirv.FPEncoding(n.Encoding) {
	case spirv.FPEncodingBFloat16KHR:
		return fpBF16, fpIEEE
	case spirv.FPEncodingFloat8E4M3EXT:
		return fpE4M3, fpIEEE
	case spirv.FPEncodingFloat8E5M2EXT:
		return fpE5M2, fpIEEE
	case spirv.FPEncodingFloat6E2M3EXT:
		return fpE2M3, fpIEEE
	case spirv.FPEncodingFloat6E3M2EXT:
		return fpE3M2, fpIEEE
	case spirv.FPEncodingFloat4E2M1EXT:
		return fpE2M1, fpIEEE
	case spirv.FPEncodingFloat8UnsignedE8M0EXT:
		return f, fpE8M0
	case spirv.FPEncodingMXInt8EXT:
		return f, fpMXInt8
	}
	return f, fpNone
}

// appendNumber prints a typed literal as spirv-dis does: integers in
// decimal (one-word literals as the word itself, signed or not), 32- and
// 64-bit zeros and normal floats in decimal with enough digits to round
// trip, everything else as a hex float.
func appendNumber(dst []byte, w []uint32, n spirv.NumType) []byte {
	var bits uint64
	for i, x := range w {
		if i < 2 {
			bits |= uint64(x) << (32 * i)
		}
	}
	if !n.Float {
		switch {
		case len(w) == 1 && n.Signed:
			return strconv.AppendInt(dst, int64(int32(w[0])), 10)
		case len(w) == 1:
			return strconv.AppendUint(dst, uint64(w[0]), 10)
		case n.Signed:
			return strconv.AppendInt(dst, int64(bits), 10)
		}
		return strconv.AppendUint(dst, bits, 10)
	}
	f, kind := floatFormat(n)
	switch kind {
	case fpIEEE:
		switch f {
		case fpFloat:
			if e := bits >> 23 & 0xff; e != 0xff && (e != 0 || bits&0x7fffff == 0) {
				return appendDecimal(dst, float64(math.Float32frombits(uint32(bits))), 9)
			}
		case fpDouble:
			if e := bits >> 52 & 0x7ff; e != 0x7ff && (e != 0 || bits&(1<<52-1) == 0) {
				return appendDecimal(dst, math.Float64frombits(bits), 17)
			}
		}
		return appendHexFloat(dst, bits, f.exp, f.frac, true)
	case fpE8M0:
		// No sign, no fraction, no zero: 2^(e-127).
		return appendHexFloat(dst, bits&0xff, 8, 0, false)
	case fpMXInt8:
		// Signed fixed point in units of 2^-6, printed as a float.
		v := float32(int8(bits)) / 64
		return appendHexFloat(dst, uint64(math.Float32bits(v)), 8, 23, true)
	}
	return dst
}

// appendDecimal prints f like C's %.<prec>g.
func appendDecimal(dst []byte, f float64, prec int) []byte {
	var buf [40]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', prec-1, 64)
	// e is [-]d.ddde±XX; find the exponent.
	i := len(e) - 1
	for e[i] != 'e' {
		i--
	}
	x, _ := strconv.Atoi(string(e[i+1:]))
	if x < -4 || x >= prec {
		mant := trimZeros(e[:i])
		dst = append(dst, mant...)
		return append(dst, e[i:]...)
	}
	return append(dst, trimZeros(strconv.AppendFloat(buf[:0], f, 'f', prec-1-x, 64))...)
}

// trimZeros drops trailing zeros after a decimal point, and the point.
func trimZeros(s []byte) []byte {
	hasDot := false
	for _, c := range s {
		if c == '.' {
			hasDot = true
		}
	}
	if !hasDot {
		return s
	}
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	return s
}

const hexDigits = "0123456789abcdef"

// appendHexFloat prints a float of the given exponent and fraction widths
// in SPIRV-Tools' hex-float form: [-]0x1.fffp±e with subnormals
// normalised, zero as 0x0p+0, and the all-ones exponent printed as the
// exponent past the largest (0x1p+16 is half infinity).
func appendHexFloat(dst []byte, bits uint64, expBits, fracBits int, hasZero bool) []byte {
	if hasZero && bits>>(expBits+fracBits)&1 != 0 {
		dst = append(dst, '-')
	}
	e := int(bits >> fracBits & (1<<expBits - 1))
	m := bits & (1<<fracBits - 1)
	bias := 1<<(expBits-1) - 1
	if hasZero && e == 0 && m == 0 {
		return append(dst, "0x0p+0"...)
	}
	exp := e - bias
	if hasZero && e == 0 {
		exp = 1 - bias
		for m&(1<<fracBits) == 0 {
			m <<= 1
			exp--
		}
		m &= 1<<fracBits - 1
	}
	dst = append(dst, "0x1"...)
	if m != 0 {
		digits := (fracBits + 3) / 4
		m <<= uint(digits*4 - fracBits)
		for m&0xf == 0 {
			m >>= 4
			digits--
		}
		dst = append(dst, '.')
		for i := digits - 1; i >= 0; i-- {
			dst = append(dst, hexDigits[m>>(4*i)&0xf])
		}
	}
	dst = append(dst, 'p')
	if exp >= 0 {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}

// numError is a literal that does not parse; the caller adds the position.
type numError string

func (e numError) Error() string { return string(e) }

// parseUintC parses an unsigned integer as C's strtoull with base 0 does
// for a whole token: decimal, 0x hex or 0 octal, with an optional '+'.
func parseUintC(s []byte) (uint64, bool) {
	if len(s) > 0 && s[0] == '+' {
		s = s[1:]
	}
	if len(s) == 0 {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, s = 16, s[2:]
		if len(s) == 0 {
			return 0, false
		}
	case s[0] == '0':
		base = 8
	}
	var v uint64
	for _, c := range s {
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		hi, lo := mulAdd(v, base, d)
		if hi {
			return 0, false
		}
		v = lo
	}
	return v, true
}

func mulAdd(v, base, d uint64) (overflow bool, r uint64) {
	if v > (math.MaxUint64-d)/base {
		return true, 0
	}
	return false, v*base + d
}

// parseInt parses an integer literal of the given width and signedness
// with spirv-as's rules: decimal, hex or octal; a negative value only for
// a signed type; a hex value may set the sign bit and is then sign
// extended. The result holds the value's bits (sign-extended to 64).
func parseInt(s []byte, width uint32, signed bool) (uint64, error) {
	if len(s) == 0 {
		return 0, numError("missing integer")
	}
	neg := s[0] == '-'
	if neg && !signed {
		return 0, numError("cannot put a negative number in an unsigned literal")
	}
	kind := "unsigned"
	if signed {
		kind = "signed"
	}
	var v uint64
	if neg {
		mag, ok := parseUintC(s[1:])
		if !ok || len(s) > 1 && s[1] == '+' || mag > 1<<63 {
			return 0, numError("invalid signed integer literal " + strconv.Quote(string(s)))
		}
		v = -mag
	} else {
		var ok bool
		if v, ok = parseUintC(s); !ok {
			return 0, numError("invalid unsigned integer literal " + strconv.Quote(string(s)))
		}
	}
	magnitude := uint64(math.MaxUint64)
	if width < 64 {
		magnitude = 1<<width - 1
	}
	overflow := ^magnitude
	var sign uint64
	if signed {
		magnitude >>= 1
		sign = magnitude + 1
	}
	isHex := len(s) > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
	var bad bool
	switch {
	case neg && int64(v) < 0:
		bad = v&overflow != overflow || v&sign != sign
	case isHex:
		bad = v&overflow != 0
	default:
		bad = v&magnitude != v
	}
	if bad {
		return 0, numError(string(s) + " does not fit in a " + strconv.Itoa(int(width)) + "-bit " + kind + " integer")
	}
	if isHex && v&sign != 0 {
		v |= overflow
	}
	return v, nil
}

// isDecimalFloat reports whether s is a decimal number as C++ streams read
// one: [+-]digits[.digits][e[+-]digits] (digits may be empty on one side
// of the point).
func isDecimalFloat(s []byte) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		if n == 0 {
			return false
		}
	}
	return i == len(s)
}

// isHexFloat reports whether s starts (after a sign) with 0x.
func isHexFloat(s []byte) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')
}

// parseHexFloat reads a hex float ([+-]0x<hex>[.<hex>]p[+-]<decimal>) into
// format f the way SPIRV-Tools does: fraction bits past the format's are
// dropped (rounding toward zero), values too small become subnormals or
// zero, an exponent past the largest becomes infinity, and the exponent
// just past the largest finite one keeps its fraction (so the NaNs that
// spirv-dis prints come back bit for bit).
func parseHexFloat(s []byte, f fpFormat) (uint64, bool) {
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		s = s[1:]
	}
	s = s[2:] // 0x
	const expLimit = 1 << 40
	bias := int64(1)<<(f.exp-1) - 1
	exp := bias
	// frac holds the bits after the leading one, most significant first.
	var frac uint64
	nfrac := 0
	put := func(bit uint64) {
		if nfrac < 64 {
			frac |= bit << (63 - nfrac)
		}
		nfrac++
	}
	i := 0
	for i < len(s) && s[i] == '0' {
		i++
	}
	intPart, seen := false, false
	for ; i < len(s) && s[i] != '.' && s[i] != 'p'; i++ {
		d, ok := hexVal(s[i])
		if !ok {
			return 0, false
		}
		intPart = true
		for k := 3; k >= 0; k-- {
			bit := uint64(d>>k) & 1
			if seen {
				put(bit)
				exp = min(exp+1, expLimit)
			}
			seen = seen || bit != 0
		}
	}
	if i < len(s) && s[i] == '.' {
		seen = false
		for i++; i < len(s) && s[i] != 'p'; i++ {
			d, ok := hexVal(s[i])
			if !ok {
				return 0, false
			}
			for k := 3; k >= 0; k-- {
				bit := uint64(d>>k) & 1
				seen = seen || bit != 0
				if !intPart && !seen {
					exp = max(exp-1, -expLimit)
				} else {
					put(bit)
				}
			}
		}
	}
	if i >= len(s) || s[i] != 'p' {
		return 0, false
	}
	i++
	esign := int64(1)
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		if s[i] == '-' {
			esign = -1
		}
		i++
	}
	if i == len(s) {
		return 0, false
	}
	var written int64
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		written = min(written*10+int64(s[i]-'0'), expLimit)
	}
	exp += esign * written
	zero := !intPart && frac == 0
	if !intPart && !zero {
		// The first one bit went into frac; it is the implicit bit.
		frac <<= 1
		exp--
	}
	if zero {
		exp = 0
	}
	if exp <= 0 && !zero {
		frac = frac>>1 | 1<<63
	}
	m := frac >> (64 - f.frac)
	for exp < 0 && !zero {
		m >>= 1
		exp++
		if m == 0 {
			zero, exp = true, 0
		}
	}
	maxExp := int64(1)<<f.exp - 1
	if exp > maxExp {
		exp, m = maxExp, 0
	}
	bits := uint64(exp)<<f.frac | m
	if neg {
		bits |= 1 << (f.exp + f.frac)
	}
	return bits, true
}

func hexVal(c byte) (uint64, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}

// parseDecimal parses a decimal literal to the nearest float of the given
// size (32 or 64); an out-of-range value is an error.
func parseDecimal(s []byte, size int) (float64, bool) {
	if !isDecimalFloat(s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(s), size)
	return v, err == nil
}

// parseFloat parses a literal of float type n into its bits as spirv-as
// does: hex floats exactly (see parseHexFloat), decimals to the nearest
// 32- or 64-bit value, and decimals for narrower types through a 32-bit
// float rounded toward zero. E8M0 takes powers of two and MXInt8 multiples
// of 2^-6 in range.
func parseFloat(s []byte, n spirv.NumType) (uint64, error) {
	bad := func() (uint64, error) {
		return 0, numError("invalid " + strconv.Itoa(int(n.Width)) + "-bit float literal " + strconv.Quote(string(s)))
	}
	if len(s) == 0 {
		return bad()
	}
	f, kind := floatFormat(n)
	switch kind {
	case fpNone:
		return 0, numError("unsupported " + strconv.Itoa(int(n.Width)) + "-bit float literal " + strconv.Quote(string(s)))
	case fpE8M0, fpMXInt8:
		var v float64
		if isHexFloat(s) {
			b, ok := parseHexFloat(s, fpDouble)
			if !ok {
				return bad()
			}
			v = math.Float64frombits(b)
		} else {
			var ok bool
			if v, ok = parseDecimal(s, 64); !ok {
				return bad()
			}
		}
		if kind == fpE8M0 {
			fr, e := math.Frexp(v)
			if fr != 0.5 || e-1 < -127 || e-1 > 128 {
				return 0, numError("E8M0 literal " + strconv.Quote(string(s)) + " is not a power of two from 0x1p-127 to 0x1p+128")
			}
			return uint64(e - 1 + 127), nil
		}
		k := v * 64
		if k != math.Trunc(k) || k < -128 || k > 127 {
			return 0, numError("MXInt8 literal " + strconv.Quote(string(s)) + " is not a multiple of 0x1p-6 from -2 to 0x1.fcp+0")
		}
		return uint64(uint8(int8(k))), nil
	}
	if isHexFloat(s) {
		b, ok := parseHexFloat(s, f)
		if !ok {
			return bad()
		}
		return b, nil
	}
	switch f {
	case fpDouble:
		v, ok := parseDecimal(s, 64)
		if !ok {
			return bad()
		}
		return math.Float64bits(v), nil
	case fpFloat:
		v, ok := parseDecimal(s, 32)
		if !ok {
			return bad()
		}
		return uint64(math.Float32bits(float32(v))), nil
	}
	v, ok := parseDecimal(s, 32)
	if !ok {
		return bad()
	}
	b, ok := narrowToZero(v, f)
	if !ok {
		return 0, numError("float literal " + strconv.Quote(string(s)) + " is out of range for its " + strconv.Itoa(int(n.Width)) + "-bit type")
	}
	return b, nil
}

// narrowToZero converts v to format f rounding toward zero; ok is false
// when v is beyond the largest finite value.
func narrowToZero(v float64, f fpFormat) (uint64, bool) {
	var sign uint64
	if math.Signbit(v) {
		sign = 1 << (f.exp + f.frac)
		v = -v
	}
	if v == 0 {
		return sign, true
	}
	bias := 1<<(f.exp-1) - 1
	_, e := math.Frexp(v)
	exp := e - 1
	if exp < 1-bias {
		return sign | uint64(math.Ldexp(v, f.frac-(1-bias))), true
	}
	m := uint64(math.Ldexp(v, f.frac-exp)) - 1<<f.frac
	field := exp + bias
	maxField := 1<<f.exp - 1
	switch {
	case field > maxField,
		f.inf && field == maxField,
		f.nanOnes && field == maxField && m == 1<<f.frac-1:
		return 0, false
	}
	return sign | uint64(field)<<f.frac | m, true
}

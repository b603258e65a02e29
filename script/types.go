package script

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kind is the class of a buffer's element type.
type Kind uint8

const (
	Int Kind = iota
	Uint
	Float
)

// DataType is a buffer's element type: a scalar or a vecN of one.
type DataType struct {
	Name  string // as written, e.g. "float16", "vec4<uint8>"
	Kind  Kind
	Bits  int // 4, 8, 16, 32 or 64
	Comps int // 1 for scalars
	// Exp and Man are the exponent and mantissa widths of a float type;
	// IEEE says whether its all-ones exponent holds infinities (false for
	// fp8 E4M3, whose only NaN is S.1111.111).
	Exp, Man int
	IEEE     bool
}

var scalarTypes = map[string]DataType{
	"int4": {Kind: Int, Bits: 4}, "uint4": {Kind: Uint, Bits: 4},
	"int8": {Kind: Int, Bits: 8}, "uint8": {Kind: Uint, Bits: 8},
	"int16": {Kind: Int, Bits: 16}, "uint16": {Kind: Uint, Bits: 16},
	"int32": {Kind: Int, Bits: 32}, "uint32": {Kind: Uint, Bits: 32},
	"int64": {Kind: Int, Bits: 64}, "uint64": {Kind: Uint, Bits: 64},
	"float16":     {Kind: Float, Bits: 16, Exp: 5, Man: 10, IEEE: true},
	"bfloat16":    {Kind: Float, Bits: 16, Exp: 8, Man: 7, IEEE: true},
	"float":       {Kind: Float, Bits: 32, Exp: 8, Man: 23, IEEE: true},
	"float32":     {Kind: Float, Bits: 32, Exp: 8, Man: 23, IEEE: true},
	"double":      {Kind: Float, Bits: 64, Exp: 11, Man: 52, IEEE: true},
	"float64":     {Kind: Float, Bits: 64, Exp: 11, Man: 52, IEEE: true},
	"float8_e4m3": {Kind: Float, Bits: 8, Exp: 4, Man: 3},
	"float8_e5m2": {Kind: Float, Bits: 8, Exp: 5, Man: 2, IEEE: true},
}

// ParseDataType parses "float16", "vec4<float>" and the like.
func ParseDataType(s string) (DataType, error) {
	name := s
	comps := 1
	if strings.HasPrefix(s, "vec") {
		i := strings.IndexByte(s, '<')
		if i < 0 || !strings.HasSuffix(s, ">") {
			return DataType{}, fmt.Errorf("expected vecN<type>, got %q", s)
		}
		n, err := strconv.Atoi(s[3:i])
		if err != nil || n < 2 || n > 4 {
			return DataType{}, fmt.Errorf("expected vec2, vec3 or vec4, got %q", s[:i])
		}
		comps, name = n, s[i+1:len(s)-1]
	}
	t, ok := scalarTypes[name]
	if !ok {
		return DataType{}, fmt.Errorf("unknown data type %q", s)
	}
	if t.Bits == 4 && comps != 1 {
		return DataType{}, fmt.Errorf("packed 4-bit types cannot be vectors")
	}
	t.Name, t.Comps = s, comps
	return t, nil
}

// byteSize is the size of n scalar values.
func (t DataType) byteSize(n int) int {
	if t.Bits == 4 {
		return (n + 1) / 2
	}
	return n * t.Bits / 8
}

// Value is one scalar: an integer (bit pattern, sign-extended for signed
// types) or a float.
type Value struct {
	I uint64
	F float64
}

// parseValue parses a literal of type t.
func (t DataType) parseValue(s string) (Value, error) {
	if t.Kind == Float {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return Value{}, fmt.Errorf("expected a number, got %q", s)
		}
		return Value{F: t.round(f)}, nil
	}
	if t.Kind == Int {
		v, err := strconv.ParseInt(s, 0, 64)
		if err != nil || t.Bits < 64 && (v < -(1<<(t.Bits-1)) || v >= 1<<(t.Bits-1)) {
			return Value{}, fmt.Errorf("expected an int%d, got %q", t.Bits, s)
		}
		return Value{I: uint64(v)}, nil
	}
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil || t.Bits < 64 && v >= 1<<t.Bits {
		return Value{}, fmt.Errorf("expected a uint%d, got %q", t.Bits, s)
	}
	return Value{I: v}, nil
}

// fromFloat converts f to a value of t (rounded to nearest even for
// floats, truncated toward zero and wrapped for integers).
func (t DataType) fromFloat(f float64) Value {
	if t.Kind == Float {
		return Value{F: t.round(f)}
	}
	return t.wrap(uint64(int64(f)))
}

// wrap reduces an integer to t's width (sign-extending signed types).
func (t DataType) wrap(v uint64) Value {
	if t.Bits == 64 {
		return Value{I: v}
	}
	mask := uint64(1)<<t.Bits - 1
	v &= mask
	if t.Kind == Int && v>>(t.Bits-1) != 0 {
		v |= ^mask
	}
	return Value{I: v}
}

// Float is the value as float64.
func (t DataType) Float(v Value) float64 {
	switch t.Kind {
	case Float:
		return v.F
	case Int:
		return float64(int64(v.I))
	}
	return float64(v.I)
}

// String formats a value of t.
func (t DataType) String(v Value) string {
	switch t.Kind {
	case Float:
		if t.Bits <= 32 {
			return strconv.FormatFloat(v.F, 'g', -1, 32)
		}
		return strconv.FormatFloat(v.F, 'g', -1, 64)
	case Int:
		return strconv.FormatInt(int64(v.I), 10)
	}
	return strconv.FormatUint(v.I, 10)
}

// round rounds f to t's float format (nearest even).
func (t DataType) round(f float64) float64 {
	switch t.Bits {
	case 64:
		return f
	case 32:
		return float64(float32(f))
	}
	return decodeFloat(encodeFloat(f, t.Exp, t.Man, t.IEEE), t.Exp, t.Man, t.IEEE)
}

// encode appends the little-endian encoding of vals.
func (t DataType) encode(vals []Value) []byte {
	out := make([]byte, t.byteSize(len(vals)))
	for i, v := range vals {
		var bits uint64
		if t.Kind == Float {
			switch t.Bits {
			case 64:
				bits = math.Float64bits(v.F)
			case 32:
				bits = uint64(math.Float32bits(float32(v.F)))
			default:
				bits = encodeFloat(v.F, t.Exp, t.Man, t.IEEE)
			}
		} else {
			bits = v.I
		}
		switch t.Bits {
		case 4:
			out[i/2] |= byte(bits&0xf) << (4 * (i % 2))
		case 8:
			out[i] = byte(bits)
		case 16:
			binary.LittleEndian.PutUint16(out[2*i:], uint16(bits))
		case 32:
			binary.LittleEndian.PutUint32(out[4*i:], uint32(bits))
		case 64:
			binary.LittleEndian.PutUint64(out[8*i:], bits)
		}
	}
	return out
}

// decode reads n values from b.
func (t DataType) decode(b []byte, n int) []Value {
	vals := make([]Value, n)
	for i := range vals {
		var bits uint64
		switch t.Bits {
		case 4:
			bits = uint64(b[i/2]>>(4*(i%2))) & 0xf
		case 8:
			bits = uint64(b[i])
		case 16:
			bits = uint64(binary.LittleEndian.Uint16(b[2*i:]))
		case 32:
			bits = uint64(binary.LittleEndian.Uint32(b[4*i:]))
		case 64:
			bits = binary.LittleEndian.Uint64(b[8*i:])
		}
		if t.Kind == Float {
			switch t.Bits {
			case 64:
				vals[i].F = math.Float64frombits(bits)
			case 32:
				vals[i].F = float64(math.Float32frombits(uint32(bits)))
			default:
				vals[i].F = decodeFloat(bits, t.Exp, t.Man, t.IEEE)
			}
		} else {
			vals[i] = t.wrap(bits)
		}
	}
	return vals
}

// encodeFloat rounds f to nearest even in a binary format of expBits and
// manBits and returns its bits. Values beyond the largest finite number
// become infinity (ieee) or NaN (E4M3, which has no infinity).
func encodeFloat(f float64, expBits, manBits int, ieee bool) uint64 {
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

// decodeFloat is the inverse of encodeFloat.
func decodeFloat(bits uint64, expBits, manBits int, ieee bool) float64 {
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

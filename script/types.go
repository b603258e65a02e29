package script

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/internal/lazy"
	"github.com/coopshader/coop/num"
)

// Kind is the class of a buffer's scalar type.
type Kind uint8

const (
	Int Kind = iota
	Uint
	Float
)

// DataType is a buffer's element type: a scalar, a vector or a matrix of
// one scalar type, with the memory layout its elements get.
type DataType struct {
	Name string // as written, e.g. "float16", "vec4<uint8>", "R32G32_SFLOAT"
	Kind Kind
	Bits int // 4, 8, 16, 32 or 64
	// Exp and Man are the exponent and mantissa widths of a float type;
	// IEEE says whether its all-ones exponent holds infinities (false for
	// fp8 E4M3, whose only NaN is S.1111.111).
	Exp, Man int
	IEEE     bool
	// Rows is the vector size (rows of a matrix), Cols the number of
	// matrix columns; both 1 for a scalar.
	Rows, Cols int
	// Std140 selects std140 layout (the default is std430); Array is set
	// by a "[]" suffix; Packed marks FORMAT types, whose components are
	// tightly packed.
	Std140, Array, Packed bool
	// Format is the texel format of a FORMAT type the backends know
	// (FormatUndefined otherwise): images and texel buffers need one.
	Format backend.Format
}

var scalarTypes = lazy.Value[map[string]DataType]{F: func() map[string]DataType {
	return map[string]DataType{
		"int4": {Kind: Int, Bits: 4}, "uint4": {Kind: Uint, Bits: 4},
		"int8": {Kind: Int, Bits: 8}, "uint8": {Kind: Uint, Bits: 8},
		"int16": {Kind: Int, Bits: 16}, "uint16": {Kind: Uint, Bits: 16},
		"int32": {Kind: Int, Bits: 32}, "uint32": {Kind: Uint, Bits: 32},
		"int64": {Kind: Int, Bits: 64}, "uint64": {Kind: Uint, Bits: 64},
		"float16":     {Kind: Float, Bits: 16, Exp: 5, Man: 10, IEEE: true},
		"bfloat16":    {Kind: Float, Bits: 16, Exp: 8, Man: 7, IEEE: true},
		"float":       {Kind: Float, Bits: 32, Exp: 8, Man: 23, IEEE: true},
		"double":      {Kind: Float, Bits: 64, Exp: 11, Man: 52, IEEE: true},
		"float8_e4m3": {Kind: Float, Bits: 8, Exp: 4, Man: 3},
		"float8_e5m2": {Kind: Float, Bits: 8, Exp: 5, Man: 2, IEEE: true},
	}
}}

// typeAliases are other spellings of scalarTypes' names.
var typeAliases = lazy.Value[map[string]string]{F: func() map[string]string {
	return map[string]string{
		"fp16": "float16", "half": "float16", "bf16": "bfloat16",
		"float32": "float", "fp32": "float", "float64": "double", "fp64": "double",
		"fp8_e4m3": "float8_e4m3", "e4m3": "float8_e4m3",
		"fp8_e5m2": "float8_e5m2", "e5m2": "float8_e5m2",
	}
}}

func scalarType(name string) (DataType, bool) {
	if a, ok := typeAliases.Get()[name]; ok {
		name = a
	}
	t, ok := scalarTypes.Get()[name]
	t.Rows, t.Cols = 1, 1
	return t, ok
}

// ParseDataType parses an Amber data type: a scalar ("float16"), a vector
// ("vec4<float>"), a matrix ("mat2x3<float>", 2 columns of 3 rows), any of
// them with "[]", or an image format name ("R32G32B32A32_SFLOAT").
func ParseDataType(s string) (DataType, error) {
	name := strings.TrimSuffix(s, "[]")
	array := name != s
	t, ok := parseFormat(name)
	if !ok {
		t, ok = texelFormat(name)
	}
	if ok {
		if array {
			return DataType{}, fmt.Errorf("expected a data type, got %q (formats take no [])", s)
		}
		t.Name = s
		t.Format, _ = backend.ParseFormat(name)
		return t, nil
	}
	rows, cols := 1, 1
	if strings.HasPrefix(name, "vec") || strings.HasPrefix(name, "mat") {
		i := strings.IndexByte(name, '<')
		if i < 0 || !strings.HasSuffix(name, ">") {
			return DataType{}, fmt.Errorf("expected vecN<type> or matCxR<type>, got %q", s)
		}
		shape := name[3:i]
		if name[0] == 'v' {
			n, err := strconv.Atoi(shape)
			if err != nil || n < 2 || n > 4 {
				return DataType{}, fmt.Errorf("expected vec2, vec3 or vec4, got %q", name[:i])
			}
			rows = n
		} else {
			c, r, ok := strings.Cut(shape, "x")
			nc, err1 := strconv.Atoi(c)
			nr, err2 := strconv.Atoi(r)
			if !ok || err1 != nil || err2 != nil || nc < 2 || nc > 4 || nr < 2 || nr > 4 {
				return DataType{}, fmt.Errorf("expected mat2x2 to mat4x4, got %q", name[:i])
			}
			rows, cols = nr, nc
		}
		name = name[i+1 : len(name)-1]
	}
	t, ok = scalarType(name)
	if !ok {
		return DataType{}, fmt.Errorf("expected a data type, got %q", s)
	}
	if t.Bits == 4 && (cols != 1 || rows != 1 && rows%2 != 0) {
		// SPV_INTEL_int4 keeps 4-bit integers in memory in vectors of an
		// even count, packed like a stream of scalars.
		return DataType{}, fmt.Errorf("expected a scalar, vec2 or vec4 of a packed 4-bit type, got %q", s)
	}
	t.Name, t.Rows, t.Cols, t.Array = s, rows, cols, array
	return t, nil
}

// parseFormat recognizes the Vulkan formats whose components share one
// type: R8 to R64G64B64A64 with _UINT, _SINT or _SFLOAT.
func parseFormat(s string) (DataType, bool) {
	body, suffix, ok := strings.Cut(s, "_")
	if !ok {
		return DataType{}, false
	}
	var kind Kind
	switch suffix {
	case "UINT":
		kind = Uint
	case "SINT":
		kind = Int
	case "SFLOAT":
		kind = Float
	default:
		return DataType{}, false
	}
	bits, n := 0, 0
	for _, ch := range "RGBA" {
		if body == "" {
			break
		}
		if rune(body[0]) != ch {
			return DataType{}, false
		}
		j := 1
		for j < len(body) && body[j] >= '0' && body[j] <= '9' {
			j++
		}
		b, err := strconv.Atoi(body[1:j])
		if err != nil || bits != 0 && b != bits {
			return DataType{}, false
		}
		bits, n, body = b, n+1, body[j:]
	}
	if body != "" || n == 0 {
		return DataType{}, false
	}
	var t DataType
	switch {
	case kind == Float && bits == 16:
		t, _ = scalarType("float16")
	case kind == Float && bits == 32:
		t, _ = scalarType("float")
	case kind == Float && bits == 64:
		t, _ = scalarType("double")
	case kind != Float && (bits == 8 || bits == 16 || bits == 32 || bits == 64):
		t = DataType{Kind: kind, Bits: bits, Cols: 1}
	default:
		return DataType{}, false
	}
	t.Rows, t.Packed = n, true
	return t, true
}

// texelFormat gives the data type of the backend's other image formats:
// UNORM and SNORM components hold their stored integers (as in Amber), and
// the packed formats (A2B10G10R10_*_PACK32, B10G11R11_UFLOAT_PACK32) are
// one uint32 word per texel.
func texelFormat(name string) (DataType, bool) {
	f, ok := backend.ParseFormat(name)
	if !ok {
		return DataType{}, false
	}
	fi := f.Info()
	t := DataType{Kind: Uint, Bits: int(fi.Bits[0]), Rows: fi.Components(), Cols: 1, Packed: true}
	switch {
	case fi.Packed:
		t.Bits, t.Rows = 32, 1
	case fi.Kind == backend.SNorm || fi.Kind == backend.SInt:
		t.Kind = Int
	case fi.Kind == backend.SFloat:
		ft, _ := scalarType(map[uint8]string{16: "float16", 32: "float"}[fi.Bits[0]])
		ft.Rows, ft.Packed = t.Rows, true
		t = ft
	}
	return t, true
}

// imageFormat is the texel format of an image declared with a data type:
// one, two or four components of 8-, 16- or 32-bit integers, float16 or
// float, as Amber chooses it.
func imageFormat(t DataType) (backend.Format, bool) {
	if t.Format != backend.FormatUndefined {
		return t.Format, true
	}
	if t.Cols != 1 || t.Array || t.Std140 || t.Rows == 3 {
		return backend.FormatUndefined, false
	}
	suffix := map[Kind]string{Int: "_SINT", Uint: "_UINT", Float: "_SFLOAT"}[t.Kind]
	name := ""
	for c := 0; c < t.Rows; c++ {
		name += string("RGBA"[c]) + strconv.Itoa(t.Bits)
	}
	if t.Kind == Float && !(t.Bits == 16 && t.Exp == 5 || t.Bits == 32) {
		return backend.FormatUndefined, false // bfloat16, fp8, double
	}
	return backend.ParseFormat(name + suffix)
}

// Comps is the number of scalar components of one element.
func (t DataType) Comps() int { return t.Rows * t.Cols }

func (t DataType) scalarSize() int { return t.Bits / 8 }

// colStride is the distance between matrix columns (the size of a vector,
// padded as the layout says).
func (t DataType) colStride() int {
	s := t.scalarSize()
	n := t.Rows
	if !t.Packed && n == 3 {
		n = 4
	}
	cs := n * s
	if t.Std140 && t.Cols > 1 {
		cs = (cs + 15) &^ 15
	}
	return cs
}

// Stride is the distance in bytes between consecutive elements (0 for
// packed 4-bit types, which have two elements per byte).
func (t DataType) Stride() int {
	if t.Bits == 4 {
		return 0
	}
	st := t.Cols * t.colStride()
	if t.Std140 && t.Array {
		st = (st + 15) &^ 15
	}
	return st
}

// offset is the byte offset of scalar component j from the buffer start.
func (t DataType) offset(j int) int {
	n := t.Comps()
	if n == 1 {
		return j * t.Stride()
	}
	e, c := j/n, j%n
	return e*t.Stride() + c/t.Rows*t.colStride() + c%t.Rows*t.scalarSize()
}

// byteSize is the size of a buffer holding n scalar components.
func (t DataType) byteSize(n int) int {
	if t.Bits == 4 {
		return (n + 1) / 2
	}
	return (n + t.Comps() - 1) / t.Comps() * t.Stride()
}

// byteSize64 is the size of n elements (not components), in 64 bits for
// size checks (n at most 2^40, so it cannot overflow).
func (t DataType) byteSize64(n int64) int64 {
	if t.Bits == 4 {
		return (n*int64(t.Comps()) + 1) / 2
	}
	return n * int64(t.Stride())
}

// Value is one scalar: an integer (bit pattern, sign-extended for signed
// types) or a float.
type Value struct {
	I uint64
	F float64
}

// parseValue parses a literal of t's scalar type. Integers may be given
// as unsigned bit patterns (0xff for an int8 is -1) and negative values
// of unsigned types wrap, as in Amber; hexadecimal integers given for a
// float type are numbers, not bit patterns.
func (t DataType) parseValue(s string) (Value, error) {
	if t.Kind == Float {
		if hex := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+"); strings.HasPrefix(hex, "0x") && !strings.ContainsAny(hex, "pP") {
			u, err := strconv.ParseUint(hex[2:], 16, 64)
			if err == nil {
				f := float64(u)
				if s[0] == '-' {
					f = -f
				}
				return Value{F: t.round(f)}, nil
			}
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !isRangeErr(err) {
			return Value{}, fmt.Errorf("expected a %s value, got %q", t.scalarName(), s)
		}
		return Value{F: t.round(f)}, nil
	}
	if v, err := strconv.ParseInt(s, 0, 64); err == nil {
		if t.Bits < 64 && (v < -(1<<(t.Bits-1)) || v > 1<<t.Bits-1) {
			return Value{}, fmt.Errorf("expected a %s value, got %q (out of range)", t.scalarName(), s)
		}
		return t.wrap(uint64(v)), nil
	}
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil || t.Bits < 64 && v > 1<<t.Bits-1 {
		return Value{}, fmt.Errorf("expected a %s value, got %q", t.scalarName(), s)
	}
	return t.wrap(v), nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// scalarName names t's scalar type for messages.
func (t DataType) scalarName() string {
	switch t.Kind {
	case Int:
		return "int" + strconv.Itoa(t.Bits)
	case Uint:
		return "uint" + strconv.Itoa(t.Bits)
	}
	for name, st := range scalarTypes.Get() {
		if st.Kind == Float && st.Bits == t.Bits && st.Exp == t.Exp && name != "float32" {
			return name
		}
	}
	return "float"
}

// fromFloat converts f to a value of t (rounded to nearest even for
// floats, truncated toward zero and wrapped for integers).
func (t DataType) fromFloat(f float64) Value {
	if t.Kind == Float {
		return Value{F: t.round(f)}
	}
	if f < 0 {
		return t.wrap(uint64(int64(f)))
	}
	return t.wrap(uint64(f))
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
	return num.Decode(num.Encode(f, t.Exp, t.Man, t.IEEE), t.Exp, t.Man, t.IEEE)
}

// bits is the encoding of one scalar of t.
func (t DataType) bits(v Value) uint64 {
	if t.Kind != Float {
		return v.I
	}
	switch t.Bits {
	case 64:
		return math.Float64bits(v.F)
	case 32:
		return uint64(math.Float32bits(float32(v.F)))
	}
	return num.Encode(v.F, t.Exp, t.Man, t.IEEE)
}

// fromBits is the inverse of bits.
func (t DataType) fromBits(b uint64) Value {
	if t.Kind != Float {
		return t.wrap(b)
	}
	switch t.Bits {
	case 64:
		return Value{F: math.Float64frombits(b)}
	case 32:
		return Value{F: float64(math.Float32frombits(uint32(b)))}
	}
	return Value{F: num.Decode(b, t.Exp, t.Man, t.IEEE)}
}

// put stores scalar component i at its place in data (laid out as a
// buffer of t; data must hold it).
func (t DataType) put(data []byte, i int, v Value) {
	b := t.bits(v)
	if t.Bits == 4 {
		sh := 4 * (i % 2)
		data[i/2] = data[i/2]&^(0xf<<sh) | byte(b&0xf)<<sh
		return
	}
	t.putAt(data, t.offset(i), b)
}

// fill stores components 0, 1, ... k-1 from next at their places in
// data, walking the layout element by element rather than dividing for
// each component's offset (generated buffers hold millions of them).
func (t DataType) fill(data []byte, k int, next func() Value) {
	if t.Bits == 4 {
		for j := range k {
			t.put(data, j, next())
		}
		return
	}
	offs := make([]int, t.Comps())
	for c := range offs {
		offs[c] = t.offset(c)
	}
	st := t.Stride()
	for base, j := 0, 0; j < k; base += st {
		for _, o := range offs[:min(len(offs), k-j)] {
			t.putAt(data, base+o, t.bits(next()))
		}
		j += len(offs)
	}
}

// putAt stores the encoding b of one scalar at byte offset o.
func (t DataType) putAt(data []byte, o int, b uint64) {
	switch t.Bits {
	case 8:
		data[o] = byte(b)
	case 16:
		binary.LittleEndian.PutUint16(data[o:], uint16(b))
	case 32:
		binary.LittleEndian.PutUint32(data[o:], uint32(b))
	case 64:
		binary.LittleEndian.PutUint64(data[o:], b)
	}
}

// get reads scalar component i of data laid out as a buffer of t.
func (t DataType) get(data []byte, i int) Value { return t.fromBits(t.raw(data, i)) }

// raw is the encoding of scalar component i of data.
func (t DataType) raw(data []byte, i int) uint64 {
	if t.Bits == 4 {
		return uint64(data[i/2]>>(4*(i%2))) & 0xf
	}
	o := t.offset(i)
	switch t.Bits {
	case 8:
		return uint64(data[o])
	case 16:
		return uint64(binary.LittleEndian.Uint16(data[o:]))
	case 32:
		return uint64(binary.LittleEndian.Uint32(data[o:]))
	}
	return binary.LittleEndian.Uint64(data[o:])
}

// encode lays vals (scalar components) out in memory; padding is zero.
func (t DataType) encode(vals []Value) []byte {
	out := make([]byte, t.byteSize(len(vals)))
	for i, v := range vals {
		t.put(out, i, v)
	}
	return out
}

// decode reads n scalar components laid out as encode writes them.
func (t DataType) decode(data []byte, n int) []Value {
	vals := make([]Value, n)
	for i := range vals {
		vals[i] = t.get(data, i)
	}
	return vals
}

// ulp is the gap between |w| and the next larger value of t's format (at
// the largest finite value, the gap below it is used).
func ulp(t DataType, w float64) float64 {
	if t.Kind != Float {
		return 1
	}
	w = math.Abs(w)
	bias := 1<<(t.Exp-1) - 1
	_, e := math.Frexp(w)
	exp := e - 1
	if exp < 1-bias || w == 0 {
		exp = 1 - bias
	}
	return math.Ldexp(1, exp-t.Man)
}

package check

import (
	"math"
	"strconv"

	"github.com/coopshader/coop/num"
)

// Value is a compile-time constant. Scalars hold Bits (bool and integers:
// the value sign- or zero-extended from its width, so int8(-1) is
// 0xffff_ffff_ffff_ffff) or F (floats: already rounded to the type's
// precision). Composites hold Elems: vector components, matrix columns,
// array elements or struct members; a cooperative matrix or vector holds one
// element that fills every component.
type Value struct {
	Type  *Type
	Bits  uint64
	F     float64
	Elems []*Value
}

// Int is the value of an integer or bool scalar as int64.
func (v *Value) Int() int64 { return int64(v.Bits) }

// Uint is the value of an integer or bool scalar as uint64.
func (v *Value) Uint() uint64 { return v.Bits }

// Bool is the value of a bool scalar.
func (v *Value) Bool() bool { return v.Bits != 0 }

// Float is the value of a scalar as float64 (integers converted).
func (v *Value) Float() float64 {
	s := v.Type.Scalar
	switch {
	case s.IsFloat():
		return v.F
	case s.IsSigned():
		return float64(int64(v.Bits))
	}
	return float64(v.Bits)
}

func (v *Value) String() string {
	if v.Elems != nil {
		s := v.Type.String() + "("
		for i, e := range v.Elems {
			if i > 0 {
				s += ", "
			}
			s += e.String()
		}
		return s + ")"
	}
	s := v.Type.Scalar
	switch {
	case s == Bool:
		return strconv.FormatBool(v.Bool())
	case s.IsFloat():
		return strconv.FormatFloat(v.F, 'g', -1, 64)
	case s.IsSigned():
		return strconv.FormatInt(v.Int(), 10)
	}
	return strconv.FormatUint(v.Bits, 10)
}

// normInt truncates x to the width of s and sign- or zero-extends it.
func normInt(s Scalar, x uint64) uint64 {
	if s == Bool {
		if x != 0 {
			return 1
		}
		return 0
	}
	b := uint(s.Bits())
	if b == 64 {
		return x
	}
	x &= 1<<b - 1
	if s.IsSigned() && x&(1<<(b-1)) != 0 {
		x |= ^uint64(0) << b
	}
	return x
}

// IntConst returns an integer or bool constant of type s.
func IntConst(s Scalar, x int64) *Value {
	return &Value{Type: ScalarType(s), Bits: normInt(s, uint64(x))}
}

// FloatConst returns a float constant of type s, rounded to its precision
// except for float: glslang folds float constants in double precision and
// rounds them only where it writes them to the module (so a float constant
// converted to double keeps its digits), and so does coop.
func FloatConst(s Scalar, f float64) *Value {
	if s == Float32 {
		return &Value{Type: ScalarType(s), F: f}
	}
	return &Value{Type: ScalarType(s), F: roundFloat(s, f)}
}

// BoolConst returns a bool constant.
func BoolConst(b bool) *Value {
	if b {
		return &Value{Type: TBool, Bits: 1}
	}
	return &Value{Type: TBool}
}

// roundFloat rounds f to the precision and range of s, as package num
// encodes the narrow formats: to nearest even; overflow gives infinity, or
// NaN for E4M3 which has none; the microscaling formats saturate. float16
// and bfloat16 values keep their precision, as in glslang.
func roundFloat(s Scalar, f float64) float64 {
	switch s {
	case Float64:
		return f
	case Float32:
		return float64(float32(f))
	case Float16, BFloat16:
		// glslang keeps 16-bit float constants at full precision and
		// rounds them only where it writes them (see lower's literal
		// encoding): folding rounds nothing.
		return f
	case E5M2:
		return num.E5M2.Round(f)
	case E4M3:
		return num.E4M3.Round(f)
	case E2M1:
		return num.E2M1.Round(f)
	case E2M3:
		return num.E2M3.Round(f)
	case E3M2:
		return num.E3M2.Round(f)
	case MXInt8:
		return num.DecodeMXInt8(num.EncodeMXInt8(f, num.NearestEven))
	case UE8M0:
		return num.DecodeE8M0(num.EncodeE8M0(f))
	}
	return f
}

// convertScalar converts a scalar constant to scalar type s with GLSL's
// conversion semantics (float to int truncates toward zero).
func convertScalar(v *Value, s Scalar) *Value {
	from := v.Type.Scalar
	switch {
	case s == Bool:
		if from.IsFloat() {
			return BoolConst(v.F != 0)
		}
		return BoolConst(v.Bits != 0)
	case s.IsFloat():
		if from == Bool {
			return FloatConst(s, float64(v.Bits))
		}
		return FloatConst(s, v.Float())
	default:
		if from.IsFloat() {
			f := math.Trunc(v.F)
			if s.IsUnsigned() && f >= 0 {
				if f >= 1<<64 {
					return IntConst(s, -1)
				}
				return &Value{Type: ScalarType(s), Bits: normInt(s, uint64(f))}
			}
			if math.IsNaN(f) {
				f = 0
			}
			f = math.Max(math.Min(f, math.MaxInt64), math.MinInt64)
			return IntConst(s, int64(f))
		}
		return &Value{Type: ScalarType(s), Bits: normInt(s, v.Bits)}
	}
}

// convertValue converts a scalar, vector, matrix or cooperative constant to
// t (same shape, new component type).
func convertValue(v *Value, t *Type) *Value {
	if v.Elems == nil {
		return convertScalar(v, t.Scalar)
	}
	out := &Value{Type: t, Elems: make([]*Value, len(v.Elems))}
	for i, e := range v.Elems {
		et := ScalarType(t.Scalar)
		if t.Kind == KMatrix {
			et = t.Column()
		}
		out.Elems[i] = convertValue(e, et)
	}
	return out
}

// components flattens a scalar, vector or matrix value.
func (v *Value) components() []*Value {
	if v.Elems == nil {
		return []*Value{v}
	}
	var out []*Value
	for _, e := range v.Elems {
		out = append(out, e.components()...)
	}
	return out
}

// component returns the i-th scalar of a scalar/vector value; a scalar
// stands for all its components (the splat of mixed scalar-vector operators).
func (v *Value) component(i int) *Value {
	if v.Elems == nil {
		return v
	}
	if v.Type.Kind == KCoopMat || v.Type.Kind == KCoopMatNV || v.Type.Kind == KCoopVec {
		return v.Elems[0]
	}
	return v.Elems[i]
}

// splat builds a value of type t (scalar, vector, matrix or cooperative)
// from a per-component function.
func splat(t *Type, f func(col, i int) *Value) *Value {
	switch t.Kind {
	case KScalar:
		return f(0, 0)
	case KVector:
		out := &Value{Type: t, Elems: make([]*Value, t.N)}
		for i := range out.Elems {
			out.Elems[i] = f(0, i)
		}
		return out
	case KMatrix:
		out := &Value{Type: t, Elems: make([]*Value, t.N)}
		col := t.Column()
		for c := range out.Elems {
			out.Elems[c] = splat(col, func(_, i int) *Value { return f(c, i) })
		}
		return out
	case KCoopMat, KCoopMatNV, KCoopVec:
		return &Value{Type: t, Elems: []*Value{f(0, 0)}}
	}
	return nil
}

// elemAt is component (col, i) of a scalar, vector, matrix or cooperative
// value.
func (v *Value) elemAt(col, i int) *Value {
	switch v.Type.Kind {
	case KScalar:
		return v
	case KMatrix:
		return v.Elems[col].Elems[i]
	case KCoopMat, KCoopMatNV, KCoopVec:
		return v.Elems[0]
	}
	return v.Elems[i]
}

// foldUnary folds op on a constant; nil when it cannot be folded.
func foldUnary(op UnaryOp, v *Value) *Value {
	t := v.Type
	s := t.Scalar
	return splat(t, func(c, i int) *Value {
		x := v.elemAt(c, i)
		switch op {
		case Neg:
			if s.IsFloat() {
				return FloatConst(s, -x.F)
			}
			return &Value{Type: x.Type, Bits: normInt(s, -x.Bits)}
		case Not:
			return BoolConst(!x.Bool())
		case BitNot:
			return &Value{Type: x.Type, Bits: normInt(s, ^x.Bits)}
		}
		return x
	})
}

// foldBinary folds x op y into a value of type t; nil when not foldable
// (division by zero is left to run time).
func foldBinary(op BinaryOp, x, y *Value, t *Type) *Value {
	if op == Mul && (x.Type.Kind == KMatrix || y.Type.Kind == KMatrix) && x.Type.Kind != KScalar && y.Type.Kind != KScalar {
		return foldMatMul(x, y, t)
	}
	if op >= Eq && op <= Ne && (x.Type.Kind != KScalar || y.Type.Kind != KScalar) {
		eq := valuesEqual(x, y)
		return BoolConst(eq == (op == Eq))
	}
	failed := false
	shape := t
	if t.Scalar == Bool && x.Type.Kind != KScalar {
		shape = x.Type
	}
	r := splat(shape, func(c, i int) *Value {
		v := foldScalar(op, x.elemAt(c, i), y.elemAt(c, i), t.Scalar)
		if v == nil {
			failed = true
			return &Value{Type: ScalarType(t.Scalar)}
		}
		return v
	})
	if failed {
		return nil
	}
	return r
}

func valuesEqual(x, y *Value) bool {
	if x.Elems == nil || y.Elems == nil {
		if x.Elems != nil || y.Elems != nil {
			return false
		}
		if x.Type.Scalar.IsFloat() {
			return x.F == y.F
		}
		return x.Bits == y.Bits
	}
	if len(x.Elems) != len(y.Elems) {
		return false
	}
	for i := range x.Elems {
		if !valuesEqual(x.Elems[i], y.Elems[i]) {
			return false
		}
	}
	return true
}

func foldScalar(op BinaryOp, x, y *Value, rs Scalar) *Value {
	s := x.Type.Scalar
	if s.IsFloat() {
		a, b := x.F, y.F
		switch op {
		case Add:
			return FloatConst(rs, a+b)
		case Sub:
			return FloatConst(rs, a-b)
		case Mul:
			return FloatConst(rs, a*b)
		case Div:
			return FloatConst(rs, a/b)
		case Lt:
			return BoolConst(a < b)
		case Gt:
			return BoolConst(a > b)
		case Le:
			return BoolConst(a <= b)
		case Ge:
			return BoolConst(a >= b)
		case Eq:
			return BoolConst(a == b)
		case Ne:
			return BoolConst(a != b)
		}
		return nil
	}
	a, b := x.Bits, y.Bits
	signed := s.IsSigned()
	norm := func(v uint64) *Value { return &Value{Type: ScalarType(rs), Bits: normInt(rs, v)} }
	switch op {
	case Add:
		return norm(a + b)
	case Sub:
		return norm(a - b)
	case Mul:
		return norm(a * b)
	case Div, Mod:
		if b == 0 {
			return nil
		}
		if signed {
			ia, ib := int64(a), int64(b)
			if ib == -1 {
				// Avoid the Go overflow panic of MinInt64 / -1; the
				// result wraps like the hardware's.
				if op == Div {
					return norm(-a)
				}
				return norm(0)
			}
			if op == Div {
				return norm(uint64(ia / ib))
			}
			return norm(uint64(ia % ib))
		}
		if op == Div {
			return norm(a / b)
		}
		return norm(a % b)
	case Shl:
		if y.Type.Scalar.IsSigned() && int64(b) < 0 || b >= 64 {
			return norm(0)
		}
		return norm(a << b)
	case Shr:
		if y.Type.Scalar.IsSigned() && int64(b) < 0 || b >= 64 {
			b = 63
		}
		if signed {
			return norm(uint64(int64(a) >> b))
		}
		return norm(a >> b)
	case BitAnd:
		return norm(a & b)
	case BitOr:
		return norm(a | b)
	case BitXor:
		return norm(a ^ b)
	case LogAnd:
		return BoolConst(a != 0 && b != 0)
	case LogOr:
		return BoolConst(a != 0 || b != 0)
	case LogXor:
		return BoolConst((a != 0) != (b != 0))
	case Eq:
		return BoolConst(a == b)
	case Ne:
		return BoolConst(a != b)
	}
	var c int
	if signed {
		ia, ib := int64(a), int64(b)
		c = cmp3(ia < ib, ia > ib)
	} else {
		c = cmp3(a < b, a > b)
	}
	switch op {
	case Lt:
		return BoolConst(c < 0)
	case Gt:
		return BoolConst(c > 0)
	case Le:
		return BoolConst(c <= 0)
	case Ge:
		return BoolConst(c >= 0)
	}
	return nil
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

// foldMatMul folds the linear-algebra products mat*mat, mat*vec, vec*mat.
func foldMatMul(x, y *Value, t *Type) *Value {
	s := t.Scalar
	at := func(v *Value, r, c int) float64 { // element at row r, column c
		if v.Type.Kind == KVector {
			return v.Elems[r+c].F
		}
		return v.Elems[c].Elems[r].F
	}
	xc := x.Type.N
	return splat(t, func(c, i int) *Value {
		r, col := i, c
		if t.Kind == KVector && x.Type.Kind == KVector {
			r, col = 0, i
		}
		sum := 0.0
		for k := range xc {
			sum += float64(at(x, r, k) * at(y, k, col))
		}
		return FloatConst(s, sum)
	})
}

package check

import (
	"fmt"
	"strconv"
	"strings"
)

// Scalar is a GLSL scalar type. Int32, Uint32, Float32 and Float64 are the
// same types as int, uint, float and double (GL_EXT_shader_explicit_arithmetic_types).
type Scalar uint8

// Scalar types.
const (
	NoScalar Scalar = iota
	Bool
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float16
	Float32
	Float64
	BFloat16 // GL_EXT_bfloat16
	E5M2     // floate5m2_t, GL_EXT_float8_e5m2_e4m3
	E4M3     // floate4m3_t, GL_EXT_float8_e5m2_e4m3
	// OCP microscaling element types: 4- and 6-bit floats without
	// infinities or NaNs (GL_EXT_float_e2m1, _e2m3, _e3m2), and MXINT8, an
	// 8-bit two's-complement fixed-point value with 6 fraction bits
	// (GL_EXT_float_mxint8). They convert like the fp8 types.
	E2M1
	E2M3
	E3M2
	MXInt8
	// UE8M0 is the microscaling scale: an unsigned power of two, 8
	// exponent bits (GL_EXT_float_ue8m0).
	UE8M0

	lastScalar = UE8M0
)

var scalarNames = [...]string{
	NoScalar: "?", Bool: "bool",
	Int8: "int8_t", Int16: "int16_t", Int32: "int", Int64: "int64_t",
	Uint8: "uint8_t", Uint16: "uint16_t", Uint32: "uint", Uint64: "uint64_t",
	Float16: "float16_t", Float32: "float", Float64: "double",
	BFloat16: "bfloat16_t", E5M2: "floate5m2_t", E4M3: "floate4m3_t",
	E2M1: "floate2m1_t", E2M3: "floate2m3_t", E3M2: "floate3m2_t", MXInt8: "floatmxint8_t", UE8M0: "floatue8m0_t",
}

func (s Scalar) String() string { return scalarNames[s] }

// Bits is the width of the scalar in bits; bool counts as 32 (its size in
// memory-backed blocks is a 32-bit uint). E2M1 has 4 bits, E2M3 and E3M2 6.
func (s Scalar) Bits() int {
	switch s {
	case E2M1:
		return 4
	case E2M3, E3M2:
		return 6
	case Int8, Uint8, E5M2, E4M3, MXInt8, UE8M0:
		return 8
	case Int16, Uint16, Float16, BFloat16:
		return 16
	case Int64, Uint64, Float64:
		return 64
	}
	return 32
}

// bytes is the scalar's storage size: sub-byte floats take a whole byte.
func (s Scalar) bytes() int { return (s.Bits() + 7) / 8 }

// IsInt reports a signed or unsigned integer.
func (s Scalar) IsInt() bool { return s >= Int8 && s <= Uint64 }

// IsSigned reports a signed integer.
func (s Scalar) IsSigned() bool { return s >= Int8 && s <= Int64 }

// IsUnsigned reports an unsigned integer.
func (s Scalar) IsUnsigned() bool { return s >= Uint8 && s <= Uint64 }

// IsFloat reports any floating-point scalar, including bfloat16 and fp8.
func (s Scalar) IsFloat() bool { return s >= Float16 }

// IsIEEEFloat reports float16/32/64: the types with arithmetic operators and
// implicit conversions (bfloat16 and fp8 have neither).
func (s Scalar) IsIEEEFloat() bool { return s >= Float16 && s <= Float64 }

// IsNarrowFloat reports bfloat16 and the fp8 types: storage-like types that
// only convert explicitly.
func (s Scalar) IsNarrowFloat() bool { return s >= BFloat16 }

// IsNumeric reports an integer or float scalar.
func (s Scalar) IsNumeric() bool { return s >= Int8 }

// ToUnsigned maps a signed integer to the unsigned one of the same width.
func (s Scalar) ToUnsigned() Scalar {
	if s.IsSigned() {
		return s + (Uint8 - Int8)
	}
	return s
}

// ToSigned maps an unsigned integer to the signed one of the same width.
func (s Scalar) ToSigned() Scalar {
	if s.IsUnsigned() {
		return s - (Uint8 - Int8)
	}
	return s
}

// Kind classifies a Type.
type Kind uint8

// Type kinds.
const (
	KVoid Kind = iota
	KScalar
	KVector // Scalar x N; long vectors (GL_EXT_long_vector) have Long set
	KMatrix // N columns of Rows-component float vectors
	KArray  // Elem x N; N == 0 unsized (runtime in a buffer block), or SpecLen
	KStruct // Struct; blocks are structs with Struct.Block set
	// KReference is a buffer reference (GL_EXT_buffer_reference): Struct is
	// the referenced block.
	KReference
	KCoopMat      // KHR coopmat<Scalar, Params: scope, rows, cols, use>
	KCoopMatNV    // NV fcoopmatNV etc.: Scalar, Params: scope, rows, cols
	KCoopVec      // coopvecNV<Scalar, Params: N>
	KTensorLayout // tensorLayoutNV<Params: dim, clampMode>
	KTensorView   // tensorViewNV<Params: dim, hasDimensions, p0..p(dim-1)>
	KOpaque       // samplers, images, acceleration structures, ray queries: Name
	KFunction     // the type of a function name passed as a callback argument
	// KString is the type of a string literal, which only appears as the
	// format argument of debugPrintfEXT and abortEXT (*StringConst).
	KString
	// KTensorARM is tensorARM<Scalar, rank> (GL_ARM_tensors): an opaque
	// tensor resource; Params holds the rank.
	KTensorARM
	// KSpirv is a spirv_type(...) (GL_EXT_spirv_intrinsics): Spirv.
	KSpirv
)

// Dim is a type parameter or length: a constant value, or a specialization
// constant expression (Spec non-nil, Val its default value).
type Dim struct {
	Val  int64
	Spec Expr
}

func (d Dim) same(e Dim) bool {
	if d.Spec != nil || e.Spec != nil {
		return sameSpec(d.Spec, e.Spec)
	}
	return d.Val == e.Val
}

// sameSpec compares spec-constant expressions structurally enough to accept
// the same specialization constant named twice.
func sameSpec(a, b Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	va, oka := a.(*VarRef)
	vb, okb := b.(*VarRef)
	if oka && okb {
		return va.Var == vb.Var
	}
	return a == b
}

// Type is a checked GLSL type. Types are compared with Identical, never with ==.
type Type struct {
	Kind   Kind
	Scalar Scalar // element of scalars, vectors, matrices and cooperative types
	N      int    // vector components, matrix columns, array length (0: unsized)
	Rows   int    // matrix rows
	Long   bool   // vector declared with vector<T, N>
	// SpecLen is the specialization-constant expression giving an array or
	// long vector length; N holds its default value.
	SpecLen Expr
	Elem    *Type   // array element
	Struct  *Struct // struct, block, or referenced block
	Params  []Dim   // cooperative type parameters (see Kind)
	Name    string  // opaque type name
	Image   *Image  // sampler, texture and image types
	// Spirv describes a KSpirv type.
	Spirv *SpirvType
}

// Struct is a structure or interface block.
type Struct struct {
	Name    string
	Fields  []*Member
	Block   bool    // interface block (uniform, buffer, push_constant, shared)
	Packing Packing // block packing; inherited by nested structs when laid out
	// Ref is set for buffer_reference blocks; RefAlign is their
	// buffer_reference_align (16 by default).
	Ref      bool
	RefAlign int
	// BufferType is StorageBuffer or StorageUniform for a buffer_type block
	// (GL_EXT_structured_descriptor_heap): a buffer descriptor type that
	// members of descriptor heaps (and structs in them) may have; its
	// members are reached through the descriptor. Zero for other structs.
	BufferType Storage
}

// Member is a struct or block member.
type Member struct {
	Name     string
	Type     *Type
	Pos      Pos
	Offset   int // explicit layout(offset=) or -1
	Align    int // explicit layout(align=) or 0
	RowMajor bool
	Memory   MemoryQual
	// Spirv are spirv_decorate / spirv_decorate_string qualifiers.
	Spirv []*SpirvDecoration
	// DescriptorSize is layout(descriptor_size=) of a descriptor heap
	// member (0: the device's descriptor size).
	DescriptorSize int
	// Format is the image format qualifier of a descriptor heap member
	// ("" when none).
	Format string
}

// Packing is a memory layout rule.
type Packing uint8

// Packing rules.
const (
	PackNone Packing = iota
	PackStd140
	PackStd430
	PackScalar
)

// Predeclared types: static data, as scalarTypes (every start of coop
// pays for what package init builds).
var (
	TVoid    = &Type{Kind: KVoid}
	TBool    = &Type{Kind: KScalar, Scalar: Bool}
	TInt     = &Type{Kind: KScalar, Scalar: Int32}
	TUint    = &Type{Kind: KScalar, Scalar: Uint32}
	TFloat   = &Type{Kind: KScalar, Scalar: Float32}
	TDouble  = &Type{Kind: KScalar, Scalar: Float64}
	TInt64   = &Type{Kind: KScalar, Scalar: Int64}
	TUint64  = &Type{Kind: KScalar, Scalar: Uint64}
	TFloat16 = &Type{Kind: KScalar, Scalar: Float16}
	TString  = &Type{Kind: KString}
)

// scalarTypes are the scalar types, one *Type each.
var scalarTypes = [lastScalar + 1]*Type{
	Bool: TBool, Int8: {Kind: KScalar, Scalar: Int8}, Int16: {Kind: KScalar, Scalar: Int16}, Int32: TInt, Int64: TInt64,
	Uint8: {Kind: KScalar, Scalar: Uint8}, Uint16: {Kind: KScalar, Scalar: Uint16}, Uint32: TUint, Uint64: TUint64,
	Float16: TFloat16, Float32: TFloat, Float64: TDouble,
	BFloat16: {Kind: KScalar, Scalar: BFloat16}, E5M2: {Kind: KScalar, Scalar: E5M2}, E4M3: {Kind: KScalar, Scalar: E4M3},
	E2M1: {Kind: KScalar, Scalar: E2M1}, E2M3: {Kind: KScalar, Scalar: E2M3}, E3M2: {Kind: KScalar, Scalar: E3M2},
	MXInt8: {Kind: KScalar, Scalar: MXInt8}, UE8M0: {Kind: KScalar, Scalar: UE8M0},
}

// ScalarType returns the scalar type s.
func ScalarType(s Scalar) *Type {
	if scalarTypes[s] != nil {
		return scalarTypes[s]
	}
	return &Type{Kind: KScalar, Scalar: s}
}

// VectorType returns an n-component vector of s (n == 1 gives the scalar).
func VectorType(s Scalar, n int) *Type {
	if n == 1 {
		return ScalarType(s)
	}
	return &Type{Kind: KVector, Scalar: s, N: n}
}

// MatrixType returns a matrix of cols columns and rows rows.
func MatrixType(s Scalar, cols, rows int) *Type {
	return &Type{Kind: KMatrix, Scalar: s, N: cols, Rows: rows}
}

// ArrayType returns an array of n elements (0: unsized).
func ArrayType(elem *Type, n int) *Type {
	return &Type{Kind: KArray, Elem: elem, N: n}
}

// WithScalar returns t with its component type replaced (scalars, vectors,
// matrices and cooperative types).
func (t *Type) WithScalar(s Scalar) *Type {
	if t.Kind == KScalar {
		return ScalarType(s)
	}
	c := *t
	c.Scalar = s
	return &c
}

// Components is the number of scalar components of a scalar, vector or
// matrix (0 for other types).
func (t *Type) Components() int {
	switch t.Kind {
	case KScalar:
		return 1
	case KVector:
		return t.N
	case KMatrix:
		return t.N * t.Rows
	}
	return 0
}

// Column returns a matrix's column type.
func (t *Type) Column() *Type { return VectorType(t.Scalar, t.Rows) }

// IsScalar reports a scalar type.
func (t *Type) IsScalar() bool { return t.Kind == KScalar }

// IsVoid reports void.
func (t *Type) IsVoid() bool { return t.Kind == KVoid }

// IsNumeric reports a numeric scalar, vector or matrix.
func (t *Type) IsNumeric() bool {
	return (t.Kind == KScalar || t.Kind == KVector || t.Kind == KMatrix) && t.Scalar.IsNumeric()
}

// IsCoop reports a cooperative matrix (KHR or NV) or vector.
func (t *Type) IsCoop() bool {
	return t.Kind == KCoopMat || t.Kind == KCoopMatNV || t.Kind == KCoopVec
}

// IsCoopMat reports a KHR or NV cooperative matrix.
func (t *Type) IsCoopMat() bool { return t.Kind == KCoopMat || t.Kind == KCoopMatNV }

// IsOpaque reports an opaque type: a sampler, image, acceleration structure,
// ray query or tensorARM. Opaque values are not assignable, comparable or
// storable in blocks.
func (t *Type) IsOpaque() bool { return t.Kind == KOpaque || t.Kind == KTensorARM }

// IsUnsizedArray reports an array without a length.
func (t *Type) IsUnsizedArray() bool { return t.Kind == KArray && t.N == 0 && t.SpecLen == nil }

// Contains reports whether t or any type nested in it (array elements,
// struct fields; not through references) satisfies f.
func (t *Type) Contains(f func(*Type) bool) bool {
	if f(t) {
		return true
	}
	switch t.Kind {
	case KArray:
		return t.Elem.Contains(f)
	case KStruct:
		for _, fl := range t.Struct.Fields {
			if fl.Type.Contains(f) {
				return true
			}
		}
	}
	return false
}

// Identical reports whether a and b are the same type.
func Identical(a, b *Type) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind || a.Scalar != b.Scalar {
		return false
	}
	switch a.Kind {
	case KVector:
		return a.N == b.N && sameSpec(a.SpecLen, b.SpecLen)
	case KMatrix:
		return a.N == b.N && a.Rows == b.Rows
	case KArray:
		return a.N == b.N && sameSpec(a.SpecLen, b.SpecLen) && Identical(a.Elem, b.Elem)
	case KStruct, KReference:
		return a.Struct == b.Struct
	case KSpirv:
		return a.Spirv.same(b.Spirv)
	case KCoopMat, KCoopMatNV, KCoopVec, KTensorLayout, KTensorView, KTensorARM:
		if (a.Elem == nil) != (b.Elem == nil) || a.Elem != nil && !Identical(a.Elem, b.Elem) {
			return false
		}
		if len(a.Params) != len(b.Params) {
			return false
		}
		for i := range a.Params {
			if !a.Params[i].same(b.Params[i]) {
				return false
			}
		}
		return true
	case KOpaque:
		return a.Name == b.Name
	}
	return true
}

// String spells the type as GLSL source would, with glslang's names for the
// cooperative types' parameters.
func (t *Type) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *Type) write(b *strings.Builder) {
	switch t.Kind {
	case KVoid:
		b.WriteString("void")
	case KScalar:
		b.WriteString(t.Scalar.String())
	case KVector:
		if t.Long || t.N > 4 || t.SpecLen != nil {
			fmt.Fprintf(b, "vector<%s, %d>", t.Scalar, t.N)
			return
		}
		b.WriteString(vecPrefix(t.Scalar))
		b.WriteString("vec")
		b.WriteString(strconv.Itoa(t.N))
	case KMatrix:
		switch t.Scalar {
		case Float64:
			b.WriteString("dmat")
		case Float16:
			b.WriteString("f16mat")
		default:
			b.WriteString("mat")
		}
		if t.N == t.Rows {
			b.WriteString(strconv.Itoa(t.N))
		} else {
			fmt.Fprintf(b, "%dx%d", t.N, t.Rows)
		}
	case KArray:
		t.Elem.write(b)
		if t.N == 0 && t.SpecLen == nil {
			b.WriteString("[]")
		} else {
			fmt.Fprintf(b, "[%d]", t.N)
		}
	case KStruct, KReference:
		b.WriteString(t.Struct.Name)
	case KCoopMat:
		b.WriteString("coopmat<")
		if t.Elem != nil {
			t.Elem.write(b)
		} else {
			b.WriteString(t.Scalar.String())
		}
		writeParams(b, t.Params)
	case KSpirv:
		t.Spirv.write(b)
	case KCoopMatNV:
		c := "f"
		if t.Scalar.IsSigned() {
			c = "i"
		} else if t.Scalar.IsUnsigned() {
			c = "u"
		}
		fmt.Fprintf(b, "%scoopmatNV<%d", c, t.Scalar.Bits())
		writeParams(b, t.Params)
	case KCoopVec:
		fmt.Fprintf(b, "coopvecNV<%s", t.Scalar)
		writeParams(b, t.Params)
	case KTensorLayout:
		b.WriteString("tensorLayoutNV<")
		writeParams(b, t.Params)
	case KTensorView:
		b.WriteString("tensorViewNV<")
		writeParams(b, t.Params)
	case KOpaque:
		b.WriteString(t.Name)
	case KFunction:
		b.WriteString("function")
	case KString:
		b.WriteString("string")
	case KTensorARM:
		fmt.Fprintf(b, "tensorARM<%s", t.Scalar)
		writeParams(b, t.Params)
	}
}

func writeParams(b *strings.Builder, ps []Dim) {
	for i, p := range ps {
		if i > 0 || b.String()[b.Len()-1] != '<' {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(p.Val, 10))
	}
	b.WriteString(">")
}

func vecPrefix(s Scalar) string {
	switch s {
	case Bool:
		return "b"
	case Int32:
		return "i"
	case Uint32:
		return "u"
	case Float32:
		return ""
	case Float64:
		return "d"
	case Int8:
		return "i8"
	case Int16:
		return "i16"
	case Int64:
		return "i64"
	case Uint8:
		return "u8"
	case Uint16:
		return "u16"
	case Uint64:
		return "u64"
	case Float16:
		return "f16"
	case BFloat16:
		return "bf16"
	case E5M2:
		return "fe5m2"
	case E4M3:
		return "fe4m3"
	case E2M1:
		return "fe2m1"
	case E2M3:
		return "fe2m3"
	case E3M2:
		return "fe3m2"
	case UE8M0:
		return "fue8m0"
	}
	return "?"
}

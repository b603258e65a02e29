package check

// Memory layout of types in blocks (std140, std430, scalar), the numbers
// lowering needs for Offset, ArrayStride and MatrixStride decorations.

// Sizes saturate at maxLayout, so absurd arrays (a[65536][65536][65536]
// [65536] of vec4) cannot wrap around 64 bits; lowering refuses anything
// past 32 bits, the width of SPIR-V's Offset and stride literals.
const maxLayout = 1 << 62

func roundUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return min((n+a-1)/a*a, maxLayout)
}

// mulSize is n*m saturated at maxLayout (n, m >= 0).
func mulSize(n, m int) int {
	if n != 0 && m > maxLayout/n {
		return maxLayout
	}
	return n * m
}

// SizeAlign returns the size and base alignment of t under packing p. rowMajor
// selects row-major matrices for t and arrays of matrices. Unsized arrays have
// size 0; arrays sized by a specialization constant use its default value.
func SizeAlign(t *Type, p Packing, rowMajor bool) (size, align int) {
	switch t.Kind {
	case KScalar:
		n := t.Scalar.bytes()
		return n, n
	case KVector:
		c := t.Scalar.bytes()
		size = c * t.N
		switch {
		case p == PackScalar:
			align = c
		case t.N == 2:
			align = 2 * c
		default:
			align = 4 * c
		}
		return size, align
	case KMatrix:
		stride := MatrixStride(t, p, rowMajor)
		n := t.N
		if rowMajor {
			n = t.Rows
		}
		_, va := SizeAlign(matrixVector(t, rowMajor), p, false)
		if p == PackStd140 {
			va = roundUp(va, 16)
		}
		return mulSize(stride, n), va
	case KArray:
		stride := ArrayStride(t, p, rowMajor)
		_, ea := SizeAlign(t.Elem, p, rowMajor)
		if p == PackStd140 {
			ea = roundUp(ea, 16)
		}
		return mulSize(stride, max(t.N, 0)), ea
	case KStruct:
		offs := FieldOffsets(t.Struct, p)
		align = 1
		end := 0
		for i, f := range t.Struct.Fields {
			s, a := SizeAlign(f.Type, p, f.RowMajor)
			if f.Align > a {
				a = f.Align
			}
			align = max(align, a)
			end = max(end, min(offs[i]+s, maxLayout))
		}
		if p == PackStd140 {
			align = roundUp(align, 16)
		}
		return roundUp(end, align), align
	case KReference:
		return 8, 8
	case KSpirv:
		// glslang lays out a spirv_type as a 32-bit scalar.
		return 4, 4
	}
	return 0, 1
}

// matrixVector is the vector a matrix is stored as: a column, or a row when
// row-major.
func matrixVector(t *Type, rowMajor bool) *Type {
	if rowMajor {
		return VectorType(t.Scalar, t.N)
	}
	return VectorType(t.Scalar, t.Rows)
}

// MatrixStride is the distance between a matrix's columns (rows when
// rowMajor) under p. t may be an array of matrices.
func MatrixStride(t *Type, p Packing, rowMajor bool) int {
	for t.Kind == KArray {
		t = t.Elem
	}
	v := matrixVector(t, rowMajor)
	s, a := SizeAlign(v, p, false)
	if p == PackScalar {
		return s
	}
	if p == PackStd140 {
		a = roundUp(a, 16)
	}
	return roundUp(s, a)
}

// ArrayStride is the distance between an array's elements under p.
func ArrayStride(t *Type, p Packing, rowMajor bool) int {
	s, a := SizeAlign(t.Elem, p, rowMajor)
	if p == PackScalar {
		return s
	}
	if p == PackStd140 {
		a = roundUp(a, 16)
	}
	return roundUp(s, a)
}

// FieldOffsets returns the byte offset of each member of s under p, honoring
// explicit offset and align qualifiers.
func FieldOffsets(s *Struct, p Packing) []int {
	offs := make([]int, len(s.Fields))
	cur := 0
	for i, f := range s.Fields {
		size, a := SizeAlign(f.Type, p, f.RowMajor)
		if f.Align > a {
			a = f.Align
		}
		if f.Offset >= 0 {
			cur = f.Offset
		} else {
			cur = roundUp(cur, a)
		}
		offs[i] = cur
		cur = min(cur+size, maxLayout)
	}
	return offs
}

// RefStride is the step of buffer reference arithmetic for reference type
// t, as glslang computes it: the end of the referenced block's last member
// rounded up to the block's buffer_reference_align. It is false for a block
// with no members yet or with an unsized array (glslang refuses arithmetic
// on those).
func RefStride(t *Type) (int64, bool) {
	st := t.Struct
	if len(st.Fields) == 0 || !refSized(t) {
		return 0, false
	}
	last := len(st.Fields) - 1
	f := st.Fields[last]
	size, _ := SizeAlign(f.Type, st.Packing, f.RowMajor)
	end := int64(FieldOffsets(st, st.Packing)[last]) + int64(size)
	if a := int64(st.RefAlign); a > 1 {
		end = (end + a - 1) / a * a
	}
	return end, true
}

// refSized reports whether reference type t's block has no unsized array.
func refSized(t *Type) bool {
	for _, f := range t.Struct.Fields {
		if f.Type.Contains((*Type).IsUnsizedArray) {
			return false
		}
	}
	return true
}

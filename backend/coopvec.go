package backend

import "fmt"

// MatrixLayout is a cooperative-vector matrix layout; the values are
// SPIR-V's and VkCooperativeVectorMatrixLayoutNV's.
type MatrixLayout int

const (
	RowMajor MatrixLayout = iota
	ColumnMajor
	// The optimal layouts are each device's own: only the device that
	// converted a matrix to one can read it, so such bytes are opaque.
	InferencingOptimal
	TrainingOptimal
)

var layoutNames = [...]string{"row_major", "column_major", "inferencing_optimal", "training_optimal"}

func (l MatrixLayout) String() string {
	if l >= 0 && int(l) < len(layoutNames) {
		return layoutNames[l]
	}
	return fmt.Sprintf("MatrixLayout(%d)", int(l))
}

// ParseMatrixLayout reads a layout's name (as String writes it).
func ParseMatrixLayout(s string) (MatrixLayout, bool) {
	for i, n := range layoutNames {
		if n == s {
			return MatrixLayout(i), true
		}
	}
	return 0, false
}

// Optimal reports whether l is a device's own layout.
func (l MatrixLayout) Optimal() bool { return l == InferencingOptimal || l == TrainingOptimal }

// MatrixConversion converts a Rows x Cols matrix of one component type
// between layouts, as vkConvertCooperativeVectorMatrixNV does, on host
// bytes. Strides are bytes between rows (row-major) or columns
// (column-major); 0 means tightly packed; optimal layouts ignore them.
type MatrixConversion struct {
	Src, Dst             []byte
	Rows, Cols           int
	Type                 string // component type in profile spelling: float16, float32, sint8, float8_e4m3, ...
	SrcLayout, DstLayout MatrixLayout
	SrcStride, DstStride int
}

// MatrixConverter is a Device that converts cooperative-vector matrices:
// ConvertMatrix returns the bytes the destination takes and, when Dst is
// not nil, writes it (Dst must be at least that long).
type MatrixConverter interface {
	ConvertMatrix(c *MatrixConversion) (int, error)
}

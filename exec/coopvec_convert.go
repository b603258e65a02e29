package exec

import (
	"fmt"

	"github.com/coopshader/coop/backend"
)

// matrixElemSize is the bytes of one element of a cooperative-vector
// matrix component type (a switch, not a map that package init would
// build for every start of coop).
func matrixElemSize(t string) (int, bool) {
	switch t {
	case "float64":
		return 8, true
	case "float32", "sint32", "uint32":
		return 4, true
	case "float16", "sint16", "uint16":
		return 2, true
	case "sint8", "uint8", "float8_e4m3", "float8_e5m2":
		return 1, true
	}
	return 0, false
}

// ConvertMatrix converts a cooperative-vector matrix between layouts.
// The executor's optimal layouts (both) are row-major with rows packed
// tightly, as its matrix instructions read them (coopvec.go).
func (d *Device) ConvertMatrix(c *backend.MatrixConversion) (int, error) {
	es, ok := matrixElemSize(c.Type)
	if !ok {
		return 0, fmt.Errorf("exec: matrix component type %q is not supported", c.Type)
	}
	if c.Rows <= 0 || c.Cols <= 0 || int64(c.Rows)*int64(c.Cols)*int64(es) > 1<<31 {
		return 0, fmt.Errorf("exec: a %d x %d matrix", c.Rows, c.Cols)
	}
	srcOff, srcSize, err := matrixLayout(c.SrcLayout, c.Rows, c.Cols, es, c.SrcStride)
	if err != nil {
		return 0, err
	}
	dstOff, dstSize, err := matrixLayout(c.DstLayout, c.Rows, c.Cols, es, c.DstStride)
	if err != nil {
		return 0, err
	}
	if c.Dst == nil {
		return dstSize, nil
	}
	if len(c.Src) < srcSize || len(c.Dst) < dstSize {
		return 0, fmt.Errorf("exec: the %v source needs %d bytes (has %d), the %v destination %d (has %d)", c.SrcLayout, srcSize, len(c.Src), c.DstLayout, dstSize, len(c.Dst))
	}
	for r := 0; r < c.Rows; r++ {
		for k := 0; k < c.Cols; k++ {
			copy(c.Dst[dstOff(r, k):dstOff(r, k)+es], c.Src[srcOff(r, k):srcOff(r, k)+es])
		}
	}
	return dstSize, nil
}

// matrixLayout gives the byte offset of element (r, c) and the bytes a
// layout takes.
func matrixLayout(l backend.MatrixLayout, rows, cols, es, stride int) (func(r, c int) int, int, error) {
	switch l {
	case backend.RowMajor:
		if stride == 0 {
			stride = cols * es
		}
		if stride < cols*es {
			return nil, 0, fmt.Errorf("exec: row stride %d is below a row's %d bytes", stride, cols*es)
		}
		return func(r, c int) int { return r*stride + c*es }, (rows-1)*stride + cols*es, nil
	case backend.ColumnMajor:
		if stride == 0 {
			stride = rows * es
		}
		if stride < rows*es {
			return nil, 0, fmt.Errorf("exec: column stride %d is below a column's %d bytes", stride, rows*es)
		}
		return func(r, c int) int { return c*stride + r*es }, (cols-1)*stride + rows*es, nil
	case backend.InferencingOptimal, backend.TrainingOptimal:
		return func(r, c int) int { return (r*cols + c) * es }, rows * cols * es, nil
	}
	return nil, 0, fmt.Errorf("exec: unknown matrix layout %v", l)
}

package icd

import (
	"encoding/binary"
	"math"
	"testing"
	"unsafe"

	"github.com/coopshader/coop/icd/vkt"
)

// A float32 row-major matrix with padded rows converts to the float16
// optimal layout (tightly packed rows); the size query comes first.
func TestConvertCooperativeVectorMatrix(t *testing.T) {
	const rows, cols, stride = 3, 5, 32
	src := make([]byte, (rows-1)*stride+cols*4)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			binary.LittleEndian.PutUint32(src[r*stride+c*4:], math.Float32bits(float32(r*10+c)+0.5))
		}
	}
	var dstSize uintptr
	ci := vkt.ConvertCooperativeVectorMatrixInfoNV{SrcSize: uintptr(len(src)), PDstSize: unsafe.Pointer(&dstSize),
		SrcComponentType: f32, DstComponentType: f16, NumRows: rows, NumColumns: cols,
		SrcLayout: vkt.CooperativeVectorMatrixLayoutRowMajorNV, SrcStride: stride,
		DstLayout: vkt.CooperativeVectorMatrixLayoutInferencingOptimalNV}
	*(*unsafe.Pointer)(unsafe.Pointer(&ci.SrcData)) = unsafe.Pointer(&src[0])
	if r := ConvertCooperativeVectorMatrixNV(0, unsafe.Pointer(&ci)); r != success || dstSize != rows*cols*2 {
		t.Fatalf("size query: result %d, size %d", r, dstSize)
	}
	dst := make([]byte, dstSize)
	*(*unsafe.Pointer)(unsafe.Pointer(&ci.DstData)) = unsafe.Pointer(&dst[0])
	if r := ConvertCooperativeVectorMatrixNV(0, unsafe.Pointer(&ci)); r != success {
		t.Fatalf("conversion: result %d", r)
	}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			got := readElem(f16, dst[(r*cols+c)*2:])
			if want := float64(r*10+c) + 0.5; got != want {
				t.Errorf("(%d, %d) = %v, want %v", r, c, got, want)
			}
		}
	}
	ci.DstComponentType = s8
	if r := ConvertCooperativeVectorMatrixNV(0, unsafe.Pointer(&ci)); r == success {
		t.Error("float32 to sint8 accepted")
	}
}

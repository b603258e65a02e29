package icd

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/coopshader/coop/icd/vkt"
	"github.com/coopshader/coop/num"
)

// Cooperative-vector matrix conversion (vkConvertCooperativeVectorMatrixNV
// and its command). The executor's optimal layouts are row-major with
// tightly packed rows, so converting to or from them is a strided copy;
// element conversions round to nearest even and saturate, as the
// executor's input conversions do.

// elemSize is the byte size of a matrix component type; 0 for types a
// matrix cannot have.
func elemSize(t vkt.ComponentTypeKHR) uint64 {
	switch t {
	case f32:
		return 4
	case f16:
		return 2
	case e4m3, e5m2, s8:
		return 1
	}
	return 0
}

// matrixSpan is the bytes a layout of rows x cols elements of es bytes
// with the given stride covers.
func matrixSpan(layout vkt.CooperativeVectorMatrixLayoutNV, rows, cols, es, stride uint64) uint64 {
	if rows == 0 || cols == 0 {
		return 0
	}
	switch layout {
	case vkt.CooperativeVectorMatrixLayoutRowMajorNV:
		return (rows-1)*stride + cols*es
	case vkt.CooperativeVectorMatrixLayoutColumnMajorNV:
		return (cols-1)*stride + rows*es
	}
	return rows * cols * es
}

func elemOffset(layout vkt.CooperativeVectorMatrixLayoutNV, r, c, cols, es, stride uint64) uint64 {
	switch layout {
	case vkt.CooperativeVectorMatrixLayoutRowMajorNV:
		return r*stride + c*es
	case vkt.CooperativeVectorMatrixLayoutColumnMajorNV:
		return c*stride + r*es
	}
	return (r*cols + c) * es
}

func readElem(t vkt.ComponentTypeKHR, b []byte) float64 {
	switch t {
	case f32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case f16:
		return num.Float16.Decode(uint64(binary.LittleEndian.Uint16(b)))
	case e4m3:
		return num.E4M3.Decode(uint64(b[0]))
	case e5m2:
		return num.E5M2.Decode(uint64(b[0]))
	}
	return float64(int8(b[0]))
}

func writeElem(t vkt.ComponentTypeKHR, b []byte, x float64) {
	switch t {
	case f32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(x)))
	case f16:
		binary.LittleEndian.PutUint16(b, uint16(num.Float16.Encode(x, num.NearestEven, true)))
	case e4m3:
		b[0] = byte(num.E4M3.Encode(x, num.NearestEven, true))
	case e5m2:
		b[0] = byte(num.E5M2.Encode(x, num.NearestEven, true))
	default:
		b[0] = byte(int8(max(-128, min(127, math.RoundToEven(x)))))
	}
}

// convertInfo checks a conversion and returns the source and destination
// sizes it needs.
func convertInfo(ci *vkt.ConvertCooperativeVectorMatrixInfoNV) (srcSize, dstSize uint64, err error) {
	ses, des := elemSize(ci.SrcComponentType), elemSize(ci.DstComponentType)
	if ses == 0 || des == 0 || (ci.SrcComponentType == s8) != (ci.DstComponentType == s8) {
		return 0, 0, errorf("no conversion from component type %d to %d", ci.SrcComponentType, ci.DstComponentType)
	}
	rows, cols := uint64(ci.NumRows), uint64(ci.NumColumns)
	return matrixSpan(ci.SrcLayout, rows, cols, ses, uint64(ci.SrcStride)), matrixSpan(ci.DstLayout, rows, cols, des, uint64(ci.DstStride)), nil
}

func convertMatrix(ci *vkt.ConvertCooperativeVectorMatrixInfoNV, src, dst []byte) {
	ses, des := elemSize(ci.SrcComponentType), elemSize(ci.DstComponentType)
	rows, cols := uint64(ci.NumRows), uint64(ci.NumColumns)
	for r := uint64(0); r < rows; r++ {
		for c := uint64(0); c < cols; c++ {
			so := elemOffset(ci.SrcLayout, r, c, cols, ses, uint64(ci.SrcStride))
			do := elemOffset(ci.DstLayout, r, c, cols, des, uint64(ci.DstStride))
			if ci.SrcComponentType == ci.DstComponentType {
				copy(dst[do:do+des], src[so:so+ses])
				continue
			}
			writeElem(ci.DstComponentType, dst[do:do+des], readElem(ci.SrcComponentType, src[so:so+ses]))
		}
	}
}

func ConvertCooperativeVectorMatrixNV(device uintptr, pInfo unsafe.Pointer) int32 {
	ci := (*vkt.ConvertCooperativeVectorMatrixInfoNV)(pInfo)
	if ci == nil || ci.PDstSize == nil {
		return errOutOfHostMemory
	}
	srcSize, dstSize, err := convertInfo(ci)
	if err != nil {
		if d := lookupD[Device](device); d != nil {
			d.inst.report(severityError, "vkConvertCooperativeVectorMatrixNV: %v", err)
		}
		return errUnknown
	}
	have := (*uintptr)(ci.PDstSize)
	// The host-address member of the address unions.
	dstPtr := *(*unsafe.Pointer)(unsafe.Pointer(&ci.DstData))
	srcPtr := *(*unsafe.Pointer)(unsafe.Pointer(&ci.SrcData))
	if dstPtr == nil {
		*have = uintptr(dstSize)
		return success
	}
	if uint64(*have) < dstSize {
		return incomplete
	}
	if uint64(ci.SrcSize) < srcSize || srcPtr == nil {
		return errUnknown
	}
	src := unsafe.Slice((*byte)(srcPtr), srcSize)
	convertMatrix(ci, src, unsafe.Slice((*byte)(dstPtr), dstSize))
	return success
}

func CmdConvertCooperativeVectorMatrixNV(commandBuffer uintptr, count uint32, pInfos unsafe.Pointer) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		infos := append([]vkt.ConvertCooperativeVectorMatrixInfoNV(nil), array[vkt.ConvertCooperativeVectorMatrixInfoNV](pInfos, count)...)
		return func(st *replayState) error {
			for i := range infos {
				ci := &infos[i]
				srcSize, dstSize, err := convertInfo(ci)
				if err != nil {
					return errorf("vkCmdConvertCooperativeVectorMatrixNV: %v", err)
				}
				src, err := st.dev.addressBytes(ci.SrcData[0], srcSize)
				if err != nil {
					return errorf("vkCmdConvertCooperativeVectorMatrixNV source: %v", err)
				}
				dst, err := st.dev.addressBytes(ci.DstData[0], dstSize)
				if err != nil {
					return errorf("vkCmdConvertCooperativeVectorMatrixNV destination: %v", err)
				}
				convertMatrix(ci, src, dst)
			}
			return nil
		}
	})
}

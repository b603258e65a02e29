package vk

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/vk/internal/vkc"
)

// componentByName is the inverse of componentType over the values
// cooperative-vector matrices take.
var componentByName = sync.OnceValue(func() map[string]vkc.ComponentTypeKHR {
	m := map[string]vkc.ComponentTypeKHR{}
	for v := vkc.ComponentTypeKHR(0); v <= 12; v++ {
		m[componentType(v)] = v
	}
	for v := vkc.ComponentTypeKHR(1000491000); v <= 1000491003; v++ {
		m[componentType(v)] = v
	}
	return m
})

// componentBytes is the size of a matrix component type.
var componentBytes = sync.OnceValue(func() map[string]int {
	return map[string]int{"float16": 2, "float32": 4, "float64": 8, "sint8": 1, "uint8": 1, "sint16": 2, "uint16": 2,
		"sint32": 4, "uint32": 4, "float8_e4m3": 1, "float8_e5m2": 1}
})

// ConvertMatrix converts a cooperative-vector matrix between layouts with
// vkConvertCooperativeVectorMatrixNV on host memory, so a matrix in one
// of the device's optimal layouts is exactly what its driver expects.
func (d *Device) ConvertMatrix(c *backend.MatrixConversion) (int, error) {
	if !d.has["VK_NV_cooperative_vector"] {
		return 0, fmt.Errorf("vk: %s has no VK_NV_cooperative_vector to convert matrices with", d.info.Name)
	}
	t, ok := componentByName()[c.Type]
	if !ok || componentBytes()[c.Type] == 0 {
		return 0, fmt.Errorf("vk: matrix component type %q is not supported", c.Type)
	}
	// Vulkan takes the strides as given (0 would repeat the first row):
	// a packed layout's stride is spelled out.
	stride := func(l backend.MatrixLayout, st int) int {
		switch {
		case st != 0:
			return st
		case l == backend.RowMajor:
			return c.Cols * componentBytes()[c.Type]
		case l == backend.ColumnMajor:
			return c.Rows * componentBytes()[c.Type]
		}
		return 0
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	dstSize := new(uintptr)
	pin.Pin(dstSize)
	info := &vkc.ConvertCooperativeVectorMatrixInfoNV{SType: vkc.StructureTypeConvertCooperativeVectorMatrixInfoNV,
		SrcSize: uintptr(len(c.Src)), PDstSize: unsafe.Pointer(dstSize), SrcComponentType: t, DstComponentType: t,
		NumRows: uint32(c.Rows), NumColumns: uint32(c.Cols),
		SrcLayout: vkc.CooperativeVectorMatrixLayoutNV(c.SrcLayout), SrcStride: uintptr(stride(c.SrcLayout, c.SrcStride)),
		DstLayout: vkc.CooperativeVectorMatrixLayoutNV(c.DstLayout), DstStride: uintptr(stride(c.DstLayout, c.DstStride))}
	if len(c.Src) > 0 {
		pin.Pin(&c.Src[0])
		info.SrcData = vkc.DeviceOrHostAddressConstKHR(uintptr(unsafe.Pointer(&c.Src[0])))
	}
	if c.Dst != nil {
		if len(c.Dst) == 0 {
			return 0, fmt.Errorf("vk: empty destination for a matrix conversion")
		}
		pin.Pin(&c.Dst[0])
		info.DstData = vkc.DeviceOrHostAddressKHR(uintptr(unsafe.Pointer(&c.Dst[0])))
		*dstSize = uintptr(len(c.Dst))
	}
	pin.Pin(info)
	if r := d.in.p.ConvertCooperativeVectorMatrixNV(d.dev, info); r != vkc.Success {
		return 0, fmt.Errorf("vk: converting a %d x %d %s matrix from %v to %v: %w", c.Rows, c.Cols, c.Type, c.SrcLayout, c.DstLayout, vkError("vkConvertCooperativeVectorMatrixNV", r))
	}
	return int(*dstSize), nil
}

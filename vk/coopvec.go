package vk

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/vk/internal/vkc"
)

// componentByName is the inverse of componentType over the values
// cooperative-vector matrices take.
var componentByName = func() map[string]vkc.ComponentTypeKHR {
	m := map[string]vkc.ComponentTypeKHR{}
	for v := vkc.ComponentTypeKHR(0); v <= 12; v++ {
		m[componentType(v)] = v
	}
	for v := vkc.ComponentTypeKHR(1000491000); v <= 1000491003; v++ {
		m[componentType(v)] = v
	}
	return m
}()

// ConvertMatrix converts a cooperative-vector matrix between layouts with
// vkConvertCooperativeVectorMatrixNV on host memory, so a matrix in one
// of the device's optimal layouts is exactly what its driver expects.
func (d *Device) ConvertMatrix(c *backend.MatrixConversion) (int, error) {
	if !d.has["VK_NV_cooperative_vector"] {
		return 0, fmt.Errorf("vk: %s has no VK_NV_cooperative_vector to convert matrices with", d.info.Name)
	}
	t, ok := componentByName[c.Type]
	if !ok {
		return 0, fmt.Errorf("vk: matrix component type %q is not supported", c.Type)
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	dstSize := new(uintptr)
	pin.Pin(dstSize)
	info := &vkc.ConvertCooperativeVectorMatrixInfoNV{SType: vkc.StructureTypeConvertCooperativeVectorMatrixInfoNV,
		SrcSize: uintptr(len(c.Src)), PDstSize: unsafe.Pointer(dstSize), SrcComponentType: t, DstComponentType: t,
		NumRows: uint32(c.Rows), NumColumns: uint32(c.Cols),
		SrcLayout: vkc.CooperativeVectorMatrixLayoutNV(c.SrcLayout), SrcStride: uintptr(c.SrcStride),
		DstLayout: vkc.CooperativeVectorMatrixLayoutNV(c.DstLayout), DstStride: uintptr(c.DstStride)}
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

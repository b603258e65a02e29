package icd

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/icd/vkt"
)

// Images live in memory objects laid out as the executor lays out its
// images (backend.ImageDesc.LevelOffset: level by level, layer by layer,
// rows tightly packed), for optimal and linear tiling alike, so an image
// view is an executor image over part of that memory
// (exec.Device.NewImageOver) and copies move bytes.

// Image limits (coop's own; docs/ICD.md).
const (
	maxImageDim1D2D  = 16384
	maxImageDim3D    = 2048
	maxImageLayers   = 2048
	maxImageResource = 1 << 30 // backend.ImageDesc.Validate's bound
	maxTexelElements = 1 << 27
)

// formats maps the VkFormats the executor has to its formats: a
// backend.FormatInfo's name is Vulkan's without VK_FORMAT_.
var formats = sync.OnceValue(func() map[vkt.Format]backend.Format {
	out := map[vkt.Format]backend.Format{}
	for v, name := range vkt.FormatNames {
		if f, ok := backend.ParseFormat(name); ok {
			out[v] = f
		}
	}
	return out
})

func isDepth(f backend.Format) bool { return f == backend.FormatD16 || f == backend.FormatD32f }

// formatFeatures are what the executor does with a format: every format
// is sampled and copied, those read as floats filtered linearly; color
// formats are storage images (read and written without a format in the
// shader too) and texel buffers; 32-bit integers take atomics; the depth
// formats are sampled with comparisons.
func formatFeatures(f backend.Format) (image, buffer vkt.FormatFeatureFlags2) {
	fi := f.Info()
	if fi == nil {
		return 0, 0
	}
	image = vkt.FormatFeature2SampledImageBit | vkt.FormatFeature2TransferSrcBit | vkt.FormatFeature2TransferDstBit
	if fi.IsFloat() {
		image |= vkt.FormatFeature2SampledImageFilterLinearBit
	}
	if isDepth(f) {
		return image | vkt.FormatFeature2SampledImageDepthComparisonBit, 0
	}
	rw := vkt.FormatFeature2StorageReadWithoutFormatBit | vkt.FormatFeature2StorageWriteWithoutFormatBit
	image |= vkt.FormatFeature2StorageImageBit | rw
	buffer = vkt.FormatFeature2UniformTexelBufferBit | vkt.FormatFeature2StorageTexelBufferBit | rw
	if f == backend.FormatR32ui || f == backend.FormatR32i {
		image |= vkt.FormatFeature2StorageImageAtomicBit
		buffer |= vkt.FormatFeature2StorageTexelBufferAtomicBit
	}
	return image, buffer
}

// features1 is the VkFormatFeatureFlags part of VkFormatFeatureFlags2
// (the bits past those of Vulkan 1.0 and 1.1 exist only in the latter).
func features1(f vkt.FormatFeatureFlags2) vkt.FormatFeatureFlags {
	f &^= vkt.FormatFeature2StorageReadWithoutFormatBit | vkt.FormatFeature2StorageWriteWithoutFormatBit |
		vkt.FormatFeature2SampledImageDepthComparisonBit
	return vkt.FormatFeatureFlags(uint32(f))
}

func formatProperties(format int32) vkt.FormatProperties {
	img, buf := formatFeatures(formats()[vkt.Format(format)])
	return vkt.FormatProperties{LinearTilingFeatures: features1(img), OptimalTilingFeatures: features1(img), BufferFeatures: features1(buf)}
}

func GetPhysicalDeviceFormatProperties(physicalDevice uintptr, format int32, pProps unsafe.Pointer) {
	put(pProps, formatProperties(format))
}

func GetPhysicalDeviceFormatProperties2(physicalDevice uintptr, format int32, pProps unsafe.Pointer) {
	img, buf := formatFeatures(formats()[vkt.Format(format)])
	chain(pProps, func(s vkt.StructureType, p unsafe.Pointer) {
		switch s {
		case vkt.StructureTypeFormatProperties2:
			(*vkt.FormatProperties2)(p).FormatProperties = formatProperties(format)
		case vkt.StructureTypeFormatProperties3:
			fp := (*vkt.FormatProperties3)(p)
			fp.LinearTilingFeatures, fp.OptimalTilingFeatures, fp.BufferFeatures = img, img, buf
		}
	})
}

// imageUsages are the usages the driver supports (no attachments: compute
// only).
const imageUsages = vkt.ImageUsageTransferSrcBit | vkt.ImageUsageTransferDstBit | vkt.ImageUsageSampledBit | vkt.ImageUsageStorageBit

// imageFlags are the creation flags it supports: no sparse residency,
// disjoint planes, protected memory or 2D views of 3D images.
const imageFlags = vkt.ImageCreateMutableFormatBit | vkt.ImageCreateCubeCompatibleBit | vkt.ImageCreateExtendedUsageBit | vkt.ImageCreateAliasBit

// imageFormatProperties answers vkGetPhysicalDeviceImageFormatProperties:
// ok false (with the reason) when the combination is not supported.
func imageFormatProperties(format vkt.Format, typ vkt.ImageType, tiling vkt.ImageTiling, usage vkt.ImageUsageFlags, flags vkt.ImageCreateFlags) (vkt.ImageFormatProperties, string) {
	var p vkt.ImageFormatProperties
	f, ok := formats()[format]
	if !ok {
		return p, "the format is not supported"
	}
	img, _ := formatFeatures(f)
	switch {
	case tiling != vkt.ImageTilingOptimal && tiling != vkt.ImageTilingLinear:
		return p, "only optimal and linear tiling are supported"
	case usage == 0 || usage&^imageUsages != 0:
		return p, "images are used for transfers, sampling and storage only (no attachments)"
	case usage&vkt.ImageUsageStorageBit != 0 && img&vkt.FormatFeature2StorageImageBit == 0:
		return p, "the format is not a storage image format"
	case flags&^imageFlags != 0:
		return p, "the creation flags are not supported"
	case flags&vkt.ImageCreateCubeCompatibleBit != 0 && typ != vkt.ImageType2d:
		return p, "only 2D images are cube compatible"
	case isDepth(f) && typ == vkt.ImageType3d:
		return p, "depth images are 1D or 2D"
	}
	switch typ {
	case vkt.ImageType1d:
		p.MaxExtent = vkt.Extent3D{Width: maxImageDim1D2D, Height: 1, Depth: 1}
		p.MaxArrayLayers = maxImageLayers
	case vkt.ImageType2d:
		p.MaxExtent = vkt.Extent3D{Width: maxImageDim1D2D, Height: maxImageDim1D2D, Depth: 1}
		p.MaxArrayLayers = maxImageLayers
	case vkt.ImageType3d:
		p.MaxExtent = vkt.Extent3D{Width: maxImageDim3D, Height: maxImageDim3D, Depth: maxImageDim3D}
		p.MaxArrayLayers = 1
	default:
		return p, "the image type is not supported"
	}
	p.MaxMipLevels = uint32(bits.Len32(p.MaxExtent.Width))
	p.SampleCounts = vkt.SampleCountFlags(vkt.SampleCount1Bit)
	p.MaxResourceSize = maxImageResource
	return p, ""
}

func GetPhysicalDeviceImageFormatProperties(physicalDevice uintptr, format, typ, tiling int32, usage, flags uint32, pProps unsafe.Pointer) int32 {
	p, why := imageFormatProperties(vkt.Format(format), vkt.ImageType(typ), vkt.ImageTiling(tiling), vkt.ImageUsageFlags(usage), vkt.ImageCreateFlags(flags))
	if why != "" {
		put(pProps, vkt.ImageFormatProperties{})
		return errFormatNotSupp
	}
	put(pProps, p)
	return success
}

func GetPhysicalDeviceImageFormatProperties2(physicalDevice uintptr, pInfo, pProps unsafe.Pointer) int32 {
	fi := (*vkt.PhysicalDeviceImageFormatInfo2)(pInfo)
	if fi == nil || pProps == nil {
		return errFormatNotSupp
	}
	p, why := imageFormatProperties(fi.Format, fi.Type, fi.Tiling, fi.Usage, fi.Flags)
	if why != "" {
		p = vkt.ImageFormatProperties{}
	}
	chain(pProps, func(s vkt.StructureType, q unsafe.Pointer) {
		if s == vkt.StructureTypeImageFormatProperties2 {
			(*vkt.ImageFormatProperties2)(q).ImageFormatProperties = p
		}
	})
	if why != "" {
		return errFormatNotSupp
	}
	return success
}

// --- images -------------------------------------------------------------

// Image is a VkImage: its layout (desc, whose Dim is the image type's; a
// cube-compatible image is 2D) and, once bound, its memory.
type Image struct {
	dev    *Device
	desc   backend.ImageDesc
	flags  vkt.ImageCreateFlags
	mu     sync.Mutex
	mem    *Memory
	offset uint64
}

// imageDesc checks an image's creation parameters and returns its layout;
// why says what is wrong otherwise.
func imageDesc(ci *vkt.ImageCreateInfo) (backend.ImageDesc, string) {
	var desc backend.ImageDesc
	lim, why := imageFormatProperties(ci.Format, ci.ImageType, ci.Tiling, ci.Usage, ci.Flags)
	if why != "" {
		return desc, why
	}
	e := ci.Extent
	switch {
	case e.Width == 0 || e.Height == 0 || e.Depth == 0 || ci.MipLevels == 0 || ci.ArrayLayers == 0:
		return desc, "every extent, the level count and the layer count must be positive"
	case e.Width > lim.MaxExtent.Width || e.Height > lim.MaxExtent.Height || e.Depth > lim.MaxExtent.Depth:
		return desc, "the extent exceeds the format's maxExtent"
	case ci.MipLevels > lim.MaxMipLevels || ci.ArrayLayers > lim.MaxArrayLayers:
		return desc, "more levels or layers than the format allows"
	case uint32(ci.Samples) != uint32(vkt.SampleCount1Bit):
		return desc, "images have one sample"
	case ci.Flags&vkt.ImageCreateCubeCompatibleBit != 0 && (e.Width != e.Height || ci.ArrayLayers < 6):
		return desc, "a cube-compatible image has square layers, at least six"
	}
	// backend.ImageDim numbers 1D, 2D and 3D as VkImageType does.
	desc = backend.ImageDesc{Format: formats()[ci.Format], Dim: backend.ImageDim(ci.ImageType), Width: int(e.Width), Height: int(e.Height),
		Depth: int(e.Depth), Layers: int(ci.ArrayLayers), Levels: int(ci.MipLevels), Samples: 1}
	if err := desc.Validate(); err != nil {
		return desc, err.Error()
	}
	return desc, ""
}

func CreateImage(device uintptr, pInfo, pAllocator, pImage unsafe.Pointer) int32 {
	d := lookupD[Device](device)
	ci := (*vkt.ImageCreateInfo)(pInfo)
	if d == nil || ci == nil || pImage == nil {
		return errOutOfHostMemory
	}
	desc, why := imageDesc(ci)
	if why != "" {
		d.inst.report(severityError, "vkCreateImage: image of type %d, format %s, %dx%dx%d, %d levels, %d layers, %d samples: %s",
			ci.ImageType, vkt.FormatNames[ci.Format], ci.Extent.Width, ci.Extent.Height, ci.Extent.Depth, ci.MipLevels, ci.ArrayLayers, ci.Samples, why)
		return errValidationFailed
	}
	put(pImage, newHandle(&Image{dev: d, desc: desc, flags: ci.Flags}))
	return success
}

func DestroyImage(device uintptr, image uint64, pAllocator unsafe.Pointer) {
	if lookup[Image](image) != nil {
		freeHandle(image)
	}
}

func imageRequirements(desc backend.ImageDesc) vkt.MemoryRequirements {
	return bufferRequirements(uint64(desc.Size()))
}

func GetImageMemoryRequirements(device uintptr, image uint64, pReq unsafe.Pointer) {
	if im := lookup[Image](image); im != nil {
		put(pReq, imageRequirements(im.desc))
	}
}

func GetImageMemoryRequirements2(device uintptr, pInfo, pReq unsafe.Pointer) {
	if pInfo == nil {
		return
	}
	if im := lookup[Image](uint64((*vkt.ImageMemoryRequirementsInfo2)(pInfo).Image)); im != nil {
		fillRequirements2(uint64(im.desc.Size()), pReq)
	}
}

func GetDeviceImageMemoryRequirements(device uintptr, pInfo, pReq unsafe.Pointer) {
	if pInfo == nil || (*vkt.DeviceImageMemoryRequirements)(pInfo).PCreateInfo == nil {
		return
	}
	if desc, why := imageDesc((*vkt.ImageCreateInfo)((*vkt.DeviceImageMemoryRequirements)(pInfo).PCreateInfo)); why == "" {
		fillRequirements2(uint64(desc.Size()), pReq)
	}
}

func BindImageMemory(device uintptr, image, memory uint64, offset uint64) int32 {
	im, m := lookup[Image](image), lookup[Memory](memory)
	if im == nil || m == nil || offset > uint64(len(m.data)) || uint64(im.desc.Size()) > uint64(len(m.data))-offset {
		return errOutOfDeviceMemory
	}
	im.mu.Lock()
	im.mem, im.offset = m, offset
	im.mu.Unlock()
	return success
}

func BindImageMemory2(device uintptr, count uint32, pInfos unsafe.Pointer) int32 {
	for _, bi := range array[vkt.BindImageMemoryInfo](pInfos, count) {
		if r := BindImageMemory(device, uint64(bi.Image), uint64(bi.Memory), uint64(bi.MemoryOffset)); r != success {
			return r
		}
	}
	return success
}

// bytes is the image's memory.
func (im *Image) bytes() ([]byte, error) {
	im.mu.Lock()
	defer im.mu.Unlock()
	if im.mem == nil {
		return nil, errorf("the image is not bound to memory")
	}
	n := uint64(im.desc.Size())
	return im.mem.data[im.offset : im.offset+n : im.offset+n], nil
}

// layerSize is the number of bytes of one layer of level l.
func (im *Image) layerSize(l int) int { return im.desc.LevelSize(l) / im.desc.Layers }

func GetImageSubresourceLayout(device uintptr, image uint64, pSubresource, pLayout unsafe.Pointer) {
	im, sub := lookup[Image](image), (*vkt.ImageSubresource)(pSubresource)
	var out vkt.SubresourceLayout
	if im != nil && sub != nil && uint64(sub.MipLevel) < uint64(im.desc.Levels) && uint64(sub.ArrayLayer) < uint64(im.desc.Layers) {
		l := int(sub.MipLevel)
		w, h, _ := im.desc.LevelExtent(l)
		ts := im.desc.Format.Info().Size
		ls := im.layerSize(l)
		out = vkt.SubresourceLayout{Offset: vkt.DeviceSize(im.desc.LevelOffset(l) + int(sub.ArrayLayer)*ls), Size: vkt.DeviceSize(ls),
			RowPitch: vkt.DeviceSize(w * ts), ArrayPitch: vkt.DeviceSize(ls), DepthPitch: vkt.DeviceSize(w * h * ts)}
	}
	put(pLayout, out)
}

// --- image views --------------------------------------------------------

// ImageView is a VkImageView: an executor image over the memory of the
// levels and layers it shows, in the view's format and dimensionality.
type ImageView struct {
	img *Image
	ex  backend.Image
	mu  sync.Mutex
	// destroyed: descriptors still naming the view are left unbound.
	destroyed bool
}

// viewDims gives each VkImageViewType's dimensionality and whether it is
// arrayed.
var viewDims = map[vkt.ImageViewType]struct {
	dim     backend.ImageDim
	arrayed bool
}{
	vkt.ImageViewType1d: {backend.Image1D, false}, vkt.ImageViewType2d: {backend.Image2D, false},
	vkt.ImageViewType3d: {backend.Image3D, false}, vkt.ImageViewTypeCube: {backend.ImageCube, false},
	vkt.ImageViewType1dArray: {backend.Image1D, true}, vkt.ImageViewType2dArray: {backend.Image2D, true},
	vkt.ImageViewTypeCubeArray: {backend.ImageCube, true},
}

// isIdentity reports a component mapping that maps every component to
// itself (the executor does not swizzle).
func isIdentity(c vkt.ComponentMapping) bool {
	const identity, r, g, b, a = 0, 3, 4, 5, 6
	return (c.R == identity || c.R == r) && (c.G == identity || c.G == g) && (c.B == identity || c.B == b) && (c.A == identity || c.A == a)
}

// resolveRange turns a subresource range's counts (VK_REMAINING_*) into
// numbers, false when it lies outside the image.
func (im *Image) resolveRange(r vkt.ImageSubresourceRange) (baseLevel, levels, baseLayer, layers int, ok bool) {
	nl, nL := uint64(im.desc.Levels), uint64(im.desc.Layers)
	lc, Lc := uint64(r.LevelCount), uint64(r.LayerCount)
	if r.LevelCount == vkt.RemainingMipLevels {
		lc = nl - min(uint64(r.BaseMipLevel), nl)
	}
	if r.LayerCount == vkt.RemainingArrayLayers {
		Lc = nL - min(uint64(r.BaseArrayLayer), nL)
	}
	if lc == 0 || Lc == 0 || uint64(r.BaseMipLevel)+lc > nl || uint64(r.BaseArrayLayer)+Lc > nL {
		return 0, 0, 0, 0, false
	}
	return int(r.BaseMipLevel), int(lc), int(r.BaseArrayLayer), int(Lc), true
}

// newView makes the executor image a view shows. The levels and layers
// must lie in one run of the image's memory: one level (any layers), or
// several levels of every layer (of the first layer, for a view that is
// not arrayed, which shows only that one).
func (im *Image) newView(ci *vkt.ImageViewCreateInfo) (backend.Image, string) {
	mem, err := im.bytes()
	if err != nil {
		return nil, err.Error()
	}
	f, ok := formats()[ci.Format]
	if !ok {
		return nil, "the view's format is not supported"
	}
	if f.Info().Size != im.desc.Format.Info().Size {
		return nil, "the view's format has texels of another size than the image's"
	}
	vd, ok := viewDims[ci.ViewType]
	if !ok {
		return nil, "the view type is not supported"
	}
	switch {
	case vd.dim == backend.ImageCube && (im.desc.Dim != backend.Image2D || im.flags&vkt.ImageCreateCubeCompatibleBit == 0),
		vd.dim != backend.ImageCube && vd.dim != im.desc.Dim:
		return nil, "the view type does not fit the image's type"
	case !isIdentity(ci.Components):
		return nil, "component swizzles are not supported"
	}
	base, n, L, k, ok := im.resolveRange(ci.SubresourceRange)
	if !ok {
		return nil, "the subresource range lies outside the image"
	}
	w, h, z := im.desc.LevelExtent(base)
	desc := backend.ImageDesc{Format: f, Dim: vd.dim, Width: w, Height: h, Depth: z, Levels: n, Layers: k, Samples: 1}
	off := im.desc.LevelOffset(base)
	switch {
	case n == 1:
		off += L * im.layerSize(base)
	case L == 0 && (k == im.desc.Layers || !vd.arrayed):
		desc.Layers = im.desc.Layers
	default:
		return nil, "a view of several levels shows every layer, or the first alone"
	}
	size := desc.Size()
	v, err := im.dev.exec.NewImageOver(desc, mem[off:off+size:off+size])
	if err != nil {
		return nil, err.Error()
	}
	return v, ""
}

func CreateImageView(device uintptr, pInfo, pAllocator, pView unsafe.Pointer) int32 {
	d := lookupD[Device](device)
	ci := (*vkt.ImageViewCreateInfo)(pInfo)
	if d == nil || ci == nil || pView == nil {
		return errOutOfHostMemory
	}
	im := lookup[Image](uint64(ci.Image))
	if im == nil {
		d.inst.report(severityError, "vkCreateImageView: not an image")
		return errValidationFailed
	}
	ex, why := im.newView(ci)
	if why != "" {
		d.inst.report(severityError, "vkCreateImageView: %s", why)
		return errValidationFailed
	}
	put(pView, newHandle(&ImageView{img: im, ex: ex}))
	return success
}

func DestroyImageView(device uintptr, view uint64, pAllocator unsafe.Pointer) {
	v := lookup[ImageView](view)
	if v == nil {
		return
	}
	v.mu.Lock()
	v.destroyed = true
	v.ex.Release()
	v.mu.Unlock()
	freeHandle(view)
}

// image is the executor image of a view, nil once destroyed.
func (v *ImageView) image() backend.Image {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.destroyed {
		return nil
	}
	return v.ex
}

// --- samplers -----------------------------------------------------------

// Sampler is a VkSampler: an executor sampler (coop's sampler enumerations
// have Vulkan's values).
type Sampler struct {
	ex backend.Sampler
}

func CreateSampler(device uintptr, pInfo, pAllocator, pSampler unsafe.Pointer) int32 {
	d := lookupD[Device](device)
	ci := (*vkt.SamplerCreateInfo)(pInfo)
	if d == nil || ci == nil || pSampler == nil {
		return errOutOfHostMemory
	}
	why := ""
	switch {
	case ci.MagFilter > vkt.FilterLinear || ci.MinFilter > vkt.FilterLinear || ci.MipmapMode > vkt.SamplerMipmapModeLinear:
		why = "only nearest and linear filtering"
	case ci.AddressModeU > vkt.SamplerAddressModeMirrorClampToEdge || ci.AddressModeV > vkt.SamplerAddressModeMirrorClampToEdge ||
		ci.AddressModeW > vkt.SamplerAddressModeMirrorClampToEdge || ci.AddressModeU < 0 || ci.AddressModeV < 0 || ci.AddressModeW < 0:
		why = "the address mode is not supported"
	case ci.BorderColor > vkt.BorderColorIntOpaqueWhite || ci.BorderColor < 0:
		why = "custom border colors are not supported"
	case ci.AnisotropyEnable != 0:
		why = "anisotropic filtering is not supported (samplerAnisotropy is false)"
	case ci.CompareEnable != 0 && (ci.CompareOp < 0 || ci.CompareOp > vkt.CompareOpAlways):
		why = "the compare op is not one of Vulkan's"
	case ci.MagFilter < 0 || ci.MinFilter < 0 || ci.MipmapMode < 0:
		why = "the filter is not one of Vulkan's"
	}
	var s backend.Sampler
	if why == "" {
		desc := backend.SamplerDesc{MagFilter: backend.Filter(ci.MagFilter), MinFilter: backend.Filter(ci.MinFilter),
			Mipmap: backend.MipmapMode(ci.MipmapMode), AddressU: backend.AddressMode(ci.AddressModeU),
			AddressV: backend.AddressMode(ci.AddressModeV), AddressW: backend.AddressMode(ci.AddressModeW),
			MipLodBias: ci.MipLodBias, MinLod: ci.MinLod, MaxLod: ci.MaxLod, Border: backend.BorderColor(ci.BorderColor),
			Unnormalized: ci.UnnormalizedCoordinates != 0, Compare: ci.CompareEnable != 0}
		if desc.Compare {
			desc.CompareOp = backend.CompareOp(ci.CompareOp)
		}
		var err error
		if s, err = d.exec.NewSampler(desc); err != nil {
			why = err.Error()
		}
	}
	if why != "" {
		d.inst.report(severityError, "vkCreateSampler: %s", why)
		return errValidationFailed
	}
	put(pSampler, newHandle(&Sampler{ex: s}))
	return success
}

func DestroySampler(device uintptr, sampler uint64, pAllocator unsafe.Pointer) {
	if lookup[Sampler](sampler) != nil {
		freeHandle(sampler)
	}
}

// --- buffer views -------------------------------------------------------

// BufferView is a VkBufferView: a range of a buffer seen as texels.
type BufferView struct {
	buf      *Buffer
	format   backend.Format
	off, rng uint64
}

func CreateBufferView(device uintptr, pInfo, pAllocator, pView unsafe.Pointer) int32 {
	d := lookupD[Device](device)
	ci := (*vkt.BufferViewCreateInfo)(pInfo)
	if d == nil || ci == nil || pView == nil {
		return errOutOfHostMemory
	}
	b := lookup[Buffer](uint64(ci.Buffer))
	f := formats()[ci.Format]
	_, feat := formatFeatures(f)
	off, rng := uint64(ci.Offset), uint64(ci.Range)
	why := ""
	switch {
	case b == nil:
		why = "not a buffer"
	case feat == 0:
		why = "the format is not a texel buffer format"
	case off >= b.size:
		why = "the offset is past the buffer's end"
	}
	if why == "" {
		ts := uint64(f.Info().Size)
		if rng == vkt.WholeSize {
			rng = (b.size - off) / ts * ts
		}
		switch {
		case rng == 0 || rng%ts != 0:
			why = "the range is not a positive multiple of the texel size"
		case rng > b.size-off:
			why = "the range runs past the buffer's end"
		case rng/ts > maxTexelElements:
			why = "more texels than maxTexelBufferElements"
		}
	}
	if why != "" {
		d.inst.report(severityError, "vkCreateBufferView: %s", why)
		return errValidationFailed
	}
	put(pView, newHandle(&BufferView{buf: b, format: f, off: off, rng: rng}))
	return success
}

func DestroyBufferView(device uintptr, view uint64, pAllocator unsafe.Pointer) {
	if lookup[BufferView](view) != nil {
		freeHandle(view)
	}
}

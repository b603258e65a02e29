package vk

import (
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/vk/internal/vkc"
)

// vkFormats maps coop's formats to Vulkan's: FormatInfo names are the
// Vulkan names without VK_FORMAT_.
var vkFormats = sync.OnceValue(func() map[backend.Format]vkc.Format {
	byName := map[string]vkc.Format{}
	for v := vkc.Format(1); v < 200; v++ {
		byName[v.String()] = v
	}
	out := map[backend.Format]vkc.Format{}
	for f := backend.Format(1); f.Info() != nil; f++ {
		if v, ok := byName["VK_FORMAT_"+f.Info().Name]; ok {
			out[f] = v
		}
	}
	return out
})

// imageCreateCubeCompatible is VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT.
const imageCreateCubeCompatible = 0x10

// image is a VkImage in device-local memory, always in the GENERAL
// layout (storage, sampling and copies all accept it). Write and Read
// copy the whole image through a staging buffer in the packed layout of
// backend.ImageDesc.LevelOffset, kept in host (a copy of the image's
// bytes, read back after every dispatch that could write it).
type image struct {
	d      *Device
	desc   backend.ImageDesc
	format vkc.Format
	aspect vkc.ImageAspectFlags
	img    vkc.Image
	mem    vkc.DeviceMemory
	views  map[uint32]vkc.ImageView // by base level
	host   []byte
	stale  bool // the device may hold newer texels than host
	closed bool
}

var _ backend.Image = (*image)(nil)

// NewImage creates a zeroed image usable as storage and sampled image
// where its format allows.
func (d *Device) NewImage(desc backend.ImageDesc) (backend.Image, error) {
	if err := desc.Validate(); err != nil {
		return nil, fmt.Errorf("vk: %w", err)
	}
	desc = desc.Norm()
	f, ok := vkFormats()[desc.Format]
	if !ok {
		return nil, fmt.Errorf("vk: image format %v has no Vulkan format", desc.Format)
	}
	if desc.Samples > 1 {
		return nil, fmt.Errorf("vk: multisampled images are not supported by the Vulkan backend (no copies to or from them): %w", errors.ErrUnsupported)
	}
	var fp vkc.FormatProperties
	d.in.p.GetPhysicalDeviceFormatProperties(d.pd, f, &fp)
	feat := fp.OptimalTilingFeatures
	usage := vkc.ImageUsageFlags(vkc.ImageUsageTransferSrcBit | vkc.ImageUsageTransferDstBit)
	if feat&vkc.FormatFeatureSampledImageBit != 0 {
		usage |= vkc.ImageUsageSampledBit
	}
	if feat&vkc.FormatFeatureStorageImageBit != 0 {
		usage |= vkc.ImageUsageStorageBit
	}
	if usage&(vkc.ImageUsageSampledBit|vkc.ImageUsageStorageBit) == 0 {
		return nil, fmt.Errorf("vk: %s supports format %v neither as sampled nor as storage image", d.info.Name, desc.Format)
	}
	im := &image{d: d, desc: desc, format: f, aspect: vkc.ImageAspectColorBit, views: map[uint32]vkc.ImageView{}, host: make([]byte, desc.Size())}
	if desc.Format == backend.FormatD16 || desc.Format == backend.FormatD32f {
		im.aspect = vkc.ImageAspectDepthBit
	}
	ci := &vkc.ImageCreateInfo{SType: vkc.StructureTypeImageCreateInfo, Format: f,
		Extent:    vkc.Extent3D{Width: uint32(desc.Width), Height: uint32(desc.Height), Depth: uint32(desc.Depth)},
		MipLevels: uint32(desc.Levels), ArrayLayers: uint32(desc.Layers), Samples: vkc.SampleCount1Bit,
		Tiling: vkc.ImageTilingOptimal, Usage: usage, SharingMode: vkc.SharingModeExclusive, InitialLayout: vkc.ImageLayoutUndefined}
	switch desc.Dim {
	case backend.Image1D:
		ci.ImageType = vkc.ImageType1d
	case backend.Image3D:
		ci.ImageType = vkc.ImageType3d
	case backend.ImageCube:
		ci.ImageType, ci.Flags = vkc.ImageType2d, imageCreateCubeCompatible
	default:
		ci.ImageType = vkc.ImageType2d
	}
	p := &d.in.p
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(ci)
	if r := p.CreateImage(d.dev, ci, nil, &im.img); r != vkc.Success {
		return nil, fmt.Errorf("vk: creating a %v %dx%dx%d image: %w", desc.Format, desc.Width, desc.Height, desc.Depth, vkError("vkCreateImage", r))
	}
	var req vkc.MemoryRequirements
	p.GetImageMemoryRequirements(d.dev, im.img, &req)
	t, ok := d.memoryType(req.MemoryTypeBits, vkc.MemoryPropertyDeviceLocalBit)
	if !ok {
		t, ok = d.memoryType(req.MemoryTypeBits, 0)
	}
	ai := &vkc.MemoryAllocateInfo{SType: vkc.StructureTypeMemoryAllocateInfo, AllocationSize: req.Size, MemoryTypeIndex: t}
	pin.Pin(ai)
	if r := p.AllocateMemory(d.dev, ai, nil, &im.mem); !ok || r != vkc.Success {
		p.DestroyImage(d.dev, im.img, nil)
		return nil, fmt.Errorf("vk: allocating image memory: %w", vkError("vkAllocateMemory", r))
	}
	if r := p.BindImageMemory(d.dev, im.img, im.mem, 0); r != vkc.Success {
		im.free()
		return nil, vkError("vkBindImageMemory", r)
	}
	// To GENERAL, then zeroed by an upload of the (zero) host copy.
	if err := d.record("image layout", func(cmd vkc.CommandBuffer) {
		b := &vkc.ImageMemoryBarrier{SType: vkc.StructureTypeImageMemoryBarrier, DstAccessMask: vkc.AccessTransferWriteBit | vkc.AccessShaderReadBit | vkc.AccessShaderWriteBit,
			OldLayout: vkc.ImageLayoutUndefined, NewLayout: vkc.ImageLayoutGeneral, SrcQueueFamilyIndex: vkc.QueueFamilyIgnored, DstQueueFamilyIndex: vkc.QueueFamilyIgnored,
			Image: im.img, SubresourceRange: im.all()}
		pin.Pin(b)
		p.CmdPipelineBarrier(cmd, vkc.PipelineStageTopOfPipeBit, vkc.PipelineStageTransferBit|vkc.PipelineStageComputeShaderBit, 0, 0, nil, 0, nil, 1, b)
	}); err != nil {
		im.free()
		return nil, err
	}
	if err := im.upload(); err != nil {
		im.free()
		return nil, err
	}
	d.images = append(d.images, im)
	return im, nil
}

func (im *image) all() vkc.ImageSubresourceRange {
	return vkc.ImageSubresourceRange{AspectMask: im.aspect, LevelCount: uint32(im.desc.Levels), LayerCount: uint32(im.desc.Layers)}
}

// regions are the copies between the packed host layout and the image,
// one per level (all layers).
func (im *image) regions() []vkc.BufferImageCopy {
	var rs []vkc.BufferImageCopy
	for l := 0; l < im.desc.Levels; l++ {
		w, h, z := im.desc.LevelExtent(l)
		rs = append(rs, vkc.BufferImageCopy{BufferOffset: vkc.DeviceSize(im.desc.LevelOffset(l)),
			ImageSubresource: vkc.ImageSubresourceLayers{AspectMask: im.aspect, MipLevel: uint32(l), LayerCount: uint32(im.desc.Layers)},
			ImageExtent:      vkc.Extent3D{Width: uint32(w), Height: uint32(h), Depth: uint32(z)}})
	}
	return rs
}

// upload copies host to the image.
func (im *image) upload() error {
	d := im.d
	h, err := d.newHostBuffer(len(im.host))
	if err != nil {
		return err
	}
	defer h.free(d)
	copy(h.bytes(len(im.host)), im.host)
	rs := im.regions()
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&rs[0])
	return d.record("image upload", func(cmd vkc.CommandBuffer) {
		d.in.p.CmdCopyBufferToImage(cmd, h.buf, im.img, vkc.ImageLayoutGeneral, uint32(len(rs)), &rs[0])
	})
}

// download refreshes host from the image when a dispatch may have
// written it.
func (im *image) download() error {
	if !im.stale {
		return nil
	}
	d := im.d
	h, err := d.newHostBuffer(len(im.host))
	if err != nil {
		return err
	}
	defer h.free(d)
	rs := im.regions()
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&rs[0])
	if err := d.record("image download", func(cmd vkc.CommandBuffer) {
		d.in.p.CmdCopyImageToBuffer(cmd, im.img, vkc.ImageLayoutGeneral, h.buf, uint32(len(rs)), &rs[0])
	}); err != nil {
		return err
	}
	copy(im.host, h.bytes(len(im.host)))
	im.stale = false
	return nil
}

func (im *image) Desc() backend.ImageDesc { return im.desc }

func (im *image) span(offset, n int, op string) error {
	if im.closed {
		return fmt.Errorf("vk: %s on a released image", op)
	}
	if offset < 0 || n < 0 || offset > len(im.host)-n {
		return fmt.Errorf("vk: image %s of %d bytes at offset %d is outside the %d-byte image", op, n, offset, len(im.host))
	}
	return nil
}

func (im *image) Write(offset int, data []byte) error {
	if err := im.span(offset, len(data), "write"); err != nil {
		return err
	}
	if err := im.download(); err != nil {
		return err
	}
	copy(im.host[offset:], data)
	return im.upload()
}

func (im *image) Read(offset int, data []byte) error {
	if err := im.span(offset, len(data), "read"); err != nil {
		return err
	}
	if err := im.download(); err != nil {
		return err
	}
	copy(data, im.host[offset:])
	return nil
}

func (im *image) Release() {
	if im.closed {
		return
	}
	d := im.d
	d.in.p.DeviceWaitIdle(d.dev)
	im.free()
	for i, x := range d.images {
		if x == im {
			d.images = append(d.images[:i], d.images[i+1:]...)
			break
		}
	}
}

func (im *image) free() {
	p, dev := &im.d.in.p, im.d.dev
	for _, v := range im.views {
		p.DestroyImageView(dev, v, nil)
	}
	p.DestroyImage(dev, im.img, nil)
	p.FreeMemory(dev, im.mem, nil)
	im.closed = true
}

// view returns the image's view from mip level base on: arrayed when the
// image has several layers (a cube array past six), as the shader's
// image type then is.
func (im *image) view(base uint32) (vkc.ImageView, error) {
	if v, ok := im.views[base]; ok {
		return v, nil
	}
	if int(base) >= im.desc.Levels {
		return 0, fmt.Errorf("vk: base level %d of an image with %d levels", base, im.desc.Levels)
	}
	vt := vkc.ImageViewType2d
	switch im.desc.Dim {
	case backend.Image1D:
		vt = vkc.ImageViewType1d
		if im.desc.Layers > 1 {
			vt = vkc.ImageViewType1dArray
		}
	case backend.Image2D:
		if im.desc.Layers > 1 {
			vt = vkc.ImageViewType2dArray
		}
	case backend.Image3D:
		vt = vkc.ImageViewType3d
	case backend.ImageCube:
		vt = vkc.ImageViewTypeCube
		if im.desc.Layers > 6 {
			vt = vkc.ImageViewTypeCubeArray
		}
	}
	rng := im.all()
	rng.BaseMipLevel, rng.LevelCount = base, uint32(im.desc.Levels)-base
	ci := &vkc.ImageViewCreateInfo{SType: vkc.StructureTypeImageViewCreateInfo, Image: im.img, ViewType: vt, Format: im.format, SubresourceRange: rng}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(ci)
	var v vkc.ImageView
	if r := im.d.in.p.CreateImageView(im.d.dev, ci, nil, &v); r != vkc.Success {
		return 0, vkError("vkCreateImageView", r)
	}
	im.views[base] = v
	return v, nil
}

// sampler is a VkSampler.
type sampler struct {
	d      *Device
	desc   backend.SamplerDesc
	s      vkc.Sampler
	closed bool
}

var _ backend.Sampler = (*sampler)(nil)

// NewSampler creates a sampler; coop's enumerations have Vulkan's values.
func (d *Device) NewSampler(desc backend.SamplerDesc) (backend.Sampler, error) {
	if err := desc.Validate(); err != nil {
		return nil, fmt.Errorf("vk: %w", err)
	}
	ci := &vkc.SamplerCreateInfo{SType: vkc.StructureTypeSamplerCreateInfo,
		MagFilter: vkc.Filter(desc.MagFilter), MinFilter: vkc.Filter(desc.MinFilter), MipmapMode: vkc.SamplerMipmapMode(desc.Mipmap),
		AddressModeU: vkc.SamplerAddressMode(desc.AddressU), AddressModeV: vkc.SamplerAddressMode(desc.AddressV), AddressModeW: vkc.SamplerAddressMode(desc.AddressW),
		MipLodBias: desc.MipLodBias, MaxAnisotropy: 1, CompareOp: vkc.CompareOp(desc.CompareOp),
		MinLod: desc.MinLod, MaxLod: desc.MaxLod, BorderColor: vkc.BorderColor(desc.Border)}
	if desc.Compare {
		ci.CompareEnable = 1
	}
	if desc.Unnormalized {
		ci.UnnormalizedCoordinates = 1
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(ci)
	s := &sampler{d: d, desc: desc}
	if r := d.in.p.CreateSampler(d.dev, ci, nil, &s.s); r != vkc.Success {
		return nil, vkError("vkCreateSampler", r)
	}
	d.samplers = append(d.samplers, s)
	return s, nil
}

func (s *sampler) Desc() backend.SamplerDesc { return s.desc }

func (s *sampler) Release() {
	if s.closed {
		return
	}
	s.d.in.p.DeviceWaitIdle(s.d.dev)
	s.d.in.p.DestroySampler(s.d.dev, s.s, nil)
	s.closed = true
}

// texelView makes a buffer view of the whole buffer for a texel buffer
// binding; the dispatch destroys it.
func (d *Device) texelView(b *buffer, f backend.Format) (vkc.BufferView, error) {
	vf, ok := vkFormats()[f]
	if !ok {
		return 0, fmt.Errorf("vk: texel buffer format %v has no Vulkan format", f)
	}
	size := b.size - b.size%max(f.Info().Size, 1)
	ci := &vkc.BufferViewCreateInfo{SType: vkc.StructureTypeBufferViewCreateInfo, Buffer: b.buf, Format: vf, Range: vkc.DeviceSize(size)}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(ci)
	var v vkc.BufferView
	if r := d.in.p.CreateBufferView(d.dev, ci, nil, &v); r != vkc.Success {
		return 0, vkError("vkCreateBufferView", r)
	}
	return v, nil
}

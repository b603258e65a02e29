package icd

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/icd/vkt"
)

// newTestDevice makes an instance and a device through the driver's own
// entry points.
func newTestDevice(t *testing.T) uintptr {
	t.Helper()
	var inst, pd, dev uintptr
	if r := CreateInstance(unsafe.Pointer(&vkt.InstanceCreateInfo{SType: vkt.StructureTypeInstanceCreateInfo}), nil, unsafe.Pointer(&inst)); r != success {
		t.Fatalf("vkCreateInstance: %d", r)
	}
	n := uint32(1)
	if r := EnumeratePhysicalDevices(inst, unsafe.Pointer(&n), unsafe.Pointer(&pd)); r != success {
		t.Fatalf("vkEnumeratePhysicalDevices: %d", r)
	}
	if r := CreateDevice(pd, unsafe.Pointer(&vkt.DeviceCreateInfo{SType: vkt.StructureTypeDeviceCreateInfo}), nil, unsafe.Pointer(&dev)); r != success {
		t.Fatalf("vkCreateDevice: %d", r)
	}
	t.Cleanup(func() {
		DestroyDevice(dev, nil)
		DestroyInstance(inst, nil)
	})
	return dev
}

func vkFormat(t *testing.T, name string) int32 {
	t.Helper()
	for v, n := range vkt.FormatNames {
		if n == "VK_FORMAT_"+name {
			return int32(v)
		}
	}
	t.Fatalf("no format %s", name)
	return 0
}

// Format features are the executor's: storage and texel buffers for color
// formats, linear filtering for those read as floats, atomics for 32-bit
// integers, sampling with comparison for depth; nothing for formats it
// lacks. Image-format queries refuse attachments and depth storage.
func TestFormatQueries(t *testing.T) {
	var fp vkt.FormatProperties
	GetPhysicalDeviceFormatProperties(0, vkFormat(t, "R8G8B8A8_UNORM"), unsafe.Pointer(&fp))
	want := vkt.FormatFeatureSampledImageBit | vkt.FormatFeatureStorageImageBit | vkt.FormatFeatureSampledImageFilterLinearBit
	if fp.OptimalTilingFeatures&want != want || fp.BufferFeatures&vkt.FormatFeatureStorageTexelBufferBit == 0 ||
		fp.OptimalTilingFeatures&vkt.FormatFeatureStorageImageAtomicBit != 0 {
		t.Errorf("R8G8B8A8_UNORM: %+v", fp)
	}
	GetPhysicalDeviceFormatProperties(0, vkFormat(t, "R32_UINT"), unsafe.Pointer(&fp))
	if fp.OptimalTilingFeatures&vkt.FormatFeatureStorageImageAtomicBit == 0 || fp.OptimalTilingFeatures&vkt.FormatFeatureSampledImageFilterLinearBit != 0 {
		t.Errorf("R32_UINT: %+v", fp)
	}
	fp3 := vkt.FormatProperties3{SType: vkt.StructureTypeFormatProperties3}
	fp2 := vkt.FormatProperties2{SType: vkt.StructureTypeFormatProperties2, PNext: unsafe.Pointer(&fp3)}
	GetPhysicalDeviceFormatProperties2(0, vkFormat(t, "D32_SFLOAT"), unsafe.Pointer(&fp2))
	if fp2.FormatProperties.OptimalTilingFeatures&vkt.FormatFeatureStorageImageBit != 0 || fp2.FormatProperties.BufferFeatures != 0 ||
		fp3.OptimalTilingFeatures&vkt.FormatFeature2SampledImageDepthComparisonBit == 0 {
		t.Errorf("D32_SFLOAT: %+v %+v", fp2.FormatProperties, fp3)
	}
	GetPhysicalDeviceFormatProperties(0, vkFormat(t, "BC1_RGB_UNORM_BLOCK"), unsafe.Pointer(&fp))
	if fp != (vkt.FormatProperties{}) {
		t.Errorf("BC1: %+v", fp)
	}

	var ip vkt.ImageFormatProperties
	usage := uint32(vkt.ImageUsageSampledBit | vkt.ImageUsageStorageBit | vkt.ImageUsageTransferDstBit)
	if r := GetPhysicalDeviceImageFormatProperties(0, vkFormat(t, "R32G32B32A32_SFLOAT"), int32(vkt.ImageType2d), int32(vkt.ImageTilingOptimal),
		usage, 0, unsafe.Pointer(&ip)); r != success || ip.MaxExtent.Width != maxImageDim1D2D || ip.MaxMipLevels != 15 || ip.SampleCounts != 1 {
		t.Errorf("RGBA32F 2D: %d %+v", r, ip)
	}
	for _, c := range []struct {
		name   string
		format string
		typ    vkt.ImageType
		usage  vkt.ImageUsageFlags
	}{
		{"color attachment", "R8G8B8A8_UNORM", vkt.ImageType2d, vkt.ImageUsageColorAttachmentBit},
		{"depth storage", "D32_SFLOAT", vkt.ImageType2d, vkt.ImageUsageStorageBit},
		{"3D depth", "D16_UNORM", vkt.ImageType3d, vkt.ImageUsageSampledBit},
		{"compressed", "BC1_RGB_UNORM_BLOCK", vkt.ImageType2d, vkt.ImageUsageSampledBit},
	} {
		if r := GetPhysicalDeviceImageFormatProperties(0, vkFormat(t, c.format), int32(c.typ), 0, uint32(c.usage), 0, unsafe.Pointer(&ip)); r != errFormatNotSupp {
			t.Errorf("%s: result %d", c.name, r)
		}
	}
}

// testImage creates a bound image (and the memory it is bound to).
func testImage(t *testing.T, dev uintptr, ci vkt.ImageCreateInfo) (uint64, *Memory) {
	t.Helper()
	ci.SType = vkt.StructureTypeImageCreateInfo
	var img, mem uint64
	if r := CreateImage(dev, unsafe.Pointer(&ci), nil, unsafe.Pointer(&img)); r != success {
		t.Fatalf("vkCreateImage: %d", r)
	}
	var req vkt.MemoryRequirements
	GetImageMemoryRequirements(dev, img, unsafe.Pointer(&req))
	ai := vkt.MemoryAllocateInfo{SType: vkt.StructureTypeMemoryAllocateInfo, AllocationSize: req.Size}
	if r := AllocateMemory(dev, unsafe.Pointer(&ai), nil, unsafe.Pointer(&mem)); r != success {
		t.Fatalf("vkAllocateMemory: %d", r)
	}
	if r := BindImageMemory(dev, img, mem, 0); r != success {
		t.Fatalf("vkBindImageMemory: %d", r)
	}
	return img, lookup[Memory](mem)
}

// Images are laid out level by level, layer by layer (as
// vkGetImageSubresourceLayout reports); views show one level's layers or
// several levels of every layer, and other views, bad swizzles and
// images the format cannot have are refused with VK_ERROR_VALIDATION_FAILED.
func TestImagesAndViews(t *testing.T) {
	dev := newTestDevice(t)
	ci := vkt.ImageCreateInfo{ImageType: vkt.ImageType2d, Format: vkt.Format(vkFormat(t, "R16G16_SFLOAT")),
		Extent: vkt.Extent3D{Width: 8, Height: 4, Depth: 1}, MipLevels: 3, ArrayLayers: 3, Samples: 1,
		Usage: vkt.ImageUsageSampledBit | vkt.ImageUsageStorageBit}
	bad := ci
	bad.SType, bad.Samples = vkt.StructureTypeImageCreateInfo, 4
	var h uint64
	if r := CreateImage(dev, unsafe.Pointer(&bad), nil, unsafe.Pointer(&h)); r != errValidationFailed {
		t.Errorf("a multisampled image: result %d", r)
	}
	bad.Samples, bad.Extent.Width = 1, maxImageDim1D2D+1
	if r := CreateImage(dev, unsafe.Pointer(&bad), nil, unsafe.Pointer(&h)); r != errValidationFailed {
		t.Errorf("an image too wide: result %d", r)
	}
	img, _ := testImage(t, dev, ci)
	var l vkt.SubresourceLayout
	GetImageSubresourceLayout(dev, img, unsafe.Pointer(&vkt.ImageSubresource{AspectMask: vkt.ImageAspectColorBit, MipLevel: 1, ArrayLayer: 2}), unsafe.Pointer(&l))
	// Level 0: 8x4 texels of 4 bytes, 3 layers (384 bytes); level 1: 4x2.
	if l != (vkt.SubresourceLayout{Offset: 384 + 2*32, Size: 32, RowPitch: 16, ArrayPitch: 32, DepthPitch: 32}) {
		t.Errorf("layout of level 1, layer 2: %+v", l)
	}
	view := func(vt vkt.ImageViewType, format string, r vkt.ImageSubresourceRange, swz vkt.ComponentMapping) int32 {
		vci := vkt.ImageViewCreateInfo{SType: vkt.StructureTypeImageViewCreateInfo, Image: vkt.Image(img), ViewType: vt,
			Format: vkt.Format(vkFormat(t, format)), Components: swz, SubresourceRange: r}
		var v uint64
		res := CreateImageView(dev, unsafe.Pointer(&vci), nil, unsafe.Pointer(&v))
		if res == success {
			DestroyImageView(dev, v, nil)
		}
		return res
	}
	rng := func(level, levels, layer, layers uint32) vkt.ImageSubresourceRange {
		return vkt.ImageSubresourceRange{AspectMask: vkt.ImageAspectColorBit, BaseMipLevel: level, LevelCount: levels, BaseArrayLayer: layer, LayerCount: layers}
	}
	for _, c := range []struct {
		name   string
		vt     vkt.ImageViewType
		format string
		r      vkt.ImageSubresourceRange
		swz    vkt.ComponentMapping
		want   int32
	}{
		{"every level and layer", vkt.ImageViewType2dArray, "R16G16_SFLOAT", rng(0, vkt.RemainingMipLevels, 0, vkt.RemainingArrayLayers), vkt.ComponentMapping{}, success},
		{"one level, two layers", vkt.ImageViewType2dArray, "R16G16_SFLOAT", rng(1, 1, 1, 2), vkt.ComponentMapping{}, success},
		{"levels 1-2 of layer 0", vkt.ImageViewType2d, "R16G16_SFLOAT", rng(1, 2, 0, 1), vkt.ComponentMapping{}, success},
		{"another format of the size", vkt.ImageViewType2d, "R32_UINT", rng(0, 1, 2, 1), vkt.ComponentMapping{R: 3, G: 4, B: 5, A: 6}, success},
		{"levels of some layers", vkt.ImageViewType2dArray, "R16G16_SFLOAT", rng(0, 2, 1, 2), vkt.ComponentMapping{}, errValidationFailed},
		{"texels of another size", vkt.ImageViewType2d, "R8_UNORM", rng(0, 1, 0, 1), vkt.ComponentMapping{}, errValidationFailed},
		{"swizzle", vkt.ImageViewType2d, "R16G16_SFLOAT", rng(0, 1, 0, 1), vkt.ComponentMapping{R: 4}, errValidationFailed},
		{"cube of a 2D image", vkt.ImageViewTypeCube, "R16G16_SFLOAT", rng(0, 1, 0, 1), vkt.ComponentMapping{}, errValidationFailed},
		{"3D view", vkt.ImageViewType3d, "R16G16_SFLOAT", rng(0, 1, 0, 1), vkt.ComponentMapping{}, errValidationFailed},
		{"layers past the end", vkt.ImageViewType2dArray, "R16G16_SFLOAT", rng(0, 1, 2, 2), vkt.ComponentMapping{}, errValidationFailed},
	} {
		if r := view(c.vt, c.format, c.r, c.swz); r != c.want {
			t.Errorf("%s: result %d, want %d", c.name, r, c.want)
		}
	}
}

// Copies between buffers and images honour row lengths and image heights
// in the buffer; clears encode the color for the format; copies between
// images pair 3D slices with layers; a region outside its image fails the
// submission, naming the region.
func TestImageCommands(t *testing.T) {
	dev := newTestDevice(t)
	r8 := vkt.Format(vkFormat(t, "R8_UINT"))
	img, mem := testImage(t, dev, vkt.ImageCreateInfo{ImageType: vkt.ImageType2d, Format: r8, Extent: vkt.Extent3D{Width: 4, Height: 3, Depth: 1},
		MipLevels: 1, ArrayLayers: 2, Samples: 1, Usage: vkt.ImageUsageTransferDstBit | vkt.ImageUsageTransferSrcBit})
	vol, vmem := testImage(t, dev, vkt.ImageCreateInfo{ImageType: vkt.ImageType3d, Format: r8, Extent: vkt.Extent3D{Width: 4, Height: 3, Depth: 2},
		MipLevels: 1, ArrayLayers: 1, Samples: 1, Usage: vkt.ImageUsageTransferDstBit})
	var buf, bmem uint64
	bci := vkt.BufferCreateInfo{SType: vkt.StructureTypeBufferCreateInfo, Size: 64}
	CreateBuffer(dev, unsafe.Pointer(&bci), nil, unsafe.Pointer(&buf))
	ai := vkt.MemoryAllocateInfo{SType: vkt.StructureTypeMemoryAllocateInfo, AllocationSize: 64}
	AllocateMemory(dev, unsafe.Pointer(&ai), nil, unsafe.Pointer(&bmem))
	BindBufferMemory(dev, buf, bmem, 0)
	src := lookup[Memory](bmem).data
	for i := range src {
		src[i] = byte(i)
	}
	run := func(f func(cb uintptr)) error {
		var pool uint64
		var cb uintptr
		CreateCommandPool(dev, nil, nil, unsafe.Pointer(&pool))
		defer DestroyCommandPool(dev, pool, nil)
		AllocateCommandBuffers(dev, unsafe.Pointer(&vkt.CommandBufferAllocateInfo{SType: vkt.StructureTypeCommandBufferAllocateInfo,
			CommandPool: vkt.CommandPool(pool), CommandBufferCount: 1}), unsafe.Pointer(&cb))
		BeginCommandBuffer(cb, nil)
		f(cb)
		return lookupD[CommandBuffer](cb).replay()
	}
	sub := vkt.ImageSubresourceLayers{AspectMask: vkt.ImageAspectColorBit, LayerCount: 2}
	// A 2x2 box at (1, 1) of both layers from rows 3 bytes apart, slices
	// 9 bytes apart, starting at byte 5.
	err := run(func(cb uintptr) {
		r := vkt.BufferImageCopy{BufferOffset: 5, BufferRowLength: 3, BufferImageHeight: 3, ImageSubresource: sub,
			ImageOffset: vkt.Offset3D{X: 1, Y: 1}, ImageExtent: vkt.Extent3D{Width: 2, Height: 2, Depth: 1}}
		CmdCopyBufferToImage(cb, buf, img, 0, 1, unsafe.Pointer(&r))
	})
	want := []byte{
		0, 0, 0, 0, 0, 5, 6, 0, 0, 8, 9, 0, // layer 0
		0, 0, 0, 0, 0, 14, 15, 0, 0, 17, 18, 0, // layer 1
	}
	if err != nil || !bytes.Equal(mem.data[:24], want) {
		t.Fatalf("copy to the image: %v\n% d", err, mem.data[:24])
	}
	// Clear layer 1 to 7 and copy the whole image back to the buffer.
	err = run(func(cb uintptr) {
		c := [4]uint32{7}
		rg := vkt.ImageSubresourceRange{AspectMask: vkt.ImageAspectColorBit, LevelCount: 1, BaseArrayLayer: 1, LayerCount: 1}
		CmdClearColorImage(cb, img, 0, unsafe.Pointer(&c), 1, unsafe.Pointer(&rg))
		r := vkt.BufferImageCopy{ImageSubresource: sub, ImageExtent: vkt.Extent3D{Width: 4, Height: 3, Depth: 1}}
		CmdCopyImageToBuffer(cb, img, 0, buf, 1, unsafe.Pointer(&r))
	})
	copy(want[12:], bytes.Repeat([]byte{7}, 12))
	if err != nil || !bytes.Equal(src[:24], want) {
		t.Fatalf("clear and copy back: %v\n% d", err, src[:24])
	}
	// The two layers become the two depth slices of the 3D image.
	err = run(func(cb uintptr) {
		r := vkt.ImageCopy{SrcSubresource: sub, DstSubresource: vkt.ImageSubresourceLayers{AspectMask: vkt.ImageAspectColorBit, LayerCount: 1},
			Extent: vkt.Extent3D{Width: 4, Height: 3, Depth: 2}}
		CmdCopyImage(cb, img, 0, vol, 0, 1, unsafe.Pointer(&r))
	})
	if err != nil || !bytes.Equal(vmem.data[:24], want) {
		t.Fatalf("copy to the 3D image: %v\n% d", err, vmem.data[:24])
	}
	err = run(func(cb uintptr) {
		r := vkt.BufferImageCopy{ImageSubresource: sub, ImageOffset: vkt.Offset3D{X: 3}, ImageExtent: vkt.Extent3D{Width: 2, Height: 1, Depth: 1}}
		CmdCopyBufferToImage(cb, buf, img, 0, 1, unsafe.Pointer(&r))
	})
	if err == nil || !strings.Contains(err.Error(), "region 0") {
		t.Errorf("a region outside the image: %v", err)
	}
	err = run(func(cb uintptr) {
		r := vkt.BufferImageCopy{BufferOffset: 60, ImageSubresource: sub, ImageExtent: vkt.Extent3D{Width: 4, Height: 3, Depth: 1}}
		CmdCopyImageToBuffer(cb, img, 0, buf, 1, unsafe.Pointer(&r))
	})
	if err == nil || !strings.Contains(err.Error(), "outside the buffer") {
		t.Errorf("a region outside the buffer: %v", err)
	}
	var h uint64
	half := float32(0.5)
	sci := vkt.SamplerCreateInfo{SType: vkt.StructureTypeSamplerCreateInfo, MinLod: 1, MaxLod: half}
	if r := CreateSampler(dev, unsafe.Pointer(&sci), nil, unsafe.Pointer(&h)); r != errValidationFailed {
		t.Errorf("a sampler whose MinLod exceeds MaxLod: result %d", r)
	}
	sci.MaxLod, sci.MagFilter = math.MaxFloat32, vkt.FilterLinear
	if r := CreateSampler(dev, unsafe.Pointer(&sci), nil, unsafe.Pointer(&h)); r != success {
		t.Errorf("a linear sampler: result %d", r)
	}
}

// Image, sampler and texel buffer descriptors are written by
// vkUpdateDescriptorSets, copied, and written by update templates; a
// binding's immutable sampler is what a dispatch binds, whatever was
// written.
func TestImageDescriptors(t *testing.T) {
	dev := newTestDevice(t)
	img, _ := testImage(t, dev, vkt.ImageCreateInfo{ImageType: vkt.ImageType2d, Format: vkt.Format(vkFormat(t, "R32_SFLOAT")),
		Extent: vkt.Extent3D{Width: 2, Height: 2, Depth: 1}, MipLevels: 1, ArrayLayers: 1, Samples: 1, Usage: vkt.ImageUsageSampledBit})
	var view, smp, other, buf, bmem, bview uint64
	vci := vkt.ImageViewCreateInfo{SType: vkt.StructureTypeImageViewCreateInfo, Image: vkt.Image(img), ViewType: vkt.ImageViewType2d,
		Format: vkt.Format(vkFormat(t, "R32_SFLOAT")), SubresourceRange: vkt.ImageSubresourceRange{AspectMask: vkt.ImageAspectColorBit, LevelCount: 1, LayerCount: 1}}
	if r := CreateImageView(dev, unsafe.Pointer(&vci), nil, unsafe.Pointer(&view)); r != success {
		t.Fatalf("vkCreateImageView: %d", r)
	}
	sci := vkt.SamplerCreateInfo{SType: vkt.StructureTypeSamplerCreateInfo}
	CreateSampler(dev, unsafe.Pointer(&sci), nil, unsafe.Pointer(&smp))
	CreateSampler(dev, unsafe.Pointer(&sci), nil, unsafe.Pointer(&other))
	bci := vkt.BufferCreateInfo{SType: vkt.StructureTypeBufferCreateInfo, Size: 64}
	CreateBuffer(dev, unsafe.Pointer(&bci), nil, unsafe.Pointer(&buf))
	ai := vkt.MemoryAllocateInfo{SType: vkt.StructureTypeMemoryAllocateInfo, AllocationSize: 64}
	AllocateMemory(dev, unsafe.Pointer(&ai), nil, unsafe.Pointer(&bmem))
	BindBufferMemory(dev, buf, bmem, 0)
	bvci := vkt.BufferViewCreateInfo{SType: vkt.StructureTypeBufferViewCreateInfo, Buffer: vkt.Buffer(buf), Format: vkt.Format(vkFormat(t, "R32_UINT")),
		Offset: 16, Range: vkt.WholeSize}
	if r := CreateBufferView(dev, unsafe.Pointer(&bvci), nil, unsafe.Pointer(&bview)); r != success {
		t.Fatalf("vkCreateBufferView: %d", r)
	}
	bvci.Offset, bvci.Range = 16, 52
	var h uint64
	if r := CreateBufferView(dev, unsafe.Pointer(&bvci), nil, unsafe.Pointer(&h)); r != errValidationFailed {
		t.Errorf("a buffer view past the buffer's end: result %d", r)
	}

	bindings := []vkt.DescriptorSetLayoutBinding{
		{Binding: 0, DescriptorType: vkt.DescriptorTypeCombinedImageSampler, DescriptorCount: 1, PImmutableSamplers: unsafe.Pointer(&smp)},
		{Binding: 1, DescriptorType: vkt.DescriptorTypeStorageTexelBuffer, DescriptorCount: 1},
		{Binding: 2, DescriptorType: vkt.DescriptorTypeSampler, DescriptorCount: 1},
	}
	var layout, pool uint64
	var sets [2]uint64
	lci := vkt.DescriptorSetLayoutCreateInfo{SType: vkt.StructureTypeDescriptorSetLayoutCreateInfo, BindingCount: 3, PBindings: unsafe.Pointer(&bindings[0])}
	CreateDescriptorSetLayout(dev, unsafe.Pointer(&lci), nil, unsafe.Pointer(&layout))
	pci := vkt.DescriptorPoolCreateInfo{SType: vkt.StructureTypeDescriptorPoolCreateInfo, MaxSets: 2}
	CreateDescriptorPool(dev, unsafe.Pointer(&pci), nil, unsafe.Pointer(&pool))
	layouts := [2]uint64{layout, layout}
	dsai := vkt.DescriptorSetAllocateInfo{SType: vkt.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: vkt.DescriptorPool(pool),
		DescriptorSetCount: 2, PSetLayouts: unsafe.Pointer(&layouts[0])}
	if r := AllocateDescriptorSets(dev, unsafe.Pointer(&dsai), unsafe.Pointer(&sets[0])); r != success {
		t.Fatalf("vkAllocateDescriptorSets: %d", r)
	}
	// Set 0 by writes (the combined image sampler's sampler, other, is
	// ignored: the binding's is immutable), set 1 by a copy of binding 0
	// and a template for bindings 1 and 2.
	ii := vkt.DescriptorImageInfo{Sampler: vkt.Sampler(other), ImageView: vkt.ImageView(view)}
	si := vkt.DescriptorImageInfo{Sampler: vkt.Sampler(other)}
	tv := bview
	ws := []vkt.WriteDescriptorSet{
		{SType: vkt.StructureTypeWriteDescriptorSet, DstSet: vkt.DescriptorSet(sets[0]), DstBinding: 0, DescriptorCount: 1,
			DescriptorType: vkt.DescriptorTypeCombinedImageSampler, PImageInfo: unsafe.Pointer(&ii)},
		{SType: vkt.StructureTypeWriteDescriptorSet, DstSet: vkt.DescriptorSet(sets[0]), DstBinding: 1, DescriptorCount: 1,
			DescriptorType: vkt.DescriptorTypeStorageTexelBuffer, PTexelBufferView: unsafe.Pointer(&tv)},
		{SType: vkt.StructureTypeWriteDescriptorSet, DstSet: vkt.DescriptorSet(sets[0]), DstBinding: 2, DescriptorCount: 1,
			DescriptorType: vkt.DescriptorTypeSampler, PImageInfo: unsafe.Pointer(&si)},
	}
	cp := vkt.CopyDescriptorSet{SType: vkt.StructureTypeCopyDescriptorSet, SrcSet: vkt.DescriptorSet(sets[0]), DstSet: vkt.DescriptorSet(sets[1]), DescriptorCount: 1}
	UpdateDescriptorSets(dev, 3, unsafe.Pointer(&ws[0]), 1, unsafe.Pointer(&cp))
	data := struct {
		view uint64
		pad  uint64
		smp  vkt.DescriptorImageInfo
	}{view: bview, smp: si}
	entries := []vkt.DescriptorUpdateTemplateEntry{
		{DstBinding: 1, DescriptorCount: 1, DescriptorType: vkt.DescriptorTypeStorageTexelBuffer, Offset: 0, Stride: 8},
		{DstBinding: 2, DescriptorCount: 1, DescriptorType: vkt.DescriptorTypeSampler, Offset: 16, Stride: 24},
	}
	var tmpl uint64
	tci := vkt.DescriptorUpdateTemplateCreateInfo{SType: vkt.StructureTypeDescriptorUpdateTemplateCreateInfo, DescriptorUpdateEntryCount: 2,
		PDescriptorUpdateEntries: unsafe.Pointer(&entries[0])}
	CreateDescriptorUpdateTemplate(dev, unsafe.Pointer(&tci), nil, unsafe.Pointer(&tmpl))
	UpdateDescriptorSetWithTemplate(dev, sets[1], tmpl, unsafe.Pointer(&data))

	for i, h := range sets {
		cb := &CommandBuffer{}
		cb.sets[0] = &boundSet{set: lookup[DescriptorSet](h)}
		got := map[uint32]backend.Binding{}
		for _, c := range cb.capture() {
			b, err := c.d.binding()
			if err != nil {
				t.Fatalf("set %d, binding %d: %v", i, c.binding, err)
			}
			got[c.binding] = b
		}
		want := map[uint32]backend.Binding{
			0: {Kind: backend.CombinedImageSampler, Image: lookup[ImageView](view).ex, Sampler: lookup[Sampler](smp).ex},
			1: {Kind: backend.StorageTexelBuffer, Format: backend.FormatR32ui},
			2: {Kind: backend.SeparateSampler, Sampler: lookup[Sampler](other).ex},
		}
		if got[1].Buffer == nil || got[1].Buffer.Size() != 48 {
			t.Errorf("set %d: texel buffer %v", i, got[1].Buffer)
		}
		b1 := got[1]
		b1.Buffer = nil
		got[1] = b1
		if !reflect.DeepEqual(got, want) {
			t.Errorf("set %d: bindings\n%+v\nwant\n%+v", i, got, want)
		}
	}
	DestroyImageView(dev, view, nil)
	cb := &CommandBuffer{}
	cb.sets[0] = &boundSet{set: lookup[DescriptorSet](sets[0])}
	for _, c := range cb.capture() {
		if _, err := c.d.binding(); c.binding == 0 && err != errDestroyed {
			t.Errorf("a destroyed view: %v", err)
		}
	}
}

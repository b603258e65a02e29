package icd

import (
	"math/bits"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/icd/vkt"
)

// Image commands move bytes within memory laid out as in image.go. A
// region outside its image or buffer fails the submission (the device is
// lost, with the region named) rather than writing anywhere else.

// area is a box of texels of one level of an image: layers [layer,
// layer+layers), then (x, y, z) to (x+w, y+h, z+d).
type area struct {
	level, layer, layers int
	x, y, z, w, h, d     int
}

// slices is the number of w×h slices of the box (layers times depth).
func (a area) slices() int { return a.layers * a.d }

// area checks a subresource box against the image. A box of a 2D or 1D
// image has depth 1 whatever the extent says (copies between 3D images
// and arrays of 2D ones pair depth slices with layers).
func (im *Image) area(sub vkt.ImageSubresourceLayers, off vkt.Offset3D, ext vkt.Extent3D) (area, error) {
	var a area
	if uint64(sub.MipLevel) >= uint64(im.desc.Levels) {
		return a, errorf("level %d of an image of %d levels", sub.MipLevel, im.desc.Levels)
	}
	lc := uint64(sub.LayerCount)
	if sub.LayerCount == vkt.RemainingArrayLayers {
		lc = uint64(im.desc.Layers) - min(uint64(sub.BaseArrayLayer), uint64(im.desc.Layers))
	}
	if lc == 0 || uint64(sub.BaseArrayLayer)+lc > uint64(im.desc.Layers) {
		return a, errorf("layers %d to %d of an image of %d layers", sub.BaseArrayLayer, uint64(sub.BaseArrayLayer)+lc, im.desc.Layers)
	}
	depth := int64(ext.Depth)
	if im.desc.Dim != backend.Image3D {
		depth = 1
	}
	w, h, d := im.desc.LevelExtent(int(sub.MipLevel))
	if off.X < 0 || off.Y < 0 || off.Z < 0 || ext.Width == 0 || ext.Height == 0 || depth == 0 ||
		int64(off.X)+int64(ext.Width) > int64(w) || int64(off.Y)+int64(ext.Height) > int64(h) || int64(off.Z)+depth > int64(d) {
		return a, errorf("texels (%d, %d, %d) to (%d, %d, %d) of level %d, which is %dx%dx%d", off.X, off.Y, off.Z,
			int64(off.X)+int64(ext.Width), int64(off.Y)+int64(ext.Height), int64(off.Z)+depth, sub.MipLevel, w, h, d)
	}
	return area{level: int(sub.MipLevel), layer: int(sub.BaseArrayLayer), layers: int(lc),
		x: int(off.X), y: int(off.Y), z: int(off.Z), w: int(ext.Width), h: int(ext.Height), d: int(depth)}, nil
}

// rowOffset is the byte offset in the image's memory of row y of slice s
// of box a (at its x).
func (im *Image) rowOffset(a area, s, y int) int {
	w, h, d := im.desc.LevelExtent(a.level)
	layer, z := a.layer+s/a.d, a.z+s%a.d
	return im.desc.LevelOffset(a.level) + (((layer*d+z)*h+a.y+y)*w+a.x)*im.desc.Format.Info().Size
}

// bufferImage is one VkBufferImageCopy(2).
type bufferImage struct {
	off                    uint64
	rowLength, imageHeight uint32
	sub                    vkt.ImageSubresourceLayers
	ioff                   vkt.Offset3D
	ext                    vkt.Extent3D
}

// mul64 multiplies, false on overflow.
func mul64(a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	return lo, hi == 0
}

// copyBufferImage runs one region of vkCmdCopyBufferToImage (toImage) or
// vkCmdCopyImageToBuffer. The buffer holds the box's texels row by row,
// rowLength texels apart, and slice by slice (layers, or depth),
// imageHeight rows apart.
func copyBufferImage(buf *Buffer, im *Image, r bufferImage, toImage bool) error {
	a, err := im.area(r.sub, r.ioff, r.ext)
	if err != nil {
		return err
	}
	ts := uint64(im.desc.Format.Info().Size)
	rl, ih := uint64(r.rowLength), uint64(r.imageHeight)
	if rl == 0 {
		rl = uint64(a.w)
	}
	if ih == 0 {
		ih = uint64(a.h)
	}
	if rl < uint64(a.w) || ih < uint64(a.h) {
		return errorf("bufferRowLength %d and bufferImageHeight %d are less than the extent %dx%d", r.rowLength, r.imageHeight, a.w, a.h)
	}
	row, ok1 := mul64(rl, ts)
	slice, ok2 := mul64(row, ih)
	last, ok3 := mul64(slice, uint64(a.slices()-1))
	need := last + row*uint64(a.h-1) + uint64(a.w)*ts
	if !ok1 || !ok2 || !ok3 || need < last {
		return errorf("the region's buffer range overflows")
	}
	b, err := buf.bytesOf(r.off, need)
	if err != nil {
		return err
	}
	img, err := im.bytes()
	if err != nil {
		return err
	}
	n := a.w * int(ts)
	for s := 0; s < a.slices(); s++ {
		for y := 0; y < a.h; y++ {
			io, bo := im.rowOffset(a, s, y), uint64(s)*slice+uint64(y)*row
			if toImage {
				copy(img[io:io+n], b[bo:])
			} else {
				copy(b[bo:bo+uint64(n)], img[io:])
			}
		}
	}
	return nil
}

func recordBufferImage(commandBuffer uintptr, name string, buf *Buffer, im *Image, rs []bufferImage, toImage bool) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		return func(*replayState) error {
			if buf == nil || im == nil {
				return errorf("%s: not a buffer or not an image", name)
			}
			for i, r := range rs {
				if err := copyBufferImage(buf, im, r, toImage); err != nil {
					return errorf("%s: region %d: %v", name, i, err)
				}
			}
			return nil
		}
	})
}

func bufferImageRegions(p unsafe.Pointer, n uint32) []bufferImage {
	var rs []bufferImage
	for _, r := range array[vkt.BufferImageCopy](p, n) {
		rs = append(rs, bufferImage{uint64(r.BufferOffset), r.BufferRowLength, r.BufferImageHeight, r.ImageSubresource, r.ImageOffset, r.ImageExtent})
	}
	return rs
}

func bufferImageRegions2(p unsafe.Pointer, n uint32) []bufferImage {
	var rs []bufferImage
	for _, r := range array[vkt.BufferImageCopy2](p, n) {
		rs = append(rs, bufferImage{uint64(r.BufferOffset), r.BufferRowLength, r.BufferImageHeight, r.ImageSubresource, r.ImageOffset, r.ImageExtent})
	}
	return rs
}

func CmdCopyBufferToImage(commandBuffer uintptr, src, dst uint64, layout int32, count uint32, pRegions unsafe.Pointer) {
	recordBufferImage(commandBuffer, "vkCmdCopyBufferToImage", lookup[Buffer](src), lookup[Image](dst), bufferImageRegions(pRegions, count), true)
}

func CmdCopyImageToBuffer(commandBuffer uintptr, src uint64, layout int32, dst uint64, count uint32, pRegions unsafe.Pointer) {
	recordBufferImage(commandBuffer, "vkCmdCopyImageToBuffer", lookup[Buffer](dst), lookup[Image](src), bufferImageRegions(pRegions, count), false)
}

func CmdCopyBufferToImage2(commandBuffer uintptr, pInfo unsafe.Pointer) {
	if ci := (*vkt.CopyBufferToImageInfo2)(pInfo); ci != nil {
		recordBufferImage(commandBuffer, "vkCmdCopyBufferToImage2", lookup[Buffer](uint64(ci.SrcBuffer)), lookup[Image](uint64(ci.DstImage)),
			bufferImageRegions2(ci.PRegions, ci.RegionCount), true)
	}
}

func CmdCopyImageToBuffer2(commandBuffer uintptr, pInfo unsafe.Pointer) {
	if ci := (*vkt.CopyImageToBufferInfo2)(pInfo); ci != nil {
		recordBufferImage(commandBuffer, "vkCmdCopyImageToBuffer2", lookup[Buffer](uint64(ci.DstBuffer)), lookup[Image](uint64(ci.SrcImage)),
			bufferImageRegions2(ci.PRegions, ci.RegionCount), false)
	}
}

// imageCopy is one VkImageCopy(2).
type imageCopy struct {
	srcSub, dstSub vkt.ImageSubresourceLayers
	srcOff, dstOff vkt.Offset3D
	ext            vkt.Extent3D
}

// copyImage runs one region of vkCmdCopyImage: the formats' texels must
// have one size (Vulkan's size-compatible formats), and both boxes as many
// slices (a 3D image's depth slices pair with the other's layers).
func copyImage(src, dst *Image, r imageCopy) error {
	sa, err := src.area(r.srcSub, r.srcOff, r.ext)
	if err != nil {
		return errorf("source: %v", err)
	}
	da, err := dst.area(r.dstSub, r.dstOff, r.ext)
	if err != nil {
		return errorf("destination: %v", err)
	}
	ts := src.desc.Format.Info().Size
	if ts != dst.desc.Format.Info().Size {
		return errorf("the formats %v and %v have texels of different sizes", src.desc.Format, dst.desc.Format)
	}
	if sa.slices() != da.slices() {
		return errorf("%d source slices (layers or depth) and %d destination ones", sa.slices(), da.slices())
	}
	sb, err := src.bytes()
	if err != nil {
		return errorf("source: %v", err)
	}
	db, err := dst.bytes()
	if err != nil {
		return errorf("destination: %v", err)
	}
	n := sa.w * ts
	for s := 0; s < sa.slices(); s++ {
		for y := 0; y < sa.h; y++ {
			so, do := src.rowOffset(sa, s, y), dst.rowOffset(da, s, y)
			copy(db[do:do+n], sb[so:so+n])
		}
	}
	return nil
}

func recordCopyImage(commandBuffer uintptr, name string, src, dst *Image, rs []imageCopy) {
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		return func(*replayState) error {
			if src == nil || dst == nil {
				return errorf("%s: not an image", name)
			}
			for i, r := range rs {
				if err := copyImage(src, dst, r); err != nil {
					return errorf("%s: region %d: %v", name, i, err)
				}
			}
			return nil
		}
	})
}

func CmdCopyImage(commandBuffer uintptr, src uint64, srcLayout int32, dst uint64, dstLayout int32, count uint32, pRegions unsafe.Pointer) {
	var rs []imageCopy
	for _, r := range array[vkt.ImageCopy](pRegions, count) {
		rs = append(rs, imageCopy{r.SrcSubresource, r.DstSubresource, r.SrcOffset, r.DstOffset, r.Extent})
	}
	recordCopyImage(commandBuffer, "vkCmdCopyImage", lookup[Image](src), lookup[Image](dst), rs)
}

func CmdCopyImage2(commandBuffer uintptr, pInfo unsafe.Pointer) {
	ci := (*vkt.CopyImageInfo2)(pInfo)
	if ci == nil {
		return
	}
	var rs []imageCopy
	for _, r := range array[vkt.ImageCopy2](ci.PRegions, ci.RegionCount) {
		rs = append(rs, imageCopy{r.SrcSubresource, r.DstSubresource, r.SrcOffset, r.DstOffset, r.Extent})
	}
	recordCopyImage(commandBuffer, "vkCmdCopyImage2", lookup[Image](uint64(ci.SrcImage)), lookup[Image](uint64(ci.DstImage)), rs)
}

// recordClear records filling subresource ranges of an image with one
// texel value, encoded (as a shader's image write converts) when it runs.
func recordClear(commandBuffer uintptr, name string, image uint64, depth bool, value [4]uint32, count uint32, pRanges unsafe.Pointer) {
	im := lookup[Image](image)
	ranges := append([]vkt.ImageSubresourceRange(nil), array[vkt.ImageSubresourceRange](pRanges, count)...)
	record(commandBuffer, func(cb *CommandBuffer) func(*replayState) error {
		return func(*replayState) error {
			if im == nil {
				return errorf("%s: not an image", name)
			}
			if isDepth(im.desc.Format) != depth {
				return errorf("%s: an image of format %v", name, im.desc.Format)
			}
			mem, err := im.bytes()
			if err != nil {
				return errorf("%s: %v", name, err)
			}
			texel := make([]byte, im.desc.Format.Info().Size)
			exec.EncodeColor(im.desc.Format, texel, value)
			for i, r := range ranges {
				base, levels, layer, layers, ok := im.resolveRange(r)
				if !ok {
					return errorf("%s: range %d lies outside the image", name, i)
				}
				for l := base; l < base+levels; l++ {
					off := im.desc.LevelOffset(l) + layer*im.layerSize(l)
					fill(mem[off:off+layers*im.layerSize(l)], texel)
				}
			}
			return nil
		}
	})
}

// fill repeats texel over b (whose length is a multiple of it).
func fill(b, texel []byte) {
	if len(b) == 0 {
		return
	}
	n := copy(b, texel)
	for n < len(b) {
		n += copy(b[n:], b[:n])
	}
}

func CmdClearColorImage(commandBuffer uintptr, image uint64, layout int32, pColor unsafe.Pointer, count uint32, pRanges unsafe.Pointer) {
	var c [4]uint32
	if pColor != nil {
		c = *(*[4]uint32)(pColor) // VkClearColorValue: 16 bytes
	}
	recordClear(commandBuffer, "vkCmdClearColorImage", image, false, c, count, pRanges)
}

func CmdClearDepthStencilImage(commandBuffer uintptr, image uint64, layout int32, pValue unsafe.Pointer, count uint32, pRanges unsafe.Pointer) {
	var c [4]uint32
	if pValue != nil {
		c[0] = *(*uint32)(pValue) // VkClearDepthStencilValue: float depth, then stencil
	}
	recordClear(commandBuffer, "vkCmdClearDepthStencilImage", image, true, c, count, pRanges)
}

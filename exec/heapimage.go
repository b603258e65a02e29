package exec

import (
	"encoding/binary"
	"fmt"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// Image, texel buffer and sampler descriptors in descriptor heaps. Their
// first 8 bytes are a handle naming an image, buffer or sampler by the
// number the device gave it at creation (doc.go describes the bytes).
// Loading one from a heap checks it against the type loaded; image
// instructions resolve it to a view, cached per dispatch.

// Kinds of heap handles, in a handle's top byte. Handles of bound
// descriptors are small numbers (their top byte is 0).
const (
	hImage       = 0x81
	hTexelBuffer = 0x82
	hSampler     = 0x83
)

// heapHandle is the handle of a heap descriptor: kind in the top byte, a
// 24-bit parameter (an image view's base level, a texel buffer's format),
// the object's number in the low 32 bits.
func heapHandle(kind byte, param uint64, num uint32) uint64 {
	return uint64(kind)<<56 | param<<32 | uint64(num)
}

func descriptorOf(handles ...uint64) []byte {
	d := make([]byte, OpaqueDescriptorSize)
	for k, h := range handles {
		binary.LittleEndian.PutUint64(d[8*k:], h)
	}
	return d
}

// ImageDescriptor returns the heap descriptor of a view of an image of
// this executor that shows it from level baseLevel on: a sampled or
// storage image descriptor. It returns nil for an image of another device
// or a base level the image lacks.
func ImageDescriptor(img backend.Image, baseLevel int) []byte {
	h := imageHandle(img, baseLevel)
	if h == 0 {
		return nil
	}
	return descriptorOf(h)
}

// TexelBufferDescriptor returns the heap descriptor of a uniform or
// storage texel buffer: a buffer of this executor viewed with format f. It
// returns nil for a buffer of another device or a format the executor
// does not know.
func TexelBufferDescriptor(b backend.Buffer, f backend.Format) []byte {
	bb, ok := b.(*buffer)
	if !ok || bb == nil || f.Info() == nil {
		return nil
	}
	return descriptorOf(heapHandle(hTexelBuffer, uint64(f), uint32(bb.addr>>offBits&0xffff)))
}

// SamplerDescriptor returns the heap descriptor of a sampler of this
// executor, or nil for a sampler of another device.
func SamplerDescriptor(s backend.Sampler) []byte {
	h := samplerHandle(s)
	if h == 0 {
		return nil
	}
	return descriptorOf(h)
}

func imageHandle(img backend.Image, baseLevel int) uint64 {
	im, ok := img.(*image)
	if !ok || im == nil || baseLevel < 0 || baseLevel >= im.desc.Levels {
		return 0
	}
	return heapHandle(hImage, uint64(baseLevel), im.num)
}

func samplerHandle(s backend.Sampler) uint64 {
	ss, ok := s.(*sampler)
	if !ok || ss == nil {
		return 0
	}
	return heapHandle(hSampler, 0, ss.num)
}

// heapView resolves an image or texel buffer handle of a heap descriptor.
func (x *dispatchRun) heapView(h uint64) (*imgView, error) {
	if v, ok := x.heapViews.Load(h); ok {
		return v.(*imgView), nil
	}
	n, param := uint32(h), h>>32&0xffffff
	var v *imgView
	var err error
	switch h >> 56 {
	case hImage:
		if n == 0 || int(n) >= len(x.images) || x.images[n] == nil {
			return nil, fmt.Errorf("descriptor %#x names no image", h)
		}
		if v, err = newImageView(x.images[n], int(param)); err != nil {
			return nil, err
		}
		v.addr = addrOf(regHeapImg, uint64(n), 0)
	case hTexelBuffer:
		if n == 0 || int(n) >= len(x.bufs) || x.bufs[n] == nil {
			return nil, fmt.Errorf("texel buffer descriptor %#x names no buffer", h)
		}
		if v, err = newBufferView(x.bufs[n], backend.Format(param)); err != nil {
			return nil, err
		}
		v.addr = addrOf(regBuf, uint64(n), 0)
	default:
		return nil, fmt.Errorf("%#x is not an image or texel buffer descriptor", h)
	}
	x.heapViews.Store(h, v)
	return v, nil
}

// heapImage resolves the image handle h of a heap descriptor read as an
// image of type it, which the view must fit.
func (x *dispatchRun) heapImage(h uint64, it *imgType) (*imgView, error) {
	if h == 0 {
		return nil, fmt.Errorf("null image descriptor")
	}
	v, err := x.heapView(h)
	if err != nil {
		return nil, err
	}
	switch {
	case it.dim == spirv.DimBuffer && !v.buffer:
		return nil, fmt.Errorf("an image descriptor read as a texel buffer")
	case it.dim != spirv.DimBuffer && v.buffer:
		return nil, fmt.Errorf("a texel buffer descriptor read as a %v image", it.viewDim())
	}
	return v, checkView(it, v)
}

// heapSampler resolves the sampler handle h of a heap descriptor.
func (x *dispatchRun) heapSampler(h uint64) (*backend.SamplerDesc, error) {
	n := uint32(h)
	switch {
	case h == 0:
		return nil, fmt.Errorf("null sampler descriptor")
	case h>>56 != hSampler:
		return nil, fmt.Errorf("%#x is not a sampler descriptor", h)
	case n == 0 || int(n) >= len(x.smps) || x.smps[n] == nil:
		return nil, fmt.Errorf("sampler descriptor %#x names no sampler", h)
	}
	return &x.smps[n].desc, nil
}

// heapDescriptor checks the image, sampler or sampled image descriptor an
// OpLoad read from a heap at addr (its handles hs) against the type t
// loaded.
func (l *lane) heapDescriptor(in *instr, addr uint64, t *typ, hs []uint64) error {
	if t.kind != kSampler {
		if _, err := l.x.heapImage(hs[0], t.img); err != nil {
			return l.failAddr(in, addr, "%v", err)
		}
	}
	if t.kind != kImage {
		if _, err := l.x.heapSampler(hs[t.slots-1]); err != nil {
			return l.failAddr(in, addr, "%v", err)
		}
	}
	return nil
}

// isHandleType reports the types whose values are image or sampler
// handles.
func isHandleType(t *typ) bool {
	return t.kind == kImage || t.kind == kSampler || t.kind == kSampledImage
}

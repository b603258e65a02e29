package exec

import (
	"fmt"
	"sync"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// image is an image in host memory, laid out as backend.ImageDesc
// describes.
type image struct {
	mu       *sync.Mutex // the device's
	dev      *Device
	num      uint32 // the device's number for it
	desc     backend.ImageDesc
	data     []byte
	released bool
}

var _ backend.Image = (*image)(nil)

func (m *image) Desc() backend.ImageDesc { return m.desc }

func (m *image) Release() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.released {
		return
	}
	m.data, m.released = nil, true
	if d := m.dev; int(m.num) < len(d.images) && d.images[m.num] == m {
		d.images[m.num] = nil
		d.freeImages = append(d.freeImages, m.num)
	}
}

func (m *image) Write(off int, data []byte) error {
	if m.released {
		return fmt.Errorf("write to a released image")
	}
	if off < 0 || off > len(m.data) || len(data) > len(m.data)-off {
		return fmt.Errorf("write of %d bytes at offset %d outside an image of %d bytes", len(data), off, len(m.data))
	}
	copy(m.data[off:], data)
	return nil
}

func (m *image) Read(off int, data []byte) error {
	if m.released {
		return fmt.Errorf("read from a released image")
	}
	if off < 0 || off > len(m.data) || len(data) > len(m.data)-off {
		return fmt.Errorf("read of %d bytes at offset %d outside an image of %d bytes", len(data), off, len(m.data))
	}
	copy(data, m.data[off:])
	return nil
}

// ImageBytes exposes an image's memory (tests read results in place).
func ImageBytes(m backend.Image) []byte {
	if im, ok := m.(*image); ok {
		return im.data
	}
	return nil
}

// NewImage allocates a zeroed image.
func (d *Device) NewImage(desc backend.ImageDesc) (backend.Image, error) {
	if err := desc.Validate(); err != nil {
		return nil, err
	}
	return d.newImage(desc.Norm(), make([]byte, desc.Size()))
}

// NewImageOver makes an image whose memory is data itself (desc.Size()
// bytes), not a copy: a Vulkan driver binds images to ranges of memory
// objects, which the application also reaches by mapping them and by
// copies, and views a range of an image's levels and layers as an image
// of its own over part of that memory.
func (d *Device) NewImageOver(desc backend.ImageDesc, data []byte) (backend.Image, error) {
	if err := desc.Validate(); err != nil {
		return nil, err
	}
	if uint64(len(data)) != uint64(desc.Size()) {
		return nil, fmt.Errorf("%d bytes of memory for an image of %d bytes", len(data), desc.Size())
	}
	return d.newImage(desc.Norm(), data)
}

func (d *Device) newImage(desc backend.ImageDesc, data []byte) (backend.Image, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := &image{mu: &d.mu, dev: d, desc: desc, data: data}
	if n := len(d.freeImages); n > 0 {
		m.num = d.freeImages[n-1]
		d.freeImages = d.freeImages[:n-1]
		d.images[m.num] = m
		return m, nil
	}
	if len(d.images) >= 1<<16 {
		return nil, fmt.Errorf("too many images (at most %d live per device)", 1<<16-1)
	}
	m.num = uint32(len(d.images))
	d.images = append(d.images, m)
	return m, nil
}

type sampler struct {
	num  uint32 // the device's number for it
	desc backend.SamplerDesc
}

func (s *sampler) Desc() backend.SamplerDesc { return s.desc }
func (s *sampler) Release()                  {}

// NewSampler makes a sampler.
func (d *Device) NewSampler(desc backend.SamplerDesc) (backend.Sampler, error) {
	if err := desc.Validate(); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if uint64(len(d.samplers)) >= 1<<32-1 {
		return nil, fmt.Errorf("too many samplers")
	}
	s := &sampler{num: uint32(len(d.samplers)), desc: desc}
	d.samplers = append(d.samplers, s)
	return s, nil
}

// imgView is what one image descriptor shows a dispatch: an image from
// its base level on, or a texel buffer.
type imgView struct {
	// addr is the address of data's first byte (texel pointers add to it).
	addr   uint64
	data   []byte
	fi     *backend.FormatInfo
	desc   backend.ImageDesc // the image's (a texel buffer: Width texels)
	buffer bool
	base   int   // first level of the image the view shows
	levels int   // levels the view shows
	offs   []int // byte offset of each of the view's levels
}

// extent is the size of the view's level l.
func (v *imgView) extent(l int) (w, h, d int) { return v.desc.LevelExtent(v.base + l) }

// texelOff is the byte offset of a texel, every coordinate in range.
func (v *imgView) texelOff(l, x, y, z, layer, sample int) int {
	w, h, d := v.extent(l)
	n := ((((layer*d+z)*h+y)*w+x)*v.desc.Samples + sample)
	return v.offs[l] + n*v.fi.Size
}

func newImageView(img *image, base int) (*imgView, error) {
	if img.released {
		return nil, fmt.Errorf("the image was released")
	}
	if base >= img.desc.Levels {
		return nil, fmt.Errorf("base level %d of an image of %d levels", base, img.desc.Levels)
	}
	v := &imgView{data: img.data, fi: img.desc.Format.Info(), desc: img.desc, base: base, levels: img.desc.Levels - base}
	for l := 0; l < v.levels; l++ {
		v.offs = append(v.offs, img.desc.LevelOffset(base+l))
	}
	return v, nil
}

func newBufferView(b *buffer, f backend.Format) (*imgView, error) {
	fi := f.Info()
	if fi == nil {
		return nil, fmt.Errorf("texel buffer format %v is not supported", f)
	}
	if b.released {
		return nil, fmt.Errorf("the buffer was released")
	}
	n := len(b.data) / fi.Size
	if n == 0 {
		return nil, fmt.Errorf("a texel buffer of %d bytes holds no %v texel", len(b.data), f)
	}
	desc := backend.ImageDesc{Format: f, Dim: backend.Image1D, Width: n}.Norm()
	return &imgView{data: b.data, fi: fi, desc: desc, buffer: true, levels: 1, offs: []int{0}}, nil
}

// bindImages fills the dispatch's descriptor memory from the image,
// sampler and texel buffer bindings, checking each against the type of
// the variable it binds.
func (x *dispatchRun) bindImages(bindings []backend.Binding) error {
	p := x.p
	x.descMem = make([][]byte, len(p.imgDescs))
	for k, dv := range p.imgDescs {
		n := max(dv.count, 1)
		if dv.count < 0 {
			n = 0
			for _, b := range bindings {
				if b.Set == dv.set && b.Binding == dv.binding && !bufferKind(b.Kind) {
					n = max(n, int(b.ArrayElement)+1)
				}
			}
		}
		mem := make([]byte, n*dv.elem.size)
		x.descMem[k] = mem
		for _, b := range bindings {
			if b.Set != dv.set || b.Binding != dv.binding || bufferKind(b.Kind) {
				continue
			}
			if int(b.ArrayElement) >= n {
				return fmt.Errorf("binding (set %d, binding %d): element %d of an array of %d", b.Set, b.Binding, b.ArrayElement, n)
			}
			hs, err := x.handles(dv.elem, b)
			if err != nil {
				return fmt.Errorf("binding (set %d, binding %d, element %d): %v", b.Set, b.Binding, b.ArrayElement, err)
			}
			storeRec(dv.elem, mem, int(b.ArrayElement)*dv.elem.size, hs, matLayout{})
		}
	}
	return nil
}

// handles makes the view and sampler handles of binding b for a variable
// element of type t: 1 + the index in x.views or x.samplers.
func (x *dispatchRun) handles(t *typ, b backend.Binding) ([]uint64, error) {
	var img, smp uint64
	wantImg := t.kind != kSampler
	wantSmp := t.kind != kImage
	it := t.img
	switch {
	case it != nil && it.dim == spirv.DimBuffer:
		want := backend.UniformTexelBuffer
		if it.mode == 2 {
			want = backend.StorageTexelBuffer
		}
		if b.Kind != want && (it.mode != 0 || b.Kind != backend.StorageTexelBuffer) {
			return nil, fmt.Errorf("a %v bound to a texel buffer variable", b.Kind)
		}
	case t.kind == kSampledImage:
		if b.Kind != backend.CombinedImageSampler {
			return nil, fmt.Errorf("a %v bound to a sampled image variable (needs a combined image sampler)", b.Kind)
		}
	case t.kind == kSampler:
		if b.Kind != backend.SeparateSampler && b.Kind != backend.CombinedImageSampler {
			return nil, fmt.Errorf("a %v bound to a sampler variable", b.Kind)
		}
	case it.mode == 2 && b.Kind != backend.StorageImage,
		it.mode == 1 && b.Kind != backend.SampledImage && b.Kind != backend.CombinedImageSampler,
		it.mode == 0 && b.Kind != backend.StorageImage && b.Kind != backend.SampledImage && b.Kind != backend.CombinedImageSampler:
		return nil, fmt.Errorf("a %v bound to an image variable", b.Kind)
	}
	if wantImg {
		var v *imgView
		var err error
		if it.dim == spirv.DimBuffer {
			bb, ok := b.Buffer.(*buffer)
			if !ok || bb == nil {
				return nil, fmt.Errorf("not a buffer of this device")
			}
			v, err = newBufferView(bb, b.Format)
		} else {
			im, ok := b.Image.(*image)
			if !ok || im == nil {
				return nil, fmt.Errorf("not an image of this device")
			}
			v, err = newImageView(im, int(b.BaseLevel))
		}
		if err != nil {
			return nil, err
		}
		if err := checkView(it, v); err != nil {
			return nil, err
		}
		x.views = append(x.views, v)
		img = uint64(len(x.views))
		v.addr = addrOf(regImg, img, 0)
	}
	if wantSmp {
		s, ok := b.Sampler.(*sampler)
		if !ok || s == nil {
			return nil, fmt.Errorf("not a sampler of this device")
		}
		x.samplers = append(x.samplers, &s.desc)
		smp = uint64(len(x.samplers))
	}
	switch t.kind {
	case kImage:
		return []uint64{img}, nil
	case kSampler:
		return []uint64{smp}, nil
	}
	return []uint64{img, smp}, nil
}

// checkView reports a view that does not fit the image type the shader
// declares: Vulkan leaves such a dispatch undefined, so it is refused.
func checkView(it *imgType, v *imgView) error {
	if it.format != backend.FormatUndefined && it.format != v.desc.Format {
		return fmt.Errorf("the shader declares format %v, the image has %v", it.format, v.desc.Format)
	}
	if !v.buffer && it.viewDim() != v.desc.Dim {
		return fmt.Errorf("the shader declares a %v image, the image is %v", it.viewDim(), v.desc.Dim)
	}
	if !v.buffer && it.ms != (v.desc.Samples > 1) {
		return fmt.Errorf("the shader's multisampling (MS %v) does not match the image's %d samples", it.ms, v.desc.Samples)
	}
	if st := it.sampled; st.kind != kVoid && (st.kind == kFloat) != v.fi.IsFloat() {
		return fmt.Errorf("the shader reads %s texels, the image has format %v", map[bool]string{true: "float", false: "integer"}[st.kind == kFloat], v.desc.Format)
	}
	return nil
}

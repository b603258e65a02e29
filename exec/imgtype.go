package exec

import (
	"fmt"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// imgType is an OpTypeImage.
type imgType struct {
	sampled *typ // the component type texels are read as
	dim     spirv.Dim
	depth   uint32 // 0 not a depth image, 1 a depth image, 2 either
	arrayed bool
	ms      bool
	mode    uint32 // Sampled: 0 either, 1 sampled, 2 storage
	format  backend.Format
}

// spatial is the number of coordinate components that address texels
// within one layer (a cube's direction has three).
func (it *imgType) spatial() int {
	switch it.dim {
	case spirv.Dim1D, spirv.DimBuffer:
		return 1
	case spirv.Dim2D:
		return 2
	}
	return 3
}

// viewDim is the backend image dimensionality an image type views.
func (it *imgType) viewDim() backend.ImageDim {
	switch it.dim {
	case spirv.Dim1D:
		return backend.Image1D
	case spirv.Dim3D:
		return backend.Image3D
	case spirv.DimCube:
		return backend.ImageCube
	}
	return backend.Image2D
}

// declImageType fills t for OpTypeImage, OpTypeSampler and
// OpTypeSampledImage.
func (p *prog) declImageType(i int, t *typ, w []uint32) error {
	switch p.m.Insts[i].Op {
	case spirv.OpTypeSampler:
		t.kind, t.slots = kSampler, 1
		return nil
	case spirv.OpTypeSampledImage:
		if len(w) < 2 {
			return p.errAt(i, "missing image type")
		}
		it, err := p.typeArg(i, w[1])
		if err != nil {
			return err
		}
		if it.kind != kImage {
			return p.errAt(i, "%%%d is not an image type", w[1])
		}
		t.kind, t.slots, t.elem, t.img = kSampledImage, 2, it, it.img
		return nil
	}
	if len(w) < 8 {
		return p.errAt(i, "OpTypeImage needs 8 operands")
	}
	st, err := p.typeArg(i, w[1])
	if err != nil {
		return err
	}
	it := &imgType{sampled: st, dim: spirv.Dim(w[2]), depth: w[3], arrayed: w[4] != 0, ms: w[5] != 0, mode: w[6]}
	t.kind, t.slots, t.img = kImage, 1, it
	switch {
	case st.kind != kInt && st.kind != kFloat && st.kind != kVoid:
		return p.errAt(i, "image sampled type %%%d is not a scalar number", w[1])
	case it.dim > spirv.DimCube && it.dim != spirv.DimBuffer:
		p.unsupport(i, fmt.Sprintf("images of dimensionality %d", it.dim))
	}
	if w[7] != 0 {
		if it.format = backend.FormatOfSPIRV(w[7]); it.format == backend.FormatUndefined {
			p.unsupport(i, fmt.Sprintf("image format %d", w[7]))
		}
	}
	return nil
}

// imageElem reports whether t is an image, sampler or sampled image, or an
// array (sized or runtime) of one, and gives the element type and count
// (0 for one, -1 for a runtime array).
func imageElem(t *typ) (*typ, int, bool) {
	switch t.kind {
	case kImage, kSampler, kSampledImage:
		return t, 0, true
	case kArray:
		if e, n, ok := imageElem(t.elem); ok && n == 0 {
			return e, t.count, true
		}
	case kRuntimeArray:
		if e, n, ok := imageElem(t.elem); ok && n == 0 {
			return e, -1, true
		}
	}
	return nil, 0, false
}

// imgDesc is a UniformConstant (or TileAttachmentQCOM) variable of image,
// sampler or sampled image type, or an array of them. Its pointer is an
// address in the dispatch's descriptor memory: region regDesc, index its
// place in prog.imgDescs; each element holds its handles (8 bytes per
// handle) there.
type imgDesc struct {
	set, binding uint32
	id           uint32
	elem         *typ
	count        int // 0 for one descriptor, -1 for a runtime array
}

// declImageVar declares a descriptor variable of image-like type t.
func (p *prog) declImageVar(i int, s int32, id uint32, t *typ, d *deco) error {
	elem, n, _ := imageElem(t)
	if d.set < 0 || d.binding < 0 {
		p.unsupport(i, "an image variable without DescriptorSet/Binding")
		return nil
	}
	if len(p.imgDescs) >= 1<<16 {
		return p.errAt(i, "too many image descriptors")
	}
	p.tmpl[s] = addrOf(regDesc, uint64(len(p.imgDescs)), 0)
	p.imgDescs = append(p.imgDescs, imgDesc{set: uint32(d.set), binding: uint32(d.binding), id: id, elem: elem, count: n})
	return nil
}

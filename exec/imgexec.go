package exec

import (
	"math"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// imageRegion returns the n bytes at an address in image descriptor
// memory (read only) or in an image's texels. The null texel, where
// out-of-bounds texel pointers point, reads as zero and drops writes.
func (l *lane) imageRegion(in *instr, addr uint64, n int, write bool) ([]byte, error) {
	idx := (addr >> offBits) & 0xffff
	off := addr & (1<<offBits - 1)
	var b []byte
	switch {
	case l.x == nil:
		return nil, l.failAddr(in, addr, "address is in no buffer")
	case addr>>56 == regDesc:
		if write {
			return nil, l.failAddr(in, addr, "store to an image descriptor")
		}
		if idx >= uint64(len(l.x.descMem)) {
			return nil, l.failAddr(in, addr, "address is in no buffer")
		}
		b = l.x.descMem[idx]
	case addr>>56 == regHeapImg:
		if idx == 0 || idx >= uint64(len(l.x.images)) || l.x.images[idx] == nil {
			return nil, l.failAddr(in, addr, "address is in no image")
		}
		b = l.x.images[idx].data
	case idx == 0:
		if n > len(l.nullTexel) {
			return nil, l.failAddr(in, addr, "access of %d bytes to a texel", n)
		}
		l.nullTexel = [8]byte{}
		return l.nullTexel[:n], nil
	default:
		if idx > uint64(len(l.x.views)) {
			return nil, l.failAddr(in, addr, "address is in no image")
		}
		b = l.x.views[idx-1].data
	}
	if off > uint64(len(b)) || uint64(n) > uint64(len(b))-off {
		return nil, l.failAddr(in, addr, "out-of-bounds access of %d bytes (region of %d bytes)", n, len(b))
	}
	return b[off : off+uint64(n)], nil
}

func (l *lane) view(in *instr, h uint64) (*imgView, error) {
	if h>>56 != 0 {
		v, err := l.x.heapView(h)
		if err != nil {
			return nil, l.fail(in, "%v", err)
		}
		return v, nil
	}
	if h == 0 || h > uint64(len(l.x.views)) {
		return nil, l.fail(in, "the image descriptor is not bound")
	}
	return l.x.views[h-1], nil
}

func (l *lane) samplerOf(in *instr, h uint64) (*backend.SamplerDesc, error) {
	if h>>56 != 0 {
		s, err := l.x.heapSampler(h)
		if err != nil {
			return nil, l.fail(in, "%v", err)
		}
		return s, nil
	}
	if h == 0 || h > uint64(len(l.x.samplers)) {
		return nil, l.fail(in, "the sampler descriptor is not bound")
	}
	return l.x.samplers[h-1], nil
}

// floats reads n components of a float (or integer) value.
func (l *lane) floats(s int32, t *typ, n int) []float64 {
	ct := t.comp()
	out := make([]float64, n)
	for k := range out {
		v := l.regs[s+int32(k)]
		if ct.kind == kFloat {
			out[k] = toF64(v, ct.ff)
		} else {
			out[k] = float64(sext(v, ct.width))
		}
	}
	return out
}

// ints reads n components of an integer value, sign-extended.
func (l *lane) ints(s int32, t *typ, n int) []int64 {
	ct := t.comp()
	out := make([]int64, n)
	for k := range out {
		out[k] = sext(l.regs[s+int32(k)], ct.width)
	}
	return out
}

// operandF reads a float or integer scalar operand's value.
func (l *lane) operandF(s int32, t *typ) float64 { return l.floats(s, t, 1)[0] }

// imageExec runs an image instruction for one invocation (implicit-LOD
// ones, which need the derivatives of a quad, go through
// imageImplicitExec).
func (l *lane) imageExec(in *instr) error {
	if in.op == spirv.OpImageSparseTexelsResident {
		// Every texel is resident: the residency code is always 0.
		l.regs[in.res] = b2u(l.regs[in.a[0]] == 0)
		return nil
	}
	o := in.aux.(*imgOp)
	switch in.op {
	case spirv.OpImageTexelPointer, spirv.OpUntypedImageTexelPointerEXT:
		return l.texelPointer(in, o)
	case spirv.OpImageQuerySize, spirv.OpImageQuerySizeLod, spirv.OpImageQueryLevels, spirv.OpImageQuerySamples:
		return l.imageQuery(in, o)
	case spirv.OpImageRead, spirv.OpImageSparseRead, spirv.OpImageFetch, spirv.OpImageSparseFetch:
		return l.imageLoad(in, o)
	case spirv.OpImageWrite:
		return l.imageWrite(in, o)
	}
	return l.imageSample(in, o, nil)
}

// texelCoords splits integer coordinates into x, y, z and layer for an
// image of type it (a cube's third coordinate is its face-layer).
func texelCoords(it *imgType, c []int64) (x, y, z, layer int64) {
	switch it.dim {
	case spirv.Dim1D, spirv.DimBuffer:
		x = c[0]
		if it.arrayed {
			layer = c[1]
		}
	case spirv.Dim2D:
		x, y = c[0], c[1]
		if it.arrayed {
			layer = c[2]
		}
	case spirv.Dim3D:
		x, y, z = c[0], c[1], c[2]
	case spirv.DimCube:
		x, y, layer = c[0], c[1], c[2]
	}
	return
}

// texelOffset finds the texel at integer coordinates: ok is false when it
// lies outside the view (level, layer, sample included).
func texelOffset(v *imgView, it *imgType, c []int64, level, sample int64) (int, bool) {
	x, y, z, layer := texelCoords(it, c)
	if level < 0 || level >= int64(v.levels) || sample < 0 || sample >= int64(v.desc.Samples) {
		return 0, false
	}
	w, h, d := v.extent(int(level))
	layers := int64(v.desc.Layers)
	if !it.arrayed && it.dim != spirv.DimCube {
		layers = 1
	} else if !it.arrayed {
		layers = min(layers, 6)
	}
	if x < 0 || y < 0 || z < 0 || layer < 0 || x >= int64(w) || y >= int64(h) || z >= int64(d) || layer >= layers {
		return 0, false
	}
	return v.texelOff(int(level), int(x), int(y), int(z), int(layer), int(sample)), true
}

// coordCount is the number of integer coordinates an image type takes.
func coordCount(it *imgType) int {
	if it.dim == spirv.DimCube {
		return 3
	}
	return it.spatial() + b2i(it.arrayed)
}

// texelPointer runs OpImageTexelPointer and OpUntypedImageTexelPointerEXT:
// the image descriptor is in descriptor memory or, through an untyped
// pointer, in a heap.
func (l *lane) texelPointer(in *instr, o *imgOp) error {
	at := l.regs[o.ptr]
	b, err := l.region(in, at, 8, false)
	if err != nil {
		return err
	}
	h := rdScalar(&typ{kind: kImage}, b)
	var v *imgView
	if at>>56 == regDesc {
		v, err = l.view(in, h)
	} else if v, err = l.x.heapImage(h, o.it); err != nil {
		err = l.failAddr(in, at, "%v", err)
	}
	if err != nil {
		return err
	}
	if et := o.texT; et.bytes() != v.fi.Size {
		return l.fail(in, "a pointer to %d-byte texels into an image of format %v", et.bytes(), v.desc.Format)
	}
	c := l.ints(o.coord, o.coordT, coordCount(o.it))
	off, ok := texelOffset(v, o.it, c, 0, sext(l.regs[o.sample], 32))
	if !ok {
		l.regs[in.res] = addrOf(regImg, 0, 0)
		return nil
	}
	l.regs[in.res] = v.addr + uint64(off)
	return nil
}

func (l *lane) imageQuery(in *instr, o *imgOp) error {
	v, err := l.view(in, l.regs[o.img])
	if err != nil {
		return err
	}
	d := l.regs[in.res : in.res+int32(in.t.slots)]
	m := mask(in.t.comp().width)
	switch in.op {
	case spirv.OpImageQueryLevels:
		d[0] = uint64(v.levels) & m
		return nil
	case spirv.OpImageQuerySamples:
		d[0] = uint64(v.desc.Samples) & m
		return nil
	}
	level := int64(0)
	if o.lod >= 0 {
		level = sext(l.regs[o.lod], 32)
	}
	var size []int
	if level >= 0 && level < int64(v.levels) {
		w, h, z := v.extent(int(level))
		switch o.it.dim {
		case spirv.Dim1D, spirv.DimBuffer:
			size = []int{w}
		case spirv.Dim2D, spirv.DimCube:
			size = []int{w, h}
		default:
			size = []int{w, h, z}
		}
		if o.it.arrayed {
			n := v.desc.Layers
			if o.it.dim == spirv.DimCube {
				n /= 6
			}
			size = append(size, n)
		}
	}
	// A level outside the view gives zeros (Vulkan leaves it undefined).
	for k := range d {
		d[k] = 0
		if k < len(size) {
			d[k] = uint64(size[k]) & m
		}
	}
	return nil
}

// imageLoad runs OpImageRead and OpImageFetch (and their sparse forms):
// texels outside the view read as zero, converted as the format converts
// (so a missing alpha is 1).
func (l *lane) imageLoad(in *instr, o *imgOp) error {
	v, err := l.view(in, l.regs[o.img])
	if err != nil {
		return err
	}
	c := l.ints(o.coord, o.coordT, coordCount(o.it))
	if o.off >= 0 {
		d := l.ints(o.off, o.offT, o.offT.slots)
		for k := 0; k < len(d) && k < o.it.spatial(); k++ {
			c[k] += d[k]
		}
	}
	level, sample := int64(0), int64(0)
	if o.lod >= 0 {
		level = sext(l.regs[o.lod], 32)
	}
	if o.sample >= 0 {
		sample = sext(l.regs[o.sample], 32)
	}
	var tx texel
	if off, ok := texelOffset(v, o.it, c, level, sample); ok {
		tx = decodeTexel(v.fi, v.data[off:])
	} else {
		var zero [8 * 4]byte
		tx = decodeTexel(v.fi, zero[:])
	}
	if o.sext || o.zext {
		for k, n := range v.fi.Bits {
			if n == 0 || v.fi.IsFloat() {
				continue
			}
			if o.sext {
				tx.u[k] = uint64(sext(tx.u[k], int(n)))
			} else {
				tx.u[k] &= mask(int(n))
			}
		}
	}
	return l.putTexel(in, o, v, tx)
}

// putTexel writes a texel into the result (after the residency code of a
// sparse result).
func (l *lane) putTexel(in *instr, o *imgOp, v *imgView, tx texel) error {
	rt := o.res
	ct := rt.comp()
	if (ct.kind == kFloat) != v.fi.IsFloat() {
		return l.fail(in, "the result's numeric type does not match the image format %v", v.desc.Format)
	}
	if o.sparse {
		l.regs[in.res] = 0
	}
	d := l.regs[in.res+o.resOff : in.res+o.resOff+int32(rt.slots)]
	for k := range d {
		if ct.kind == kFloat {
			d[k] = fround(float64(tx.f[k]), ct.ff)
			if ct.ff == f32 {
				d[k] = uint64(math.Float32bits(tx.f[k])) // keeps NaN payloads
			}
		} else {
			d[k] = tx.u[k] & mask(ct.width)
		}
	}
	return nil
}

// imageWrite runs OpImageWrite: writes outside the view are dropped.
func (l *lane) imageWrite(in *instr, o *imgOp) error {
	v, err := l.view(in, l.regs[o.img])
	if err != nil {
		return err
	}
	c := l.ints(o.coord, o.coordT, coordCount(o.it))
	sample := int64(0)
	if o.sample >= 0 {
		sample = sext(l.regs[o.sample], 32)
	}
	off, ok := texelOffset(v, o.it, c, 0, sample)
	if !ok {
		return nil
	}
	ct := o.texT.comp()
	if (ct.kind == kFloat) != v.fi.IsFloat() {
		return l.fail(in, "the texel's numeric type does not match the image format %v", v.desc.Format)
	}
	tx := texel{f: [4]float32{0, 0, 0, 1}, u: [4]uint64{0, 0, 0, 1}}
	for k := 0; k < o.texT.slots && k < 4; k++ {
		x := l.regs[o.texel+int32(k)]
		switch {
		case ct.kind == kFloat && ct.ff == f32:
			tx.f[k] = math.Float32frombits(uint32(x))
		case ct.kind == kFloat:
			tx.f[k] = float32(toF64(x, ct.ff))
		case ct.signed || o.sext:
			tx.u[k] = uint64(sext(x, ct.width))
		default:
			tx.u[k] = x
		}
	}
	encodeTexel(v.fi, v.data[off:], tx)
	return nil
}

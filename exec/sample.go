package exec

import (
	"math"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// Sampling follows the Vulkan specification's texel operations: cube face
// selection, scaling to texel space, array layer RNE(a) clamped to the
// layers, level of detail from the Lod operand or from the derivatives of
// the coordinates (ρ = max of the x and y derivative lengths in texels,
// λ = log2 ρ, plus the sampler's and the operand's bias, clamped by the
// sampler's MinLod/MaxLod and the MinLod operand), mipmap selection,
// address modes, nearest and linear filtering with 8-bit subtexel
// weights. The choices Vulkan leaves open are listed in doc.go.

// maxLodBias is maxSamplerLodBias: the sum of the sampler's and the
// operand's bias is clamped to it.
const maxLodBias = 16

// grads are the derivatives of the (spatial) coordinates along x and y.
type grads struct{ dx, dy []float64 }

// sval is a filtered value: floats for float formats (and depth
// comparisons), integers for integer formats.
type sval struct {
	f [4]float64
	u [4]uint64
}

// sampling is what one sampling instruction works with.
type sampling struct {
	v     *imgView
	s     *backend.SamplerDesc
	it    *imgType
	c     []float64 // spatial coordinates (a cube's direction), then the array layer
	off   [3]int64
	dref  bool
	ref   float64
	isInt bool
}

// cubeFace selects the face of direction r: the major axis (z, then y,
// then x on ties), the face's s and t coordinates in [0, 1] and the
// derivatives of s and t for the coordinate derivatives dr (nil: none).
func cubeFace(r []float64, drs ...[]float64) (face int, s, t float64, ds, dt []float64) {
	ax, ay, az := math.Abs(r[0]), math.Abs(r[1]), math.Abs(r[2])
	var mi, si, ti int
	var ss, ts float64
	switch {
	case az >= ax && az >= ay:
		mi, si, ti, ts = 2, 0, 1, -1
		face, ss = 4, 1
		if r[2] < 0 {
			face, ss = 5, -1
		}
	case ay >= ax:
		mi, si, ti, ss = 1, 0, 2, 1
		face, ts = 2, 1
		if r[1] < 0 {
			face, ts = 3, -1
		}
	default:
		mi, si, ti, ts = 0, 2, 1, -1
		face, ss = 0, -1
		if r[0] < 0 {
			face, ss = 1, 1
		}
	}
	ma, sc, tc := r[mi], ss*r[si], ts*r[ti]
	am := math.Abs(ma)
	s, t = 0.5*sc/am+0.5, 0.5*tc/am+0.5
	for _, dr := range drs {
		dma := dr[mi]
		if ma < 0 {
			dma = -dma
		}
		dsc, dtc := ss*dr[si], ts*dr[ti]
		ds = append(ds, 0.5*(float64(dsc*am)-float64(sc*dma))/(ma*ma))
		dt = append(dt, 0.5*(float64(dtc*am)-float64(tc*dma))/(ma*ma))
	}
	return
}

// rho is the larger of the lengths of the x and y derivatives of the
// coordinates in texels of the view's base level.
func (sp *sampling) rho(g *grads) float64 {
	w, h, d := sp.v.extent(0)
	size := []float64{float64(w), float64(h), float64(d)}
	n := sp.it.spatial()
	dx, dy := g.dx, g.dy
	if sp.it.dim == spirv.DimCube {
		_, _, _, ds, dt := cubeFace(sp.c, g.dx, g.dy)
		dx, dy = []float64{ds[0], dt[0]}, []float64{ds[1], dt[1]}
		n = 2
	}
	var rx, ry float64
	for k := 0; k < n; k++ {
		rx += float64((dx[k] * size[k]) * (dx[k] * size[k]))
		ry += float64((dy[k] * size[k]) * (dy[k] * size[k]))
	}
	return math.Sqrt(max(rx, ry))
}

// lambdaPrime is λ' = λ_base + clamp(sampler bias + operand bias).
func (sp *sampling) lambdaPrime(base, bias float64) float64 {
	return base + min(max(float64(sp.s.MipLodBias)+bias, -maxLodBias), maxLodBias)
}

// lambda clamps λ' by the sampler's LOD range and the MinLod operand.
func (sp *sampling) lambda(lp, minLod float64) float64 {
	lo := max(float64(sp.s.MinLod), minLod)
	return min(max(lp, lo), float64(sp.s.MaxLod))
}

// sample filters the view at level of detail λ (NaN: the base level with
// the magnification filter, for unnormalized samplers).
func (sp *sampling) sample(lam float64) sval {
	filter := sp.s.MagFilter
	if lam > 0 {
		filter = sp.s.MinFilter
	}
	if sp.isInt {
		filter = backend.FilterNearest
	}
	q := float64(sp.v.levels - 1)
	dp := min(max(lam, 0), q)
	if lam != lam {
		dp = 0
	}
	if sp.s.Mipmap == backend.MipmapNearest || sp.isInt {
		d := 0
		if dp > 0.5 {
			d = int(math.Ceil(dp+0.5)) - 1
		}
		return sp.level(d, filter)
	}
	hi := math.Floor(dp)
	lo := math.Min(hi+1, q)
	delta := dp - hi
	a := sp.level(int(hi), filter)
	if delta == 0 {
		return a
	}
	b := sp.level(int(lo), filter)
	for k := range a.f {
		a.f[k] = float64((1-delta)*a.f[k]) + float64(delta*b.f[k])
	}
	return a
}

// place is where sampling happens within a level: the texel-space
// coordinates of the filtered axes, the layer and the level's size.
type place struct {
	x     [3]float64
	axes  int
	layer int
	size  [3]int
	modes [3]backend.AddressMode
	level int
}

// at maps the coordinates into texel space of level lv.
func (sp *sampling) at(lv int) place {
	v, it, s := sp.v, sp.it, sp.s
	w, h, d := v.extent(lv)
	pl := place{size: [3]int{w, h, d}, modes: [3]backend.AddressMode{s.AddressU, s.AddressV, s.AddressW}, level: lv}
	c := sp.c
	n := it.spatial()
	var st []float64
	if it.dim == spirv.DimCube {
		face, fs, ft, _, _ := cubeFace(c)
		st = []float64{fs, ft}
		pl.axes = 2
		pl.modes = [3]backend.AddressMode{backend.AddressClampToEdge, backend.AddressClampToEdge}
		cubes := max(v.desc.Layers/6, 1)
		pl.layer = face
		if it.arrayed {
			pl.layer += 6 * int(min(max(math.RoundToEven(c[3]), 0), float64(cubes-1)))
		}
	} else {
		st = c[:n]
		pl.axes = n
		if it.arrayed {
			pl.layer = int(min(max(math.RoundToEven(c[n]), 0), float64(v.desc.Layers-1)))
		}
	}
	for k := 0; k < pl.axes; k++ {
		if s.Unnormalized {
			pl.x[k] = st[k]
		} else {
			pl.x[k] = st[k] * float64(pl.size[k])
		}
	}
	return pl
}

// wrap applies an address mode to texel index i of an axis of n texels;
// ok is false for a border texel.
func wrap(i int64, n int, m backend.AddressMode) (int64, bool) {
	s := int64(n)
	mirror := func(a int64) int64 {
		if a >= 0 {
			return a
		}
		return -(1 + a)
	}
	switch m {
	case backend.AddressRepeat:
		return ((i % s) + s) % s, true
	case backend.AddressMirroredRepeat:
		t := ((i % (2 * s)) + 2*s) % (2 * s)
		return (s - 1) - mirror(t-s), true
	case backend.AddressClampToEdge:
		return min(max(i, 0), s-1), true
	case backend.AddressMirrorClampToEdge:
		return min(max(mirror(i), 0), s-1), true
	}
	return i, i >= 0 && i < s
}

// fetch reads texel (i, j, k) of a place, wrapped, or the border color;
// with a depth comparison the texel is replaced by the comparison's 0 or 1.
func (sp *sampling) fetch(pl *place, idx [3]int64) sval {
	v := sp.v
	var tx texel
	in := true
	for a := 0; a < pl.axes; a++ {
		var ok bool
		idx[a], ok = wrap(idx[a], pl.size[a], pl.modes[a])
		in = in && ok
	}
	if in {
		off := v.texelOff(pl.level, int(idx[0]), int(idx[1]), int(idx[2]), pl.layer, 0)
		tx = decodeTexel(v.fi, v.data[off:])
	} else {
		tx = borderTexel(sp.s.Border, v.fi)
	}
	var r sval
	for k := range r.f {
		r.f[k] = float64(tx.f[k])
	}
	r.u = tx.u
	if sp.dref {
		r.f[0] = b2f(compare(sp.s.CompareOp, sp.ref, r.f[0]))
	}
	return r
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// borderTexel is a sampler's border color as a texel of format fi:
// components the format lacks are replaced as texel reads replace them
// (0 for green and blue, 1 for alpha).
func borderTexel(b backend.BorderColor, fi *backend.FormatInfo) texel {
	var v float32
	var a float32
	switch b {
	case backend.BorderFloatOpaqueBlack, backend.BorderIntOpaqueBlack:
		a = 1
	case backend.BorderFloatOpaqueWhite, backend.BorderIntOpaqueWhite:
		v, a = 1, 1
	}
	t := texel{f: [4]float32{v, v, v, a}, u: [4]uint64{uint64(v), uint64(v), uint64(v), uint64(a)}}
	for k, n := range fi.Bits {
		if n == 0 {
			t.f[k], t.u[k] = 0, 0
			if k == 3 {
				t.f[k], t.u[k] = 1, 1
			}
		}
	}
	return t
}

// compare is a depth comparison: ref OP texel.
func compare(op backend.CompareOp, ref, d float64) bool {
	switch op {
	case backend.CompareLess:
		return ref < d
	case backend.CompareEqual:
		return ref == d
	case backend.CompareLessOrEqual:
		return ref <= d
	case backend.CompareGreater:
		return ref > d
	case backend.CompareNotEqual:
		return ref != d
	case backend.CompareGreaterOrEqual:
		return ref >= d
	case backend.CompareAlways:
		return true
	}
	return false
}

// subtexel rounds a linear filter weight to 8 fractional bits.
func subtexel(a float64) float64 { return math.Round(a*256) / 256 }

// level filters level lv with filter f.
func (sp *sampling) level(lv int, f backend.Filter) sval {
	pl := sp.at(lv)
	if f == backend.FilterNearest {
		var idx [3]int64
		for a := 0; a < pl.axes; a++ {
			idx[a] = int64(math.Floor(pl.x[a])) + sp.off[a]
		}
		return sp.fetch(&pl, idx)
	}
	var i0 [3]int64
	var alpha [3]float64
	for a := 0; a < pl.axes; a++ {
		u := pl.x[a] - 0.5
		fl := math.Floor(u)
		i0[a] = int64(fl) + sp.off[a]
		alpha[a] = subtexel(u - fl)
	}
	var r sval
	// Corners in order: i fastest, then j, then k; zero weights are
	// skipped, so a texel that does not count cannot spread a NaN.
	for c := 0; c < 1<<pl.axes; c++ {
		wt := 1.0
		idx := i0
		for a := 0; a < pl.axes; a++ {
			if c>>a&1 != 0 {
				idx[a]++
				wt *= alpha[a]
			} else {
				wt *= 1 - alpha[a]
			}
		}
		if wt == 0 {
			continue
		}
		t := sp.fetch(&pl, idx)
		for k := range r.f {
			r.f[k] += float64(wt * t.f[k])
		}
	}
	return r
}

// gather returns component comp (or the comparison) of the four texels
// of the 2x2 footprint at the base level, in the order (i0, j1),
// (i1, j1), (i1, j0), (i0, j0); with four offsets each texel takes its own.
func (sp *sampling) gather(comp int, offs *[4][3]int64) sval {
	pl := sp.at(0)
	var r sval
	corner := [4][2]int64{{0, 1}, {1, 1}, {1, 0}, {0, 0}}
	for k, cn := range corner {
		off := sp.off
		if offs != nil {
			off = offs[k]
		}
		var idx [3]int64
		for a := 0; a < 2; a++ {
			idx[a] = int64(math.Floor(pl.x[a]-0.5)) + off[a] + cn[a]
		}
		t := sp.fetch(&pl, idx)
		if sp.dref {
			comp = 0
		}
		r.f[k], r.u[k] = t.f[comp], t.u[comp]
	}
	return r
}

// imageSample runs the sampling, gather and LOD query instructions; g
// holds the coordinates' derivatives for implicit LOD.
func (l *lane) imageSample(in *instr, o *imgOp, g *grads) error {
	v, err := l.view(in, l.regs[o.img])
	if err != nil {
		return err
	}
	s, err := l.samplerOf(in, l.regs[o.img+1])
	if err != nil {
		return err
	}
	it := o.it
	if it.dim == spirv.DimBuffer || v.desc.Samples > 1 {
		return l.fail(in, "texel buffers and multisampled images cannot be sampled")
	}
	n := it.spatial() + b2i(it.arrayed)
	sp := &sampling{v: v, s: s, it: it, isInt: !v.fi.IsFloat()}
	sp.c = l.floats(o.coord, o.coordT, n+b2i(o.proj))
	if o.dref >= 0 {
		if !s.Compare {
			return l.fail(in, "a depth-comparison instruction with a sampler that does not compare")
		}
		if sp.isInt {
			return l.fail(in, "depth comparison on the integer format %v", v.desc.Format)
		}
		sp.dref, sp.ref = true, l.operandF(o.dref, o.drefT)
	}
	if o.proj {
		q := sp.c[n]
		for k := 0; k < it.spatial(); k++ {
			sp.c[k] /= q
		}
		sp.ref /= q
		sp.c = sp.c[:n]
	}
	if sp.dref && v.fi.Kind == backend.UNorm {
		sp.ref = min(max(sp.ref, 0), 1)
	}
	if o.off >= 0 {
		d := l.ints(o.off, o.offT, o.offT.slots)
		copy(sp.off[:], d)
	}
	switch in.op {
	case spirv.OpImageGather, spirv.OpImageDrefGather, spirv.OpImageSparseGather, spirv.OpImageSparseDrefGather:
		if it.dim != spirv.Dim2D && it.dim != spirv.DimCube {
			return l.fail(in, "gather needs a 2D or cube image")
		}
		comp := 0
		if o.comp >= 0 {
			comp = int(l.regs[o.comp] & 3)
		}
		var offs *[4][3]int64
		if o.offs >= 0 {
			offs = new([4][3]int64)
			et := o.offsT.elem
			for k := range offs {
				copy(offs[k][:], l.ints(o.offs+int32(k*et.slots), et, et.slots))
			}
		}
		return l.putSample(in, o, v, sp.gather(comp, offs))
	}
	var lp float64
	switch {
	case s.Unnormalized:
		return l.putSample(in, o, v, sp.sample(math.NaN()))
	case o.lod >= 0:
		lp = sp.lambdaPrime(l.operandF(o.lod, o.lodT), 0)
	default:
		if o.gradX >= 0 {
			g = &grads{l.floats(o.gradX, o.gradT, it.spatial()), l.floats(o.gradY, o.gradT, it.spatial())}
		}
		if g == nil {
			return l.fail(in, "no level of detail (Lod or Grad operand)")
		}
		bias := 0.0
		if o.bias >= 0 {
			bias = l.operandF(o.bias, o.biasT)
		}
		lp = sp.lambdaPrime(math.Log2(sp.rho(g)), bias)
	}
	minLod := math.Inf(-1)
	if o.minLod >= 0 {
		minLod = l.operandF(o.minLod, o.minLodT)
	}
	lam := sp.lambda(lp, minLod)
	if in.op == spirv.OpImageQueryLod {
		d := l.regs[in.res : in.res+int32(in.t.slots)]
		ff := in.t.comp().ff
		d[0] = fround(min(max(lam, 0), float64(v.levels-1)), ff)
		if len(d) > 1 {
			d[1] = fround(lp, ff)
		}
		return nil
	}
	return l.putSample(in, o, v, sp.sample(lam))
}

// putSample writes a sampled value, rounded once to the result type.
func (l *lane) putSample(in *instr, o *imgOp, v *imgView, r sval) error {
	rt := o.res
	ct := rt.comp()
	if (ct.kind == kFloat) != (v.fi.IsFloat() || o.dref >= 0) {
		return l.fail(in, "the result's numeric type does not match the image format %v", v.desc.Format)
	}
	if o.sparse {
		l.regs[in.res] = 0
	}
	d := l.regs[in.res+o.resOff : in.res+o.resOff+int32(rt.slots)]
	for k := range d {
		if ct.kind == kFloat {
			d[k] = fround(r.f[k], ct.ff)
		} else {
			d[k] = r.u[k] & mask(ct.width)
		}
	}
	return nil
}

// imageImplicitExec runs an implicit-LOD instruction for the whole
// workgroup: each invocation's level of detail comes from the coarse
// derivatives of the coordinates over its quad (as OpDPdx and OpDPdy
// compute them).
func imageImplicitExec(in *instr, act []*lane) error {
	o := in.aux.(*imgOp)
	p := act[0].p
	n := o.it.spatial()
	coords := make([][]float64, len(act))
	for j, l := range act {
		c := l.floats(o.coord, o.coordT, n+b2i(o.it.arrayed)+b2i(o.proj))
		if o.proj {
			q := c[len(c)-1]
			for k := 0; k < n; k++ {
				c[k] /= q
			}
		}
		coords[j] = c
	}
	for _, l := range act {
		q, _ := quadOf(p, l)
		for _, k := range q {
			if k >= len(act) {
				return l.fail(in, "the workgroup size does not divide into derivative quads")
			}
		}
		g := &grads{make([]float64, n), make([]float64, n)}
		for k := 0; k < n; k++ {
			g.dx[k] = coords[q[1]][k] - coords[q[0]][k]
			g.dy[k] = coords[q[2]][k] - coords[q[0]][k]
		}
		if err := l.imageSample(in, o, g); err != nil {
			return err
		}
	}
	return nil
}

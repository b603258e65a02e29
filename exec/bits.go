package exec

import "github.com/coopshader/coop/spirv"

// Values narrower than a byte (the 4- and 6-bit floats of
// SPV_EXT_ocp_microscaling_types) take one slot each like every scalar;
// where their bits are reinterpreted, a composite's components form one
// little-endian bit stream, component 0 in the lowest bits.

// bitWidth is the number of bits of a scalar or pointer.
func bitWidth(t *typ) int {
	if t.kind == kPointer {
		return 64
	}
	return t.width
}

// repack reinterprets src, components of sw bits, as components of dw
// bits, through the bit stream they make.
func repack(dst []uint64, dw int, src []uint64, sw int) {
	clear(dst)
	for k, v := range src {
		v &= mask(sw)
		pos, left := k*sw, sw
		for left > 0 && pos/dw < len(dst) {
			off := pos % dw
			n := min(dw-off, left)
			dst[pos/dw] |= (v & mask(n)) << off
			v >>= n
			pos += n
			left -= n
		}
	}
}

// bitcastExtract is OpBitcastExtractEXT: each result component is the
// bits [off, off+width) of the base component, the bits past the base's
// width (where the specification leaves the result undefined) reading 0.
func bitcastExtract(d, base []uint64, bw, dw int, off uint64) {
	for k := range d {
		v := uint64(0)
		if off < uint64(bw) {
			v = base[k] & mask(bw) >> off
		}
		d[k] = v & mask(dw)
	}
}

// repackShape reports an OpBitcast between integer or float scalars and
// vectors of different plain component widths (unpack8, pack16 and the
// like), which the vector and row handlers run as repack does: the
// widths and component counts of source and result.
func repackShape(in *instr) (sw, dw, ns, nd int, ok bool) {
	if in.op != spirv.OpBitcast || len(in.a) != 1 || in.t == nil || in.at == nil {
		return 0, 0, 0, 0, false
	}
	ct, act := in.t.comp(), in.at.comp()
	plain := func(t *typ) bool { return (t.kind == kInt || t.kind == kFloat) && plainWidth(t.width) }
	sw, dw, ns, nd = act.width, ct.width, in.at.slots, in.t.slots
	ok = plain(ct) && plain(act) && sw != dw && ns*sw == nd*dw &&
		(in.t.kind == kVector || in.t == ct) && (in.at.kind == kVector || in.at == act)
	return sw, dw, ns, nd, ok
}

// vRepack is the vector handler of repackShape's bitcasts.
func vRepack(sg []*lane, in *instr) bool {
	sw, dw, ns, nd, _ := repackShape(in)
	for _, l := range sg {
		r := l.regs
		repack(r[in.res:in.res+int32(nd)], dw, r[in.a[0]:in.a[0]+int32(ns)], sw)
	}
	return true
}

// rRepack is repackShape's bitcasts on rows: each wide component split
// into narrow ones, or made of them, low bits first.
func rRepack(m *sgMeta, in *instr) bool {
	sw, dw, ns, nd, _ := repackShape(in)
	if sw > dw {
		parts, mk := sw/dw, mask(dw)
		for k := 0; k < ns; k++ {
			a := m.arg(in.a[0]+int32(k), 0)
			if a == nil {
				return false
			}
			for j := 0; j < parts; j++ {
				d := m.row(in.res + int32(k*parts+j))
				a, sh := a[:len(d)], uint(j*dw)
				for i := range d {
					d[i] = a[i] >> sh & mk
				}
			}
		}
		return true
	}
	parts, mk := dw/sw, mask(sw)
	for k := 0; k < nd; k++ {
		d := m.row(in.res + int32(k))
		for j := 0; j < parts; j++ {
			a := m.arg(in.a[0]+int32(k*parts+j), 0)
			if a == nil {
				return false
			}
			a, sh := a[:len(d)], uint(j*sw)
			if j == 0 {
				for i := range d {
					d[i] = a[i] & mk
				}
				continue
			}
			for i := range d {
				d[i] |= (a[i] & mk) << sh
			}
		}
	}
	return true
}

// ptrCast reports an OpBitcast from or to a pointer that keeps its 64
// bits (pointer to pointer, pointer and 64-bit integer): a copy.
func ptrCast(in *instr) bool {
	if in.op != spirv.OpBitcast || len(in.a) != 1 || in.t == nil || in.at == nil || in.t.slots != 1 || in.at.slots != 1 {
		return false
	}
	if in.t.kind != kPointer && in.at.kind != kPointer {
		return false
	}
	w := func(t *typ) bool { return t.kind == kPointer || t.kind == kInt && t.width == 64 }
	return w(in.t) && w(in.at)
}

// vPtrCast is ptrCast's bitcast.
func vPtrCast(sg []*lane, in *instr) bool {
	d, s := in.res, in.a[0]
	for _, l := range sg {
		l.regs[d] = l.regs[s]
	}
	return true
}

// rPtrCast is ptrCast's bitcast on rows.
func rPtrCast(m *sgMeta, in *instr) bool {
	a := m.arg(in.a[0], 0)
	if a == nil {
		return false
	}
	copy(m.row(in.res), a)
	return true
}

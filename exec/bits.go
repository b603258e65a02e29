package exec

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

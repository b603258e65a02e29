//go:build amd64 && !purego

package exec

//go:noescape
func widen32AVX2(d *uint64, b *byte, n int)

// load32s reads d's values from the consecutive little-endian 32-bit
// words at the start of b: eight at a time with AVX2 (widen_amd64.s),
// the rest as load32sGo does.
func load32s(d []uint64, b []byte) {
	if n := len(d) &^ 7; n > 0 && hasF16C {
		b = b[:4*len(d)]
		widen32AVX2(&d[0], &b[0], n)
		d, b = d[n:], b[4*n:]
	}
	load32sGo(d, b)
}

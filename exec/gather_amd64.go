//go:build amd64 && !purego

package exec

//go:noescape
func gather32(d *uint64, b *byte, dx, n int)

//go:noescape
func gather16(d *uint64, b *byte, dx, n int)

// loadStrided reads d's values of n bytes (2 or 4) from b at o, o+dx,
// ... with gather_amd64.s's loops, which check no bounds: the first and
// last addresses are checked here (those between lie between them);
// false, having read nothing, for other widths or addresses outside b.
func loadStrided(d []uint64, b []byte, o, dx, n int64) bool {
	if len(d) == 0 {
		return true
	}
	last := o + dx*int64(len(d)-1)
	if o < 0 || last < 0 || o+n > int64(len(b)) || last+n > int64(len(b)) {
		return false
	}
	switch n {
	case 4:
		gather32(&d[0], &b[o], int(dx), len(d))
	case 2:
		gather16(&d[0], &b[o], int(dx), len(d))
	default:
		return false
	}
	return true
}

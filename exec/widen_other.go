//go:build !amd64 || purego

package exec

// load32s reads d's values from the consecutive little-endian 32-bit
// words at the start of b.
func load32s(d []uint64, b []byte) { load32sGo(d, b) }

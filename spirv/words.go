package spirv

import "encoding/binary"

// AppendWords appends words to b as little-endian bytes: a module's exact
// bytes as a map key (string(AppendWords(nil, words))), which the map
// compares in full, so caches keyed by a module need no cryptographic
// hash (and programs need not link one: its package init runs in every
// start of coop).
func AppendWords(b []byte, words []uint32) []byte {
	b = append(b, make([]byte, 4*len(words))...)
	out := b[len(b)-4*len(words):]
	for i, w := range words {
		binary.LittleEndian.PutUint32(out[4*i:], w)
	}
	return b
}

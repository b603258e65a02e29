package spirv

import (
	"encoding/binary"
	"io"
)

// WriteWords writes words to w as little-endian bytes, a chunk at a time:
// hashing a module for a cache key this way costs one Write per 4 KiB, not
// one per word.
func WriteWords(w io.Writer, words []uint32) error {
	b := make([]byte, 4*min(len(words), 1024))
	for len(words) > 0 {
		n := min(len(words), len(b)/4)
		for i, x := range words[:n] {
			binary.LittleEndian.PutUint32(b[4*i:], x)
		}
		if _, err := w.Write(b[:4*n]); err != nil {
			return err
		}
		words = words[n:]
	}
	return nil
}

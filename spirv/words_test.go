package spirv

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// TestWriteWords: the chunked writer gives every word's little-endian
// bytes in order, across chunk boundaries.
func TestWriteWords(t *testing.T) {
	for _, n := range []int{0, 1, 1023, 1024, 1025, 3000} {
		words := make([]uint32, n)
		var want []byte
		for i := range words {
			words[i] = uint32(i)*2654435761 + 7
			want = binary.LittleEndian.AppendUint32(want, words[i])
		}
		var got bytes.Buffer
		if err := WriteWords(&got, words); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("%d words: bytes differ", n)
		}
	}
}

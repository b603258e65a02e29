package spirv

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// TestAppendWords: every word's little-endian bytes in order, after
// what b held.
func TestAppendWords(t *testing.T) {
	for _, n := range []int{0, 1, 1023, 3000} {
		words := make([]uint32, n)
		want := []byte{9}
		for i := range words {
			words[i] = uint32(i)*2654435761 + 7
			want = binary.LittleEndian.AppendUint32(want, words[i])
		}
		if got := AppendWords([]byte{9}, words); !bytes.Equal(got, want) {
			t.Fatalf("%d words: bytes differ", n)
		}
	}
}

package exec

import (
	"math"
	"testing"
)

// TestHalfTable checks the bit-moving half table against the general decoder
// for every half, NaN payloads included.
func TestHalfTable(t *testing.T) {
	loadF16Table()
	for i := 0; i < 1<<16; i++ {
		want := math.Float32bits(float32(toF64slow(uint64(i), f16)))
		if got := math.Float32bits(f16Table[i]); got != want {
			t.Fatalf("half %#04x: got %#08x, want %#08x", i, got, want)
		}
	}
}

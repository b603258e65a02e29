package num

import (
	"math"
	"testing"
)

// NaN constants encode as quiet NaNs, not as a finite neighbour.
func TestEncodeNaNAndInfinity(t *testing.T) {
	tests := []struct {
		f        float64
		exp, man int
		ieee     bool
		want     uint64
	}{
		{math.NaN(), 5, 10, true, 0x7e00},
		{math.Inf(1), 5, 10, true, 0x7c00},
		{math.Inf(-1), 5, 2, true, 0xfc},
		{math.NaN(), 4, 3, false, 0x7f},
		{math.Inf(1), 4, 3, false, 0x7f},
		{448, 4, 3, false, 0x7e},
	}
	for _, tc := range tests {
		if got := Encode(tc.f, tc.exp, tc.man, tc.ieee); got != tc.want {
			t.Errorf("Encode(%v, %d, %d) = %#x, want %#x", tc.f, tc.exp, tc.man, got, tc.want)
		}
	}
}

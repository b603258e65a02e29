package exec

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLoad32s: load32s (the AVX2 kernel where there is one) reads what
// the portable loop reads, for every length and alignment.
func TestLoad32s(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 4200)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	for n := 0; n <= 70; n++ {
		for o := range 5 {
			want, got := make([]uint64, n), make([]uint64, n+1)
			got[n] = 42
			load32sGo(want, b[o:])
			load32s(got[:n], b[o:])
			if !slices.Equal(got[:n], want) || got[n] != 42 {
				t.Fatalf("n %d offset %d: %x, want %x", n, o, got, want)
			}
		}
	}
	want, got := make([]uint64, 1000), make([]uint64, 1000)
	load32sGo(want, b[3:])
	load32s(got, b[3:])
	if !slices.Equal(got, want) {
		t.Fatal("1000 values differ")
	}
}

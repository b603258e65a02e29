package exec

import (
	"encoding/binary"
	"testing"
)

// TestLoadRunStrided compares loadRun (with loadStrided's loops where
// there are) with reading each word on its own, for 2- and 4-byte words
// at strides up, down and none, every length up to 70, and checks that
// loadStrided declines addresses outside the buffer.
func TestLoadRunStrided(t *testing.T) {
	b := make([]byte, 16384)
	for i := range b {
		b[i] = byte(i*7 + i>>8)
	}
	for _, n := range []int64{2, 4} {
		for _, dx := range []int64{-128, -6, -4, -2, 0, 2, 3, 4, 6, 32, 128} {
			for l := 0; l <= 70; l++ {
				o := int64(0)
				if dx < 0 {
					o = -dx * int64(max(l-1, 0))
				}
				got := make([]uint64, l)
				loadRun(got, b, o, dx, n)
				for j := range got {
					p := b[o+int64(j)*dx:]
					want := uint64(binary.LittleEndian.Uint16(p))
					if n == 4 {
						want = uint64(binary.LittleEndian.Uint32(p))
					}
					if got[j] != want {
						t.Fatalf("n %d dx %d len %d: d[%d] = %#x, want %#x", n, dx, l, j, got[j], want)
					}
				}
			}
		}
		d := make([]uint64, 8)
		for _, c := range []struct{ o, dx int64 }{{-1, 4}, {0, -4}, {16384 - n + 1, -4}, {16384 - 7*128 - n + 1, 128}} {
			if loadStrided(d, b, c.o, c.dx, n) {
				t.Errorf("n %d: loadStrided at %d step %d past the buffer's %d bytes did not decline", n, c.o, c.dx, len(b))
			}
		}
	}
}

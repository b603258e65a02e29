package exec

import (
	"fmt"
	"testing"
)

// specBlockedBytes lays a matrix out the way SPV_ARM_cooperative_matrix_layouts
// describes it, walking memory forward: blocks of 4 rows and 16/es columns
// in row- or column-major block order, S consecutive blocks interleaved 4
// bytes at a time. It returns, for every byte of memory, the element
// (r*C + c) and the byte within it that lands there.
func specBlockedBytes(col bool, S, R, C, es int) [][2]int {
	bc := 16 / es
	br, bcs := R/4, C/bc // blocks down and across
	// block returns the element rows and columns block b covers.
	block := func(b int) (r0, c0 int) {
		if col {
			return b % br * 4, b / br * bc
		}
		return b / bcs * 4, b % bcs * bc
	}
	var mem [][2]int
	for g := 0; g < br*bcs/S; g++ {
		for unit := 0; unit < 16; unit++ { // 4-byte units of a 64-byte block
			for i := 0; i < S; i++ {
				r0, c0 := block(g*S + i)
				for k := 0; k < 4; k++ {
					w := unit*4 + k // byte within the block, row-major elements
					e := w / es
					mem = append(mem, [2]int{(r0+e/bc)*C + c0 + e%bc, w % es})
				}
			}
		}
	}
	return mem
}

func TestBlockedLayoutAddressing(t *testing.T) {
	for _, col := range []bool{false, true} {
		for _, es := range []int{1, 2, 4, 8} {
			for _, S := range []int{1, 2, 4} {
				bc := 16 / es
				R, C := 4, bc*S*2
				if col {
					R, C = 4*S*2, bc*3
				}
				bl := blockedLayout{col: col, groups: S}
				name := fmt.Sprintf("col=%v es=%d S=%d %dx%d", col, es, S, R, C)
				if !bl.fits(R, C, es) {
					t.Fatalf("%s: does not fit", name)
				}
				mem := specBlockedBytes(col, S, R, C, es)
				if len(mem) != R*C*es {
					t.Fatalf("%s: %d bytes laid out, want %d", name, len(mem), R*C*es)
				}
				for off, eb := range mem {
					r, c := eb[0]/C, eb[0]%C
					if got := bl.byteAt(r, c, eb[1], R, C, es); got != off {
						t.Fatalf("%s: byte %d of (%d, %d) at %d, the specification puts it at %d", name, eb[1], r, c, got, off)
					}
				}
			}
		}
	}
	for _, c := range []struct {
		col        bool
		S, R, C, e int
	}{
		{false, 1, 6, 4, 4}, {false, 2, 4, 4, 4}, {true, 2, 4, 4, 4}, {true, 1, 4, 6, 2}, {false, 1, 4, 2, 3},
	} {
		if (blockedLayout{col: c.col, groups: c.S}).fits(c.R, c.C, c.e) {
			t.Errorf("%+v fits", c)
		}
	}
}

package exec

import "github.com/coopshader/coop/spirv"

// The blocked, interleaved cooperative matrix layouts of
// SPV_ARM_cooperative_matrix_layouts. A matrix of E-byte elements is cut
// into blocks of 4 rows and 16/E columns (64 bytes), each stored
// row-major; blocks follow each other in row-major (RowBlockedInterleaved)
// or column-major (ColumnBlockedInterleaved) order over the matrix. The
// Stride operand S (1, 2 or 4) groups S consecutive blocks and interleaves
// them 4 bytes at a time: byte w of block b is at
//
//	(b/S)*64*S + ((w/4)*S + b%S)*4 + w%4
//
// from the pointer, so the matrix takes exactly R*C*E bytes.

// blockedLayout is a blocked layout and its interleave factor.
type blockedLayout struct {
	col    bool // column-major order of blocks
	groups int  // S
}

// blockedOf recognises the two layouts.
func blockedOf(lay uint64) (blockedLayout, bool) {
	switch spirv.CooperativeMatrixLayout(lay) {
	case spirv.CooperativeMatrixLayoutRowBlockedInterleavedARM:
		return blockedLayout{}, true
	case spirv.CooperativeMatrixLayoutColumnBlockedInterleavedARM:
		return blockedLayout{col: true}, true
	}
	return blockedLayout{}, false
}

// fits checks the extension's validation rules for an R x C matrix of
// es-byte elements: the block size divides the matrix, with whole groups
// of S blocks along the blocks' order.
func (bl blockedLayout) fits(R, C, es int) bool {
	if es > 16 || 16%es != 0 {
		return false
	}
	bc := 16 / es
	if bl.col {
		return R%(4*bl.groups) == 0 && C%bc == 0
	}
	return R%4 == 0 && C%(bc*bl.groups) == 0
}

// byteAt is the offset of byte k of element (r, c).
func (bl blockedLayout) byteAt(r, c, k, R, C, es int) int {
	bc := 16 / es
	var b int
	if bl.col {
		b = c/bc*(R/4) + r/4
	} else {
		b = r/4*(C/bc) + c/bc
	}
	w := (r%4*bc+c%bc)*es + k
	s := bl.groups
	return b/s*64*s + (w/4*s+b%s)*4 + w%4
}

// blockedCopy moves an R x C matrix (row-major bits in tile) between tile
// and the R*C*es bytes of b.
func (bl blockedLayout) blockedCopy(ct *typ, b []byte, tile []uint64, R, C int, load bool) {
	es := ct.bytes()
	var el [8]byte
	for r := 0; r < R; r++ {
		for c := 0; c < C; c++ {
			if !load {
				wrScalar(ct, el[:], tile[r*C+c])
			}
			// An element lies in one 4-byte unit unless it is 8 bytes wide.
			for k := 0; k < es; k += 4 {
				n := min(es-k, 4)
				off := bl.byteAt(r, c, k, R, C, es)
				if load {
					copy(el[k:k+n], b[off:off+n])
				} else {
					copy(b[off:off+n], el[k:k+n])
				}
			}
			if load {
				tile[r*C+c] = rdScalar(ct, el[:])
			}
		}
	}
}

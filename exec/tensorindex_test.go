package exec

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// TestTensorIndices checks the counter of tensorIndices (and its runs
// along the innermost dimension) against tensorElement, element by
// element, on random layouts: every clamp mode, spans, offsets wrapping
// at 32 bits, blocks and strides.
func TestTensorIndices(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	modes := []spirv.TensorClampMode{spirv.TensorClampModeUndefined, spirv.TensorClampModeConstant,
		spirv.TensorClampModeClampToEdge, spirv.TensorClampModeRepeat, spirv.TensorClampModeRepeatMirrored}
	for it := 0; it < 3000; it++ {
		D := 1 + r.IntN(5)
		lt := &tensorInfo{dim: D, clamp: modes[r.IntN(len(modes))]}
		L := make([]uint64, 5*D+1)
		for d := 0; d < D; d++ {
			L[lt.block()+d] = uint64(r.IntN(4))
			L[lt.ldim()+d] = uint64(1 + r.IntN(9))
			L[lt.stride()+d] = uint64(r.IntN(1000))
			L[lt.offset()+d] = uint64(r.IntN(12))
			if r.IntN(8) == 0 {
				L[lt.offset()+d] = uint64(uint32(-r.IntN(5)))
			}
			L[lt.span()+d] = uint64(r.IntN(7))
			if it%2 == 0 {
				// Long runs inside the tensor.
				L[lt.ldim()+d] = uint64(1 + r.IntN(64))
				L[lt.span()+d] = uint64(r.IntN(40))
			}
		}
		R, C := 1+r.IntN(16), 1+r.IntN(16)
		store := r.IntN(2) == 0
		idxs := make([]int64, R*C)
		coords := make([]uint64, R*C*2*D)
		tensorIndices(lt, L, nil, nil, R, C, store, idxs, coords)
		// Without coordinates, the indices alone (their own loop).
		bare := make([]int64, R*C)
		tensorIndices(lt, L, nil, nil, R, C, store, bare, nil)
		if !slices.Equal(bare, idxs) {
			t.Fatalf("layout %v, %dx%d: indices without coordinates %v, with %v", L, R, C, bare, idxs)
		}
		var bc, ib [5]uint64
		for e := range idxs {
			idx, skip, clamped := tensorElement(lt, L, nil, nil, uint64(e/C), uint64(e%C), uint64(C), store, bc[:], ib[:])
			want := int64(idx)
			switch {
			case skip:
				want = tensorSkip
			case clamped:
				want = tensorClamped
			}
			if idxs[e] != want {
				t.Fatalf("layout %v, %dx%d, element %d: index %d, want %d", L, R, C, e, idxs[e], want)
			}
			if want < 0 {
				continue
			}
			for d := 0; d < D; d++ {
				if coords[e*2*D+d] != bc[d] || coords[e*2*D+D+d] != ib[d] {
					t.Fatalf("layout %v, %dx%d, element %d: coordinates %v, want %v %v", L, R, C, e, coords[e*2*D:e*2*D+2*D], bc[:D], ib[:D])
				}
			}
		}
	}
}

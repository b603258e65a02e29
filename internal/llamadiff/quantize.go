package llamadiff

import (
	"fmt"
	"math"
)

// quantizeQ81: ggml_vk_quantize_q8_1 of 832 values (26 blocks of 32, the
// last group of 128 partial) with a subgroup-wide GROUP_SIZE; the _x4
// variants pack four blocks' scales ahead of their quants.
func quantizeQ81(v *Variant) *job {
	const ne, denom = 832, 32 * 32 / 8
	const groups = (ne + denom - 1) / denom
	j := &job{spec: map[uint32]uint32{0: 32}, push: map[string]uint32{"ne": ne, "num_blocks": groups}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{groups, 1, 1}
	j.elems = map[uint32]int{0: ne, 1: ne}
	j.outputs = []uint32{1}
	x4 := v.Has("QBLOCK_X4")
	j.check = func(b map[uint32][]byte) error {
		for ib := range ne / 32 {
			ds, qs := b[1][36*ib:], b[1][36*ib+4:]
			if x4 {
				ds, qs = b[1][144*(ib/4)+4*(ib%4):], b[1][144*(ib/4)+16+32*(ib%4):]
			}
			var amax float64
			for k := range 32 {
				amax = math.Max(amax, math.Abs(f32(b[0], 32*ib+k)))
			}
			d, sum := f16(ds, 0), f16(ds, 1)
			if want := amax / 127; math.Abs(d-want) > 1e-3*want {
				return fmt.Errorf("block %d scale %g, want %g (Go reference)", ib, d, want)
			}
			var qsum float64
			for k := range 32 {
				q := float64(int8(qs[k]))
				qsum += q
				if x := f32(b[0], 32*ib+k) * 127 / amax; math.Abs(q-x) > 0.5+1e-3 {
					return fmt.Errorf("block %d quant %d = %g, want round(%g) (Go reference)", ib, k, q, x)
				}
			}
			if want := qsum * amax / 127; math.Abs(sum-want) > 2e-3*math.Max(1, math.Abs(want)) {
				return fmt.Errorf("block %d sum %g, want %g (Go reference)", ib, sum, want)
			}
		}
		return nil
	}
	return j
}

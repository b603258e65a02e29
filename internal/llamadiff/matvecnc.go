package llamadiff

import (
	"fmt"
	"math"
)

// Shapes of the attention matrix-vector products: K values per row (not
// a multiple of the vec4 stride, so the scalar tail runs), M rows.
const ncK, ncM = 300, 5

// matvecNC: ggml_vk_mul_mat_vec_nc_f16_f32 (K·q with a non-contiguous K):
// A has 3 channels of M rows padded to 304, B 6 channels (two per A
// channel), dispatched {ne03, ne01, ne12}.
func matvecNC(v *Variant) *job {
	const rowStride, chA, chB = 304, 3, 6
	j := &job{push: map[string]uint32{"ncols_x": ncK, "nrows_x": ncM, "row_stride_x": rowStride,
		"channel_stride_x": rowStride * ncM, "channel_stride_y": ncK, "channel_x_divisor": chB / chA, "ne12": chB,
		"b_offset": 0, "d_offset": 0, "nb03": rowStride * ncM * chA, "nb13": ncK * chB, "nb23": ncM * chB, "fusion_flags": 0},
		bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, ncM, chB}
	j.elems = map[uint32]int{0: rowStride * ncM * chA, 1: ncK * chB, 2: ncM * chB}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		return checkAttnVec(b, chB, func(row, ch, k int) int { return (ch/(chB/chA)*ncM+row)*rowStride + k })
	}
	return j
}

// matvecP021: ggml_vk_mul_mat_vec_p021_f16_f32 (K·q with K permuted 0,2,1)
// with grouped-query attention: 4 A channels, 8 B channels, gqa_ratio 2.
func matvecP021(v *Variant) *job {
	const chA, chB, gqa = 4, 8, 2
	j := &job{spec: map[uint32]uint32{0: 32, 1: gqa}, push: map[string]uint32{"ncols_x": ncK, "nrows_x": ncM,
		"nchannels_x": chA, "nchannels_y": chB, "b_offset": 0, "d_offset": 0, "fusion_flags": 0}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, ncM, chB / gqa}
	j.elems = map[uint32]int{0: ncK * ncM * chA, 1: ncK * chB, 2: ncM * chB}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		return checkAttnVec(b, chB, func(row, ch, k int) int { return (row*chA+ch/gqa)*ncK + k })
	}
	return j
}

// checkAttnVec compares D[ch][row] with Σ A[at(row, ch, k)]·B[ch][k].
func checkAttnVec(b map[uint32][]byte, chB int, at func(row, ch, k int) int) error {
	for ch := range chB {
		for row := range ncM {
			var sum, mag float64
			for k := range ncK {
				p := f16(b[0], at(row, ch, k)) * f32(b[1], ch*ncK+k)
				sum += p
				mag += math.Abs(p)
			}
			if got := f32(b[2], ch*ncM+row); math.IsNaN(got) || math.Abs(got-sum) > 1e-4*mag+1e-5 {
				return fmt.Errorf("D[%d][%d] = %g, want %g (Go reference)", ch, row, got, sum)
			}
		}
	}
	return nil
}

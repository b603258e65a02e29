package llamadiff

import (
	"fmt"
	"math"
)

// Rope shape: head size, heads, tokens.
const ropeD, ropeHeads, ropeTokens = 64, 3, 5

// rope: ggml_rope_ext (ggml_vk_make_rope_constants) with freq_base 10000,
// no YaRN (ext_factor 0), no frequency factors, positions below 100, and
// a partial rotation (48 of 64 dimensions for norm, neox and multi, whose
// sections {8, 8, 8, 0} cover them) so the pass-through path runs too.
// Dispatch {rows, ne00} over denominators {1, 512}.
func rope(v *Variant) *job {
	if v.Has("RMS_NORM_ROPE_FUSION") {
		return nil
	}
	mode, nDims := uint32(0), uint32(48)
	var sections [4]uint32
	switch v.Source {
	case "rope_neox.comp":
		mode = 2
	case "rope_multi.comp":
		mode, sections = 8, [4]uint32{8, 8, 8, 0}
	case "rope_vision.comp":
		// Vision rotates dimension i with i + n_dims: n_dims is half the head.
		mode, nDims, sections = 24, ropeD/2, [4]uint32{8, 8, 0, 0}
	}
	const rows = ropeHeads * ropeTokens
	thetaScale := float32(math.Pow(10000, -2/float64(nDims)))
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	for k, x := range map[string]uint32{"rope_mode": mode, "nrows": rows, "n_dims": nDims, "n_offs": 0,
		"freq_scale": f32bits(1), "freq_base": f32bits(10000), "ext_factor": 0, "attn_factor": f32bits(1),
		"corr_dims[0]": f32bits(1), "corr_dims[1]": f32bits(20), "theta_scale": f32bits(thetaScale), "has_ff": 0,
		"is_imrope": 0, "is_back": 0, "set_rows_stride": 0,
		"ne00": ropeD, "ne01": ropeHeads, "ne02": ropeTokens, "nb01": ropeD, "nb02": ropeD * ropeHeads, "nb03": ropeD * rows,
		"nb11": ropeD, "nb12": ropeD * ropeHeads, "nb13": ropeD * rows, "a_offset": 0, "d_offset": 0} {
		j.push[k] = x
	}
	for i, s := range sections {
		j.push[fmt.Sprintf("sections[%d]", i)] = s
	}
	j.groups = [3]uint32{rows, 1, 1}
	j.elems = map[uint32]int{0: ropeD * rows, 1: 4 * ropeTokens, 2: ropeD / 2, 3: ropeD * rows}
	j.ints = map[uint32]int{1: 100}
	j.outputs = []uint32{3}
	if mode == 0 || mode == 2 {
		da := decoderFor(firstOf(v, "A_TYPE"), false)
		dd := decoderFor(firstOf(v, "ROPE_D_TYPE"), false)
		j.check = func(b map[uint32][]byte) error {
			return checkRope(b, mode == 2, int(nDims), float64(thetaScale), da, dd)
		}
	}
	return j
}

// checkRope rotates each pair (i, i+1 for norm, i, i+n_dims/2 for neox)
// of the first n_dims values of every row by pos·theta_scale^k in float64
// and copies the rest.
func checkRope(b map[uint32][]byte, neox bool, nDims int, thetaScale float64, da, dd decoder) error {
	for t := range ropeTokens {
		pos := float64(int32(uint32(b[1][4*t]) | uint32(b[1][4*t+1])<<8 | uint32(b[1][4*t+2])<<16 | uint32(b[1][4*t+3])<<24))
		for h := range ropeHeads {
			row := (t*ropeHeads + h) * ropeD
			want := make([]float64, ropeD)
			for i := range ropeD {
				want[i] = da(b[0], row+i)
			}
			for k := range nDims / 2 {
				i0, i1 := 2*k, 2*k+1
				if neox {
					i0, i1 = k, k+nDims/2
				}
				th := pos * math.Pow(thetaScale, float64(k))
				x0, x1 := want[i0], want[i1]
				want[i0], want[i1] = x0*math.Cos(th)-x1*math.Sin(th), x0*math.Sin(th)+x1*math.Cos(th)
			}
			for i := range ropeD {
				if got := dd(b[3], row+i); math.IsNaN(got) || math.Abs(got-want[i]) > 2e-3 {
					return fmt.Errorf("token %d head %d element %d = %g, want %g (Go reference)", t, h, i, got, want[i])
				}
			}
		}
	}
	return nil
}

package llamadiff

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// dequantDenom is the wg_denoms[0] ggml gives each dequant pipeline: the
// elements one workgroup converts.
func dequantDenom(v *Variant) uint32 {
	switch t := firstDef(v, "DATA_A_"); {
	case t == "q1_0":
		return 256 * 8
	case t == "q2_0":
		return 256 * 4
	case t == "q4_k" || strings.HasPrefix(t, "iq") && t != "iq4_nl":
		return 256 * 32
	case strings.HasSuffix(t, "_k") || t == "tq2_0":
		return 256 * 64
	}
	return 256 * 16
}

// dequant: the to-fp16 conversion ggml runs before a matrix product
// (push M, K, stride_a, stride_b, nel), over 17 rows of 256 values, so the
// 4096-element pipelines see a partial second workgroup. The transposing
// q8_0 variant reads [HS 64, NH 2, KV 17] and writes [HS, KV, NH].
func dequant(v *Variant) *job {
	const nel = 256 * 17
	j := &job{push: map[string]uint32{"M": 17, "K": 256, "stride_a": 256, "stride_b": 256, "nel": nel}, bf16: map[uint32]bool{}}
	if v.Has("DEQUANT_TRANSPOSE") {
		j.push["M"], j.push["K"], j.push["stride_a"], j.push["nel"] = 64, 2, 17, 64*2*17
	}
	denom := dequantDenom(v)
	j.groups = [3]uint32{(j.push["nel"] + denom - 1) / denom, 1, 1}
	j.elems = map[uint32]int{0: nel, 1: nel}
	j.outputs = []uint32{1}
	if dq := blockDecoder(v); dq != nil && !v.Has("DEQUANT_TRANSPOSE") {
		j.check = func(b map[uint32][]byte) error { return checkDequant(b[0], b[1], nel, dq, f16) }
	}
	return j
}

// copyFromQuant: ggml_cpy from a quantized tensor of 4 rows of 256 values
// to f32, dispatched as ggml does (elements {512, ne/512} over blocks).
func copyFromQuant(v *Variant) *job {
	const ne00, rows = 256, 4
	qk := uint32(quantK(v))
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, [4]uint32{ne00, rows, 1, 1}, "0", "1")
	for i, x := range []uint32{1, ne00 / qk, ne00 / qk * rows, ne00 / qk * rows} {
		j.push["nb0"+strconv.Itoa(i)] = x
	}
	j.groups = [3]uint32{512 / qk, ne00 * rows / 512, 1}
	j.elems = map[uint32]int{0: ne00 * rows, 1: ne00 * rows}
	j.outputs = []uint32{1}
	if dq := blockDecoder(v); dq != nil {
		j.check = func(b map[uint32][]byte) error { return checkDequant(b[0], b[1], ne00*rows, dq, f32) }
	}
	return j
}

// blockDecoder returns a Go decoder of element i of a buffer of the
// variant's quantized blocks, for the simple formats (q4_0, q8_0).
func blockDecoder(v *Variant) decoder {
	switch firstDef(v, "DATA_A_") {
	case "q8_0":
		// {f16 d; int8 qs[32]}: d·qs[j].
		return func(b []byte, i int) float64 {
			blk := b[34*(i/32):]
			return f16(blk, 0) * float64(int8(blk[2+i%32]))
		}
	case "q4_0":
		// {f16 d; uint8 qs[16]}: low nibbles are values 0-15, high 16-31.
		return func(b []byte, i int) float64 {
			blk := b[18*(i/32):]
			q := blk[2+i%16]
			if i%32 >= 16 {
				q >>= 4
			}
			return f16(blk, 0) * (float64(q&0xf) - 8)
		}
	case "f32":
		return f32
	}
	return nil
}

func checkDequant(a, d []byte, n int, dq, out decoder) error {
	for i := range n {
		want, got := dq(a, i), out(d, i)
		if math.IsNaN(got) || math.Abs(got-want) > 1e-3*math.Max(1, math.Abs(want)) {
			return fmt.Errorf("element %d = %g, want %g (Go reference)", i, got, want)
		}
	}
	return nil
}

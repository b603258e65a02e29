package llamadiff

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Row operations (one workgroup per row, ggml_vk_op_f32's row cases): a
// 37-wide row (a partial subgroup, odd on purpose) over 5×3 rows.
var rowShape = [4]uint32{37, 5, 3, 1}

const rowCount = 5 * 3

// fastDiv gives ggml's init_fastdiv_values for divisor d: the multiplier
// and shift that fastdiv(n, mp, L) = (mulhi(n, mp) + n) >> L uses.
func fastDiv(d uint32) (mp, L uint32) {
	for L < 32 && uint32(1)<<L < d {
		L++
	}
	return uint32((uint64(1)<<32)*((uint64(1)<<L)-uint64(d))/uint64(d) + 1), L
}

// rowCheck compares each row of out with f applied to the same row of in
// (both float32, rows of rowShape[0]).
func rowCheck(in, out []byte, f func(x []float64) []float64) error {
	n := int(rowShape[0])
	for r := range rowCount {
		x := make([]float64, n)
		for i := range x {
			x[i] = f32(in, r*n+i)
		}
		for i, want := range f(x) {
			if got := f32(out, r*n+i); math.IsNaN(got) || math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
				return fmt.Errorf("row %d element %d = %g, want %g (Go reference)", r, i, got, want)
			}
		}
	}
	return nil
}

// softMax: ggml_soft_max_ext with a broadcast mask (one per row of a head,
// shared by the heads) and scale 0.5, no ALiBi and no sinks, on the
// subgroup-wide pipeline ggml picks for rows up to 1024.
func softMax(v *Variant) *job {
	ne00, ne01, ne02 := rowShape[0], rowShape[1], rowShape[2]
	j := &job{spec: map[uint32]uint32{0: 32}, push: map[string]uint32{}, bf16: map[uint32]bool{}}
	for k, x := range map[string]uint32{"KX": ne00, "KY": ne00, "ne00": ne00, "ne01": ne01, "ne02": ne02,
		"ne12": 1, "ne13": 1, "nb11": ne00, "nb12": ne00 * ne01, "nb13": ne00 * ne01,
		"scale": f32bits(0.5), "max_bias": 0, "m0": f32bits(1), "m1": f32bits(1), "n_head_log2": 1,
		"nrows_x": rowCount, "has_sinks": 0} {
		j.push[k] = x
	}
	j.groups = [3]uint32{rowCount, 1, 1}
	j.elems = map[uint32]int{0: rowCount * int(ne00), 1: int(ne00 * ne01), 2: int(ne02), 3: rowCount * int(ne00)}
	j.outputs = []uint32{3}
	mask := decoderFor(firstOf(v, "B_TYPE"), false)
	j.check = func(b map[uint32][]byte) error {
		r := -1
		return rowCheck(b[0], b[3], func(x []float64) []float64 {
			r++
			top := math.Inf(-1)
			y := make([]float64, len(x))
			for i := range x {
				y[i] = 0.5*x[i] + mask(b[1], (r%int(ne01))*int(ne00)+i)
				top = max(top, y[i])
			}
			var sum float64
			for i := range y {
				y[i] = math.Exp(y[i] - top)
				sum += y[i]
			}
			for i := range y {
				y[i] /= sum
			}
			return y
		})
	}
	return j
}

// rowUnary sets up the unary-head row operations (norm, l2_norm) with
// parameter eps.
func rowUnary(eps float32) *job {
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, rowShape, "0", "1")
	j.push["param1"] = f32bits(eps)
	j.groups = [3]uint32{rowCount, 1, 1}
	j.elems = map[uint32]int{0: rowCount * int(rowShape[0]), 1: rowCount * int(rowShape[0])}
	j.outputs = []uint32{1}
	return j
}

func norm(v *Variant) *job {
	j := rowUnary(1e-5)
	j.check = func(b map[uint32][]byte) error {
		return rowCheck(b[0], b[1], func(x []float64) []float64 {
			var mean, sq float64
			for _, e := range x {
				mean += e
				sq += e * e
			}
			mean /= float64(len(x))
			inv := 1 / math.Sqrt(sq/float64(len(x))-mean*mean+1e-5)
			y := make([]float64, len(x))
			for i, e := range x {
				y[i] = (e - mean) * inv
			}
			return y
		})
	}
	return j
}

func l2Norm(v *Variant) *job {
	j := rowUnary(1e-12)
	j.check = func(b map[uint32][]byte) error {
		return rowCheck(b[0], b[1], func(x []float64) []float64 {
			var sq float64
			for _, e := range x {
				sq += e * e
			}
			y := make([]float64, len(x))
			for i, e := range x {
				y[i] = e / math.Max(math.Sqrt(sq), 1e-12)
			}
			return y
		})
	}
	return j
}

// rmsNorm: ggml_rms_norm without the fused multiply (do_multiply false),
// one workgroup per row as {ne01, ne02, ne03}. The variants fused with
// rope pass the row through shared memory and are not run.
func rmsNorm(v *Variant) *job {
	if v.Has("RMS_NORM_ROPE_FUSION") {
		return nil
	}
	j := &job{spec: map[uint32]uint32{0: 0, 1: 0}, push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, rowShape, "0", "1", "2")
	j.push["param1"] = f32bits(1e-6)
	j.groups = [3]uint32{rowShape[1], rowShape[2], rowShape[3]}
	n := rowCount * int(rowShape[0])
	j.elems = map[uint32]int{0: n, 1: n, 2: n}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		return rowCheck(b[0], b[2], func(x []float64) []float64 {
			var sq float64
			for _, e := range x {
				sq += e * e
			}
			s := 1 / math.Sqrt(sq/float64(len(x))+1e-6)
			y := make([]float64, len(x))
			for i, e := range x {
				y[i] = e * s
			}
			return y
		})
	}
	return j
}

// groupNorm: ggml_group_norm of 3 groups of 37×5 values, eps 1e-6.
func groupNorm(v *Variant) *job {
	const groups, size = 3, 37 * 5
	j := &job{push: map[string]uint32{"KX": size, "KY": 0, "param1": f32bits(1e-6)}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{groups, 1, 1}
	j.elems = map[uint32]int{0: groups * size, 1: groups * size}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		for g := range groups {
			var mean, vr float64
			for i := range size {
				mean += f32(b[0], g*size+i)
			}
			mean /= size
			for i := range size {
				d := f32(b[0], g*size+i) - mean
				vr += d * d
			}
			s := 1 / math.Sqrt(vr/size+1e-6)
			for i := range size {
				want := (f32(b[0], g*size+i) - mean) * s
				if got := f32(b[1], g*size+i); math.IsNaN(got) || math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
					return fmt.Errorf("group %d element %d = %g, want %g (Go reference)", g, i, got, want)
				}
			}
		}
		return nil
	}
	return j
}

// sumRows: ggml_sum_rows (weight 1) with a subgroup-wide workgroup.
func sumRows(v *Variant) *job {
	ne00, ne01, ne02 := rowShape[0], rowShape[1], rowShape[2]
	j := &job{spec: map[uint32]uint32{0: 32}, push: map[string]uint32{}, bf16: map[uint32]bool{}}
	mp12, l12 := fastDiv(ne01 * ne02)
	mp1, l1 := fastDiv(ne01)
	for k, x := range map[string]uint32{"n_cols": ne00, "ne01": ne01, "ne02": ne02,
		"nb01": ne00, "nb02": ne00 * ne01, "nb03": ne00 * ne01 * ne02, "nb11": 1, "nb12": ne01, "nb13": ne01 * ne02,
		"weight": f32bits(1), "misalign_offsets": 0, "ne0_12mp": mp12, "ne0_12L": l12, "ne0_1mp": mp1, "ne0_1L": l1} {
		j.push[k] = x
	}
	j.groups = [3]uint32{rowCount, 1, 1}
	j.elems = map[uint32]int{0: rowCount * int(ne00), 1: rowCount}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		for r := range rowCount {
			var want float64
			for i := range int(ne00) {
				want += f32(b[0], r*int(ne00)+i)
			}
			if got := f32(b[1], r); math.IsNaN(got) || math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
				return fmt.Errorf("row %d sum = %g, want %g (Go reference)", r, got, want)
			}
		}
		return nil
	}
	return j
}

// argsort: ggml_argsort ascending of 15 rows of 37 values on the
// single-workgroup pipeline (64 invocations, padded to 2^6).
func argsort(v *Variant) *job {
	ncols := rowShape[0]
	j := &job{spec: map[uint32]uint32{0: 64, 1: 6}, push: map[string]uint32{"ncols": ncols, "ncols_padded": 64,
		"ncols_padded_log2": 6, "nrows": rowCount, "order": 0, "inner_end": 100, "outer_end": 6}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, rowCount, 1}
	j.elems = map[uint32]int{0: rowCount * int(ncols), 2: rowCount * int(ncols)}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		n := int(ncols)
		for r := range rowCount {
			seen := make([]bool, n)
			prev := math.Inf(-1)
			for k := range n {
				i := int(int32(binary.LittleEndian.Uint32(b[2][4*(r*n+k):])))
				if i < 0 || i >= n || seen[i] {
					return fmt.Errorf("row %d: position %d holds index %d, not a permutation (Go reference)", r, k, i)
				}
				seen[i] = true
				x := f32(b[0], r*n+i)
				if x < prev {
					return fmt.Errorf("row %d: position %d value %g after %g, not ascending (Go reference)", r, k, x, prev)
				}
				prev = x
			}
		}
		return nil
	}
	return j
}

// softMaxLarge: one pass of ggml's three-pass soft_max for rows over 1024
// (3 rows of 1100, 3 workgroups of 128×4 per row). ggml chains the passes
// through two scratch buffers (per-workgroup maxima, then sums); the
// harness runs each pass alone on random scratch contents, so only the
// compilers are compared.
func softMaxLarge(v *Variant) *job {
	const kx, rows, wgs = 1100, 3, 3
	j := &job{spec: map[uint32]uint32{0: 128, 1: 4}, push: map[string]uint32{}, bf16: map[uint32]bool{}}
	for k, x := range map[string]uint32{"KX": kx, "KY": kx, "ne00": kx, "ne01": rows, "ne02": 1,
		"ne12": 1, "ne13": 1, "nb11": kx, "nb12": kx * rows, "nb13": kx * rows,
		"scale": f32bits(0.5), "max_bias": 0, "m0": f32bits(1), "m1": f32bits(1), "n_head_log2": 1,
		"nrows_x": rows, "has_sinks": 0} {
		j.push[k] = x
	}
	j.groups = [3]uint32{wgs, rows, 1}
	j.elems = map[uint32]int{0: kx * rows, 1: kx * rows, 2: 1, 3: kx * rows, 4: wgs * rows, 5: wgs * rows}
	j.outputs = map[string][]uint32{"soft_max_large1.comp": {4}, "soft_max_large2.comp": {3, 5}, "soft_max_large3.comp": {3}}[v.Source]
	return j
}

// argmax: ggml_argmax of 15 rows of 37 values with a subgroup-wide
// workgroup (generic head: KX columns, KY rows).
func argmax(v *Variant) *job {
	n := int(rowShape[0])
	j := &job{spec: map[uint32]uint32{0: 32}, push: map[string]uint32{"KX": rowShape[0], "KY": rowCount}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{rowCount, 1, 1}
	j.elems = map[uint32]int{0: rowCount * n, 1: rowCount}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		for r := range rowCount {
			best := 0
			for i := range n {
				if f32(b[0], r*n+i) > f32(b[0], r*n+best) {
					best = i
				}
			}
			if got := int(int32(binary.LittleEndian.Uint32(b[1][4*r:]))); got != best {
				return fmt.Errorf("row %d argmax %d, want %d (Go reference)", r, got, best)
			}
		}
		return nil
	}
	return j
}

// cumsum: ggml_cumsum along 37-wide rows on ggml's small pipeline
// ({128, subgroup size, 1 element per thread}).
func cumsum(v *Variant) *job {
	j := sumRows(v)
	ne00, ne01, ne02 := rowShape[0], rowShape[1], rowShape[2]
	j.spec = map[uint32]uint32{0: 128, 1: 32, 2: 1}
	j.push["nb11"], j.push["nb12"], j.push["nb13"] = ne00, ne00*ne01, ne00*ne01*ne02
	j.elems[1] = rowCount * int(ne00)
	j.check = func(b map[uint32][]byte) error {
		return rowCheck(b[0], b[1], func(x []float64) []float64 {
			y := make([]float64, len(x))
			var s float64
			for i, e := range x {
				s += e
				y[i] = s
			}
			return y
		})
	}
	return j
}

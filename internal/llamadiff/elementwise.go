package llamadiff

import (
	"fmt"
	"math"
	"strconv"
)

// shapePush sets the sizes, element strides and fast-division constants
// of tensor s (0, 1 or 2 of the generic heads) to shape ne.
func shapePush(push map[string]uint32, s string, ne [4]uint32) {
	tmp := map[string]uint32{}
	tensorPush(tmp, ne, s)
	for i := range 4 {
		push["ne"+s+strconv.Itoa(i)] = tmp["ne"+s+strconv.Itoa(i)]
		push["nb"+s+strconv.Itoa(i)] = tmp["nb"+s+strconv.Itoa(i)]
	}
	for _, k := range []string{"_012mp", "_01mp", "_0mp", "_Ls"} {
		push["ne"+s+k] = tmp["ne"+s+k]
	}
}

// glu: ggml_glu (swiglu, geglu, reglu, ...) in its default mode, the gate
// the second half of each 14-wide row of src0, dst {7, 5, 3} (alpha and
// limit are swiglu_oai's).
func glu(v *Variant) *job {
	const ne20, ne21, ne22 = 7, 5, 3
	const n = ne20 * ne21 * ne22
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	for k, x := range map[string]uint32{"N": n, "ne00": 2 * ne20, "ne20": ne20, "mode": 0,
		"alpha": f32bits(1.702), "limit": f32bits(7),
		"nb00": 1, "nb01": 2 * ne20, "nb02": 2 * ne20 * ne21, "nb03": 2 * n,
		"nb10": 1, "nb11": 2 * ne20, "nb12": 2 * ne20 * ne21, "nb13": 2 * n,
		"nb20": 1, "nb21": ne20, "nb22": ne20 * ne21, "nb23": n, "ne21": ne21, "ne22": ne22, "misalign_offsets": 0} {
		j.push[k] = x
	}
	for _, d := range []struct {
		name string
		div  uint32
	}{{"ne2_012", n}, {"ne2_01", ne20 * ne21}, {"ne2_0", ne20}} {
		j.push[d.name+"mp"], j.push[d.name+"L"] = fastDiv(d.div)
	}
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: 2 * n, 1: 2 * n, 2: n}
	j.outputs = []uint32{2}
	op := map[string]func(a, b float64) float64{
		"swiglu.comp": func(a, b float64) float64 { return a / (1 + math.Exp(-a)) * b },
		"reglu.comp":  func(a, b float64) float64 { return math.Max(a, 0) * b },
	}[v.Source]
	if op != nil {
		dt := decoderFor(firstOf(v, "A_TYPE"), false)
		j.check = func(b map[uint32][]byte) error {
			for r := range ne21 * ne22 {
				for i := range ne20 {
					want := op(dt(b[0], r*2*ne20+i), dt(b[0], r*2*ne20+ne20+i))
					if got := dt(b[2], r*ne20+i); math.IsNaN(got) || math.Abs(got-want) > 2e-3*math.Max(1, math.Abs(want)) {
						return fmt.Errorf("row %d element %d = %g, want %g (Go reference)", r, i, got, want)
					}
				}
			}
			return nil
		}
	}
	return j
}

// concat: ggml_concat along dimension 1 of {7, 5, 3, 2} and {7, 4, 3, 2}
// (elements of the variant's unit size).
func concat(v *Variant) *job {
	a, b, d := [4]uint32{7, 5, 3, 2}, [4]uint32{7, 4, 3, 2}, [4]uint32{7, 9, 3, 2}
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, d, "2")
	shapePush(j.push, "0", a)
	shapePush(j.push, "1", b)
	j.push["param3"] = 1
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: 210, 1: 168, 2: 378}
	j.outputs = []uint32{2}
	size := map[string]int{"uint8_t": 1, "uint16_t": 2, "uint": 4, "uvec2": 8}[firstOf(v, "A_TYPE")]
	j.check = func(bufs map[uint32][]byte) error {
		for i3 := range 2 {
			for i2 := range 3 {
				for i1 := range 9 {
					for i0 := range 7 {
						src, k := bufs[0], ((i3*3+i2)*5+i1)*7+i0
						if i1 >= 5 {
							src, k = bufs[1], ((i3*3+i2)*4+i1-5)*7+i0
						}
						o := ((i3*3+i2)*9+i1)*7 + i0
						if string(bufs[2][o*size:(o+1)*size]) != string(src[k*size:(k+1)*size]) {
							return fmt.Errorf("dst[%d][%d][%d][%d] is not its source's element (Go reference)", i3, i2, i1, i0)
						}
					}
				}
			}
		}
		return nil
	}
	return j
}

// repeat: ggml_repeat of {7, 1, 3, 1} to {7, 5, 3, 2}.
func repeat(v *Variant) *job {
	src, dst := [4]uint32{7, 1, 3, 1}, [4]uint32{7, 5, 3, 2}
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, dst, "1")
	shapePush(j.push, "0", src)
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: 21, 1: 210}
	j.outputs = []uint32{1}
	size := 4
	if firstOf(v, "A_TYPE") == "int16_t" {
		size = 2
	}
	j.check = func(b map[uint32][]byte) error {
		for i := range 210 {
			i0, i2 := i%7, i/35%3
			k := i2*7 + i0
			if string(b[1][i*size:(i+1)*size]) != string(b[0][k*size:(k+1)*size]) {
				return fmt.Errorf("dst element %d is not src element %d (Go reference)", i, k)
			}
		}
		return nil
	}
	return j
}

// scale: ggml_scale_bias, x·param1 + param2 over the element shape.
func scale(v *Variant) *job {
	j := unary(v)
	j.check = func(b map[uint32][]byte) error {
		for i := range int(j.push["ne"]) {
			want := f32(b[0], i)*-0.5 + 0.5
			if got := f32(b[1], i); math.Abs(got-want) > 1e-6 {
				return fmt.Errorf("element %d = %g, want %g (Go reference)", i, got, want)
			}
		}
		return nil
	}
	return j
}

// siluBack: ggml_silu_back over 210 values (generic head, KX elements).
func siluBack(v *Variant) *job {
	const n = 210
	j := &job{push: map[string]uint32{"KX": n}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: n, 1: n, 2: n}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		for i := range n {
			x := f32(b[1], i)
			s := 1 / (1 + math.Exp(-x))
			want := f32(b[0], i) * (s + x*s*(1-s))
			if got := f32(b[2], i); math.IsNaN(got) || math.Abs(got-want) > 1e-5 {
				return fmt.Errorf("element %d = %g, want %g (Go reference)", i, got, want)
			}
		}
		return nil
	}
	return j
}

// fill: ggml_fill of 210 values with 0.75.
func fill(v *Variant) *job {
	const n = 210
	j := &job{push: map[string]uint32{"KX": n, "param1": f32bits(0.75)}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: n}
	j.outputs = []uint32{0}
	dd := decoderFor(firstOf(v, "D_TYPE"), false)
	j.check = func(b map[uint32][]byte) error {
		for i := range n {
			if got := dd(b[0], i); got != 0.75 {
				return fmt.Errorf("element %d = %g, want 0.75 (Go reference)", i, got)
			}
		}
		return nil
	}
	return j
}

// contigCopy: ggml_cpy between contiguous tensors of 600 values, over
// ggml's {512, 2} elements, so the first workgroup takes the all-in-bounds
// path and the second the checked one.
func contigCopy(v *Variant) *job {
	const n = 600
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{0: v.Has("DATA_A_BF16")}}
	tensorPush(j.push, [4]uint32{n, 1, 1, 1}, "0", "1")
	j.groups = [3]uint32{1, 2, 1}
	j.elems = map[uint32]int{0: n, 1: n}
	j.outputs = []uint32{1}
	at, dt := firstOf(v, "A_TYPE"), firstOf(v, "D_TYPE")
	if v.Has("DATA_A_BF16") || v.Has("DATA_D_BF16") || at == "int" || dt == "int" {
		return j
	}
	da, dd := decoderFor(at, false), decoderFor(dt, false)
	j.check = func(b map[uint32][]byte) error {
		for i := range n {
			if got, want := dd(b[1], i), da(b[0], i); math.Abs(got-want) > 1e-3*math.Abs(want) {
				return fmt.Errorf("element %d = %g, want %g (Go reference)", i, got, want)
			}
		}
		return nil
	}
	return j
}

// tri: ggml_tri keeping the lower triangle with its diagonal (type 2,
// passed as the bits of param1) over the element shape.
func tri(v *Variant) *job {
	j := unary(v)
	j.push["param1"] = 2 // GGML_TRI_TYPE_LOWER_DIAG
	dt := decoderFor(firstOf(v, "A_TYPE"), false)
	j.check = func(b map[uint32][]byte) error {
		for i := range int(j.push["ne"]) {
			want := 0.0
			if i%7 <= i/7%5 {
				want = dt(b[0], i)
			}
			if got := dt(b[1], i); got != want {
				return fmt.Errorf("element %d = %g, want %g (Go reference)", i, got, want)
			}
		}
		return nil
	}
	return j
}

// diag: ggml_diag of {7, 1, 3, 2} into {7, 7, 3, 2}.
func diag(v *Variant) *job {
	src, dst := [4]uint32{7, 1, 3, 2}, [4]uint32{7, 7, 3, 2}
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, dst, "1")
	shapePush(j.push, "0", src)
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: 42, 1: 294}
	j.outputs = []uint32{1}
	dt := decoderFor(firstOf(v, "A_TYPE"), false)
	j.check = func(b map[uint32][]byte) error {
		for i := range 294 {
			want := 0.0
			if i%7 == i/7%7 {
				want = dt(b[0], i/49*7+i%7)
			}
			if got := dt(b[1], i); got != want {
				return fmt.Errorf("element %d = %g, want %g (Go reference)", i, got, want)
			}
		}
		return nil
	}
	return j
}

// copyTranspose: ggml_cpy of a transposed view (src dimension 0 has
// stride 37, dimension 1 stride 1) to a contiguous {40, 37, 2}, in 32×32
// tiles, partial at both edges.
func copyTranspose(v *Variant) *job {
	const ne0, ne1, ne2 = 40, 37, 2
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, [4]uint32{ne0, ne1, ne2, 1}, "0", "1")
	j.push["nb00"], j.push["nb01"] = ne1, 1
	j.groups = [3]uint32{(ne0 + 31) / 32, (ne1 + 31) / 32, ne2}
	j.elems = map[uint32]int{0: ne0 * ne1 * ne2, 1: ne0 * ne1 * ne2}
	j.outputs = []uint32{1}
	size := 4
	if firstOf(v, "A_TYPE") == "uint16_t" {
		size = 2
	}
	j.check = func(b map[uint32][]byte) error {
		for i := range ne0 * ne1 * ne2 {
			i0, i1, i2 := i%ne0, i/ne0%ne1, i/(ne0*ne1)
			k := i0*ne1 + i1 + i2*ne0*ne1
			if string(b[1][i*size:(i+1)*size]) != string(b[0][k*size:(k+1)*size]) {
				return fmt.Errorf("dst element %d is not src element %d (Go reference)", i, k)
			}
		}
		return nil
	}
	return j
}

// pad: ggml_pad_ext of {7, 5, 3, 2} by 1 before and 2 after dimension 0
// and 1 after dimension 1, zero filled.
func pad(v *Variant) *job {
	src, dst := [4]uint32{7, 5, 3, 2}, [4]uint32{10, 6, 3, 2}
	j := &job{push: map[string]uint32{"lp0": 1, "rp0": 2, "rp1": 1}, bf16: map[uint32]bool{}}
	tensorPush(j.push, dst, "1")
	shapePush(j.push, "0", src)
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: 210, 1: 360}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		for i := range 360 {
			i0, i1, i23 := i%10, i/10%6, i/60
			want := 0.0
			if i0 >= 1 && i0 < 8 && i1 < 5 {
				want = f32(b[0], (i23*5+i1)*7+i0-1)
			}
			if got := f32(b[1], i); got != want {
				return fmt.Errorf("dst element %d = %g, want %g (Go reference)", i, got, want)
			}
		}
		return nil
	}
	return j
}

// roll: ggml_roll of the element shape by 2 along dimension 0 and -1
// along dimension 1 (shifts biased by 0x8000, packed in param1's bits).
func roll(v *Variant) *job {
	j := unary(v)
	j.push["param1"] = (2+0x8000)<<16 | (0x8000 - 1)
	j.push["param2"] = 0x8000<<16 | 0x8000
	j.check = func(b map[uint32][]byte) error {
		for i := range int(j.push["ne"]) {
			i0, i1, i23 := i%7, i/7%5, i/35
			k := (i23*5+(i1+1)%5)*7 + (i0+5)%7
			if got, want := f32(b[1], i), f32(b[0], k); got != want {
				return fmt.Errorf("dst element %d = %g, want src element %d = %g (Go reference)", i, got, k, want)
			}
		}
		return nil
	}
	return j
}

package llamadiff

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
)

// The smaller ops of ggml-vulkan: training steps, index generators and
// reductions. Shapes are ggml's own push constants for small tensors, with
// more than one workgroup where the shader has a bounds check.

// floats returns n float32 values uniform in [lo, hi), from a fixed seed,
// for buffers the shader both reads and writes (the Go reference needs
// their initial contents).
func floats(n int, seed uint64, lo, hi float64) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(lo+(hi-lo)*rng.Float64())))
	}
	return b
}

// near reports whether got is want within a relative (and, near zero,
// absolute) tolerance.
func near(got, want, tol float64) bool {
	return got == want || math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func checkEach(n int, name string, got func(i int) float64, want func(i int) float64, tol float64) error {
	for i := range n {
		if g, w := got(i), want(i); !near(g, w, tol) || math.IsNaN(g) != math.IsNaN(w) {
			return fmt.Errorf("%s %d = %g, want %g (Go reference)", name, i, g, w)
		}
	}
	return nil
}

// arange: ggml_arange of 700 values from 1.5 in steps of -0.25.
func arange(v *Variant) *job {
	const n = 700
	j := &job{push: map[string]uint32{"KX": n, "param1": f32bits(1.5), "param2": f32bits(-0.25)}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{2, 1, 1}
	j.elems = map[uint32]int{0: n}
	j.outputs = []uint32{0}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(n, "element", func(i int) float64 { return f32(b[0], i) },
			func(i int) float64 { return float64(float32(1.5) + float32(-0.25)*float32(i)) }, 0)
	}
	return j
}

// acc: ggml_acc of a {4, 3, 2} tensor into a {7, 5, 3, 2} one at element
// offset 8 (ggml's acc pipeline specializes norepeat false, ACC true).
func acc(v *Variant) *job {
	src0, src1 := [4]uint32{7, 5, 3, 2}, [4]uint32{4, 3, 2, 1}
	const offset = 8
	j := &job{spec: map[uint32]uint32{0: 0, 1: 1}, push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, src1, "1")
	tensorPush(j.push, src0, "0", "2")
	j.push["param3"] = offset
	n := int(j.push["ne"])
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: n, 1: 24, 2: n}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		want := func(idx int) float64 {
			s := uint32(idx) - offset
			i3 := s / 105
			r := s - i3*105
			i2 := r / 35
			r -= i2 * 35
			i1, i0 := r/7, r%7
			if i0 < 4 && i1 < 3 && i2 < 2 && i3 < 1 {
				return float64(float32(f32(b[0], idx)) + float32(f32(b[1], int(i0+4*i1+12*i2))))
			}
			return f32(b[0], idx)
		}
		return checkEach(n, "element", func(i int) float64 { return f32(b[2], i) }, want, 0)
	}
	return j
}

// countEqual: ggml_count_equal of 1500 integers in [0, 3), three chunks
// of 512 atomically added into a zeroed count (ggml clears it first).
func countEqual(v *Variant) *job {
	const n = 1500
	j := &job{spec: map[uint32]uint32{0: 32}, push: map[string]uint32{"KX": n}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{3, 1, 1}
	j.elems = map[uint32]int{0: n, 1: n, 2: 1}
	j.ints = map[uint32]int{0: 3, 1: 3}
	j.data = map[uint32][]byte{2: make([]byte, 4)}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		want := uint32(0)
		for i := range n {
			if binary.LittleEndian.Uint32(b[0][4*i:]) == binary.LittleEndian.Uint32(b[1][4*i:]) {
				want++
			}
		}
		if got := binary.LittleEndian.Uint32(b[2]); got != want {
			return fmt.Errorf("count %d, want %d (Go reference)", got, want)
		}
		return nil
	}
	return j
}

// diagMaskInf: ggml_diag_mask_inf of 6 rows of 40 columns, 3 rows per
// channel, 10 past tokens.
func diagMaskInf(v *Variant) *job {
	const ncols, nrows, perChannel, past = 40, 6, 3, 10
	j := &job{push: map[string]uint32{"ncols": ncols, "rows_per_channel": perChannel, "n_past": past}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{nrows, 1, 1}
	j.elems = map[uint32]int{0: ncols * nrows, 1: ncols * nrows}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		want := func(i int) float64 {
			if row, col := i/ncols, i%ncols; col > past+row%perChannel {
				return math.Inf(-1)
			}
			return f32(b[0], i)
		}
		return checkEach(ncols*nrows, "element", func(i int) float64 { return f32(b[1], i) }, want, 0)
	}
	return j
}

// optStepSGD: ggml_opt_step_sgd over 700 parameters, learning rate 0.1,
// weight decay 0.01.
func optStepSGD(v *Variant) *job {
	const n = 700
	x := floats(n, 11, -1, 1)
	params := floats(2, 0, 0, 0)
	binary.LittleEndian.PutUint32(params, math.Float32bits(0.1))
	binary.LittleEndian.PutUint32(params[4:], math.Float32bits(0.01))
	j := &job{push: map[string]uint32{"KX": n}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{2, 1, 1}
	j.elems = map[uint32]int{0: n, 1: n, 2: 2}
	j.data = map[uint32][]byte{0: x, 2: params}
	j.outputs = []uint32{0}
	j.check = func(b map[uint32][]byte) error {
		keep := float32(1) - float32(0.1)*float32(0.01)
		return checkEach(n, "parameter", func(i int) float64 { return f32(b[0], i) }, func(i int) float64 {
			return float64(float32(f32(x, i))*keep - float32(0.1)*float32(f32(b[1], i)))
		}, 1e-6)
	}
	return j
}

// optStepAdamW: ggml_opt_step_adamw over 700 parameters with its seven
// hyper-parameters (alpha, beta1, beta2, eps, wd, beta1h, beta2h).
func optStepAdamW(v *Variant) *job {
	const n = 700
	hp := []float32{0.001, 0.9, 0.999, 1e-8, 0.01, 1 / (1 - 0.9), 1 / (1 - 0.999)}
	params := make([]byte, 4*len(hp))
	for i, h := range hp {
		binary.LittleEndian.PutUint32(params[4*i:], math.Float32bits(h))
	}
	x, m, vv := floats(n, 21, -1, 1), floats(n, 22, -0.1, 0.1), floats(n, 23, 0, 0.01)
	j := &job{push: map[string]uint32{"KX": n}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{2, 1, 1}
	j.elems = map[uint32]int{0: n, 1: n, 2: n, 3: n, 4: len(hp)}
	j.data = map[uint32][]byte{0: x, 2: m, 3: vv, 4: params}
	j.outputs = []uint32{0, 2, 3}
	j.check = func(b map[uint32][]byte) error {
		for i := range n {
			g := f32(b[1], i)
			gm := f32(m, i)*float64(hp[1]) + g*(1-float64(hp[1]))
			gv := f32(vv, i)*float64(hp[2]) + g*g*(1-float64(hp[2]))
			mh, vh := gm*float64(hp[5]), math.Sqrt(gv*float64(hp[6]))+float64(hp[3])
			want := f32(x, i)*(1-float64(hp[0])*float64(hp[4])) - float64(hp[0])*mh/vh
			for _, c := range []struct {
				name      string
				got, want float64
			}{{"m", f32(b[2], i), gm}, {"v", f32(b[3], i), gv}, {"x", f32(b[0], i), want}} {
				if !near(c.got, c.want, 1e-5) {
					return fmt.Errorf("%s[%d] = %g, want %g (Go reference)", c.name, i, c.got, c.want)
				}
			}
		}
		return nil
	}
	return j
}

// timestepEmbedding: ggml_timestep_embedding of 3 timesteps into 21
// dimensions (odd, so the last column is zeroed), rows 22 floats apart.
func timestepEmbedding(v *Variant) *job {
	const rows, dim, nb1, period = 3, 21, 22, 10000
	j := &job{push: map[string]uint32{"nb1": nb1, "dim": dim, "max_period": period}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, rows, 1}
	j.elems = map[uint32]int{0: rows, 1: rows * nb1}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		const half = dim / 2
		for r := range rows {
			t := f32(b[0], r)
			for k := range half {
				arg := t * math.Exp(-math.Log(period)*float64(k)/half)
				if got := f32(b[1], r*nb1+k); !near(got, math.Cos(arg), 1e-5) {
					return fmt.Errorf("row %d cos %d = %g, want %g (Go reference)", r, k, got, math.Cos(arg))
				}
				if got := f32(b[1], r*nb1+k+half); !near(got, math.Sin(arg), 1e-5) {
					return fmt.Errorf("row %d sin %d = %g, want %g (Go reference)", r, k, got, math.Sin(arg))
				}
			}
			if got := f32(b[1], r*nb1+2*half); got != 0 {
				return fmt.Errorf("row %d: last column %g, want 0", r, got)
			}
		}
		return nil
	}
	return j
}

// splitKReduce: the split-k matmul's reduction of 3 partial results of
// 300 values (a multiple of 4: the vec4 path).
func splitKReduce(v *Variant) *job {
	const ne, k = 300, 3
	j := &job{push: map[string]uint32{"ne": ne, "k_num": k}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: ne * k, 1: ne}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(ne, "element", func(i int) float64 { return f32(b[1], i) }, func(i int) float64 {
			var s float32
			for p := range k {
				s += float32(f32(b[0], p*ne+i))
			}
			return float64(s)
		}, 0)
	}
	return j
}

// snake: the fused snake activation x + sin(a x)² / b over 3 channels of
// 100 values.
func snake(v *Variant) *job {
	const ne0, ne1 = 100, 3
	bf := v.Has("DATA_A_BF16")
	j := &job{push: map[string]uint32{"ne0": ne0, "ne1": ne1}, bf16: map[uint32]bool{0: bf}}
	j.groups = [3]uint32{1, ne1, 1}
	j.elems = map[uint32]int{0: ne0 * ne1, 1: ne1, 2: ne1, 3: ne0 * ne1}
	j.outputs = []uint32{3}
	dec := decoderFor(firstOf(v, "A_TYPE"), bf)
	tol := map[bool]float64{false: 1e-3, true: 1e-2}[bf]
	if firstOf(v, "A_TYPE") == "float" {
		tol = 1e-6
	}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(ne0*ne1, "element", func(i int) float64 { return dec(b[3], i) }, func(i int) float64 {
			x := dec(b[0], i)
			s := math.Sin(f32(b[1], i/ne0) * x)
			return x + s*s*f32(b[2], i/ne0)
		}, tol)
	}
	return j
}

// repeatBack: ggml_repeat_back of a {6, 4, 2} tensor onto {3, 2}: each
// destination element sums the source elements it was repeated to.
func repeatBack(v *Variant) *job {
	src, dst := [4]uint32{6, 4, 2, 1}, [4]uint32{3, 2, 1, 1}
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	shapePush(j.push, "0", src)
	tensorPush(j.push, dst, "1")
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: 48, 1: 6}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(6, "element", func(i int) float64 { return f32(b[1], i) }, func(i int) float64 {
			var s float32
			for i2 := range 2 {
				for i1 := i / 3; i1 < 4; i1 += 2 {
					for i0 := i % 3; i0 < 6; i0 += 3 {
						s += float32(f32(b[0], (i2*4+i1)*6+i0))
					}
				}
			}
			return float64(s)
		}, 0)
	}
	return j
}

// getRowsBack: ggml_get_rows_back: 8 gradient rows of 37 columns summed
// into the 5 rows their ids name, two workgroup rows striding over them.
func getRowsBack(v *Variant) *job {
	const cols, grads, rows = 37, 8, 5
	j := &job{push: map[string]uint32{"ne00": cols, "ne01": grads, "nb00": 1, "nb01": cols,
		"ne10": grads, "nb10": 1, "ne20": cols, "ne21": rows, "nb20": 1, "nb21": cols}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, 2, 1}
	j.elems = map[uint32]int{0: cols * grads, 1: grads, 2: cols * rows}
	j.ints = map[uint32]int{1: rows}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(cols*rows, "element", func(i int) float64 { return f32(b[2], i) }, func(i int) float64 {
			var s float32
			for g := range grads {
				if int(binary.LittleEndian.Uint32(b[1][4*g:])) == i/cols {
					s += float32(f32(b[0], g*cols+i%cols))
				}
			}
			return float64(s)
		}, 0)
	}
	return j
}

// softMaxBack: ggml_soft_max_ext_back of 4 rows of 37 values, scale 0.7,
// with a 32-wide workgroup (ggml's BLOCK_SIZE specialization).
func softMaxBack(v *Variant) *job {
	const cols, rows = 37, 4
	j := &job{spec: map[uint32]uint32{0: 32}, push: map[string]uint32{"KX": cols, "KY": rows, "param1": f32bits(0.7)}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{rows, 1, 1}
	j.elems = map[uint32]int{0: cols * rows, 1: cols * rows, 2: cols * rows}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(cols*rows, "element", func(i int) float64 { return f32(b[2], i) }, func(i int) float64 {
			r := i / cols
			var dot float64
			for c := range cols {
				dot += f32(b[0], r*cols+c) * f32(b[1], r*cols+c)
			}
			return 0.7 * (f32(b[0], i) - dot) * f32(b[1], i)
		}, 1e-5)
	}
	return j
}

// rmsNormBack: ggml_rms_norm_back of 3 rows of 600 values (more than the
// 512-wide workgroup), eps 1e-5.
func rmsNormBack(v *Variant) *job {
	const cols, rows, eps = 600, 3, 1e-5
	j := &job{push: map[string]uint32{"KX": cols, "KY": rows, "param1": f32bits(eps)}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{rows, 1, 1}
	j.elems = map[uint32]int{0: cols * rows, 1: cols * rows, 2: cols * rows}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(cols*rows, "element", func(i int) float64 { return f32(b[2], i) }, func(i int) float64 {
			r := i / cols
			var xx, xg float64
			for c := range cols {
				x, g := f32(b[1], r*cols+c), f32(b[0], r*cols+c)
				xx += x * x
				xg += x * g
			}
			sg := 1 / math.Sqrt(xx/cols+float64(float32(eps)))
			sx := -sg * xg / (xx + cols*float64(float32(eps)))
			return sg*f32(b[0], i) + sx*f32(b[1], i)
		}, 1e-4)
	}
	return j
}

// pool2d: ggml_pool_2d, max over 3x3 windows with stride 2 and padding 1,
// 2 channels of 9x7 into 5x4.
func pool2d(v *Variant) *job {
	const iw, ih, ow, oh, oc, k, s, pad = 9, 7, 5, 4, 2, 3, 2, 1
	j := &job{push: map[string]uint32{"IW": iw, "IH": ih, "OW": ow, "OH": oh, "OC": oc, "pelements": oc * oh * ow,
		"op": 0, "k0": k, "k1": k, "s0": s, "s1": s, "p0": pad, "p1": pad}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: oc * ih * iw, 1: oc * oh * ow}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(oc*oh*ow, "element", func(i int) float64 { return f32(b[1], i) }, func(i int) float64 {
			c, y, x := i/(oh*ow), i%(oh*ow)/ow, i%ow
			m := -math.MaxFloat32
			for h := max(y*s-pad, 0); h < min(y*s-pad+k, ih); h++ {
				for w := max(x*s-pad, 0); w < min(x*s-pad+k, iw); w++ {
					m = math.Max(m, f32(b[0], (c*ih+h)*iw+w))
				}
			}
			return m
		}, 0)
	}
	return j
}

// pool1d: ggml_pool_1d, the average over windows of 3 with stride 2 and
// padding 1, 3 channels of 11 into 6.
func pool1d(v *Variant) *job {
	const il, ol, oc, k, s, pad = 11, 6, 3, 3, 2, 1
	j := &job{push: map[string]uint32{"IL": il, "OL": ol, "OC": oc, "pelements": oc * ol, "op": 1, "k0": k, "s0": s, "p0": pad}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: oc * il, 1: oc * ol}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(oc*ol, "element", func(i int) float64 { return f32(b[1], i) }, func(i int) float64 {
			c, x := i/ol, i%ol
			lo, hi := max(x*s-pad, 0), min(x*s-pad+k, il)
			var sum float64
			for w := lo; w < hi; w++ {
				sum += f32(b[0], c*il+w)
			}
			return sum / float64(hi-lo)
		}, 1e-6)
	}
	return j
}

// outProd: ggml_out_prod of a 5x6 and a 4x6 matrix (K = 6) into 5x4.
func outProd(v *Variant) *job {
	const m, n, k = 5, 4, 6
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, [4]uint32{n, k, 1, 1}, "1")
	tensorPush(j.push, [4]uint32{m, k, 1, 1}, "0")
	tensorPush(j.push, [4]uint32{m, n, 1, 1}, "2")
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: m * k, 1: n * k, 2: m * n}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(m*n, "element", func(i int) float64 { return f32(b[2], i) }, func(i int) float64 {
			var s float32
			for p := range k {
				s += float32(f32(b[0], p*m+i%m)) * float32(f32(b[1], p*n+i/m))
			}
			return float64(s)
		}, 1e-6)
	}
	return j
}

// upscale: ggml_upscale of a 4x3 image to 8x6, bilinear with half-pixel
// centres (ggml's pipeline specializes the scale mode).
func upscale(v *Variant) *job {
	const iw, ih, ow, oh = 4, 3, 8, 6
	j := &job{spec: map[uint32]uint32{0: 1}, push: map[string]uint32{"ne": ow * oh, "ne00": iw, "ne01": ih,
		"nb00": 1, "nb01": iw, "nb02": iw * ih, "nb03": iw * ih, "ne10": ow, "ne11": oh, "ne12": 1, "ne13": 1,
		"sf0": f32bits(2), "sf1": f32bits(2), "sf2": f32bits(1), "sf3": f32bits(1), "pixel_offset": f32bits(0.5)}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: iw * ih, 1: ow * oh}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(ow*oh, "element", func(i int) float64 { return f32(b[1], i) }, func(i int) float64 {
			cx, cy := (float64(i%ow)+0.5)/2-0.5, (float64(i/ow)+0.5)/2-0.5
			fx, fy := math.Floor(cx), math.Floor(cy)
			dx, dy := cx-fx, cy-fy
			x0, y0 := max(int(fx), 0), max(int(fy), 0)
			x1, y1 := min(int(fx)+1, iw-1), min(int(fy)+1, ih-1)
			a := func(x, y int) float64 { return f32(b[0], y*iw+x) }
			return a(x0, y0)*(1-dx)*(1-dy) + a(x1, y0)*dx*(1-dy) + a(x0, y1)*(1-dx)*dy + a(x1, y1)*dx*dy
		}, 1e-6)
	}
	return j
}

// multiAdd: the fused sum of 3 tensors of {37, 5, 2} (ggml specializes
// the source count; the destination is binding 3, the RMS variant's
// sum of squares binding 4), in one workgroup of 512 elements.
func multiAdd(v *Variant) *job {
	const srcs, n = 3, 37 * 5 * 2
	j := &job{spec: map[uint32]uint32{0: srcs}, push: map[string]uint32{"ne20": 37, "ne21": 5, "ne22": 2, "ne23": 1}, bf16: map[uint32]bool{}}
	for t := range srcs + 1 {
		for i, s := range []uint32{1, 37, 185, n} {
			j.push[fmt.Sprintf("nb[%d][%d]", t, i)] = s
		}
	}
	rms := firstOf(v, "ADD_RMS") == "1"
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: n, 1: n, 2: n, 3: n, 4: 1}
	j.outputs = []uint32{3}
	if rms {
		j.push["rms_partials"] = 1
		j.outputs = append(j.outputs, 4)
	}
	j.check = func(b map[uint32][]byte) error {
		var sq float64
		for i := range n {
			s := float32(0)
			for t := range srcs {
				s += float32(f32(b[uint32(t)], i))
			}
			sq += float64(s) * float64(s)
			if got := f32(b[3], i); got != float64(s) {
				return fmt.Errorf("element %d = %g, want %g (Go reference)", i, got, s)
			}
		}
		if got := f32(b[4], 0); rms && !near(got, sq, 1e-5) {
			return fmt.Errorf("sum of squares %g, want %g (Go reference)", got, sq)
		}
		return nil
	}
	return j
}

// countExperts: the MoE expert histogram of 50 tokens choosing 6 of 8
// experts, one workgroup per expert.
func countExperts(v *Variant) *job {
	const used, tokens, experts = 6, 50, 8
	j := &job{push: map[string]uint32{"ne00": used, "ne01": tokens, "nb00": 1, "nb01": used}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{experts, 1, 1}
	j.elems = map[uint32]int{0: used * tokens, 1: experts}
	j.ints = map[uint32]int{0: experts}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		var want [experts]uint32
		for i := range used * tokens {
			want[binary.LittleEndian.Uint32(b[0][4*i:])]++
		}
		for e, w := range want {
			if got := binary.LittleEndian.Uint32(b[1][4*e:]); got != w {
				return fmt.Errorf("expert %d: %d tokens, want %d (Go reference)", e, got, w)
			}
		}
		return nil
	}
	return j
}

// ssmConv: Mamba's ggml_ssm_conv with bias and SiLU (ggml's
// ssm_conv_bias_silu pipeline), width 4, 40 channels, 20 tokens, 2
// sequences: two workgroups along channels and along tokens.
func ssmConv(v *Variant) *job {
	const nc, nr, nt, ns = 4, 40, 20, 2
	const row = nc - 1 + nt
	j := &job{spec: map[uint32]uint32{0: 32, 1: 16, 2: 1, 3: 1}, push: map[string]uint32{"nb01": 4 * row, "nb02": 4 * row * nr,
		"nb11": 4 * nc, "dst_nb0": 4, "dst_nb1": 4 * nr, "dst_nb2": 4 * nr * nt, "nc": nc, "ncs": row, "nr": nr, "n_t": nt, "n_s": ns}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{2, 2, ns}
	j.elems = map[uint32]int{0: row * nr * ns, 1: nc * nr, 2: nr, 3: nr * nt * ns}
	j.outputs = []uint32{3}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(nr*nt*ns, "element", func(i int) float64 { return f32(b[3], i) }, func(i int) float64 {
			c, t, s := i%nr, i/nr%nt, i/(nr*nt)
			sum := f32(b[2], c)
			for k := range nc {
				sum += f32(b[0], (s*nr+c)*row+t+k) * f32(b[1], c*nc+k)
			}
			return sum / (1 + math.Exp(-sum))
		}, 1e-5)
	}
	return j
}

// copyTranspose02: ggml_cpy of a {40, 3, 35} tensor whose dimensions 0
// and 2 are permuted in memory into a contiguous one, through 32x32
// shared-memory tiles, workgroups striding over tiles.
func copyTranspose02(v *Variant) *job {
	ne := [4]uint32{40, 3, 35, 1}
	n := int(ne[0] * ne[1] * ne[2])
	j := &job{push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, ne, "0", "1")
	j.push["nb00"], j.push["nb01"], j.push["nb02"] = ne[1]*ne[2], ne[2], 1
	j.groups = [3]uint32{2, 1, 2}
	j.elems = map[uint32]int{0: n, 1: n}
	j.outputs = []uint32{1}
	size := 4
	if firstOf(v, "A_TYPE") == "uint16_t" {
		size = 2
	}
	j.check = func(b map[uint32][]byte) error {
		for i := range n {
			i0, i1, i2 := i%40, i/40%3, i/120
			src := (i0*3+i1)*35 + i2
			if got, want := b[1][size*i:size*i+size], b[0][size*src:size*src+size]; string(got) != string(want) {
				return fmt.Errorf("element (%d, %d, %d) = %x, want %x (Go reference)", i0, i1, i2, got, want)
			}
		}
		return nil
	}
	return j
}

// fwht: the fast Walsh-Hadamard transform of 10 rows of 128 values,
// scale 0.5, over subgroup shuffles (or shared memory) of 32 lanes, 4
// rows a workgroup, two workgroups striding over the rows.
func fwht(v *Variant) *job {
	const n, rows = 128, 10
	j := &job{spec: map[uint32]uint32{0: 32, 1: n}, push: map[string]uint32{"n_rows": rows, "scale": f32bits(0.5)}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{2, 1, 1}
	j.elems = map[uint32]int{0: n * rows, 1: n * rows}
	j.outputs = []uint32{1}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(n*rows, "element", func(i int) float64 { return f32(b[1], i) }, func(i int) float64 {
			r, k := i/n, i%n
			var s float64
			for x := range n {
				sign := 1.0
				if bits.OnesCount(uint(x&k))%2 == 1 {
					sign = -1
				}
				s += sign * f32(b[0], r*n+x) * 0.5
			}
			return s
		}, 1e-5)
	}
	return j
}

// solveTri: ggml_solve_tri, forward substitution of 2 lower-triangular
// 12x12 systems with 5 right-hand sides, rows loaded 8 at a time (ggml
// sizes the batch by shared memory) by 128 invocations.
func solveTri(v *Variant) *job {
	const n, k, batches = 12, 5, 2
	j := &job{spec: map[uint32]uint32{0: 0, 1: n, 2: k, 3: 8, 4: 128}, push: map[string]uint32{}, bf16: map[uint32]bool{}}
	tensorPush(j.push, [4]uint32{k, n, batches, 1}, "1", "2")
	tensorPush(j.push, [4]uint32{n, n, batches, 1}, "0")
	j.groups = [3]uint32{batches, 1, 1}
	j.elems = map[uint32]int{0: n * n * batches, 1: k * n * batches, 2: k * n * batches}
	j.outputs = []uint32{2}
	// A well-conditioned lower triangle: small entries below a diagonal
	// of at least 1.
	a := floats(n*n*batches, 31, -0.3, 0.3)
	for m := range batches {
		for r := range n {
			i := m*n*n + r*n + r
			binary.LittleEndian.PutUint32(a[4*i:], math.Float32bits(float32(1+math.Abs(f32(a, i)))))
		}
	}
	j.data = map[uint32][]byte{0: a}
	j.check = func(b map[uint32][]byte) error {
		for m := range batches {
			for c := range k {
				x := make([]float64, n)
				for r := range n {
					s := f32(b[1], m*n*k+r*k+c)
					for q := range r {
						s -= f32(a, m*n*n+r*n+q) * x[q]
					}
					x[r] = s / f32(a, m*n*n+r*n+r)
					if got := f32(b[2], m*n*k+r*k+c); !near(got, x[r], 1e-4) {
						return fmt.Errorf("system %d: x[%d][%d] = %g, want %g (Go reference)", m, r, c, got, x[r])
					}
				}
			}
		}
		return nil
	}
	return j
}

package llamadiff

import (
	"fmt"
	"math"
)

// im2col: ggml_im2col (2D) of a batch of 2 images, 3 channels of 7×9,
// with a 3×3 kernel, stride 2 and padding 1 (so edges read the zero
// padding), dispatched {min(CHW, max(4096, OW·KH·KW)), OW, OH·batch} over
// {512, 1, 1}. The buffer-device-address variants write through a pointer
// to binding 1 in the push constants.
func im2col(v *Variant) *job {
	const ic, ih, iw, kh, kw, s, pad, batch = 3, 7, 9, 3, 3, 2, 1, 2
	const oh, ow = (ih+2*pad-kh)/s + 1, (iw+2*pad-kw)/s + 1
	const chw = ic * kh * kw
	j := &job{spec: map[uint32]uint32{0: 32}, push: map[string]uint32{"batch_offset": ic * ih * iw, "offset_delta": ih * iw,
		"IC": ic, "IW": iw, "IH": ih, "OW": ow, "OH": oh, "KW": kw, "KH": kh, "OH_batch": oh * batch, "CHW": chw,
		"s0": s, "s1": s, "p0": pad, "p1": pad, "d0": 1, "d1": 1, "batch_IC": batch * ic}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, ow, oh * batch}
	j.elems = map[uint32]int{0: batch * ic * ih * iw, 1: batch * oh * ow * chw}
	j.outputs = []uint32{1}
	if firstOf(v, "BDA") == "1" {
		j.addrs = map[string]uint32{"dst_addr": 1}
	}
	dd := decoderFor(firstOf(v, "D_TYPE"), false)
	j.check = func(b map[uint32][]byte) error {
		for n := range batch {
			for y := range oh {
				for x := range ow {
					for c := range ic {
						for ky := range kh {
							for kx := range kw {
								var want float64
								if iy, ix := y*s-pad+ky, x*s-pad+kx; iy >= 0 && iy < ih && ix >= 0 && ix < iw {
									want = f32(b[0], ((n*ic+c)*ih+iy)*iw+ix)
								}
								o := ((n*oh+y)*ow+x)*chw + (c*kh+ky)*kw + kx
								if got := dd(b[1], o); math.Abs(got-want) > 1e-3*math.Abs(want) {
									return fmt.Errorf("dst[%d][%d][%d][%d] = %g, want %g (Go reference)", n, y, x, (c*kh+ky)*kw+kx, got, want)
								}
							}
						}
					}
				}
			}
		}
		return nil
	}
	return j
}

// conv2d: ggml_conv_2d (implicit GEMM, conv2d_mm.comp) of a batch of 2
// images, 3 channels of 7×9, 20 output channels, a 3×3 kernel, stride 1,
// padding 1, and ggml_conv_transpose_2d (stride 1) with ggml's small tile
// (CONV_SHAPE_64x32: BS_K 64, BS_CRS 32 with collectives on a 32-wide
// subgroup, BS_NPQ 32), unaligned, with each path's workgroup size and
// shared-memory padding.
func conv2d(v *Variant) *job {
	const cout, cin, n, h, w, k = 20, 3, 2, 7, 9, 3
	tr := v.Has("TRANSPOSE")
	pad, oh, ow := uint32(1), uint32(h), uint32(w)
	if tr {
		pad, oh, ow = 0, h+k-1, w+k-1
	}
	wg, shmemPad, csh := uint32(128), uint32(4), uint32(0)
	switch {
	case v.Has("COOPMAT"):
		wg, shmemPad, csh = (64/16)*(32/16)*32, 8, 1
	case v.Has("COOPMAT2"):
		shmemPad, csh = 8, 1
	}
	j := &job{spec: map[uint32]uint32{0: wg, 1: 64, 2: 32, 3: 32, 4: 4, 5: 1, 6: shmemPad,
		7: 1, 8: 1, 9: pad, 10: pad, 11: 1, 12: 1, 13: k, 14: k, 15: 0, 16: csh, 17: 16, 18: 16},
		push: map[string]uint32{}, bf16: map[uint32]bool{}}
	nb03 := uint32(k * k * cin)
	if tr {
		nb03 = k * k * cout
	}
	for key, x := range map[string]uint32{"Cout": cout, "Cin": cin, "N": n, "W": w, "H": h, "OW": ow, "OH": oh,
		"nb01": k, "nb02": k * k, "nb03": nb03, "nb11": w, "nb12": w * h, "nb13": w * h * cin,
		"nb1": ow, "nb2": ow * oh, "nb3": ow * oh * cout} {
		j.push[key] = x
	}
	j.push["OWmp"], j.push["OWL"] = fastDiv(ow)
	j.push["OWOHmp"], j.push["OWOHL"] = fastDiv(ow * oh)
	npq := n * oh * ow
	j.groups = [3]uint32{(cout + 63) / 64, (npq + 31) / 32, 1}
	j.elems = map[uint32]int{0: cout * cin * k * k, 1: n * cin * h * w, 2: int(n * cout * oh * ow)}
	j.outputs = []uint32{2}
	dk := decoderFor(firstOf(v, "A_TYPE"), false)
	j.check = func(b map[uint32][]byte) error {
		for in := range n {
			for co := range cout {
				for y := range int(oh) {
					for x := range int(ow) {
						var sum, mag float64
						for ci := range cin {
							for ky := range k {
								for kx := range k {
									iy, ix := y-int(pad)+ky, x-int(pad)+kx
									kern := ((co*cin+ci)*k+ky)*k + kx
									if tr {
										iy, ix = y-ky, x-kx
										kern = ((ci*cout+co)*k+ky)*k + kx
									}
									if iy < 0 || iy >= h || ix < 0 || ix >= w {
										continue
									}
									p := dk(b[0], kern) * f32(b[1], ((in*cin+ci)*h+iy)*w+ix)
									sum += p
									mag += math.Abs(p)
								}
							}
						}
						o := ((in*cout+co)*int(oh)+y)*int(ow) + x
						if got := f32(b[2], o); math.IsNaN(got) || math.Abs(got-sum) > 1e-2*mag+1e-4 {
							return fmt.Errorf("dst[%d][%d][%d][%d] = %g, want %g (Go reference)", in, co, y, x, got, sum)
						}
					}
				}
			}
		}
		return nil
	}
	return j
}

// conv2dDW: ggml_conv_2d_dw_direct, a depthwise 3×3 convolution of 2
// images of 3 channels of 7×9, stride 1, padding 1, in ggml's WHCN
// layout or its channels-first CWHN one.
func conv2dDW(v *Variant) *job {
	const n, c, h, w, k = 2, 3, 7, 9, 3
	const ne = n * c * h * w
	j := &job{push: map[string]uint32{"ne": ne, "batches": n, "channels": c, "dst_w": w, "dst_h": h, "src_w": w, "src_h": h,
		"knl_w": k, "knl_h": k, "stride_x": 1, "stride_y": 1, "pad_x": 1, "pad_y": 1, "dilation_x": 1, "dilation_y": 1},
		bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, 1, 1}
	j.elems = map[uint32]int{0: c * k * k, 1: ne, 2: ne}
	j.outputs = []uint32{2}
	if v.Has("WHCN") {
		dk := decoderFor(firstOf(v, "A_TYPE"), false)
		j.check = func(b map[uint32][]byte) error {
			for i := range ne {
				x, y, ch, im := i%w, i/w%h, i/(w*h)%c, i/(w*h*c)
				var sum float64
				for ky := range k {
					for kx := range k {
						if sy, sx := y-1+ky, x-1+kx; sy >= 0 && sy < h && sx >= 0 && sx < w {
							sum += f32(b[1], ((im*c+ch)*h+sy)*w+sx) * dk(b[0], (ch*k+ky)*k+kx)
						}
					}
				}
				if got := f32(b[2], i); math.IsNaN(got) || math.Abs(got-sum) > 1e-4 {
					return fmt.Errorf("dst element %d = %g, want %g (Go reference)", i, got, sum)
				}
			}
			return nil
		}
	}
	return j
}

// conv3d: ggml_conv_3d (conv3d_mm.comp) of 2 batches of 2 channels of
// 3×5×7, 20 output channels, a 3×3×3 kernel, stride 1, padding 1, with
// the same small tile and per-path settings as conv2d (no collectives).
func conv3d(v *Variant) *job {
	const oc, ic, n, id, ih, iw, k = 20, 2, 2, 3, 5, 7, 3
	wg, shmemPad, csh := uint32(128), uint32(4), uint32(0)
	switch {
	case v.Has("COOPMAT"):
		wg, shmemPad, csh = (64/16)*(32/16)*32, 8, 1
	case v.Has("COOPMAT2"):
		shmemPad, csh = 8, 1
	}
	j := &job{spec: map[uint32]uint32{0: wg, 1: 64, 2: 32, 3: 32, 4: 4, 5: shmemPad,
		6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 12: 1, 13: 1, 14: 1, 15: k, 16: k, 17: k, 18: 0, 19: csh, 20: 16, 21: 16},
		push: map[string]uint32{}, bf16: map[uint32]bool{}}
	for key, x := range map[string]uint32{"OC": oc, "IC": ic, "N": n, "IW": iw, "IH": ih, "ID": id, "OW": iw, "OH": ih, "OD": id,
		"nb01": k, "nb02": k * k, "nb03": k * k * k, "nb11": iw, "nb12": iw * ih, "nb13": iw * ih * id,
		"nb1": iw, "nb2": iw * ih, "nb3": iw * ih * id} {
		j.push[key] = x
	}
	j.push["OWmp"], j.push["OWL"] = fastDiv(iw)
	j.push["OWOHmp"], j.push["OWOHL"] = fastDiv(iw * ih)
	j.push["OWOHODmp"], j.push["OWOHODL"] = fastDiv(iw * ih * id)
	const npq = n * id * ih * iw
	j.groups = [3]uint32{(oc + 63) / 64, (npq + 31) / 32, 1}
	j.elems = map[uint32]int{0: oc * ic * k * k * k, 1: n * ic * id * ih * iw, 2: n * oc * id * ih * iw}
	j.outputs = []uint32{2}
	dk := decoderFor(firstOf(v, "A_TYPE"), false)
	j.check = func(b map[uint32][]byte) error {
		for o := range n * oc * id * ih * iw {
			x, y, z, co, in := o%iw, o/iw%ih, o/(iw*ih)%id, o/(iw*ih*id)%oc, o/(iw*ih*id*oc)
			var sum, mag float64
			for ci := range ic {
				for kz := range k {
					for ky := range k {
						for kx := range k {
							sz, sy, sx := z-1+kz, y-1+ky, x-1+kx
							if sz < 0 || sz >= id || sy < 0 || sy >= ih || sx < 0 || sx >= iw {
								continue
							}
							p := dk(b[0], (((co*ic+ci)*k+kz)*k+ky)*k+kx) * f32(b[1], (((in*ic+ci)*id+sz)*ih+sy)*iw+sx)
							sum += p
							mag += math.Abs(p)
						}
					}
				}
			}
			if got := f32(b[2], o); math.IsNaN(got) || math.Abs(got-sum) > 1e-2*mag+1e-4 {
				return fmt.Errorf("dst element %d = %g, want %g (Go reference)", o, got, sum)
			}
		}
		return nil
	}
	return j
}

// im2col3d: ggml_im2col_3d of one batch of 2 channels of 6x5x4 with a
// 2x2x2 kernel, stride 1, padding 1: the output is 7x6x5 patches of 16,
// z striding over depth and rows in 4 workgroups.
func im2col3d(v *Variant) *job {
	const ic, id, ih, iw, k, pad = 2, 4, 5, 6, 2, 1
	const od, oh, ow = id + 2*pad - k + 1, ih + 2*pad - k + 1, iw + 2*pad - k + 1
	const patch = ic * k * k * k
	j := &job{spec: map[uint32]uint32{0: 512}, push: map[string]uint32{"nb10": 1, "nb11": iw, "nb12": iw * ih, "nb13": iw * ih * id,
		"s0": 1, "s1": 1, "s2": 1, "p0": pad, "p1": pad, "p2": pad, "d0": 1, "d1": 1, "d2": 1,
		"IW": iw, "IH": ih, "ID": id, "IC": ic, "KW": k, "OH": oh, "KD_KH_KW": k * k * k, "KH_KW": k * k,
		"IC_KD_KH_KW": patch, "N_OD_OH": od * oh, "OD_OH": od * oh, "OD_OH_OW_IC_KD_KH_KW": od * oh * ow * patch,
		"OH_OW_IC_KD_KH_KW": oh * ow * patch, "OW_IC_KD_KH_KW": ow * patch}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, ow, 4}
	j.elems = map[uint32]int{0: ic * id * ih * iw, 1: od * oh * ow * patch}
	j.outputs = []uint32{1}
	if firstOf(v, "BDA") == "1" {
		j.addrs = map[string]uint32{"dst_addr": 1}
	}
	dd := decoderFor(firstOf(v, "D_TYPE"), false)
	tol := 0.0
	if firstOf(v, "D_TYPE") != "float" {
		tol = 1e-3
	}
	j.check = func(b map[uint32][]byte) error {
		for i := range od * oh * ow * patch {
			r, ikw := i/k, i%k
			r, ikh := r/k, r%k
			r, ikd := r/k, r%k
			r, iic := r/ic, r%ic
			r, iow := r/ow, r%ow
			iod, ioh := r/oh, r%oh
			x, y, z := iow+ikw-pad, ioh+ikh-pad, iod+ikd-pad
			want := 0.0
			if x >= 0 && x < iw && y >= 0 && y < ih && z >= 0 && z < id {
				want = f32(b[0], ((iic*id+z)*ih+y)*iw+x)
			}
			if got := dd(b[1], i); math.Abs(got-want) > tol {
				return fmt.Errorf("element %d = %g, want %g (Go reference)", i, got, want)
			}
		}
		return nil
	}
	return j
}

// col2im1d: ggml_col2im_1d (the scatter half of a transposed 1D
// convolution): columns of 3 channels × kernel 4 over 11 inputs, stride
// 2, cropped by 1, into 20 outputs per channel.
func col2im1d(v *Variant) *job {
	const tout, oc, k, tin, stride, p0 = 20, 3, 4, 11, 2, 1
	bf := v.Has("DATA_A_BF16")
	j := &job{push: map[string]uint32{"T_out": tout, "OC": oc, "K_OC": k * oc, "T_in": tin, "K": k, "stride": stride, "p0": p0},
		bf16: map[uint32]bool{0: bf}}
	j.groups = [3]uint32{1, oc, 1}
	j.elems = map[uint32]int{0: k * oc * tin, 1: tout * oc}
	j.outputs = []uint32{1}
	dec := decoderFor(firstOf(v, "A_TYPE"), bf)
	tol := map[string]float64{"float": 0, "float16_t": 1e-3}[firstOf(v, "A_TYPE")]
	if bf {
		tol = 1e-2
	}
	j.check = func(b map[uint32][]byte) error {
		return checkEach(tout*oc, "element", func(i int) float64 { return dec(b[1], i) }, func(i int) float64 {
			t, c := i%tout+p0, i/tout
			var s float32
			for ti := max(0, (t-k+stride)/stride); ti <= min(t/stride, tin-1); ti++ {
				s += float32(dec(b[0], c*k+t-ti*stride+ti*k*oc))
			}
			return float64(s)
		}, tol)
	}
	return j
}

// convTranspose1d: ggml_conv_transpose_1d of 2 input channels of 150
// values (two 128-wide blocks) with a 3-wide kernel to 3 output
// channels, stride 2: 301 outputs each.
func convTranspose1d(v *Variant) *job {
	const cout, cin, k, l, s = 3, 2, 3, 150, 2
	const kl = (l-1)*s + k
	j := &job{push: map[string]uint32{"Cout": cout, "Cin": cin, "K": k, "L": l, "KL": kl, "nb01": k, "nb02": k * cout,
		"nb11": l, "nb1": kl, "s0": s}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{cout, 1, 1}
	j.elems = map[uint32]int{0: k * cout * cin, 1: l * cin, 2: kl * cout}
	j.outputs = []uint32{2}
	j.check = func(b map[uint32][]byte) error {
		want := make([]float64, kl*cout)
		for co := range cout {
			for x := range l {
				for kk := range k {
					for ci := range cin {
						want[co*kl+x*s+kk] += f32(b[0], kk+co*k+ci*k*cout) * f32(b[1], x+ci*l)
					}
				}
			}
		}
		for i, w := range want {
			if got := f32(b[2], i); math.Abs(got-w) > 1e-5*math.Max(1, math.Abs(w)) {
				return fmt.Errorf("element %d = %g, want %g (Go reference)", i, got, w)
			}
		}
		return nil
	}
	return j
}

package llamadiff

import (
	"fmt"
	"math"
)

// im2col: ggml_im2col (2D) of a batch of 2 images, 3 channels of 7×9,
// with a 3×3 kernel, stride 2 and padding 1 (so edges read the zero
// padding), dispatched {min(CHW, max(4096, OW·KH·KW)), OW, OH·batch} over
// {512, 1, 1}. The buffer-device-address variants write through a
// pointer the harness does not provide and are not run.
func im2col(v *Variant) *job {
	if firstOf(v, "BDA") == "1" {
		return nil
	}
	const ic, ih, iw, kh, kw, s, pad, batch = 3, 7, 9, 3, 3, 2, 1, 2
	const oh, ow = (ih+2*pad-kh)/s + 1, (iw+2*pad-kw)/s + 1
	const chw = ic * kh * kw
	j := &job{spec: map[uint32]uint32{0: 32}, push: map[string]uint32{"batch_offset": ic * ih * iw, "offset_delta": ih * iw,
		"IC": ic, "IW": iw, "IH": ih, "OW": ow, "OH": oh, "KW": kw, "KH": kh, "OH_batch": oh * batch, "CHW": chw,
		"s0": s, "s1": s, "p0": pad, "p1": pad, "d0": 1, "d1": 1, "batch_IC": batch * ic}, bf16: map[uint32]bool{}}
	j.groups = [3]uint32{1, ow, oh * batch}
	j.elems = map[uint32]int{0: batch * ic * ih * iw, 1: batch * oh * ow * chw}
	j.outputs = []uint32{1}
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

package exec

import (
	"encoding/binary"
	"math"
	"math/rand"
	"testing"

	"github.com/coopshader/coop/backend"
)

// TestGather checks OpImageGather's footprint and order, a component
// choice, and ConstOffsets (each texel with its own offset).
func TestGather(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	dev := New(Options{})
	img, ref := newRefImage(t, dev, r, 4, 4, 1)
	var in [][4]float32
	for i := 0; i < 32; i++ {
		in = append(in, [4]float32{float32(r.Float64()*1.5 - 0.25), float32(r.Float64()*1.5 - 0.25), 0, 0})
	}
	sm := backend.SamplerDesc{AddressU: backend.AddressRepeat, AddressV: backend.AddressMirroredRepeat}
	tex := func(i, j, c int) float32 {
		i, _ = refWrap(i, 4, sm.AddressU)
		j, _ = refWrap(j, 4, sm.AddressV)
		return ref.levels[0][j*4+i][c]
	}
	corner := [4][2]int{{0, 1}, {1, 1}, {1, 0}, {0, 0}}
	offs := [4][2]int{{0, 0}, {1, 0}, {0, 1}, {2, 2}}
	for _, withOffs := range []bool{false, true} {
		op := "%r = OpImageGather %v4f %si %st %int_2"
		if withOffs {
			op = "%r = OpImageGather %v4f %si %st %int_2 ConstOffsets %offs"
		}
		out := sampleRun(t, dev, img, sm, img2D, op, in)
		for i, v := range in {
			i0 := int(math.Floor(float64(v[0])*4 - 0.5))
			j0 := int(math.Floor(float64(v[1])*4 - 0.5))
			for k, c := range corner {
				o := [2]int{}
				if withOffs {
					o = offs[k]
				}
				if want := tex(i0+c[0]+o[0], j0+c[1]+o[1], 2); out[i][k] != want {
					t.Fatalf("offsets %v at (%v, %v): texel %d: got %v, want %v", withOffs, v[0], v[1], k, out[i][k], want)
				}
			}
		}
	}
}

// TestSampleDref checks depth comparison with linear filtering (the
// comparisons are filtered), the reference clamped for UNORM depth, and
// OpImageDrefGather.
func TestSampleDref(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	dev := New(Options{})
	depth := []float32{0.1, 0.4, 0.6, 0.9, 0.2, 0.5, 0.5, 1.0, 0.0, 0.3, 0.7, 0.8, 0.25, 0.75, 0.45, 0.55}
	img := newImage(t, dev, backend.ImageDesc{Format: backend.FormatD32f, Dim: backend.Image2D, Width: 4, Height: 4})
	for i, d := range depth {
		binary.LittleEndian.PutUint32(ImageBytes(img)[4*i:], math.Float32bits(d))
	}
	var in [][4]float32
	for i := 0; i < 32; i++ {
		in = append(in, [4]float32{float32(r.Float64()), float32(r.Float64()), 0, float32(r.Float64())})
	}
	in = append(in, [4]float32{0.3, 0.3, 0, 0.5}, [4]float32{0.125, 0.125, 0, 0.1})
	const dimg = "OpTypeImage %float 2D 1 0 0 1 Unknown"
	for _, op := range []backend.CompareOp{backend.CompareLess, backend.CompareGreaterOrEqual, backend.CompareEqual} {
		sm := backend.SamplerDesc{MagFilter: backend.FilterLinear, MinFilter: backend.FilterLinear,
			AddressU: backend.AddressClampToEdge, AddressV: backend.AddressClampToEdge, Compare: true, CompareOp: op}
		cmp := func(ref float64, i, j int) float64 {
			d := float64(depth[min(max(j, 0), 3)*4+min(max(i, 0), 3)])
			ok := map[backend.CompareOp]bool{backend.CompareLess: ref < d, backend.CompareGreaterOrEqual: ref >= d, backend.CompareEqual: ref == d}[op]
			return b2f(ok)
		}
		out := sampleRun(t, dev, img, sm, dimg, `%d = OpImageSampleDrefExplicitLod %float %si %st %dref Lod %float_0
%r = OpCompositeConstruct %v4f %d %d %d %d`, in)
		gout := sampleRun(t, dev, img, sm, dimg, "%r = OpImageDrefGather %v4f %si %st %dref", in)
		for i, v := range in {
			u, w := float64(v[0])*4-0.5, float64(v[1])*4-0.5
			i0, j0 := int(math.Floor(u)), int(math.Floor(w))
			a := math.Round((u-math.Floor(u))*256) / 256
			b := math.Round((w-math.Floor(w))*256) / 256
			ref := float64(v[3])
			want := (1-a)*(1-b)*cmp(ref, i0, j0) + a*(1-b)*cmp(ref, i0+1, j0) + (1-a)*b*cmp(ref, i0, j0+1) + a*b*cmp(ref, i0+1, j0+1)
			if out[i][0] != float32(want) {
				t.Fatalf("op %d at %v: got %v, want %v", op, v, out[i][0], want)
			}
			gw := []float64{cmp(ref, i0, j0+1), cmp(ref, i0+1, j0+1), cmp(ref, i0+1, j0), cmp(ref, i0, j0)}
			for k := range gw {
				if gout[i][k] != float32(gw[k]) {
					t.Fatalf("gather op %d at %v: texel %d: got %v, want %v", op, v, k, gout[i][k], gw[k])
				}
			}
		}
	}
	// A UNORM depth texture clamps the reference to [0, 1]: 1.5 compares
	// as 1, which equals a depth of 65535.
	img16 := newImage(t, dev, backend.ImageDesc{Format: backend.FormatD16, Dim: backend.Image2D, Width: 1, Height: 1})
	binary.LittleEndian.PutUint16(ImageBytes(img16), 0xffff)
	sm := backend.SamplerDesc{Compare: true, CompareOp: backend.CompareEqual}
	out := sampleRun(t, dev, img16, sm, dimg, `%d = OpImageSampleDrefExplicitLod %float %si %st %dref Lod %float_0
%r = OpCompositeConstruct %v4f %d %d %d %d`, [][4]float32{{0.5, 0.5, 0, 1.5}})
	if out[0][0] != 1 {
		t.Errorf("UNORM reference clamp: got %v, want 1", out[0][0])
	}
}

// TestSampleCube samples each face of a cube map (2x2 faces, texel value
// face*10 + index) with directions whose face and texel follow from the
// specification's face selection table.
func TestSampleCube(t *testing.T) {
	dev := New(Options{})
	img := newImage(t, dev, backend.ImageDesc{Format: backend.FormatR32f, Dim: backend.ImageCube, Width: 2, Height: 2, Layers: 6})
	for f := 0; f < 6; f++ {
		for i := 0; i < 4; i++ {
			binary.LittleEndian.PutUint32(ImageBytes(img)[4*(f*4+i):], math.Float32bits(float32(f*10+i)))
		}
	}
	cases := []struct {
		dir  [3]float32
		want float32
	}{
		{[3]float32{1, 0.2, -0.3}, 1},     // +X: s = 0.65, t = 0.4
		{[3]float32{-1, -0.6, 0.2}, 13},   // -X: s = 0.6, t = 0.8
		{[3]float32{0.3, 1, 0.8}, 23},     // +Y: s = 0.65, t = 0.9
		{[3]float32{-0.4, -1, 0.1}, 30},   // -Y: s = 0.3, t = 0.45
		{[3]float32{0.5, -0.5, 2}, 43},    // +Z: s = t = 0.625
		{[3]float32{0.5, 0.5, -2}, 50},    // -Z: s = t = 0.375
		{[3]float32{-0.9, 0.2, -0.9}, 51}, // a tie of x and z goes to z: -Z, s = 0.75, t = 0.389
	}
	var in [][4]float32
	for _, c := range cases {
		in = append(in, [4]float32{c.dir[0], c.dir[1], c.dir[2], 0})
	}
	out := sampleRun(t, dev, img, backend.SamplerDesc{}, "OpTypeImage %float Cube 0 0 0 1 Unknown",
		"%r = OpImageSampleExplicitLod %v4f %si %str Lod %float_0", in)
	for i, c := range cases {
		if out[i] != [4]float32{c.want, 0, 0, 1} {
			t.Errorf("direction %v: got %v, want (%v, 0, 0, 1)", c.dir, out[i], c.want)
		}
	}
}

// TestSampleArrayAndUnnormalized checks the array layer RNE(a) clamped to
// the layers, and unnormalized coordinates.
func TestSampleArrayAndUnnormalized(t *testing.T) {
	dev := New(Options{})
	img := newImage(t, dev, backend.ImageDesc{Format: backend.FormatR32f, Dim: backend.Image2D, Width: 4, Height: 1, Layers: 3})
	for i := 0; i < 12; i++ {
		binary.LittleEndian.PutUint32(ImageBytes(img)[4*i:], math.Float32bits(float32(i)))
	}
	in := [][4]float32{{0.1, 0.5, 1.5, 0}, {0.1, 0.5, 0.5, 0}, {0.1, 0.5, 2.5, 0}, {0.1, 0.5, -3, 0}, {0.9, 0.5, 7, 0}, {0.3, 0.5, 1.49, 0}}
	want := []float32{8, 0, 8, 0, 11, 5}
	out := sampleRun(t, dev, img, backend.SamplerDesc{}, "OpTypeImage %float 2D 0 1 0 1 Unknown",
		"%r = OpImageSampleExplicitLod %v4f %si %str Lod %float_0", in)
	for i := range in {
		if out[i][0] != want[i] {
			t.Errorf("layer %v at s %v: got %v, want %v", in[i][2], in[i][0], out[i][0], want[i])
		}
	}
	flat := newImage(t, dev, backend.ImageDesc{Format: backend.FormatR32f, Dim: backend.Image2D, Width: 4, Height: 1})
	copy(ImageBytes(flat), ImageBytes(img)[:16])
	sm := backend.SamplerDesc{Unnormalized: true, AddressU: backend.AddressClampToEdge, AddressV: backend.AddressClampToEdge}
	out = sampleRun(t, dev, flat, sm, img2D, "%r = OpImageSampleExplicitLod %v4f %si %st Lod %float_0",
		[][4]float32{{2.5, 0.5, 0, 0}, {0.99, 0.2, 0, 0}, {9, 0, 0, 0}, {-4, 0, 0, 0}})
	for i, w := range []float32{2, 0, 3, 0} {
		if out[i][0] != w {
			t.Errorf("unnormalized %d: got %v, want %v", i, out[i][0], w)
		}
	}
}

// TestImageQueries checks OpImageQuerySizeLod, OpImageQueryLevels and the
// base level of a view.
func TestImageQueries(t *testing.T) {
	dev := New(Options{})
	img := newImage(t, dev, backend.ImageDesc{Format: backend.FormatRgba8, Dim: backend.Image2D, Width: 8, Height: 4, Levels: 3})
	op := `%im = OpImage %img %si
%q = OpImageQuerySizeLod %v2i %im %int_1
%qf = OpConvertSToF %v2f %q
%nl = OpImageQueryLevels %int %im
%nlf = OpConvertSToF %float %nl
%q0 = OpImageQuerySizeLod %v2i %im %int_0
%q0x = OpCompositeExtract %int %q0 0
%q0f = OpConvertSToF %float %q0x
%qf0 = OpCompositeExtract %float %qf 0
%qf1 = OpCompositeExtract %float %qf 1
%r = OpCompositeConstruct %v4f %qf0 %qf1 %nlf %q0f`
	out := sampleRun(t, dev, img, backend.SamplerDesc{}, img2D, op, [][4]float32{{}})
	if out[0] != [4]float32{4, 2, 3, 8} {
		t.Errorf("queries: got %v, want [4 2 3 8]", out[0])
	}
}

// TestImplicitLod samples with derivatives over quads
// (DerivativeGroupLinearKHR): coordinates 2 texels apart along x and 1
// along y give λ = 1; a bias adds to it; OpImageQueryLod reports both.
func TestImplicitLod(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	dev := New(Options{})
	img, ref := newRefImage(t, dev, r, 16, 16, 5)
	var in [][4]float32
	for q := 0; q < 4; q++ {
		// Multiples of 1/64, so the differences are exact.
		s, tt := float32(r.Intn(48))/64, float32(r.Intn(48))/64
		bias := float32(q) * 0.5
		in = append(in, [4]float32{s, tt, bias, 0}, [4]float32{s + 2.0/16, tt, bias, 0},
			[4]float32{s, tt + 1.0/16, bias, 0}, [4]float32{s + 2.0/16, tt + 1.0/16, bias, 0})
	}
	sm := backend.SamplerDesc{MinFilter: backend.FilterNearest, MagFilter: backend.FilterLinear, Mipmap: backend.MipmapLinear, MaxLod: 1000}
	mode := "OpExecutionMode %main DerivativeGroupLinearKHR"
	out := sampleRun(t, dev, img, sm, img2D, "%r = OpImageSampleImplicitLod %v4f %si %st Bias %lod", in, "MODE", mode)
	for i, v := range in {
		lam := 1 + float64(v[2])
		hi := math.Floor(lam)
		a := refSample2D(ref, sm, int(hi), float64(v[0]), float64(v[1]), backend.FilterNearest, [2]int{})
		b := refSample2D(ref, sm, int(hi)+1, float64(v[0]), float64(v[1]), backend.FilterNearest, [2]int{})
		for k := range a {
			want := float32((1-(lam-hi))*a[k] + (lam-hi)*b[k])
			if out[i][k] != want {
				t.Fatalf("invocation %d (bias %v): component %d: got %v, want %v", i, v[2], k, out[i][k], want)
			}
		}
	}
	out = sampleRun(t, dev, img, sm, img2D, `%ql = OpImageQueryLod %v2f %si %st
%r = OpVectorShuffle %v4f %ql %ql 0 1 0 1`, in, "MODE", mode)
	for i := range in {
		if out[i][0] != 1 || out[i][1] != 1 {
			t.Errorf("query lod %d: got %v, want (1, 1)", i, out[i])
		}
	}
}

// TestSampleGradProjMinLod checks the Grad operand (derivatives of 2 and
// 1 texels give λ = 1), projective coordinates (divided by the last
// component) and the MinLod operand (which raises λ).
func TestSampleGradProjMinLod(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	dev := New(Options{})
	img, ref := newRefImage(t, dev, r, 16, 16, 4)
	sm := backend.SamplerDesc{MinFilter: backend.FilterLinear, MaxLod: 1000}
	var in [][4]float32
	for i := 0; i < 16; i++ {
		in = append(in, [4]float32{float32(r.Intn(64)) / 64, float32(r.Intn(64)) / 64, 0.125, 1.0 / 16})
	}
	check := func(what string, out [][4]float32, level int, f backend.Filter) {
		t.Helper()
		for i, v := range in {
			want := refSample2D(ref, sm, level, float64(v[0]), float64(v[1]), f, [2]int{})
			for k := range want {
				if out[i][k] != float32(want[k]) {
					t.Fatalf("%s %d: component %d: got %v, want %v", what, i, k, out[i][k], float32(want[k]))
				}
			}
		}
	}
	out := sampleRun(t, dev, img, sm, img2D, `%gx = OpCompositeConstruct %v2f %lod %float_0
%gy = OpCompositeConstruct %v2f %float_0 %dref
%r = OpImageSampleExplicitLod %v4f %si %st Grad %gx %gy`, in)
	check("grad", out, 1, backend.FilterLinear)

	out = sampleRun(t, dev, img, sm, img2D, `%two = OpFAdd %float %float_1 %float_1
%ps = OpFMul %float %s %two
%pt0 = OpCompositeExtract %float %iv 1
%pt = OpFMul %float %pt0 %two
%pc = OpCompositeConstruct %v3f %ps %pt %two
%r = OpImageSampleProjExplicitLod %v4f %si %pc Lod %float_0`, in)
	check("proj", out, 0, backend.FilterNearest) // λ = 0: the magnification filter

	out = sampleRun(t, dev, img, sm, img2D, `%two = OpFAdd %float %float_1 %float_1
%r = OpImageSampleExplicitLod %v4f %si %st Lod|MinLod %float_0 %two`, in)
	check("min lod", out, 2, backend.FilterLinear)
}

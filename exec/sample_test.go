package exec

import (
	"encoding/binary"
	"math"
	"math/rand"
	"testing"

	"github.com/coopshader/coop/backend"
)

// sampleKernel: invocation x reads vec4 in[x] = (s, t, lod, dref), runs
// {{OP}} (which leaves a vec4 %r) on the texture at binding 0 and writes
// %r to out[x].
const sampleKernel = `
OpCapability Shader
OpCapability ImageQuery
OpCapability ImageGatherExtended
OpCapability Sampled1D
OpCapability SampledCubeArray
OpCapability MinLod
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize {{N}} 1 1
{{MODE}}
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %tex DescriptorSet 0
OpDecorate %tex Binding 0
OpDecorate %ra ArrayStride 16
OpDecorate %Buf Block
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %in DescriptorSet 0
OpDecorate %in Binding 1
OpDecorate %out DescriptorSet 0
OpDecorate %out Binding 2
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v2f = OpTypeVector %float 2
%v3f = OpTypeVector %float 3
%v2i = OpTypeVector %int 2
%v3i = OpTypeVector %int 3
%v4i = OpTypeVector %int 4
%v3u = OpTypeVector %uint 3
%v4f = OpTypeVector %float 4
%img = {{IMG}}
%simg = OpTypeSampledImage %img
%ptex = OpTypePointer UniformConstant %simg
%tex = OpVariable %ptex UniformConstant
%ra = OpTypeRuntimeArray %v4f
%Buf = OpTypeStruct %ra
%pBuf = OpTypePointer StorageBuffer %Buf
%in = OpVariable %pBuf StorageBuffer
%out = OpVariable %pBuf StorageBuffer
%pv4 = OpTypePointer StorageBuffer %v4f
%pgid = OpTypePointer Input %v3u
%gid = OpVariable %pgid Input
%int_0 = OpConstant %int 0
%int_1 = OpConstant %int 1
%int_2 = OpConstant %int 2
%int_m1 = OpConstant %int -1
%float_0 = OpConstant %float 0
%float_1 = OpConstant %float 1
%off = OpConstantComposite %v2i %int_1 %int_m1
%uint_4 = OpConstant %uint 4
%offarr = OpTypeArray %v2i %uint_4
%o0 = OpConstantComposite %v2i %int_0 %int_0
%o1 = OpConstantComposite %v2i %int_1 %int_0
%o2 = OpConstantComposite %v2i %int_0 %int_1
%o3 = OpConstantComposite %v2i %int_2 %int_2
%offs = OpConstantComposite %offarr %o0 %o1 %o2 %o3
%main = OpFunction %void None %fn
%lbl = OpLabel
%g = OpLoad %v3u %gid
%x = OpCompositeExtract %uint %g 0
%pi = OpAccessChain %pv4 %in %int_0 %x
%iv = OpLoad %v4f %pi
%st = OpVectorShuffle %v2f %iv %iv 0 1
%str = OpVectorShuffle %v3f %iv %iv 0 1 2
%s = OpCompositeExtract %float %iv 0
%lod = OpCompositeExtract %float %iv 2
%dref = OpCompositeExtract %float %iv 3
%si = OpLoad %simg %tex
{{OP}}
%po = OpAccessChain %pv4 %out %int_0 %x
OpStore %po %r
OpReturn
OpFunctionEnd
`

// refImage is a 2D RGBA32F image for the reference sampler: texel values
// at each level.
type refImage struct {
	w, h   int
	levels [][][4]float32 // [level][y*w+x]
}

func (im *refImage) size(l int) (int, int) { return max(im.w>>l, 1), max(im.h>>l, 1) }

// refWrap applies an address mode, written from the specification's table.
func refWrap(i, n int, m backend.AddressMode) (int, bool) {
	switch m {
	case backend.AddressRepeat:
		return int(math.Mod(math.Mod(float64(i), float64(n))+float64(n), float64(n))), true
	case backend.AddressMirroredRepeat:
		// Reflect about every texel boundary k*n - 1/2.
		p := int(math.Floor(float64(i) / float64(n)))
		r := i - p*n
		if p%2 != 0 {
			r = n - 1 - r
		}
		return r, true
	case backend.AddressClampToEdge:
		return min(max(i, 0), n-1), true
	case backend.AddressMirrorClampToEdge:
		if i < 0 {
			i = -i - 1
		}
		return min(i, n-1), true
	}
	return i, i >= 0 && i < n
}

// refSample2D samples level l of im at (s, t) as the Vulkan
// specification's formulas say, with 8-bit subtexel weights.
func refSample2D(im *refImage, sm backend.SamplerDesc, l int, s, t float64, filter backend.Filter, off [2]int) [4]float64 {
	w, h := im.size(l)
	u, v := s*float64(w), t*float64(h)
	border := [4]float64{}
	switch sm.Border {
	case backend.BorderFloatOpaqueBlack:
		border[3] = 1
	case backend.BorderFloatOpaqueWhite:
		border = [4]float64{1, 1, 1, 1}
	}
	tex := func(i, j int) [4]float64 {
		i, okI := refWrap(i, w, sm.AddressU)
		j, okJ := refWrap(j, h, sm.AddressV)
		if !okI || !okJ {
			return border
		}
		var r [4]float64
		for k, c := range im.levels[l][j*w+i] {
			r[k] = float64(c)
		}
		return r
	}
	if filter == backend.FilterNearest {
		return tex(int(math.Floor(u))+off[0], int(math.Floor(v))+off[1])
	}
	i0, j0 := int(math.Floor(u-0.5)), int(math.Floor(v-0.5))
	a := math.Round((u-0.5-math.Floor(u-0.5))*256) / 256
	b := math.Round((v-0.5-math.Floor(v-0.5))*256) / 256
	i0 += off[0]
	j0 += off[1]
	var r [4]float64
	for _, c := range []struct {
		i, j int
		w    float64
	}{{i0, j0, (1 - a) * (1 - b)}, {i0 + 1, j0, a * (1 - b)}, {i0, j0 + 1, (1 - a) * b}, {i0 + 1, j0 + 1, a * b}} {
		if c.w == 0 {
			continue
		}
		x := tex(c.i, c.j)
		for k := range r {
			r[k] += c.w * x[k]
		}
	}
	return r
}

// sampleRun dispatches sampleKernel with OP on image img and sampler sm
// for the inputs, and returns the outputs.
func sampleRun(t *testing.T, dev *Device, img backend.Image, sm backend.SamplerDesc, imgType, op string, in [][4]float32, extra ...string) [][4]float32 {
	t.Helper()
	kv := append(extra, "N", "16", "MODE", "", "IMG", imgType, "OP", op)
	code := asm(t, sampleKernel, kv...)
	n := (len(in) + 15) / 16 * 16
	ib, _ := dev.NewBuffer(16*n, backend.UsageStorage)
	ob, _ := dev.NewBuffer(16*n, backend.UsageStorage)
	for x, v := range in {
		for k, c := range v {
			binary.LittleEndian.PutUint32(Bytes(ib)[16*x+4*k:], math.Float32bits(c))
		}
	}
	s, err := dev.NewSampler(sm)
	if err != nil {
		t.Fatal(err)
	}
	_, err = dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{uint32(n / 16), 1, 1}, Bindings: []backend.Binding{
		{Binding: 0, Kind: backend.CombinedImageSampler, Image: img, Sampler: s},
		{Binding: 1, Kind: backend.StorageBuffer, Buffer: ib},
		{Binding: 2, Kind: backend.StorageBuffer, Buffer: ob},
	}})
	if err != nil {
		t.Fatal(err)
	}
	out := make([][4]float32, len(in))
	for x := range out {
		for k := range out[x] {
			out[x][k] = math.Float32frombits(binary.LittleEndian.Uint32(Bytes(ob)[16*x+4*k:]))
		}
	}
	return out
}

// newRefImage makes a w x h RGBA32F image of random values with levels
// levels, and its reference copy.
func newRefImage(t *testing.T, dev *Device, r *rand.Rand, w, h, levels int) (backend.Image, *refImage) {
	desc := backend.ImageDesc{Format: backend.FormatRgba32f, Dim: backend.Image2D, Width: w, Height: h, Levels: levels}
	img := newImage(t, dev, desc)
	ref := &refImage{w: w, h: h}
	for l := 0; l < levels; l++ {
		lw, lh := ref.size(l)
		texels := make([][4]float32, lw*lh)
		for i := range texels {
			for k := range texels[i] {
				texels[i][k] = float32(r.Intn(1000)) / 8
			}
			for k, c := range texels[i] {
				binary.LittleEndian.PutUint32(ImageBytes(img)[desc.LevelOffset(l)+16*i+4*k:], math.Float32bits(c))
			}
		}
		ref.levels = append(ref.levels, texels)
	}
	return img, ref
}

const img2D = "OpTypeImage %float 2D 0 0 0 1 Unknown"

// TestSampleFilterAddress samples a 5x3 texture with every filter and
// address mode at random coordinates in and around [0, 1], against the
// reference formulas.
func TestSampleFilterAddress(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	dev := New(Options{})
	img, ref := newRefImage(t, dev, r, 5, 3, 1)
	in := make([][4]float32, 96)
	for i := range in {
		in[i] = [4]float32{float32(r.Float64()*4 - 1.5), float32(r.Float64()*4 - 1.5), 0, 0}
		if i < 16 { // texel centres and edges
			in[i][0], in[i][1] = float32(i%5)/5+0.1, float32(i/5%3)/3
		}
	}
	for _, filter := range []backend.Filter{backend.FilterNearest, backend.FilterLinear} {
		for mode := backend.AddressRepeat; mode <= backend.AddressMirrorClampToEdge; mode++ {
			for _, offset := range []bool{false, true} {
				sm := backend.SamplerDesc{MagFilter: filter, MinFilter: filter, AddressU: mode, AddressV: mode,
					Border: backend.BorderFloatOpaqueWhite}
				op := "%r = OpImageSampleExplicitLod %v4f %si %st Lod %float_0"
				off := [2]int{}
				if offset {
					op = "%r = OpImageSampleExplicitLod %v4f %si %st Lod|ConstOffset %float_0 %off"
					off = [2]int{1, -1}
				}
				out := sampleRun(t, dev, img, sm, img2D, op, in)
				for i, v := range in {
					want := refSample2D(ref, sm, 0, float64(v[0]), float64(v[1]), filter, off)
					for k := range want {
						if out[i][k] != float32(want[k]) {
							t.Fatalf("filter %d mode %d offset %v at (%v, %v): component %d: got %v, want %v", filter, mode, offset, v[0], v[1], k, out[i][k], float32(want[k]))
						}
					}
				}
			}
		}
	}
}

// TestSampleMipmaps checks level selection from the Lod operand with
// nearest and linear mipmap modes, the sampler's LOD range and bias, and
// the MinLod operand.
func TestSampleMipmaps(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	dev := New(Options{})
	img, ref := newRefImage(t, dev, r, 8, 8, 4)
	lods := []float32{-1, 0, 0.25, 0.5, 0.5001, 0.75, 1, 1.5, 2.2, 2.5, 2.75, 3, 3.9, 10}
	var in [][4]float32
	for _, lod := range lods {
		in = append(in, [4]float32{float32(r.Float64()), float32(r.Float64()), lod, 0})
	}
	for _, mm := range []backend.MipmapMode{backend.MipmapNearest, backend.MipmapLinear} {
		for _, cfg := range []struct{ minLod, maxLod, bias float32 }{{0, 1000, 0}, {0.5, 2.5, 0}, {0, 1000, 0.75}} {
			sm := backend.SamplerDesc{MinFilter: backend.FilterLinear, MagFilter: backend.FilterNearest, Mipmap: mm,
				MinLod: cfg.minLod, MaxLod: cfg.maxLod, MipLodBias: cfg.bias}
			out := sampleRun(t, dev, img, sm, img2D, "%r = OpImageSampleExplicitLod %v4f %si %st Lod %lod", in)
			for i, v := range in {
				lam := min(max(float64(v[2])+float64(cfg.bias), float64(cfg.minLod)), float64(cfg.maxLod))
				filter := backend.FilterNearest
				if lam > 0 {
					filter = backend.FilterLinear
				}
				d := min(max(lam, 0), 3)
				var want [4]float64
				if mm == backend.MipmapNearest {
					lv := 0
					if d > 0.5 {
						lv = int(math.Ceil(d+0.5)) - 1
					}
					want = refSample2D(ref, sm, lv, float64(v[0]), float64(v[1]), filter, [2]int{})
				} else {
					hi := math.Floor(d)
					lo := min(hi+1, 3)
					a := refSample2D(ref, sm, int(hi), float64(v[0]), float64(v[1]), filter, [2]int{})
					b := refSample2D(ref, sm, int(lo), float64(v[0]), float64(v[1]), filter, [2]int{})
					for k := range want {
						want[k] = (1-(d-hi))*a[k] + (d-hi)*b[k]
					}
				}
				for k := range want {
					if out[i][k] != float32(want[k]) {
						t.Fatalf("mipmap %d %+v lod %v: component %d: got %v, want %v", mm, cfg, v[2], k, out[i][k], float32(want[k]))
					}
				}
			}
		}
	}
}

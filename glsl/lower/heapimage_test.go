package lower_test

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/spirv"
)

// imageHeapRig is a CPU device with resource and sampler heaps the host
// fills with image, sampler and buffer descriptors.
type imageHeapRig struct {
	t           *testing.T
	dev         *cpu.Device
	heap, sheap backend.Buffer
}

func newImageHeapRig(t *testing.T) *imageHeapRig {
	dev := cpu.New(cpu.Options{})
	heap, _ := dev.NewBuffer(4096, backend.UsageStorage)
	sheap, _ := dev.NewBuffer(1024, backend.UsageStorage)
	return &imageHeapRig{t: t, dev: dev, heap: heap, sheap: sheap}
}

func (r *imageHeapRig) put(heap backend.Buffer, off int, d []byte) {
	r.t.Helper()
	if d == nil {
		r.t.Fatal("no descriptor")
	}
	if err := heap.Write(off, d); err != nil {
		r.t.Fatal(err)
	}
}

// image makes an image of 32-bit components (R32ui, R32i, R32f or
// Rgba32f) holding vals (the rest zero).
func (r *imageHeapRig) image(f backend.Format, dim backend.ImageDim, w, h int, vals ...uint32) backend.Image {
	r.t.Helper()
	img, err := r.dev.NewImage(backend.ImageDesc{Format: f, Dim: dim, Width: w, Height: h})
	if err != nil {
		r.t.Fatal(err)
	}
	for i, v := range vals {
		binary.LittleEndian.PutUint32(cpu.ImageBytes(img)[4*i:], v)
	}
	return img
}

func (r *imageHeapRig) run(m *spirv.Module, groups uint32, push []byte, out backend.Buffer) {
	r.t.Helper()
	words, err := m.Words()
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{groups, 1, 1}, PushConstants: push,
		Bindings: []backend.Binding{{Binding: 0, Buffer: out}}, ResourceHeap: r.heap, SamplerHeap: r.sheap}); err != nil {
		r.t.Fatal(err)
	}
}

func wordsOf(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func fbits(fs ...float32) []uint32 {
	out := make([]uint32, len(fs))
	for i, f := range fs {
		out[i] = math.Float32bits(f)
	}
	return out
}

// modulesOf compiles src with coop (checking it with spirv-val) and, when
// glslangValidator is installed and its module passes spirv-val, with
// glslang too.
func modulesOf(t *testing.T, name, src, env string) []*spirv.Module {
	t.Helper()
	m := compileSrc(t, name, []byte(src), env)
	validate(t, m, env)
	mods := []*spirv.Module{m}
	if ref := glslang(t, name, []byte(src), env); ref != nil {
		if why := invalid(ref, env); why != "" {
			t.Logf("glslang's module is invalid, not compared: %s", why)
		} else {
			mods = append(mods, ref)
		}
	}
	return mods
}

// invalid is what spirv-val says of m, or "" when it passes or is absent.
func invalid(m *spirv.Module, env string) string {
	val := reftool.Path("spirv-val")
	if val == "" {
		return ""
	}
	b, _ := m.Encode()
	dir, err := os.MkdirTemp("", "heapimg")
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(dir)
	f := filepath.Join(dir, "m.spv")
	os.WriteFile(f, b, 0o644)
	if out, err := exec.Command(val, "--target-env", env, f).CombinedOutput(); err != nil {
		return string(out)
	}
	return ""
}

const heapImageArrays = `#version 460
#extension GL_EXT_descriptor_heap : require
#extension GL_EXT_structured_descriptor_heap : require
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 4) in;
layout(descriptor_heap, r32ui) uniform uimage2D counters[];
layout(descriptor_heap, descriptor_stride = 64, heap_offset = 256, rgba32f) uniform image2D pics[];
layout(descriptor_heap, heap_offset = 512) uniform texture2D texs[];
layout(descriptor_heap, r32f) readonly uniform image2D ro[];
layout(descriptor_heap) uniform sampler smps[];
layout(std430, binding = 0) buffer Out { uint old[4]; vec4 col[4]; vec4 smp[4]; ivec2 size; float r; };
void main() {
	uint i = gl_LocalInvocationID.x;
	old[i] = imageAtomicAdd(counters[i & 1], ivec2(i, 0), i + 1);
	vec4 v = imageLoad(pics[i >> 1], ivec2(i, 1));
	imageStore(pics[i >> 1], ivec2(i, 2), v * 2.0);
	col[i] = v;
	smp[i] = textureLod(sampler2D(texs[nonuniformEXT(i & 1)], smps[1]), vec2(0.25 + 0.5 * float(i >> 1), 0.5), 0.0);
	if (i == 0) {
		size = imageSize(pics[1]);
		r = imageLoad(ro[2], ivec2(1, 0)).x;
	}
}
`

// TestHeapImageArrays runs layout(descriptor_heap) arrays of storage
// images, textures and samplers: image atomics, loads and stores, sampling
// and queries through descriptors the host wrote into the heaps (32 bytes
// apart, 64 apart with descriptor_stride, from heap_offset).
func TestHeapImageArrays(t *testing.T) {
	const env = "vulkan1.3"
	for k, m := range modulesOf(t, "heapimg.comp", heapImageArrays, env) {
		r := newImageHeapRig(t)
		counters := []backend.Image{
			r.image(backend.FormatR32ui, backend.Image2D, 4, 1, 10, 20, 30, 40),
			r.image(backend.FormatR32ui, backend.Image2D, 4, 1, 50, 60, 70, 80),
		}
		var pics []backend.Image
		for p := range 2 {
			vals := make([]uint32, 4*4*3)
			for x := range 4 {
				copy(vals[4*(4+x):], fbits(float32(100*p+x), 1, 2, 3)) // row 1
			}
			pics = append(pics, r.image(backend.FormatRgba32f, backend.Image2D, 4, 3, vals...))
		}
		texs := []backend.Image{
			r.image(backend.FormatR32f, backend.Image2D, 2, 1, fbits(1, 3)...),
			r.image(backend.FormatR32f, backend.Image2D, 2, 1, fbits(10, 30)...),
		}
		ro := r.image(backend.FormatR32f, backend.Image2D, 2, 1, fbits(0, 6.5)...)
		linear, _ := r.dev.NewSampler(backend.SamplerDesc{MagFilter: backend.FilterLinear, MinFilter: backend.FilterLinear})
		for i, img := range counters {
			r.put(r.heap, 32*i, cpu.ImageDescriptor(img, 0))
		}
		for i, img := range pics {
			r.put(r.heap, 256+64*i, cpu.ImageDescriptor(img, 0))
		}
		for i, img := range texs {
			r.put(r.heap, 512+32*i, cpu.ImageDescriptor(img, 0))
		}
		r.put(r.heap, 64, cpu.ImageDescriptor(ro, 0))
		r.put(r.sheap, 32, cpu.SamplerDescriptor(linear))
		out, _ := r.dev.NewBuffer(4*(4+16+16+3), backend.UsageStorage)
		r.run(m, 1, nil, out)
		got := wordsOf(cpu.Bytes(out))
		// Invocation i adds i+1 to counters[i&1] at (i, 0).
		want := []uint32{10, 60, 30, 80}
		for i := range 4 {
			want = append(want, fbits(float32(100*(i>>1)+i), 1, 2, 3)...)
		}
		// Linear filtering halfway between the two texels (at u = 0.25
		// and 0.75 the sample point is the first and second texel's
		// center); the sampler clamps nothing here.
		for i := range 4 {
			tex := [][2]float32{{1, 3}, {10, 30}}[i&1]
			want = append(want, fbits(tex[i>>1], 0, 0, 1)...)
		}
		want = append(want, 4, 3, math.Float32bits(6.5))
		if !slices.Equal(got, want) {
			t.Errorf("module %d: out =\n%v, want\n%v", k, got, want)
		}
		for i, c := range counters {
			w := [][]uint32{{11, 20, 33, 40}, {50, 62, 70, 84}}[i]
			if got := wordsOf(cpu.ImageBytes(c)); !slices.Equal(got, w) {
				t.Errorf("module %d: counters[%d] = %v, want %v", k, i, got, w)
			}
		}
		for p, img := range pics {
			row := wordsOf(cpu.ImageBytes(img))[4*4*2:]
			for x := range 4 {
				w := fbits(0, 0, 0, 0)
				if x>>1 == p {
					w = fbits(2*float32(100*p+x), 2, 4, 6)
				}
				if got := row[4*x : 4*x+4]; !slices.Equal(got, w) {
					t.Errorf("module %d: pics[%d] at (%d, 2) = %v, want %v", k, p, x, got, w)
				}
			}
		}
	}
}

const heapImageStructDecls = `#version 460
#extension GL_EXT_descriptor_heap : require
#extension GL_EXT_structured_descriptor_heap : require
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 2) in;
layout(buffer_type, std430) buffer Data { uint n[4]; };
layout(push_constant) uniform P { uint samplers; } pc;
layout(heap_offset = 1024) resourceheap Res {
	uint count;
	Data data;
	layout(rgba32f) image2D images[2];
	texture2D textures[2];
	layout(r32i) iimage1D counter;
} res;
layout(heap_offset = pc.samplers) samplerheap Smp { sampler linear[2]; } smp;
layout(std430, binding = 0) buffer Out { vec4 o[2]; };
`

const heapImageStruct = heapImageStructDecls + `void main() {
	uint i = gl_LocalInvocationID.x;
	vec4 texel = imageLoad(res.images[i], ivec2(1, 0));
	vec4 s = textureLod(sampler2D(res.textures[i], smp.linear[1]), vec2(0.5), 0.0);
	imageStore(res.images[i], ivec2(0, 0), texel + s);
	o[i] = texel + s;
	res.data.n[i] = res.count + i;
}
`

// heapImageStructAtomic takes the maximum of counter[i] and count + i
// atomically, the old value to data.n[i].
const heapImageStructAtomic = heapImageStructDecls + `void main() {
	uint i = gl_LocalInvocationID.x;
	res.data.n[i] = uint(imageAtomicMax(res.counter, int(i), int(res.count + i)));
}
`

// structRig fills the heaps heapImageStructDecls reads. With the
// executor's descriptor sizes (16 for buffers, 32 for images and
// samplers) the members lie at 1024 (count), 1040 (data), 1056 and 1088
// (images), 1120 and 1152 (textures) and 1184 (counter); the samplers at
// the push constant's 256.
type structRig struct {
	*imageHeapRig
	data, out backend.Buffer
	images    []backend.Image
	counter   backend.Image
	push      []byte
}

func newStructRig(t *testing.T) *structRig {
	r := &structRig{imageHeapRig: newImageHeapRig(t), push: binary.LittleEndian.AppendUint32(nil, 256)}
	r.data, _ = r.dev.NewBuffer(16, backend.UsageStorage)
	r.out, _ = r.dev.NewBuffer(32, backend.UsageStorage)
	r.put(r.heap, 1024, binary.LittleEndian.AppendUint32(nil, 5))
	r.put(r.heap, 1040, cpu.BufferDescriptor(r.data))
	for i := range 2 {
		img := r.image(backend.FormatRgba32f, backend.Image2D, 2, 1, fbits(0, 0, 0, 0, float32(i+1), 10, 20, 30)...)
		r.images = append(r.images, img)
		r.put(r.heap, 1056+32*i, cpu.ImageDescriptor(img, 0))
		// A 2x2 texture of 4s (and 8s): any filtering gives 4 (8).
		v := float32(4 * (i + 1))
		tex := r.image(backend.FormatRgba32f, backend.Image2D, 2, 2, fbits(v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v)...)
		r.put(r.heap, 1120+32*i, cpu.ImageDescriptor(tex, 0))
	}
	r.counter = r.image(backend.FormatR32i, backend.Image1D, 2, 1, 3, 100)
	r.put(r.heap, 1184, cpu.ImageDescriptor(r.counter, 0))
	linear, _ := r.dev.NewSampler(backend.SamplerDesc{MagFilter: backend.FilterLinear, MinFilter: backend.FilterLinear})
	r.put(r.sheap, 256+32, cpu.SamplerDescriptor(linear))
	return r
}

// TestHeapImageStruct runs a resourceheap holding data, a buffer
// descriptor, storage images and textures, with samplers in a samplerheap
// at an offset from push constants, as spv.structuredDescriptorHeap.Offset
// does.
func TestHeapImageStruct(t *testing.T) {
	const env = "vulkan1.3"
	for k, m := range modulesOf(t, "heapstruct.comp", heapImageStruct, env) {
		r := newStructRig(t)
		r.run(m, 1, r.push, r.out)
		want := append(fbits(1+4, 10+4, 20+4, 30+4), fbits(2+8, 10+8, 20+8, 30+8)...)
		if got := wordsOf(cpu.Bytes(r.out)); !slices.Equal(got, want) {
			t.Errorf("module %d: out = %v, want %v", k, got, want)
		}
		for i, img := range r.images {
			if got := wordsOf(cpu.ImageBytes(img))[:4]; !slices.Equal(got, want[4*i:4*i+4]) {
				t.Errorf("module %d: images[%d] at (0, 0) = %v, want %v", k, i, got, want[4*i:4*i+4])
			}
		}
		if got := wordsOf(cpu.Bytes(r.data)); !slices.Equal(got, []uint32{5, 6, 0, 0}) {
			t.Errorf("module %d: data = %v", k, got)
		}
	}
}

// TestHeapImageStructAtomic runs an image atomic on a resourceheap member.
// glslang's module for it passes spirv-val but reads the image's
// descriptor with OpBufferPointerEXT, as a buffer's; the executor faults
// on it there, so it is not compared.
func TestHeapImageStructAtomic(t *testing.T) {
	const env = "vulkan1.3"
	m := compileSrc(t, "heapatomic.comp", []byte(heapImageStructAtomic), env)
	validate(t, m, env)
	r := newStructRig(t)
	r.run(m, 1, r.push, r.out)
	// Invocation i: max(counter[i], count + i), the old value to data.
	if got := wordsOf(cpu.Bytes(r.data)); !slices.Equal(got, []uint32{3, 100, 0, 0}) {
		t.Errorf("data = %v", got)
	}
	if got := wordsOf(cpu.ImageBytes(r.counter)); !slices.Equal(got, []uint32{5, 100}) {
		t.Errorf("counter = %v", got)
	}
	ref := glslang(t, "heapatomic.comp", []byte(heapImageStructAtomic), env)
	if ref == nil {
		return
	}
	words, _ := ref.Words()
	r = newStructRig(t)
	_, err := r.dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1}, PushConstants: r.push,
		Bindings: []backend.Binding{{Binding: 0, Buffer: r.out}}, ResourceHeap: r.heap, SamplerHeap: r.sheap})
	if err == nil || !strings.Contains(err.Error(), "OpBufferPointerEXT") {
		t.Errorf("glslang's module: %v (it reads the image descriptor as a buffer's)", err)
	}
}

const heapNonUniform = `#version 460
#extension GL_EXT_descriptor_heap : require
#extension GL_EXT_structured_descriptor_heap : require
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 2) in;
layout(descriptor_heap, r32ui) uniform uimage1D img[];
layout(descriptor_heap, heap_offset = 128) uniform texture2D tex[];
layout(descriptor_heap) uniform sampler smp[];
layout(std430, binding = 0) buffer B { vec4 o; uint u[2]; };
void main() {
	uint i = gl_LocalInvocationID.x;
	u[i] = imageAtomicAdd(img[nonuniformEXT(i)], 1, 2u);
	if (i == 0)
		o = textureLod(sampler2D(tex[nonuniformEXT(i + 1)], smp[2]), vec2(0.5), 0.0);
}
`

// TestHeapNonUniform checks glslang's rule for nonuniformEXT in a shader
// enabling GL_EXT_descriptor_heap: the capabilities, but no NonUniform
// decorations.
func TestHeapNonUniform(t *testing.T) {
	const env = "vulkan1.3"
	mods := modulesOf(t, "nonuniform.comp", heapNonUniform, env)
	for _, in := range mods[0].Insts {
		if in.Op == spirv.OpDecorate && spirv.Decoration(in.Words[1]) == spirv.DecorationNonUniform {
			t.Errorf("NonUniform decoration on %%%d", in.Words[0])
		}
	}
	if len(mods) > 1 && !slices.Equal(features(mods[0]), features(mods[1])) {
		t.Errorf("features %v, glslang's %v", features(mods[0]), features(mods[1]))
	}
	for k, m := range mods {
		r := newImageHeapRig(t)
		for i := range 2 {
			r.put(r.heap, 32*i, cpu.ImageDescriptor(r.image(backend.FormatR32ui, backend.Image1D, 2, 1, 1, uint32(10+i)), 0))
		}
		r.put(r.heap, 160, cpu.ImageDescriptor(r.image(backend.FormatR32f, backend.Image2D, 1, 1, fbits(7)...), 0))
		nearest, _ := r.dev.NewSampler(backend.SamplerDesc{})
		r.put(r.sheap, 64, cpu.SamplerDescriptor(nearest))
		out, _ := r.dev.NewBuffer(32, backend.UsageStorage)
		r.run(m, 1, nil, out)
		if got, want := wordsOf(cpu.Bytes(out)), append(fbits(7, 0, 0, 1), 10, 11, 0, 0); !slices.Equal(got, want) {
			t.Errorf("module %d: out = %v, want %v", k, got, want)
		}
	}
}

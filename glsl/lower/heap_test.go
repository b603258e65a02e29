package lower_test

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/spirv"
)

// heapRig is a CPU device with buffers and a resource heap the host fills.
type heapRig struct {
	t    *testing.T
	dev  *cpu.Device
	heap backend.Buffer
}

func newHeapRig(t *testing.T) *heapRig {
	dev := cpu.New(cpu.Options{})
	heap, _ := dev.NewBuffer(4096, backend.UsageStorage)
	return &heapRig{t: t, dev: dev, heap: heap}
}

// words makes a buffer holding vals.
func (r *heapRig) words(usage backend.BufferUsage, vals ...uint32) backend.Buffer {
	b, err := r.dev.NewBuffer(4*len(vals), usage)
	if err != nil {
		r.t.Fatal(err)
	}
	for i, v := range vals {
		binary.LittleEndian.PutUint32(cpu.Bytes(b)[4*i:], v)
	}
	return b
}

// put writes raw bytes into the heap at off.
func (r *heapRig) put(off int, data []byte) {
	if err := r.heap.Write(off, data); err != nil {
		r.t.Fatal(err)
	}
}

func (r *heapRig) desc(off int, b backend.Buffer) { r.put(off, cpu.BufferDescriptor(b)) }

func (r *heapRig) u32(off int, vals ...uint32) {
	for i, v := range vals {
		r.put(off+4*i, binary.LittleEndian.AppendUint32(nil, v))
	}
}

func (r *heapRig) f32(off int, vals ...float32) {
	for i, v := range vals {
		r.u32(off+4*i, math.Float32bits(v))
	}
}

func (r *heapRig) run(m *spirv.Module, groups uint32, push []byte, spec map[uint32][]byte) {
	r.t.Helper()
	words, err := m.Words()
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{groups, 1, 1},
		PushConstants: push, Spec: spec, ResourceHeap: r.heap}); err != nil {
		r.t.Fatal(err)
	}
}

func u32sOf(b backend.Buffer) []uint32 {
	d := cpu.Bytes(b)
	out := make([]uint32, len(d)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(d[4*i:])
	}
	return out
}

const heapArrays = `#version 460
#extension GL_EXT_descriptor_heap : require
#extension GL_EXT_structured_descriptor_heap : require
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 4) in;
layout(descriptor_heap) uniform U { uint add; uint mul; } ubo[];
layout(descriptor_heap, heap_offset = 256) readonly buffer I { uint data[]; } src[];
layout(descriptor_heap, descriptor_stride = 64, heap_offset = 1024) writeonly buffer O { uint data[]; } dst[];
void main() {
	uint i = gl_LocalInvocationID.x;
	dst[i].data[1] = src[3 - i].data[i] * ubo[i & 1].mul + ubo[i & 1].add;
}
`

// TestHeapArrays runs layout(descriptor_heap) arrays of uniform and storage
// buffers: descriptors 16 bytes apart at the heap's start and at
// heap_offset 256, and 64 apart (descriptor_stride) at 1024.
func TestHeapArrays(t *testing.T) {
	for _, env := range []string{"vulkan1.3", "vulkan1.4"} {
		m := compileSrc(t, "heap.comp", []byte(heapArrays), env)
		validate(t, m, env)
		mods := []*spirv.Module{m}
		if ref := glslang(t, "heap.comp", []byte(heapArrays), env); ref != nil {
			mods = append(mods, ref)
		}
		var results [][]uint32
		for _, m := range mods {
			r := newHeapRig(t)
			r.desc(0, r.words(backend.UsageUniform, 1, 10))
			r.desc(16, r.words(backend.UsageUniform, 2, 100))
			for k := range 4 {
				r.desc(256+16*k, r.words(backend.UsageStorage, uint32(k), uint32(k+10), uint32(k+20), uint32(k+30)))
			}
			var outs []backend.Buffer
			for k := range 4 {
				outs = append(outs, r.words(backend.UsageStorage, 0, 0))
				r.desc(1024+64*k, outs[k])
			}
			r.run(m, 1, nil, nil)
			var got []uint32
			for _, o := range outs {
				got = append(got, u32sOf(o)[1])
			}
			results = append(results, got)
		}
		// dst[i].data[1] = src[3-i].data[i] * mul + add, with src[k][j] = k + 10j.
		want := []uint32{3*10 + 1, (2+10)*100 + 2, (1+20)*10 + 1, (0+30)*100 + 2}
		for k, got := range results {
			if !slices.Equal(got, want) {
				t.Errorf("%s module %d: got %v, want %v", env, k, got, want)
			}
		}
	}
}

const structuredHeap = `#version 460
#extension GL_EXT_descriptor_heap : require
#extension GL_EXT_structured_descriptor_heap : require
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 2) in;
layout(push_constant) uniform P { uint heapOff; } pc;
layout(constant_id = 0) const uint specOff = 2048;
layout(buffer_type, std430) buffer Data { uint a; uint b[]; };
layout(buffer_type) uniform Params { uvec4 p; };
layout(buffer_reference, std430) buffer Ref { uint r[]; };
struct Material { vec4 color; Data data; };
layout(heap_offset = pc.heapOff) resourceheap H {
	uint count;
	vec3 scale;
	Params params;
	Ref ref;
	layout(descriptor_size = 32) Data pair[2];
	Material mats[2];
	Data tail[];
} h;
layout(heap_offset = specOff) resourceheap H2 { float f[3]; Data d; } h2;
void main() {
	uint i = gl_LocalInvocationID.x;
	h.mats[i].data.b[0] = h.count + uint(h.scale.y) + h.params.p.x + h.ref.r[1] + uint(h.mats[i].color.z) + h.pair[1].a;
	h.pair[0].b[i] = i + 7;
	h.tail[1].b[i] = i + 100;
	h2.d.b[i] = uint(h2.f[i + 1]);
}
`

// TestStructuredHeap runs a resourceheap with data, a uniform buffer_type,
// a buffer reference, descriptor_size, an array of structs holding
// descriptors, a trailing runtime array, a heap_offset from a push constant
// and one from a specialization constant. With 16-byte buffer descriptors
// the layout is: count 0, scale 4, params 16, ref 32, pair 64 and 96
// (descriptor_size 32), mats at 128 and 160 (color, then data at 16), tail
// from 192 every 16 bytes; H2: f at 0, d at 16.
func TestStructuredHeap(t *testing.T) {
	const env = "vulkan1.3"
	m := compileSrc(t, "sheap.comp", []byte(structuredHeap), env)
	validate(t, m, env)
	// Not compared with glslang: its module drops the component index of
	// h.scale.y and h.mats[i].color.z and loads h.params.p.x from the
	// descriptor itself, with no OpBufferPointerEXT.
	for k, m := range []*spirv.Module{m} {
		r := newHeapRig(t)
		const base, specBase = 512, 1536
		r.u32(base, 1000)
		r.f32(base+4, 0.5, 20, 0.5)
		r.desc(base+16, r.words(backend.UsageUniform, 300, 0, 0, 0))
		refBuf := r.words(backend.UsageStorage|backend.UsageAddress, 0, 4000)
		r.put(base+32, binary.LittleEndian.AppendUint64(nil, refBuf.Address()))
		pair0 := r.words(backend.UsageStorage, 0, 0, 0)
		r.desc(base+64, pair0)
		r.desc(base+96, r.words(backend.UsageStorage, 50000))
		var mats []backend.Buffer
		for i := range 2 {
			r.f32(base+128+32*i, 0, 0, float32(60000*(i+1)), 0)
			mats = append(mats, r.words(backend.UsageStorage, 0, 0))
			r.desc(base+128+32*i+16, mats[i])
		}
		tail1 := r.words(backend.UsageStorage, 0, 0, 0)
		r.desc(base+192+16, tail1)
		r.f32(specBase, 0, 11, 22)
		d2 := r.words(backend.UsageStorage, 0, 0, 0)
		r.desc(specBase+16, d2)
		push := binary.LittleEndian.AppendUint32(nil, base)
		r.run(m, 1, push, map[uint32][]byte{0: binary.LittleEndian.AppendUint32(nil, specBase)})
		for i, mb := range mats {
			if got, want := u32sOf(mb)[1], uint32(1000+20+300+4000+60000*(i+1)+50000); got != want {
				t.Errorf("module %d: mats[%d].data.b[0] = %d, want %d", k, i, got, want)
			}
		}
		if got := u32sOf(pair0); !slices.Equal(got, []uint32{0, 7, 8}) {
			t.Errorf("module %d: pair[0] = %v", k, got)
		}
		if got := u32sOf(tail1); !slices.Equal(got, []uint32{0, 100, 101}) {
			t.Errorf("module %d: tail[1] = %v", k, got)
		}
		if got := u32sOf(d2); !slices.Equal(got, []uint32{0, 11, 22}) {
			t.Errorf("module %d: h2.d = %v", k, got)
		}
	}
}

const heapMatrices = `#version 460
#extension GL_EXT_descriptor_heap : require
#extension GL_EXT_structured_descriptor_heap : require
layout(local_size_x = 1) in;
layout(buffer_type) buffer Out { float v[]; };
layout(heap_offset = 64) resourceheap M {
	layout(row_major) mat2x3 rm;
	mat3x2 cm;
	bool flag;
	Out o;
} mh;
void main() {
	mh.o.v[0] = mh.rm[1][2];
	vec2 c = mh.cm[2];
	mh.o.v[1] = c.x + 10.0 * c.y;
	mh.o.v[2] = mh.flag ? 1.0 : -1.0;
}
`

// TestHeapMatrices reads matrices and a bool held in a heap, laid out as
// scalar data: rm (row-major, rows 8 bytes apart) at 0, cm (columns 8
// apart) at 24, flag at 48, the buffer descriptor at 64.
func TestHeapMatrices(t *testing.T) {
	const env = "vulkan1.3"
	m := compileSrc(t, "mheap.comp", []byte(heapMatrices), env)
	validate(t, m, env)
	r := newHeapRig(t)
	r.f32(64+8*2+4, 5)    // rm[1][2]: row 2, column 1
	r.f32(64+24+16, 3, 4) // cm[2]
	r.u32(64+48, 1)
	out := r.words(backend.UsageStorage, 0, 0, 0)
	r.desc(64+64, out)
	r.run(m, 1, nil, nil)
	got := u32sOf(out)
	want := []uint32{math.Float32bits(5), math.Float32bits(43), math.Float32bits(1)}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestHeapNeedsSPIRV12(t *testing.T) {
	_, d := compile.Compile("old.comp", []byte(heapArrays), compile.Options{TargetEnv: "vulkan1.0"})
	if d == nil || !strings.Contains(d.Error(), "old.comp:6: '' : descriptor heaps need SPIR-V 1.2") {
		t.Errorf("got %v", d)
	}
}

package compile

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// corpusPair compiles corpus shader name with coop and assembles glslang's
// module of it, or skips when the corpus is absent.
func corpusPair(t *testing.T, name string) []*spirv.Module {
	t.Helper()
	path := filepath.Join("..", "..", "..", "shared", "corpus", "glslang", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skip("corpus not present")
	}
	ours, d := Compile(path, src, Options{TargetEnv: corpusEnv(path + ".spvasm"), AutoMapBindings: true})
	if ours == nil {
		t.Fatalf("%s: %v", name, d)
	}
	asm, err := os.ReadFile(path + ".spvasm")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := text.Assemble(asm, name+".spvasm")
	if err != nil {
		t.Fatal(err)
	}
	return []*spirv.Module{ours, ref}
}

// heapDev is a CPU device with a resource and a sampler heap.
type heapDev struct {
	t           *testing.T
	dev         *cpu.Device
	heap, sheap backend.Buffer
}

func newHeapDev(t *testing.T) *heapDev {
	dev := cpu.New(cpu.Options{})
	heap, _ := dev.NewBuffer(4096, backend.UsageStorage)
	sheap, _ := dev.NewBuffer(1024, backend.UsageStorage)
	return &heapDev{t: t, dev: dev, heap: heap, sheap: sheap}
}

func (h *heapDev) put(heap backend.Buffer, off int, d []byte) {
	h.t.Helper()
	if d == nil || heap.Write(off, d) != nil {
		h.t.Fatalf("descriptor at %d not written", off)
	}
}

// image makes a 2D (1D when ht is 0) image holding the 32-bit words vals.
func (h *heapDev) image(f backend.Format, w, ht int, vals ...uint32) backend.Image {
	h.t.Helper()
	desc := backend.ImageDesc{Format: f, Dim: backend.Image2D, Width: w, Height: ht}
	if ht == 0 {
		desc.Dim = backend.Image1D
	}
	img, err := h.dev.NewImage(desc)
	if err != nil {
		h.t.Fatal(err)
	}
	for i, v := range vals {
		binary.LittleEndian.PutUint32(cpu.ImageBytes(img)[4*i:], v)
	}
	return img
}

func (h *heapDev) run(m *spirv.Module, push []byte) {
	h.t.Helper()
	words, err := m.Words()
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1}, PushConstants: push,
		ResourceHeap: h.heap, SamplerHeap: h.sheap}); err != nil {
		h.t.Fatal(err)
	}
}

func floatWords(fs ...float32) []uint32 {
	out := make([]uint32, len(fs))
	for i, f := range fs {
		out[i] = math.Float32bits(f)
	}
	return out
}

func words32(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// TestHeapImageCorpusOffset runs spv.structuredDescriptorHeap.Offset as
// coop and glslang compile it, with the executor's descriptor sizes: the
// material heap at 1024 (its buffer at 1040, images at 1056 and 1088,
// textures at 1120 and 1152), the other buffer heap at 2048 (its buffer at
// 2064), the samplers at the push constant's 128. It copies data1 of one
// buffer to data0 of the other and adds images[1] at (0, 0) and
// textures[1] sampled linearly at its center into images[1].
func TestHeapImageCorpusOffset(t *testing.T) {
	for k, m := range corpusPair(t, "spv.structuredDescriptorHeap.Offset.comp") {
		h := newHeapDev(t)
		src, _ := h.dev.NewBuffer(8, backend.UsageStorage)
		dst, _ := h.dev.NewBuffer(8, backend.UsageStorage)
		src.Write(0, binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 7), 42))
		h.put(h.heap, 1040, cpu.BufferDescriptor(src))
		h.put(h.heap, 2064, cpu.BufferDescriptor(dst))
		var images []backend.Image
		for i := range 2 {
			img := h.image(backend.FormatRgba32f, 1, 1, floatWords(float32(10*i+1), 2, 3, 4)...)
			images = append(images, img)
			h.put(h.heap, 1056+32*i, cpu.ImageDescriptor(img, 0))
			var texels []float32
			for k := range 4 {
				texels = append(texels, float32(100*i+k+1), float32(2*(k+1)), 0, 1)
			}
			h.put(h.heap, 1120+32*i, cpu.ImageDescriptor(h.image(backend.FormatRgba32f, 2, 2, floatWords(texels...)...), 0))
		}
		nearest, _ := h.dev.NewSampler(backend.SamplerDesc{})
		linear, _ := h.dev.NewSampler(backend.SamplerDesc{MagFilter: backend.FilterLinear, MinFilter: backend.FilterLinear})
		h.put(h.sheap, 128, cpu.SamplerDescriptor(nearest))
		h.put(h.sheap, 160, cpu.SamplerDescriptor(linear))
		push := make([]byte, 24)
		binary.LittleEndian.PutUint32(push[16:], 128)
		h.run(m, push)
		if got := words32(cpu.Bytes(dst)); !slices.Equal(got, []uint32{42, 0}) {
			t.Errorf("module %d: data0 = %v, want 42", k, got)
		}
		// (11, 2, 3, 4) + the mean of the 2x2 texels (101..104, 2..8, 0, 1).
		if got, want := words32(cpu.ImageBytes(images[1])), floatWords(11+102.5, 2+5, 3, 4+1); !slices.Equal(got, want) {
			t.Errorf("module %d: images[1] = %v, want %v", k, got, want)
		}
		if got, want := words32(cpu.ImageBytes(images[0])), floatWords(1, 2, 3, 4); !slices.Equal(got, want) {
			t.Errorf("module %d: images[0] = %v, want %v", k, got, want)
		}
	}
}

// TestHeapImageCorpusAtomic runs spv.descriptorHeap.AtomicImage as coop
// and glslang compile it: an atomic add of 1 to texel 1 of img[1], whose
// descriptor is 32 bytes into the resource heap.
func TestHeapImageCorpusAtomic(t *testing.T) {
	for k, m := range corpusPair(t, "spv.descriptorHeap.AtomicImage.comp") {
		h := newHeapDev(t)
		img0 := h.image(backend.FormatR32i, 4, 0, 5, 6, 7, 8)
		img1 := h.image(backend.FormatR32i, 4, 0, 0, 10, 20, 30)
		h.put(h.heap, 0, cpu.ImageDescriptor(img0, 0))
		h.put(h.heap, 32, cpu.ImageDescriptor(img1, 0))
		h.run(m, nil)
		if got := words32(cpu.ImageBytes(img1)); !slices.Equal(got, []uint32{0, 11, 20, 30}) {
			t.Errorf("module %d: img[1] = %v", k, got)
		}
		if got := words32(cpu.ImageBytes(img0)); !slices.Equal(got, []uint32{5, 6, 7, 8}) {
			t.Errorf("module %d: img[0] = %v", k, got)
		}
	}
}

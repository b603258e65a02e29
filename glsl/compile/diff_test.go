package compile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// runFilled runs m on the executor with every buffer descriptor bound to
// a 4 KiB buffer (holding a packed tensor for a tensor descriptor), every
// image descriptor to a small image (with a linear sampler where it
// samples), all filled by fill (and push constants likewise; acceleration
// structures stay unbound, empty scenes) and, when m reads descriptor
// heaps, a resource heap describing one more buffer, and returns the
// buffers' and images' contents afterwards.
func runFilled(m *spirv.Module, fill func(i int) byte) ([][]byte, error) {
	pr, err := cpu.Load(m, "", nil, 32)
	if err != nil {
		return nil, err
	}
	dev := cpu.New(cpu.Options{StepBudget: 1 << 20})
	var bs []backend.Binding
	var mems []func() []byte // each resource's bytes, read after the run
	filled := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = fill(i + 4096*len(mems))
		}
		return b
	}
	// Resources in (set, binding) order, so two modules declaring them in
	// different orders get the same inputs.
	descs := pr.Descriptors()
	sort.SliceStable(descs, func(i, j int) bool {
		if descs[i].Set != descs[j].Set {
			return descs[i].Set < descs[j].Set
		}
		return descs[i].Binding < descs[j].Binding
	})
	for _, d := range descs {
		if d.Kind == backend.AccelerationStructureKind {
			continue
		}
		for e := 0; e < max(min(d.Count, 4), 1); e++ {
			bind := backend.Binding{Set: d.Set, Binding: d.Binding, ArrayElement: uint32(e), Kind: d.Kind}
			switch {
			case d.Kind == backend.SeparateSampler:
				bind.Sampler, err = dev.NewSampler(backend.SamplerDesc{MaxLod: backend.LodClampNone, MinFilter: backend.FilterLinear})
			case d.Image != nil && !d.Image.Buffer:
				err = filledImage(dev, &bind, d.Image, filled, &mems)
			default:
				b, _ := dev.NewBuffer(4096, backend.UsageStorage|backend.UsageAddress)
				b.Write(0, filled(4096))
				mems = append(mems, func() []byte { return cpu.Bytes(b) })
				bind.Buffer = b
				if d.Image != nil {
					bind.Format = imageFormat(d.Image)
				}
				if d.Tensor {
					bind.Kind, bind.Tensor = backend.StorageTensor, filledTensor(d)
				}
			}
			if err != nil {
				return nil, err
			}
			bs = append(bs, bind)
		}
	}
	push := make([]byte, 256)
	for i := range push {
		push[i] = fill(i)
	}
	dp := &backend.Dispatch{Groups: [3]uint32{1, 1, 1}, Bindings: bs, PushConstants: push}
	if res, smp := pr.Heaps(); res || smp {
		// Every 16 bytes of the resource heap describe one more buffer.
		target, _ := dev.NewBuffer(4096, backend.UsageStorage)
		target.Write(0, filled(4096))
		mems = append(mems, func() []byte { return cpu.Bytes(target) })
		dp.ResourceHeap, _ = dev.NewBuffer(1<<16, backend.UsageStorage)
		dp.SamplerHeap, _ = dev.NewBuffer(1<<16, backend.UsageStorage)
		heap, desc := cpu.Bytes(dp.ResourceHeap), cpu.BufferDescriptor(target)
		for off := 0; off < len(heap); off += len(desc) {
			copy(heap[off:], desc)
		}
	}
	if err := dev.RunDispatch(pr, dp); err != nil {
		return nil, err
	}
	out := make([][]byte, len(mems))
	for i, m := range mems {
		out[i] = bytes.Clone(m())
	}
	return out, nil
}

// imageFormat is the format an image descriptor declares, or 4-component
// 32-bit texels of its numeric type where it declares none.
func imageFormat(it *cpu.ImageType) backend.Format {
	switch {
	case it.Format != backend.FormatUndefined:
		return it.Format
	case it.Float:
		return backend.FormatRgba32f
	case it.Signed:
		return backend.FormatRgba32i
	}
	return backend.FormatRgba32ui
}

// filledImage binds a 4x4 image (4x4x4 in 3D, two layers when arrayed,
// 4 samples when multisampled, 3 levels otherwise) of the descriptor's
// format with filled texels, and a linear sampler (comparing for depth
// images) for a combined image sampler.
func filledImage(dev *cpu.Device, b *backend.Binding, it *cpu.ImageType, filled func(int) []byte, mems *[]func() []byte) error {
	desc := backend.ImageDesc{Format: imageFormat(it), Dim: it.Dim, Width: 4, Height: 4}
	switch it.Dim {
	case backend.Image1D:
		desc.Height = 1
	case backend.Image3D:
		desc.Depth = 4
	case backend.ImageCube:
		desc.Layers = 6
	}
	if it.Arrayed {
		desc.Layers = max(desc.Layers, 1) * 2
	}
	if it.Multisampled {
		desc.Samples = 4
	} else {
		desc.Levels = 3
	}
	img, err := dev.NewImage(desc)
	if err != nil {
		return err
	}
	mem := cpu.ImageBytes(img)
	copy(mem, filled(len(mem)))
	*mems = append(*mems, func() []byte { return cpu.ImageBytes(img) })
	b.Image = img
	if b.Kind == backend.CombinedImageSampler {
		b.Sampler, err = dev.NewSampler(backend.SamplerDesc{MaxLod: backend.LodClampNone, MinFilter: backend.FilterLinear,
			Compare: it.Depth, CompareOp: backend.CompareLess})
	}
	return err
}

// filledTensor describes a packed tensor for descriptor d within 2 KiB:
// 4 elements along each of the innermost 4 dimensions, 1 along the others.
func filledTensor(d cpu.Descriptor) *backend.TensorDescription {
	dims := make([]int64, d.Rank)
	for k := range dims {
		dims[k] = 1
		if k >= d.Rank-4 {
			dims[k] = 4
		}
	}
	return &backend.TensorDescription{Format: d.Format, Dimensions: dims}
}

// TestDifferentialCorpus runs each corpus shader compiled by coop and the
// same shader as glslang compiled it (the corpus's .spvasm, assembled by
// coop's assembler) on the executor, with zeroed inputs and with small patterned
// values, and compares every buffer.
func TestDifferentialCorpus(t *testing.T) {
	shaders := posShaders(t)
	compared, same := 0, 0
	for _, path := range shaders {
		name := filepath.Base(path)
		env := corpusEnv(path + ".spvasm")
		src, _ := os.ReadFile(path)
		ours, _ := Compile(path, src, Options{TargetEnv: env, AutoMapBindings: true})
		if ours == nil {
			continue
		}
		AutoMapBindings(ours)
		asm, _ := os.ReadFile(path + ".spvasm")
		ref, err := text.Assemble(asm, path+".spvasm")
		if err != nil {
			t.Fatal(err)
		}
		fills := []func(int) byte{func(int) byte { return 0 }, func(i int) byte {
			// Small positive little-endian words: indices stay in range.
			if i%4 == 0 {
				return byte(i/4%7 + 1)
			}
			return 0
		}}
		diff := ""
		ran := false
		for fi, fill := range fills {
			want, err := runFilled(ref, fill)
			if err != nil {
				t.Logf("%s: input %d: glslang's module faults: %v", name, fi, err)
				continue // the executor cannot run glslang's module on this input
			}
			ran = true
			got, err := runFilled(ours, fill)
			if err != nil {
				diff = fmt.Sprintf("input %d: glslang's module runs, ours fails: %v", fi, err)
				break
			}
			if len(got) != len(want) {
				diff = fmt.Sprintf("%d buffers, glslang's module has %d", len(got), len(want))
				break
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					diff = fmt.Sprintf("input %d: buffer %d differs", fi, i)
					break
				}
			}
			if diff != "" {
				break
			}
		}
		if !ran {
			continue
		}
		compared++
		if diff != "" {
			t.Errorf("%s: %s", name, diff)
			continue
		}
		same++
	}
	t.Logf("%d corpus shaders compiled by coop and by glslang ran on the executor; %d gave identical buffers", compared, same)
}

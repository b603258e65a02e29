package exec

import (
	"bufio"
	"bytes"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// assemble reads a corpus .spvasm file with coop's own assembler.
func assemble(t *testing.T, path string) *spirv.Module {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := text.Assemble(src, path)
	if err != nil {
		t.Errorf("%s: %v", filepath.Base(path), err)
		return nil
	}
	return m
}

// TestCorpus loads every positive glslang shader of the corpus and runs it
// once with zeroed buffers: none may hit an unsupported instruction at run
// time, and the count that load cleanly is logged.
func TestCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "glslang")
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus absent")
	}
	defer f.Close()
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 2 && fs[1] == "pos" {
			names = append(names, fs[0])
		}
	}
	loaded, ran, total, compared := 0, 0, 0, 0
	var unsupported []string
	for _, n := range names {
		m := assemble(t, filepath.Join(dir, n+".spvasm"))
		if m == nil {
			continue
		}
		total++
		pr, err := Load(m, "", nil, 32)
		if err != nil {
			if errors.Is(err, ErrUnsupported) {
				unsupported = append(unsupported, n+": "+strings.ReplaceAll(err.Error(), "\n", "; "))
			} else {
				t.Errorf("%s: %v", n, err)
			}
			continue
		}
		loaded++
		err = runCorpus(pr, nil, Options{StepBudget: 1 << 20})
		if err != nil && strings.Contains(err.Error(), "not implemented") {
			t.Errorf("%s: %v", n, err)
			continue
		}
		var e *Error
		if errors.As(err, &e) && e.Internal {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if err != nil {
			t.Logf("%s: runs with a fault on zeroed input: %v", n, err)
		}
		ran++
		// Lockstep execution must give what running the invocations one
		// by one gives, here on random input.
		fill := func(bufs [][]byte) {
			r := rand.New(rand.NewSource(int64(len(n))))
			for _, b := range bufs {
				for i := range b {
					b[i] = byte(r.Intn(7))
				}
			}
		}
		var outs [2][][]byte
		var errs [2]error
		for k, off := range []bool{false, true} {
			opts := Options{StepBudget: 1 << 20, Workers: 1, noLockstep: off}
			errs[k] = runCorpus(pr, func(bufs [][]byte) { fill(bufs); outs[k] = bufs }, opts)
		}
		// Shaders whose invocations race (write what others read, or add
		// floats atomically) may legitimately differ: those are logged.
		if (errs[0] == nil) != (errs[1] == nil) {
			t.Errorf("%s: lockstep: %v; one by one: %v", n, errs[0], errs[1])
		} else if errs[0] != nil {
			t.Logf("%s: faults on random input: %v", n, errs[0])
		} else {
			same := true
			for b := range outs[0] {
				same = same && bytes.Equal(outs[0][b], outs[1][b])
			}
			if same {
				compared++
			} else {
				t.Logf("%s: buffers differ between lockstep and one-by-one execution (racy shader?)", n)
			}
		}
	}
	for _, u := range unsupported {
		t.Log(u)
	}
	t.Logf("corpus: %d positive shaders assembled, %d load with no unsupported instruction, %d of them run, %d agree with and without lockstep on random input",
		total, loaded, ran, compared)
}

// runCorpus dispatches one workgroup of pr with a 64 KiB buffer for every
// buffer descriptor (up to 4 of an array; a tensor lies packed in its
// buffer), an empty acceleration structure for every
// acceleration-structure descriptor, a small image (and a sampler) for
// every image one (up to 4 of an array), 256 bytes of push constants and,
// when it reads them, 64 KiB descriptor heaps: the resource heap holds the
// descriptor of one more 64 KiB buffer in every 16-byte slot, except where
// the shader reads image or sampler descriptors. Those places are found by
// running it: a fault reading a heap descriptor as an image, sampler or
// sampled image puts one there (made as for a binding of that type) and
// runs it again. With init, the push constants and buffers (not the heaps)
// are handed to it before the dispatch; it may fill them and keep them to
// read after it.
func runCorpus(pr *Program, init func([][]byte), opts Options) error {
	var slots []heapSlot
	for {
		heaps, err := runCorpusOnce(pr, slots, init, opts)
		s, ok := missingHeapDescriptor(pr, err, heaps)
		if !ok || slices.Contains(slots, s) {
			return err
		}
		slots = append(slots, s)
	}
}

// heapSlot is an image, sampler or sampled image descriptor of type t that
// runCorpus writes at off in the resource heap (or the sampler heap).
type heapSlot struct {
	sampler bool
	off     int
	t       *typ
}

// missingHeapDescriptor reads a fault on loading an image, sampler or
// sampled image descriptor (or making a texel pointer from one) in one of
// heaps (their addresses) as the descriptor to put there.
func missingHeapDescriptor(pr *Program, err error, heaps [2]uint64) (heapSlot, bool) {
	var e *Error
	if !errors.As(err, &e) || !e.HasAddr || e.Addr>>56 != regBuf || e.Index >= len(pr.p.m.Insts) {
		return heapSlot{}, false
	}
	s := heapSlot{off: int(e.Addr & (1<<offBits - 1))}
	if s.off+OpaqueDescriptorSize > 1<<16 {
		return heapSlot{}, false // outside the heap: a fault of its own
	}
	switch e.Addr &^ (1<<offBits - 1) {
	case heaps[0]:
	case heaps[1]:
		s.sampler = true
	default:
		return heapSlot{}, false
	}
	in := pr.p.m.Insts[e.Index]
	switch {
	case in.Op == spirv.OpLoad && len(in.Words) > 0:
		s.t = pr.p.types[in.Words[0]]
	case in.Op == spirv.OpUntypedImageTexelPointerEXT && len(in.Words) > 2:
		s.t = pr.p.types[in.Words[2]]
	}
	return s, s.t != nil && isHandleType(s.t)
}

// runCorpusOnce runs pr as runCorpus describes, with the heap descriptors
// of slots, and gives the addresses of the resource and sampler heaps.
func runCorpusOnce(pr *Program, slots []heapSlot, init func([][]byte), opts Options) ([2]uint64, error) {
	var heaps [2]uint64
	dev := New(opts)
	var bs []backend.Binding
	var raw [][]byte
	empty, err := dev.NewAccelerationStructure(nil)
	if err != nil {
		return heaps, err
	}
	for _, d := range pr.Descriptors() {
		if !bufferKind(d.Kind) {
			continue // images: below
		}
		for e := 0; e < max(min(d.Count, 4), 1); e++ {
			if d.Kind == backend.AccelerationStructureKind {
				bs = append(bs, backend.Binding{Set: d.Set, Binding: d.Binding, ArrayElement: uint32(e), Kind: backend.AccelerationStructureKind, Accel: empty})
				continue
			}
			b, _ := dev.NewBuffer(1<<16, backend.UsageStorage|backend.UsageAddress)
			bind := backend.Binding{Set: d.Set, Binding: d.Binding, ArrayElement: uint32(e), Buffer: b}
			if d.Tensor {
				bind.Kind, bind.Tensor = backend.StorageTensor, corpusTensor(d)
			}
			bs = append(bs, bind)
			raw = append(raw, Bytes(b))
		}
	}
	for _, d := range pr.p.imgDescs {
		n := d.count
		switch {
		case n == 0:
			n = 1
		case n < 0:
			n = 4
		}
		for e := 0; e < min(n, 4); e++ {
			b, buf, err := corpusImage(dev, d.elem)
			if err != nil {
				return heaps, err
			}
			b.Set, b.Binding, b.ArrayElement = d.set, d.binding, uint32(e)
			bs = append(bs, b)
			raw = append(raw, buf)
		}
	}
	dp := &backend.Dispatch{Groups: [3]uint32{2, 1, 1}, Bindings: bs, PushConstants: make([]byte, 256)}
	if res, smp := pr.Heaps(); res || smp {
		target, _ := dev.NewBuffer(1<<16, backend.UsageStorage)
		raw = append(raw, Bytes(target))
		dp.ResourceHeap, _ = dev.NewBuffer(1<<16, backend.UsageStorage)
		dp.SamplerHeap, _ = dev.NewBuffer(1<<16, backend.UsageStorage)
		heaps = [2]uint64{dp.ResourceHeap.(*buffer).addr, dp.SamplerHeap.(*buffer).addr}
		heap, desc := Bytes(dp.ResourceHeap), BufferDescriptor(target)
		for off := 0; off < len(heap); off += len(desc) {
			copy(heap[off:], desc)
		}
		for _, s := range slots {
			desc, buf, err := corpusHeapDescriptor(dev, s.t)
			if err != nil {
				return heaps, err
			}
			heap := Bytes(dp.ResourceHeap)
			if s.sampler {
				heap = Bytes(dp.SamplerHeap)
			}
			copy(heap[s.off:], desc)
			if buf != nil {
				raw = append(raw, buf)
			}
		}
	}
	if init != nil {
		init(append([][]byte{dp.PushConstants}, raw...))
	}
	return heaps, dev.RunDispatch(pr, dp)
}

// corpusHeapDescriptor makes a resource as corpusImage does for a binding
// of type t and returns its heap descriptor and the memory to fill.
func corpusHeapDescriptor(dev *Device, t *typ) ([]byte, []byte, error) {
	b, buf, err := corpusImage(dev, t)
	if err != nil {
		return nil, nil, err
	}
	switch b.Kind {
	case backend.SeparateSampler:
		return SamplerDescriptor(b.Sampler), nil, nil
	case backend.CombinedImageSampler:
		// An image handle, then a sampler handle.
		d := ImageDescriptor(b.Image, 0)
		copy(d[8:], SamplerDescriptor(b.Sampler)[:8])
		return d, buf, nil
	case backend.UniformTexelBuffer, backend.StorageTexelBuffer:
		return TexelBufferDescriptor(b.Buffer, b.Format), buf, nil
	}
	return ImageDescriptor(b.Image, 0), buf, nil
}

// corpusTensor describes a packed tensor for descriptor d of at most 32 KiB:
// 4 elements along each of the innermost 6 dimensions, 1 along the others.
func corpusTensor(d Descriptor) *backend.TensorDescription {
	dims := make([]int64, d.Rank)
	for k := range dims {
		dims[k] = 1
		if k >= d.Rank-6 {
			dims[k] = 4
		}
	}
	return &backend.TensorDescription{Format: d.Format, Dimensions: dims}
}

// corpusImage makes a zeroed resource for an image descriptor of type t:
// a 4x4 image (4x4x4 in 3D; 2 layers when arrayed; 4 samples when
// multisampled; 3 levels when sampled) of the declared format, or
// 4-component 32-bit texels of the sampled type, with a linear sampler
// that compares when the image is a depth image. It returns the binding
// and the memory to fill.
func corpusImage(dev *Device, t *typ) (backend.Binding, []byte, error) {
	var b backend.Binding
	it := t.img
	if t.kind == kSampler {
		s, err := dev.NewSampler(backend.SamplerDesc{MaxLod: backend.LodClampNone, MinFilter: backend.FilterLinear})
		b.Kind, b.Sampler = backend.SeparateSampler, s
		return b, nil, err
	}
	f := it.format
	if f == backend.FormatUndefined {
		switch {
		case it.sampled.kind == kFloat:
			f = backend.FormatRgba32f
		case it.sampled.signed:
			f = backend.FormatRgba32i
		default:
			f = backend.FormatRgba32ui
		}
	}
	if it.dim == spirv.DimBuffer {
		buf, err := dev.NewBuffer(256, backend.UsageStorage)
		b.Kind, b.Buffer, b.Format = backend.UniformTexelBuffer, buf, f
		if it.mode == 2 {
			b.Kind = backend.StorageTexelBuffer
		}
		return b, Bytes(buf), err
	}
	desc := backend.ImageDesc{Format: f, Dim: it.viewDim(), Width: 4, Height: 4}
	switch {
	case it.dim == spirv.Dim1D:
		desc.Height = 1
	case it.dim == spirv.Dim3D:
		desc.Depth = 4
	case it.dim == spirv.DimCube:
		desc.Layers = 6
	}
	if it.arrayed {
		desc.Layers = max(desc.Layers, 1) * 2
	}
	if it.ms {
		desc.Samples = 4
	} else if it.mode != 2 {
		desc.Levels = 3
	}
	img, err := dev.NewImage(desc)
	if err != nil {
		return b, nil, err
	}
	b.Image = img
	switch {
	case t.kind == kSampledImage:
		b.Kind = backend.CombinedImageSampler
		b.Sampler, err = dev.NewSampler(backend.SamplerDesc{MaxLod: backend.LodClampNone, MinFilter: backend.FilterLinear,
			Compare: it.depth == 1, CompareOp: backend.CompareLess})
	case it.mode == 2:
		b.Kind = backend.StorageImage
	default:
		b.Kind = backend.SampledImage
	}
	return b, ImageBytes(img), err
}

package compile

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/spirv"
)

// runFilled runs m on the executor with every buffer descriptor bound to
// a 4 KiB buffer (holding a packed tensor for a tensor descriptor) filled
// by fill (and push constants likewise; acceleration structures stay
// unbound, empty scenes) and, when m reads descriptor heaps, a resource
// heap describing one more such buffer, and returns the buffers' contents
// afterwards.
func runFilled(m *spirv.Module, fill func(i int) byte) ([][]byte, error) {
	pr, err := cpu.Load(m, "", nil, 32)
	if err != nil {
		return nil, err
	}
	dev := cpu.New(cpu.Options{StepBudget: 1 << 20})
	var bs []backend.Binding
	var bufs []backend.Buffer
	// Buffers in (set, binding) order, so two modules declaring their
	// resources in different orders get the same inputs.
	descs := pr.Descriptors()
	sort.Slice(descs, func(i, j int) bool {
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
			b, _ := dev.NewBuffer(4096, backend.UsageStorage|backend.UsageAddress)
			init := make([]byte, 4096)
			for i := range init {
				init[i] = fill(i + 4096*len(bufs))
			}
			b.Write(0, init)
			bufs = append(bufs, b)
			bind := backend.Binding{Set: d.Set, Binding: d.Binding, ArrayElement: uint32(e), Buffer: b}
			if d.Tensor {
				bind.Kind, bind.Tensor = backend.StorageTensor, filledTensor(d)
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
		init := make([]byte, 4096)
		for i := range init {
			init[i] = fill(i + 4096*len(bufs))
		}
		target.Write(0, init)
		bufs = append(bufs, target)
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
	out := make([][]byte, len(bufs))
	for i, b := range bufs {
		out[i] = make([]byte, b.Size())
		b.Read(0, out[i])
	}
	return out, nil
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
// spirv-as) on the executor, with zeroed inputs and with small patterned
// values, and compares every buffer.
func TestDifferentialCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "glslang")
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skip("corpus not present")
	}
	as := refTool("spirv-as")
	if as == "" {
		t.Skip("spirv-as not found (set COOP_REF_BIN)")
	}
	tmp := t.TempDir()
	compared, same := 0, 0
	for _, line := range strings.Split(string(man), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 2 || f[1] != "pos" {
			continue
		}
		path := filepath.Join(dir, f[0])
		env := corpusEnv(path + ".spvasm")
		src, _ := os.ReadFile(path)
		ours, _ := Compile(path, src, Options{TargetEnv: env})
		if ours == nil {
			continue
		}
		AutoMapBindings(ours)
		out := filepath.Join(tmp, "ref.spv")
		if b, err := exec.Command(as, "--target-env", "spv1.6", "-o", out, path+".spvasm").CombinedOutput(); err != nil {
			t.Fatalf("spirv-as: %v %s", err, b)
		}
		bin, _ := os.ReadFile(out)
		ref, err := spirv.Decode(bin)
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
			t.Errorf("%s: %s", f[0], diff)
			continue
		}
		same++
	}
	t.Logf("%d corpus shaders compiled by coop and by glslang ran on the executor; %d gave identical buffers", compared, same)
}

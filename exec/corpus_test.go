package exec

import (
	"bufio"
	"bytes"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
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
// descriptor (up to 4 of an array; a tensor lies packed in its buffer), an
// empty acceleration structure for every acceleration-structure
// descriptor, and 256 bytes of push constants. With init, the push
// constants and buffers are handed to it before the dispatch; it may fill
// them and keep them to read after it.
func runCorpus(pr *Program, init func([][]byte), opts Options) error {
	dev := New(opts)
	var bs []backend.Binding
	var raw [][]byte
	empty, err := dev.NewAccelerationStructure(nil)
	if err != nil {
		return err
	}
	for _, d := range pr.Descriptors() {
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
	push := make([]byte, 256)
	if init != nil {
		init(append([][]byte{push}, raw...))
	}
	return dev.Run(pr, [3]uint32{2, 1, 1}, bs, push)
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

// Package gpucheck runs shaders without scripts on two devices with the
// same filled inputs and compares every byte they leave in their buffers:
// the part of the GPU check (scripts/gpucheck.sh) that covers the glslang
// corpus. A shader qualifies when its only descriptors are buffers; it is
// compiled by coop (and, where a .spvasm sits beside it, glslang's module
// is run too; descriptors without a binding get one as glslang's test
// suite gives them, --auto-map-bindings), dispatched as one workgroup, its buffers and push constants
// filled with small floats (multiples of 1/8 in [-4, 4), which integer
// reads see as large but harmless values).
package gpucheck

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// Outcome is what happened to one module.
type Outcome int

const (
	Same      Outcome = iota // both devices left the same bytes
	Differ                   // the bytes differ
	Skipped                  // not runnable here (Why says why)
	Undefined                // the bytes differ, and the module's behaviour is undefined (Why says how)
)

// Result is one module's outcome.
type Result struct {
	Name    string
	Outcome Outcome
	Why     string
	// Detail lists, for Differ, up to maxDetail differing words of each
	// differing buffer: byte offset, both devices' words, as floats too.
	Detail []string
}

// maxDetail is how many differing words Detail lists per buffer.
const maxDetail = 12

// bufSize is each buffer's size: enough for the corpus's arrays.
const bufSize = 1 << 16

// fill writes the deterministic input pattern.
func fill(b []byte, seed uint32) {
	s := seed*2654435761 + 1
	for i := 0; i+4 <= len(b); i += 4 {
		s = s*1664525 + 1013904223
		v := float32(int32(s>>24)%64-32) / 8
		binary.LittleEndian.PutUint32(b[i:], math.Float32bits(v))
	}
}

// slot is one descriptor binding the check fills: every variable
// declared on it sees the same buffers.
type slot struct {
	set, binding uint32
	kind         backend.DescriptorKind
	count        int
}

// slots lists the module's descriptor bindings, each once; a binding that
// holds anything but buffers, or buffers of two kinds, is an error.
func slots(m *spirv.Module, ds []exec.Descriptor) ([]slot, error) {
	uniform := uniformBlocks(m)
	var out []slot
	for _, d := range ds {
		if d.Tensor {
			return nil, fmt.Errorf("it binds a tensor (set %d, binding %d)", d.Set, d.Binding)
		}
		if d.Kind != backend.StorageBuffer && d.Kind != backend.UniformBuffer {
			return nil, fmt.Errorf("it binds a %v (set %d, binding %d)", d.Kind, d.Set, d.Binding)
		}
		kind := backend.StorageBuffer
		if uniform[[2]uint32{d.Set, d.Binding}] {
			kind = backend.UniformBuffer
		}
		i := slices.IndexFunc(out, func(s slot) bool { return s.set == d.Set && s.binding == d.Binding })
		if i < 0 {
			out = append(out, slot{set: d.Set, binding: d.Binding, kind: kind, count: max(min(d.Count, 4), 1)})
			continue
		}
		if out[i].kind != kind {
			return nil, fmt.Errorf("set %d binding %d is declared both as a uniform and as a storage buffer", d.Set, d.Binding)
		}
		out[i].count = max(out[i].count, min(d.Count, 4))
	}
	return out, nil
}

// uniformBlocks finds the (set, binding) of the module's uniform buffers:
// Uniform variables of Block structures (BufferBlock ones are storage
// buffers). The executor binds both kinds alike; Vulkan needs the
// descriptor type the shader declares.
func uniformBlocks(m *spirv.Module) map[[2]uint32]bool {
	defs := map[uint32]*spirv.Inst{}
	block := map[uint32]bool{}
	set, binding := map[uint32]uint32{}, map[uint32]uint32{}
	for i := range m.Insts {
		in := &m.Insts[i]
		if id := in.ResultID(); id != 0 {
			defs[id] = in
		}
		if w := in.Words; in.Op == spirv.OpDecorate && len(w) >= 2 {
			switch spirv.Decoration(w[1]) {
			case spirv.DecorationBlock:
				block[w[0]] = true
			case spirv.DecorationDescriptorSet:
				if len(w) >= 3 {
					set[w[0]] = w[2]
				}
			case spirv.DecorationBinding:
				if len(w) >= 3 {
					binding[w[0]] = w[2]
				}
			}
		}
	}
	out := map[[2]uint32]bool{}
	for i := range m.Insts {
		in := &m.Insts[i]
		w := in.Words
		if in.Op != spirv.OpVariable || len(w) < 3 || spirv.StorageClass(w[2]) != spirv.StorageClassUniform {
			continue
		}
		t := defs[w[0]]
		if t == nil || t.Op != spirv.OpTypePointer || len(t.Words) < 3 {
			continue
		}
		t = defs[t.Words[2]]
		for t != nil && (t.Op == spirv.OpTypeArray || t.Op == spirv.OpTypeRuntimeArray) && len(t.Words) >= 2 {
			t = defs[t.Words[1]]
		}
		if t != nil && t.Op == spirv.OpTypeStruct && block[t.Words[0]] {
			out[[2]uint32{set[w[1]], binding[w[1]]}] = true
		}
	}
	return out
}

// run dispatches m once on dev with the filled inputs and returns every
// buffer's bytes afterwards.
func run(dev backend.Device, code []uint32, ss []slot) ([][]byte, error) {
	var bs []backend.Binding
	var bufs []backend.Buffer
	init := make([]byte, bufSize)
	for i, sl := range ss {
		for e := 0; e < sl.count; e++ {
			buf, err := dev.NewBuffer(bufSize, backend.UsageStorage|backend.UsageUniform)
			if err != nil {
				return nil, err
			}
			defer buf.Release()
			fill(init, uint32(i*8+e))
			if err := buf.Write(0, init); err != nil {
				return nil, err
			}
			bs = append(bs, backend.Binding{Set: sl.set, Binding: sl.binding, ArrayElement: uint32(e), Kind: sl.kind, Buffer: buf})
			bufs = append(bufs, buf)
		}
	}
	push := make([]byte, 128)
	fill(push, 99)
	if _, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: bs, PushConstants: push}); err != nil {
		return nil, err
	}
	var outs [][]byte
	for _, buf := range bufs {
		out := make([]byte, bufSize)
		if err := buf.Read(0, out); err != nil {
			return nil, err
		}
		outs = append(outs, out)
	}
	return outs, nil
}

// Module runs m on devices a and b and compares the results. When they
// differ and check is not nil (an executor with Options.Check), m runs
// there too: undefined behaviour it reports (a data race, a read of
// workgroup memory never written) makes the outcome Undefined, as such a
// module has no one right result.
func Module(name string, m *spirv.Module, a, b, check backend.Device) Result {
	res := Result{Name: name}
	pr, err := exec.Load(m, "", nil, 32)
	if err != nil {
		res.Outcome, res.Why = Skipped, "the executor cannot load it: "+firstLine(err)
		return res
	}
	ss, err := slots(m, pr.Descriptors())
	if err != nil {
		res.Outcome, res.Why = Skipped, err.Error()
		return res
	}
	code, err := m.Words()
	if err != nil {
		res.Outcome, res.Why = Skipped, err.Error()
		return res
	}
	var outs [2][][]byte
	for k, dev := range []backend.Device{a, b} {
		if outs[k], err = run(dev, code, ss); err != nil {
			res.Outcome, res.Why = Skipped, dev.Name()+": "+firstLine(err)
			return res
		}
	}
	var where []slot // the slot of each buffer
	for _, sl := range ss {
		for range sl.count {
			where = append(where, sl)
		}
	}
	for i := range outs[0] {
		if bytes.Equal(outs[0][i], outs[1][i]) {
			continue
		}
		n, first := 0, -1
		d := where[i]
		for j := 0; j+4 <= bufSize; j += 4 {
			x, y := binary.LittleEndian.Uint32(outs[0][i][j:]), binary.LittleEndian.Uint32(outs[1][i][j:])
			if x == y {
				continue
			}
			n++
			if first < 0 {
				first = j
			}
			if n <= maxDetail {
				res.Detail = append(res.Detail, fmt.Sprintf("buffer %d (set %d, binding %d) byte %d: %#08x vs %#08x (%g vs %g)", i, d.set, d.binding, j, x, y,
					math.Float32frombits(x), math.Float32frombits(y)))
			}
		}
		if res.Outcome != Differ {
			res.Outcome = Differ
			res.Why = fmt.Sprintf("buffer %d (set %d, binding %d): %d words differ, first at byte %d: %#08x on %s, %#08x on %s", i, d.set, d.binding, n, first,
				binary.LittleEndian.Uint32(outs[0][i][first:]), a.Name(), binary.LittleEndian.Uint32(outs[1][i][first:]), b.Name())
		}
	}
	if res.Outcome == Differ && check != nil {
		if _, err := run(check, code, ss); err != nil && strings.Contains(err.Error(), "undefined behaviour") {
			res.Outcome = Undefined
			res.Why = "undefined behaviour, so no one right result (" + firstLine(err) + "); " + res.Why
		}
	}
	return res
}

// ErrLost is returned by Corpus when the device was lost: nothing after
// the module that lost it could run on that device.
var ErrLost = errors.New("the device was lost")

// Corpus runs every positive compute shader the glslang corpus's
// MANIFEST.tsv lists in dir, from the from'th on: coop's module of the
// .comp and glslang's .spvasm. Each result goes to report as soon as it is
// known; check, if not nil, classifies differences (see Module). When
// device b is lost, Corpus returns the index of the next
// shader and an error wrapping ErrLost, so the caller can open the device
// again and go on from there.
func Corpus(dir string, from int, a, b, check backend.Device, report func(Result)) (int, error) {
	man, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		return 0, err
	}
	var names []string
	for _, line := range strings.Split(string(man), "\n") {
		if fs := strings.Fields(line); len(fs) == 2 && fs[1] == "pos" && strings.HasSuffix(fs[0], ".comp") {
			names = append(names, fs[0])
		}
	}
	for i := from; i < len(names); i++ {
		path := filepath.Join(dir, names[i])
		src, err := os.ReadFile(path)
		if err != nil {
			return i, err
		}
		var rs []Result
		m, diags := compile.Compile(path, src, compile.Options{TargetEnv: "vulkan1.3", AutoMapBindings: true})
		if m == nil {
			rs = append(rs, Result{Name: names[i] + " (coop)", Outcome: Skipped, Why: "does not compile: " + firstLine(diags)})
		} else {
			rs = append(rs, Module(names[i]+" (coop)", m, a, b, check))
		}
		if !lost(rs[0]) {
			if asm, err := os.ReadFile(path + ".spvasm"); err == nil {
				if gm, err := text.Assemble(asm, path+".spvasm"); err == nil {
					rs = append(rs, Module(names[i]+" (glslang)", gm, a, b, check))
				}
			}
		}
		for _, r := range rs {
			report(r)
			if lost(r) {
				return i + 1, fmt.Errorf("%w running %s", ErrLost, r.Name)
			}
		}
	}
	return len(names), nil
}

// lost reports whether r lost the device.
func lost(r Result) bool { return strings.Contains(r.Why, "DEVICE_LOST") }

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

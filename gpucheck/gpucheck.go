// Package gpucheck runs shaders without scripts on two devices with the
// same filled inputs and compares every byte they leave in their buffers:
// the part of the GPU check (scripts/gpucheck.sh) that covers the glslang
// corpus. A shader qualifies when its only descriptors are buffers; it is
// compiled by coop (and, where a .spvasm sits beside it, glslang's module
// is run too), dispatched as one workgroup, its buffers and push constants
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
	Same    Outcome = iota // both devices left the same bytes
	Differ                 // the bytes differ
	Skipped                // not runnable here (Why says why)
)

// Result is one module's outcome.
type Result struct {
	Name    string
	Outcome Outcome
	Why     string
}

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

// Module runs m on devices a and b and compares the results.
func Module(name string, m *spirv.Module, a, b backend.Device) Result {
	res := Result{Name: name}
	pr, err := exec.Load(m, "", nil, 32)
	if err != nil {
		res.Outcome, res.Why = Skipped, "the executor cannot load it: "+firstLine(err)
		return res
	}
	ds := pr.Descriptors()
	for _, d := range ds {
		if d.Kind != backend.StorageBuffer && d.Kind != backend.UniformBuffer || d.Tensor {
			res.Outcome, res.Why = Skipped, fmt.Sprintf("it binds a %v (set %d, binding %d)", d.Kind, d.Set, d.Binding)
			return res
		}
	}
	code, err := m.Words()
	if err != nil {
		res.Outcome, res.Why = Skipped, err.Error()
		return res
	}
	var outs [2][][]byte
	var where []exec.Descriptor // the descriptor of each buffer
	for k, dev := range []backend.Device{a, b} {
		var bs []backend.Binding
		var bufs []backend.Buffer
		init := make([]byte, bufSize)
		for i, d := range ds {
			for e := 0; e < max(min(d.Count, 4), 1); e++ {
				buf, err := dev.NewBuffer(bufSize, backend.UsageStorage|backend.UsageUniform)
				if err != nil {
					res.Outcome, res.Why = Skipped, dev.Name()+": "+firstLine(err)
					return res
				}
				defer buf.Release()
				fill(init, uint32(i*8+e))
				if err := buf.Write(0, init); err != nil {
					res.Outcome, res.Why = Skipped, dev.Name()+": "+firstLine(err)
					return res
				}
				bs = append(bs, backend.Binding{Set: d.Set, Binding: d.Binding, ArrayElement: uint32(e), Kind: d.Kind, Buffer: buf})
				bufs = append(bufs, buf)
				if k == 0 {
					where = append(where, d)
				}
			}
		}
		push := make([]byte, 128)
		fill(push, 99)
		_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{1, 1, 1}, Bindings: bs, PushConstants: push})
		if err != nil {
			res.Outcome, res.Why = Skipped, dev.Name()+": "+firstLine(err)
			return res
		}
		for _, buf := range bufs {
			out := make([]byte, bufSize)
			if err := buf.Read(0, out); err != nil {
				res.Outcome, res.Why = Skipped, dev.Name()+": "+firstLine(err)
				return res
			}
			outs[k] = append(outs[k], out)
		}
	}
	for i := range outs[0] {
		if !bytes.Equal(outs[0][i], outs[1][i]) {
			n, first := 0, -1
			for j := 0; j+4 <= bufSize; j += 4 {
				if !bytes.Equal(outs[0][i][j:j+4], outs[1][i][j:j+4]) {
					n++
					if first < 0 {
						first = j
					}
				}
			}
			d := where[i]
			res.Outcome = Differ
			res.Why = fmt.Sprintf("buffer %d (set %d, binding %d): %d words differ, first at byte %d: %#08x on %s, %#08x on %s", i, d.Set, d.Binding, n, first,
				binary.LittleEndian.Uint32(outs[0][i][first:]), a.Name(), binary.LittleEndian.Uint32(outs[1][i][first:]), b.Name())
			return res
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
// known. When device b is lost, Corpus returns the index of the next
// shader and an error wrapping ErrLost, so the caller can open the device
// again and go on from there.
func Corpus(dir string, from int, a, b backend.Device, report func(Result)) (int, error) {
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
		m, diags := compile.Compile(path, src, compile.Options{TargetEnv: "vulkan1.3"})
		if m == nil {
			rs = append(rs, Result{Name: names[i] + " (coop)", Outcome: Skipped, Why: "does not compile: " + firstLine(diags)})
		} else {
			rs = append(rs, Module(names[i]+" (coop)", m, a, b))
		}
		if !lost(rs[0]) {
			if asm, err := os.ReadFile(path + ".spvasm"); err == nil {
				if gm, err := text.Assemble(asm, path+".spvasm"); err == nil {
					rs = append(rs, Module(names[i]+" (glslang)", gm, a, b))
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

package llamadiff

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/spirv"
)

// Compile builds v with coop's compiler as vulkan-shaders-gen builds it
// with glslc (implicit #include, the shader folder on the include path).
func Compile(dir string, v *Variant) (*spirv.Module, error) {
	src, err := os.ReadFile(filepath.Join(dir, v.Source))
	if err != nil {
		return nil, err
	}
	m, diags := compile.Compile(filepath.Join(dir, v.Source), src, compile.Options{
		TargetEnv: v.Env, Defines: v.Defines, IncludeDirs: []string{dir}, IncludeDirective: true})
	if m == nil {
		return nil, fmt.Errorf("coop: %s", diags)
	}
	return m, nil
}

// Glslang builds v with glslangValidator at tool, the include directive
// enabled by a preamble as glslc enables it.
func Glslang(tool, dir string, v *Variant) (*spirv.Module, error) {
	out, err := os.CreateTemp("", "llamadiff-*.spv")
	if err != nil {
		return nil, err
	}
	out.Close()
	defer os.Remove(out.Name())
	args := []string{"-V", "--target-env", v.Env, "-P#extension GL_GOOGLE_include_directive : enable", "-I" + dir, "-o", out.Name()}
	for _, d := range v.Defines {
		args = append(args, "-D"+d.Name+"="+d.Value)
	}
	args = append(args, filepath.Join(dir, v.Source))
	if o, err := exec.Command(tool, args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("glslangValidator: %v\n%s", err, o)
	}
	b, err := os.ReadFile(out.Name())
	if err != nil {
		return nil, err
	}
	return spirv.Decode(b)
}

// inputs are the initial contents of every binding of a dispatch.
type inputs map[uint32][]byte

// prepare makes the job's buffers for module interface f, filled from seed.
func prepare(v *Variant, f *iface, j *job, seed uint64) inputs {
	if v.Has("DATA_A_NVFP4") {
		// UE4M3 block scales: bit 7 is always zero (types.glsl).
		j.masks = map[string]uint64{"d": 0x7f}
	}
	in := inputs{}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for _, b := range sortedKeys(f.buffers) {
		blk := pick(f.buffers[b])
		n := j.elems[b]
		if n == 0 {
			n = 1024
		}
		size := 4*n + 4096
		if s := blk.stride; s > 0 {
			size = (size + s - 1) / s * s
		}
		buf := make([]byte, blk.offset+size)
		switch {
		case j.data[b] != nil:
			copy(buf, j.data[b])
		case slices.Contains(j.outputs, b):
			// A sentinel, so that any write shows (a zero result of a
			// conversion to an integer type would not).
			for i := range buf {
				buf[i] = 0xa5
			}
		case j.ints[b] > 0:
			for i := 0; i+4 <= len(buf); i += 4 {
				binary.LittleEndian.PutUint32(buf[i:], uint32(rng.IntN(j.ints[b])))
			}
		case j.as[b] != nil:
			fl := filler{rng: rng}
			fl.fill(buf[blk.offset:], j.as[b], j.as[b].size)
		default:
			fl := filler{rng: rng, ints16AreBF16: j.bf16[b], masks: j.masks}
			fl.fill(buf[blk.offset:], blk.elem, blk.stride)
		}
		in[b] = buf
	}
	return in
}

// pushBytes lays the job's push constants out as f's block declares them.
// addrs are the device addresses of the members j.addrs names.
func pushBytes(f *iface, j *job, addrs map[string]uint64) ([]byte, error) {
	if f.pushSize == 0 {
		return nil, nil
	}
	b := make([]byte, f.pushSize)
	for _, fl := range f.push {
		if err := putPush(b, fl.name, fl.offset, fl.t, j.push, addrs); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// putPush writes member name of type t at off. A struct's members go by
// their own names (rope's block holds one struct) and an array's elements
// as name[i].
func putPush(b []byte, name string, off int, t *typ, push map[string]uint32, addrs map[string]uint64) error {
	switch {
	case t.kind == kStruct:
		for _, fl := range t.fields {
			if err := putPush(b, fl.name, off+fl.offset, fl.t, push, addrs); err != nil {
				return err
			}
		}
	case t.kind == kVector && t.count > 0:
		for i := range t.count {
			if err := putPush(b, fmt.Sprintf("%s[%d]", name, i), off+i*t.stride, t.elem, push, addrs); err != nil {
				return err
			}
		}
	case t.size == 4:
		binary.LittleEndian.PutUint32(b[off:], push[name])
	case t.size == 8 && t.kind == kInt:
		a, ok := addrs[name]
		if !ok {
			return fmt.Errorf("push constant %s: 64 bits, and no binding's address named for it", name)
		}
		binary.LittleEndian.PutUint64(b[off:], a)
	default:
		return fmt.Errorf("push constant %s is not 32 bits", name)
	}
	return nil
}

// Run compiles v (from the shaders in dir) with coop and dispatches it on
// dev with the harness's realistic inputs: every buffer after, or ok
// false where the harness has none for v. Other packages' tests use it
// to run llama.cpp's shaders under options of their own.
func Run(dev backend.Device, dir string, v *Variant) (out map[uint32][]byte, ok bool, err error) {
	m, err := Compile(dir, v)
	if err != nil {
		return nil, true, err
	}
	fam := familyOf(v)
	if fam == nil {
		return nil, false, nil
	}
	j := fam(v)
	if j == nil {
		return nil, false, nil
	}
	f, err := reflect(m)
	if err != nil {
		return nil, true, err
	}
	out, err = dispatch(dev, m, f, j, prepare(v, f, j, 1))
	return out, true, err
}

// FirstDiff describes the first difference between two runs' buffers,
// or is empty where they are the same.
func FirstDiff(a, b map[uint32][]byte) string { return firstDiff(a, b) }

// dispatch runs module m with a copy of in and returns every buffer after.
func dispatch(dev backend.Device, m *spirv.Module, f *iface, j *job, in inputs) (map[uint32][]byte, error) {
	spec := map[uint32][]byte{}
	for id := range f.specs {
		if x, ok := j.spec[id]; ok {
			spec[id] = binary.LittleEndian.AppendUint32(nil, x)
		}
	}
	code, err := m.Words()
	if err != nil {
		return nil, err
	}
	d := &backend.Dispatch{Code: code, Entry: "main", Groups: j.groups, Spec: spec, SubgroupSize: 32}
	var bufs []backend.Buffer
	defer func() {
		for _, b := range bufs {
			b.Release()
		}
	}()
	for _, b := range sortedKeys(in) {
		usage := backend.UsageStorage
		if slices.Contains(slices.Collect(maps.Values(j.addrs)), b) {
			usage |= backend.UsageAddress
		}
		buf, err := dev.NewBuffer(len(in[b]), usage)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, buf)
		if err := buf.Write(0, in[b]); err != nil {
			return nil, err
		}
		d.Bindings = append(d.Bindings, backend.Binding{Binding: b, Buffer: buf})
	}
	addrs := map[string]uint64{}
	for name, b := range j.addrs {
		for i, k := range sortedKeys(in) {
			if k == b {
				addrs[name] = bufs[i].Address()
			}
		}
	}
	pc, err := pushBytes(f, j, addrs)
	if err != nil {
		return nil, err
	}
	d.PushConstants = pc
	if _, err := dev.Dispatch(d); err != nil {
		return nil, err
	}
	out := map[uint32][]byte{}
	for i, b := range sortedKeys(in) {
		out[b] = make([]byte, len(in[b]))
		if err := bufs[i].Read(0, out[b]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// samePush reports whether two modules declare the same push-constant
// layout, so one block of bytes serves both.
func samePush(a, b *iface) error {
	if a.pushSize != b.pushSize || len(a.push) != len(b.push) {
		return fmt.Errorf("push-constant blocks differ in size")
	}
	for i := range a.push {
		if a.push[i].name != b.push[i].name || a.push[i].offset != b.push[i].offset {
			return fmt.Errorf("push constant %d: %s at %d against %s at %d", i, a.push[i].name, a.push[i].offset, b.push[i].name, b.push[i].offset)
		}
	}
	return nil
}

// firstDiff describes the first difference between two runs' buffers.
func firstDiff(a, b map[uint32][]byte) string {
	var msgs []string
	for _, k := range sortedKeys(a) {
		x, y := a[k], b[k]
		if bytes.Equal(x, y) {
			continue
		}
		n := 0
		first := -1
		for i := range min(len(x), len(y)) {
			if x[i] != y[i] {
				if first < 0 {
					first = i
				}
				n++
			}
		}
		msgs = append(msgs, fmt.Sprintf("binding %d: %d bytes differ, first at byte %d", k, n, first))
	}
	return strings.Join(msgs, "; ")
}

func sortedKeys[V any](m map[uint32]V) []uint32 {
	ks := make([]uint32, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

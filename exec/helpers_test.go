package exec

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// kernel builds small compute shaders for tests: one entry point "main",
// storage buffers of runtime arrays, and the global invocation id.
type kernel struct {
	t    *testing.T
	b    *spirv.Builder
	void uint32
	boo  uint32
	u32  uint32
	i32  uint32
	f32  uint32
	gidV uint32 // gl_GlobalInvocationID variable
	fn   uint32
	x    uint32 // gl_GlobalInvocationID.x, loaded
	ifc  []uint32
	done bool
}

func newKernel(t *testing.T, localX uint32) *kernel {
	b := spirv.NewBuilder(spirv.MakeVersion(1, 5), 0)
	k := &kernel{t: t, b: b}
	b.Capability(spirv.CapabilityShader)
	b.MemoryModel(spirv.AddressingModelLogical, spirv.MemoryModelGLSL450)
	k.void = b.TypeVoid()
	k.boo = b.TypeBool()
	k.u32 = b.TypeInt(32, false)
	k.i32 = b.TypeInt(32, true)
	k.f32 = b.TypeFloat(32)
	v3 := b.TypeVector(k.u32, 3)
	k.gidV = b.Variable(b.TypePointer(spirv.StorageClassInput, v3), spirv.StorageClassInput)
	b.Decorate(k.gidV, spirv.DecorationBuiltIn, uint32(spirv.BuiltInGlobalInvocationId))
	k.ifc = append(k.ifc, k.gidV)
	k.fn = b.BeginFunction(k.void, 0, b.TypeFunction(k.void))
	b.Label(b.ID())
	g := b.EmitResult(spirv.OpLoad, v3, k.gidV)
	k.x = b.EmitResult(spirv.OpCompositeExtract, k.u32, g, 0)
	b.ExecutionMode(k.fn, spirv.ExecutionModeLocalSize, localX, 1, 1)
	return k
}

// builtin declares and loads a built-in input of type ty.
func (k *kernel) builtin(bi spirv.BuiltIn, ty uint32) uint32 {
	v := k.b.Variable(k.b.TypePointer(spirv.StorageClassInput, ty), spirv.StorageClassInput)
	k.b.Decorate(v, spirv.DecorationBuiltIn, uint32(bi))
	k.ifc = append(k.ifc, v)
	return k.b.EmitResult(spirv.OpLoad, ty, v)
}

// buffer declares a storage buffer {elem data[];} at set 0.
func (k *kernel) buffer(binding uint32, elem uint32, stride uint32) uint32 {
	b := k.b
	ra := b.NewType(spirv.OpTypeRuntimeArray, elem)
	b.Decorate(ra, spirv.DecorationArrayStride, stride)
	st := b.NewType(spirv.OpTypeStruct, ra)
	b.Decorate(st, spirv.DecorationBlock)
	b.MemberDecorate(st, 0, spirv.DecorationOffset, 0)
	v := b.Variable(b.TypePointer(spirv.StorageClassStorageBuffer, st), spirv.StorageClassStorageBuffer)
	b.Decorate(v, spirv.DecorationDescriptorSet, 0)
	b.Decorate(v, spirv.DecorationBinding, binding)
	k.ifc = append(k.ifc, v)
	return v
}

func (k *kernel) c32(v uint32) uint32 { return k.b.ConstUint32(k.u32, v) }

func (k *kernel) ptr(buf, elem, idx uint32) uint32 {
	pt := k.b.TypePointer(spirv.StorageClassStorageBuffer, elem)
	return k.b.EmitResult(spirv.OpAccessChain, pt, buf, k.c32(0), idx)
}

func (k *kernel) load(buf, elem, idx uint32) uint32 {
	return k.b.EmitResult(spirv.OpLoad, elem, k.ptr(buf, elem, idx))
}

func (k *kernel) store(buf, elem, idx, val uint32) {
	k.b.Emit(spirv.OpStore, k.ptr(buf, elem, idx), val)
}

func (k *kernel) op(op spirv.Op, ty uint32, args ...uint32) uint32 {
	return k.b.EmitResult(op, ty, args...)
}

// words finishes the function and returns the module.
func (k *kernel) words() []uint32 {
	if !k.done {
		k.b.Emit(spirv.OpReturn)
		k.b.EndFunction()
		k.b.EntryPoint(spirv.ExecutionModelGLCompute, k.fn, "main", k.ifc...)
		k.done = true
	}
	w, err := k.b.Module().Words()
	if err != nil {
		k.t.Fatal(err)
	}
	return w
}

// run dispatches the kernel with buffers (binding i = bufs[i]).
func run(t *testing.T, dev *Device, code []uint32, groups uint32, bufs ...backend.Buffer) error {
	t.Helper()
	var bs []backend.Binding
	for i, b := range bufs {
		bs = append(bs, backend.Binding{Binding: uint32(i), Buffer: b})
	}
	_, err := dev.Dispatch(&backend.Dispatch{Code: code, Entry: "main", Groups: [3]uint32{groups, 1, 1}, Bindings: bs})
	return err
}

func u32buf(t *testing.T, dev *Device, vals []uint32) backend.Buffer {
	t.Helper()
	b, err := dev.NewBuffer(4*len(vals), backend.UsageStorage)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		binary.LittleEndian.PutUint32(Bytes(b)[4*i:], v)
	}
	return b
}

func u32s(b backend.Buffer) []uint32 {
	d := Bytes(b)
	out := make([]uint32, len(d)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(d[4*i:])
	}
	return out
}

func f32s(b backend.Buffer) []float32 {
	u := u32s(b)
	out := make([]float32, len(u))
	for i, v := range u {
		out[i] = math.Float32frombits(v)
	}
	return out
}

func mustRun(t *testing.T, dev *Device, code []uint32, groups uint32, bufs ...backend.Buffer) {
	t.Helper()
	if err := run(t, dev, code, groups, bufs...); err != nil {
		t.Fatal(err)
	}
}

package script

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/spirv"
)

// kernel builds small compute modules with spirv.Builder, so these tests
// need no compiler.
type kernel struct {
	b                  *spirv.Builder
	void, u32, f32, v3 uint32
	fn                 uint32
	ifc                []uint32
	local              uint32
}

func newKernel(local uint32, addressing spirv.AddressingModel, caps ...spirv.Capability) *kernel {
	b := spirv.NewBuilder(spirv.MakeVersion(1, 5), 0)
	b.Capability(spirv.CapabilityShader)
	for _, c := range caps {
		b.Capability(c)
	}
	b.MemoryModel(addressing, spirv.MemoryModelGLSL450)
	k := &kernel{b: b, local: local}
	k.void, k.u32, k.f32 = b.TypeVoid(), b.TypeInt(32, false), b.TypeFloat(32)
	k.v3 = b.TypeVector(k.u32, 3)
	k.fn = b.BeginFunction(k.void, 0, b.TypeFunction(k.void))
	b.Label(b.ID())
	return k
}

func (k *kernel) c32(v uint32) uint32 { return k.b.ConstUint32(k.u32, v) }

// builtin loads a uvec3 built-in.
func (k *kernel) builtin(bi spirv.BuiltIn) uint32 {
	v := k.b.Variable(k.b.TypePointer(spirv.StorageClassInput, k.v3), spirv.StorageClassInput)
	k.b.Decorate(v, spirv.DecorationBuiltIn, uint32(bi))
	k.ifc = append(k.ifc, v)
	return k.b.EmitResult(spirv.OpLoad, k.v3, v)
}

func (k *kernel) x(v3 uint32, i uint32) uint32 {
	return k.b.EmitResult(spirv.OpCompositeExtract, k.u32, v3, i)
}

// storage declares buffer { elem data[]; } at set 0.
func (k *kernel) storage(binding, elem, stride uint32) uint32 {
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

// pushConstants declares a push-constant block of members at 8-byte
// offsets... or as given.
func (k *kernel) pushConstants(members []uint32, offsets []uint32) uint32 {
	b := k.b
	st := b.NewType(spirv.OpTypeStruct, members...)
	b.Decorate(st, spirv.DecorationBlock)
	for i, o := range offsets {
		b.MemberDecorate(st, uint32(i), spirv.DecorationOffset, o)
	}
	v := b.Variable(b.TypePointer(spirv.StorageClassPushConstant, st), spirv.StorageClassPushConstant)
	k.ifc = append(k.ifc, v)
	return v
}

func (k *kernel) load(sc spirv.StorageClass, ty, base uint32, idx ...uint32) uint32 {
	p := k.b.EmitResult(spirv.OpAccessChain, k.b.TypePointer(sc, ty), append([]uint32{base}, idx...)...)
	return k.b.EmitResult(spirv.OpLoad, ty, p)
}

func (k *kernel) store(sc spirv.StorageClass, ty, val, base uint32, idx ...uint32) {
	p := k.b.EmitResult(spirv.OpAccessChain, k.b.TypePointer(sc, ty), append([]uint32{base}, idx...)...)
	k.b.Emit(spirv.OpStore, p, val)
}

func (k *kernel) words(t testing.TB) []uint32 {
	k.b.Emit(spirv.OpReturn)
	k.b.EndFunction()
	k.b.EntryPoint(spirv.ExecutionModelGLCompute, k.fn, "main", k.ifc...)
	k.b.ExecutionMode(k.fn, spirv.ExecutionModeLocalSize, k.local, 1, 1)
	w, err := k.b.Module().Words()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// axpbKernel: out[i] = a[i] * pc.k + bias, with float a (binding 0), out
// (binding 1), push constant float k and specialization constant 0
// (float bias, default 1).
func axpbKernel(t testing.TB) []uint32 {
	k := newKernel(4, spirv.AddressingModelLogical)
	b := k.b
	a, out := k.storage(0, k.f32, 4), k.storage(1, k.f32, 4)
	pc := k.pushConstants([]uint32{k.f32}, []uint32{0})
	bias := b.Const(spirv.OpSpecConstant, k.f32, 0x3f800000)
	b.Decorate(bias, spirv.DecorationSpecId, 0)
	i := k.x(k.builtin(spirv.BuiltInGlobalInvocationId), 0)
	va := k.load(spirv.StorageClassStorageBuffer, k.f32, a, k.c32(0), i)
	kv := k.load(spirv.StorageClassPushConstant, k.f32, pc, k.c32(0))
	r := b.EmitResult(spirv.OpFAdd, k.f32, b.EmitResult(spirv.OpFMul, k.f32, va, kv), bias)
	k.store(spirv.StorageClassStorageBuffer, k.f32, r, out, k.c32(0), i)
	return k.words(t)
}

// addressKernel: with push constants {uint64 src; uint64 dst} holding
// buffer addresses, dst[i] = src[i] * 2 (floats).
func addressKernel(t testing.TB) []uint32 {
	k := newKernel(4, spirv.AddressingModelPhysicalStorageBuffer64, spirv.CapabilityPhysicalStorageBufferAddresses, spirv.CapabilityInt64)
	b := k.b
	u64 := b.TypeInt(64, false)
	pc := k.pushConstants([]uint32{u64, u64}, []uint32{0, 8})
	pf := b.TypePointer(spirv.StorageClassPhysicalStorageBuffer, k.f32)
	i := k.x(k.builtin(spirv.BuiltInGlobalInvocationId), 0)
	off := b.EmitResult(spirv.OpIMul, u64, b.EmitResult(spirv.OpUConvert, u64, i), b.ConstUint64(u64, 4))
	src := b.EmitResult(spirv.OpIAdd, u64, k.load(spirv.StorageClassPushConstant, u64, pc, k.c32(0)), off)
	dst := b.EmitResult(spirv.OpIAdd, u64, k.load(spirv.StorageClassPushConstant, u64, pc, k.c32(1)), off)
	v := b.EmitResult(spirv.OpLoad, k.f32, b.EmitResult(spirv.OpConvertUToPtr, pf, src), uint32(spirv.MemoryAccessAligned), 4)
	v = b.EmitResult(spirv.OpFMul, k.f32, v, b.ConstFloat32(k.f32, 2))
	b.Emit(spirv.OpStore, b.EmitResult(spirv.OpConvertUToPtr, pf, dst), v, uint32(spirv.MemoryAccessAligned), 4)
	return k.words(t)
}

// workgroupKernel is Amber's compute example: values[wg.x + wg.y *
// nwg.x] = wg.xy, a uvec2 array at binding 3.
func workgroupKernel(t testing.TB) []uint32 {
	k := newKernel(1, spirv.AddressingModelLogical)
	b := k.b
	v2 := b.TypeVector(k.u32, 2)
	vals := k.storage(3, v2, 8)
	wg, n := k.builtin(spirv.BuiltInWorkgroupId), k.builtin(spirv.BuiltInNumWorkgroups)
	x, y, nx := k.x(wg, 0), k.x(wg, 1), k.x(n, 0)
	idx := b.EmitResult(spirv.OpIAdd, k.u32, x, b.EmitResult(spirv.OpIMul, k.u32, y, nx))
	k.store(spirv.StorageClassStorageBuffer, v2, b.EmitResult(spirv.OpCompositeConstruct, v2, x, y), vals, k.c32(0), idx)
	return k.words(t)
}

// hexWords writes words as SPIRV-HEX text.
func hexWords(w []uint32) string {
	var s strings.Builder
	for i, x := range w {
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], x)
		fmt.Fprintf(&s, "%02x %02x %02x %02x", b[0], b[1], b[2], b[3])
		if i%4 == 3 {
			s.WriteByte('\n')
		} else {
			s.WriteByte(' ')
		}
	}
	return s.String()
}

// fakeDevice is a backend.Device whose dispatches run a Go function, for
// testing the runner's plumbing without SPIR-V.
type fakeDevice struct {
	name    string
	run     func(d *backend.Dispatch) error
	mu      sync.Mutex
	bufs    []*memBuffer
	elapsed time.Duration
	base    uint64
}

type memBuffer struct {
	data []byte
	addr uint64
}

func (b *memBuffer) Size() int       { return len(b.data) }
func (b *memBuffer) Address() uint64 { return b.addr }
func (b *memBuffer) Release()        { b.data = nil }
func (b *memBuffer) Write(off int, p []byte) error {
	if off < 0 || off+len(p) > len(b.data) {
		return fmt.Errorf("write [%d, %d) outside %d bytes", off, off+len(p), len(b.data))
	}
	copy(b.data[off:], p)
	return nil
}
func (b *memBuffer) Read(off int, p []byte) error {
	if off < 0 || off+len(p) > len(b.data) {
		return fmt.Errorf("read [%d, %d) outside %d bytes", off, off+len(p), len(b.data))
	}
	copy(p, b.data[off:])
	return nil
}

func (d *fakeDevice) Name() string { return d.name }
func (d *fakeDevice) Close() error { return nil }
func (d *fakeDevice) NewBuffer(size int, usage backend.BufferUsage) (backend.Buffer, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	b := &memBuffer{data: make([]byte, size)}
	if usage&backend.UsageAddress != 0 {
		b.addr = d.base + uint64(len(d.bufs)+1)<<32
	}
	d.bufs = append(d.bufs, b)
	return b, nil
}
func (d *fakeDevice) NewImage(backend.ImageDesc) (backend.Image, error) {
	return nil, fmt.Errorf("fake device: no images: %w", errors.ErrUnsupported)
}
func (d *fakeDevice) NewSampler(backend.SamplerDesc) (backend.Sampler, error) {
	return nil, fmt.Errorf("fake device: no samplers: %w", errors.ErrUnsupported)
}
func (d *fakeDevice) Dispatch(x *backend.Dispatch) (backend.Result, error) {
	var r backend.Result
	if d.run != nil {
		if err := d.run(x); err != nil {
			return r, err
		}
	}
	if x.Timed {
		r.Elapsed = d.elapsed
	}
	return r, nil
}

// byAddress finds the fake buffer at a device address.
func (d *fakeDevice) byAddress(a uint64) *memBuffer {
	for _, b := range d.bufs {
		if b.addr == a {
			return b
		}
	}
	return nil
}

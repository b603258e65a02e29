// Package backend is the contract between the test-script runner and the
// places a SPIR-V compute module can run: the CPU reference executor and the
// Vulkan GPU backend. Both implement Device, so one script runs unchanged on
// either, and the runner can compare their results.
package backend

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// BufferUsage says how a buffer will be reached by a shader.
type BufferUsage uint32

const (
	// UsageStorage: bound as a storage buffer (std430/scalar layouts).
	UsageStorage BufferUsage = 1 << iota
	// UsageUniform: bound as a uniform buffer (std140 layout).
	UsageUniform
	// UsageAddress: the shader reaches it through a PhysicalStorageBuffer
	// pointer, so the buffer needs a stable 64-bit device address.
	UsageAddress
	// UsageHost asks for memory the host maps: a GPU backend otherwise
	// keeps buffers in device-local memory and copies through staging
	// buffers, so that dispatch timings reflect the card.
	UsageHost
)

// Buffer is device memory that a dispatch can see, either through a
// descriptor binding or through its device address.
type Buffer interface {
	Size() int
	// Address is the 64-bit device address of the first byte; valid only
	// for buffers created with UsageAddress, 0 otherwise.
	Address() uint64
	// Write copies data into the buffer at offset; Read copies out of it.
	// Both fail (never panic) when the range falls outside the buffer.
	Write(offset int, data []byte) error
	Read(offset int, data []byte) error
	// Release frees the buffer's memory now rather than when the device
	// closes; afterwards reads, writes and dispatches that use it fail.
	Release()
}

// HostView is a Buffer whose memory is host memory that callers may read
// in place between dispatches (the CPU executor's buffers), so reading a
// large result needs no second copy of it. View returns the buffer's
// bytes, nil once it is released; callers must not write through it or
// keep it across a dispatch or Release. Buffers of other backends are read
// with Read.
type HostView interface {
	View() []byte
}

// DescriptorKind is the descriptor type of a binding.
type DescriptorKind int

const (
	StorageBuffer DescriptorKind = iota
	UniformBuffer
	// StorageTensor: a tensor in Buffer laid out as Binding.Tensor says
	// (see tensor.go).
	StorageTensor
	// StorageImage binds Image for OpImageRead, OpImageWrite and image
	// atomics.
	StorageImage
	// SampledImage binds Image for sampling with a separate sampler, and
	// for OpImageFetch.
	SampledImage
	// CombinedImageSampler binds Image and Sampler together.
	CombinedImageSampler
	// SeparateSampler binds Sampler alone.
	SeparateSampler
	// UniformTexelBuffer and StorageTexelBuffer bind Buffer viewed as a
	// one-dimensional array of texels of Format (its whole size, which
	// must be a multiple of the texel size).
	UniformTexelBuffer
	StorageTexelBuffer
)

var kindNames = [...]string{"storage buffer", "uniform buffer", "storage tensor", "storage image", "sampled image",
	"combined image sampler", "sampler", "uniform texel buffer", "storage texel buffer"}

func (k DescriptorKind) String() string {
	if k == AccelerationStructureKind {
		return "acceleration structure"
	}
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("DescriptorKind(%d)", int(k))
}

// Binding attaches a resource to (set, binding, array element): Buffer for
// buffer and texel buffer kinds, Image and/or Sampler for the image kinds.
type Binding struct {
	Set, Binding uint32
	ArrayElement uint32
	Kind         DescriptorKind
	Buffer       Buffer
	// Tensor describes a StorageTensor binding's tensor.
	Tensor *TensorDescription
	// Accel is bound instead of Buffer when Kind is
	// AccelerationStructureKind.
	Accel   AccelerationStructure
	Image   Image
	Sampler Sampler
	// Format is the texel format of a texel buffer view.
	Format Format
	// BaseLevel is the first mip level an image view shows (the shader's
	// level 0); the view has the levels from there on.
	BaseLevel uint32
}

// Dispatch is one vkCmdDispatch-equivalent run of a compute entry point.
type Dispatch struct {
	// Code is the SPIR-V module as words (native byte order).
	Code  []uint32
	Entry string
	// Groups is the number of workgroups in x, y and z.
	Groups [3]uint32
	// Base is the id of the first workgroup (vkCmdDispatchBase): workgroup
	// ids run from Base to Base+Groups-1; NumWorkgroups stays Groups.
	// The executor honours it (the Vulkan driver of issue 18 sets it);
	// scripts never set it.
	Base     [3]uint32
	Bindings []Binding
	// PushConstants is the push-constant block, bytes from offset 0.
	PushConstants []byte
	// Spec holds specialization constant values by SpecId, as the raw
	// little-endian bytes of the constant's type (1, 2, 4 or 8 bytes; a
	// bool is 4 bytes as in Vulkan).
	Spec map[uint32][]byte
	// SubgroupSize requests a subgroup size; 0 takes the backend default.
	SubgroupSize uint32
	// ResourceHeap and SamplerHeap are the descriptor heaps (see heap.go);
	// nil when the dispatch has none.
	ResourceHeap, SamplerHeap Buffer
	// Timed asks for GPU (or executor) timing of the dispatch itself.
	Timed bool
	// Context, when set, cancels the dispatch: the backend stops as soon
	// as it can and returns an error wrapping Context.Err(). A GPU
	// backend checks it before submitting only.
	Context context.Context
	// Progress, when set, is called as workgroups finish with how many
	// are done of the total. Calls may come from several goroutines at
	// once: it must be cheap and safe for concurrent use. Backends that
	// cannot tell (a GPU) never call it.
	Progress func(done, total uint64)
	// WorkBudget bounds the instructions all invocations of the dispatch
	// may execute together on a CPU backend; 0 takes the backend's
	// default, a negative value means no bound. A GPU ignores it.
	WorkBudget int64
}

// Result reports what a dispatch cost.
type Result struct {
	// Elapsed is the dispatch time measured on the device (timestamp
	// queries on a GPU, wall time on the CPU); zero when not Timed.
	Elapsed time.Duration
}

// Device runs dispatches. Implementations are not required to be safe for
// concurrent use.
type Device interface {
	// Name describes the device, e.g. "cpu (reference executor)" or the
	// GPU's name.
	Name() string
	NewBuffer(size int, usage BufferUsage) (Buffer, error)
	// NewImage allocates a zeroed image; NewSampler makes a sampler. A
	// backend without images returns an error wrapping
	// errors.ErrUnsupported.
	NewImage(desc ImageDesc) (Image, error)
	NewSampler(desc SamplerDesc) (Sampler, error)
	Dispatch(d *Dispatch) (Result, error)
	Close() error
}

// ErrUnavailable is wrapped by errors that mean the backend cannot run on
// this machine at all (no Vulkan loader, no suitable device).
var ErrUnavailable = errors.New("backend unavailable")

// ErrNoDeviceSupport is wrapped by errors that refuse a module no device
// of the backend can run, whatever the machine (SPV_INTEL_int4 has no
// Vulkan feature): another backend must run it.
var ErrNoDeviceSupport = errors.New("no device of this backend supports it")

// ModuleChecker is a Device that can tell, before anything runs, whether
// it can run a module (the same check Dispatch makes).
type ModuleChecker interface {
	CheckModule(code []uint32) error
}

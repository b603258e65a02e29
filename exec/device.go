package exec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/devcheck"
	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/validate"
)

// Options configure a Device.
type Options struct {
	// SubgroupSize is the default subgroup size (a power of two up to 64);
	// 0 means 32. A dispatch may ask for another.
	SubgroupSize int
	// Parallel runs workgroups on Workers goroutines at once. It is
	// faster, but a shader whose workgroups race with each other or add
	// floats atomically may give different bytes from run to run. Without
	// it (the default, coop run's) workgroups run one after another in
	// workgroup index order, so every run gives the same bytes.
	Parallel bool
	// Workers is the number of workgroups run in parallel when Parallel
	// is set; 0 means GOMAXPROCS.
	Workers int
	// StepBudget bounds the instructions one invocation may execute; 0
	// means 1<<28.
	StepBudget int64
	// WorkBudget bounds the instructions all invocations of one dispatch
	// execute together; 0 means DefaultWorkBudget, a negative value no
	// bound. A dispatch's own WorkBudget, when not 0, replaces it.
	WorkBudget int64
	// Printf receives NonSemantic.DebugPrintf output; nil discards it.
	Printf io.Writer
	// Describe, when set, gives the text of instruction index of m (the
	// disassembly line) for error messages.
	Describe func(m *spirv.Module, index int) string
	// Profile, when set, makes the executor behave as that device: a
	// dispatch whose module breaks one of the device's rules (package
	// devcheck) is refused as the device's Vulkan backend refuses it, and
	// the device's numeric choices (profile.Numerics) replace the
	// executor's defaults where the specifications leave the choice open.
	Profile *profile.Profile
	// Numerics, when set, takes only a device's numeric choices (no
	// rules): what `--backend both` gives the executor, whose partner
	// checks the rules itself. It overrides Profile's numerics.
	Numerics *profile.Numerics
	// Check reports undefined behaviour the executor can see (reads of
	// workgroup memory never written, data races on workgroup and
	// storage memory) as faults; see check.go. It runs invocations one
	// by one and workgroups one after another: slowly.
	Check bool
	// noLockstep runs every invocation on its own (tests compare).
	noLockstep bool
	// batchAll batches workgroups (batchSize) in dispatches of any size,
	// one worker's too, where they then run in order (tests compare).
	batchAll bool
}

// Device is the reference executor as a backend.Device.
type Device struct {
	opts Options
	mu   sync.Mutex
	bufs []*buffer // indexed by the region index of their addresses
	// freeBufs are indices of released buffers, reused by new ones so a
	// long-lived device (a Vulkan driver's) does not run out of indices.
	freeBufs []int
	// accels are the acceleration structures, likewise (nil: released).
	accels []*accelData
	// images and samplers are numbered as created (element 0 is unused):
	// heap descriptors name them by number.
	images   []*image
	samplers []*sampler
	// freeImages are numbers of released images, reused as freeBufs are.
	freeImages []uint32
	cache      map[string]*Program // by cacheKey
	trusted    validate.Trusted
}

var _ backend.Device = (*Device)(nil)

// New returns a CPU device.
func New(opts Options) *Device {
	loadF16Table()
	detectCPU()
	if opts.SubgroupSize == 0 {
		opts.SubgroupSize = 32
	}
	if opts.StepBudget == 0 {
		opts.StepBudget = 1 << 28
	}
	return &Device{opts: opts, bufs: make([]*buffer, 1), accels: make([]*accelData, 1), images: make([]*image, 1), samplers: make([]*sampler, 1),
		cache: map[string]*Program{}}
}

func (d *Device) Name() string {
	if d.opts.Numerics != nil && d.opts.Profile == nil {
		return "cpu (reference executor)"
	}
	if d.opts.Profile != nil {
		return "cpu (reference executor as " + d.opts.Profile.Name + ")"
	}
	return "cpu (reference executor)"
}

func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.bufs, d.freeBufs = make([]*buffer, 1), nil
	d.accels = make([]*accelData, 1)
	d.images, d.freeImages = make([]*image, 1), nil
	d.samplers = make([]*sampler, 1)
	d.cache = map[string]*Program{}
	return nil
}

type buffer struct {
	mu       *sync.Mutex // the device's
	dev      *Device
	data     []byte
	addr     uint64
	usage    backend.BufferUsage
	released bool
}

func (b *buffer) Release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.released {
		return
	}
	b.data, b.released = nil, true
	if idx := int(b.addr >> offBits & 0xffff); idx < len(b.dev.bufs) && b.dev.bufs[idx] == b {
		b.dev.bufs[idx] = nil
		b.dev.freeBufs = append(b.dev.freeBufs, idx)
	}
}

func (b *buffer) Size() int { return len(b.data) }

func (b *buffer) Address() uint64 {
	if b.usage&backend.UsageAddress == 0 {
		return 0
	}
	return b.addr
}

func (b *buffer) Write(off int, data []byte) error {
	if b.released {
		return fmt.Errorf("write to a released buffer")
	}
	if off < 0 || off > len(b.data) || len(data) > len(b.data)-off {
		return fmt.Errorf("write of %d bytes at offset %d outside a buffer of %d bytes", len(data), off, len(b.data))
	}
	copy(b.data[off:], data)
	return nil
}

func (b *buffer) Read(off int, data []byte) error {
	if b.released {
		return fmt.Errorf("read from a released buffer")
	}
	if off < 0 || off > len(b.data) || len(data) > len(b.data)-off {
		return fmt.Errorf("read of %d bytes at offset %d outside a buffer of %d bytes", len(data), off, len(b.data))
	}
	copy(data, b.data[off:])
	return nil
}

// View is backend.HostView: the buffer's memory itself, nil once released.
func (b *buffer) View() []byte { return b.data }

// Bytes exposes a buffer's memory (tests and tools read results in place).
func Bytes(b backend.Buffer) []byte {
	if bb, ok := b.(*buffer); ok {
		return bb.data
	}
	return nil
}

// NewBuffer allocates zeroed memory. Every buffer has a device address
// (the region encoding described in the package documentation); Address
// reports it for buffers created with UsageAddress.
func (d *Device) NewBuffer(size int, usage backend.BufferUsage) (backend.Buffer, error) {
	if size < 0 || size >= 1<<offBits {
		return nil, fmt.Errorf("buffer size %d out of range", size)
	}
	return d.newBuffer(make([]byte, size), usage)
}

// NewBufferOver makes a buffer whose memory is data itself, not a copy:
// several buffers may view one allocation (a Vulkan driver binds ranges of
// one memory object as separate buffers), and the caller may read and write
// data directly between dispatches. Each view has its own address, size
// and array lengths.
func (d *Device) NewBufferOver(data []byte, usage backend.BufferUsage) (backend.Buffer, error) {
	if uint64(len(data)) >= 1<<offBits {
		return nil, fmt.Errorf("buffer size %d out of range", len(data))
	}
	return d.newBuffer(data, usage)
}

func (d *Device) newBuffer(data []byte, usage backend.BufferUsage) (backend.Buffer, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	b := &buffer{mu: &d.mu, dev: d, data: data, usage: usage}
	if n := len(d.freeBufs); n > 0 {
		idx := d.freeBufs[n-1]
		d.freeBufs = d.freeBufs[:n-1]
		b.addr = addrOf(regBuf, uint64(idx), 0)
		d.bufs[idx] = b
		return b, nil
	}
	if len(d.bufs) >= 1<<16 {
		return nil, fmt.Errorf("too many buffers (at most %d live per device)", 1<<16-1)
	}
	b.addr = addrOf(regBuf, uint64(len(d.bufs)), 0)
	d.bufs = append(d.bufs, b)
	return b, nil
}

// Program is a module prepared for one entry point, specialization and
// subgroup size.
type Program struct {
	p *prog
}

// Descriptor is a descriptor binding a program uses. Count is the number
// of descriptors of an array (0 for a single one, 1024 for a runtime
// array).
type Descriptor struct {
	Set, Binding uint32
	Count        int
	// Kind is StorageBuffer for every buffer block (the executor binds
	// uniform ones the same way), AccelerationStructureKind for
	// acceleration structures; for an image, sampler or texel buffer
	// variable the kind its type takes (a storage or sampled image type
	// whose Sampled operand is 0 says SampledImage).
	Kind backend.DescriptorKind
	// Image describes the image type of an image kind.
	Image *ImageType
	// Tensor marks a tensor descriptor (bound with backend.StorageTensor):
	// its elements' format (for an unsigned integer type, the unsigned
	// format) and rank.
	Tensor bool
	Format backend.TensorFormat
	Rank   int
}

// ImageType is what a shader declares about an image.
type ImageType struct {
	Dim          backend.ImageDim
	Buffer       bool // a texel buffer
	Arrayed      bool
	Multisampled bool
	Depth        bool           // declared a depth image (Depth operand 1)
	Format       backend.Format // FormatUndefined for Unknown
	Float        bool           // texels are read as floats
	Signed       bool           // integer texels are signed
}

// Descriptors lists the bindings the program's resources use, in
// declaration order (buffers, then images), so callers can bind resources
// to a module they did not write.
func (pr *Program) Descriptors() []Descriptor {
	out := make([]Descriptor, len(pr.p.descs))
	for i, d := range pr.p.descs {
		out[i] = Descriptor{Set: d.set, Binding: d.binding, Count: d.count}
		if d.tensor != nil {
			out[i].Tensor, out[i].Format, out[i].Rank = true, tensorFormat(d.tensor.elem), d.tensor.count
		}
		if d.accel {
			out[i].Kind = backend.AccelerationStructureKind
		}
	}
	for _, d := range pr.p.imgDescs {
		dd := Descriptor{Set: d.set, Binding: d.binding, Count: d.count, Kind: descKind(d.elem)}
		if d.count < 0 {
			dd.Count = 1 << 10
		}
		if it := d.elem.img; it != nil {
			dd.Image = &ImageType{Dim: it.viewDim(), Buffer: it.dim == spirv.DimBuffer, Arrayed: it.arrayed,
				Multisampled: it.ms, Depth: it.depth == 1, Format: it.format, Float: it.sampled.kind == kFloat, Signed: it.sampled.signed}
		}
		out = append(out, dd)
	}
	return out
}

// descKind is the descriptor kind an image-like variable element takes.
func descKind(t *typ) backend.DescriptorKind {
	switch {
	case t.kind == kSampler:
		return backend.SeparateSampler
	case t.kind == kSampledImage:
		return backend.CombinedImageSampler
	case t.img.dim == spirv.DimBuffer && t.img.mode == 2:
		return backend.StorageTexelBuffer
	case t.img.dim == spirv.DimBuffer:
		return backend.UniformTexelBuffer
	case t.img.mode == 2:
		return backend.StorageImage
	}
	return backend.SampledImage
}

// LocalSize is the workgroup size the program runs with.
func (pr *Program) LocalSize() [3]uint32 { return pr.p.local }

// Load prepares a module. It fails, naming every one of them, when the
// module uses instructions the executor does not implement. It first runs
// the validator's structural passes (validate.Options.StructureOnly), the
// validity the loader relies on; LoadValidated takes a module the caller
// has validated already.
func Load(m *spirv.Module, entry string, spec map[uint32][]byte, subgroupSize int) (*Program, error) {
	res, err := validate.Validate(m, validate.Options{StructureOnly: true})
	if err != nil {
		return nil, err
	}
	return LoadValidated(m, res, entry, spec, subgroupSize)
}

// LoadValidated prepares a module validate.Validate accepted (with any
// options) and returned res for: the loader trusts what validation
// established and reuses its function and block structure.
func LoadValidated(m *spirv.Module, res *validate.Result, entry string, spec map[uint32][]byte, subgroupSize int) (*Program, error) {
	loadF16Table()
	detectCPU()
	if subgroupSize == 0 {
		subgroupSize = 32
	}
	if subgroupSize < 1 || subgroupSize > 64 || subgroupSize&(subgroupSize-1) != 0 {
		return nil, fmt.Errorf("subgroup size %d is not a power of two from 1 to 64", subgroupSize)
	}
	p, err := prepareSafe(m, res, entry, spec, subgroupSize)
	if err != nil {
		return nil, err
	}
	p.setFloatEnv(entry, nil)
	return &Program{p}, nil
}

// prepareSafe turns a panic while preparing a module into an error (a
// module that validates must never cause one).
func prepareSafe(m *spirv.Module, res *validate.Result, entry string, spec map[uint32][]byte, sg int) (p *prog, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("error: internal error preparing the module: %v", r)
		}
	}()
	return prepare(m, res, entry, spec, sg)
}

// cacheKey is a dispatch's code, entry point, subgroup size and
// specialization values as bytes: the cache's map compares keys in full,
// so no hash of them need be trusted.
func cacheKey(d *backend.Dispatch, sg int) []byte {
	b := spirv.AppendWords(make([]byte, 0, 4*len(d.Code)+len(d.Entry)+9), d.Code)
	b = append(b, d.Entry...)
	b = append(b, 0)
	b = binary.LittleEndian.AppendUint64(b, uint64(sg))
	keys := make([]uint32, 0, len(d.Spec))
	for k := range d.Spec {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b = binary.LittleEndian.AppendUint32(b, k)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(d.Spec[k])))
		b = append(b, d.Spec[k]...)
	}
	return b
}

// Trust records that words, decoded as m, passed validate.Validate with
// result res (coop run validates each module before its first dispatch):
// a dispatch of those words reuses both instead of decoding the module and
// running the validator's structural passes again.
func (d *Device) Trust(words []uint32, m *spirv.Module, res *validate.Result) {
	d.trusted.Add(words, m, res)
}

// Dispatch decodes (or finds in its cache) the module and runs it. A
// module the device was not told to trust (Trust) gets the validator's
// structural passes first, as Load does.
func (d *Device) Dispatch(dp *backend.Dispatch) (backend.Result, error) {
	sg := int(dp.SubgroupSize)
	if sg == 0 {
		sg = d.opts.SubgroupSize
	}
	key := cacheKey(dp, sg)
	d.mu.Lock()
	pr := d.cache[string(key)]
	d.mu.Unlock()
	if pr == nil {
		m, res := d.trusted.Lookup(dp.Code)
		if m == nil {
			var err error
			if m, err = spirv.DecodeWords(dp.Code, nil); err != nil {
				return backend.Result{}, err
			}
			if res, err = validate.Validate(m, validate.Options{StructureOnly: true}); err != nil {
				return backend.Result{}, err
			}
		}
		if err := d.checkProfile(m, dp); err != nil {
			return backend.Result{}, err
		}
		var err error
		if pr, err = LoadValidated(m, res, dp.Entry, dp.Spec, sg); err != nil {
			return backend.Result{}, err
		}
		if n := d.numerics(); n != nil {
			pr.p.setFloatEnv(dp.Entry, n)
		}
		d.mu.Lock()
		d.cache[string(key)] = pr
		d.mu.Unlock()
	}
	start := time.Now()
	if err := d.RunDispatch(pr, dp); err != nil {
		return backend.Result{}, err
	}
	var res backend.Result
	if dp.Timed {
		res.Elapsed = time.Since(start)
	}
	return res, nil
}

// Run executes a prepared program over groups workgroups.
func (d *Device) Run(pr *Program, groups [3]uint32, bindings []backend.Binding, push []byte) error {
	return d.RunDispatch(pr, &backend.Dispatch{Groups: groups, Bindings: bindings, PushConstants: push})
}

// RunDispatch executes a prepared program with the workgroups, bindings,
// push constants and descriptor heaps of dp (its code is not read).
func (d *Device) RunDispatch(pr *Program, dp *backend.Dispatch) error {
	groups, bindings, push := dp.Groups, dp.Bindings, dp.PushConstants
	for i, b := range dp.Base {
		if uint64(b)+uint64(groups[i]) > 1<<32 {
			return fmt.Errorf("workgroup ids from %d over %d workgroups overflow 32 bits", b, groups[i])
		}
	}
	p := pr.p
	d.mu.Lock()
	bufs := slices.Clone(d.bufs)
	accels := slices.Clone(d.accels)
	images := slices.Clone(d.images)
	samplers := slices.Clone(d.samplers)
	d.mu.Unlock()
	x := &dispatchRun{
		p: p, bufs: bufs, accels: accels, images: images, smps: samplers, push: push, groups: groups, base: dp.Base, budget: d.opts.StepBudget,
		printf: d.opts.Printf, describe: d.opts.Describe,
		tmpl: slices.Clone(p.tmpl), noLock: d.opts.noLockstep, batchAll: d.opts.batchAll,
		ctx: dp.Context, progress: dp.Progress, work: workBudget(d.opts.WorkBudget, dp.WorkBudget),
	}
	if err := p.setHeaps(x.tmpl, dp); err != nil {
		return err
	}
	for _, dv := range p.descs {
		for _, b := range bindings {
			if b.Set != dv.set || b.Binding != dv.binding || !bufferKind(b.Kind) {
				continue
			}
			v, err := d.bindingAddr(dv, b)
			if err != nil {
				return err
			}
			if dv.tensor != nil {
				if v, err = x.tensorValue(&dv, b, b.Buffer.(*buffer)); err != nil {
					return err
				}
			} else if b.Kind == backend.StorageTensor {
				return fmt.Errorf("binding (set %d, binding %d): a tensor bound to a buffer descriptor", b.Set, b.Binding)
			}
			if dv.count == 0 {
				x.tmpl[dv.slot] = v
			} else if int(b.ArrayElement) < dv.count {
				x.tmpl[dv.slot+1+int32(b.ArrayElement)] = v
				if b.ArrayElement == 0 {
					x.tmpl[dv.slot] = v
				}
			}
		}
	}
	if err := x.bindImages(bindings); err != nil {
		return err
	}
	workers := 1
	if d.opts.Parallel {
		workers = d.opts.Workers
	}
	if d.opts.Check {
		x.p, x.noLock, x.check, workers = checkedProg(p), true, newChecker(), 1
	}
	err := x.execute(workers)
	var e *Error
	if errors.As(err, &e) && e.Source == "" {
		e.Source = sourceLine(p.m, e.Index)
	}
	return err
}

// bindingAddr is the address a binding puts in descriptor dv: a buffer's,
// or an acceleration structure's for an acceleration-structure descriptor.
func (d *Device) bindingAddr(dv descVar, b backend.Binding) (uint64, error) {
	if dv.accel != (b.Kind == backend.AccelerationStructureKind) {
		if dv.accel {
			return 0, fmt.Errorf("binding (set %d, binding %d): the shader declares an acceleration structure there, the binding is not one", b.Set, b.Binding)
		}
		return 0, fmt.Errorf("binding (set %d, binding %d): an acceleration structure bound where the shader declares a buffer", b.Set, b.Binding)
	}
	if dv.accel {
		a, ok := b.Accel.(*AccelerationStructure)
		if !ok || a == nil || a.d != d {
			return 0, fmt.Errorf("binding (set %d, binding %d): not an acceleration structure of this device", b.Set, b.Binding)
		}
		if a.data == nil {
			return 0, fmt.Errorf("binding (set %d, binding %d): the acceleration structure was released", b.Set, b.Binding)
		}
		return a.Address(), nil
	}
	bb, ok := b.Buffer.(*buffer)
	if !ok || bb == nil {
		return 0, fmt.Errorf("binding (set %d, binding %d): not a buffer of this device", b.Set, b.Binding)
	}
	if bb.released {
		return 0, fmt.Errorf("binding (set %d, binding %d): the buffer was released", b.Set, b.Binding)
	}
	return bb.addr, nil
}

// bufferKind reports the descriptor kinds that bind by address to buffer,
// tensor and acceleration-structure variables (the others go to image,
// sampler and texel buffer variables).
func bufferKind(k backend.DescriptorKind) bool {
	switch k {
	case backend.StorageBuffer, backend.UniformBuffer, backend.StorageTensor, backend.AccelerationStructureKind:
		return true
	}
	return false
}

// checkProfile refuses a module the profile's device would refuse. The
// check sees the module as that device's Vulkan backend hands it to the
// driver (decode-vector operands dropped where the device lacks the
// extension); the executor still runs the module as given, so it keeps
// checking that the vector and scalar decode functions agree.
func (d *Device) checkProfile(m *spirv.Module, dp *backend.Dispatch) error {
	p := d.opts.Profile
	if p == nil {
		return nil
	}
	seen := m
	if !p.Has(devcheck.DecodeVectorExtension) {
		seen, _ = devcheck.StripDecodeVector(m)
	}
	if err := devcheck.Check(seen, p, devcheck.Options{Entry: dp.Entry, Spec: dp.Spec}); err != nil {
		return fmt.Errorf("exec: %s does not support what the module uses:\n%w", p.Name, err)
	}
	return nil
}

// numerics are the numeric choices the executor makes as a device.
func (d *Device) numerics() *profile.Numerics {
	if d.opts.Numerics != nil {
		return d.opts.Numerics
	}
	if d.opts.Profile != nil {
		return &d.opts.Profile.Numerics
	}
	return nil
}

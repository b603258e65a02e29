package vk

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/vk/internal/vkc"
)

// buffer is a VkBuffer whose memory lives until it is released or its
// Device closes. By default the memory is device-local only, and Write and
// Read copy through staging buffers (vkCmdCopyBuffer), so shaders read HBM
// and timings reflect the card; with backend.UsageHost (or on a device
// without such memory) it is host-visible and coherent, device-local too
// where the device offers it (resizable BAR), and mapped for its whole life.
type buffer struct {
	d      *Device
	size   int
	buf    vkc.Buffer
	mem    vkc.DeviceMemory
	ptr    unsafe.Pointer // nil for device-local memory
	addr   uint64
	local  bool // memory is device-local
	closed bool
}

var _ backend.Buffer = (*buffer)(nil)

// NewBuffer creates a buffer usable as storage or uniform buffer (and
// through its device address with backend.UsageAddress).
func (d *Device) NewBuffer(size int, usage backend.BufferUsage) (backend.Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("vk: buffer size %d is negative", size)
	}
	// Vulkan forbids empty buffers; a 4-byte one stands in.
	alloc := max(size, 4)
	u := vkc.BufferUsageStorageBufferBit | vkc.BufferUsageUniformBufferBit | vkc.BufferUsageTransferSrcBit | vkc.BufferUsageTransferDstBit |
		vkc.BufferUsageUniformTexelBufferBit | vkc.BufferUsageStorageTexelBufferBit
	wantAddr := usage&backend.UsageAddress != 0
	if wantAddr {
		if !d.enabled("bufferDeviceAddress") {
			return nil, fmt.Errorf("vk: buffer device addresses need feature bufferDeviceAddress, not supported by %s", d.info.Name)
		}
		u |= vkc.BufferUsageShaderDeviceAddressBit
	}
	b := &buffer{d: d, size: size}
	p := &d.in.p
	var pin runtime.Pinner
	defer pin.Unpin()
	ci := &vkc.BufferCreateInfo{SType: vkc.StructureTypeBufferCreateInfo, Size: vkc.DeviceSize(alloc), Usage: u, SharingMode: vkc.SharingModeExclusive}
	pin.Pin(ci)
	if r := p.CreateBuffer(d.dev, ci, nil, &b.buf); r != vkc.Success {
		return nil, vkError("vkCreateBuffer", r)
	}
	var req vkc.MemoryRequirements
	p.GetBufferMemoryRequirements(d.dev, b.buf, &req)

	flags := &vkc.MemoryAllocateFlagsInfo{SType: vkc.StructureTypeMemoryAllocateFlagsInfo, Flags: vkc.MemoryAllocateDeviceAddressBit}
	pin.Pin(flags)
	ai := &vkc.MemoryAllocateInfo{SType: vkc.StructureTypeMemoryAllocateInfo, AllocationSize: req.Size}
	if wantAddr {
		ai.PNext = unsafe.Pointer(flags)
	}
	pin.Pin(ai)
	hostFlags := vkc.MemoryPropertyHostVisibleBit | vkc.MemoryPropertyHostCoherentBit
	wants := []vkc.MemoryPropertyFlags{vkc.MemoryPropertyDeviceLocalBit, hostFlags | vkc.MemoryPropertyDeviceLocalBit, hostFlags}
	if usage&backend.UsageHost != 0 {
		wants = wants[1:]
	}
	r := vkc.ErrorOutOfDeviceMemory
	var got vkc.MemoryPropertyFlags
	for _, want := range wants {
		t, ok := d.memoryType(req.MemoryTypeBits, want)
		if !ok {
			continue
		}
		ai.MemoryTypeIndex = t
		if r = p.AllocateMemory(d.dev, ai, nil, &b.mem); r == vkc.Success {
			got = d.mem.MemoryTypes[t].PropertyFlags
			b.local = got&vkc.MemoryPropertyDeviceLocalBit != 0
			break
		}
	}
	if r != vkc.Success {
		p.DestroyBuffer(d.dev, b.buf, nil)
		return nil, fmt.Errorf("vk: allocating %d bytes of buffer memory: %w", alloc, vkError("vkAllocateMemory", r))
	}
	if r := p.BindBufferMemory(d.dev, b.buf, b.mem, 0); r != vkc.Success {
		b.free()
		return nil, vkError("vkBindBufferMemory", r)
	}
	if got&vkc.MemoryPropertyHostVisibleBit != 0 {
		if r := p.MapMemory(d.dev, b.mem, 0, vkc.WholeSize, 0, &b.ptr); r != vkc.Success {
			b.free()
			return nil, vkError("vkMapMemory", r)
		}
		clear(unsafe.Slice((*byte)(b.ptr), alloc))
	} else if err := d.fill(b, alloc); err != nil {
		b.free()
		return nil, err
	}
	if wantAddr {
		info := &vkc.BufferDeviceAddressInfo{SType: vkc.StructureTypeBufferDeviceAddressInfo, Buffer: b.buf}
		pin.Pin(info)
		b.addr = uint64(p.GetBufferDeviceAddress(d.dev, info))
	}
	d.buffers = append(d.buffers, b)
	return b, nil
}

// Release frees the buffer's memory (device memory is scarce: the
// host-visible device-local heap in particular).
func (b *buffer) Release() {
	if b.closed {
		return
	}
	d := b.d
	d.in.p.DeviceWaitIdle(d.dev)
	b.free()
	for i, x := range d.buffers {
		if x == b {
			d.buffers = append(d.buffers[:i], d.buffers[i+1:]...)
			break
		}
	}
}

func (b *buffer) free() {
	p := &b.d.in.p
	p.DestroyBuffer(b.d.dev, b.buf, nil)
	p.FreeMemory(b.d.dev, b.mem, nil)
	b.closed = true
}

func (d *Device) memoryType(bits uint32, want vkc.MemoryPropertyFlags) (uint32, bool) {
	for i := uint32(0); i < d.mem.MemoryTypeCount; i++ {
		if bits&(1<<i) != 0 && d.mem.MemoryTypes[i].PropertyFlags&want == want {
			return i, true
		}
	}
	return 0, false
}

func (b *buffer) Size() int       { return b.size }
func (b *buffer) Address() uint64 { return b.addr }

// check validates a Write or Read range.
func (b *buffer) check(offset, n int, op string) error {
	if b.closed {
		return fmt.Errorf("vk: %s on a released buffer", op)
	}
	if offset < 0 || n < 0 || offset > b.size-n {
		return fmt.Errorf("vk: %s of %d bytes at offset %d is outside the %d-byte buffer", op, n, offset, b.size)
	}
	return nil
}

func (b *buffer) mapped(offset, n int) []byte {
	return unsafe.Slice((*byte)(b.ptr), b.size)[offset : offset+n]
}

func (b *buffer) Write(offset int, data []byte) error {
	if err := b.check(offset, len(data), "write"); err != nil {
		return err
	}
	if b.ptr == nil {
		return b.d.staged(b, offset, data, true)
	}
	copy(b.mapped(offset, len(data)), data)
	return nil
}

// stagedReadMin is the size from which Read copies mapped device-local
// memory through a host-cached staging buffer: the CPU reads
// write-combined device memory (the PCIe BAR) at tens of MB/s, while the
// GPU copies to cached system memory at PCIe speed.
const stagedReadMin = 64 << 10

func (b *buffer) Read(offset int, data []byte) error {
	if err := b.check(offset, len(data), "read"); err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	if b.ptr == nil || b.local && len(data) >= stagedReadMin {
		return b.d.staged(b, offset, data, false)
	}
	copy(data, b.mapped(offset, len(data)))
	return nil
}

// fill zeroes a device-local buffer's first n bytes (a multiple of 4).
func (d *Device) fill(b *buffer, n int) error {
	return d.record("buffer clear", func(cmd vkc.CommandBuffer) {
		d.in.p.CmdFillBuffer(cmd, b.buf, 0, vkc.DeviceSize((n+3)&^3), 0)
	})
}

// record runs the commands f records, alone, and waits for them. Every
// transfer is made available to, and visible from, later shader and
// transfer work and host reads.
func (d *Device) record(what string, f func(cmd vkc.CommandBuffer)) error {
	p := &d.in.p
	var pin runtime.Pinner
	defer pin.Unpin()
	bi := &vkc.CommandBufferBeginInfo{SType: vkc.StructureTypeCommandBufferBeginInfo, Flags: vkc.CommandBufferUsageOneTimeSubmitBit}
	before := &vkc.MemoryBarrier{SType: vkc.StructureTypeMemoryBarrier, SrcAccessMask: vkc.AccessShaderWriteBit | vkc.AccessHostWriteBit | vkc.AccessTransferWriteBit,
		DstAccessMask: vkc.AccessTransferReadBit | vkc.AccessTransferWriteBit}
	after := &vkc.MemoryBarrier{SType: vkc.StructureTypeMemoryBarrier, SrcAccessMask: vkc.AccessTransferWriteBit,
		DstAccessMask: vkc.AccessHostReadBit | vkc.AccessUniformReadBit | vkc.AccessShaderReadBit | vkc.AccessShaderWriteBit | vkc.AccessTransferReadBit | vkc.AccessTransferWriteBit}
	pin.Pin(bi)
	pin.Pin(before)
	pin.Pin(after)
	if r := p.BeginCommandBuffer(d.cmd, bi); r != vkc.Success {
		return vkError("vkBeginCommandBuffer", r)
	}
	p.CmdPipelineBarrier(d.cmd, vkc.PipelineStageComputeShaderBit|vkc.PipelineStageHostBit|vkc.PipelineStageTransferBit, vkc.PipelineStageTransferBit, 0, 1, before, 0, nil, 0, nil)
	f(d.cmd)
	p.CmdPipelineBarrier(d.cmd, vkc.PipelineStageTransferBit, vkc.PipelineStageHostBit|vkc.PipelineStageComputeShaderBit|vkc.PipelineStageTransferBit, 0, 1, after, 0, nil, 0, nil)
	if r := p.EndCommandBuffer(d.cmd); r != vkc.Success {
		return vkError("vkEndCommandBuffer", r)
	}
	return d.submitAndWait(what)
}

// hostBuffer is a temporary host-visible buffer for staging copies.
type hostBuffer struct {
	buf vkc.Buffer
	mem vkc.DeviceMemory
	ptr unsafe.Pointer
}

// newHostBuffer makes a mapped transfer buffer of n bytes, host-cached
// when the device has such memory (reads back fast).
func (d *Device) newHostBuffer(n int) (*hostBuffer, error) {
	p := &d.in.p
	var pin runtime.Pinner
	defer pin.Unpin()
	h := &hostBuffer{}
	ci := &vkc.BufferCreateInfo{SType: vkc.StructureTypeBufferCreateInfo, Size: vkc.DeviceSize(max(n, 4)),
		Usage: vkc.BufferUsageTransferSrcBit | vkc.BufferUsageTransferDstBit, SharingMode: vkc.SharingModeExclusive}
	pin.Pin(ci)
	if r := p.CreateBuffer(d.dev, ci, nil, &h.buf); r != vkc.Success {
		return nil, vkError("vkCreateBuffer", r)
	}
	var req vkc.MemoryRequirements
	p.GetBufferMemoryRequirements(d.dev, h.buf, &req)
	hostFlags := vkc.MemoryPropertyHostVisibleBit | vkc.MemoryPropertyHostCoherentBit
	r := vkc.ErrorOutOfHostMemory
	for _, want := range []vkc.MemoryPropertyFlags{hostFlags | vkc.MemoryPropertyHostCachedBit, hostFlags} {
		t, ok := d.memoryType(req.MemoryTypeBits, want)
		if !ok {
			continue
		}
		ai := &vkc.MemoryAllocateInfo{SType: vkc.StructureTypeMemoryAllocateInfo, AllocationSize: req.Size, MemoryTypeIndex: t}
		pin.Pin(ai)
		if r = p.AllocateMemory(d.dev, ai, nil, &h.mem); r == vkc.Success {
			break
		}
	}
	if r != vkc.Success {
		p.DestroyBuffer(d.dev, h.buf, nil)
		return nil, fmt.Errorf("vk: allocating a %d-byte staging buffer: %w", n, vkError("vkAllocateMemory", r))
	}
	if r := p.BindBufferMemory(d.dev, h.buf, h.mem, 0); r != vkc.Success {
		h.free(d)
		return nil, vkError("vkBindBufferMemory", r)
	}
	if r := p.MapMemory(d.dev, h.mem, 0, vkc.WholeSize, 0, &h.ptr); r != vkc.Success {
		h.free(d)
		return nil, vkError("vkMapMemory", r)
	}
	return h, nil
}

func (h *hostBuffer) bytes(n int) []byte { return unsafe.Slice((*byte)(h.ptr), n) }

func (h *hostBuffer) free(d *Device) {
	d.in.p.DestroyBuffer(d.dev, h.buf, nil)
	d.in.p.FreeMemory(d.dev, h.mem, nil)
}

// staged copies data to (write) or from b[offset:] through a staging
// buffer.
func (d *Device) staged(b *buffer, offset int, data []byte, write bool) error {
	if len(data) == 0 {
		return nil
	}
	h, err := d.newHostBuffer(len(data))
	if err != nil {
		return err
	}
	defer h.free(d)
	region := &vkc.BufferCopy{Size: vkc.DeviceSize(len(data))}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(region)
	if write {
		copy(h.bytes(len(data)), data)
		region.DstOffset = vkc.DeviceSize(offset)
		return d.record("staged write", func(cmd vkc.CommandBuffer) { d.in.p.CmdCopyBuffer(cmd, h.buf, b.buf, 1, region) })
	}
	region.SrcOffset = vkc.DeviceSize(offset)
	if err := d.record("staged read", func(cmd vkc.CommandBuffer) { d.in.p.CmdCopyBuffer(cmd, b.buf, h.buf, 1, region) }); err != nil {
		return err
	}
	copy(data, h.bytes(len(data)))
	return nil
}

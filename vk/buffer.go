package vk

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/vk/internal/vkc"
)

// buffer is a VkBuffer in host-visible, host-coherent memory, mapped for
// its whole life, which ends when its Device closes. Device-local memory that is also host-visible (resizable
// BAR) is preferred, so shaders read VRAM and the host writes it directly.
type buffer struct {
	d      *Device
	size   int
	buf    vkc.Buffer
	mem    vkc.DeviceMemory
	ptr    unsafe.Pointer
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
	u := vkc.BufferUsageStorageBufferBit | vkc.BufferUsageUniformBufferBit | vkc.BufferUsageTransferSrcBit | vkc.BufferUsageTransferDstBit
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
	r := vkc.ErrorOutOfDeviceMemory
	for _, want := range []vkc.MemoryPropertyFlags{hostFlags | vkc.MemoryPropertyDeviceLocalBit, hostFlags} {
		t, ok := d.memoryType(req.MemoryTypeBits, want)
		if !ok {
			continue
		}
		ai.MemoryTypeIndex = t
		if r = p.AllocateMemory(d.dev, ai, nil, &b.mem); r == vkc.Success {
			b.local = want&vkc.MemoryPropertyDeviceLocalBit != 0
			break
		}
	}
	if r != vkc.Success {
		p.DestroyBuffer(d.dev, b.buf, nil)
		return nil, fmt.Errorf("vk: allocating %d bytes of host-visible memory: %w", alloc, vkError("vkAllocateMemory", r))
	}
	if r := p.BindBufferMemory(d.dev, b.buf, b.mem, 0); r != vkc.Success {
		b.free()
		return nil, vkError("vkBindBufferMemory", r)
	}
	if r := p.MapMemory(d.dev, b.mem, 0, vkc.WholeSize, 0, &b.ptr); r != vkc.Success {
		b.free()
		return nil, vkError("vkMapMemory", r)
	}
	clear(unsafe.Slice((*byte)(b.ptr), alloc))
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

func (b *buffer) bytes(offset, n int, op string) ([]byte, error) {
	if b.closed {
		return nil, fmt.Errorf("vk: %s on a released buffer", op)
	}
	if offset < 0 || n < 0 || offset > b.size-n {
		return nil, fmt.Errorf("vk: %s of %d bytes at offset %d is outside the %d-byte buffer", op, n, offset, b.size)
	}
	return unsafe.Slice((*byte)(b.ptr), b.size)[offset : offset+n], nil
}

func (b *buffer) Write(offset int, data []byte) error {
	dst, err := b.bytes(offset, len(data), "write")
	if err != nil {
		return err
	}
	copy(dst, data)
	return nil
}

// stagedReadMin is the size from which Read copies device-local memory
// through a host-cached staging buffer: the CPU reads write-combined
// device memory (the PCIe BAR) at tens of MB/s, while the GPU copies to
// cached system memory at PCIe speed.
const stagedReadMin = 64 << 10

func (b *buffer) Read(offset int, data []byte) error {
	src, err := b.bytes(offset, len(data), "read")
	if err != nil {
		return err
	}
	if b.local && len(data) >= stagedReadMin {
		if ok, err := b.d.stagedRead(b, offset, data); ok || err != nil {
			return err
		}
	}
	copy(data, src)
	return nil
}

// stagedRead copies b[offset:offset+len(data)] to data through a temporary
// host-cached buffer; ok is false when the device has no such memory.
func (d *Device) stagedRead(b *buffer, offset int, data []byte) (ok bool, err error) {
	p := &d.in.p
	var pin runtime.Pinner
	defer pin.Unpin()
	ci := &vkc.BufferCreateInfo{SType: vkc.StructureTypeBufferCreateInfo, Size: vkc.DeviceSize(len(data)), Usage: vkc.BufferUsageTransferDstBit, SharingMode: vkc.SharingModeExclusive}
	pin.Pin(ci)
	var sb vkc.Buffer
	if r := p.CreateBuffer(d.dev, ci, nil, &sb); r != vkc.Success {
		return false, vkError("vkCreateBuffer", r)
	}
	defer p.DestroyBuffer(d.dev, sb, nil)
	var req vkc.MemoryRequirements
	p.GetBufferMemoryRequirements(d.dev, sb, &req)
	t, found := d.memoryType(req.MemoryTypeBits, vkc.MemoryPropertyHostVisibleBit|vkc.MemoryPropertyHostCoherentBit|vkc.MemoryPropertyHostCachedBit)
	if !found {
		return false, nil
	}
	ai := &vkc.MemoryAllocateInfo{SType: vkc.StructureTypeMemoryAllocateInfo, AllocationSize: req.Size, MemoryTypeIndex: t}
	pin.Pin(ai)
	var mem vkc.DeviceMemory
	if r := p.AllocateMemory(d.dev, ai, nil, &mem); r != vkc.Success {
		return false, nil
	}
	defer p.FreeMemory(d.dev, mem, nil)
	if r := p.BindBufferMemory(d.dev, sb, mem, 0); r != vkc.Success {
		return true, vkError("vkBindBufferMemory", r)
	}
	bi := &vkc.CommandBufferBeginInfo{SType: vkc.StructureTypeCommandBufferBeginInfo, Flags: vkc.CommandBufferUsageOneTimeSubmitBit}
	region := &vkc.BufferCopy{SrcOffset: vkc.DeviceSize(offset), Size: vkc.DeviceSize(len(data))}
	after := &vkc.MemoryBarrier{SType: vkc.StructureTypeMemoryBarrier, SrcAccessMask: vkc.AccessTransferWriteBit, DstAccessMask: vkc.AccessHostReadBit}
	pin.Pin(bi)
	pin.Pin(region)
	pin.Pin(after)
	if r := p.BeginCommandBuffer(d.cmd, bi); r != vkc.Success {
		return true, vkError("vkBeginCommandBuffer", r)
	}
	p.CmdCopyBuffer(d.cmd, b.buf, sb, 1, region)
	p.CmdPipelineBarrier(d.cmd, vkc.PipelineStageTransferBit, vkc.PipelineStageHostBit, 0, 1, after, 0, nil, 0, nil)
	if r := p.EndCommandBuffer(d.cmd); r != vkc.Success {
		return true, vkError("vkEndCommandBuffer", r)
	}
	if err := d.submitAndWait("read-back copy"); err != nil {
		return true, err
	}
	var ptr unsafe.Pointer
	if r := p.MapMemory(d.dev, mem, 0, vkc.WholeSize, 0, &ptr); r != vkc.Success {
		return true, vkError("vkMapMemory", r)
	}
	copy(data, unsafe.Slice((*byte)(ptr), len(data)))
	p.UnmapMemory(d.dev, mem)
	return true, nil
}

package icd

import (
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/icd/vkt"
)

// Device is a VkDevice: an executor and one queue.
type Device struct {
	dispatchable
	inst  *Instance
	exec  *exec.Device
	queue *Queue
	mu    sync.Mutex
	// lost is set when a dispatch faulted: every later wait reports
	// VK_ERROR_DEVICE_LOST.
	lost error
	// addressed are the buffers whose device address was asked for, by
	// that address, so commands taking addresses find their memory.
	addressed map[uint64]*Buffer
}

func CreateDevice(physicalDevice uintptr, pCreateInfo, pAllocator, pDevice unsafe.Pointer) int32 {
	pd := lookupD[PhysicalDevice](physicalDevice)
	ci := (*vkt.DeviceCreateInfo)(pCreateInfo)
	if pd == nil || ci == nil || pDevice == nil {
		return errInitFailed
	}
	for _, e := range cstrings(ci.PpEnabledExtensionNames, ci.EnabledExtensionCount) {
		if !hasExtension(vkt.DeviceExtensions, e) {
			pd.inst.report(severityError, "vkCreateDevice: extension %s is not supported", e)
			return errExtNotPresent
		}
	}
	for _, q := range array[vkt.DeviceQueueCreateInfo](ci.PQueueCreateInfos, ci.QueueCreateInfoCount) {
		if q.QueueFamilyIndex != 0 || q.QueueCount > queueCount {
			return errInitFailed
		}
	}
	var missing []string
	if ci.PEnabledFeatures != nil {
		missing = missingFeatures(structAt(featureTypes[vkt.StructureTypePhysicalDeviceFeatures2].Field(2).Type, ci.PEnabledFeatures), missing)
	}
	chain(ci.PNext, func(s vkt.StructureType, p unsafe.Pointer) {
		if t, ok := featureTypes[s]; ok {
			missing = missingFeatures(structAt(t, p), missing)
		}
	})
	if len(missing) > 0 {
		pd.inst.report(severityError, "vkCreateDevice: features not supported: %s", strings.Join(missing, ", "))
		return errFeatureNotPresent
	}
	d := &Device{inst: pd.inst, addressed: map[uint64]*Buffer{}}
	d.exec = exec.New(exec.Options{SubgroupSize: defaultSubgroup, Printf: printfWriter{pd.inst}})
	d.queue = newQueue(d)
	*(*uintptr)(pDevice) = newDispatchable(&d.dispatchable, d)
	return success
}

func DestroyDevice(device uintptr, pAllocator unsafe.Pointer) {
	d := lookupD[Device](device)
	if d == nil {
		return
	}
	d.queue.stop()
	freeDispatchable(&d.queue.dispatchable)
	freeDispatchable(&d.dispatchable)
	d.exec.Close()
}

func GetDeviceQueue(device uintptr, family, index uint32, pQueue unsafe.Pointer) {
	d := lookupD[Device](device)
	if d == nil || family != 0 || index != 0 {
		put(pQueue, uintptr(0))
		return
	}
	put(pQueue, uintptr(unsafe.Pointer(&d.queue.dispatchable)))
}

func GetDeviceQueue2(device uintptr, pInfo, pQueue unsafe.Pointer) {
	if pInfo == nil {
		return
	}
	// VkDeviceQueueInfo2: sType, pNext, flags, queueFamilyIndex, queueIndex.
	GetDeviceQueue(device, *(*uint32)(unsafe.Add(pInfo, 20)), *(*uint32)(unsafe.Add(pInfo, 24)), pQueue)
}

func DeviceWaitIdle(device uintptr) int32 {
	d := lookupD[Device](device)
	if d == nil {
		return errDeviceLost
	}
	return d.queue.waitIdle()
}

// printfWriter sends a shader's debugPrintf output to the debug messengers
// as information (as the validation layers do), or to standard output when
// none takes information.
type printfWriter struct{ in *Instance }

func (w printfWriter) Write(b []byte) (int, error) {
	if !w.in.send(severityInfo, string(b)) {
		os.Stdout.Write(b)
	}
	return len(b), nil
}

// --- memory -------------------------------------------------------------

// Memory is a VkDeviceMemory: Go memory pinned so the application may keep
// a mapped pointer to it.
type Memory struct {
	data []byte
	pin  runtime.Pinner
}

func AllocateMemory(device uintptr, pInfo, pAllocator, pMemory unsafe.Pointer) int32 {
	d := lookupD[Device](device)
	ai := (*vkt.MemoryAllocateInfo)(pInfo)
	if d == nil || ai == nil || pMemory == nil {
		return errOutOfHostMemory
	}
	if ai.MemoryTypeIndex >= memoryProperties.MemoryTypeCount {
		return errOutOfDeviceMemory
	}
	if ai.AllocationSize == 0 || ai.AllocationSize > maxAllocation {
		d.inst.report(severityError, "vkAllocateMemory: %d bytes is more than maxMemoryAllocationSize (%d)", ai.AllocationSize, uint64(maxAllocation))
		return errOutOfDeviceMemory
	}
	m := &Memory{data: make([]byte, ai.AllocationSize)}
	m.pin.Pin(&m.data[0])
	put(pMemory, newHandle(m))
	return success
}

func FreeMemory(device uintptr, memory uint64, pAllocator unsafe.Pointer) {
	m := lookup[Memory](memory)
	if m == nil {
		return
	}
	m.pin.Unpin()
	freeHandle(memory)
}

func MapMemory(device uintptr, memory uint64, offset, size uint64, flags uint32, ppData unsafe.Pointer) int32 {
	m := lookup[Memory](memory)
	if m == nil || ppData == nil || offset >= uint64(len(m.data)) {
		return errMemoryMapFailed
	}
	*(*unsafe.Pointer)(ppData) = unsafe.Pointer(&m.data[offset])
	return success
}

func MapMemory2(device uintptr, pInfo, ppData unsafe.Pointer) int32 {
	mi := (*vkt.MemoryMapInfo)(pInfo)
	if mi == nil {
		return errMemoryMapFailed
	}
	return MapMemory(device, uint64(mi.Memory), uint64(mi.Offset), uint64(mi.Size), uint32(mi.Flags), ppData)
}

func UnmapMemory(device uintptr, memory uint64) {}

func UnmapMemory2(device uintptr, pInfo unsafe.Pointer) int32 { return success }

// Memory is coherent: flushes and invalidations have nothing to do.
func FlushMappedMemoryRanges(device uintptr, count uint32, pRanges unsafe.Pointer) int32 {
	return success
}

func InvalidateMappedMemoryRanges(device uintptr, count uint32, pRanges unsafe.Pointer) int32 {
	return success
}

func GetDeviceMemoryCommitment(device uintptr, memory uint64, pCommitted unsafe.Pointer) {
	if m := lookup[Memory](memory); m != nil {
		put(pCommitted, uint64(len(m.data)))
	}
}

// --- buffers ------------------------------------------------------------

// Buffer is a VkBuffer: a range of a memory object once bound. The
// executor sees it through views (exec.NewBufferOver) of the bound range,
// one per descriptor range and one for its device address.
type Buffer struct {
	dev    *Device
	size   uint64
	usage  uint32
	mem    *Memory
	offset uint64
	mu     sync.Mutex
	views  map[[2]uint64]backend.Buffer // nil once destroyed
}

// errDestroyed is view's error for a destroyed buffer.
var errDestroyed = errorf("the buffer was destroyed")

func CreateBuffer(device uintptr, pInfo, pAllocator, pBuffer unsafe.Pointer) int32 {
	d := lookupD[Device](device)
	ci := (*vkt.BufferCreateInfo)(pInfo)
	if d == nil || ci == nil || pBuffer == nil {
		return errOutOfHostMemory
	}
	if ci.Size > maxAllocation {
		return errOutOfDeviceMemory
	}
	b := &Buffer{dev: d, size: uint64(ci.Size), usage: uint32(ci.Usage), views: map[[2]uint64]backend.Buffer{}}
	put(pBuffer, newHandle(b))
	return success
}

func DestroyBuffer(device uintptr, buffer uint64, pAllocator unsafe.Pointer) {
	b := lookup[Buffer](buffer)
	if b == nil {
		return
	}
	b.dev.mu.Lock()
	for a, x := range b.dev.addressed {
		if x == b {
			delete(b.dev.addressed, a)
		}
	}
	b.dev.mu.Unlock()
	b.mu.Lock()
	for _, v := range b.views {
		v.Release()
	}
	b.views = nil
	b.mu.Unlock()
	freeHandle(buffer)
}

func bufferRequirements(size uint64) vkt.MemoryRequirements {
	return vkt.MemoryRequirements{Size: vkt.DeviceSize((size + bufferAlignment - 1) / bufferAlignment * bufferAlignment),
		Alignment: bufferAlignment, MemoryTypeBits: 1<<memoryProperties.MemoryTypeCount - 1}
}

func GetBufferMemoryRequirements(device uintptr, buffer uint64, pReq unsafe.Pointer) {
	if b := lookup[Buffer](buffer); b != nil {
		put(pReq, bufferRequirements(b.size))
	}
}

func fillRequirements2(size uint64, pReq unsafe.Pointer) {
	chain(pReq, func(s vkt.StructureType, p unsafe.Pointer) {
		switch s {
		case vkt.StructureTypeMemoryRequirements2:
			(*vkt.MemoryRequirements2)(p).MemoryRequirements = bufferRequirements(size)
		case vkt.StructureTypeMemoryDedicatedRequirements:
			r := (*vkt.MemoryDedicatedRequirements)(p)
			r.PrefersDedicatedAllocation, r.RequiresDedicatedAllocation = 0, 0
		}
	})
}

func GetBufferMemoryRequirements2(device uintptr, pInfo, pReq unsafe.Pointer) {
	if pInfo == nil {
		return
	}
	if b := lookup[Buffer](uint64((*vkt.BufferMemoryRequirementsInfo2)(pInfo).Buffer)); b != nil {
		fillRequirements2(b.size, pReq)
	}
}

func GetDeviceBufferMemoryRequirements(device uintptr, pInfo, pReq unsafe.Pointer) {
	if pInfo == nil || (*vkt.DeviceBufferMemoryRequirements)(pInfo).PCreateInfo == nil {
		return
	}
	fillRequirements2(uint64((*vkt.BufferCreateInfo)((*vkt.DeviceBufferMemoryRequirements)(pInfo).PCreateInfo).Size), pReq)
}

func BindBufferMemory(device uintptr, buffer, memory uint64, offset uint64) int32 {
	b, m := lookup[Buffer](buffer), lookup[Memory](memory)
	if b == nil || m == nil || offset > uint64(len(m.data)) || b.size > uint64(len(m.data))-offset {
		return errOutOfDeviceMemory
	}
	b.mu.Lock()
	b.mem, b.offset = m, offset
	b.mu.Unlock()
	return success
}

func BindBufferMemory2(device uintptr, count uint32, pInfos unsafe.Pointer) int32 {
	for _, bi := range array[vkt.BindBufferMemoryInfo](pInfos, count) {
		if r := BindBufferMemory(device, uint64(bi.Buffer), uint64(bi.Memory), uint64(bi.MemoryOffset)); r != success {
			return r
		}
	}
	return success
}

// view returns the executor buffer showing bytes [off, off+size) of b
// (size VK_WHOLE_SIZE: to the end of the buffer).
func (b *Buffer) view(off, size uint64) (backend.Buffer, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.views == nil {
		return nil, errDestroyed
	}
	if b.mem == nil {
		return nil, errorf("the buffer is not bound to memory")
	}
	if size == vkt.WholeSize {
		if off > b.size {
			return nil, errorf("offset %d is beyond the buffer's %d bytes", off, b.size)
		}
		size = b.size - off
	}
	if off > b.size || size > b.size-off {
		return nil, errorf("range of %d bytes at %d is outside the buffer's %d bytes", size, off, b.size)
	}
	key := [2]uint64{off, size}
	if v, ok := b.views[key]; ok {
		return v, nil
	}
	start := b.offset + off
	v, err := b.dev.exec.NewBufferOver(b.mem.data[start:start+size:start+size], backend.UsageStorage|backend.UsageAddress)
	if err != nil {
		return nil, err
	}
	b.views[key] = v
	return v, nil
}

func GetBufferDeviceAddress(device uintptr, pInfo unsafe.Pointer) uint64 {
	if pInfo == nil {
		return 0
	}
	b := lookup[Buffer](uint64((*vkt.BufferDeviceAddressInfo)(pInfo).Buffer))
	if b == nil {
		return 0
	}
	v, err := b.view(0, vkt.WholeSize)
	if err != nil {
		b.dev.inst.report(severityError, "vkGetBufferDeviceAddress: %v", err)
		return 0
	}
	b.dev.mu.Lock()
	b.dev.addressed[v.Address()] = b
	b.dev.mu.Unlock()
	return v.Address()
}

// addressBytes is the memory of n bytes at device address addr, which
// must lie in one buffer whose address the application asked for.
func (d *Device) addressBytes(addr, n uint64) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for base, b := range d.addressed {
		if addr >= base && addr-base <= b.size && n <= b.size-(addr-base) {
			return b.bytesOf(addr-base, n)
		}
	}
	return nil, errorf("%d bytes at address %#x are in no buffer", n, addr)
}

func GetBufferOpaqueCaptureAddress(device uintptr, pInfo unsafe.Pointer) uint64 { return 0 }

func GetDeviceMemoryOpaqueCaptureAddress(device uintptr, pInfo unsafe.Pointer) uint64 { return 0 }

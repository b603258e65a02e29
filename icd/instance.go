package icd

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/coopshader/coop/icd/vkt"
)

// Instance is a VkInstance: its one physical device and debug messengers.
type Instance struct {
	dispatchable
	phys *PhysicalDevice
	mu   sync.Mutex
	// messengers are the VK_EXT_debug_utils messengers, those of the
	// create info's pNext chain first (they live as long as the instance).
	messengers []*messenger
}

// PhysicalDevice is the one VkPhysicalDevice, "coop (CPU reference)".
type PhysicalDevice struct {
	dispatchable
	inst *Instance
}

type messenger struct {
	severity, types uint32
	callback        uintptr // a C function pointer
	user            unsafe.Pointer
}

// CallMessenger calls a VK_EXT_debug_utils callback; the entry package sets
// it (calling a C function pointer needs cgo).
var CallMessenger func(fn uintptr, severity, types uint32, data, user unsafe.Pointer)

// Message severities and types of VK_EXT_debug_utils.
const (
	severityInfo    = 0x10
	severityWarning = 0x100
	severityError   = 0x1000
	typeGeneral     = 1
	typeValidation  = 2
)

// report sends a message to the instance's messengers; errors also go to
// standard error when no messenger takes them, so a failed dispatch is
// never silent.
func (in *Instance) report(severity uint32, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !in.send(severity, msg) && severity >= severityError {
		fmt.Fprintf(os.Stderr, "coop-icd: %s\n", msg)
	}
}

// send gives a message to the messengers that take its severity; it
// reports whether one did.
func (in *Instance) send(severity uint32, msg string) bool {
	in.mu.Lock()
	ms := slices.Clone(in.messengers)
	in.mu.Unlock()
	taken := false
	for _, m := range ms {
		if m.severity&severity == 0 || m.types&typeValidation == 0 || CallMessenger == nil {
			continue
		}
		taken = true
		sendMessage(m, severity, msg)
	}
	return taken
}

func sendMessage(m *messenger, severity uint32, msg string) {
	text := append([]byte(msg), 0)
	id := []byte("coop-icd\x00")
	data := &vkt.DebugUtilsMessengerCallbackDataEXT{
		SType:          vkt.StructureTypeDebugUtilsMessengerCallbackDataEXT,
		PMessageIdName: unsafe.Pointer(&id[0]),
		PMessage:       unsafe.Pointer(&text[0]),
	}
	var pin runtime.Pinner
	pin.Pin(&text[0])
	pin.Pin(&id[0])
	pin.Pin(data)
	defer pin.Unpin()
	CallMessenger(m.callback, severity, typeValidation, unsafe.Pointer(data), m.user)
}

func EnumerateInstanceVersion(pApiVersion unsafe.Pointer) int32 {
	put(pApiVersion, uint32(apiVersion))
	return success
}

func EnumerateInstanceExtensionProperties(pLayerName, pPropertyCount, pProperties unsafe.Pointer) int32 {
	if pLayerName != nil {
		return errLayerNotPresent
	}
	return enumerate(pPropertyCount, pProperties, extensionProps(vkt.InstanceExtensions))
}

func EnumerateInstanceLayerProperties(pPropertyCount, pProperties unsafe.Pointer) int32 {
	put(pPropertyCount, uint32(0))
	return success
}

func extensionProps(list []vkt.Extension) []vkt.ExtensionProperties {
	out := make([]vkt.ExtensionProperties, len(list))
	for i, e := range list {
		copy(out[i].ExtensionName[:], e.Name)
		out[i].SpecVersion = e.SpecVersion
	}
	return out
}

func hasExtension(list []vkt.Extension, name string) bool {
	return slices.ContainsFunc(list, func(e vkt.Extension) bool { return e.Name == name })
}

func CreateInstance(pCreateInfo, pAllocator, pInstance unsafe.Pointer) int32 {
	ci := (*vkt.InstanceCreateInfo)(pCreateInfo)
	if ci == nil || pInstance == nil {
		return errInitFailed
	}
	for _, e := range cstrings(ci.PpEnabledExtensionNames, ci.EnabledExtensionCount) {
		if !hasExtension(vkt.InstanceExtensions, e) {
			return errExtNotPresent
		}
	}
	in := &Instance{}
	in.phys = &PhysicalDevice{inst: in}
	chain(ci.PNext, func(s vkt.StructureType, p unsafe.Pointer) {
		if s == vkt.StructureTypeDebugUtilsMessengerCreateInfoEXT {
			in.messengers = append(in.messengers, newMessenger((*vkt.DebugUtilsMessengerCreateInfoEXT)(p)))
		}
	})
	newDispatchable(&in.phys.dispatchable, in.phys)
	*(*uintptr)(pInstance) = newDispatchable(&in.dispatchable, in)
	return success
}

func DestroyInstance(instance uintptr, pAllocator unsafe.Pointer) {
	in := lookupD[Instance](instance)
	if in == nil {
		return
	}
	freeDispatchable(&in.phys.dispatchable)
	freeDispatchable(&in.dispatchable)
}

func newMessenger(ci *vkt.DebugUtilsMessengerCreateInfoEXT) *messenger {
	return &messenger{severity: uint32(ci.MessageSeverity), types: uint32(ci.MessageType),
		callback: ci.PfnUserCallback, user: ci.PUserData}
}

func CreateDebugUtilsMessengerEXT(instance uintptr, pCreateInfo, pAllocator, pMessenger unsafe.Pointer) int32 {
	in := lookupD[Instance](instance)
	if in == nil || pCreateInfo == nil || pMessenger == nil {
		return errInitFailed
	}
	m := newMessenger((*vkt.DebugUtilsMessengerCreateInfoEXT)(pCreateInfo))
	in.mu.Lock()
	in.messengers = append(in.messengers, m)
	in.mu.Unlock()
	put(pMessenger, newHandle(m))
	return success
}

func DestroyDebugUtilsMessengerEXT(instance uintptr, h uint64, pAllocator unsafe.Pointer) {
	in := lookupD[Instance](instance)
	m := lookup[messenger](h)
	if in == nil || m == nil {
		return
	}
	in.mu.Lock()
	in.messengers = slices.DeleteFunc(in.messengers, func(x *messenger) bool { return x == m })
	in.mu.Unlock()
	freeHandle(h)
}

func SubmitDebugUtilsMessageEXT(instance uintptr, severity, types uint32, pCallbackData unsafe.Pointer) {
	in := lookupD[Instance](instance)
	if in == nil || pCallbackData == nil {
		return
	}
	d := (*vkt.DebugUtilsMessengerCallbackDataEXT)(pCallbackData)
	in.mu.Lock()
	ms := slices.Clone(in.messengers)
	in.mu.Unlock()
	for _, m := range ms {
		if m.severity&severity != 0 && m.types&types != 0 && CallMessenger != nil {
			CallMessenger(m.callback, severity, types, unsafe.Pointer(d), m.user)
		}
	}
}

func EnumeratePhysicalDevices(instance uintptr, pCount, pDevices unsafe.Pointer) int32 {
	in := lookupD[Instance](instance)
	if in == nil {
		return errInitFailed
	}
	return enumerate(pCount, pDevices, []uintptr{uintptr(unsafe.Pointer(&in.phys.dispatchable))})
}

func EnumeratePhysicalDeviceGroups(instance uintptr, pCount, pGroups unsafe.Pointer) int32 {
	in := lookupD[Instance](instance)
	if in == nil {
		return errInitFailed
	}
	if pGroups == nil {
		put(pCount, uint32(1))
		return success
	}
	if pCount == nil || *(*uint32)(pCount) == 0 {
		return incomplete
	}
	// VkPhysicalDeviceGroupProperties: sType, pNext, count, devices[32], subsetAllocation.
	*(*uint32)(unsafe.Add(pGroups, 16)) = 1
	*(*uintptr)(unsafe.Add(pGroups, 24)) = uintptr(unsafe.Pointer(&in.phys.dispatchable))
	*(*uint32)(unsafe.Add(pGroups, 24+32*8)) = 0
	*(*uint32)(pCount) = 1
	return success
}

func GetPhysicalDeviceProperties(physicalDevice uintptr, pProperties unsafe.Pointer) {
	if pProperties != nil {
		fillProperties(structAt(propertyTypes[vkt.StructureTypePhysicalDeviceProperties2].Field(2).Type, pProperties))
	}
}

func GetPhysicalDeviceProperties2(physicalDevice uintptr, pProperties unsafe.Pointer) {
	chain(pProperties, func(s vkt.StructureType, p unsafe.Pointer) {
		if t, ok := propertyTypes[s]; ok {
			fillProperties(structAt(t, p))
		}
	})
}

func GetPhysicalDeviceFeatures(physicalDevice uintptr, pFeatures unsafe.Pointer) {
	if pFeatures != nil {
		fillFeatures(structAt(featureTypes[vkt.StructureTypePhysicalDeviceFeatures2].Field(2).Type, pFeatures))
	}
}

func GetPhysicalDeviceFeatures2(physicalDevice uintptr, pFeatures unsafe.Pointer) {
	chain(pFeatures, func(s vkt.StructureType, p unsafe.Pointer) {
		if t, ok := featureTypes[s]; ok {
			fillFeatures(structAt(t, p))
		}
	})
}

// The queue family: compute and transfer, one queue, 64-bit timestamps.
var queueFamily = vkt.QueueFamilyProperties{
	QueueFlags: vkt.QueueComputeBit | vkt.QueueTransferBit, QueueCount: queueCount, TimestampValidBits: 64,
	MinImageTransferGranularity: vkt.Extent3D{Width: 1, Height: 1, Depth: 1},
}

func GetPhysicalDeviceQueueFamilyProperties(physicalDevice uintptr, pCount, pProps unsafe.Pointer) {
	enumerate(pCount, pProps, []vkt.QueueFamilyProperties{queueFamily})
}

func GetPhysicalDeviceQueueFamilyProperties2(physicalDevice uintptr, pCount, pProps unsafe.Pointer) {
	if pProps == nil {
		put(pCount, uint32(1))
		return
	}
	if pCount == nil || *(*uint32)(pCount) == 0 {
		return
	}
	(*vkt.QueueFamilyProperties2)(pProps).QueueFamilyProperties = queueFamily
	*(*uint32)(pCount) = 1
}

// Memory: one heap of host memory shown three ways: device-local only
// (what applications put their data in), device-local and host-visible,
// and host-visible only (staging). All are coherent and cached.
var memoryProperties = func() vkt.PhysicalDeviceMemoryProperties {
	var m vkt.PhysicalDeviceMemoryProperties
	host := vkt.MemoryPropertyHostVisibleBit | vkt.MemoryPropertyHostCoherentBit | vkt.MemoryPropertyHostCachedBit
	m.MemoryTypeCount = 3
	m.MemoryTypes[0] = vkt.MemoryType{PropertyFlags: vkt.MemoryPropertyDeviceLocalBit}
	m.MemoryTypes[1] = vkt.MemoryType{PropertyFlags: vkt.MemoryPropertyDeviceLocalBit | host}
	m.MemoryTypes[2] = vkt.MemoryType{PropertyFlags: host}
	m.MemoryHeapCount = 1
	m.MemoryHeaps[0] = vkt.MemoryHeap{Size: heapSize, Flags: 1} // VK_MEMORY_HEAP_DEVICE_LOCAL_BIT
	return m
}()

func GetPhysicalDeviceMemoryProperties(physicalDevice uintptr, pProps unsafe.Pointer) {
	put(pProps, memoryProperties)
}

func GetPhysicalDeviceMemoryProperties2(physicalDevice uintptr, pProps unsafe.Pointer) {
	if pProps != nil {
		(*vkt.PhysicalDeviceMemoryProperties2)(pProps).MemoryProperties = memoryProperties
	}
}

func EnumerateDeviceExtensionProperties(physicalDevice uintptr, pLayerName, pCount, pProps unsafe.Pointer) int32 {
	if pLayerName != nil {
		return errLayerNotPresent
	}
	return enumerate(pCount, pProps, extensionProps(vkt.DeviceExtensions))
}

func EnumerateDeviceLayerProperties(physicalDevice uintptr, pCount, pProps unsafe.Pointer) int32 {
	put(pCount, uint32(0))
	return success
}

func GetPhysicalDeviceToolProperties(physicalDevice uintptr, pCount, pProps unsafe.Pointer) int32 {
	put(pCount, uint32(0))
	return success
}

package icd

import (
	"runtime"
	"sync"
	"unsafe"
)

// Vulkan results the driver returns.
const (
	success              = 0
	notReady             = 1
	timeout              = 2
	eventSet             = 3
	eventReset           = 4
	incomplete           = 5
	errOutOfHostMemory   = -1
	errOutOfDeviceMemory = -2
	errInitFailed        = -3
	errDeviceLost        = -4
	errMemoryMapFailed   = -5
	errLayerNotPresent   = -6
	errExtNotPresent     = -7
	errFeatureNotPresent = -8
	errTooManyObjects    = -10
	errFormatNotSupp     = -11
	errUnknown           = -13
	errOutOfPoolMemory   = -1000069000
	// errValidationFailed is VK_ERROR_VALIDATION_FAILED: invalid usage
	// the driver found (creation parameters it cannot honour).
	errValidationFailed = -1000011001
)

// loaderMagic is ICD_LOADER_MAGIC: the loader checks it in the first word
// of a dispatchable object before writing its dispatch table pointer
// there.
const loaderMagic = 0x01CDC0DE

// dispatchable is the head of every dispatchable object (instance,
// physical device, device, queue, command buffer): its first word belongs
// to the loader. Objects are pinned while they live, since the loader keeps
// their address and writes into them.
type dispatchable struct {
	loaderData uintptr
	pin        runtime.Pinner
}

var (
	objMu sync.Mutex
	// dispatchables maps a dispatchable handle (the object's address) to
	// the object, so a handle the driver did not make is refused rather
	// than dereferenced.
	dispatchables = map[uintptr]any{}
	// handles maps a non-dispatchable handle to its object; handles are
	// numbered from 1 and never reused.
	handles    = map[uint64]any{}
	nextHandle uint64
)

// newDispatchable registers obj, whose first field is a dispatchable head
// h, and returns its handle.
func newDispatchable(h *dispatchable, obj any) uintptr {
	h.loaderData = loaderMagic
	h.pin.Pin(h)
	p := uintptr(unsafe.Pointer(h))
	objMu.Lock()
	dispatchables[p] = obj
	objMu.Unlock()
	return p
}

func freeDispatchable(h *dispatchable) {
	objMu.Lock()
	delete(dispatchables, uintptr(unsafe.Pointer(h)))
	objMu.Unlock()
	h.pin.Unpin()
}

// lookupD returns the object of type T behind dispatchable handle p.
func lookupD[T any](p uintptr) *T {
	objMu.Lock()
	defer objMu.Unlock()
	o, _ := dispatchables[p].(*T)
	return o
}

func newHandle(obj any) uint64 {
	objMu.Lock()
	defer objMu.Unlock()
	nextHandle++
	handles[nextHandle] = obj
	return nextHandle
}

// lookup returns the object of type T behind handle h, or nil.
func lookup[T any](h uint64) *T {
	objMu.Lock()
	defer objMu.Unlock()
	o, _ := handles[h].(*T)
	return o
}

func freeHandle(h uint64) {
	objMu.Lock()
	delete(handles, h)
	objMu.Unlock()
}

// put writes v through an application pointer (nil is ignored).
func put[T any](p unsafe.Pointer, v T) {
	if p != nil {
		*(*T)(p) = v
	}
}

// array views n C elements of type T at p.
func array[T any](p unsafe.Pointer, n uint32) []T {
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(p), n)
}

// cstring reads a NUL-terminated C string.
func cstring(p unsafe.Pointer) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(p, n)) != 0 && n < 1<<16 {
		n++
	}
	return string(unsafe.Slice((*byte)(p), n))
}

// cstrings reads an array of n C strings.
func cstrings(p unsafe.Pointer, n uint32) []string {
	var out []string
	for _, s := range array[unsafe.Pointer](p, n) {
		out = append(out, cstring(s))
	}
	return out
}

// enumerate implements Vulkan's two-call idiom: with a nil items pointer
// it reports the count; otherwise it writes up to *count items and returns
// VK_INCOMPLETE when there were more.
func enumerate[T any](count, items unsafe.Pointer, all []T) int32 {
	if count == nil {
		return errUnknown
	}
	c := (*uint32)(count)
	if items == nil {
		*c = uint32(len(all))
		return success
	}
	n := min(int(*c), len(all))
	copy(unsafe.Slice((*T)(items), n), all[:n])
	*c = uint32(n)
	if n < len(all) {
		return incomplete
	}
	return success
}

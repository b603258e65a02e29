package vk

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/vk/internal/vkc"
)

// LibraryEnv names an environment variable that, when set, is the path of
// the Vulkan loader library to open instead of the system's libvulkan.
const LibraryEnv = "COOP_VULKAN_LIBRARY"

var (
	loadOnce sync.Once
	loadErr  error
	gipa     uintptr // vkGetInstanceProcAddr
)

// loadLibrary opens the Vulkan loader once per process. Every failure wraps
// backend.ErrUnavailable: without a loader there is no Vulkan at all.
func loadLibrary() error {
	loadOnce.Do(func() {
		if unsafe.Sizeof(uintptr(0)) != 8 {
			loadErr = fmt.Errorf("vk: %w: the generated Vulkan structures assume a 64-bit platform", backend.ErrUnavailable)
			return
		}
		names := loaderNames
		if p := os.Getenv(LibraryEnv); p != "" {
			names = []string{p}
		}
		var errs []string
		for _, n := range names {
			g, err := openLoader(n)
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			gipa = g
			return
		}
		loadErr = fmt.Errorf("vk: %w: no Vulkan loader found (%v); install libvulkan1 and a GPU driver, or set %s", backend.ErrUnavailable, strings.Join(errs, "; "), LibraryEnv)
	})
	return loadErr
}

// procAddr looks up a command through vkGetInstanceProcAddr.
func procAddr(inst vkc.Instance, name string) uintptr {
	b := append([]byte(name), 0)
	r, _, _ := purego.SyscallN(gipa, uintptr(inst), uintptr(unsafe.Pointer(&b[0])))
	runtime.KeepAlive(b)
	return r
}

// vkError turns a VkResult into an error naming the call.
func vkError(call string, r vkc.Result) error {
	if r == vkc.Success {
		return nil
	}
	return fmt.Errorf("vk: %s failed: %v", call, r)
}

// instance is a VkInstance with its command table.
type instance struct {
	p    vkc.Procs
	inst vkc.Instance
}

// cstrings holds NUL-terminated copies of Go strings and the array of
// pointers to them that Vulkan's "const char* const*" parameters take.
type cstrings struct {
	bufs [][]byte
	ptrs []unsafe.Pointer
}

func newCStrings(pin *runtime.Pinner, ss []string) *cstrings {
	c := &cstrings{}
	for _, s := range ss {
		b := append([]byte(s), 0)
		pin.Pin(&b[0])
		c.bufs = append(c.bufs, b)
		c.ptrs = append(c.ptrs, unsafe.Pointer(&b[0]))
	}
	if len(c.ptrs) > 0 {
		pin.Pin(&c.ptrs[0])
	}
	return c
}

func (c *cstrings) first() unsafe.Pointer {
	if len(c.ptrs) == 0 {
		return nil
	}
	return unsafe.Pointer(&c.ptrs[0])
}

func cstr(pin *runtime.Pinner, s string) unsafe.Pointer {
	b := append([]byte(s), 0)
	pin.Pin(&b[0])
	return unsafe.Pointer(&b[0])
}

func newInstance() (*instance, error) {
	if err := loadLibrary(); err != nil {
		return nil, err
	}
	in := &instance{}
	in.p.Load(func(name string) uintptr { return procAddr(0, name) })
	if in.p.PFNCreateInstance == 0 {
		return nil, fmt.Errorf("vk: %w: the Vulkan loader has no vkCreateInstance", backend.ErrUnavailable)
	}
	version := vkc.MakeVersion(1, 0, 0)
	if in.p.PFNEnumerateInstanceVersion != 0 {
		in.p.EnumerateInstanceVersion(&version)
	}
	if version < vkc.APIVersion13 {
		return nil, fmt.Errorf("vk: %w: the Vulkan loader supports version %s, coop needs 1.3", backend.ErrUnavailable, vkc.VersionString(version))
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	app := &vkc.ApplicationInfo{
		SType:            vkc.StructureTypeApplicationInfo,
		PApplicationName: cstr(&pin, "coop"),
		PEngineName:      cstr(&pin, "coop"),
		ApiVersion:       vkc.APIVersion13,
	}
	pin.Pin(app)
	ci := &vkc.InstanceCreateInfo{SType: vkc.StructureTypeInstanceCreateInfo, PApplicationInfo: unsafe.Pointer(app)}
	pin.Pin(ci)
	if r := in.p.CreateInstance(ci, nil, &in.inst); r != vkc.Success {
		err := vkError("vkCreateInstance", r)
		if r == vkc.ErrorIncompatibleDriver || r == vkc.ErrorInitializationFailed {
			err = fmt.Errorf("vk: %w: %v (no Vulkan driver installed?)", backend.ErrUnavailable, err)
		}
		return nil, err
	}
	in.p.Load(func(name string) uintptr { return procAddr(in.inst, name) })
	return in, nil
}

func (in *instance) close() {
	if in.inst != 0 {
		in.p.DestroyInstance(in.inst, nil)
		in.inst = 0
	}
}

func (in *instance) physicalDevices() ([]vkc.PhysicalDevice, error) {
	var n uint32
	if r := in.p.EnumeratePhysicalDevices(in.inst, &n, nil); r != vkc.Success {
		return nil, vkError("vkEnumeratePhysicalDevices", r)
	}
	if n == 0 {
		return nil, nil
	}
	pds := make([]vkc.PhysicalDevice, n)
	if r := in.p.EnumeratePhysicalDevices(in.inst, &n, &pds[0]); r != vkc.Success && r != vkc.Incomplete {
		return nil, vkError("vkEnumeratePhysicalDevices", r)
	}
	return pds[:n], nil
}

func (in *instance) extensions(pd vkc.PhysicalDevice) (map[string]bool, error) {
	var n uint32
	if r := in.p.EnumerateDeviceExtensionProperties(pd, nil, &n, nil); r != vkc.Success {
		return nil, vkError("vkEnumerateDeviceExtensionProperties", r)
	}
	has := map[string]bool{}
	if n == 0 {
		return has, nil
	}
	props := make([]vkc.ExtensionProperties, n)
	if r := in.p.EnumerateDeviceExtensionProperties(pd, nil, &n, &props[0]); r != vkc.Success && r != vkc.Incomplete {
		return nil, vkError("vkEnumerateDeviceExtensionProperties", r)
	}
	for _, p := range props[:n] {
		has[vkc.CString(p.ExtensionName[:])] = true
	}
	return has, nil
}

// properties is every property structure the backend reads, in one
// allocation (see features).
type properties struct {
	p2  vkc.PhysicalDeviceProperties2
	v11 vkc.PhysicalDeviceVulkan11Properties
	v12 vkc.PhysicalDeviceVulkan12Properties
	v13 vkc.PhysicalDeviceVulkan13Properties
	cmK vkc.PhysicalDeviceCooperativeMatrixPropertiesKHR
	cmN vkc.PhysicalDeviceCooperativeMatrixPropertiesNV
	cm2 vkc.PhysicalDeviceCooperativeMatrix2PropertiesNV
	cv  vkc.PhysicalDeviceCooperativeVectorPropertiesNV
}

func (in *instance) queryProperties(pd vkc.PhysicalDevice, has map[string]bool) *properties {
	p := new(properties)
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(p)
	// The core version must be known before chaining the 1.1-1.3 structures.
	in.p.GetPhysicalDeviceProperties(pd, &p.p2.Properties)
	api := p.p2.Properties.ApiVersion
	p.p2.SType = vkc.StructureTypePhysicalDeviceProperties2
	var c chain
	c.start(&p.p2.PNext)
	if api >= vkc.MakeVersion(1, 2, 0) {
		p.v11.SType = vkc.StructureTypePhysicalDeviceVulkan11Properties
		p.v12.SType = vkc.StructureTypePhysicalDeviceVulkan12Properties
		c.add(unsafe.Pointer(&p.v11), &p.v11.PNext)
		c.add(unsafe.Pointer(&p.v12), &p.v12.PNext)
	}
	if api >= vkc.APIVersion13 {
		p.v13.SType = vkc.StructureTypePhysicalDeviceVulkan13Properties
		c.add(unsafe.Pointer(&p.v13), &p.v13.PNext)
	}
	if has["VK_KHR_cooperative_matrix"] {
		p.cmK.SType = vkc.StructureTypePhysicalDeviceCooperativeMatrixPropertiesKHR
		c.add(unsafe.Pointer(&p.cmK), &p.cmK.PNext)
	}
	if has["VK_NV_cooperative_matrix"] {
		p.cmN.SType = vkc.StructureTypePhysicalDeviceCooperativeMatrixPropertiesNV
		c.add(unsafe.Pointer(&p.cmN), &p.cmN.PNext)
	}
	if has["VK_NV_cooperative_matrix2"] {
		p.cm2.SType = vkc.StructureTypePhysicalDeviceCooperativeMatrix2PropertiesNV
		c.add(unsafe.Pointer(&p.cm2), &p.cm2.PNext)
	}
	if has["VK_NV_cooperative_vector"] {
		p.cv.SType = vkc.StructureTypePhysicalDeviceCooperativeVectorPropertiesNV
		c.add(unsafe.Pointer(&p.cv), &p.cv.PNext)
	}
	in.p.GetPhysicalDeviceProperties2(pd, &p.p2)
	return p
}

func (in *instance) queueFamilies(pd vkc.PhysicalDevice) []vkc.QueueFamilyProperties {
	var n uint32
	in.p.GetPhysicalDeviceQueueFamilyProperties(pd, &n, nil)
	if n == 0 {
		return nil
	}
	q := make([]vkc.QueueFamilyProperties, n)
	in.p.GetPhysicalDeviceQueueFamilyProperties(pd, &n, &q[0])
	return q[:n]
}

// The four list queries below share one shape: ask for the count, then
// fill an array whose elements carry their own sType.

func (in *instance) coopMatKHR(pd vkc.PhysicalDevice) ([]vkc.CooperativeMatrixPropertiesKHR, error) {
	if in.p.PFNGetPhysicalDeviceCooperativeMatrixPropertiesKHR == 0 {
		return nil, nil
	}
	var n uint32
	if r := in.p.GetPhysicalDeviceCooperativeMatrixPropertiesKHR(pd, &n, nil); r != vkc.Success || n == 0 {
		return nil, vkError("vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR", r)
	}
	out := make([]vkc.CooperativeMatrixPropertiesKHR, n)
	for i := range out {
		out[i].SType = vkc.StructureTypeCooperativeMatrixPropertiesKHR
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&out[0])
	r := in.p.GetPhysicalDeviceCooperativeMatrixPropertiesKHR(pd, &n, &out[0])
	if r != vkc.Success && r != vkc.Incomplete {
		return nil, vkError("vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR", r)
	}
	return out[:n], nil
}

func (in *instance) coopMatNV(pd vkc.PhysicalDevice) ([]vkc.CooperativeMatrixPropertiesNV, error) {
	if in.p.PFNGetPhysicalDeviceCooperativeMatrixPropertiesNV == 0 {
		return nil, nil
	}
	var n uint32
	if r := in.p.GetPhysicalDeviceCooperativeMatrixPropertiesNV(pd, &n, nil); r != vkc.Success || n == 0 {
		return nil, vkError("vkGetPhysicalDeviceCooperativeMatrixPropertiesNV", r)
	}
	out := make([]vkc.CooperativeMatrixPropertiesNV, n)
	for i := range out {
		out[i].SType = vkc.StructureTypeCooperativeMatrixPropertiesNV
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&out[0])
	r := in.p.GetPhysicalDeviceCooperativeMatrixPropertiesNV(pd, &n, &out[0])
	if r != vkc.Success && r != vkc.Incomplete {
		return nil, vkError("vkGetPhysicalDeviceCooperativeMatrixPropertiesNV", r)
	}
	return out[:n], nil
}

func (in *instance) coopMatFlexNV(pd vkc.PhysicalDevice) ([]vkc.CooperativeMatrixFlexibleDimensionsPropertiesNV, error) {
	if in.p.PFNGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV == 0 {
		return nil, nil
	}
	var n uint32
	if r := in.p.GetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV(pd, &n, nil); r != vkc.Success || n == 0 {
		return nil, vkError("vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV", r)
	}
	out := make([]vkc.CooperativeMatrixFlexibleDimensionsPropertiesNV, n)
	for i := range out {
		out[i].SType = vkc.StructureTypeCooperativeMatrixFlexibleDimensionsPropertiesNV
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&out[0])
	r := in.p.GetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV(pd, &n, &out[0])
	if r != vkc.Success && r != vkc.Incomplete {
		return nil, vkError("vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV", r)
	}
	return out[:n], nil
}

func (in *instance) coopVecNV(pd vkc.PhysicalDevice) ([]vkc.CooperativeVectorPropertiesNV, error) {
	if in.p.PFNGetPhysicalDeviceCooperativeVectorPropertiesNV == 0 {
		return nil, nil
	}
	var n uint32
	if r := in.p.GetPhysicalDeviceCooperativeVectorPropertiesNV(pd, &n, nil); r != vkc.Success || n == 0 {
		return nil, vkError("vkGetPhysicalDeviceCooperativeVectorPropertiesNV", r)
	}
	out := make([]vkc.CooperativeVectorPropertiesNV, n)
	for i := range out {
		out[i].SType = vkc.StructureTypeCooperativeVectorPropertiesNV
	}
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(&out[0])
	r := in.p.GetPhysicalDeviceCooperativeVectorPropertiesNV(pd, &n, &out[0])
	if r != vkc.Success && r != vkc.Incomplete {
		return nil, vkError("vkGetPhysicalDeviceCooperativeVectorPropertiesNV", r)
	}
	return out[:n], nil
}

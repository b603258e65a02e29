// Package vk runs SPIR-V compute modules on a GPU through Vulkan. The
// system's Vulkan loader is opened at run time with purego, so the package
// builds without cgo and without Vulkan headers or libraries; where no
// loader or device exists, Open and Devices return errors wrapping
// backend.ErrUnavailable.
package vk

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/validate"
	"github.com/coopshader/coop/vk/internal/vkc"
)

// Device is one opened Vulkan device; it implements backend.Device.
type Device struct {
	in       *instance
	pd       vkc.PhysicalDevice
	dev      vkc.Device
	queue    vkc.Queue
	family   uint32
	info     DeviceInfo
	profile  *profile.Profile // info as a profile, for devcheck
	trusted  validate.Trusted // modules the caller validated (Trust)
	props    *properties
	has      map[string]bool // enabled device extensions
	heapExt  bool            // the driver offers VK_EXT_descriptor_heap (not used: see heap.go)
	en       *features       // enabled features
	mem      vkc.PhysicalDeviceMemoryProperties
	tsBits   uint32
	cmdPool  vkc.CommandPool
	cmd      vkc.CommandBuffer
	buffers  []*buffer
	images   []*image
	samplers []*sampler
}

var _ backend.Device = (*Device)(nil)

// Open opens physical device index (as listed by Devices), or, when index
// is negative, the first discrete GPU (else the first device) that has a
// compute queue and Vulkan 1.3.
func Open(index int) (*Device, error) { return openWith(index, false) }

// OpenRobust is Open with robustBufferAccess enabled where the device has
// it: out-of-bounds buffer accesses read zeros or in-bounds values and
// drop writes instead of risking the device (slower; for running
// untrusted shaders, as the GPU check does with the corpus).
func OpenRobust(index int) (*Device, error) { return openWith(index, true) }

func openWith(index int, robust bool) (*Device, error) {
	in, err := newInstance()
	if err != nil {
		return nil, err
	}
	d, err := open(in, index, robust)
	if err != nil {
		in.close()
		return nil, err
	}
	return d, nil
}

func open(in *instance, index int, robust bool) (*Device, error) {
	pds, err := in.physicalDevices()
	if err != nil {
		return nil, err
	}
	if len(pds) == 0 {
		return nil, fmt.Errorf("vk: %w: the Vulkan loader reports no physical devices", backend.ErrUnavailable)
	}
	if index >= len(pds) {
		return nil, fmt.Errorf("vk: device %d does not exist (%d devices)", index, len(pds))
	}
	pick := index
	if pick < 0 {
		pick = 0
		for i, pd := range pds {
			var p vkc.PhysicalDeviceProperties
			in.p.GetPhysicalDeviceProperties(pd, &p)
			if p.DeviceType == vkc.PhysicalDeviceTypeDiscreteGpu && p.ApiVersion >= vkc.APIVersion13 {
				pick = i
				break
			}
		}
	}
	d := &Device{in: in, pd: pds[pick]}
	if d.info, err = in.describe(pick, d.pd); err != nil {
		return nil, err
	}
	d.profile = d.info.Profile(d.info.Name)
	if d.has, err = in.extensions(d.pd); err != nil {
		return nil, err
	}
	d.props = in.queryProperties(d.pd, d.has)
	if v := d.props.p2.Properties.ApiVersion; v < vkc.APIVersion13 {
		return nil, fmt.Errorf("vk: %w: %s supports Vulkan %s, coop needs 1.3", backend.ErrUnavailable, d.info.Name, vkc.VersionString(v))
	}
	d.family = ^uint32(0)
	for i, q := range in.queueFamilies(d.pd) {
		if q.QueueFlags&vkc.QueueComputeBit != 0 && q.TimestampValidBits > 0 {
			d.family, d.tsBits = uint32(i), q.TimestampValidBits
			break
		}
		if q.QueueFlags&vkc.QueueComputeBit != 0 && d.family == ^uint32(0) {
			d.family = uint32(i)
		}
	}
	if d.family == ^uint32(0) {
		return nil, fmt.Errorf("vk: %w: %s has no compute queue", backend.ErrUnavailable, d.info.Name)
	}
	in.p.GetPhysicalDeviceMemoryProperties(d.pd, &d.mem)
	if err := d.create(robust); err != nil {
		return nil, err
	}
	return d, nil
}

// create makes the VkDevice with every wanted extension the device has
// and every known feature it supports, so that any module the device can
// run needs no second device.
func (d *Device) create(robust bool) error {
	in := d.in
	var exts []string
	enabled := map[string]bool{}
	for _, e := range wantedExtensions {
		if d.has[e] {
			exts = append(exts, e)
			enabled[e] = true
		}
	}
	d.heapExt = d.has["VK_EXT_descriptor_heap"]
	d.has = enabled
	sup := in.queryFeatures(d.pd, d.has)
	d.en = enabledFrom(sup, d.has)
	if robust {
		d.en.f2.Features.RobustBufferAccess = sup.f2.Features.RobustBufferAccess
	}

	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(d.en)
	prio := new(float32)
	*prio = 1
	pin.Pin(prio)
	qci := &vkc.DeviceQueueCreateInfo{SType: vkc.StructureTypeDeviceQueueCreateInfo, QueueFamilyIndex: d.family, QueueCount: 1, PQueuePriorities: unsafe.Pointer(prio)}
	pin.Pin(qci)
	names := newCStrings(&pin, exts)
	ci := &vkc.DeviceCreateInfo{
		SType:                   vkc.StructureTypeDeviceCreateInfo,
		PNext:                   unsafe.Pointer(d.en.chain(d.has)),
		QueueCreateInfoCount:    1,
		PQueueCreateInfos:       unsafe.Pointer(qci),
		EnabledExtensionCount:   uint32(len(exts)),
		PpEnabledExtensionNames: names.first(),
	}
	pin.Pin(ci)
	if r := in.p.CreateDevice(d.pd, ci, nil, &d.dev); r != vkc.Success {
		return fmt.Errorf("vk: creating a device on %s: %w", d.info.Name, vkError("vkCreateDevice", r))
	}
	in.p.GetDeviceQueue(d.dev, d.family, 0, &d.queue)

	pci := &vkc.CommandPoolCreateInfo{SType: vkc.StructureTypeCommandPoolCreateInfo, Flags: vkc.CommandPoolCreateResetCommandBufferBit, QueueFamilyIndex: d.family}
	pin.Pin(pci)
	if r := in.p.CreateCommandPool(d.dev, pci, nil, &d.cmdPool); r != vkc.Success {
		d.Close()
		return vkError("vkCreateCommandPool", r)
	}
	ai := &vkc.CommandBufferAllocateInfo{SType: vkc.StructureTypeCommandBufferAllocateInfo, CommandPool: d.cmdPool, Level: vkc.CommandBufferLevelPrimary, CommandBufferCount: 1}
	pin.Pin(ai)
	if r := in.p.AllocateCommandBuffers(d.dev, ai, &d.cmd); r != vkc.Success {
		d.Close()
		return vkError("vkAllocateCommandBuffers", r)
	}
	return nil
}

// Name returns the GPU's name.
func (d *Device) Name() string { return d.info.Name }

// Info describes the opened device.
func (d *Device) Info() DeviceInfo { return d.info }

// Close destroys the device and the instance. Buffers must not be used
// afterwards.
func (d *Device) Close() error {
	if d.dev != 0 {
		d.in.p.DeviceWaitIdle(d.dev)
		for _, b := range d.buffers {
			b.free()
		}
		for _, im := range d.images {
			im.free()
		}
		for _, s := range d.samplers {
			if !s.closed {
				d.in.p.DestroySampler(d.dev, s.s, nil)
			}
		}
		d.buffers, d.images, d.samplers = nil, nil, nil
		if d.cmdPool != 0 {
			d.in.p.DestroyCommandPool(d.dev, d.cmdPool, nil)
		}
		d.in.p.DestroyDevice(d.dev, nil)
		d.dev = 0
	}
	d.in.close()
	return nil
}

// enabled reports whether feature key was enabled on the device.
func (d *Device) enabled(key string) bool {
	b := featureByKey(key)
	return b != nil && *b.field(d.en) != 0
}

// check fails, naming what is missing, when the module needs a capability
// or extension the device did not enable.
func (d *Device) check(m *moduleInfo) error {
	if err := noVulkanFeature(m); err != nil {
		return err
	}
	if err := d.noHeaps(m); err != nil {
		return err
	}
	for _, c := range m.caps {
		cp, ok := capabilities()[c]
		if !ok {
			continue
		}
		for _, k := range cp.features {
			if !d.enabled(k) {
				b := featureByKey(k)
				return fmt.Errorf("vk: module needs capability %s, which requires feature %s of %s, not supported by %s", cp.name, b.name, b.owner, d.info.Name)
			}
		}
	}
	for _, e := range m.exts {
		if ve, ok := spirvExtensions()[e]; ok && !d.has[ve] {
			return fmt.Errorf("vk: module uses %s, which requires device extension %s, not supported by %s", e, ve, d.info.Name)
		}
	}
	return d.spirvEnv(m)
}

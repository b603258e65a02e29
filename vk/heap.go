package vk

import (
	"fmt"

	"github.com/coopshader/coop/backend"
)

// capDescriptorHeap is SPIR-V's DescriptorHeapEXT capability.
const capDescriptorHeap = 5128

// checkHeaps fails a dispatch that hands over descriptor heaps, which
// this backend does not set up.
func checkHeaps(ds *backend.Dispatch) error {
	if ds.ResourceHeap != nil || ds.SamplerHeap != nil {
		return fmt.Errorf("vk: descriptor heaps (VK_EXT_descriptor_heap) are not supported by the Vulkan backend: %w; run the dispatch on the CPU executor", backend.ErrNoDeviceSupport)
	}
	return nil
}

// noHeaps refuses a module that reads descriptor heaps: the backend does
// not implement VK_EXT_descriptor_heap (binding heaps, their descriptor
// layouts and the untyped pointers into them), whether or not the driver
// offers it, so no device of this backend runs such a module and
// --backend both runs it on the executor alone, saying so.
func (d *Device) noHeaps(m *moduleInfo) error {
	for _, c := range m.caps {
		if c == capDescriptorHeap {
			offer := "does not offer VK_EXT_descriptor_heap either"
			if d.heapExt {
				offer = "offers VK_EXT_descriptor_heap"
			}
			return fmt.Errorf("vk: the module reads descriptor heaps (capability DescriptorHeapEXT): %w, as the Vulkan backend does not implement VK_EXT_descriptor_heap (%s %s); run it on the CPU executor", backend.ErrNoDeviceSupport, d.info.Name, offer)
		}
	}
	return nil
}

package vk

import (
	"fmt"

	"github.com/coopshader/coop/backend"
)

// capDescriptorHeap is SPIR-V's DescriptorHeapEXT capability.
const capDescriptorHeap = 5128

// checkHeaps fails a dispatch that needs descriptor heaps
// (VK_EXT_descriptor_heap), which this backend does not set up.
func checkHeaps(ds *backend.Dispatch, m *moduleInfo) error {
	if ds.ResourceHeap != nil || ds.SamplerHeap != nil {
		return fmt.Errorf("vk: descriptor heaps (VK_EXT_descriptor_heap) are not supported by the Vulkan backend; run the dispatch on the CPU executor")
	}
	for _, c := range m.caps {
		if c == capDescriptorHeap {
			return fmt.Errorf("vk: the module reads descriptor heaps (capability DescriptorHeapEXT), which the Vulkan backend does not support; run it on the CPU executor")
		}
	}
	return nil
}

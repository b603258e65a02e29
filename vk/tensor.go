package vk

import (
	"fmt"

	"github.com/coopshader/coop/backend"
)

// noTensors rejects tensor descriptors (backend.StorageTensor): this
// backend does not create VK_ARM_tensors tensor objects and views, so a
// module reading tensors runs on the CPU executor only.
func noTensors(bs []backend.Binding) error {
	for i, b := range bs {
		if b.Kind == backend.StorageTensor {
			return fmt.Errorf("vk: binding %d (set %d, binding %d) is a tensor: the Vulkan backend does not support tensor descriptors (VK_ARM_tensors)", i, b.Set, b.Binding)
		}
	}
	return nil
}

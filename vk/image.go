package vk

import (
	"errors"
	"fmt"

	"github.com/coopshader/coop/backend"
)

// errNoImages is returned for every image resource: the Vulkan backend
// runs buffer-only dispatches so far.
var errNoImages = fmt.Errorf("vk: image descriptors are not supported by the Vulkan backend yet: %w", errors.ErrUnsupported)

// NewImage fails: images are not implemented here yet.
func (d *Device) NewImage(backend.ImageDesc) (backend.Image, error) { return nil, errNoImages }

// NewSampler fails: samplers are not implemented here yet.
func (d *Device) NewSampler(backend.SamplerDesc) (backend.Sampler, error) { return nil, errNoImages }

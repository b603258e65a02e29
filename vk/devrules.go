package vk

import (
	"fmt"

	"github.com/coopshader/coop/backend"
	"github.com/coopshader/coop/devcheck"
	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/validate"
)

// Profile returns the opened device's profile (its name is the device's).
func (d *Device) Profile() *profile.Profile { return d.profile }

// Trust records that words, decoded as m, passed validate.Validate (coop
// run validates each module before its first dispatch): a dispatch of
// those words reuses the module instead of decoding it and running the
// validator's structural passes again.
func (d *Device) Trust(words []uint32, m *spirv.Module, res *validate.Result) {
	d.trusted.Add(words, m, res)
}

// prepare returns the module the driver gets: the dispatch's module
// without decode-vector functions (the backend never enables
// VK_NV_cooperative_matrix_decode_vector, and the extension lets an
// implementation call the scalar decode function anyway). valid is the
// validator's structural check, nil for a module the device was told to
// trust; it runs after the device's own refusals and before anything
// reads the module's structure, so a malformed module never reaches
// devcheck or the driver.
func (d *Device) prepare(ds *backend.Dispatch) (mod *spirv.Module, words []uint32, valid func() error, err error) {
	mod, _ = d.trusted.Lookup(ds.Code)
	if mod == nil {
		if mod, err = spirv.DecodeWords(ds.Code, nil); err != nil {
			return nil, nil, nil, fmt.Errorf("vk: %w", err)
		}
		orig := mod
		valid = func() error {
			if _, err := validate.Validate(orig, validate.Options{StructureOnly: true}); err != nil {
				return fmt.Errorf("vk: invalid module:\n%w", err)
			}
			return nil
		}
	}
	words = ds.Code
	if s, ok := devcheck.StripDecodeVector(mod); ok {
		mod = s
		if words, err = mod.Words(); err != nil {
			return nil, nil, nil, fmt.Errorf("vk: %w", err)
		}
	}
	return mod, words, valid, nil
}

// checkRules checks the module against the device's own profile (package
// devcheck), so a shape or combination the device does not list fails
// here, naming the instruction and the rule, instead of computing garbage.
func (d *Device) checkRules(mod *spirv.Module, ds *backend.Dispatch) error {
	if err := devcheck.Check(mod, d.profile, devcheck.Options{Entry: ds.Entry, Spec: ds.Spec}); err != nil {
		return fmt.Errorf("vk: %s does not support what the module uses:\n%w", d.info.Name, err)
	}
	if l := d.profile.Limits; l != nil {
		for k, n := range ds.Groups {
			if n > l.MaxComputeWorkGroupCount[k] {
				return fmt.Errorf("vk: the dispatch has %d workgroups in %c; %s allows at most %d (maxComputeWorkGroupCount[%d], VUID-vkCmdDispatch-groupCount%c-%05d)",
					n, "xyz"[k], d.info.Name, l.MaxComputeWorkGroupCount[k], k, "XYZ"[k], 386+k)
			}
		}
		if n := len(ds.PushConstants); n > int(l.MaxPushConstantsSize) {
			return fmt.Errorf("vk: the dispatch has %d bytes of push constants; %s allows at most %d (maxPushConstantsSize, VUID-VkPushConstantRange-size-00298)",
				n, d.info.Name, l.MaxPushConstantsSize)
		}
	}
	return nil
}

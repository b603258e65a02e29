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
// implementation call the scalar decode function anyway). A module the
// device was not told to trust gets the validator's structural passes
// first, so a malformed module never reaches the driver.
func (d *Device) prepare(ds *backend.Dispatch) (*spirv.Module, []uint32, error) {
	mod, _ := d.trusted.Lookup(ds.Code)
	if mod == nil {
		var err error
		if mod, err = spirv.DecodeWords(ds.Code, nil); err != nil {
			return nil, nil, fmt.Errorf("vk: %w", err)
		}
		if _, err := validate.Validate(mod, validate.Options{StructureOnly: true}); err != nil {
			return nil, nil, fmt.Errorf("vk: invalid module:\n%w", err)
		}
	}
	words := ds.Code
	if s, ok := devcheck.StripDecodeVector(mod); ok {
		mod = s
		var err error
		if words, err = mod.Words(); err != nil {
			return nil, nil, fmt.Errorf("vk: %w", err)
		}
	}
	return mod, words, nil
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

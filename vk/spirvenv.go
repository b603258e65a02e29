package vk

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/vk/internal/vkc"
)

// spirvEnv checks the module's SPIR-V extensions and capabilities against
// Vulkan's SPIR-V environment (appendix "Vulkan Environment for SPIR-V",
// generated from vk.xml into vkc.SPIRVExtension and SPIRVCapability):
// each must be listed there, and one of its conditions must hold for the
// device as created (a core version up to 1.3, an enabled extension or
// feature, a supported property). A module outside them is invalid usage,
// and drivers are not obliged to survive it: the H100's crashed in
// vkCreateComputePipelines on SPV_EXT_long_vector. The capability table
// in module.go runs first, for its friendlier messages.
func (d *Device) spirvEnv(m *moduleInfo) error {
	for _, e := range m.exts {
		ens, ok := vkc.SPIRVExtension(e)
		if !ok {
			return fmt.Errorf("vk: module uses SPIR-V extension %s, which Vulkan does not allow (the SPIR-V environment lists no such extension)", e)
		}
		if !slices.ContainsFunc(ens, d.allows) {
			return fmt.Errorf("vk: module uses SPIR-V extension %s, which needs %s; %s", e, conditions(ens), d.notEnabled())
		}
	}
	for _, c := range m.caps {
		names := capNames(c)
		var ens []vkc.SPIRVEnable
		for _, n := range names {
			more, _ := vkc.SPIRVCapability(n)
			ens = append(ens, more...)
		}
		name := fmt.Sprintf("Capability(%d)", c)
		if len(names) > 0 {
			name = names[0]
		}
		if len(ens) == 0 {
			return fmt.Errorf("vk: module declares capability %s, which Vulkan does not allow (the SPIR-V environment does not list it)", name)
		}
		if !slices.ContainsFunc(ens, d.allows) {
			return fmt.Errorf("vk: module declares capability %s, which needs %s; %s", name, conditions(ens), d.notEnabled())
		}
	}
	return nil
}

// notEnabled says what the device offers, for refusals.
func (d *Device) notEnabled() string {
	return fmt.Sprintf("not enabled on %s (the backend enables Vulkan 1.3, the extensions %s where the device has them, and the features of docs/VULKAN.md)",
		d.info.Name, strings.Join(wantedExtensions, ", "))
}

// capNames is a capability's grammar name and aliases (vk.xml may use
// either: GroupNonUniformPartitionedNV is now ...EXT).
func capNames(c uint32) []string {
	e := spirv.KindCapability.Enumerant(c)
	if e == nil {
		return nil
	}
	return append([]string{e.Name}, e.Aliases...)
}

// allows reports whether one condition of the environment's tables holds.
func (d *Device) allows(e vkc.SPIRVEnable) bool {
	switch {
	case e.Version != "":
		return versionAtMost13(e.Version)
	case e.Extension != "":
		return d.has[e.Extension]
	case e.Feature != "":
		return d.requires(e.Requires) && d.featureEnabled(e)
	case e.Property != "":
		return d.requires(e.Requires) && d.hasProperty(e)
	}
	return false
}

// versionAtMost13 reports whether VK_VERSION_1_x is a version the backend
// runs at (it creates its instance for Vulkan 1.3).
func versionAtMost13(v string) bool {
	minor, ok := strings.CutPrefix(v, "VK_VERSION_1_")
	return ok && len(minor) == 1 && minor[0] >= '0' && minor[0] <= '3'
}

// requires reports whether any of a comma-separated list of versions and
// extensions holds ("" holds).
func (d *Device) requires(list string) bool {
	if list == "" {
		return true
	}
	for _, r := range strings.Split(list, ",") {
		if versionAtMost13(r) || d.has[r] {
			return true
		}
	}
	return false
}

// featureEnabled reports whether the feature of a condition is enabled:
// the feature bit of that member name provided by core Vulkan (when the
// condition accepts a core version) or by an extension the condition
// names (CooperativeMatrixNV's cooperativeMatrix is
// VK_NV_cooperative_matrix's, not VK_KHR_cooperative_matrix's).
func (d *Device) featureEnabled(e vkc.SPIRVEnable) bool {
	req := strings.Split(e.Requires, ",")
	for i := range featureBits {
		b := &featureBits[i]
		if b.name != e.Feature || *b.field(d.en) == 0 {
			continue
		}
		if b.ext == "" && (e.Requires == "" || slices.ContainsFunc(req, versionAtMost13)) || b.ext != "" && slices.Contains(req, b.ext) {
			return true
		}
	}
	return false
}

var subgroupBits = sync.OnceValue(func() map[string]vkc.SubgroupFeatureFlags {
	return map[string]vkc.SubgroupFeatureFlags{
		"VK_SUBGROUP_FEATURE_BASIC_BIT": vkc.SubgroupFeatureBasicBit, "VK_SUBGROUP_FEATURE_VOTE_BIT": vkc.SubgroupFeatureVoteBit,
		"VK_SUBGROUP_FEATURE_ARITHMETIC_BIT": vkc.SubgroupFeatureArithmeticBit, "VK_SUBGROUP_FEATURE_BALLOT_BIT": vkc.SubgroupFeatureBallotBit,
		"VK_SUBGROUP_FEATURE_SHUFFLE_BIT": vkc.SubgroupFeatureShuffleBit, "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT": vkc.SubgroupFeatureShuffleRelativeBit,
		"VK_SUBGROUP_FEATURE_CLUSTERED_BIT": vkc.SubgroupFeatureClusteredBit, "VK_SUBGROUP_FEATURE_QUAD_BIT": vkc.SubgroupFeatureQuadBit,
		"VK_SUBGROUP_FEATURE_PARTITIONED_BIT_NV": vkc.SubgroupFeaturePartitionedBitNV,
	}
})

// hasProperty reads a property condition: a subgroup operation bit, or a
// VK_TRUE member of the Vulkan 1.1-1.3 property structures. Properties
// it cannot read do not hold.
func (d *Device) hasProperty(e vkc.SPIRVEnable) bool {
	if d.props == nil {
		return false
	}
	if e.Member == "subgroupSupportedOperations" {
		bit, ok := subgroupBits()[e.Value]
		return ok && d.props.v11.SubgroupSupportedOperations&bit != 0 && d.props.v11.SubgroupSupportedStages&vkc.ShaderStageComputeBit != 0
	}
	var s any
	switch e.Property {
	case "VkPhysicalDeviceVulkan11Properties":
		s = &d.props.v11
	case "VkPhysicalDeviceVulkan12Properties":
		s = &d.props.v12
	case "VkPhysicalDeviceVulkan13Properties":
		s = &d.props.v13
	default:
		return false
	}
	f := reflect.ValueOf(s).Elem().FieldByName(strings.ToUpper(e.Member[:1]) + e.Member[1:])
	return e.Value == "VK_TRUE" && f.IsValid() && f.CanUint() && f.Uint() != 0
}

// conditions describes the conditions of a table row for a refusal.
func conditions(ens []vkc.SPIRVEnable) string {
	var out []string
	for _, e := range ens {
		var s string
		switch {
		case e.Version != "":
			s = e.Version
		case e.Extension != "":
			s = "device extension " + e.Extension
		case e.Feature != "":
			s = "feature " + e.Feature + " of " + e.Struct
		case e.Property != "":
			s = e.Member + " " + e.Value + " in " + e.Property
		}
		if e.Requires != "" {
			s += " (with " + strings.ReplaceAll(e.Requires, ",", " or ") + ")"
		}
		out = append(out, s)
	}
	return strings.Join(slices.Compact(out), " or ")
}

package validate

import (
	"errors"
	"fmt"

	"github.com/coopshader/coop/devcheck"
	"github.com/coopshader/coop/spirv"
)

// Device rules (Vulkan 1.4, Appendix "SPIR-V Environment", "SPIR-V
// Capabilities" and "Validation Rules within a Module" that depend on the
// device): checked only with Options.Profile.

// capFeature maps a capability to the device feature (or extension) that
// enables it, by the names vk's feature table gives them; a capability
// absent from the table needs nothing a profile records.
var capFeature = []struct {
	cap     spirv.Capability
	feature string // a feature name, or an extension name starting "VK_"
}{
	{spirv.CapabilityFloat16, "shaderFloat16"},
	{spirv.CapabilityFloat64, "shaderFloat64"},
	{spirv.CapabilityInt8, "shaderInt8"},
	{spirv.CapabilityInt16, "shaderInt16"},
	{spirv.CapabilityInt64, "shaderInt64"},
	{spirv.CapabilityStorageBuffer16BitAccess, "storageBuffer16BitAccess"},
	{spirv.CapabilityUniformAndStorageBuffer16BitAccess, "uniformAndStorageBuffer16BitAccess"},
	{spirv.CapabilityStoragePushConstant16, "storagePushConstant16"},
	{spirv.CapabilityStorageBuffer8BitAccess, "storageBuffer8BitAccess"},
	{spirv.CapabilityUniformAndStorageBuffer8BitAccess, "uniformAndStorageBuffer8BitAccess"},
	{spirv.CapabilityStoragePushConstant8, "storagePushConstant8"},
	{spirv.CapabilityVulkanMemoryModel, "vulkanMemoryModel"},
	{spirv.CapabilityVulkanMemoryModelDeviceScope, "vulkanMemoryModelDeviceScope"},
	{spirv.CapabilityPhysicalStorageBufferAddresses, "bufferDeviceAddress"},
	{spirv.CapabilityCooperativeMatrixKHR, "cooperativeMatrix"},
	{spirv.CapabilityCooperativeMatrixNV, "cooperativeMatrixNV"},
	{spirv.CapabilityCooperativeMatrixReductionsNV, "cooperativeMatrixReductions"},
	{spirv.CapabilityCooperativeMatrixConversionsNV, "cooperativeMatrixConversions"},
	{spirv.CapabilityCooperativeMatrixPerElementOperationsNV, "cooperativeMatrixPerElementOperations"},
	{spirv.CapabilityCooperativeMatrixTensorAddressingNV, "cooperativeMatrixTensorAddressing"},
	{spirv.CapabilityCooperativeMatrixBlockLoadsNV, "cooperativeMatrixBlockLoads"},
	{spirv.CapabilityTensorAddressingNV, "cooperativeMatrixTensorAddressing"},
	{spirv.CapabilityCooperativeVectorNV, "cooperativeVector"},
	{spirv.CapabilityCooperativeVectorTrainingNV, "cooperativeVectorTraining"},
	{spirv.CapabilityCooperativeMatrixDecodeVectorNV, "VK_NV_cooperative_matrix_decode_vector"},
	{spirv.CapabilityBFloat16TypeKHR, "shaderBFloat16Type"},
	{spirv.CapabilityBFloat16DotProductKHR, "shaderBFloat16DotProduct"},
	{spirv.CapabilityBFloat16CooperativeMatrixKHR, "shaderBFloat16CooperativeMatrix"},
	{spirv.CapabilityFloat8EXT, "shaderFloat8"},
	{spirv.CapabilityFloat8CooperativeMatrixEXT, "shaderFloat8CooperativeMatrix"},
}

// checkProfile checks the module against the device of Options.Profile:
// each declared capability's feature or extension here, then the device's
// cooperative matrix shapes and types, flexible dimensions, workgroup
// scope, cooperative vector combinations and limits through devcheck,
// where those rules live (the Vulkan backend runs the same checks before a
// dispatch).
func (s *state) checkProfile() {
	p := s.opts.Profile
	if p == nil {
		return
	}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if in.Op != spirv.OpCapability {
			continue
		}
		c := spirv.Capability(in.Words[0])
		for _, cf := range capFeature {
			if cf.cap != c {
				continue
			}
			ok := p.Feature(cf.feature)
			if len(cf.feature) > 3 && cf.feature[:3] == "VK_" {
				ok = p.Has(cf.feature)
			}
			if !ok {
				s.fail(i, "device.capability", "OpCapability %s needs the device %s, which device profile %q does not list", capNames([]spirv.Capability{c}), featureName(cf.feature), p.Name)
				return
			}
		}
	}
	err := devcheck.Check(s.m, p, devcheck.Options{Entry: s.opts.EntryPoint, Spec: s.opts.Spec})
	var es devcheck.Errors
	if errors.As(err, &es) && len(es) > 0 {
		e := es[0]
		s.fail(e.Inst, e.VUID, "%s: %s (%s)", e.Op, e.Msg, e.VUID)
	} else if err != nil {
		s.fail(-1, "device", "%v", err)
	}
}

// featureName describes what a capability needs for messages.
func featureName(f string) string {
	if len(f) > 3 && f[:3] == "VK_" {
		return "extension " + f
	}
	return fmt.Sprintf("feature %s", f)
}

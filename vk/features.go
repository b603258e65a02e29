package vk

import (
	"runtime"
	"unsafe"

	"github.com/coopshader/coop/vk/internal/vkc"
)

// Device extensions the backend enables whenever the device has them.
var wantedExtensions = []string{
	"VK_KHR_cooperative_matrix",
	"VK_NV_cooperative_matrix",
	"VK_NV_cooperative_matrix2",
	"VK_NV_cooperative_vector",
	"VK_KHR_shader_bfloat16",
	"VK_EXT_shader_float8",
	// No features: enabling them is what allows their SPIR-V extensions
	// (SPV_NV_shader_subgroup_partitioned, SPV_GOOGLE_hlsl_functionality1,
	// SPV_GOOGLE_user_type).
	"VK_NV_shader_subgroup_partitioned",
	"VK_GOOGLE_hlsl_functionality1",
	"VK_GOOGLE_user_type",
	// Shader extensions with features, so more of glslang's corpus runs on
	// a GPU (SPV_KHR/NV_compute_shader_derivatives: the NV extension shares
	// the KHR feature structure).
	"VK_KHR_compute_shader_derivatives",
	"VK_NV_compute_shader_derivatives",
	"VK_KHR_workgroup_memory_explicit_layout",
	"VK_EXT_shader_replicated_composites",
	"VK_KHR_shader_expect_assume",
}

// features is every feature structure the backend queries or enables, in
// one allocation so that a single pin covers the whole pNext chain.
type features struct {
	f2   vkc.PhysicalDeviceFeatures2
	v11  vkc.PhysicalDeviceVulkan11Features
	v12  vkc.PhysicalDeviceVulkan12Features
	v13  vkc.PhysicalDeviceVulkan13Features
	cmK  vkc.PhysicalDeviceCooperativeMatrixFeaturesKHR
	cmN  vkc.PhysicalDeviceCooperativeMatrixFeaturesNV
	cm2  vkc.PhysicalDeviceCooperativeMatrix2FeaturesNV
	cv   vkc.PhysicalDeviceCooperativeVectorFeaturesNV
	bf16 vkc.PhysicalDeviceShaderBfloat16FeaturesKHR
	f8   vkc.PhysicalDeviceShaderFloat8FeaturesEXT
	csd  vkc.PhysicalDeviceComputeShaderDerivativesFeaturesKHR
	wmel vkc.PhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR
	rc   vkc.PhysicalDeviceShaderReplicatedCompositesFeaturesEXT
	ea   vkc.PhysicalDeviceShaderExpectAssumeFeatures
}

// chain links f's structures for a device with the given extensions and
// returns the head (f.f2). The caller pins f.
func (f *features) chain(has map[string]bool) *vkc.PhysicalDeviceFeatures2 {
	f.f2.SType = vkc.StructureTypePhysicalDeviceFeatures2
	f.v11.SType = vkc.StructureTypePhysicalDeviceVulkan11Features
	f.v12.SType = vkc.StructureTypePhysicalDeviceVulkan12Features
	f.v13.SType = vkc.StructureTypePhysicalDeviceVulkan13Features
	f.cmK.SType = vkc.StructureTypePhysicalDeviceCooperativeMatrixFeaturesKHR
	f.cmN.SType = vkc.StructureTypePhysicalDeviceCooperativeMatrixFeaturesNV
	f.cm2.SType = vkc.StructureTypePhysicalDeviceCooperativeMatrix2FeaturesNV
	f.cv.SType = vkc.StructureTypePhysicalDeviceCooperativeVectorFeaturesNV
	f.bf16.SType = vkc.StructureTypePhysicalDeviceShaderBfloat16FeaturesKHR
	f.f8.SType = vkc.StructureTypePhysicalDeviceShaderFloat8FeaturesEXT
	f.csd.SType = vkc.StructureTypePhysicalDeviceComputeShaderDerivativesFeaturesKHR
	f.wmel.SType = vkc.StructureTypePhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR
	f.rc.SType = vkc.StructureTypePhysicalDeviceShaderReplicatedCompositesFeaturesEXT
	f.ea.SType = vkc.StructureTypePhysicalDeviceShaderExpectAssumeFeatures
	var c chain
	c.start(&f.f2.PNext)
	c.add(unsafe.Pointer(&f.v11), &f.v11.PNext)
	c.add(unsafe.Pointer(&f.v12), &f.v12.PNext)
	c.add(unsafe.Pointer(&f.v13), &f.v13.PNext)
	if has["VK_KHR_cooperative_matrix"] {
		c.add(unsafe.Pointer(&f.cmK), &f.cmK.PNext)
	}
	if has["VK_NV_cooperative_matrix"] {
		c.add(unsafe.Pointer(&f.cmN), &f.cmN.PNext)
	}
	if has["VK_NV_cooperative_matrix2"] {
		c.add(unsafe.Pointer(&f.cm2), &f.cm2.PNext)
	}
	if has["VK_NV_cooperative_vector"] {
		c.add(unsafe.Pointer(&f.cv), &f.cv.PNext)
	}
	if has["VK_KHR_shader_bfloat16"] {
		c.add(unsafe.Pointer(&f.bf16), &f.bf16.PNext)
	}
	if has["VK_EXT_shader_float8"] {
		c.add(unsafe.Pointer(&f.f8), &f.f8.PNext)
	}
	if has["VK_KHR_compute_shader_derivatives"] || has["VK_NV_compute_shader_derivatives"] {
		c.add(unsafe.Pointer(&f.csd), &f.csd.PNext)
	}
	if has["VK_KHR_workgroup_memory_explicit_layout"] {
		c.add(unsafe.Pointer(&f.wmel), &f.wmel.PNext)
	}
	if has["VK_EXT_shader_replicated_composites"] {
		c.add(unsafe.Pointer(&f.rc), &f.rc.PNext)
	}
	if has["VK_KHR_shader_expect_assume"] {
		c.add(unsafe.Pointer(&f.ea), &f.ea.PNext)
	}
	return &f.f2
}

// chain builds a pNext list. Every extensible Vulkan structure begins with
// sType and pNext, so linking only needs the address of each pNext field.
type chain struct{ last *unsafe.Pointer }

func (c *chain) start(pNext *unsafe.Pointer) { *pNext = nil; c.last = pNext }

func (c *chain) add(s unsafe.Pointer, pNext *unsafe.Pointer) {
	*c.last = s
	*pNext = nil
	c.last = pNext
}

// featureBit is one VkBool32 feature the backend knows how to enable.
type featureBit struct {
	key   string // unique name used by the capability table
	name  string // the member name in the Vulkan specification
	owner string // the structure or extension that provides it
	ext   string // device extension that must be present ("" for core)
	field func(*features) *vkc.Bool32
}

var featureBits = []featureBit{
	{"shaderFloat64", "shaderFloat64", "VkPhysicalDeviceFeatures", "", func(f *features) *vkc.Bool32 { return &f.f2.Features.ShaderFloat64 }},
	{"shaderInt64", "shaderInt64", "VkPhysicalDeviceFeatures", "", func(f *features) *vkc.Bool32 { return &f.f2.Features.ShaderInt64 }},
	{"shaderInt16", "shaderInt16", "VkPhysicalDeviceFeatures", "", func(f *features) *vkc.Bool32 { return &f.f2.Features.ShaderInt16 }},
	{"shaderImageGatherExtended", "shaderImageGatherExtended", "VkPhysicalDeviceFeatures", "", func(f *features) *vkc.Bool32 { return &f.f2.Features.ShaderImageGatherExtended }},
	{"shaderStorageImageExtendedFormats", "shaderStorageImageExtendedFormats", "VkPhysicalDeviceFeatures", "", func(f *features) *vkc.Bool32 { return &f.f2.Features.ShaderStorageImageExtendedFormats }},
	{"shaderStorageImageReadWithoutFormat", "shaderStorageImageReadWithoutFormat", "VkPhysicalDeviceFeatures", "", func(f *features) *vkc.Bool32 { return &f.f2.Features.ShaderStorageImageReadWithoutFormat }},
	{"shaderStorageImageWriteWithoutFormat", "shaderStorageImageWriteWithoutFormat", "VkPhysicalDeviceFeatures", "", func(f *features) *vkc.Bool32 { return &f.f2.Features.ShaderStorageImageWriteWithoutFormat }},
	{"imageCubeArray", "imageCubeArray", "VkPhysicalDeviceFeatures", "", func(f *features) *vkc.Bool32 { return &f.f2.Features.ImageCubeArray }},
	{"storageBuffer16BitAccess", "storageBuffer16BitAccess", "Vulkan 1.1", "", func(f *features) *vkc.Bool32 { return &f.v11.StorageBuffer16BitAccess }},
	{"uniformAndStorageBuffer16BitAccess", "uniformAndStorageBuffer16BitAccess", "Vulkan 1.1", "", func(f *features) *vkc.Bool32 { return &f.v11.UniformAndStorageBuffer16BitAccess }},
	{"storagePushConstant16", "storagePushConstant16", "Vulkan 1.1", "", func(f *features) *vkc.Bool32 { return &f.v11.StoragePushConstant16 }},
	{"storageBuffer8BitAccess", "storageBuffer8BitAccess", "Vulkan 1.2", "", func(f *features) *vkc.Bool32 { return &f.v12.StorageBuffer8BitAccess }},
	{"uniformAndStorageBuffer8BitAccess", "uniformAndStorageBuffer8BitAccess", "Vulkan 1.2", "", func(f *features) *vkc.Bool32 { return &f.v12.UniformAndStorageBuffer8BitAccess }},
	{"storagePushConstant8", "storagePushConstant8", "Vulkan 1.2", "", func(f *features) *vkc.Bool32 { return &f.v12.StoragePushConstant8 }},
	{"shaderFloat16", "shaderFloat16", "Vulkan 1.2", "", func(f *features) *vkc.Bool32 { return &f.v12.ShaderFloat16 }},
	{"shaderInt8", "shaderInt8", "Vulkan 1.2", "", func(f *features) *vkc.Bool32 { return &f.v12.ShaderInt8 }},
	{"shaderBufferInt64Atomics", "shaderBufferInt64Atomics", "Vulkan 1.2", "", func(f *features) *vkc.Bool32 { return &f.v12.ShaderBufferInt64Atomics }},
	{"shaderSharedInt64Atomics", "shaderSharedInt64Atomics", "Vulkan 1.2", "", func(f *features) *vkc.Bool32 { return &f.v12.ShaderSharedInt64Atomics }},
	{"bufferDeviceAddress", "bufferDeviceAddress", "Vulkan 1.2", "", func(f *features) *vkc.Bool32 { return &f.v12.BufferDeviceAddress }},
	{"vulkanMemoryModel", "vulkanMemoryModel", "Vulkan 1.2", "", func(f *features) *vkc.Bool32 { return &f.v12.VulkanMemoryModel }},
	{"vulkanMemoryModelDeviceScope", "vulkanMemoryModelDeviceScope", "Vulkan 1.2", "", func(f *features) *vkc.Bool32 { return &f.v12.VulkanMemoryModelDeviceScope }},
	{"subgroupSizeControl", "subgroupSizeControl", "Vulkan 1.3", "", func(f *features) *vkc.Bool32 { return &f.v13.SubgroupSizeControl }},
	{"computeFullSubgroups", "computeFullSubgroups", "Vulkan 1.3", "", func(f *features) *vkc.Bool32 { return &f.v13.ComputeFullSubgroups }},
	{"maintenance4", "maintenance4", "Vulkan 1.3", "", func(f *features) *vkc.Bool32 { return &f.v13.Maintenance4 }},
	{"cooperativeMatrix", "cooperativeMatrix", "VK_KHR_cooperative_matrix", "VK_KHR_cooperative_matrix", func(f *features) *vkc.Bool32 { return &f.cmK.CooperativeMatrix }},
	{"cooperativeMatrixNV", "cooperativeMatrix", "VK_NV_cooperative_matrix", "VK_NV_cooperative_matrix", func(f *features) *vkc.Bool32 { return &f.cmN.CooperativeMatrix }},
	{"cooperativeMatrixWorkgroupScope", "cooperativeMatrixWorkgroupScope", "VK_NV_cooperative_matrix2", "VK_NV_cooperative_matrix2", func(f *features) *vkc.Bool32 { return &f.cm2.CooperativeMatrixWorkgroupScope }},
	{"cooperativeMatrixFlexibleDimensions", "cooperativeMatrixFlexibleDimensions", "VK_NV_cooperative_matrix2", "VK_NV_cooperative_matrix2", func(f *features) *vkc.Bool32 { return &f.cm2.CooperativeMatrixFlexibleDimensions }},
	{"cooperativeMatrixReductions", "cooperativeMatrixReductions", "VK_NV_cooperative_matrix2", "VK_NV_cooperative_matrix2", func(f *features) *vkc.Bool32 { return &f.cm2.CooperativeMatrixReductions }},
	{"cooperativeMatrixConversions", "cooperativeMatrixConversions", "VK_NV_cooperative_matrix2", "VK_NV_cooperative_matrix2", func(f *features) *vkc.Bool32 { return &f.cm2.CooperativeMatrixConversions }},
	{"cooperativeMatrixPerElementOperations", "cooperativeMatrixPerElementOperations", "VK_NV_cooperative_matrix2", "VK_NV_cooperative_matrix2", func(f *features) *vkc.Bool32 { return &f.cm2.CooperativeMatrixPerElementOperations }},
	{"cooperativeMatrixTensorAddressing", "cooperativeMatrixTensorAddressing", "VK_NV_cooperative_matrix2", "VK_NV_cooperative_matrix2", func(f *features) *vkc.Bool32 { return &f.cm2.CooperativeMatrixTensorAddressing }},
	{"cooperativeMatrixBlockLoads", "cooperativeMatrixBlockLoads", "VK_NV_cooperative_matrix2", "VK_NV_cooperative_matrix2", func(f *features) *vkc.Bool32 { return &f.cm2.CooperativeMatrixBlockLoads }},
	{"cooperativeVector", "cooperativeVector", "VK_NV_cooperative_vector", "VK_NV_cooperative_vector", func(f *features) *vkc.Bool32 { return &f.cv.CooperativeVector }},
	{"cooperativeVectorTraining", "cooperativeVectorTraining", "VK_NV_cooperative_vector", "VK_NV_cooperative_vector", func(f *features) *vkc.Bool32 { return &f.cv.CooperativeVectorTraining }},
	{"shaderBFloat16Type", "shaderBFloat16Type", "VK_KHR_shader_bfloat16", "VK_KHR_shader_bfloat16", func(f *features) *vkc.Bool32 { return &f.bf16.ShaderBFloat16Type }},
	{"shaderBFloat16DotProduct", "shaderBFloat16DotProduct", "VK_KHR_shader_bfloat16", "VK_KHR_shader_bfloat16", func(f *features) *vkc.Bool32 { return &f.bf16.ShaderBFloat16DotProduct }},
	{"shaderBFloat16CooperativeMatrix", "shaderBFloat16CooperativeMatrix", "VK_KHR_shader_bfloat16", "VK_KHR_shader_bfloat16", func(f *features) *vkc.Bool32 { return &f.bf16.ShaderBFloat16CooperativeMatrix }},
	{"shaderFloat8", "shaderFloat8", "VK_EXT_shader_float8", "VK_EXT_shader_float8", func(f *features) *vkc.Bool32 { return &f.f8.ShaderFloat8 }},
	{"shaderFloat8CooperativeMatrix", "shaderFloat8CooperativeMatrix", "VK_EXT_shader_float8", "VK_EXT_shader_float8", func(f *features) *vkc.Bool32 { return &f.f8.ShaderFloat8CooperativeMatrix }},
	{"computeDerivativeGroupQuads", "computeDerivativeGroupQuads", "VK_KHR_compute_shader_derivatives", "VK_KHR_compute_shader_derivatives", func(f *features) *vkc.Bool32 { return &f.csd.ComputeDerivativeGroupQuads }},
	{"computeDerivativeGroupLinear", "computeDerivativeGroupLinear", "VK_KHR_compute_shader_derivatives", "VK_KHR_compute_shader_derivatives", func(f *features) *vkc.Bool32 { return &f.csd.ComputeDerivativeGroupLinear }},
	{"computeDerivativeGroupQuadsNV", "computeDerivativeGroupQuads", "VK_NV_compute_shader_derivatives", "VK_NV_compute_shader_derivatives", func(f *features) *vkc.Bool32 { return &f.csd.ComputeDerivativeGroupQuads }},
	{"computeDerivativeGroupLinearNV", "computeDerivativeGroupLinear", "VK_NV_compute_shader_derivatives", "VK_NV_compute_shader_derivatives", func(f *features) *vkc.Bool32 { return &f.csd.ComputeDerivativeGroupLinear }},
	{"workgroupMemoryExplicitLayout", "workgroupMemoryExplicitLayout", "VK_KHR_workgroup_memory_explicit_layout", "VK_KHR_workgroup_memory_explicit_layout", func(f *features) *vkc.Bool32 { return &f.wmel.WorkgroupMemoryExplicitLayout }},
	{"workgroupMemoryExplicitLayoutScalarBlockLayout", "workgroupMemoryExplicitLayoutScalarBlockLayout", "VK_KHR_workgroup_memory_explicit_layout", "VK_KHR_workgroup_memory_explicit_layout", func(f *features) *vkc.Bool32 { return &f.wmel.WorkgroupMemoryExplicitLayoutScalarBlockLayout }},
	{"workgroupMemoryExplicitLayout8BitAccess", "workgroupMemoryExplicitLayout8BitAccess", "VK_KHR_workgroup_memory_explicit_layout", "VK_KHR_workgroup_memory_explicit_layout", func(f *features) *vkc.Bool32 { return &f.wmel.WorkgroupMemoryExplicitLayout8BitAccess }},
	{"workgroupMemoryExplicitLayout16BitAccess", "workgroupMemoryExplicitLayout16BitAccess", "VK_KHR_workgroup_memory_explicit_layout", "VK_KHR_workgroup_memory_explicit_layout", func(f *features) *vkc.Bool32 { return &f.wmel.WorkgroupMemoryExplicitLayout16BitAccess }},
	{"shaderReplicatedComposites", "shaderReplicatedComposites", "VK_EXT_shader_replicated_composites", "VK_EXT_shader_replicated_composites", func(f *features) *vkc.Bool32 { return &f.rc.ShaderReplicatedComposites }},
	{"shaderExpectAssume", "shaderExpectAssume", "VK_KHR_shader_expect_assume", "VK_KHR_shader_expect_assume", func(f *features) *vkc.Bool32 { return &f.ea.ShaderExpectAssume }},
}

func featureByKey(key string) *featureBit {
	for i := range featureBits {
		if featureBits[i].key == key {
			return &featureBits[i]
		}
	}
	return nil
}

// queryFeatures asks the driver which features a device supports.
func (in *instance) queryFeatures(pd vkc.PhysicalDevice, has map[string]bool) *features {
	f := new(features)
	var pin runtime.Pinner
	defer pin.Unpin()
	pin.Pin(f)
	in.p.GetPhysicalDeviceFeatures2(pd, f.chain(has))
	return f
}

// enabled returns features with every known feature that sup supports.
func enabledFrom(sup *features, has map[string]bool) *features {
	en := new(features)
	for _, b := range featureBits {
		if (b.ext == "" || has[b.ext]) && *b.field(sup) != 0 {
			*b.field(en) = 1
		}
	}
	return en
}

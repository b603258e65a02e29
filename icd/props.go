package icd

import (
	"reflect"
	"strings"
	"unsafe"

	"github.com/coopshader/coop/icd/vkt"
)

// The device's identity and limits. These are coop's own choices (see
// docs/ICD.md): a CPU device of Vulkan 1.3 with subgroups of 4 to 64
// invocations (32 by default), memory that is all host memory.
const (
	deviceName      = "coop (CPU reference)"
	apiVersion      = 1<<22 | 3<<12 | 290 // 1.3.290
	driverVersion   = 1 << 22             // 1.0.0
	vendorID        = 0x10000             // VK_VENDOR_ID_KHRONOS: no PCI vendor
	deviceID        = 0xC00F
	defaultSubgroup = 32
	minSubgroup     = 4
	maxSubgroup     = 64
	heapSize        = 8 << 30
	maxAllocation   = 4 << 30
	bufferAlignment = 64
	maxPushConst    = 256
	maxWorkgroup    = 1024
	maxSharedMemory = 64 << 10
	driverIDProp    = 0 // no registered VkDriverId
	queueCount      = 1
)

// uuid identifies the device and driver (pipelineCacheUUID, deviceUUID,
// driverUUID): the bytes of "coop-cpu-ref-1.0".
var uuid = [16]uint8{'c', 'o', 'o', 'p', '-', 'c', 'p', 'u', '-', 'r', 'e', 'f', '-', '1', '.', '0'}

// properties are the values of every property-structure member the driver
// fills, by member name: Vulkan gives a member promoted into several
// structures (VkPhysicalDeviceVulkan12Properties, the extension's own) the
// same name, so one table serves them all.
var properties = map[string]any{
	"ApiVersion": uint32(apiVersion), "DriverVersion": uint32(driverVersion), "VendorID": uint32(vendorID),
	"DeviceID": uint32(deviceID), "DeviceType": int32(4), // VK_PHYSICAL_DEVICE_TYPE_CPU
	"DeviceName": deviceName, "PipelineCacheUUID": uuid, "DeviceUUID": uuid, "DriverUUID": uuid,
	"DriverID": int32(driverIDProp), "DriverName": "coop", "DriverInfo": "coop reference executor (exact CPU execution)",

	// VkPhysicalDeviceLimits (compute and buffer limits; graphics ones 0).
	"MaxUniformBufferRange": uint32(1 << 16), "MaxStorageBufferRange": uint32(1<<32 - 1),
	"MaxPushConstantsSize": uint32(maxPushConst), "MaxMemoryAllocationCount": uint32(1 << 16),
	"BufferImageGranularity": uint64(1), "MaxBoundDescriptorSets": uint32(8),
	"MaxPerStageDescriptorUniformBuffers": uint32(64), "MaxPerStageDescriptorStorageBuffers": uint32(64),
	"MaxPerStageResources": uint32(128), "MaxDescriptorSetUniformBuffers": uint32(64),
	"MaxDescriptorSetUniformBuffersDynamic": uint32(16), "MaxDescriptorSetStorageBuffers": uint32(64),
	"MaxDescriptorSetStorageBuffersDynamic": uint32(16),
	"MaxComputeSharedMemorySize":            uint32(maxSharedMemory),
	"MaxComputeWorkGroupCount":              [3]uint32{1<<31 - 1, 65535, 65535},
	"MaxComputeWorkGroupInvocations":        uint32(maxWorkgroup),
	"MaxComputeWorkGroupSize":               [3]uint32{maxWorkgroup, maxWorkgroup, 64},
	"MinMemoryMapAlignment":                 uintptr(64), "MinUniformBufferOffsetAlignment": uint64(bufferAlignment),
	"MinStorageBufferOffsetAlignment": uint64(bufferAlignment), "MinTexelBufferOffsetAlignment": uint64(bufferAlignment),
	"TimestampComputeAndGraphics": uint32(1), "TimestampPeriod": float32(1), "DiscreteQueuePriorities": uint32(2),
	"OptimalBufferCopyOffsetAlignment": uint64(1), "OptimalBufferCopyRowPitchAlignment": uint64(1),
	"NonCoherentAtomSize": uint64(1),
	// Texel buffer offsets: the buffer alignment, not a texel's size.
	"StorageTexelBufferOffsetAlignmentBytes": uint64(bufferAlignment),
	"UniformTexelBufferOffsetAlignmentBytes": uint64(bufferAlignment),

	// Images, samplers and texel buffers (image.go): one sample, the
	// executor's sampling (8 subtexel bits, exact mipmap blends, LOD bias
	// up to 16), no anisotropy.
	"MaxImageDimension1D": uint32(maxImageDim1D2D), "MaxImageDimension2D": uint32(maxImageDim1D2D),
	"MaxImageDimension3D": uint32(maxImageDim3D), "MaxImageDimensionCube": uint32(maxImageDim1D2D),
	"MaxImageArrayLayers": uint32(maxImageLayers), "MaxTexelBufferElements": uint32(maxTexelElements),
	"MaxSamplerAllocationCount":     uint32(4000),
	"MaxPerStageDescriptorSamplers": uint32(64), "MaxPerStageDescriptorSampledImages": uint32(64),
	"MaxPerStageDescriptorStorageImages": uint32(64), "MaxDescriptorSetSamplers": uint32(64),
	"MaxDescriptorSetSampledImages": uint32(64), "MaxDescriptorSetStorageImages": uint32(64),
	"MaxSamplerLodBias": float32(16), "MaxSamplerAnisotropy": float32(1),
	"MinTexelOffset": int32(-8), "MaxTexelOffset": uint32(7), "MinTexelGatherOffset": int32(-8), "MaxTexelGatherOffset": uint32(7),
	"SubTexelPrecisionBits": uint32(8), "MipmapPrecisionBits": uint32(8),
	"SampledImageColorSampleCounts": uint32(1), "SampledImageIntegerSampleCounts": uint32(1),
	"SampledImageDepthSampleCounts": uint32(1), "StorageImageSampleCounts": uint32(1),

	// Subgroups (VkPhysicalDeviceVulkan11Properties, VkPhysicalDeviceSubgroupProperties).
	"SubgroupSize": uint32(defaultSubgroup), "SubgroupSupportedStages": uint32(0x20), "SubgroupSupportedOperations": uint32(0xff),
	"MaxPerSetDescriptors": uint32(1024), "MaxMemoryAllocationSize": uint64(maxAllocation),
	"MaxMultiviewViewCount": uint32(0),

	// Subgroup size control.
	"MinSubgroupSize": uint32(minSubgroup), "MaxSubgroupSize": uint32(maxSubgroup),
	"MaxComputeWorkgroupSubgroups": uint32(maxWorkgroup / minSubgroup), "RequiredSubgroupSizeStages": uint32(0x20),

	// Float controls: every mode, each width independently.
	"DenormBehaviorIndependence": int32(1), "RoundingModeIndependence": int32(1),
	"ShaderSignedZeroInfNanPreserveFloat16": uint32(1), "ShaderSignedZeroInfNanPreserveFloat32": uint32(1),
	"ShaderSignedZeroInfNanPreserveFloat64": uint32(1), "ShaderDenormPreserveFloat16": uint32(1),
	"ShaderDenormPreserveFloat32": uint32(1), "ShaderDenormPreserveFloat64": uint32(1),
	"ShaderRoundingModeRTEFloat16": uint32(1), "ShaderRoundingModeRTEFloat32": uint32(1),
	"ShaderRoundingModeRTEFloat64": uint32(1), "ShaderRoundingModeRTZFloat16": uint32(1),
	"ShaderRoundingModeRTZFloat32": uint32(1), "ShaderRoundingModeRTZFloat64": uint32(1),

	"MaxTimelineSemaphoreValueDifference": uint64(1<<63 - 1),
	"MaxBufferSize":                       uint64(maxAllocation),
	"MaxPushDescriptors":                  uint32(32),

	// Pipeline robustness: out-of-bounds accesses fault (no robustness).
	"DefaultRobustnessStorageBuffers": int32(1), "DefaultRobustnessUniformBuffers": int32(1),
	"DefaultRobustnessVertexInputs": int32(1),
	// Image accesses out of bounds behave as with robustImageAccess2
	// (exec/doc.go), whether asked for or not.
	"DefaultRobustnessImages": int32(3),

	// Cooperative matrices 2 and vectors.
	"CooperativeMatrixWorkgroupScopeMaxWorkgroupSize":     uint32(256),
	"CooperativeMatrixFlexibleDimensionsMaxDimension":     uint32(8192),
	"CooperativeMatrixWorkgroupScopeReservedSharedMemory": uint32(0),
	"CooperativeMatrixSupportedStages":                    uint32(0x20),
	"CooperativeVectorSupportedStages":                    uint32(0x20),
	"CooperativeVectorTrainingFloat16Accumulation":        uint32(1),
	"CooperativeVectorTrainingFloat32Accumulation":        uint32(1),
	"MaxCooperativeVectorComponents":                      uint32(1024),
}

// unsupportedFeatures are the feature members the driver reports false:
// graphics, sparse resources, multisampled storage images, anisotropic
// filtering, descriptor indexing, buffer robustness and what the executor
// does not do. Every other VkBool32 member of a known
// features structure is true.
var unsupportedFeatures = map[string]bool{}

func init() {
	// Integer dot products: the executor runs OpSDot and its kin as one
	// instruction each, faster than the emulation by shifts, multiplies and
	// adds that "accelerated" is measured against, so every form is
	// accelerated (llama.cpp takes its integer-dot paths only then).
	t := reflect.TypeFor[vkt.PhysicalDeviceShaderIntegerDotProductProperties]()
	for i := range t.NumField() {
		if n := t.Field(i).Name; strings.HasPrefix(n, "IntegerDotProduct") {
			properties[n] = uint32(1)
		}
	}
	for _, n := range strings.Fields(`RobustBufferAccess FullDrawIndexUint32 IndependentBlend GeometryShader TessellationShader
	SampleRateShading DualSrcBlend LogicOp MultiDrawIndirect DrawIndirectFirstInstance DepthClamp
	DepthBiasClamp FillModeNonSolid DepthBounds WideLines LargePoints AlphaToOne MultiViewport
	SamplerAnisotropy TextureCompressionETC2 TextureCompressionASTC_LDR TextureCompressionBC
	OcclusionQueryPrecise PipelineStatisticsQuery VertexPipelineStoresAndAtomics
	FragmentStoresAndAtomics ShaderTessellationAndGeometryPointSize ShaderStorageImageMultisample
	ShaderClipDistance ShaderCullDistance ShaderResourceResidency SparseBinding SparseResidencyBuffer
	SparseResidencyImage2D SparseResidencyImage3D SparseResidency2Samples SparseResidency4Samples
	SparseResidency8Samples SparseResidency16Samples SparseResidencyAliased VariableMultisampleRate
	InheritedQueries StorageInputOutput16 Multiview MultiviewGeometryShader MultiviewTessellationShader
	VariablePointersStorageBuffer VariablePointers ProtectedMemory SamplerYcbcrConversion
	ShaderDrawParameters DrawIndirectCount DescriptorIndexing ShaderInputAttachmentArrayDynamicIndexing
	ShaderUniformBufferArrayNonUniformIndexing ShaderSampledImageArrayNonUniformIndexing
	ShaderStorageBufferArrayNonUniformIndexing ShaderStorageImageArrayNonUniformIndexing
	ShaderInputAttachmentArrayNonUniformIndexing ShaderUniformTexelBufferArrayNonUniformIndexing
	ShaderStorageTexelBufferArrayNonUniformIndexing DescriptorBindingUniformBufferUpdateAfterBind
	DescriptorBindingSampledImageUpdateAfterBind DescriptorBindingStorageImageUpdateAfterBind
	DescriptorBindingStorageBufferUpdateAfterBind DescriptorBindingUniformTexelBufferUpdateAfterBind
	DescriptorBindingStorageTexelBufferUpdateAfterBind DescriptorBindingUpdateUnusedWhilePending
	DescriptorBindingPartiallyBound DescriptorBindingVariableDescriptorCount RuntimeDescriptorArray
	SamplerFilterMinmax ImagelessFramebuffer SeparateDepthStencilLayouts
	BufferDeviceAddressCaptureReplay BufferDeviceAddressMultiDevice ShaderOutputViewportIndex
	ShaderOutputLayer InlineUniformBlock DescriptorBindingInlineUniformBlockUpdateAfterBind PrivateData
	ShaderDemoteToHelperInvocation ShaderTerminateInvocation TextureCompressionASTC_HDR DynamicRendering
	CooperativeMatrixRobustBufferAccess`) {
		unsupportedFeatures[n] = true
	}
}

// featureTypes and propertyTypes are the structures the driver fills, by
// sType: those of core Vulkan 1.1 to 1.3 and of the advertised device
// extensions (genicd finds them in vk.xml). Others are left untouched.
var (
	featureTypes  = vkt.FeatureStructs
	propertyTypes = vkt.PropertyStructs
)

// coreNames maps a member of a structure promoted into Vulkan 1.1 to 1.3
// to its name in the VkPhysicalDeviceVulkan1x structure that mirrors it,
// where the names differ (VkPhysicalDeviceSubgroupProperties'
// supportedStages is subgroupSupportedStages there): the tables above
// name each member once, by its Vulkan 1.x name, so the two views agree.
var coreNames = func() map[[2]string]string {
	m := map[[2]string]string{}
	for _, p := range vkt.Promotions {
		if p.Member != p.CoreMember {
			m[[2]string{p.Struct, p.Member}] = p.CoreMember
		}
	}
	return m
}()

// memberName is the name the tables above know member i of t by.
func memberName(t reflect.Type, i int) string {
	n := t.Field(i).Name
	if c, ok := coreNames[[2]string{t.Name(), n}]; ok {
		return c
	}
	return n
}

// chain calls f for every structure of a pNext chain (the first included).
func chain(p unsafe.Pointer, f func(sType vkt.StructureType, p unsafe.Pointer)) {
	for n := 0; p != nil && n < 1024; n++ {
		b := (*vkt.BaseOutStructure)(p)
		f(b.SType, p)
		p = unsafe.Pointer(b.PNext)
	}
}

// fillFeatures sets every VkBool32 member of a known features structure
// (nested structures included) to whether the driver supports it.
func fillFeatures(v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), memberName(v.Type(), i)
		switch {
		case name == "SType" || name == "PNext":
		case f.Kind() == reflect.Struct:
			fillFeatures(f)
		case f.Type() == reflect.TypeFor[vkt.Bool32]():
			f.SetUint(boolU(!unsupportedFeatures[name]))
		}
	}
}

// missingFeatures lists the members the application asks for (true) that
// the driver does not support.
func missingFeatures(v reflect.Value, out []string) []string {
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), memberName(v.Type(), i)
		switch {
		case name == "SType" || name == "PNext":
		case f.Kind() == reflect.Struct:
			out = missingFeatures(f, out)
		case f.Type() == reflect.TypeFor[vkt.Bool32]():
			if f.Uint() != 0 && unsupportedFeatures[name] {
				out = append(out, strings.ToLower(name[:1])+name[1:])
			}
		}
	}
	return out
}

// fillProperties zeroes a properties structure (but its sType and pNext)
// and sets the members the table names.
func fillProperties(v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), memberName(v.Type(), i)
		if name == "SType" || name == "PNext" {
			continue
		}
		if f.Kind() == reflect.Struct {
			fillProperties(f)
			continue
		}
		f.SetZero()
		val, ok := properties[name]
		if !ok {
			continue
		}
		if s, ok := val.(string); ok {
			b := f.Slice(0, f.Len()).Bytes()
			copy(b[:len(b)-1], s)
			continue
		}
		rv := reflect.ValueOf(val)
		if rv.Type().ConvertibleTo(f.Type()) {
			f.Set(rv.Convert(f.Type()))
		} else if rv.Kind() == reflect.Array && f.Kind() == reflect.Array {
			for j := 0; j < min(rv.Len(), f.Len()); j++ {
				f.Index(j).Set(rv.Index(j).Convert(f.Type().Elem()))
			}
		}
	}
}

func boolU(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// structAt views the C structure at p as a settable value of type t.
func structAt(t reflect.Type, p unsafe.Pointer) reflect.Value {
	return reflect.NewAt(t, p).Elem()
}

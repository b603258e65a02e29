package icd

import (
	"reflect"
	"strings"
	"sync"

	"github.com/coopshader/coop/icd/vkt"
	"github.com/coopshader/coop/profile"
)

// componentNames spells VkComponentTypeKHR as device profiles do.
var componentNames = map[vkt.ComponentTypeKHR]string{
	f16: "float16", f32: "float32", bf16: "bfloat16", s8: "sint8", u8: "uint8", s32: "sint32", u32: "uint32",
	e4m3: "float8_e4m3", e5m2: "float8_e5m2", vkt.ComponentTypeSint8PackedNV: "sint8_packed",
}

func scopeName(wg uint32) string {
	if wg != 0 {
		return "workgroup"
	}
	return "subgroup"
}

// Profile is the driver's device as a device profile (package profile):
// what pipeline creation checks modules against (package devcheck), from
// the same tables the driver reports to applications.
var Profile = sync.OnceValue(func() *profile.Profile {
	p := &profile.Profile{
		Name: deviceName, Type: "CPU", VendorID: vendorID, DeviceID: deviceID, APIVersion: "1.3.290",
		DriverName: "coop", SubgroupSize: defaultSubgroup, MinSubgroupSize: minSubgroup, MaxSubgroupSize: maxSubgroup,
		TimestampPeriodNs: 1,
		CoopMat2: &profile.CoopMat2Limits{
			WorkgroupScopeMaxWorkgroupSize: properties["CooperativeMatrixWorkgroupScopeMaxWorkgroupSize"].(uint32),
			FlexibleDimensionsMaxDimension: properties["CooperativeMatrixFlexibleDimensionsMaxDimension"].(uint32),
		},
		CoopVecLimits: &profile.CoopVecLimits{SupportedStages: "compute", TrainingFloat16Accumulation: true,
			TrainingFloat32Accumulation: true, MaxCooperativeVectorComponents: properties["MaxCooperativeVectorComponents"].(uint32)},
		Limits: &profile.Limits{
			MaxComputeWorkGroupSize:        properties["MaxComputeWorkGroupSize"].([3]uint32),
			MaxComputeWorkGroupInvocations: properties["MaxComputeWorkGroupInvocations"].(uint32),
			MaxComputeWorkGroupCount:       properties["MaxComputeWorkGroupCount"].([3]uint32),
			MaxComputeSharedMemorySize:     properties["MaxComputeSharedMemorySize"].(uint32),
			MaxPushConstantsSize:           properties["MaxPushConstantsSize"].(uint32),
		},
	}
	for _, e := range vkt.DeviceExtensions {
		p.Extensions = append(p.Extensions, e.Name)
	}
	for st, t := range featureTypes {
		names := featureNames(t)
		if st == vkt.StructureTypePhysicalDeviceCooperativeMatrixFeaturesNV {
			// Profiles tell VK_NV_cooperative_matrix's feature from the
			// KHR one of the same name.
			for i := range names {
				names[i] += "NV"
			}
		}
		p.Features = append(p.Features, names...)
	}
	for _, s := range matShapes {
		sh := profile.CoopMatShape{M: s.m, N: s.n, K: s.k, A: componentNames[s.a], B: componentNames[s.b],
			C: componentNames[s.c], Result: componentNames[s.r], Scope: "subgroup"}
		p.CoopMatKHR = append(p.CoopMatKHR, sh)
		if s.a != bf16 && s.a != e4m3 && s.a != e5m2 {
			p.CoopMatNV = append(p.CoopMatNV, sh)
		}
	}
	for _, s := range flexShapes {
		inv := s.workgroupSize
		if inv == 0 {
			inv = defaultSubgroup
		}
		p.CoopMatFlex = append(p.CoopMatFlex, profile.CoopMatFlexShape{MGranularity: s.m, NGranularity: s.n, KGranularity: s.k,
			A: componentNames[s.a], B: componentNames[s.b], C: componentNames[s.c], Result: componentNames[s.r],
			Scope: scopeName(s.workgroupSize), WorkgroupInvocations: inv})
	}
	for _, c := range vecCombinations() {
		p.CoopVec = append(p.CoopVec, profile.CoopVecCombo{InputType: componentNames[c.InputType],
			InputInterpretation: componentNames[c.InputInterpretation], MatrixInterpretation: componentNames[c.MatrixInterpretation],
			BiasInterpretation: componentNames[c.BiasInterpretation], ResultType: componentNames[c.ResultType], Transpose: c.Transpose != 0})
	}
	p.Normalize()
	return p
})

// featureNames lists the supported VkBool32 members of a features
// structure by their specification names.
func featureNames(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		switch {
		case f.Type.Kind() == reflect.Struct:
			out = append(out, featureNames(f.Type)...)
		case f.Type == reflect.TypeFor[vkt.Bool32]() && !unsupportedFeatures[f.Name]:
			out = append(out, strings.ToLower(f.Name[:1])+f.Name[1:])
		}
	}
	return out
}

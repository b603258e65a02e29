package vk

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/vk/internal/vkc"
)

// DeviceInfo describes one physical device as `coop devices` shows it.
type DeviceInfo struct {
	Index             int
	Name              string
	Type              string // "discrete GPU", "integrated GPU", "CPU", ...
	VendorID          uint32
	DeviceID          uint32
	APIVersion        string // e.g. "1.4.312"
	DriverVersion     string // decoded the vendor's way (NVIDIA packs 10.8.8.6 bits)
	DriverName        string // VkPhysicalDeviceVulkan12Properties.driverName
	DriverInfo        string
	SubgroupSize      uint32
	MinSubgroupSize   uint32
	MaxSubgroupSize   uint32
	TimestampPeriodNs float32
	// Extensions lists which of the extensions coop uses are present.
	Extensions []string
	// Features lists the optional features coop can enable that the device
	// supports (specification member names).
	Features []string

	CoopMatKHR    []CoopMatShape     // vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR
	CoopMatNV     []CoopMatShape     // vkGetPhysicalDeviceCooperativeMatrixPropertiesNV
	CoopMatFlex   []CoopMatFlexShape // vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV
	CoopMat2      *CoopMat2Limits
	CoopVec       []CoopVecCombo // vkGetPhysicalDeviceCooperativeVectorPropertiesNV
	CoopVecLimits *CoopVecLimits
	Limits        *Limits // the compute part of VkPhysicalDeviceLimits
}

// The capability types are the device profile's (package profile), so a
// described device converts to a profile field for field.
type (
	CoopMatShape     = profile.CoopMatShape
	CoopMatFlexShape = profile.CoopMatFlexShape
	CoopMat2Limits   = profile.CoopMat2Limits
	CoopVecCombo     = profile.CoopVecCombo
	CoopVecLimits    = profile.CoopVecLimits
	Limits           = profile.Limits
)

// Devices lists every physical device the Vulkan loader reports. The error
// wraps backend.ErrUnavailable when there is no loader or driver.
func Devices() ([]DeviceInfo, error) {
	in, err := newInstance()
	if err != nil {
		return nil, err
	}
	defer in.close()
	pds, err := in.physicalDevices()
	if err != nil {
		return nil, err
	}
	var out []DeviceInfo
	for i, pd := range pds {
		d, err := in.describe(i, pd)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func (in *instance) describe(index int, pd vkc.PhysicalDevice) (DeviceInfo, error) {
	has, err := in.extensions(pd)
	if err != nil {
		return DeviceInfo{}, err
	}
	p := in.queryProperties(pd, has)
	pp := &p.p2.Properties
	d := DeviceInfo{
		Index:             index,
		Name:              vkc.CString(pp.DeviceName[:]),
		Type:              deviceType(pp.DeviceType),
		VendorID:          pp.VendorID,
		DeviceID:          pp.DeviceID,
		APIVersion:        vkc.VersionString(pp.ApiVersion),
		DriverVersion:     driverVersion(pp.VendorID, pp.DriverVersion),
		DriverName:        vkc.CString(p.v12.DriverName[:]),
		DriverInfo:        vkc.CString(p.v12.DriverInfo[:]),
		SubgroupSize:      p.v11.SubgroupSize,
		MinSubgroupSize:   p.v13.MinSubgroupSize,
		MaxSubgroupSize:   p.v13.MaxSubgroupSize,
		TimestampPeriodNs: pp.Limits.TimestampPeriod,
		Limits: &Limits{MaxComputeWorkGroupSize: pp.Limits.MaxComputeWorkGroupSize,
			MaxComputeWorkGroupInvocations: pp.Limits.MaxComputeWorkGroupInvocations,
			MaxComputeWorkGroupCount:       pp.Limits.MaxComputeWorkGroupCount,
			MaxComputeSharedMemorySize:     pp.Limits.MaxComputeSharedMemorySize,
			MaxPushConstantsSize:           pp.Limits.MaxPushConstantsSize},
	}
	for _, e := range wantedExtensions {
		if has[e] {
			d.Extensions = append(d.Extensions, e)
		}
	}
	if pp.ApiVersion >= vkc.APIVersion13 {
		sup := in.queryFeatures(pd, has)
		for _, b := range featureBits {
			if (b.ext == "" || has[b.ext]) && *b.field(sup) != 0 {
				d.Features = append(d.Features, b.key)
			}
		}
	}
	if has["VK_KHR_cooperative_matrix"] {
		ps, err := in.coopMatKHR(pd)
		if err != nil {
			return d, err
		}
		for _, q := range ps {
			d.CoopMatKHR = append(d.CoopMatKHR, CoopMatShape{M: q.MSize, N: q.NSize, K: q.KSize,
				A: componentType(q.AType), B: componentType(q.BType), C: componentType(q.CType), Result: componentType(q.ResultType),
				SaturatingAccumulation: q.SaturatingAccumulation != 0, Scope: scope(q.Scope)})
		}
	}
	if has["VK_NV_cooperative_matrix"] {
		ps, err := in.coopMatNV(pd)
		if err != nil {
			return d, err
		}
		for _, q := range ps {
			d.CoopMatNV = append(d.CoopMatNV, CoopMatShape{M: q.MSize, N: q.NSize, K: q.KSize,
				A: componentType(vkc.ComponentTypeKHR(q.AType)), B: componentType(vkc.ComponentTypeKHR(q.BType)),
				C: componentType(vkc.ComponentTypeKHR(q.CType)), Result: componentType(vkc.ComponentTypeKHR(q.DType)),
				Scope: scope(vkc.ScopeKHR(q.Scope))})
		}
	}
	if has["VK_NV_cooperative_matrix2"] {
		ps, err := in.coopMatFlexNV(pd)
		if err != nil {
			return d, err
		}
		for _, q := range ps {
			d.CoopMatFlex = append(d.CoopMatFlex, CoopMatFlexShape{MGranularity: q.MGranularity, NGranularity: q.NGranularity, KGranularity: q.KGranularity,
				A: componentType(q.AType), B: componentType(q.BType), C: componentType(q.CType), Result: componentType(q.ResultType),
				SaturatingAccumulation: q.SaturatingAccumulation != 0, Scope: scope(q.Scope), WorkgroupInvocations: q.WorkgroupInvocations})
		}
		d.CoopMat2 = &CoopMat2Limits{WorkgroupScopeMaxWorkgroupSize: p.cm2.CooperativeMatrixWorkgroupScopeMaxWorkgroupSize,
			FlexibleDimensionsMaxDimension:     p.cm2.CooperativeMatrixFlexibleDimensionsMaxDimension,
			WorkgroupScopeReservedSharedMemory: p.cm2.CooperativeMatrixWorkgroupScopeReservedSharedMemory}
	}
	if has["VK_NV_cooperative_vector"] {
		ps, err := in.coopVecNV(pd)
		if err != nil {
			return d, err
		}
		for _, q := range ps {
			d.CoopVec = append(d.CoopVec, CoopVecCombo{InputType: componentType(q.InputType), InputInterpretation: componentType(q.InputInterpretation),
				MatrixInterpretation: componentType(q.MatrixInterpretation), BiasInterpretation: componentType(q.BiasInterpretation),
				ResultType: componentType(q.ResultType), Transpose: q.Transpose != 0})
		}
		d.CoopVecLimits = &CoopVecLimits{SupportedStages: stages(p.cv.CooperativeVectorSupportedStages),
			TrainingFloat16Accumulation:    p.cv.CooperativeVectorTrainingFloat16Accumulation != 0,
			TrainingFloat32Accumulation:    p.cv.CooperativeVectorTrainingFloat32Accumulation != 0,
			MaxCooperativeVectorComponents: p.cv.MaxCooperativeVectorComponents}
	}
	return d, nil
}

func deviceType(t vkc.PhysicalDeviceType) string {
	switch t {
	case vkc.PhysicalDeviceTypeIntegratedGpu:
		return "integrated GPU"
	case vkc.PhysicalDeviceTypeDiscreteGpu:
		return "discrete GPU"
	case vkc.PhysicalDeviceTypeVirtualGpu:
		return "virtual GPU"
	case vkc.PhysicalDeviceTypeCpu:
		return "CPU"
	}
	return "other"
}

// driverVersion decodes driverVersion, which is vendor-defined; NVIDIA's
// packing is the widely known exception to Vulkan's version encoding.
func driverVersion(vendor, v uint32) string {
	if vendor == 0x10DE {
		return fmt.Sprintf("%d.%d.%d.%d", v>>22, v>>14&0xFF, v>>6&0xFF, v&0x3F)
	}
	return vkc.VersionString(v)
}

// componentType shortens VK_COMPONENT_TYPE_FLOAT16_KHR to "float16".
func componentType(t vkc.ComponentTypeKHR) string {
	s := strings.TrimPrefix(t.String(), "VK_COMPONENT_TYPE_")
	for _, suf := range []string{"_KHR", "_NV", "_EXT"} {
		s = strings.TrimSuffix(s, suf)
	}
	return strings.ToLower(s)
}

func scope(s vkc.ScopeKHR) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(s.String(), "VK_SCOPE_"), "_KHR"))
}

func stages(f vkc.ShaderStageFlags) string {
	names := map[vkc.ShaderStageFlags]string{
		vkc.ShaderStageVertexBit: "vertex", vkc.ShaderStageFragmentBit: "fragment", vkc.ShaderStageComputeBit: "compute",
		vkc.ShaderStageGeometryBit: "geometry", vkc.ShaderStageTessellationControlBit: "tess-control",
		vkc.ShaderStageTessellationEvaluationBit: "tess-eval", vkc.ShaderStageTaskBitEXT: "task", vkc.ShaderStageMeshBitEXT: "mesh",
		vkc.ShaderStageRaygenBitKHR: "raygen", vkc.ShaderStageAnyHitBitKHR: "any-hit", vkc.ShaderStageClosestHitBitKHR: "closest-hit",
		vkc.ShaderStageMissBitKHR: "miss", vkc.ShaderStageIntersectionBitKHR: "intersection", vkc.ShaderStageCallableBitKHR: "callable",
	}
	var out []string
	rest := f
	for bit, n := range names {
		if f&bit != 0 {
			out = append(out, n)
			rest &^= bit
		}
	}
	sort.Strings(out)
	if rest != 0 {
		out = append(out, fmt.Sprintf("%#x", uint32(rest)))
	}
	return strings.Join(out, ",")
}

// FormatDevices writes the listing that `coop devices` prints.
func FormatDevices(w io.Writer, ds []DeviceInfo) error {
	var b strings.Builder
	if len(ds) == 0 {
		b.WriteString("no Vulkan devices\n")
	}
	for i, d := range ds {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "device %d: %s (%s, vendor %#04x, device %#04x)\n", d.Index, d.Name, d.Type, d.VendorID, d.DeviceID)
		fmt.Fprintf(&b, "  Vulkan %s, driver %s %s (%s)\n", d.APIVersion, d.DriverName, d.DriverInfo, d.DriverVersion)
		fmt.Fprintf(&b, "  subgroup size %d (min %d, max %d), timestamp period %g ns\n", d.SubgroupSize, d.MinSubgroupSize, d.MaxSubgroupSize, d.TimestampPeriodNs)
		fmt.Fprintf(&b, "  extensions: %s\n", orNone(d.Extensions))
		fmt.Fprintf(&b, "  features: %s\n", orNone(d.Features))
		if l := d.Limits; l != nil {
			fmt.Fprintf(&b, "  compute limits: workgroup size %v, %d invocations, group count %v, shared memory %d, push constants %d\n",
				l.MaxComputeWorkGroupSize, l.MaxComputeWorkGroupInvocations, l.MaxComputeWorkGroupCount, l.MaxComputeSharedMemorySize, l.MaxPushConstantsSize)
		}
		if len(d.CoopMatKHR) > 0 {
			b.WriteString("  cooperative matrix (VK_KHR_cooperative_matrix):\n")
			shapeTable(&b, d.CoopMatKHR, true)
		}
		if len(d.CoopMatNV) > 0 {
			b.WriteString("  cooperative matrix (VK_NV_cooperative_matrix):\n")
			shapeTable(&b, d.CoopMatNV, false)
		}
		if d.CoopMat2 != nil {
			fmt.Fprintf(&b, "  cooperative matrix 2 (VK_NV_cooperative_matrix2): workgroup scope max workgroup size %d, reserved shared memory %d, flexible dimensions max %d\n",
				d.CoopMat2.WorkgroupScopeMaxWorkgroupSize, d.CoopMat2.WorkgroupScopeReservedSharedMemory, d.CoopMat2.FlexibleDimensionsMaxDimension)
		}
		if len(d.CoopMatFlex) > 0 {
			b.WriteString("  flexible dimensions (VK_NV_cooperative_matrix2):\n")
			tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "    M*\tN*\tK*\tA\tB\tC\tResult\tsat\tscope\tinvocations")
			for _, s := range d.CoopMatFlex {
				fmt.Fprintf(tw, "    %d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", s.MGranularity, s.NGranularity, s.KGranularity,
					s.A, s.B, s.C, s.Result, yesNo(s.SaturatingAccumulation), s.Scope, s.WorkgroupInvocations)
			}
			tw.Flush()
		}
		if d.CoopVecLimits != nil {
			l := d.CoopVecLimits
			fmt.Fprintf(&b, "  cooperative vector (VK_NV_cooperative_vector): stages %s, max components %d, training accumulation fp16 %s fp32 %s\n",
				l.SupportedStages, l.MaxCooperativeVectorComponents, yesNo(l.TrainingFloat16Accumulation), yesNo(l.TrainingFloat32Accumulation))
		}
		if len(d.CoopVec) > 0 {
			tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "    input\tinput interp\tmatrix interp\tbias interp\tresult\ttranspose")
			for _, c := range d.CoopVec {
				fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\t%s\t%s\n", c.InputType, c.InputInterpretation, c.MatrixInterpretation,
					c.BiasInterpretation, c.ResultType, yesNo(c.Transpose))
			}
			tw.Flush()
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func shapeTable(b *strings.Builder, ss []CoopMatShape, sat bool) {
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	head := "    M\tN\tK\tA\tB\tC\tResult\tscope"
	if sat {
		head += "\tsat"
	}
	fmt.Fprintln(tw, head)
	for _, s := range ss {
		line := fmt.Sprintf("    %d\t%d\t%d\t%s\t%s\t%s\t%s\t%s", s.M, s.N, s.K, s.A, s.B, s.C, s.Result, s.Scope)
		if sat {
			line += "\t" + yesNo(s.SaturatingAccumulation)
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}

func orNone(ss []string) string {
	if len(ss) == 0 {
		return "none"
	}
	return strings.Join(ss, " ")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// Profile converts the description to a device profile (package profile)
// named name. Numerics stay at the executor's defaults: they are measured
// by running probes (docs/VULKAN.md), not reported by the driver.
func (d DeviceInfo) Profile(name string) *profile.Profile {
	p := &profile.Profile{
		Name: name, Type: d.Type, VendorID: d.VendorID, DeviceID: d.DeviceID,
		APIVersion: d.APIVersion, DriverVersion: d.DriverVersion, DriverName: d.DriverName, DriverInfo: d.DriverInfo,
		SubgroupSize: d.SubgroupSize, MinSubgroupSize: d.MinSubgroupSize, MaxSubgroupSize: d.MaxSubgroupSize,
		TimestampPeriodNs: d.TimestampPeriodNs,
		Extensions:        append([]string{}, d.Extensions...),
		Features:          append([]string{}, d.Features...),
		CoopMatKHR:        d.CoopMatKHR, CoopMatNV: d.CoopMatNV, CoopMatFlex: d.CoopMatFlex, CoopMat2: d.CoopMat2,
		CoopVec: d.CoopVec, CoopVecLimits: d.CoopVecLimits, Limits: d.Limits,
	}
	p.Normalize()
	return p
}

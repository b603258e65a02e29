// Package profile describes what a device supports, as far as coop's checks
// care: cooperative-matrix shapes and types, cooperative-vector type
// combinations and limits, subgroup sizes, extensions, features, and the
// implementation-defined numeric choices the device makes.
//
// A Profile is plain data that round-trips through JSON. `coop devices
// --json` writes one for each Vulkan device; the validator checks a module
// against one (`coop val --device`), the Vulkan backend checks against its
// own device's before a dispatch, and the CPU executor can be asked to
// refuse what a profile's device refuses. Profiles of real devices ship in
// data/ and are reached by name through Builtin.
package profile

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
)

// Profile is one device's description.
type Profile struct {
	Name          string `json:"name"`
	Type          string `json:"type,omitempty"` // "discrete GPU", "CPU", ...
	VendorID      uint32 `json:"vendorID,omitempty"`
	DeviceID      uint32 `json:"deviceID,omitempty"`
	APIVersion    string `json:"apiVersion,omitempty"` // e.g. "1.4.312"
	DriverVersion string `json:"driverVersion,omitempty"`
	DriverName    string `json:"driverName,omitempty"`
	DriverInfo    string `json:"driverInfo,omitempty"`

	SubgroupSize      uint32  `json:"subgroupSize,omitempty"`
	MinSubgroupSize   uint32  `json:"minSubgroupSize,omitempty"`
	MaxSubgroupSize   uint32  `json:"maxSubgroupSize,omitempty"`
	TimestampPeriodNs float32 `json:"timestampPeriodNs,omitempty"`

	// Extensions lists the device extensions coop cares about that the
	// device has, sorted.
	Extensions []string `json:"extensions"`
	// Features lists the optional features the device supports, by their
	// specification member names (shaderFloat16, cooperativeMatrix, ...),
	// sorted.
	Features []string `json:"features"`

	CoopMatKHR    []CoopMatShape     `json:"coopMatKHR,omitempty"`  // vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR
	CoopMatNV     []CoopMatShape     `json:"coopMatNV,omitempty"`   // vkGetPhysicalDeviceCooperativeMatrixPropertiesNV
	CoopMatFlex   []CoopMatFlexShape `json:"coopMatFlex,omitempty"` // vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV
	CoopMat2      *CoopMat2Limits    `json:"coopMat2,omitempty"`
	CoopVec       []CoopVecCombo     `json:"coopVec,omitempty"` // vkGetPhysicalDeviceCooperativeVectorPropertiesNV
	CoopVecLimits *CoopVecLimits     `json:"coopVecLimits,omitempty"`
	// Limits are the VkPhysicalDeviceLimits the runtime rules compare a
	// module and a dispatch against; nil when unknown (nothing is checked).
	Limits *Limits `json:"limits,omitempty"`

	// Numerics records the device's choices where the specifications leave
	// one to the implementation; the zero value is the executor's default.
	Numerics Numerics `json:"numerics"`
}

// CoopMatShape is one supported cooperative-matrix multiply-add shape.
// Types are short names such as "float16", "bfloat16", "sint8", "float8_e4m3".
type CoopMatShape struct {
	M                      uint32 `json:"m"`
	N                      uint32 `json:"n"`
	K                      uint32 `json:"k"`
	A                      string `json:"a"`
	B                      string `json:"b"`
	C                      string `json:"c"`
	Result                 string `json:"result"`
	SaturatingAccumulation bool   `json:"saturatingAccumulation,omitempty"`
	Scope                  string `json:"scope"` // "subgroup", "workgroup", ...
}

// CoopMatFlexShape is one VK_NV_cooperative_matrix2 flexible-dimension entry:
// M, N and K may be any multiple of the granularities.
type CoopMatFlexShape struct {
	MGranularity           uint32 `json:"mGranularity"`
	NGranularity           uint32 `json:"nGranularity"`
	KGranularity           uint32 `json:"kGranularity"`
	A                      string `json:"a"`
	B                      string `json:"b"`
	C                      string `json:"c"`
	Result                 string `json:"result"`
	SaturatingAccumulation bool   `json:"saturatingAccumulation,omitempty"`
	Scope                  string `json:"scope"`
	WorkgroupInvocations   uint32 `json:"workgroupInvocations"`
}

// CoopMat2Limits are the VK_NV_cooperative_matrix2 device properties.
type CoopMat2Limits struct {
	WorkgroupScopeMaxWorkgroupSize     uint32 `json:"workgroupScopeMaxWorkgroupSize"`
	FlexibleDimensionsMaxDimension     uint32 `json:"flexibleDimensionsMaxDimension"`
	WorkgroupScopeReservedSharedMemory uint32 `json:"workgroupScopeReservedSharedMemory"`
}

// CoopVecCombo is one supported cooperative-vector type combination.
type CoopVecCombo struct {
	InputType            string `json:"inputType"`
	InputInterpretation  string `json:"inputInterpretation"`
	MatrixInterpretation string `json:"matrixInterpretation"`
	BiasInterpretation   string `json:"biasInterpretation"`
	ResultType           string `json:"resultType"`
	Transpose            bool   `json:"transpose,omitempty"`
}

// CoopVecLimits are the VK_NV_cooperative_vector device properties.
type CoopVecLimits struct {
	SupportedStages                string `json:"supportedStages"`
	TrainingFloat16Accumulation    bool   `json:"trainingFloat16Accumulation,omitempty"`
	TrainingFloat32Accumulation    bool   `json:"trainingFloat32Accumulation,omitempty"`
	MaxCooperativeVectorComponents uint32 `json:"maxCooperativeVectorComponents"`
}

// Limits are the compute limits of VkPhysicalDeviceLimits.
type Limits struct {
	MaxComputeWorkGroupSize        [3]uint32 `json:"maxComputeWorkGroupSize"`
	MaxComputeWorkGroupInvocations uint32    `json:"maxComputeWorkGroupInvocations"`
	MaxComputeWorkGroupCount       [3]uint32 `json:"maxComputeWorkGroupCount"`
	MaxComputeSharedMemorySize     uint32    `json:"maxComputeSharedMemorySize"`
	MaxPushConstantsSize           uint32    `json:"maxPushConstantsSize"`
}

// Numerics are a device's implementation-defined floating-point choices.
// Each string field is empty for the executor's documented default.
type Numerics struct {
	// NarrowingRounding is how float conversions to a narrower type round
	// without an FPRoundingMode decoration: "" or "rte" (to nearest even),
	// "rtz" (toward zero), "trunc" (toward zero, and a NaN keeps its top
	// bits, so one whose payload lies only in the dropped bits becomes
	// infinity: plain bit truncation). Keys are destination types
	// ("bfloat16", "float16"); a missing key is "rte".
	NarrowingRounding map[string]string `json:"narrowingRounding,omitempty"`
	// FlushDenormals lists the float widths ("16", "32", "64") whose
	// denormal operands and results of arithmetic (not conversions) are
	// flushed to zero, keeping the sign, unless DenormPreserve says otherwise.
	FlushDenormals []string `json:"flushDenormals,omitempty"`
	// NaN gives the bit pattern of a NaN produced by arithmetic, per type
	// ("float16": "0x7fff"); a missing key is the executor's canonical quiet NaN.
	NaN map[string]string `json:"nan,omitempty"`
	// Accumulation says how cooperative matrix and vector multiplies add
	// up their products, by instruction family and result type
	// ("coopmat/float32", "coopmat/float16", "coopvec/float16"):
	// "sequential" (the executor's: each exact product added in k order,
	// rounding to the result type after each addition), or "blockN-rte" /
	// "blockN-rtz": the exact sum of N consecutive products (in k order,
	// within one MulAdd) plus the running value, rounded once per block to
	// nearest even or toward zero. Measured with scripts/accum_probe.amber;
	// recorded for comparisons to explain, not yet reproduced by the
	// executor (which keeps "sequential"). A missing key is unmeasured.
	Accumulation map[string]string `json:"accumulation,omitempty"`
}

// Has reports whether the profile lists extension ext.
func (p *Profile) Has(ext string) bool { return slices.Contains(p.Extensions, ext) }

// Feature reports whether the profile lists feature f.
func (p *Profile) Feature(f string) bool { return slices.Contains(p.Features, f) }

// Marshal writes p as indented JSON with a final newline. Slices are written
// in the order they hold; Normalize sorts the ones that have no order.
func (p *Profile) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Normalize sorts the extension and feature lists so that a profile's bytes
// depend only on what the device supports.
func (p *Profile) Normalize() {
	slices.Sort(p.Extensions)
	p.Extensions = slices.Compact(p.Extensions)
	slices.Sort(p.Features)
	p.Features = slices.Compact(p.Features)
	slices.Sort(p.Numerics.FlushDenormals)
}

// Parse reads a profile from JSON; unknown fields are errors, so a
// misspelt key is not silently ignored.
func Parse(data []byte) (*Profile, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	var p Profile
	if err := d.Decode(&p); err != nil {
		return nil, err
	}
	if p.Name == "" {
		return nil, fmt.Errorf("profile has no name")
	}
	return &p, nil
}

//go:embed data/*.json
var builtins embed.FS

// Builtin returns the shipped profile named name (a file name in data/
// without .json, such as "h100" or "none").
func Builtin(name string) (*Profile, error) {
	b, err := builtins.ReadFile("data/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("no built-in device profile %q (have %s)", name, strings.Join(Names(), ", "))
	}
	p, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("built-in profile %s: %w", name, err)
	}
	return p, nil
}

// Names lists the built-in profiles, sorted.
func Names() []string {
	es, _ := builtins.ReadDir("data")
	var ns []string
	for _, e := range es {
		ns = append(ns, strings.TrimSuffix(e.Name(), path.Ext(e.Name())))
	}
	slices.Sort(ns)
	return ns
}

// Open returns a built-in profile by name, or reads a profile file when
// name contains a path separator or ends in .json.
func Open(name string) (*Profile, error) {
	if strings.ContainsRune(name, os.PathSeparator) || strings.HasSuffix(name, ".json") {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		p, err := Parse(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return p, nil
	}
	return Builtin(name)
}

package backend

import "fmt"

// Format is the texel format of an image or a texel buffer view: every
// format SPIR-V's Image Format enum names (so every format a compute
// shader can declare for a storage image), plus the depth formats
// D16_UNORM and D32_SFLOAT for sampled depth comparisons. String gives
// the Vulkan name (R32G32B32A32_SFLOAT); ParseFormat reads it back.
type Format uint8

const (
	FormatUndefined Format = iota
	FormatRgba32f
	FormatRgba16f
	FormatR32f
	FormatRgba8
	FormatRgba8Snorm
	FormatRg32f
	FormatRg16f
	FormatR11fG11fB10f
	FormatR16f
	FormatRgba16
	FormatRgb10A2
	FormatRg16
	FormatRg8
	FormatR16
	FormatR8
	FormatRgba16Snorm
	FormatRg16Snorm
	FormatRg8Snorm
	FormatR16Snorm
	FormatR8Snorm
	FormatRgba32i
	FormatRgba16i
	FormatRgba8i
	FormatR32i
	FormatRg32i
	FormatRg16i
	FormatRg8i
	FormatR16i
	FormatR8i
	FormatRgba32ui
	FormatRgba16ui
	FormatRgba8ui
	FormatR32ui
	FormatRgb10a2ui
	FormatRg32ui
	FormatRg16ui
	FormatRg8ui
	FormatR16ui
	FormatR8ui
	FormatR64ui
	FormatR64i
	FormatD16
	FormatD32f
	formatCount
)

// NumKind is how a format's components are stored and what a shader
// reads from them.
type NumKind uint8

const (
	SFloat NumKind = iota // IEEE binary16/binary32; read as floats
	UFloat                // unsigned 11- and 10-bit floats (R11fG11fB10f)
	UNorm                 // unsigned normalized: c / (2^b - 1)
	SNorm                 // signed normalized: max(c / (2^(b-1) - 1), -1)
	UInt                  // unsigned integers
	SInt                  // two's complement integers
)

// FormatInfo describes a format's memory layout.
type FormatInfo struct {
	Name  string   // Vulkan name without VK_FORMAT_
	SPIRV uint32   // SPIR-V Image Format value; 0 for the depth formats
	Kind  NumKind  // of every component
	Bits  [4]uint8 // bits of R, G, B and A; 0 for a component the format lacks
	Size  int      // bytes per texel
	// Packed formats hold all components in one 32-bit little-endian
	// word, R in the lowest bits, then G, B and A. Other formats store
	// R, G, B, A in that order, each little-endian.
	Packed bool
}

// Components is the number of components the format stores.
func (f *FormatInfo) Components() int {
	n := 0
	for _, b := range f.Bits {
		if b != 0 {
			n++
		}
	}
	return n
}

// IsFloat reports whether a shader reads the format as floats (float,
// unsigned float, UNORM and SNORM formats), not as integers.
func (f *FormatInfo) IsFloat() bool { return f.Kind <= SNorm }

// formats is static data (no code runs at start-up to build it).
var formats = [formatCount]FormatInfo{
	FormatRgba32f:      {Name: "R32G32B32A32_SFLOAT", SPIRV: 1, Kind: SFloat, Bits: [4]uint8{32, 32, 32, 32}, Size: 16},
	FormatRgba16f:      {Name: "R16G16B16A16_SFLOAT", SPIRV: 2, Kind: SFloat, Bits: [4]uint8{16, 16, 16, 16}, Size: 8},
	FormatR32f:         {Name: "R32_SFLOAT", SPIRV: 3, Kind: SFloat, Bits: [4]uint8{32, 0, 0, 0}, Size: 4},
	FormatRgba8:        {Name: "R8G8B8A8_UNORM", SPIRV: 4, Kind: UNorm, Bits: [4]uint8{8, 8, 8, 8}, Size: 4},
	FormatRgba8Snorm:   {Name: "R8G8B8A8_SNORM", SPIRV: 5, Kind: SNorm, Bits: [4]uint8{8, 8, 8, 8}, Size: 4},
	FormatRg32f:        {Name: "R32G32_SFLOAT", SPIRV: 6, Kind: SFloat, Bits: [4]uint8{32, 32, 0, 0}, Size: 8},
	FormatRg16f:        {Name: "R16G16_SFLOAT", SPIRV: 7, Kind: SFloat, Bits: [4]uint8{16, 16, 0, 0}, Size: 4},
	FormatR11fG11fB10f: {Name: "B10G11R11_UFLOAT_PACK32", SPIRV: 8, Kind: UFloat, Bits: [4]uint8{11, 11, 10, 0}, Size: 4, Packed: true},
	FormatR16f:         {Name: "R16_SFLOAT", SPIRV: 9, Kind: SFloat, Bits: [4]uint8{16, 0, 0, 0}, Size: 2},
	FormatRgba16:       {Name: "R16G16B16A16_UNORM", SPIRV: 10, Kind: UNorm, Bits: [4]uint8{16, 16, 16, 16}, Size: 8},
	FormatRgb10A2:      {Name: "A2B10G10R10_UNORM_PACK32", SPIRV: 11, Kind: UNorm, Bits: [4]uint8{10, 10, 10, 2}, Size: 4, Packed: true},
	FormatRg16:         {Name: "R16G16_UNORM", SPIRV: 12, Kind: UNorm, Bits: [4]uint8{16, 16, 0, 0}, Size: 4},
	FormatRg8:          {Name: "R8G8_UNORM", SPIRV: 13, Kind: UNorm, Bits: [4]uint8{8, 8, 0, 0}, Size: 2},
	FormatR16:          {Name: "R16_UNORM", SPIRV: 14, Kind: UNorm, Bits: [4]uint8{16, 0, 0, 0}, Size: 2},
	FormatR8:           {Name: "R8_UNORM", SPIRV: 15, Kind: UNorm, Bits: [4]uint8{8, 0, 0, 0}, Size: 1},
	FormatRgba16Snorm:  {Name: "R16G16B16A16_SNORM", SPIRV: 16, Kind: SNorm, Bits: [4]uint8{16, 16, 16, 16}, Size: 8},
	FormatRg16Snorm:    {Name: "R16G16_SNORM", SPIRV: 17, Kind: SNorm, Bits: [4]uint8{16, 16, 0, 0}, Size: 4},
	FormatRg8Snorm:     {Name: "R8G8_SNORM", SPIRV: 18, Kind: SNorm, Bits: [4]uint8{8, 8, 0, 0}, Size: 2},
	FormatR16Snorm:     {Name: "R16_SNORM", SPIRV: 19, Kind: SNorm, Bits: [4]uint8{16, 0, 0, 0}, Size: 2},
	FormatR8Snorm:      {Name: "R8_SNORM", SPIRV: 20, Kind: SNorm, Bits: [4]uint8{8, 0, 0, 0}, Size: 1},
	FormatRgba32i:      {Name: "R32G32B32A32_SINT", SPIRV: 21, Kind: SInt, Bits: [4]uint8{32, 32, 32, 32}, Size: 16},
	FormatRgba16i:      {Name: "R16G16B16A16_SINT", SPIRV: 22, Kind: SInt, Bits: [4]uint8{16, 16, 16, 16}, Size: 8},
	FormatRgba8i:       {Name: "R8G8B8A8_SINT", SPIRV: 23, Kind: SInt, Bits: [4]uint8{8, 8, 8, 8}, Size: 4},
	FormatR32i:         {Name: "R32_SINT", SPIRV: 24, Kind: SInt, Bits: [4]uint8{32, 0, 0, 0}, Size: 4},
	FormatRg32i:        {Name: "R32G32_SINT", SPIRV: 25, Kind: SInt, Bits: [4]uint8{32, 32, 0, 0}, Size: 8},
	FormatRg16i:        {Name: "R16G16_SINT", SPIRV: 26, Kind: SInt, Bits: [4]uint8{16, 16, 0, 0}, Size: 4},
	FormatRg8i:         {Name: "R8G8_SINT", SPIRV: 27, Kind: SInt, Bits: [4]uint8{8, 8, 0, 0}, Size: 2},
	FormatR16i:         {Name: "R16_SINT", SPIRV: 28, Kind: SInt, Bits: [4]uint8{16, 0, 0, 0}, Size: 2},
	FormatR8i:          {Name: "R8_SINT", SPIRV: 29, Kind: SInt, Bits: [4]uint8{8, 0, 0, 0}, Size: 1},
	FormatRgba32ui:     {Name: "R32G32B32A32_UINT", SPIRV: 30, Kind: UInt, Bits: [4]uint8{32, 32, 32, 32}, Size: 16},
	FormatRgba16ui:     {Name: "R16G16B16A16_UINT", SPIRV: 31, Kind: UInt, Bits: [4]uint8{16, 16, 16, 16}, Size: 8},
	FormatRgba8ui:      {Name: "R8G8B8A8_UINT", SPIRV: 32, Kind: UInt, Bits: [4]uint8{8, 8, 8, 8}, Size: 4},
	FormatR32ui:        {Name: "R32_UINT", SPIRV: 33, Kind: UInt, Bits: [4]uint8{32, 0, 0, 0}, Size: 4},
	FormatRgb10a2ui:    {Name: "A2B10G10R10_UINT_PACK32", SPIRV: 34, Kind: UInt, Bits: [4]uint8{10, 10, 10, 2}, Size: 4, Packed: true},
	FormatRg32ui:       {Name: "R32G32_UINT", SPIRV: 35, Kind: UInt, Bits: [4]uint8{32, 32, 0, 0}, Size: 8},
	FormatRg16ui:       {Name: "R16G16_UINT", SPIRV: 36, Kind: UInt, Bits: [4]uint8{16, 16, 0, 0}, Size: 4},
	FormatRg8ui:        {Name: "R8G8_UINT", SPIRV: 37, Kind: UInt, Bits: [4]uint8{8, 8, 0, 0}, Size: 2},
	FormatR16ui:        {Name: "R16_UINT", SPIRV: 38, Kind: UInt, Bits: [4]uint8{16, 0, 0, 0}, Size: 2},
	FormatR8ui:         {Name: "R8_UINT", SPIRV: 39, Kind: UInt, Bits: [4]uint8{8, 0, 0, 0}, Size: 1},
	FormatR64ui:        {Name: "R64_UINT", SPIRV: 40, Kind: UInt, Bits: [4]uint8{64, 0, 0, 0}, Size: 8},
	FormatR64i:         {Name: "R64_SINT", SPIRV: 41, Kind: SInt, Bits: [4]uint8{64, 0, 0, 0}, Size: 8},
	FormatD16:          {Name: "D16_UNORM", SPIRV: 0, Kind: UNorm, Bits: [4]uint8{16, 0, 0, 0}, Size: 2},
	FormatD32f:         {Name: "D32_SFLOAT", SPIRV: 0, Kind: SFloat, Bits: [4]uint8{32, 0, 0, 0}, Size: 4},
}

// Info describes f; nil for FormatUndefined and values out of range.
func (f Format) Info() *FormatInfo {
	if f == FormatUndefined || f >= formatCount {
		return nil
	}
	return &formats[f]
}

func (f Format) String() string {
	if fi := f.Info(); fi != nil {
		return fi.Name
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat finds a format by its Vulkan name (R8G8B8A8_UNORM, with or
// without the VK_FORMAT_ prefix).
func ParseFormat(name string) (Format, bool) {
	if len(name) > 10 && name[:10] == "VK_FORMAT_" {
		name = name[10:]
	}
	for f := Format(1); f < formatCount; f++ {
		if formats[f].Name == name {
			return f, true
		}
	}
	return FormatUndefined, false
}

// FormatOfSPIRV gives the format of a SPIR-V Image Format value
// (FormatUndefined for Unknown and values SPIR-V does not define).
func FormatOfSPIRV(v uint32) Format {
	if v >= 1 && v <= 41 {
		return Format(v) // the constants follow SPIR-V's numbering
	}
	return FormatUndefined
}

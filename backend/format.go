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

func plain(name string, spv uint32, k NumKind, bits uint8, n int) FormatInfo {
	fi := FormatInfo{Name: name, SPIRV: spv, Kind: k, Size: n * int(bits) / 8}
	for c := 0; c < n; c++ {
		fi.Bits[c] = bits
	}
	return fi
}

var formats = [formatCount]FormatInfo{
	FormatRgba32f:      plain("R32G32B32A32_SFLOAT", 1, SFloat, 32, 4),
	FormatRgba16f:      plain("R16G16B16A16_SFLOAT", 2, SFloat, 16, 4),
	FormatR32f:         plain("R32_SFLOAT", 3, SFloat, 32, 1),
	FormatRgba8:        plain("R8G8B8A8_UNORM", 4, UNorm, 8, 4),
	FormatRgba8Snorm:   plain("R8G8B8A8_SNORM", 5, SNorm, 8, 4),
	FormatRg32f:        plain("R32G32_SFLOAT", 6, SFloat, 32, 2),
	FormatRg16f:        plain("R16G16_SFLOAT", 7, SFloat, 16, 2),
	FormatR11fG11fB10f: {Name: "B10G11R11_UFLOAT_PACK32", SPIRV: 8, Kind: UFloat, Bits: [4]uint8{11, 11, 10, 0}, Size: 4, Packed: true},
	FormatR16f:         plain("R16_SFLOAT", 9, SFloat, 16, 1),
	FormatRgba16:       plain("R16G16B16A16_UNORM", 10, UNorm, 16, 4),
	FormatRgb10A2:      {Name: "A2B10G10R10_UNORM_PACK32", SPIRV: 11, Kind: UNorm, Bits: [4]uint8{10, 10, 10, 2}, Size: 4, Packed: true},
	FormatRg16:         plain("R16G16_UNORM", 12, UNorm, 16, 2),
	FormatRg8:          plain("R8G8_UNORM", 13, UNorm, 8, 2),
	FormatR16:          plain("R16_UNORM", 14, UNorm, 16, 1),
	FormatR8:           plain("R8_UNORM", 15, UNorm, 8, 1),
	FormatRgba16Snorm:  plain("R16G16B16A16_SNORM", 16, SNorm, 16, 4),
	FormatRg16Snorm:    plain("R16G16_SNORM", 17, SNorm, 16, 2),
	FormatRg8Snorm:     plain("R8G8_SNORM", 18, SNorm, 8, 2),
	FormatR16Snorm:     plain("R16_SNORM", 19, SNorm, 16, 1),
	FormatR8Snorm:      plain("R8_SNORM", 20, SNorm, 8, 1),
	FormatRgba32i:      plain("R32G32B32A32_SINT", 21, SInt, 32, 4),
	FormatRgba16i:      plain("R16G16B16A16_SINT", 22, SInt, 16, 4),
	FormatRgba8i:       plain("R8G8B8A8_SINT", 23, SInt, 8, 4),
	FormatR32i:         plain("R32_SINT", 24, SInt, 32, 1),
	FormatRg32i:        plain("R32G32_SINT", 25, SInt, 32, 2),
	FormatRg16i:        plain("R16G16_SINT", 26, SInt, 16, 2),
	FormatRg8i:         plain("R8G8_SINT", 27, SInt, 8, 2),
	FormatR16i:         plain("R16_SINT", 28, SInt, 16, 1),
	FormatR8i:          plain("R8_SINT", 29, SInt, 8, 1),
	FormatRgba32ui:     plain("R32G32B32A32_UINT", 30, UInt, 32, 4),
	FormatRgba16ui:     plain("R16G16B16A16_UINT", 31, UInt, 16, 4),
	FormatRgba8ui:      plain("R8G8B8A8_UINT", 32, UInt, 8, 4),
	FormatR32ui:        plain("R32_UINT", 33, UInt, 32, 1),
	FormatRgb10a2ui:    {Name: "A2B10G10R10_UINT_PACK32", SPIRV: 34, Kind: UInt, Bits: [4]uint8{10, 10, 10, 2}, Size: 4, Packed: true},
	FormatRg32ui:       plain("R32G32_UINT", 35, UInt, 32, 2),
	FormatRg16ui:       plain("R16G16_UINT", 36, UInt, 16, 2),
	FormatRg8ui:        plain("R8G8_UINT", 37, UInt, 8, 2),
	FormatR16ui:        plain("R16_UINT", 38, UInt, 16, 1),
	FormatR8ui:         plain("R8_UINT", 39, UInt, 8, 1),
	FormatR64ui:        plain("R64_UINT", 40, UInt, 64, 1),
	FormatR64i:         plain("R64_SINT", 41, SInt, 64, 1),
	FormatD16:          plain("D16_UNORM", 0, UNorm, 16, 1),
	FormatD32f:         plain("D32_SFLOAT", 0, SFloat, 32, 1),
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

package lower

import (
	"strings"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// imageFormats maps GLSL format qualifiers (rgba8, r11f_g11f_b10f, ...) to
// SPIR-V image formats: the same names without underscores, ignoring case.
var imageFormats = lazy.Value[map[string]spirv.ImageFormat]{F: func() map[string]spirv.ImageFormat {
	m := map[string]spirv.ImageFormat{}
	for _, e := range spirv.KindImageFormat.Desc().Enumerants {
		m[strings.ToLower(e.Name)] = spirv.ImageFormat(e.Value)
	}
	return m
}}

// coreFormats are the storage image formats that need no
// StorageImageExtendedFormats capability.
var coreFormats = lazy.Value[map[string]bool]{F: func() map[string]bool {
	return map[string]bool{"rgba32f": true, "rgba16f": true, "r32f": true, "rgba8": true, "rgba8_snorm": true,
		"rgba32i": true, "rgba16i": true, "rgba8i": true, "r32i": true, "rgba32ui": true, "rgba16ui": true, "rgba8ui": true, "r32ui": true}
}}

var imageDims = lazy.Value[map[string]spirv.Dim]{F: func() map[string]spirv.Dim {
	return map[string]spirv.Dim{"1D": spirv.Dim1D, "2D": spirv.Dim2D, "3D": spirv.Dim3D, "Cube": spirv.DimCube, "Rect": spirv.DimRect, "Buffer": spirv.DimBuffer}
}}

// resType returns the SPIR-V type of a sampler, texture or image type t
// (or an array of them) whose variable has the given format qualifier;
// depth marks a texture used with a shadow sampler (glslang declares it a
// depth image).
func (g *gen) resType(t *check.Type, format string, depth bool) uint32 {
	switch {
	case t.Kind == check.KArray:
		elem := g.resType(t.Elem, format, depth)
		if t.IsUnsizedArray() {
			return g.b.Type(spirv.OpTypeRuntimeArray, elem)
		}
		return g.b.Type(spirv.OpTypeArray, elem, g.u32(uint32(t.N)))
	case t.IsSampler():
		return g.b.Type(spirv.OpTypeSampler)
	case t.Kind != check.KOpaque || t.Image == nil:
		g.fail(check.Pos{}, "type %s is not supported by the code generator", t)
	}
	img := g.imageType(t, format, depth)
	if t.Image.Kind != 's' || t.Image.Dim == "Buffer" && g.ver >= 0x10600 {
		// From SPIR-V 1.6 a sampled buffer is its image alone.
		return img
	}
	return g.b.Type(spirv.OpTypeSampledImage, img)
}

// imageType is the OpTypeImage under a sampler, texture or image type,
// declaring the capabilities its dimensionality and format need (as
// glslang does when it declares the type).
func (g *gen) imageType(t *check.Type, format string, depth bool) uint32 {
	im := t.Image
	sampled := uint32(1)
	if im.Kind == 'i' {
		sampled = 2
	}
	dim := imageDims.Get()[im.Dim]
	if dim == spirv.DimRect && sampled == 2 && strings.HasPrefix(g.opts.TargetEnv, "vulkan") {
		// Vulkan has no ImageRect; a rectangle image's integer
		// coordinates are a 2D image's.
		dim = spirv.Dim2D
	}
	switch dim {
	case spirv.DimBuffer:
		g.b.Capability(pick(sampled == 1, spirv.CapabilitySampledBuffer, spirv.CapabilityImageBuffer))
	case spirv.Dim1D:
		g.b.Capability(pick(sampled == 1, spirv.CapabilitySampled1D, spirv.CapabilityImage1D))
	case spirv.DimRect:
		g.b.Capability(pick(sampled == 1, spirv.CapabilitySampledRect, spirv.CapabilityImageRect))
	case spirv.DimCube:
		if im.Arrayed {
			g.b.Capability(pick(sampled == 1, spirv.CapabilitySampledCubeArray, spirv.CapabilityImageCubeArray))
		}
	}
	if im.MS && sampled == 2 {
		g.b.Capability(spirv.CapabilityStorageImageMultisample)
		if im.Arrayed {
			g.b.Capability(spirv.CapabilityImageMSArray)
		}
	}
	if format != "" && !coreFormats.Get()[format] && t.Scalar.Bits() != 64 {
		g.b.Capability(spirv.CapabilityStorageImageExtendedFormats)
	}
	if t.Scalar.Bits() == 64 {
		g.b.Capability(spirv.CapabilityInt64ImageEXT)
		g.b.Extension("SPV_EXT_shader_image_int64")
	}
	fmtID := spirv.ImageFormatUnknown
	if format != "" {
		fmtID = imageFormats.Get()[strings.ReplaceAll(format, "_", "")]
	}
	return g.b.Type(spirv.OpTypeImage, g.scalarType(t.Scalar), uint32(dim), b2u(depth || im.Shadow), b2u(im.Arrayed), b2u(im.MS), sampled, uint32(fmtID))
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// opaqueOf is the sampler, texture or image type under t's arrays, or nil.
func opaqueOf(t *check.Type) *check.Type {
	b := baseOfArrays(t)
	if b.Kind == check.KOpaque && (b.Image != nil || b.IsSampler()) {
		return b
	}
	return nil
}

package validate

import (
	"slices"
	"strings"

	"github.com/coopshader/coop/spirv"
)

// Image types and the image instructions a compute shader uses on storage
// images and texel fetches (SPIR-V 3.56.6 OpTypeImage, 3.56.10 Image
// Instructions, 3.26 Image Operands), with the Vulkan rule on what
// OpImageRead returns.

// checkImageType: "Depth is whether or not this image is a depth image
// ... 0 ... 1 ... 2", "Arrayed must be one of: 0 ... 1", "MS must be one
// of: 0 ... 1", "Sampled indicates whether or not this image is accessed
// in combination with a sampler, and must be one of: 0 ... 1 ... 2";
// "Sampled Type is the type of the components that result from sampling
// or reading from this image type. Must be a scalar numerical type or
// OpTypeVoid."
func (s *state) checkImageType(i int) {
	w := s.m.Insts[i].Words
	st := s.types[w[1]]
	if !st.is(spirv.OpTypeVoid) && !st.is(spirv.OpTypeInt) && !st.is(spirv.OpTypeFloat) {
		s.fail(i, "image.type", "Expected Sampled Type to be either void or numerical scalar type")
		return
	}
	for _, f := range []struct {
		name string
		v    uint32
		max  uint32
	}{{"Depth", w[3], 2}, {"Arrayed", w[4], 1}, {"MS", w[5], 1}, {"Sampled", w[6], 2}} {
		if f.v > f.max {
			s.fail(i, "image.type", "Invalid %s %d (must be 0 to %d)", f.name, f.v, f.max)
			return
		}
	}
	// Capability StorageImageMultisample: "Uses multisample storage
	// images" (SPIR-V 3.31, paraphrased): MS 1 with Sampled 2; a tile
	// image's data (TileImageDataEXT) is no storage image.
	if w[5] == 1 && w[6] == 2 && spirv.Dim(w[2]) != spirv.DimTileImageDataEXT && s.envRules() && !s.hasCap(spirv.CapabilityStorageImageMultisample) {
		s.fail(i, "image.type", "Capability StorageImageMultisample is required when using multisampled storage image")
		return
	}
	if !s.env.vulkan || !s.envRules() {
		return
	}
	// "The Sampled operand of OpTypeImage must be 1 or 2"
	// (VUID-StandaloneSpirv-OpTypeImage-04657, paraphrased).
	if w[6] == 0 {
		s.fail(i, "vulkan.image.sampled", "[VUID-StandaloneSpirv-OpTypeImage-04657] Sampled must be 1 or 2 in the Vulkan environment.")
		return
	}
	// "The Image Format of OpTypeImage must be compatible with the Sampled
	// Type": a float format with a float type, an integer format with an
	// integer type of its width (VUID-StandaloneSpirv-Image-04965,
	// paraphrased). The formats number 1 to 20 for the normalized and
	// float ones, 21 to 41 for the integer ones, of which R64ui and R64i
	// (40, 41) are 64-bit.
	f := w[7]
	if f == 0 || f > 41 || !st.is(spirv.OpTypeInt) && !st.is(spirv.OpTypeFloat) {
		return
	}
	isInt := st.is(spirv.OpTypeInt)
	switch {
	case isInt != (f >= 21):
		s.fail(i, "vulkan.image.format", "[VUID-StandaloneSpirv-Image-04965] Image Format type does not match Sample Type operand (%s)", map[bool]string{true: "integer", false: "float"}[isInt])
	case isInt && (st.Width == 64) != (f >= 40):
		s.fail(i, "vulkan.image.format", "[VUID-StandaloneSpirv-Image-04965] Image Format width does not match Sample Type operand (bit width of %d)", st.Width)
	}
}

// imageInfo returns the OpTypeImage instruction of the image operand id,
// or nil.
func (s *state) imageInfo(id uint32) []uint32 {
	d := s.defInst(s.typeOf(id))
	if d == nil || d.Op != spirv.OpTypeImage {
		return nil
	}
	return d.Words
}

// checkImageAccess checks OpImageRead, OpImageWrite and OpImageFetch:
// "Image must be an object whose type is OpTypeImage" with "a Sampled
// operand of 0 or 2" (read, write) or "1" (fetch); "Coordinate must be a
// scalar or vector of floating-point type or integer type" (a fetch's of
// integer type); OpImageWrite's "Texel is the data to
// write. It must be a scalar or vector with component type the same as
// Sampled Type of the OpTypeImage (unless that Sampled Type is
// OpTypeVoid)"; in Vulkan "The Result Type operand of
// any OpImageRead or OpImageSparseRead instruction must be a vector of
// four components" (VUID-StandaloneSpirv-Result-04780), and OpImageFetch
// "Result Type must be a vector of four components of floating-point type
// or integer type".
func (s *state) checkImageAccess(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	name := in.Op.String()[2:]
	img, coord, ops := 2, 3, 4
	if in.Op == spirv.OpImageWrite {
		img, coord, ops = 0, 1, 3
	}
	it := s.imageInfo(w[img])
	if it == nil {
		s.fail(i, "image.operand", "Expected Image to be of type OpTypeImage")
		return
	}
	sampled := it[6]
	if in.Op == spirv.OpImageFetch {
		if sampled != 1 {
			s.fail(i, "image.sampled", "%s: Expected Image 'Sampled' parameter to be 1", name)
			return
		}
	} else if sampled == 1 {
		s.fail(i, "image.sampled", "%s: Expected Image 'Sampled' parameter to be 0 or 2", name)
		return
	}
	if c, ok, _ := s.numOf(s.typeOf(w[coord])); !ok || !c.is(spirv.OpTypeInt) && (in.Op == spirv.OpImageFetch || !c.is(spirv.OpTypeFloat)) {
		s.fail(i, "image.coordinate", "%s: Expected Coordinate to be a scalar or vector of %s", name, map[bool]string{true: "int", false: "int or float"}[in.Op == spirv.OpImageFetch])
		return
	}
	if s.checkCoordSize(i, in.Op, it, w[coord]); s.err != nil {
		return
	}
	if s.env.vulkan && s.envRules() && in.Op != spirv.OpImageFetch && spirv.ImageFormat(it[7]) == spirv.ImageFormatUnknown && spirv.Dim(it[2]) != spirv.DimSubpassData {
		// Capabilities StorageImageReadWithoutFormat and
		// StorageImageWriteWithoutFormat (SPIR-V 3.31, paraphrased, no
		// local copy): a storage image of Unknown format is read or
		// written only with them.
		if in.Op == spirv.OpImageWrite && !s.hasCap(spirv.CapabilityStorageImageWriteWithoutFormat) {
			s.fail(i, "image.without-format", "Capability StorageImageWriteWithoutFormat is required to write to storage image")
			return
		}
		if in.Op == spirv.OpImageRead && !s.hasCap(spirv.CapabilityStorageImageReadWithoutFormat) {
			s.fail(i, "image.without-format", "Capability StorageImageReadWithoutFormat is required to read storage image")
			return
		}
	}
	if in.Op == spirv.OpImageWrite {
		t, ok, _ := s.numOf(s.typeOf(w[2]))
		if !ok || t.is(spirv.OpTypeBool) {
			s.fail(i, "image.texel", "%s: Expected Texel to be int or float vector or scalar", name)
			return
		}
		if st := s.types[it[1]]; st != nil && !st.is(spirv.OpTypeVoid) && t.t.ID != st.ID {
			s.fail(i, "image.texel", "%s: Expected Image 'Sampled Type' to be the same as Texel components", name)
			return
		}
	} else if in.Op == spirv.OpImageFetch || s.env.vulkan {
		if r, ok, _ := s.numOf(w[0]); !ok || !r.vec || !r.known || r.n != 4 {
			s.fail(i, "image.result", "[VUID-StandaloneSpirv-Result-04780] %s: Expected Result Type to have 4 components", name)
			return
		}
	}
	if len(w) > ops {
		s.checkImageOperands(i, name, it, w[ops], w[ops+1:])
	}
}

// checkImageOperands checks the image operands of a read, write or fetch
// (SPIR-V 3.26): "Bias ... Only valid with implicit-lod instructions";
// "Lod ... with OpImageFetch ... must be an integer type scalar";
// "ConstOffset ... must be the <id> of a constant instruction"; "Sample
// ... Only valid with an image whose MS is 1. It must be an integer type
// scalar."
func (s *state) checkImageOperands(i int, name string, it []uint32, mask uint32, params []uint32) {
	k := 0
	intScalar := func(id uint32) bool {
		v, ok, _ := s.numOf(s.typeOf(id))
		return ok && !v.vec && v.is(spirv.OpTypeInt)
	}
	for bit := uint32(1); bit != 0 && mask != 0; bit <<= 1 {
		if mask&bit == 0 {
			continue
		}
		mask &^= bit
		e := spirv.KindImageOperands.Enumerant(bit)
		if e == nil || k+len(e.Params) > len(params) {
			return
		}
		var p uint32
		if len(e.Params) > 0 {
			p = params[k]
		}
		k += len(e.Params)
		switch spirv.ImageOperands(bit) {
		case spirv.ImageOperandsBias:
			s.fail(i, "image.operands", "%s: Image Operand Bias can only be used with ImplicitLod opcodes", name)
		case spirv.ImageOperandsLod:
			if name == "ImageFetch" && !intScalar(p) {
				s.fail(i, "image.operands", "%s: Expected Image Operand Lod to be int scalar when used with OpImageFetch", name)
			}
		case spirv.ImageOperandsConstOffset:
			if !s.isConst(p) {
				s.fail(i, "image.operands", "%s: Expected Image Operand ConstOffset to be a const object", name)
			}
		case spirv.ImageOperandsSample:
			if it[5] == 0 {
				s.fail(i, "image.operands", "%s: Image Operand Sample requires non-zero 'MS' parameter", name)
			} else if !intScalar(p) {
				s.fail(i, "image.operands", "%s: Expected Image Operand Sample to be int scalar", name)
			}
		}
		if s.err != nil {
			return
		}
	}
}

// planeCoords is the number of coordinates addressing one plane of an
// image of dimensionality d: "Coordinate ... contains (u[, v] ... [,
// array layer]) as needed by the definition of Sampled Image" (SPIR-V
// 3.56.10; a cube is addressed by a direction, paraphrased, no local
// copy). 0 for a Dim without coordinates here.
func planeCoords(d spirv.Dim) uint64 {
	switch d {
	case spirv.Dim1D, spirv.DimBuffer:
		return 1
	case spirv.Dim2D, spirv.DimRect, spirv.DimSubpassData, spirv.DimTileImageDataEXT:
		return 2
	case spirv.Dim3D, spirv.DimCube:
		return 3
	}
	return 0
}

// checkCoordSize: the coordinate has at least the image's plane
// coordinates, one more for the array layer of an arrayed image and one
// more for a projective instruction's q; reading or writing a cube
// addresses a face's texel by (u, v, face).
func (s *state) checkCoordSize(i int, op spirv.Op, it []uint32, coord uint32) {
	v, ok, _ := s.numOf(s.typeOf(coord))
	if !ok || !v.known {
		return
	}
	need := planeCoords(spirv.Dim(it[2]))
	switch {
	case need == 0:
		return
	case spirv.Dim(it[2]) == spirv.DimCube && (op == spirv.OpImageRead || op == spirv.OpImageWrite || op == spirv.OpImageSparseRead):
		need = 3
	case op == spirv.OpImageQueryLod:
	default:
		need += uint64(it[4])
		if strings.Contains(op.String(), "Proj") {
			need++
		}
	}
	if v.n < need {
		s.fail(i, "image.coordinate.size", "Expected Coordinate to have at least %d components, but given only %d", need, v.n)
	}
}

// sampledImageInfo returns the OpTypeImage instruction of the image a
// sampled image operand id samples, or nil when the operand is no
// OpTypeSampledImage value.
func (s *state) sampledImageInfo(id uint32) []uint32 {
	t := s.valueType(id)
	if !t.is(spirv.OpTypeSampledImage) {
		return nil
	}
	if d := s.defInst(t.Elem); d != nil && d.Op == spirv.OpTypeImage {
		return d.Words
	}
	return nil
}

// checkSampling checks the instructions that sample (OpImageSample*,
// OpImageSparseSample*, the gathers and OpImageQueryLod): "Sampled Image
// must be an object whose type is OpTypeSampledImage"; the coordinate has
// as many components as the image needs; with an implicit level of detail
// "Bias ... must be a floating-point type scalar" (32-bit, as sampling
// takes 32-bit floats) and is only for 1D, 2D, 3D and Cube images (SPIR-V
// 3.56.10 and 3.26, paraphrased, no local copy).
func (s *state) checkSampling(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	it := s.sampledImageInfo(w[2])
	if it == nil {
		if in.Op == spirv.OpImageQueryLod {
			s.fail(i, "image.sampled-image", "Expected Image operand to be of type OpTypeSampledImage")
		} else {
			s.fail(i, "image.sampled-image", "Expected Sampled Image to be of type OpTypeSampledImage")
		}
		return
	}
	if s.checkCoordSize(i, in.Op, it, w[3]); s.err != nil || !slices.Contains(implicitLodOps, in.Op) {
		return
	}
	mask := 4
	if strings.Contains(in.Op.String(), "Dref") {
		mask = 5
	}
	if len(w) <= mask+1 || w[mask]&uint32(spirv.ImageOperandsBias) == 0 {
		return
	}
	if t := s.valueType(w[mask+1]); !t.is(spirv.OpTypeFloat) || t.Width != 32 {
		s.fail(i, "image.operands.bias", "Expected Image Operand Bias to be a 32-bit float scalar")
		return
	}
	switch spirv.Dim(it[2]) {
	case spirv.Dim1D, spirv.Dim2D, spirv.Dim3D, spirv.DimCube:
	default:
		s.fail(i, "image.operands.bias", "Image Operand Bias requires 'Dim' parameter to be 1D, 2D, 3D or Cube")
	}
}

// checkSampledImage (OpSampledImage): "Result Type must be the
// OpTypeSampledImage type"; "Image is an object whose type is an
// OpTypeImage, whose Sampled operand is 0 or 1, and whose Dim operand is
// not SubpassData"; "Sampler must be an object whose type is
// OpTypeSampler" (SPIR-V 3.56.10, paraphrased, no local copy); the image
// operands of Image's type match Result Type's Image Type except Depth.
func (s *state) checkSampledImage(i int) {
	w := s.m.Insts[i].Words
	rt := s.types[w[0]]
	if !rt.is(spirv.OpTypeSampledImage) {
		s.fail(i, "image.sampled-image", "Expected Result Type to be OpTypeSampledImage.")
		return
	}
	it := s.imageInfo(w[2])
	if it == nil {
		s.fail(i, "image.sampled-image", "Expected Image to be of type OpTypeImage.")
		return
	}
	if d := s.defInst(rt.Elem); d != nil && d.Op == spirv.OpTypeImage && d.Words[0] != it[0] {
		a, b := slices.Clone(d.Words[1:]), slices.Clone(it[1:])
		a[2], b[2] = 0, 0 // Depth
		if !slices.Equal(a, b) {
			s.fail(i, "image.sampled-image", "Image operands must match result image operands except for depth")
			return
		}
	}
	switch {
	case it[6] == 2:
		s.fail(i, "image.sampled-image", "Expected Image 'Sampled' parameter to be 0 or 1")
	case spirv.Dim(it[2]) == spirv.DimSubpassData:
		s.fail(i, "image.sampled-image", "Expected Image 'Dim' parameter to be not SubpassData.")
	case !s.valueType(w[3]).is(spirv.OpTypeSampler):
		s.fail(i, "image.sampler", "Expected Sampler to be of type OpTypeSampler")
	}
}

// checkSampledImageType (OpTypeSampledImage): "Image Type must be an
// OpTypeImage" (SPIR-V 3.56.6, paraphrased, no local copy).
func (s *state) checkSampledImageType(i int) {
	if d := s.defInst(s.m.Insts[i].Words[1]); d == nil || d.Op != spirv.OpTypeImage {
		s.fail(i, "image.sampled-image-type", "Expected Image to be of type OpTypeImage")
	}
}

// Sampling with an implicit level of detail and OpImageQueryLod take
// derivatives of the coordinates ("ImplicitLod ... is only valid in the
// Fragment Execution Model", widened to compute-like models by
// SPV_KHR_compute_shader_derivatives; paraphrased, no local copy).
var implicitLodOps = []spirv.Op{spirv.OpImageSampleImplicitLod, spirv.OpImageSampleDrefImplicitLod,
	spirv.OpImageSampleProjImplicitLod, spirv.OpImageSampleProjDrefImplicitLod, spirv.OpImageSparseSampleImplicitLod,
	spirv.OpImageSparseSampleDrefImplicitLod, spirv.OpImageSparseSampleProjImplicitLod, spirv.OpImageSparseSampleProjDrefImplicitLod}

// sampleOps are the sampling instructions besides implicitLodOps.
var sampleOps = []spirv.Op{spirv.OpImageSampleExplicitLod, spirv.OpImageSampleDrefExplicitLod,
	spirv.OpImageSampleProjExplicitLod, spirv.OpImageSampleProjDrefExplicitLod, spirv.OpImageSparseSampleExplicitLod,
	spirv.OpImageSparseSampleDrefExplicitLod, spirv.OpImageSparseSampleProjExplicitLod, spirv.OpImageSparseSampleProjDrefExplicitLod,
	spirv.OpImageGather, spirv.OpImageDrefGather, spirv.OpImageSparseGather, spirv.OpImageSparseDrefGather, spirv.OpImageQueryLod}

// checkImageTexelPointer (OpImageTexelPointer, for atomics on one texel):
// "Result Type must be an OpTypePointer whose Storage Class operand is
// Image. Its Type operand must be a scalar numerical type or OpTypeVoid";
// "Image must have a type of OpTypePointer with Type OpTypeImage. The
// Sampled Type of the type of Image must be the same as the Type pointed
// to by Result Type. The Dim operand of Type must not be SubpassData";
// "Coordinate ... must be a scalar or vector of integer type" with the
// image's coordinates and its array layer; "Sample
// must be an integer type scalar. It specifies which sample to select at
// the given coordinate. Behavior is undefined unless it is a valid <id>
// for the value 0 when the OpTypeImage has MS of 0" (SPIR-V 3.56.10,
// paraphrased, no local copy); in Vulkan the image's format is R64i,
// R64ui, R32f, R32i or R32ui (VUID-StandaloneSpirv-OpImageTexelPointer-04658).
// OpUntypedImageTexelPointerEXT (SPV_KHR_untyped_pointers with
// SPV_EXT_descriptor_heap, paraphrased, no local copy) names the image
// type and takes an untyped pointer to the image; its result may be an
// untyped pointer (VUID-StandaloneSpirv-OpUntypedImageTexelPointerEXT-11416
// for the format). The 16-bit float vector pointers of
// AtomicFloat16VectorNV are left alone.
func (s *state) checkImageTexelPointer(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	untyped := in.Op == spirv.OpUntypedImageTexelPointerEXT
	img, coord, sample := 2, 3, 4
	if untyped {
		img, coord, sample = 3, 4, 5
	}
	rt := s.types[w[0]]
	if s.hasCap(spirv.CapabilityAtomicFloat16VectorNV) || len(w) <= sample {
		return
	}
	var it []uint32
	pt := s.valueType(w[img])
	switch {
	case untyped && pt.is(spirv.OpTypeUntypedPointerKHR):
		if d := s.defInst(w[2]); d != nil && d.Op == spirv.OpTypeImage {
			it = d.Words
		}
	case !untyped && pt.is(spirv.OpTypePointer):
		if d := s.defInst(pt.Elem); d != nil && d.Op == spirv.OpTypeImage {
			it = d.Words
		}
	}
	name, ptrName, vuid := "OpImageTexelPointer", "OpTypePointer", "OpImageTexelPointer-04658"
	if untyped {
		name, ptrName, vuid = "OpUntypedImageTexelPointerEXT", "OpTypeUntypedPointerKHR", "OpUntypedImageTexelPointerEXT-11416"
	}
	typed := rt.is(spirv.OpTypePointer)
	pointee := s.types[rt.idOrZeroElem()]
	var got, want uint64
	coordOK := true
	if it != nil {
		got, want, coordOK = s.texelCoordSize(it, w[coord])
	}
	switch {
	case !typed && !(untyped && rt.is(spirv.OpTypeUntypedPointerKHR)) || rt.Storage != spirv.StorageClassImage:
		s.fail(i, "image.texel-pointer", "Expected Result Type to be a pointer whose Storage Class operand is Image")
	case typed && !pointee.is(spirv.OpTypeInt) && !pointee.is(spirv.OpTypeFloat) && !pointee.is(spirv.OpTypeVoid):
		s.fail(i, "image.texel-pointer", "Expected Result Type to be a pointer whose Type operand must be a scalar numerical type or OpTypeVoid")
	case it == nil:
		s.fail(i, "image.texel-pointer", "Expected Image to be %s with Type OpTypeImage", ptrName)
	case typed && it[1] != pointee.ID:
		s.fail(i, "image.texel-pointer", "Expected Image 'Sampled Type' to be the same as the Type pointed to by Result Type")
	case spirv.Dim(it[2]) == spirv.DimSubpassData:
		s.fail(i, "image.texel-pointer", "Image Dim SubpassData cannot be used with %s", name)
	case spirv.Dim(it[2]) == spirv.DimTileImageDataEXT:
		s.fail(i, "image.texel-pointer", "Image Dim TileImageDataEXT cannot be used with %s", name)
	case !s.intScalarOrVector32(w[coord]):
		s.fail(i, "image.texel-pointer", "Expected Coordinate to be a 32-bit integer scalar or vector")
	case !coordOK && !untyped:
		s.fail(i, "image.coordinate.size", "Expected Coordinate to have %d components, but given %d", want, got)
	case !coordOK && got < want:
		// The untyped form's coordinate is only bounded below (as
		// spirv-val checks it; no local copy of its rule).
		s.fail(i, "image.coordinate.size", "Expected Coordinate to have at least %d components, but given only %d", want, got)
	case !s.valueType(w[sample]).is(spirv.OpTypeInt):
		s.fail(i, "image.texel-pointer", "Expected Sample to be integer scalar")
	case it[5] == 0 && !s.isZero(w[sample]):
		s.fail(i, "image.texel-pointer", "Expected Sample for Image with MS 0 to be a valid <id> for the value 0")
	case s.env.vulkan && !slices.Contains([]spirv.ImageFormat{spirv.ImageFormatR64i, spirv.ImageFormatR64ui, spirv.ImageFormatR32f,
		spirv.ImageFormatR32i, spirv.ImageFormatR32ui}, spirv.ImageFormat(it[7])):
		s.fail(i, "image.texel-pointer", "[VUID-StandaloneSpirv-%s] Expected the Image Format in Image to be R64i, R64ui, R32f, R32i, or R32ui for Vulkan environment using %s", vuid, name)
	}
}

// texelCoords is the number of coordinates a texel pointer into an image
// takes: the plane's, plus the layer of an arrayed 1D, 2D or cube image
// (0 when not known).
func texelCoords(it []uint32) uint64 {
	n := planeCoords(spirv.Dim(it[2]))
	if it[4] == 0 {
		return n
	}
	switch spirv.Dim(it[2]) {
	case spirv.Dim1D:
		return 2
	case spirv.Dim2D, spirv.DimCube:
		return 3
	}
	return 0
}

// texelCoordSize returns the coordinate's component count and the count
// the image wants; ok is false when they differ.
func (s *state) texelCoordSize(it []uint32, coord uint32) (got, want uint64, ok bool) {
	v, isNum, _ := s.numOf(s.typeOf(coord))
	want = texelCoords(it)
	return v.n, want, !isNum || !v.known || want == 0 || v.n == want
}

// checkExplicitLod (OpImageSample*ExplicitLod): "Image Operands ...
// Either Lod or Grad image operands must be present" (not both: "Lod ...
// Only valid with explicit-lod instructions" and Grad "must not be
// combined with Lod"), and "Lod ... a floating-point type scalar" (32-bit
// when sampling; SPIR-V 3.26 Image Operands, paraphrased, no local copy).
func (s *state) checkExplicitLod(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	k := 4
	if in.Op == spirv.OpImageSampleDrefExplicitLod || in.Op == spirv.OpImageSampleProjDrefExplicitLod {
		k = 5
	}
	if len(w) <= k {
		return
	}
	mask := w[k]
	lod, grad := mask&uint32(spirv.ImageOperandsLod) != 0, mask&uint32(spirv.ImageOperandsGrad) != 0
	name := in.Op.String()[2:]
	switch {
	case lod && grad:
		s.fail(i, "image.operands", "%s: Image Operand bits Lod and Grad cannot be set at the same time", name)
	case !lod && !grad:
		s.fail(i, "image.operands", "%s: Image Operand Lod or Grad is required with ExplicitLod instructions", name)
	case lod:
		// Lod's parameter follows those of the lower bits (Bias).
		p := k + 1
		if mask&uint32(spirv.ImageOperandsBias) != 0 {
			p++
		}
		if t := s.valueType(w[min(p, len(w)-1)]); p >= len(w) || !t.is(spirv.OpTypeFloat) || t.Width != 32 {
			s.fail(i, "image.operands", "Expected Image Operand Lod to be a 32-bit float scalar when used with ExplicitLod")
		}
	}
}

func (t *Type) idOrZeroElem() uint32 {
	if t == nil {
		return 0
	}
	return t.Elem
}

// intScalarOrVector32 reports whether the value id is a 32-bit integer
// scalar or vector.
func (s *state) intScalarOrVector32(id uint32) bool {
	v, ok, _ := s.numOf(s.typeOf(id))
	return ok && v.is(spirv.OpTypeInt) && v.t.Width == 32
}

// isZero reports whether id is a constant 0 (a specialization constant
// may be).
func (s *state) isZero(id uint32) bool {
	if c, ok := s.consts[id]; ok && c.spec {
		return true
	}
	v, ok := s.constValue(id)
	return ok && v == 0
}

// imageLimits are the family's execution-model limits (execmodel.go lists them).
func imageLimits() opLimits {
	m := opLimits{spirv.OpImageQueryLod: func(s *state, i int, out []modelLimit) []modelLimit {
		return derivativeLimits(out, "OpImageQueryLod requires", "", true)
	}}
	// A subpass input is the fragment's own pixel of an input
	// attachment: "SubpassData ... only valid in the Fragment
	// Execution Model" (Dim, paraphrased, no local copy).
	m[spirv.OpImageRead] = func(s *state, i int, out []modelLimit) []modelLimit {
		if it := s.imageInfo(s.m.Insts[i].Words[2]); it != nil && spirv.Dim(it[2]) == spirv.DimSubpassData {
			out = append(out, models("Dim SubpassData requires Fragment execution model: ImageRead", fragmentOnly...))
		}
		return out
	}
	for _, o := range implicitLodOps {
		m[o] = func(s *state, i int, out []modelLimit) []modelLimit {
			return derivativeLimits(out, "ImplicitLod instructions require", ": "+o.String()[2:], true)
		}
	}
	return m
}

// imageChecks are the family's rules (instructions.go lists the families).
var imageChecks = []opCheck{
	{spirv.OpTypeImage, (*state).checkImageType},
	{spirv.OpImageRead, (*state).checkImageAccess},
	{spirv.OpImageWrite, (*state).checkImageAccess},
	{spirv.OpImageFetch, (*state).checkImageAccess},
	{spirv.OpImageTexelPointer, (*state).checkImageTexelPointer},
	{spirv.OpUntypedImageTexelPointerEXT, (*state).checkImageTexelPointer},
	{spirv.OpImageSampleExplicitLod, (*state).checkExplicitLod},
	{spirv.OpImageSampleDrefExplicitLod, (*state).checkExplicitLod},
	{spirv.OpImageSampleProjExplicitLod, (*state).checkExplicitLod},
	{spirv.OpImageSampleProjDrefExplicitLod, (*state).checkExplicitLod},
	{spirv.OpSampledImage, (*state).checkSampledImage},
	{spirv.OpTypeSampledImage, (*state).checkSampledImageType},
}

// samplingEach adds the sampling rules (instructions.go lists the families).
func samplingEach(add func(spirv.Op, func(*state, int))) {
	for _, ops := range [...][]spirv.Op{implicitLodOps, sampleOps} {
		for _, op := range ops {
			add(op, (*state).checkSampling)
		}
	}
}

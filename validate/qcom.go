package validate

import (
	"slices"

	"github.com/coopshader/coop/spirv"
)

// Qualcomm's extensions: SPV_QCOM_tile_shading (tile attachments, the
// TileShadingRateQCOM execution mode and the stages tile shading takes,
// Vulkan's VUID-StandaloneSpirv-*-10686 ... -10697) and
// SPV_QCOM_cooperative_matrix_conversion (cooperative matrices built from
// and taken apart into arrays, sub-arrays and array bitcasts). The
// extensions' texts are not among the local specifications; their rules
// are paraphrased, the Vulkan ones quoted.

// qcomChecks are the family's rules (instructions.go lists the families).
var qcomChecks = []opCheck{
	{spirv.OpVariable, (*state).checkTileAttachment},
	{spirv.OpEntryPoint, (*state).checkTileShadingModes},
	{spirv.OpExecutionMode, (*state).checkTileShadingRate},
	{spirv.OpCompositeConstructCoopMatQCOM, (*state).checkConstructCoopMatQCOM},
	{spirv.OpCompositeExtractCoopMatQCOM, (*state).checkExtractCoopMatQCOM},
	{spirv.OpExtractSubArrayQCOM, (*state).checkExtractSubArrayQCOM},
	{spirv.OpBitCastArrayQCOM, (*state).checkBitCastArrayQCOM},
	{spirv.OpImageQueryFormat, (*state).checkTileAttachmentQuery},
	{spirv.OpImageQueryOrder, (*state).checkTileAttachmentQuery},
	{spirv.OpImageQuerySizeLod, (*state).checkTileAttachmentQuery},
	{spirv.OpImageQuerySize, (*state).checkTileAttachmentQuery},
	{spirv.OpImageQueryLod, (*state).checkTileAttachmentQuery},
	{spirv.OpImageQueryLevels, (*state).checkTileAttachmentQuery},
	{spirv.OpImageQuerySamples, (*state).checkTileAttachmentQuery},
}

// checkTileAttachmentQuery: in Vulkan, "An OpTypeImage variables in the
// TileAttachmentQCOM Storage Class must not be consumed by an
// OpImageQuery* instruction" (VUID-StandaloneSpirv-TileAttachmentQCOM-10697).
func (s *state) checkTileAttachmentQuery(i int) {
	w := s.m.Insts[i].Words
	if !s.env.vulkan || len(w) < 3 {
		return
	}
	ld := s.defInst(w[2])
	if ld == nil || ld.Op != spirv.OpLoad {
		return
	}
	if v := s.defInst(ld.Words[2]); v != nil && v.Op == spirv.OpVariable && spirv.StorageClass(v.Words[2]) == spirv.StorageClassTileAttachmentQCOM {
		s.fail(i, "qcom.tile-attachment", "[VUID-StandaloneSpirv-TileAttachmentQCOM-10697] Any variable in the TileAttachmentQCOM Storage Class must not be consumed by an OpImageQuery* instruction")
	}
}

// checkTileAttachment: in Vulkan, "OpTypeImage variables in the
// TileAttachmentQCOM Storage Class must have Dim equal to 2D" (-10693),
// "must Sampled equal to 1 or 2" (-10694); "Any variable in the
// TileAttachmentQCOM Storage Class must be decorated with DescriptorSet
// and Binding" (-10695) and "must not be decorated with Component
// decoration" (-10696).
func (s *state) checkTileAttachment(i int) {
	w := s.m.Insts[i].Words
	if !s.env.vulkan || spirv.StorageClass(w[2]) != spirv.StorageClassTileAttachmentQCOM {
		return
	}
	if pt := s.types[w[0]]; pt.is(spirv.OpTypePointer) {
		if img := s.defInst(pt.Elem); img != nil && img.Op == spirv.OpTypeImage {
			switch {
			case spirv.Dim(img.Words[2]) != spirv.Dim2D:
				s.fail(i, "qcom.tile-attachment", "[VUID-StandaloneSpirv-OpTypeImage-10693] Any OpTypeImage variable in the TileAttachmentQCOM Storage Class must have 2D as its dimension")
				return
			case img.Words[6] != 1 && img.Words[6] != 2:
				s.fail(i, "qcom.tile-attachment", "[VUID-StandaloneSpirv-OpTypeImage-10694] Any OpTypeImage variable in the TileAttachmentQCOM Storage Class must have 1 or 2 as Image 'Sampled' parameter")
				return
			}
		}
	}
	switch {
	case !s.hasDecoration(w[1], spirv.DecorationDescriptorSet) || !s.hasDecoration(w[1], spirv.DecorationBinding):
		s.fail(i, "qcom.tile-attachment", "[VUID-StandaloneSpirv-TileAttachmentQCOM-10695] Any variable in the TileAttachmentQCOM Storage Class must be decorated with DescriptorSet and Binding")
	case s.hasDecoration(w[1], spirv.DecorationComponent):
		s.fail(i, "qcom.tile-attachment", "[VUID-StandaloneSpirv-TileAttachmentQCOM-10696] Any variable in the TileAttachmentQCOM Storage Class must not be decorated with Component decoration")
	}
}

// checkTileShadingModes: in Vulkan, "TileShadingQCOM capability must not
// be enabled in any stage other than compute or fragment" (-10686),
// "NonCoherentTileAttachmentReadQCOM must not be used in any stage other
// than fragment" (-10687), "TileShadingRateQCOM must not be used in any
// stage other than compute" (-10688), each of those modes needs the
// TileShadingQCOM capability (-10690, -10691), and "If the
// TileShadingRateQCOM Execution Mode is used, LocalSize and LocalSizeId
// must not be specified" (-10692).
func (s *state) checkTileShadingModes(i int) {
	if !s.env.vulkan {
		return
	}
	w := s.m.Insts[i].Words
	model := spirv.ExecutionModel(w[0])
	modes := s.modesOf(w[1])
	has := func(m spirv.ExecutionMode) bool { return slices.Contains(modes, m) }
	tile := s.hasCap(spirv.CapabilityTileShadingQCOM)
	rate, nonCoherent := has(spirv.ExecutionModeTileShadingRateQCOM), has(spirv.ExecutionModeNonCoherentTileAttachmentReadQCOM)
	switch {
	case rate && model != spirv.ExecutionModelGLCompute:
		s.fail(i, "qcom.tile-shading", "[VUID-StandaloneSpirv-Execution-10688] The TileShadingRateQCOM execution mode must not be used in any stage other than compute.")
	case nonCoherent && model != spirv.ExecutionModelFragment:
		s.fail(i, "qcom.tile-shading", "[VUID-StandaloneSpirv-Execution-10687] The NonCoherentTileAttachmentQCOM execution mode must not be used in any stage other than fragment.")
	case tile && model != spirv.ExecutionModelGLCompute && model != spirv.ExecutionModelFragment:
		s.fail(i, "qcom.tile-shading", "[VUID-StandaloneSpirv-TileShadingQCOM-10686] The TileShadingQCOM capability must not be enabled in any stage other than compute or fragment.")
	case rate && !tile:
		s.fail(i, "qcom.tile-shading", "[VUID-StandaloneSpirv-TileShadingRateQCOM-10691] If the TileShadingRateQCOM execution mode is used, the TileShadingQCOM capability must be enabled.")
	case nonCoherent && !tile:
		s.fail(i, "qcom.tile-shading", "[VUID-StandaloneSpirv-NonCoherentTileAttachmentReadQCOM-10690] If the NonCoherentTileAttachmentReadQCOM execution mode is used, the TileShadingQCOM capability must be enabled.")
	case rate && (has(spirv.ExecutionModeLocalSize) || has(spirv.ExecutionModeLocalSizeId)):
		s.fail(i, "qcom.tile-shading", "[VUID-StandaloneSpirv-TileShadingRateQCOM-10692] If the TileShadingRateQCOM execution mode is used, LocalSize and LocalSizeId must not be specified.")
	}
}

// checkTileShadingRate: the TileShadingRateQCOM execution mode's x and y
// rates are powers of two (paraphrased, no local copy).
func (s *state) checkTileShadingRate(i int) {
	w := s.m.Insts[i].Words
	if !s.env.vulkan || spirv.ExecutionMode(w[1]) != spirv.ExecutionModeTileShadingRateQCOM || len(w) < 4 {
		return
	}
	if w[2]&(w[2]-1) != 0 || w[3]&(w[3]-1) != 0 {
		s.fail(i, "qcom.tile-shading-rate", "The TileShadingRateQCOM execution mode's x and y values must be powers of 2.")
	}
}

// isQCOMElement reports whether t is a 32-bit integer or float or a
// 16-bit float: the element types the array conversions move.
func isQCOMElement(t *Type) bool {
	return t.is(spirv.OpTypeInt) && t.Width == 32 || t.is(spirv.OpTypeFloat) && t.Encoding < 0 && (t.Width == 32 || t.Width == 16)
}

// subgroupScoped: a QCOM conversion's matrix has Subgroup scope (a
// specialization constant scope matches).
func (s *state) subgroupScoped(t *Type) bool {
	v, ok := s.constValue(t.Scope)
	return !ok || spirv.Scope(v) == spirv.ScopeSubgroup
}

// checkConstructCoopMatQCOM: OpCompositeConstructCoopMatQCOM builds a
// Subgroup OpTypeCooperativeMatrixKHR from an array of its component type,
// or of 32-bit unsigned integers packing them.
func (s *state) checkConstructCoopMatQCOM(i int) {
	in := &s.m.Insts[i]
	rt := s.types[in.Words[0]]
	src := s.valueType(in.Words[2])
	switch {
	case !rt.is(spirv.OpTypeCooperativeMatrixKHR):
		s.fail(i, "qcom.coopmat", "Opcode %s requires the result type be OpTypeCooperativeMatrixKHR", in.Op.String()[2:])
	case !src.is(spirv.OpTypeArray):
		s.fail(i, "qcom.coopmat", "Opcode %s requires the input operand be an OpTypeArray.", in.Op.String()[2:])
	case !s.subgroupScoped(rt):
		s.fail(i, "qcom.coopmat", "Opcode %s requires the result type's scope be Subgroup.", in.Op.String()[2:])
	case src.Elem != rt.Elem && !s.isUint32(src.Elem):
		s.fail(i, "qcom.coopmat", "Opcode %s requires ether the input element type is equal to the result element type or it is the unsigned 32-bit integer.", in.Op.String()[2:])
	default:
		s.checkCoopMatArrayShapeQCOM(i, rt, src, true)
	}
}

// checkCoopMatArrayShapeQCOM: the array a QCOM conversion builds a matrix
// from, or takes it apart into, is one row of an A matrix (whose rows
// have 256 bits: 32 8-bit integers, 16 16-bit or 8 32-bit floats), one
// column of a B matrix (as many elements), or one row of an accumulator
// (32-bit integers, 16- or 32-bit floats); the array holds those elements
// themselves or, as 32-bit unsigned integers, packed: 8 words of an A or
// B row, and one word per 32-bit or two 16-bit elements of an accumulator
// row (SPV_QCOM_cooperative_matrix_conversion, paraphrased, no local
// copy). A dimension or length that is a specialization constant is not
// compared.
func (s *state) checkCoopMatArrayShapeQCOM(i int, mat, arr *Type, construct bool) {
	name := s.m.Insts[i].Op.String()[2:]
	use, ok := s.constValue(mat.Use)
	if !ok || use > uint64(spirv.CooperativeMatrixUseMatrixAccumulatorKHR) {
		return
	}
	elt := s.types[mat.Elem]
	packed := s.isUint32(arr.Elem)
	same := arr.Elem == mat.Elem
	role, whose := "result", "result coopmat's"
	if !construct {
		role, whose = "source", "source coopmat's"
	}
	useName := [...]string{"MatrixAKHR", "MatrixBKHR", "MatrixAccumulatorKHR"}[use]
	isFloat := func(w uint32) bool { return elt.is(spirv.OpTypeFloat) && elt.Width == w }
	if use == uint64(spirv.CooperativeMatrixUseMatrixAccumulatorKHR) {
		if !(elt.is(spirv.OpTypeInt) && elt.Width == 32) && !isFloat(32) && !isFloat(16) {
			s.fail(i, "qcom.coopmat.shape", "Opcode %s requires the %s element type be one of 32-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when %s use is MatrixAccumulatorKHR", name, role, whose)
			return
		}
		cols, ok1 := s.constValue(mat.Cols)
		n, ok2 := arr.Count, arr.CountKnown
		if !ok1 || !ok2 {
			return
		}
		packedLen := cols
		if isFloat(16) {
			packedLen = cols / 2
		}
		if !(packed && n == packedLen) && !((construct || same) && n == cols) {
			s.fail(i, "qcom.coopmat.shape", "Opcode %s requires the array length be the number of columns of the matrix, or, for unsigned 32-bit OpTypeInt elements packing a 16-bit OpTypeFloat matrix, half of it, when %s use is MatrixAccumulatorKHR", name, whose)
		}
		return
	}
	if !(elt.is(spirv.OpTypeInt) && elt.Width == 8) && !isFloat(32) && !isFloat(16) {
		s.fail(i, "qcom.coopmat.shape", "Opcode %s requires the %s element type be one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when %s use is %s", name, role, whose, useName)
		return
	}
	dimID, dimName := mat.Cols, "columns"
	if use == uint64(spirv.CooperativeMatrixUseMatrixBKHR) {
		dimID, dimName = mat.Rows, "rows"
	}
	d, ok := s.constValue(dimID)
	if !ok {
		return
	}
	if uint64(elt.Width)*d != 256 {
		s.fail(i, "qcom.coopmat.shape", "Opcode %s requires the %s of the %s coopmat have the bit length of 256 when %s use is %s", name, dimName, role, whose, useName)
		return
	}
	if !arr.CountKnown {
		return
	}
	if n := arr.Count; !(packed && n == 8) && !((construct || same) && n == d) {
		s.fail(i, "qcom.coopmat.shape", "Opcode %s requires the array length be 8 if its element type is 32-bit unsigned OpTypeInt and the matrix's number of %s otherwise when %s use is %s", name, dimName, whose, useName)
	}
}

// checkExtractCoopMatQCOM: OpCompositeExtractCoopMatQCOM takes a Subgroup
// OpTypeCooperativeMatrixKHR apart into an array of its component type, or
// of 32-bit unsigned integers packing them.
func (s *state) checkExtractCoopMatQCOM(i int) {
	in := &s.m.Insts[i]
	rt := s.types[in.Words[0]]
	src := s.valueType(in.Words[2])
	switch {
	case !rt.is(spirv.OpTypeArray):
		s.fail(i, "qcom.coopmat", "Opcode %s requires the input operand be an OpTypeArray.", in.Op.String()[2:])
	case !src.is(spirv.OpTypeCooperativeMatrixKHR):
		s.fail(i, "qcom.coopmat", "Opcode %s requires the source type be OpTypeCooperativeMatrixKHR", in.Op.String()[2:])
	case !s.subgroupScoped(src):
		s.fail(i, "qcom.coopmat", "Opcode %s requires the source type's scope be Subgroup.", in.Op.String()[2:])
	case rt.Elem != src.Elem && !s.isUint32(rt.Elem):
		s.fail(i, "qcom.coopmat", "Opcode %s requires either the result element type be the same as the source cooperative matrix's component type or the result element type be unsigned 32-bit OpTypeInt", in.Op.String()[2:])
	default:
		s.checkCoopMatArrayShapeQCOM(i, src, rt, false)
	}
}

func (s *state) isUint32(id uint32) bool {
	t := s.types[id]
	return t.is(spirv.OpTypeInt) && t.Width == 32 && !t.Signed
}

// checkExtractSubArrayQCOM: OpExtractSubArrayQCOM takes an array of the
// result's element type (a 32-bit integer or float or a 16-bit float)
// apart from a 32-bit integer start index.
func (s *state) checkExtractSubArrayQCOM(i int) {
	in := &s.m.Insts[i]
	rt := s.types[in.Words[0]]
	src := s.valueType(in.Words[2])
	switch {
	case !rt.is(spirv.OpTypeArray) || !src.is(spirv.OpTypeArray):
		s.fail(i, "qcom.array", "Opcode %s requires OpTypeArray operands for the input and the result.", in.Op.String()[2:])
	case rt.Elem != src.Elem:
		s.fail(i, "qcom.array", "Opcode %s requires the input and result element types match.", in.Op.String()[2:])
	case !isQCOMElement(s.types[src.Elem]):
		s.fail(i, "qcom.array", "Opcode %s requires the element type be one of 32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit OpTypeFloat", in.Op.String()[2:])
	case !s.isIntScalar32(in.Words[3]):
		s.fail(i, "qcom.array", "Opcode %s requires the type of the start index operand be 32-bit OpTypeInt", in.Op.String()[2:])
	}
}

// checkBitCastArrayQCOM: OpBitCastArrayQCOM reinterprets an array of
// 32-bit integers or floats or 16-bit floats as another of as many bits.
func (s *state) checkBitCastArrayQCOM(i int) {
	in := &s.m.Insts[i]
	rt := s.types[in.Words[0]]
	src := s.valueType(in.Words[2])
	switch {
	case !rt.is(spirv.OpTypeArray) || !src.is(spirv.OpTypeArray):
		s.fail(i, "qcom.array", "Opcode %s requires OpTypeArray operands for the input and the result.", in.Op.String()[2:])
	case !isQCOMElement(s.types[src.Elem]):
		s.fail(i, "qcom.array", "Opcode %s requires the source element type be one of 32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit OpTypeFloat", in.Op.String()[2:])
	case !isQCOMElement(s.types[rt.Elem]):
		s.fail(i, "qcom.array", "Opcode %s requires the result element type be one of 32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit OpTypeFloat", in.Op.String()[2:])
	case src.CountKnown && rt.CountKnown && src.Count*uint64(s.types[src.Elem].Width) != rt.Count*uint64(s.types[rt.Elem].Width):
		s.fail(i, "qcom.array", "Opcode %s requires source and result types be compatible for conversion.", in.Op.String()[2:])
	}
}

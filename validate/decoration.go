package validate

import (
	"slices"

	"github.com/coopshader/coop/spirv"
)

// checkDecorations collects the decorations by target and checks their
// forms (SPIR-V 3.56.5 Annotation Instructions): OpMemberDecorate names a
// structure type and one of its members; Block and BufferBlock decorate
// structure types; each decoration applies to its kind of target, once;
// decoration groups are expanded.
func (s *state) checkDecorations() {
	groups := map[uint32][]decoration{}
	var strided []uint32 // arrays with ArrayStride or ArrayStrideIdEXT
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		w := in.Words
		switch in.Op {
		case spirv.OpDecorate, spirv.OpDecorateId, spirv.OpDecorateString:
			d := decoration{dec: spirv.Decoration(w[1]), args: w[2:], inst: i}
			// OpDecorateId: "All such <id> Extra Operands must be
			// constant instructions or OpVariable instructions" of a
			// decoration taking <id>s (SPIR-V 3.56.5, paraphrased).
			if in.Op == spirv.OpDecorateId && !takesIDs(d.dec) {
				s.fail(i, "decoration.id", "Decorations that don't take ID parameters may not be used with OpDecorateId")
				return
			}
			if g := s.defInst(w[0]); g != nil && g.Op == spirv.OpDecorationGroup {
				groups[w[0]] = append(groups[w[0]], d)
				continue
			}
			if !repeatable(d.dec) && s.hasDecoration(w[0], d.dec) {
				s.fail(i, "decoration.duplicate", "ID '%d' decorated with %s multiple times is not allowed.", w[0], decName(d.dec))
				return
			}
			s.decor[w[0]] = append(s.decor[w[0]], d)
			if s.checkDecorationTarget(i, w[0], d.dec); s.err != nil {
				return
			}
			if s.checkIdDecoration(i, w[0], d.dec, d.args, false); s.err != nil {
				return
			}
			switch d.dec {
			case spirv.DecorationBlock, spirv.DecorationBufferBlock:
				if !s.types[w[0]].is(spirv.OpTypeStruct) {
					s.fail(i, "decoration.block", "%s decoration on a non-struct type.", decName(d.dec))
					return
				}
			case spirv.DecorationSaturatedToLargestFloat8NormalConversionEXT:
				if s.checkSaturatedFP8(i, w[0]); s.err != nil {
					return
				}
			case spirv.DecorationArrayStride:
				t := s.types[w[0]]
				if t == nil || (t.Op != spirv.OpTypeArray && t.Op != spirv.OpTypeRuntimeArray && t.Op != spirv.OpTypePointer &&
					t.Op != spirv.OpTypeUntypedPointerKHR && t.Op != spirv.OpTypeNodePayloadArrayAMDX) {
					s.fail(i, "decoration.array-stride", "ArrayStride decoration on <id> '%d', which is not an array or pointer type.", w[0])
					return
				}
				if len(d.args) > 0 && d.args[0] == 0 {
					s.fail(i, "decoration.array-stride", "ArrayStride of <id> '%d' must be greater than 0.", w[0])
					return
				}
				strided = append(strided, w[0])
			case spirv.DecorationArrayStrideIdEXT:
				strided = append(strided, w[0])
			}
		case spirv.OpMemberName:
			// OpMemberName: "'Type' is the <id> of an OpTypeStruct";
			// 'Member' is one of its members.
			t := s.types[w[0]]
			if !t.is(spirv.OpTypeStruct) {
				s.fail(i, "debug.member-name", "OpMemberName Type <id> '%d' is not a struct type.", w[0])
				return
			}
			if w[1] >= uint32(len(t.Members)) {
				s.fail(i, "debug.member-name", "OpMemberName Member <id> '%d' index is larger than Type <id> '%d's member count.", w[1], w[0])
				return
			}
		case spirv.OpMemberDecorate, spirv.OpMemberDecorateString, spirv.OpMemberDecorateIdEXT:
			t := s.types[w[0]]
			if !t.is(spirv.OpTypeStruct) {
				s.fail(i, "decoration.member", "%s Structure type <id> '%d' is not a struct type.", in.Op, w[0])
				return
			}
			if w[1] >= uint32(len(t.Members)) {
				s.fail(i, "decoration.member", "Index %d provided in %s for struct <id> '%d' is out of bounds. The structure has %d members. Largest valid index is %d.",
					w[1], in.Op, w[0], len(t.Members), len(t.Members)-1)
				return
			}
			d := spirv.Decoration(w[2])
			// OpMemberDecorateIdEXT (SPV_EXT_descriptor_heap, paraphrased,
			// no local copy) exists for OffsetIdEXT: a member's offset given
			// by a constant.
			if in.Op == spirv.OpMemberDecorateIdEXT && d != spirv.DecorationOffsetIdEXT {
				if d == spirv.DecorationArrayStrideIdEXT {
					s.fail(i, "decoration.member-id", "ArrayStrideIdEXT could only be directly applied to array type using OpDecorateId.")
				} else {
					s.fail(i, "decoration.member-id", "Decoration operand could only be OffsetIdEXT.")
				}
				return
			}
			if !repeatable(d) && s.memberHasDecoration(w[0], w[1], d) {
				s.fail(i, "decoration.duplicate", "ID '%d', member '%d' decorated with %s multiple times is not allowed.", w[0], w[1], decName(d))
				return
			}
			if notMemberDecoration(d) {
				// Each decoration's "Apply to" (SPIR-V 3.20) names no
				// structure member.
				s.fail(i, "decoration.member", "%s cannot be applied to structure members", decName(d))
				return
			}
			if s.checkIdDecoration(i, w[0], d, w[3:], true); s.err != nil {
				return
			}
			s.memberDec[w[0]] = append(s.memberDec[w[0]], memberDecoration{member: w[1], dec: d, args: w[3:], inst: i})
		case spirv.OpGroupDecorate:
			for _, t := range w[1:] {
				s.decor[t] = append(s.decor[t], groups[w[0]]...)
			}
		case spirv.OpGroupMemberDecorate:
			for k := 1; k+1 < len(w); k += 2 {
				for _, d := range groups[w[0]] {
					s.memberDec[w[k]] = append(s.memberDec[w[k]], memberDecoration{member: w[k+1], dec: d.dec, args: d.args, inst: i})
				}
			}
		}
	}
	s.checkBlockArrayStride(strided)
}

// checkBlockArrayStride: an array of blocks is an array of descriptors,
// which has no layout in memory: "an array of Block- or BufferBlock-
// decorated structures must not have an ArrayStride decoration" (SPIR-V
// 2.18.2, paraphrased; ArrayStrideIdEXT likewise). Reported at the first
// such array type, as the decorations may come in any order.
func (s *state) checkBlockArrayStride(strided []uint32) {
	if !s.hasCap(spirv.CapabilityShader) {
		return
	}
	first := -1
	for _, a := range strided {
		t := s.types[a]
		if !t.is(spirv.OpTypeArray) && !t.is(spirv.OpTypeRuntimeArray) {
			continue
		}
		if !s.hasDecoration(t.Elem, spirv.DecorationBlock) && !s.hasDecoration(t.Elem, spirv.DecorationBufferBlock) {
			continue
		}
		if k := s.defIndex(a); first < 0 || k < first {
			first = k
		}
	}
	if first >= 0 {
		s.fail(first, "decoration.array-stride.block", "Array containing a Block or BufferBlock must not be decorated with ArrayStride or ArrayStrideIdEXT")
	}
}

func decName(d spirv.Decoration) string {
	if e := spirv.KindDecoration.Enumerant(uint32(d)); e != nil {
		return e.Name
	}
	return "Decoration"
}

// hasDecoration reports whether id carries decoration d.
func (s *state) hasDecoration(id uint32, d spirv.Decoration) bool {
	for _, x := range s.decor[id] {
		if x.dec == d {
			return true
		}
	}
	return false
}

// decorationArg returns the first literal of decoration d on id.
func (s *state) decorationArg(id uint32, d spirv.Decoration) (uint32, bool) {
	for _, x := range s.decor[id] {
		if x.dec == d && len(x.args) > 0 {
			return x.args[0], true
		}
	}
	return 0, false
}

// memberDecorationArg returns the first literal of decoration d on member
// m of struct id.
func (s *state) memberDecorationArg(id, m uint32, d spirv.Decoration) (uint32, bool) {
	for _, x := range s.memberDec[id] {
		if x.member == m && x.dec == d && len(x.args) > 0 {
			return x.args[0], true
		}
	}
	return 0, false
}

func (s *state) memberHasDecoration(id, m uint32, d spirv.Decoration) bool {
	for _, x := range s.memberDec[id] {
		if x.member == m && x.dec == d {
			return true
		}
	}
	return false
}

// checkDecorationTarget: what a decoration applied with OpDecorate may
// decorate (SPIR-V 3.20 Decoration, each decoration's "Apply to"), and
// the decorations the Vulkan environment does not take.
func (s *state) checkDecorationTarget(i int, target uint32, d spirv.Decoration) {
	ti := s.defInst(target)
	if ti == nil {
		return
	}
	variable := ti.Op == spirv.OpVariable || ti.Op == spirv.OpUntypedVariableKHR
	name := decName(d)
	switch d {
	case spirv.DecorationRowMajor, spirv.DecorationColMajor, spirv.DecorationMatrixStride:
		// "Applies only to a member of a structure type."
		s.fail(i, "decoration.target", "%s can only be applied to structure members", name)
	case spirv.DecorationBinding, spirv.DecorationDescriptorSet, spirv.DecorationInvariant, spirv.DecorationConstant,
		spirv.DecorationLocation, spirv.DecorationIndex, spirv.DecorationInputAttachmentIndex:
		if !variable {
			s.fail(i, "decoration.target", "%s decoration on target <id> '%d' must be a variable", name, target)
			return
		}
		sc := spirv.StorageClass(ti.Words[2])
		switch {
		case s.env.vulkan && (d == spirv.DecorationBinding || d == spirv.DecorationDescriptorSet) &&
			sc != spirv.StorageClassStorageBuffer && sc != spirv.StorageClassUniform && sc != spirv.StorageClassUniformConstant &&
			sc != spirv.StorageClassTileAttachmentQCOM:
			// "If a variable is decorated by code:DescriptorSet or
			// code:Binding, the {StorageClass} must: correspond to an entry
			// in <<interfaces-resources-storage-class-correspondence, Shader
			// Resource and Storage Class Correspondence>>"
			// (VUID-StandaloneSpirv-DescriptorSet-06491).
			s.fail(i, "vulkan.decoration", "[VUID-StandaloneSpirv-DescriptorSet-06491] %s decoration on target <id> '%d' must be in the StorageBuffer, Uniform, or UniformConstant storage class", name, target)
		case s.env.vulkan && d == spirv.DecorationInvariant && sc != spirv.StorageClassInput && sc != spirv.StorageClassOutput:
			// "Variables decorated with code:Invariant ... must: be in the
			// code:Output or code:Input {StorageClass}"
			// (VUID-StandaloneSpirv-Invariant-04677).
			s.fail(i, "vulkan.decoration", "[VUID-StandaloneSpirv-Invariant-04677] Variable decorated with Invariant must only be identified with the Input or Output storage class in Vulkan environment.")
		}
	case spirv.DecorationNonReadable, spirv.DecorationNonWritable, spirv.DecorationNoPerspective, spirv.DecorationFlat,
		spirv.DecorationPatch, spirv.DecorationCentroid, spirv.DecorationSample, spirv.DecorationRestrict, spirv.DecorationAliased,
		spirv.DecorationVolatile, spirv.DecorationCoherent, spirv.DecorationXfbBuffer, spirv.DecorationXfbStride,
		spirv.DecorationComponent, spirv.DecorationStream, spirv.DecorationRestrictPointer, spirv.DecorationAliasedPointer,
		spirv.DecorationPerPrimitiveEXT:
		// Memory object declarations: variables, function parameters,
		// and the pointers OpRawAccessChainNV and OpBufferPointerEXT make.
		if !variable && ti.Op != spirv.OpFunctionParameter && ti.Op != spirv.OpRawAccessChainNV && ti.Op != spirv.OpBufferPointerEXT {
			s.fail(i, "decoration.target", "%s decoration on target <id> '%d' must be a memory object declaration", name, target)
			return
		}
		if (d == spirv.DecorationNonReadable || d == spirv.DecorationNonWritable) && (ti.Op == spirv.OpVariable || ti.Op == spirv.OpFunctionParameter) {
			s.checkAccessQualified(i, ti, d)
			return
		}
		// "The Flat, NoPerspective, Sample, and Centroid decorations
		// must not be used on variables with a storage class other than
		// Input or Output" (VUID-StandaloneSpirv-Flat-04670, paraphrased):
		// they say how a stage's outputs reach the next's inputs.
		switch d {
		case spirv.DecorationFlat, spirv.DecorationNoPerspective, spirv.DecorationCentroid, spirv.DecorationSample:
			if pt := s.types[ti.TypeID()]; s.env.vulkan && (pt.is(spirv.OpTypePointer) || pt.is(spirv.OpTypeUntypedPointerKHR)) &&
				pt.Storage != spirv.StorageClassInput && pt.Storage != spirv.StorageClassOutput {
				s.fail(i, "vulkan.decoration.interpolation", "[VUID-StandaloneSpirv-Flat-04670] %s decoration on target <id> '%d' storage class must be Input or Output", name, target)
			}
		}
	case spirv.DecorationSpecId:
		switch ti.Op {
		case spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse, spirv.OpSpecConstant, spirv.OpSpecConstantDataKHR:
		default:
			s.fail(i, "decoration.target", "SpecId decoration on target <id> '%d' must be OpSpecConstantTrue, OpSpecConstantFalse, OpSpecConstant, or OpSpecConstantDataKHR", target)
		}
	case spirv.DecorationBuiltIn:
		switch {
		case !variable && !isConstInst(ti.Op):
			s.fail(i, "decoration.target", "BuiltIns can only target variables, structure members or constants")
		case len(s.m.Insts[i].Words) > 2 && spirv.BuiltIn(s.m.Insts[i].Words[2]) == spirv.BuiltInWorkgroupSize && s.hasCap(spirv.CapabilityShader):
			// "WorkgroupSize ... If an object is decorated with the
			// WorkgroupSize decoration, this takes precedence over any
			// LocalSize or LocalSizeId execution mode": under Shader it is
			// a constant (SPIR-V 3.21 BuiltIn, paraphrased, no local copy).
			if !isConstInst(ti.Op) {
				s.fail(i, "decoration.target", "BuiltIn decoration on target <id> '%d' must be a constant for WorkgroupSize", target)
			}
		case !variable:
			s.fail(i, "decoration.target", "BuiltIn decoration on target <id> '%d' must be a variable", target)
		}
	case spirv.DecorationRelaxedPrecision:
		if ti.Op.Desc().Class == "Type-Declaration" {
			s.fail(i, "decoration.target", "RelaxPrecision decoration cannot be applied to a type")
		}
	case spirv.DecorationGLSLShared, spirv.DecorationGLSLPacked:
		if s.env.vulkan {
			// Vulkan "Validation Rules within a Module": "The GLSLShared
			// and GLSLPacked decorations must not be used."
			s.fail(i, "vulkan.decoration", "[VUID-StandaloneSpirv-GLSLShared-04669] OpDecorate decoration '%s' is not valid for the Vulkan execution environment.", name)
		} else if !s.types[target].is(spirv.OpTypeStruct) {
			s.fail(i, "decoration.target", "%s decoration on target <id> '%d' must be a structure type", name, target)
		}
	}
}

// checkIdDecoration: the <id> operands of ArrayStrideIdEXT and OffsetIdEXT
// (SPV_EXT_descriptor_heap) are 32-bit integer scalars defined before the
// type they decorate (its layout is known where it is declared),
// ArrayStrideIdEXT decorates an array type, and both lay out descriptors:
// OffsetIdEXT the members of a struct holding one (paraphrased, no local
// copy).
func (s *state) checkIdDecoration(i int, target uint32, d spirv.Decoration, args []uint32, member bool) {
	switch d {
	case spirv.DecorationArrayStrideIdEXT, spirv.DecorationOffsetIdEXT:
		if len(args) == 0 {
			return
		}
		if !s.isInt32Scalar(s.typeOf(args[0])) {
			s.fail(i, "decoration.id-operand", "%s extra operand must be a 32-bit int scalar type.", decName(d))
			return
		}
		if d == spirv.DecorationArrayStrideIdEXT && !s.types[target].is(spirv.OpTypeArray) && !s.types[target].is(spirv.OpTypeRuntimeArray) {
			s.fail(i, "decoration.array-stride", "ArrayStrideIdEXT decoration must only be applied to array types.")
			return
		}
		if d == spirv.DecorationOffsetIdEXT && member && !s.holdsDescriptor(s.types[target]) {
			s.fail(i, "decoration.offset-id", "OffsetIdEXT decoration in MemberDecorateIdEXT must only be applied to members of structs where the struct contains descriptor types.")
			return
		}
		if d == spirv.DecorationArrayStrideIdEXT && !s.holdsDescriptor(s.types[s.types[target].Elem]) {
			s.fail(i, "decoration.array-stride", "ArrayStrideIdEXT decoration must only be applied to array type containing a Descriptor type.")
			return
		}
	}
	// A decoration's <id> operands describe its target, so they are
	// defined before it ("the <id> ... must be declared before" the
	// target, SPIR-V 2.4 Logical Layout for OpDecorateId's operands,
	// paraphrased, no local copy).
	if op := s.m.Insts[i].Op; op != spirv.OpDecorateId && op != spirv.OpMemberDecorateIdEXT {
		return
	}
	ti := s.defIndex(target)
	for _, a := range args {
		if ti >= 0 && s.defIndex(a) >= ti {
			if member {
				s.fail(i, "decoration.id-operand", "All <id> Extra Operands must appear before Structure Type.")
			} else {
				s.fail(i, "decoration.id-operand", "Parameter <ID> '%d' must appear earlier in the binary than the target", a)
			}
			return
		}
	}
}

// isDescriptorType reports whether t is a descriptor type of
// SPV_EXT_descriptor_heap: a buffer, image, sampler, acceleration
// structure or tensor handle.
func isDescriptorType(t *Type) bool {
	if t == nil {
		return false
	}
	switch t.Op {
	case spirv.OpTypeBufferEXT, spirv.OpTypeImage, spirv.OpTypeTensorARM, spirv.OpTypeSampler, spirv.OpTypeAccelerationStructureKHR:
		return true
	}
	return false
}

// holdsDescriptor reports whether t is or holds (through components,
// elements, members and pointees) a descriptor type: the types whose size
// OpConstantSizeOfEXT gives, which an ArrayStrideIdEXT array steps over
// (SPV_EXT_descriptor_heap, paraphrased, no local copy).
func (s *state) holdsDescriptor(t *Type) bool {
	seen := map[uint32]bool{}
	var walk func(t *Type) bool
	walk = func(t *Type) bool {
		if t == nil || seen[t.ID] {
			return false
		}
		seen[t.ID] = true
		if isDescriptorType(t) {
			return true
		}
		switch t.Op {
		case spirv.OpTypeStruct:
			return slices.ContainsFunc(t.Members, func(m uint32) bool { return walk(s.types[m]) })
		case spirv.OpTypeFunction:
			return walk(s.types[t.Elem]) || slices.ContainsFunc(t.Members, func(m uint32) bool { return walk(s.types[m]) })
		case spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeVector, spirv.OpTypeVectorIdEXT, spirv.OpTypeMatrix,
			spirv.OpTypeSampledImage, spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV, spirv.OpTypePointer:
			return walk(s.types[t.Elem])
		}
		return false
	}
	return walk(t)
}

// checkAccessQualified: NonReadable and NonWritable qualify memory that
// is shared with the outside (paraphrased, no local copy of SPIR-V 3.20
// Decoration): a storage image or tensor handle, a uniform block or a
// storage buffer, a tile attachment; from SPIR-V 1.4 NonWritable also a
// Function or Private variable.
func (s *state) checkAccessQualified(i int, ti *spirv.Inst, d spirv.Decoration) {
	pt := s.types[ti.TypeID()]
	if !pt.is(spirv.OpTypePointer) {
		return
	}
	t := s.types[pt.Elem]
	for t.is(spirv.OpTypeArray) || t.is(spirv.OpTypeRuntimeArray) {
		t = s.types[t.Elem]
	}
	block := t.is(spirv.OpTypeStruct) && s.hasDecoration(t.ID, spirv.DecorationBlock)
	bufferBlock := t.is(spirv.OpTypeStruct) && s.hasDecoration(t.ID, spirv.DecorationBufferBlock)
	switch sc := pt.Storage; {
	case d == spirv.DecorationNonWritable && (sc == spirv.StorageClassFunction || sc == spirv.StorageClassPrivate) && s.m.Version >= spirv.MakeVersion(1, 4):
	case sc == spirv.StorageClassTileAttachmentQCOM:
	case sc == spirv.StorageClassUniform && (block || bufferBlock), sc == spirv.StorageClassStorageBuffer && block:
	case sc == spirv.StorageClassUniformConstant && t.is(spirv.OpTypeImage) && len(s.defInst(t.ID).Words) > 6 && s.defInst(t.ID).Words[6] == 2:
	case sc == spirv.StorageClassUniformConstant && t.is(spirv.OpTypeTensorARM):
	default:
		what := "or storage buffer"
		if d == spirv.DecorationNonWritable && s.m.Version >= spirv.MakeVersion(1, 4) {
			what = "storage buffer, or variable in Private or Function storage class"
		}
		s.fail(i, "decoration.target", "Target of %s decoration is invalid: must point to a storage image, tensor variable in UniformConstant storage class, uniform block, %s", decName(d), what)
	}
}

// takesIDs reports whether decoration d's extra operands are <id>s (the
// grammar's IdRef parameters).
func takesIDs(d spirv.Decoration) bool {
	e := spirv.KindDecoration.Enumerant(uint32(d))
	return e != nil && slices.ContainsFunc(e.Params, func(p spirv.OperandDesc) bool { return isIDKind(p.Kind) })
}

// repeatable reports whether a decoration may decorate one target more
// than once (SPIR-V 2.16.1: "It is invalid to decorate any given <id> or
// structure member more than one time with the same decoration, unless
// explicitly allowed below for a specific decoration": UserSemantic and
// UserTypeGOOGLE).
func repeatable(d spirv.Decoration) bool {
	return d == spirv.DecorationUserSemantic || d == spirv.DecorationUserTypeGOOGLE
}

// notMemberDecoration reports whether d applies to ids only, never to a
// structure member (SPIR-V 3.20 Decoration, "Apply to"). Restrict is left
// out: glslang writes it on members.
func notMemberDecoration(d spirv.Decoration) bool {
	switch d {
	case spirv.DecorationSpecId, spirv.DecorationBlock, spirv.DecorationBufferBlock, spirv.DecorationArrayStride,
		spirv.DecorationArrayStrideIdEXT, spirv.DecorationGLSLShared, spirv.DecorationGLSLPacked, spirv.DecorationCPacked,
		spirv.DecorationAliased, spirv.DecorationConstant, spirv.DecorationUniform, spirv.DecorationUniformId,
		spirv.DecorationSaturatedConversion, spirv.DecorationIndex, spirv.DecorationBinding, spirv.DecorationDescriptorSet,
		spirv.DecorationFuncParamAttr, spirv.DecorationFPRoundingMode, spirv.DecorationFPFastMathMode,
		spirv.DecorationLinkageAttributes, spirv.DecorationNoContraction, spirv.DecorationInputAttachmentIndex,
		spirv.DecorationAlignment, spirv.DecorationMaxByteOffset, spirv.DecorationAlignmentId, spirv.DecorationMaxByteOffsetId,
		spirv.DecorationNoSignedWrap, spirv.DecorationNoUnsignedWrap, spirv.DecorationNonUniform,
		spirv.DecorationRestrictPointer, spirv.DecorationAliasedPointer, spirv.DecorationCounterBuffer:
		return true
	}
	return false
}

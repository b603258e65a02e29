package validate

import (
	"github.com/coopshader/coop/spirv"
)

// checkTypes decodes every type declaration into s.types and checks the
// universal rules of SPIR-V 3.56.6 (Type-Declaration Instructions) with
// the widths each capability allows (SPIR-V 2.16.2), the component counts
// of vectors (Vector16, SPV_EXT_long_vector) and the operands that must be
// types. Cooperative types are checked by their families.
func (s *state) checkTypes() {
	var slab []Type
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		if in.Op == spirv.OpFunction {
			break
		}
		if isConstInst(in.Op) {
			s.recordConst(in)
			continue
		}
		if spirv.SectionOf(in.Op) != spirv.SecGlobal || in.Op.Desc().Class != "Type-Declaration" {
			continue
		}
		if in.Op == spirv.OpTypeForwardPointer {
			// "Pointer Type is a forward reference to the result of an
			// OpTypePointer ... Storage Class ... must match the storage
			// class of the OpTypePointer" (OpTypeForwardPointer); anything
			// else could make a type contain itself.
			d := s.defInst(in.Words[0])
			if d == nil || d.Op != spirv.OpTypePointer && d.Op != spirv.OpTypeUntypedPointerKHR {
				s.fail(i, "type.forward-pointer", "OpTypeForwardPointer Pointer Type <id> '%d' is not a pointer type.", in.Words[0])
				return
			}
			if d.Words[1] != in.Words[1] {
				s.fail(i, "type.forward-pointer", "Storage class in OpTypeForwardPointer does not match the pointer definition.")
				return
			}
			// A forward reference exists to let a struct hold a pointer to
			// itself: "Forward pointers must point to a structure"
			// (spirv-val; no local copy of the SPIR-V rule).
			if d.Op == spirv.OpTypePointer && s.envRules() {
				if p := s.defInst(d.Words[2]); p == nil || p.Op != spirv.OpTypeStruct {
					s.fail(i, "type.forward-pointer", "Forward pointers must point to a structure")
					return
				}
			}
			continue
		}
		w := in.Words
		if s.envRules() && s.duplicateType(i) {
			return
		}
		// Types come from a slab, 16 at a time: one allocation
		// each was most of a small module's.
		if len(slab) == cap(slab) {
			slab = make([]Type, 0, 16)
		}
		slab = append(slab, Type{ID: w[0], Op: in.Op, Encoding: -1})
		t := &slab[len(slab)-1]
		s.types[t.ID] = t
		switch in.Op {
		case spirv.OpTypeInt:
			t.Width, t.Signed = w[1], w[2] != 0
			s.checkIntType(i, t, w[2])
		case spirv.OpTypeFloat:
			t.Width = w[1]
			if len(w) > 2 {
				t.Encoding = int32(w[2])
			}
			s.checkFloatType(i, t)
		case spirv.OpTypeVector:
			t.Elem, t.Count, t.CountKnown = w[1], uint64(w[2]), true
			s.checkVectorType(i, t)
		case spirv.OpTypeBufferEXT:
			// SPV_EXT_descriptor_heap (paraphrased, no local copy): a
			// buffer of the heap is a storage or a uniform buffer.
			if sc := spirv.StorageClass(w[1]); sc != spirv.StorageClassStorageBuffer && sc != spirv.StorageClassUniform {
				s.fail(i, "type.buffer", "TypeBufferEXT StorageClass could only be StorageBuffer or Uniform.")
			}
		case spirv.OpTypeVectorIdEXT:
			t.Elem = w[1]
			t.Count, t.CountKnown = s.constValue(w[2])
			s.checkVectorIDType(i, t, w[2])
		case spirv.OpTypeMatrix:
			t.Elem, t.Count, t.CountKnown = w[1], uint64(w[2]), true
			s.checkMatrixType(i, t)
		case spirv.OpTypeArray:
			t.Elem = w[1]
			t.Count, t.CountKnown = s.constValue(w[2])
			s.checkArrayType(i, t, w[2])
		case spirv.OpTypeRuntimeArray:
			t.Elem = w[1]
			s.checkElemType(i, t, "Element Type")
		case spirv.OpTypeStruct:
			t.Members = w[1:]
			for k, m := range t.Members {
				mt := s.types[m]
				if mt == nil && !s.fwdPtr[m] {
					s.fail(i, "type.struct.member", "OpTypeStruct Member Type <id> '%d' is not a type.", m)
					return
				}
				if mt.is(spirv.OpTypeVoid) {
					s.fail(i, "type.struct.member", "OpTypeStruct Member %d may not be void.", k)
					return
				}
				if mt.is(spirv.OpTypeFunction) {
					s.fail(i, "type.function.use", "Invalid use of function type result id '%d'.", m)
					return
				}
			}
		case spirv.OpTypePointer:
			t.Storage, t.Elem = spirv.StorageClass(w[1]), w[2]
			if s.types[t.Elem] == nil && !s.fwdPtr[t.Elem] {
				s.fail(i, "type.pointer", "OpTypePointer Type <id> '%d' is not a type.", t.Elem)
			} else if s.types[t.Elem].is(spirv.OpTypeFunction) && s.envRules() && !s.hasCap(spirv.CapabilityFunctionPointersINTEL) {
				// Only SPV_INTEL_function_pointers points at functions.
				s.fail(i, "type.function.use", "Invalid use of function type result id '%d'.", t.Elem)
			}
		case spirv.OpTypeUntypedPointerKHR:
			t.Storage = spirv.StorageClass(w[1])
		case spirv.OpTypeFunction:
			t.Elem, t.Members = w[1], w[2:]
			if s.types[t.Elem] == nil {
				s.fail(i, "type.function", "OpTypeFunction Return Type <id> '%d' is not a type.", t.Elem)
				return
			}
			for k, p := range t.Members {
				pt := s.types[p]
				if pt == nil && !s.fwdPtr[p] {
					s.fail(i, "type.function", "OpTypeFunction Parameter Type <id> '%d' is not a type.", p)
					return
				}
				if pt.is(spirv.OpTypeVoid) {
					s.fail(i, "type.function", "OpTypeFunction Parameter %d may not be void.", k)
					return
				}
			}
		case spirv.OpTypeCooperativeMatrixKHR:
			t.Elem, t.Scope, t.Rows, t.Cols, t.Use = w[1], w[2], w[3], w[4], w[5]
		case spirv.OpTypeCooperativeMatrixNV:
			t.Elem, t.Scope, t.Rows, t.Cols = w[1], w[2], w[3], w[4]
		case spirv.OpTypeTensorLayoutNV, spirv.OpTypeTensorViewNV:
			t.Members = w[1:]
		case spirv.OpTypeImage, spirv.OpTypeSampledImage:
			t.Elem = w[1]
		}
		if s.err != nil {
			return
		}
	}
}

// duplicateType: "It is invalid to declare multiple nonaggregate,
// nonpointer type <id>s having the same opcode and operands" (SPIR-V 2.8
// Types and Variables).
func (s *state) duplicateType(i int) bool {
	in := &s.m.Insts[i]
	switch in.Op {
	case spirv.OpTypeStruct, spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypePointer, spirv.OpTypeUntypedPointerKHR,
		spirv.OpTypeForwardPointer, spirv.OpTypeFunction:
		return false
	}
	if s.typeKeys == nil {
		s.typeKeys = map[string]uint32{}
	}
	key := make([]byte, 0, 4*len(in.Words))
	key = append(key, byte(in.Op), byte(in.Op>>8))
	for _, x := range in.Words[1:] {
		key = append(key, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
	}
	if first, ok := s.typeKeys[string(key)]; ok {
		s.fail(i, "type.duplicate", "Duplicate non-aggregate type declarations are not allowed. Opcode: %s id: %d (the same as <id> '%d')", in.Op.String()[2:], in.Words[0], first)
		return true
	}
	s.typeKeys[string(key)] = in.Words[0]
	return false
}

func (s *state) checkIntType(i int, t *Type, signedness uint32) {
	if signedness > 1 {
		s.fail(i, "type.int.signedness", "OpTypeInt has invalid signedness: %d", signedness)
		return
	}
	if t.Width == 32 || !s.envRules() && (t.Width == 4 || t.Width == 8 || t.Width == 16 || t.Width == 64) {
		return
	}
	switch t.Width {
	case 8:
		if !s.anyCap([]spirv.Capability{spirv.CapabilityInt8, spirv.CapabilityStorageBuffer8BitAccess,
			spirv.CapabilityUniformAndStorageBuffer8BitAccess, spirv.CapabilityStoragePushConstant8}) {
			s.fail(i, "type.int.width", "Using an 8-bit integer type requires the Int8 capability, or an extension that explicitly enables 8-bit integers.")
		}
	case 16:
		if !s.anyCap([]spirv.Capability{spirv.CapabilityInt16, spirv.CapabilityStorageBuffer16BitAccess,
			spirv.CapabilityUniformAndStorageBuffer16BitAccess, spirv.CapabilityStoragePushConstant16,
			spirv.CapabilityStorageInputOutput16}) {
			s.fail(i, "type.int.width", "Using a 16-bit integer type requires the Int16 capability, or an extension that explicitly enables 16-bit integers.")
		}
	case 64:
		if !s.hasCap(spirv.CapabilityInt64) {
			s.fail(i, "type.int.width", "Using a 64-bit integer type requires the Int64 capability.")
		}
	case 4:
		// SPV_INTEL_int4: "If Int4TypeINTEL is declared then the 'Width'
		// operand of OpTypeInt may be 4."
		if !s.hasCap(spirv.CapabilityInt4TypeINTEL) {
			s.fail(i, "int4.type", "Using a 4-bit integer type requires the Int4TypeINTEL capability.")
		}
	default:
		s.fail(i, "type.int.width", "Invalid number of bits (%d) used for OpTypeInt.", t.Width)
	}
}

func (s *state) checkFloatType(i int, t *Type) {
	if !s.envRules() && (t.Encoding >= 0 || t.Width == 16 || t.Width == 64) {
		return // the encodings and widths need capabilities
	}
	if t.Encoding >= 0 {
		switch spirv.FPEncoding(t.Encoding) {
		case spirv.FPEncodingBFloat16KHR:
			s.checkBFloat16Type(i, t)
		case spirv.FPEncodingFloat8E4M3EXT, spirv.FPEncodingFloat8E5M2EXT:
			s.checkFloat8Type(i, t)
		}
		return
	}
	switch t.Width {
	case 32:
	case 16:
		if !s.anyCap([]spirv.Capability{spirv.CapabilityFloat16, spirv.CapabilityFloat16Buffer,
			spirv.CapabilityStorageBuffer16BitAccess, spirv.CapabilityUniformAndStorageBuffer16BitAccess,
			spirv.CapabilityStoragePushConstant16, spirv.CapabilityStorageInputOutput16}) {
			s.fail(i, "type.float.width", "Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an extension that explicitly enables 16-bit floating point.")
		}
	case 64:
		if !s.hasCap(spirv.CapabilityFloat64) {
			s.fail(i, "type.float.width", "Using a 64-bit floating point type requires the Float64 capability.")
		}
	default:
		s.fail(i, "type.float.width", "Invalid number of bits (%d) used for OpTypeFloat.", t.Width)
	}
}

// checkVectorType: the component type is a scalar numerical or Boolean
// type; 2, 3 or 4 components, 8 or 16 with Vector16, any positive count
// with LongVectorEXT (SPV_EXT_long_vector allows 1 and more than 4).
func (s *state) checkVectorType(i int, t *Type) {
	if s.scalar(t.Elem) == nil {
		s.fail(i, "type.vector.component", "OpTypeVector Component Type <id> '%d' is not a scalar type.", t.Elem)
		return
	}
	switch {
	case t.Count >= 2 && t.Count <= 4:
	case (t.Count == 8 || t.Count == 16) && s.hasCap(spirv.CapabilityVector16):
	case t.Count >= 1 && (s.hasCap(spirv.CapabilityLongVectorEXT) || !s.envRules()):
	default:
		s.fail(i, "type.vector.count", "Illegal number of components (%d) for OpTypeVector", t.Count)
	}
}

func (s *state) checkMatrixType(i int, t *Type) {
	col := s.types[t.Elem]
	if !col.is(spirv.OpTypeVector) {
		s.fail(i, "type.matrix.column", "Columns in a matrix must be of type vector.")
		return
	}
	if ct := s.types[col.Elem]; !ct.is(spirv.OpTypeFloat) {
		s.fail(i, "type.matrix.column", "Matrix types can only be parameterized with floating-point types.")
		return
	}
	// SPV_EXT_long_vector: "Matrix types must be parameterized only with
	// OpTypeVector having 2, 3, or 4 components."
	if col.Count < 2 || col.Count > 4 {
		s.fail(i, "longvector.matrix", "Matrix types can only be parameterized as having only 2, 3, or 4 columns (got a column of %d components).", col.Count)
		return
	}
	if t.Count < 2 || t.Count > 4 {
		s.fail(i, "type.matrix.columns", "Matrix types can only be parameterized as having only 2, 3, or 4 columns.")
	}
}

func (s *state) checkElemType(i int, t *Type, what string) {
	et := s.types[t.Elem]
	if et == nil && !s.fwdPtr[t.Elem] {
		s.fail(i, "type.element", "%s %s <id> '%d' is not a type.", t.Op, what, t.Elem)
		return
	}
	if et.is(spirv.OpTypeVoid) {
		s.fail(i, "type.element", "%s %s <id> '%d' is a void type.", t.Op, what, t.Elem)
	}
	if et.is(spirv.OpTypeFunction) {
		s.fail(i, "type.function.use", "Invalid use of function type result id '%d'.", t.Elem)
	}
	// A runtime array is only ever a block's last member in Vulkan, so no
	// array holds one: "OpTypeRuntimeArray must only be used for the last
	// member of a Block-decorated OpTypeStruct"
	// (VUID-StandaloneSpirv-OpTypeRuntimeArray-04680).
	if et.is(spirv.OpTypeRuntimeArray) && s.env.vulkan && s.envRules() {
		s.fail(i, "type.runtime-array.vulkan", "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] %s %s <id> '%d' is not valid in Vulkan environments.", t.Op, what, t.Elem)
	}
}

// checkArrayType: the length is a constant instruction of scalar integer
// type with a value of at least 1 (SPIR-V 3.56.6 OpTypeArray).
func (s *state) checkArrayType(i int, t *Type, length uint32) {
	if s.checkElemType(i, t, "Element Type"); s.err != nil {
		return
	}
	li := s.defInst(length)
	if li == nil || !isConstInst(li.Op) {
		s.fail(i, "type.array.length", "OpTypeArray Length <id> '%d' is not a scalar constant type.", length)
		return
	}
	lt := s.types[li.TypeID()]
	if !lt.is(spirv.OpTypeInt) {
		s.fail(i, "type.array.length", "OpTypeArray Length <id> '%d' is not a constant integer type.", length)
		return
	}
	if t.CountKnown {
		v := t.Count
		what := "default value"
		if s.opts.Spec != nil {
			what = "specialized value"
		}
		if lt.Signed && lt.Width < 64 && v>>(lt.Width-1)&1 != 0 || lt.Signed && lt.Width == 64 && int64(v) < 0 {
			s.fail(i, "type.array.length", "OpTypeArray Length <id> '%d' %s must be at least 1: found a negative value", length, what)
			return
		}
		if v == 0 {
			s.fail(i, "type.array.length", "OpTypeArray Length <id> '%d' %s must be at least 1: found 0", length, what)
		}
	}
}

// checkVectorIDType: OpTypeVectorIdEXT is a cooperative vector when the
// module declares CooperativeVectorNV and a long vector otherwise; both
// need a scalar component type and a positive 32-bit integer constant
// count (SPV_EXT_long_vector, SPV_NV_cooperative_vector OpTypeCooperativeVectorNV).
func (s *state) checkVectorIDType(i int, t *Type, count uint32) {
	if s.scalar(t.Elem) == nil {
		s.fail(i, "vector-id.component", "%s Component Type <id> '%d' is not a scalar type.", s.vecIDName(), t.Elem)
		return
	}
	ci := s.defInst(count)
	if ci == nil || !isConstInst(ci.Op) || !s.isInt32Scalar(ci.TypeID()) {
		s.fail(i, "vector-id.count", "%s Component Count <id> '%d' must be a constant instruction with scalar 32-bit integer type.", s.vecIDName(), count)
		return
	}
	if t.CountKnown && t.Count == 0 {
		s.fail(i, "vector-id.count", "%s Component Count <id> '%d' must be greater than zero.", s.vecIDName(), count)
	}
}

func (s *state) vecIDName() string {
	if s.isCoopVecModule() {
		return "OpTypeCooperativeVectorNV"
	}
	return "OpTypeVectorIdEXT"
}

// isCoopVecModule: OpTypeVectorIdEXT and OpTypeCooperativeVectorNV share
// an opcode; a module with the CooperativeVectorNV capability means the
// latter.
func (s *state) isCoopVecModule() bool { return s.hasCap(spirv.CapabilityCooperativeVectorNV) }

// isCoopVec reports whether t is a cooperative vector type.
func (s *state) isCoopVec(t *Type) bool { return t.is(spirv.OpTypeVectorIdEXT) && s.isCoopVecModule() }

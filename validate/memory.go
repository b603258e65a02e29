package validate

import (
	"github.com/coopshader/coop/spirv"
)

// checkMemory checks global variables, and every Scope <id> and Memory
// Semantics <id> operand.
func (s *state) checkMemory() {
	end := len(s.m.Insts)
	if len(s.funcs) > 0 {
		end = s.funcs[0].Index
	}
	used := s.entryPointGlobals()
	for i := 0; i < end; i++ {
		if s.m.Insts[i].Op == spirv.OpVariable {
			if spirv.StorageClass(s.m.Insts[i].Words[2]) == spirv.StorageClassFunction {
				s.fail(i, "variable.storage", "OpVariable Storage Class must not be Function outside a function.")
				return
			}
			if s.checkVariable(i); s.err != nil {
				return
			}
			if s.checkResourceVariable(i, used); s.err != nil {
				return
			}
		}
	}
	if s.checkBuiltIns(); s.err != nil {
		return
	}
	for i := range s.m.Insts {
		in := &s.m.Insts[i]
		for _, o := range s.operands(i) {
			switch o.Kind {
			case spirv.KindIdScope:
				s.checkScope(i, in.Words[o.Offset])
			case spirv.KindIdMemorySemantics:
				s.checkSemantics(i, in.Words[o.Offset])
			case spirv.KindMemoryAccess:
				// "Aligned ... followed by a literal ... which must be a
				// power of two" (SPIR-V 3.31 Memory Operands); Volatile,
				// the only bit before it, takes no operand.
				if m := in.Words[o.Offset]; m&uint32(spirv.MemoryAccessAligned) != 0 && o.Offset+1 < len(in.Words) {
					if a := in.Words[o.Offset+1]; a == 0 || a&(a-1) != 0 {
						s.fail(i, "memory.aligned", "Memory accesses Aligned operand value %d is not a power of two.", a)
					}
				}
			}
			if s.err != nil {
				return
			}
		}
		if in.Op == spirv.OpLoad || in.Op == spirv.OpStore {
			if s.checkPhysicalAlignment(i); s.err != nil {
				return
			}
		}
	}
}

// checkPhysicalAlignment: a load or store through a PhysicalStorageBuffer
// pointer says how aligned the address is: "Any pointer value whose
// storage class is PhysicalStorageBuffer and that points to ... must use
// the Aligned memory operand" (VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708),
// at least the size of the largest scalar accessed, as the pointer "must
// be at least as aligned as" it says (-06314; paraphrased).
func (s *state) checkPhysicalAlignment(i int) {
	in := &s.m.Insts[i]
	ptr, mask := in.Words[0], 2
	if in.Op == spirv.OpLoad {
		ptr, mask = in.Words[2], 3
	}
	pt := s.valueType(ptr)
	if !pt.is(spirv.OpTypePointer) || pt.Storage != spirv.StorageClassPhysicalStorageBuffer {
		return
	}
	if len(in.Words) <= mask || in.Words[mask]&uint32(spirv.MemoryAccessAligned) == 0 {
		s.fail(i, "memory.physical.aligned", "[VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708] Memory accesses with PhysicalStorageBuffer must use Aligned.")
		return
	}
	// Aligned's literal follows the operands of the lower bits (Volatile
	// has none).
	if len(in.Words) <= mask+1 {
		return
	}
	a := in.Words[mask+1]
	if l := s.largestScalar(s.types[pt.Elem]); uint64(a) < l {
		s.fail(i, "memory.physical.aligned", "[VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314] Memory accesses Aligned operand value %d is too small, the largest scalar type is %d bytes.", a, l)
	}
}

// largestScalar returns the size in bytes of the largest scalar in t
// (through vectors, arrays and structure members; a pointer counts as its
// 8 bytes, an opaque or cooperative type as 0).
func (s *state) largestScalar(t *Type) uint64 {
	var walk func(t *Type, depth int) uint64
	walk = func(t *Type, depth int) uint64 {
		if t == nil || depth > 64 {
			return 0
		}
		switch t.Op {
		case spirv.OpTypeInt, spirv.OpTypeFloat:
			return uint64(t.Width) / 8
		case spirv.OpTypePointer, spirv.OpTypeUntypedPointerKHR:
			return 8
		case spirv.OpTypeVector, spirv.OpTypeVectorIdEXT, spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeMatrix:
			return walk(s.types[t.Elem], depth+1)
		case spirv.OpTypeStruct:
			var m uint64
			for _, e := range t.Members {
				m = max(m, walk(s.types[e], depth+1))
			}
			return m
		}
		return 0
	}
	return walk(t, 0)
}

// checkVariable: the result type is a pointer of the variable's storage
// class (whose type says whether the target environment has it,
// checkPointerStorage), the initializer has the pointee type, and the
// pointee may live there (each family
// says where its types may be allocated).
func (s *state) checkVariable(i int) {
	w := s.m.Insts[i].Words
	sc := spirv.StorageClass(w[2])
	pt := s.types[w[0]]
	if !pt.is(spirv.OpTypePointer) {
		s.fail(i, "variable.type", "OpVariable Result Type <id> '%d' is not a pointer type.", w[0])
		return
	}
	if pt.Storage != sc {
		s.fail(i, "variable.storage", "Storage class must match result type storage class")
		return
	}
	if len(w) > 3 {
		init := s.defInst(w[3])
		if init == nil || init.TypeID() != pt.Elem {
			s.fail(i, "variable.initializer", "Initializer type must match the type pointed to by the Result Type")
			return
		}
	}
	t := s.types[pt.Elem]
	if s.checkPointerVariable(i, sc, t); s.err != nil {
		return
	}
	switch sc {
	case spirv.StorageClassFunction, spirv.StorageClassPrivate:
	default:
		// SPV_KHR_cooperative_matrix, SPV_NV_cooperative_vector:
		// "Cooperative matrix types (or types containing them) can only be
		// allocated in Function or Private storage classes."
		if c := s.contains(t, func(t *Type) bool { return isCoopMat(t) }); c != nil {
			s.fail(i, "coopmat.storage", "Cooperative matrix types (or types containing them) can only be allocated in Function or Private storage classes or as function parameters")
			return
		}
		if c := s.contains(t, s.isCoopVec); c != nil {
			s.fail(i, "coopvec.storage", "Cooperative vector types (or types containing them) can only be allocated in Function or Private storage classes or as function parameters")
			return
		}
		s.checkInt4Storage(i, t)
		if s.err != nil {
			return
		}
		s.checkLongVectorStorage(i, sc, t)
	}
}

// checkPointerVariable: a variable holding logical pointers (SPIR-V
// 2.16.1, paraphrased, no local copy): without VariablePointers or
// VariablePointersStorageBuffer "OpVariable cannot allocate an object
// whose type is or contains a logical pointer type"; with them, such a
// variable is in the Function or Private storage class and its pointers
// point into StorageBuffer (or, with VariablePointers, Workgroup).
// Physical storage buffer pointers are no logical pointers.
func (s *state) checkPointerVariable(i int, sc spirv.StorageClass, t *Type) {
	if s.addressing != spirv.AddressingModelLogical {
		return
	}
	p := s.contains(t, func(u *Type) bool {
		return u.Op == spirv.OpTypePointer && u.Storage != spirv.StorageClassPhysicalStorageBuffer
	})
	if p == nil {
		return
	}
	vp := s.hasCap(spirv.CapabilityVariablePointers)
	switch {
	case p.Storage != spirv.StorageClassStorageBuffer && p.Storage != spirv.StorageClassWorkgroup:
		s.fail(i, "variable.pointer", "In Logical addressing, variables can only allocate a pointer to the StorageBuffer or Workgroup storage classes")
	case p.Storage == spirv.StorageClassWorkgroup && !vp:
		s.fail(i, "variable.pointer", "In Logical addressing, variables can only allocate a workgroup pointer if the VariablePointers capability is declared")
	case !vp && !s.hasCap(spirv.CapabilityVariablePointersStorageBuffer):
		s.fail(i, "variable.pointer", "In Logical addressing, variables can only allocate a storage buffer pointer if the VariablePointersStorageBuffer capability is declared")
	case sc != spirv.StorageClassFunction && sc != spirv.StorageClassPrivate:
		s.fail(i, "variable.pointer", "In Logical addressing with variable pointers, variables that allocate pointers must be in Function or Private storage classes")
	}
}

func scName(sc spirv.StorageClass) string {
	if e := spirv.KindStorageClass.Enumerant(uint32(sc)); e != nil {
		return e.Name
	}
	return "unknown"
}

// contains returns the first type within t (t itself, components,
// elements, members; not through pointers) for which pred holds.
func (s *state) contains(t *Type, pred func(*Type) bool) *Type {
	seen := map[uint32]bool{}
	var walk func(t *Type) *Type
	walk = func(t *Type) *Type {
		if t == nil || seen[t.ID] {
			return nil
		}
		seen[t.ID] = true
		if pred(t) {
			return t
		}
		switch t.Op {
		case spirv.OpTypeVector, spirv.OpTypeVectorIdEXT, spirv.OpTypeMatrix, spirv.OpTypeArray, spirv.OpTypeRuntimeArray,
			spirv.OpTypeCooperativeMatrixKHR, spirv.OpTypeCooperativeMatrixNV:
			return walk(s.types[t.Elem])
		case spirv.OpTypeStruct:
			for _, m := range t.Members {
				if c := walk(s.types[m]); c != nil {
					return c
				}
			}
		}
		return nil
	}
	return walk(t)
}

// checkScope: a Scope <id> is a constant instruction of 32-bit integer type
// (SPV_KHR_cooperative_matrix relaxes "OpConstant" to "constant
// instruction"); a known value is a Scope, CrossDevice is not allowed in
// Vulkan and QueueFamily needs the Vulkan memory model (Vulkan 15.1.6).
func (s *state) checkScope(i int, id uint32) {
	d := s.defInst(id)
	if d == nil || !isConstInst(d.Op) {
		s.fail(i, "scope.constant", "%s: Scope <id> '%d' must be the result of a constant instruction", s.m.Insts[i].Op, id)
		return
	}
	if !s.isInt32Scalar(d.TypeID()) {
		s.fail(i, "scope.type", "%s: expected scope to be a 32-bit int", s.m.Insts[i].Op)
		return
	}
	// SPIR-V 2.16.2: "All <id> used for Scope <id> ... must be of an
	// OpConstant" under Shader; SPV_KHR_cooperative_matrix and
	// SPV_NV_cooperative_matrix allow any constant instruction.
	if s.hasCap(spirv.CapabilityShader) && d.Op != spirv.OpConstant && d.Op != spirv.OpConstantNull &&
		!s.hasCap(spirv.CapabilityCooperativeMatrixKHR) && !s.hasCap(spirv.CapabilityCooperativeMatrixNV) {
		s.fail(i, "scope.constant", "%s: Scope ids must be OpConstant when Shader capability is present", s.m.Insts[i].Op)
		return
	}
	v, known := s.constValue(id)
	if !known {
		return
	}
	if spirv.KindScope.Enumerant(uint32(v)) == nil || v > 0xffffffff {
		s.fail(i, "scope.value", "%s: Invalid scope value %d", s.m.Insts[i].Op, v)
		return
	}
	if s.env.vulkan {
		switch spirv.Scope(v) {
		case spirv.ScopeCrossDevice:
			s.fail(i, "vulkan.scope", "%s: in Vulkan environment, Scope cannot be CrossDevice", s.m.Insts[i].Op)
		case spirv.ScopeQueueFamily:
			if !s.hasCap(spirv.CapabilityVulkanMemoryModel) {
				s.fail(i, "vulkan.scope", "%s: Memory Scope QueueFamily requires capability VulkanMemoryModelKHR", s.m.Insts[i].Op)
			}
		}
	}
}

// checkSemantics: a Memory Semantics <id> is an OpConstant of 32-bit
// integer type (SPIR-V 2.16.2); at most one ordering bit is set; the
// Vulkan memory model does not take SequentiallyConsistent (SPIR-V 3.25).
func (s *state) checkSemantics(i int, id uint32) {
	d := s.defInst(id)
	op := s.m.Insts[i].Op
	if d == nil || !isConstInst(d.Op) {
		s.fail(i, "semantics.constant", "%s: Memory Semantics <id> '%d' must be the result of a constant instruction", op, id)
		return
	}
	if !s.isInt32Scalar(d.TypeID()) {
		s.fail(i, "semantics.type", "%s: expected Memory Semantics to be a 32-bit int", op)
		return
	}
	// SPIR-V 2.16.2: "All <id> used for ... Memory Semantics <id> must
	// be of an OpConstant" under Shader (SPV_KHR_cooperative_matrix keeps
	// it); SPV_NV_cooperative_matrix relaxes it to "the result of a
	// constant instruction".
	if s.hasCap(spirv.CapabilityShader) && d.Op != spirv.OpConstant && d.Op != spirv.OpConstantNull && !s.hasCap(spirv.CapabilityCooperativeMatrixNV) {
		s.fail(i, "semantics.constant", "%s: Memory Semantics ids must be OpConstant when Shader capability is present", op)
		return
	}
	v, known := s.constValue(id)
	if !known {
		return
	}
	order := spirv.MemorySemanticsAcquire | spirv.MemorySemanticsRelease | spirv.MemorySemanticsAcquireRelease | spirv.MemorySemanticsSequentiallyConsistent
	n := 0
	for b := spirv.MemorySemantics(1); b != 0; b <<= 1 {
		if spirv.MemorySemantics(v)&order&b != 0 {
			n++
		}
	}
	if n > 1 {
		s.fail(i, "semantics.order", "%s: Memory Semantics can have at most one of the following bits set: Acquire, Release, AcquireRelease or SequentiallyConsistent", op)
		return
	}
	// "code:MemorySemantics with code:SequentiallyConsistent memory order
	// must: not be used in the Vulkan API" (VUID-StandaloneSpirv-MemorySemantics-10866).
	if (s.memModel == spirv.MemoryModelVulkan || s.env.vulkan) && spirv.MemorySemantics(v)&spirv.MemorySemanticsSequentiallyConsistent != 0 {
		s.fail(i, "semantics.vulkan", "%s: SequentiallyConsistent memory semantics cannot be used with the VulkanKHR memory model or in the Vulkan API.", op)
	}
}

// isOpaqueHandle reports whether t is an opaque resource's handle type or
// an array of one.
func (s *state) isOpaqueHandle(t *Type) bool {
	if t.is(spirv.OpTypeArray) || t.is(spirv.OpTypeRuntimeArray) {
		t = s.types[t.Elem]
	}
	if t == nil {
		return false
	}
	switch t.Op {
	case spirv.OpTypeImage, spirv.OpTypeSampler, spirv.OpTypeSampledImage, spirv.OpTypeAccelerationStructureKHR, spirv.OpTypeTensorARM:
		return true
	}
	return false
}

// checkResourceVariable: the Vulkan interface rules of one global
// variable (Vulkan 15.6 "Shader Resource Interface", 15.8 "Push Constant
// Interface"): a storage buffer's, uniform buffer's or push constant's
// struct is a Block (a uniform one a Block or BufferBlock); a resource an
// entry point uses has a DescriptorSet and a Binding. Outside Vulkan, a
// Workgroup Block needs WorkgroupMemoryExplicitLayoutKHR
// (SPV_KHR_workgroup_memory_explicit_layout).
func (s *state) checkResourceVariable(i int, used map[uint32]bool) {
	w := s.m.Insts[i].Words
	id, sc := w[1], spirv.StorageClass(w[2])
	elem := s.types[s.types[w[0]].Elem]
	for elem.is(spirv.OpTypeArray) || elem.is(spirv.OpTypeRuntimeArray) {
		elem = s.types[elem.Elem]
	}
	block := elem != nil && s.hasDecoration(elem.ID, spirv.DecorationBlock)
	if sc == spirv.StorageClassWorkgroup && block && !s.hasCap(spirv.CapabilityWorkgroupMemoryExplicitLayoutKHR) {
		s.fail(i, "memory.workgroup-block", "Workgroup Storage Class variables can't be decorated with Block unless declaring the WorkgroupMemoryExplicitLayoutKHR capability.")
		return
	}
	if !s.env.vulkan {
		return
	}
	// "must: be decorated with either code:DescriptorSet and code:Binding,
	// or code:BuiltIn with code:SamplerHeapEXT or code:ResourceHeapEXT"
	// (VUID-StandaloneSpirv-UniformConstant-06677): a descriptor heap is
	// no buffer of its own; any other BuiltIn exempts nothing.
	if b, ok := s.decorationArg(id, spirv.DecorationBuiltIn); ok &&
		(spirv.BuiltIn(b) == spirv.BuiltInSamplerHeapEXT || spirv.BuiltIn(b) == spirv.BuiltInResourceHeapEXT) {
		return
	}
	// "Any variable in the code:Uniform or code:StorageBuffer
	// {StorageClass} must: be typed as code:OpTypeStruct or an array of
	// this type" (VUID-StandaloneSpirv-Uniform-06807); "Any variable in
	// the code:PushConstant {StorageClass} must: be typed as
	// code:OpTypeStruct" (VUID-StandaloneSpirv-PushConstant-06808).
	switch {
	case (sc == spirv.StorageClassUniform || sc == spirv.StorageClassStorageBuffer) && !elem.is(spirv.OpTypeStruct):
		s.fail(i, "vulkan.buffer-type", "[VUID-StandaloneSpirv-Uniform-06807] %s OpVariable <id> '%d' has illegal type.", scName(sc), id)
		return
	case sc == spirv.StorageClassPushConstant && !s.types[s.types[w[0]].Elem].is(spirv.OpTypeStruct):
		s.fail(i, "vulkan.buffer-type", "[VUID-StandaloneSpirv-PushConstant-06808] PushConstant OpVariable <id> '%d' has illegal type.", id)
		return
	case sc == spirv.StorageClassUniformConstant && !s.isOpaqueHandle(s.types[s.types[w[0]].Elem]):
		// "Any variable in the code:UniformConstant {StorageClass} must:
		// be typed as either code:OpTypeImage, code:OpTypeSampler,
		// code:OpTypeSampledImage, code:OpTypeAccelerationStructureKHR,
		// code:OpTypeTensorARM or an array of one of these types"
		// (VUID-StandaloneSpirv-UniformConstant-04655).
		s.fail(i, "vulkan.uniform-constant-type", "[VUID-StandaloneSpirv-UniformConstant-04655] UniformConstant OpVariable <id> '%d' has illegal type: Variables identified with the UniformConstant storage class are used only as handles to refer to opaque resources. Such variables must be typed as OpTypeImage, OpTypeSampler, OpTypeSampledImage, OpTypeAccelerationStructureKHR, OpTypeTensorARM, or an array of one of these types.", id)
		return
	}
	switch sc {
	case spirv.StorageClassStorageBuffer, spirv.StorageClassPushConstant:
		if elem.is(spirv.OpTypeStruct) && !block {
			s.fail(i, "vulkan.block", "[VUID-StandaloneSpirv-PushConstant-06675] %s id '%d' is missing Block decoration.", scName(sc), id)
			return
		}
	case spirv.StorageClassUniform:
		if elem.is(spirv.OpTypeStruct) && !block && !s.hasDecoration(elem.ID, spirv.DecorationBufferBlock) {
			s.fail(i, "vulkan.block", "[VUID-StandaloneSpirv-Uniform-06676] Uniform id '%d' is missing Block or BufferBlock decoration.", id)
			return
		}
	}
	switch sc {
	case spirv.StorageClassStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassUniformConstant:
		if !used[id] {
			return
		}
		for _, d := range []spirv.Decoration{spirv.DecorationDescriptorSet, spirv.DecorationBinding} {
			if !s.hasDecoration(id, d) {
				s.fail(i, "vulkan.binding", "[VUID-StandaloneSpirv-UniformConstant-06677] %s id '%d' is missing %s decoration.", scName(sc), id, decName(d))
				return
			}
		}
	}
}

// entryPointGlobals returns the global variables some entry point's call
// tree uses.
func (s *state) entryPointGlobals() map[uint32]bool {
	used := map[uint32]bool{}
	for _, ep := range s.entry {
		for _, v := range s.globalsUsed(ep) {
			used[v] = true
		}
	}
	return used
}

// pointerFreeClasses are the instruction classes of the grammar that
// compute on values: with logical pointers (SPIR-V 2.16.1, Logical
// addressing: "pointers ... may only be used as operands of" the memory
// instructions that take them; paraphrased, no local copy) none takes a
// pointer operand, but OpSelect (a variable pointer's, checked with the
// variable pointer rules) and OpCopyObject.
var pointerFreeClasses = []string{"Arithmetic", "Bit", "Relational_and_Logical", "Conversion", "Composite",
	"Non-Uniform", "Group", "Derivative"}

// pointerFreeReserved are the extension instructions the grammar classes
// "Reserved" that compute on values, assigned to the rule by hand: integer
// arithmetic (SPV_INTEL_shader_integer_functions2), dot products
// (SPV_VALVE_mixed_float_dot_product), conversions between handles and
// integers (SPV_NV_bindless_texture, SPV_KHR_ray_tracing), tensor layout
// and view updates (SPV_NV_tensor_addressing), fragment mask fetches
// (SPV_AMD_shader_fragment_mask), micromap fetches
// (SPV_NV_displacement_micromap), the NV cooperative matrix multiply, the
// ray tracing and mesh output instructions taking values, and the clock.
// The Reserved instructions left out take pointers (ray queries, hit
// objects, payloads, cooperative loads and stores) or no <id> operands.
var pointerFreeReserved = []spirv.Op{spirv.OpAbsISubINTEL, spirv.OpAbsUSubINTEL, spirv.OpIAddSatINTEL, spirv.OpUAddSatINTEL,
	spirv.OpIAverageINTEL, spirv.OpUAverageINTEL, spirv.OpIAverageRoundedINTEL, spirv.OpUAverageRoundedINTEL,
	spirv.OpISubSatINTEL, spirv.OpUSubSatINTEL, spirv.OpIMul32x16INTEL, spirv.OpUMul32x16INTEL,
	spirv.OpUCountLeadingZerosINTEL, spirv.OpUCountTrailingZerosINTEL,
	spirv.OpFDot2MixAcc16VALVE, spirv.OpFDot2MixAcc32VALVE, spirv.OpFDot4MixAcc32VALVE,
	spirv.OpConvertImageToUNV, spirv.OpConvertSampledImageToUNV, spirv.OpConvertSamplerToUNV, spirv.OpConvertUToImageNV,
	spirv.OpConvertUToSampledImageNV, spirv.OpConvertUToSamplerNV, spirv.OpConvertUToAccelerationStructureKHR,
	spirv.OpCreateTensorLayoutNV, spirv.OpCreateTensorViewNV, spirv.OpTensorLayoutSetBlockSizeNV, spirv.OpTensorLayoutSetClampValueNV,
	spirv.OpTensorLayoutSetDimensionNV, spirv.OpTensorLayoutSetStrideNV, spirv.OpTensorLayoutSliceNV, spirv.OpTensorViewSetClipNV,
	spirv.OpTensorViewSetDimensionNV, spirv.OpTensorViewSetStrideNV,
	spirv.OpFragmentFetchAMD, spirv.OpFragmentMaskFetchAMD,
	spirv.OpFetchMicroTriangleVertexBarycentricNV, spirv.OpFetchMicroTriangleVertexPositionNV,
	spirv.OpCooperativeMatrixMulAddNV, spirv.OpExecuteCallableNV, spirv.OpTraceNV, spirv.OpReportIntersectionKHR,
	spirv.OpReorderThreadWithHintNV, spirv.OpSetMeshOutputsEXT, spirv.OpWritePackedPrimitiveIndices4x8NV, spirv.OpReadClockKHR}

// memoryEach adds the family's rules (instructions.go lists the families).
func memoryEach(add func(spirv.Op, func(*state, int))) {
	for _, c := range pointerFreeClasses {
		for _, op := range spirv.OpsOfClass(c) {
			if op != spirv.OpSelect && op != spirv.OpCopyObject {
				add(op, (*state).checkNoLogicalPointerOperand)
			}
		}
	}
	for _, op := range pointerFreeReserved {
		add(op, (*state).checkNoLogicalPointerOperand)
	}
}

// checkNoLogicalPointerOperand: with the Logical or PhysicalStorageBuffer64
// addressing model, a value instruction takes no logical pointer (one not
// in PhysicalStorageBuffer memory) as an operand.
func (s *state) checkNoLogicalPointerOperand(i int) {
	if s.addressing != spirv.AddressingModelLogical && s.addressing != spirv.AddressingModelPhysicalStorageBuffer64 {
		return
	}
	in := &s.m.Insts[i]
	for _, o := range s.operands(i) {
		if o.Kind != spirv.KindIdRef {
			continue
		}
		for k := 0; k < o.Count; k++ {
			t := s.valueType(in.Words[o.Offset+k])
			if (t.is(spirv.OpTypePointer) || t.is(spirv.OpTypeUntypedPointerKHR)) && t.Storage != spirv.StorageClassPhysicalStorageBuffer {
				s.fail(i, "memory.logical-pointer", "Instruction may not have a logical pointer operand")
				return
			}
		}
	}
}

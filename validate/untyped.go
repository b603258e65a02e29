package validate

import "github.com/coopshader/coop/spirv"

// SPV_KHR_untyped_pointers (and SPV_EXT_descriptor_heap's use of them):
// untyped pointer types, untyped variables and untyped access chains.
// The extension's text is not among the local specifications; the rules
// are paraphrased from it and from the Vulkan environment's VUIDs.

// untypedChecks are the family's rules (instructions.go lists the families).
var untypedChecks = []opCheck{
	{spirv.OpTypeUntypedPointerKHR, (*state).checkUntypedPointerType},
	{spirv.OpUntypedVariableKHR, (*state).checkUntypedVariable},
	{spirv.OpUntypedAccessChainKHR, (*state).checkUntypedAccessChain},
	{spirv.OpUntypedInBoundsAccessChainKHR, (*state).checkUntypedAccessChain},
	{spirv.OpUntypedPtrAccessChainKHR, (*state).checkUntypedAccessChain},
	{spirv.OpUntypedInBoundsPtrAccessChainKHR, (*state).checkUntypedAccessChain},
	{spirv.OpBufferPointerEXT, (*state).checkBufferPointer},
	{spirv.OpConstantSizeOfEXT, (*state).checkConstantSizeOf},
}

// checkUntypedPointerType: in Vulkan an untyped pointer points into
// explicitly laid out memory (VUID-StandaloneSpirv-OpTypeUntypedPointerKHR-11417);
// Workgroup memory is laid out only with WorkgroupMemoryExplicitLayoutKHR,
// and UniformConstant and Image untyped pointers are descriptor heaps'
// (SPV_EXT_descriptor_heap, DescriptorHeapEXT).
func (s *state) checkUntypedPointerType(i int) {
	if !s.env.vulkan {
		return
	}
	switch sc := spirv.StorageClass(s.m.Insts[i].Words[1]); sc {
	case spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassPushConstant:
	case spirv.StorageClassWorkgroup:
		if !s.hasCap(spirv.CapabilityWorkgroupMemoryExplicitLayoutKHR) {
			s.fail(i, "untyped.pointer.workgroup", "Workgroup storage class untyped pointers in Vulkan require WorkgroupMemoryExplicitLayoutKHR be declared")
		}
	case spirv.StorageClassUniformConstant, spirv.StorageClassImage:
		if !s.hasCap(spirv.CapabilityDescriptorHeapEXT) {
			s.fail(i, "untyped.pointer.heap", "%s storage class untyped pointers in Vulkan require DescriptorHeapEXT be declared", scName(sc))
		}
	default:
		s.fail(i, "untyped.pointer.storage", "[VUID-StandaloneSpirv-OpTypeUntypedPointerKHR-11417] In Vulkan, untyped pointers can only be used in an explicitly laid out storage class")
	}
}

// checkUntypedVariable: OpUntypedVariableKHR's Result Type is an untyped
// pointer of the variable's Storage Class; Data Type, when present, is a
// type and is required for Function, Private and Workgroup variables; in
// Vulkan only a descriptor heap (a UniformConstant variable decorated
// BuiltIn SamplerHeapEXT or ResourceHeapEXT) may omit it
// (VUID-StandaloneSpirv-OpUntypedVariableKHR-11167, -11347).
func (s *state) checkUntypedVariable(i int) {
	w := s.m.Insts[i].Words
	pt := s.types[w[0]]
	if !pt.is(spirv.OpTypeUntypedPointerKHR) {
		s.fail(i, "untyped.variable.type", "Result type must be an untyped pointer")
		return
	}
	sc := spirv.StorageClass(w[2])
	if pt.Storage != sc {
		s.fail(i, "variable.storage", "Storage class must match result type storage class")
		return
	}
	if len(w) > 3 {
		if s.types[w[3]] == nil {
			s.fail(i, "untyped.variable.data-type", "Data type must be a type instruction")
		}
		return
	}
	switch sc {
	case spirv.StorageClassFunction, spirv.StorageClassPrivate, spirv.StorageClassWorkgroup:
		s.fail(i, "untyped.variable.data-type", "Data type must be specified for Function, Private, and Workgroup storage classes")
		return
	}
	if !s.env.vulkan {
		return
	}
	if sc != spirv.StorageClassUniformConstant {
		s.fail(i, "vulkan.untyped.variable", "[VUID-StandaloneSpirv-OpUntypedVariableKHR-11167] Storage class is %s, but Vulkan requires that Data Type be specified when not using UniformConstant storage class", scName(sc))
		return
	}
	heap := false
	for _, d := range s.decor[w[1]] {
		if d.dec == spirv.DecorationBuiltIn && len(d.args) > 0 &&
			(spirv.BuiltIn(d.args[0]) == spirv.BuiltInSamplerHeapEXT || spirv.BuiltIn(d.args[0]) == spirv.BuiltInResourceHeapEXT) {
			heap = true
		}
	}
	if !heap {
		s.fail(i, "vulkan.untyped.variable", "[VUID-StandaloneSpirv-OpUntypedVariableKHR-11347] Storage class is UniformConstant, but Vulkan requires that Data Type be specified if the variable is not decorated with SamplerHeapEXT or ResourceHeapEXT")
	}
}

// checkUntypedAccessChain: the Result Type is an untyped pointer, Base
// Type a type other than a pointer, Base a pointer of the result's
// storage class, and the Indexes integers walking Base Type (struct
// indices constants naming a member).
func (s *state) checkUntypedAccessChain(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	rt := s.types[w[0]]
	if !rt.is(spirv.OpTypeUntypedPointerKHR) {
		s.fail(i, "untyped.access-chain.result", "The Result Type of %s <id> '%d' must be OpTypeUntypedPointerKHR.", in.Op, w[1])
		return
	}
	t := s.types[w[2]]
	if t == nil || t.Op == spirv.OpTypePointer || t.Op == spirv.OpTypeUntypedPointerKHR {
		s.fail(i, "untyped.access-chain.base-type", "%s: Base type must be a non-pointer type", in.Op)
		return
	}
	bt := s.valueType(w[3])
	if !bt.is(spirv.OpTypePointer) && !bt.is(spirv.OpTypeUntypedPointerKHR) {
		s.fail(i, "untyped.access-chain.base", "The Base <id> '%d' in %s instruction must be a pointer.", w[3], in.Op)
		return
	}
	if bt.Storage != rt.Storage {
		s.fail(i, "untyped.access-chain.storage", "The result pointer storage class and base pointer storage class in %s do not match.", in.Op)
		return
	}
	idx := w[4:]
	if in.Op == spirv.OpUntypedPtrAccessChainKHR || in.Op == spirv.OpUntypedInBoundsPtrAccessChainKHR {
		if len(idx) == 0 {
			return
		}
		idx = idx[1:]
	}
	for _, x := range idx {
		if !s.valueType(x).is(spirv.OpTypeInt) {
			s.fail(i, "untyped.access-chain.index", "Indexes passed to %s must be of type integer.", in.Op)
			return
		}
		v, known := s.constValue(x)
		var why string
		if t, why = s.walkIndex(t, v, known, false); t == nil {
			s.fail(i, "untyped.access-chain.index", "%s: %s (index <id> '%d').", in.Op, why, x)
			return
		}
	}
}

// checkBufferPointer: OpBufferPointerEXT (SPV_EXT_descriptor_heap) makes
// a pointer into the StorageBuffer or Uniform buffer a descriptor in the
// resource heap describes: its Result Type is a pointer of one of those
// storage classes, and Buffer an untyped pointer into the variable
// decorated BuiltIn ResourceHeapEXT.
func (s *state) checkBufferPointer(i int) {
	w := s.m.Insts[i].Words
	rt := s.types[w[0]]
	switch {
	case !rt.is(spirv.OpTypePointer) && !rt.is(spirv.OpTypeUntypedPointerKHR):
		s.fail(i, "heap.buffer-pointer", "OpBufferPointerEXT's Result Type should be a pointer type.")
	case rt.Storage != spirv.StorageClassStorageBuffer && rt.Storage != spirv.StorageClassUniform:
		s.fail(i, "heap.buffer-pointer", "OpBufferPointerEXT Result Type must be a pointer type with a Storage Class of Uniform or StorageBuffer.")
	default:
		if b, ok := s.decorationArg(s.untypedBase(w[2]), spirv.DecorationBuiltIn); !ok || spirv.BuiltIn(b) != spirv.BuiltInResourceHeapEXT {
			s.fail(i, "heap.buffer-pointer", "OpBufferPointerEXT's buffer must be an untyped pointer into a variable declared with the ResourceHeapEXT built-in")
		}
	}
}

// untypedBase returns the variable an untyped pointer id is reached from
// through untyped access chains and loads of untyped pointers, or 0.
func (s *state) untypedBase(id uint32) uint32 {
	for n := 0; n < len(s.m.Insts); n++ {
		d := s.defInst(id)
		switch {
		case d == nil:
			return 0
		case d.Op == spirv.OpUntypedVariableKHR:
			return id
		case d.Op == spirv.OpUntypedAccessChainKHR || d.Op == spirv.OpUntypedInBoundsAccessChainKHR ||
			d.Op == spirv.OpUntypedPtrAccessChainKHR || d.Op == spirv.OpUntypedInBoundsPtrAccessChainKHR:
			id = d.Words[3]
		case d.Op == spirv.OpLoad && s.valueType(d.Words[2]).is(spirv.OpTypeUntypedPointerKHR):
			id = d.Words[2]
		default:
			return 0
		}
	}
	return 0
}

// checkConstantSizeOf: OpConstantSizeOfEXT (SPV_EXT_descriptor_heap) is
// the size in bytes of a descriptor type, a 32- or 64-bit integer
// scalar.
func (s *state) checkConstantSizeOf(i int) {
	w := s.m.Insts[i].Words
	rt := s.types[w[0]]
	switch {
	case !rt.is(spirv.OpTypeInt) || rt.Width != 32 && rt.Width != 64:
		s.fail(i, "heap.size-of", "For OpConstantSizeOfEXT instruction, its result type must be a 32-bit or 64-bit integer type scalar.")
	case !isDescriptorType(s.types[w[2]]):
		s.fail(i, "heap.size-of", "For OpConstantSizeOfEXT instruction, its Type operand <Id> '%d' must be a Descriptor type.", w[2])
	}
}

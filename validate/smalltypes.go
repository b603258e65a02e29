package validate

import "github.com/coopshader/coop/spirv"

// 8- and 16-bit types a shader declares for storage only
// (SPV_KHR_16bit_storage, SPV_KHR_8bit_storage, and their Workgroup forms
// in SPV_KHR_workgroup_memory_explicit_layout): without Int8, Int16 or
// Float16, such types may be loaded, stored, copied and converted to
// other widths, and nothing else; they are not constants, and variables
// holding them live only in the storage classes a storage capability
// names. The extensions' texts are not among the local specifications;
// the rules are paraphrased from them.

// isLimitedSmall reports whether t is an 8- or 16-bit integer or a 16-bit
// IEEE float whose arithmetic capability the module does not declare.
func isLimitedSmall(s *state, t *Type) bool {
	switch {
	case t.is(spirv.OpTypeInt) && t.Width == 16:
		return !s.hasCap(spirv.CapabilityInt16)
	case t.is(spirv.OpTypeInt) && t.Width == 8:
		return !s.hasCap(spirv.CapabilityInt8)
	case t.is(spirv.OpTypeFloat) && t.Width == 16 && t.Encoding < 0:
		return !s.hasCap(spirv.CapabilityFloat16)
	}
	return false
}

func (s *state) containsLimitedSmall(t *Type) *Type {
	if !s.hasCap(spirv.CapabilityShader) {
		return nil
	}
	return s.contains(t, func(t *Type) bool { return isLimitedSmall(s, t) })
}

// smallUses: "the only instructions that may use 8- or 16-bit objects
// are loads, stores, OpCopyObject and the width conversions OpFConvert,
// OpUConvert and OpSConvert" unless Int8, Int16 or Float16 is declared.
// Run with the other narrow types' lists (checkInt4).
var smallUses = &restricted{
	rule: "smalltype.use",
	what: "8- or 16-bit type without its Int8, Int16 or Float16 capability",
	is:   func(s *state, t *Type) bool { return s.hasCap(spirv.CapabilityShader) && isLimitedSmall(s, t) },
	ops:  []spirv.Op{spirv.OpLoad, spirv.OpStore, spirv.OpCopyObject, spirv.OpFConvert, spirv.OpUConvert, spirv.OpSConvert, spirv.OpCopyMemory, spirv.OpCopyMemorySized},
	cite: "SPV_KHR_16bit_storage, SPV_KHR_8bit_storage",
}

// smallTypesEach adds the family's rules (instructions.go lists the
// families).
func smallTypesEach(add func(spirv.Op, func(*state, int))) {
	add(spirv.OpVariable, (*state).checkSmallVariable)
	add(spirv.OpLoad, (*state).checkSmallLoad)
	for _, op := range spirv.OpsOfClass("Constant-Creation") {
		add(op, (*state).checkSmallConstant)
	}
}

// checkSmallConstant: storage-only types have no constants.
func (s *state) checkSmallConstant(i int) {
	t := s.types[s.m.Insts[i].TypeID()]
	if t != nil && t.Op != spirv.OpTypePointer && s.containsLimitedSmall(t) != nil {
		s.fail(i, "smalltype.constant", "Cannot form constants of 8- or 16-bit types without the Int8, Int16 or Float16 capability")
	}
}

// checkSmallLoad: a load of a storage-only type reads a scalar, vector or
// matrix, never a whole structure or array.
func (s *state) checkSmallLoad(i int) {
	t := s.types[s.m.Insts[i].Words[0]]
	if t == nil || s.containsLimitedSmall(t) == nil {
		return
	}
	switch t.Op {
	case spirv.OpTypeInt, spirv.OpTypeFloat, spirv.OpTypeVector, spirv.OpTypeMatrix, spirv.OpTypePointer:
		return
	}
	s.fail(i, "smalltype.load", "8- or 16-bit loads must be a scalar, vector or matrix type")
}

// checkSmallVariable: a variable holding a storage-only type lives in a
// storage class its storage capability names: StorageBuffer and
// PhysicalStorageBuffer (StorageBuffer16BitAccess, StorageBuffer8BitAccess),
// Uniform (UniformAndStorageBuffer16BitAccess or -8BitAccess; a BufferBlock
// with the StorageBuffer form), PushConstant (StoragePushConstant16, -8),
// Input and Output (StorageInputOutput16), Workgroup
// (WorkgroupMemoryExplicitLayout16BitAccessKHR, -8BitAccessKHR).
func (s *state) checkSmallVariable(i int) {
	w := s.m.Insts[i].Words
	pt := s.types[w[0]]
	if !pt.is(spirv.OpTypePointer) {
		return
	}
	sc := pt.Storage
	t := s.types[pt.Elem]
	for t.is(spirv.OpTypePointer) {
		sc, t = t.Storage, s.types[t.Elem]
	}
	small := s.containsLimitedSmall(t)
	if small == nil {
		return
	}
	bits := 16
	if small.Width == 8 {
		bits = 8
	}
	caps := map[int]struct{ sb, ubo, pc, io, wg spirv.Capability }{
		16: {spirv.CapabilityStorageBuffer16BitAccess, spirv.CapabilityUniformAndStorageBuffer16BitAccess, spirv.CapabilityStoragePushConstant16,
			spirv.CapabilityStorageInputOutput16, spirv.CapabilityWorkgroupMemoryExplicitLayout16BitAccessKHR},
		8: {spirv.CapabilityStorageBuffer8BitAccess, spirv.CapabilityUniformAndStorageBuffer8BitAccess, spirv.CapabilityStoragePushConstant8,
			0, spirv.CapabilityWorkgroupMemoryExplicitLayout8BitAccessKHR},
	}[bits]
	ok := false
	switch sc {
	case spirv.StorageClassStorageBuffer, spirv.StorageClassPhysicalStorageBuffer:
		ok = s.hasCap(caps.sb)
	case spirv.StorageClassUniform:
		block := t
		for block.is(spirv.OpTypeArray) || block.is(spirv.OpTypeRuntimeArray) {
			block = s.types[block.Elem]
		}
		ok = s.hasCap(caps.ubo) || s.hasCap(caps.sb) && block != nil && s.hasDecoration(block.ID, spirv.DecorationBufferBlock)
	case spirv.StorageClassPushConstant:
		ok = s.hasCap(caps.pc)
	case spirv.StorageClassInput, spirv.StorageClassOutput:
		if bits == 8 {
			s.fail(i, "smalltype.variable", "Cannot allocate a variable containing a 8-bit type in %s storage class", scName(sc))
			return
		}
		ok = s.hasCap(caps.io)
	case spirv.StorageClassWorkgroup:
		ok = s.hasCap(caps.wg)
	default:
		s.fail(i, "smalltype.variable", "Cannot allocate a variable containing a %d-bit type in %s storage class", bits, scName(sc))
		return
	}
	if !ok {
		s.fail(i, "smalltype.variable", "Allocating a variable containing a %d-bit element in %s storage class requires an additional capability", bits, scName(sc))
	}
}

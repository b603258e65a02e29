package validate

import "github.com/coopshader/coop/spirv"

// What the storage classes allow instructions to do with their memory:
// the read-only ones take no store (SPIR-V 3.7 Storage Class:
// UniformConstant "read-only", Input, PushConstant "read-only";
// SPV_KHR_ray_tracing: ShaderRecordBufferKHR is read-only; paraphrased, no
// local copy); in Vulkan, runtime arrays live only where a buffer's
// length gives them one.

// storageChecks are the family's rules (instructions.go lists the families).
var storageChecks = []opCheck{
	{spirv.OpStore, (*state).checkStoreStorage},
	{spirv.OpVariable, (*state).checkRuntimeArrayVariable},
	{spirv.OpArrayLength, (*state).checkArrayLength},
	{spirv.OpTypePointer, (*state).checkPointerStorage},
	{spirv.OpTypeStruct, (*state).checkRuntimeArrayStruct},
}

func (s *state) checkStoreStorage(i int) {
	w := s.m.Insts[i].Words
	pt := s.valueType(w[0])
	if !pt.is(spirv.OpTypePointer) && !pt.is(spirv.OpTypeUntypedPointerKHR) {
		return
	}
	switch pt.Storage {
	case spirv.StorageClassUniformConstant, spirv.StorageClassInput, spirv.StorageClassPushConstant, spirv.StorageClassShaderRecordBufferKHR:
		s.fail(i, "memory.store.read-only", "OpStore Pointer <id> '%d' storage class is read-only", w[0])
	}
}

// checkRuntimeArrayVariable: "code:OpTypeRuntimeArray must: only be
// instantiated by a variable as: the last member of a code:Block-decorated
// code:OpTypeStruct in code:StorageBuffer or code:PhysicalStorageBuffer
// storage {StorageClass}" ... "code:BufferBlock-decorated code:OpTypeStruct
// in the code:Uniform storage {StorageClass}" ... "the outermost dimension
// of an arrayed variable in the code:StorageBuffer, code:Uniform, or
// code:UniformConstant storage {StorageClass}"
// (VUID-StandaloneSpirv-OpTypeRuntimeArray-04680); an arrayed variable's
// runtime array needs RuntimeDescriptorArray. The Block decorations are
// checked with the other resource rules (memory.go).
func (s *state) checkRuntimeArrayVariable(i int) {
	pt := s.types[s.m.Insts[i].Words[0]]
	if !s.env.vulkan || !pt.is(spirv.OpTypePointer) {
		return
	}
	t, sc := s.types[pt.Elem], pt.Storage
	switch {
	case t.is(spirv.OpTypeRuntimeArray):
		if !s.hasCap(spirv.CapabilityRuntimeDescriptorArray) {
			s.fail(i, "vulkan.runtime-array", "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] OpVariable, <id> '%d', is attempting to create memory for an illegal type, OpTypeRuntimeArray: without the RuntimeDescriptorArray capability it can only appear as the final member of an OpTypeStruct", s.m.Insts[i].Words[1])
		} else if sc != spirv.StorageClassStorageBuffer && sc != spirv.StorageClassUniform && sc != spirv.StorageClassUniformConstant {
			s.fail(i, "vulkan.runtime-array", "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] For Vulkan with RuntimeDescriptorArray, a variable containing OpTypeRuntimeArray must have storage class of StorageBuffer, Uniform, or UniformConstant.")
		}
	case t.is(spirv.OpTypeStruct) && s.contains(t, func(t *Type) bool { return t.Op == spirv.OpTypeRuntimeArray }) != nil:
		if sc != spirv.StorageClassStorageBuffer && sc != spirv.StorageClassPhysicalStorageBuffer && sc != spirv.StorageClassUniform {
			s.fail(i, "vulkan.runtime-array", "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] For Vulkan, OpTypeStruct variables containing OpTypeRuntimeArray must have storage class of StorageBuffer, PhysicalStorageBuffer, or Uniform.")
		}
	}
}

// checkArrayLength (OpArrayLength): "Result Type must be an OpTypeInt with
// 32-bit Width and 0 Signedness. Structure must be a logical pointer to an
// OpTypeStruct whose last member is a run-time array. Array member is an
// unsigned 32-bit integer index of the last member of the structure that
// Structure points to." (SPIR-V 1.6, paraphrased, no local copy); a 64-bit
// Result Type is what glslang writes with GL_EXT_shader_64bit_indexing
// and spirv-val accepts.
func (s *state) checkArrayLength(i int) {
	w := s.m.Insts[i].Words
	if len(w) < 4 {
		return
	}
	if r := s.types[w[0]]; !r.is(spirv.OpTypeInt) || r.Width != 32 && r.Width != 64 || r.Signed {
		s.fail(i, "array-length.result", "The Result Type of OpArrayLength <id> '%d' must be OpTypeInt with width 32 (or 64) and signedness 0.", w[1])
		return
	}
	pt := s.valueType(w[2])
	var st *Type
	if pt.is(spirv.OpTypePointer) {
		st = s.types[pt.Elem]
	}
	switch {
	case !st.is(spirv.OpTypeStruct) || len(st.Members) == 0:
		s.fail(i, "array-length.structure", "The Structure's type in OpArrayLength <id> '%d' must be a pointer to an OpTypeStruct.", w[1])
	case !s.types[st.Members[len(st.Members)-1]].is(spirv.OpTypeRuntimeArray):
		s.fail(i, "array-length.structure", "The Structure's last member in OpArrayLength <id> '%d' must be an OpTypeRuntimeArray.", w[1])
	case uint64(w[3]) != uint64(len(st.Members)-1):
		s.fail(i, "array-length.member", "The array member in OpArrayLength <id> '%d' must be the last member of the struct.", w[1])
	}
}

// checkRuntimeArrayStruct: in Vulkan a struct holding a runtime array is
// a buffer's block, the array its last member: "OpTypeRuntimeArray must
// only be used for ... the last member of a code:Block-decorated
// code:OpTypeStruct" (VUID-StandaloneSpirv-OpTypeRuntimeArray-04680),
// wherever the struct is used (a descriptor heap's data type too).
func (s *state) checkRuntimeArrayStruct(i int) {
	t := s.types[s.m.Insts[i].Words[0]]
	if !s.env.vulkan || t == nil {
		return
	}
	for k, m := range t.Members {
		if !s.types[m].is(spirv.OpTypeRuntimeArray) {
			continue
		}
		if k != len(t.Members)-1 {
			s.fail(i, "vulkan.runtime-array", "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] In Vulkan, OpTypeRuntimeArray must only be used for the last member of an OpTypeStruct")
		} else if !s.hasDecoration(t.ID, spirv.DecorationBlock) && !s.hasDecoration(t.ID, spirv.DecorationBufferBlock) {
			s.fail(i, "vulkan.runtime-array", "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] Vulkan, OpTypeStruct containing an OpTypeRuntimeArray must be decorated with Block or BufferBlock.")
		}
		return
	}
}

// checkRuntimeArrayPointer: a pointer into a buffer reaches a struct whose
// last member is a runtime array only where that struct is a Block (or, in
// Uniform, a BufferBlock): "the last member of a code:Block-decorated
// code:OpTypeStruct" (VUID-StandaloneSpirv-OpTypeRuntimeArray-04680). A
// descriptor heap's buffer is reached by such a pointer without any
// OpVariable, which checkRuntimeArrayVariable sees.
// vulkanStorage reports whether Vulkan has storage class sc: "Storage
// Class must be one of: UniformConstant, Uniform, StorageBuffer, Input,
// Output, Image, Workgroup, Private, Function, PushConstant,
// PhysicalStorageBuffer," the ray tracing classes, TaskPayloadWorkgroupEXT,
// the hit object attributes, TileImageEXT, NodePayloadAMDX or
// TileAttachmentQCOM (VUID-StandaloneSpirv-None-04643, paraphrased): not
// OpenCL's CrossWorkgroup, Generic or CodeSectionINTEL, nor the NV ray
// tracing aliases' retired forms.
func vulkanStorage(sc spirv.StorageClass) bool {
	switch sc {
	case spirv.StorageClassUniformConstant, spirv.StorageClassUniform, spirv.StorageClassStorageBuffer, spirv.StorageClassInput,
		spirv.StorageClassOutput, spirv.StorageClassImage, spirv.StorageClassWorkgroup, spirv.StorageClassPrivate,
		spirv.StorageClassFunction, spirv.StorageClassPushConstant, spirv.StorageClassPhysicalStorageBuffer,
		spirv.StorageClassRayPayloadKHR, spirv.StorageClassIncomingRayPayloadKHR, spirv.StorageClassHitAttributeKHR,
		spirv.StorageClassCallableDataKHR, spirv.StorageClassIncomingCallableDataKHR, spirv.StorageClassShaderRecordBufferKHR,
		spirv.StorageClassTaskPayloadWorkgroupEXT, spirv.StorageClassHitObjectAttributeNV, spirv.StorageClassHitObjectAttributeEXT,
		spirv.StorageClassTileImageEXT, spirv.StorageClassNodePayloadAMDX, spirv.StorageClassTileAttachmentQCOM:
		return true
	}
	return false
}

// checkPointerStorage: a pointer type's storage class is one of Vulkan's,
// and checkRuntimeArrayPointer.
func (s *state) checkPointerStorage(i int) {
	if sc := spirv.StorageClass(s.m.Insts[i].Words[1]); s.env.vulkan && !vulkanStorage(sc) {
		s.fail(i, "vulkan.storage-class", "[VUID-StandaloneSpirv-None-04643] Invalid storage class for target environment: %s", scName(sc))
		return
	}
	s.checkRuntimeArrayPointer(i)
}

func (s *state) checkRuntimeArrayPointer(i int) {
	w := s.m.Insts[i].Words
	sc := spirv.StorageClass(w[1])
	if !s.env.vulkan || sc != spirv.StorageClassStorageBuffer && sc != spirv.StorageClassPhysicalStorageBuffer && sc != spirv.StorageClassUniform {
		return
	}
	t := s.types[w[2]]
	if !t.is(spirv.OpTypeStruct) || len(t.Members) == 0 || !s.types[t.Members[len(t.Members)-1]].is(spirv.OpTypeRuntimeArray) {
		return
	}
	if !s.hasDecoration(t.ID, spirv.DecorationBlock) && !s.hasDecoration(t.ID, spirv.DecorationBufferBlock) {
		s.fail(i, "vulkan.runtime-array", "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] Vulkan, OpTypeStruct containing an OpTypeRuntimeArray must be decorated with Block or BufferBlock.")
	}
}

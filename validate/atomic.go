package validate

import "github.com/coopshader/coop/spirv"

// The atomic instructions (SPIR-V 3.56.18): "Result Type must be an
// integer type scalar. The type of Value must be the same as Result Type.
// The type of the value pointed to by Pointer must be the same as Result
// Type." (the floating-point ones of SPV_EXT_shader_atomic_float_add and
// _min_max say the same of floating-point types; OpAtomicExchange,
// OpAtomicLoad and OpAtomicStore take either). Scopes and semantics are
// checked with the others (memory.go).

// atomicShape gives where an atomic instruction's Value operands are (as
// word indices) and which scalar kind its Result Type has (0: any).
type atomicShape struct {
	values []int
	kind   spirv.Op
}

var atomicShapes = [...]opValue[atomicShape]{
	{spirv.OpAtomicLoad, atomicShape{nil, 0}},
	{spirv.OpAtomicExchange, atomicShape{[]int{5}, 0}},
	{spirv.OpAtomicCompareExchange, atomicShape{[]int{6, 7}, spirv.OpTypeInt}},
	{spirv.OpAtomicIIncrement, atomicShape{nil, spirv.OpTypeInt}},
	{spirv.OpAtomicIDecrement, atomicShape{nil, spirv.OpTypeInt}},
	{spirv.OpAtomicIAdd, atomicShape{[]int{5}, spirv.OpTypeInt}},
	{spirv.OpAtomicISub, atomicShape{[]int{5}, spirv.OpTypeInt}},
	{spirv.OpAtomicSMin, atomicShape{[]int{5}, spirv.OpTypeInt}},
	{spirv.OpAtomicUMin, atomicShape{[]int{5}, spirv.OpTypeInt}},
	{spirv.OpAtomicSMax, atomicShape{[]int{5}, spirv.OpTypeInt}},
	{spirv.OpAtomicUMax, atomicShape{[]int{5}, spirv.OpTypeInt}},
	{spirv.OpAtomicAnd, atomicShape{[]int{5}, spirv.OpTypeInt}},
	{spirv.OpAtomicOr, atomicShape{[]int{5}, spirv.OpTypeInt}},
	{spirv.OpAtomicXor, atomicShape{[]int{5}, spirv.OpTypeInt}},
	{spirv.OpAtomicFAddEXT, atomicShape{[]int{5}, spirv.OpTypeFloat}},
	{spirv.OpAtomicFMinEXT, atomicShape{[]int{5}, spirv.OpTypeFloat}},
	{spirv.OpAtomicFMaxEXT, atomicShape{[]int{5}, spirv.OpTypeFloat}},
}

func (s *state) checkAtomic(i int) {
	in := &s.m.Insts[i]
	w := in.Words
	name := in.Op.String()[2:]
	ptr := w[2]
	if in.Op == spirv.OpAtomicStore {
		ptr = w[0]
	}
	// "Pointer is a pointer to the memory to access"; 64-bit integer
	// atomics need Int64Atomics under Shader (SPIR-V 3.31 Capability).
	pt := s.valueType(ptr)
	if !pt.is(spirv.OpTypePointer) && !pt.is(spirv.OpTypeUntypedPointerKHR) {
		s.fail(i, "atomic.pointer", "%s: expected Pointer to be a pointer type", name)
		return
	}
	vt := s.types[w[0]]
	if in.Op == spirv.OpAtomicStore {
		vt = s.types[pt.Elem]
	}
	if vt.is(spirv.OpTypeInt) && vt.Width == 64 && s.hasCap(spirv.CapabilityShader) && !s.hasCap(spirv.CapabilityInt64Atomics) {
		s.fail(i, "atomic.int64", "%s: 64-bit atomics require the Int64Atomics capability", name)
		return
	}
	// Atomics act on memory invocations share or address: "The
	// Pointer's Storage Class must be one of ... Uniform, StorageBuffer,
	// Workgroup, CrossWorkgroup, Generic, AtomicCounter, Image, Function,
	// PhysicalStorageBuffer" (SPIR-V 2.16.1 universal rules, paraphrased,
	// no local copy; SPV_EXT_mesh_shader adds TaskPayloadWorkgroupEXT).
	switch pt.Storage {
	case spirv.StorageClassUniform, spirv.StorageClassStorageBuffer, spirv.StorageClassWorkgroup, spirv.StorageClassCrossWorkgroup,
		spirv.StorageClassGeneric, spirv.StorageClassAtomicCounter, spirv.StorageClassImage, spirv.StorageClassFunction,
		spirv.StorageClassPhysicalStorageBuffer, spirv.StorageClassTaskPayloadWorkgroupEXT:
	default:
		s.fail(i, "atomic.storage", "%s: Can not be used with storage class %s by universal validation rules", name, scName(pt.Storage))
		return
	}
	// In Vulkan, "Atomic instructions must declare a scalar 32-bit
	// integer type, or a scalar 64-bit integer type if the
	// Int64Atomics capability is enabled, for the value pointed to by
	// Pointer" and act on Uniform, Workgroup, Image, StorageBuffer,
	// PhysicalStorageBuffer or TaskPayloadWorkgroupEXT memory
	// (VUID-StandaloneSpirv-None-04686, paraphrased): shared memory, not an
	// invocation's own.
	switch pt.Storage {
	case spirv.StorageClassUniform, spirv.StorageClassStorageBuffer, spirv.StorageClassWorkgroup, spirv.StorageClassImage,
		spirv.StorageClassPhysicalStorageBuffer, spirv.StorageClassTaskPayloadWorkgroupEXT:
	default:
		if s.env.vulkan && s.hasCap(spirv.CapabilityShader) {
			s.fail(i, "vulkan.atomic.storage", "[VUID-StandaloneSpirv-None-04686] %s: %s is not allowed, the Vulkan spec only allows storage classes for atomic to be: Uniform, Workgroup, Image, StorageBuffer, PhysicalStorageBuffer or TaskPayloadWorkgroupEXT.", name, scName(pt.Storage))
			return
		}
	}
	if in.Op == spirv.OpAtomicStore {
		// "The type of Value must be the same as the type pointed to by
		// Pointer."
		if pt := s.valueType(w[0]); pt.is(spirv.OpTypePointer) && len(w) > 3 && s.typeOf(w[3]) != pt.Elem {
			s.fail(i, "atomic.value", "%s: expected Value type and the type pointed to by Pointer to be the same", name)
		}
		return
	}
	sh, _ := lookup(atomicShapes[:], in.Op)
	r, ok, _ := s.numOf(w[0])
	if sh.kind != 0 && (!ok || r.vec || !r.is(sh.kind)) {
		s.fail(i, "atomic.result", "%s: expected Result Type to be %s scalar type", name, map[spirv.Op]string{spirv.OpTypeInt: "integer", spirv.OpTypeFloat: "float"}[sh.kind])
		return
	}
	for _, k := range sh.values {
		if k < len(w) && s.typeOf(w[k]) != w[0] {
			s.fail(i, "atomic.value", "%s: expected Value to be of type Result Type", name)
			return
		}
	}
	if pt := s.valueType(w[2]); pt.is(spirv.OpTypePointer) && pt.Elem != w[0] {
		s.fail(i, "atomic.pointer", "%s: expected Pointer to point to a value of type Result Type", name)
	}
}

// atomicEach adds the family's rules (instructions.go lists the families).
func atomicEach(add func(spirv.Op, func(*state, int))) {
	add(spirv.OpAtomicStore, (*state).checkAtomic)
	for _, sh := range atomicShapes {
		add(sh.op, (*state).checkAtomic)
	}
}

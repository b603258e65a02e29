#version 450
// GL_KHR_memory_scope_semantics: the semantics an atomic or barrier may
// take (glslang's rules; SPIR-V's memory model rejects the rest).
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_split_barrier : require
layout(local_size_x = 8) in;
shared uint s;
layout(binding = 0) buffer B { coherent uint x; };
layout(binding = 1, r32ui) coherent uniform uimage2D img;
void main() {
	atomicStore(x, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire); // ERROR: gl_SemanticsAcquire must not be used with (image) atomic store
	uint v = imageAtomicLoad(img, ivec2(0), gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsRelease); // ERROR: 'imageAtomicLoad' : gl_SemanticsRelease must not be used with (image) atomic load
	memoryBarrier(gl_ScopeWorkgroup, 0, 0); // ERROR: Semantics must include exactly one of
	atomicAdd(x, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, 3); // ERROR: Invalid semantics value
	atomicAdd(x, 1u, gl_ScopeDevice, 2, gl_SemanticsRelease); // ERROR: Invalid storage class semantics value
	atomicAdd(x, 1u, gl_ScopeDevice, 0, gl_SemanticsRelease); // ERROR: Storage class semantics must not be zero
	atomicAdd(x, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsAcquire); // ERROR: must not include multiple of
	atomicCompSwap(x, 1u, 2u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire, gl_StorageSemanticsShared, gl_SemanticsAcquire); // ERROR: semStorageUnequal must not include any option
	controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease | gl_SemanticsVolatile); // ERROR: gl_SemanticsVolatile must not be used with memoryBarrier or controlBarrier
	controlBarrierArrive(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire); // ERROR: 'controlBarrierArrive' : Semantics must be gl_SemanticsRelease (optionally with gl_SemanticsMakeAvailable)
	controlBarrierWait(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire | gl_SemanticsMakeVisible);
	atomicAdd(x, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
}

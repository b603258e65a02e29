#version 450
// GL_EXT_split_barrier with GL_KHR_memory_scope_semantics' scopes and
// semantics, as controlBarrier takes them.
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_split_barrier : require
layout(local_size_x = 64) in;
void main() {
	controlBarrierArrive();
	controlBarrierWait();
	controlBarrierArrive(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared, gl_SemanticsRelease);
	controlBarrierWait(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared, gl_SemanticsAcquire);
}

#version 450
// A cluster size is an integral constant expression, at least 1 and a
// power of 2 (GL_KHR_shader_subgroup_clustered).
#extension GL_KHR_shader_subgroup_clustered : enable
layout(local_size_x = 8) in;
layout(binding = 0) buffer B { vec4 f; ivec4 i; uint n; };
const uint four = 4u;
void main() {
	f.x = subgroupClusteredAdd(f.x, 0); // ERROR: 'cluster size' : argument must be at least 1
	f.y = subgroupClusteredMul(f.y, 3); // ERROR: 'cluster size' : argument must be a power of 2
	i.xy = subgroupClusteredMin(i.xy, -2); // ERROR: 'cluster size' : argument must be at least 1
	i.z = subgroupClusteredOr(i.z, n); // ERROR: 'cluster size' : argument must be compile-time constant
	i.w = subgroupClusteredXor(i.w, four + n); // ERROR: 'cluster size' : argument must be compile-time constant
	f.z = subgroupClusteredMax(f.z, four * 2u);
}

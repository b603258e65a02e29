#version 450
// Constructor components past a cooperative vector's length are dropped,
// as for vectors.
#extension GL_NV_cooperative_vector : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { float o[]; };
void main() {
	vec3 x = vec3(o[0]), y = vec3(o[1]);
	coopvecNV<float, 5> v = coopvecNV<float, 5>(x, y);
	coopVecStoreNV(v, o, 0);
}

#version 450
#extension GL_NV_cooperative_vector : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() {
	coopvecNV<uint32_t, 8> v, u;
	coopVecLoadNV(v, o, 0);
	coopVecLoadNV(u, o, 32);
	v = (v << u) >> u;
	v <<= u;
	v = (v & u) | (v ^ u) | ~v;
	v = v % u + v / u - v * u;
	v = 2u * v * 3u;
	coopVecStoreNV(v, o, 0);
}

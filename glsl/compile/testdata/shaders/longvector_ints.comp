#version 450
// Long-vector built-ins keep 8-, 16- and 64-bit components (GL_EXT_long_vector);
// the bitfield ones do too but need maintenance9 for spirv-val.
#extension GL_EXT_long_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint64_t o[5]; };
void main() {
	vector<uint16_t, 5> u = vector<uint16_t, 5>(3), c;
	vector<int8_t, 5> i = vector<int8_t, 5>(-2), hi, lo;
	vector<uint64_t, 5> w = vector<uint64_t, 5>(7);
	u = uaddCarry(u, u, c);
	imulExtended(i, i, hi, lo);
	for (int k = 0; k < 5; k++) o[k] = uint64_t(u[k]) + uint64_t(lo[k]) + w[k] + uint64_t(i[k]);
}

#version 450
// GL_NV_cooperative_vector allows a scalar operand only for *; shifts and
// bitwise operators take two cooperative vectors of one type.
#extension GL_NV_cooperative_vector : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint o[]; };
void main() {
	coopvecNV<uint32_t, 8> v;
	coopvecNV<int32_t, 8> w;
	coopVecLoadNV(v, o, 0);
	coopVecLoadNV(w, o, 0);
	v = v >> 4; // ERROR: '>>' :  wrong operand types
	v = v << 4u; // ERROR: '<<' :  wrong operand types
	v = v >> w; // ERROR: '>>' :  wrong operand types
	v >>= 1u; // ERROR: '>>' :  wrong operand types
	v = v & 3u; // ERROR: '&' :  wrong operand types
	v = v + 1u; // ERROR: '+' :  wrong operand types
	coopVecStoreNV(v, o, 0);
}

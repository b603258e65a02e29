#version 450
// bfloat16 and the 8-bit floats have no comparison operators (glslang has
// none; SPIR-V's FOrd* instructions do not take them).
#extension GL_EXT_bfloat16 : require
#extension GL_EXT_float_e4m3 : require
#extension GL_EXT_float_e5m2 : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { floate4m3_t a, b; floate5m2_t c; bfloat16_t h; fe4m3vec2 va, vb; int r; };
void main() {
	r = int(a == b); // ERROR: '==' :  wrong operand types
	r = int(a != b); // ERROR: '!=' :  wrong operand types
	r = int(c < c); // ERROR: '<' :  wrong operand types
	r = int(h >= h); // ERROR: '>=' :  wrong operand types
	r = int(va == vb); // ERROR: '==' :  wrong operand types
	r = int(h == 1.0); // ERROR: '==' :  wrong operand types
	r = int(float(a) == float(b));
}

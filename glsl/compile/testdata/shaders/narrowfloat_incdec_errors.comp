#version 450
#extension GL_EXT_bfloat16 : require
#extension GL_EXT_float_e4m3 : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
void main() {
	bfloat16_t b = bfloat16_t(1.0);
	floate4m3_t e = floate4m3_t(1.0);
	b++; // ERROR: '++' :  wrong operand type
	--e; // ERROR: '--' :  wrong operand type
}

#version 450
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(buffer_reference) buffer R { int v; };
layout(buffer_reference) buffer U { int v[]; };
layout(push_constant) uniform P { R r; U u; };
void main() {
	R x = r * 2; // ERROR: '*' :  wrong operand types
	R y = 1 - r; // ERROR: '-' :  wrong operand types
	R z = r + 1.0; // ERROR: '+' :  wrong operand types
	R w = r; w += 1.5; // ERROR: '+' :  wrong operand types
	R q = r + ivec2(1); // ERROR: '+' :  wrong operand types
	U a = u + 1; // ERROR: '+' :  wrong operand types
	int64_t d = u - u; // ERROR: '-' :  wrong operand types
	int e = int(r == r); // ERROR: '==' : can't use with reference types
	R f = r; f++; // ERROR: '++' :  wrong operand type
	R g = r; g -= r; // ERROR: cannot convert from ' temp int64_t'
	R h = -r; // ERROR: '-' :  wrong operand type
}

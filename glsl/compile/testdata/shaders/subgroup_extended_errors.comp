#version 450
// Subgroup operations on 8-, 16- and 64-bit values need the matching
// GL_EXT_shader_subgroup_extended_types_* extension (glslang's rule for
// every subgroup built-in's first operand); the arithmetic types alone
// are not enough.
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_KHR_shader_subgroup_vote : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_shader_subgroup_extended_types_int16 : enable
layout(local_size_x = 8) in;
layout(binding = 0) buffer B { i8vec2 a; uint8_t b; int16_t c; u64vec3 d; f16vec4 e; float f; };
void main() {
	a = subgroupAdd(a); // ERROR: required extension not requested: GL_EXT_shader_subgroup_extended_types_int8
	b = subgroupBroadcastFirst(b); // ERROR: required extension not requested: GL_EXT_shader_subgroup_extended_types_int8
	c = subgroupMax(c);
	d = subgroupExclusiveOr(d); // ERROR: required extension not requested: GL_EXT_shader_subgroup_extended_types_int64
	bool same = subgroupAllEqual(e); // ERROR: required extension not requested: GL_EXT_shader_subgroup_extended_types_float16
	f = subgroupMin(f);
}

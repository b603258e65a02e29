#version 450
// SPV_INTEL_int4 allows 4-bit integer scalars (and vectors of an odd
// component count) only in Function and Private memory: elsewhere a pair,
// packed in a byte, is the smallest unit.
// glslang differs: it accepts these declarations, making modules that break SPV_INTEL_int4's memory layout rule
#extension GL_EXT_spirv_intrinsics : require
#define int4_t spirv_type(extensions = ["SPV_INTEL_int4"], capabilities = [5112], id = 21, 4, 1)
#define i4vec2 spirv_type(extensions = ["SPV_INTEL_int4"], capabilities = [5112], id = 23, int4_t, 2)
#define i4vec3 spirv_type(extensions = ["SPV_INTEL_int4"], capabilities = [5112], id = 23, int4_t, 3)
spirv_instruction(id = 114) int toInt(int4_t x);
spirv_instruction(id = 81) int4_t extract(i4vec2 v, spirv_literal int i);
layout(local_size_x = 1) in;
struct S { int a; int4_t q; };
layout(binding = 0) buffer B {
	int4_t x; // ERROR: 'x' : 4-bit integers outside Function and Private memory must be in vectors of an even component count
	i4vec3 odd; // ERROR: 4-bit integers outside Function and Private memory
	S s[2]; // ERROR: 4-bit integers outside Function and Private memory
	i4vec2 pairs[4];
	int r;
};
shared int4_t sh; // ERROR: 4-bit integers outside Function and Private memory
shared i4vec2 shv;
int4_t priv;
void main() {
	int4_t local = extract(pairs[1], 1);
	priv = local;
	shv = pairs[0];
	r = toInt(priv) + toInt(extract(shv, 0));
}

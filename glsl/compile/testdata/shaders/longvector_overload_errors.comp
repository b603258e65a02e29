#version 450
// Built-ins on long vectors resolve without implicit conversions of the
// vector operands and the scalars standing for one (glslang's rule);
// offsets, bit counts and cluster sizes still convert.
#extension GL_EXT_long_vector : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { int o; };
void main() {
	vector<float, 5> vf = vector<float, 5>(1.0);
	vector<uint, 5> vu = vector<uint, 5>(2u);
	vector<int8_t, 5> vi = vector<int8_t, 5>(int8_t(3));
	int i = 1;
	float f = 2.0;
	vf = max(vf, vu); // ERROR: 'max' : can't resolve types (ambiguous long vector overload)
	vu = max(vu, vector<uint16_t, 5>(0)); // ERROR: can't resolve types (ambiguous long vector overload)
	vu = max(vu, i); // ERROR: can't resolve types (ambiguous long vector overload)
	vu = max(vu, f); // ERROR: can't resolve types (ambiguous long vector overload)
	vu = abs(vu); // ERROR: 'abs' : can't resolve types (ambiguous long vector overload)
	vu = max(vu, vector<uint, 6>(0)); // ERROR: can't resolve types (ambiguous long vector overload)
	vf = max(vf, f);
	vi = bitfieldExtract(vi, i, i);
	o = int(vf[0]) + int(vu[1]) + int(vi[2]);
}

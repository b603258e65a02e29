#version 450
// GL_KHR_compute_shader_derivatives needs a KHR derivative group: a
// derivative built-in before one is declared, and a shader that never
// declares one (reported where the source ends, as glslang does) are errors.
#extension GL_KHR_compute_shader_derivatives : require
layout(local_size_x = 2, local_size_y = 2) in;
layout(binding = 0) buffer B { float f; };
void main() {
	f = dFdx(f); // ERROR: 'dFdx' : requires a derivative_group_quads* or derivative_group_linear* layout qualifier
}
// ERROR: requires one of derivative_group_quadsKHR or derivative_group_linearKHR layout qualifiers
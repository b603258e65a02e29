#version 420
layout(local_size_x = 2) in; // ERROR: 'gl_WorkGroupSize' : not supported for this version or the enabled extensions
#extension GL_ARB_compute_shader : enable
// A 420 shader turns GL_ARB_compute_shader on before it declares its
// local size.
layout(local_size_x = 2, local_size_y = 4) in;
void main() {}

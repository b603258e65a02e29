#version 420 // ERROR: 'compute shaders' : required extension not requested: GL_ARB_compute_shader
layout(local_size_x = 1) in; // ERROR: 'gl_WorkGroupSize' : not supported for this version or the enabled extensions
void main() {}

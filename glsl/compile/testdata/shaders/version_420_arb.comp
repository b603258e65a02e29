#version 420
#extension GL_ARB_compute_shader : require
layout(local_size_x = 1) in;
void main() {}

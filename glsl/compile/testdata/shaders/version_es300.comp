#version 300 es // ERROR: '#version' : compute shaders require es profile with version 310 or above
layout(local_size_x = 1) in;
void main() {}

#version 450
#extension GL_EXT_shared_memory_block : enable
layout(local_size_x = 8) in;
shared first { int a; };
shared int b; // ERROR: 'shared' : cannot mix use of shared variables inside and outside blocks
void main() { a = 2; b = 3; }

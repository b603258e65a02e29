#version 310 es
layout(local_size_x = 1) in;
void main() {}

#version 450
// A path falling off the end of a non-void function returns an undefined
// value (OpUndef), as glslang has it.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { int x; };
int f(int a) { if (a > 0) return 1; }
vec2 g(int a) { for (;;) { if (a > 3) return vec2(1); a++; } }
void main() { x = f(x) + int(g(x).x); }

#version 460
// gl_WorkGroupSize is read only after the local size is declared: before
// that its value would be the default, not the size declared later.
layout(binding = 0) buffer B { uvec3 s; uint y; };
void f() {
	s = gl_WorkGroupSize; // ERROR: can't read from gl_WorkGroupSize before a fixed workgroup size has been declared
	y = gl_WorkGroupSize.y; // ERROR: can't read from gl_WorkGroupSize before a fixed workgroup size has been declared
}
layout(local_size_x = 64) in;
void main() {
	f();
	s = gl_WorkGroupSize;
}

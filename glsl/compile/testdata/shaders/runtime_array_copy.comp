#version 450
// glslang differs: accepts a = a and writes an OpLoad of a runtime array, which spirv-val rejects
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { int n; int a[]; };
void main() {
	a = a; // ERROR: a runtime-sized array cannot be loaded
}

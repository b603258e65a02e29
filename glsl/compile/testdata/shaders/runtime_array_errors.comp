#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { int n; int a[]; };
void main() {
	int c[] = a; // ERROR: '[]' : array initializer must be sized
}

#version 450
// Atomics work on buffer and shared memory only, never on a private
// global or a local variable.
layout(local_size_x = 1) in;
struct S { int y[3]; };
layout(binding = 0) buffer B { S f; int x; };
shared uint s;
int z;
void main() {
	atomicAdd(x, 1);
	atomicAdd(f.y[1], 1);
	atomicOr(s, 2u);
	atomicAdd(z, 1); // ERROR: 'atomicAdd' : Only l-values corresponding to shader block storage or shared variables can be used with atomic memory functions.
	uint l = 0u;
	atomicExchange(l, 3u); // ERROR: Only l-values corresponding to shader block storage or shared variables
}

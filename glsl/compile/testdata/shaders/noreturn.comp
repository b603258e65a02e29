#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { int x; };
int g(int a) // ERROR: '' : function does not return a value: g
{
	a++;
}
int h(int a) { while (true) {} } // ERROR: function does not return a value: h
int k(int a) { return; } // ERROR: function does not return a value: k
void main() { x = g(x) + h(x) + k(x); }

#version 460
layout(local_size_x = 1) in;
struct S { int a; };
shared int x = 0; // ERROR: 'x' : cannot initialize this type of qualifier
void main() {
	S s = {}; // ERROR: 'empty { } initializer' : not supported for this version or the enabled extensions
}

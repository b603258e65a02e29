#version 460
// GL_EXT_null_initializer: {} is the zero value (OpConstantNull), also for
// shared memory (an OpVariable initializer).
#extension GL_EXT_null_initializer : enable
layout(local_size_x = 1) in;
struct S { vec3[4] v; int a; };
struct T { int b; S s; };
shared float f = {};
shared T t1 = {};
S global = {};
layout(std430, binding = 0) buffer B { int o; };
void main() {
	S local = {};
	++local.a;
	o = local.a + t1.b + int(f) + global.a;
}

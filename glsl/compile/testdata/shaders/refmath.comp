#version 450
// GL_EXT_buffer_reference2 pointer arithmetic with every integer type.
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(buffer_reference, buffer_reference_align = 8) buffer R { int v; int16_t w; };
layout(buffer_reference, std140) buffer S { int v; vec3 w; float z[2]; };
layout(buffer_reference) buffer T;
layout(push_constant) uniform P { R r; S s; T t; int n; uint u; int64_t m; uint64_t k; uint8_t u8; int16_t i16; };
layout(buffer_reference) buffer T { int v; };
layout(std430, binding = 0) buffer O { int64_t d; int o; };
void main() {
	R a = r + n;
	a = a + m;
	a = a - k;
	a = u8 + a;
	a = a - i16;
	a += u;
	a -= 3;
	a = a + (-1);
	S b = 2 + s;
	T c = t + 1;
	c -= n;
	d = a - r;
	d += b - s;
	d += c - t;
	o = a.v + b.v + c.v;
}

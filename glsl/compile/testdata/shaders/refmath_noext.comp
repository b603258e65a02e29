#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference) buffer R { int v; };
layout(push_constant) uniform P { R r; };
void main() {
	R a = r + 1; // ERROR: 'buffer reference math' : required extension not requested: GL_EXT_buffer_reference2
}

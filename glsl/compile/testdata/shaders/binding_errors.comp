#version 450
// For Vulkan, descriptors need layout(binding=) unless bindings are mapped
// automatically (--auto-map-bindings): the module would lack a Binding
// decoration spirv-val requires.
layout(local_size_x = 1) in;
layout(std430) buffer B { int x; }; // ERROR: 'binding' : uniform/buffer blocks require layout(binding=X)
layout(std140) uniform U { int y; }; // ERROR: 'binding' : uniform/buffer blocks require layout(binding=X)
uniform sampler2D tex; // ERROR: 'binding' : sampler/texture/image requires layout(binding=X)
layout(r32f) uniform image2D img[2]; // ERROR: 'binding' : sampler/texture/image requires layout(binding=X)
layout(push_constant) uniform P { int z; };
void main() { x = y + z; }

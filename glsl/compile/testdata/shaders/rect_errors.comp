#version 450
// Vulkan has no rectangle textures (SampledRect); a rectangle image is
// declared as a 2D image (its integer coordinates are the same).
// glslang differs: it accepts sampler2DRect and emits SampledRect, which spirv-val rejects for Vulkan
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2DRect s; // ERROR: rectangle textures are not supported when targeting Vulkan
layout(binding = 1, r32ui) uniform uimage2DRect u;
void main() {
	imageStore(u, ivec2(1, 2), uvec4(imageSize(u).x));
}

// The image part of app.c: img(x, y) = 10 img(x, y) + tex(x, y) + tb[4y + x]
// over a 4x2 image, tex sampled (nearest, at texel centres) through an
// immutable sampler.
#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(binding = 0, r32ui) uniform uimage2D img;
layout(binding = 1) uniform usampler2D tex;
layout(binding = 2) uniform usamplerBuffer tb;
void main() {
  ivec2 c = ivec2(gl_GlobalInvocationID.xy);
  uint t = textureLod(tex, (vec2(c) + 0.5) / vec2(4.0, 2.0), 0.0).x;
  uint v = imageLoad(img, c).x;
  imageStore(img, c, uvec4(v * 10u + t + texelFetch(tb, c.y * 4 + c.x).x));
}

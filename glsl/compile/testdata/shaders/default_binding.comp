#version 460
// An acceleration structure without a binding gets binding 0, as in glslang.
#extension GL_EXT_ray_query : require
layout(local_size_x=1) in;
uniform accelerationStructureEXT as;
layout(binding=1, std430) buffer B { uint o; };
void main(){ rayQueryEXT q; rayQueryInitializeEXT(q, as, 0, 0xff, vec3(0), 0.0, vec3(1), 1.0); o = 1; }

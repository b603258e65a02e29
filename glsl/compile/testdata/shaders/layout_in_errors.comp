#version 450
#extension GL_EXT_buffer_reference : enable
layout(local_size_x = 4096, local_size_y = 4096) in; // ERROR: 'local_size' : too large; see gl_MaxComputeWorkGroupSize
layout(local_size_z = 65) in; // ERROR: 'local_size' : too large; see gl_MaxComputeWorkGroupSize
layout(binding = 0) in; // ERROR: 'binding' : requires uniform or buffer or tile image storage qualifier
layout(std430) in; // ERROR: 'layout' : matrix or packing qualifiers can only be used on a uniform or buffer
layout(row_major) in; // ERROR: 'layout' : matrix or packing qualifiers can only be used on a uniform or buffer
layout(location = 0) in; // ERROR: 'location qualifier on input' : not supported in this stage: compute
layout(offset = 4) in; // ERROR: 'layout qualifier' : cannot use offset or align qualifiers
layout(push_constant) in; // ERROR: 'push_constant' : can only be used with a uniform
layout(constant_id = 3) in; // ERROR: 'constant_id' : cannot declare a default, can only be used on a scalar
layout(buffer_reference) in; // ERROR: 'buffer_reference' : can only be used with buffer
void main() {}

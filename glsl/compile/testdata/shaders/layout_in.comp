#version 450
// The largest workgroup glslang's default limits allow in each dimension
// (the product is the device's limit), and defaults glslang accepts.
layout(local_size_x = 1024, local_size_y = 1024, local_size_z = 64) in;
layout(set = 0) in;
layout(rgba32f) in;
void main() {}

#version 450
// Several shared blocks overlay one workgroup memory
// (WorkgroupMemoryExplicitLayoutKHR): each is decorated Aliased.
#extension GL_EXT_shared_memory_block : enable
layout(local_size_x = 8) in;
shared first { int a; };
shared second { int b; };
void main() { a = 2; b = 3; }

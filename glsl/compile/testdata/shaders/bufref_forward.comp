#version 450
// A buffer_reference block naming itself needs a forward declaration.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference) buffer Node { Node next; int v; };
layout(push_constant) uniform P { Node head; };
void main() { head.next.v = head.v; }

#version 450
// A workgroup is in quads or linear, not both.
#extension GL_KHR_compute_shader_derivatives : require
layout(local_size_x = 2, local_size_y = 2) in;
layout(derivative_group_quadsKHR) in;
layout(derivative_group_linearKHR) in; // ERROR: 'derivative_group_quads* and derivative_group_linear*' : cannot be both specified
layout(derivative_group_quadsKHR, derivative_group_linearKHR) in; // ERROR: cannot be both specified
void main() {
}

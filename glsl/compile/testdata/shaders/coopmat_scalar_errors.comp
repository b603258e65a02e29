#version 450
// A cooperative matrix's scalar operand is exactly its component type (a
// cooperative vector's converts implicitly).
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
void main() {
	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m = coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(1);
	coopmat<uint, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> u = coopmat<uint, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(1);
	m = m * float16_t(2.0); // ERROR: '*' :  wrong operand types
	m = 2 * m; // ERROR: '*' :  wrong operand types
	u = u * 2; // ERROR: '*' :  wrong operand types
	float<16> f; // ERROR: 'f' : unexpected type parameters
	m = m * 2.0;
	u = 2u * u;
}

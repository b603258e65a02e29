#version 450
// SPIR-V's cooperative matrices have only + - * / and negation (glslang
// accepts the rest and writes modules spirv-val rejects).
// glslang differs: accepts %, &, |, ^ and ~ on cooperative matrices
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 32) in;
void main() {
	coopmat<uint32_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m = coopmat<uint32_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(1);
	m = m >> m; // ERROR: '>>' :  wrong operand types
	m = m & m; // ERROR: '&' :  wrong operand types
	m = m % m; // ERROR: '%' :  wrong operand types
	m = ~m; // ERROR: '~' :  wrong operand type
	m = -m + m * 2u;
}

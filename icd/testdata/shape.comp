// A float16 multiply-add whose square shape is specialization constant 7:
// 16 (its default) is a shape coop's driver lists, 8 is not (icd's tests).
#version 450
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 32) in;
layout(constant_id = 7) const uint n = 16;
layout(binding = 0) buffer B { float16_t v[]; };
void main() {
	coopmat<float16_t, gl_ScopeSubgroup, n, n, gl_MatrixUseA> a;
	coopmat<float16_t, gl_ScopeSubgroup, n, n, gl_MatrixUseB> b;
	coopMatLoad(a, v, 0, n, gl_CooperativeMatrixLayoutRowMajor);
	coopMatLoad(b, v, 0, n, gl_CooperativeMatrixLayoutRowMajor);
	coopmat<float16_t, gl_ScopeSubgroup, n, n, gl_MatrixUseAccumulator> c = coopmat<float16_t, gl_ScopeSubgroup, n, n, gl_MatrixUseAccumulator>(0.0);
	c = coopMatMulAdd(a, b, c);
	coopMatStore(c, v, 0, n, gl_CooperativeMatrixLayoutRowMajor);
}

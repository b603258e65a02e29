#version 450 core
// C = A × B with workgroup-scope cooperative matrices (GL_NV_cooperative_matrix2):
// each workgroup of 256 invocations computes a BM x BN tile of C, loading
// BM x BK tiles of A and BK x BN tiles of B through tensor layouts (which
// clamp at the edges), accumulating in fp32. A is M x K and B is K x N,
// both row-major fp16; C is M x N fp32. The tile sizes are specialization
// constants; the H100 lists workgroup-scope fp16 x fp16 -> fp32 entries of
// 32x32x16 granularity for 256 invocations.
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable

layout(local_size_x = 256) in;
layout(constant_id = 0) const uint BM = 128;
layout(constant_id = 1) const uint BN = 256;
layout(constant_id = 2) const uint BK = 32;
layout(push_constant) uniform Dims { uint M, N, K; };
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };

void main() {
	uint tm = gl_WorkGroupID.y * BM, tn = gl_WorkGroupID.x * BN;
	tensorLayoutNV<2> la = createTensorLayoutNV(2);
	la = setTensorLayoutDimensionNV(la, M, K);
	tensorLayoutNV<2> lb = createTensorLayoutNV(2);
	lb = setTensorLayoutDimensionNV(lb, K, N);
	tensorLayoutNV<2> lc = createTensorLayoutNV(2);
	lc = setTensorLayoutDimensionNV(lc, M, N);

	coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator> acc =
		coopmat<float, gl_ScopeWorkgroup, BM, BN, gl_MatrixUseAccumulator>(0.0);
	for (uint k = 0; k < K; k += BK) {
		coopmat<float16_t, gl_ScopeWorkgroup, BM, BK, gl_MatrixUseA> ma;
		coopmat<float16_t, gl_ScopeWorkgroup, BK, BN, gl_MatrixUseB> mb;
		coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(la, tm, BM, k, BK));
		coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(lb, k, BK, tn, BN));
		acc = coopMatMulAdd(ma, mb, acc);
	}
	coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(lc, tm, BM, tn, BN));
}

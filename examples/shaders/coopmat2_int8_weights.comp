#version 450 core
// A quantized-weights matrix product with GL_NV_cooperative_matrix2: fp16
// activations A (MxK) times int8 weights B (KxN), dequantized as they are
// loaded by a decode function, accumulated in fp32 into C (MxN). Tensor
// layouts describe the whole matrices; each subgroup slices out its tiles.
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable

layout(local_size_x = 32) in;
layout(push_constant) uniform Dims { uint M, N, K; };
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { int8_t b[]; };
layout(std430, binding = 2) buffer C { float c[]; };

// One int8 weight: the decode function sees each element through this
// reference and returns its dequantized value.
layout(buffer_reference, std430, buffer_reference_align = 1) buffer Weight { int8_t q; };

float16_t dequant(const in Weight w, const in uint32_t blockCoords[2], const in uint32_t coordInBlock[2]) {
	return float16_t(w.q) * float16_t(0.25);
}

void main() {
	uint tm = gl_WorkGroupID.y * 16, tn = gl_WorkGroupID.x * 16;
	tensorLayoutNV<2> la = createTensorLayoutNV(2);
	la = setTensorLayoutDimensionNV(la, M, K);
	tensorLayoutNV<2> lb = createTensorLayoutNV(2);
	lb = setTensorLayoutDimensionNV(lb, K, N);
	tensorLayoutNV<2> lc = createTensorLayoutNV(2);
	lc = setTensorLayoutDimensionNV(lc, M, N);

	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
		coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
	for (uint k = 0; k < K; k += 16) {
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
		coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(la, tm, 16, k, 16));
		coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(lb, k, 16, tn, 16), dequant);
		acc = coopMatMulAdd(ma, mb, acc);
	}
	coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(lc, tm, 16, tn, 16));
}

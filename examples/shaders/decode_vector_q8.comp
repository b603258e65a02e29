#version 450 core
// Block-quantized weights with GL_NV_cooperative_matrix_decode_vector:
// fp16 activations A (MxK) times int8 weights B (KxN, row-major, in blocks
// of 1x32 quants sharing the scale SCALE), accumulated in fp32 into C. The
// load names two decode functions: one dequantizes a single weight, the
// other four neighbouring weights from one 32-bit load; the implementation
// may call either (coop's executor uses the vector one where a group of
// four fits, as exec/doc.go describes).
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_NV_cooperative_matrix_decode_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
#extension GL_EXT_buffer_reference : enable

layout(local_size_x = 32) in;
layout(push_constant) uniform Dims { uint M, N, K; };
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { int8_t b[]; };
layout(std430, binding = 2) buffer C { float c[]; };

const float16_t SCALE = float16_t(0.25);

// One block of 32 quants, seen byte by byte and four quants at a time.
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Block8 { int8_t qs[32]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Block32 { int32_t qs[8]; };

float16_t decode1(const in Block8 blk, const in uint32_t blockCoords[2], const in uint32_t coordInBlock[2]) {
	return float16_t(blk.qs[coordInBlock[1]]) * SCALE;
}

f16vec4 decode4(const in Block32 blk, const in uint32_t blockCoords[2], const in uint32_t coordInBlock[2]) {
	// coordInBlock[1] is a multiple of 4: one load gives all four quants.
	return f16vec4(unpack8(blk.qs[coordInBlock[1] / 4])) * SCALE;
}

void main() {
	uint tm = gl_WorkGroupID.y * 16, tn = gl_WorkGroupID.x * 16;
	tensorLayoutNV<2> la = createTensorLayoutNV(2);
	la = setTensorLayoutDimensionNV(la, M, K);
	tensorLayoutNV<2> lb = createTensorLayoutNV(2);
	lb = setTensorLayoutBlockSizeNV(lb, 1, 32);
	lb = setTensorLayoutDimensionNV(lb, K, N);
	tensorLayoutNV<2> lc = createTensorLayoutNV(2);
	lc = setTensorLayoutDimensionNV(lc, M, N);

	coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> acc =
		coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);
	for (uint k = 0; k < K; k += 16) {
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;
		coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;
		coopMatLoadTensorNV(ma, a, 0, sliceTensorLayoutNV(la, tm, 16, k, 16));
		coopMatLoadTensorNV(mb, b, 0, sliceTensorLayoutNV(lb, k, 16, tn, 16), decode1, decode4);
		acc = coopMatMulAdd(ma, mb, acc);
	}
	coopMatStoreTensorNV(acc, c, 0, sliceTensorLayoutNV(lc, tm, 16, tn, 16));
}

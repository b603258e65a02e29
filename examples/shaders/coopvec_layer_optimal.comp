#version 450 core
// coopvec_layer.comp with the weights in the device's inferencing-optimal
// layout (CONVERT_MATRIX in the script puts them there). Each invocation
// multiplies its own input vector x (K fp16 values) by the weight matrix W
// (N rows of K fp16 values) and stores y = W x as N fp16 values:
// fp16 x fp16 -> fp16 is the combination devices list (the H100 has no
// fp16 -> fp32 one; scripts/refused/coopvec_fp16_fp32.amber shows the refusal).
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_NV_cooperative_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable

const uint K = 32;
const uint N = 16;

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float16_t x[]; };
layout(std430, binding = 1) readonly buffer W { float16_t w[]; };
layout(std430, binding = 2) writeonly buffer Y { float16_t y[]; };

void main() {
	uint b = gl_GlobalInvocationID.x;
	coopvecNV<float16_t, K> in_;
	coopVecLoadNV(in_, x, b * K * 2);
	coopvecNV<float16_t, N> out_;
	coopVecMatMulNV(out_, in_, gl_ComponentTypeFloat16NV, w, 0, gl_ComponentTypeFloat16NV, N, K,
		gl_CooperativeVectorMatrixLayoutInferencingOptimalNV, false, 0);
	coopVecStoreNV(out_, y, b * N * 2);
}

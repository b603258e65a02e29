#version 450 core
// The cooperative-vector training operations: each invocation adds the
// outer product of its a (M fp16 values) and b (K fp16 values) into the
// gradient matrix G (M x K fp16, training-optimal layout) and the sum of
// its a into S (M fp16 values). fp16 accumulation is what the H100
// offers (cooperativeVectorTrainingFloat16Accumulation).
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_NV_cooperative_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable

const uint M = 16;
const uint K = 32;

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) readonly buffer B { float16_t b[]; };
layout(std430, binding = 2) buffer G { float16_t g[]; };
layout(std430, binding = 3) buffer S { float16_t s[]; };

void main() {
	uint i = gl_GlobalInvocationID.x;
	coopvecNV<float16_t, M> va;
	coopvecNV<float16_t, K> vb;
	coopVecLoadNV(va, a, i * M * 2);
	coopVecLoadNV(vb, b, i * K * 2);
	coopVecOuterProductAccumulateNV(va, vb, g, 0, 0, gl_CooperativeVectorMatrixLayoutTrainingOptimalNV, gl_ComponentTypeFloat16NV);
	coopVecReduceSumAccumulateNV(va, s, 0);
}

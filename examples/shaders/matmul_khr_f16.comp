#version 450
// Tiled matrix product C = A x B with KHR cooperative matrices: fp16 inputs,
// fp32 accumulation. A is MxK, B is KxN, C is MxN, all row-major. Each
// workgroup is one subgroup and computes one 16x16 tile of C.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require

layout(local_size_x = 32) in;

layout(set = 0, binding = 0) readonly buffer BufA { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer BufB { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer BufC { float c[]; };

layout(push_constant) uniform Dims { uint M, N, K; } dims;

const uint T = 16;

void main() {
    uint row = gl_WorkGroupID.y * T;
    uint col = gl_WorkGroupID.x * T;
    coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> acc =
        coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(0.0);
    for (uint k = 0; k < dims.K; k += T) {
        coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseA> ma;
        coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseB> mb;
        coopMatLoad(ma, a, row * dims.K + k, dims.K, gl_CooperativeMatrixLayoutRowMajor);
        coopMatLoad(mb, b, k * dims.N + col, dims.N, gl_CooperativeMatrixLayoutRowMajor);
        acc = coopMatMulAdd(ma, mb, acc);
    }
    coopMatStore(acc, c, row * dims.N + col, dims.N, gl_CooperativeMatrixLayoutRowMajor);
}

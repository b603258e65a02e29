#version 450
// Tiled matrix product C = A x B with KHR cooperative matrices: int8
// inputs, int32 accumulation. A is MxK, B is KxN, C is MxN, all row-major.
// Each workgroup is one subgroup and computes one 16x16 tile of C, stepping
// through K 32 at a time.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require

layout(local_size_x = 32) in;

layout(set = 0, binding = 0) readonly buffer BufA { int8_t a[]; };
layout(set = 0, binding = 1) readonly buffer BufB { int8_t b[]; };
layout(set = 0, binding = 2) writeonly buffer BufC { int c[]; };

layout(push_constant) uniform Dims { uint M, N, K; } dims;

const uint TM = 16;
const uint TN = 16;
const uint TK = 32;

void main() {
    uint row = gl_WorkGroupID.y * TM;
    uint col = gl_WorkGroupID.x * TN;
    coopmat<int, gl_ScopeSubgroup, TM, TN, gl_MatrixUseAccumulator> acc =
        coopmat<int, gl_ScopeSubgroup, TM, TN, gl_MatrixUseAccumulator>(0);
    for (uint k = 0; k < dims.K; k += TK) {
        coopmat<int8_t, gl_ScopeSubgroup, TM, TK, gl_MatrixUseA> ma;
        coopmat<int8_t, gl_ScopeSubgroup, TK, TN, gl_MatrixUseB> mb;
        coopMatLoad(ma, a, row * dims.K + k, dims.K, gl_CooperativeMatrixLayoutRowMajor);
        coopMatLoad(mb, b, k * dims.N + col, dims.N, gl_CooperativeMatrixLayoutRowMajor);
        acc = coopMatMulAdd(ma, mb, acc);
    }
    coopMatStore(acc, c, row * dims.N + col, dims.N, gl_CooperativeMatrixLayoutRowMajor);
}

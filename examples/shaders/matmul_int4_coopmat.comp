#version 450
// Q4 matrix product C = A x B with KHR cooperative matrices whose
// components are SPV_INTEL_int4 4-bit integers, reached through
// GL_EXT_spirv_intrinsics: no decode function, the weights are loaded as
// packed 4-bit coopmats (two per byte, the first in bits 0-3). A (MxK,
// activations) and B (KxN, weights) are row-major 4-bit, C (MxN) int32.
// glslang marks neither operand signed (GLSL knows no signedness of a
// spirv_type), so the products are of unsigned 4-bit values 0..15.
// Each workgroup is one subgroup and computes one 16x16 tile of C,
// stepping through K 32 at a time.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_spirv_intrinsics : require

// Capabilities Int4TypeINTEL (5112) and Int4CooperativeMatrixINTEL (5114),
// which SPV_INTEL_int4 requires of a cooperative matrix of them (glslang
// adds only what is listed here; coop adds 5114 when it is missing).
#define q4_t spirv_type(extensions = ["SPV_INTEL_int4"], capabilities = [5112, 5114], id = 21, 4, 0)

layout(local_size_x = 32) in;

layout(set = 0, binding = 0) readonly buffer BufA { uint8_t a[]; };
layout(set = 0, binding = 1) readonly buffer BufB { uint8_t b[]; };
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
        coopmat<q4_t, gl_ScopeSubgroup, TM, TK, gl_MatrixUseA> ma;
        coopmat<q4_t, gl_ScopeSubgroup, TK, TN, gl_MatrixUseB> mb;
        // Offsets and strides count bytes: two 4-bit elements each.
        coopMatLoad(ma, a, (row * dims.K + k) / 2, dims.K / 2, gl_CooperativeMatrixLayoutRowMajor);
        coopMatLoad(mb, b, (k * dims.N + col) / 2, dims.N / 2, gl_CooperativeMatrixLayoutRowMajor);
        acc = coopMatMulAdd(ma, mb, acc);
    }
    coopMatStore(acc, c, row * dims.N + col, dims.N, gl_CooperativeMatrixLayoutRowMajor);
}

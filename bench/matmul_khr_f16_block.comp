#version 450
// Matrix product C = A x B with KHR cooperative matrices, fp16 inputs and
// fp32 accumulation, all row-major. Each workgroup is one subgroup that
// computes a 64x64 block of C as 4x4 tiles of 16x16, so every fragment of
// A and B it loads feeds four multiply-adds.
#extension GL_KHR_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x = 32) in;

layout(set = 0, binding = 0) readonly buffer BufA { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer BufB { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer BufC { float c[]; };

layout(push_constant) uniform Dims { uint M, N, K; } dims;

const uint T = 16;
const uint TILES = 4;

void main() {
    uint row = gl_WorkGroupID.y * T * TILES;
    uint col = gl_WorkGroupID.x * T * TILES;
    coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator> acc[TILES][TILES];
    [[unroll]] for (uint i = 0; i < TILES; i++) {
        [[unroll]] for (uint j = 0; j < TILES; j++) {
            acc[i][j] = coopmat<float, gl_ScopeSubgroup, T, T, gl_MatrixUseAccumulator>(0.0);
        }
    }
    for (uint k = 0; k < dims.K; k += T) {
        coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseA> ma[TILES];
        coopmat<float16_t, gl_ScopeSubgroup, T, T, gl_MatrixUseB> mb[TILES];
        [[unroll]] for (uint i = 0; i < TILES; i++) {
            coopMatLoad(ma[i], a, (row + i * T) * dims.K + k, dims.K, gl_CooperativeMatrixLayoutRowMajor);
            coopMatLoad(mb[i], b, k * dims.N + col + i * T, dims.N, gl_CooperativeMatrixLayoutRowMajor);
        }
        [[unroll]] for (uint i = 0; i < TILES; i++) {
            [[unroll]] for (uint j = 0; j < TILES; j++) {
                acc[i][j] = coopMatMulAdd(ma[i], mb[j], acc[i][j]);
            }
        }
    }
    [[unroll]] for (uint i = 0; i < TILES; i++) {
        [[unroll]] for (uint j = 0; j < TILES; j++) {
            coopMatStore(acc[i][j], c, (row + i * T) * dims.N + col + j * T, dims.N, gl_CooperativeMatrixLayoutRowMajor);
        }
    }
}

#version 450
// Tiled matrix product C = A x B with NV cooperative matrices
// (GL_NV_cooperative_matrix): fp16 inputs and fp16 accumulation in 16x8
// tiles, K stepped 16 at a time. A is MxK, B is KxN, C is MxN, row-major.
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require

layout(local_size_x = 32) in;

layout(set = 0, binding = 0) readonly buffer BufA { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer BufB { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer BufC { float16_t c[]; };

layout(push_constant) uniform Dims { uint M, N, K; } dims;

void main() {
    uint row = gl_WorkGroupID.y * 16;
    uint col = gl_WorkGroupID.x * 8;
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 8> acc = fcoopmatNV<16, gl_ScopeSubgroup, 16, 8>(0.0);
    for (uint k = 0; k < dims.K; k += 16) {
        fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> ma;
        fcoopmatNV<16, gl_ScopeSubgroup, 16, 8> mb;
        coopMatLoadNV(ma, a, row * dims.K + k, dims.K, false);
        coopMatLoadNV(mb, b, k * dims.N + col, dims.N, false);
        acc = coopMatMulAddNV(ma, mb, acc);
    }
    coopMatStoreNV(acc, c, row * dims.N + col, dims.N, false);
}

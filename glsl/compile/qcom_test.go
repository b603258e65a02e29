package compile

import (
	"math"
	"testing"
)

// GL_QCOM_cooperative_matrix_conversion compiled, validated and run:
// lane i's array becomes row i of an accumulator, which is stored and
// extracted back; bitcastQCOM and extractSubArrayQCOM reinterpret and
// slice the rows.
func TestQCOMConversionRuns(t *testing.T) {
	src := `#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_EXT_shader_explicit_arithmetic_types_int32 : enable
#extension GL_QCOM_cooperative_matrix_conversion : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
	uint i = gl_LocalInvocationIndex;
	uint32_t row[8];
	for (uint j = 0u; j < 8u; j++) row[j] = i * 8u + j;
	coopmat<uint32_t, gl_ScopeSubgroup, 8, 8, gl_MatrixUseAccumulator> m;
	vectorToCoopmatQCOM(row, m);
	coopMatStore(m, v, 0u, 8u, gl_CooperativeMatrixLayoutRowMajor);
	uint32_t back[8];
	coopmatToVectorQCOM(m, back);
	float f[8];
	bitcastQCOM(back, f);
	uint32_t part[4];
	extractSubArrayQCOM(back, 2u, part);
	v[64u + i] = back[7];
	v[96u + i] = floatBitsToUint(f[1]);
	v[128u + i] = part[0];
}
`
	out := runShader(t, src, 1, make([]uint32, 160), nil)
	for r := 0; r < 8; r++ {
		for c := 0; c < 8; c++ {
			if out[r*8+c] != uint32(r*8+c) {
				t.Fatalf("m[%d][%d] = %d", r, c, out[r*8+c])
			}
		}
	}
	for i := 0; i < 32; i++ {
		want7, want1, want2 := uint32(i*8+7), uint32(i*8+1), uint32(i*8+2)
		if i >= 8 {
			want7, want1, want2 = 0, 0, 0 // lanes past the last row
		}
		if out[64+i] != want7 || math.Float32frombits(out[96+i]) != math.Float32frombits(want1) || out[128+i] != want2 {
			t.Errorf("lane %d: %d %#x %d", i, out[64+i], out[96+i], out[128+i])
		}
	}
}

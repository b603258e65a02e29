package lower_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/coopshader/coop/spirv"
)

// Loop and selection attributes become loop and selection controls, as
// glslang emits them; the dependency controls need SPIR-V 1.1 and the
// iteration counts SPIR-V 1.4.
const controlAttrs = `#version 450
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_control_flow_attributes2 : require
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() {
	uint s = 0;
	[[unroll]] for (uint i = 0; i < 4; i++) s += i;
	[[dont_unroll]] for (uint i = 0; i < v[0]; i++) s += 2u;
	[[dependency_infinite]] for (uint i = 0; i < 3; i++) s += v[i];
	[[dependency_length(4), unroll]] while (s < 100u) s += 7u;
	[[min_iterations(2), max_iterations(8), iteration_multiple(2), peel_count(1), partial_count(4)]]
	do { s++; } while (s < 200u);
	[[flatten]] if (s > 5u) s--;
	[[dont_flatten]] if (s > 6u) s--; else s++;
	[[branch]] switch (s & 3u) { case 0: s += 3u; break; default: s += 1u; }
	[[flatten]] switch (s & 1u) { case 1: s += 5u; break; default: break; }
	for (uint i = 0; i < 2; i++) s++;
	v[gl_LocalInvocationID.x] = s;
}
`

// controls lists a module's merge instructions with their control words.
func controls(m *spirv.Module) []string {
	var out []string
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpLoopMerge:
			out = append(out, fmt.Sprint("loop", in.Words[2:]))
		case spirv.OpSelectionMerge:
			out = append(out, fmt.Sprint("sel", in.Words[1:]))
		}
	}
	return out
}

func TestControlFlowAttributes(t *testing.T) {
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		m := compileSrc(t, "attrs.comp", []byte(controlAttrs), env)
		validate(t, m, env)
		got := controls(m)
		want := []string{"loop[1]", "loop[2]", "loop[4]", "loop[9 4]", "loop[496 2 8 2 1 4]"}
		if env == "vulkan1.0" {
			want = []string{"loop[1]", "loop[2]", "loop[0]", "loop[1]", "loop[0]"}
		}
		want = append(want, "sel[1]", "sel[2]", "sel[2]", "sel[1]", "loop[0]")
		if !slices.Equal(got, want) {
			t.Errorf("%s: controls %v, want %v", env, got, want)
		}
		// glslang keeps the dependency controls for SPIR-V 1.0, which
		// spirv-val rejects: compare with it from 1.1 on only.
		if ref := glslang(t, "attrs.comp", []byte(controlAttrs), env); ref != nil && env != "vulkan1.0" {
			if r := controls(ref); !slices.Equal(got, r) {
				t.Errorf("%s: controls %v, glslang %v", env, got, r)
			}
			if a, b := run(t, m, 1, make([]uint32, 4)), run(t, ref, 1, make([]uint32, 4)); !slices.Equal(a, b) {
				t.Errorf("%s: coop %v, glslang %v", env, a, b)
			}
		}
	}
}

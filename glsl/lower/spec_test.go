package lower_test

import (
	"slices"
	"testing"
)

// specExprs uses specialization constants in ?:, && || ^^ and a constant
// vector index: each must become an OpSpecConstantOp (array
// sizes and constant initializers cannot be computed at run time).
const specExprs = `#version 450
layout(local_size_x = 4) in;
layout(constant_id = 0) const bool FLAG = false;
layout(constant_id = 1) const uint A = 8;
layout(constant_id = 2) const uint B = 3;
layout(std430, binding = 0) buffer Buf { uint v[]; };

const uint PICK = FLAG ? A / 2 : B;
const bool ANY = FLAG || A > B;
const bool BOTH = FLAG && A > B;
const bool ONE = FLAG ^^ (A > B);
const uvec2 pair = uvec2(A * 2, B * 2);
shared uint tile[FLAG ? A : B + 1];

uint stride() { return FLAG ? A : B + 1; }

void main() {
	uint i = gl_LocalInvocationID.x;
	tile[i] = i;
	barrier();
	v[i] = PICK + (ANY ? 10 : 20) + (BOTH ? 100 : 200) + (ONE ? 1000 : 2000) +
		stride() * 10000 + pair[1] * 100000 + tile.length() + tile[(i + 1) % tile.length()];
}
`

func TestSpecConstantExpressions(t *testing.T) {
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		m := compileSrc(t, "spec.comp", []byte(specExprs), env)
		validate(t, m, env)
		got := run(t, m, 1, make([]uint32, 4))
		ref := glslang(t, "spec.comp", []byte(specExprs), env)
		if ref == nil {
			t.Skip("glslangValidator not present")
		}
		if want := run(t, ref, 1, make([]uint32, 4)); !slices.Equal(got, want) {
			t.Errorf("%s: coop %v\nglslang %v", env, got, want)
		}
	}
}

// intLocalSize sizes the workgroup with an int constant_id: the
// gl_WorkGroupSize composite needs a uint spec constant of the same SpecId.
const intLocalSize = `#version 450
layout(constant_id = 0) const int BLOCK_SIZE = 4;
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) buffer Buf { uint v[]; };
shared int tile[BLOCK_SIZE];

void main() {
	uint i = gl_LocalInvocationID.x;
	tile[i] = BLOCK_SIZE - int(i);
	barrier();
	v[i] = gl_WorkGroupSize.x * 100 + uint(tile[(i + 1) % gl_WorkGroupSize.x]);
}
`

func TestIntSpecConstantLocalSize(t *testing.T) {
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		m := compileSrc(t, "ls.comp", []byte(intLocalSize), env)
		validate(t, m, env)
		got := run(t, m, 1, make([]uint32, 4))
		ref := glslang(t, "ls.comp", []byte(intLocalSize), env)
		if ref == nil {
			t.Skip("glslangValidator not present")
		}
		if want := run(t, ref, 1, make([]uint32, 4)); !slices.Equal(got, want) {
			t.Errorf("%s: coop %v\nglslang %v", env, got, want)
		}
	}
}

// uintLocalSize sizes the workgroup with the same SpecId as a uint
// constant_id of another default: unspecialized, the workgroup is
// local_size_x (1) while WGS keeps its own default, as glslang has it.
const uintLocalSize = `#version 450
layout(constant_id = 0) const uint WGS = 4;
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) buffer Buf { uint v[]; };

void main() {
	v[gl_LocalInvocationID.x] = WGS * 100 + gl_WorkGroupSize.x * 10 + 1;
}
`

func TestUintSpecConstantLocalSize(t *testing.T) {
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		m := compileSrc(t, "ls.comp", []byte(uintLocalSize), env)
		validate(t, m, env)
		got := run(t, m, 1, make([]uint32, 4))
		if want := []uint32{411, 0, 0, 0}; !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", env, got, want)
		}
		ref := glslang(t, "ls.comp", []byte(uintLocalSize), env)
		if ref == nil {
			continue
		}
		if want := run(t, ref, 1, make([]uint32, 4)); !slices.Equal(got, want) {
			t.Errorf("%s: coop %v\nglslang %v", env, got, want)
		}
	}
}

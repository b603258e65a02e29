package compile

import (
	"strings"
	"testing"

	"github.com/coopshader/coop/spirv/text"
)

// TestSpirvIntrinsicsRun compiles GL_EXT_spirv_intrinsics instructions
// (core, extended set, by reference, literal operands) and checks what they
// compute on the executor.
func TestSpirvIntrinsicsRun(t *testing.T) {
	src := `#version 450
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint v[]; };

spirv_instruction(id = 128) uint iadd(uint a, uint b);                   // OpIAdd
spirv_instruction(set = "GLSL.std.450", id = 42) uint umax(uint a, uint b); // UMax
spirv_instruction(id = 61) uint load(spirv_by_reference uint p);          // OpLoad
spirv_instruction(id = 62) void store(spirv_by_reference uint p, uint x); // OpStore

void main() {
	uint i = gl_GlobalInvocationID.x;
	uint x = iadd(v[i], 10u);
	x = umax(x, 12u);
	store(v[i], x);
	v[i + 4u] = load(v[i]) * 2u;
}
`
	out := runShader(t, src, 1, []uint32{0, 1, 5, 7, 0, 0, 0, 0}, nil)
	want := []uint32{12, 12, 15, 17, 24, 24, 30, 34}
	for i := range want {
		if out[i] != want[i] {
			t.Errorf("v[%d] = %d, want %d", i, out[i], want[i])
		}
	}
}

// TestSpirvIntrinsicsModule checks the instructions, decorations, modes and
// storage classes the qualifiers put in the module.
func TestSpirvIntrinsicsModule(t *testing.T) {
	src := `#version 450
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 1) in;
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 32); // RoundingModeRTE 32
layout(std430, binding = 0) buffer B {
	spirv_decorate_string(extensions = ["SPV_GOOGLE_hlsl_functionality1"], 5635, "member") uint m;
} b;
spirv_decorate(0) float x = 0.5;                          // RelaxedPrecision
spirv_storage_class(6) uint w;                            // Private
spirv_instruction(capabilities = [4467], id = 128) uint add(uint a, spirv_literal uint b);
void main() {
	w = b.m;
	b.m = uint(x) + w;
}
`
	m, d := Compile("t.comp", []byte(src), Options{TargetEnv: "vulkan1.3"})
	if m == nil {
		t.Fatalf("compile:\n%v", d)
	}
	validate(t, m, "vulkan1.3")
	dis, err := text.Disassemble(m, text.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"OpCapability RoundingModeRTE",
		`OpExtension "SPV_KHR_float_controls"`,
		`OpExtension "SPV_GOOGLE_hlsl_functionality1"`,
		"OpExecutionMode %main RoundingModeRTE 32",
		`OpMemberDecorateString %B 0 UserSemantic "member"`,
		"OpDecorate %x RelaxedPrecision",
		"%w = OpVariable %_ptr_Private_uint Private",
	} {
		if !strings.Contains(string(dis), want) {
			t.Errorf("missing %q in:\n%s", want, dis)
		}
	}
}

func TestSpirvIntrinsicsErrors(t *testing.T) {
	const hdr = "#version 450\n#extension GL_EXT_spirv_intrinsics : require\nlayout(local_size_x = 1) in;\n"
	for _, c := range []struct{ name, src, want string }{
		{"needs the extension", "#version 450\nspirv_instruction(id = 128) uint f(uint a, uint b);\nvoid main() {}\n",
			"required extension not requested: GL_EXT_spirv_intrinsics"},
		{"no id", hdr + "spirv_instruction(set = \"GLSL.std.450\") float f(float a);\nvoid main() {}\n",
			"the instruction id is required"},
		{"body", hdr + "spirv_instruction(id = 128) uint f(uint a, uint b) { return a; }\nvoid main() {}\n",
			"cannot have a body"},
		{"literal on a user function", hdr + "uint f(spirv_literal uint a) { return a; }\nvoid main() { f(1u); }\n",
			"only allowed on parameters of spirv_instruction functions"},
		{"literal not constant", hdr + "layout(binding=0) buffer B { uint v; };\nspirv_instruction(id = 128) uint f(uint a, spirv_literal uint b);\nvoid main() { v = f(v, v); }\n",
			"spirv_literal argument must be a constant expression"},
		{"decorate string operand", hdr + "spirv_decorate(0, \"x\") float y;\nvoid main() {}\n",
			"string operands need spirv_decorate_string"},
		{"instruction on a variable", hdr + "spirv_instruction(id = 1) float y;\nvoid main() {}\n",
			"qualifier not supported on this declaration"},
	} {
		m, d := Compile("t.comp", []byte(c.src), Options{TargetEnv: "vulkan1.3"})
		if m != nil {
			t.Errorf("%s: compiled", c.name)
			continue
		}
		if !strings.Contains(d.Error(), c.want) {
			t.Errorf("%s: got %q, want %q", c.name, d.Error(), c.want)
		}
	}
}

package check

import (
	"strings"
	"testing"
)

// checkSrc runs the whole front end over a compute shader body.
func checkSrc(t *testing.T, src string) (*Program, string) {
	t.Helper()
	prog, d := frontEnd("t.comp", []byte(src))
	return prog, d.Error()
}

const hdr = "#version 450\nlayout(local_size_x = 64) in;\n"

const arith = "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types : require\n"

const bf16 = "#version 450\n#extension GL_EXT_bfloat16 : require\n#extension GL_EXT_shader_explicit_arithmetic_types : require\n"

// TestRules checks each rule of the walk from GLSL source: want is a
// substring of the expected diagnostics, or "" for a clean check. Lines are
// counted from the first line of src (hdr is two lines).
func TestRules(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"minimal", hdr + "void main() {}", ""},
		{"missing main", hdr + "void f() {}", "Missing entry point"},
		{"main prototype only", hdr + "void main();", "Missing entry point"},
		{"main signature", hdr + "int main() { return 0; }", "'main' : function cannot take any parameter(s) and must return void"},
		{"undeclared", hdr + "void main() { x = 1; }", "t.comp:3: 'x' : undeclared identifier"},
		{"redefinition", hdr + "void main() { int a; float a; }", "t.comp:3: 'a' : redefinition"},
		{"shadowing in nested block", hdr + "void main() { int a; { float a = 1.0; } }", ""},
		{"param scope shared with body", hdr + "void f(int a) { int a; }\nvoid main() {}", "t.comp:3: 'a' : redefinition"},
		{"global shadowed by local", hdr + "int g;\nvoid main() { float g = 1.0; }", ""},
		{"break outside loop", hdr + "void main() { break; }", "break statement only allowed in switch and loops"},
		{"continue in switch", hdr + "void main() { switch (1) { case 1: continue; } }", "continue statement only allowed in loops"},
		{"continue in loop", hdr + "void main() { for (int i = 0; i < 4; i++) { if (i == 2) continue; } }", ""},
		{"discard in compute", hdr + "void main() { discard; }", "'discard' : not supported in this stage: compute"},
		{"return value from void", hdr + "void main() { return 1; }", "void function cannot return a value"},
		{"missing return value", hdr + "int f() { return; }\nvoid main() { f(); }", "non-void function must return a value"},
		{"return conversion", hdr + "float f() { return 1; }\nvoid main() { f(); }", ""},
		{"return no conversion", hdr + "int f() { return 1.5; }\nvoid main() { f(); }", "type does not match"},
		{"duplicate case", hdr + "void main() { int x = 1; switch (x) { case 1: break; case 1: break; } }", "'case' : duplicated value"},
		{"two defaults", hdr + "void main() { int x = 1; switch (x) { default: break; default: break; } }", "multiple default labels"},
		{"case not constant", hdr + "void main() { int x = 1; switch (x) { case x: break; } }", "case label must be a constant integer expression"},
		{"switch on float", hdr + "void main() { switch (1.0) { default: break; } }", "must be a scalar integer"},
		{"statement before case", hdr + "void main() { int x = 1; switch (x) { x = 2; case 1: break; } }", "cannot have statements before first case/default label"},
		{"if condition bool", hdr + "void main() { if (1) {} }", "boolean expression expected"},
		{"while condition bool", hdr + "void main() { while (1.0) {} }", "boolean expression expected"},
		{"assign to const", hdr + "const int k = 1;\nvoid main() { k = 2; }", "t.comp:4: '=' :  l-value required"},
		{"assign to spec const", hdr + "layout(constant_id = 1) const int k = 1;\nvoid main() { k = 2; }", "can't modify a const"},
		{"assign to input", hdr + "void main() { gl_GlobalInvocationID = uvec3(0); }", "can't modify shader input"},
		{"assign to uniform block", hdr + "layout(binding=0) uniform U { float u; };\nvoid main() { u = 1.0; }", "can't modify a uniform"},
		{"assign readonly buffer", hdr + "layout(binding=0) readonly buffer B { float b[]; };\nvoid main() { b[0] = 1.0; }", "can't modify a readonly buffer"},
		{"readonly member", hdr + "layout(binding=0) buffer B { readonly float r; float w; };\nvoid main() { w = r; r = 1.0; }", "t.comp:4: '=' :  l-value required (can't modify a readonly buffer)"},
		{"const in param", hdr + "void f(const in int a) { a = 1; }\nvoid main() { f(1); }", "can't modify a const"},
		{"out param needs l-value", hdr + "void f(out int a) { a = 1; }\nvoid main() { f(1); }", "l-value required"},
		{"inout exact type", hdr + "void f(inout float a) {}\nvoid main() { int i = 0; f(i); }", "no matching overloaded function found"},
		{"swizzle repeat l-value", hdr + "void main() { vec2 v; v.xx = vec2(1.0); }", "l-value required"},
		{"overload by param type", hdr + "int f(int a) { return a; }\nint f(float a) { return 2; }\nvoid main() { int x = f(1); int y = f(1.0); }", ""},
		{"ambiguous overload", hdr + "void f(float a, int b) {}\nvoid f(int a, float b) {}\nvoid main() { f(1, 1); }", "ambiguous"},
		{"return type overload only", hdr + "int f() { return 1; }\nfloat f() { return 1.0; }\nvoid main() {}", "overloaded functions must have the same return type"},
		{"function redefinition", hdr + "void f() {}\nvoid f() {}\nvoid main() {}", "'f' : redefinition"},
		{"prototype then definition", hdr + "float f(float);\nvoid main() { f(1.0); }\nfloat f(float x) { return x; }", ""},
		{"called without body", hdr + "float f(float);\nvoid main() { f(1.0); }", "No function definition (body) found"},
		{"recursion", hdr + "int f(int);\nint g(int x) { return f(x); }\nint f(int x) { return g(x); }\nvoid main() { f(1); }", "Recursion detected"},
		{"self recursion", hdr + "int f(int x) { return f(x); }\nvoid main() { f(1); }", "Recursion detected"},
		{"const needs init", hdr + "void main() { const int k; }", "must be initialized"},
		{"global const not constant", hdr + "int g = 1;\nconst int k = g;\nvoid main() {}", "global const initializers must be constant"},
		{"local const from runtime", hdr + "void main() { int a = 1; const int k = a; }", ""},
		{"local const runtime not writable", hdr + "void main() { int a = 1; const int k = a; k = 2; }", "l-value required"},
		{"array size constant", hdr + "void main() { int n = 2; float a[n]; }", "array size must be a constant integer expression"},
		{"array size positive", hdr + "float a[0];\nvoid main() {}", "array size must be a positive integer"},
		{"index out of range", hdr + "void main() { float a[4]; a[4] = 1.0; }", "index out of range"},
		{"vector index out of range", hdr + "void main() { vec3 v; v[3] = 1.0; }", "index out of range"},
		{"initializer list", hdr + "void main() { float a[3] = {1.0, 2.0, 3.0}; vec2 v = {1.0, 2.0}; }", ""},
		{"initializer list count", hdr + "void main() { float a[3] = {1.0, 2.0}; }", "wrong number of initializer list elements"},
		{"unsized from init", hdr + "void main() { float a[] = float[](1.0, 2.0); int n = a.length(); }", ""},
		{"struct", hdr + "struct S { int a; vec2 b; };\nvoid main() { S s = S(1, vec2(2.0)); s.b.y = 3.0; s.c = 1; }", "t.comp:4: 'c' :  no such field in structure"},
		{"swizzle", hdr + "void main() { vec4 v; vec3 w = v.xyz; vec2 z = v.rq; }", "illegal vector field selection"},
		{"swizzle range", hdr + "void main() { vec2 v; float z = v.z; }", "vector field selection out of range"},
		{"shared in function", hdr + "void main() { shared float s; }", "'shared' : not allowed in nested scope"},
		{"shared global", hdr + "shared float s[64];\nvoid main() { s[gl_LocalInvocationIndex] = 1.0; barrier(); }", ""},
		{"uniform non-opaque", hdr + "uniform float u;\nvoid main() {}", "non-opaque uniforms outside a block"},
		{"buffer outside block", hdr + "buffer float b;\nvoid main() {}", "buffers can only be declared as blocks"},
		{"layout on local", hdr + "void main() { layout(binding=0) int x; }", "layout qualifiers are not allowed on local variables"},
		{"spec constant", hdr + "layout(constant_id = 3) const int N = 8;\nshared float s[N];\nvoid main() { int m = s.length(); }", ""},
		{"spec constant vector", hdr + "layout(constant_id = 3) const vec2 v = vec2(1.0);\nvoid main() {}", "can only be applied to 'const'-qualified scalar"},
		{"spec constant needs const", hdr + "layout(constant_id = 3) int v = 1;\nvoid main() {}", "can only be applied to 'const'-qualified scalar"},
		{"local size id", "#version 450\nlayout(local_size_x_id = 1, local_size_y = 4) in;\nvoid main() { uvec3 s = gl_WorkGroupSize; }", ""},
		{"local size zero", "#version 450\nlayout(local_size_x = 0) in;\nvoid main() {}", "must be at least 1"},
		{"unknown layout", hdr + "layout(bogus) buffer B { float b[]; };\nvoid main() {}", "'bogus' : unrecognized layout identifier"},
		{"implicitly sized member", hdr + "layout(binding=0) buffer B { float a[]; float b; };\nvoid main() { a[2] = 1.0; }", ""},
		{"implicitly sized variable index", hdr + "layout(binding=0) buffer B { float a[]; float b; };\nvoid main() { int i = 0; a[i] = 1.0; }", "array must be redeclared with a size"},
		{"unsized in uniform block", hdr + "layout(binding=0) uniform U { float a[]; };\nvoid main() {}", "'a' : array size required"},
		{"runtime array length", hdr + "layout(binding=0) buffer B { float a[]; } b;\nvoid main() { int n = b.a.length(); }", ""},
		{"default block layout", hdr + "layout(std430) uniform;\nlayout(binding=0) uniform U { float u[4]; };\nvoid main() {}", ""},
		{"push constant", hdr + "layout(push_constant) uniform P { uint n; } pc;\nvoid main() { uint m = pc.n; }", ""},
		{"float16 without extension", hdr + "void main() { float16_t h; }", "t.comp:3: 'float16_t' : required extension not requested"},
		{"float16 with extension", "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable\nlayout(local_size_x = 1) in;\nvoid main() { float16_t h = 1.0hf; f16vec2 v = f16vec2(h); }", ""},
		{"int64 implied by umbrella", "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types : enable\nlayout(local_size_x = 1) in;\nvoid main() { int64_t a = 1l; uint8_t b = uint8_t(2); }", ""},
		{"half literal without extension", hdr + "void main() { float f = 1.0hf; }", "required extension not requested"},
		{"coopmat without extension", hdr + "void main() { coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> m; }", "'coopmat' : required extension not requested: GL_KHR_cooperative_matrix"},
		{"subgroup without extension", hdr + "void main() { uint s = gl_SubgroupSize; }", "'gl_SubgroupSize' : required extension not requested"},
		{"subgroup implied basic", "#version 450\n#extension GL_KHR_shader_subgroup_ballot : enable\nlayout(local_size_x = 1) in;\nvoid main() { uint s = gl_SubgroupSize; uvec4 b = subgroupBallot(true); subgroupBarrier(); }", ""},
		{"builtin without extension", hdr + "void main() { bool e = subgroupElect(); }", "'subgroupElect' : required extension not requested"},
		{"extension disabled again", "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable\n#extension GL_EXT_shader_explicit_arithmetic_types_float16 : disable\nlayout(local_size_x = 1) in;\nvoid main() { float16_t h; }", "required extension not requested"},
		{"buffer reference", "#version 450\n#extension GL_EXT_buffer_reference : enable\n#extension GL_EXT_shader_explicit_arithmetic_types_int64 : enable\nlayout(local_size_x = 1) in;\n" +
			"layout(buffer_reference) buffer Node;\nlayout(buffer_reference, std430) buffer Node { Node next; float v; };\n" +
			"layout(push_constant) uniform P { Node head; uint64_t addr; } pc;\nvoid main() { Node n = pc.head.next; n.v = 1.0; Node m = Node(pc.addr); }", ""},
		{"buffer reference without extension", hdr + "layout(buffer_reference) buffer R { float v; };\nvoid main() {}", "required extension not requested: GL_EXT_buffer_reference"},
		{"decode callback", "#version 450\n#extension GL_NV_cooperative_matrix2 : enable\n#extension GL_KHR_memory_scope_semantics : enable\n#extension GL_EXT_shader_explicit_arithmetic_types : enable\n#extension GL_EXT_buffer_reference : enable\nlayout(local_size_x = 32) in;\n" +
			"layout(buffer_reference, std430, buffer_reference_align = 2) buffer H { float16_t f; };\nlayout(binding = 0) buffer B { float16_t x[]; };\n" +
			"float16_t dec(const in H b, const in uint32_t bc[2], const in uint32_t ci[2]) { return b.f; }\n" +
			"float16_t bad(H b, const in uint32_t bc[2], const in uint32_t ci[2]) { return b.f; }\n" +
			"void main() { coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> A; tensorLayoutNV<2> t = createTensorLayoutNV(2);\n" +
			"coopMatLoadTensorNV(A, x, 0, t, dec);\ncoopMatLoadTensorNV(A, x, 0, t, bad); }", "t.comp:13: 'bad(1;u1[2];u1[2];' : function parameters must all be qualified 'const in'"},
		{"sequence", hdr + "void main() { int a = 1, b = 2; a = (b++, b + 1); }", ""},
		{"ternary", hdr + "void main() { int a = 1; float f = a > 0 ? 1.0 : 2; }", ""},
		{"implicit int to float", hdr + "void main() { float f = 1; uint u = 2; float g = u * f; }", ""},
		{"no implicit float to int", hdr + "void main() { int i = 1.0; }", "cannot convert from ' const float' to ' temp int'"},
		{"matrix ops", hdr + "void main() { mat3 m = mat3(1.0); vec3 v = m * vec3(1.0); mat2x3 a; mat3x2 b; mat3 c = a * b; }", ""},
		{"length of vector", hdr + "const int n = vec3(1.0).length();\nfloat a[n];\nvoid main() {}", ""},
		{"constant folding", hdr + "const int k = (3 + 4) * 2 - 1;\nfloat a[k];\nvoid main() { int n = a.length(); }", ""},
		{"gl reserved builtin const", hdr + "void main() { ivec3 m = gl_MaxComputeWorkGroupSize; }", ""},
		{"image", hdr + "layout(binding = 0, rgba8) uniform image2D img;\nvoid main() { vec4 t = imageLoad(img, ivec2(0)); imageStore(img, ivec2(1), t); }", ""},
		{"undeclared type", hdr + "void main() { Foo f; }", "syntax error"},
		// GL_EXT_bfloat16: a bfloat16 right operand of a compound assignment
		// widens to the float left operand (as in glslang); bfloat16 has no
		// arithmetic of its own (glslang accepts h += h but emits an OpFAdd
		// on bfloat16 that spirv-val rejects), and a plain binary operator
		// does not widen it.
		{"bfloat16 compound widens", bf16 + "void main() { bfloat16_t h = bfloat16_t(2.0); float a = 1.0; a += h; a *= h; vec2 w = vec2(a); w -= bf16vec2(h); w /= h; }", ""},
		{"bfloat16 compound to float16", bf16 + "void main() { bfloat16_t h; float16_t x; x += h; }", "t.comp:4:"},
		{"bfloat16 arithmetic", bf16 + "void main() { bfloat16_t h; h += h; }", "wrong operand types"},
		// bitfieldExtract/Insert take 32-bit integers only, as in glslang:
		// narrower ones widen (the result is int), 64-bit ones match nothing.
		{"bitfieldExtract widens int16", arith + "void main() { int16_t s = int16_t(5); int16_t q = bitfieldExtract(s, 0, 2); }", "t.comp:3: '=' :  cannot convert from ' temp int' to ' temp int16_t'"},
		{"bitfieldExtract int64", arith + "void main() { int64_t s = 5l; int64_t r = bitfieldExtract(s, 0, 2); }", "t.comp:3: 'bitfieldExtract' :  no matching overloaded function found"},
		{"bitfieldReverse int16", arith + "void main() { int16_t s = int16_t(5); int16_t r = bitfieldReverse(s); }", ""},
		{"attribute without extension", hdr + "void main() {\n[[unroll]] for (int i = 0; i < 4; i++) {}\n}", "t.comp:4: 'attribute' : required extension not requested"},
		{"attribute with extension", "#version 450\n#extension GL_EXT_control_flow_attributes : enable\nvoid main() { [[unroll]] for (int i = 0; i < 4; i++) {} [[flatten]] if (true) {} }", ""},
		{"bfloat16 binary", bf16 + "void main() { bfloat16_t h; float a = 1.0; a = a * h; }", "wrong operand types"},
	}
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			_, out := checkSrc(t, tc.src)
			if tc.want == "" {
				if out != "" {
					t.Errorf("unexpected diagnostics:\n%s", out)
				}
				return
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("want %q in:\n%s", tc.want, out)
			}
		})
	}
}

// TestImplicitArraySize checks that an unsized member that is not last
// takes its size from the largest constant index.
func TestImplicitArraySize(t *testing.T) {
	prog, out := checkSrc(t, hdr+"layout(binding=0) buffer B { float a[]; float b; };\nvoid main() { a[2] = 1.0; a[5] = a[1]; }")
	if out != "" {
		t.Fatal(out)
	}
	if n := prog.Globals[0].Type.Struct.Fields[0].Type.N; n != 6 {
		t.Errorf("a has %d elements, want 6", n)
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunFaultNamesShaderLine: coop run compiles GLSL with -g, so an
// out-of-bounds write in an inline shader fails naming the script's file
// and the line of the write.
func TestRunFaultNamesShaderLine(t *testing.T) {
	script := `SHADER compute s GLSL
#version 450
layout(local_size_x = 4) in;
layout(binding = 0) buffer B { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    data[i + 100u] = i;
}
END

BUFFER buf DATA_TYPE uint32 SIZE 4 FILL 0

PIPELINE compute p
  ATTACH s
  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN p 1 1 1
`
	path := filepath.Join(t.TempDir(), "oob.amber")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, out, errs := runCLI("run", path)
	if rc != 1 || !strings.Contains(out+errs, "RUN p: error: "+path+":7: instruction ") {
		t.Fatalf("rc %d\n%s%s", rc, out, errs)
	}
}

// TestCompileG0StripsNames: -g0 leaves no OpName in the module (the
// default keeps them, as glslangValidator does).
func TestCompileG0StripsNames(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a.comp")
	os.WriteFile(src, []byte("#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer Blockname { uint v; };\nvoid main() { v = 1u; }\n"), 0o644)
	for _, c := range []struct {
		flag  string
		names bool
	}{{"-g0", false}, {"-g", true}} {
		out := filepath.Join(dir, "a"+c.flag+".spv")
		if rc, so, se := runCLI("compile", c.flag, src, "-o", out); rc != 0 {
			t.Fatalf("%s: rc %d %s%s", c.flag, rc, so, se)
		}
		b, _ := os.ReadFile(out)
		if got := strings.Contains(string(b), "Blockname"); got != c.names {
			t.Errorf("%s: names present %v", c.flag, got)
		}
	}
}

// TestRunCheckExamples: the examples have no undefined behaviour that
// --check sees (no false alarms on correct shaders).
func TestRunCheckExamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*.amber"))
	if len(files) == 0 {
		t.Skip("no examples")
	}
	rc, out, errs := runCLI(append([]string{"run", "--check"}, files...)...)
	if rc != 0 {
		t.Fatalf("rc %d\n%s%s", rc, out, errs)
	}
}

// TestRunDeterministicAtomics: float atomics across workgroups and a
// racing store give the same dump over 10 runs of coop run (workgroups
// run in index order by default).
func TestRunDeterministicAtomics(t *testing.T) {
	script := `SHADER compute s GLSL
#version 450
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 32) in;
layout(binding = 0) buffer B { float sum; uint last; };
void main() {
    atomicAdd(sum, float(gl_GlobalInvocationID.x) * 0.1);
    last = gl_GlobalInvocationID.x;
}
END

BUFFER buf DATA_TYPE uint32 SIZE 2 FILL 0

PIPELINE compute p
  ATTACH s
  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 BINDING 0
END

RUN p 64 1 1
EXPECT buf IDX 4 EQ 2047
`
	path := filepath.Join(t.TempDir(), "atomics.amber")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var first string
	for r := range 10 {
		rc, out, errs := runCLI("run", "--dump", "buf", path)
		if rc != 0 {
			t.Fatalf("run %d: rc %d\n%s%s", r, rc, out, errs)
		}
		if r == 0 {
			first = out
			if !strings.Contains(out, "1 passed") || !strings.Contains(out, "buf") {
				t.Fatalf("no pass or dump:\n%s", out)
			}
		} else if out != first {
			t.Fatalf("run %d dumped\n%s\nrun 0\n%s", r, out, first)
		}
	}
}

// TestRunCheckDecodeSideEffects: --check reports a decode function that
// writes memory, naming its line.
func TestRunCheckDecodeSideEffects(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "shaders", "coopmat2_int8_weights.comp"))
	if err != nil {
		t.Skip("example absent")
	}
	script, _ := os.ReadFile(filepath.Join("..", "..", "examples", "coopmat2_int8_weights.amber"))
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "shaders"), 0o755)
	bad := strings.Replace(string(src), "\treturn float16_t(w.q)", "\tc[0] = 1.0;\n\treturn float16_t(w.q)", 1)
	os.WriteFile(filepath.Join(dir, "shaders", "coopmat2_int8_weights.comp"), []byte(bad), 0o644)
	path := filepath.Join(dir, "decode.amber")
	os.WriteFile(path, script, 0o644)
	rc, out, errs := runCLI("run", "--check", path)
	if rc != 1 || !strings.Contains(out+errs, "coopmat2_int8_weights.comp:23: instruction ") ||
		!strings.Contains(out+errs, "undefined behaviour (--check): a decode function writes memory") {
		t.Fatalf("--check: rc %d\n%s%s", rc, out, errs)
	}
}

// TestRunCheckCoopRules: --check reports the cooperative instructions'
// undefined behaviour, naming the rule and the shader's file:line; each
// case is an example with one edit, which runs clean unchanged
// (TestRunCheckExamples).
func TestRunCheckCoopRules(t *testing.T) {
	for _, c := range []struct {
		example, shader string
		edit            [2]string // in the shader
		scriptEdit      [2]string // in the script
		want            string
	}{
		{"matmul_khr_f16", "matmul_khr_f16.comp", [2]string{"coopMatStore(acc, c, row * dims.N + col,", "coopMatStore(acc, c, row * dims.N + col + 8u,"}, [2]string{},
			"matmul_khr_f16.comp:31: instruction %s (OpCooperativeMatrixStoreKHR): invocation (224,7,0): address %s: undefined behaviour (--check): row 15 of the 16x16 matrix (bytes 65504 to 65568) lies outside its 65536-byte buffer"},
		{"matmul_khr_f16", "matmul_khr_f16.comp", [2]string{"coopMatStore(acc, c, row * dims.N + col, dims.N,", "coopMatStore(acc, c, row * dims.N + col, 0u,"}, [2]string{},
			"undefined behaviour (--check): a store's Stride must be greater than 0: every row of the 16x16 matrix is written to the same bytes"},
		{"matmul_nv_f16", "matmul_nv_f16.comp", [2]string{"row * dims.K + k,", "row * dims.K + k + 1u,"}, [2]string{},
			"undefined behaviour (--check): the pointer is at byte 2 of its buffer, not aligned to 16 bytes"},
		{"coopvec_layer", "coopvec_layer.comp", [2]string{"coopVecLoadNV(in_, x, b * K * 2);", "coopVecLoadNV(in_, x, b * K * 2 + 8);"}, [2]string{},
			"coopvec_layer.comp:22: instruction %s = OpCooperativeVectorLoadNV): invocation (0,0,0): address %s: undefined behaviour (--check): the offset 8 is not a multiple of 16 bytes"},
		{"coopvec_layer", "coopvec_layer.comp", [2]string{"gl_CooperativeVectorMatrixLayoutRowMajorNV, false, K * 2);", "gl_CooperativeVectorMatrixLayoutRowMajorNV, false, K * 4);"}, [2]string{},
			"undefined behaviour (--check): row 8 of the 16x32 matrix (bytes 1024 to 1088) lies outside its 1024-byte buffer"},
		{"coopmat2_int8_weights", "coopmat2_int8_weights.comp", [2]string{"sliceTensorLayoutNV(la, tm, 16, k, 16)", "sliceTensorLayoutNV(la, tm + 8u, 16, k, 16)"}, [2]string{},
			"undefined behaviour (--check): element (8, 0) of the 16x16 matrix maps to a tensor coordinate outside the layout's dimensions, and the layout's clamp mode is Undefined"},
	} {
		src, err := os.ReadFile(filepath.Join("..", "..", "examples", "shaders", c.shader))
		if err != nil {
			t.Skip("examples absent")
		}
		script, _ := os.ReadFile(filepath.Join("..", "..", "examples", c.example+".amber"))
		if !strings.Contains(string(src), c.edit[0]) || !strings.Contains(string(script), c.scriptEdit[0]) {
			t.Fatalf("%s: the example changed; the test's edit no longer applies", c.example)
		}
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "shaders"), 0o755)
		os.WriteFile(filepath.Join(dir, "shaders", c.shader), []byte(strings.Replace(string(src), c.edit[0], c.edit[1], 1)), 0o644)
		path := filepath.Join(dir, c.example+".amber")
		os.WriteFile(path, []byte(strings.Replace(string(script), c.scriptEdit[0], c.scriptEdit[1], 1)), 0o644)
		rc, out, errs := runCLI("run", "--check", path)
		// %s stands for what varies (instruction index, address).
		ok := rc == 1
		for _, part := range strings.Split(c.want, "%s") {
			ok = ok && strings.Contains(out+errs, part)
		}
		if !ok {
			t.Errorf("%s: rc %d, want %q\n%s%s", c.example, rc, c.want, out, errs)
		}
	}
}

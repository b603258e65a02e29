package compile

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/pp"
	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/num"
	"github.com/coopshader/coop/spirv"
	coopval "github.com/coopshader/coop/validate"
)

func refTool(name string) string { return reftool.Path(name) }

func compileFile(t *testing.T, path string, opts Options) *spirv.Module {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, d := Compile(path, src, opts)
	if m == nil {
		t.Fatalf("%s:\n%v", path, d)
	}
	return m
}

// vulkanWords compiles src for vulkan1.3, validates the module and returns
// its words.
func vulkanWords(t *testing.T, name, src string) []uint32 {
	t.Helper()
	m, d := Compile(name, []byte(src), Options{TargetEnv: "vulkan1.3"})
	if m == nil {
		t.Fatalf("compile:\n%v", d)
	}
	validate(t, m, "vulkan1.3")
	words, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	return words
}

// validate runs coop's validator on m, and spirv-val when it is available.
func validate(t *testing.T, m *spirv.Module, env string) {
	t.Helper()
	coopValidate(t, m, env)
	val := refTool("spirv-val")
	if val == "" {
		return
	}
	b, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "m.spv")
	os.WriteFile(f, b, 0o644)
	// spirv-val names the plain SPIR-V environments spvX.Y.
	if out, err := exec.Command(val, "--target-env", strings.Replace(env, "spirv", "spv", 1), f).CombinedOutput(); err != nil {
		t.Errorf("spirv-val --target-env %s: %v\n%s", env, err, out)
	}
}

// coopValidate runs coop's validator on m for env.
func coopValidate(t *testing.T, m *spirv.Module, env string) {
	t.Helper()
	if _, err := coopval.Validate(m, coopval.Options{TargetEnv: strings.Replace(env, "spirv", "spv", 1)}); err != nil {
		t.Errorf("coop val --target-env %s: %v", env, err)
	}
}

func TestExamplesValidate(t *testing.T) {
	files, _ := filepath.Glob("../../examples/shaders/*.comp")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, f := range files {
		envs := []string{"vulkan1.1", "vulkan1.2", "vulkan1.3", "vulkan1.4"}
		if src, _ := os.ReadFile(f); bytes.Contains(src, []byte("GL_NV_cooperative_matrix2")) {
			envs = envs[2:] // cooperative matrix 2 needs SPIR-V 1.6
		}
		for _, env := range envs {
			m := compileFile(t, f, Options{TargetEnv: env})
			validate(t, m, env)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, _ := compileFile(t, "../../examples/shaders/matmul_khr_f16.comp", Options{TargetEnv: "vulkan1.3"}).Encode()
	b, _ := compileFile(t, "../../examples/shaders/matmul_khr_f16.comp", Options{TargetEnv: "vulkan1.3"}).Encode()
	if string(a) != string(b) {
		t.Fatal("two compilations differ")
	}
}

func TestDefinesAndErrors(t *testing.T) {
	src := "#version 450\nlayout(local_size_x = N) in;\nvoid main() { int x = y; }\n"
	_, d := Compile("e.comp", []byte(src), Options{Defines: []pp.Define{{Name: "N", Value: "4"}}})
	if !d.HasErrors() || !strings.Contains(d.Error(), "e.comp:3: 'y' : undeclared identifier") {
		t.Fatalf("got %q", d.Error())
	}
	if _, d := Compile("e.comp", []byte("void main(){}"), Options{TargetEnv: "vulkan9"}); !d.HasErrors() {
		t.Fatal("bad target env accepted")
	}
}

// TestCodeGeneratorErrorPosition checks that an error of the code
// generator is reported at its own source line, once, glslang style.
func TestCodeGeneratorErrorPosition(t *testing.T) {
	src := "#version 450\nlayout(local_size_x = 1) in;\nstruct S { int a; float b; };\nlayout(binding = 0) buffer B { S s[]; };\n" +
		"void main() {\n\tif (s[0] == s[1]) s[2].a = 1;\n}\n"
	_, d := Compile("g.comp", []byte(src), Options{})
	if !d.HasErrors() {
		t.Skip("the code generator now compares aggregates")
	}
	out := d.Error()
	if !strings.HasPrefix(out, "ERROR: g.comp:6: '' : ") || strings.Count(out, "ERROR: g.comp") != 1 {
		t.Fatalf("got %q", out)
	}
}

func TestMatmulOnCPU(t *testing.T) {
	const M, N, K = 32, 48, 64
	rng := rand.New(rand.NewPCG(1, 2))
	a := make([]float64, M*K)
	b := make([]float64, K*N)
	for i := range a {
		a[i] = float64(rng.IntN(17)-8) / 4
	}
	for i := range b {
		b[i] = float64(rng.IntN(17)-8) / 4
	}
	want := make([]float64, M*N)
	for i := 0; i < M; i++ {
		for j := 0; j < N; j++ {
			for k := 0; k < K; k++ {
				want[i*N+j] += a[i*K+k] * b[k*N+j]
			}
		}
	}
	cases := []struct {
		file      string
		elem      int // input element size
		tileN     int
		intInputs bool
		halfOut   bool
	}{
		{"matmul_khr_f16.comp", 2, 16, false, false},
		{"matmul_nv_f16.comp", 2, 8, false, true},
		{"matmul_khr_i8.comp", 1, 16, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			m := compileFile(t, "../../examples/shaders/"+tc.file, Options{TargetEnv: "vulkan1.3"})
			words, err := m.Words()
			if err != nil {
				t.Fatal(err)
			}
			dev := cpu.New(cpu.Options{})
			enc := func(vals []float64) []byte {
				out := make([]byte, len(vals)*tc.elem)
				for i, v := range vals {
					if tc.intInputs {
						out[i] = byte(int8(v * 4))
					} else {
						binary.LittleEndian.PutUint16(out[2*i:], uint16(num.Encode(v, 5, 10, true)))
					}
				}
				return out
			}
			ba, _ := dev.NewBuffer(M*K*tc.elem, backend.UsageStorage)
			bb, _ := dev.NewBuffer(K*N*tc.elem, backend.UsageStorage)
			bc, _ := dev.NewBuffer(M*N*4, backend.UsageStorage)
			ba.Write(0, enc(a))
			bb.Write(0, enc(b))
			pc := make([]byte, 12)
			binary.LittleEndian.PutUint32(pc[0:], M)
			binary.LittleEndian.PutUint32(pc[4:], N)
			binary.LittleEndian.PutUint32(pc[8:], K)
			_, err = dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{uint32(N / tc.tileN), M / 16, 1},
				Bindings: []backend.Binding{{Binding: 0, Buffer: ba}, {Binding: 1, Buffer: bb}, {Binding: 2, Buffer: bc}}, PushConstants: pc})
			if err != nil {
				t.Fatal(err)
			}
			out := make([]byte, M*N*4)
			bc.Read(0, out)
			for i := range want {
				bits := binary.LittleEndian.Uint32(out[4*i:])
				var got float64
				w := want[i]
				if tc.halfOut {
					got = num.Decode(uint64(binary.LittleEndian.Uint16(out[2*i:])), 5, 10, true)
				} else if tc.intInputs {
					got = float64(int32(bits))
					w *= 16
				} else {
					got = float64(math.Float32frombits(bits))
				}
				if got != w {
					t.Fatalf("C[%d][%d] = %v, want %v", i/N, i%N, got, w)
				}
			}
		})
	}
}

// TestLocalSizeIDBefore16 checks that local_size_*_id gives LocalSize plus a
// WorkgroupSize spec-constant composite before SPIR-V 1.6: LocalSizeId
// there needs maintenance4, which Vulkan 1.2 devices may lack.
func TestLocalSizeIDBefore16(t *testing.T) {
	src := "#version 450\nlayout(local_size_x_id = 0) in;\nlayout(binding = 0) buffer B { uint v[]; };\nvoid main() { v[gl_LocalInvocationIndex] = gl_WorkGroupSize.x; }\n"
	for _, env := range []string{"vulkan1.1", "vulkan1.2", "vulkan1.3"} {
		m, d := Compile("t.comp", []byte(src), Options{TargetEnv: env})
		if m == nil {
			t.Fatalf("%s: %v", env, d)
		}
		validate(t, m, env)
		hasID := false
		for _, in := range m.Insts {
			hasID = hasID || in.Op == spirv.OpExecutionModeId
		}
		if hasID != (env == "vulkan1.3") {
			t.Errorf("%s: OpExecutionModeId present = %v", env, hasID)
		}
	}
}

// TestExtensionNeedsSPIRV16 checks glslang's rule that cooperative matrix 2
// and its decode vectors need SPIR-V 1.6 (vulkan1.3 and later).
func TestExtensionNeedsSPIRV16(t *testing.T) {
	src := "#version 450\n#extension GL_NV_cooperative_matrix2 : enable\nlayout(local_size_x = 1) in;\nvoid main() {}\n"
	for _, env := range []string{"vulkan1.0", "vulkan1.2", "spirv1.5"} {
		m, d := Compile("t.comp", []byte(src), Options{TargetEnv: env})
		if m != nil || !strings.Contains(d.Error(), "t.comp:2: 'GL_NV_cooperative_matrix2' : not supported for current targeted SPIR-V version") {
			t.Errorf("%s: %v", env, d)
		}
	}
	for _, env := range []string{"vulkan1.3", "vulkan1.4", "spirv1.6"} {
		if m, d := Compile("t.comp", []byte(src), Options{TargetEnv: env}); m == nil {
			t.Errorf("%s: %v", env, d)
		}
	}
}

// TestTargetVersionRules checks glslang's rules that depend on the target's
// SPIR-V version: subgroup operations need 1.3, a broadcast's id must be
// constant before 1.5, shared blocks need 1.4.
func TestTargetVersionRules(t *testing.T) {
	const sub = "#version 450\n#extension GL_KHR_shader_subgroup_ballot : enable\nlayout(local_size_x = 32) in;\nlayout(binding = 0) buffer B { uint v[]; };\nvoid main() {\n"
	const shared = "#version 450\n#extension GL_EXT_shared_memory_block : enable\nlayout(local_size_x = 1) in;\nshared S { uint x; } s;\nvoid main() { s.x = 1u; }\n"
	for _, c := range []struct{ src, env, want string }{
		{sub + "v[0] = subgroupBroadcastFirst(v[1]);\n}\n", "vulkan1.0", "t.comp:6: 'subgroup op' : requires SPIR-V 1.3"},
		{sub + "v[0] = subgroupBroadcastFirst(v[1]);\n}\n", "vulkan1.1", ""},
		{sub + "v[0] = subgroupBroadcast(v[1], v[2]);\n}\n", "vulkan1.1", "t.comp:6: 'id' : argument must be compile-time constant"},
		{sub + "v[0] = subgroupBroadcast(v[1], v[2]);\n}\n", "vulkan1.2", ""},
		{sub + "v[0] = subgroupBroadcast(v[1], 3u);\n}\n", "vulkan1.1", ""},
		{shared, "vulkan1.1", "t.comp:4: 'shared block' : shared block requires at least SPIR-V 1.4"},
		{shared, "vulkan1.2", ""},
	} {
		m, d := Compile("t.comp", []byte(c.src), Options{TargetEnv: c.env})
		if c.want == "" {
			if m == nil {
				t.Errorf("%s: %v", c.env, d)
				continue
			}
			validate(t, m, c.env)
			continue
		}
		if m != nil || !strings.Contains(d.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.env, d, c.want)
		}
	}
}

// TestVersionNeedsPosition checks that a feature the target's SPIR-V is too
// old for is refused where the shader first uses it.
func TestVersionNeedsPosition(t *testing.T) {
	src := "#version 450\n#pragma use_vulkan_memory_model\nlayout(local_size_x = 1) in;\nlayout(binding = 0) buffer B { uint v; };\nvoid main() { v = 1u; }\n"
	_, d := Compile("t.comp", []byte(src), Options{TargetEnv: "vulkan1.0"})
	if want := "t.comp:2: '' : the Vulkan memory model needs SPIR-V 1.3 or later; the target environment vulkan1.0 gives SPIR-V 1.0"; d == nil || !strings.Contains(d.Error(), want) {
		t.Errorf("got %v, want %q", d, want)
	}
	if m, d := Compile("t.comp", []byte(src), Options{TargetEnv: "vulkan1.1"}); m == nil {
		t.Errorf("vulkan1.1: %v", d)
	}
}

// glslangModule is glslang's module of src for vulkan1.3, or nil when
// glslangValidator is absent.
func glslangModule(t *testing.T, src string) *spirv.Module {
	t.Helper()
	m, err := reftool.Glslang([]byte(src), "vulkan1.3")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

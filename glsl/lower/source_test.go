package lower_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/internal/reftool"
	"github.com/coopshader/coop/spirv"
)

var envs = []string{"vulkan1.1", "vulkan1.2", "vulkan1.3", "vulkan1.4"}

func compileSrc(t *testing.T, name string, src []byte, env string) *spirv.Module {
	t.Helper()
	m, d := compile.Compile(name, src, compile.Options{TargetEnv: env})
	if m == nil {
		t.Fatalf("%s (%s):\n%v", name, env, d)
	}
	return m
}

func validate(t *testing.T, m *spirv.Module, env string) {
	t.Helper()
	val := reftool.Path("spirv-val")
	if val == "" {
		return
	}
	b, _ := m.Encode()
	f := filepath.Join(t.TempDir(), "m.spv")
	os.WriteFile(f, b, 0o644)
	if out, err := exec.Command(val, "--target-env", env, f).CombinedOutput(); err != nil {
		t.Errorf("spirv-val --target-env %s: %s", env, out)
	}
}

// glslang compiles src with glslangValidator -V, or returns nil when the
// tool is absent.
func glslang(t *testing.T, name string, src []byte, env string) *spirv.Module {
	t.Helper()
	m, err := reftool.Glslang(src, env)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// features lists a module's capabilities, extensions and memory model,
// sorted, to compare modules from two compilers.
func features(m *spirv.Module) []string {
	var out []string
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpCapability:
			out = append(out, fmt.Sprint("cap ", in.Words[0]))
		case spirv.OpExtension:
			s, _, _ := in.String(0)
			out = append(out, "ext "+s)
		case spirv.OpMemoryModel:
			out = append(out, fmt.Sprint("model ", in.Words[0], " ", in.Words[1]))
		}
	}
	slices.Sort(out)
	return out
}

// TestExamples compiles the example shaders for every Vulkan version that
// can hold them (the cooperative-matrix extensions need the Vulkan memory
// model, SPIR-V 1.3 and later), validates them and checks that they need
// the same capabilities and extensions as glslang's modules.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "shaders", "*.comp"))
	if len(files) == 0 {
		t.Skip("examples not present")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		envs := envs
		if bytes.Contains(src, []byte("GL_NV_cooperative_matrix2")) {
			envs = envs[2:] // cooperative matrix 2 needs SPIR-V 1.6
		}
		for _, env := range envs {
			m := compileSrc(t, f, src, env)
			validate(t, m, env)
			if ref := glslang(t, filepath.Base(f), src, env); ref != nil {
				if a, b := features(m), features(ref); !slices.Equal(a, b) {
					t.Errorf("%s (%s): features\n%v\nglslang:\n%v", filepath.Base(f), env, a, b)
				}
			}
		}
	}
}

const controlFlow = `#version 450
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer B { int v[]; };

int calls;

int bump(int x) { calls++; return x; }

void twice(inout int x, out int y) { y = x; x *= 2; }

int firstFactor(int n) {
	for (int d = 2; d < n; d++) {
		int q = n / d;
		do {
			if (q * d == n) return d;
		} while (false);
	}
	return n;
}

int sw(int x) {
	int r = 0;
	switch (x & 7) {
	case 0:
	case 1: r += 1;
	case 2: r += 10; break;
	case 3: { r = 100; break; }
	case 5: r = -5;
	default: r += 1000;
	}
	return r;
}

void main() {
	uint i = gl_GlobalInvocationID.x;
	int x = v[i];
	calls = 0;
	int a = (x > 3 && bump(x) > 5) ? 1 : 0;
	int b = (x < 2 || bump(x) < 9) ? 10 : 20;
	int c = x, d;
	twice(c, d);
	ivec3 w = ivec3(x, x + 1, x + 2);
	w.zx += ivec2(100, 200);
	w.y--;
	int e = w.x++ + --w.z;
	int k = 0, s = 0;
	do {
		k++;
		if (k % 3 == 0) continue;
		s += k;
	} while (k < x);
	int m = x > 8 ? firstFactor(x) : -firstFactor(x + 10);
	v[i] = a + b + calls * 100 + c * 1000 + d * 10000 + sw(x) * 7 + e * 13 + s * 17 + w.x + w.y * 3 + w.z * 5 + m * 11;
}
`

// TestControlFlowMatchesGlslang runs the same shader compiled by coop and
// by glslang on the CPU executor and compares the results.
func TestControlFlowMatchesGlslang(t *testing.T) {
	in := make([]uint32, 32)
	for i := range in {
		in[i] = uint32(i * 7 % 23)
	}
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		m := compileSrc(t, "cf.comp", []byte(controlFlow), env)
		validate(t, m, env)
		got := run(t, m, 2, in)
		ref := glslang(t, "cf.comp", []byte(controlFlow), env)
		if ref == nil {
			t.Skip("glslangValidator not present")
		}
		want := run(t, ref, 2, in)
		if !slices.Equal(got, want) {
			t.Errorf("%s: coop %v\nglslang %v", env, got, want)
		}
	}
}

func run(t *testing.T, m *spirv.Module, groups uint32, in []uint32) []uint32 {
	t.Helper()
	words, err := m.Words()
	if err != nil {
		t.Fatal(err)
	}
	dev := cpu.New(cpu.Options{})
	buf, _ := dev.NewBuffer(len(in)*4, backend.UsageStorage)
	b := make([]byte, len(in)*4)
	for i, w := range in {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	buf.Write(0, b)
	if _, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{groups, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}}); err != nil {
		t.Fatal(err)
	}
	buf.Read(0, b)
	out := make([]uint32, len(in))
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

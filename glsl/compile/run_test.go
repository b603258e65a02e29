package compile

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/backend"
	cpu "github.com/coopshader/coop/exec"
	"github.com/coopshader/coop/spirv/text"
)

// runShader compiles src, runs it on the CPU executor with one storage
// buffer of n uint32 words at binding 0 (initialised from in), and
// returns the buffer's words.
func runShader(t *testing.T, src string, groups uint32, in []uint32, spec map[uint32][]byte) []uint32 {
	t.Helper()
	return runShaderEnv(t, src, "vulkan1.3", groups, in, spec)
}

// runShaderEnv is runShader for the target environment env.
func runShaderEnv(t *testing.T, src, env string, groups uint32, in []uint32, spec map[uint32][]byte) []uint32 {
	t.Helper()
	m, d := Compile("t.comp", []byte(src), Options{TargetEnv: env})
	if m == nil {
		t.Fatalf("compile:\n%v", d)
	}
	validate(t, m, env)
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
		Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}, Spec: spec}); err != nil {
		t.Fatal(err)
	}
	buf.Read(0, b)
	out := make([]uint32, len(in))
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func TestControlFlowRuns(t *testing.T) {
	src := `#version 450
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer B { int v[]; };

int collatz(int n, out int steps) {
	steps = 0;
	while (n != 1) {
		if ((n & 1) == 0) n /= 2; else n = 3 * n + 1;
		steps++;
		if (steps > 1000) return -1;
	}
	return n;
}

int classify(int x) {
	int r = 0;
	switch (x % 4) {
	case 0: r += 1;
	case 1: r += 10; break;
	case 2: r = 100; break;
	default: r = -1;
	}
	return r;
}

void main() {
	uint i = gl_GlobalInvocationID.x;
	int x = v[i];
	int steps;
	int one = collatz(x, steps);
	int sum = 0;
	for (int k = 0; k < 10; ++k) {
		if (k == 3) continue;
		if (k == 8) break;
		sum += k;
	}
	bool both = x > 2 && (x % 2 == 0);
	v[i] = steps * 1000000 + one * 100000 + sum * 100 + classify(x) + (both ? 7 : 0) * 0;
	v[i + 8] = both ? 1 : 0;
}
`
	in := make([]uint32, 16)
	for i := 0; i < 8; i++ {
		in[i] = uint32(i + 1)
	}
	out := runShader(t, src, 1, in, nil)
	collatzSteps := func(n int) int {
		s := 0
		for n != 1 {
			if n%2 == 0 {
				n /= 2
			} else {
				n = 3*n + 1
			}
			s++
		}
		return s
	}
	classify := func(x int) int {
		switch x % 4 {
		case 0:
			return 11
		case 1:
			return 10
		case 2:
			return 100
		}
		return -1
	}
	for i := 0; i < 8; i++ {
		x := i + 1
		want := collatzSteps(x)*1000000 + 100000 + (0+1+2+4+5+6+7)*100 + classify(x)
		if int32(out[i]) != int32(want) {
			t.Errorf("v[%d] = %d, want %d", i, int32(out[i]), want)
		}
		both := 0
		if x > 2 && x%2 == 0 {
			both = 1
		}
		if int(out[i+8]) != both {
			t.Errorf("v[%d] = %d, want %d", i+8, out[i+8], both)
		}
	}
}

func TestSharedAtomicsSubgroupRuns(t *testing.T) {
	src := `#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint total; uint sg; uint rev[64]; float f[4]; };
shared uint tile[64];

void main() {
	uint i = gl_LocalInvocationIndex;
	tile[i] = i * 2u;
	barrier();
	rev[i] = tile[63u - i];
	atomicAdd(total, i);
	uint s = subgroupAdd(i);
	if (subgroupElect()) atomicAdd(sg, s);
	if (i < 4u) {
		vec4 p = vec4(1.0, 2.0, 3.0, 4.0);
		mat2 m = mat2(1.0, 2.0, 3.0, 4.0);
		vec2 q = m * p.yx;
		f[i] = (i < 2u) ? q[i] : clamp(p.w * 2.0, 0.0, 5.0) + sqrt(16.0) + float(int(i) - 3);
	}
}
`
	out := runShader(t, src, 1, make([]uint32, 2+64+4), nil)
	if out[0] != 2016 || out[1] != 2016 {
		t.Errorf("total %d, subgroup total %d, want 2016", out[0], out[1])
	}
	for i := 0; i < 64; i++ {
		if out[2+i] != uint32(2*(63-i)) {
			t.Fatalf("rev[%d] = %d", i, out[2+i])
		}
	}
	// m * (2, 1) with columns (1, 2) and (3, 4) is (5, 8).
	want := []float32{5, 8, 5 + 4 - 1, 5 + 4}
	for i, w := range want {
		if got := math.Float32frombits(out[66+i]); got != w {
			t.Errorf("f[%d] = %v, want %v", i, got, w)
		}
	}
}

func TestSpecConstantsRun(t *testing.T) {
	src := `#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int SCALE = 2;
const int OFFSET = SCALE * 10 + 1;
layout(std430, binding = 0) buffer B { int v[]; };
void main() {
	v[gl_GlobalInvocationID.x] = int(gl_GlobalInvocationID.x) * SCALE + OFFSET + int(gl_WorkGroupSize.x);
}
`
	spec := map[uint32][]byte{0: {4, 0, 0, 0}, 1: {3, 0, 0, 0}}
	out := runShader(t, src, 2, make([]uint32, 8), spec)
	for i, v := range out {
		if want := i*3 + 31 + 4; int(int32(v)) != want {
			t.Errorf("v[%d] = %d, want %d", i, int32(v), want)
		}
	}
}

func TestDebugPrintfRuns(t *testing.T) {
	src := `#version 450
#extension GL_EXT_debug_printf : require
layout(local_size_x = 2) in;
layout(std430, binding = 0) buffer B { float v[]; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	debugPrintfEXT("i=%u v=%f\n", i, v[i]);
}
`
	m, d := Compile("p.comp", []byte(src), Options{TargetEnv: "vulkan1.1"})
	if m == nil {
		t.Fatal(d)
	}
	validate(t, m, "vulkan1.1")
	words, _ := m.Words()
	var out bytes.Buffer
	dev := cpu.New(cpu.Options{Printf: &out, Workers: 1})
	buf, _ := dev.NewBuffer(8, backend.UsageStorage)
	buf.Write(0, []byte{0, 0, 0, 0x3f, 0, 0, 0x80, 0x3e})
	if _, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "[0,0,0] i=0 v=0.500000\n[1,0,0] i=1 v=0.250000\n" {
		t.Fatalf("printed %q", got)
	}
}

func TestSplitBarrierRuns(t *testing.T) {
	src := `#version 450
#extension GL_EXT_split_barrier : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint v[]; };
shared uint s[64];
void main() {
	uint i = gl_LocalInvocationIndex;
	s[i] = i * 3u;
	controlBarrierArrive();
	controlBarrierWait();
	v[i] = s[63u - i];
}
`
	out := runShader(t, src, 1, make([]uint32, 64), nil)
	for i, w := range out {
		if w != uint32(3*(63-i)) {
			t.Fatalf("v[%d] = %d, want %d", i, w, 3*(63-i))
		}
	}
}

// TestBufferReferenceConversionsRun converts references to and from
// uint64_t and uvec2 and checks the addresses and stores on the executor.
func TestBufferReferenceConversionsRun(t *testing.T) {
	src := `#version 450
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
layout(buffer_reference, std430) buffer F { float d[]; };
layout(buffer_reference, std430) buffer U { uint d[]; };
layout(std430, binding = 0) buffer B { F f; uint64_t raw; uvec2 pair; } b;
void main() {
	uint64_t a = uint64_t(b.f);
	F g = F(a + 8);
	g.d[0] = 3.0;
	U u = U(b.f);
	u.d[0] = 7u;
	uvec2 p = uvec2(b.f);
	F h = F(p);
	h.d[1] = 5.0;
	b.raw = uint64_t(h);
	b.pair = p;
}
`
	words := vulkanWords(t, "t.comp", src)
	dev := cpu.New(cpu.Options{})
	buf, _ := dev.NewBuffer(64, backend.UsageStorage|backend.UsageAddress)
	data := buf.Address() + 32
	b := make([]byte, 64)
	binary.LittleEndian.PutUint64(b, data)
	buf.Write(0, b)
	if _, err := dev.Dispatch(&backend.Dispatch{Code: words, Entry: "main", Groups: [3]uint32{1, 1, 1},
		Bindings: []backend.Binding{{Binding: 0, Buffer: buf}}}); err != nil {
		t.Fatal(err)
	}
	buf.Read(0, b)
	le := binary.LittleEndian
	if got := le.Uint64(b[8:]); got != data {
		t.Errorf("raw = %#x, want %#x", got, data)
	}
	if lo, hi := le.Uint32(b[16:]), le.Uint32(b[20:]); uint64(hi)<<32|uint64(lo) != data {
		t.Errorf("pair = %#x %#x, want %#x", lo, hi, data)
	}
	if u, h, g := le.Uint32(b[32:]), math.Float32frombits(le.Uint32(b[36:])), math.Float32frombits(le.Uint32(b[40:])); u != 7 || h != 5 || g != 3 {
		t.Errorf("stores: %d %v %v, want 7 5 3", u, h, g)
	}
}

// TestSpecConstantFloatConversionRuns converts an integer specialization
// constant to float inside a function: OpSpecConstantOp cannot express it
// in a shader, so it is computed at run time, as glslang does; a global
// const initialized that way is an error, as in glslang.
func TestSpecConstantFloatConversionRuns(t *testing.T) {
	src := `#version 450
layout(constant_id = 0) const uint BS = 32;
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float data[]; };
void main() { data[0] = float(BS) * 0.5; data[1] = -float(BS); }
`
	for _, c := range []struct {
		spec map[uint32][]byte
		want [2]float32
	}{{nil, [2]float32{16, -32}}, {map[uint32][]byte{0: {7, 0, 0, 0}}, [2]float32{3.5, -7}}} {
		out := runShader(t, src, 1, make([]uint32, 2), c.spec)
		for i, w := range c.want {
			if got := math.Float32frombits(out[i]); got != w {
				t.Errorf("spec %v: data[%d] = %v, want %v", c.spec, i, got, w)
			}
		}
	}
	bad := "#version 450\nlayout(constant_id = 0) const uint BS = 32;\nconst float F = float(BS);\nvoid main() {}\n"
	if m, d := Compile("t.comp", []byte(bad), Options{}); m != nil || !strings.Contains(d.Error(), "t.comp:3:") {
		t.Errorf("global const from a float conversion of a spec constant: %v", d)
	}
}

// TestPragmasRun compiles glslang's SPIR-V pragmas (replicated composites,
// 64-bit indexing, uint indices promoted to 64 bits, variable pointers),
// checks what they put in the module and runs it.
func TestPragmasRun(t *testing.T) {
	src := `#version 450
#pragma use_replicated_composites
#pragma promote_uint32_indices
#pragma shader_64bit_indexing
#pragma use_variable_pointers
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint u[4]; uint v[]; } b;
layout(constant_id = 0) const int S = 3;
const ivec3 SV = ivec3(S, S, S);
void main() {
	uint i = gl_GlobalInvocationID.x;
	uvec4 w = uvec4(i) + uvec4(2u);
	b.v[i] = w.x + w.w;
	b.u[3u] = uint(SV.y);
}
`
	m, d := Compile("t.comp", []byte(src), Options{TargetEnv: "vulkan1.3"})
	if m == nil {
		t.Fatalf("compile:\n%v", d)
	}
	dis, _ := text.Disassemble(m, text.Options{})
	for _, want := range []string{"OpCapability VariablePointers", "OpExecutionMode %main Shader64BitIndexingEXT",
		"OpConstantCompositeReplicateEXT %v4uint %uint_2", "OpSpecConstantCompositeReplicateEXT %v3int %S",
		"OpCompositeConstructReplicateEXT %v4uint", "OpUConvert %ulong"} {
		if !strings.Contains(string(dis), want) {
			t.Errorf("missing %q", want)
		}
	}
	out := runShader(t, src, 1, make([]uint32, 8), nil)
	if want := []uint32{0, 0, 0, 3, 4, 6, 8, 10}; !slices.Equal(out, want) {
		t.Errorf("got %v, want %v", out, want)
	}
	if _, d := Compile("t.comp", []byte(src), Options{TargetEnv: "vulkan1.0"}); !strings.Contains(d.Error(), "t.comp:5: '#pragma use_variable_pointers' : requires SPIR-V 1.3") {
		t.Errorf("vulkan1.0: %v", d)
	}
}

package devcheck

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/profile"
	"github.com/coopshader/coop/spirv"
)

func h100(t *testing.T) *profile.Profile {
	t.Helper()
	p, err := profile.Builtin("h100")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func build(t *testing.T, src string) *spirv.Module {
	t.Helper()
	m, d := compile.Compile("t.comp", []byte(src), compile.Options{TargetEnv: "vulkan1.3"})
	if m == nil {
		t.Fatalf("compile: %v", d)
	}
	return m
}

// expect checks that m breaks exactly the rule vuid on p (or nothing when
// vuid is ""), with a message containing each of want.
func expect(t *testing.T, m *spirv.Module, p *profile.Profile, vuid string, want ...string) {
	t.Helper()
	err := Check(m, p, Options{})
	if vuid == "" {
		if err != nil {
			t.Fatalf("unexpected: %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("accepted; want %s", vuid)
	}
	msg := err.Error()
	if !strings.Contains(msg, vuid) {
		t.Errorf("got %v\nwant %s", err, vuid)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q lacks %q", msg, w)
		}
	}
}

const coopvecSrc = `#version 450
#extension GL_NV_cooperative_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer X { float16_t x[]; };
layout(std430, binding = 1) buffer W { float16_t w[]; };
layout(std430, binding = 2) buffer Y { @RES@ y[]; };
void main() {
	coopvecNV<float16_t, 32> v;
	coopVecLoadNV(v, x, 0);
	coopvecNV<@RES@, @N@> o;
	coopVecMatMulNV(o, v, gl_ComponentTypeFloat16NV, w, 0, gl_ComponentTypeFloat16NV, @N@, 32,
		gl_CooperativeVectorMatrixLayoutRowMajorNV, false, 64);
	coopVecStoreNV(o, y, 0);
}
`

func coopvec(res string, n int) string {
	return strings.NewReplacer("@RES@", res, "@N@", strconv.Itoa(n)).Replace(coopvecSrc)
}

// The combination examples/coopvec_layer.amber once used: fp16 inputs and
// matrix into an fp32 result, which the H100 does not list.
func TestCoopVecCombination(t *testing.T) {
	p := h100(t)
	expect(t, build(t, coopvec("float", 16)), p, "VUID-RuntimeSpirv-OpCooperativeVectorMatrixMulNV-10089",
		"OpCooperativeVectorMatrixMulNV", "input float16, input interpretation float16, matrix interpretation float16, result float32", "h100")
	expect(t, build(t, coopvec("float16_t", 16)), p, "")
}

func TestCoopVecComponents(t *testing.T) {
	expect(t, build(t, coopvec("float16_t", 1024)), h100(t), "VUID-RuntimeSpirv-maxCooperativeVectorComponents-10094", "1024 components", "at most 512")
}

func TestCoopVecTraining(t *testing.T) {
	src := `#version 450
#extension GL_NV_cooperative_vector : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer M { float m[]; };
void main() {
	coopvecNV<@T@, 16> a = coopvecNV<@T@, 16>(1.0);
	coopVecReduceSumAccumulateNV(a, m, 0);
}
`
	expect(t, build(t, strings.ReplaceAll(src, "@T@", "float")), h100(t), "VUID-RuntimeSpirv-OpCooperativeVectorReduceSumAccumulateNV-10092", "cooperativeVectorTrainingFloat32Accumulation")
	expect(t, build(t, strings.ReplaceAll(src, "@T@", "float16_t")), h100(t), "")
}

const coopmatSrc = `#version 450
#extension GL_KHR_cooperative_matrix : enable
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_NV_cooperative_matrix2 : enable
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = @LOCAL@) in;
layout(std430, binding = 0) buffer B { float16_t b[]; };
layout(std430, binding = 1) buffer C { float c[]; };
void main() {
	coopmat<@AT@, @SCOPE@, @MM@, @KK@, gl_MatrixUseA> ma;
	coopMatLoad(ma, b, 0, @KK@, gl_CooperativeMatrixLayoutRowMajor);
	coopmat<float16_t, @SCOPE@, @KK@, @NN@, gl_MatrixUseB> mb;
	coopMatLoad(mb, b, 0, @NN@, gl_CooperativeMatrixLayoutRowMajor);
	coopmat<float, @SCOPE@, @MM@, @NN@, gl_MatrixUseAccumulator> acc = coopmat<float, @SCOPE@, @MM@, @NN@, gl_MatrixUseAccumulator>(0.0);
	acc = coopMatMulAdd(ma, mb, acc);
	coopMatStore(acc, c, 0, @NN@, gl_CooperativeMatrixLayoutRowMajor);
}
`

func coopmat(at, scope string, local, m, n, k int) string {
	r := strings.NewReplacer("@AT@", at, "@SCOPE@", scope, "@LOCAL@", itoa(local), "@MM@", itoa(m), "@NN@", itoa(n), "@KK@", itoa(k))
	return r.Replace(coopmatSrc)
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestCoopMatShapes(t *testing.T) {
	p := h100(t)
	// A listed KHR shape.
	expect(t, build(t, coopmat("float16_t", "gl_ScopeSubgroup", 32, 16, 16, 16)), p, "")
	// Flexible dimensions: multiples of the 16x16x16 granularity.
	expect(t, build(t, coopmat("float16_t", "gl_ScopeSubgroup", 32, 32, 48, 64)), p, "")
	// fp32 A matrices are listed nowhere.
	expect(t, build(t, coopmat("float", "gl_ScopeSubgroup", 32, 16, 16, 16)), p, "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensions-1016", "MatrixA 16x16 float32")
	// Without flexible dimensions (the same device less that feature),
	// 32x32 is no listed shape.
	q := *p
	q.Features = nil
	for _, f := range p.Features {
		if f != "cooperativeMatrixFlexibleDimensions" {
			q.Features = append(q.Features, f)
		}
	}
	expect(t, build(t, coopmat("float16_t", "gl_ScopeSubgroup", 32, 32, 32, 16)), &q, "VUID-RuntimeSpirv-OpCooperativeMatrixMulAddKHR-10060", "M=32 N=32 K=16")
	// Dimensions above cooperativeMatrixFlexibleDimensionsMaxDimension.
	expect(t, build(t, coopmat("float16_t", "gl_ScopeSubgroup", 32, 2048, 16, 16)), p, "VUID-RuntimeSpirv-cooperativeMatrixFlexibleDimensionsMaxDimension-10167")
}

func TestCoopMatWorkgroupScope(t *testing.T) {
	p := h100(t)
	// 128 invocations: the 32x16x16 workgroup entries.
	expect(t, build(t, coopmat("float16_t", "gl_ScopeWorkgroup", 128, 64, 64, 32)), p, "")
	// 96 invocations match no entry.
	expect(t, build(t, coopmat("float16_t", "gl_ScopeWorkgroup", 96, 64, 64, 32)), p, "cooperativeMatrixFlexibleDimensions-1016", "workgroup of 96 invocations", "32, 64, 128, 256")
	// More than cooperativeMatrixWorkgroupScopeMaxWorkgroupSize.
	expect(t, build(t, coopmat("float16_t", "gl_ScopeWorkgroup", 512, 64, 64, 32)), p, "VUID-RuntimeSpirv-cooperativeMatrixWorkgroupScope-10164", "at most 256")
	// A device without workgroup scope (lavapipe has no cooperative matrices at all).
	l, err := profile.Builtin("lavapipe")
	if err != nil {
		t.Fatal(err)
	}
	expect(t, build(t, coopmat("float16_t", "gl_ScopeWorkgroup", 128, 64, 64, 32)), l, "VUID-RuntimeSpirv-cooperativeMatrixWorkgroupScope-10164", "lavapipe")
}

func TestStripDecodeVector(t *testing.T) {
	src, err := os.ReadFile("../examples/shaders/decode_vector_q8.comp")
	if err != nil {
		t.Skip(err)
	}
	m := build(t, string(src))
	s, ok := StripDecodeVector(m)
	if !ok {
		t.Fatal("nothing stripped")
	}
	for _, in := range s.Insts {
		switch in.Op {
		case spirv.OpCapability:
			if in.Words[0] == uint32(spirv.CapabilityCooperativeMatrixDecodeVectorNV) {
				t.Error("capability kept")
			}
		case spirv.OpExtension:
			if n, _, _ := in.String(0); n == "SPV_NV_cooperative_matrix_decode_vector" {
				t.Error("extension kept")
			}
		case spirv.OpCooperativeMatrixLoadTensorNV:
			if len(in.Words) > 7 && in.Words[len(in.Words)-3]&uint32(spirv.TensorAddressingOperandsDecodeVectorFunc) != 0 {
				t.Error("DecodeVectorFunc kept")
			}
		}
	}
	if _, err := s.Words(); err != nil {
		t.Fatal(err)
	}
	// The stripped module is valid for the H100, which lacks the extension.
	if err := Check(s, h100(t), Options{}); err != nil {
		t.Error(err)
	}
	if _, ok := StripDecodeVector(s); ok {
		t.Error("stripped twice")
	}
}

func TestDeviations(t *testing.T) {
	m := build(t, `#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : enable
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float v[]; };
void main() { v[0] = float(float16_t(v[1])) + v[2]; v[3] = float(v[4]) + 1.0; }
`)
	ds := Deviations(m)
	if len(ds) != 1 || !strings.Contains(ds[0].String(), "32-bit float to 16 bits") {
		t.Fatalf("got %v", ds)
	}
}

func TestWorkgroupLimits(t *testing.T) {
	p := h100(t)
	// glslang's spv.310.comp has this local size; the H100 lost the device on it.
	expect(t, build(t, "#version 450\nlayout(local_size_x = 16, local_size_y = 32, local_size_z = 4) in;\nvoid main() {}\n"), p,
		"VUID-RuntimeSpirv-x-06432", "2048 invocations", "maxComputeWorkGroupInvocations")
	expect(t, build(t, "#version 450\nlayout(local_size_x = 1024) in;\nshared vec4 s[3072];\nshared float t[16];\nvoid main() { s[gl_LocalInvocationIndex].x = t[0]; }\n"), p,
		"VUID-RuntimeSpirv-Workgroup-06530", "at least 49216 bytes", "maxComputeSharedMemorySize")
	expect(t, build(t, "#version 450\nlayout(local_size_x = 1024) in;\nshared vec4 s[3072];\nvoid main() { s[gl_LocalInvocationIndex].x = 1.0; }\n"), p, "")
	// Spec-constant sizes count at the dispatch's values.
	m := build(t, "#version 450\nlayout(local_size_x_id = 0, local_size_z_id = 2) in;\nvoid main() {}\n")
	if err := Check(m, p, Options{Spec: map[uint32][]byte{0: {0, 8, 0, 0}}}); err == nil || !strings.Contains(err.Error(), "x-06429") {
		t.Errorf("local_size_x_id 2048: got %v", err)
	}
	if err := Check(m, p, Options{Spec: map[uint32][]byte{2: {128, 0, 0, 0}}}); err == nil || !strings.Contains(err.Error(), "z-06431") ||
		!strings.Contains(err.Error(), "local size z is 128") {
		t.Errorf("local_size_z_id 128: got %v", err)
	}
}

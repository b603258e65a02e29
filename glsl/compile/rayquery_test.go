package compile

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// Ray-query shaders of our own: each compiles, passes spirv-val, declares
// the capabilities, extensions and execution modes glslang declares, and
// uses the same ray-query instructions as glslang's module (compared when
// glslangValidator is present, otherwise against the listed expectations).

const rqHeader = "#version 460\n#extension GL_EXT_ray_query : enable\nlayout(local_size_x = 4) in;\n"

var rayQueryShaders = []struct {
	name, src string
	want      []string // words that must appear in the disassembly
}{
	{"all queries", rqHeader + `
layout(binding = 0) uniform accelerationStructureEXT tlas;
layout(binding = 1) buffer Out { float f[32]; uint u[8]; int i[8]; mat4x3 m[2]; } o;
void main() {
	rayQueryEXT q;
	rayQueryInitializeEXT(q, tlas, gl_RayFlagsNoOpaqueEXT | gl_RayFlagsCullBackFacingTrianglesEXT, 0x0Fu, vec3(0.0, 0.0, -1.0), 0.5, vec3(0.0, 0.0, 1.0), 100.0);
	while (rayQueryProceedEXT(q)) {
		if (rayQueryGetIntersectionTypeEXT(q, false) == gl_RayQueryCandidateIntersectionAABBEXT) {
			if (rayQueryGetIntersectionCandidateAABBOpaqueEXT(q))
				rayQueryGenerateIntersectionEXT(q, 2.0);
		} else if (rayQueryGetIntersectionTEXT(q, false) < 10.0) {
			rayQueryConfirmIntersectionEXT(q);
		} else {
			rayQueryTerminateEXT(q);
		}
	}
	o.u[0] = rayQueryGetIntersectionTypeEXT(q, true);
	o.u[1] = rayQueryGetRayFlagsEXT(q);
	o.u[2] = rayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT(q, true);
	o.u[3] = rayQueryGetIntersectionFrontFaceEXT(q, true) ? 1u : 0u;
	o.f[0] = rayQueryGetRayTMinEXT(q);
	o.f[1] = rayQueryGetIntersectionTEXT(q, true);
	o.f[2] = rayQueryGetWorldRayOriginEXT(q).z;
	o.f[3] = rayQueryGetWorldRayDirectionEXT(q).z;
	o.f[4] = rayQueryGetIntersectionBarycentricsEXT(q, true).y;
	o.f[5] = rayQueryGetIntersectionObjectRayOriginEXT(q, true).x;
	o.f[6] = rayQueryGetIntersectionObjectRayDirectionEXT(q, true).y;
	o.i[0] = rayQueryGetIntersectionInstanceCustomIndexEXT(q, true);
	o.i[1] = rayQueryGetIntersectionInstanceIdEXT(q, true);
	o.i[2] = rayQueryGetIntersectionGeometryIndexEXT(q, true);
	o.i[3] = rayQueryGetIntersectionPrimitiveIndexEXT(q, true);
	o.m[0] = rayQueryGetIntersectionObjectToWorldEXT(q, true);
	o.m[1] = rayQueryGetIntersectionWorldToObjectEXT(q, false);
}
`, []string{"OpCapability RayQueryKHR", `OpExtension "SPV_KHR_ray_query"`, "%q = OpVariable %_ptr_Private_", "OpRayQueryGetIntersectionTypeKHR %uint %q %int_0",
		"OpRayQueryGetIntersectionWorldToObjectKHR %mat4v3float %q %int_0", "OpRayQueryGenerateIntersectionKHR %q %float_2", "UniformConstant"}},
	{"functions and arrays", rqHeader + `
layout(binding = 0) uniform accelerationStructureEXT scenes[2];
layout(binding = 2) uniform accelerationStructureEXT scene;
layout(binding = 1) buffer Out { float t[4]; } o;
rayQueryEXT shared_q;
float closest(rayQueryEXT q, accelerationStructureEXT as, float tmax) {
	rayQueryInitializeEXT(q, as, gl_RayFlagsOpaqueEXT, 0xFFu, vec3(0.0), 0.0, vec3(1.0, 0.0, 0.0), tmax);
	rayQueryProceedEXT(q);
	return rayQueryGetIntersectionTEXT(q, true);
}
void main() {
	rayQueryEXT qs[3];
	rayQueryInitializeEXT(qs[gl_LocalInvocationID.x % 3u], scenes[gl_LocalInvocationID.x & 1u], 0u, 1u, vec3(1.0), 0.0, vec3(0.0, 1.0, 0.0), 5.0);
	o.t[0] = rayQueryProceedEXT(qs[gl_LocalInvocationID.x % 3u]) ? 1.0 : 0.0;
	o.t[1] = closest(shared_q, scene, 50.0);
}
`, []string{"OpTypeFunction %float %_ptr_Private_", "%_ptr_UniformConstant_", "OpTypeArray"}},
	{"address constructors", rqHeader + `#extension GL_EXT_shader_explicit_arithmetic_types_int64 : enable
layout(push_constant) uniform P { uint64_t a; uvec2 b; } pc;
void main() {
	rayQueryEXT q;
	rayQueryInitializeEXT(q, accelerationStructureEXT(pc.a), 0u, 0xFFu, vec3(0.0), 0.0, vec3(1.0), 1.0);
	rayQueryInitializeEXT(q, accelerationStructureEXT(pc.b), 0u, 0xFFu, vec3(0.0), 0.0, vec3(1.0), 1.0);
	rayQueryTerminateEXT(q);
}
`, []string{"OpConvertUToAccelerationStructureKHR %19 %18", "OpCapability Int64"}},
	{"primitive culling and position fetch", `#version 460
#extension GL_EXT_ray_query : enable
#extension GL_EXT_ray_flags_primitive_culling : enable
#extension GL_EXT_ray_tracing_position_fetch : enable
layout(local_size_x = 1) in;
layout(primitive_culling);
layout(binding = 0) uniform accelerationStructureEXT tlas;
layout(binding = 1) buffer Out { vec4 p[3]; } o;
void main() {
	rayQueryEXT q;
	rayQueryInitializeEXT(q, tlas, gl_RayFlagsSkipAABBEXT, 0xFFu, vec3(0.0), 0.0, vec3(0.0, 0.0, 1.0), 10.0);
	while (rayQueryProceedEXT(q)) {}
	vec3 pos[3];
	rayQueryGetIntersectionTriangleVertexPositionsEXT(q, true, pos);
	for (int i = 0; i < 3; i++) o.p[i] = vec4(pos[i], 1.0);
}
`, []string{"OpCapability RayTraversalPrimitiveCullingKHR", "OpCapability RayQueryPositionFetchKHR", `OpExtension "SPV_KHR_ray_tracing_position_fetch"`,
		"OpRayQueryGetIntersectionTriangleVertexPositionsKHR %_arr_v3float_uint_3 %q %int_1", "%uint_512"}},
	{"opacity micromap flag and mode", `#version 460
#extension GL_EXT_ray_query : enable
#extension GL_EXT_opacity_micromap : enable
#extension GL_EXT_opacity_micromap_ray_query_mode : enable
layout(local_size_x = 1) in;
layout(constant_id = 7) gl_EnableOpacityMicromapEXT;
layout(binding = 0) uniform accelerationStructureEXT tlas;
void main() {
	rayQueryEXT q;
	rayQueryInitializeEXT(q, tlas, gl_RayFlagsForceOpacityMicromap2StateEXT, 0xFFu, vec3(0.0), 0.0, vec3(0.0, 0.0, 1.0), 10.0);
	rayQueryProceedEXT(q);
}
`, []string{"OpCapability RayTracingOpacityMicromapKHR", "OpCapability RayTracingOpacityMicromapExecutionModeKHR", `OpExtension "SPV_EXT_opacity_micromap"`,
		`OpExtension "SPV_KHR_opacity_micromap"`, "OpExecutionModeId %main OpacityMicromapIdKHR %gl_EnableOpacityMicromapEXT", "OpDecorate %gl_EnableOpacityMicromapEXT SpecId 7", "%uint_1024"}},
	{"displacement micromap", `#version 460
#extension GL_NV_displacement_micromap : enable
#extension GL_EXT_ray_query : enable
layout(local_size_x = 1) in;
layout(binding = 0) uniform accelerationStructureEXT as;
layout(binding = 1) buffer Out { vec3 p; vec2 b; } o;
void main() {
	o.p = fetchMicroTriangleVertexPositionNV(as, 2, 1, 3, ivec2(1, 0));
	o.b = fetchMicroTriangleVertexBarycentricNV(as, 2, 1, 3, ivec2(0, 1));
}
`, []string{"OpCapability DisplacementMicromapNV", `OpExtension "SPV_NV_displacement_micromap"`, "OpFetchMicroTriangleVertexPositionNV %v3float", "OpFetchMicroTriangleVertexBarycentricNV %v2float"}},
}

// rayFacts lists a module's capabilities, extensions, execution modes and
// ray-query instructions (opcode and operand count), sorted.
func rayFacts(m *spirv.Module) []string {
	var out []string
	for _, in := range m.Insts {
		name := in.Op.String()
		switch {
		case in.Op == spirv.OpCapability:
			out = append(out, fmt.Sprint("cap ", in.Words[0]))
		case in.Op == spirv.OpExtension:
			s, _, _ := spirv.DecodeString(in.Words)
			out = append(out, "ext "+s)
		case in.Op == spirv.OpExecutionModeId:
			out = append(out, fmt.Sprint("mode ", in.Words[1]))
		case strings.Contains(name, "RayQuery") || strings.Contains(name, "AccelerationStructure") || strings.Contains(name, "MicroTriangle"):
			out = append(out, name+" "+strings.Repeat("x", len(in.Words)))
		}
	}
	slices.Sort(out)
	return out
}

func TestRayQueryShaders(t *testing.T) {
	for _, tc := range rayQueryShaders {
		t.Run(tc.name, func(t *testing.T) {
			m, d := Compile("rq.comp", []byte(tc.src), Options{TargetEnv: "vulkan1.3"})
			if m == nil {
				t.Fatalf("compile:\n%v", d)
			}
			validate(t, m, "vulkan1.3")
			dis, err := text.Disassemble(m, text.Options{NoIndent: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(dis), w) {
					t.Errorf("missing %q in\n%s", w, dis)
				}
			}
			ref := glslangModule(t, tc.src)
			if ref == nil {
				return
			}
			if got, want := rayFacts(m), rayFacts(ref); !slices.Equal(got, want) {
				t.Errorf("ray-query facts differ from glslang's:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestRayQueryErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{rqHeader + "layout(binding = 0) uniform accelerationStructureEXT tlas;\nvoid main() { rayQueryEXT q; bool c = true;\nfloat t = rayQueryGetIntersectionTEXT(q, c); }",
			"rq.comp:6: 'committed' : argument must be compile-time constant"},
		{rqHeader + "void main() { rayQueryEXT a;\nrayQueryEXT b = a; }", "rq.comp:5: '=' : ray queries can only be initialized by using the rayQueryInitializeEXT intrinsic: b"},
		{rqHeader + "layout(binding = 0) uniform accelerationStructureEXT tlas;\nvoid main() {\naccelerationStructureEXT a = tlas; }",
			"rq.comp:6: 'accelerationStructureNV' : accelerationStructureNV can only be used in uniform variables or function parameters: a"},
		{rqHeader + "layout(primitive_culling);\nvoid main() {}", "rq.comp:4: 'primitive culling' : required extension not requested: GL_EXT_ray_flags_primitive_culling"},
		{rqHeader + "#extension GL_EXT_ray_flags_primitive_culling : enable\nlayout(primitive_culling) uniform;\nvoid main() {}",
			"'primitive_culling' : layout qualifier cannot have storage qualifiers"},
		{rqHeader + "#extension GL_EXT_ray_flags_primitive_culling : enable\nlayout(primitive_culling, binding = 1) uniform accelerationStructureEXT as;\nvoid main() {}",
			"'primitive_culling' : can only be applied as standalone"},
		{rqHeader + "void main() { uint f = gl_RayFlagsSkipTrianglesEXT; }", "'gl_RayFlagsSkipTrianglesEXT' : required extension not requested: GL_EXT_ray_flags_primitive_culling"},
		{"#version 450\nlayout(local_size_x = 1) in;\nvoid main() { uint f = gl_RayFlagsOpaqueEXT; }", "'gl_RayFlagsOpaqueEXT' : undeclared identifier"},
		{rqHeader + "void f(rayQueryEXT q) { rayQueryTerminateEXT(q); }\nvoid main() { rayQueryEXT qs[2];\nf(qs[1]); }",
			"rq.comp:6: '' : the argument of rayQueryEXT parameter q must be a whole variable"},
	} {
		_, d := Compile("rq.comp", []byte(tc.src), Options{TargetEnv: "vulkan1.3"})
		if !d.HasErrors() || !strings.Contains(d.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %q", tc.src, d, tc.want)
		}
	}
}

package check

import (
	"slices"
	"strings"
	"testing"
)

// resHdr declares one resource of each kind the cases below use.
const resHdr = `#version 460
#extension GL_EXT_samplerless_texture_functions : enable
#extension GL_EXT_nonuniform_qualifier : enable
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2D s;
layout(binding = 1) uniform texture2D t[4];
layout(binding = 2) uniform sampler smp;
layout(binding = 3) uniform samplerShadow shs;
layout(binding = 4, rgba8) uniform image2D img;
layout(binding = 5, rgba8) writeonly uniform image2D wo;
layout(binding = 6, rgba8) readonly uniform image2D ro;
layout(binding = 7, r32ui) uniform uimage2D ui;
layout(binding = 8) uniform samplerCubeArrayShadow cas;
layout(binding = 9) uniform isampler2DMS ms;
layout(binding = 10) buffer B { vec4 o; int k; ivec4 io; };
`

// TestResourceRules checks the sampler, texture and image rules from
// source: want is a substring of the diagnostics, "" for a clean check.
// Lines count from resHdr's first line (the statements are on line 16).
func TestResourceRules(t *testing.T) {
	main := func(body string) string { return resHdr + "void main() { " + body + " }\n" }
	tests := []struct{ name, src, want string }{
		{"texture", main("o = texture(s, vec2(0)) + textureLod(s, vec2(0), 1.0) + textureGrad(s, vec2(0), vec2(1), vec2(1));"), ""},
		{"texture projective", main("o = textureProj(s, vec3(1)) + textureProj(s, vec4(1)) + textureProjLodOffset(s, vec4(1), 0.0, ivec2(1));"), ""},
		{"cube array shadow compare", main("o.x = texture(cas, vec4(1), 0.5);"), ""},
		{"cube array shadow without compare", main("o.x = texture(cas, vec4(1));"), "t.comp:16: 'texture' :  no matching overloaded function found"},
		{"texture wrong coordinate", main("o = texture(s, 1.0);"), "'texture' :  no matching overloaded function found"},
		{"texture too many arguments", main("o = texture(s, vec2(1), 1.0, 2.0);"), "no matching overloaded function found"},
		{"texture on image", main("o = texture(img, vec2(1));"), "'texture' :  no matching overloaded function found"},
		{"textureLod needs lod", main("o = textureLod(s, vec2(0));"), "no matching overloaded function found"},
		{"textureProj wrong size", main("o = textureProj(s, vec2(0));"), "no matching overloaded function found"},
		{"texelFetch needs lod", main("o = texelFetch(s, ivec2(0));"), "'texelFetch' :  no matching overloaded function found"},
		{"texelFetch float coordinate", main("o = texelFetch(s, vec2(0), 0);"), "no matching overloaded function found"},
		{"texelFetch multisample", main("io = texelFetch(ms, ivec2(0), 3) + ivec4(textureSamples(ms), textureSize(ms), 0);"), ""},
		{"textureSamples single-sampled", main("o.x = float(textureSamples(s));"), "'textureSamples' :  no matching overloaded function found"},
		{"offset not constant", main("o = textureOffset(s, vec2(0), ivec2(k));"), "'texel offset' : argument must be compile-time constant"},
		{"offset out of range", main("o = textureOffset(s, vec2(0), ivec2(8, 0));"), "'texel offset' : value is out of range"},
		{"gather offset may vary", main("o = textureGatherOffset(s, vec2(0), ivec2(k));"), ""},
		{"gather component constant", main("o = textureGather(s, vec2(0), k);"), "must be a compile-time constant: component argument"},
		{"gather component range", main("o = textureGather(s, vec2(0), 4);"), "must be 0, 1, 2, or 3: component argument"},
		{"gather offsets constant", main("o = textureGatherOffsets(s, vec2(0), ivec2[4](ivec2(k), ivec2(0), ivec2(0), ivec2(0)));"), "must be a compile-time constant: offsets argument"},
		{"combined sampler", main("o = texture(sampler2D(t[1], smp), vec2(0)) + texelFetch(t[k], ivec2(0), 0);"), ""},
		{"shadow from texture", main("o.x = texture(sampler2DShadow(t[0], shs), vec3(0));"), ""},
		{"constructor wrong dimension", main("o = texture(sampler3D(t[0], smp), vec3(0));"), "'constructor' :  cannot construct this type"},
		{"constructor arguments swapped", main("o = texture(sampler2D(smp, t[0]), vec2(0));"), "cannot construct this type"},
		{"samplerless needs extension", "#version 460\nlayout(binding = 0) uniform texture2D t;\nlayout(binding = 1) buffer B { vec4 o; };\nvoid main() { o = texelFetch(t, ivec2(0), 0); }", "'texelFetch' : required extension not requested: GL_EXT_samplerless_texture_functions"},
		{"image load and store", main("imageStore(img, ivec2(1), imageLoad(img, ivec2(0))); io.xy = imageSize(img);"), ""},
		{"image wrong coordinate", main("o = imageLoad(img, ivec3(0));"), "'imageLoad' :  no matching overloaded function found"},
		{"image load from writeonly", main("o = imageLoad(wo, ivec2(0));"), "'writeonly' : argument cannot drop memory qualifier when passed to formal parameter"},
		{"image store to readonly", main("imageStore(ro, ivec2(0), vec4(0));"), "'readonly' : argument cannot drop memory qualifier when passed to formal parameter"},
		{"image atomic", main("k = int(imageAtomicAdd(ui, ivec2(0), 1u) + imageAtomicCompSwap(ui, ivec2(0), 1u, 2u));"), ""},
		{"image atomic needs r32 format", "#version 460\nlayout(binding = 0, rgba32ui) uniform uimage2D u;\nvoid main() { imageAtomicAdd(u, ivec2(0), 1u); }", "'imageAtomicAdd' : only supported on image with format r32i or r32ui"},
		{"image atomic wrong data", main("imageAtomicAdd(ui, ivec2(0), 1.0);"), "'imageAtomicAdd' :  no matching overloaded function found"},
		{"float image atomic needs extension", main("imageAtomicAdd(img, ivec2(0), 1.0);"), "required extension not requested: GL_EXT_shader_atomic_float"},
		{"image atomic scope needs extension", main("imageAtomicAdd(ui, ivec2(0), 1u, 4, 0, 0);"), "'imageAtomicAdd' : required extension not requested: GL_KHR_memory_scope_semantics"},
		{"image atomic scope constant", "#version 460\n#extension GL_KHR_memory_scope_semantics : enable\nlayout(binding = 0, r32ui) uniform uimage2D u;\nlayout(binding = 1) buffer B { int k; };\nvoid main() { imageAtomicAdd(u, ivec2(0), 1u, k, 0, 0); }", "scope and semantics arguments must be compile-time constants"},
		{"imageSamples single-sampled", main("k = imageSamples(img);"), "'imageSamples' :  no matching overloaded function found"},
		{"local sampler", main("sampler2D l;"), "'sampler2D' : sampler/image types can only be used in uniform variables or function parameters: l"},
		{"assign sampler", main("s = s;"), "l-value required"},
		{"select samplers", main("o = texture(k > 0 ? s : s, vec2(0));"), "wrong operand types: no operation ':' exists"},
		{"return sampler", resHdr + "sampler2D f() { return s; }\nvoid main() {}", "'return' : sampler or image cannot be used as return type when generating SPIR-V"},
		{"struct with sampler", resHdr + "struct S { sampler2D a; };\nuniform S us;\nvoid main() {}", "'us' : structs holding samplers, textures or images are not supported in Vulkan"},
		{"format on non-image", "#version 460\nlayout(binding = 0, rgba8) uniform sampler2D s;\nvoid main() {}", "'rgba8' : only apply to images"},
		{"format type mismatch", "#version 460\nlayout(binding = 0, r32ui) uniform iimage2D i;\nvoid main() {}", "'r32ui' : does not apply to signed integer images"},
		{"image without format", "#version 460\nlayout(binding = 0) uniform image2D i;\nvoid main() {}", "without a format layout qualifier' : not supported for this version or the enabled extensions"},
		{"image without format, extension", "#version 460\n#extension GL_EXT_shader_image_load_formatted : enable\nlayout(binding = 0) uniform image2D i;\nvoid main() {}", ""},
		{"writeonly image without format", "#version 460\nlayout(binding = 0) writeonly uniform image2D i;\nvoid main() {}", ""},
		{"es format needs access qualifier", "#version 310 es\nlayout(binding = 0, rgba8) uniform highp image2D i;\nvoid main() {}", "'rgba8' : format requires readonly or writeonly memory qualifier"},
		{"rectangle in Vulkan", "#version 460\nlayout(binding = 0) uniform sampler2DRect r;\nvoid main() {}", "'sampler2DRect' : rectangle textures are not supported when targeting Vulkan"},
		{"64-bit image needs extension", "#version 460\nlayout(binding = 0, r64ui) uniform u64image2D i;\nvoid main() {}", "'u64image2D' : required extension not requested: GL_EXT_shader_image_int64"},
		{"resource parameter", resHdr + "vec4 f(sampler2D x, texture2D y) { return texture(x, vec2(0)) + texelFetch(y, ivec2(0), 0); }\nvoid main() { o = f(s, t[2]); }", ""},
		{"constructed sampler argument", resHdr + "vec4 f(sampler2D x) { return texture(x, vec2(0)); }\nvoid main() { o = f(sampler2D(t[0], smp)); }", "'call argument' : sampler constructor must appear at point of use"},
		{"parameter drops writeonly", resHdr + "void f(image2D x) {}\nvoid main() { f(wo); }", "'writeonly' : argument cannot drop memory qualifier when passed to formal parameter"},
		{"parameter format", resHdr + "void f(writeonly image2D x) {}\nvoid main() { f(wo); }", "'format' : image formats must match"},
		{"implicitly sized sampler array", "#version 460\nlayout(binding = 0) uniform sampler2D a[];\nlayout(binding = 1) buffer B { vec4 o; };\nvoid main() { o = textureLod(a[2], vec2(0), 0.0); }", ""},
		{"implicitly sized array variable index", "#version 460\nlayout(binding = 0) uniform sampler2D a[];\nlayout(binding = 1) buffer B { vec4 o; int k; };\nvoid main() { o = textureLod(a[k], vec2(0), 0.0); }", "array must be redeclared with a size before being indexed with a variable"},
		{"sparse needs extension", main("vec4 x; k = sparseTextureARB(s, vec2(0), x);"), "'sparseTextureARB' : required extension not requested: GL_ARB_sparse_texture2"},
		{"sparse texel l-value", "#version 460\n#extension GL_ARB_sparse_texture2 : enable\nlayout(binding = 0) uniform sampler2D s;\nvoid main() { int c = sparseTextureARB(s, vec2(0), vec4(1)); }", "'sparseTextureARB' :  l-value required"},
		{"sparse texel type", "#version 460\n#extension GL_ARB_sparse_texture2 : enable\nlayout(binding = 0) uniform sampler2D s;\nvoid main() { ivec4 t; int c = sparseTextureARB(s, vec2(0), t); }", "'sparseTextureARB' :  no matching overloaded function found"},
		{"sparse 1D", "#version 460\n#extension GL_ARB_sparse_texture2 : enable\nlayout(binding = 0) uniform sampler1D s;\nvoid main() { vec4 t; int c = sparseTextureARB(s, 0.5, t); }", "no matching overloaded function found"},
		{"clamp needs extension", main("o = textureClampARB(s, vec2(0), 1.0);"), "'textureClampARB' : required extension not requested: GL_ARB_sparse_texture_clamp"},
		{"cube shadow lod needs extension", "#version 460\nlayout(binding = 0) uniform samplerCubeShadow c;\nlayout(binding = 1) buffer B { float o; };\nvoid main() { o = textureLod(c, vec4(0), 1.0); }", "'textureLod' :  no matching overloaded function found"},
		{"cube shadow lod", "#version 460\n#extension GL_EXT_texture_shadow_lod : enable\nlayout(binding = 0) uniform samplerCubeShadow c;\nlayout(binding = 1) buffer B { float o; };\nvoid main() { o = textureLod(c, vec4(0), 1.0); }", ""},
		{"derivative quads size", "#version 460\n#extension GL_KHR_compute_shader_derivatives : enable\nlayout(local_size_x = 3, local_size_y = 2) in;\nlayout(derivative_group_quadsKHR) in;\nvoid main() {}", "t.comp:4: 'derivative_group_quads' : requires local_size_x and local_size_y to be multiple of two"},
		{"derivative linear size", "#version 460\n#extension GL_KHR_compute_shader_derivatives : enable\nlayout(derivative_group_linearKHR) in;\nvoid main() {}", "'derivative_group_linear' : requires total group size to be multiple of four"},
		{"derivative linear size ok", "#version 460\n#extension GL_KHR_compute_shader_derivatives : enable\nlayout(local_size_x = 2, local_size_y = 2) in;\nlayout(derivative_group_linearKHR) in;\nvoid main() {}", ""},
		{"nonuniform index", main("o = texelFetch(t[nonuniformEXT(k)], ivec2(0), 0);"), ""},
		{"nonuniform needs extension", "#version 460\nlayout(binding = 0) buffer B { int k; };\nvoid main() { k = nonuniformEXT(k); }", "'nonuniformEXT' : required extension not requested: GL_EXT_nonuniform_qualifier"},
		{"nonuniform arity", main("k = nonuniformEXT(k, k);"), "'nonuniformEXT' :  no matching overloaded function found"},
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

// TestTextureRoles checks the typed tree of texture lookups: the argument
// roles, the converted parameter types and the result type.
func TestTextureRoles(t *testing.T) {
	src := resHdr + `void main() {
	o.x = texture(cas, vec4(1), 0.5);
	o = textureProjGradOffset(s, vec3(1), vec2(0), vec2(1), ivec2(1));
	io = texelFetch(ms, ivec2(0), 2);
	o = textureGather(s, vec2(0), 1);
	o = texture(s, vec2(0), 1);
}
`
	prog, out := checkSrc(t, src)
	if out != "" {
		t.Fatal(out)
	}
	want := []struct {
		roles  []TexRole
		params string
		result string
	}{
		{[]TexRole{TexSampler, TexCoord, TexCompare}, "samplerCubeArrayShadow vec4 float", "float"},
		{[]TexRole{TexSampler, TexCoord, TexGradX, TexGradY, TexOffset}, "sampler2D vec3 vec2 vec2 ivec2", "vec4"},
		{[]TexRole{TexSampler, TexCoord, TexSample}, "isampler2DMS ivec2 int", "ivec4"},
		{[]TexRole{TexSampler, TexCoord, TexComp}, "sampler2D vec2 int", "vec4"},
		{[]TexRole{TexSampler, TexCoord, TexBias}, "sampler2D vec2 float", "vec4"},
	}
	var calls []*BuiltinCall
	for _, st := range prog.Main.Body.Stmts {
		a := st.(*ExprStmt).X.(*Assign)
		rhs := a.RHS
		if cv, ok := rhs.(*Convert); ok {
			rhs = cv.X
		}
		calls = append(calls, rhs.(*BuiltinCall))
	}
	for i, c := range calls {
		var params []string
		for _, p := range c.Params {
			params = append(params, p.String())
		}
		if !slices.Equal(c.Roles, want[i].roles) || strings.Join(params, " ") != want[i].params || c.T.String() != want[i].result {
			t.Errorf("call %d (%s): roles %v params %v result %s", i, c.Fn, c.Roles, params, c.T)
		}
	}
}

package lower_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/coopshader/coop/glsl/compile"
	"github.com/coopshader/coop/spirv"
	"github.com/coopshader/coop/spirv/text"
)

// resourceLine matches the instructions the image tests look at: image,
// sampler and atomic instructions, NonUniform decorations, and loads and
// stores with memory operands.
var resourceLine = regexp.MustCompile(`Op(Image|SampledImage|Atomic)|OpDecorate .*NonUniform|Op(Load|Store) .*(Pointer|Volatile)`)

// shapes lists those instructions in order with their ids and numbers
// dropped: the opcode and the enumerant operands (image operand masks,
// decorations, memory operands) remain.
func shapes(t *testing.T, m *spirv.Module) []string {
	t.Helper()
	b, err := text.Disassemble(m, text.Options{RawID: true, NoHeader: true, NoIndent: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if !resourceLine.MatchString(line) {
			continue
		}
		var keep []string
		for _, f := range strings.Fields(line) {
			if c := f[0]; c >= 'A' && c <= 'Z' {
				keep = append(keep, f)
			}
		}
		out = append(out, strings.Join(keep, " "))
	}
	return out
}

// checkResources compiles src for env, validates it, compares its shapes
// with want (nil: not checked), and, where glslang is present, its
// features and (sorted) shapes with glslang's module.
func checkResources(t *testing.T, name, src, env string, want []string) {
	t.Helper()
	m := compileSrc(t, name, []byte(src), env)
	validate(t, m, env)
	got := shapes(t, m)
	if want != nil && !slices.Equal(got, want) {
		t.Errorf("%s (%s): shapes\n%s\nwant\n%s", name, env, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ref := glslang(t, name, []byte(src), env)
	if ref == nil {
		return
	}
	if a, b := features(m), features(ref); !slices.Equal(a, b) {
		t.Errorf("%s (%s): features\n%v\nglslang:\n%v", name, env, a, b)
	}
	g, r := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(shapes(t, ref)))
	if !slices.Equal(g, r) {
		t.Errorf("%s (%s): sorted shapes\n%s\nglslang:\n%s", name, env, strings.Join(g, "\n"), strings.Join(r, "\n"))
	}
}

const textureLookups = `#version 460
layout(local_size_x = 4) in;
layout(binding = 0) uniform sampler2D s;
layout(binding = 1) uniform sampler2DShadow ss;
layout(binding = 2) uniform isampler2DArray ia;
layout(binding = 3) uniform texture2D t;
layout(binding = 4) uniform samplerShadow sh;
layout(binding = 5) uniform sampler1D s1;
layout(binding = 6) uniform samplerCubeArrayShadow cas;
layout(binding = 7) buffer Out { vec4 o[16]; ivec4 io; ivec3 sz; };
void main() {
	vec2 uv = vec2(gl_LocalInvocationID.xy) / 4.0;
	o[0] = texture(s, uv);
	o[1] = textureProj(s, vec3(uv, 2.0));
	o[2].x = texture(ss, vec3(uv, 0.5));
	io = texelFetch(ia, ivec3(0), 1);
	o[3] = textureGather(s, uv, 2);
	const ivec2 offs[4] = ivec2[](ivec2(0), ivec2(1, 0), ivec2(0, 1), ivec2(1));
	o[4] = textureGatherOffsets(s, uv, offs);
	o[5].x = texture(sampler2DShadow(t, sh), vec3(uv, 0.25));
	sz = textureSize(ia, 0);
	o[6] = textureLodOffset(s, uv, 1.0, ivec2(-1, 2));
	o[7] = textureGrad(s1, 0.5, 0.1, 0.2);
	o[8].x = textureProj(ss, vec4(uv, 0.5, 2.0));
	o[9].x = texture(cas, vec4(1.0), 0.5);
	o[10] = textureGatherOffset(s, uv, io.xy);
	o[11] = vec4(textureQueryLevels(s));
}
`

// TestTextureLookups checks the sampling, fetch, gather and query
// instructions and their operands: lookups without a level of detail
// sample level 0, shadow references come from P, projective coordinates
// move q, a variable gather offset needs ImageGatherExtended, and 32-bit
// integer texels are sign-extended from SPIR-V 1.4.
func TestTextureLookups(t *testing.T) {
	base := []string{
		"OpImageSampleExplicitLod Lod",
		"OpImageSampleProjExplicitLod Lod",
		"OpImageSampleDrefExplicitLod Lod",
		"OpImage", "OpImageFetch Lod",
		"OpImageGather",
		"OpImageGather ConstOffsets",
		"OpSampledImage", "OpImageSampleDrefExplicitLod Lod",
		"OpImage", "OpImageQuerySizeLod",
		"OpImageSampleExplicitLod Lod|ConstOffset",
		"OpImageSampleExplicitLod Grad",
		"OpImageSampleProjDrefExplicitLod Lod",
		"OpImageSampleDrefExplicitLod Lod",
		"OpImageGather Offset",
		"OpImage", "OpImageQueryLevels",
	}
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		want := slices.Clone(base)
		if env == "vulkan1.3" {
			want[4] = "OpImageFetch Lod|SignExtend"
		}
		checkResources(t, "lookups.comp", textureLookups, env, want)
	}
}

const derivativeLookups = `#version 460
#extension GL_KHR_compute_shader_derivatives : require
layout(local_size_x = 2, local_size_y = 2) in;
layout(derivative_group_quadsKHR) in;
layout(binding = 0) uniform sampler2D s;
layout(binding = 1) buffer Out { vec4 o[4]; };
void main() {
	vec2 uv = vec2(gl_LocalInvocationID.xy) / 2.0;
	o[0] = texture(s, uv);
	o[1] = texture(s, uv, 0.5);
	o[2] = textureOffset(s, uv, ivec2(1), 1.0);
	o[3].xy = textureQueryLod(s, uv);
}
`

// TestDerivativeLookups checks that with compute derivatives lookups keep
// an implicit level of detail and may take a bias.
func TestDerivativeLookups(t *testing.T) {
	checkResources(t, "deriv.comp", derivativeLookups, "vulkan1.3", []string{
		"OpImageSampleImplicitLod",
		"OpImageSampleImplicitLod Bias",
		"OpImageSampleImplicitLod Bias|ConstOffset",
		"OpImageQueryLod",
	})
}

const imageAccess = `#version 460
#extension GL_EXT_shader_atomic_float : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 4) in;
layout(binding = 0, rgba8) readonly uniform image2D src;
layout(binding = 1, rg16f) writeonly uniform image2D dst;
layout(binding = 2, r32ui) coherent uniform uimage3D counts;
layout(binding = 3, r32i) volatile uniform iimage2DMS ms;
layout(binding = 4, r32f) uniform imageBuffer fb;
layout(binding = 5) writeonly uniform iimage1DArray noformat;
layout(binding = 6) buffer Out { uint u; int i; float f; ivec2 size; };
void main() {
	ivec2 p = ivec2(gl_LocalInvocationID.xy);
	imageStore(dst, p, imageLoad(src, p) * 2.0);
	u = imageAtomicAdd(counts, ivec3(p, 0), 1u) + imageAtomicCompSwap(counts, ivec3(1), 2u, 3u);
	i = imageAtomicMax(ms, p, 2, 7) + imageLoad(ms, p, 1).x;
	imageAtomicStore(ms, p, 0, i, gl_ScopeDevice, gl_StorageSemanticsImage, gl_SemanticsRelease);
	f = imageAtomicAdd(fb, p.x, 1.5) + imageAtomicExchange(fb, 3, f);
	imageStore(noformat, p, ivec4(i));
	size = imageSize(src) + ivec2(imageSamples(ms));
}
`

// TestImageAccess checks image reads, writes, atomics (through texel
// pointers) and queries with the capabilities their formats and
// dimensions need.
func TestImageAccess(t *testing.T) {
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		ext := func(s string) string {
			if env == "vulkan1.3" {
				return s
			}
			return ""
		}
		join := func(a, b string) string {
			if b == "" {
				return a
			}
			return a + " " + b
		}
		want := []string{
			"OpImageRead", "OpImageWrite",
			"OpImageTexelPointer", "OpAtomicIAdd", "OpImageTexelPointer", "OpAtomicCompareExchange",
			"OpImageTexelPointer", "OpAtomicSMax", join("OpImageRead", ext("Sample|SignExtend")),
			"OpImageTexelPointer", "OpAtomicStore",
			"OpImageTexelPointer", "OpAtomicFAddEXT", "OpImageTexelPointer", "OpAtomicExchange",
			join("OpImageWrite", ext("SignExtend")),
			"OpImageQuerySize", "OpImageQuerySamples",
		}
		if env == "vulkan1.0" {
			want[8] = "OpImageRead Sample"
		}
		checkResources(t, "images.comp", imageAccess, env, want)
	}
}

const resourceArrays = `#version 460
#extension GL_EXT_nonuniform_qualifier : require
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 4) in;
layout(binding = 0) uniform texture2D tex[];
layout(binding = 1) uniform sampler smp;
layout(binding = 2, r32ui) uniform uimage2D imgs[4];
layout(binding = 3) uniform samplerBuffer bufs[2];
layout(binding = 4) buffer Out { uint idx; vec4 o[4]; uint r; };
layout(binding = 5) writeonly uniform uimage2D wimg;
vec4 fetch(texture2D t, ivec2 p) { return texelFetch(t, p, 0); }
uint size(writeonly uimage2D im) { return uint(imageSize(im).x); }
void main() {
	uint i = idx;
	o[0] = texture(sampler2D(tex[nonuniformEXT(i)], smp), vec2(0.5));
	r = imageAtomicOr(imgs[nonuniformEXT(i + 1u)], ivec2(0), 1u);
	o[1] = fetch(tex[2], ivec2(1)) + texelFetch(bufs[i & 1u], 0);
	o[2] = vec4(imageLoad(imgs[i & 3u], ivec2(2)));
	r += size(wimg);
}
`

// TestResourceArrays checks descriptor arrays indexed uniformly and with
// nonuniformEXT (NonUniform on the index copy, the access chain, the load
// and the texel pointer), runtime-sized arrays, and resources passed to
// functions by pointer.
func TestResourceArrays(t *testing.T) {
	want := []string{
		"OpDecorate NonUniform", "OpDecorate NonUniform", "OpDecorate NonUniform",
		"OpDecorate NonUniform", "OpDecorate NonUniform", "OpDecorate NonUniform",
		"OpImageFetch Lod", "OpImageQuerySize", // fetch and size come first
		"OpSampledImage", "OpImageSampleExplicitLod Lod",
		"OpImageTexelPointer", "OpAtomicOr",
		"OpImageFetch", "OpImageRead ZeroExtend",
	}
	checkResources(t, "arrays.comp", resourceArrays, "vulkan1.3", want)
	m := compileSrc(t, "arrays.comp", []byte(resourceArrays), "vulkan1.3")
	// Resource parameters are pointers into UniformConstant memory.
	params := 0
	for _, in := range m.Insts {
		if in.Op == spirv.OpTypeFunction {
			for _, p := range in.Words[2:] {
				if pointee, sc := pointerOf(m, p); sc == spirv.StorageClassUniformConstant && pointee != 0 {
					params++
				}
			}
		}
	}
	if params != 2 { // fetch's texture and size's image
		t.Errorf("%d resource parameters passed by UniformConstant pointer, want 2", params)
	}
}

// pointerOf returns the pointee and storage class of pointer type id.
func pointerOf(m *spirv.Module, id uint32) (uint32, spirv.StorageClass) {
	for _, in := range m.Insts {
		if in.Op == spirv.OpTypePointer && in.Words[0] == id {
			return in.Words[2], spirv.StorageClass(in.Words[1])
		}
	}
	return 0, 0
}

const memoryModel = `#version 460
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 4) in;
layout(binding = 0, r32ui) workgroupcoherent uniform uimage2D wimg;
layout(binding = 1, r32ui) volatile uniform uimage2D vimg;
layout(binding = 2, r32ui) nonprivate uniform uimage2D pimg;
layout(binding = 3) coherent buffer C { uint c; };
layout(binding = 4) buffer V { volatile uint v; devicecoherent uint d; };
shared uint s;
void main() {
	uint x = imageLoad(wimg, ivec2(0)).x + imageLoad(vimg, ivec2(0)).x + imageLoad(pimg, ivec2(0)).x;
	imageStore(wimg, ivec2(1), uvec4(x));
	imageStore(pimg, ivec2(1), uvec4(x));
	c = s + v;
	d = x;
	s = imageAtomicAdd(vimg, ivec2(2), 1u);
}
`

// TestVulkanMemoryModelOperands checks the operands glslang gives coherent,
// volatile and nonprivate accesses under the Vulkan memory model: texels
// and pointers are made visible before loads and available after stores
// at the qualifier's scope, and are non-private; volatile ones are
// volatile, and so are atomics on them.
func TestVulkanMemoryModelOperands(t *testing.T) {
	checkResources(t, "vmm.comp", memoryModel, "vulkan1.3", []string{
		"OpImageRead MakeTexelVisible|NonPrivateTexel|ZeroExtend",
		"OpImageRead MakeTexelVisible|NonPrivateTexel|VolatileTexel|ZeroExtend",
		"OpImageRead NonPrivateTexel|ZeroExtend",
		"OpImageWrite MakeTexelAvailable|NonPrivateTexel|ZeroExtend",
		"OpImageWrite NonPrivateTexel|ZeroExtend",
		"OpLoad MakePointerVisible|NonPrivatePointer",
		"OpLoad Volatile|MakePointerVisible|NonPrivatePointer",
		"OpStore MakePointerAvailable|NonPrivatePointer",
		"OpStore MakePointerAvailable|NonPrivatePointer",
		"OpImageTexelPointer", "OpAtomicIAdd",
		"OpStore MakePointerAvailable|NonPrivatePointer",
	})
}

// TestTileAttachments checks GL_QCOM_tile_shading's tile attachments: images
// in the TileAttachmentQCOM storage class, the tile built-ins, and the
// shading rate in place of the workgroup size.
func TestTileAttachments(t *testing.T) {
	const src = `#version 460
#extension GL_QCOM_tile_shading : enable
layout(local_size_x = 8, local_size_y = 8) in;
layout(shading_rate_xQCOM = 2, shading_rate_yQCOM = 2) in;
layout(binding = 0, tile_attachmentQCOM, rgba32f) uniform image2D color;
void main() {
	ivec2 p = ivec2(gl_TileOffsetQCOM + gl_GlobalInvocationID.xy);
	imageStore(color, p, imageLoad(color, p) + vec4(gl_TileDimensionQCOM, 1.0));
}
`
	checkResources(t, "tile.comp", src, "vulkan1.3", []string{"OpImageRead", "OpImageWrite"})
	m := compileSrc(t, "tile.comp", []byte(src), "vulkan1.3")
	var modes []spirv.ExecutionMode
	tile := false
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpExecutionMode:
			modes = append(modes, spirv.ExecutionMode(in.Words[1]))
			if spirv.ExecutionMode(in.Words[1]) == spirv.ExecutionModeTileShadingRateQCOM && !slices.Equal(in.Words[2:], []uint32{2, 2, 1}) {
				t.Errorf("tile shading rate %v, want 2 2 1", in.Words[2:])
			}
		case spirv.OpVariable:
			tile = tile || spirv.StorageClass(in.Words[2]) == spirv.StorageClassTileAttachmentQCOM
		}
	}
	if !slices.Equal(modes, []spirv.ExecutionMode{spirv.ExecutionModeTileShadingRateQCOM}) {
		t.Errorf("execution modes %v", modes)
	}
	if !tile {
		t.Error("no TileAttachmentQCOM variable")
	}
}

// TestResourceCodegenErrors checks the uses the code generator rejects with
// a positioned error rather than an invalid module.
func TestResourceCodegenErrors(t *testing.T) {
	const hdr = "#version 460\n#extension GL_ARB_sparse_texture_clamp : enable\nlayout(binding = 0) uniform sampler2D s;\nlayout(binding = 1) buffer B { vec4 o; };\n"
	for _, tc := range []struct{ body, want string }{
		{"void main() { o = texture(s, vec2(0), 1.0); }", "t.comp:5: '' : a texture lookup with a bias needs implicit derivatives"},
		{"void main() { o.xy = textureQueryLod(s, vec2(0)); }", "t.comp:5: '' : textureQueryLod needs implicit derivatives"},
		{"void main() { o = textureClampARB(s, vec2(0), 1.0); }", "t.comp:5: '' : a level-of-detail clamp without gradients needs implicit derivatives"},
	} {
		_, d := compile.Compile("t.comp", []byte(hdr+tc.body), compile.Options{TargetEnv: "vulkan1.3"})
		if !strings.Contains(d.Error(), tc.want) || strings.Contains(d.Error(), "internal error") {
			t.Errorf("%s: got %q, want %q", tc.body, d.Error(), tc.want)
		}
	}
}

// TestResourceArraySizes checks that an unsized array of samplers takes its
// size from the largest index used, as in glslang, unless descriptor
// indexing (GL_EXT_nonuniform_qualifier) makes it a runtime array.
func TestResourceArraySizes(t *testing.T) {
	const body = `layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2D a[];
layout(binding = 1) buffer B { vec4 o; };
void main() { o = textureLod(a[2], vec2(0), 0.0) + textureLod(a[1], vec2(0), 0.0); }
`
	for _, tc := range []struct {
		src     string
		runtime bool
	}{
		{"#version 460\n" + body, false},
		{"#version 460\n#extension GL_EXT_nonuniform_qualifier : enable\n" + body, true},
	} {
		m := compileSrc(t, "sizes.comp", []byte(tc.src), "vulkan1.2")
		validate(t, m, "vulkan1.2")
		consts := map[uint32]uint32{}
		runtime, length := false, uint32(0)
		for _, in := range m.Insts {
			switch in.Op {
			case spirv.OpConstant:
				consts[in.Words[1]] = in.Words[2]
			case spirv.OpTypeRuntimeArray:
				runtime = true
			case spirv.OpTypeArray:
				length = consts[in.Words[2]]
			}
		}
		if runtime != tc.runtime || !tc.runtime && length != 3 {
			t.Errorf("runtime array %v (want %v), array length %d", runtime, tc.runtime, length)
		}
	}
}

// TestInt64Images checks 64-bit integer images (GL_EXT_shader_image_int64):
// their capability and extension, 64-bit atomics, and texels that are not
// sign- or zero-extended.
func TestInt64Images(t *testing.T) {
	const src = `#version 460
#extension GL_EXT_shader_image_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
layout(binding = 0, r64ui) uniform u64image2D big;
layout(binding = 1, r64i) uniform i64imageBuffer bigb;
layout(binding = 2) buffer B { uint64_t q; int64_t z; };
void main() {
	q = imageAtomicMax(big, ivec2(2), uint64_t(5)) + imageLoad(big, ivec2(0)).x;
	imageStore(big, ivec2(1), u64vec4(q));
	z = imageAtomicCompSwap(bigb, 3, int64_t(1), int64_t(2));
}
`
	checkResources(t, "int64.comp", src, "vulkan1.3", []string{
		"OpImageTexelPointer", "OpAtomicUMax", "OpImageRead", "OpImageWrite",
		"OpImageTexelPointer", "OpAtomicCompareExchange",
	})
}

const sparseLookups = `#version 460
#extension GL_ARB_sparse_texture2 : require
#extension GL_ARB_sparse_texture_clamp : require
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2D s;
layout(binding = 1) uniform sampler2DShadow ss;
layout(binding = 2) uniform isampler3D s3;
layout(binding = 3, rgba32f) uniform image2DMS img;
layout(binding = 4) buffer Out { vec4 o[4]; ivec4 io; float d; int code; bool resident; };
void main() {
	int c = sparseTextureLodARB(s, vec2(0.5), 1.0, o[0]);
	c += sparseTexelFetchARB(s3, ivec3(1), 0, io);
	c += sparseTextureGatherARB(s, vec2(0.5), o[1], 2);
	c += sparseTextureLodARB(ss, vec3(0.5), 0.0, d);
	c += sparseImageLoadARB(img, ivec2(1), 3, o[2]);
	c += sparseTextureGradClampARB(s, vec2(0.5), vec2(0.1), vec2(0.2), 1.0, o[3]);
	code = c;
	resident = sparseTexelsResidentARB(c);
}
`

// TestSparseResidency checks the sparse lookups of GL_ARB_sparse_texture2
// and _clamp: the sparse instructions return the residency code and the
// texel, which goes to the out argument.
func TestSparseResidency(t *testing.T) {
	checkResources(t, "sparse.comp", sparseLookups, "vulkan1.3", []string{
		"OpImageSparseSampleExplicitLod Lod",
		"OpImage", "OpImageSparseFetch Lod|SignExtend",
		"OpImageSparseGather",
		"OpImageSparseSampleDrefExplicitLod Lod",
		"OpImageSparseRead Sample",
		"OpImageSparseSampleExplicitLod Grad|MinLod",
		"OpImageSparseTexelsResident",
	})
}

// TestShadowLod checks the explicit levels of detail of array and cube
// shadow samplers (GL_EXT_texture_shadow_lod).
func TestShadowLod(t *testing.T) {
	const src = `#version 460
#extension GL_EXT_texture_shadow_lod : require
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2DArrayShadow a;
layout(binding = 1) uniform samplerCubeShadow c;
layout(binding = 2) uniform samplerCubeArrayShadow ca;
layout(binding = 3) buffer B { float o[4]; };
void main() {
	o[0] = textureLod(a, vec4(0.5), 1.0);
	o[1] = textureLod(c, vec4(0.5), 1.0);
	o[2] = textureLod(ca, vec4(0.5), 0.5, 1.0);
	o[3] = textureLodOffset(a, vec4(0.5), 1.0, ivec2(1));
}
`
	checkResources(t, "shadowlod.comp", src, "vulkan1.3", []string{
		"OpImageSampleDrefExplicitLod Lod", "OpImageSampleDrefExplicitLod Lod",
		"OpImageSampleDrefExplicitLod Lod", "OpImageSampleDrefExplicitLod Lod|ConstOffset",
	})
}

// TestNonUniformBlocks checks arrays of buffer and uniform blocks indexed
// with nonuniformEXT: the pointers a store, a load and an atomic use are
// decorated NonUniform, with glslang's capabilities.
func TestNonUniformBlocks(t *testing.T) {
	const src = `#version 460
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { uint v[]; } bufs[];
layout(binding = 1) uniform U { uint u; } ubos[4];
layout(binding = 2) buffer O { uint idx; };
void main() {
	bufs[nonuniformEXT(idx)].v[1] = ubos[nonuniformEXT(idx)].u;
	atomicAdd(bufs[nonuniformEXT(idx)].v[2], 1u);
}
`
	for _, env := range []string{"vulkan1.1", "vulkan1.3"} {
		m := compileSrc(t, "nublocks.comp", []byte(src), env)
		validate(t, m, env)
		nonUniform := map[uint32]bool{}
		var used []uint32 // the pointers of the store, the load from ubos and the atomic
		for _, in := range m.Insts {
			switch in.Op {
			case spirv.OpDecorate:
				if spirv.Decoration(in.Words[1]) == spirv.DecorationNonUniform {
					nonUniform[in.Words[0]] = true
				}
			case spirv.OpStore, spirv.OpAtomicIAdd:
				used = append(used, in.Words[0])
				if in.Op == spirv.OpAtomicIAdd {
					used[len(used)-1] = in.Words[2]
				}
			case spirv.OpLoad:
				if nonUniform[in.Words[2]] {
					used = append(used, in.Words[2])
				}
			}
		}
		if len(used) != 3 {
			t.Fatalf("%s: %d accesses found, want 3", env, len(used))
		}
		for _, p := range used {
			if !nonUniform[p] {
				t.Errorf("%s: pointer %%%d is not decorated NonUniform", env, p)
			}
		}
		if ref := glslang(t, "nublocks.comp", []byte(src), env); ref != nil {
			if a, b := features(m), features(ref); !slices.Equal(a, b) {
				t.Errorf("%s: features\n%v\nglslang:\n%v", env, a, b)
			}
		}
	}
}

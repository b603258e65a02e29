package syntax

import "strconv"

// typeKeywords holds every built-in type name the parser must recognise
// as the start of a type.
var typeKeywords = map[string]bool{}

// paramTypes are the type names that take <...> parameters.
var paramTypes = map[string]bool{
	"coopmat": true, "fcoopmatNV": true, "icoopmatNV": true, "ucoopmatNV": true,
	"coopvecNV": true, "tensorLayoutNV": true, "tensorViewNV": true, "vector": true, "tensorARM": true,
}

// qualifierWords are the qualifier keywords that may precede a type.
var qualifierWords = map[string]bool{}

// argQualifiers are the GL_EXT_spirv_intrinsics qualifiers that take a
// parenthesised argument list.
var argQualifiers = map[string]bool{"spirv_decorate": true, "spirv_decorate_id": true, "spirv_decorate_string": true,
	"spirv_execution_mode": true, "spirv_execution_mode_id": true, "spirv_storage_class": true, "spirv_instruction": true}

// reservedWords are keywords reserved for future use (an error to use).
var reservedWords = map[string]bool{}

// jumpWords are statements of one keyword and a semicolon.
var jumpWords = map[string]bool{"break": true, "continue": true, "discard": true, "terminateInvocation": true,
	"terminateRayEXT": true, "ignoreIntersectionEXT": true, "demote": true}

func init() {
	words := func(s string, m map[string]bool) {
		start := -1
		for i := 0; i <= len(s); i++ {
			if i == len(s) || s[i] == ' ' || s[i] == '\n' || s[i] == '\t' {
				if start >= 0 {
					m[s[start:i]] = true
					start = -1
				}
			} else if start < 0 {
				start = i
			}
		}
	}
	words(`void bool int uint float double atomic_uint int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t
		float16_t float32_t float64_t bfloat16_t floate4m3_t floate5m2_t floate2m1_t floate2m3_t floate3m2_t floatmxint8_t accelerationStructureEXT rayQueryEXT
		sampler samplerShadow subpassInput isubpassInput usubpassInput subpassInputMS isubpassInputMS usubpassInputMS
		hitObjectNV`, typeKeywords)
	for p := range paramTypes {
		typeKeywords[p] = true
	}
	for _, pre := range []string{"", "d", "i", "u", "b", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64", "bf16", "fe4m3", "fe5m2", "fe2m1", "fe2m3", "fe3m2"} {
		for n := 2; n <= 4; n++ {
			typeKeywords[pre+"vec"+strconv.Itoa(n)] = true
		}
	}
	for _, pre := range []string{"", "d", "f16", "f32", "f64"} {
		for c := 2; c <= 4; c++ {
			typeKeywords[pre+"mat"+strconv.Itoa(c)] = true
			for r := 2; r <= 4; r++ {
				typeKeywords[pre+"mat"+strconv.Itoa(c)+"x"+strconv.Itoa(r)] = true
			}
		}
	}
	dims := []string{"1D", "2D", "3D", "Cube", "2DRect", "1DArray", "2DArray", "CubeArray", "Buffer", "2DMS", "2DMSArray"}
	for _, pre := range []string{"", "i", "u", "f16", "i64", "u64"} {
		for _, kind := range []string{"sampler", "image", "texture"} {
			for _, d := range dims {
				typeKeywords[pre+kind+d] = true
				if kind == "sampler" {
					typeKeywords[pre+kind+d+"Shadow"] = true
				}
			}
		}
	}
	words(`const in out inout uniform buffer shared attribute varying coherent volatile restrict readonly writeonly
		devicecoherent queuefamilycoherent workgroupcoherent subgroupcoherent nonprivate nontemporal
		highp mediump lowp precise invariant flat smooth noperspective centroid sample patch
		nonuniformEXT subroutine layout perprimitiveNV perprimitiveEXT perviewNV taskNV pervertexNV pervertexEXT
		hitAttributeEXT rayPayloadEXT rayPayloadInEXT callableDataEXT callableDataInEXT tileImageEXT
		resourceheap samplerheap spirv_by_reference spirv_literal`, qualifierWords)
	for w := range argQualifiers {
		qualifierWords[w] = true
	}
	words(`asm class union enum typedef template this resource goto inline noinline public static extern external
		interface long short half fixed unsigned superp input output hvec2 hvec3 hvec4 fvec2 fvec3 fvec4
		sampler3DRect filter sizeof cast namespace using`, reservedWords)
}

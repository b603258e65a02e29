package syntax

import (
	"strconv"
	"strings"
	"sync"

	"github.com/coopshader/coop/internal/lazy"
)

// kwFlags classifies an identifier's spelling; the parser looks each
// identifier token up once.
type kwFlags uint16

const (
	kType      kwFlags = 1 << iota // built-in type keyword
	kParam                         // type that takes <...> parameters
	kNeedLT                        // a type only when '<' follows (else an identifier)
	kGated                         // extension type keyword: glslang reads it as an identifier when the extension is off
	kQual                          // qualifier keyword
	kArgQual                       // qualifier with a (...) argument list
	kReserved                      // reserved for future use
	kJump                          // statement of one keyword and ';'
	kGatedJump                     // jump keyword of an extension: a jump only before ';'
	kStmt                          // other statement or expression keyword
)

// keywords maps every spelling the parser treats specially; defineKeywords
// makes it.
var keywords map[string]kwFlags

// tokenNames are glslang's (bison) names of keywords whose name is not the
// keyword upper-cased.
var tokenNames = lazy.Value[map[string]string]{F: func() map[string]string {
	return map[string]string{
		"terminateInvocation": "TERMINATE_INVOCATION", "terminateRayEXT": "TERMINATE_RAY",
		"ignoreIntersectionEXT": "IGNORE_INTERSECTION", "true": "BOOLCONSTANT", "false": "BOOLCONSTANT",
		"highp": "HIGH_PRECISION", "mediump": "MEDIUM_PRECISION", "lowp": "LOW_PRECISION",
		"nonuniformEXT": "NONUNIFORM", "rayPayloadEXT": "PAYLOADEXT", "rayPayloadInEXT": "PAYLOADINEXT",
		"hitAttributeEXT": "HITATTREXT", "callableDataEXT": "CALLDATAEXT", "callableDataInEXT": "CALLDATAINEXT",
		"accelerationStructureEXT": "ACCSTRUCTEXT", "accelerationStructureNV": "ACCSTRUCTNV", "taskNV": "PERTASKNV",
		"taskPayloadSharedEXT": "TASKPAYLOADWORKGROUPEXT",
	}
}}

// punctNames are glslang's names of the operators and punctuators.
var punctNames = lazy.Value[map[string]string]{F: func() map[string]string {
	return map[string]string{
		"(": "LEFT_PAREN", ")": "RIGHT_PAREN", "[": "LEFT_BRACKET", "]": "RIGHT_BRACKET",
		"{": "LEFT_BRACE", "}": "RIGHT_BRACE", ".": "DOT", ",": "COMMA", ":": "COLON", "=": "EQUAL",
		";": "SEMICOLON", "!": "BANG", "-": "DASH", "~": "TILDE", "+": "PLUS", "*": "STAR", "/": "SLASH",
		"%": "PERCENT", "<": "LEFT_ANGLE", ">": "RIGHT_ANGLE", "|": "VERTICAL_BAR", "^": "CARET",
		"&": "AMPERSAND", "?": "QUESTION", "++": "INC_OP", "--": "DEC_OP", "<=": "LE_OP", ">=": "GE_OP",
		"==": "EQ_OP", "!=": "NE_OP", "&&": "AND_OP", "||": "OR_OP", "^^": "XOR_OP", "*=": "MUL_ASSIGN",
		"/=": "DIV_ASSIGN", "+=": "ADD_ASSIGN", "%=": "MOD_ASSIGN", "<<=": "LEFT_ASSIGN", ">>=": "RIGHT_ASSIGN",
		"&=": "AND_ASSIGN", "^=": "XOR_ASSIGN", "|=": "OR_ASSIGN", "-=": "SUB_ASSIGN", "<<": "LEFT_OP", ">>": "RIGHT_OP",
	}
}}

var keywordsOnce sync.Once

// defineKeywords fills keywords on the first Parse rather than at program
// start, so that commands which never parse GLSL do not pay for it (a
// sync.Once, which unlike sync.OnceFunc allocates nothing at package init).
func defineKeywords() { keywordsOnce.Do(fillKeywords) }

func fillKeywords() {
	keywords = map[string]kwFlags{}
	add := func(f kwFlags, s string) {
		for _, w := range strings.Fields(s) {
			keywords[w] |= f
		}
	}
	add(kType, `void bool int uint float double atomic_uint
		sampler samplerShadow subpassInput isubpassInput usubpassInput subpassInputMS isubpassInputMS usubpassInputMS
		samplerExternalOES __samplerExternal2DY2YEXT spirv_type`)
	// Types of extensions (explicit arithmetic, bfloat16, fp8, ray tracing,
	// cooperative types, long vectors).
	add(kType|kGated, `int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t
		float16_t float32_t float64_t bfloat16_t floate4m3_t floate5m2_t floate2m1_t floate2m3_t floate3m2_t floatmxint8_t floatue8m0_t
		accelerationStructureEXT accelerationStructureNV rayQueryEXT hitObjectNV hitObjectEXT`)
	add(kType|kParam|kGated, `coopmat fcoopmatNV icoopmatNV ucoopmatNV coopvecNV tensorLayoutNV tensorViewNV tensorARM`)
	// GL_EXT_long_vector's "vector" is a common word: a type only with <...>.
	add(kType|kParam|kGated|kNeedLT, `vector`)
	vecs := func(pre string, f kwFlags) {
		for n := 2; n <= 4; n++ {
			keywords[pre+"vec"+strconv.Itoa(n)] |= f
		}
	}
	for _, pre := range []string{"", "d", "i", "u", "b"} {
		vecs(pre, kType)
	}
	for _, pre := range []string{"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f16", "f32", "f64", "bf16", "fe4m3", "fe5m2", "fe2m1", "fe2m3", "fe3m2", "fmxint8", "fue8m0"} {
		vecs(pre, kType|kGated)
	}
	for _, pre := range []string{"", "d", "f16", "f32", "f64"} {
		f := kType
		if len(pre) > 1 {
			f |= kGated
		}
		for c := 2; c <= 4; c++ {
			keywords[pre+"mat"+strconv.Itoa(c)] |= f
			for r := 2; r <= 4; r++ {
				keywords[pre+"mat"+strconv.Itoa(c)+"x"+strconv.Itoa(r)] |= f
			}
		}
	}
	dims := []string{"1D", "2D", "3D", "Cube", "2DRect", "1DArray", "2DArray", "CubeArray", "Buffer", "2DMS", "2DMSArray"}
	for _, pre := range []string{"", "i", "u", "f16", "i64", "u64"} {
		f := kType
		if pre == "f16" || len(pre) == 3 {
			f |= kGated
		}
		for _, kind := range []string{"sampler", "image", "texture"} {
			for _, d := range dims {
				keywords[pre+kind+d] |= f
				if kind == "sampler" {
					keywords[pre+kind+d+"Shadow"] |= f
				}
			}
		}
	}
	add(kQual, `const in out inout uniform buffer shared attribute varying coherent volatile restrict readonly writeonly
		devicecoherent queuefamilycoherent workgroupcoherent subgroupcoherent shadercallcoherent nonprivate nontemporal
		highp mediump lowp precise invariant flat smooth noperspective centroid sample patch
		nonuniformEXT subroutine layout perprimitiveNV perprimitiveEXT perviewNV taskNV pervertexNV pervertexEXT
		hitAttributeEXT rayPayloadEXT rayPayloadInEXT callableDataEXT callableDataInEXT tileImageEXT
		taskPayloadSharedEXT hitObjectAttributeNV hitObjectAttributeEXT shaderRecordEXT
		resourceheap samplerheap spirv_by_reference spirv_literal`)
	add(kQual|kArgQual, `spirv_decorate spirv_decorate_id spirv_decorate_string spirv_execution_mode
		spirv_execution_mode_id spirv_storage_class spirv_instruction`)
	// Reserved as glslang reserves them for desktop GLSL 4.20 and later.
	add(kReserved, `common partition active asm class union enum typedef template this resource goto
		inline noinline public static extern external interface long short half fixed unsigned superp
		input output hvec2 hvec3 hvec4 fvec2 fvec3 fvec4 sampler3DRect filter sizeof cast namespace using`)
	add(kJump, `break continue discard`)
	add(kJump|kGatedJump, `terminateInvocation terminateRayEXT ignoreIntersectionEXT demote`)
	add(kStmt, `if else for while do switch case default return struct true false precision`)
}

// keywordName is glslang's name for a keyword token.
func keywordName(s string) string {
	if n, ok := tokenNames.Get()[s]; ok {
		return n
	}
	return strings.ToUpper(s)
}

package validate

import (
	"slices"
	"strings"
	"sync"

	"github.com/coopshader/coop/spirv"
)

// Extended instruction sets: an import names a registered set, and the
// GLSL.std.450 instructions get the operand types their specification
// gives (GLSL.std.450, "Result Type and the type of x must both be ...").

// knownExtInstSets are the extended instruction sets of the SPIR-V
// registry besides the NonSemantic ones, which any consumer may ignore
// (SPV_KHR_non_semantic_info: "the name must begin with NonSemantic.").
var knownExtInstSets = []string{"GLSL.std.450", "OpenCL.std", "DebugInfo", "OpenCL.DebugInfo.100",
	"SPV_AMD_shader_ballot", "SPV_AMD_shader_explicit_vertex_parameter", "SPV_AMD_shader_trinary_minmax",
	"SPV_AMD_gcn_shader"}

// checkExtInstImport: the name is a registered set.
func (s *state) checkExtInstImport(i int) {
	name, _, _ := spirv.DecodeString(s.m.Insts[i].Words[1:])
	if !slices.Contains(knownExtInstSets, name) && !strings.HasPrefix(name, "NonSemantic.") && spirv.LookupExtInstSet(name) == nil {
		s.fail(i, "extinst.import", "Invalid extended instruction import '%s'", name)
	}
}

// glslRule is the operand rule of one GLSL.std.450 instruction.
type glslRule uint8

const (
	glslFloat glslRule = iota + 1 // float scalar or vector; operands of Result Type
	glslInt                       // integer scalar or vector; operands of Result Type's width and components
	glslCross                     // a 3-component float vector; operands of Result Type
)

// glslRules is built on first use: every command pays for package init.
var glslRules = sync.OnceValue(func() map[uint32]glslRule {
	m := map[uint32]glslRule{}
	set := spirv.LookupExtInstSet("GLSL.std.450")
	for _, n := range []string{"Round", "RoundEven", "Trunc", "FAbs", "FSign", "Floor", "Ceil", "Fract", "Radians",
		"Degrees", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Asinh", "Acosh", "Atanh",
		"Atan2", "Pow", "Exp", "Log", "Exp2", "Log2", "Sqrt", "InverseSqrt", "FMin", "FMax", "FClamp", "FMix",
		"Step", "SmoothStep", "Fma", "NMin", "NMax", "NClamp"} {
		m[set.Lookup(n).Number] = glslFloat
	}
	for _, n := range []string{"SAbs", "SSign", "UMin", "SMin", "UMax", "SMax", "UClamp", "SClamp"} {
		m[set.Lookup(n).Number] = glslInt
	}
	m[set.Lookup("Cross").Number] = glslCross
	return m
})

// checkGLSLInst checks a GLSL.std.450 instruction's operand types:
// "Result Type and the type of x must both be floating-point scalar or
// vector types ... Result Type and operand types must have the same
// number of components with the same component width" (the float
// instructions: the same type), and for SAbs, SSign, UMin ... SClamp the
// same of integer types.
func (s *state) checkGLSLInst(i int) {
	w := s.m.Insts[i].Words
	set := s.defInst(w[2])
	if set == nil || set.Op != spirv.OpExtInstImport {
		return
	}
	if name, _, _ := spirv.DecodeString(set.Words[1:]); name != "GLSL.std.450" {
		return
	}
	rule := glslRules()[w[3]]
	if rule == 0 {
		return
	}
	name := spirv.LookupExtInstSet("GLSL.std.450").Inst(w[3]).Name
	r, ok, coop := s.numOf(w[0])
	if coop {
		s.checkCoopVecGLSL(i, name, rule)
		return
	}
	switch rule {
	case glslCross:
		// Cross: "Result Type and the type of all operands must be the
		// same type. The type must be a floating-point vector of 3
		// components."
		if !ok || !r.is(spirv.OpTypeFloat) || !r.vec || r.known && r.n != 3 {
			s.fail(i, "glsl.result", "GLSL.std.450 %s: expected Result Type to be a 3-component float vector type", name)
			return
		}
		fallthrough
	case glslFloat:
		if !ok || !r.is(spirv.OpTypeFloat) {
			s.fail(i, "glsl.result", "GLSL.std.450 %s: expected Result Type to be a float scalar or vector type", name)
			return
		}
		for _, a := range w[4:] {
			if s.typeOf(a) != w[0] {
				s.fail(i, "glsl.operand", "GLSL.std.450 %s: expected types of all operands to be equal to Result Type", name)
				return
			}
		}
	case glslInt:
		if !ok || !r.is(spirv.OpTypeInt) {
			s.fail(i, "glsl.result", "GLSL.std.450 %s: expected Result Type to be an int scalar or vector type", name)
			return
		}
		for _, a := range w[4:] {
			v, ok, _ := s.numOf(s.typeOf(a))
			if !ok || !v.is(spirv.OpTypeInt) {
				s.fail(i, "glsl.operand", "GLSL.std.450 %s: expected all operands to be int scalars or vectors", name)
				return
			}
			if !v.sameDim(r) || v.t.Width != r.t.Width {
				s.fail(i, "glsl.operand", "GLSL.std.450 %s: expected all operands to have the same dimension and bit width as Result Type", name)
				return
			}
		}
	}
}

// coopVecGLSL are the GLSL.std.450 instructions cooperative vectors take:
// "Allow cooperative vector types for the following GLSL.std.450 extended
// instruction set instructions: FMin, UMin, SMin, NMin, FMax, UMax, SMax,
// NMax, FClamp, UClamp, SClamp, NClamp, Step, Exp, Log, Tanh, Atan, and
// Fma if their 'Component Type' is appropriate." (SPV_NV_cooperative_vector
// 3.42.13)
var coopVecGLSL = []string{"FMin", "UMin", "SMin", "NMin", "FMax", "UMax", "SMax", "NMax", "FClamp", "UClamp", "SClamp",
	"NClamp", "Step", "Exp", "Log", "Tanh", "Atan", "Fma"}

// checkCoopVecGLSL: a GLSL.std.450 instruction with a cooperative vector
// Result Type is one of coopVecGLSL, on components of its kind, with
// operands of the Result Type.
func (s *state) checkCoopVecGLSL(i int, name string, rule glslRule) {
	w := s.m.Insts[i].Words
	rt := s.types[w[0]]
	if !s.isCoopVec(rt) {
		return
	}
	comp := s.types[rt.Elem]
	switch {
	case !slices.Contains(coopVecGLSL, name):
		s.fail(i, "glsl.coopvec", "GLSL.std.450 %s cannot be used with a cooperative vector Result Type", name)
	case rule == glslFloat && !comp.is(spirv.OpTypeFloat), rule == glslInt && !comp.is(spirv.OpTypeInt):
		s.fail(i, "glsl.coopvec", "GLSL.std.450 %s: the cooperative vector's Component Type must be of %s type", name,
			map[bool]string{true: "floating-point", false: "integer"}[rule == glslFloat])
	default:
		for _, a := range w[4:] {
			if s.typeOf(a) != w[0] {
				s.fail(i, "glsl.coopvec", "GLSL.std.450 %s: expected types of all operands to be equal to Result Type", name)
				return
			}
		}
	}
}

func init() {
	addChecks(func() checks {
		return checks{
			spirv.OpExtInstImport: (*state).checkExtInstImport,
			spirv.OpExtInst:       (*state).checkGLSLInst,
		}
	})
}

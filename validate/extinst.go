package validate

import (
	"fmt"
	"slices"
	"strings"

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
	glslFloat   glslRule = iota + 1 // float scalar or vector; operands of Result Type
	glslInt                         // integer scalar or vector; operands of Result Type's width and components
	glslCross                       // a 3-component float vector; operands of Result Type
	glslLength                      // a float scalar; operands float scalars or vectors of that component type, alike
	glslRefract                     // I and N of Result Type, a float scalar or vector; Eta a float scalar
)

// glslRules are the rules by GLSL.std.450 instruction number: a static
// array, which neither package init nor the first Validate builds.
var glslRules = [...]glslRule{
	spirv.GLSLstd450Round: glslFloat, spirv.GLSLstd450RoundEven: glslFloat, spirv.GLSLstd450Trunc: glslFloat,
	spirv.GLSLstd450FAbs: glslFloat, spirv.GLSLstd450FSign: glslFloat, spirv.GLSLstd450Floor: glslFloat,
	spirv.GLSLstd450Ceil: glslFloat, spirv.GLSLstd450Fract: glslFloat, spirv.GLSLstd450Radians: glslFloat,
	spirv.GLSLstd450Degrees: glslFloat, spirv.GLSLstd450Sin: glslFloat, spirv.GLSLstd450Cos: glslFloat,
	spirv.GLSLstd450Tan: glslFloat, spirv.GLSLstd450Asin: glslFloat, spirv.GLSLstd450Acos: glslFloat,
	spirv.GLSLstd450Atan: glslFloat, spirv.GLSLstd450Sinh: glslFloat, spirv.GLSLstd450Cosh: glslFloat,
	spirv.GLSLstd450Tanh: glslFloat, spirv.GLSLstd450Asinh: glslFloat, spirv.GLSLstd450Acosh: glslFloat,
	spirv.GLSLstd450Atanh: glslFloat, spirv.GLSLstd450Atan2: glslFloat, spirv.GLSLstd450Pow: glslFloat,
	spirv.GLSLstd450Exp: glslFloat, spirv.GLSLstd450Log: glslFloat, spirv.GLSLstd450Exp2: glslFloat,
	spirv.GLSLstd450Log2: glslFloat, spirv.GLSLstd450Sqrt: glslFloat, spirv.GLSLstd450InverseSqrt: glslFloat,
	spirv.GLSLstd450FMin: glslFloat, spirv.GLSLstd450FMax: glslFloat, spirv.GLSLstd450FClamp: glslFloat,
	spirv.GLSLstd450FMix: glslFloat, spirv.GLSLstd450Step: glslFloat, spirv.GLSLstd450SmoothStep: glslFloat,
	spirv.GLSLstd450Fma: glslFloat, spirv.GLSLstd450NMin: glslFloat, spirv.GLSLstd450NMax: glslFloat,
	spirv.GLSLstd450NClamp: glslFloat, spirv.GLSLstd450Normalize: glslFloat,
	spirv.GLSLstd450FaceForward: glslFloat, spirv.GLSLstd450Reflect: glslFloat,
	spirv.GLSLstd450SAbs: glslInt, spirv.GLSLstd450SSign: glslInt, spirv.GLSLstd450UMin: glslInt,
	spirv.GLSLstd450SMin: glslInt, spirv.GLSLstd450UMax: glslInt, spirv.GLSLstd450SMax: glslInt,
	spirv.GLSLstd450UClamp: glslInt, spirv.GLSLstd450SClamp: glslInt,
	spirv.GLSLstd450Cross:    glslCross,
	spirv.GLSLstd450FindILsb: glslInt, spirv.GLSLstd450FindSMsb: glslInt, spirv.GLSLstd450FindUMsb: glslInt,
	spirv.GLSLstd450Length: glslLength, spirv.GLSLstd450Distance: glslLength,
	spirv.GLSLstd450Refract: glslRefract,
}

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
	d := spirv.LookupExtInstSet("GLSL.std.450").Inst(w[3])
	if d == nil {
		s.fail(i, "glsl.number", "Invalid extended instruction number: %d", w[3])
		return
	}
	// Every GLSL.std.450 operand is one <id> of a value: the grammar's
	// operand list is the instruction's exact shape.
	if len(w)-4 != len(d.Operands) {
		s.fail(i, "glsl.operands", "GLSL.std.450 %s takes %d operands, not %d", d.Name, len(d.Operands), len(w)-4)
		return
	}
	for _, a := range w[4:] {
		if di := s.defInst(a); di != nil && di.Op.Desc().Class == "Type-Declaration" {
			s.fail(i, "operand.type", "Operand '%d' cannot be a type", a)
			return
		}
	}
	if s.checkGLSLPack(i, d.Name) || s.checkGLSLStruct(i, d.Name) {
		return
	}
	var rule glslRule
	if w[3] < uint32(len(glslRules)) {
		rule = glslRules[w[3]]
	}
	if rule == 0 {
		return
	}
	name := d.Name
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
	case glslLength:
		// Length: "Result Type must be a scalar of floating-point type.
		// The type of x must be a scalar or vector with component type
		// Result Type"; Distance's p0 and p1 likewise, with "the same
		// number of components".
		if !ok || !r.is(spirv.OpTypeFloat) || r.vec {
			s.fail(i, "glsl.result", "GLSL.std.450 %s: expected Result Type to be a float scalar type", name)
			return
		}
		for _, a := range w[4:] {
			if v, ok, _ := s.numOf(s.typeOf(a)); !ok || v.t.ID != r.t.ID {
				s.fail(i, "glsl.operand", "GLSL.std.450 %s: expected operands to be of float scalar or vector type with Result Type's component type", name)
				return
			}
			if s.typeOf(a) != s.typeOf(w[4]) {
				s.fail(i, "glsl.operand", "GLSL.std.450 %s: expected operands to have the same type", name)
				return
			}
		}
	case glslRefract:
		// Refract: "The type of I and N must be a scalar or vector with a
		// floating-point component type"; "The type of eta must be a
		// floating-point scalar"; "Result Type and the type of I and N
		// must be the same type".
		if !ok || !r.is(spirv.OpTypeFloat) {
			s.fail(i, "glsl.result", "GLSL.std.450 %s: expected Result Type to be a float scalar or vector type", name)
			return
		}
		if s.typeOf(w[4]) != w[0] || s.typeOf(w[5]) != w[0] {
			s.fail(i, "glsl.operand", "GLSL.std.450 %s: expected operands I and N to be of Result Type", name)
			return
		}
		if v, ok, _ := s.numOf(s.typeOf(w[6])); !ok || v.vec || !v.is(spirv.OpTypeFloat) {
			s.fail(i, "glsl.operand", "GLSL.std.450 %s: expected operand Eta to be a float scalar", name)
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

// glslPack are the packing instructions' shapes: Result Type and the
// operand as a component type, its width and component count (1 for a
// scalar). GLSL.std.450 (paraphrased): PackSnorm4x8 and PackUnorm4x8 take
// "a four-component vector of 32-bit floating-point type" and give "a
// 32-bit integer"; the 2x16 packs and PackHalf2x16 take two components;
// PackDouble2x32 gives "a 64-bit floating-point scalar" from "a
// two-component vector of 32-bit integer type"; the unpacks the reverse.
// A static array: package init builds nothing for it.
var glslPack = [...]struct {
	name  string
	shape [2]packShape
}{
	{"PackSnorm4x8", [2]packShape{{spirv.OpTypeInt, 32, 1}, {spirv.OpTypeFloat, 32, 4}}},
	{"PackUnorm4x8", [2]packShape{{spirv.OpTypeInt, 32, 1}, {spirv.OpTypeFloat, 32, 4}}},
	{"PackSnorm2x16", [2]packShape{{spirv.OpTypeInt, 32, 1}, {spirv.OpTypeFloat, 32, 2}}},
	{"PackUnorm2x16", [2]packShape{{spirv.OpTypeInt, 32, 1}, {spirv.OpTypeFloat, 32, 2}}},
	{"PackHalf2x16", [2]packShape{{spirv.OpTypeInt, 32, 1}, {spirv.OpTypeFloat, 32, 2}}},
	{"PackDouble2x32", [2]packShape{{spirv.OpTypeFloat, 64, 1}, {spirv.OpTypeInt, 32, 2}}},
	{"UnpackSnorm4x8", [2]packShape{{spirv.OpTypeFloat, 32, 4}, {spirv.OpTypeInt, 32, 1}}},
	{"UnpackUnorm4x8", [2]packShape{{spirv.OpTypeFloat, 32, 4}, {spirv.OpTypeInt, 32, 1}}},
	{"UnpackSnorm2x16", [2]packShape{{spirv.OpTypeFloat, 32, 2}, {spirv.OpTypeInt, 32, 1}}},
	{"UnpackUnorm2x16", [2]packShape{{spirv.OpTypeFloat, 32, 2}, {spirv.OpTypeInt, 32, 1}}},
	{"UnpackHalf2x16", [2]packShape{{spirv.OpTypeFloat, 32, 2}, {spirv.OpTypeInt, 32, 1}}},
	{"UnpackDouble2x32", [2]packShape{{spirv.OpTypeInt, 32, 2}, {spirv.OpTypeFloat, 64, 1}}},
}

// packShape is one side of a packing instruction: a component type, its
// width and component count.
type packShape struct {
	op    spirv.Op
	width uint32
	n     uint64
}

// checkGLSLPack checks a packing instruction's Result Type and operand
// against glslPack; it reports whether name is one.
func (s *state) checkGLSLPack(i int, name string) bool {
	var shape [2]packShape
	found := false
	for _, p := range glslPack {
		if p.name == name {
			shape, found = p.shape, true
		}
	}
	if !found {
		return false
	}
	w := s.m.Insts[i].Words
	for k, id := range []uint32{w[0], s.typeOf(w[4])} {
		want := shape[k]
		v, ok, _ := s.numOf(id)
		if ok && v.is(want.op) && v.t.Width == want.width && v.known && v.n == want.n && v.vec == (want.n > 1) {
			continue
		}
		kind := map[spirv.Op]string{spirv.OpTypeInt: "int", spirv.OpTypeFloat: "float"}[want.op]
		what := fmt.Sprintf("%d-bit %s scalar type", want.width, kind)
		if want.n > 1 {
			what = fmt.Sprintf("%d-component %d-bit %s vector type", want.n, want.width, kind)
		}
		if k == 0 {
			s.fail(i, "glsl.pack", "GLSL.std.450 %s: expected Result Type to be %s", name, what)
		} else {
			s.fail(i, "glsl.pack", "GLSL.std.450 %s: expected the operand to be of %s", name, what)
		}
		return true
	}
	return true
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

// extInstChecks are the family's rules (instructions.go lists the families).
var extInstChecks = []opCheck{
	{spirv.OpExtInstImport, (*state).checkExtInstImport},
	{spirv.OpExtInst, (*state).checkGLSLInst},
}

// checkGLSLStruct checks ModfStruct and FrexpStruct, which return a
// struct of two members, and reports whether instruction i is one:
// ModfStruct: "Result Type must be an OpTypeStruct with two identically
// typed members. The type of x must be the same as the type of
// members."; FrexpStruct: "Result Type must be an OpTypeStruct with two
// members. Member 0 must have the same type as the type of x. ... Member
// 1 must be a scalar or vector with integer component type, with 32-bit
// component width. Number of components in member 1 must be the same as
// the number of components in member 0."
func (s *state) checkGLSLStruct(i int, name string) bool {
	if name != "ModfStruct" && name != "FrexpStruct" {
		return false
	}
	w := s.m.Insts[i].Words
	rt := s.types[w[0]]
	if !rt.is(spirv.OpTypeStruct) || len(rt.Members) != 2 {
		s.fail(i, "glsl.result", "GLSL.std.450 %s: expected Result Type to be a struct with two members", name)
		return true
	}
	m0, ok0, _ := s.numOf(rt.Members[0])
	if !ok0 || !m0.is(spirv.OpTypeFloat) {
		s.fail(i, "glsl.result", "GLSL.std.450 %s: expected Result Type struct member types to be float scalars or vectors", name)
		return true
	}
	if s.typeOf(w[4]) != rt.Members[0] {
		s.fail(i, "glsl.operand", "GLSL.std.450 %s: expected operand X type to be equal to the first member of Result Type struct", name)
		return true
	}
	m1, ok1, _ := s.numOf(rt.Members[1])
	switch {
	case name == "ModfStruct" && rt.Members[1] != rt.Members[0]:
		s.fail(i, "glsl.result", "GLSL.std.450 ModfStruct: expected Result Type struct member types to be identical")
	case name == "FrexpStruct" && (!ok1 || !m1.is(spirv.OpTypeInt) || m1.t.Width != 32 || !m1.sameDim(m0)):
		s.fail(i, "glsl.result", "GLSL.std.450 FrexpStruct: expected Result Type struct member #1 to be a 32-bit int scalar or vector of as many components as member #0")
	}
	return true
}

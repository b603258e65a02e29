package lower

import (
	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// GL_ARB_shader_ballot, lowered as glslang does: the built-ins are the
// subgroup built-ins of SPV_KHR_shader_ballot, the 64-bit masks read from
// their uvec4 form (the low two words, bitcast), and the functions are the
// KHR subgroup instructions, vectors taken apart component by component.

// isARBMask reports the 64-bit mask built-ins gl_SubGroup*MaskARB.
func isARBMask(b check.BuiltinVar) bool {
	return b >= check.BuiltinSubGroupEqMaskARB && b <= check.BuiltinSubGroupLtMaskARB
}

func (g *gen) shaderBallotCaps() {
	g.b.Capability(spirv.CapabilitySubgroupBallotKHR)
	g.b.Extension("SPV_KHR_shader_ballot")
}

// maskType is the SPIR-V form of the ARB masks: check.VectorType's uvec4,
// spelt out so that it is static data rather than built at package init.
var maskType = &check.Type{Kind: check.KVector, Scalar: check.Uint32, N: 4}

// ballot64 turns a uvec4 ballot into the uint64_t of its low 64 bits.
func (g *gen) ballot64(v uint32) uint32 {
	u32 := g.scalarType(check.Uint32)
	lo := g.b.EmitResult(spirv.OpCompositeExtract, u32, v, 0)
	hi := g.b.EmitResult(spirv.OpCompositeExtract, u32, v, 1)
	pair := g.b.EmitResult(spirv.OpCompositeConstruct, g.typeID(check.VectorType(check.Uint32, 2), check.PackNone), lo, hi)
	return g.b.EmitResult(spirv.OpBitcast, g.scalarType(check.Uint64), pair)
}

// arbMask reads gl_SubGroup*MaskARB.
func (g *gen) arbMask(v *check.Var) uint32 {
	return g.ballot64(g.b.EmitResult(spirv.OpLoad, g.typeID(maskType, check.PackNone), g.vars[v].id))
}

// arbBallot lowers ballotARB, readInvocationARB and readFirstInvocationARB;
// ok is false for other built-ins.
func (g *gen) arbBallot(e *check.BuiltinCall, tid uint32) (uint32, bool) {
	var op spirv.Op
	switch e.Fn {
	case check.BBallotARB:
		g.shaderBallotCaps()
		return g.ballot64(g.b.EmitResult(spirv.OpSubgroupBallotKHR, g.typeID(maskType, check.PackNone), g.rvalue(e.Args[0]))), true
	case check.BReadInvocationARB:
		op = spirv.OpSubgroupReadInvocationKHR
	case check.BReadFirstInvocationARB:
		op = spirv.OpSubgroupFirstInvocationKHR
	default:
		return 0, false
	}
	g.shaderBallotCaps()
	args := make([]uint32, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.rvalue(a)
	}
	t := e.T
	if t.Kind != check.KVector {
		return g.b.EmitResult(op, tid, args...), true
	}
	st := g.scalarType(t.Scalar)
	parts := make([]uint32, t.N)
	for i := range parts {
		c := g.b.EmitResult(spirv.OpCompositeExtract, st, args[0], uint32(i))
		parts[i] = g.b.EmitResult(op, st, append([]uint32{c}, args[1:]...)...)
	}
	return g.b.EmitResult(spirv.OpCompositeConstruct, tid, parts...), true
}

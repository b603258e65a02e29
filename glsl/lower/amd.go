package lower

import (
	"strings"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// The GL_AMD_shader_ballot extended instructions (SPV_AMD_shader_ballot).
const (
	amdSwizzleInvocations       = 1
	amdSwizzleInvocationsMasked = 2
	amdWriteInvocation          = 3
	amdMbcnt                    = 4
)

// amdBuiltin lowers GL_AMD_shader_ballot as glslang does; ok is false for
// other built-ins.
func (g *gen) amdBuiltin(e *check.BuiltinCall, tid uint32) (uint32, bool) {
	ext := map[check.Builtin]uint32{check.BSwizzleInvocationsAMD: amdSwizzleInvocations,
		check.BSwizzleInvocationsMaskedAMD: amdSwizzleInvocationsMasked, check.BWriteInvocationAMD: amdWriteInvocation,
		check.BMbcntAMD: amdMbcnt}
	if inst, ok := ext[e.Fn]; ok {
		g.b.Extension("SPV_AMD_shader_ballot")
		words := []uint32{g.b.ExtInstImport("SPV_AMD_shader_ballot"), inst}
		for _, a := range e.Args {
			words = append(words, g.rvalue(a))
		}
		return g.b.EmitResult(spirv.OpExtInst, tid, words...), true
	}
	if e.Fn < check.BMinInvocationsAMD || e.Fn > check.BAddInvocationsExclusiveScanNonUniformAMD {
		return 0, false
	}
	return g.invocationsAMD(e, e.Fn.String()), true
}

// invocationsAMD lowers {min,max,add}Invocations{,InclusiveScan,
// ExclusiveScan}{,NonUniform}AMD: the Groups capability and a subgroup
// OpGroup<Op> (OpGroup<Op>NonUniformAMD for the non-uniform ones) per
// component, vectors taken apart and put back together.
func (g *gen) invocationsAMD(e *check.BuiltinCall, name string) uint32 {
	g.b.Capability(spirv.CapabilityGroups)
	nonUniform := strings.HasSuffix(name, "NonUniformAMD")
	if nonUniform {
		g.b.Extension("SPV_AMD_shader_ballot")
	}
	grp := spirv.GroupOperationReduce
	switch {
	case strings.Contains(name, "InclusiveScan"):
		grp = spirv.GroupOperationInclusiveScan
	case strings.Contains(name, "ExclusiveScan"):
		grp = spirv.GroupOperationExclusiveScan
	}
	t := e.T
	s := t.Scalar
	var op spirv.Op
	switch {
	case strings.HasPrefix(name, "min"):
		op = pick(s.IsFloat(), spirv.OpGroupFMin, pick(s.IsSigned(), spirv.OpGroupSMin, spirv.OpGroupUMin))
		if nonUniform {
			op = pick(s.IsFloat(), spirv.OpGroupFMinNonUniformAMD, pick(s.IsSigned(), spirv.OpGroupSMinNonUniformAMD, spirv.OpGroupUMinNonUniformAMD))
		}
	case strings.HasPrefix(name, "max"):
		op = pick(s.IsFloat(), spirv.OpGroupFMax, pick(s.IsSigned(), spirv.OpGroupSMax, spirv.OpGroupUMax))
		if nonUniform {
			op = pick(s.IsFloat(), spirv.OpGroupFMaxNonUniformAMD, pick(s.IsSigned(), spirv.OpGroupSMaxNonUniformAMD, spirv.OpGroupUMaxNonUniformAMD))
		}
	default:
		op = pick(s.IsFloat(), spirv.OpGroupFAdd, spirv.OpGroupIAdd)
		if nonUniform {
			op = pick(s.IsFloat(), spirv.OpGroupFAddNonUniformAMD, spirv.OpGroupIAddNonUniformAMD)
		}
	}
	scope := g.u32(uint32(spirv.ScopeSubgroup))
	x := g.rvalue(e.Args[0])
	if t.Kind != check.KVector {
		return g.b.EmitResult(op, g.typeID(t, check.PackNone), scope, uint32(grp), x)
	}
	st := g.scalarType(s)
	parts := make([]uint32, t.N)
	for i := range parts {
		c := g.b.EmitResult(spirv.OpCompositeExtract, st, x, uint32(i))
		parts[i] = g.b.EmitResult(op, st, scope, uint32(grp), c)
	}
	return g.b.EmitResult(spirv.OpCompositeConstruct, g.typeID(t, check.PackNone), parts...)
}

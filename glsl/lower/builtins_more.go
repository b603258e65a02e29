package lower

import (
	"strings"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// moreBuiltin lowers the built-ins with out parameters and the rarer
// subgroup, vote and hint functions; ok is false for one it does not know.
func (g *gen) moreBuiltin(e *check.BuiltinCall, tid uint32) (uint32, bool) {
	at := func(i int) *check.Type { return e.Args[i].Type() }
	sub := func() uint32 { return g.u32(uint32(spirv.ScopeSubgroup)) }
	vals := func(n int) []uint32 {
		out := make([]uint32, n)
		for i := range out {
			out[i] = g.rvalue(e.Args[i])
		}
		return out
	}
	// pair emits an instruction returning a two-member struct and stores
	// its members through the out arguments given by outs ({member index,
	// argument index}, stored in this order, as glslang does: member 0
	// first), returning member ret (or 0 for none).
	pair := func(op spirv.Op, ext uint32, t0, t1 *check.Type, args []uint32, outs [][2]int, ret int) uint32 {
		st := g.b.Type(spirv.OpTypeStruct, g.typeID(t0, check.PackNone), g.typeID(t1, check.PackNone))
		var r uint32
		if op == spirv.OpExtInst {
			r = g.b.EmitResult(op, st, append([]uint32{g.glslSet(), ext}, args...)...)
		} else {
			r = g.b.EmitResult(op, st, args...)
		}
		types := []*check.Type{t0, t1}
		for _, o := range outs {
			member, arg := o[0], o[1]
			v := g.b.EmitResult(spirv.OpCompositeExtract, g.typeID(types[member], check.PackNone), r, uint32(member))
			g.store(nil, g.lvalue(e.Args[arg]), v, types[member])
		}
		if ret < 0 {
			return 0
		}
		return g.b.EmitResult(spirv.OpCompositeExtract, g.typeID(types[ret], check.PackNone), r, uint32(ret))
	}
	switch e.Fn {
	case check.BModf:
		return pair(spirv.OpExtInst, spirv.GLSLstd450ModfStruct, at(0), at(0), vals(1), [][2]int{{1, 1}}, 0), true
	case check.BFrexp:
		if et := at(1); et.Scalar.Bits() != 32 {
			// A long vector's exponent may be of another width; FrexpStruct
			// gives a 32-bit one, converted (spirv-val allows 16 bits there
			// only with SPV_AMD_gpu_shader_int16, which glslang declares).
			i32 := et.WithScalar(check.Int32)
			st := g.b.Type(spirv.OpTypeStruct, g.typeID(at(0), check.PackNone), g.typeID(i32, check.PackNone))
			r := g.b.EmitResult(spirv.OpExtInst, st, g.glslSet(), spirv.GLSLstd450FrexpStruct, g.rvalue(e.Args[0]))
			x := g.b.EmitResult(spirv.OpCompositeExtract, g.typeID(i32, check.PackNone), r, 1)
			g.store(nil, g.lvalue(e.Args[1]), g.b.EmitResult(spirv.OpSConvert, g.typeID(et, check.PackNone), x), et)
			return g.b.EmitResult(spirv.OpCompositeExtract, tid, r, 0), true
		}
		return pair(spirv.OpExtInst, spirv.GLSLstd450FrexpStruct, at(0), at(1), vals(1), [][2]int{{1, 1}}, 0), true
	case check.BUaddCarry:
		return pair(spirv.OpIAddCarry, 0, at(0), at(0), vals(2), [][2]int{{1, 2}}, 0), true
	case check.BUsubBorrow:
		return pair(spirv.OpISubBorrow, 0, at(0), at(0), vals(2), [][2]int{{1, 2}}, 0), true
	case check.BUmulExtended, check.BImulExtended:
		op := pick(e.Fn == check.BUmulExtended, spirv.OpUMulExtended, spirv.OpSMulExtended)
		// umulExtended(x, y, out msb, out lsb): member 0 is the low half.
		return pair(op, 0, at(0), at(0), vals(2), [][2]int{{0, 3}, {1, 2}}, -1), true
	case check.BSubgroupRotate, check.BSubgroupClusteredRotate:
		// The rotate instruction's capability stands alone.
		g.b.Capability(spirv.CapabilityGroupNonUniformRotateKHR)
		g.b.Extension("SPV_KHR_subgroup_rotate")
		return g.b.EmitResult(spirv.OpGroupNonUniformRotateKHR, tid, append([]uint32{sub()}, vals(len(e.Args))...)...), true
	case check.BSubgroupQuadBroadcast:
		g.subgroupCap(spirv.CapabilityGroupNonUniformQuad)
		return g.b.EmitResult(spirv.OpGroupNonUniformQuadBroadcast, tid, append([]uint32{sub()}, vals(2)...)...), true
	case check.BSubgroupQuadSwapHorizontal, check.BSubgroupQuadSwapVertical, check.BSubgroupQuadSwapDiagonal:
		g.subgroupCap(spirv.CapabilityGroupNonUniformQuad)
		dir := map[check.Builtin]uint32{check.BSubgroupQuadSwapHorizontal: 0, check.BSubgroupQuadSwapVertical: 1, check.BSubgroupQuadSwapDiagonal: 2}[e.Fn]
		return g.b.EmitResult(spirv.OpGroupNonUniformQuadSwap, tid, sub(), g.rvalue(e.Args[0]), g.u32(dir)), true
	case check.BSubgroupQuadAll, check.BSubgroupQuadAny:
		g.b.Capability(spirv.CapabilityQuadControlKHR)
		g.b.Extension("SPV_KHR_quad_control")
		return g.b.EmitResult(pick(e.Fn == check.BSubgroupQuadAll, spirv.OpGroupNonUniformQuadAllKHR, spirv.OpGroupNonUniformQuadAnyKHR), tid, vals(1)...), true
	case check.BSubgroupPartitionNV:
		g.subgroupCap(spirv.CapabilityGroupNonUniformPartitionedNV)
		g.b.Extension("SPV_NV_shader_subgroup_partitioned")
		return g.b.EmitResult(spirv.OpGroupNonUniformPartitionNV, tid, vals(1)...), true
	case check.BAnyInvocation, check.BAllInvocations, check.BAllInvocationsEqual,
		check.BAnyInvocationARB, check.BAllInvocationsARB, check.BAllInvocationsEqualARB:
		g.b.Capability(spirv.CapabilitySubgroupVoteKHR)
		g.b.Extension("SPV_KHR_subgroup_vote")
		op := spirv.OpSubgroupAllEqualKHR
		switch e.Fn {
		case check.BAnyInvocation, check.BAnyInvocationARB:
			op = spirv.OpSubgroupAnyKHR
		case check.BAllInvocations, check.BAllInvocationsARB:
			op = spirv.OpSubgroupAllKHR
		}
		return g.b.EmitResult(op, tid, vals(1)...), true
	case check.BSaturatedConvertEXT:
		// saturatedConvertEXT(out dst, src): a conversion to fp8 that
		// clamps to the largest normal value (SPV_EXT_float8).
		dst, src := e.Args[0], e.Args[1]
		v := g.convert(g.rvalue(src), src.Type(), dst.Type(), e.Pos)
		if !check.Identical(src.Type(), dst.Type()) {
			g.b.Decorate(v, spirv.DecorationSaturatedToLargestFloat8NormalConversionEXT)
		}
		g.store(nil, g.lvalue(dst), v, dst.Type())
		return 0, true
	case check.BDotPacked4x8EXT, check.BDotPacked4x8AccSatEXT:
		return g.dotPacked(e, tid, vals(len(e.Args))), true
	case check.BControlBarrierArrive, check.BControlBarrierWait:
		// GL_EXT_split_barrier: a workgroup barrier in two halves, the
		// arrive releasing and the wait acquiring workgroup memory.
		g.b.Capability(spirv.CapabilitySplitBarrierEXT)
		g.b.Extension("SPV_EXT_split_barrier")
		op := pick(e.Fn == check.BControlBarrierArrive, spirv.OpControlBarrierArriveEXT, spirv.OpControlBarrierWaitEXT)
		if len(e.Args) == 4 {
			// The GL_KHR_memory_scope_semantics form, as controlBarrier.
			g.checkScope(g.constArg(e.Args[0], "the execution scope"))
			g.checkScope(g.constArg(e.Args[1], "the memory scope"))
			sem := g.constArg(e.Args[2], "the storage semantics") | g.constArg(e.Args[3], "the memory semantics")
			g.checkSemantics(sem)
			g.b.Emit(op, g.rvalue(e.Args[0]), g.rvalue(e.Args[1]), g.u32(sem))
			return 0, true
		}
		wg := g.u32(uint32(spirv.ScopeWorkgroup))
		sem := pick(e.Fn == check.BControlBarrierArrive, spirv.MemorySemanticsRelease, spirv.MemorySemanticsAcquire)
		g.b.Emit(op, wg, wg, g.u32(uint32(sem)|semWorkgroup))
		return 0, true
	case check.BExpectEXT:
		g.b.Capability(spirv.CapabilityExpectAssumeKHR)
		g.b.Extension("SPV_KHR_expect_assume")
		return g.b.EmitResult(spirv.OpExpectKHR, tid, vals(2)...), true
	case check.BAssumeEXT:
		g.b.Capability(spirv.CapabilityExpectAssumeKHR)
		g.b.Extension("SPV_KHR_expect_assume")
		g.b.Emit(spirv.OpAssumeTrueKHR, vals(1)...)
		return 0, true
	}
	if name := e.Fn.String(); strings.HasPrefix(name, "subgroupPartitioned") {
		return g.partitioned(e, tid, name), true
	}
	return 0, false
}

// partitioned lowers subgroupPartitioned{Inclusive,Exclusive,}<Op>NV(value,
// ballot) to the non-uniform arithmetic with a partitioned group operation.
func (g *gen) partitioned(e *check.BuiltinCall, tid uint32, name string) uint32 {
	g.subgroupCap(spirv.CapabilityGroupNonUniformPartitionedNV)
	g.b.Extension("SPV_NV_shader_subgroup_partitioned")
	grp := spirv.GroupOperationPartitionedReduceNV
	switch {
	case strings.HasPrefix(name, "subgroupPartitionedInclusive"):
		grp = spirv.GroupOperationPartitionedInclusiveScanNV
	case strings.HasPrefix(name, "subgroupPartitionedExclusive"):
		grp = spirv.GroupOperationPartitionedExclusiveScanNV
	}
	op := arithOp(strings.TrimSuffix(name, "NV"), e.Args[0].Type().Scalar)
	return g.b.EmitResult(op, tid, g.u32(uint32(spirv.ScopeSubgroup)), uint32(grp), g.rvalue(e.Args[0]), g.rvalue(e.Args[1]))
}

// dotPacked lowers dotPacked4x8{,AccSat}EXT to OpSDot, OpUDot or OpSUDot
// (signed operand first, so a uint-int pair is swapped), with the packed
// 4x8-bit vector format.
func (g *gen) dotPacked(e *check.BuiltinCall, tid uint32, args []uint32) uint32 {
	g.b.Capability(spirv.CapabilityDotProduct)
	g.b.Capability(spirv.CapabilityDotProductInput4x8BitPacked)
	g.b.Extension("SPV_KHR_integer_dot_product")
	sa, sb := e.Args[0].Type().Scalar.IsSigned(), e.Args[1].Type().Scalar.IsSigned()
	acc := e.Fn == check.BDotPacked4x8AccSatEXT
	var op spirv.Op
	switch {
	case sa && sb:
		op = pick(acc, spirv.OpSDotAccSat, spirv.OpSDot)
	case !sa && !sb:
		op = pick(acc, spirv.OpUDotAccSat, spirv.OpUDot)
	default:
		op = pick(acc, spirv.OpSUDotAccSat, spirv.OpSUDot)
		if !sa {
			args[0], args[1] = args[1], args[0]
		}
	}
	return g.b.EmitResult(op, tid, append(args, uint32(spirv.PackedVectorFormatPackedVectorFormat4x8Bit))...)
}

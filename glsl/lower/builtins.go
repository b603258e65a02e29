package lower

import (
	"slices"
	"strings"

	"github.com/coopshader/coop/internal/lazy"

	"github.com/coopshader/coop/glsl/check"
	"github.com/coopshader/coop/spirv"
)

// std450 maps built-ins that are one GLSL.std.450 instruction for float
// arguments; sint/uint give the instruction for integer arguments (0: the
// float one applies to all).
var std450 = lazy.Value[map[check.Builtin]std450Ops]{F: func() map[check.Builtin]std450Ops {
	return map[check.Builtin]std450Ops{
		check.BRadians: {f: spirv.GLSLstd450Radians}, check.BDegrees: {f: spirv.GLSLstd450Degrees},
		check.BSin: {f: spirv.GLSLstd450Sin}, check.BCos: {f: spirv.GLSLstd450Cos}, check.BTan: {f: spirv.GLSLstd450Tan},
		check.BAsin: {f: spirv.GLSLstd450Asin}, check.BAcos: {f: spirv.GLSLstd450Acos},
		check.BSinh: {f: spirv.GLSLstd450Sinh}, check.BCosh: {f: spirv.GLSLstd450Cosh}, check.BTanh: {f: spirv.GLSLstd450Tanh},
		check.BAsinh: {f: spirv.GLSLstd450Asinh}, check.BAcosh: {f: spirv.GLSLstd450Acosh}, check.BAtanh: {f: spirv.GLSLstd450Atanh},
		check.BPow: {f: spirv.GLSLstd450Pow}, check.BExp: {f: spirv.GLSLstd450Exp}, check.BLog: {f: spirv.GLSLstd450Log},
		check.BExp2: {f: spirv.GLSLstd450Exp2}, check.BLog2: {f: spirv.GLSLstd450Log2}, check.BSqrt: {f: spirv.GLSLstd450Sqrt},
		check.BInversesqrt: {f: spirv.GLSLstd450InverseSqrt},
		check.BAbs:         {f: spirv.GLSLstd450FAbs, sint: spirv.GLSLstd450SAbs},
		check.BSign:        {f: spirv.GLSLstd450FSign, sint: spirv.GLSLstd450SSign},
		check.BFloor:       {f: spirv.GLSLstd450Floor}, check.BTrunc: {f: spirv.GLSLstd450Trunc}, check.BRound: {f: spirv.GLSLstd450Round},
		check.BRoundEven: {f: spirv.GLSLstd450RoundEven}, check.BCeil: {f: spirv.GLSLstd450Ceil}, check.BFract: {f: spirv.GLSLstd450Fract},
		check.BMin:   {f: spirv.GLSLstd450FMin, sint: spirv.GLSLstd450SMin, uint: spirv.GLSLstd450UMin},
		check.BMax:   {f: spirv.GLSLstd450FMax, sint: spirv.GLSLstd450SMax, uint: spirv.GLSLstd450UMax},
		check.BClamp: {f: spirv.GLSLstd450FClamp, sint: spirv.GLSLstd450SClamp, uint: spirv.GLSLstd450UClamp},
		check.BStep:  {f: spirv.GLSLstd450Step}, check.BSmoothstep: {f: spirv.GLSLstd450SmoothStep},
		check.BFma: {f: spirv.GLSLstd450Fma}, check.BLdexp: {f: spirv.GLSLstd450Ldexp},
		check.BLength: {f: spirv.GLSLstd450Length}, check.BDistance: {f: spirv.GLSLstd450Distance},
		check.BCross: {f: spirv.GLSLstd450Cross}, check.BNormalize: {f: spirv.GLSLstd450Normalize},
		check.BFaceforward: {f: spirv.GLSLstd450FaceForward}, check.BReflect: {f: spirv.GLSLstd450Reflect},
		check.BRefract: {f: spirv.GLSLstd450Refract}, check.BDeterminant: {f: spirv.GLSLstd450Determinant},
		check.BInverse:       {f: spirv.GLSLstd450MatrixInverse},
		check.BPackUnorm2x16: {f: spirv.GLSLstd450PackUnorm2x16}, check.BPackSnorm2x16: {f: spirv.GLSLstd450PackSnorm2x16},
		check.BPackHalf2x16: {f: spirv.GLSLstd450PackHalf2x16}, check.BPackUnorm4x8: {f: spirv.GLSLstd450PackUnorm4x8},
		check.BPackSnorm4x8: {f: spirv.GLSLstd450PackSnorm4x8}, check.BUnpackUnorm2x16: {f: spirv.GLSLstd450UnpackUnorm2x16},
		check.BUnpackSnorm2x16: {f: spirv.GLSLstd450UnpackSnorm2x16}, check.BUnpackHalf2x16: {f: spirv.GLSLstd450UnpackHalf2x16},
		check.BUnpackUnorm4x8: {f: spirv.GLSLstd450UnpackUnorm4x8}, check.BUnpackSnorm4x8: {f: spirv.GLSLstd450UnpackSnorm4x8},
		check.BFindLSB: {f: spirv.GLSLstd450FindILsb}, check.BFindMSB: {f: spirv.GLSLstd450FindSMsb, uint: spirv.GLSLstd450FindUMsb},
	}
}}

// std450Ops are a built-in's GLSL.std.450 instructions.
type std450Ops struct{ f, sint, uint uint32 }

// simpleOps are built-ins that are one core instruction on their
// arguments. This package's tables are built on first use (lazy.Value),
// not at start-up: every coop command links the compiler, few compile.
var simpleOps = lazy.Value[map[check.Builtin]spirv.Op]{F: func() map[check.Builtin]spirv.Op {
	return map[check.Builtin]spirv.Op{
		check.BDot: spirv.OpDot, check.BIsnan: spirv.OpIsNan, check.BIsinf: spirv.OpIsInf,
		check.BAny: spirv.OpAny, check.BAll: spirv.OpAll, check.BNot: spirv.OpLogicalNot,
		check.BTranspose: spirv.OpTranspose, check.BOuterProduct: spirv.OpOuterProduct,
		check.BSparseTexelsResidentARB: spirv.OpImageSparseTexelsResident,
		check.BBitCount:                spirv.OpBitCount, check.BBitfieldReverse: spirv.OpBitReverse, check.BBitfieldInsert: spirv.OpBitFieldInsert,
		check.BDFdx: spirv.OpDPdx, check.BDFdy: spirv.OpDPdy, check.BFwidth: spirv.OpFwidth,
		check.BDFdxFine: spirv.OpDPdxFine, check.BDFdyFine: spirv.OpDPdyFine, check.BFwidthFine: spirv.OpFwidthFine,
		check.BDFdxCoarse: spirv.OpDPdxCoarse, check.BDFdyCoarse: spirv.OpDPdyCoarse, check.BFwidthCoarse: spirv.OpFwidthCoarse,
	}
}}

var bitcasts = lazy.Value[map[check.Builtin]bool]{F: func() map[check.Builtin]bool {
	return map[check.Builtin]bool{
		check.BFloatBitsToInt: true, check.BFloatBitsToUint: true, check.BIntBitsToFloat: true, check.BUintBitsToFloat: true,
		check.BHalfBitsToInt16: true, check.BFloat16BitsToInt16: true, check.BHalfBitsToUint16: true, check.BFloat16BitsToUint16: true,
		check.BInt16BitsToHalf: true, check.BInt16BitsToFloat16: true, check.BUint16BitsToHalf: true, check.BUint16BitsToFloat16: true,
		check.BDoubleBitsToInt64: true, check.BDoubleBitsToUint64: true, check.BInt64BitsToDouble: true, check.BUint64BitsToDouble: true,
		check.BBfloat16BitsToIntEXT: true, check.BBfloat16BitsToUintEXT: true, check.BIntBitsToBFloat16EXT: true, check.BUintBitsToBFloat16EXT: true,
		check.BFloate5m2BitsToIntEXT: true, check.BFloate5m2BitsToUintEXT: true, check.BIntBitsToFloate5m2EXT: true, check.BUintBitsToFloate5m2EXT: true,
		check.BFloate4m3BitsToIntEXT: true, check.BFloate4m3BitsToUintEXT: true, check.BIntBitsToFloate4m3EXT: true, check.BUintBitsToFloate4m3EXT: true,
		check.BPackDouble2x32: true, check.BUnpackDouble2x32: true, check.BPackInt2x32: true, check.BPackUint2x32: true,
		check.BUnpackInt2x32: true, check.BUnpackUint2x32: true, check.BPack64: true, check.BUnpack32: true, check.BPack32: true,
		check.BPackInt2x16: true, check.BPackUint2x16: true, check.BPack16: true, check.BUnpack16: true, check.BUnpackInt2x16: true,
		check.BUnpackUint2x16: true, check.BUnpack8: true, check.BPackInt4x16: true, check.BPackUint4x16: true,
		check.BUnpackInt4x16: true, check.BUnpackUint4x16: true, check.BPackFloat2x16: true, check.BUnpackFloat2x16: true,
		check.BFloatmxint8BitsToIntEXT: true, check.BFloatmxint8BitsToUintEXT: true, check.BIntBitsToFloatmxint8EXT: true, check.BUintBitsToFloatmxint8EXT: true,
		check.BFloatue8m0BitsToIntEXT: true, check.BFloatue8m0BitsToUintEXT: true, check.BIntBitsToFloatue8m0EXT: true, check.BUintBitsToFloatue8m0EXT: true,
		// GL_EXT_float_e2m1, _e2m3, _e3m2: packing is a bitcast between a
		// vector of the narrow floats and integers of the same size.
		check.BPackFloat2xfe2m1EXT: true, check.BUnpackFloat2xfe2m1EXT: true, check.BPackFloat4xfe2m1EXT: true, check.BUnpackFloat4xfe2m1EXT: true,
		check.BPackFloat8xfe2m1EXT: true, check.BUnpackFloat8xfe2m1EXT: true, check.BPackFloat16xfe2m1EXT: true, check.BUnpackFloat16xfe2m1EXT: true,
		check.BPackFloat4xfe2m3EXT: true, check.BUnpackFloat4xfe2m3EXT: true, check.BPackFloat8xfe2m3EXT: true, check.BUnpackFloat8xfe2m3EXT: true,
		check.BPackFloat16xfe2m3EXT: true, check.BUnpackFloat16xfe2m3EXT: true,
		check.BPackFloat4xfe3m2EXT: true, check.BUnpackFloat4xfe3m2EXT: true, check.BPackFloat8xfe3m2EXT: true, check.BUnpackFloat8xfe3m2EXT: true,
		check.BPackFloat16xfe3m2EXT: true, check.BUnpackFloat16xfe3m2EXT: true,
	}
}}

// Memory semantics glslang uses for the GLSL barrier functions.
const (
	semAcqRel    = uint32(spirv.MemorySemanticsAcquireRelease)
	semUniform   = uint32(spirv.MemorySemanticsUniformMemory)
	semWorkgroup = uint32(spirv.MemorySemanticsWorkgroupMemory)
	semImage     = uint32(spirv.MemorySemanticsImageMemory)
)

func (g *gen) builtin(e *check.BuiltinCall) uint32 {
	tid := g.typeID(e.T, check.PackNone)
	if v, ok := g.rayBuiltin(e, tid); ok {
		return v
	}
	args := func() []uint32 {
		out := make([]uint32, len(e.Args))
		for i, a := range e.Args {
			out[i] = g.rvalue(a)
		}
		return out
	}
	at := func(i int) *check.Type { return e.Args[i].Type() }
	if ops, ok := std450.Get()[e.Fn]; ok && len(e.Args) > 0 {
		inst := ops.f
		switch s := at(0).Scalar; {
		case s.IsSigned() && ops.sint != 0:
			inst = ops.sint
		case s.IsUnsigned() && ops.uint != 0:
			inst = ops.uint
		case s.IsUnsigned() && ops.sint != 0 && e.Fn != check.BAbs && e.Fn != check.BSign:
			inst = ops.sint
		}
		return g.ext(tid, inst, g.splatArgs(e, args())...)
	}
	if op, ok := simpleOps.Get()[e.Fn]; ok {
		switch op {
		case spirv.OpDPdxFine, spirv.OpDPdyFine, spirv.OpFwidthFine, spirv.OpDPdxCoarse, spirv.OpDPdyCoarse, spirv.OpFwidthCoarse:
			g.b.Capability(spirv.CapabilityDerivativeControl)
		case spirv.OpDot:
			if at(0).Scalar == check.BFloat16 {
				g.b.Capability(spirv.CapabilityBFloat16DotProductKHR)
			}
		}
		return g.b.EmitResult(op, tid, args()...)
	}
	if bitcasts.Get()[e.Fn] {
		return g.b.EmitResult(spirv.OpBitcast, tid, args()...)
	}
	// sub is the Subgroup scope operand, made only where an operation needs it.
	sub := func() uint32 { return g.u32(uint32(spirv.ScopeSubgroup)) }
	switch e.Fn {
	case check.BBitcastExtractfe2m1EXT, check.BBitcastExtractfe2m3EXT, check.BBitcastExtractfe3m2EXT:
		g.b.Capability(spirv.CapabilityBitcastExtractEXT)
		g.b.Extension("SPV_EXT_ocp_microscaling_types")
		return g.b.EmitResult(spirv.OpBitcastExtractEXT, tid, args()...)
	case check.BAtan:
		a := args()
		if len(a) == 2 {
			return g.ext(tid, spirv.GLSLstd450Atan2, a...)
		}
		return g.ext(tid, spirv.GLSLstd450Atan, a...)
	case check.BMod:
		a := g.splatArgs(e, args())
		return g.b.EmitResult(spirv.OpFMod, tid, a...)
	case check.BMix:
		a := g.splatArgs(e, args())
		if at(2).Scalar == check.Bool {
			return g.b.EmitResult(spirv.OpSelect, tid, a[2], a[1], a[0])
		}
		return g.ext(tid, spirv.GLSLstd450FMix, a...)
	case check.BLessThan, check.BLessThanEqual, check.BGreaterThan, check.BGreaterThanEqual, check.BEqual, check.BNotEqual:
		op := map[check.Builtin]check.BinaryOp{check.BLessThan: check.Lt, check.BLessThanEqual: check.Le, check.BGreaterThan: check.Gt,
			check.BGreaterThanEqual: check.Ge, check.BEqual: check.Eq, check.BNotEqual: check.Ne}[e.Fn]
		opc, _ := g.binaryOp(op, at(0), e.Pos)
		return g.b.EmitResult(opc, tid, args()...)
	case check.BMatrixCompMult:
		a := args()
		return g.arith(check.Mul, at(0).Column(), at(1).Column(), e.T, a[0], a[1], e.Pos)
	case check.BBitfieldExtract:
		return g.b.EmitResult(pick(at(0).Scalar.IsSigned(), spirv.OpBitFieldSExtract, spirv.OpBitFieldUExtract), tid, args()...)
	case check.BBarrier:
		g.b.Emit(spirv.OpControlBarrier, g.u32(uint32(spirv.ScopeWorkgroup)), g.u32(uint32(spirv.ScopeWorkgroup)), g.u32(semAcqRel|semWorkgroup))
		return 0
	case check.BMemoryBarrier:
		if len(e.Args) == 3 {
			// memoryBarrier(scope, storage, semantics).
			sc := g.constArg(e.Args[0], "the memory scope")
			g.checkScope(sc)
			sem := g.constArg(e.Args[1], "the storage semantics") | g.constArg(e.Args[2], "the memory semantics")
			g.checkSemantics(sem)
			g.b.Emit(spirv.OpMemoryBarrier, g.rvalue(e.Args[0]), g.u32(sem))
			return 0
		}
		g.b.Emit(spirv.OpMemoryBarrier, g.defaultScope(), g.u32(semAcqRel|semUniform|semWorkgroup|semImage))
		return 0
	case check.BMemoryBarrierBuffer:
		g.b.Emit(spirv.OpMemoryBarrier, g.defaultScope(), g.u32(semAcqRel|semUniform))
		return 0
	case check.BMemoryBarrierShared:
		g.b.Emit(spirv.OpMemoryBarrier, g.defaultScope(), g.u32(semAcqRel|semWorkgroup))
		return 0
	case check.BMemoryBarrierImage:
		g.b.Emit(spirv.OpMemoryBarrier, g.defaultScope(), g.u32(semAcqRel|semImage))
		return 0
	case check.BGroupMemoryBarrier:
		g.b.Emit(spirv.OpMemoryBarrier, g.u32(uint32(spirv.ScopeWorkgroup)), g.u32(semAcqRel|semUniform|semWorkgroup|semImage))
		return 0
	case check.BControlBarrier:
		g.checkScope(g.constArg(e.Args[0], "the execution scope"))
		g.checkScope(g.constArg(e.Args[1], "the memory scope"))
		sem := g.constArg(e.Args[2], "the storage semantics") | g.constArg(e.Args[3], "the memory semantics")
		g.checkSemantics(sem)
		g.b.Emit(spirv.OpControlBarrier, g.rvalue(e.Args[0]), g.rvalue(e.Args[1]), g.u32(sem))
		return 0
	case check.BMemoryBarrierAtomicCounter:
		return 0
	case check.BSubgroupBarrier:
		g.subgroupCap(spirv.CapabilityGroupNonUniform)
		g.b.Emit(spirv.OpControlBarrier, sub(), sub(), g.u32(semAcqRel|semUniform|semWorkgroup|semImage))
		return 0
	case check.BSubgroupMemoryBarrier, check.BSubgroupMemoryBarrierBuffer, check.BSubgroupMemoryBarrierShared, check.BSubgroupMemoryBarrierImage:
		g.subgroupCap(spirv.CapabilityGroupNonUniform)
		sem := map[check.Builtin]uint32{check.BSubgroupMemoryBarrier: semUniform | semWorkgroup | semImage, check.BSubgroupMemoryBarrierBuffer: semUniform,
			check.BSubgroupMemoryBarrierShared: semWorkgroup, check.BSubgroupMemoryBarrierImage: semImage}[e.Fn]
		g.b.Emit(spirv.OpMemoryBarrier, sub(), g.u32(semAcqRel|sem))
		return 0
	case check.BAtomicAdd, check.BAtomicMin, check.BAtomicMax, check.BAtomicAnd, check.BAtomicOr, check.BAtomicXor, check.BAtomicExchange, check.BAtomicCompSwap, check.BAtomicLoad, check.BAtomicStore:
		return g.atomic(e, tid)
	case check.BSubgroupElect:
		g.subgroupCap(spirv.CapabilityGroupNonUniform)
		return g.b.EmitResult(spirv.OpGroupNonUniformElect, tid, sub())
	case check.BSubgroupAll, check.BSubgroupAny, check.BSubgroupAllEqual:
		g.subgroupCap(spirv.CapabilityGroupNonUniformVote)
		op := map[check.Builtin]spirv.Op{check.BSubgroupAll: spirv.OpGroupNonUniformAll, check.BSubgroupAny: spirv.OpGroupNonUniformAny, check.BSubgroupAllEqual: spirv.OpGroupNonUniformAllEqual}[e.Fn]
		return g.b.EmitResult(op, tid, append([]uint32{sub()}, args()...)...)
	case check.BSubgroupBroadcast, check.BSubgroupBroadcastFirst, check.BSubgroupBallot, check.BSubgroupInverseBallot, check.BSubgroupBallotBitExtract,
		check.BSubgroupBallotFindLSB, check.BSubgroupBallotFindMSB:
		g.subgroupCap(spirv.CapabilityGroupNonUniformBallot)
		op := map[check.Builtin]spirv.Op{check.BSubgroupBroadcast: spirv.OpGroupNonUniformBroadcast, check.BSubgroupBroadcastFirst: spirv.OpGroupNonUniformBroadcastFirst,
			check.BSubgroupBallot: spirv.OpGroupNonUniformBallot, check.BSubgroupInverseBallot: spirv.OpGroupNonUniformInverseBallot,
			check.BSubgroupBallotBitExtract: spirv.OpGroupNonUniformBallotBitExtract, check.BSubgroupBallotFindLSB: spirv.OpGroupNonUniformBallotFindLSB,
			check.BSubgroupBallotFindMSB: spirv.OpGroupNonUniformBallotFindMSB}[e.Fn]
		return g.b.EmitResult(op, tid, append([]uint32{sub()}, args()...)...)
	case check.BSubgroupBallotBitCount, check.BSubgroupBallotInclusiveBitCount, check.BSubgroupBallotExclusiveBitCount:
		g.subgroupCap(spirv.CapabilityGroupNonUniformBallot)
		grp := map[check.Builtin]spirv.GroupOperation{check.BSubgroupBallotBitCount: spirv.GroupOperationReduce,
			check.BSubgroupBallotInclusiveBitCount: spirv.GroupOperationInclusiveScan, check.BSubgroupBallotExclusiveBitCount: spirv.GroupOperationExclusiveScan}[e.Fn]
		return g.b.EmitResult(spirv.OpGroupNonUniformBallotBitCount, tid, append([]uint32{sub(), uint32(grp)}, args()...)...)
	case check.BSubgroupShuffle, check.BSubgroupShuffleXor:
		g.subgroupCap(spirv.CapabilityGroupNonUniformShuffle)
		return g.b.EmitResult(pick(e.Fn == check.BSubgroupShuffle, spirv.OpGroupNonUniformShuffle, spirv.OpGroupNonUniformShuffleXor), tid, append([]uint32{sub()}, args()...)...)
	case check.BSubgroupShuffleUp, check.BSubgroupShuffleDown:
		g.subgroupCap(spirv.CapabilityGroupNonUniformShuffleRelative)
		return g.b.EmitResult(pick(e.Fn == check.BSubgroupShuffleUp, spirv.OpGroupNonUniformShuffleUp, spirv.OpGroupNonUniformShuffleDown), tid, append([]uint32{sub()}, args()...)...)
	case check.BSubgroupAdd, check.BSubgroupInclusiveAdd, check.BSubgroupExclusiveAdd, check.BSubgroupClusteredAdd,
		check.BSubgroupMul, check.BSubgroupInclusiveMul, check.BSubgroupExclusiveMul, check.BSubgroupClusteredMul,
		check.BSubgroupMin, check.BSubgroupInclusiveMin, check.BSubgroupExclusiveMin, check.BSubgroupClusteredMin,
		check.BSubgroupMax, check.BSubgroupInclusiveMax, check.BSubgroupExclusiveMax, check.BSubgroupClusteredMax,
		check.BSubgroupAnd, check.BSubgroupInclusiveAnd, check.BSubgroupExclusiveAnd, check.BSubgroupClusteredAnd,
		check.BSubgroupOr, check.BSubgroupInclusiveOr, check.BSubgroupExclusiveOr, check.BSubgroupClusteredOr,
		check.BSubgroupXor, check.BSubgroupInclusiveXor, check.BSubgroupExclusiveXor, check.BSubgroupClusteredXor:
		return g.subgroupArith(e, tid, args())
	case check.BDebugPrintfEXT:
		return g.debugPrintf(e)
	case check.BAbortEXT:
		g.abort(e)
		return 0
	case check.BCoopMatLoad, check.BCoopMatLoadNV:
		return g.coopLoad(e)
	case check.BCoopMatStore, check.BCoopMatStoreNV:
		return g.coopStore(e)
	case check.BCoopMatMulAdd:
		a := args()
		mask := uint32(0)
		if at(0).Scalar.IsSigned() {
			mask |= uint32(spirv.CooperativeMatrixOperandsMatrixASignedComponentsKHR)
		}
		if at(1).Scalar.IsSigned() {
			mask |= uint32(spirv.CooperativeMatrixOperandsMatrixBSignedComponentsKHR)
		}
		if at(2).Scalar.IsSigned() {
			mask |= uint32(spirv.CooperativeMatrixOperandsMatrixCSignedComponentsKHR)
		}
		if e.T.Scalar.IsSigned() {
			mask |= uint32(spirv.CooperativeMatrixOperandsMatrixResultSignedComponentsKHR)
		}
		if len(e.Args) > 3 {
			c, ok := e.Args[3].(*check.Const)
			if !ok {
				g.fail(e.Pos, "coopMatMulAdd's matrix operands must be a constant expression")
			}
			mask |= uint32(c.Val.Bits)
		}
		words := a[:3]
		if mask != 0 {
			words = append(words, mask)
		}
		return g.b.EmitResult(spirv.OpCooperativeMatrixMulAddKHR, tid, words...)
	case check.BCoopMatMulAddNV:
		a := args()
		return g.b.EmitResult(spirv.OpCooperativeMatrixMulAddNV, tid, a[0], a[1], a[2])
	}
	if v, ok := g.imageBuiltin(e, tid); ok {
		return v
	}
	if v, ok := g.textureBuiltin(e, tid); ok {
		return v
	}
	if e.Fn == check.BNonuniformEXT {
		return g.nonuniformValue(e)
	}
	if v, ok := g.coop2Builtin(e, tid); ok {
		return v
	}
	if v, ok := g.tensorBuiltin(e, tid); ok {
		return v
	}
	if v, ok := g.moreBuiltin(e, tid); ok {
		return v
	}
	if v, ok := g.amdBuiltin(e, tid); ok {
		return v
	}
	if v, ok := g.arbBallot(e, tid); ok {
		return v
	}
	if v, ok := g.qcomConversion(e); ok {
		return v
	}
	g.fail(e.Pos, "built-in function %s is not supported by the code generator yet", e.Fn)
	return 0
}

// splatArgs widens scalar arguments of a vector-valued built-in
// (min(vec3, float), clamp(vec2, 0.0, 1.0), mix(v, v, a)).
func (g *gen) splatArgs(e *check.BuiltinCall, a []uint32) []uint32 {
	// Only scalars beside vector arguments (min(v, s), mix(x, y, a)) are
	// splatted; a vector result from scalars alone (unpackHalf2x16(uint))
	// keeps them.
	if e.T.Kind != check.KVector || !slices.ContainsFunc(e.Args, func(x check.Expr) bool { return x.Type().Kind == check.KVector }) {
		return a
	}
	for i, arg := range e.Args {
		if arg.Type().Kind == check.KScalar && !(e.Fn == check.BLdexp && i == 1) && !(e.Fn == check.BRefract && i == 2) {
			a[i] = g.splat(a[i], e.T.WithScalar(arg.Type().Scalar))
		}
	}
	return a
}

func (g *gen) ext(tid uint32, inst uint32, args ...uint32) uint32 {
	return g.b.EmitResult(spirv.OpExtInst, tid, append([]uint32{g.glslSet(), uint32(inst)}, args...)...)
}

// defaultScope is the memory scope of atomics and of the GLSL memory
// barriers: Device, or QueueFamily under the Vulkan memory model (as
// glslang chooses).
func (g *gen) defaultScope() uint32 {
	if g.vmm {
		return g.u32(uint32(spirv.ScopeQueueFamily))
	}
	return g.u32(uint32(spirv.ScopeDevice))
}

func (g *gen) subgroupCap(c spirv.Capability) {
	g.b.Capability(spirv.CapabilityGroupNonUniform)
	g.b.Capability(c)
}

func (g *gen) atomic(e *check.BuiltinCall, tid uint32) uint32 {
	l := g.lvalue(e.Args[0])
	return g.atomicAt(e.Fn, tid, l.ptr, e.Args[0].Type().Scalar, e.Args[1:], g.memoryOf(e.Args[0])&check.Volatile != 0)
}

// atomicAt emits atomic fn on the value of scalar type s at ptr; args are
// the built-in's arguments after the pointer: the value(s), then for the
// GL_KHR_memory_scope_semantics forms the scope and the storage and
// semantics pairs. Without them the scope is the default one and the
// semantics relaxed (Volatile for volatile memory under the Vulkan memory
// model), as glslang chooses.
func (g *gen) atomicAt(fn check.Builtin, tid, ptr uint32, s check.Scalar, args []check.Expr, volatile bool) uint32 {
	if s.Bits() == 64 && s.IsInt() {
		g.b.Capability(spirv.CapabilityInt64Atomics)
	}
	nvals := 1
	switch fn {
	case check.BAtomicLoad:
		nvals = 0
	case check.BAtomicCompSwap:
		nvals = 2
	}
	var vals []uint32
	for _, a := range args[:nvals] {
		vals = append(vals, g.rvalue(a))
	}
	scope := g.defaultScope()
	def := uint32(0)
	if volatile && g.vmm {
		def = uint32(spirv.MemorySemanticsVolatile)
	}
	sem, sem2 := g.u32(def), g.u32(def)
	if rest := args[nvals:]; len(rest) >= 3 {
		sc := g.constArg(rest[0], "the memory scope")
		g.checkScope(sc)
		scope = g.rvalue(rest[0])
		v := g.constArg(rest[1], "the storage semantics") | g.constArg(rest[2], "the memory semantics")
		g.checkSemantics(v)
		sem, sem2 = g.u32(v), g.u32(v)
		if len(rest) >= 5 {
			v2 := g.constArg(rest[3], "the storage semantics") | g.constArg(rest[4], "the memory semantics")
			g.checkSemantics(v2)
			sem2 = g.u32(v2)
		}
	}
	switch fn {
	case check.BAtomicLoad:
		return g.b.EmitResult(spirv.OpAtomicLoad, tid, ptr, scope, sem)
	case check.BAtomicStore:
		g.b.Emit(spirv.OpAtomicStore, ptr, scope, sem, vals[0])
		return 0
	case check.BAtomicCompSwap:
		return g.b.EmitResult(spirv.OpAtomicCompareExchange, tid, ptr, scope, sem, sem2, vals[1], vals[0])
	}
	var op spirv.Op
	switch fn {
	case check.BAtomicAdd:
		op = spirv.OpAtomicIAdd
		if s.IsFloat() {
			op = spirv.OpAtomicFAddEXT
			g.floatAtomicCaps(s, "SPV_EXT_shader_atomic_float_add", spirv.CapabilityAtomicFloat16AddEXT, spirv.CapabilityAtomicFloat32AddEXT, spirv.CapabilityAtomicFloat64AddEXT)
			if s == check.Float16 {
				g.b.Extension("SPV_EXT_shader_atomic_float16_add")
			}
		}
	case check.BAtomicMin, check.BAtomicMax:
		min := fn == check.BAtomicMin
		switch {
		case s.IsFloat():
			op = pick(min, spirv.OpAtomicFMinEXT, spirv.OpAtomicFMaxEXT)
			g.floatAtomicCaps(s, "SPV_EXT_shader_atomic_float_min_max", spirv.CapabilityAtomicFloat16MinMaxEXT, spirv.CapabilityAtomicFloat32MinMaxEXT, spirv.CapabilityAtomicFloat64MinMaxEXT)
		case s.IsSigned():
			op = pick(min, spirv.OpAtomicSMin, spirv.OpAtomicSMax)
		default:
			op = pick(min, spirv.OpAtomicUMin, spirv.OpAtomicUMax)
		}
	case check.BAtomicAnd:
		op = spirv.OpAtomicAnd
	case check.BAtomicOr:
		op = spirv.OpAtomicOr
	case check.BAtomicXor:
		op = spirv.OpAtomicXor
	case check.BAtomicExchange:
		op = spirv.OpAtomicExchange
	}
	return g.b.EmitResult(op, tid, ptr, scope, sem, vals[0])
}

// floatAtomicCaps declares a floating-point atomic's extension and the
// capability for its width.
func (g *gen) floatAtomicCaps(s check.Scalar, ext string, c16, c32, c64 spirv.Capability) {
	g.b.Extension(ext)
	switch s.Bits() {
	case 16:
		g.b.Capability(c16)
	case 64:
		g.b.Capability(c64)
	default:
		g.b.Capability(c32)
	}
}

// coopPointer is the address of buf[element] for cooperative loads and
// stores.
func (g *gen) coopPointer(buf, elem check.Expr) (uint32, *lval) {
	l := g.lvalue(buf)
	bt := buf.Type()
	if bt.Kind != check.KArray {
		g.fail(buf.Position(), "cooperative matrix memory must be an array")
	}
	p := g.chain(l, bt.Elem, g.rvalue(elem))
	return p.ptr, p
}

func (g *gen) coopLoad(e *check.BuiltinCall) uint32 {
	mt := e.Args[0].Type()
	ptr, l := g.coopPointer(e.Args[1], e.Args[2])
	stride := g.rvalue(e.Args[3])
	var v uint32
	mem := g.memAccess(l)
	if e.Fn == check.BCoopMatLoadNV {
		col := g.rvalue(e.Args[4])
		v = g.b.EmitResult(spirv.OpCooperativeMatrixLoadNV, g.typeID(mt, check.PackNone), append([]uint32{ptr, stride, col}, mem...)...)
	} else {
		layout := g.coopLayout(e.Args[4])
		v = g.b.EmitResult(spirv.OpCooperativeMatrixLoadKHR, g.typeID(mt, check.PackNone), append([]uint32{ptr, layout, stride}, mem...)...)
	}
	g.store(nil, g.lvalue(e.Args[0]), v, mt)
	return 0
}

func (g *gen) coopStore(e *check.BuiltinCall) uint32 {
	m := g.rvalue(e.Args[0])
	ptr, l := g.coopPointer(e.Args[1], e.Args[2])
	stride := g.rvalue(e.Args[3])
	mem := g.memAccess(l)
	if e.Fn == check.BCoopMatStoreNV {
		col := g.rvalue(e.Args[4])
		g.b.Emit(spirv.OpCooperativeMatrixStoreNV, append([]uint32{ptr, m, stride, col}, mem...)...)
	} else {
		layout := g.coopLayout(e.Args[4])
		g.b.Emit(spirv.OpCooperativeMatrixStoreKHR, append([]uint32{ptr, m, layout, stride}, mem...)...)
	}
	return 0
}

// subgroupArith emits the subgroup reductions and scans.
func (g *gen) subgroupArith(e *check.BuiltinCall, tid uint32, a []uint32) uint32 {
	name := e.Fn.String()
	grp := spirv.GroupOperationReduce
	switch {
	case strings.HasPrefix(name, "subgroupInclusive"):
		grp = spirv.GroupOperationInclusiveScan
	case strings.HasPrefix(name, "subgroupExclusive"):
		grp = spirv.GroupOperationExclusiveScan
	case strings.HasPrefix(name, "subgroupClustered"):
		grp = spirv.GroupOperationClusteredReduce
	}
	if grp == spirv.GroupOperationClusteredReduce {
		g.subgroupCap(spirv.CapabilityGroupNonUniformClustered)
	} else {
		g.subgroupCap(spirv.CapabilityGroupNonUniformArithmetic)
	}
	op := arithOp(name, e.Args[0].Type().Scalar)
	return g.b.EmitResult(op, tid, append([]uint32{g.u32(uint32(spirv.ScopeSubgroup)), uint32(grp)}, a...)...)
}

// arithOp picks the non-uniform arithmetic instruction from the built-in's
// name suffix (Add, Mul, Min, Max, And, Or, Xor) and the value's type.
func arithOp(name string, s check.Scalar) spirv.Op {
	var op spirv.Op
	switch {
	case strings.HasSuffix(name, "Add"):
		op = pick(s.IsFloat(), spirv.OpGroupNonUniformFAdd, spirv.OpGroupNonUniformIAdd)
	case strings.HasSuffix(name, "Mul"):
		op = pick(s.IsFloat(), spirv.OpGroupNonUniformFMul, spirv.OpGroupNonUniformIMul)
	case strings.HasSuffix(name, "Min"):
		op = cmpOp(s.IsFloat(), s.IsSigned(), spirv.OpGroupNonUniformFMin, spirv.OpGroupNonUniformSMin, spirv.OpGroupNonUniformUMin)
	case strings.HasSuffix(name, "Max"):
		op = cmpOp(s.IsFloat(), s.IsSigned(), spirv.OpGroupNonUniformFMax, spirv.OpGroupNonUniformSMax, spirv.OpGroupNonUniformUMax)
	case strings.HasSuffix(name, "And"):
		op = pick(s == check.Bool, spirv.OpGroupNonUniformLogicalAnd, spirv.OpGroupNonUniformBitwiseAnd)
	case strings.HasSuffix(name, "Or"):
		op = pick(s == check.Bool, spirv.OpGroupNonUniformLogicalOr, spirv.OpGroupNonUniformBitwiseOr)
	default:
		op = pick(s == check.Bool, spirv.OpGroupNonUniformLogicalXor, spirv.OpGroupNonUniformBitwiseXor)
	}
	return op
}

// coopLayout evaluates a cooperative matrix layout operand; the ARM
// blocked layouts need their capability.
func (g *gen) coopLayout(e check.Expr) uint32 {
	if c, ok := e.(*check.Const); ok {
		switch spirv.CooperativeMatrixLayout(c.Val.Bits) {
		case spirv.CooperativeMatrixLayoutRowBlockedInterleavedARM, spirv.CooperativeMatrixLayoutColumnBlockedInterleavedARM:
			g.b.Capability(spirv.CapabilityCooperativeMatrixLayoutsARM)
			g.b.Extension("SPV_ARM_cooperative_matrix_layouts")
		}
	}
	return g.rvalue(e)
}

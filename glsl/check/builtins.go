package check

import "strings"

// Built-in functions are described by Go tables of generic signatures, never
// by GLSL source. A signature is a space-separated list of type tokens, the
// result first; a parameter token may carry "out:" or "inout:". Tokens:
//
//	T     the generic type: component c (from the entry's component set),
//	      n components (from the entry's size set); a scalar when n == 1
//	S     the scalar c
//	B I U F  bool, int, uint, float with n components
//	Fh Fb Fd float16, bfloat16, double with n components
//	U8    uint8_t with n components
//	Is Us the signed/unsigned integer of c's width, n components
//	M Mt  a matrix of c (cols x rows) and its transpose
//	Mc Mr the matrix's column and row vector
//	other a concrete type name (float, uvec4, int64_t, ...), or a long
//	      vector written vector<scalar,N> without spaces
//
// The checker instantiates each entry for the components and sizes the
// arguments suggest and resolves overloads with the usual ranking.

type compSet uint32

func comps(ss ...Scalar) compSet {
	var c compSet
	for _, s := range ss {
		c |= 1 << s
	}
	return c
}

func (c compSet) has(s Scalar) bool { return c&(1<<s) != 0 }

var (
	cF    = comps(Float32, Float16)          // genType, genF16Type
	cFD   = comps(Float32, Float16, Float64) // with genDType
	cF32  = comps(Float32)
	cD    = comps(Float64)
	cH    = comps(Float16)
	cI    = comps(Int8, Int16, Int32, Int64)
	cU    = comps(Uint8, Uint16, Uint32, Uint64)
	cIU   = cI | cU
	cNum  = cFD | cIU
	cB    = comps(Bool)
	cAll  = cNum | cB
	cI32  = comps(Int32)
	cU32  = comps(Uint32)
	cIU32 = cI32 | cU32
	cBF   = comps(BFloat16)
	cE5   = comps(E5M2)
	cE4   = comps(E4M3)
	// Atomics: 32- and 64-bit integers and (GL_EXT_shader_atomic_float)
	// floats.
	cAtomic = comps(Int32, Uint32, Int64, Uint64, Float32, Float16, Float64)
)

// sizeSet holds the allowed numbers of components of T (bit n).
type sizeSet uint8

const (
	sz1    sizeSet = 1 << 1
	szVec  sizeSet = 1<<2 | 1<<3 | 1<<4
	szGen  sizeSet = sz1 | szVec
	sz3    sizeSet = 1 << 3
	szLong sizeSet = 1 << 7 // long vectors (GL_EXT_long_vector) allowed too
	szAny  sizeSet = szGen | szLong
	szVecL sizeSet = szVec | szLong
)

type sigParam struct {
	tok string
	dir ParamDir
}

type overload struct {
	ret    string
	params []sigParam
	comps  compSet
	sizes  sizeSet
	ext    []string // any one enables it; nil: core
	fn     Builtin
}

var builtinTable map[string][]*overload // made by loadTables

// def adds one signature for each space-separated name.
func def(names, sig string, cs compSet, sizes sizeSet, ext ...string) {
	toks := strings.Fields(sig)
	var ps []sigParam
	for _, t := range toks[1:] {
		p := sigParam{tok: t}
		if r, ok := strings.CutPrefix(t, "out:"); ok {
			p = sigParam{tok: r, dir: DirOut}
		} else if r, ok := strings.CutPrefix(t, "inout:"); ok {
			p = sigParam{tok: r, dir: DirInOut}
		}
		ps = append(ps, p)
	}
	for _, n := range strings.Fields(names) {
		builtinTable[n] = append(builtinTable[n], &overload{ret: toks[0], params: ps, comps: cs, sizes: sizes, ext: ext, fn: builtinByName[n]})
	}
}

var (
	extSubBasic      = []string{"GL_KHR_shader_subgroup_basic"}
	extSubVote       = []string{"GL_KHR_shader_subgroup_vote"}
	extSubBallot     = []string{"GL_KHR_shader_subgroup_ballot"}
	extSubArith      = []string{"GL_KHR_shader_subgroup_arithmetic"}
	extSubShuffle    = []string{"GL_KHR_shader_subgroup_shuffle"}
	extSubShuffleRel = []string{"GL_KHR_shader_subgroup_shuffle_relative"}
	extSubClustered  = []string{"GL_KHR_shader_subgroup_clustered"}
	extSubQuad       = []string{"GL_KHR_shader_subgroup_quad"}
	extSubPartition  = []string{"GL_NV_shader_subgroup_partitioned"}
	extSubRotate     = []string{"GL_KHR_shader_subgroup_rotate"}
	extMemScope      = []string{"GL_KHR_memory_scope_semantics"}
	extBF16          = []string{"GL_EXT_bfloat16"}
	extFP8           = []string{"GL_EXT_float_e5m2", "GL_EXT_float_e4m3"}
	extARBBallot     = []string{"GL_ARB_shader_ballot"}
	extARBVote       = []string{"GL_ARB_shader_group_vote"}
	extExpect        = []string{"GL_EXT_expect_assume"}
	extI64           = []string{"GL_ARB_gpu_shader_int64", "GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_int64"}
	extArith         = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_int8", "GL_EXT_shader_explicit_arithmetic_types_int16", "GL_EXT_shader_explicit_arithmetic_types_int64", "GL_EXT_shader_explicit_arithmetic_types_float16"}
	extHalf          = []string{"GL_EXT_shader_explicit_arithmetic_types", "GL_EXT_shader_explicit_arithmetic_types_float16", "GL_AMD_gpu_shader_half_float"}
)

func defineBuiltins() {
	// 8.1 Angle and trigonometry.
	def("radians degrees sin cos tan asin acos sinh cosh tanh asinh acosh atanh", "T T", cF, szAny)
	def("atan", "T T T", cF, szAny)
	def("atan", "T T", cF, szAny)
	// 8.2 Exponential.
	def("pow", "T T T", cF, szAny)
	def("exp log exp2 log2", "T T", cF, szAny)
	def("sqrt inversesqrt", "T T", cFD, szAny)
	// 8.3 Common.
	def("abs sign", "T T", cFD|cI, szAny)
	def("floor trunc round roundEven ceil fract", "T T", cFD, szAny)
	def("mod", "T T T", cFD, szAny)
	def("mod", "T T S", cFD, szVecL)
	def("modf", "T T out:T", cFD, szAny)
	def("min max", "T T T", cNum, szAny)
	def("min max", "T T S", cNum, szVecL)
	def("clamp", "T T T T", cNum, szAny)
	def("clamp", "T T S S", cNum, szVecL)
	def("mix", "T T T T", cFD, szAny)
	def("mix", "T T T S", cFD, szVecL)
	def("mix", "T T T B", cAll, szAny)
	def("step", "T T T", cFD, szAny)
	def("step", "T S T", cFD, szVecL)
	def("smoothstep", "T T T T", cFD, szAny)
	def("smoothstep", "T S S T", cFD, szVecL)
	def("isnan isinf", "B T", cFD, szAny)
	def("floatBitsToInt", "Is T", cF32, szAny)
	def("floatBitsToUint", "Us T", cF32, szAny)
	def("intBitsToFloat", "F T", cI32, szAny)
	def("uintBitsToFloat", "F T", cU32, szAny)
	def("halfBitsToInt16 float16BitsToInt16", "Is T", cH, szAny, extArith...)
	def("halfBitsToUint16 float16BitsToUint16", "Us T", cH, szAny, extArith...)
	def("int16BitsToHalf int16BitsToFloat16", "T Is", cH, szAny, extArith...)
	def("uint16BitsToHalf uint16BitsToFloat16", "T Us", cH, szAny, extArith...)
	def("doubleBitsToInt64", "Is T", cD, szAny, extI64...)
	def("doubleBitsToUint64", "Us T", cD, szAny, extI64...)
	def("int64BitsToDouble", "T Is", cD, szAny, extI64...)
	def("uint64BitsToDouble", "T Us", cD, szAny, extI64...)
	def("bfloat16BitsToIntEXT", "Is T", cBF, szAny, extBF16...)
	def("bfloat16BitsToUintEXT", "Us T", cBF, szAny, extBF16...)
	def("intBitsToBFloat16EXT", "T Is", cBF, szAny, extBF16...)
	def("uintBitsToBFloat16EXT", "T Us", cBF, szAny, extBF16...)
	def("floate5m2BitsToIntEXT", "Is T", cE5, szAny, extFP8...)
	def("floate5m2BitsToUintEXT", "Us T", cE5, szAny, extFP8...)
	def("intBitsToFloate5m2EXT", "T Is", cE5, szAny, extFP8...)
	def("uintBitsToFloate5m2EXT", "T Us", cE5, szAny, extFP8...)
	def("floate4m3BitsToIntEXT", "Is T", cE4, szAny, extFP8...)
	def("floate4m3BitsToUintEXT", "Us T", cE4, szAny, extFP8...)
	def("intBitsToFloate4m3EXT", "T Is", cE4, szAny, extFP8...)
	def("uintBitsToFloate4m3EXT", "T Us", cE4, szAny, extFP8...)
	// GL_EXT_float_e2m1, _e2m3, _e3m2: packing into unsigned integers and
	// reinterpreting part of an 8-bit integer.
	for _, p := range []struct{ sfx, ty, v2, v4, v8, v16 string }{
		{"fe2m1", "floate2m1_t", "uint8_t", "uint16_t", "uint32_t", "u32vec2"},
		{"fe2m3", "floate2m3_t", "", "u8vec3", "u16vec3", "u32vec3"},
		{"fe3m2", "floate3m2_t", "", "u8vec3", "u16vec3", "u32vec3"},
	} {
		ext := "GL_EXT_float_" + p.sfx[1:]
		if p.v2 != "" {
			def("packFloat2x"+p.sfx+"EXT", p.v2+" "+p.sfx+"vec2", 0, sz1, ext)
			def("unpackFloat2x"+p.sfx+"EXT", p.sfx+"vec2 "+p.v2, 0, sz1, ext)
		}
		def("packFloat4x"+p.sfx+"EXT", p.v4+" "+p.sfx+"vec4", 0, sz1, ext)
		def("unpackFloat4x"+p.sfx+"EXT", p.sfx+"vec4 "+p.v4, 0, sz1, ext)
		for _, n := range []struct{ n, packed string }{{"8", p.v8}, {"16", p.v16}} {
			long := "vector<" + p.ty + "," + n.n + ">"
			def("packFloat"+n.n+"x"+p.sfx+"EXT", n.packed+" "+long, 0, sz1, ext)
			def("unpackFloat"+n.n+"x"+p.sfx+"EXT", long+" "+n.packed, 0, sz1, ext)
		}
	}
	def("bitcastExtractfe2m1EXT", "T U8 uint", comps(E2M1), szAny, extE2M1...)
	def("bitcastExtractfe2m3EXT", "T U8 uint", comps(E2M3), szAny, extE2M3...)
	def("bitcastExtractfe3m2EXT", "T U8 uint", comps(E3M2), szAny, extE3M2...)
	def("floatmxint8BitsToIntEXT", "Is T", comps(MXInt8), szAny, extMXInt8...)
	def("floatmxint8BitsToUintEXT", "Us T", comps(MXInt8), szAny, extMXInt8...)
	def("intBitsToFloatmxint8EXT", "T Is", comps(MXInt8), szAny, extMXInt8...)
	def("uintBitsToFloatmxint8EXT", "T Us", comps(MXInt8), szAny, extMXInt8...)
	def("floatue8m0BitsToIntEXT", "Is T", comps(UE8M0), szAny, extUE8M0...)
	def("floatue8m0BitsToUintEXT", "Us T", comps(UE8M0), szAny, extUE8M0...)
	def("intBitsToFloatue8m0EXT", "T Is", comps(UE8M0), szAny, extUE8M0...)
	def("uintBitsToFloatue8m0EXT", "T Us", comps(UE8M0), szAny, extUE8M0...)
	def("fma", "T T T T", cFD, szAny)
	def("frexp", "T T out:I", cFD, szAny)
	def("ldexp", "T T I", cFD, szAny)
	// 8.4 Packing.
	def("packUnorm2x16 packSnorm2x16 packHalf2x16", "uint vec2", 0, sz1)
	def("packUnorm4x8 packSnorm4x8", "uint vec4", 0, sz1)
	def("unpackUnorm2x16 unpackSnorm2x16 unpackHalf2x16", "vec2 uint", 0, sz1)
	def("unpackUnorm4x8 unpackSnorm4x8", "vec4 uint", 0, sz1)
	def("packDouble2x32", "double uvec2", 0, sz1)
	def("unpackDouble2x32", "uvec2 double", 0, sz1)
	def("packInt2x32 pack64", "int64_t ivec2", 0, sz1, extI64...)
	def("packUint2x32 pack64", "uint64_t uvec2", 0, sz1, extI64...)
	def("unpackInt2x32 unpack32", "ivec2 int64_t", 0, sz1, extI64...)
	def("unpackUint2x32 unpack32", "uvec2 uint64_t", 0, sz1, extI64...)
	def("pack64 packInt4x16", "int64_t i16vec4", 0, sz1, extArith...)
	def("pack64 packUint4x16", "uint64_t u16vec4", 0, sz1, extArith...)
	def("pack32 packInt2x16", "int i16vec2", 0, sz1, extArith...)
	def("pack32 packUint2x16", "uint u16vec2", 0, sz1, extArith...)
	def("pack32", "int i8vec4", 0, sz1, extArith...)
	def("pack32", "uint u8vec4", 0, sz1, extArith...)
	def("pack16", "int16_t i8vec2", 0, sz1, extArith...)
	def("pack16", "uint16_t u8vec2", 0, sz1, extArith...)
	def("unpack16 unpackInt4x16", "i16vec4 int64_t", 0, sz1, extArith...)
	def("unpack16 unpackUint4x16", "u16vec4 uint64_t", 0, sz1, extArith...)
	def("unpack16 unpackInt2x16", "i16vec2 int", 0, sz1, extArith...)
	def("unpack16 unpackUint2x16", "u16vec2 uint", 0, sz1, extArith...)
	def("unpack8", "i8vec4 int", 0, sz1, extArith...)
	def("unpack8", "u8vec4 uint", 0, sz1, extArith...)
	def("unpack8", "i8vec2 int16_t", 0, sz1, extArith...)
	def("unpack8", "u8vec2 uint16_t", 0, sz1, extArith...)
	def("packFloat2x16", "uint f16vec2", 0, sz1, extHalf...)
	def("unpackFloat2x16", "f16vec2 uint", 0, sz1, extHalf...)
	// 8.5 Geometric.
	def("length", "S T", cFD, szAny)
	def("distance", "S T T", cFD, szAny)
	def("dot", "S T T", cFD, szAny)
	def("cross", "T T T", cFD, sz3)
	def("normalize", "T T", cFD, szAny)
	def("faceforward", "T T T T", cFD, szAny)
	def("reflect", "T T T", cFD, szAny)
	def("refract", "T T T S", cFD, szAny)
	// 8.6 Matrix.
	def("matrixCompMult", "M M M", cFD, 0)
	def("outerProduct", "M Mc Mr", cFD, 0)
	def("transpose", "Mt M", cFD, 0)
	def("determinant", "S M", cFD, 0)
	def("inverse", "M M", cFD, 0)
	// 8.7 Vector relational.
	def("lessThan lessThanEqual greaterThan greaterThanEqual", "B T T", cNum, szVecL)
	def("equal notEqual", "B T T", cAll, szVecL)
	def("any all", "bool T", cB, szVecL)
	def("not", "T T", cB, szVecL)
	// 8.8 Integer.
	def("uaddCarry usubBorrow", "T T T out:T", cU32, szAny)
	def("umulExtended", "void T T out:T out:T", cU32, szAny)
	def("imulExtended", "void T T out:T out:T", cI32, szAny)
	// On long vectors (GL_EXT_long_vector) they take every integer width.
	def("uaddCarry usubBorrow", "T T T out:T", comps(Uint8, Uint16, Uint64), szLong)
	def("umulExtended", "void T T out:T out:T", comps(Uint8, Uint16, Uint64), szLong)
	def("imulExtended", "void T T out:T out:T", comps(Int8, Int16, Int64), szLong)
	// As in glslang: extract and insert exist for 32-bit integers only (8-
	// and 16-bit arguments widen, as Vulkan needs 32-bit bases), reverse
	// for all but 64-bit ones.
	def("bitfieldExtract", "T T int int", cIU32, szAny)
	def("bitfieldInsert", "T T T int int", cIU32, szAny)
	def("bitfieldExtract", "T T int int", comps(Int8, Int16, Int64, Uint8, Uint16, Uint64), szLong)
	def("bitfieldInsert", "T T T int int", comps(Int8, Int16, Int64, Uint8, Uint16, Uint64), szLong)
	def("bitfieldReverse", "T T", comps(Int8, Int16, Int32, Uint8, Uint16, Uint32), szAny)
	def("bitCount findLSB findMSB", "Is T", cIU, szAny) // the signed type of T's width, as glslang
	// 8.11 Atomic memory functions.
	def("atomicAdd atomicMin atomicMax atomicExchange", "S inout:S S", cAtomic, sz1)
	def("atomicAnd atomicOr atomicXor", "S inout:S S", cIU, sz1)
	def("atomicCompSwap", "S inout:S S S", cIU, sz1)
	def("atomicAdd atomicMin atomicMax atomicAnd atomicOr atomicXor atomicExchange", "S inout:S S int int int", cAtomic, sz1, extMemScope...)
	def("atomicCompSwap", "S inout:S S S int int int int int", cIU, sz1, extMemScope...)
	def("atomicLoad", "S inout:S int int int", cAtomic, sz1, extMemScope...)
	def("atomicStore", "void inout:S S int int int", cAtomic, sz1, extMemScope...)
	def("sparseTexelsResidentARB", "bool int", 0, sz1, "GL_ARB_sparse_texture2")
	// 8.16 Shader invocation control and 8.17 memory control.
	def("barrier memoryBarrier memoryBarrierAtomicCounter memoryBarrierBuffer memoryBarrierShared memoryBarrierImage groupMemoryBarrier", "void", 0, sz1)
	def("controlBarrier", "void int int int int", 0, sz1, extMemScope...)
	def("memoryBarrier", "void int int int", 0, sz1, extMemScope...)
	// Subgroups (GL_KHR_shader_subgroup_*).
	def("subgroupBarrier subgroupMemoryBarrier subgroupMemoryBarrierBuffer subgroupMemoryBarrierShared subgroupMemoryBarrierImage", "void", 0, sz1, extSubBasic...)
	def("subgroupElect", "bool", 0, sz1, extSubBasic...)
	def("subgroupAll subgroupAny", "bool bool", 0, sz1, extSubVote...)
	def("subgroupAllEqual", "bool T", cAll, szAny, extSubVote...)
	def("subgroupBroadcast", "T T uint", cAll, szAny, extSubBallot...)
	def("subgroupBroadcastFirst", "T T", cAll, szAny, extSubBallot...)
	def("subgroupBallot", "uvec4 bool", 0, sz1, extSubBallot...)
	def("subgroupInverseBallot", "bool uvec4", 0, sz1, extSubBallot...)
	def("subgroupBallotBitExtract", "bool uvec4 uint", 0, sz1, extSubBallot...)
	def("subgroupBallotBitCount subgroupBallotInclusiveBitCount subgroupBallotExclusiveBitCount subgroupBallotFindLSB subgroupBallotFindMSB", "uint uvec4", 0, sz1, extSubBallot...)
	def("subgroupShuffle subgroupShuffleXor", "T T uint", cAll, szAny, extSubShuffle...)
	def("subgroupShuffleUp subgroupShuffleDown", "T T uint", cAll, szAny, extSubShuffleRel...)
	def("subgroupRotate", "T T uint", cAll, szAny, extSubRotate...)
	def("subgroupClusteredRotate", "T T uint uint", cAll, szAny, extSubRotate...)
	for _, op := range []string{"Add", "Mul", "Min", "Max"} {
		def("subgroup"+op+" subgroupInclusive"+op+" subgroupExclusive"+op, "T T", cNum, szAny, extSubArith...)
		def("subgroupClustered"+op, "T T uint", cNum, szAny, extSubClustered...)
		def("subgroupPartitioned"+op+"NV subgroupPartitionedInclusive"+op+"NV subgroupPartitionedExclusive"+op+"NV", "T T uvec4", cNum, szAny, extSubPartition...)
	}
	for _, op := range []string{"And", "Or", "Xor"} {
		def("subgroup"+op+" subgroupInclusive"+op+" subgroupExclusive"+op, "T T", cIU|cB, szAny, extSubArith...)
		def("subgroupClustered"+op, "T T uint", cIU|cB, szAny, extSubClustered...)
		def("subgroupPartitioned"+op+"NV subgroupPartitionedInclusive"+op+"NV subgroupPartitionedExclusive"+op+"NV", "T T uvec4", cIU|cB, szAny, extSubPartition...)
	}
	def("subgroupPartitionNV", "uvec4 T", cAll, szAny, extSubPartition...)
	def("subgroupQuadBroadcast", "T T uint", cAll, szAny, extSubQuad...)
	def("subgroupQuadSwapHorizontal subgroupQuadSwapVertical subgroupQuadSwapDiagonal", "T T", cAll, szAny, extSubQuad...)
	def("subgroupQuadAll subgroupQuadAny", "bool bool", 0, sz1, extSubQuad...)
	// GL_ARB_shader_ballot and GL_ARB_shader_group_vote.
	def("ballotARB", "uint64_t bool", 0, sz1, extARBBallot...)
	def("readInvocationARB", "T T uint", cF32|cI32|cU32, szGen, extARBBallot...)
	def("readFirstInvocationARB", "T T", cF32|cI32|cU32, szGen, extARBBallot...)
	def("anyInvocationARB allInvocationsARB allInvocationsEqualARB", "bool bool", 0, sz1, extARBVote...)
	def("anyInvocation allInvocations allInvocationsEqual", "bool bool", 0, sz1)
	// GL_AMD_shader_ballot.
	for _, op := range []string{"min", "max", "add"} {
		for _, v := range []string{"", "InclusiveScan", "ExclusiveScan"} {
			def(op+"Invocations"+v+"AMD "+op+"Invocations"+v+"NonUniformAMD", "T T", comps(Float32, Float16, Float64, Int32, Uint32, Int64, Uint64, Int16, Uint16), szGen, "GL_AMD_shader_ballot")
		}
	}
	def("swizzleInvocationsAMD", "T T uvec4", cF32|cIU32, szGen, "GL_AMD_shader_ballot")
	def("swizzleInvocationsMaskedAMD", "T T uvec3", cF32|cIU32, szGen, "GL_AMD_shader_ballot")
	def("writeInvocationAMD", "T T T uint", cF32|cIU32, szGen, "GL_AMD_shader_ballot")
	def("mbcntAMD", "uint uint64_t", 0, sz1, "GL_AMD_shader_ballot")
	// GL_EXT_split_barrier.
	def("controlBarrierArrive controlBarrierWait", "void", 0, sz1, "GL_EXT_split_barrier")
	def("controlBarrierArrive controlBarrierWait", "void int int int int", 0, sz1, "GL_EXT_split_barrier")
	// GL_EXT_expect_assume.
	def("expectEXT", "T T T", cIU|cB, szAny, extExpect...)
	def("assumeEXT", "void bool", 0, sz1, extExpect...)
	// GL_EXT_integer_dot_product: four 8-bit lanes packed in 32 bits, each
	// operand signed or unsigned; the result is unsigned only when both are.
	for _, sig := range []string{"int int int", "uint uint uint", "int int uint", "int uint int"} {
		def("dotPacked4x8EXT", sig, 0, sz1, "GL_EXT_integer_dot_product")
		def("dotPacked4x8AccSatEXT", sig+" "+strings.Fields(sig)[0], 0, sz1, "GL_EXT_integer_dot_product")
	}
	// Clocks.
	def("clockARB", "uint64_t", 0, sz1, "GL_ARB_shader_clock")
	def("clock2x32ARB", "uvec2", 0, sz1, "GL_ARB_shader_clock")
	def("clockRealtimeEXT", "uint64_t", 0, sz1, "GL_EXT_shader_realtime_clock")
	def("clockRealtime2x32EXT", "uvec2", 0, sz1, "GL_EXT_shader_realtime_clock")
	// GL_NV_displacement_micromap: (as, instanceId, geometryIndex,
	// primitiveIndex, barycentrics) of a micro-triangle vertex.
	def("fetchMicroTriangleVertexPositionNV", "vec3 accelerationStructureEXT int int int ivec2", 0, sz1, "GL_NV_displacement_micromap")
	def("fetchMicroTriangleVertexBarycentricNV", "vec2 accelerationStructureEXT int int int ivec2", 0, sz1, "GL_NV_displacement_micromap")
	// Derivatives in compute shaders (GL_NV/KHR_compute_shader_derivatives).
	def("dFdx dFdy fwidth dFdxFine dFdyFine fwidthFine dFdxCoarse dFdyCoarse fwidthCoarse", "T T", cF, szGen, "GL_NV_compute_shader_derivatives", "GL_KHR_compute_shader_derivatives")
}

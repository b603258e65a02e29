package vk

// A tiny SPIR-V encoder for tests, independent of the project's assembler.

type words []uint32

func (w *words) op(code uint32, ops ...uint32) {
	*w = append(*w, uint32(len(ops)+1)<<16|code)
	*w = append(*w, ops...)
}

// str encodes a literal string as SPIR-V words.
func str(s string) []uint32 {
	b := append([]byte(s), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
	}
	return out
}

func cat(parts ...[]uint32) []uint32 {
	var out []uint32
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// SPIR-V numbers used below (from the SPIR-V specification).
const (
	sOpExtension      = 10
	sOpMemoryModel    = 14
	sOpEntryPoint     = 15
	sOpCapability     = 17
	sOpTypeVoid       = 19
	sOpTypeInt        = 21
	sOpTypeVector     = 23
	sOpTypeRuntimeArr = 29
	sOpTypeStruct     = 30
	sOpTypePointer    = 32
	sOpTypeFunction   = 33
	sOpConstant       = 43
	sOpSpecConstant   = 50
	sOpSpecComposite  = 51
	sOpFunction       = 54
	sOpFunctionEnd    = 56
	sOpVariable       = 59
	sOpLoad           = 61
	sOpStore          = 62
	sOpAccessChain    = 65
	sOpDecorate       = 71
	sOpMemberDecorate = 72
	sOpCompositeExtr  = 81
	sOpIAdd           = 128
	sOpIMul           = 132
	sOpLabel          = 248
	sOpReturn         = 253

	scInput    = 1
	scPush     = 9
	scStorage  = 12
	scPhysical = 5349

	decSpecID      = 1
	decBlock       = 2
	decArrayStride = 6
	decBuiltIn     = 11
	decBinding     = 33
	decSet         = 34
	decOffset      = 35

	biWorkgroupSize = 25
	biGlobalID      = 28

	capShader   = 1
	capPhysical = 5347
	maAligned   = 2
)

// doubleAddModule computes, for i = gl_GlobalInvocationID.x,
//
//	out[i] = in[i]*2 + pc.add + pc.ptr.data[0]
//	pc.ptr.data[i+1] = in[i]
//
// with in at set 0 binding 0, out at binding 1, push constants
// {uint add; uint pad; PhysicalStorageBuffer pointer ptr} and the local
// size x taken from specialization constant 0.
func doubleAddModule() []uint32 {
	const (
		tVoid, tFn, tU32, tV3, tPInV3, vGID     = 1, 2, 3, 4, 5, 6
		tArr, tBuf, tPSBBuf, vIn, vOut          = 7, 8, 9, 10, 11
		tPPhysBuf, tPC, tPPC, vPC               = 13, 14, 15, 16
		tPPCu, tPPCptr, tPSBu, tPPhysU, tI32    = 17, 18, 19, 20, 21
		cI0, cI2, cU2, cU1, cWGX, cWG           = 22, 23, 24, 25, 26, 27
		fMain, lbl, gid, x, pin, in, dbl, ppAdd = 28, 29, 30, 31, 32, 33, 34, 35
		add, s1, ppPtr, ptr, pd0, d0, s2, pout  = 36, 37, 38, 39, 40, 41, 42, 43
		x1, pdx, bound                          = 44, 45, 46
	)
	var w words
	w = append(w, spirvMagic, 0x00010500, 0, bound, 0)
	w.op(sOpCapability, capShader)
	w.op(sOpCapability, capPhysical)
	w.op(sOpMemoryModel, 5348, 1) // PhysicalStorageBuffer64, GLSL450
	w.op(sOpEntryPoint, cat([]uint32{execGLCompute, fMain}, str("main"), []uint32{vGID, vIn, vOut, vPC})...)
	w.op(sOpDecorate, vGID, decBuiltIn, biGlobalID)
	w.op(sOpDecorate, tArr, decArrayStride, 4)
	w.op(sOpDecorate, tBuf, decBlock)
	w.op(sOpMemberDecorate, tBuf, 0, decOffset, 0)
	w.op(sOpDecorate, vIn, decSet, 0)
	w.op(sOpDecorate, vIn, decBinding, 0)
	w.op(sOpDecorate, vOut, decSet, 0)
	w.op(sOpDecorate, vOut, decBinding, 1)
	w.op(sOpDecorate, tPC, decBlock)
	w.op(sOpMemberDecorate, tPC, 0, decOffset, 0)
	w.op(sOpMemberDecorate, tPC, 1, decOffset, 4)
	w.op(sOpMemberDecorate, tPC, 2, decOffset, 8)
	w.op(sOpDecorate, cWGX, decSpecID, 0)
	w.op(sOpDecorate, cWG, decBuiltIn, biWorkgroupSize)
	w.op(sOpTypeVoid, tVoid)
	w.op(sOpTypeFunction, tFn, tVoid)
	w.op(sOpTypeInt, tU32, 32, 0)
	w.op(sOpTypeInt, tI32, 32, 1)
	w.op(sOpTypeVector, tV3, tU32, 3)
	w.op(sOpTypePointer, tPInV3, scInput, tV3)
	w.op(sOpVariable, tPInV3, vGID, scInput)
	w.op(sOpTypeRuntimeArr, tArr, tU32)
	w.op(sOpTypeStruct, tBuf, tArr)
	w.op(sOpTypePointer, tPSBBuf, scStorage, tBuf)
	w.op(sOpVariable, tPSBBuf, vIn, scStorage)
	w.op(sOpVariable, tPSBBuf, vOut, scStorage)
	w.op(sOpTypePointer, tPPhysBuf, scPhysical, tBuf)
	w.op(sOpTypeStruct, tPC, tU32, tU32, tPPhysBuf)
	w.op(sOpTypePointer, tPPC, scPush, tPC)
	w.op(sOpVariable, tPPC, vPC, scPush)
	w.op(sOpTypePointer, tPPCu, scPush, tU32)
	w.op(sOpTypePointer, tPPCptr, scPush, tPPhysBuf)
	w.op(sOpTypePointer, tPSBu, scStorage, tU32)
	w.op(sOpTypePointer, tPPhysU, scPhysical, tU32)
	w.op(sOpConstant, tI32, cI0, 0)
	w.op(sOpConstant, tI32, cI2, 2)
	w.op(sOpConstant, tU32, cU2, 2)
	w.op(sOpConstant, tU32, cU1, 1)
	w.op(sOpSpecConstant, tU32, cWGX, 1)
	w.op(sOpSpecComposite, tV3, cWG, cWGX, cU1, cU1)
	w.op(sOpFunction, tVoid, fMain, 0, tFn)
	w.op(sOpLabel, lbl)
	w.op(sOpLoad, tV3, gid, vGID)
	w.op(sOpCompositeExtr, tU32, x, gid, 0)
	w.op(sOpAccessChain, tPSBu, pin, vIn, cI0, x)
	w.op(sOpLoad, tU32, in, pin)
	w.op(sOpIMul, tU32, dbl, in, cU2)
	w.op(sOpAccessChain, tPPCu, ppAdd, vPC, cI0)
	w.op(sOpLoad, tU32, add, ppAdd)
	w.op(sOpIAdd, tU32, s1, dbl, add)
	w.op(sOpAccessChain, tPPCptr, ppPtr, vPC, cI2)
	w.op(sOpLoad, tPPhysBuf, ptr, ppPtr)
	w.op(sOpAccessChain, tPPhysU, pd0, ptr, cI0, cI0)
	w.op(sOpLoad, tU32, d0, pd0, maAligned, 4)
	w.op(sOpIAdd, tU32, s2, s1, d0)
	w.op(sOpAccessChain, tPSBu, pout, vOut, cI0, x)
	w.op(sOpStore, pout, s2)
	w.op(sOpIAdd, tU32, x1, x, cU1)
	w.op(sOpAccessChain, tPPhysU, pdx, ptr, cI0, x1)
	w.op(sOpStore, pdx, in, maAligned, 4)
	w.op(sOpReturn)
	w.op(sOpFunctionEnd)
	return w
}

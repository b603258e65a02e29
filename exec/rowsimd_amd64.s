//go:build !purego

#include "textflag.h"

// AVX2 row kernels (rowsimd.go). A row holds one 64-bit slot per
// invocation, so a Y register holds four lanes; every kernel runs n lanes,
// n a multiple of 4, and leaves the tail to its scalar twin. A lane is
// read before it is written, so d may be a or b. Float kernels compute
// on the lanes' low halves, where a float32 or a half lives, and clear
// the high halves; what the operation does there does not matter.
//
// The binary kernels share one frame:
//	func(d, a, b *uint64, c, p, q, r uint64, n int)
// b nil: the second operand is c in every lane. p, q and r are the
// kernel's parameters, broadcast into Y12, Y11 and Y10. A body macro gets
// a in Y0 and b in Y1, leaves the result in Y0 and may use Y2-Y5; Y13
// holds c, Y14 the canonical float32 NaN in every dword, Y15 the low
// 32 bits of every lane, Y9 zero, Y8 one in every lane, Y7 halfbytes.

#define BINARY(BODY) \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ b+16(FP), DX; \
	MOVQ n+56(FP), CX; \
	VPBROADCASTQ c+24(FP), Y13; \
	VPBROADCASTQ p+32(FP), Y12; \
	VPBROADCASTQ q+40(FP), Y11; \
	VPBROADCASTQ r+48(FP), Y10; \
	MOVL $0x7fc00000, AX; \
	MOVQ AX, X14; \
	VPBROADCASTD X14, Y14; \
	VMOVDQU halfbytes<>(SB), Y7; \
	VPCMPEQQ Y15, Y15, Y15; \
	VPSRLQ $32, Y15, Y15; \
	VPXOR Y9, Y9, Y9; \
	VPCMPEQQ Y8, Y8, Y8; \
	VPSRLQ $63, Y8, Y8; \
	XORQ AX, AX; \
	TESTQ DX, DX; \
	JZ uniform; \
rows: \
	CMPQ AX, CX; \
	JAE done; \
	VMOVDQU (SI)(AX*8), Y0; \
	VMOVDQU (DX)(AX*8), Y1; \
	BODY; \
	VMOVDQU Y0, (DI)(AX*8); \
	ADDQ $4, AX; \
	JMP rows; \
uniform: \
	VMOVDQA Y13, Y1; \
loop: \
	CMPQ AX, CX; \
	JAE done; \
	VMOVDQU (SI)(AX*8), Y0; \
	BODY; \
	VMOVDQU Y0, (DI)(AX*8); \
	ADDQ $4, AX; \
	JMP loop; \
done: \
	VZEROUPPER; \
	RET

// NANFIX makes a NaN float32 in a lane's low half canonical and clears
// the high half (f32out).
#define NANFIX \
	VCMPPS $3, Y0, Y0, Y2; \
	VBLENDVPS Y2, Y14, Y0, Y0; \
	VPAND Y15, Y0, Y0

#define F32ADD VADDPS Y1, Y0, Y0; NANFIX
#define F32SUB VSUBPS Y1, Y0, Y0; NANFIX
#define F32MUL VMULPS Y1, Y0, Y0; NANFIX
#define F32DIV VDIVPS Y1, Y0, Y0; NANFIX

// GLSL.std.450 FMin and FMax as fpMin and fpMax pick: the other operand
// where one is NaN, the lesser (greater) where they differ, and where they
// are equal the bits of both or-ed (and-ed), which is -0 (+0) for zeros
// of either sign and the value itself otherwise; a NaN result is made
// canonical.
#define FMINMAX(PRED, JOIN) \
	VCMPPS $PRED, Y0, Y1, Y2; \
	VBLENDVPS Y2, Y1, Y0, Y3; \
	VCMPPS $0, Y1, Y0, Y4; \
	JOIN Y1, Y0, Y5; \
	VBLENDVPS Y4, Y5, Y3, Y3; \
	VCMPPS $3, Y0, Y0, Y4; \
	VBLENDVPS Y4, Y1, Y3, Y0; \
	NANFIX
#define FMIN FMINMAX(1, VPOR)
#define FMAX FMINMAX(0x0e, VPAND)

// WIDEN turns the halves in the low bits of R's lanes into float32s,
// exactly (NaNs stay NaNs): gathered (halfbytes, two in each 128 bits,
// then the two pairs side by side, through XT) and widened.
#define WIDEN(R, XR, XT) \
	VPSHUFB Y7, R, R; \
	VEXTRACTI128 $1, R, XT; \
	VPUNPCKLDQ XT, XR, XR; \
	VCVTPH2PS XR, XR; \
	VPMOVZXDQ XR, R
// NARROW rounds the float32s of Y0's lanes to halves, to nearest even,
// NaN p (in Y12); it uses Y2 and Y5.
#define NARROW \
	VCMPPS $3, Y0, Y0, Y2; \
	VPSHUFD $0x08, Y0, Y5; \
	VPERMQ $0x08, Y5, Y5; \
	VCVTPS2PH $0, X5, X5; \
	VPMOVZXWQ X5, Y5; \
	VPBLENDVB Y2, Y12, Y5, Y0

// Half arithmetic in float32, then rounded to a half: float32's 24 bits
// are at least twice a half's 11 and 2 more, so the two roundings of
// +, -, * and / give the correctly rounded half, as the scalar twin's
// float64 does; p is the half NaN.
#define F16BIN(OP) \
	VMOVDQA Y1, Y3; \
	WIDEN(Y0, X0, X4); \
	WIDEN(Y3, X3, X4); \
	OP Y3, Y0, Y0; \
	NARROW
#define F16ADD F16BIN(VADDPS)
#define F16SUB F16BIN(VSUBPS)
#define F16MUL F16BIN(VMULPS)
#define F16DIV F16BIN(VDIVPS)

// Booleans: a op b is not 0.
#define LAND VPAND Y1, Y0, Y0; VPCMPEQQ Y9, Y0, Y0; VPANDN Y8, Y0, Y0
#define LOR VPOR Y1, Y0, Y0; VPCMPEQQ Y9, Y0, Y0; VPANDN Y8, Y0, Y0

// Integer operations keep the result's width: p is its mask.
#define IADD VPADDQ Y1, Y0, Y0; VPAND Y12, Y0, Y0
#define ISUB VPSUBQ Y1, Y0, Y0; VPAND Y12, Y0, Y0
// The low 32 bits of a product depend on the factors' low 32 bits
// alone (p at most 32 bits).
#define IMUL VPMULLD Y1, Y0, Y0; VPAND Y12, Y0, Y0
#define IAND VPAND Y1, Y0, Y0; VPAND Y12, Y0, Y0
#define IOR VPOR Y1, Y0, Y0; VPAND Y12, Y0, Y0
#define IXOR VPXOR Y1, Y0, Y0; VPAND Y12, Y0, Y0
// Shifts: q masks the count.
#define ISHL VPAND Y11, Y1, Y2; VPSLLVQ Y2, Y0, Y0; VPAND Y12, Y0, Y0
#define ISHR VPAND Y11, Y1, Y2; VPSRLVQ Y2, Y0, Y0; VPAND Y12, Y0, Y0
// 32-bit arithmetic shift on the low halves (q = 31 leaves the high
// halves' counts 0).
#define ISAR VPAND Y11, Y1, Y2; VPSRAVD Y2, Y0, Y0; VPAND Y15, Y0, Y0

// Integer comparison: both operands shifted left by p (signed: the sign
// bit to the top) and xor q (unsigned: the top bit flipped) compare as
// signed 64-bit values; code 0 (less), 1 (equal) or 2 (greater) picks
// bit code of r.
#define ICMP \
	VPSLLVQ Y12, Y0, Y2; \
	VPXOR Y11, Y2, Y2; \
	VPSLLVQ Y12, Y1, Y3; \
	VPXOR Y11, Y3, Y3; \
	VPCMPEQQ Y3, Y2, Y4; \
	VPCMPGTQ Y3, Y2, Y5; \
	VPSUBQ Y4, Y9, Y4; \
	VPSUBQ Y5, Y4, Y4; \
	VPSUBQ Y5, Y4, Y4; \
	VPSRLVQ Y4, Y10, Y0; \
	VPAND Y8, Y0, Y0

// Float32 comparison on the low halves: code 0 (less), 1 (equal),
// 2 (greater) or 3 (unordered) picks bit code of r.
#define FCMP \
	VCMPPS $0, Y1, Y0, Y2; \
	VCMPPS $0x1e, Y1, Y0, Y3; \
	VCMPPS $3, Y1, Y0, Y4; \
	VPSUBD Y2, Y9, Y2; \
	VPSUBD Y3, Y2, Y2; \
	VPSUBD Y3, Y2, Y2; \
	VPSUBD Y4, Y2, Y2; \
	VPSUBD Y4, Y2, Y2; \
	VPSUBD Y4, Y2, Y2; \
	VPSRLVD Y2, Y10, Y0; \
	VPAND Y8, Y0, Y0

// The unary kernels share one frame:
//	func(d, a *uint64, p, q uint64, n int)
// p and q are broadcast into Y12 and Y11, Y7-Y9, Y14 and Y15 hold what
// they hold for the binary kernels, and Y6 holds 1.0 in every dword.
#define UNARY(BODY) \
	MOVQ d+0(FP), DI; \
	MOVQ a+8(FP), SI; \
	MOVQ n+32(FP), CX; \
	VPBROADCASTQ p+16(FP), Y12; \
	VPBROADCASTQ q+24(FP), Y11; \
	MOVL $0x7fc00000, AX; \
	MOVQ AX, X14; \
	VPBROADCASTD X14, Y14; \
	VMOVDQU halfbytes<>(SB), Y7; \
	VPCMPEQQ Y15, Y15, Y15; \
	VPSRLQ $32, Y15, Y15; \
	VPXOR Y9, Y9, Y9; \
	VPCMPEQQ Y8, Y8, Y8; \
	VPSRLQ $63, Y8, Y8; \
	MOVL $0x3f800000, AX; \
	MOVQ AX, X6; \
	VPBROADCASTD X6, Y6; \
	XORQ AX, AX; \
loop: \
	CMPQ AX, CX; \
	JAE done; \
	VMOVDQU (SI)(AX*8), Y0; \
	BODY; \
	VMOVDQU Y0, (DI)(AX*8); \
	ADDQ $4, AX; \
	JMP loop; \
done: \
	VZEROUPPER; \
	RET

// (a xor p) and q: UConvert, Not, FNegate, LogicalNot.
#define XORAND VPXOR Y12, Y0, Y0; VPAND Y11, Y0, Y0
// (0 - a) and q: SNegate.
#define NEGAND VPSUBQ Y0, Y9, Y0; VPAND Y11, Y0, Y0
// float32 to uint32 toward zero, saturating, NaN 0 (fToInt): below 1
// (and NaN) 0; from p (2^31) on, the conversion of x - 2^31 (exact
// there) with the top bit set; from q (2^32) on, all ones. Y6 holds 1.0.
#define F2U \
	VCVTTPS2DQ Y0, Y2; \
	VSUBPS Y12, Y0, Y3; \
	VCVTTPS2DQ Y3, Y3; \
	VPSLLQ $31, Y8, Y4; \
	VPXOR Y4, Y3, Y3; \
	VCMPPS $0x1d, Y12, Y0, Y4; \
	VBLENDVPS Y4, Y3, Y2, Y2; \
	VCMPPS $0x1d, Y11, Y0, Y4; \
	VPOR Y4, Y2, Y2; \
	VCMPPS $9, Y6, Y0, Y4; \
	VPANDN Y2, Y4, Y2; \
	VPAND Y15, Y2, Y0
#define H2F WIDEN(Y0, X0, X1); NANFIX
#define F2H NARROW
// sign extension of the low 32-p bits (p in Y12), masked by q: the low
// halves shifted up and arithmetically down, their signs copied into the
// high halves.
#define SEXT \
	VPSLLVD Y12, Y0, Y0; \
	VPSRAVD Y12, Y0, Y0; \
	VPSRAD $31, Y0, Y2; \
	VPSHUFD $0xa0, Y2, Y2; \
	VPBLENDD $0xaa, Y2, Y0, Y0; \
	VPAND Y11, Y0, Y0
// float32 to int32 toward zero, saturating, NaN 0 (fToInt): VCVTTPS2DQ
// gives 0x80000000 to NaNs and to values out of range either side; those
// at or above p (2^31) take q (0x7fffffff), NaNs 0.
#define F2S \
	VCVTTPS2DQ Y0, Y2; \
	VCMPPS $0x1d, Y12, Y0, Y3; \
	VBLENDVPS Y3, Y11, Y2, Y2; \
	VCMPPS $3, Y0, Y0, Y3; \
	VPANDN Y2, Y3, Y2; \
	VPAND Y15, Y2, Y0
// int32 to float32, rounded as MXCSR says (to nearest even: Go's
// default, which the scalar conversion uses too).
#define STOF VCVTDQ2PS Y0, Y0; VPAND Y15, Y0, Y0

TEXT ·vkF32Add(SB), NOSPLIT, $0-64
	BINARY(F32ADD)

TEXT ·vkF32Sub(SB), NOSPLIT, $0-64
	BINARY(F32SUB)

TEXT ·vkF32Mul(SB), NOSPLIT, $0-64
	BINARY(F32MUL)

TEXT ·vkF32Div(SB), NOSPLIT, $0-64
	BINARY(F32DIV)

TEXT ·vkF32Min(SB), NOSPLIT, $0-64
	BINARY(FMIN)

TEXT ·vkF32Max(SB), NOSPLIT, $0-64
	BINARY(FMAX)

TEXT ·vkF16Add(SB), NOSPLIT, $0-64
	BINARY(F16ADD)

TEXT ·vkF16Sub(SB), NOSPLIT, $0-64
	BINARY(F16SUB)

TEXT ·vkF16Mul(SB), NOSPLIT, $0-64
	BINARY(F16MUL)

TEXT ·vkF16Div(SB), NOSPLIT, $0-64
	BINARY(F16DIV)

TEXT ·vkLAnd(SB), NOSPLIT, $0-64
	BINARY(LAND)

TEXT ·vkLOr(SB), NOSPLIT, $0-64
	BINARY(LOR)

TEXT ·vkIAdd(SB), NOSPLIT, $0-64
	BINARY(IADD)

TEXT ·vkISub(SB), NOSPLIT, $0-64
	BINARY(ISUB)

TEXT ·vkIMul(SB), NOSPLIT, $0-64
	BINARY(IMUL)

TEXT ·vkAnd(SB), NOSPLIT, $0-64
	BINARY(IAND)

TEXT ·vkOr(SB), NOSPLIT, $0-64
	BINARY(IOR)

TEXT ·vkXor(SB), NOSPLIT, $0-64
	BINARY(IXOR)

TEXT ·vkShl(SB), NOSPLIT, $0-64
	BINARY(ISHL)

TEXT ·vkShr(SB), NOSPLIT, $0-64
	BINARY(ISHR)

TEXT ·vkSar32(SB), NOSPLIT, $0-64
	BINARY(ISAR)

TEXT ·vkICmp(SB), NOSPLIT, $0-64
	BINARY(ICMP)

TEXT ·vkFCmp(SB), NOSPLIT, $0-64
	BINARY(FCMP)

// func vkSelect(d, c, a, b *uint64, n int)
// d = a where c is not 0, b where it is.
TEXT ·vkSelect(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ c+8(FP), R8
	MOVQ a+16(FP), SI
	MOVQ b+24(FP), DX
	MOVQ n+32(FP), CX
	VPXOR Y9, Y9, Y9
	XORQ AX, AX
sel:
	CMPQ AX, CX
	JAE  seldone
	VMOVDQU (R8)(AX*8), Y0
	VPCMPEQQ Y9, Y0, Y0
	VMOVDQU (SI)(AX*8), Y1
	VPBLENDVB Y0, (DX)(AX*8), Y1, Y2
	VMOVDQU Y2, (DI)(AX*8)
	ADDQ $4, AX
	JMP  sel
seldone:
	VZEROUPPER
	RET

TEXT ·vkXorAnd(SB), NOSPLIT, $0-40
	UNARY(XORAND)

TEXT ·vkNegAnd(SB), NOSPLIT, $0-40
	UNARY(NEGAND)

TEXT ·vkSToF32(SB), NOSPLIT, $0-40
	UNARY(STOF)

TEXT ·vkSExt(SB), NOSPLIT, $0-40
	UNARY(SEXT)

TEXT ·vkF2S32(SB), NOSPLIT, $0-40
	UNARY(F2S)

TEXT ·vkF2U32(SB), NOSPLIT, $0-40
	UNARY(F2U)

TEXT ·vkH2F(SB), NOSPLIT, $0-40
	UNARY(H2F)

TEXT ·vkF2H(SB), NOSPLIT, $0-40
	UNARY(F2H)

// halfbytes picks, in each 128 bits, the low two bytes of both lanes.
DATA halfbytes<>+0(SB)/8, $0x8080808009080100
DATA halfbytes<>+8(SB)/8, $0x8080808080808080
DATA halfbytes<>+16(SB)/8, $0x8080808009080100
DATA halfbytes<>+24(SB)/8, $0x8080808080808080
GLOBL halfbytes<>(SB), RODATA|NOPTR, $32

// func vkUToF32(d, a *uint64, n int) int
// uint32 to float32 as the sum of its high 16 bits times 2^16 and its low
// 16 bits, both exact, rounded once by the addition (to nearest even, as
// MXCSR says and the scalar conversion does); it stops at the first four
// lanes with bits above their low 32 and returns how many it converted.
TEXT ·vkUToF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ n+16(FP), CX
	VPCMPEQQ Y15, Y15, Y15
	VPSRLQ $32, Y15, Y15
	VPCMPEQQ Y14, Y14, Y14
	VPXOR Y15, Y14, Y14
	VPSRLD $16, Y15, Y12
	MOVL $0x47800000, AX
	MOVQ AX, X13
	VPBROADCASTD X13, Y13
	XORQ AX, AX
utof:
	CMPQ AX, CX
	JAE  utofdone
	VMOVDQU (SI)(AX*8), Y0
	VPTEST Y14, Y0
	JNZ  utofdone
	VPSRLD $16, Y0, Y1
	VCVTDQ2PS Y1, Y1
	VMULPS Y13, Y1, Y1
	VPAND Y12, Y0, Y2
	VCVTDQ2PS Y2, Y2
	VADDPS Y2, Y1, Y0
	VPAND Y15, Y0, Y0
	VMOVDQU Y0, (DI)(AX*8)
	ADDQ $4, AX
	JMP  utof
utofdone:
	MOVQ AX, ret+24(FP)
	VZEROUPPER
	RET

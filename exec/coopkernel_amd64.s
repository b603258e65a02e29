//go:build !purego

#include "textflag.h"

// func cpuFeatures() (avx, avx2f16c bool)
// AVX in the processor (CPUID.1:ECX bits 27 OSXSAVE and 28 AVX) with the
// YMM state enabled by the OS (XCR0 bits 1 and 2); then F16C (CPUID.1:ECX
// bit 29) and AVX2 (CPUID.7.0:EBX bit 5).
TEXT ·cpuFeatures(SB), NOSPLIT, $0-2
	MOVB $0, avx+0(FP)
	MOVB $0, avx2f16c+1(FP)
	MOVL $1, AX
	XORL CX, CX
	CPUID
	MOVL CX, R8
	ANDL $0x18000000, CX
	CMPL CX, $0x18000000
	JNE  done
	XORL CX, CX
	XGETBV
	ANDL $6, AX
	CMPL AX, $6
	JNE  done
	MOVB $1, avx+0(FP)
	ANDL $0x20000000, R8
	JZ   done
	MOVL $7, AX
	XORL CX, CX
	CPUID
	ANDL $0x20, BX
	JZ   done
	MOVB $1, avx2f16c+1(FP)
done:
	RET

// func halvesF16C(src *byte, raw *uint64, f *float32, n int)
// Reads n (a multiple of 8) little-endian halves: their bits into raw and
// their values into f (VCVTPH2PS widens exactly).
TEXT ·halvesF16C(SB), NOSPLIT, $0-32
	MOVQ src+0(FP), SI
	MOVQ raw+8(FP), DI
	MOVQ f+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JZ   hdone
hloop:
	VMOVDQU (SI), X0
	VCVTPH2PS X0, Y1
	VMOVUPS Y1, (DX)
	VPMOVZXWQ (SI), Y2
	VPMOVZXWQ 8(SI), Y3
	VMOVDQU Y2, (DI)
	VMOVDQU Y3, 32(DI)
	ADDQ $16, SI
	ADDQ $64, DI
	ADDQ $32, DX
	DECQ CX
	JNZ  hloop
	VZEROUPPER
hdone:
	RET

// func halvesF16CRows(src *byte, ls int, raw *uint64, f *float32, rows, cols int)
// halvesF16C for rows rows of cols (a multiple of 8) halves each, ls
// bytes apart in src and packed in raw and f.
TEXT ·halvesF16CRows(SB), NOSPLIT, $0-48
	MOVQ src+0(FP), SI
	MOVQ ls+8(FP), R8
	MOVQ raw+16(FP), DI
	MOVQ f+24(FP), DX
	MOVQ rows+32(FP), BX
	MOVQ cols+40(FP), R9
	SHRQ $3, R9
	JZ   rdone
	TESTQ BX, BX
	JZ   rdone
rrow:
	MOVQ SI, R10
	MOVQ R9, CX
rloop:
	VMOVDQU (R10), X0
	VCVTPH2PS X0, Y1
	VMOVUPS Y1, (DX)
	VPMOVZXWQ (R10), Y2
	VPMOVZXWQ 8(R10), Y3
	VMOVDQU Y2, (DI)
	VMOVDQU Y3, 32(DI)
	ADDQ $16, R10
	ADDQ $64, DI
	ADDQ $32, DX
	DECQ CX
	JNZ  rloop
	ADDQ R8, SI
	DECQ BX
	JNZ  rrow
	VZEROUPPER
rdone:
	RET

// func halvesF16CValues(src *byte, ls int, f *float32, rows, cols int) (nan bool)
// halvesF16CRows without the bits: values only, and whether any is a NaN
// (whose payload the bits alone keep).
TEXT ·halvesF16CValues(SB), NOSPLIT, $0-41
	MOVQ src+0(FP), SI
	MOVQ ls+8(FP), R8
	MOVQ f+16(FP), DX
	MOVQ rows+24(FP), BX
	MOVQ cols+32(FP), R9
	VXORPS Y5, Y5, Y5
	SHRQ $3, R9
	JZ   vdone
	TESTQ BX, BX
	JZ   vdone
vrow:
	MOVQ SI, R10
	MOVQ R9, CX
vloop:
	VCVTPH2PS (R10), Y1
	VMOVUPS Y1, (DX)
	VCMPPS $3, Y1, Y1, Y2
	VORPS Y2, Y5, Y5
	ADDQ $16, R10
	ADDQ $32, DX
	DECQ CX
	JNZ  vloop
	ADDQ R8, SI
	DECQ BX
	JNZ  vrow
vdone:
	VMOVMSKPS Y5, AX
	VZEROUPPER
	TESTL AX, AX
	SETNE nan+40(FP)
	RET

// func kernF32x4x16(a *float32, lda int, b *float32, ldb int, c *float32, d *float32, ldc int, k int)
// d[r][0:16] = c[r][0:16] + a[r][t] * b[t][0:16] for r in 0..3, t in
// 0..k-1 in increasing t: each product rounded (exact for the narrow
// inputs the callers pass), then added and rounded, as the scalar loop
// does. c and d have the same layout; they may be the same.
TEXT ·kernF32x4x16(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R8
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R9
	MOVQ c+32(FP), DX
	MOVQ ldc+48(FP), R10
	MOVQ k+56(FP), CX
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	MOVQ DX, R11
	VMOVUPS (R11), Y0
	VMOVUPS 32(R11), Y1
	ADDQ R10, R11
	VMOVUPS (R11), Y2
	VMOVUPS 32(R11), Y3
	ADDQ R10, R11
	VMOVUPS (R11), Y4
	VMOVUPS 32(R11), Y5
	ADDQ R10, R11
	VMOVUPS (R11), Y6
	VMOVUPS 32(R11), Y7
	LEAQ (SI)(R8*1), R12
	LEAQ (R12)(R8*1), R13
	LEAQ (R13)(R8*1), R14
	XORQ AX, AX // t: the rows of a are read at t*4
loop16:
	VMOVUPS (DI), Y8
	VMOVUPS 32(DI), Y9
	VBROADCASTSS (SI)(AX*4), Y10
	VMULPS Y8, Y10, Y11
	VADDPS Y11, Y0, Y0
	VMULPS Y9, Y10, Y12
	VADDPS Y12, Y1, Y1
	VBROADCASTSS (R12)(AX*4), Y10
	VMULPS Y8, Y10, Y11
	VADDPS Y11, Y2, Y2
	VMULPS Y9, Y10, Y12
	VADDPS Y12, Y3, Y3
	VBROADCASTSS (R13)(AX*4), Y10
	VMULPS Y8, Y10, Y11
	VADDPS Y11, Y4, Y4
	VMULPS Y9, Y10, Y12
	VADDPS Y12, Y5, Y5
	VBROADCASTSS (R14)(AX*4), Y10
	VMULPS Y8, Y10, Y11
	VADDPS Y11, Y6, Y6
	VMULPS Y9, Y10, Y12
	VADDPS Y12, Y7, Y7
	INCQ AX
	ADDQ R9, DI
	CMPQ AX, CX
	JLT  loop16
	MOVQ d+40(FP), R11
	VMOVUPS Y0, (R11)
	VMOVUPS Y1, 32(R11)
	ADDQ R10, R11
	VMOVUPS Y2, (R11)
	VMOVUPS Y3, 32(R11)
	ADDQ R10, R11
	VMOVUPS Y4, (R11)
	VMOVUPS Y5, 32(R11)
	ADDQ R10, R11
	VMOVUPS Y6, (R11)
	VMOVUPS Y7, 32(R11)
	VZEROUPPER
	RET

// func kernF32x4x8(a *float32, lda int, b *float32, ldb int, c *float32, d *float32, ldc int, k int)
// kernF32x4x16 for 8 columns.
TEXT ·kernF32x4x8(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R8
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R9
	MOVQ c+32(FP), DX
	MOVQ ldc+48(FP), R10
	MOVQ k+56(FP), CX
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	MOVQ DX, R11
	VMOVUPS (R11), Y0
	ADDQ R10, R11
	VMOVUPS (R11), Y2
	ADDQ R10, R11
	VMOVUPS (R11), Y4
	ADDQ R10, R11
	VMOVUPS (R11), Y6
	LEAQ (SI)(R8*1), R12
	LEAQ (R12)(R8*1), R13
	LEAQ (R13)(R8*1), R14
loop8:
	VMOVUPS (DI), Y8
	VBROADCASTSS (SI), Y10
	VMULPS Y8, Y10, Y11
	VADDPS Y11, Y0, Y0
	VBROADCASTSS (R12), Y10
	VMULPS Y8, Y10, Y11
	VADDPS Y11, Y2, Y2
	VBROADCASTSS (R13), Y10
	VMULPS Y8, Y10, Y11
	VADDPS Y11, Y4, Y4
	VBROADCASTSS (R14), Y10
	VMULPS Y8, Y10, Y11
	VADDPS Y11, Y6, Y6
	ADDQ $4, SI
	ADDQ $4, R12
	ADDQ $4, R13
	ADDQ $4, R14
	ADDQ R9, DI
	DECQ CX
	JNZ  loop8
	MOVQ d+40(FP), R11
	VMOVUPS Y0, (R11)
	ADDQ R10, R11
	VMOVUPS Y2, (R11)
	ADDQ R10, R11
	VMOVUPS Y4, (R11)
	ADDQ R10, R11
	VMOVUPS Y6, (R11)
	VZEROUPPER
	RET

// func f16AccRows(acc *float64, a *float64, b *float64, ldb int, k int, n int)
// For t in 0..k-1 in increasing t, and j in 0..n-1 (n a multiple of 4):
// acc[j] = roundF16(acc[j] + a[t]*b[t*ldb+j]) in float64 (VMULPD then
// VADDPD, each rounded as Go's float64 arithmetic is; never fused), then
// rounded to the nearest half as roundF16 does: normal halves on the
// bits, values below 2^-14 by adding and taking away 1.5*2^28 (with the
// sign put back), values from 2^16 on (and rounded results past 65504) to
// infinity, NaNs kept.
TEXT ·f16AccRows(SB), NOSPLIT, $0-48
	MOVQ acc+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ ldb+24(FP), R8
	SHLQ $3, R8
	MOVQ k+32(FP), CX
	MOVQ n+40(FP), R9
	SHRQ $2, R9
	TESTQ CX, CX
	JZ   fdone
	TESTQ R9, R9
	JZ   fdone
	MOVQ $0x1ffffffffff, AX
	MOVQ AX, X15
	VPBROADCASTQ X15, Y15 // rounding bias: 2^41-1
	MOVQ $0xfffffc0000000000, AX
	MOVQ AX, X14
	VPBROADCASTQ X14, Y14 // clears the 42 bits rounded away
	MOVQ $0x40effc0000000000, AX
	MOVQ AX, X13
	VPBROADCASTQ X13, Y13 // 65504
	MOVQ $1008, AX
	MOVQ AX, X12
	VPBROADCASTQ X12, Y12 // biased exponent of 2^-15
	MOVQ $1038, AX
	MOVQ AX, X11
	VPBROADCASTQ X11, Y11 // biased exponent of 2^15
	MOVQ $0x41b8000000000000, AX
	MOVQ AX, X10
	VPBROADCASTQ X10, Y10 // 1.5*2^28
	MOVQ $0x8000000000000000, AX
	MOVQ AX, X9
	VPBROADCASTQ X9, Y9 // sign
	MOVQ $0x7ff0000000000000, AX
	MOVQ AX, X8
	VPBROADCASTQ X8, Y8 // infinity
ftloop:
	VBROADCASTSD (SI), Y0
	MOVQ DI, R10
	MOVQ DX, R11
	MOVQ R9, BX
fjloop:
	VMULPD (R11), Y0, Y1
	VMOVUPD (R10), Y2
	VADDPD Y1, Y2, Y2     // v = acc + product
	VPAND Y9, Y2, Y4      // its sign
	VPSLLQ $1, Y2, Y3
	VPSRLQ $53, Y3, Y3    // its biased exponent
	VPSLLQ $21, Y2, Y1
	VPSRLQ $63, Y1, Y1    // bit 42, the last one kept
	VPADDQ Y15, Y1, Y1
	VPADDQ Y2, Y1, Y1
	VPAND Y14, Y1, Y1     // normal halves rounded
	VPANDN Y1, Y9, Y5
	VPCMPGTQ Y13, Y5, Y5  // past 65504
	VPOR Y8, Y4, Y6       // infinity of v's sign
	VBLENDVPD Y5, Y6, Y1, Y1
	VCMPPD $3, Y2, Y2, Y5 // v is NaN
	VBLENDVPD Y5, Y2, Y6, Y6
	VPCMPGTQ Y11, Y3, Y5  // v at least 2^16
	VBLENDVPD Y5, Y6, Y1, Y1
	VADDPD Y10, Y2, Y6
	VSUBPD Y10, Y6, Y6
	VPOR Y4, Y6, Y6       // below 2^-14: to a multiple of 2^-24
	VPCMPGTQ Y12, Y3, Y5  // at least 2^-14
	VBLENDVPD Y5, Y1, Y6, Y1
	VMOVUPD Y1, (R10)
	ADDQ $32, R10
	ADDQ $32, R11
	DECQ BX
	JNZ  fjloop
	ADDQ $8, SI
	ADDQ R8, DX
	DECQ CX
	JNZ  ftloop
	VZEROUPPER
fdone:
	RET

// func kernI32x4x8(a *int32, lda int, b *int32, ldb int, c *int32, ldc int, k int)
// c[r][0:8] += a[r][t] * b[t][0:8] for r in 0..3, t in 0..k-1, in 32-bit
// arithmetic that wraps (VPMULLD keeps a product's low 32 bits).
TEXT ·kernI32x4x8(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R8
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R9
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R10
	MOVQ k+48(FP), CX
	SHLQ $2, R8
	SHLQ $2, R9
	SHLQ $2, R10
	MOVQ DX, R11
	VMOVDQU (R11), Y0
	ADDQ R10, R11
	VMOVDQU (R11), Y2
	ADDQ R10, R11
	VMOVDQU (R11), Y4
	ADDQ R10, R11
	VMOVDQU (R11), Y6
	LEAQ (SI)(R8*1), R12
	LEAQ (R12)(R8*1), R13
	LEAQ (R13)(R8*1), R14
	TESTQ CX, CX
	JZ   istore
iloop:
	VMOVDQU (DI), Y8
	VPBROADCASTD (SI), Y10
	VPMULLD Y8, Y10, Y11
	VPADDD Y11, Y0, Y0
	VPBROADCASTD (R12), Y10
	VPMULLD Y8, Y10, Y11
	VPADDD Y11, Y2, Y2
	VPBROADCASTD (R13), Y10
	VPMULLD Y8, Y10, Y11
	VPADDD Y11, Y4, Y4
	VPBROADCASTD (R14), Y10
	VPMULLD Y8, Y10, Y11
	VPADDD Y11, Y6, Y6
	ADDQ $4, SI
	ADDQ $4, R12
	ADDQ $4, R13
	ADDQ $4, R14
	ADDQ R9, DI
	DECQ CX
	JNZ  iloop
istore:
	MOVQ DX, R11
	VMOVDQU Y0, (R11)
	ADDQ R10, R11
	VMOVDQU Y2, (R11)
	ADDQ R10, R11
	VMOVDQU Y4, (R11)
	ADDQ R10, R11
	VMOVDQU Y6, (R11)
	VZEROUPPER
	RET

// func f32AccRows(acc *float64, a *float64, b *float64, ldb int, k int, n int)
// f16AccRows for float32 results: acc[j] = float64(float32(acc[j] +
// a[t]*b[t*ldb+j])), the sum in float64 then rounded to float32 to
// nearest even (VCVTPD2PS, as Go's conversion), in increasing t.
TEXT ·f32AccRows(SB), NOSPLIT, $0-48
	MOVQ acc+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ ldb+24(FP), R8
	SHLQ $3, R8
	MOVQ k+32(FP), CX
	MOVQ n+40(FP), R9
	SHRQ $2, R9
	TESTQ CX, CX
	JZ   gdone
	TESTQ R9, R9
	JZ   gdone
gtloop:
	VBROADCASTSD (SI), Y0
	MOVQ DI, R10
	MOVQ DX, R11
	MOVQ R9, BX
gjloop:
	VMULPD (R11), Y0, Y1
	VMOVUPD (R10), Y2
	VADDPD Y1, Y2, Y2
	VCVTPD2PSY Y2, X3
	VCVTPS2PD X3, Y3
	VMOVUPD Y3, (R10)
	ADDQ $32, R10
	ADDQ $32, R11
	DECQ BX
	JNZ  gjloop
	ADDQ $8, SI
	ADDQ R8, DX
	DECQ CX
	JNZ  gtloop
	VZEROUPPER
gdone:
	RET

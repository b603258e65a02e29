//go:build amd64 && !purego

#include "textflag.h"

// Strided gathers for loadRun (gather_amd64.go): d[i] = the zero-extended
// little-endian word at b + i*dx, for i < n. Plain loads four at a time,
// the addresses stepping by dx (which may be negative): no bounds checks,
// the caller having checked every address.

// func gather32(d *uint64, b *byte, dx, n int)
TEXT ·gather32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ dx+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ CX, R10
	SHRQ $2, CX
	JZ   tail32

loop32:
	MOVL (SI), AX
	ADDQ DX, SI
	MOVL (SI), BX
	ADDQ DX, SI
	MOVL (SI), R8
	ADDQ DX, SI
	MOVL (SI), R9
	ADDQ DX, SI
	MOVQ AX, (DI)
	MOVQ BX, 8(DI)
	MOVQ R8, 16(DI)
	MOVQ R9, 24(DI)
	ADDQ $32, DI
	DECQ CX
	JNZ  loop32

tail32:
	ANDQ $3, R10
	JZ   done32

one32:
	MOVL (SI), AX
	ADDQ DX, SI
	MOVQ AX, (DI)
	ADDQ $8, DI
	DECQ R10
	JNZ  one32

done32:
	RET

// func gather16(d *uint64, b *byte, dx, n int)
TEXT ·gather16(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ dx+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ CX, R10
	SHRQ $2, CX
	JZ   tail16

loop16:
	MOVWQZX (SI), AX
	ADDQ    DX, SI
	MOVWQZX (SI), BX
	ADDQ    DX, SI
	MOVWQZX (SI), R8
	ADDQ    DX, SI
	MOVWQZX (SI), R9
	ADDQ    DX, SI
	MOVQ    AX, (DI)
	MOVQ    BX, 8(DI)
	MOVQ    R8, 16(DI)
	MOVQ    R9, 24(DI)
	ADDQ    $32, DI
	DECQ    CX
	JNZ     loop16

tail16:
	ANDQ $3, R10
	JZ   done16

one16:
	MOVWQZX (SI), AX
	ADDQ    DX, SI
	MOVQ    AX, (DI)
	ADDQ    $8, DI
	DECQ    R10
	JNZ     one16

done16:
	RET

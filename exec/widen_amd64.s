//go:build amd64 && !purego

#include "textflag.h"

// func widen32AVX2(d *uint64, b *byte, n int)
// d[i] = zero-extended little-endian uint32 at b[4i:], for i < n (a
// multiple of 8).
TEXT ·widen32AVX2(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JZ   done

loop:
	VPMOVZXDQ (SI), Y0
	VPMOVZXDQ 16(SI), Y1
	VMOVDQU   Y0, (DI)
	VMOVDQU   Y1, 32(DI)
	ADDQ      $32, SI
	ADDQ      $64, DI
	DECQ      CX
	JNZ       loop
	VZEROUPPER

done:
	RET

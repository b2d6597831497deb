#include "textflag.h"

// func weighSparse16(acc *[16]float64, kf []float64, grp []int32, val []float64, g0 int)
//
// For each entry e in order: v = val[e], k = kf[(grp[e]-g0)*16:][:16],
// acc[r] += k[r]*v (VMULPD then VADDPD: each rounded, as in Go).
TEXT ·weighSparse16(SB), NOSPLIT, $0-88
	MOVQ acc+0(FP), DI
	MOVQ kf_base+8(FP), SI
	MOVQ grp_base+32(FP), R8
	MOVQ grp_len+40(FP), CX
	MOVQ val_base+56(FP), R9
	MOVQ g0+80(FP), R10
	VMOVUPD 0(DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD 64(DI), Y2
	VMOVUPD 96(DI), Y3
	XORQ AX, AX
	TESTQ CX, CX
	JEQ done

loop:
	MOVLQSX (R8)(AX*4), DX
	SUBQ R10, DX
	SHLQ $7, DX
	ADDQ SI, DX
	VBROADCASTSD (R9)(AX*8), Y4
	VMULPD 0(DX), Y4, Y5
	VMULPD 32(DX), Y4, Y6
	VMULPD 64(DX), Y4, Y7
	VMULPD 96(DX), Y4, Y8
	VADDPD Y5, Y0, Y0
	VADDPD Y6, Y1, Y1
	VADDPD Y7, Y2, Y2
	VADDPD Y8, Y3, Y3
	INCQ AX
	CMPQ AX, CX
	JLT loop

done:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VZEROUPPER
	RET

// func weighWords16(acc *[16]uint64, ki []uint64, p []uint64, W int)
//
// For each group b: v = p[b*W], acc[r] += ki[b*16+r]*v mod 2^64. The
// multiplicities are below 2^32, so k*v = k*lo(v) + (k*hi(v) << 32) mod
// 2^64, two VPMULUDQ (32 x 32 -> 64 bits) and a shift.
TEXT ·weighWords16(SB), NOSPLIT, $0-64
	MOVQ acc+0(FP), DI
	MOVQ ki_base+8(FP), SI
	MOVQ ki_len+16(FP), CX
	MOVQ p_base+32(FP), R8
	MOVQ W+56(FP), R9
	SHLQ $3, R9
	SHRQ $4, CX
	VMOVDQU 0(DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
	TESTQ CX, CX
	JEQ wdone

wloop:
	VPBROADCASTQ (R8), Y4
	VPSRLQ $32, Y4, Y5
	VMOVDQU 0(SI), Y6
	VPMULUDQ Y4, Y6, Y7
	VPMULUDQ Y5, Y6, Y8
	VPSLLQ $32, Y8, Y8
	VPADDQ Y7, Y0, Y0
	VPADDQ Y8, Y0, Y0
	VMOVDQU 32(SI), Y6
	VPMULUDQ Y4, Y6, Y7
	VPMULUDQ Y5, Y6, Y8
	VPSLLQ $32, Y8, Y8
	VPADDQ Y7, Y1, Y1
	VPADDQ Y8, Y1, Y1
	VMOVDQU 64(SI), Y6
	VPMULUDQ Y4, Y6, Y7
	VPMULUDQ Y5, Y6, Y8
	VPSLLQ $32, Y8, Y8
	VPADDQ Y7, Y2, Y2
	VPADDQ Y8, Y2, Y2
	VMOVDQU 96(SI), Y6
	VPMULUDQ Y4, Y6, Y7
	VPMULUDQ Y5, Y6, Y8
	VPSLLQ $32, Y8, Y8
	VPADDQ Y7, Y3, Y3
	VPADDQ Y8, Y3, Y3
	ADDQ $128, SI
	ADDQ R9, R8
	DECQ CX
	JNZ wloop

wdone:
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VZEROUPPER
	RET

// func axpyRows16(acc []float64, stride int, row []float64, k *[16]float64)
//
// For r < 16 with k[r] != 0: acc[r*stride+i] += k[r]*row[i] for
// i < len(row), four at a step (VMULPD then VADDPD, each rounded, as Go
// and gonum's axpy do), the last few one at a time.
TEXT ·axpyRows16(SB), NOSPLIT, $0-64
	MOVQ acc_base+0(FP), DI
	MOVQ stride+24(FP), R9
	SHLQ $3, R9
	MOVQ row_base+32(FP), SI
	MOVQ row_len+40(FP), CX
	MOVQ k+56(FP), R8
	MOVQ $16, R10
	VXORPD X1, X1, X1

frloop:
	VMOVSD (R8), X0
	VUCOMISD X1, X0
	JEQ frnext
	VBROADCASTSD (R8), Y0
	MOVQ DI, DX
	MOVQ SI, BX
	MOVQ CX, AX

fvloop:
	CMPQ AX, $4
	JLT ftail
	VMULPD (BX), Y0, Y2
	VADDPD (DX), Y2, Y2
	VMOVUPD Y2, (DX)
	ADDQ $32, BX
	ADDQ $32, DX
	SUBQ $4, AX
	JMP fvloop

ftail:
	TESTQ AX, AX
	JEQ frnext
	VMULSD (BX), X0, X2
	VADDSD (DX), X2, X2
	VMOVSD X2, (DX)
	ADDQ $8, BX
	ADDQ $8, DX
	DECQ AX
	JMP ftail

frnext:
	ADDQ $8, R8
	ADDQ R9, DI
	DECQ R10
	JNZ frloop
	VZEROUPPER
	RET

// func axpyWords16(acc []uint64, stride int, row []uint64, k *[16]uint64)
//
// For r < 16 with k[r] != 0: acc[r*stride+i] += k[r]*row[i] modulo 2^64
// for i < len(row); every k[r] is below 2^32 (see weighWords16).
TEXT ·axpyWords16(SB), NOSPLIT, $0-64
	MOVQ acc_base+0(FP), DI
	MOVQ stride+24(FP), R9
	SHLQ $3, R9
	MOVQ row_base+32(FP), SI
	MOVQ row_len+40(FP), CX
	MOVQ k+56(FP), R8
	MOVQ $16, R10

wrloop:
	MOVQ (R8), R11
	TESTQ R11, R11
	JEQ wrnext
	VPBROADCASTQ (R8), Y0
	MOVQ DI, DX
	MOVQ SI, BX
	MOVQ CX, AX

wvloop:
	CMPQ AX, $4
	JLT wtail
	VMOVDQU (BX), Y2
	VPSRLQ $32, Y2, Y3
	VPMULUDQ Y0, Y2, Y4
	VPMULUDQ Y0, Y3, Y5
	VPSLLQ $32, Y5, Y5
	VPADDQ Y5, Y4, Y4
	VPADDQ (DX), Y4, Y4
	VMOVDQU Y4, (DX)
	ADDQ $32, BX
	ADDQ $32, DX
	SUBQ $4, AX
	JMP wvloop

wtail:
	TESTQ AX, AX
	JEQ wrnext
	MOVQ (BX), R12
	IMULQ R11, R12
	ADDQ R12, (DX)
	ADDQ $8, BX
	ADDQ $8, DX
	DECQ AX
	JMP wtail

wrnext:
	ADDQ $8, R8
	ADDQ R9, DI
	DECQ R10
	JNZ wrloop
	VZEROUPPER
	RET

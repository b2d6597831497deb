#include "textflag.h"

// func cumulate(w []int32, idx []int32, dst []int64)
//
// dst[j] = w[idx[0]] + ... + w[idx[j]], four at a step.
TEXT ·cumulate(SB), NOSPLIT, $0-72
	MOVQ w_base+0(FP), SI
	MOVQ idx_base+24(FP), R8
	MOVQ idx_len+32(FP), CX
	MOVQ dst_base+48(FP), DI
	XORQ AX, AX
	XORQ BX, BX
	MOVQ CX, DX
	ANDQ $-4, DX
	JEQ tail

loop4:
	MOVLQSX 0(R8)(BX*4), R9
	MOVLQSX 4(R8)(BX*4), R10
	MOVLQSX 8(R8)(BX*4), R11
	MOVLQSX 12(R8)(BX*4), R12
	MOVLQSX (SI)(R9*4), R9
	MOVLQSX (SI)(R10*4), R10
	MOVLQSX (SI)(R11*4), R11
	MOVLQSX (SI)(R12*4), R12
	ADDQ R9, AX
	MOVQ AX, 0(DI)(BX*8)
	ADDQ R10, AX
	MOVQ AX, 8(DI)(BX*8)
	ADDQ R11, AX
	MOVQ AX, 16(DI)(BX*8)
	ADDQ R12, AX
	MOVQ AX, 24(DI)(BX*8)
	ADDQ $4, BX
	CMPQ BX, DX
	JLT loop4

tail:
	CMPQ BX, CX
	JGE done
	MOVLQSX 0(R8)(BX*4), R9
	MOVLQSX (SI)(R9*4), R9
	ADDQ R9, AX
	MOVQ AX, 0(DI)(BX*8)
	INCQ BX
	JMP tail

done:
	RET

//go:build amd64 && !purego

#include "textflag.h"

// func addRowsAsm(slots **cell, words **uint32, groups int, rows []int32, grad *gradPair)
//
// See addRowsGo for what it computes. Registers: DX the next row, CX the
// rows left, BX the gradient pairs, R12 the row; per row SI walks words
// (one pointer per group), DI walks slots (four pointers per group) and R8
// counts the groups; R9 points at a group's four bins, R11 and R13 are a
// bin's offset, R10 and AX its feature's slots, X0 the row's pair.
TEXT ·addRowsAsm(SB), NOSPLIT, $0-56
	MOVQ rows_base+24(FP), DX
	MOVQ rows_len+32(FP), CX
	MOVQ grad+48(FP), BX
	TESTQ CX, CX
	JZ done
row:
	MOVLQSX (DX), R12
	MOVQ R12, R11
	SHLQ $4, R11
	MOVUPD (BX)(R11*1), X0
	MOVQ slots+0(FP), DI
	MOVQ words+8(FP), SI
	MOVQ groups+16(FP), R8
group:
	MOVQ (SI), R9
	MOVL (R9)(R12*4), AX

	MOVBQZX AX, R11
	LEAQ (R11)(R11*2), R11
	MOVQ 0(DI), R10
	MOVUPD (R10)(R11*8), X1
	ADDPD X0, X1
	MOVUPD X1, (R10)(R11*8)
	INCQ 16(R10)(R11*8)

	MOVQ AX, R13
	SHRQ $8, R13
	MOVBQZX R13, R13
	LEAQ (R13)(R13*2), R13
	MOVQ 8(DI), R9
	MOVUPD (R9)(R13*8), X2
	ADDPD X0, X2
	MOVUPD X2, (R9)(R13*8)
	INCQ 16(R9)(R13*8)

	MOVQ AX, R11
	SHRQ $16, R11
	MOVBQZX R11, R11
	LEAQ (R11)(R11*2), R11
	MOVQ 16(DI), R10
	MOVUPD (R10)(R11*8), X3
	ADDPD X0, X3
	MOVUPD X3, (R10)(R11*8)
	INCQ 16(R10)(R11*8)

	SHRQ $24, AX
	LEAQ (AX)(AX*2), AX
	MOVQ 24(DI), R9
	MOVUPD (R9)(AX*8), X4
	ADDPD X0, X4
	MOVUPD X4, (R9)(AX*8)
	INCQ 16(R9)(AX*8)

	ADDQ $8, SI
	ADDQ $32, DI
	DECQ R8
	JNZ group

	ADDQ $4, DX
	DECQ CX
	JNZ row
done:
	RET

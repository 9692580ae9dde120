//go:build amd64 && !purego

#include "textflag.h"

#define prefetchDistance 16

// oneZero is the last two lanes, count and padding, that every row adds to
// a slot: 1.0 and 0.0.
DATA oneZero<>+0(SB)/8, $0x3ff0000000000000
DATA oneZero<>+8(SB)/8, $0x0000000000000000
GLOBL oneZero<>(SB), RODATA|NOPTR, $16

// func addRowsAVX(slots **cell, words **uint32, groups int, rows []int32, grad *gradPair, inOrder, fetch int)
//
// See addRowsGo for what it computes. A slot (a cell: g, h, n and
// padding) is one 256-bit vector, so each row adds to a slot with one
// load-add (VADDPD) and one store. Registers: DX the next row, CX the rows
// left, BX the gradient pairs (the row's own, moving on row by row,
// with inOrder 1), R12 the row, Y0 the row's vector (g, h, 1,
// 0), X5 (1, 0); per row SI walks words (one pointer per group), DI walks
// slots (four pointers per group) and R8 counts the groups; AX is a
// group's four bins, R11 and R13 a bin's offset, R9 and R10 its feature's
// slots.
TEXT ·addRowsAVX(SB), NOSPLIT, $0-72
	MOVQ rows_base+24(FP), DX
	MOVQ rows_len+32(FP), CX
	MOVQ grad+48(FP), BX
	VMOVUPD oneZero<>(SB), X5
	TESTQ CX, CX
	JZ done
row:
	MOVLQSX (DX), R12
	MOVQ R12, R11
	SHLQ $4, R11
	CMPQ inOrder+56(FP), $0
	JEQ pair
	XORQ R11, R11 // the pair is at BX, which moves on with the rows
pair:
	VMOVUPD (BX)(R11*1), X0
	VINSERTF128 $1, X5, Y0, Y0
	MOVQ slots+0(FP), DI
	MOVQ words+8(FP), SI
	MOVQ groups+16(FP), R8
	// With fetch 1, the row prefetchDistance rows ahead, whose bins each
	// group fetches into the cache now; R15 = -1 near the end of the rows
	// and with fetch 0.
	MOVQ $-1, R15
	CMPQ fetch+64(FP), $0
	JEQ group
	CMPQ CX, $prefetchDistance
	JLE group
	MOVLQSX (prefetchDistance*4)(DX), R15
group:
	MOVQ (SI), R9
	TESTQ R15, R15
	JS nofetch
	PREFETCHT0 (R9)(R15*4)
nofetch:
	MOVL (R9)(R12*4), AX

	MOVBQZX AX, R11
	SHLQ $5, R11
	MOVQ 0(DI), R10
	VADDPD (R10)(R11*1), Y0, Y1
	VMOVUPD Y1, (R10)(R11*1)

	MOVQ AX, R13
	SHRQ $8, R13
	MOVBQZX R13, R13
	SHLQ $5, R13
	MOVQ 8(DI), R9
	VADDPD (R9)(R13*1), Y0, Y2
	VMOVUPD Y2, (R9)(R13*1)

	MOVQ AX, R11
	SHRQ $16, R11
	MOVBQZX R11, R11
	SHLQ $5, R11
	MOVQ 16(DI), R10
	VADDPD (R10)(R11*1), Y0, Y3
	VMOVUPD Y3, (R10)(R11*1)

	SHRQ $24, AX
	SHLQ $5, AX
	MOVQ 24(DI), R9
	VADDPD (R9)(AX*1), Y0, Y4
	VMOVUPD Y4, (R9)(AX*1)

	ADDQ $8, SI
	ADDQ $32, DI
	DECQ R8
	JNZ group

	ADDQ $4, DX
	MOVQ inOrder+56(FP), R11
	SHLQ $4, R11
	ADDQ R11, BX
	DECQ CX
	JNZ row
	VZEROUPPER
done:
	RET


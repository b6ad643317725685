@ Unaligned access rules (A3.2): LDR/STR/LDRH/STRH may be unaligned unless
@ CCR.UNALIGN_TRP; LDRD/STRD/LDM/STM/LDREX always fault (UsageFault
@ UNALIGNED). The UsageFault handler checks CFSR, clears it and skips the
@ faulting 32-bit or 16-bit instruction.
#include "common.inc"
	.equ	SHCSR, 0xe000ed24
	.equ	CFSR, 0xe000ed28
	.equ	CCR, 0xe000ed14
	.text
	.thumb_func
reset:
	ldr	r0, =SHCSR
	mov	r1, #1 << 18		@ USGFAULTENA
	str	r1, [r0]
	ldr	r0, =buf
	ldr	r1, [r0, #1]		@ unaligned word load: fine
	CHECK	r1, 0x05040302, 1
	ldrh	r1, [r0, #3]
	CHECK	r1, 0x0504, 2
	ldrsh	r1, [r0, #7]
	CHECK	r1, 0xffff8908, 3
	ldr	r2, =0xaabbccdd
	str	r2, [r0, #9]
	ldr	r1, [r0, #8]
	CHECK	r1, 0xbbccdd89, 4
	@ always-aligned forms fault
	movs	r6, #0
	adds	r7, r0, #2
	ldrd	r2, r3, [r7]
	CHECK	r6, 1, 5
	ldm	r0!, {r2, r3}		@ aligned: no fault
	subs	r0, #7
	ldm.w	r0, {r2, r3}		@ unaligned: fault
	CHECK	r6, 2, 6
	ldrex	r2, [r0]
	CHECK	r6, 3, 7
	@ with UNALIGN_TRP even a plain LDR faults
	ldr	r4, =CCR
	ldr	r5, [r4]
	orr	r5, #8
	str	r5, [r4]
	ldr.w	r1, [r0]
	CHECK	r6, 4, 8
	ldrb	r1, [r0]		@ bytes are never unaligned
	CHECK	r6, 4, 9
	EXIT_OK

	.thumb_func
usage_handler:
	ldr	r1, =CFSR
	ldr	r2, [r1]
	tst	r2, #1 << 24		@ UNALIGNED
	bne	1f
	FAIL	40
1:	str	r2, [r1]		@ write one to clear
	ldr	r2, [r1]
	cmp	r2, #0
	beq	2f
	FAIL	41
2:	ldr	r1, [sp, #24]		@ stacked PC of the faulting instruction
	ldrh	r2, [r1]
	lsrs	r2, #11
	cmp	r2, #0x1d		@ 32-bit encodings start 0b11101/11110/11111
	ite	hs
	addhs	r1, #4
	addlo	r1, #2
	str	r1, [sp, #24]
	adds	r6, #1
	bx	lr
	.ltorg

	.data
	.align	2
buf:	.byte	1, 2, 3, 4, 5, 6, 7, 8, 0x89, 10, 11, 12, 13, 14, 15, 16

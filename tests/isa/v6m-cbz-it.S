@ CBZ, CBNZ and IT are ARMv7-M: UNDEFINED on ARMv6-M (A5.2.5), a
@ HardFault at the instruction. QEMU 7.2's Cortex-M0 executes them (its
@ 16-bit decoder does not check the architecture), so this program is not
@ in the QEMU differential: t0110 runs it on raptor, which follows the
@ architecture.
#include "v6m.inc"
	.macro FAULTS code, hw
	ldr	r4, =.Lfault\@
.Lfault\@:
	.short	\hw
	adds	r6, #1
	cmp	r5, r6
	beq	8f
	FAIL	\code
8:
	.endm

	.text
	.thumb_func
reset:
	movs	r5, #0
	movs	r6, #0
	movs	r0, #0
	movs	r1, #1
	FAULTS	1, 0xb100		@ cbz r0, . + 4
	FAULTS	2, 0xb908		@ cbnz r1, . + 4
	FAULTS	3, 0xbf08		@ it eq
	FAULTS	4, 0xbf18		@ it ne
	movs	r0, #1
	FAULTS	5, 0xbf0c		@ ite eq
	movs	r0, #0			@ no ITSTATE was left behind: this
	movs	r0, #7			@ MOVS would be conditional
	CHECK	r0, 7, 6
	EXIT_OK

	.thumb_func
hard_handler:
	mov	r0, sp
	ldr	r1, [r0, #24]
	cmp	r1, r4
	beq	1f
	FAIL	10
1:	ldr	r2, [r0, #28]		@ no IT bits stacked
	ldr	r3, =0x0600fc00
	tst	r2, r3
	beq	1f
	FAIL	11
1:	adds	r5, #1
	adds	r1, #2
	str	r1, [r0, #24]
	bx	lr

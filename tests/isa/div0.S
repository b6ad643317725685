@ Division: SDIV/UDIV by zero give 0 unless CCR.DIV_0_TRP, then UsageFault
@ DIVBYZERO; INT_MIN / -1 gives INT_MIN; rounding toward zero.
#include "common.inc"
	.equ	SHCSR, 0xe000ed24
	.equ	CFSR, 0xe000ed28
	.equ	CCR, 0xe000ed14
	.text
	.thumb_func
reset:
	movs	r0, #7
	movs	r1, #0
	sdiv	r2, r0, r1
	CHECK	r2, 0, 1
	udiv	r2, r0, r1
	CHECK	r2, 0, 2
	ldr	r0, =0x80000000
	mov	r1, #-1
	sdiv	r2, r0, r1
	CHECK	r2, 0x80000000, 3
	mvn	r0, #6			@ -7
	movs	r1, #2
	sdiv	r2, r0, r1
	CHECK	r2, 0xfffffffd, 4	@ -3: toward zero
	udiv	r2, r0, r1
	CHECK	r2, 0x7ffffffc, 5
	@ trap enabled, but UsageFault disabled: escalates to HardFault
	ldr	r4, =CCR
	ldr	r5, [r4]
	orr	r5, #16
	str	r5, [r4]
	movs	r6, #0
	movs	r1, #0
	udiv	r2, r0, r1
	CHECK	r6, 0x100, 6
	@ UsageFault enabled: taken as itself
	ldr	r0, =SHCSR
	mov	r1, #1 << 18
	str	r1, [r0]
	movs	r1, #0
	sdiv	r2, r0, r1
	CHECK	r6, 0x101, 7
	EXIT_OK

	.thumb_func
usage_handler:
	ldr	r1, =CFSR
	ldr	r2, [r1]
	tst	r2, #1 << 25		@ DIVBYZERO
	bne	1f
	FAIL	40
1:	str	r2, [r1]
	ldr	r1, [sp, #24]
	adds	r1, #4
	str	r1, [sp, #24]
	adds	r6, #1
	bx	lr

	.thumb_func
hard_handler:
	ldr	r1, =0xe000ed2c		@ HFSR: FORCED
	ldr	r2, [r1]
	tst	r2, #1 << 30
	bne	1f
	FAIL	41
1:	str	r2, [r1]
	ldr	r1, =CFSR
	ldr	r2, [r1]
	str	r2, [r1]
	ldr	r1, [sp, #24]
	adds	r1, #4
	str	r1, [sp, #24]
	adds	r6, #0x100
	bx	lr
	.ltorg

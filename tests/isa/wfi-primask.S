@ WFI wakes for an interrupt that PRIMASK holds back (B1.5.19): the
@ `cpsid i; wfi; cpsie i` idiom. SysTick fires while the core sleeps; the
@ handler runs only after CPSIE. Raptor only: QEMU's SysTick follows the host
@ clock.
#include "common.inc"
	.equ	SYST_CSR, 0xe000e010
	.equ	SYST_RVR, 0xe000e014
	.equ	ICSR, 0xe000ed04
	.text
	.thumb_func
reset:
	movs	r6, #0
	cpsid	i
	ldr	r0, =SYST_RVR
	ldr	r1, =5000
	str	r1, [r0]
	ldr	r0, =SYST_CSR
	movs	r1, #7			@ enable, interrupt, processor clock
	str	r1, [r0]
	wfi
	CHECK	r6, 0, 1		@ masked: not taken yet
	ldr	r0, =ICSR
	ldr	r1, [r0]
	tst	r1, #1 << 26		@ PENDSTSET
	bne	1f
	FAIL	2
1:	cpsie	i
	isb
	CHECK	r6, 1, 3
	EXIT_OK

	.thumb_func
systick_handler:
	ldr	r0, =SYST_CSR
	movs	r1, #0
	str	r1, [r0]
	adds	r6, #1
	bx	lr
	.ltorg

@ The ARMv6-M system: 2-bit priorities (the top bits of each byte) in
@ SHPR2/SHPR3 and the NVIC, no SHPR1, a read-only CCR (STKALIGN and
@ UNALIGN_TRP set), no priority grouping; MSR to BASEPRI/FAULTMASK, CPSID f
@ and CONTROL.nPRIV do nothing (QEMU's Cortex-M0); PRIMASK holds back
@ PendSV; an SVC from thread mode on the process stack, preempted by a
@ higher-priority PendSV it pends; VTOR moves the vector table.
#include "v6m.inc"
	.equ	ICSR, 0xe000ed04
	.equ	VTOR, 0xe000ed08
	.equ	AIRCR, 0xe000ed0c
	.equ	CCR, 0xe000ed14
	.equ	SHPR1, 0xe000ed18
	.equ	SHPR2, 0xe000ed1c
	.equ	SHPR3, 0xe000ed20
	.equ	NVIC_IPR0, 0xe000e400
	.equ	NVIC_ISER, 0xe000e100
	.equ	NVIC_ISPR, 0xe000e200
	.equ	PENDSVSET, 1 << 28

	.text
	.thumb_func
reset:
	@ priorities keep their top 2 bits
	ldr	r1, =SHPR2
	ldr	r0, =0xffffffff
	str	r0, [r1]
	ldr	r0, [r1]
	CHECK	r0, 0xc0000000, 1	@ SVCall only
	ldr	r1, =SHPR3
	ldr	r0, =0xffffffff
	str	r0, [r1]
	ldr	r0, [r1]
	CHECK	r0, 0xc0c000c0, 2
	ldr	r1, =SHPR1
	str	r0, [r1]
	ldr	r0, [r1]
	CHECK	r0, 0, 3
	ldr	r1, =NVIC_IPR0
	ldr	r0, =0x12345678
	str	r0, [r1]
	ldr	r0, [r1]
	CHECK	r0, 0x00004040, 4
	@ CCR is fixed, AIRCR has no PRIGROUP
	ldr	r1, =CCR
	movs	r0, #0
	str	r0, [r1]
	ldr	r0, [r1]
	CHECK	r0, 0x208, 5
	ldr	r1, =AIRCR
	ldr	r0, =0x05fa0500
	str	r0, [r1]
	ldr	r0, [r1]
	CHECK	r0, 0xfa050000, 6
	@ no BASEPRI, FAULTMASK or unprivileged thread mode
	movs	r0, #0x80
	msr	basepri, r0
	mrs	r0, basepri
	CHECK	r0, 0, 7
	cpsid	f
	mrs	r0, faultmask
	CHECK	r0, 0, 8
	movs	r0, #1
	msr	control, r0
	mrs	r0, control
	CHECK	r0, 0, 9
	@ APSR through MSR/MRS
	ldr	r0, =0xf0000000
	msr	apsr_nzcvq, r0
	mrs	r1, apsr
	CHECK	r1, 0xf0000000, 10
	@ PRIMASK holds PendSV back until CPSIE
	ldr	r1, =SHPR3
	ldr	r0, =0x40800000		@ SysTick 0x40, PendSV 0x80
	str	r0, [r1]
	movs	r5, #0
	cpsid	i
	ldr	r1, =ICSR
	ldr	r0, =PENDSVSET
	str	r0, [r1]
	CHECK	r5, 0, 11
	ldr	r0, [r1]
	lsrs	r0, r0, #12
	CHECK	r0, 0x1000e, 12	@ PENDSVSET, VECTPENDING = 14
	cpsie	i
	CHECK	r5, 1, 13
	@ thread mode on the process stack: SVC (priority 0xc0) pends a PendSV
	@ of 0x80, which preempts it at once
	ldr	r0, =0x20003000
	msr	psp, r0
	movs	r0, #2
	msr	control, r0
	isb
	mrs	r0, control
	CHECK	r0, 2, 14
	movs	r5, #0
	movs	r4, #0
	svc	0
	CHECK	r5, 1, 15		@ PendSV ran
	CHECK	r4, 2, 16		@ and SVCall saw it run
	mov	r0, sp
	CHECK	r0, 0x20003000, 17
	@ back to the main stack
	movs	r0, #0
	msr	control, r0
	isb
	@ an IRQ by the NVIC, priority 0x40, preempting nothing
	ldr	r1, =NVIC_ISER
	movs	r0, #1
	str	r0, [r1]
	ldr	r1, =NVIC_ISPR
	str	r0, [r1]
	CHECK	r5, 2, 18
	@ VTOR: a copy of the table in RAM whose PendSV is another handler
	ldr	r1, =table
	movs	r2, #0
1:	ldr	r0, [r2]
	str	r0, [r1, r2]
	adds	r2, #4
	cmp	r2, #0x48
	bne	1b
	ldr	r0, =pendsv_moved + 1
	str	r0, [r1, #0x38]
	ldr	r2, =VTOR
	str	r1, [r2]
	ldr	r0, [r2]
	cmp	r0, r1
	beq	1f
	FAIL	19
1:	movs	r6, #0
	ldr	r1, =ICSR
	ldr	r0, =PENDSVSET
	str	r0, [r1]
	CHECK	r6, 1, 20
	EXIT_OK

	.thumb_func
svc_handler:
	mov	r0, sp			@ handler mode: MSP, untouched (the frame
	ldr	r1, =0x20004000		@ went to the process stack)
	cmp	r0, r1
	beq	1f
	FAIL	30
1:	ldr	r1, =ICSR
	ldr	r0, =PENDSVSET
	str	r0, [r1]		@ preempts SVCall here
	adds	r4, r5, #1
	bx	lr

	.thumb_func
pendsv_handler:
	mrs	r0, ipsr
	CHECK	r0, 14, 40
	adds	r5, #1
	bx	lr

	.thumb_func
irq0_handler:
	mrs	r0, ipsr
	CHECK	r0, 16, 41
	adds	r5, #1
	bx	lr

	.thumb_func
pendsv_moved:
	adds	r6, #1
	bx	lr

	.data
	.align	7
table:
	.space	0x48

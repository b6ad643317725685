@ Exception entry and return: thread mode on PSP, SVC reading and changing
@ its stacked frame, a PSP misaligned by 4 (xPSR bit 9 and re-alignment),
@ PendSV pended from thread mode, a software-pended IRQ preempting a handler
@ (nesting, EXC_RETURN 0xFFFFFFF1), PRIMASK and BASEPRI masking.
#include "common.inc"
	.equ	ICSR, 0xe000ed04
	.equ	SHPR3, 0xe000ed20
	.equ	NVIC_ISER, 0xe000e100
	.equ	NVIC_ISPR, 0xe000e200
	.equ	NVIC_IPR, 0xe000e400
	.text
	.thumb_func
reset:
	ldr	r0, =psp_stack_top
	msr	psp, r0
	movs	r0, #2
	msr	control, r0		@ thread mode uses PSP
	isb
	mrs	r1, control
	CHECK	r1, 2, 1
	CHECK	sp, psp_stack_top, 2
	@ SVC: the handler doubles the stacked r0
	movs	r0, #21
	svc	#7
	CHECK	r0, 42, 3
	@ misaligned PSP: the frame is 8-aligned below and bit 9 set
	ldr	r0, =psp_stack_top - 4
	mov	sp, r0
	movs	r0, #5
	svc	#8
	CHECK	r0, 10, 4
	ldr	r1, =psp_stack_top - 4
	cmp	sp, r1			@ SP restored exactly
	bne	.Lbad
	@ PendSV from thread mode
	ldr	r0, =ICSR
	mov	r1, #1 << 28
	str	r1, [r0]
	dsb
	isb
	ldr	r0, =pendsv_count
	ldr	r0, [r0]
	CHECK	r0, 1, 5
	@ IRQ0 (priority 0x40) preempts IRQ1 (priority 0x80) which pends it
	ldr	r0, =NVIC_IPR
	movs	r1, #0x40
	strb	r1, [r0]
	movs	r1, #0x80
	strb	r1, [r0, #1]
	ldr	r0, =NVIC_ISER
	movs	r1, #3
	str	r1, [r0]
	@ PRIMASK holds a pended IRQ back until cleared
	cpsid	i
	ldr	r0, =NVIC_ISPR
	movs	r1, #2
	str	r1, [r0]
	dsb
	isb
	ldr	r0, =order
	ldr	r1, [r0]
	CHECK	r1, 0, 6
	cpsie	i
	isb
	ldr	r0, =order
	ldr	r1, [r0]
	CHECK	r1, 0x12, 7		@ irq1 started, irq0 nested inside it
	@ BASEPRI 0x40 blocks priority 0x40 and 0x80, not 0x20
	movs	r0, #0x40
	msr	basepri, r0
	ldr	r0, =NVIC_ISPR
	movs	r1, #1
	str	r1, [r0]
	isb
	ldr	r0, =irq0_count
	ldr	r1, [r0]
	CHECK	r1, 1, 8
	movs	r0, #0
	msr	basepri, r0
	isb
	ldr	r0, =irq0_count
	ldr	r1, [r0]
	CHECK	r1, 2, 9
	@ back to MSP in thread mode
	movs	r0, #0
	msr	control, r0
	isb
	mrs	r0, msp
	cmp	sp, r0
	bne	.Lbad
	EXIT_OK
.Lbad:
	FAIL	20

	.thumb_func
svc_handler:
	CHECK	lr, 0xfffffffd, 30	@ from thread mode on PSP
	mrs	r0, psp
	ldr	r1, [r0, #24]		@ stacked return address
	ldrb	r2, [r1, #-2]		@ the SVC immediate
	cmp	r2, #8
	bne	1f
	ldr	r3, [r0, #28]		@ stacked xPSR: bit 9 set for the misaligned SP
	tst	r3, #0x200
	beq	.Lbad
1:	ldr	r1, [r0]
	add	r1, r1
	str	r1, [r0]		@ doubled r0 comes back to thread mode
	bx	lr

	.thumb_func
pendsv_handler:
	mrs	r0, ipsr
	CHECK	r0, 14, 31
	ldr	r0, =pendsv_count
	ldr	r1, [r0]
	adds	r1, #1
	str	r1, [r0]
	bx	lr

	.thumb_func
irq1_handler:
	push	{r4, lr}
	CHECK	lr, 0xfffffffd, 32
	ldr	r4, =order
	ldr	r1, [r4]
	lsls	r1, #4
	adds	r1, #1
	str	r1, [r4]
	ldr	r0, =NVIC_ISPR
	movs	r1, #1
	str	r1, [r0]		@ pend IRQ0: higher priority, preempts now
	isb
	pop	{r4, pc}

	.thumb_func
irq0_handler:
	ldr	r0, =order
	ldr	r1, [r0]
	lsls	r1, #4
	adds	r1, #2
	str	r1, [r0]
	ldr	r0, =irq0_count
	ldr	r1, [r0]
	adds	r1, #1
	str	r1, [r0]
	mrs	r0, ipsr
	cmp	r0, #16
	bne	.Lbad
	bx	lr
	.ltorg

	.data
	.align	3
pendsv_count:	.word	0
irq0_count:	.word	0
order:		.word	0
	.space	1024
	.align	3
psp_stack_top:
	.word	0

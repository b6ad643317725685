@ The ARMv8-M exception model where it differs from ARMv7-M: SPSEL written
@ in handler mode is kept (MRS CONTROL shows it, SP stays MSP), a nested
@ exception's EXC_RETURN carries it (0xFFFFFFF5) and its return restores
@ it; EXC_RETURN with bit 1 set is the INVPC UsageFault, taken on the
@ frame still stacked, LR holding the bad value; FAULTMASK clears on a
@ return from a handler of priority 0 or more; CONTROL.SFPA (bit 3)
@ writes in Secure state; a SHCSR write clears an active bit it clears.
#include "common.inc"
	.equ	SHCSR, 0xe000ed24
	.equ	CFSR, 0xe000ed28
	.equ	SHPR2, 0xe000ed1c
	.equ	NVIC_ISER, 0xe000e100
	.equ	NVIC_ISPR, 0xe000e200
	.equ	NVIC_IPR, 0xe000e400
	.text
	.thumb_func
reset:
	ldr	r0, =SHCSR
	mov	r1, #1 << 18		@ UsageFault enabled
	str	r1, [r0]
	ldr	r0, =SHPR2
	mov	r1, #0x80 << 24		@ SVCall priority 0x80
	str	r1, [r0]
	ldr	r0, =NVIC_IPR
	movs	r1, #0x40		@ IRQ0 priority 0x40: preempts SVCall
	strb	r1, [r0]
	ldr	r0, =NVIC_ISER
	movs	r1, #1
	str	r1, [r0]
	mov	r7, sp
	@ SFPA writes
	movs	r0, #8
	msr	control, r0
	mrs	r1, control
	CHECK	r1, 8, 1
	movs	r0, #0
	msr	control, r0
	@ SPSEL in handler mode, nested IRQ
	movs	r0, #1
	svc	#1
	cmp	sp, r7
	bne	.Lbad
	mrs	r1, control
	CHECK	r1, 0, 2
	ldr	r0, =rec
	ldr	r1, [r0]
	CHECK	r1, 2, 3		@ CONTROL in SVC after MSR: SPSEL kept
	ldr	r1, [r0, #4]
	CHECK	r1, 0xfffffff5, 4	@ IRQ0's EXC_RETURN: handler, SPSEL 1
	ldr	r1, [r0, #8]
	CHECK	r1, 2, 5		@ CONTROL after IRQ0 returned
	ldr	r1, [r0, #12]
	cmp	r1, r7			@ the SVC handler stayed on MSP
	bgt	.Lbad
	ldr	r1, [r0, #16]
	CHECK	r1, 0xfffffff9, 6	@ SVC's EXC_RETURN
	@ FAULTMASK clears on return from SVC
	movs	r0, #2
	svc	#2
	mrs	r1, faultmask
	CHECK	r1, 0, 7
	@ EXC_RETURN with bit 1 set: INVPC
	movs	r0, #3
	svc	#3
	ldr	r0, =rec
	ldr	r1, [r0, #20]
	CHECK	r1, 1 << 18, 8		@ CFSR.INVPC
	ldr	r1, [r0, #24]
	CHECK	r1, 0xfffffffb, 9	@ LR in the UsageFault handler
	cmp	sp, r7
	bne	.Lbad
	@ SHCSR written in the UsageFault handler: its active bit (3) goes
	ldr	r0, =rec
	movs	r1, #1
	str	r1, [r0, #28]
	udf	#1
	FAIL	10
.Lbad:
	FAIL	90

	.thumb_func
svc_handler:
	ldr	r3, =rec
	cmp	r0, #2
	beq	.Lfm
	cmp	r0, #3
	beq	.Lbadret
	str	lr, [r3, #16]
	movs	r1, #2
	msr	control, r1		@ SPSEL := 1 in handler mode
	mrs	r1, control
	str	r1, [r3]
	ldr	r1, =NVIC_ISPR
	movs	r2, #1
	str	r2, [r1]		@ IRQ0 preempts now
	dsb
	isb
	mrs	r1, control
	str	r1, [r3, #8]
	str	sp, [r3, #12]
	movs	r1, #0
	msr	control, r1
	bx	lr
.Lfm:
	cpsid	f
	bx	lr
.Lbadret:
	ldr	lr, =0xfffffffb
	bx	lr

	.thumb_func
irq0_handler:
	ldr	r3, =rec
	str	lr, [r3, #4]
	bx	lr

	.thumb_func
usage_handler:
	ldr	r3, =rec
	ldr	r0, [r3, #28]
	cmp	r0, #1
	beq	.Lshcsr
	ldr	r0, =CFSR
	ldr	r1, [r0]
	str	r1, [r3, #20]
	str	r1, [r0]
	str	lr, [r3, #24]
	ldr	lr, =0xfffffff9
	bx	lr
.Lshcsr:
	ldr	r0, =SHCSR
	ldr	r1, [r0]
	CHECK	r1, (1 << 18) | (1 << 3), 11	@ UsageFault enabled, active
	mov	r1, #1 << 18
	str	r1, [r0]
	ldr	r1, [r0]
	CHECK	r1, 1 << 18, 12			@ no longer active
	EXIT_OK

	.data
	.align	2
rec:	.word	0, 0, 0, 0, 0, 0, 0, 0

@ FP extension and exceptions (Cortex-M4F): a VFP instruction with CP10
@ denied is a UsageFault NOCP; the first FP instruction sets CONTROL.FPCA
@ and takes FPSCR from FPDSCR; exception entry with FPCA pushes the extended
@ frame (EXC_RETURN bit 4 clear) lazily (FPCCR.LSPACT, FPCAR; the handler's
@ first FP instruction saves S0-S15/FPSCR) or at once (LSPEN clear); the
@ return restores them. MVFR0/1, FPCCR, FPCAR are read into core registers
@ so the trace compares them with QEMU's.
#include "common.inc"
	.equ	SHCSR, 0xe000ed24
	.equ	CFSR, 0xe000ed28
	.equ	FPCCR, 0xe000ef34
	.equ	FPCAR, 0xe000ef38
	.equ	FPDSCR, 0xe000ef3c
	.equ	MVFR0, 0xe000ef40
	.equ	ICSR, 0xe000ed04
	.text
	.thumb_func
reset:
	ldr	r0, =SHCSR
	mov	r1, #1 << 18		@ UsageFault enabled
	str	r1, [r0]
	ldr	r0, =MVFR0
	ldr	r1, [r0]
	ldr	r2, [r0, #4]
	ldr	r0, =FPCCR
	ldr	r3, [r0]
	CHECK	r3, 0xc0000000, 1
	@ CP10 denied: NOCP, the handler grants it and the instruction reruns
	movs	r6, #0
	vmov.f32	s0, #1.5
	CHECK	r6, 1, 2
	mrs	r0, control
	CHECK	r0, 4, 3		@ FPCA
	@ FPDSCR only matters for a new context: FPSCR keeps 0 here
	ldr	r0, =FPDSCR
	ldr	r1, =0x03c00000		@ DN, RZ
	str	r1, [r0]
	vmrs	r1, fpscr
	CHECK	r1, 0, 4
	@ lazy: SVC with FP context, the handler uses FP
	vmov.f32	s1, #2.5
	vmov.f32	s15, #-3.0
	vmov.f32	s16, #0.25
	svc	#1
	vmov	r0, s0
	CHECK	r0, 0x3fc00000, 5
	vmov	r0, s15
	CHECK	r0, 0xc0400000, 6
	vmov	r0, s16
	CHECK	r0, 0x3e800000, 7	@ s16 is not in the frame
	@ lazy, the handler without FP: LSPACT just clears on return
	svc	#2
	ldr	r0, =FPCCR
	ldr	r1, [r0]
	and	r1, r1, #1		@ LSPACT
	CHECK	r1, 0, 8
	@ immediate stacking: LSPEN clear
	ldr	r0, =FPCCR
	mov	r1, #0x80000000
	str	r1, [r0]
	vmov.f32	s2, #5.0
	svc	#1
	vmov	r0, s2
	CHECK	r0, 0x40a00000, 9
	@ ASPEN clear and FPCA clear: a basic frame, FP state shared
	ldr	r0, =FPCCR
	movs	r1, #0
	str	r1, [r0]
	movs	r0, #0
	msr	control, r0
	isb
	vmov.f32	s3, #6.0
	mrs	r0, control
	CHECK	r0, 0, 10
	svc	#3
	vmov	r0, s3
	CHECK	r0, 0x3f800000, 11	@ the handler's write stays
	@ PendSV from a handler-free thread with FP again, nested SVC inside
	ldr	r0, =FPCCR
	mov	r1, #0xc0000000
	str	r1, [r0]
	vmov.f32	s4, #7.0
	ldr	r0, =0xe000ed22		@ SHPR3 byte: PendSV below SVC
	movs	r1, #0xe0
	strb	r1, [r0]
	ldr	r0, =ICSR
	mov	r1, #1 << 28
	str	r1, [r0]
	dsb
	isb
	vmov	r0, s4
	CHECK	r0, 0x40e00000, 12
	@ tail chain: the SVC handler (FP used) pends PendSV, taken on its return
	vmov.f32	s4, #3.0
	svc	#4
	vmov	r0, s4
	CHECK	r0, 0x40400000, 13
	@ and with LSPEN clear
	ldr	r0, =FPCCR
	mov	r1, #0x80000000
	str	r1, [r0]
	vmov.f32	s4, #9.0
	svc	#4
	vmov	r0, s4
	CHECK	r0, 0x41100000, 15
	EXIT_OK

	.thumb_func
usage_handler:
	ldr	r0, =CFSR
	ldr	r1, [r0]
	str	r1, [r0]		@ clear it
	ldr	r2, =1 << 19
	cmp	r1, r2
	bne	1f
	adds	r6, #1
	FP_ENABLE
	bx	lr
1:	FAIL	20

	.thumb_func
svc_handler:
	mov	r4, lr			@ EXC_RETURN
	ldr	r0, [sp, #24]		@ stacked pc
	ldrb	r0, [r0, #-2]		@ the SVC number
	ldr	r1, =FPCCR
	ldr	r2, [r1]
	ldr	r3, [r1, #4]		@ FPCAR
	cmp	r0, #2
	beq	2f
	cmp	r0, #4
	bne	3f
	ldr	r0, =ICSR
	mov	r1, #1 << 28
	str	r1, [r0]
	vmov.f32	s4, #-2.0
	vmov.f32	s0, #-2.0
	bx	lr
3:
	mrs	r5, control
	vmov.f32	s0, #-1.0	@ lazy save happens here (svc 1)
	vmov.f32	s15, #1.0
	vmov.f32	s3, #1.0
	vmov.f32	s2, #1.0
	vmrs	r5, fpscr		@ FPDSCR's value in a new context
	ldr	r2, [r1]
	mrs	r5, control
2:	bx	lr

	.thumb_func
pendsv_handler:
	push	{lr}
	vmov.f32	s4, #-7.0
	svc	#1
	vmov	r0, s4
	CHECK	r0, 0xc0e00000, 30
	pop	{pc}

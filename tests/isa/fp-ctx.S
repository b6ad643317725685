@ Which FP instructions start a new FP context (CONTROL.FPCA := 1, FPSCR :=
@ FPDSCR) when FPCCR.ASPEN is set and FPCA clear: VMRS, VMSR, VMRS
@ APSR_nzcv, VLDR, VMOV; CONTROL and FPSCR are read into core registers
@ after each, so the trace compares them with QEMU's. Also NOCP for a
@ privileged-only CPACR seen from unprivileged thread mode.
#include "common.inc"
	.equ	CPACR, 0xe000ed88
	.equ	FPDSCR, 0xe000ef3c
	.equ	SHCSR, 0xe000ed24
	.equ	CFSR, 0xe000ed28
	.text
	.thumb_func
reset:
	FP_ENABLE
	ldr	r0, =FPDSCR
	ldr	r1, =0x07c00000
	str	r1, [r0]
	dsb
	isb
	ldr	r7, =fpdata
	movs	r4, #0
	msr	control, r4
	isb
	vmrs	r2, fpscr
	mrs	r3, control
	msr	control, r4
	isb
	vmsr	fpscr, r4
	mrs	r3, control
	vmrs	r2, fpscr
	msr	control, r4
	isb
	vmrs	APSR_nzcv, fpscr
	mrs	r3, control
	vmrs	r2, fpscr
	msr	control, r4
	isb
	vldr	s5, [r7]
	mrs	r3, control
	vmrs	r2, fpscr
	msr	control, r4
	isb
	vstr	s5, [r7, #4]
	mrs	r3, control
	vmrs	r2, fpscr
	msr	control, r4
	isb
	vmov	r5, s5
	mrs	r3, control
	vmrs	r2, fpscr
	msr	control, r4
	isb
	vpush	{s5}
	vpop	{s6}
	mrs	r3, control
	@ CPACR.CP10 = privileged only, unprivileged thread: NOCP
	ldr	r0, =SHCSR
	mov	r1, #1 << 18
	str	r1, [r0]
	ldr	r0, =CPACR
	ldr	r1, =0x5 << 20
	str	r1, [r0]
	dsb
	isb
	movs	r6, #0
	movs	r0, #1
	msr	control, r0		@ unprivileged
	isb
	vadd.f32	s0, s5, s5
	CHECK	r6, 1, 1
	@ unaligned VLDR, VSTR, VLDM: UsageFault UNALIGNED; the handler skips them
	adds	r7, #2
	vldr	s7, [r7]
	vstr	s7, [r7]
	vldmia	r7!, {s8-s9}
	subs	r7, #1
	vldr	s7, [r7]
	CHECK	r6, 5, 2
	EXIT_OK

	.thumb_func
usage_handler:
	ldr	r0, =CFSR
	ldr	r1, [r0]
	str	r1, [r0]
	adds	r6, #1
	ldr	r2, =1 << 24		@ UNALIGNED: skip the instruction
	cmp	r1, r2
	bne	1f
	ldr	r0, [sp, #24]
	adds	r0, #4
	str	r0, [sp, #24]
1:	mrs	r0, control
	bic	r0, r0, #1		@ privileged again
	msr	control, r0
	isb
	bx	lr

	.data
	.align	2
fpdata:
	.word	0x3f800000, 0

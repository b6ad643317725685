@ FP arithmetic on pseudo-random operands (xorshift32), in all FPSCR modes
@ (RMode x FZ x DN x AHP, changed every 512 iterations; 4096 in all, as
@ t0100 has a time limit: 24576 were checked by hand, 0 mismatches): operands share an
@ exponent half of the time (cancellation, ties), one is small or denormal
@ a quarter of the time. Diffed against QEMU register by register.
#include "common.inc"
	.equ	ITERS, 4096
	.text
	.thumb_func
reset:
	FP_ENABLE
	ldr	r0, =0x2545f491		@ xorshift state
	movs	r8, #0			@ iteration
	ldr	r9, =modes
loop:
	ubfx	r1, r8, #0, #9
	cbnz	r1, 1f
	ubfx	r1, r8, #9, #3
	ldr	r1, [r9, r1, lsl #2]
	vmsr	fpscr, r1
1:	bl	rand
	mov	r1, r0
	bl	rand
	mov	r2, r0
	bl	rand
	mov	r3, r0
	tst	r8, #1
	beq	2f
	lsrs	r4, r1, #23
	bfi	r2, r4, #23, #8		@ b gets a's exponent
2:	tst	r8, #2
	beq	3f
	and	r3, r3, #0x80ffffff	@ c small or denormal
	tst	r8, #4
	beq	3f
	and	r3, r3, #0x807fffff
3:	vmov	s0, s1, r1, r2
	vmov	s2, r3
	vadd.f32	s3, s0, s1
	vsub.f32	s4, s0, s1
	vmul.f32	s5, s0, s2
	vdiv.f32	s6, s0, s1
	vmov.f32	s7, s2
	vfma.f32	s7, s0, s1
	vmov.f32	s8, s2
	vmla.f32	s8, s0, s1
	vmov.f32	s9, s2
	vfnms.f32	s9, s0, s1
	vsqrt.f32	s10, s1
	vcmpe.f32	s0, s1
	vmrs	APSR_nzcv, fpscr
	ite	gt
	vmovgt.f32	s11, s0
	vmovle.f32	s11, s1
	vcvtr.s32.f32	s12, s0
	vcvt.u32.f32	s13, s1
	vcvt.f32.s32	s14, s2
	vcvtb.f16.f32	s15, s3
	vcvtt.f32.f16	s16, s2
	vmov.f32	s17, s5
	vcvt.s32.f32	s17, s17, #16
	vmov	r4, r5, s3, s4		@ results into core registers too
	adds	r8, #1
	cmp	r8, #ITERS
	blo	loop
	EXIT_OK

	.thumb_func
rand:
	eor	r0, r0, r0, lsl #13
	eor	r0, r0, r0, lsr #17
	eor	r0, r0, r0, lsl #5
	bx	lr

	.data
	.align	2
modes:
	.word	0x00000000, 0x00400000, 0x00800000, 0x00c00000
	.word	0x01000000, 0x03400000, 0x06800000, 0x07c00000

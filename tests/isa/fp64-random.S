@ Double precision on pseudo-random operands (xorshift32, two words a
@ value), in all FPSCR modes (RMode x FZ x DN x AHP, changed every 512
@ iterations; 4096 in all, as t0104 has a time limit: 32768 were checked
@ by hand, 0 mismatches): operands share an exponent half of the time
@ (cancellation, ties), the third is small or denormal a quarter of the
@ time, and every eighth fused multiply-add cancels its product almost
@ exactly (c := -(a*b), its low bits changed). Diffed against QEMU's
@ mps2-an500 register by register (s0..s31 = d0..d15).
#include "common.inc"
	.fpu	fpv5-d16
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
	vmov	d0, r1, r2		@ a
	bl	rand
	mov	r3, r0
	bl	rand
	mov	r4, r0
	tst	r8, #1
	beq	2f
	lsrs	r5, r2, #20
	bfi	r4, r5, #20, #11	@ b gets a's exponent
2:	vmov	d1, r3, r4		@ b
	bl	rand
	mov	r5, r0
	bl	rand
	mov	r6, r0
	tst	r8, #2
	beq	3f
	bfc	r6, #22, #9		@ c small or denormal
	tst	r8, #4
	beq	3f
	bfc	r6, #20, #11
3:	vmov	d2, r5, r6		@ c
	and	r7, r8, #7
	cmp	r7, #5
	bne	4f
	vnmul.f64	d2, d0, d1	@ c := -(a*b), low bits from the stream
	vmov	r5, r6, d2
	eor	r5, r5, r0, lsr #24
	vmov	d2, r5, r6
4:	vadd.f64	d3, d0, d1
	vsub.f64	d4, d0, d1
	vmul.f64	d5, d0, d2
	vdiv.f64	d6, d0, d1
	vmov.f64	d7, d2
	vfma.f64	d7, d0, d1
	vmov.f64	d8, d2
	vmla.f64	d8, d0, d1
	vmov.f64	d9, d2
	vfnms.f64	d9, d0, d1
	vsqrt.f64	d10, d1
	vcmpe.f64	d0, d1
	vmrs	APSR_nzcv, fpscr
	vselgt.f64	d11, d0, d1
	vcvtr.s32.f64	s24, d0
	vcvt.u32.f64	s25, d1
	vcvt.f64.s32	d13, s4
	vcvt.f32.f64	s28, d3
	vcvt.f64.f32	d15, s28
	vrintx.f64	d14, d4
	vrinta.f64	d4, d5
	vmaxnm.f64	d5, d6, d2
	vminnm.f64	d6, d7, d0
	vcvtn.s32.f64	s26, d10
	vcvtb.f16.f64	s27, d9
	vcvtt.f64.f16	d12, s2
	vmov.f64	d3, d5
	vcvt.s32.f64	d3, d3, #20
	vmov	r4, r5, d3		@ results into core registers too
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

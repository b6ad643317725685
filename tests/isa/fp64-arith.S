@ Double-precision corners (FPv5-D16, Cortex-M7), diffed against QEMU's
@ mps2-an500 register by register (s0..s31 are d0..d15): every operation on
@ a table of binary64 operands (zeros, denormals, normals, the largest,
@ infinities, quiet and signalling NaNs, ties for every rounding) in each
@ rounding mode, with FZ and DN off and on; the FPv5 additions (VSEL,
@ VMAXNM/VMINNM, VRINT*, VCVTA/N/P/M, VCVTB/T with .F64) in single and
@ double precision; the cumulative flags land in FPSCR.
#include "common.inc"
	.fpu	fpv5-d16
	.text
	.thumb_func
reset:
	FP_ENABLE
	movs	r8, #0			@ FPSCR mode index
mode_loop:
	ldr	r0, =modes
	ldr	r0, [r0, r8, lsl #2]
	vmsr	fpscr, r0
	ldr	r4, =vals
	movs	r5, #0			@ i
outer:
	movs	r6, #0			@ j
inner:
	add	r0, r4, r5, lsl #3
	vldr	d0, [r0]
	add	r0, r4, r6, lsl #3
	vldr	d1, [r0]
	vldr	d2, [r4, #16]
	vadd.f64	d3, d0, d1
	vsub.f64	d4, d0, d1
	vmul.f64	d5, d0, d1
	vnmul.f64	d6, d0, d1
	vdiv.f64	d7, d0, d1
	vmov.f64	d8, d2
	vmla.f64	d8, d0, d1
	vmov.f64	d9, d2
	vmls.f64	d9, d0, d1
	vmov.f64	d10, d1
	vnmla.f64	d10, d0, d1
	vmov.f64	d11, d1
	vnmls.f64	d11, d0, d1
	vmov.f64	d12, d1
	vfma.f64	d12, d0, d2
	vmov.f64	d13, d1
	vfms.f64	d13, d0, d1
	vmov.f64	d14, d1
	vfnma.f64	d14, d0, d1
	vmov.f64	d15, d0
	vfnms.f64	d15, d1, d2
	vsqrt.f64	d3, d0
	vabs.f64	d4, d0
	vneg.f64	d5, d1
	vcmp.f64	d0, d1
	vmrs	APSR_nzcv, fpscr
	vselgt.f64	d6, d0, d1
	vselge.f64	d7, d1, d0
	vseleq.f64	d8, d0, d2
	vselvs.f64	d9, d2, d1
	vcmpe.f64	d0, d1
	vmrs	r0, fpscr
	vcmp.f64	d0, #0
	vcmpe.f64	d1, #0
	vmaxnm.f64	d10, d0, d1
	vminnm.f64	d11, d0, d1
	vmaxnm.f32	s24, s0, s2
	vminnm.f32	s25, s1, s3
	vrinta.f64	d13, d0
	vrintn.f64	d14, d1
	vrintp.f64	d15, d0
	vrintm.f64	d3, d1
	vrintr.f64	d4, d0
	vrintz.f64	d5, d1
	vrintx.f64	d6, d0
	vrinta.f32	s14, s1
	vrintm.f32	s15, s3
	vrintx.f32	s16, s2
	vrintz.f32	s17, s0
	vcvta.s32.f64	s18, d0
	vcvtn.u32.f64	s19, d1
	vcvtp.s32.f64	s20, d0
	vcvtm.u32.f64	s21, d1
	vcvta.u32.f32	s22, s1
	vcvtm.s32.f32	s23, s3
	vcvt.s32.f64	s24, d0
	vcvt.u32.f64	s25, d1
	vcvtr.s32.f64	s26, d1
	vcvtr.u32.f64	s27, d0
	vcvt.f64.s32	d14, s24
	vcvt.f64.u32	d15, s26
	vcvt.f32.f64	s28, d0
	vcvt.f64.f32	d15, s3
	vcvt.f32.f64	s29, d1
	vcvt.f64.f32	d13, s28
	vmov.f64	d3, d0
	vcvt.s32.f64	d3, d3, #8
	vmov.f64	d4, d1
	vcvt.u16.f64	d4, d4, #4
	vmov.f64	d5, d0
	vcvt.s16.f64	d5, d5, #1
	vmov.f64	d6, d1
	vcvt.f64.s32	d6, d6, #30
	vmov.f64	d7, d0
	vcvt.f64.u16	d7, d7, #2
	vmov.f64	d8, d1
	vcvt.u32.f64	d8, d8, #16
	vcvtb.f16.f64	s30, d0
	vcvtt.f16.f64	s30, d1
	vcvtb.f64.f16	d12, s30
	vcvtt.f64.f16	d11, s30
	vmov	r0, r1, d0
	vmov	d9, r1, r0
	vmov.32	r2, d1[1]
	vmov.32	d10[0], r2
	vmov.32	d10[1], r0
	vmov.f64	d11, #-1.5
	vmov.f64	d12, #0.125
	adds	r6, #1
	cmp	r6, #NVALS
	blo	inner
	adds	r5, #1
	cmp	r5, #NVALS
	blo	outer
	adds	r8, #1
	cmp	r8, #NMODES
	blo	mode_loop

	@ D registers through memory: VPUSH/VPOP, VLDM/VSTM, VSTR/VLDR
	vpush	{d8-d11}
	vmov.f64	d8, #1.0
	vpop	{d8-d11}
	ldr	r0, =buf
	vstmia	r0!, {d0-d3}
	vldmdb	r0!, {d4-d7}
	vstr	d7, [r0, #40]
	vldr	d15, [r0, #40]
	vstmdb	sp!, {d12}
	vldmia	sp!, {d13}
	EXIT_OK

	.data
	.align	3
	@ RMode in 23:22, FZ 24, DN 25, AHP 26
modes:
	.word	0x00000000, 0x00400000, 0x00800000, 0x00c00000
	.word	0x01000000, 0x02000000, 0x07400000, 0x03c00000
	.equ	NMODES, 8
	.align	3
vals:
	.quad	0x0000000000000000, 0x8000000000000000	@ +-0
	.quad	0x3ff0000000000000, 0xbff0000000000000	@ +-1
	.quad	0x0000000000000001, 0x800fffffffffffff	@ denormals
	.quad	0x0010000000000000, 0x8010000000000001	@ min normal
	.quad	0x7fefffffffffffff, 0xffefffffffffffff	@ max
	.quad	0x7ff0000000000000, 0xfff0000000000000	@ inf
	.quad	0x7ff8000000000000, 0xfff8123456789abc	@ qNaN
	.quad	0x7ff0000000000001, 0xfff4123456789abc	@ sNaN
	.quad	0x3fd5555555555555, 0x400921fb54442d18	@ 1/3 pi
	.quad	0x41e0000000000000, 0xc1e0000000200000	@ 2^31, -2^31-1
	.quad	0x41efffffffe00000, 0x3ca0000000000001	@ 2^32-1, tiny
	.quad	0x3fe0000000000000, 0x3ff8000000000000	@ .5 1.5
	.quad	0x4004000000000000, 0xbff8000000000000	@ 2.5 -1.5
	.quad	0x47efffffe0000000, 0x3810000000000000	@ f32 max edge, f32 min normal
	.quad	0x36a0000000000001, 0x40effe0000000001	@ f32 denormal, 65520+
	.quad	0x7fe1234567890abc, 0x0008000000000000
	.equ	NVALS, 32
buf:
	.space	64

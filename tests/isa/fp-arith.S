@ FP arithmetic corners (FPv4-SP), diffed against QEMU register by register:
@ every operation on a table of operands (zeros, denormals, normals, the
@ largest, infinities, quiet and signalling NaNs) in each rounding mode, with
@ FZ and DN off and on; the cumulative flags land in FPSCR.
#include "common.inc"
	.text
	.thumb_func
reset:
	FP_ENABLE
	movs	r8, #0			@ FPSCR mode index 0..7
mode_loop:
	ldr	r0, =modes
	ldr	r0, [r0, r8, lsl #2]
	vmsr	fpscr, r0
	ldr	r4, =vals
	movs	r5, #0			@ i
outer:
	movs	r6, #0			@ j
inner:
	add	r0, r4, r5, lsl #2
	vldr	s0, [r0]
	add	r0, r4, r6, lsl #2
	vldr	s1, [r0]
	vldr	s2, [r4, #8]
	vadd.f32	s3, s0, s1
	vsub.f32	s4, s0, s1
	vmul.f32	s5, s0, s1
	vnmul.f32	s6, s0, s1
	vdiv.f32	s7, s0, s1
	vmov.f32	s8, s2
	vmla.f32	s8, s0, s1
	vmov.f32	s9, s2
	vmls.f32	s9, s0, s1
	vmov.f32	s10, s1
	vnmla.f32	s10, s0, s1
	vmov.f32	s11, s1
	vnmls.f32	s11, s0, s1
	vmov.f32	s12, s1
	vfma.f32	s12, s0, s2
	vmov.f32	s13, s1
	vfms.f32	s13, s0, s2
	vmov.f32	s14, s1
	vfnma.f32	s14, s0, s1
	vmov.f32	s15, s0
	vfnms.f32	s15, s1, s2
	vsqrt.f32	s16, s0
	vabs.f32	s17, s0
	vneg.f32	s18, s1
	vcmp.f32	s0, s1
	vmrs	APSR_nzcv, fpscr
	vcmpe.f32	s0, s1
	vmrs	r0, fpscr
	vcmp.f32	s0, #0
	vcmpe.f32	s1, #0
	vcvt.s32.f32	s19, s0
	vcvt.u32.f32	s20, s0
	vcvtr.s32.f32	s21, s1
	vcvtr.u32.f32	s22, s1
	vcvt.f32.s32	s23, s0
	vcvt.f32.u32	s24, s1
	vmov.f32	s25, s0
	vcvt.s32.f32	s25, s25, #8
	vmov.f32	s26, s1
	vcvt.u16.f32	s26, s26, #4
	vmov.f32	s27, s0
	vcvt.s16.f32	s27, s27, #1
	vmov.f32	s28, s1
	vcvt.f32.s32	s28, s28, #30
	vmov.f32	s29, s0
	vcvt.f32.u16	s29, s29, #2
	vcvtb.f16.f32	s30, s0
	vcvtt.f16.f32	s30, s1
	vcvtb.f32.f16	s31, s30
	vcvtt.f32.f16	s2, s1
	vmov	r0, s31
	vmov	r1, r2, s30, s31
	vmov	s9, s10, r1, r0
	adds	r6, #1
	cmp	r6, #NVALS
	blo	inner
	adds	r5, #1
	cmp	r5, #NVALS
	blo	outer
	adds	r8, #1
	cmp	r8, #NMODES
	blo	mode_loop
	EXIT_OK

	.data
	.align	2
	@ RMode in 23:22, FZ 24, DN 25, AHP 26
modes:
	.word	0x00000000, 0x00400000, 0x00800000, 0x00c00000
	.word	0x01000000, 0x02000000, 0x07400000, 0x03c00000
	.equ	NMODES, 8
vals:
	.word	0x00000000, 0x80000000, 0x3f800000, 0xbf800000	@ +-0 +-1
	.word	0x00000001, 0x807fffff, 0x00800000, 0x80800001	@ denormals, min normal
	.word	0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000	@ max, inf
	.word	0x7fc00000, 0xffc12345, 0x7f800001, 0xff812345	@ qNaN, sNaN
	.word	0x3eaaaaab, 0x40490fdb, 0x4f000000, 0xcf000001	@ 1/3 pi 2^31
	.word	0x4f800000, 0x477fff00, 0x33800001, 0x0c000003	@ 2^32 65535 tiny
	.word	0x3f000000, 0x3fc00000, 0x40200000, 0xbfc00000	@ .5 1.5 2.5 -1.5
	.word	0x1f800001, 0x5f7fffff, 0x00400000, 0x477ff000
	.equ	NVALS, 32

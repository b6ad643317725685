@ Double precision on the Cortex-M4F (FPv4-SP, single precision only):
@ every data-processing encoding with sz = 1, and VCVT.F64.F32, is
@ UNDEFINED: a UsageFault UNDEFINSTR, or NOCP first while CP10 is denied.
@ The handler counts them and skips the instruction. None of them starts an
@ FP context (CONTROL.FPCA); single precision works after them. The
@ encodings are raw (.inst.w), so the build attributes stay FPv4-SP.
#include "common.inc"
	.equ	SHCSR, 0xe000ed24
	.text
	.thumb_func
reset:
	ldr	r0, =SHCSR
	mov	r1, #1 << 18		@ UsageFault enabled
	str	r1, [r0]
	movs	r6, #0			@ UNDEFINSTR faults
	movs	r7, #0			@ NOCP faults
	.inst.w	0xee310b02		@ vadd.f64 d0, d1, d2: CP10 denied, NOCP first
	CHECK	r7, 1, 1
	CHECK	r6, 0, 2
	FP_ENABLE
	.inst.w	0xee310b02		@ vadd.f64 d0, d1, d2
	.inst.w	0xeeb70b00		@ vmov.f64 d0, #1.0
	.inst.w	0xeeb70ac1		@ vcvt.f64.f32 d0, s2
	.inst.w	0xeeb70bc1		@ vcvt.f32.f64 s0, d1
	.inst.w	0xee243b05		@ vmul.f64 d3, d4, d5
	.inst.w	0xeeb11bc2		@ vsqrt.f64 d1, d2
	.inst.w	0xeeb51b40		@ vcmp.f64 d1, #0
	.inst.w	0xee876b01		@ vdiv.f64 d6, d7, d1
	CHECK	r6, 8, 3
	CHECK	r7, 1, 4
	mrs	r0, control
	CHECK	r0, 0, 5		@ no FP context yet
	vmov.f32	s0, #1.5
	vadd.f32	s1, s0, s0
	vmov	r0, s1
	CHECK	r0, 0x40400000, 6
	mrs	r0, control
	CHECK	r0, 4, 7		@ FPCA
	EXIT_OK

	USAGE_COUNT_SKIP		@ (common.inc)

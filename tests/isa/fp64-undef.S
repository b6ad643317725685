@ D16-D31 on the Cortex-M7 (FPv5-D16: D0-D15 only): a data-processing
@ instruction, VCVT.F64.F32 or VLDR naming one is UNDEFINED, a UsageFault
@ UNDEFINSTR; the handler counts them and skips the instruction. The
@ encodings are raw (.inst.w): the assembler knows the M7 has no D16.
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
	FP_ENABLE
	.inst.w	0xee700b01		@ vadd.f64 d16, d0, d1
	.inst.w	0xeeb00b61		@ vmov.f64 d0, d17
	.inst.w	0xeef70ac0		@ vcvt.f64.f32 d16, s0
	.inst.w	0xeddd0b00		@ vldr d16, [sp]
	CHECK	r6, 4, 1
	CHECK	r7, 0, 2
	vmov.f64	d1, #1.0
	vadd.f64	d2, d1, d1
	vmov	r0, r1, d2
	CHECK	r1, 0x40000000, 3
	EXIT_OK

	USAGE_COUNT_SKIP		@ (common.inc)

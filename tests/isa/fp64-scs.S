@ The Cortex-M7's system control space as firmware touches it, diffed
@ against QEMU's mps2-an500 register by register: CPUID, MVFR0-2, the cache
@ maintenance operations (0xE000EF50..0xE000EF78, no-ops on a board without
@ caches), CCR with its IC and DC bits, the cache identification registers,
@ the auxiliary control register, the FPSCR bits that hold state.
#include "common.inc"
	.fpu	fpv5-d16
	.text
	.thumb_func
reset:
	FP_ENABLE
	ldr	r4, =0xe000ed00
	ldr	r0, [r4]		@ CPUID
	ldr	r5, =0xe000ef40
	ldr	r1, [r5]		@ MVFR0
	ldr	r2, [r5, #4]		@ MVFR1
	ldr	r3, [r5, #8]		@ MVFR2
	CHECK	r0, 0x411fc272, 1
	CHECK	r1, 0x10110221, 2
	CHECK	r2, 0x12000011, 3
	CHECK	r3, 0x00000040, 4
	@ the cache maintenance operations: accepted, no effect
	ldr	r5, =0xe000ef50
	ldr	r0, =0x20000000
	movs	r1, #0
	str	r1, [r5, #0x00]		@ ICIALLU
	str	r0, [r5, #0x08]		@ ICIMVAU
	str	r0, [r5, #0x0c]		@ DCIMVAC
	str	r1, [r5, #0x10]		@ DCISW
	str	r0, [r5, #0x14]		@ DCCMVAU
	str	r0, [r5, #0x18]		@ DCCMVAC
	str	r1, [r5, #0x1c]		@ DCCSW
	str	r0, [r5, #0x20]		@ DCCIMVAC
	str	r1, [r5, #0x24]		@ DCCISW
	str	r1, [r5, #0x28]		@ BPIALL
	dsb
	isb
	@ CCR: what sticks of IC (bit 17), DC (bit 16), BP (bit 18)
	ldr	r6, [r4, #0x14]
	orr	r0, r6, #0x70000
	str	r0, [r4, #0x14]
	ldr	r7, [r4, #0x14]
	str	r6, [r4, #0x14]
	ldr	r8, [r4, #0x14]
	CHECK	r8, 0x200, 5
	@ ACTLR, and the cache identification registers (none: no caches)
	ldr	r9, =0xe000e008
	ldr	r0, [r9]
	ldr	r1, [r4, #0x78]		@ CLIDR
	ldr	r2, [r4, #0x7c]		@ CTR
	ldr	r3, [r4, #0x80]		@ CCSIDR
	ldr	r10, [r4, #0x84]	@ CSSELR
	@ FPSCR: which bits hold what is written (FPv5: the same as FPv4)
	mov	r0, #-1
	vmsr	fpscr, r0
	vmrs	r1, fpscr
	movs	r0, #0
	vmsr	fpscr, r0
	vmrs	r2, fpscr
	CHECK	r1, 0xf7c0009f, 6
	EXIT_OK

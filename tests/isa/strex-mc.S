@ The global exclusive monitor across cores (2 cores): a store by another
@ core to the reserved word makes STREX fail; a store to another word does
@ not; CLREX and exception entry close the reservation. Core 0 checks.
#include "common.inc"
	.equ	CPUID, 0xd0000000
	.text
	.thumb_func
reset:
	ldr	r0, =CPUID
	ldr	r0, [r0]
	lsls	r1, r0, #12
	ldr	r2, =0x20400000
	subs	r2, r1
	mov	sp, r2			@ 4 KiB stack per core
	cmp	r0, #0
	beq	core0
core1:
	ldr	r1, =x
	ldr	r5, =flags
	@ round 1: core 0 stores to another word -> STREX succeeds
	ldrex	r2, [r1]
	movs	r0, #1
	str	r0, [r5, #0]		@ A = 1
1:	ldr	r0, [r5, #4]		@ wait B == 1
	cmp	r0, #1
	bne	1b
	adds	r2, #1
	strex	r3, r2, [r1]
	str	r3, [r5, #8]		@ res1
	@ round 2: core 0 stores to x -> STREX fails
	ldrex	r2, [r1]
	movs	r0, #2
	str	r0, [r5, #0]
1:	ldr	r0, [r5, #4]
	cmp	r0, #2
	bne	1b
	strex	r3, r2, [r1]
	str	r3, [r5, #12]		@ res2
	@ CLREX closes it
	ldrex	r2, [r1]
	clrex
	strex	r3, r2, [r1]
	str	r3, [r5, #16]		@ res3
	@ exception entry closes it
	ldrex	r2, [r1]
	svc	#0
	strex	r3, r2, [r1]
	str	r3, [r5, #20]		@ res4
	@ an undisturbed pair succeeds
	ldrex	r2, [r1]
	adds	r2, #100
	strex	r3, r2, [r1]
	str	r3, [r5, #24]		@ res5
	movs	r0, #1
	str	r0, [r5, #28]		@ done
2:	wfi
	b	2b

core0:
	ldr	r1, =x
	ldr	r5, =flags
1:	ldr	r0, [r5, #0]
	cmp	r0, #1
	bne	1b
	ldr	r4, =y
	str	r0, [r4]		@ another word: reservation stays
	movs	r0, #1
	str	r0, [r5, #4]
1:	ldr	r0, [r5, #0]
	cmp	r0, #2
	bne	1b
	movs	r0, #77
	str	r0, [r1]		@ the reserved word: reservation lost
	movs	r0, #2
	str	r0, [r5, #4]
1:	ldr	r0, [r5, #28]
	cmp	r0, #1
	bne	1b
	ldr	r0, [r5, #8]
	CHECK	r0, 0, 1
	ldr	r0, [r5, #12]
	CHECK	r0, 1, 2
	ldr	r0, [r5, #16]
	CHECK	r0, 1, 3
	ldr	r0, [r5, #20]
	CHECK	r0, 1, 4
	ldr	r0, [r5, #24]
	CHECK	r0, 0, 5
	ldr	r0, [r1]
	CHECK	r0, 177, 6
	EXIT_OK

	.thumb_func
svc_handler:
	bx	lr
	.ltorg

	.data
	.align	3
x:	.word	5, 0
y:	.word	0, 0
flags:	.space	32

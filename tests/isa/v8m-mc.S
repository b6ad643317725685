@ ARMv8-M acquire/release across cores (2 cores, raptor's board only):
@ both cores add 1 to a shared counter 500 times each with LDAEX/STLEX
@ retry loops, handing over flags with STL and LDA; a STL by core 0 to
@ the word core 1 reserved with LDAEX makes its STLEX fail, a STL to
@ another word does not. Core 0 checks the counter and the results.
#include "common.inc"
	.equ	CPUID, 0xd0000000
	.equ	N, 500
	.text
	.thumb_func
reset:
	ldr	r0, =CPUID
	ldr	r0, [r0]
	lsls	r1, r0, #12
	ldr	r2, =__isa_stack_top
	subs	r2, r1
	mov	sp, r2			@ 4 KiB stack per core
	ldr	r1, =count
	ldr	r5, =flags
	add	r8, r5, #0		@ A
	add	r9, r5, #4		@ B
	add	r10, r5, #16		@ done
	add	r11, r5, #28		@ core 1's increments done
	movw	r6, #N
1:	ldaex	r2, [r1]		@ the contended increments
	adds	r2, #1
	stlex	r3, r2, [r1]
	cmp	r3, #0
	bne	1b
	subs	r6, #1
	bne	1b
	cmp	r0, #0
	beq	core0
core1:
	movs	r0, #1
	stl	r0, [r11]		@ core 1's increments done
	ldr	r1, =x
	@ round 1: core 0 releases another word -> STLEX succeeds
	ldaex	r2, [r1]
	movs	r0, #1
	stl	r0, [r8]		@ A = 1
1:	lda	r0, [r9]		@ wait B == 1
	cmp	r0, #1
	bne	1b
	adds	r2, #1
	stlex	r3, r2, [r1]
	str	r3, [r5, #8]		@ res1
	@ round 2: core 0 releases x itself -> STLEX fails
	ldaexh	r2, [r1]
	movs	r0, #2
	stl	r0, [r8]
1:	lda	r0, [r9]
	cmp	r0, #2
	bne	1b
	stlexh	r3, r2, [r1]
	str	r3, [r5, #12]		@ res2
	movs	r0, #1
	stl	r0, [r10]		@ done
2:	wfi
	b	2b

core0:
1:	lda	r0, [r11]		@ wait for core 1's increments
	cmp	r0, #1
	bne	1b
	ldr	r0, [r1]
	CHECK	r0, 2 * N, 1
	ldr	r1, =x
1:	lda	r0, [r8]
	cmp	r0, #1
	bne	1b
	ldr	r4, =y
	stl	r0, [r4]		@ another word: the reservation stays
	movs	r0, #1
	stl	r0, [r9]
1:	lda	r0, [r8]
	cmp	r0, #2
	bne	1b
	movs	r0, #77
	stlb	r0, [r1]		@ the reserved word: the reservation is lost
	movs	r0, #2
	stl	r0, [r9]
1:	lda	r0, [r10]
	cmp	r0, #1
	bne	1b
	ldr	r0, [r5, #8]
	CHECK	r0, 0, 2
	ldr	r0, [r5, #12]
	CHECK	r0, 1, 3
	ldr	r0, [r1]
	CHECK	r0, 77, 4
	EXIT_OK
	.ltorg

	.data
	.align	3
count:	.word	0, 0
x:	.word	5, 0
y:	.word	0, 0
flags:	.space	32

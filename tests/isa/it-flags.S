@ IT blocks: 16-bit ALU ops do not set flags inside IT (A6.2.1), compares
@ inside IT do and steer the rest of the block, a branch ends a block.
#include "common.inc"
	.text
	.thumb_func
reset:
	movs	r0, #0
	cmp	r0, #0			@ Z=1 C=1
	itttt	eq
	addeq	r1, r0, #1		@ 16-bit ADDS encoding: no flags in IT
	subeq	r2, r0, #5		@ would set N outside IT
	moveq	r3, #0x80		@ MOVS encoding
	lsleq	r4, r3, #24		@ LSLS encoding: would set N and C
	bne	.Lbad1			@ Z still set
	bmi	.Lbad1
	CHECK	r1, 1, 1
	CHECK	r2, 0xfffffffb, 2
	CHECK	r4, 0x80000000, 3
	@ a compare inside the block changes the flags for what follows
	movs	r0, #1
	cmp	r0, #1			@ Z=1
	itete	eq
	cmpeq	r0, #2			@ executes: Z=0 now
	movne	r5, #7			@ else-slot: NE holds now -> executes
	moveq	r6, #9			@ EQ fails now
	addne	r7, r0, r0		@ executes
	CHECK	r5, 7, 4
	CHECK	r7, 2, 5
	cmp	r6, #9
	beq	.Lbad1
	@ conditional ops with every condition
	movs	r0, #0
	subs	r0, #1			@ r0 = -1: N=1 Z=0 C=0 V=0
	ite	lt
	movlt	r1, #10
	movge	r1, #11
	CHECK	r1, 10, 6
	ite	hi
	movhi	r2, #1
	movls	r2, #2
	CHECK	r2, 2, 7
	@ a conditional branch as the last instruction of a block
	movs	r3, #3
	cmp	r3, #3
	itt	eq
	addeq	r3, r3, #1
	beq	.Ltaken
	b	.Lbad1
.Ltaken:
	CHECK	r3, 4, 8
	@ a conditional return (bx lr) inside IT
	bl	func
	CHECK	r0, 42, 9
	@ 32-bit flag-setting op inside IT does set flags
	movs	r0, #0
	cmp	r0, #1			@ Z=0
	it	ne
	addsne.w r1, r0, #0		@ explicit S: Z=1
	bne	.Lbad1
	EXIT_OK
.Lbad1:
	FAIL	10
	.thumb_func
func:
	movs	r0, #42
	cmp	r0, #42
	it	eq
	bxeq	lr
	movs	r0, #0
	bx	lr
	.ltorg

@ Table branches: TBB and TBH with PC-relative and register-based tables.
#include "common.inc"
	.text
	.thumb_func
reset:
	movs	r5, #0
	movs	r4, #0
.Lloop:
	tbb	[pc, r4]
.Ltb:
	.byte	(.Lc0 - .Ltb) / 2, (.Lc1 - .Ltb) / 2, (.Lc2 - .Ltb) / 2, (.Lc3 - .Ltb) / 2
.Lc0:	adds	r5, #1
	b	.Lnext
.Lc1:	adds	r5, #10
	b	.Lnext
.Lc2:	adds	r5, #100
	b	.Lnext
.Lc3:	adds	r5, #1000
.Lnext:
	adds	r4, #1
	cmp	r4, #4
	bne	.Lloop
	CHECK	r5, 1111, 1
	movs	r4, #2
	tbh	[pc, r4, lsl #1]
.Lth:
	.hword	(.Ld0 - .Lth) / 2, (.Ld1 - .Lth) / 2, (.Ld2 - .Lth) / 2
.Ld0:	FAIL	2
.Ld1:	FAIL	3
	.space	600
.Ld2:
	@ register-based table
	ldr	r0, =table
	movs	r1, #1
	adr	r2, .Lbase
	mov	pc, r2
	.align	2
.Lbase:
	tbb	[r0, r1]
.Lafter:
	FAIL	4
	FAIL	5
.Lok:	EXIT_OK
	.align	2
	.ltorg
	.data
table:	.byte	0, (.Lok - .Lafter) / 2, 0, 0

@ spin-forever: never exits; loads, stores and branches forever, so a test
@ can interrupt a long run (raptor record and SIGINT). Not for QEMU.
#include "common.inc"
	.text
	.thumb_func
reset:
	ldr	r4, =0x20001000
	movs	r5, #0
1:	ldr	r0, [r4]
	adds	r0, r0, r5
	str	r0, [r4], #4
	adds	r5, #1
	tst	r5, #255
	bne	1b
	ldr	r4, =0x20001000
	b	1b

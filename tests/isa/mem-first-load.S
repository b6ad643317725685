@ Memory first seen by a load (the replay's initial image, t0350): SRAM
@ outside the ELF's image that the program reads before anything writes
@ it, next to SRAM it writes first and SRAM it never touches.
@   0x20200000..0x2020001f  loaded first (LDM), then stored: known from the
@                           start, by the later load
@   0x20200020..0x20200023  stored first, then loaded: unknown until the store
@   0x20200040..            never accessed: never known
@   32 bytes below the initial SP: read before the first push (stack garbage)
@ The board starts SRAM as zero, so every first load must read 0.
#include "common.inc"
	.equ	AREA, 0x20200000
	.text
	.thumb_func
reset:
	ldr	r7, =AREA
	@ loaded first: eight words by LDM, then a halfword and a byte again
	ldm	r7, {r0-r5}
	orrs	r0, r1
	orrs	r0, r2
	orrs	r0, r3
	orrs	r0, r4
	orrs	r0, r5
	ldrd	r1, r2, [r7, #24]
	orrs	r0, r1
	orrs	r0, r2
	CHECK	r0, 0, 1
	ldr	r1, =0x11223344
	str	r1, [r7, #0]
	ldr	r2, [r7, #0]
	CHECK	r2, 0x11223344, 2
	@ stored first, then loaded
	ldr	r1, =0xcafef00d
	str	r1, [r7, #32]
	ldr	r2, [r7, #32]
	CHECK	r2, 0xcafef00d, 3
	@ the stack below SP, read before anything is pushed there
	sub	sp, #32
	ldm	sp, {r0-r3}
	orrs	r0, r1
	orrs	r0, r2
	orrs	r0, r3
	CHECK	r0, 0, 4
	add	sp, #32
	movs	r0, #1
	movs	r1, #2
	push	{r0, r1}
	pop	{r2, r3}
	CHECK	r3, 2, 5
	EXIT_OK

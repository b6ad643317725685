@ ARMv8-M load-acquire/store-release: LDA, LDAB, LDAH, STL, STLB, STLH
@ move the values of LDR/STR; LDAEX/STLEX (word, byte, halfword) share the
@ exclusive monitor of LDREX/STREX: a STLEX succeeds after its LDAEX, fails
@ after CLREX, after an exception (SVC) and with no reservation, leaving
@ memory alone, and STREX closes a reservation LDAEX opened; an unaligned
@ LDAH is an UNALIGNED UsageFault (LDRH would not be). Also what the
@ Cortex-M33 reads at reset: CPUID, CCR, VTOR (0x10000000, where the
@ an505 boots), ID registers, MVFR2, MSPLIM and PSPLIM; then MSPLIM/PSPLIM writes (8-aligned).
#include "common.inc"
	.text
	.thumb_func
reset:
	ldr	r0, =0xe000ed00
	ldr	r1, [r0]
	CHECK	r1, 0x410fd213, 1	@ CPUID: Cortex-M33 r0p3
	ldr	r1, [r0, #0x14]
	CHECK	r1, 0x201, 2		@ CCR: STKALIGN and bit 0 RES1
	ldr	r1, [r0, #8]
	CHECK	r1, 0x10000000, 3	@ VTOR
	ldr	r1, [r0, #0x40]
	CHECK	r1, 0x30, 50		@ ID_PFR0
	ldr	r1, [r0, #0x44]
	CHECK	r1, 0x210, 51		@ ID_PFR1
	ldr	r1, [r0, #0x60]
	CHECK	r1, 0x01101110, 52	@ ID_ISAR0
	ldr	r1, [r0, #0x68]
	CHECK	r1, 0x20232232, 53	@ ID_ISAR2
	ldr	r1, [r0, #0x7c]
	CHECK	r1, 0x8000c000, 54	@ CTR
	ldr	r1, =0xe000ef48
	ldr	r1, [r1]
	CHECK	r1, 0x40, 55		@ MVFR2
	ldr	r2, =0xe000ef34
	ldr	r1, [r2]
	CHECK	r1, 0xc0000004, 56	@ FPCCR: ASPEN, LSPEN, S
	mvn	r1, #0
	str	r1, [r2]
	ldr	r1, [r2]
	CHECK	r1, 0xfc0007ff, 57
	ldr	r1, =0xc0000004
	str	r1, [r2]
	mrs	r1, msplim
	CHECK	r1, 0, 4
	mrs	r1, psplim
	CHECK	r1, 0, 5
	ldr	r1, =0x38001237
	msr	msplim, r1
	mrs	r2, msplim
	CHECK	r2, 0x38001230, 6	@ bits 2:0 read as zero
	msr	psplim, r1
	mrs	r2, psplim
	CHECK	r2, 0x38001230, 7
	movs	r1, #0
	msr	msplim, r1
	msr	psplim, r1
	@ CCR: STKALIGN and bit 0 stay set, DIV_0_TRP writes
	ldr	r1, =0x10
	str	r1, [r0, #0x14]
	ldr	r2, [r0, #0x14]
	CHECK	r2, 0x211, 8
	ldr	r1, =0x201
	str	r1, [r0, #0x14]

	@ plain acquire/release
	ldr	r4, =buf
	ldr	r1, =0x89abcdef
	stl	r1, [r4]
	lda	r2, [r4]
	CHECK	r2, 0x89abcdef, 10
	ldab	r2, [r4]
	CHECK	r2, 0xef, 11
	ldah	r2, [r4]
	CHECK	r2, 0xcdef, 12
	adds	r5, r4, #1
	movs	r1, #0x5a
	stlb	r1, [r5]
	adds	r5, r4, #2
	movw	r1, #0x1234
	stlh	r1, [r5]
	ldr	r2, [r4]
	CHECK	r2, 0x12345aef, 13

	@ LDAEX/STLEX succeed
	ldaex	r2, [r4]
	CHECK	r2, 0x12345aef, 20
	ldr	r1, =0x11111111
	stlex	r3, r1, [r4]
	CHECK	r3, 0, 21
	ldr	r2, [r4]
	CHECK	r2, 0x11111111, 22
	@ a second STLEX with no reservation fails and stores nothing
	ldr	r1, =0x22222222
	stlex	r3, r1, [r4]
	CHECK	r3, 1, 23
	ldr	r2, [r4]
	CHECK	r2, 0x11111111, 24
	@ CLREX between: fails
	ldaex	r2, [r4]
	clrex
	stlex	r3, r1, [r4]
	CHECK	r3, 1, 25
	@ an exception between (SVC): the monitor is cleared, fails
	ldaex	r2, [r4]
	svc	#1
	stlex	r3, r1, [r4]
	CHECK	r3, 1, 26
	ldr	r2, [r4]
	CHECK	r2, 0x11111111, 27
	@ byte and halfword forms
	adds	r5, r4, #4
	movs	r1, #0x80
	strb	r1, [r5]
	ldaexb	r2, [r5]
	CHECK	r2, 0x80, 30
	movs	r1, #0x7f
	stlexb	r3, r1, [r5]
	CHECK	r3, 0, 31
	ldrb	r2, [r5]
	CHECK	r2, 0x7f, 32
	adds	r5, r4, #6
	movw	r1, #0xbeef
	strh	r1, [r5]
	ldaexh	r2, [r5]
	CHECK	r2, 0xbeef, 33
	movw	r1, #0xcafe
	stlexh	r3, r1, [r5]
	CHECK	r3, 0, 34
	ldrh	r2, [r5]
	CHECK	r2, 0xcafe, 35
	stlexh	r3, r1, [r5]
	CHECK	r3, 1, 36
	@ LDAEX then STREX, LDREX then STLEX: one monitor
	ldaex	r2, [r4]
	ldr	r1, =0x33333333
	strex	r3, r1, [r4]
	CHECK	r3, 0, 40
	ldrex	r2, [r4]
	CHECK	r2, 0x33333333, 41
	ldr	r1, =0x44444444
	stlex	r3, r1, [r4]
	CHECK	r3, 0, 42
	ldr	r2, [r4]
	CHECK	r2, 0x44444444, 43
	ldr	r0, =svc_count
	ldr	r0, [r0]
	CHECK	r0, 1, 44
	@ unaligned: LDRH is fine, LDAH faults (UsageFault enabled)
	ldr	r0, =0xe000ed24
	mov	r1, #1 << 18
	str	r1, [r0]
	adds	r5, r4, #1
	ldrh	r2, [r5]
	ldah	r2, [r5]
	FAIL	45

	.thumb_func
usage_handler:
	ldr	r0, =0xe000ed28
	ldr	r1, [r0]
	CHECK	r1, 1 << 24, 46		@ UFSR.UNALIGNED
	EXIT_OK

	.thumb_func
svc_handler:
	ldr	r0, =svc_count
	ldr	r1, [r0]
	adds	r1, #1
	str	r1, [r0]
	bx	lr

	.data
	.align	3
buf:
	.word	0, 0, 0, 0
svc_count:
	.word	0

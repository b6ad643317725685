@ dsp-test.S: every ARMv7E-M DSP instruction (Cortex-M4) over all pairs of
@ 32 interesting operand values. Differential test: run it on QEMU
@ (mps2-an386) and on raptor --cpu m4 and compare the register traces
@ instruction by instruction (tests/qemu-trace.sh, build/tracecmp). It is
@ also self-checking: every result, and the APSR (Q, GE) after every flag-
@ setting instruction, is folded into a hash (r11 := r11 * r10 + x) that
@ must equal the value QEMU computes (HASH below).
@
@ Registers: r1, r2 operands; r3 accumulator (or RdLo input); r5 RdHi input;
@ r0, r4 results; r6, r7 loop indices; r8 value table; r9 scratch;
@ r10 hash multiplier; r11 hash; r12 APSR pattern that clears Q (NZCV 1010).
@
@ On a Cortex-M3 (mps2-an385, raptor --cpu m3) the first DSP instruction
@ is UNDEFINED: UsageFault UNDEFINSTR, escalated to HardFault (FORCED);
@ hard_handler then exits with status 90 (anything else with 91).
#include "common.inc"
	.equ	CFSR, 0xe000ed28
	.equ	HFSR, 0xe000ed2c
	.equ	NVALS, 32
	.equ	HASH, 0x3bacdc5a	@ QEMU's r11 at the end

	@ r11 := r11 * r10 + reg
	.macro	H reg=r0
	mla	r11, r11, r10, \reg
	.endm
	@ hash the APSR (NZCVQ, GE)
	.macro	HF
	mrs	r9, apsr
	mla	r11, r11, r10, r9
	.endm
	@ clear Q, NZCV := 1010 (GE untouched)
	.macro	CQ
	msr	APSR_nzcvq, r12
	.endm

	@ Parallel op setting GE: result, GE, and SEL under that GE
	.macro	G3 op
	\op	r0, r1, r2
	H
	HF
	sel	r4, r1, r2
	H	r4
	.endm
	@ Plain 3-register op
	.macro	P3 op
	\op	r0, r1, r2
	H
	.endm
	@ 3-register op that may set Q
	.macro	Q3 op
	CQ
	\op	r0, r1, r2
	H
	HF
	.endm
	@ 4-register op (Ra = r3) that may set Q
	.macro	Q4 op
	CQ
	\op	r0, r1, r2, r3
	H
	HF
	.endm
	@ 64-bit accumulate: RdLo = r0 (from r3), RdHi = r4 (from r5)
	.macro	L4 op
	mov	r0, r3
	mov	r4, r5
	\op	r0, r4, r1, r2
	H
	H	r4
	.endm

	.text
	.thumb_func
reset:
	ldr	r10, =0x01000193
	ldr	r11, =0x811c9dc5
	ldr	r12, =0xa0000000
	ldr	r8, =vals
	movs	r1, #1
	movs	r2, #2
	sadd16	r0, r1, r2		@ UNDEFINED on a Cortex-M3
	H
	movs	r6, #0
.Louter:
	movs	r7, #0
.Linner:
	ldr	r1, [r8, r6, lsl #2]
	ldr	r2, [r8, r7, lsl #2]
	add	r9, r6, r7
	adds	r9, #1
	and	r9, r9, #NVALS - 1
	ldr	r3, [r8, r9, lsl #2]
	sub	r9, r6, r7
	and	r9, r9, #NVALS - 1
	ldr	r5, [r8, r9, lsl #2]

	@ ---- parallel add/subtract: signed and unsigned set GE
	CQ
	G3	sadd16
	G3	sasx
	G3	ssax
	G3	ssub16
	G3	sadd8
	G3	ssub8
	G3	uadd16
	G3	uasx
	G3	usax
	G3	usub16
	G3	uadd8
	G3	usub8
	@ saturating, halving: GE and Q untouched
	P3	qadd16
	P3	qasx
	P3	qsax
	P3	qsub16
	P3	qadd8
	P3	qsub8
	P3	shadd16
	P3	shasx
	P3	shsax
	P3	shsub16
	P3	shadd8
	P3	shsub8
	P3	uqadd16
	P3	uqasx
	P3	uqsax
	P3	uqsub16
	P3	uqadd8
	P3	uqsub8
	P3	uhadd16
	P3	uhasx
	P3	uhsax
	P3	uhsub16
	P3	uhadd8
	P3	uhsub8
	HF
	@ SEL under GE taken straight from an operand (APSR_g)
	msr	APSR_g, r3
	P3	sel
	msr	APSR_nzcvqg, r5		@ every flag from r5
	HF
	P3	sel
	@ ---- sum of absolute differences
	P3	usad8
	Q4	usada8
	@ ---- saturating arithmetic
	Q3	qadd
	Q3	qsub
	Q3	qdadd
	Q3	qdsub
	CQ
	ssat16	r0, #1, r1
	H
	HF
	CQ
	ssat16	r0, #8, r1
	H
	HF
	CQ
	ssat16	r0, #16, r2
	H
	HF
	CQ
	usat16	r0, #0, r1
	H
	HF
	CQ
	usat16	r0, #7, r1
	H
	HF
	CQ
	usat16	r0, #15, r2
	H
	HF
	@ ---- packing
	pkhbt	r0, r1, r2
	H
	pkhbt	r0, r1, r2, lsl #1
	H
	pkhbt	r0, r1, r2, lsl #16
	H
	pkhbt	r0, r1, r2, lsl #31
	H
	pkhtb	r0, r1, r2, asr #1
	H
	pkhtb	r0, r1, r2, asr #15
	H
	pkhtb	r0, r1, r2, asr #16
	H
	pkhtb	r0, r1, r2, asr #31
	H
	pkhtb	r0, r1, r2, asr #32
	H
	@ ---- extend and add
	sxtab	r0, r1, r2
	H
	sxtab	r0, r1, r2, ror #8
	H
	sxtah	r0, r1, r2
	H
	sxtah	r0, r1, r2, ror #24
	H
	sxtab16	r0, r1, r2
	H
	sxtab16	r0, r1, r2, ror #16
	H
	sxtb16	r0, r2
	H
	sxtb16	r0, r2, ror #8
	H
	uxtab	r0, r1, r2, ror #16
	H
	uxtab	r0, r1, r2, ror #24
	H
	uxtah	r0, r1, r2
	H
	uxtah	r0, r1, r2, ror #8
	H
	uxtab16	r0, r1, r2
	H
	uxtab16	r0, r1, r2, ror #24
	H
	uxtb16	r0, r2
	H
	uxtb16	r0, r2, ror #16
	H
	@ ---- halfword multiplies
	Q4	smlabb
	Q4	smlabt
	Q4	smlatb
	Q4	smlatt
	P3	smulbb
	P3	smulbt
	P3	smultb
	P3	smultt
	L4	smlalbb
	L4	smlalbt
	L4	smlaltb
	L4	smlaltt
	Q4	smlawb
	Q4	smlawt
	P3	smulwb
	P3	smulwt
	@ ---- dual multiplies
	Q4	smlad
	Q4	smladx
	Q4	smlsd
	Q4	smlsdx
	Q3	smuad
	Q3	smuadx
	Q3	smusd
	Q3	smusdx
	L4	smlald
	L4	smlaldx
	L4	smlsld
	L4	smlsldx
	@ ---- most significant word, UMAAL
	Q4	smmla
	Q4	smmlar
	Q4	smmls
	Q4	smmlsr
	P3	smmul
	P3	smmulr
	L4	umaal
	@ ---- Q is sticky: two saturations in a row, then a non-saturating op
	CQ
	qadd	r0, r1, r1
	qdadd	r0, r2, r2
	qadd	r0, r0, r3
	HF
	H
	@ ---- register aliasing: every input is read before a write
	mov	r0, r1
	qdsub	r0, r0, r0
	H
	mov	r0, r2
	uhsub8	r0, r0, r0
	H
	mov	r0, r1
	smlad	r0, r0, r0, r0
	H
	mov	r0, r2
	smmlsr	r0, r0, r0, r0
	H
	mov	r0, r1
	mov	r4, r2
	umaal	r0, r4, r0, r4
	H
	H	r4
	mov	r0, r3
	mov	r4, r5
	smlsldx	r0, r4, r0, r4
	H
	H	r4
	mov	r4, r2
	smlaltb	r0, r4, r4, r0
	H
	H	r4
	@ ---- inside IT blocks: the condition decides, GE from the executed one
	cmp	r1, r2
	ite	ge
	ssub8ge	r0, r1, r2
	uadd8lt	r0, r1, r2
	H
	HF
	cmp	r3, r5
	itt	hi
	smladxhi r0, r1, r2, r3
	selhi	r0, r0, r5
	H

	adds	r7, #1
	cmp	r7, #NVALS
	bne.w	.Linner
	adds	r6, #1
	cmp	r6, #NVALS
	bne.w	.Louter

	@ the final hash, also in r0 for the trace
	mov	r0, r11
	ldr	r1, =HASH
	cmp	r0, r1
	beq	1f
	FAIL	1
1:	EXIT_OK
	.ltorg

	@ expected on a Cortex-M3 only: UNDEFINSTR escalated to HardFault
	.thumb_func
hard_handler:
	ldr	r1, =CFSR
	ldr	r4, [r1]
	ldr	r1, =HFSR
	ldr	r5, [r1]
	ldr	r6, [sp, #24]		@ stacked PC: the SADD16
	cmp	r4, #1 << 16		@ UNDEFINSTR only
	bne	.Lbadfault
	cmp	r5, #1 << 30		@ FORCED only
	bne	.Lbadfault
	FAIL	90
.Lbadfault:
	FAIL	91
	.ltorg

	.section .rodata
	.align	2
vals:
	.word	0x00000000, 0x00000001, 0xffffffff, 0x00007fff
	.word	0x00008000, 0x7fffffff, 0x80000000, 0x000000ff
	.word	0x80808080, 0x7f7f7f7f, 0x12345678, 0xdeadbeef
	.word	0xffff8000, 0x8000ffff, 0x7fff8000, 0x80007fff
	.word	0x00010001, 0xfffefffe, 0x01ff80fe, 0xa5c3e17f
	.word	0x7fff7fff, 0x80008000, 0xffff0000, 0x0000ffff
	.word	0x40000000, 0xc0000000, 0x00800080, 0xfe01ff02
	.word	0x5a5a5a5a, 0x3c96f00d, 0x00ff00ff, 0x9e3779b9

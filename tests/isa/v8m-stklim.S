@ ARMv8-M stack limits (MSPLIM, PSPLIM), as QEMU 7.2 checks them: an
@ instruction that would move SP below the active stack's limit is a STKOF
@ UsageFault (CFSR bit 20) that leaves SP and memory alone: PUSH (16- and
@ 32-bit), SUB SP, SUBW SP, MOV SP, STR with writeback to SP; down to the
@ limit exactly is fine. On MSP and on PSP. An exception whose frame
@ would go below the limit stacks nothing: SP becomes the limit and the
@ STKOF UsageFault is taken first, the exception (SVC) staying pending; on
@ PSP and on MSP. With UsageFault disabled STKOF escalates to HardFault,
@ from an instruction and from an overflowing entry (taken before the SVC).
#include "common.inc"
	.equ	SHCSR, 0xe000ed24
	.equ	CFSR, 0xe000ed28
	.equ	HFSR, 0xe000ed2c
	.equ	STKOF, 1 << 20

	@ the usage handler skips \bytes of the faulting instruction
	.macro SKIP bytes
	ldr	r0, =skip
	movs	r1, #\bytes
	str	r1, [r0]
	.endm

	.macro FAULTS n, code
	ldr	r0, =faults
	ldr	r0, [r0]
	CHECK	r0, \n, \code
	.endm

	.text
	.thumb_func
reset:
	ldr	r0, =SHCSR
	mov	r1, #1 << 18		@ UsageFault enabled
	str	r1, [r0]
	mov	r7, sp
	@ ---- MSP: instructions
	sub	r0, r7, #0x20
	msr	msplim, r0
	SKIP	2
	push	{r0-r7, lr}		@ 36 bytes: below the limit
	FAULTS	1, 1
	cmp	sp, r7
	bne	.Lbad
	SKIP	4
	push	{r0-r11}		@ 32-bit STMDB
	FAULTS	2, 2
	SKIP	2
	sub	sp, #0x40
	FAULTS	3, 3
	SKIP	4
	subw	sp, sp, #0x40
	FAULTS	4, 4
	SKIP	4
	str	r0, [sp, #-0x40]!
	FAULTS	5, 5
	sub	r8, r7, #0x40
	SKIP	2
	mov	sp, r8
	FAULTS	6, 6
	cmp	sp, r7
	bne	.Lbad
	push	{r0-r7}			@ 32 bytes: down to the limit exactly
	pop	{r0-r7}
	FAULTS	6, 7
	movs	r0, #0
	msr	msplim, r0
	@ ---- PSP in thread mode
	ldr	r6, =psp_top
	msr	psp, r6
	movs	r0, #2
	msr	control, r0
	isb
	sub	r0, r6, #0x20
	msr	psplim, r0
	SKIP	4
	push	{r0-r11}
	FAULTS	7, 10
	cmp	sp, r6
	bne	.Lbad
	SKIP	2
	sub	sp, #0x40
	FAULTS	8, 11
	cmp	sp, r6
	bne	.Lbad
	@ ---- an SVC whose frame would cross PSPLIM
	sub	r0, r6, #0x10
	msr	psplim, r0
	ldr	r0, =mode
	movs	r1, #1
	str	r1, [r0]
	ldr	r0, =resume
	ldr	r1, =.Lpsp_back + 1
	str	r1, [r0]
	svc	#1
.Lpsp_back:
	FAULTS	9, 12
	ldr	r0, =svc_count
	ldr	r0, [r0]
	CHECK	r0, 1, 13		@ the SVC was taken after the fault
	ldr	r0, =rec
	ldr	r1, [r0]
	sub	r2, r6, #0x10
	cmp	r1, r2			@ PSP was the limit in the handler
	bne	.Lbad
	ldr	r1, [r0, #4]
	CHECK	r1, 0xfffffffd, 14	@ EXC_RETURN
	ldr	r1, [r0, #8]
	tst	r1, #1 << 15		@ SHCSR.SVCALLPENDED
	beq	.Lbad
	@ ---- an SVC whose frame would cross MSPLIM
	movs	r0, #0
	msr	control, r0
	isb
	cmp	sp, r7
	bne	.Lbad
	sub	r0, r7, #0x10
	msr	msplim, r0
	ldr	r0, =mode
	movs	r1, #2
	str	r1, [r0]
	ldr	r0, =resume
	ldr	r1, =.Lmsp_back + 1
	str	r1, [r0]
	svc	#2
.Lmsp_back:
	FAULTS	10, 15
	ldr	r0, =svc_count
	ldr	r0, [r0]
	CHECK	r0, 2, 16
	ldr	r0, =rec
	ldr	r1, [r0]
	sub	r2, r7, #0x10
	cmp	r1, r2			@ MSP was the limit in the handler
	bne	.Lbad
	ldr	r1, [r0, #4]
	CHECK	r1, 0xfffffff9, 17
	mov	sp, r7
	@ ---- UsageFault disabled: HardFault, HFSR.FORCED
	ldr	r0, =mode
	movs	r1, #0
	str	r1, [r0]
	ldr	r0, =SHCSR
	movs	r1, #0
	str	r1, [r0]
	sub	r0, r7, #0x20
	msr	msplim, r0
	SKIP	2
	sub	sp, #0x40
	ldr	r0, =hard_count
	ldr	r0, [r0]
	CHECK	r0, 1, 18
	cmp	sp, r7
	bne	.Lbad
	movs	r0, #0
	msr	msplim, r0
	@ ---- UsageFault disabled, an SVC overflowing PSPLIM: HardFault first
	msr	psp, r6
	movs	r0, #2
	msr	control, r0
	isb
	sub	r0, r6, #0x10
	msr	psplim, r0
	ldr	r0, =mode
	movs	r1, #1
	str	r1, [r0]
	ldr	r0, =resume
	ldr	r1, =.Lhf_back + 1
	str	r1, [r0]
	svc	#4
.Lhf_back:
	ldr	r0, =hard_count
	ldr	r0, [r0]
	CHECK	r0, 2, 19
	ldr	r0, =svc_count
	ldr	r0, [r0]
	CHECK	r0, 3, 20		@ the SVC after the HardFault
	ldr	r0, =rec
	ldr	r1, [r0, #4]
	CHECK	r1, 0xfffffffd, 21
	movs	r0, #0
	msr	control, r0
	isb
	cmp	sp, r7
	bne	.Lbad
	EXIT_OK
.Lbad:
	FAIL	90

	@ STKOF: count it, clear CFSR; mode 0 skips the instruction, modes 1
	@ and 2 (nothing was stacked) record SP, LR and SHCSR, drop the limit
	@ and return through a frame made here, to resume. No pushes: SP may
	@ sit at its limit.
	.thumb_func
usage_handler:
	ldr	r0, =CFSR
	ldr	r1, [r0]
	CHECK	r1, STKOF, 80
	str	r1, [r0]
	ldr	r0, =faults
	ldr	r1, [r0]
	adds	r1, #1
	str	r1, [r0]
	ldr	r0, =mode
	ldr	r0, [r0]
	cmp	r0, #0
	bne	.Lentry
	tst	lr, #4
	ite	eq
	mrseq	r0, msp
	mrsne	r0, psp
	ldr	r2, =skip
	ldr	r2, [r2]
	ldr	r1, [r0, #24]
	add	r1, r2
	str	r1, [r0, #24]
	bx	lr
.Lentry:
	ldr	r3, =rec
	cmp	r0, #1
	ite	eq
	mrseq	r1, psp
	mrsne	r1, msp
	str	r1, [r3]
	str	lr, [r3, #4]
	ldr	r2, =SHCSR
	ldr	r2, [r2]
	str	r2, [r3, #8]
	movs	r2, #0
	msr	psplim, r2
	msr	msplim, r2
	ldr	r3, =mode
	str	r2, [r3]
	sub	r1, #0x20		@ the frame: r0-r3, r12, lr = 0
	movs	r2, #0
	str	r2, [r1]
	str	r2, [r1, #4]
	str	r2, [r1, #8]
	str	r2, [r1, #12]
	str	r2, [r1, #16]
	str	r2, [r1, #20]
	ldr	r2, =resume
	ldr	r2, [r2]
	str	r2, [r1, #24]
	mov	r2, #0x01000000
	str	r2, [r1, #28]
	cmp	r0, #1
	ite	eq
	msreq	psp, r1
	movne	sp, r1
	bx	lr

	.thumb_func
hard_handler:
	ldr	r0, =HFSR
	ldr	r1, [r0]
	CHECK	r1, 1 << 30, 81		@ FORCED
	str	r1, [r0]
	ldr	r0, =CFSR
	ldr	r1, [r0]
	CHECK	r1, STKOF, 82
	str	r1, [r0]
	ldr	r0, =hard_count
	ldr	r1, [r0]
	adds	r1, #1
	str	r1, [r0]
	ldr	r0, =mode
	ldr	r0, [r0]
	cmp	r0, #0
	bne	.Lentry			@ an overflowing entry: as usage_handler
	mrs	r0, msp
	ldr	r1, [r0, #24]
	adds	r1, #2
	str	r1, [r0, #24]
	bx	lr

	.thumb_func
svc_handler:
	ldr	r0, =svc_count
	ldr	r1, [r0]
	adds	r1, #1
	str	r1, [r0]
	bx	lr

	.data
	.align	3
faults:	.word	0
skip:	.word	0
mode:	.word	0
resume:	.word	0
rec:	.word	0, 0, 0
svc_count:	.word	0
hard_count:	.word	0
	.align	3
	.space	512
psp_top:

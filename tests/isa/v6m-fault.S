@ ARMv6-M faults (B1.5): HardFault is the only fault. Unaligned word and
@ halfword accesses (CCR.UNALIGN_TRP is RES1), LDM/STM/PUSH/POP off a word,
@ every 32-bit encoding but BL/MSR/MRS/DMB/DSB/ISB, UDF, a BKPT that is not
@ semihosting, an SVC that cannot preempt, a branch to an ARM address, a
@ failed exception return: each enters hard_handler, which checks IPSR, the
@ stacked PC (r4 says where the fault must be) and skips the instruction.
@ CFSR, HFSR and SHCSR do not exist and read as zero.
#include "v6m.inc"
	.equ	SHCSR, 0xe000ed24
	.equ	CFSR, 0xe000ed28
	.equ	HFSR, 0xe000ed2c

	@ \insn must fault once, at itself, and leave r0-r3 alone
	.macro FAULTS code, insn:vararg
	ldr	r4, =.Lfault\@		@ (named: the pool merges "=9f"s)
.Lfault\@:
	\insn
	adds	r6, #1
	cmp	r5, r6
	beq	8f
	FAIL	\code
8:
	.endm

	.text
	.thumb_func
reset:
	movs	r5, #0			@ faults taken (hard_handler)
	movs	r6, #0			@ faults expected
	ldr	r3, =buf
	ldr	r0, [r3]		@ aligned: fine
	CHECK	r0, 0x03020100, 1
	ldrb	r0, [r3, #1]		@ bytes are never unaligned
	CHECK	r0, 0x01, 2
	adds	r3, #1
	FAULTS	10, ldr r0, [r3]
	FAULTS	11, ldrh r0, [r3]
	FAULTS	12, str r0, [r3]
	FAULTS	13, strh r0, [r3]
	movs	r2, #2
	FAULTS	14, ldrsh r0, [r3, r2]
	FAULTS	15, ldr r0, [r3, r2]
	adds	r3, #1			@ buf + 2: halfwords fine, words not
	ldrh	r0, [r3]
	CHECK	r0, 0x0302, 16
	FAULTS	17, ldr r0, [r3, #4]
	FAULTS	18, ldm r3!, {r0, r1}
	ldr	r7, =buf + 2
	cmp	r3, r7			@ no writeback from the faulting LDM
	beq	1f
	FAIL	19
1:	FAULTS	20, stm r3!, {r0, r1}
	@ 32-bit Thumb-2 encodings ARMv6-M does not have
	FAULTS	30, .short 0xeb01, 0x0002	@ add.w r0, r1, r2
	FAULTS	31, .short 0xfb91, 0xf0f2	@ sdiv r0, r1, r2
	FAULTS	32, .short 0xfab1, 0xf081	@ clz r0, r1
	FAULTS	33, .short 0xe853, 0x0f00	@ ldrex r0, [r3]
	FAULTS	34, .short 0xf04f, 0x0001	@ mov.w r0, #1
	FAULTS	35, .short 0xf000, 0xb800	@ b.w (T4)
	FAULTS	36, .short 0xf240, 0x0001	@ movw r0, #1
	FAULTS	37, .short 0xf3bf, 0x8f2f	@ clrex
	FAULTS	38, .short 0xe92d, 0x4001	@ push.w {r0, lr}
	FAULTS	39, .short 0xf7f0, 0xa000	@ udf.w #0
	FAULTS	40, .short 0xee30, 0x0a20	@ vadd.f32 s0, s0, s1
	@ the 32-bit ones it has
	ldr	r0, =0x12345678
	.short	0xf3bf, 0x8f5f		@ dmb
	.short	0xf3bf, 0x8f4f		@ dsb
	.short	0xf3bf, 0x8f6f		@ isb
	bl	1f
1:	mrs	r1, msp
	msr	psp, r1
	mrs	r2, psp
	cmp	r1, r2
	beq	1f
	FAIL	41
1:	@ 16-bit ones that fault
	FAULTS	50, .short 0xde00		@ udf #0
	FAULTS	51, .short 0xbe01		@ bkpt 1
	@ SVC from SVCall's own priority: escalated to HardFault
	movs	r0, #1
	FAULTS	52, svc 0
	mov	r0, r8			@ SVCall ran (r0-r3 come back from its frame)
	cmp	r0, #2
	beq	1f
	FAIL	53
1:	@ a branch to an address with bit 0 clear: the fault is at the target
	ldr	r0, =arm_target
	ldr	r4, =arm_target
	bx	r0
arm_target:
	adds	r6, #1
	cmp	r5, r6
	beq	1f
	FAIL	54
1:	@ an exception return from SVCall to handler mode, which is no
	@ handler's: HardFault at once, on SVCall's frame, LR the bad value
	movs	r0, #2
	ldr	r4, =after_svc
	svc	0
after_svc:
	adds	r6, #1
	cmp	r5, r6
	beq	1f
	FAIL	55
1:	@ the fault status registers are not there
	ldr	r1, =CFSR
	ldr	r0, [r1]
	CHECK	r0, 0, 60
	ldr	r1, =HFSR
	ldr	r0, [r1]
	CHECK	r0, 0, 61
	ldr	r1, =SHCSR
	ldr	r0, =0x70000
	str	r0, [r1]		@ no fault enables: ignored
	ldr	r0, [r1]
	CHECK	r0, 0, 62
	FAULTS	63, ldr r0, [r3]	@ still HardFault
	EXIT_OK

	.thumb_func
svc_handler:
	cmp	r0, #1
	bne	1f
	movs	r0, #2
	mov	r8, r0
	ldr	r4, =after_inner_svc	@ SVC stacks the address after it,
	svc	0			@ escalated or not; it cannot preempt
after_inner_svc:			@ itself: HardFault
	bx	lr
1:	ldr	r0, =0xfffffff5		@ return to handler mode: fails
	bx	r0

	.thumb_func
hard_handler:
	mrs	r0, ipsr
	cmp	r0, #3
	beq	1f
	FAIL	70
1:	mov	r0, sp
	ldr	r1, [r0, #24]		@ the stacked PC: the faulting instruction
	cmp	r1, r4
	beq	1f
	FAIL	71
1:	adds	r5, #1
	mov	r2, lr
	ldr	r7, =0xfffffff5
	cmp	r2, r7
	bne	1f
	ldr	r7, =0xfffffff9		@ the failed return: the frame is SVCall's,
	bx	r7			@ whose stacked PC is past its SVC
1:	ldr	r7, =0xfffffff1		@ the escalated SVC: from SVCall
	cmp	r2, r7
	beq	2f
	ldr	r7, =0xfffffff9
	cmp	r2, r7
	beq	2f
	FAIL	72
2:	ldr	r2, [r0, #28]		@ stacked xPSR: set T again (the ARM branch)
	ldr	r7, =1 << 24
	orrs	r2, r7
	str	r2, [r0, #28]
	ldr	r7, =arm_target
	cmp	r1, r7			@ the target never ran: no skipping it
	beq	3f
	ldr	r7, =after_inner_svc	@ nor past the escalated SVC
	cmp	r1, r7
	beq	3f
	ldrh	r2, [r1]		@ skip the instruction, 16 or 32 bits
	lsrs	r2, r2, #11
	cmp	r2, #0x1d
	blo	1f
	adds	r1, #2
1:	adds	r1, #2
	str	r1, [r0, #24]
3:	bx	lr

	.data
	.align	2
buf:
	.byte	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15

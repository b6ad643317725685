/*
 * irq: the Cortex-M exception model, driven only by software so QEMU and the
 * raptor board take every exception at the same instruction (no SysTick, no
 * device interrupts). Each section logs handler entries and compares the log
 * with the order the architecture prescribes:
 *
 *   pend      IRQ pended through NVIC_ISPR and NVIC_STIR runs at once
 *   primask   CPSID I holds a pended IRQ back until CPSIE I
 *   basepri   BASEPRI masks priorities >= its value, lets higher ones in
 *   order     several IRQs released together run by priority, then number
 *   nesting   a low-priority handler is preempted by the higher IRQs it pends;
 *             equal/lower ones tail-chain after it; PendSV ties with the
 *             lowest IRQ and wins on exception number
 *   svc       SVC immediate and argument read from the stacked frame, result
 *             written back into the stacked r0
 *   psp       thread mode on PSP (CONTROL.SPSEL), then unprivileged
 *             (CONTROL.nPRIV) where CPSID is ignored, SVC to get back
 *   align     exception entry with SP = 4 mod 8: the frame is realigned and
 *             stacked xPSR bit 9 says so; SP comes back exactly
 *   faults    UsageFault for SDIV by zero (CCR.DIV_0_TRP) and UDF, resumed by
 *             stepping the stacked PC; SVC under PRIMASK escalates to HardFault
 *
 * The whole suite runs ROUNDS times so the run is long enough to trace.
 */
#include <string.h>

#include "common.h"

#define ROUNDS 100

/* IRQ lines nothing on mps2-an385 drives; priorities use the top 3 bits,
 * the only ones every Cortex-M3/M4 implements. */
enum { IRQ_SAME = 26, IRQ_ALIGN = 27, IRQ_LOW = 28, IRQ_MID = 29, IRQ_HIGH = 30, IRQ_LOWEST = 31 };
#define PRIO_HIGH 0x40
#define PRIO_MID 0x80
#define PRIO_LOW 0xC0
#define PRIO_LOWEST 0xE0

/* Log entries: IRQ n logs n; these mark the rest. */
enum { EV_LOW_EXIT = 100, EV_PENDSV = 101, EV_SVC = 102 };

static volatile uint32_t ev_log[32];
static volatile unsigned ev_len;
static volatile uint32_t irq_count[BOARD_NUM_IRQS];
static volatile uint32_t seen_ipsr[BOARD_NUM_IRQS];
static volatile int nesting; /* IRQ_LOW's handler pends the others */
static volatile int low_was_active;

static void note(uint32_t ev)
{
	if (ev_len < ARRAY_SIZE(ev_log))
		ev_log[ev_len++] = ev;
}

static void log_reset(void)
{
	ev_len = 0;
}

/* Compare the log with want[0..n); names the section on mismatch. */
static int log_expect(const char *section, const uint32_t *want, unsigned n)
{
	int same = ev_len == n;

	for (unsigned i = 0; same && i < n; i++)
		same = ev_log[i] == want[i];
	if (same)
		return 0;
	printf("FAIL irq %s: log", section);
	for (unsigned i = 0; i < ev_len; i++)
		printf(" %lu", (unsigned long)ev_log[i]);
	printf(", want");
	for (unsigned i = 0; i < n; i++)
		printf(" %lu", (unsigned long)want[i]);
	printf("\n");
	return 1;
}

static void irq_common(unsigned irq)
{
	note(irq);
	irq_count[irq]++;
	seen_ipsr[irq] = get_ipsr();
}

void IRQ26_Handler(void)
{
	irq_common(IRQ_SAME);
}

void IRQ29_Handler(void)
{
	irq_common(IRQ_MID);
}

void IRQ31_Handler(void)
{
	irq_common(IRQ_LOWEST);
}

void IRQ30_Handler(void)
{
	irq_common(IRQ_HIGH);
	if (nesting) {
		low_was_active = nvic_is_active(IRQ_LOW);
		/* PendSV has the lowest priority: it waits for everyone. */
		pendsv_trigger();
	}
}

/* Pend a higher, a middle, and two lower-or-equal IRQs from inside. */
void IRQ28_Handler(void)
{
	irq_common(IRQ_LOW);
	if (!nesting)
		return;
	nvic_set_pending(IRQ_HIGH);   /* preempts right here */
	nvic_set_pending(IRQ_LOWEST); /* lower: waits */
	nvic_trigger(IRQ_MID);        /* preempts right here */
	nvic_set_pending(IRQ_LOW);    /* itself, already active: waits */
	nesting = 0;                  /* the second IRQ_LOW pends nothing */
	note(EV_LOW_EXIT);
}

void PendSV_Handler(void)
{
	note(EV_PENDSV);
}

static int test_pend(void)
{
	static const uint32_t want[] = {IRQ_MID, IRQ_MID};

	log_reset();
	nvic_set_pending(IRQ_MID);
	nvic_trigger(IRQ_MID);
	if (seen_ipsr[IRQ_MID] != EXC_IRQ0 + IRQ_MID)
		return fail("irq", "pend: IPSR in handler %lu, want %d",
			    (unsigned long)seen_ipsr[IRQ_MID], EXC_IRQ0 + IRQ_MID);
	return log_expect("pend", want, ARRAY_SIZE(want));
}

static int test_primask(void)
{
	static const uint32_t want[] = {IRQ_MID};

	log_reset();
	irq_disable();
	nvic_set_pending(IRQ_MID);
	if (ev_len != 0 || !nvic_is_pending(IRQ_MID))
		return fail("irq", "primask: IRQ ran (%u) or not pending", ev_len);
	irq_enable();
	isb();
	if (nvic_is_pending(IRQ_MID))
		return fail("irq", "primask: still pending after CPSIE");
	return log_expect("primask", want, ARRAY_SIZE(want));
}

static int test_basepri(void)
{
	static const uint32_t want[] = {IRQ_HIGH, IRQ_MID};

	log_reset();
	set_basepri(PRIO_MID); /* masks PRIO_MID and lower (numerically >=) */
	isb();
	nvic_set_pending(IRQ_MID);
	nvic_set_pending(IRQ_HIGH);
	if (!nvic_is_pending(IRQ_MID))
		return fail("irq", "basepri: IRQ_MID not held back");
	set_basepri(0);
	isb();
	return log_expect("basepri", want, ARRAY_SIZE(want));
}

static int test_order(void)
{
	/* Priority first; IRQ_SAME and IRQ_MID tie, so the lower number wins. */
	static const uint32_t want[] = {IRQ_HIGH, IRQ_SAME, IRQ_MID, IRQ_LOW, IRQ_LOWEST};

	log_reset();
	irq_disable();
	nvic_set_pending(IRQ_LOWEST);
	nvic_set_pending(IRQ_LOW);
	nvic_set_pending(IRQ_MID);
	nvic_set_pending(IRQ_HIGH);
	nvic_set_pending(IRQ_SAME);
	irq_enable();
	isb();
	return log_expect("order", want, ARRAY_SIZE(want));
}

static int test_nesting(void)
{
	/* PendSV (exception 14) and IRQ_LOWEST (exception 47) tie on priority:
	 * the lower exception number goes first. */
	static const uint32_t want[] = {IRQ_LOW, IRQ_HIGH, IRQ_MID, EV_LOW_EXIT,
					IRQ_LOW, EV_PENDSV, IRQ_LOWEST};

	log_reset();
	nesting = 1;
	low_was_active = 0;
	nvic_set_pending(IRQ_LOW);
	if (!low_was_active)
		return fail("irq", "nesting: IRQ_LOW not active under IRQ_HIGH");
	return log_expect("nesting", want, ARRAY_SIZE(want));
}

/* ------------------------------------------------------------------ */
/* SVC and PSP                                                         */
/* ------------------------------------------------------------------ */

enum { SVC_TRIPLE = 1, SVC_WHERE = 2, SVC_PRIV = 3, SVC_ESCALATE = 4 };

static volatile uint32_t svc_exc_return, svc_frame;
static uint64_t psp_stack[128]; /* 1 KiB, 8-aligned */

/*
 * frame: r0 r1 r2 r3 r12 lr pc xpsr as stacked; exc_return: the LR value.
 * The SVC immediate is the low byte of the 16-bit SVC before the stacked PC.
 */
void svc_dispatch(uint32_t *frame, uint32_t exc_return);
void svc_dispatch(uint32_t *frame, uint32_t exc_return)
{
	uint8_t imm = ((const uint8_t *)frame[6])[-2];

	note(EV_SVC);
	switch (imm) {
	case SVC_TRIPLE:
		frame[0] = frame[0] * 3 + 1;
		break;
	case SVC_WHERE:
		svc_exc_return = exc_return;
		svc_frame = (uint32_t)frame;
		frame[0] = get_control();
		break;
	case SVC_PRIV: /* handler mode may write nPRIV: drop it */
		set_control(get_control() & ~1u);
		isb();
		break;
	default:
		frame[0] = 0xBAD;
	}
}

/* Naked: the frame is on MSP or PSP as EXC_RETURN bit 2 says. The tail call
 * keeps LR = EXC_RETURN, so svc_dispatch's return is the exception return. */
__attribute__((naked)) void SVC_Handler(void)
{
	__asm__ volatile("tst     lr, #4\n\t"
			 "ite     eq\n\t"
			 "mrseq   r0, msp\n\t"
			 "mrsne   r0, psp\n\t"
			 "mov     r1, lr\n\t"
			 "b       svc_dispatch\n\t");
}

/* Run fn() in thread mode on a separate PSP stack, then return to MSP. */
__attribute__((naked)) static void run_on_psp(void (*fn)(void) __attribute__((unused)),
						     uint32_t stack_top __attribute__((unused)))
{
	__asm__ volatile("push    {r4, lr}\n\t"
			 "msr     psp, r1\n\t"
			 "mrs     r4, control\n\t"
			 "orr     r1, r4, #2\n\t" /* SPSEL: thread mode uses PSP */
			 "msr     control, r1\n\t"
			 "isb\n\t"
			 "blx     r0\n\t"
			 "msr     control, r4\n\t" /* back on MSP (still privileged) */
			 "isb\n\t"
			 "pop     {r4, pc}\n\t");
}

static volatile uint32_t psp_errors; /* bit per failed check */
static volatile uint32_t psp_control, handler_control, unpriv_control, unpriv_primask;

static void on_psp(void)
{
	uint32_t sp;

	__asm__ volatile("mov %0, sp" : "=r"(sp));
	/* SP may equal the top exactly: at -O2 this function pushes nothing. */
	if (sp <= (uint32_t)psp_stack || sp > (uint32_t)(psp_stack + ARRAY_SIZE(psp_stack)))
		psp_errors |= 1;
	psp_control = get_control();
	/* Exception entry clears CONTROL.SPSEL: the handler reads 0 there. */
	handler_control = svc_call(SVC_WHERE, 0);

	/* Unprivileged: CPSID is ignored, MRS still works, SVC still traps. */
	set_control(get_control() | 1u);
	isb();
	irq_disable();
	unpriv_primask = get_primask();
	unpriv_control = get_control();
	if (svc_call(SVC_TRIPLE, 14) != 43)
		psp_errors |= 2;
	svc_call(SVC_PRIV, 0);
	if (get_control() & 1u)
		psp_errors |= 4;
}

static int test_svc(void)
{
	static const uint32_t want[] = {EV_SVC, EV_SVC, EV_SVC, EV_SVC, EV_SVC};
	uint32_t r;

	log_reset();
	r = svc_call(SVC_TRIPLE, 5);
	if (r != 16)
		return fail("irq", "svc: SVC_TRIPLE(5) returned %lu", (unsigned long)r);
	svc_call(SVC_WHERE, 0);
	if (svc_exc_return != 0xFFFFFFF9u)
		return fail("irq", "svc on MSP: EXC_RETURN %08lx", (unsigned long)svc_exc_return);

	psp_errors = 0;
	run_on_psp(on_psp, (uint32_t)(psp_stack + ARRAY_SIZE(psp_stack)));
	if (psp_errors != 0)
		return fail("irq", "psp: failed checks %lx", (unsigned long)psp_errors);
	if (svc_exc_return != 0xFFFFFFFDu || psp_control != 2u || handler_control != 0u)
		return fail("irq", "svc on PSP: EXC_RETURN %08lx CONTROL %lx (thread) %lx (handler)",
			    (unsigned long)svc_exc_return, (unsigned long)psp_control,
			    (unsigned long)handler_control);
	if (svc_frame < (uint32_t)psp_stack ||
	    svc_frame >= (uint32_t)(psp_stack + ARRAY_SIZE(psp_stack)))
		return fail("irq", "svc on PSP: frame at %08lx", (unsigned long)svc_frame);
	if (unpriv_control != 3u || unpriv_primask != 0)
		return fail("irq", "unprivileged: CONTROL %lx PRIMASK %lx",
			    (unsigned long)unpriv_control, (unsigned long)unpriv_primask);
	if (get_control() != 0)
		return fail("irq", "CONTROL %lx after PSP run", (unsigned long)get_control());
	return log_expect("svc", want, ARRAY_SIZE(want));
}

/* ------------------------------------------------------------------ */
/* Stack alignment on exception entry                                  */
/* ------------------------------------------------------------------ */

static volatile uint32_t align_frame, align_xpsr;
static uint32_t align_sp[2]; /* SP before the exception, SP after it */

void irq_align_c(uint32_t *frame);
void irq_align_c(uint32_t *frame)
{
	align_frame = (uint32_t)frame;
	align_xpsr = frame[7];
	note(IRQ_ALIGN);
}

/* Naked: MSP at entry is the frame, before any push of ours. */
__attribute__((naked)) void IRQ27_Handler(void)
{
	__asm__ volatile("mrs     r0, msp\n\t"
			 "b       irq_align_c\n\t");
}

/*
 * Pend IRQ_ALIGN with SP = 8k + misalign (0 or 4), so it is taken there.
 * SP before and after go to out[0], out[1].
 */
__attribute__((naked)) static void pend_with_sp(uint32_t misalign __attribute__((unused)),
						       uint32_t *out __attribute__((unused)))
{
	__asm__ volatile("push    {r4, r5, r6, lr}\n\t"
			 "mov     r4, sp\n\t"
			 "bic     r5, r4, #7\n\t"
			 "sub     r5, r5, #8\n\t"
			 "add     r5, r5, r0\n\t"
			 "mov     sp, r5\n\t"
			 "str     r5, [r1]\n\t"
			 "movw    r2, #:lower16:0xE000E200\n\t" /* NVIC_ISPR0 */
			 "movt    r2, #:upper16:0xE000E200\n\t"
			 "mov     r3, #(1 << 27)\n\t" /* IRQ_ALIGN */
			 "str     r3, [r2]\n\t"
			 "dsb\n\t"
			 "isb\n\t" /* taken no later than here */
			 "mov     r6, sp\n\t"
			 "str     r6, [r1, #4]\n\t"
			 "mov     sp, r4\n\t"
			 "pop     {r4, r5, r6, pc}\n\t");
}

static int test_align_once(uint32_t misalign)
{
	pend_with_sp(misalign, align_sp);
	uint32_t realigned = (align_xpsr >> 9) & 1u;

	if (realigned != (misalign != 0))
		return fail("irq", "align %lu: stacked xPSR %08lx", (unsigned long)misalign,
			    (unsigned long)align_xpsr);
	if ((align_frame & 7u) != 0 || align_frame + 32 + 4 * realigned != align_sp[0])
		return fail("irq", "align %lu: SP %08lx, frame %08lx", (unsigned long)misalign,
			    (unsigned long)align_sp[0], (unsigned long)align_frame);
	if (align_sp[1] != align_sp[0])
		return fail("irq", "align %lu: SP %08lx after return, was %08lx",
			    (unsigned long)misalign, (unsigned long)align_sp[1],
			    (unsigned long)align_sp[0]);
	return 0;
}

static int test_align(void)
{
	static const uint32_t want[] = {IRQ_ALIGN, IRQ_ALIGN};

	log_reset();
	if (test_align_once(4) != 0 || test_align_once(0) != 0)
		return 1;
	return log_expect("align", want, ARRAY_SIZE(want));
}

/* ------------------------------------------------------------------ */
/* Faults                                                              */
/* ------------------------------------------------------------------ */

#define SCB_HFSR REG32(0xE000ED2Cu)
#define HFSR_FORCED (1u << 30)
#define UFSR_UNDEFINSTR (1u << 16) /* CFSR bit positions */
#define UFSR_DIVBYZERO (1u << 25)

static volatile uint32_t fault_cfsr, fault_hfsr, expect_hardfault;

/* Step over the faulting instruction: 32-bit if its first halfword says so. */
static void skip_insn(uint32_t *frame)
{
	uint16_t hw = *(const uint16_t *)frame[6];

	frame[6] += (hw >> 11) >= 0x1D ? 4 : 2;
}

void usage_fault_c(uint32_t *frame);
void usage_fault_c(uint32_t *frame)
{
	fault_cfsr = SCB_CFSR;
	SCB_CFSR = fault_cfsr; /* write-one-to-clear */
	skip_insn(frame);
}

__attribute__((naked)) void UsageFault_Handler(void)
{
	__asm__ volatile("tst     lr, #4\n\t"
			 "ite     eq\n\t"
			 "mrseq   r0, msp\n\t"
			 "mrsne   r0, psp\n\t"
			 "b       usage_fault_c\n\t");
}

/* Only the escalated SVC is expected; anything else is a real crash. */
void HardFault_Handler(void)
{
	if (!expect_hardfault) {
		semi_puts("FAIL irq: unexpected HardFault\n");
		board_exit(128 + EXC_HARDFAULT);
	}
	expect_hardfault = 0;
	fault_hfsr = SCB_HFSR;
	SCB_HFSR = fault_hfsr;
}

static int32_t sdiv(int32_t a, int32_t b)
{
	int32_t q;

	/* Inline asm: a C division by a visible zero is undefined behaviour
	 * and the compiler could drop it. */
	__asm__ volatile("sdiv %0, %1, %2" : "=r"(q) : "r"(a), "r"(b));
	return q;
}

static int test_faults(void)
{
	SCB_SHCSR |= SHCSR_USGFAULTENA;
	SCB_CCR |= CCR_DIV_0_TRP;
	dsb();
	isb();

	fault_cfsr = 0;
	(void)sdiv(7, 0);
	if ((fault_cfsr & UFSR_DIVBYZERO) == 0)
		return fail("irq", "sdiv by 0: CFSR %08lx", (unsigned long)fault_cfsr);

	fault_cfsr = 0;
	__asm__ volatile("udf #7" ::: "memory");
	if ((fault_cfsr & UFSR_UNDEFINSTR) == 0)
		return fail("irq", "udf: CFSR %08lx", (unsigned long)fault_cfsr);

	/* Without the trap, division by zero is defined to give 0. */
	SCB_CCR &= ~CCR_DIV_0_TRP;
	dsb();
	isb();
	if (sdiv(7, 0) != 0 || sdiv(-7, 2) != -3)
		return fail("irq", "sdiv without trap");

	/* PRIMASK raises execution priority to 0, so SVC (priority 0) cannot
	 * be taken: it escalates to HardFault, which then resumes after it. */
	expect_hardfault = 1;
	fault_hfsr = 0;
	irq_disable();
	uint32_t r = svc_call(SVC_TRIPLE, 1);
	irq_enable();
	if (expect_hardfault || (fault_hfsr & HFSR_FORCED) == 0)
		return fail("irq", "SVC under PRIMASK: HFSR %08lx", (unsigned long)fault_hfsr);
	if (r != 1)
		return fail("irq", "SVC under PRIMASK ran the SVC handler (r0=%lu)",
			    (unsigned long)r);
	return 0;
}

static void setup(void)
{
	SCB_CCR |= CCR_STKALIGN; /* the reset value on r2p0+, set it anyway */
	scb_set_priority(EXC_PENDSV, PRIO_LOWEST);
	nvic_set_priority(IRQ_SAME, PRIO_MID);
	nvic_set_priority(IRQ_ALIGN, PRIO_MID);
	nvic_set_priority(IRQ_LOW, PRIO_LOW);
	nvic_set_priority(IRQ_MID, PRIO_MID);
	nvic_set_priority(IRQ_HIGH, PRIO_HIGH);
	nvic_set_priority(IRQ_LOWEST, PRIO_LOWEST);
	nvic_enable(IRQ_SAME);
	nvic_enable(IRQ_ALIGN);
	nvic_enable(IRQ_LOW);
	nvic_enable(IRQ_MID);
	nvic_enable(IRQ_HIGH);
	nvic_enable(IRQ_LOWEST);
}

int main(void)
{
	setup();
	for (int round = 0; round < ROUNDS; round++) {
		if (test_pend() || test_primask() || test_basepri() || test_order() ||
		    test_nesting() || test_svc() || test_align() || test_faults())
			return fail("irq", "round %d", round);
	}
	for (unsigned irq = 0; irq < BOARD_NUM_IRQS; irq++)
		if (nvic_is_active(irq) || nvic_is_pending(irq))
			return fail("irq", "IRQ %u left active or pending", irq);
	printf("irq ok: %d rounds, IRQ_MID taken %lu times\n", ROUNDS,
	       (unsigned long)irq_count[IRQ_MID]);
	return 0;
}

/*
 * exc.c: the ARMv7-M exception model (B1.5) and the System Control Space
 * (SysTick, NVIC, SCB) of one core.
 *
 * Tail-chaining (B1.5.12) is modelled as QEMU 7.2 does it: when an
 * exception return finds a pending exception that may preempt the context it
 * returns to, the frame stays on the stack, R0-R3/R12 keep the handler's
 * values, LR keeps the EXC_RETURN value, and the new handler starts at once.
 */
#include <string.h>

#include "isa/isa_priv.h"
#include "isa/model.h"

#define CCR_STKALIGN (1u << 9)
#define CCR_UNALIGN_TRP (1u << 3)
#define CCR_NONBASETHRDENA (1u << 0)
#define SHCSR_ENA_MEM (1u << 16)
#define SHCSR_ENA_BUS (1u << 17)
#define SHCSR_ENA_USG (1u << 18)
#define HFSR_FORCED (1u << 30)

static int has_fpu(const struct isa_cpu *c)
{
	return isa_model_info(c->model)->fpu != ISA_FPU_NONE;
}

/* FPv5-D16, the Cortex-M7's: its own MVFR0-2 */
static int has_dp(const struct isa_cpu *c)
{
	return isa_model_info(c->model)->fpu == ISA_FPU_DP;
}

/* ARMv6-M (Cortex-M0+): a smaller SCS and HardFault as the only fault. */
static int v6m(const struct isa_cpu *c)
{
	return c->dec->v6m;
}

/* ARMv8-M mainline (Cortex-M33): stack limits, its EXC_RETURN, its CCR. */
static int v8m(const struct isa_cpu *c)
{
	return c->dec->v8m;
}

/*
 * CCR on ARMv8-M as QEMU 7.2's mps2-an505 has it: NONBASETHRDENA and
 * STKALIGN are RES1 (reset 0x201); USERSETMPEND, UNALIGN_TRP, DIV_0_TRP
 * and BFHFNMIGN are writable, STKOFHFNMIGN is not (so stack limits are
 * always checked, at negative priority too).
 */
#define CCR_V8M_RES1 0x201u
#define CCR_V8M_WRITABLE 0x11au

void isa_scs_reset(struct isa_cpu *c)
{
	memset(&c->s.scs, 0, sizeof(c->s.scs));
	c->s.scs.ccr = CCR_STKALIGN; /* QEMU's reset value (ARM's recommendation) */
	if (v6m(c))
		c->s.scs.ccr |= CCR_UNALIGN_TRP; /* RES1 on ARMv6-M: every unaligned access faults */
	if (v8m(c))
		c->s.scs.ccr = CCR_V8M_RES1;
	c->s.scs.syst_csr = 1u << 2; /* CLKSOURCE: the processor clock */
	/* FP extension: QEMU's reset, automatic and lazy state preservation on */
	if (has_fpu(c))
		c->s.fpccr = FPCCR_ASPEN | FPCCR_LSPEN;
	if (has_fpu(c) && v8m(c))
		c->s.fpccr |= FPCCR_S; /* the FP context is Secure */
}

/* Raw priority of exception n (B1.5.4): fixed for Reset/NMI/HardFault. */
static int exc_prio(const struct isa_cpu *c, unsigned n)
{
	if (n == EXC_RESET)
		return -3;
	if (n == EXC_NMI)
		return -2;
	if (n == EXC_HARDFAULT)
		return -1;
	if (n < 16)
		return c->s.scs.shpr[n - 4];
	return c->s.scs.nvic_prio[n - 16];
}

/* Group priority under AIRCR.PRIGROUP: subpriority bits do not preempt. */
static int group_prio(const struct isa_cpu *c, int p)
{
	if (p < 0)
		return p;
	return p & ~((2 << c->s.scs.aircr_prigroup) - 1) & 0xff;
}

static int is_active(const struct isa_cpu *c, unsigned n)
{
	if (n < 16)
		return c->s.scs.sys_active >> n & 1;
	return c->s.scs.nvic_active >> (n - 16) & 1;
}

static void set_active(struct isa_cpu *c, unsigned n, int on)
{
	uint32_t *w = n < 16 ? &c->s.scs.sys_active : &c->s.scs.nvic_active;
	uint32_t bit = 1u << (n < 16 ? n : n - 16);

	*w = on ? *w | bit : *w & ~bit;
}

static void set_pending(struct isa_cpu *c, unsigned n, int on)
{
	uint32_t *w = n < 16 ? &c->s.scs.sys_pending : &c->s.scs.nvic_pending;
	uint32_t bit = 1u << (n < 16 ? n : n - 16);

	*w = on ? *w | bit : *w & ~bit;
}

/* Current execution priority (B1.5.4), 256 in thread mode with no boost. */
static int exec_prio(const struct isa_cpu *c)
{
	int ep = 256;
	uint32_t a;

	for (a = c->s.scs.sys_active; a; a &= a - 1) {
		int p = group_prio(c, exc_prio(c, __builtin_ctz(a)));

		if (p < ep)
			ep = p;
	}
	for (a = c->s.scs.nvic_active; a; a &= a - 1) {
		int p = group_prio(c, exc_prio(c, 16 + __builtin_ctz(a)));

		if (p < ep)
			ep = p;
	}
	if (c->s.basepri && group_prio(c, c->s.basepri) < ep)
		ep = group_prio(c, c->s.basepri);
	if (c->s.primask && ep > 0)
		ep = 0;
	if (c->s.faultmask && ep > -1)
		ep = -1;
	return ep;
}

/* Highest-priority pending enabled exception, 0 if none (ties: lowest number). */
static unsigned best_pending(const struct isa_cpu *c)
{
	unsigned best = 0;
	int bp = 1000;
	uint32_t m;

	for (m = c->s.scs.sys_pending; m; m &= m - 1) {
		unsigned n = __builtin_ctz(m);

		if (exc_prio(c, n) < bp)
			bp = exc_prio(c, n), best = n;
	}
	for (m = c->s.scs.nvic_pending & c->s.scs.nvic_enable; m; m &= m - 1) {
		unsigned n = 16 + __builtin_ctz(m);

		if (exc_prio(c, n) < bp)
			bp = exc_prio(c, n), best = n;
	}
	return best;
}

int isa_pending_preempts(const struct isa_cpu *c)
{
	unsigned n;

	if (!c->s.scs.sys_pending && !(c->s.scs.nvic_pending & c->s.scs.nvic_enable))
		return 0;
	n = best_pending(c);
	return n && group_prio(c, exc_prio(c, n)) < exec_prio(c);
}

/*
 * WFI wakes for an exception that would preempt if PRIMASK were clear
 * (B1.5.19), so `cpsid i; wfi; cpsie i` works.
 */
int isa_pending_wakes_wfi(const struct isa_cpu *c)
{
	struct isa_cpu t;

	if (!c->s.scs.sys_pending && !(c->s.scs.nvic_pending & c->s.scs.nvic_enable))
		return 0;
	t.s = c->s;
	t.s.primask = 0;
	return isa_pending_preempts(&t);
}

/* The limit of the stack in use: PSPLIM in thread mode on PSP, else MSPLIM. */
static uint32_t sp_limit(const struct isa_cpu *c)
{
	return isa_sp_is_psp(c) ? c->s.psplim : c->s.msplim;
}

int isa_stack_check(struct isa_cpu *c, uint32_t newsp)
{
	if (!v8m(c) || newsp >= sp_limit(c))
		return EX_OK;
	return isa_fault(c, EXC_USAGEFAULT, UFSR_STKOF, 0);
}

int isa_fault(struct isa_cpu *c, int exc, uint32_t cfsr_bits, uint32_t addr)
{
	c->s.scs.cfsr |= cfsr_bits;
	if (cfsr_bits & BFSR_BFARVALID)
		c->s.scs.bfar = addr;
	c->s.pend_fault = exc;
	return EX_FAULT;
}

/*
 * FPCCR on an entry that defers the FP save (QEMU's v7m_update_fpccr for
 * ARMv7-M): where the save goes and the state the save will need.
 */
static void lazy_fpccr(struct isa_cpu *c, uint32_t fpcar)
{
	uint32_t v = c->s.fpccr & ~(FPCCR_LSPACT | FPCCR_USER | FPCCR_THREAD | FPCCR_HFRDY |
				    FPCCR_MMRDY | FPCCR_BFRDY | FPCCR_MONRDY | FPCCR_UFRDY);
	int ep = exec_prio(c);

	c->s.fpcar = fpcar & ~7u;
	v |= FPCCR_LSPACT;
	/* v8-M in Secure state: S set; SPLIMVIOL says no limit violation (not checked) */
	if (v8m(c))
		v = (v | FPCCR_S) & ~FPCCR_SPLIMVIOL;
	if (!c->s.ipsr && (c->s.control & 1))
		v |= FPCCR_USER;
	if (!c->s.ipsr)
		v |= FPCCR_THREAD;
	if (ep > -1)
		v |= FPCCR_HFRDY;
	if ((c->s.scs.shcsr & SHCSR_ENA_BUS) && exc_prio(c, EXC_BUSFAULT) < ep)
		v |= FPCCR_BFRDY;
	if ((c->s.scs.shcsr & SHCSR_ENA_MEM) && exc_prio(c, EXC_MEMMANAGE) < ep)
		v |= FPCCR_MMRDY;
	if ((c->s.scs.shcsr & SHCSR_ENA_USG) && exc_prio(c, EXC_USAGEFAULT) < ep)
		v |= FPCCR_UFRDY; /* QEMU sets it on ARMv7-M too */
	c->s.fpccr = v;
}

/*
 * EXC_RETURN of an entry from the current state (fp: an extended frame).
 * ARMv8-M (QEMU's v7m_exception_taken, a core that stays Secure): ones in
 * 31:7, S (6) and DCRS (5) set, FType (4), Mode (3: from thread mode),
 * SPSEL (2: CONTROL.SPSEL, which v8-M keeps in handler mode too), ES (0)
 * set; in ordinary use the same values as ARMv7-M's.
 */
static uint32_t entry_exc_return(const struct isa_cpu *c, int fp)
{
	uint32_t v;

	if (v8m(c))
		v = 0xffffffe1u | (c->s.ipsr ? 0 : 8u) | (c->s.control & 2u ? 4u : 0);
	else if (c->s.ipsr)
		v = 0xfffffff1u;
	else
		v = isa_sp_is_psp(c) ? 0xfffffffdu : 0xfffffff9u;
	return fp ? v & ~0x10u : v | 0x10u; /* FType 0: an extended frame */
}

/* ExceptionTaken's last part: the handler of n starts with LR = exc_return. */
static void take(struct isa_cpu *c, unsigned n, uint32_t exc_return, uint32_t vec,
		 struct isa_step *out, uint32_t ret)
{
	c->s.r[14] = exc_return;
	c->s.r[15] = vec & ~1u;
	c->s.tbit_clear = !(vec & 1);
	c->s.ipsr = n;
	c->s.it = 0;
	set_pending(c, n, 0);
	set_active(c, n, 1);
	isa_clear_excl(c);
	c->s.event = 1;
	c->s.sleeping = 0;
	out->ev = ISA_EV_EXCEPTION;
	out->exc = n;
	out->pc = ret;
	out->next_pc = c->s.r[15];
}

/*
 * Pend a synchronous fault raised outside an instruction, escalating it
 * to HardFault when it is disabled or cannot preempt (QEMU's
 * armv7m_nvic_set_pending). 0, or -1 on lockup (reported).
 */
static int pend_sync(struct isa_cpu *c, unsigned n)
{
	int ep = exec_prio(c);

	if ((n == EXC_USAGEFAULT && !(c->s.scs.shcsr & SHCSR_ENA_USG)) ||
	    group_prio(c, exc_prio(c, n)) >= ep) {
		if (ep <= -1) {
			c->s.lockup = 1;
			return error("isa: core %d: lockup: fault %u at priority %d, pc 0x%08x "
				     "(CFSR 0x%08x)",
				     c->core, n, ep, c->s.r[15], c->s.scs.cfsr);
		}
		c->s.scs.hfsr |= HFSR_FORCED;
		n = EXC_HARDFAULT;
	}
	set_pending(c, n, 1);
	return 0;
}

/*
 * ARMv8-M: the frame of an entry into exception n would go below the
 * stack's limit. As QEMU 7.2's v7m_push_stack: nothing is stacked, SP
 * becomes the limit, CFSR.STKOF is set and a UsageFault (or HardFault) is
 * pended; then the highest-priority pending exception is taken, which may
 * be the fault rather than n (n then stays pending).
 */
static int entry_stack_overflow(struct isa_cpu *c, unsigned n, int fp, struct isa_step *out)
{
	uint32_t ret = c->s.r[15], exc_return = entry_exc_return(c, fp), vec;

	c->s.r[13] = sp_limit(c);
	c->s.scs.cfsr |= UFSR_STKOF;
	set_pending(c, n, 1);
	if (pend_sync(c, EXC_USAGEFAULT))
		return -1;
	n = best_pending(c);
	if (c->bus->read(c->bus->ctx, c, c->s.scs.vtor + 4 * n, 4, &vec, ISA_ACC_VECTOR) !=
	    ISA_BUS_OK)
		return error("isa: core %d: cannot read vector %u at 0x%08x", c->core, n,
			     c->s.scs.vtor + 4 * n);
	isa_select_sp(c, 0);
	c->s.control &= ~(CONTROL_FPCA | CONTROL_SFPA);
	take(c, n, exc_return, vec, out, ret);
	return 0;
}

/*
 * ExceptionEntry (B1.5.6): stack the frame, then ExceptionTaken. With an
 * active FP context (CONTROL.FPCA) the frame is the extended one: 8 words,
 * S0-S15, FPSCR and a reserved word; S0-S15/FPSCR are written now, or, with
 * FPCCR.LSPEN, later by the handler's first FP instruction (vfp.c).
 */
static int exception_entry(struct isa_cpu *c, unsigned n, struct isa_step *out)
{
	int fp = has_fpu(c) && (c->s.control & CONTROL_FPCA);
	uint32_t size = fp ? 0x68 : 0x20;
	uint32_t sp = c->s.r[13], ret = c->s.r[15];
	int align = ((sp - size) & 4) && (c->s.scs.ccr & CCR_STKALIGN);
	uint32_t frame = (sp - size) & ~3u;
	uint32_t xpsr, exc_return, vec;
	uint32_t regs[8];

	if (align)
		frame -= 4;
	if (v8m(c) && frame < sp_limit(c))
		return entry_stack_overflow(c, n, fp, out);
	xpsr = isa_xpsr(c) | (align ? 1u << 9 : 0);
	regs[0] = c->s.r[0], regs[1] = c->s.r[1], regs[2] = c->s.r[2], regs[3] = c->s.r[3];
	regs[4] = c->s.r[12], regs[5] = c->s.r[14], regs[6] = ret, regs[7] = xpsr;
	for (int i = 0; i < 8; i++)
		if (c->bus->write(c->bus->ctx, c, frame + 4 * i, 4, regs[i], ISA_ACC_STACK) !=
		    ISA_BUS_OK)
			return error("isa: core %d: stacking fault at 0x%08x entering "
				     "exception %u from pc 0x%08x",
				     c->core, frame + 4 * i, n, ret);
	if (fp) {
		if (c->s.fpccr & FPCCR_LSPEN) {
			lazy_fpccr(c, frame + 0x20);
		} else {
			for (int i = 0; i < 17; i++) {
				uint32_t a = frame + 0x20 + 4 * i;

				if (c->bus->write(c->bus->ctx, c, a, 4,
						  i < 16 ? c->s.fpr[i] : c->s.fpscr,
						  ISA_ACC_STACK) != ISA_BUS_OK)
					return error("isa: core %d: FP stacking fault at 0x%08x "
						     "entering exception %u from pc 0x%08x",
						     c->core, a, n, ret);
			}
			/* then, as QEMU's v7m_push_stack does, S0-S15 and FPSCR read 0 */
			memset(c->s.fpr, 0, 16 * sizeof(c->s.fpr[0]));
			c->s.fpscr = 0;
		}
	}
	if (c->bus->read(c->bus->ctx, c, c->s.scs.vtor + 4 * n, 4, &vec, ISA_ACC_VECTOR) !=
	    ISA_BUS_OK)
		return error("isa: core %d: cannot read vector %u at 0x%08x", c->core, n,
			     c->s.scs.vtor + 4 * n);
	c->s.r[13] = frame;
	exc_return = entry_exc_return(c, fp);
	isa_select_sp(c, 0); /* thread mode on PSP: switch to MSP */
	c->s.control &= ~(CONTROL_FPCA | CONTROL_SFPA);
	take(c, n, exc_return, vec, out, ret);
	return 0;
}

int isa_take_pending(struct isa_cpu *c, struct isa_step *out)
{
	unsigned n;
	int ep = exec_prio(c);

	if (c->s.pend_fault) {
		n = c->s.pend_fault;
		c->s.pend_fault = 0;
		if ((n == EXC_MEMMANAGE && !(c->s.scs.shcsr & SHCSR_ENA_MEM)) ||
		    (n == EXC_BUSFAULT && !(c->s.scs.shcsr & SHCSR_ENA_BUS)) ||
		    (n == EXC_USAGEFAULT && !(c->s.scs.shcsr & SHCSR_ENA_USG)) ||
		    (n != EXC_HARDFAULT && group_prio(c, exc_prio(c, n)) >= ep)) {
			/* escalation to HardFault (B1.5.15) */
			c->s.scs.hfsr |= HFSR_FORCED;
			n = EXC_HARDFAULT;
		}
		if (n == EXC_HARDFAULT && ep <= -1) {
			c->s.lockup = 1;
			return error("isa: core %d: lockup: fault at priority %d, pc 0x%08x "
				     "(CFSR 0x%08x)",
				     c->core, ep, c->s.r[15], c->s.scs.cfsr);
		}
		return exception_entry(c, n, out) ? -1 : 1;
	}
	n = best_pending(c);
	if (!n || group_prio(c, exc_prio(c, n)) >= ep)
		return 0;
	return exception_entry(c, n, out) ? -1 : 1;
}

/*
 * Tail-chain from an exception return with EXC_RETURN v into the best
 * pending exception, if it may preempt the context being returned to.
 * Returns 1 when it did (the handler starts; nothing is unstacked).
 */
static int tail_chain(struct isa_cpu *c, uint32_t v)
{
	unsigned n = best_pending(c);
	uint32_t vec;

	if (!n || group_prio(c, exc_prio(c, n)) >= exec_prio(c))
		return 0;
	if (c->bus->read(c->bus->ctx, c, c->s.scs.vtor + 4 * n, 4, &vec, ISA_ACC_VECTOR) !=
	    ISA_BUS_OK)
		return 0; /* let the ordinary return and entry report it */
	c->s.r[14] = v;
	c->s.control &= ~(CONTROL_FPCA | CONTROL_SFPA);
	if (v8m(c)) /* EXC_RETURN.SPSEL is in v; the new handler starts with SPSEL 0 */
		c->s.control &= ~2u;
	c->next_pc = vec & ~1u;
	c->branched = 1;
	c->exc_return = 1;
	c->tail_exc = n;
	c->s.tbit_clear = !(vec & 1);
	c->s.ipsr = n;
	c->s.it = 0;
	set_pending(c, n, 0);
	set_active(c, n, 1);
	isa_clear_excl(c);
	c->s.event = 1;
	return 1;
}

/*
 * A failed integrity check of an exception return, as QEMU 7.2 takes it
 * (do_v7m_exception_return): the returning exception is already
 * deactivated, nothing is unstacked, and the INVPC UsageFault (HardFault
 * when it cannot be taken: always on ARMv6-M) starts at once on the frame
 * still on the stack, LR holding the bad EXC_RETURN value.
 */
static int bad_return(struct isa_cpu *c, uint32_t v)
{
	int ep = exec_prio(c);
	unsigned n = EXC_USAGEFAULT;

	c->s.scs.cfsr |= UFSR_INVPC;
	if (!(c->s.scs.shcsr & SHCSR_ENA_USG) || group_prio(c, exc_prio(c, n)) >= ep) {
		c->s.scs.hfsr |= HFSR_FORCED;
		n = EXC_HARDFAULT;
		if (ep <= -1) {
			c->s.lockup = 1;
			return error("isa: core %d: lockup: exception return to 0x%08x failed its "
				     "checks at priority %d, pc 0x%08x",
				     c->core, v, ep, c->pc);
		}
	}
	set_pending(c, n, 1);
	if (!tail_chain(c, v))
		return error("isa: core %d: exception return to 0x%08x failed its checks and "
			     "exception %u cannot be taken, pc 0x%08x",
			     c->core, v, n, c->pc);
	return EX_OK;
}

static int v8m_exception_return(struct isa_cpu *c, uint32_t v);
static int unstack(struct isa_cpu *c, unsigned n, int to_thread, int psp, int ftype);

/*
 * ExceptionReturn (B1.5.8) through EXC_RETURN v, with QEMU 7.2's checks:
 * bits 27:5 not all ones, or FType 0 on a core without an FPU, are
 * UNPREDICTABLE and QEMU goes on as if they were ones (it only logs them);
 * returning from an exception that is not active, to thread mode with
 * other exceptions active (no CCR.NONBASETHRDENA), or with another mode
 * field are INVPC faults (bad_return).
 */
int isa_exception_return(struct isa_cpu *c, uint32_t v)
{
	unsigned kind = v & 0xf, n = c->s.ipsr;
	int psp = kind == 0xd, to_thread = kind == 0x9 || kind == 0xd;
	int ftype = (v >> 4 & 1) || !has_fpu(c); /* 0: an extended (FP) frame */
	int bad = 0;

	if (v8m(c))
		return v8m_exception_return(c, v);
	/* DeActivate: FAULTMASK clears on return from anything but NMI */
	if (n != EXC_NMI)
		c->s.faultmask = 0;
	if (is_active(c, n))
		set_active(c, n, 0);
	else
		bad = 1;
	if (to_thread && (c->s.scs.sys_active | c->s.scs.nvic_active) &&
	    !(c->s.scs.ccr & CCR_NONBASETHRDENA))
		bad = 1;
	if (kind != 0x1 && !to_thread)
		bad = 1;
	if (bad)
		return bad_return(c, v) ? EX_FATAL : EX_OK;
	if (tail_chain(c, v))
		return EX_OK;
	return unstack(c, n, to_thread, psp, ftype);
}

/* Priority of the highest-priority active exception (256: none), no masks. */
static int raw_exec_prio(const struct isa_cpu *c)
{
	int ep = 256;

	for (uint32_t a = c->s.scs.sys_active; a; a &= a - 1)
		if (group_prio(c, exc_prio(c, __builtin_ctz(a))) < ep)
			ep = group_prio(c, exc_prio(c, __builtin_ctz(a)));
	for (uint32_t a = c->s.scs.nvic_active; a; a &= a - 1)
		if (group_prio(c, exc_prio(c, 16 + __builtin_ctz(a))) < ep)
			ep = group_prio(c, exc_prio(c, 16 + __builtin_ctz(a)));
	return ep;
}

/*
 * ARMv8-M ExceptionReturn, as QEMU 7.2's do_v7m_exception_exit has it for
 * a core in Secure state:
 *
 *   31      7   6   5     4     3    2     1   0
 *   | ones  | S | DCRS | FType | Mode | SPSEL | 0 | ES |
 *
 * Mode and SPSEL may take any values (NONBASETHRDENA is RES1: returning to
 * thread mode with exceptions still active is allowed); bit 1 set or an
 * exception that is not active is the INVPC fault; CONTROL.SPSEL takes
 * EXC_RETURN.SPSEL, in handler mode too; FAULTMASK clears only from a
 * handler of non-negative priority. S, DCRS or ES clear ask for the
 * Security Extension (Non-secure state, callee-saved frames): not
 * implemented, an error.
 */
static int v8m_exception_return(struct isa_cpu *c, uint32_t v)
{
	unsigned n = c->s.ipsr;
	int to_thread = v >> 3 & 1, spsel = v >> 2 & 1;
	int ftype = (v >> 4 & 1) || !has_fpu(c);
	int bad = 0;

	if ((v & 0x61) != 0x61)
		return error("isa: core %d: exception return through EXC_RETURN 0x%08x at pc "
			     "0x%08x after %llu instructions: S, DCRS or ES clear (Non-secure "
			     "state, the Security Extension) is not implemented",
			     c->core, v, c->pc, (unsigned long long)c->s.icount);
	if (n != EXC_NMI && raw_exec_prio(c) >= 0)
		c->s.faultmask = 0;
	if (is_active(c, n))
		set_active(c, n, 0);
	else
		bad = 1;
	if (v & 2)
		bad = 1;
	/*
	 * In handler mode the active SP is MSP whatever SPSEL says: clear the
	 * record, so that unstack's switch to thread mode swaps exactly when
	 * it returns to PSP; a return to handler mode records spsel after.
	 */
	c->s.control &= ~2u;
	if (bad)
		return bad_return(c, v) ? EX_FATAL : EX_OK;
	if (tail_chain(c, v))
		return EX_OK;
	if (unstack(c, n, to_thread, to_thread && spsel, ftype) != EX_OK)
		return EX_FATAL;
	if (!to_thread && spsel)
		c->s.control |= 2u;
	return EX_OK;
}

/* Unstack the frame of a return from n (B1.5.8 and QEMU 7.2's). */
static int unstack(struct isa_cpu *c, unsigned n, int to_thread, int psp, int ftype)
{
	uint32_t frame, f[8], sp;

	frame = psp ? c->s.other_sp : c->s.r[13];
	for (int i = 0; i < 8; i++)
		if (c->bus->read(c->bus->ctx, c, frame + 4 * i, 4, &f[i], ISA_ACC_UNSTACK) !=
		    ISA_BUS_OK)
			return error("isa: core %d: unstacking fault at 0x%08x returning from "
				     "exception %u",
				     c->core, frame + 4 * i, n);
	if (!ftype) {
		if (c->s.fpccr & FPCCR_LSPACT) {
			/* never saved: the registers still hold the context */
			c->s.fpccr &= ~FPCCR_LSPACT;
		} else {
			uint32_t fr[17];

			for (int i = 0; i < 17; i++)
				if (c->bus->read(c->bus->ctx, c, frame + 0x20 + 4 * i, 4, &fr[i],
						 ISA_ACC_UNSTACK) != ISA_BUS_OK)
					return error("isa: core %d: FP unstacking fault at 0x%08x "
						     "returning from exception %u",
						     c->core, frame + 0x20 + 4 * i, n);
			memcpy(c->s.fpr, fr, sizeof(uint32_t) * 16);
			c->s.fpscr = fr[16] & FPSCR_MASK;
		}
	}
	if (has_fpu(c))
		c->s.control = ftype ? c->s.control & ~CONTROL_FPCA : c->s.control | CONTROL_FPCA;
	sp = frame + (ftype ? 0x20 : 0x68) +
	     ((f[7] >> 9 & 1) && (c->s.scs.ccr & CCR_STKALIGN) ? 4 : 0);
	if (psp)
		c->s.other_sp = sp;
	else
		c->s.r[13] = sp;
	c->s.ipsr = to_thread ? 0 : f[7] & 0x1ff;
	if (to_thread)
		isa_select_sp(c, psp);
	c->s.r[0] = f[0];
	c->s.r[1] = f[1];
	c->s.r[2] = f[2];
	c->s.r[3] = f[3];
	c->s.r[12] = f[4];
	c->s.r[14] = f[5];
	c->next_pc = f[6] & ~1u;
	c->branched = 1;
	c->exc_return = 1;
	c->s.apsr = f[7] & (isa_model_info(c->model)->dsp ? 0xf80f0000u : 0xf8000000u);
	c->s.it = (f[7] >> 25 & 3) | (f[7] >> 10 & 0x3f) << 2;
	c->s.tbit_clear = !(f[7] >> 24 & 1);
	isa_clear_excl(c);
	c->s.event = 1;
	return EX_OK;
}

void isa_cpu_pend_irq(struct isa_cpu *c, unsigned irq)
{
	if (irq < ISA_NIRQ)
		set_pending(c, 16 + irq, 1);
}

/* ---- SysTick ------------------------------------------------------------ */

#define SYST_ENABLE 1u
#define SYST_TICKINT 2u
#define SYST_COUNTFLAG (1u << 16)

void isa_cpu_tick(struct isa_cpu *c, uint64_t cycles)
{
	struct isa_scs *s = &c->s.scs;

	if (!(s->syst_csr & SYST_ENABLE))
		return;
	while (cycles) {
		if (s->syst_cvr == 0) { /* the reload takes a cycle */
			s->syst_cvr = s->syst_rvr;
			cycles--;
			if (!s->syst_rvr)
				return;
			continue;
		}
		if (cycles < s->syst_cvr) {
			s->syst_cvr -= cycles;
			return;
		}
		cycles -= s->syst_cvr;
		s->syst_cvr = 0;
		s->syst_csr |= SYST_COUNTFLAG;
		if (s->syst_csr & SYST_TICKINT)
			set_pending(c, EXC_SYSTICK, 1);
	}
}

uint64_t isa_cpu_next_tick(const struct isa_cpu *c)
{
	const struct isa_scs *s = &c->s.scs;

	if ((s->syst_csr & (SYST_ENABLE | SYST_TICKINT)) != (SYST_ENABLE | SYST_TICKINT) ||
	    (!s->syst_rvr && !s->syst_cvr))
		return UINT64_MAX;
	return s->syst_cvr ? s->syst_cvr : 1 + (uint64_t)s->syst_rvr;
}

/* ---- SCS registers ------------------------------------------------------ */

static uint32_t icsr(const struct isa_cpu *c)
{
	const struct isa_scs *s = &c->s.scs;
	uint32_t v = c->s.ipsr, act = __builtin_popcount(s->sys_active) +
				     __builtin_popcount(s->nvic_active);
	unsigned p = best_pending(c);

	if (act <= 1)
		v |= 1u << 11; /* RETTOBASE */
	v |= (p & 0x1ff) << 12;
	if (s->nvic_pending)
		v |= 1u << 22;
	if (s->sys_pending >> EXC_SYSTICK & 1)
		v |= 1u << 26;
	if (s->sys_pending >> EXC_PENDSV & 1)
		v |= 1u << 28;
	if (s->sys_pending >> EXC_NMI & 1)
		v |= 1u << 31;
	return v;
}

static uint32_t shcsr(const struct isa_cpu *c)
{
	const struct isa_scs *s = &c->s.scs;
	uint32_t a = s->sys_active, p = s->sys_pending;

	return (s->shcsr & 0x70000u) | (a >> EXC_MEMMANAGE & 1) | (a >> EXC_BUSFAULT & 1) << 1 |
	       (a >> EXC_USAGEFAULT & 1) << 3 | (a >> EXC_SVCALL & 1) << 7 |
	       (a >> EXC_DEBUGMON & 1) << 8 | (a >> EXC_PENDSV & 1) << 10 |
	       (a >> EXC_SYSTICK & 1) << 11 | (p >> EXC_USAGEFAULT & 1) << 12 |
	       (p >> EXC_MEMMANAGE & 1) << 13 | (p >> EXC_BUSFAULT & 1) << 14 |
	       (p >> EXC_SVCALL & 1) << 15 |
	       /* v8-M (Secure): HARDFAULTACT, HARDFAULTPENDED */
	       (v8m(c) ? (a >> EXC_HARDFAULT & 1) << 2 | (p >> EXC_HARDFAULT & 1) << 21 : 0);
}

/* Word view of a byte-array register bank (IPR, SHPR). */
static uint32_t bytes_word(const uint8_t *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/*
 * The SCB registers ARMv6-M lacks, as QEMU's Cortex-M0 has them: SCR and
 * ICTR too (QEMU implements neither on ARMv6-M). They read as zero and
 * ignore writes; CCR is read-only there (STKALIGN and UNALIGN_TRP RES1).
 */
static int v6m_absent(uint32_t a)
{
	switch (a) {
	case 0xe000e004: /* ICTR */
	case 0xe000ed10: /* SCR */
	case 0xe000ed18: /* SHPR1 */
	case 0xe000ed24: /* SHCSR */
	case 0xe000ed28: /* CFSR */
	case 0xe000ed2c: /* HFSR */
	case 0xe000ed34: /* MMFAR */
	case 0xe000ed38: /* BFAR */
	case 0xe000ef00: /* STIR */
		return 1;
	}
	return 0;
}

/*
 * The Cortex-M33's identification registers as QEMU 7.2's mps2-an505 reads
 * them, from ID_PFR0 (0xE000ED40) to CTR (0xE000ED7C).
 */
static const uint32_t m33_id[16] = {
    0x00000030, 0x00000210, 0x00200000, 0x00000000, /* ID_PFR0, PFR1, DFR0, AFR0 */
    0x00101f40, 0x00000000, 0x01000000, 0x00000000, /* ID_MMFR0-3 */
    0x01101110, 0x02212000, 0x20232232, 0x01111131, /* ID_ISAR0-3 */
    0x01310132, 0x00000000, 0x00000000, 0x8000c000, /* ID_ISAR4, ISAR5, CLIDR, CTR */
};

static uint32_t scs_word(struct isa_cpu *c, uint32_t a)
{
	struct isa_scs *s = &c->s.scs;

	if (v6m(c) && v6m_absent(a))
		return 0;
	switch (a) {
	case 0xe000e004: return 0; /* ICTR: 32 interrupt lines */
	case 0xe000e010: {
		uint32_t v = s->syst_csr;

		s->syst_csr &= ~SYST_COUNTFLAG; /* COUNTFLAG clears on read */
		return v;
	}
	case 0xe000e014: return s->syst_rvr;
	case 0xe000e018: return s->syst_cvr;
	case 0xe000e01c: return 0;
	case 0xe000e100: return s->nvic_enable;
	case 0xe000e180: return s->nvic_enable;
	case 0xe000e200: return s->nvic_pending;
	case 0xe000e280: return s->nvic_pending;
	case 0xe000e300: return s->nvic_active;
	case 0xe000ed00: return isa_model_info(c->model)->cpuid;
	case 0xe000ed04: return icsr(c);
	case 0xe000ed08: return s->vtor;
	case 0xe000ed0c: return 0xfa050000u | s->aircr_prigroup << 8;
	case 0xe000ed10: return s->scr;
	case 0xe000ed14: return s->ccr;
	case 0xe000ed18: return bytes_word(&s->shpr[0]);
	case 0xe000ed1c: return bytes_word(&s->shpr[4]);
	case 0xe000ed20: return bytes_word(&s->shpr[8]);
	case 0xe000ed24: return shcsr(c);
	case 0xe000ed28: return s->cfsr;
	case 0xe000ed2c: return s->hfsr;
	case 0xe000ed34: return s->mmfar;
	case 0xe000ed38: return s->bfar;
	}
	if (has_fpu(c)) {
		switch (a) {
		case 0xe000ed88: return c->s.cpacr;
		case 0xe000ef34: return c->s.fpccr;
		case 0xe000ef38: return c->s.fpcar;
		case 0xe000ef3c: return c->s.fpdscr;
		/* MVFR0-2, as QEMU's cortex-m4, cortex-m7 (FPv5-D16) and cortex-m33 */
		case 0xe000ef40: return has_dp(c) ? 0x10110221u : 0x10110021u;
		case 0xe000ef44: return has_dp(c) ? 0x12000011u : 0x11000011u;
		/* MVFR2: VRINT, VSEL, VMAXNM, ... (FPv5) */
		case 0xe000ef48: return has_dp(c) || c->model == ISA_CORTEX_M33 ? 0x00000040u : 0;
		}
	}
	if (c->model == ISA_CORTEX_M33) {
		if (a >= 0xe000ed40 && a <= 0xe000ed7c)
			return m33_id[(a - 0xe000ed40) / 4];
	}
	if (a >= 0xe000e400 && a < 0xe000e400 + ISA_NIRQ)
		return bytes_word(&s->nvic_prio[a - 0xe000e400]);
	return 0; /* reserved and unmodelled registers read as zero */
}

int isa_scs_read(struct isa_cpu *c, uint32_t addr, unsigned size, uint32_t *val)
{
	uint32_t w = scs_word(c, addr & ~3u);

	*val = w >> (8 * (addr & 3));
	if (size < 4)
		*val &= (1u << (8 * size)) - 1;
	return 0;
}

static void scs_write_word(struct isa_cpu *c, uint32_t a, uint32_t v)
{
	struct isa_scs *s = &c->s.scs;

	if (v6m(c) && (v6m_absent(a) || a == 0xe000ed14 /* CCR */))
		return;
	switch (a) {
	case 0xe000e010:
		s->syst_csr = (s->syst_csr & SYST_COUNTFLAG) | (v & 7);
		return;
	case 0xe000e014: s->syst_rvr = v & 0xffffff; return;
	case 0xe000e018:
		s->syst_cvr = 0;
		s->syst_csr &= ~SYST_COUNTFLAG;
		return;
	case 0xe000e100: s->nvic_enable |= v; return;
	case 0xe000e180: s->nvic_enable &= ~v; return;
	case 0xe000e200: s->nvic_pending |= v; return;
	case 0xe000e280: s->nvic_pending &= ~v; return;
	case 0xe000ed04:
		if (v >> 31 & 1)
			set_pending(c, EXC_NMI, 1);
		if (v >> 28 & 1)
			set_pending(c, EXC_PENDSV, 1);
		else if (v >> 27 & 1)
			set_pending(c, EXC_PENDSV, 0);
		if (v >> 26 & 1)
			set_pending(c, EXC_SYSTICK, 1);
		else if (v >> 25 & 1)
			set_pending(c, EXC_SYSTICK, 0);
		return;
	case 0xe000ed08: s->vtor = v & 0xffffff80u; return;
	case 0xe000ed0c:
		/* no priority grouping on ARMv6-M */
		if ((v >> 16) == 0x05fa && !v6m(c))
			s->aircr_prigroup = v >> 8 & 7;
		return;
	case 0xe000ed10: s->scr = v & 0x16; return;
	case 0xe000ed14:
		s->ccr = v8m(c) ? (v & CCR_V8M_WRITABLE) | CCR_V8M_RES1 : v & 0x31b;
		return;
	case 0xe000ed24: {
		/* the active bits it holds, by exception number */
		uint32_t held = 1u << EXC_MEMMANAGE | 1u << EXC_BUSFAULT | 1u << EXC_USAGEFAULT |
				1u << EXC_SVCALL | 1u << EXC_DEBUGMON | 1u << EXC_PENDSV |
				1u << EXC_SYSTICK;

		s->shcsr = v & 0x70000u;
		s->sys_active = (s->sys_active & ~held) | (v & 1) << EXC_MEMMANAGE |
				(v >> 1 & 1) << EXC_BUSFAULT | (v >> 3 & 1) << EXC_USAGEFAULT |
				(v >> 7 & 1) << EXC_SVCALL | (v >> 8 & 1) << EXC_DEBUGMON |
				(v >> 10 & 1) << EXC_PENDSV | (v >> 11 & 1) << EXC_SYSTICK;
		if (v8m(c)) { /* HARDFAULTACT, HARDFAULTPENDED (Secure) */
			set_active(c, EXC_HARDFAULT, v >> 2 & 1);
			set_pending(c, EXC_HARDFAULT, v >> 21 & 1);
		}
		return;
	}
	case 0xe000ed28: s->cfsr &= ~v; return;
	case 0xe000ed2c: s->hfsr &= ~v; return;
	case 0xe000ed34: s->mmfar = v; return;
	case 0xe000ed38: s->bfar = v; return;
	case 0xe000ed88:
		if (has_fpu(c))
			c->s.cpacr = v & 0x00f00000u; /* CP10 and CP11 only */
		return;
	case 0xe000ef34:
		if (has_fpu(c))
			c->s.fpccr = v & (v8m(c) ? FPCCR_V8M_MASK : FPCCR_V7M_MASK);
		return;
	case 0xe000ef38:
		if (has_fpu(c))
			c->s.fpcar = v & ~7u;
		return;
	case 0xe000ef3c:
		if (has_fpu(c))
			c->s.fpdscr = v & 0x07c00000u;
		return;
	case 0xe000ef00:
		if ((v & 0x1ff) < ISA_NIRQ)
			set_pending(c, 16 + (v & 0x1ff), 1);
		return;
	}
}

int isa_scs_write(struct isa_cpu *c, uint32_t addr, unsigned size, uint32_t val)
{
	struct isa_scs *s = &c->s.scs;
	uint8_t *bank = NULL;

	/* byte-addressable banks: priorities of IRQs and system handlers */
	if (addr >= 0xe000e400 && addr < 0xe000e400 + ISA_NIRQ)
		bank = &s->nvic_prio[addr - 0xe000e400];
	else if (addr >= 0xe000ed18 && addr < 0xe000ed24)
		bank = &s->shpr[addr - 0xe000ed18];
	if (bank) {
		/*
		 * ARMv6-M implements the top 2 bits of each priority. Its
		 * IPR and SHPR are word-accessible only in the architecture;
		 * QEMU takes byte accesses there too, and so does raptor.
		 */
		uint8_t mask = v6m(c) ? 0xc0 : 0xff;

		for (unsigned i = 0; i < size; i++) {
			uint32_t a = addr + i;

			if (a >= 0xe000ed18 && a < 0xe000ed24) {
				unsigned n = 4 + (a - 0xe000ed18);

				/* exceptions 7-10 and 13 have no priority: RAZ/WI */
				if ((n >= 7 && n <= 10) || n == 13)
					continue;
				/* nor 4-6 on ARMv6-M: it has no SHPR1 */
				if (n < 7 && v6m(c))
					continue;
			} else if (a >= 0xe000e400 + ISA_NIRQ) {
				continue;
			}
			bank[i] = (val >> (8 * i)) & mask;
		}
		return 0;
	}
	if (size != 4) {
		unsigned sh = 8 * (addr & 3);
		uint32_t m = ((size == 1) ? 0xffu : 0xffffu) << sh;
		uint32_t a = addr & ~3u;
		/* set/clear and write-one-to-clear registers act on the bits written */
		int action = (a >= 0xe000e100 && a < 0xe000e300) || a == 0xe000ed28 ||
			     a == 0xe000ed2c || a == 0xe000ed04 || a == 0xe000ef00;

		val = ((val << sh) & m) | (action ? 0 : scs_word(c, a) & ~m);
		addr = a;
	}
	scs_write_word(c, addr, val);
	return 0;
}

int isa_cpu_scs_read(struct isa_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val)
{
	return isa_scs_read(cpu, addr, size, val);
}

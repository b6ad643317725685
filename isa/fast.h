/*
 * fast: isa_cpu_step_plain inline, for the two loops that run it at every
 * step (board_step, the replay's run_fast): the same code as the function
 * (isa.h has its contract), without the call, and with what the caller
 * knows of out folded in; and the commonest answers of isa_cpu_tick,
 * isa_cpu_sleeping and isa_cpu_next_tick inline for their scheduler
 * (board/sched.h, sched.c). It reads the core's insides, so it includes
 * isa_priv.h; nothing else outside isa/ may use that.
 */
#ifndef RAPTOR_ISA_FAST_H
#define RAPTOR_ISA_FAST_H

#include <stddef.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/isa_priv.h"

/*
 * The instruction at pc from the decode cache, when isa_cpu_step's fast path
 * may run it: a core awake, not locked up, in Thumb state, with no fault
 * and no exception pending (not even one that could not preempt: one OR of
 * the pending words). NULL otherwise, or on a cache miss.
 */
static inline const struct isa_insn *fast_insn(const struct isa_cpu *c, uint32_t pc)
{
	/* sleeping, event, lockup, tbit_clear: one load, event masked out */
	static const uint8_t awake_mask[4] = {0xff, 0, 0xff, 0xff};
	const struct isa_insn *pg, *in;
	uint32_t flags, mask;

	_Static_assert(
	    offsetof(struct isa_state, event) == offsetof(struct isa_state, sleeping) + 1 &&
		offsetof(struct isa_state, lockup) == offsetof(struct isa_state, sleeping) + 2 &&
		offsetof(struct isa_state, tbit_clear) == offsetof(struct isa_state, sleeping) + 3,
	    "isa_state: sleeping, event, lockup and tbit_clear are four bytes in a row");
	memcpy(&flags, &c->s.sleeping, sizeof(flags));
	memcpy(&mask, awake_mask, sizeof(mask));
	if (__builtin_expect(c->dec->simple | (flags & mask) | c->s.pend_fault, 0) ||
	    (c->s.scs.sys_pending | (c->s.scs.nvic_pending & c->s.scs.nvic_enable)))
		return NULL;
	pg = c->dec->pages[pc >> DC_PAGE_BITS];
	if (__builtin_expect(!pg, 0))
		return NULL;
	in = &pg[(pc & ((1u << DC_PAGE_BITS) - 1)) >> 1];
	return in->fn ? in : NULL;
}

/* Report a handler marked plain (or dbranch) that did not retire (a bug); -1. */
int isa_plain_failed(const struct isa_cpu *c, const struct isa_insn *in, uint32_t pc);

/*
 * isa_cpu_step's fast path for in, the instruction fast_insn found at the
 * core's PC (so the core is awake and nothing is pending): what
 * isa_cpu_step does then, without looking it up again.
 */
int isa_cpu_step_decoded(struct isa_cpu *c, const struct isa_insn *in,
			 struct isa_step *out) MUST_CHECK;

/*
 * *out as isa_cpu_step_decoded fills it for in, at pc, retired without a
 * fault or an exception return (in_it, pass: in an IT block, executed;
 * taken: it branched), c->next_pc where the core goes.
 */
static inline __attribute__((always_inline)) void isa_fast_record(const struct isa_cpu *c,
								  const struct isa_insn *in,
								  uint32_t pc, int in_it, int pass,
								  int taken, struct isa_step *out)
{
	memset(out, 0, sizeof(*out));
	out->ev = ISA_EV_INSN;
	out->pc = pc;
	out->next_pc = c->next_pc;
	out->size = in->size;
	out->cf = in->cf;
	out->insn_id = in->id;
	out->in_it = (uint8_t)in_it;
	out->taken = (uint8_t)taken;
	out->executed = (uint8_t)pass;
}

/*
 * isa_cpu_step_plain, and where it returns 0, *inp gets the instruction
 * fast_insn found (not plain), for isa_cpu_step_decoded to step, or NULL
 * when isa_cpu_step must look (the general step, a cache miss).
 */
static inline __attribute__((always_inline)) int isa_cpu_step_plain_or(struct isa_cpu *c,
								       uint32_t *pcp,
								       struct isa_step *out,
								       const struct isa_insn **inp)
{
	uint32_t pc = c->s.r[15];
	const struct isa_insn *in = fast_insn(c, pc);
	unsigned cond;
	int in_it, pass;

	*inp = in;
	if (!in || !in->plain)
		return 0;
	c->dec->fast++;
	c->pc = pc;
	c->next_pc = pc + in->size;
	in_it = in_it_block(c);
	cond = in_it ? c->s.it >> 4 : in->cond;
	pass = cond >= 14 || cond_pass(c->s.apsr, cond);
	if (pass && in->fn(c, in) != EX_OK)
		return isa_plain_failed(c, in, pc);
	/* (outside an IT block ITAdvance leaves ITSTATE 0: nothing to do) */
	if (c->s.it && in->fn != isa_exec_it)
		it_advance(c);
	c->s.r[15] = c->next_pc;
	c->s.icount++;
	*pcp = pc;
	if (out)
		isa_fast_record(c, in, pc, in_it, pass, 0, out);
	return 1;
}

/*
 * What isa_cpu_step_decoded sets before in, at pc, runs: the decoder's
 * count of fast steps, the instruction's PCs, the handlers' flags.
 */
static inline __attribute__((always_inline)) void isa_fast_begin(struct isa_cpu *c,
								 const struct isa_insn *in,
								 uint32_t pc)
{
	c->dec->fast++;
	c->pc = pc;
	c->next_pc = pc + in->size;
	c->stop = 0;
	c->branched = 0;
	c->exc_return = 0;
	c->tail_exc = 0;
}

/*
 * ... and after it ran, outside an IT block, with no fault and no
 * exception return (pass: its condition passed): the PC, the instruction
 * count, and *out as isa_cpu_step_decoded fills it.
 */
static inline __attribute__((always_inline)) void isa_fast_retire(struct isa_cpu *c,
								  const struct isa_insn *in,
								  uint32_t pc, int pass,
								  struct isa_step *out)
{
	c->s.r[15] = c->next_pc;
	c->s.icount++;
	isa_fast_record(c, in, pc, 0, pass, c->branched, out);
}

/*
 * May isa_cpu_exec_dbranch step in, the instruction isa_cpu_step_plain_or
 * found (NULL: none): a direct branch (isa_insn.dbranch), the core
 * outside an IT block?
 */
static inline int isa_cpu_dbranch_at(const struct isa_cpu *c, const struct isa_insn *in)
{
	return in && in->dbranch && !c->s.it;
}

/*
 * Run in, a direct branch (isa_insn.dbranch) that fast_insn found at the
 * core's PC, outside an IT block (isa_cpu_dbranch_at): what
 * isa_cpu_step_decoded does for it, *out the step record it would fill.
 * 0, or -1 (a bug, reported).
 */
static inline __attribute__((always_inline)) int isa_cpu_exec_dbranch(struct isa_cpu *c,
								      const struct isa_insn *in,
								      struct isa_step *out)
{
	uint32_t pc = c->s.r[15];
	int pass = in->cond >= 14 || cond_pass(c->s.apsr, in->cond);

	isa_fast_begin(c, in, pc);
	if (pass && in->fn(c, in) != EX_OK)
		return isa_plain_failed(c, in, pc);
	isa_fast_retire(c, in, pc, pass, out);
	return 0;
}

/*
 * May the block engine step in, the instruction isa_cpu_step_plain_or
 * found (NULL: none), as a simple load (isa_insn.sload), the core outside
 * an IT block? Then *addr and *size: what it reads, if aligned (else 0:
 * the general step decides about the trap). Nothing is changed.
 */
static inline __attribute__((always_inline)) int isa_cpu_sload_at(const struct isa_cpu *c,
								  const struct isa_insn *in,
								  uint32_t *addr, unsigned *size)
{
	const struct isa_op *m;

	if (!in || !in->sload || c->s.it)
		return 0;
	m = &in->op[1];
	*size = in->sload & 7u;
	if (in->post)
		*addr = c->s.r[m->reg];
	else
		*addr = c->s.r[m->reg] +
			(m->index != 0xff ? c->s.r[m->index] << m->shift : (uint32_t)m->imm);
	return !(*addr & (*size - 1));
}

/*
 * Retire in, the simple load isa_cpu_sload_at let through, with v the
 * value its bus read gave: the base if it writes back, Rt (extended), the
 * PC, the instruction count, as isa_cpu_step_decoded does; *out the step
 * record it would fill.
 */
static inline __attribute__((always_inline)) void isa_cpu_sload_done(struct isa_cpu *c,
								     const struct isa_insn *in,
								     uint32_t v, struct isa_step *out)
{
	uint32_t pc = c->s.r[15];
	unsigned k = in->sload & ~ISA_SLOAD_WB;

	if (k == (1 | 8))
		v = (uint32_t)(int32_t)(int8_t)v;
	else if (k == (2 | 8))
		v = (uint32_t)(int32_t)(int16_t)v;
	isa_fast_begin(c, in, pc);
	if (in->sload & ISA_SLOAD_WB) {
		/* the base written back, as ea() computes it: the address, or after it (post) */
		const struct isa_op *m = &in->op[1];

		c->s.r[m->reg] += in->post ? (uint32_t)in->post_imm
					   : (m->index != 0xff ? c->s.r[m->index] << m->shift
							       : (uint32_t)m->imm);
	}
	c->s.r[in->op[0].reg] = v;
	isa_fast_retire(c, in, pc, 1, out);
}

static inline __attribute__((always_inline)) int
isa_cpu_step_plain_inline(struct isa_cpu *c, uint32_t *pcp, struct isa_step *out)
{
	const struct isa_insn *in;

	return isa_cpu_step_plain_or(c, pcp, out, &in);
}

/*
 * isa_cpu_sleeping and isa_cpu_next_tick, their commonest answers inline,
 * for the scheduler's look at every core when one sleeps: a core asleep
 * with no exception pending at all stays asleep (neither WFI's wake-up
 * nor a preemption can come of nothing), and without SysTick's enable and
 * interrupt bits no tick is due.
 */
static inline int isa_cpu_sleeping_inline(const struct isa_cpu *c)
{
	if (!c->s.sleeping)
		return 0;
	if (!c->s.scs.sys_pending && !(c->s.scs.nvic_pending & c->s.scs.nvic_enable))
		return 1;
	return isa_cpu_sleeping(c);
}

static inline uint64_t isa_cpu_next_tick_inline(const struct isa_cpu *c)
{
	if ((c->s.scs.syst_csr & 3u) != 3u) /* SYST_CSR.ENABLE and TICKINT */
		return UINT64_MAX;
	return isa_cpu_next_tick(c);
}

/*
 * isa_cpu_tick, its test of SysTick's enable bit inlined: the schedulers
 * tick the core after every step, and SysTick is mostly off.
 */
static inline __attribute__((always_inline)) void isa_cpu_tick_inline(struct isa_cpu *c,
								      uint64_t cycles)
{
	if (c->s.scs.syst_csr & 1u) /* SYST_CSR.ENABLE */
		isa_cpu_tick(c, cycles);
}

#endif

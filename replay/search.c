/*
 * search: break- and watchpoints, continue and step, forward and backward
 * (replay/replay.h).
 */
#include "replay/replay_priv.h"

#include <string.h>

/* ---- breakpoints, watchpoints, continue and step ---------------------------------- */

int rpl_observe(struct rpl *r, rpl_step_fn fn, void *ctx)
{
	if (fn && r->cfw)
		return error("%s: a control-flow-only recording: its replay has no data "
			     "accesses to observe",
			     r->dir);
	r->obs = fn;
	r->obs_ctx = ctx;
	return 0;
}

int rpl_break(struct rpl *r, uint32_t pc, int on)
{
	for (int i = 0; i < r->nbreak; i++)
		if (r->breaks[i] == pc) {
			if (!on)
				r->breaks[i] = r->breaks[--r->nbreak];
			return 0;
		}
	if (!on)
		return error("no breakpoint at 0x%08x", pc);
	if (r->nbreak == RPL_MAX_POINTS)
		return error("%d breakpoints already set", RPL_MAX_POINTS);
	r->breaks[r->nbreak++] = pc;
	return 0;
}

int rpl_watch(struct rpl *r, uint32_t addr, uint32_t len, enum rpl_watch_kind kind, int on)
{
	if (r->cfw)
		return error("%s: no watchpoints: the recording has no load-value stream, so the "
			     "replay does not know the data addresses the cores access", r->dir);
	for (int i = 0; i < r->nwatch; i++)
		if (r->watch[i].addr == addr && r->watch[i].len == len && r->watch[i].kind == kind) {
			if (!on)
				r->watch[i] = r->watch[--r->nwatch];
			return 0;
		}
	if (!on)
		return error("no watchpoint at 0x%08x", addr);
	if (!len)
		return error("a watchpoint needs a length");
	if (r->nwatch == RPL_MAX_POINTS)
		return error("%d watchpoints already set", RPL_MAX_POINTS);
	r->watch[r->nwatch++] = (struct rpl_watchpoint){ addr, len, kind };
	return 0;
}

/* Will the next step execute an instruction at a breakpoint? */
static int at_break(struct rpl *r, int *core)
{
	int i, insn, s;
	uint32_t pc;

	if (r->cfw) {
		if (!r->nbreak || r->d.ended || r->failed)
			return 0;
		/* an error here is the next step's: let that report it */
		error_quiet(1);
		s = cfw_peek(r->cfw, &i, &pc, &insn);
		error_quiet(-1);
		if (s || !insn)
			return 0;
	} else {
		i = board_sched_pick(&r->sched);
		if (!r->nbreak || r->d.ended || !isa_cpu_will_execute(r->cpu[i]))
			return 0;
		pc = isa_cpu_get(r->cpu[i], ISA_R_PC);
	}
	for (int k = 0; k < r->nbreak; k++)
		if (r->breaks[k] == pc) {
			*core = i;
			return 1;
		}
	return 0;
}

/* Did the last step's accesses hit a watchpoint? Fills *stop. */
static int hit_watch(struct rpl *r, struct rpl_stop *stop)
{
	for (int a = 0; a < r->nacc; a++) {
		const struct acc *x = &r->acc[a];

		if (!rpl_watchable(x->kind))
			continue;
		for (int w = 0; w < r->nwatch; w++) {
			const struct rpl_watchpoint *p = &r->watch[w];

			if (x->addr >= p->addr + p->len || p->addr >= x->addr + x->size)
				continue;
			if ((p->kind == RPL_WATCH_WRITE && !x->store) ||
			    (p->kind == RPL_WATCH_READ && x->store))
				continue;
			stop->kind = RPL_STOP_WATCH;
			stop->watch = *p;
			stop->addr = x->addr > p->addr ? x->addr : p->addr;
			stop->core = r->cur;
			stop->store = x->store;
			return 1;
		}
	}
	return 0;
}

static void fill_stop(struct rpl *r, struct rpl_stop *stop, enum rpl_stop_kind kind, int core)
{
	stop->kind = kind;
	stop->core = core;
	stop->position = r->d.position;
	stop->step = r->d.steps;
}

/*
 * Could a breakpoint or watchpoint hit in the stretch after checkpoint i?
 * 1 unless its summary is complete and rules every one out.
 */
static int may_hit(const struct rpl *r, size_t i)
{
	const struct rpl_summary *s = rpl_ckstore_sum_const(r->ck, i);

	if (i + 1 >= rpl_ckstore_count(r->ck) || !s->sealed)
		return 1;
	for (int k = 0; k < r->nbreak; k++)
		if (rpl_sum_may_pc(s, r->breaks[k]))
			return 1;
	for (int k = 0; k < r->nwatch; k++)
		if (rpl_sum_may_access(s, r->watch[k].addr, r->watch[k].len,
				       r->watch[k].kind != RPL_WATCH_WRITE,
				       r->watch[k].kind != RPL_WATCH_READ))
			return 1;
	return 0;
}

/*
 * The earliest (after = 1) or latest slot of the time index, from slot at
 * on, where a break- or watchpoint may hit; -1 if none may.
 */
static long tix_hit(const struct rpl *r, size_t at, int after)
{
	struct rpl_tix_range w[RPL_MAX_POINTS];

	for (int k = 0; k < r->nwatch; k++)
		w[k] = (struct rpl_tix_range){ r->watch[k].addr, r->watch[k].len,
					       r->watch[k].kind != RPL_WATCH_WRITE,
					       r->watch[k].kind != RPL_WATCH_READ };
	return after ? rpl_tix_first_hit(r->tix, at, r->breaks, r->nbreak, w, r->nwatch)
		     : rpl_tix_last_hit(r->tix, at, r->breaks, r->nbreak, w, r->nwatch);
}

/*
 * Forward, at a checkpoint: skip the stretches that cannot hit, to the
 * checkpoint that starts the next one that may (or the last). The time
 * index, where it covers, finds that stretch at the grain of the interval
 * even where thinning merged the summaries. 0 / -1.
 */
static int skip_forward(struct rpl *r)
{
	size_t i = rpl_ckpt_before(r, r->d.steps), j = i, c;
	long h;

	if (rpl_ckpt_steps(r, i) != r->d.steps)
		return 0;
	if (r->tix && r->d.steps < rpl_tix_cover(r)) {
		h = tix_hit(r, rpl_tix_slot_of(r->tix, r->d.steps), 1);
		c = rpl_ckpt_before(r, h < 0 ? rpl_tix_cover(r) - 1
					 : rpl_tix_slot_steps(r->tix, (size_t)h));
		if (c > i)
			return rpl_ckpt_restore(r, c);
	}
	while (j + 1 < rpl_ckstore_count(r->ck) && !may_hit(r, j))
		j++;
	if (j == i)
		return 0;
	return rpl_ckpt_restore(r, j);
}

/* The steps of the first checkpoint after the state now (UINT64_MAX: none yet). */
static uint64_t next_edge(const struct rpl *r)
{
	size_t i = rpl_ckpt_before(r, r->d.steps);

	return i + 1 < rpl_ckstore_count(r->ck) ? rpl_ckpt_steps(r, i + 1) : UINT64_MAX;
}

/*
 * Forward until a breakpoint (stop before the instruction), a watchpoint
 * (stop after the access), `core` retiring an instruction (core >= 0: a
 * single step), an interrupt request or the end.
 */
static int forward(struct rpl *r, int core, struct rpl_stop *stop)
{
	int k, c, first = r->d.steps == r->break_step;
	uint64_t edge = core < 0 ? next_edge(r) : UINT64_MAX;

	memset(stop, 0, sizeof(*stop));
	if (core < 0 && rpl_ckpt_steps(r, rpl_ckpt_before(r, r->d.steps)) == r->d.steps)
		edge = r->d.steps; /* at a checkpoint already */
	for (;;) {
		if (r->d.steps == edge) {
			/* a continue at a checkpoint: past the stretches that cannot hit */
			uint64_t at = r->d.steps;

			if (skip_forward(r))
				return -1;
			edge = next_edge(r);
			if (r->d.steps != at)
				first = 0;
		}
		if (!first && at_break(r, &c)) {
			fill_stop(r, stop, RPL_STOP_BREAK, c);
			r->break_step = r->d.steps;
			return 0;
		}
		if (r->interrupt) {
			r->interrupt = 0;
			fill_stop(r, stop, RPL_STOP_INTERRUPT, r->cur);
			return 0;
		}
		first = 0;
		k = rpl_step_one(r);
		if (k < 0)
			return -1;
		if (k > 0) {
			fill_stop(r, stop, RPL_STOP_END, r->cur);
			return 0;
		}
		if (hit_watch(r, stop)) {
			stop->position = r->d.position;
			stop->step = r->d.steps;
			return 0;
		}
		if (core >= 0 && r->cur == core &&
		    (r->last.ev == ISA_EV_INSN || r->last.ev == ISA_EV_STOP) && !r->last.faulted) {
			fill_stop(r, stop, RPL_STOP_STEP, core);
			return 0;
		}
	}
}

/*
 * Backward: the latest event before the current step. Events: a breakpoint
 * before step k (state k - 1), a watchpoint hit by step k (state k), core
 * retiring an instruction at step k (state k - 1, a reverse single step).
 */
static int backward(struct rpl *r, int core, struct rpl_stop *stop)
{
	uint64_t now = r->failed ? r->good_steps : r->d.steps, hi = now;
	struct rpl_stop found, w;
	int have, c, k;

	memset(stop, 0, sizeof(*stop));
	while (hi > 0) {
		if (core < 0 && r->tix && hi <= rpl_tix_cover(r)) {
			/* the time index: no hit after the end of the latest slot that may */
			long j = tix_hit(r, rpl_tix_slot_of(r->tix, hi - 1), 0);

			if (j < 0)
				break;
			if ((size_t)j + 1 < rpl_tix_slots(r->tix) &&
			    rpl_tix_slot_steps(r->tix, (size_t)j + 1) < hi)
				hi = rpl_tix_slot_steps(r->tix, (size_t)j + 1);
		}
		if (core < 0 && !may_hit(r, rpl_ckpt_before(r, hi - 1))) {
			hi = rpl_ckpt_steps(r, rpl_ckpt_before(r, hi - 1)); /* nothing there can hit */
			continue;
		}
		/* (running may add and drop checkpoints, moving the indexes: keep the step) */
		uint64_t from = rpl_ckpt_steps(r, rpl_ckpt_before(r, hi - 1));

		if (rpl_ckpt_restore(r, rpl_ckpt_before(r, hi - 1)))
			return -1;
		have = k = 0;
		rpl_set_goal(r, hi);
		while (r->d.steps < hi) {
			if (r->interrupt) {
				r->interrupt = 0;
				r->goal_slot = UINT64_MAX;
				fill_stop(r, stop, RPL_STOP_INTERRUPT, r->cur);
				return 0;
			}
			if (at_break(r, &c) && r->d.steps < now) {
				fill_stop(r, &found, RPL_STOP_BREAK, c);
				have = 1;
			}
			k = rpl_step_one(r);
			if (k)
				break;
			if (r->d.steps <= now && hit_watch(r, &w)) {
				w.position = r->d.position;
				w.step = r->d.steps;
				found = w;
				have = 1;
			}
			if (core >= 0 && r->cur == core && r->d.steps <= now &&
			    (r->last.ev == ISA_EV_INSN || r->last.ev == ISA_EV_STOP) &&
			    !r->last.faulted) {
				found.kind = RPL_STOP_STEP;
				found.core = core;
				found.step = r->d.steps - 1;
				have = 1;
			}
		}
		r->goal_slot = UINT64_MAX;
		if (k < 0)
			return -1;
		if (have) {
			if (rpl_seek_step(r, found.step) < 0)
				return -1;
			found.position = r->d.position;
			if (found.kind == RPL_STOP_BREAK)
				r->break_step = found.step;
			*stop = found;
			return 0;
		}
		hi = from;
	}
	if (rpl_ckpt_restore(r, 0))
		return -1;
	fill_stop(r, stop, RPL_STOP_BEGIN, 0);
	return 0;
}

int rpl_continue(struct rpl *r, int reverse, struct rpl_stop *stop)
{
	return reverse ? backward(r, -1, stop) : forward(r, -1, stop);
}

int rpl_stepi(struct rpl *r, int core, int reverse, struct rpl_stop *stop)
{
	if (core < 0 || core >= r->ncores)
		return error("no core %d", core);
	return reverse ? backward(r, core, stop) : forward(r, core, stop);
}

void rpl_interrupt(struct rpl *r)
{
	r->interrupt = 1;
}

void rpl_take_stop_state(struct rpl *to, const struct rpl *from)
{
	to->break_step = from->break_step;
}


#include "board/sched.h"

#include <capstone/arm.h>
#include <string.h>

#include "board/board.h"

void board_sched_init(struct board_sched *s, const struct board_sched_config *cfg,
		      struct isa_cpu *const *cpu)
{
	struct dc_config dcc = { BOARD_TIMING_CACHE_SIZE, BOARD_TIMING_CACHE_ASSOC,
				 BOARD_TIMING_CACHE_LINE };

	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	for (int i = 0; i < cfg->ncores; i++) {
		s->cpu[i] = cpu[i];
		s->tcache[i] = dc_new(&dcc);
	}
	s->rng = cfg->seed ^ 0x9e3779b97f4a7c15ull;
	s->linear = isa_simple_engine();
	board_sched_restore(s);
}

void board_sched_restore(struct board_sched *s)
{
	for (unsigned k = 7; k; k--) {
		unsigned a = k >= 4 ? 2 * k - 8 : s->node[2 * k];
		unsigned b = k >= 4 ? 2 * k + 1 - 8 : s->node[2 * k + 1];

		/* every core under a has a lower index than every core under b */
		s->node[k] = (uint8_t)(b >= (unsigned)s->cfg.ncores || s->cycles[b] >= s->cycles[a]
					   ? a : b);
	}
}

void board_sched_release(struct board_sched *s)
{
	for (int i = 0; i < s->cfg.ncores; i++)
		dc_free(s->tcache[i]);
	memset(s, 0, sizeof(*s));
}

int board_sched_sleep(struct board_sched *s, int i, uint64_t insns)
{
	uint64_t target = UINT64_MAX, t;

	for (int j = 0; j < s->cfg.ncores; j++) {
		/*
		 * Every t below is 1 or more (a SysTick wrap is a cycle away at
		 * least): a core whose clock is target - 1 or later cannot lower
		 * the target, and what it would have been asked is pure.
		 */
		if (s->cycles[j] + 1 >= target)
			continue;
		if (j == i)
			t = isa_cpu_next_tick_inline(s->cpu[j]);
		else if (!isa_cpu_sleeping_inline(s->cpu[j]))
			t = 1;
		else
			t = isa_cpu_next_tick_inline(s->cpu[j]);
		if (t != UINT64_MAX && s->cycles[j] + t < target)
			target = s->cycles[j] + t;
	}
	if (target == UINT64_MAX)
		return error("board: deadlock: every core is asleep (WFI/WFE) with no interrupt "
			     "or event to come; core %d sleeps at pc 0x%08x after %llu "
			     "instructions",
			     i, isa_cpu_get(s->cpu[i], ISA_R_PC), (unsigned long long)insns);
	t = target > s->cycles[i] ? target - s->cycles[i] : 1;
	s->cycles[i] += t;
	board_sched_moved(s, i);
	isa_cpu_tick(s->cpu[i], t);
	return 0;
}

void board_sched_retire_other(struct board_sched *s, int i, const struct isa_step *st)
{
	uint64_t cost;

	switch (st->ev) {
	case ISA_EV_INSN:
	case ISA_EV_STOP:
		cost = 1 + (st->taken ? s->cfg.branch_penalty : 0) + board_sched_jitter(s);
		if (st->insn_id == ARM_INS_SEV)
			for (int j = 0; j < s->cfg.ncores; j++)
				if (j != i)
					isa_cpu_signal_event(s->cpu[j]);
		break;
	case ISA_EV_EXCEPTION:
		cost = s->cfg.exc_penalty;
		break;
	default:
		cost = 1;
		break;
	}
	cost += (uint64_t)s->misses * s->cfg.miss_penalty;
	s->cycles[i] += cost;
	board_sched_moved(s, i);
	isa_cpu_tick(s->cpu[i], cost);
}

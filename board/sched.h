/*
 * sched: the board's timing model and scheduler, apart from its memory, so
 * that the replay can run the very same model over its own cores and
 * reproduce the recorded interleaving exactly (DESIGN.md section 7).
 *
 * Each core has a cycle count. A step costs 1 cycle, plus branch_penalty
 * if it branched, plus miss_penalty per line miss of the core's private
 * timing D-cache (BOARD_TIMING_CACHE_*; cacheable data accesses only, not
 * vector reads), plus a seeded jitter of 1..jitter cycles on one
 * instruction in 64; an exception entry costs exc_penalty plus its misses;
 * a sleeping core skips ahead to the earliest cycle at which anything could
 * wake it. The core with the fewest cycles steps next, ties to the lowest
 * index. SEV sets the event register of every other core.
 */
#ifndef RAPTOR_SCHED_H
#define RAPTOR_SCHED_H

#include <stdint.h>

#include "caches/dc.h"
#include "isa/isa.h"
#include "util/util.h"

#define SCHED_MAX_CORES 8

struct board_sched_config {
	int ncores;
	uint64_t seed;
	unsigned jitter, branch_penalty, miss_penalty, exc_penalty;
};

struct board_sched {
	struct board_sched_config cfg;
	struct isa_cpu *cpu[SCHED_MAX_CORES];
	struct dc *tcache[SCHED_MAX_CORES];
	uint64_t cycles[SCHED_MAX_CORES];
	uint64_t rng;
	unsigned misses; /* timing-cache line misses of the step under way */
};

/* Set up for the given cores (not owned); allocates the timing caches. */
void board_sched_init(struct board_sched *s, const struct board_sched_config *cfg,
		      struct isa_cpu *const *cpu);
void board_sched_release(struct board_sched *s);

/* The core to step next. */
int board_sched_pick(const struct board_sched *s);

/*
 * The picked core sleeps: move its clock to the earliest cycle at which it
 * could wake (and tick its SysTick). 0, or -1 with an error when every
 * core sleeps with nothing to come (deadlock); insns is for the message.
 */
int board_sched_sleep(struct board_sched *s, int core, uint64_t insns) MUST_CHECK;

/* A data access by core during the step under way (timing cache). */
void board_sched_access(struct board_sched *s, int core, uint32_t addr, unsigned size,
			enum isa_access kind, int cacheable);

/* Before a step: clear the step's miss count. */
static inline void board_sched_begin(struct board_sched *s)
{
	s->misses = 0;
}

/* After core's step st: charge its cost, tick its SysTick, deliver SEV. */
void board_sched_retire(struct board_sched *s, int core, const struct isa_step *st);

#endif

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

#include <capstone/arm.h>

#include "caches/dc.h"
#include "isa/fast.h"
#include "isa/isa.h"
#include "util/util.h"

#define SCHED_MAX_CORES 8 /* the tournament (node) has 8 leaves */

struct board_sched_config {
	int ncores;
	uint64_t seed;
	unsigned jitter, branch_penalty, miss_penalty, exc_penalty;
};

struct board_sched {
	struct board_sched_config cfg;
	struct isa_cpu *cpu[SCHED_MAX_CORES];
	struct dc *tcache[SCHED_MAX_CORES];
	/*
	 * The clocks, written only here (a restore of them then calls
	 * board_sched_restore), so that the pick is kept as they move:
	 * node[1..7] is a tournament over the cores, node[k] the core with
	 * the fewest cycles under node k (ties to the lowest index), its
	 * children nodes 2k and 2k + 1, where children from 8 up are the
	 * cores themselves (8 + j is core j). node[1] is the pick. Under
	 * RAPTOR_SIMPLE_ENGINE (linear) each pick scans the clocks instead.
	 */
	uint64_t cycles[SCHED_MAX_CORES];
	uint8_t node[SCHED_MAX_CORES];
	int linear;
	uint64_t rng;
	unsigned misses; /* timing-cache line misses of the step under way */
};

/* Set up for the given cores (not owned); allocates the timing caches. */
void board_sched_init(struct board_sched *s, const struct board_sched_config *cfg,
		      struct isa_cpu *const *cpu);
void board_sched_release(struct board_sched *s);

/* The core to step next: the fewest cycles, ties to the lowest index. */
static inline int board_sched_pick(const struct board_sched *s)
{
	int i = 0;

	if (!s->linear)
		return s->node[1];
	for (int j = 1; j < s->cfg.ncores; j++)
		if (s->cycles[j] < s->cycles[i])
			i = j;
	return i;
}

/*
 * Core i's clock moved: the matches on its way to the root are played
 * again, each between its side's new winner and the other side's (which
 * did not change); the left side (the lower indices) wins ties.
 */
static inline void board_sched_moved(struct board_sched *s, int i)
{
	const uint64_t *c = s->cycles;
	unsigned n = (unsigned)s->cfg.ncores, u = (unsigned)i, w = u, o;
	uint64_t cw = c[u];

	if (n == 1)
		return;
	/* at each level, o the other side's winner: it wins ties when on the left */
#define SCHED_PLAY(other, level, at)                                                             \
	do {                                                                                     \
		o = (other);                                                                     \
		if (o < n && c[o] < cw + (u >> (level) & 1)) {                                   \
			w = o;                                                                   \
			cw = c[o];                                                               \
		}                                                                                \
		s->node[at] = (uint8_t)w;                                                        \
	} while (0)
	SCHED_PLAY(u ^ 1, 0, 4 + (u >> 1));
	SCHED_PLAY(s->node[(4 + (u >> 1)) ^ 1], 1, 2 + (u >> 2));
	SCHED_PLAY(s->node[(2 + (u >> 2)) ^ 1], 2, 1);
#undef SCHED_PLAY
}

/* Every clock set anew (board_sched_init, a checkpoint's restore): all matches. */
void board_sched_restore(struct board_sched *s);

/*
 * The picked core sleeps: move its clock to the earliest cycle at which it
 * could wake (and tick its SysTick). 0, or -1 with an error when every
 * core sleeps with nothing to come (deadlock); insns is for the message.
 */
int board_sched_sleep(struct board_sched *s, int core, uint64_t insns) MUST_CHECK;

/* A data access by core during the step under way (timing cache). */
static inline void board_sched_access(struct board_sched *s, int core, uint32_t addr, unsigned size,
				      enum isa_access kind, int cacheable)
{
	if (cacheable && kind != ISA_ACC_FETCH && kind != ISA_ACC_VECTOR)
		s->misses += dc_access(s->tcache[core], addr, size);
}

/* Before a step: clear the step's miss count. */
static inline void board_sched_begin(struct board_sched *s)
{
	s->misses = 0;
}

static inline uint64_t board_sched_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A stall of 1..jitter cycles on one instruction in 64 (bus contention, refresh). */
static inline unsigned board_sched_jitter(struct board_sched *s)
{
	uint64_t r;

	if (!s->cfg.jitter)
		return 0;
	r = board_sched_splitmix(&s->rng);
	if (r & 63)
		return 0;
	return 1 + (unsigned)((r >> 6) % s->cfg.jitter);
}

/*
 * board_sched_retire for a plain instruction (isa_cpu_step_plain): no
 * branch, no data access, so 1 cycle plus the jitter. Returns its cost.
 */
static inline __attribute__((always_inline)) uint64_t board_sched_retire_plain(struct board_sched *s,
									   int core)
{
	uint64_t cost = 1 + board_sched_jitter(s);

	s->cycles[core] += cost;
	board_sched_moved(s, core);
	isa_cpu_tick_inline(s->cpu[core], cost);
	return cost;
}

/* board_sched_retire for everything but an ordinary instruction. */
void board_sched_retire_other(struct board_sched *s, int core, const struct isa_step *st);

/* After core's step st: charge its cost, tick its SysTick, deliver SEV. */
static inline void board_sched_retire(struct board_sched *s, int core, const struct isa_step *st)
{
	uint64_t cost;

	if (st->ev != ISA_EV_INSN || st->insn_id == ARM_INS_SEV) {
		board_sched_retire_other(s, core, st);
		return;
	}
	cost = 1 + (st->taken ? s->cfg.branch_penalty : 0) + board_sched_jitter(s) +
	       (uint64_t)s->misses * s->cfg.miss_penalty;
	s->cycles[core] += cost;
	board_sched_moved(s, core);
	isa_cpu_tick_inline(s->cpu[core], cost);
}

#endif

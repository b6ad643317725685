/*
 * replay_priv.h: the replay's insides, shared by its modules: replay.c
 * (opening, the streams, the bus and the step loop), ckpt.c (checkpoints,
 * seeks and the persistent index's access) and search.c (break- and
 * watchpoints, continue and step). Nothing outside replay/ includes this.
 */
#ifndef RAPTOR_REPLAY_PRIV_H
#define RAPTOR_REPLAY_PRIV_H

#include "replay/replay.h"

#include "board/board.h"
#include "board/sched.h"
#include "caches/fa.h"
#include "caches/mc2rt.h"
#include "isa/elf.h"
#include "predictors/bp.h"
#include "replay/cfwalk.h"
#include "replay/etmpath.h"
#include "replay/ckstore.h"
#include "replay/mem.h"
#include "replay/summary.h"
#include "replay/tindex.h"
#include "streams/cfmsg.h"
#include "streams/lvmsg.h"
#include "streams/truth.h"
#include "util/fmap.h"

#define MAX_CORES ST_CF_MAX_CORES
#define MAX_STEP_ACC 64 /* data accesses of one step: LDM of 16 + stacking + vector */

struct acc {
	uint8_t kind, size, store;
	uint32_t addr, value;
};

/*
 * The replay's scalar state: the stream decoders with the next heads, the
 * counters, the position. Plain data, so a checkpoint is a copy of it plus
 * the blobs of the cores, predictors, caches and the memory snapshot.
 */
struct dyn {
	struct st_cf_decoder cfd;
	struct st_lv_decoder lvd;
	struct st_cf_msg cf_head;
	uint64_t cf_head_at; /* bit offset of the head */
	int cf_have;
	struct st_lv_msg lv_head;
	uint64_t lv_head_at;
	int lv_have;

	/* per-core counters since the core's previous message */
	uint64_t bcnt[MAX_CORES], icnt[MAX_CORES], sl[MAX_CORES], hits[MAX_CORES];
	uint64_t insns[MAX_CORES], position;
	uint64_t steps; /* scheduler steps (instructions, exception entries, sleeps) */
	uint64_t csteps[MAX_CORES]; /* each core's instructions and exception entries */

	/* the end of the trace: each core's last instruction, from the end messages */
	int have_end;
	uint64_t budget[MAX_CORES];

	int exited, exit_status;
	int ended; /* nothing more to replay */
};

/* cf-only verification: one step of the truth, kept until the replay reaches it. */
struct tstep {
	uint64_t cycle;
	uint32_t pc;
	uint16_t exc;
	uint8_t type, flags;
};

/* The truth's steps of one core read ahead of the replay's order: v[head..n). */
struct tqueue {
	struct tstep *v;
	size_t head, n, a;
};

struct rpl {
	struct st_manifest mf;
	struct board_mem bm; /* where ROM and SRAM are, from the manifest's core model */
	char *dir, *cf_path, *lv_path, *elf_path;
	struct isa_elf elf;
	int elf_loaded;
	struct rpl_mem *mem;
	/*
	 * The recording's initial image as far as the replay has seen it: every
	 * byte a traced load value made known for the first time (nothing
	 * stored it before, so it held that value from the start). Never
	 * restored with a checkpoint: it only grows (rpl_read_mem).
	 */
	struct rpl_mem *init;
	uint64_t memory; /* rpl_set_memory's budget, shared out by share_memory (ckpt.c) */
	uint64_t held;	 /* what this replay holds, as it last published it (ckpt.c) */
	uint64_t rest_trimmed; /* the rest after share_memory's last trim, or its low since */
	struct isa_decoder *dec;
	struct isa_bus bus;
	struct isa_cpu *cpu[MAX_CORES];
	struct board_sched sched;
	int ncores;
	struct bp *bp[MAX_CORES];
	struct dc_fa *fa;
	struct dc_mc2rt *mc;

	/* streams, each with the next message's head already decoded */
	struct fmap cf_map, lv_map; /* the stream files, mapped (util/fmap.h) */
	const uint8_t *cf_buf, *lv_buf; /* the streams: mapped, or rpl_open_streams' */
	struct dyn d; /* everything a checkpoint restores besides the blobs below */

	/* the step under way */
	int cur;
	int failed;
	uint64_t good_steps; /* if failed: the steps before the one that failed */
	struct acc acc[MAX_STEP_ACC];
	int nacc;
	uint64_t lv_due[MAX_STEP_ACC]; /* time stamps of the lv messages of this step */
	uint64_t lv_due_at[MAX_STEP_ACC];
	int nlv_due;

	int in_reset; /* reset reads the vector table untraced, as the board did */
	int simple;   /* RAPTOR_SIMPLE_ENGINE: the step loop as it was first written */
	/*
	 * Names the open summary for the cf-only walk's block marks (cfw_run's
	 * sum_gen): bumped whenever the store may change which summary is open
	 * (a checkpoint added, a trim, a restore), never reused.
	 */
	uint32_t sum_gen;
	/*
	 * What the latest step did. After rpl_run's block engine made it (a
	 * plain instruction, no truth or observer): only ev, pc, next_pc and
	 * size; the step-by-step callers (rpl_step_one) get it whole.
	 */
	struct isa_step last;
	/*
	 * run_fast_with's open summary, looked up once a stretch (NULL: not
	 * yet); kept here rather than in a register the block engine needs.
	 */
	struct rpl_summary *run_osum;

	/*
	 * checkpoints, at every `interval`-th position (slot position / interval),
	 * as many as the memory budget keeps (replay/ckstore.h); each holds a
	 * state of state_size bytes: struct dyn, the cycles and the scheduler's
	 * generator, then the blob of the cores, predictors, caches and timing
	 * caches
	 */
	struct rpl_ckstore *ck;
	size_t state_size;
	uint64_t interval, next_ckpt;

	uint32_t breaks[RPL_MAX_POINTS];
	int nbreak;
	struct rpl_watchpoint watch[RPL_MAX_POINTS];
	int nwatch;
	volatile int interrupt;
	/*
	 * The store's summary i: what the stretch from checkpoint i to
	 * checkpoint i + 1 did, filled while the replay runs it the first time
	 * (steps >= frontier: always in the last stretch).
	 */
	uint64_t frontier;
	/*
	 * A sweep (rpl_set_sweep): on; the cf stream's position (bits) at the
	 * last slot and the most bits a slot took; slots passed over.
	 */
	int sweep;
	uint64_t sweep_pos, sweep_rate, swept;
	int once; /* rpl_set_once: no checkpoint laid down */
	/*
	 * Where a seek (rpl_seek, rpl_seek_step) or a stretch of a reverse
	 * search is going, its slot (UINT64_MAX outside one): a checkpoint
	 * thinning would have dropped by then is not laid down on the way.
	 */
	uint64_t goal_slot;
	uint64_t end_position; /* the recording's last, once a seek reached it; else UINT64_MAX */
	/*
	 * The slots where each code line and data block was used (full replays
	 * only; NULL for a control-flow-only one): filled with the summaries,
	 * it finds the stretches a search must run where thinning made the
	 * summaries coarse.
	 */
	struct rpl_tindex *tix;
	/*
	 * tix_fed: the time index is this replay's own, fed at every step past
	 * the frontier since the beginning, so it covers the steps below the
	 * frontier (its own count lags: rpl_tix_done is called only where a
	 * slot starts, at tix_next_pos). The code line and the loaded and stored
	 * blocks each core noted last in this slot, so that a step repeating
	 * them calls nothing (UINT32_MAX: none): the cores take turns.
	 */
	int tix_fed;
	uint64_t tix_next_pos;
	uint32_t tix_line[MAX_CORES], tix_blk[MAX_CORES][2]; /* per core: noted last in the slot */
	uint64_t break_step; /* the step where a breakpoint stop was last reported */

	struct st_truth_reader *truth;
	uint64_t verified;

	/* control-flow only (no lv stream): the walk replaces the ISS */
	struct cfw *cfw;
	/* a trace port's recording: the path the walk follows (etmpath.h) */
	struct rpl_etm *etm;
	uint64_t gaps_seen[MAX_CORES]; /* verify: each core's gaps met so far */
	struct tqueue tq[MAX_CORES];
	struct rpl_verify_stats vs;
	uint64_t cycle_error_sum;

	rpl_step_fn obs; /* rpl_observe */
	void *obs_ctx;
};

#define U(x) ((unsigned long long)(x))

/* The steps the time index covers (those below it). */
static inline uint64_t rpl_tix_cover(const struct rpl *r)
{
	return r->tix_fed ? r->frontier : rpl_tix_covered(r->tix);
}

/* A fresh time index for r's interval, fed from the beginning. */
void rpl_tix_restart(struct rpl *r);

/* ---- replay.c ---- */

/* The summary the first run through fills: the last stretch's. */
static inline struct rpl_summary *rpl_open_summary(struct rpl *r)
{
	return rpl_ckstore_last_sum(r->ck);
}

/* The accesses watchpoints see: the instructions' own, not stacking or vectors. */
static inline int rpl_watchable(enum isa_access kind)
{
	return kind == ISA_ACC_LOAD || kind == ISA_ACC_STORE || kind == ISA_ACC_LDREX ||
	       kind == ISA_ACC_STREX;
}
/*
 * One step of the replay: 0, 1 at the end, -1 at an error (good_steps keeps
 * the count before a step that failed).
 */
int rpl_step_one(struct rpl *r);
/*
 * `while (position < to) step` for a control-flow-only replay, in runs of
 * the walk: 0, 1 at the end, -1 at an error.
 */
int rpl_cf_only_run(struct rpl *r, uint64_t to);

/* ---- ckpt.c ---- */

/*
 * At every interval-th position (called when position reaches next_ckpt):
 * a checkpoint there unless the store has it.
 */
void rpl_ckpt_take(struct rpl *r);
/* A checkpoint's state size: struct dyn, the cycles, the generator, the blob. */
size_t rpl_ckpt_state_size(const struct rpl *r);
/* The replay closes: its budget and holdings leave the process's sums. */
void rpl_memory_forget(struct rpl *r);
/* Restore checkpoint ci of the store. 0 / -1. */
int rpl_ckpt_restore(struct rpl *r, size_t ci);
/* The latest checkpoint at or before step s, and a checkpoint's steps. */
size_t rpl_ckpt_before(const struct rpl *r, uint64_t s);
/*
 * The replay is on its way to step s (the goal_slot: its slot at most):
 * rpl_ckpt_take lays down no checkpoint that thinning would drop there.
 * The caller sets goal_slot back to UINT64_MAX when it is there or stops.
 */
void rpl_set_goal(struct rpl *r, uint64_t s);
uint64_t rpl_ckpt_steps(const struct rpl *r, size_t i);

#endif

/*
 * cfwalk: the control-flow-only replay (a recording with a cf stream and
 * no load-value stream): every core's exact PC sequence, from the ELF's
 * code, the manifest and the cf stream alone (DESIGN.md section 3, the
 * papers' Fig. 6). No register or memory value is known or invented.
 *
 * Each core is walked through the code with the decoder (isa_describe:
 * size, control-flow class and static target, the very classification the
 * ISS and the recorder's trace module use) and, for TR_b/TR_e, with the
 * software copy of that core's predictors (predictors/bp, the code the
 * trace module runs), predicted and trained exactly as on the target:
 *
 *   - at every branch that counts, bCnt += 1; while it is below the next
 *     message's count the predictor's outcome and target are taken; at the
 *     count the opposite outcome (direct) or the message's T bit and target
 *     (indirect) are; then the next message;
 *   - NX_b: SL counts instructions; a conditional direct branch is taken
 *     exactly when a message lands on it, an indirect branch takes the
 *     message's target (an unconditional one must have a message);
 *   - exceptions: iCnt (SL) counts instructions down, then the handler is
 *     entered at the vector of the message's exception number; a
 *     tail-chained one (X = 1) replaces the exception return that was the
 *     last of those instructions; IT blocks are followed through ITSTATE
 *     as the ISS keeps it, saved on exception entry and restored when an
 *     indirect branch returns to the interrupted instruction;
 *   - the end messages give every core's last instruction.
 *
 * Speed. isa_describe's answers are kept per PC, with the straight-line
 * run that starts there (the instructions up to the next branch, IT or
 * WFI/WFE, their sizes, and the answer for the instruction that ends it).
 * A walker goes on in a lane: through whole runs with one count each, and
 * through every branch, IT block and instruction inside one that its next
 * message does not land on, the predictors predicting and training in one
 * call (bp_follow), with every check walk() would make after each of those
 * steps made at once or on the way; it leaves the lane for the steps that
 * reach a message, WFI/WFE and anything that fails. cfw_run hands the
 * replay's bulk callers (rpl_run, rpl_seek, rpl_index) runs of steps up to
 * their limits (a checkpoint's position, a target), with the same results
 * as one cfw_step at a time; RAPTOR_CFW_SIMPLE keeps the instruction-at-a-
 * time walk, so that the tests compare both (t0320). The predictors'
 * work is done twice, by the read-ahead and by the replay (whose copies
 * the checkpoints hold), but on one core going forward: where the replay
 * is at the read-ahead's place, the read-ahead's walker walks for both and
 * the replay takes its state at the end of the run. With several cores
 * the replay's order comes from a tournament over the cores' estimates,
 * and a core that is the one to step for one step only takes it without a
 * lane.
 *
 * The stream is not self-describing, and its messages are in the trace
 * port's global order, so it is decoded by a second, read-ahead copy of
 * the walkers (with their own predictors): they walk each core just far
 * enough to complete the message at the head of the stream, and file the
 * decoded messages per core. The replay's walkers then follow those lists
 * with the same code. The messages the replay has passed are kept packed
 * (7 to 8 bytes each, against 88 plain), in blocks of 4096 messages
 * deflated (3 to 4 bytes a message), for the replay to go back over: a
 * replay going back inflates the blocks it reads, two at a time.
 *
 * Global order. Each core's PC sequence is exact; the interleaving of the
 * cores is not known between messages, because the board's timing depends
 * on data-cache misses (data addresses are not traced) and on a jitter
 * drawn in the global step order. The replay orders the cores by an
 * estimated cycle count, stepping the core with the smallest estimate
 * (ties to the lowest index, as the board), under one exact constraint: a
 * step that consumes a message waits until every earlier message in the
 * stream has been consumed (the stream order is the board's step order).
 * The estimate of a core's cycle count:
 *
 *   - lower bound per step: an instruction 1 cycle, plus branch_penalty if
 *     it branched; an exception entry exc_penalty (board/sched.c without
 *     misses, jitter, sleeps or faulted attempts, which only add cycles);
 *   - timed streams: at each of the core's messages the cycle is the stamp
 *     (exact); a stamp below the lower bound since the previous one is a
 *     desync; between two stamps P0 and P1 whose steps have lower bound L,
 *     the slack S = P1 - P0 - L is split into misses M, spread in
 *     proportion to the lower bound, and sleep S - M, shared evenly by the
 *     stretch's WFI/WFE (M = S without WFI/WFE; with them, the core's slack
 *     per lower-bound cycle in its stretches without any so far, times L,
 *     at most S): after l lower-bound cycles and w WFI/WFE (the latest
 *     step aside: a sleep follows it) the estimate is
 *     P0 + l + M l / L + (S - M) w / W, which is P1 at the message;
 *   - functional streams: the lower bound from reset.
 *
 * The stream has no check bits. A damaged one is a desync where it stops
 * fitting the code, the predictors or the lower bound, but a change that
 * still fits (a stamp moved up; a bCnt moved to another iteration of a
 * loop) replays another run without an error: only a ground truth tells.
 *
 * Assumptions a cf stream cannot check: the code is the ELF's load image
 * (no self-modifying code, no code in RAM), the vector table stays at 0
 * (VTOR is never moved), and a stacked exception frame's xPSR (its
 * ITSTATE) is not rewritten. Shared predictors on several cores are
 * refused for TR_b/TR_e: their state depends on the exact interleaving of
 * every core's branches. NX_b has no message for a B or BL inside an IT
 * block: its direction is unknown, and the walk stops with an error there.
 */
#ifndef RAPTOR_CFWALK_H
#define RAPTOR_CFWALK_H

#include <stddef.h>
#include <stdint.h>

#include "isa/isa.h"
#include "replay/summary.h"
#include "streams/manifest.h"
#include "util/util.h"

struct cfw;

/*
 * A decoded path (a real trace port's recording: replay/etmpath.h), the
 * walk's source instead of the cf stream: per core, a message at every
 * non-sequential change of its PC, in the core's order (the cores' messages
 * in any interleaving that keeps each core's order; the walk consumes them
 * in that order). A core's count restarts after each of its messages.
 *
 *   CFW_P_BRANCH  the n-th instruction (1 = the next one) is a branch that
 *                 was taken to ta; every branch before it was not (a
 *                 direct one: ta must be its encoded target; an
 *                 unconditional one outside an IT block cannot be passed)
 *   CFW_P_EXC     after n instructions, exception exc is entered
 *   CFW_P_TAIL    the n-th instruction returns from an exception and
 *                 tail-chains into exc (n >= 1)
 *   CFW_P_GAP     after n instructions the trace lost the core: it is
 *                 next seen at ta, what it ran in between is unknown (a
 *                 step that retires nothing and says so, cfw_step.gap)
 *   CFW_P_END     the core's last message: n more instructions, then
 *                 nothing (the last message of every core; all of them
 *                 come last, in core order)
 *
 * at: where the message's evidence is in the trace file (the byte offset
 * the walk's errors name instead of a bit offset).
 */
enum cfw_pkind { CFW_P_BRANCH, CFW_P_EXC, CFW_P_TAIL, CFW_P_GAP, CFW_P_END };
struct cfw_pmsg {
	uint64_t n;
	uint64_t at;
	uint32_t ta;
	uint16_t exc;
	uint8_t core, kind;
};

struct cfw_config {
	const struct st_manifest *mf; /* cf_on; must outlive the walker */
	const uint8_t *cf;	      /* the stream, mf->cf_bits bits (not copied) */
	const char *cf_path;	      /* for messages */
	struct isa_decoder *dec;      /* for isa_describe */
	const struct isa_bus *bus;    /* its fetch reads the ELF's load image */
	/*
	 * if path_next: walk a decoded path, not the cf stream; path_next(path_ctx,
	 * m) gives its next message: 0, or 1 when none is left (path_ctx must
	 * outlive the walker)
	 */
	int (*path_next)(void *ctx, struct cfw_pmsg *m);
	void *path_ctx;
};

/* One replayed step. */
struct cfw_step {
	int core;
	int exception;	  /* 1: an exception entry (no instruction retired) */
	uint32_t pc;	  /* the instruction; an exception entry: its return address */
	uint32_t next_pc; /* where the core goes on */
	unsigned exc;	  /* the exception entered, or tail-chained into (0: none) */
	int tail;	  /* an instruction whose exception return tail-chained into exc */
	uint64_t cycle;	  /* the core's estimated cycle after the step */
	int pinned;	  /* the step emitted a timed message: cycle is its exact stamp */
	int gap;	  /* a decoded path's gap: exception is 1 too (nothing retired), exc 0 */
};

/*
 * A walker for the recording's cf stream. NULL with an error when the
 * recording cannot be replayed from the cf stream alone (shared TR
 * predictors on several cores).
 */
struct cfw *cfw_new(const struct cfw_config *cfg);
void cfw_free(struct cfw *x);

/*
 * The next step in the estimated global order into *out. 0; 1 at the end
 * of the recording (every core at its end message; nothing done); -1 on a
 * desync (an error naming the stream, the core, its instruction count and
 * the bit offset of the message concerned). A desync found while decoding
 * ahead is reported when the replay needs that part of the stream, and
 * again at every later call. -1 too (an internal error naming the core and
 * the block) when the packed messages a replay that went back needs do not
 * inflate.
 */
int cfw_step(struct cfw *x, struct cfw_step *out) MUST_CHECK;

/*
 * A run of steps for the replay's bulk callers (rpl_run, rpl_seek), in
 * the same order and with the same results as as many cfw_step calls;
 * straight-line code is passed a whole run of instructions at once. The
 * caller sets the limits and the sinks; cfw_run fills the rest.
 */
struct cfw_run {
	uint64_t max_steps; /* stop after this many steps (>= 1) */
	uint64_t max_insns; /* or after the instruction that makes this many (>= 1) */
	/* if sum: every step's PC is noted in it (rpl_sum_pc); sum_gen (>= 1) names it */
	struct rpl_summary *sum;
	uint32_t sum_gen;
	struct cfw_step *log; /* if not NULL: every step, max_steps of them at most */

	uint64_t steps, insns; /* done (on an error: before the step that failed) */
	struct cfw_step last;  /* the latest step done */
};

/*
 * Steps until a limit of run: 0 (at least one step done); 1 at the end
 * of the recording (nothing done); -1 on an error as cfw_step's (on one
 * core, where the replay walks as the stream is decoded, the run goes on
 * up to the step a desync is found at).
 * RAPTOR_CFW_SIMPLE set (not empty) in the environment at cfw_new makes
 * every run (and the read-ahead) one instruction at a time, the plain
 * walk (a white-box switch, so that tests compare both);
 * RAPTOR_CFW_BLOCK=N (1 to 1024) deflates the packed messages in blocks
 * of N chunks of 256 instead of 16 (another, so that small recordings have
 * many blocks).
 */
int cfw_run(struct cfw *x, struct cfw_run *run) MUST_CHECK;

/*
 * What the next cfw_step will do, without doing it: 0 with *core, *pc and
 * *insn (1: an instruction at *pc, 0: an exception entry); 1 at the end;
 * -1 on an error as above.
 */
int cfw_peek(struct cfw *x, int *core, uint32_t *pc, int *insn) MUST_CHECK;

/* A core's PC (its next instruction), estimated cycle, instructions, steps. */
uint32_t cfw_pc(const struct cfw *x, int core);
uint64_t cfw_cycle(const struct cfw *x, int core);
uint64_t cfw_insns(const struct cfw *x, int core);
uint64_t cfw_steps(const struct cfw *x, int core);
/*
 * Bytes the walker holds: its decoded messages (the newest plain, the
 * older packed and deflated, the blocks inflated for a replay going back,
 * the compressor) and its answers about the code. If st, of the messages:
 */
struct cfw_msg_stats {
	uint64_t messages;     /* decoded */
	uint64_t packed;       /* of them packed */
	uint64_t packed_bytes; /* the bytes those take: deflated blocks, the newest blocks raw */
	uint64_t packed_raw;   /* the bytes they took packed, before deflating */
	uint64_t blocks;       /* complete blocks, deflated (each core's but its newest) */
	uint64_t inflations;   /* blocks inflated for a replay going back, so far */
	uint64_t cache_bytes;  /* held to read them back and to deflate (in the total) */
};
uint64_t cfw_memory(const struct cfw *x, struct cfw_msg_stats *st);
/* The bit offset in the cf stream the walk has read up to. */
uint64_t cfw_stream_pos(const struct cfw *x);

/*
 * Checkpoints of the replay's walkers, predictor copies and order (the
 * decoded messages are kept and never go back): cfw_save writes exactly
 * cfw_state_size(x) bytes; cfw_restore returns 0, or -1 with an error.
 */
size_t cfw_state_size(const struct cfw *x);
void cfw_save(const struct cfw *x, void *buf);
int cfw_restore(struct cfw *x, const void *buf, size_t len) MUST_CHECK;

#endif

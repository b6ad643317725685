/*
 * replay: rebuild every instruction of every core from a recording (ELF +
 * manifest + streams; never the ground truth), DESIGN.md section 7.
 *
 * Full fidelity (a control-flow and a load-value stream): the cores run in
 * the ISS over the replay's own memory picture (replay/mem.h), with the
 * software copies of the predictors and caches. Every load asks the cache
 * copy: a hit must read bytes the debugger knows, a miss takes its value
 * from the next load-value message, which must be this core's, with this
 * core's hit count. The board's timing model (board/sched.h, parameters
 * from the manifest) orders the cores, so the recorded interleaving is
 * reproduced exactly; then every message of both streams falls due at a
 * known step, and each is checked when it does: its core, its counts, its
 * exception number, its target and its time stamp against the replay's
 * cycle count. Any disagreement, a stream that ends early or has bits left
 * over, a value the FA rules say is known but is not, is a desync: an error
 * naming the stream file, the core, the instruction count and the bit
 * offset, and the replay stops there.
 *
 * A position is the number of instructions retired by all cores so far,
 * in the global order (0 = the reset state). Finer, a step counts every
 * scheduler step (instructions, exception entries, sleeps): the state
 * "after step s" is unique, and the state at a position is the one right
 * after the step that retired that instruction.
 *
 * Checkpoints (the scalar state, every core's registers, the predictor,
 * cache and timing-cache copies, and the memory picture by copy-on-write
 * pages) are taken every `interval` instructions as the replay first runs
 * forward; going back restores the nearest one before and runs forward.
 * They live in a store with a memory budget (replay/ckstore.h): over it,
 * the cold ones' states are compressed and they are thinned, dense near
 * the replay's position and sparse far away, and laid down again when the
 * replay re-runs a stretch that lost them.
 *
 * Control flow only (a cf stream, no load-value stream: `record --lv-enc
 * none`; replay/cfwalk.h has the method). What is known, and how well:
 *
 *   - each core's PC sequence is exact: every instruction it retired and
 *     every exception it entered (and which), in its own order, up to its
 *     end message; a desync is an error as above (the stream has no check
 *     bits, though: a damaged message that still fits the code replays
 *     another run, which only --verify can tell);
 *   - no register but the PC, and no memory byte, is known: rpl_regs_known
 *     returns 0; rpl_cpu's registers other than PC are stale (the reset
 *     values) and must not be shown or used; rpl_read_mem reports every
 *     byte unknown (the board lets programs write ROM too, so even the
 *     ELF's image is not known to hold); rpl_watch refuses watchpoints
 *     (data addresses are not traced); breakpoints are exact;
 *   - the interleaving of the cores is estimated: the cores are stepped in
 *     the order of an estimated cycle count (rpl_cycles), which equals the
 *     board's exactly at every step that emitted a timed message (its time
 *     stamp) and is interpolated between (a lower-bound model of the
 *     board's timing, the slack shared by misses and sleeps); with a
 *     functional stream it is the lower bound. Exact in either case: the
 *     order of the steps that emitted messages (the stream's order). So a
 *     position and rpl_stop's position count instructions in this
 *     estimated order: a core's own instruction count (rpl_core_insns) at
 *     a stop is exact, the others' are as of the estimate;
 *   - the program's exit is known (its end message), not its status.
 */
#ifndef RAPTOR_REPLAY_H
#define RAPTOR_REPLAY_H

#include <stdint.h>

#include "board/board.h"
#include "isa/isa.h"
#include "replay/ckstore.h"
#include "replay/tindex.h"
#include "streams/manifest.h"
#include "util/util.h"

#define RPL_MAX_POINTS 64	  /* breakpoints, and watchpoints */
#define RPL_DEFAULT_INTERVAL 65536 /* instructions between checkpoints */
#define RPL_DEFAULT_MEMORY (512ull << 20) /* bytes the checkpoints may hold */

struct rpl;

enum rpl_watch_kind {
	RPL_WATCH_WRITE,  /* GDB Z2 */
	RPL_WATCH_READ,	  /* Z3 */
	RPL_WATCH_ACCESS, /* Z4 */
};

struct rpl_watchpoint {
	uint32_t addr, len;
	enum rpl_watch_kind kind;
};

enum rpl_stop_kind {
	RPL_STOP_NONE,
	RPL_STOP_BREAK,	    /* before an instruction at a breakpoint */
	RPL_STOP_WATCH,	    /* after an instruction's access to a watched range */
	RPL_STOP_STEP,	    /* a single step done (forward: after; reverse: before) */
	RPL_STOP_BEGIN,	    /* the beginning of the recording (reverse) */
	RPL_STOP_END,	    /* the end of the recording (forward) */
	RPL_STOP_INTERRUPT, /* rpl_interrupt */
};

struct rpl_stop {
	enum rpl_stop_kind kind;
	int core;		     /* the core that stopped */
	uint64_t position, step;     /* where the replay is now */
	struct rpl_watchpoint watch; /* RPL_STOP_WATCH: which one */
	uint32_t addr;		     /* ... and the first watched byte accessed */
	int store;		     /* ... by a store */
};

/*
 * Open the recording in directory dir: read and check the manifest, check
 * the ELF's SHA-256 against it, load the program and the streams, set up
 * the cores at reset (their registers must equal the manifest's). NULL with
 * an error naming the file and the problem.
 */
struct rpl *rpl_open(const char *dir);
/*
 * rpl_open, with the manifest and the streams in memory: mf as
 * st_manifest_read leaves it (copied; nothing of it is checked again, so
 * its cf_bits and lv_bits must be the lengths of the streams given), cf
 * mf->cf_bits bits of control-flow stream and, if mf->lv_on, lv mf->lv_bits
 * bits of load-value stream, (bits + 7) / 8 bytes each (not copied: they
 * must not change and must outlive the replay; NULL for 0 bits). The
 * program is read from dir/mf->elf (the ELF's checks as rpl_open's), and
 * messages name the files rpl_open would read (dir/mf->cf_file, ...).
 * Not for a persistent index (replay/index.h): it is keyed by dir's files.
 * For replaying many streams against one recording's manifest and program
 * without writing a file (the fuzz targets, tests/fuzz/fuzz_stream.c).
 * NULL with an error, as rpl_open.
 */
struct rpl *rpl_open_streams(const char *dir, const struct st_manifest *mf, const uint8_t *cf,
			     const uint8_t *lv);
void rpl_close(struct rpl *r);

const struct st_manifest *rpl_manifest(const struct rpl *r);
/* The recording's directory, as given to rpl_open. */
const char *rpl_dir(const struct rpl *r);

/*
 * Compare every step with the ground truth dir/truth.gz from now on (core,
 * PC, flags, cycle, all registers, every access; s0..s31 and FPSCR too on a
 * core with an FPU, and a core with one where the truth has no FP state, or
 * the other way round, is a difference). Control flow only: each core's
 * steps against the truth's steps of that core (PC, tail-chaining,
 * exception number), the cycle of every step that emitted a timed message
 * against the truth's, and at the end, that the truth has no step left;
 * the estimated cycles' error is measured (rpl_verify_stats). 0, or -1 if
 * it cannot be opened (or the recording has none).
 */
int rpl_verify(struct rpl *r) MUST_CHECK;

/* What the verification compared so far. */
struct rpl_verify_stats {
	uint64_t insns;	     /* instructions (rpl_verified) */
	uint64_t fp_states;  /* states (a reset, instruction or exception entry) whose
			      * s0..s31 and FPSCR were compared: a core with an FPU */
	/* control flow only: */
	uint64_t exceptions; /* exception entries */
	uint64_t stamps;     /* steps whose cycle is a message's stamp: equal to the truth's */
	uint64_t estimated;  /* steps whose cycle is estimated: measured against the truth's */
	uint64_t max_cycle_error;
	double mean_cycle_error;
	/*
	 * a trace port's recording (docs/ETM.md): gaps the trace marks, the
	 * truth's steps inside them (not compared), and the instructions the
	 * truth has after the trace's last (ETMv4 learns of instructions only
	 * at the next waypoint): straight-line code from where the walk ends
	 */
	uint64_t gaps, in_gaps, untraced;
};
void rpl_verify_stats(const struct rpl *r, struct rpl_verify_stats *s);
/*
 * A trace port's recording (manifest [port]): what its decode found, per
 * core (instructions, gaps, exceptions: replay/etmpath.h). NULL for any
 * other recording.
 */
struct rpl_etm_stats;
const struct rpl_etm_stats *rpl_port_stats(const struct rpl *r);

/*
 * Run forward until position `to` (UINT64_MAX: the end of the recording).
 * Returns 1 at the end of the recording, 0 when `to` was reached first, -1
 * on a desync, a verification difference or an ISS error (reported).
 */
int rpl_run(struct rpl *r, uint64_t to) MUST_CHECK;

/*
 * Checkpoints every `insns` instructions from now on (default
 * RPL_DEFAULT_INTERVAL); one at the beginning always exists.
 */
void rpl_set_interval(struct rpl *r, uint64_t insns);
/* Replay to the end once, leaving checkpoints all along. 0 / -1. */
int rpl_index(struct rpl *r) MUST_CHECK;
/*
 * The replay will run forward to the end without stopping (an index made,
 * in the foreground or the background): from now on, a checkpoint the store's
 * thinning would drop before the end (at its density then) is not laid
 * down at the frontier at all. Each costs a state, a snapshot and then the
 * copies of the pages written after it; at 10^9 instructions and 8 cores
 * nineteen in twenty were dropped. The end is estimated from the cf bits
 * left at twice the most bits a stretch between two slots took so far: an
 * estimate too near lays down checkpoints that go later, as without a
 * sweep; one too far leaves the last stretches sparser than the rule
 * (they are laid down again when a search runs them). Nothing else changes.
 */
void rpl_set_sweep(struct rpl *r, int on);
/* Checkpoints a sweep passed over. */
uint64_t rpl_swept(const struct rpl *r);
/*
 * The replay runs forward once, then is closed, no search or seek between
 * (raptor replay without --random or --check-points): from now on no
 * checkpoint is laid down (they would only serve going back).
 */
void rpl_set_once(struct rpl *r);
/*
 * The memory the replay's growing structures may hold together (default
 * RPL_DEFAULT_MEMORY): the time index, the initial image, the live memory
 * picture and the checkpoint store. The store gets what the others leave
 * (at least a quarter), recomputed at every checkpoint as they grow: its
 * states, page tables and summaries and the memory pages only they hold.
 * Over it they are compressed and thinned at once and from then on
 * (replay/ckstore.h). A budget too small for the checkpoint at the
 * beginning leaves that one alone: every seek then replays from there.
 * The streams are mapped files whose pages behind the replay go back to
 * the page cache (util/fmap.h), and the program is small: not counted.
 */
void rpl_set_memory(struct rpl *r, uint64_t bytes);

/* Where the memory of rpl_set_memory goes, now. */
struct rpl_memory_use {
	uint64_t memory;     /* the whole budget */
	uint64_t time_index; /* replay/tindex.h */
	uint64_t initial;    /* the initial image (rpl_read_mem) */
	uint64_t live;	     /* the live memory picture's pages */
	uint64_t walk;	     /* a control-flow-only replay's messages and code (cfw_memory) */
	/*
	 * of those messages: how many, how many packed, in how many bytes, and
	 * before deflating; blocks deflated, inflations (cfw_msg_stats)
	 */
	uint64_t walk_messages, walk_packed, walk_packed_bytes, walk_packed_raw;
	uint64_t walk_blocks, walk_inflations;
	uint64_t path; /* a trace port's decoded path, the walk's source (etmpath.h) */
	/*
	 * The rest of the process's resident memory (code, libraries, decoder,
	 * caches, the allocator's free memory: what the fields above and the
	 * checkpoints do not count), this replay's share of it when several
	 * replays run in the process; 0 where the resident size is not known
	 * (under AddressSanitizer). resident: the process's resident memory.
	 */
	uint64_t rest, resident;
	uint64_t store;	     /* the store's share: memory less those and 1/64 of it, at least a 1/4 */
};
void rpl_memory_use(const struct rpl *r, struct rpl_memory_use *u);
/* Number of checkpoints; *bytes gets the memory they hold (as the budget counts it). */
size_t rpl_checkpoints(const struct rpl *r, uint64_t *bytes);
/* More about the checkpoints: compression, thinning, the most they held. */
void rpl_checkpoint_stats(const struct rpl *r, struct rpl_ckstore_stats *st);
/*
 * Bytes of the time index (replay/tindex.h: the slots each code line and
 * data block was used in; counted in rpl_set_memory's budget) and the steps it covers.
 */
uint64_t rpl_time_index_bytes(const struct rpl *r, uint64_t *covered);

/*
 * For the persistent index (replay/index.h): the checkpoint store, the
 * live memory picture (whose pool snapshots must share), the size of a
 * checkpoint's state and the interval.
 */
struct rpl_ckstore *rpl_store(struct rpl *r);
struct rpl_mem *rpl_live_mem(struct rpl *r);
size_t rpl_state_size(const struct rpl *r);
uint64_t rpl_interval(const struct rpl *r);
/* How far through its cf stream the replay is, 0..1 (-1: not known, control flow only). */
double rpl_progress(const struct rpl *r);
/*
 * Replace a fresh replay's store (nothing run yet) by ck, read from an
 * index (its entry 0 at step 0; it becomes r's, freed on error too), and
 * take the state rpl_index would leave: the end, reached from ck's last
 * checkpoint. The summaries are taken as they are: the frontier is
 * end_steps. 0, or -1 if the end is not where the index says (reported).
 */
int rpl_adopt(struct rpl *r, struct rpl_ckstore *ck, uint64_t end_steps,
	      uint64_t end_position) MUST_CHECK;
/*
 * The time index (replay/tindex.h; NULL for a control-flow-only replay),
 * and a replacement read from an index file (r takes it; for a full replay
 * whose time index covers nothing yet; else it is freed unused).
 */
const struct rpl_tindex *rpl_time_index(struct rpl *r);
void rpl_set_time_index(struct rpl *r, struct rpl_tindex *t);

/*
 * Go to a position (the state right after its instruction) or a step,
 * forward or backward. 0; 1 when the recording ends first (the replay is
 * then at its end); -1 on error.
 */
int rpl_seek(struct rpl *r, uint64_t position) MUST_CHECK;
int rpl_seek_step(struct rpl *r, uint64_t step) MUST_CHECK;

/*
 * Observe the replay (raptor stat runs the encoders a recording did not
 * record on it): fn is called after every step that retires an
 * instruction, faults or enters an exception (not sleeps), with the core,
 * what the step did, the core's cycle count after it and the step's data
 * accesses in order, as the board's observer gives them (board.h: every
 * value read or written, stacking and vector reads included; cacheable:
 * ROM or SRAM). Steps run again after going back are reported again. Full
 * fidelity only: a control-flow-only replay has no accesses nor branch
 * classes, and is refused (-1). NULL detaches. 0 / -1.
 */
typedef void (*rpl_step_fn)(void *ctx, int core, const struct isa_step *st, uint64_t cycle,
			    const struct board_access *acc, int nacc);
int rpl_observe(struct rpl *r, rpl_step_fn fn, void *ctx) MUST_CHECK;

/* Set (on = 1) or clear a breakpoint on any core's instruction at pc. 0 / -1. */
int rpl_break(struct rpl *r, uint32_t pc, int on) MUST_CHECK;
/*
 * Set or clear a watchpoint on [addr, addr + len). 0 / -1 (always -1 for
 * a control-flow-only recording).
 */
int rpl_watch(struct rpl *r, uint32_t addr, uint32_t len, enum rpl_watch_kind kind,
	      int on) MUST_CHECK;

/*
 * Run forward or backward (reverse = 1) to the next breakpoint, watchpoint,
 * end or beginning, or an interrupt request; *stop says which. Forward,
 * every instruction is checked against the breakpoints except one that a
 * breakpoint stop was just reported before (resuming from a breakpoint
 * executes it: GDB also steps over its own). Backward, the latest event strictly before now: a
 * breakpoint leaves the state before its instruction, a watchpoint after
 * the access. Watchpoints see the instructions' data accesses (not
 * exception stacking or vector reads). 0 / -1.
 */
int rpl_continue(struct rpl *r, int reverse, struct rpl_stop *stop) MUST_CHECK;
/*
 * One instruction of core: forward, run (all cores, in the recorded order)
 * until core retires its next instruction; backward, go to the state just
 * before core's latest retired instruction. Breakpoints and watchpoints on
 * the way stop it first. 0 / -1.
 */
int rpl_stepi(struct rpl *r, int core, int reverse, struct rpl_stop *stop) MUST_CHECK;
/* Ask a running continue (either direction) to stop (signal-safe). */
void rpl_interrupt(struct rpl *r);
/*
 * `to`, another replay of the same recording at the same step (its points
 * set alike), takes `from`'s stop state: the one thing besides the state,
 * the position and the points that a continue reads (a breakpoint stop just
 * reported there is passed, not reported again). For swapping a replay for
 * one that loaded an index (replay/bgindex.h).
 */
void rpl_take_stop_state(struct rpl *to, const struct rpl *from);

/* Where this recording's board has ROM and SRAM (its core model's map). */
struct board_mem rpl_board_mem(const struct rpl *r);
/*
 * Memory as the debugger knows it now: 0 all n bytes known, 1 some unknown
 * (*unknown gets the first; those read as 0), -1 outside ROM/SRAM. Control
 * flow only: every byte is unknown.
 *
 * A byte is known at a position when the recording determines its value
 * there: the ELF's image, any load or store of any core before it, or a
 * later load whose traced value shows it for the first time (nothing
 * stored it in between, so that value is the one it held since the start:
 * the recording's initial image). The initial image grows as the replay
 * first runs through the recording, and is whole once it has reached the
 * end (rpl_index, or an index file loaded). Bytes nothing determines stay
 * unknown: never a made-up value.
 */
int rpl_read_mem(struct rpl *r, uint32_t addr, uint8_t *buf, uint32_t n, uint32_t *unknown);

/*
 * The initial image (rpl_read_mem): every byte a traced load value showed
 * first, at its value from the start. For the persistent index, which
 * saves it and gives a loaded one back (r takes it, freeing its own).
 */
struct rpl_mem *rpl_initial_image(struct rpl *r);
void rpl_set_initial_image(struct rpl *r, struct rpl_mem *init);

uint64_t rpl_steps(const struct rpl *r);

/* Instructions retired so far, all cores, and by one core. */
uint64_t rpl_position(const struct rpl *r);
uint64_t rpl_core_insns(const struct rpl *r, int core);
/* Steps of one core so far: its instructions retired and exception entries. */
uint64_t rpl_core_steps(const struct rpl *r, int core);
/* Instructions compared with the ground truth so far. */
uint64_t rpl_verified(const struct rpl *r);
/* A core's cycle count (control flow only: the estimate, see the top). */
uint64_t rpl_cycles(const struct rpl *r, int core);
int rpl_ncores(const struct rpl *r);
/*
 * 1: every core's registers and the data accesses are replayed (both
 * streams); 0: control flow only, the PC is the one register known and
 * the interleaving of the cores is estimated (see the top).
 */
int rpl_regs_known(const struct rpl *r);
/*
 * A core's state. With rpl_regs_known 0 only its PC is the replay's; the
 * other registers are stale and must not be trusted.
 */
struct isa_cpu *rpl_cpu(struct rpl *r, int core);
/*
 * 1 once the program exited (SYS_EXIT) in the replay. *status gets its
 * status; control flow only: -1, the status is not traced.
 */
int rpl_exited(const struct rpl *r, int *status);

#endif

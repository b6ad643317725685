/*
 * ckstore: the replay's checkpoints and the summaries of the stretches
 * between them, kept within a memory budget (DESIGN.md section 7: "dense
 * near the current position, sparse far away, re-created on demand").
 *
 * A checkpoint is the replay's state after some step: an opaque byte
 * string of a fixed size (the replay's scalar state and the blobs of its
 * cores, predictors and caches) and a copy-on-write memory snapshot
 * (replay/mem.h). The replay takes one at every `interval`-th position;
 * slot k is the one at position k * interval. The store keeps them in step
 * order; entry 0 (the beginning) is never dropped.
 *
 * Summaries: entry i owns the summary of the stretch from it to entry
 * i + 1 (the last one's is open: the replay fills it while it runs past
 * the frontier). Dropping entry i merges its summary into entry i - 1's
 * (the bitmaps are ORed, sealed only if both were), so a search still only
 * skips a stretch where no hit is possible. A checkpoint laid down again
 * inside a stretch gives both halves a copy of the stretch's summary: a
 * superset of each, as coarse as before the drop, never wrong.
 *
 * The budget counts what the store holds: each entry's bookkeeping, its
 * state (as stored: raw or compressed), its summary, its snapshot's page
 * table, and the memory pages the snapshots hold that the replay's live
 * picture does not (what dropping every snapshot would give back), and
 * the raw blocks it keeps for the next states (rpl_ckstore_block; the
 * first thing to go over the budget). Over the budget (or always, if
 * eager: rpl_ckstore_set_eager), rpl_ckstore_trim compresses the states of
 * the cold checkpoints (util/zpack.h: zstd level 1; a few nearest the
 * replay stay raw), and over the budget it then
 * thins; once it has thinned, it thins at the current density before it
 * compresses, so that what that density drops now is not compressed
 * first (a state compressed inside the dense window may still be dropped
 * when the replay has moved on). Thinning keeps slot k, with the replay
 * at slot c and d = |k - c|, only if k is a multiple of
 * 2^(m + bitlen(d >> s)), bitlen(0) = 0: full density (every m-th)
 * within 2^s slots of the replay, then half as dense in each further
 * doubling of the distance, so about 2^s checkpoints per
 * doubling whatever the recording's length. It starts at s = 6, m = 0;
 * each time thinning at the current (s, m) is not enough, s goes down by
 * one, and once it is 0, m goes up by one. The density never goes up again
 * (the state sizes that made it go down stay). The predicate is monotone in
 * d: a checkpoint dropped at a distance would be dropped farther away too,
 * so moving away never asks for a dropped one back. Thinning drops in one
 * pass that closes the gaps as it goes.
 *
 * Deltas: a state compressed is, where it can be, the XOR of its bytes
 * with those of a nearby earlier checkpoint's state (its key), packed:
 * from one checkpoint to the next (65536 instructions) some 1.6% of the
 * cache, predictor and timing state's bytes change, and such a delta
 * packs to a fifth (the key the one before) to a half (seven before) of
 * what the whole state packs to. The key is the nearest of the 7
 * checkpoints before it that is no delta itself and whose slot has more
 * trailing zero bits (thinning drops the delta first), so restoring a
 * state unpacks at most two (the key's stays unpacked for the next). A
 * key that goes while deltas rest on it hands them on first: the first
 * becomes a key, packed whole, the others deltas against it.
 */
#ifndef RAPTOR_RPL_CKSTORE_H
#define RAPTOR_RPL_CKSTORE_H

#include <stddef.h>
#include <stdint.h>

#include "replay/mem.h"
#include "replay/summary.h"
#include "util/util.h"

struct rpl_ckstore;

/* What the store holds (rpl_ckstore_stats). */
struct rpl_ckstore_stats {
	size_t count;	/* checkpoints */
	size_t packed;	/* ... whose state is compressed */
	size_t deltas;	/* ... of those, as a delta against another's (see the top) */
	uint64_t bytes; /* what the budget counts, now */
	uint64_t peak;	/* the most it counted after a trim */
	uint64_t budget;
	uint64_t raw_state;    /* the states of the compressed ones, uncompressed */
	uint64_t packed_state; /* ... and compressed */
	uint64_t dropped;      /* checkpoints dropped by thinning, in all */
	uint64_t recreated;    /* checkpoints laid down again */
	uint64_t rekeyed;      /* deltas handed on by a key that went (see the top) */
	unsigned sparse;       /* thinning level: s = 6 - sparse, or m = sparse - 6 */
};

/*
 * A store for states of state_size bytes, the snapshots of picture live
 * (which must outlive the store), with a budget of `budget` bytes. Empty:
 * the first rpl_ckstore_add must be the beginning (slot 0).
 */
struct rpl_ckstore *rpl_ckstore_new(size_t state_size, const struct rpl_mem *live, uint64_t budget);
/* Free the store, its states, snapshots and summaries. */
void rpl_ckstore_free(struct rpl_ckstore *s);
/* A new budget; takes effect at the next rpl_ckstore_trim. */
void rpl_ckstore_set_budget(struct rpl_ckstore *s, uint64_t bytes);

size_t rpl_ckstore_count(const struct rpl_ckstore *s);
/* The index of the latest checkpoint at or before step `step` (0 at least). */
size_t rpl_ckstore_before_step(const struct rpl_ckstore *s, uint64_t step);
/* The index of the latest checkpoint at or before position `position`. */
size_t rpl_ckstore_before_position(const struct rpl_ckstore *s, uint64_t position);
uint64_t rpl_ckstore_steps(const struct rpl_ckstore *s, size_t i);
uint64_t rpl_ckstore_position(const struct rpl_ckstore *s, size_t i);

/*
 * Would thinning keep a checkpoint at slot k with the replay there? The
 * replay asks before it builds a state to lay one down again.
 */
int rpl_ckstore_wants(const struct rpl_ckstore *s, uint64_t slot);
/*
 * Compress cold states within the budget too (default: only over it).
 * A raw state each needs a new block, whose pages fault in, while a
 * packed one gives its block back for the next: a fifth of an 8-core
 * index's CPU time went to faults and zeroed pages when states stayed raw
 * up to the budget. But where most states are dropped later (a replay
 * running on past the budget, its store thinning), compressing each first
 * costs more: eager is for a sweep (rpl_set_sweep), which lays down only
 * the checkpoints the end keeps.
 */
void rpl_ckstore_set_eager(struct rpl_ckstore *s, int on);
/*
 * Would the store, once it has thinned, have dropped slot's checkpoint
 * when the replay gets to slot `at`, at its density now? It thins where
 * it lays one down: the last time on the way at the last slot up to `at`
 * it wants (rpl_ckstore_wants); none past slot, none dropped. An
 * estimate: a thinning on the way may make room enough that the store does
 * not thin again, and a few of those named stay (ckstore_test). (A
 * sweep asks at the frontier, `at` the end it expects; a seek, `at` its
 * destination. 0 before the store has ever thinned.)
 */
int rpl_ckstore_drops(const struct rpl_ckstore *s, uint64_t slot, uint64_t at);
/*
 * Would one more checkpoint, costing what one does on average, take the
 * store over its budget (the pooled blocks not counted)? Then it thins at
 * the next trim: what rpl_ckstore_drops names goes.
 */
int rpl_ckstore_full(const struct rpl_ckstore *s);

/*
 * A block for a raw state (state_size bytes, contents undefined): one a
 * packed or dropped state gave back if the store keeps one (its pages are
 * in: a new checkpoint's copy does not fault them in anew), else new.
 */
uint8_t *rpl_ckstore_block(struct rpl_ckstore *s);

/*
 * Add the checkpoint of slot `slot`, after step `steps` at position
 * `position`: state (state_size bytes from rpl_ckstore_block or xmalloc) and snap become the
 * store's. Its place is by steps, which no entry may have already. fresh:
 * the replay is at its frontier (it has run no step past this one yet; the
 * entry is then the last): its summary starts empty. Otherwise it is a
 * checkpoint laid down again and gets a copy of the summary of the stretch
 * it splits (see the top). The summary of the stretch before the last
 * entry is sealed: the open summary covers every step from the last
 * checkpoint to the frontier, so it is complete for a stretch that ends
 * before. Call rpl_ckstore_trim after.
 */
void rpl_ckstore_add(struct rpl_ckstore *s, uint64_t slot, uint64_t steps, uint64_t position,
		     uint8_t *state, struct rpl_mem *snap, int fresh);

/*
 * The state of checkpoint i, uncompressed, and its snapshot in *mem. The
 * bytes stay valid until the next call that changes the store. NULL when a
 * compressed state does not inflate (reported).
 */
const uint8_t *rpl_ckstore_state(struct rpl_ckstore *s, size_t i, const struct rpl_mem **mem);

/* Checkpoint i's memory snapshot (its state not unpacked). */
const struct rpl_mem *rpl_ckstore_mem(const struct rpl_ckstore *s, size_t i);

/* The summary of the stretch after checkpoint i (the last's: the open one). */
struct rpl_summary *rpl_ckstore_sum(struct rpl_ckstore *s, size_t i);
/* The open one: the last checkpoint's (one call for the replay's every step). */
struct rpl_summary *rpl_ckstore_last_sum(struct rpl_ckstore *s);
const struct rpl_summary *rpl_ckstore_sum_const(const struct rpl_ckstore *s, size_t i);

/*
 * Keep the store within its budget, the replay being at slot `now`:
 * compress cold states (eager: within it too), then thin while over it
 * (once thinned: thin, compress, thin; see the top). Never drops entry 0; if
 * entry 0 alone is over the budget, that is what is left.
 */
void rpl_ckstore_trim(struct rpl_ckstore *s, uint64_t now);

/* The slot of checkpoint i, and the store's budget. */
uint64_t rpl_ckstore_slot(const struct rpl_ckstore *s, size_t i);
uint64_t rpl_ckstore_budget(const struct rpl_ckstore *s);

/*
 * Add a checkpoint read from a persistent index (replay/index.h) after
 * every one the store has, with the summary of the stretch after it as it
 * was written (sealed or not): its state is len bytes from xmalloc, raw
 * (len = state_size) or, if packed, as util/zpack.h packs it (unpacked when
 * restored, as the store's own); base UINT64_MAX, or (packed) those bytes
 * are a delta against the state of the checkpoint at step base (see the
 * top). As rpl_ckstore_add otherwise. 0, or -1 with nothing added when
 * base is not a checkpoint the store holds that is no delta itself (the
 * caller then adds the state raw or whole).
 */
int rpl_ckstore_load(struct rpl_ckstore *s, uint64_t slot, uint64_t steps, uint64_t position,
		     uint8_t *state, size_t len, int packed, uint64_t base, struct rpl_mem *snap,
		     const struct rpl_summary *sum) MUST_CHECK;
/*
 * Checkpoint i's state as the store holds it: *len bytes, zpack's if
 * *packed; *base UINT64_MAX, or those bytes are a delta against the state
 * of the checkpoint at step *base (a value no checkpoint has when that
 * one's bytes were damaged: rpl_ckstore_state reports it).
 */
const uint8_t *rpl_ckstore_state_stored(const struct rpl_ckstore *s, size_t i, size_t *len,
					int *packed, uint64_t *base);

/*
 * Could checkpoint k be the key of checkpoint i's delta, as the store
 * picks them (see the top): no delta itself, one of the 7 before i, with
 * more trailing zero bits in its slot? (The index's writer asks.)
 */
int rpl_ckstore_may_key(const struct rpl_ckstore *s, size_t k, size_t i);

/* What the budget counts now (see the top). */
uint64_t rpl_ckstore_bytes(const struct rpl_ckstore *s);
void rpl_ckstore_stats(const struct rpl_ckstore *s, struct rpl_ckstore_stats *st);

#endif

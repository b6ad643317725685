/*
 * tindex: where in time each code line and data block was used, at the
 * grain of the checkpoint interval, so that a search for a breakpoint or a
 * watchpoint knows the stretches that may hit even where the checkpoint
 * store has thinned its checkpoints (replay/ckstore.h) and merged their
 * summaries into coarse ones.
 *
 * Slot j is the stretch of positions [j * interval, (j + 1) * interval);
 * its steps are [rpl_tix_slot_steps(j), rpl_tix_slot_steps(j + 1)). For
 * every 64-byte code line and every 64-byte data block (loads and stores
 * apart), the index keeps the increasing list of the slots that executed
 * an instruction there or accessed it, as runs of consecutive slots: a few
 * bytes for a line used in every slot, about a byte a run for the others
 * (the 10^8-instruction, 8-core soak: 1.7 MB, 6.7 MB as 4 bytes per line
 * per slot). A query binary-searches a skip table and decodes some 140
 * bytes at most, however long the list. It counts against the memory
 * budget (replay/ckpt.c).
 *
 * It is a superset, like a summary: a slot not listed certainly did not
 * hit; a listed one may have. The replay fills it as it first runs past
 * the frontier (the steps of a full replay, not those of a control-flow-only
 * one), so it covers the steps [0, rpl_tix_covered) and nothing else; an
 * index loaded from a file leaves it empty.
 */
#ifndef RAPTOR_RPL_TINDEX_H
#define RAPTOR_RPL_TINDEX_H

#include <stddef.h>
#include <stdint.h>

#define RPL_TIX_CODE_SHIFT 6 /* 64-byte code lines */
#define RPL_TIX_DATA_SHIFT 6 /* 64-byte data blocks */

struct rpl_tindex;

/* A watched range for the queries: any access (reads, writes) may hit it. */
struct rpl_tix_range {
	uint32_t addr, len;
	int reads, writes;
};

/* An empty index for slots of `interval` positions; slot 0 starts at step 0. */
struct rpl_tindex *rpl_tix_new(uint64_t interval);
void rpl_tix_free(struct rpl_tindex *t);

/*
 * Filling, in step order, for the step whose state before it is `steps`
 * at position `position`:
 * rpl_tix_pc: it executed an instruction at pc; rpl_tix_access: it
 * accessed size bytes at addr; rpl_tix_done: it is done (the index covers
 * the steps up to and including it; positions after it: `position`, now
 * counting it). A position reaching a new slot's start starts the slot
 * at the next step.
 */
void rpl_tix_pc(struct rpl_tindex *t, uint64_t position, uint32_t pc);
void rpl_tix_access(struct rpl_tindex *t, uint64_t position, uint32_t addr, unsigned size,
		    int store);
void rpl_tix_done(struct rpl_tindex *t, uint64_t steps_after, uint64_t position_after);

/* The steps the index covers: every step starting at a state below this. */
uint64_t rpl_tix_covered(const struct rpl_tindex *t);
/*
 * Say it covers the steps below `steps` (at least what rpl_tix_done said):
 * for a filler that calls rpl_tix_done only where a slot starts.
 */
void rpl_tix_set_covered(struct rpl_tindex *t, uint64_t steps);
/* Slots started so far (the last one may be open). */
size_t rpl_tix_slots(const struct rpl_tindex *t);
/* The state (steps) where slot j starts; j < rpl_tix_slots. */
uint64_t rpl_tix_slot_steps(const struct rpl_tindex *t, size_t j);
/* The slot holding the step that starts at state `steps` (< covered). */
size_t rpl_tix_slot_of(const struct rpl_tindex *t, uint64_t steps);

/*
 * The latest slot <= last that may have hit one of the breakpoints pcs[]
 * or the watched ranges w[]; -1 when none did.
 */
long rpl_tix_last_hit(const struct rpl_tindex *t, size_t last, const uint32_t *pcs, int npc,
		      const struct rpl_tix_range *w, int nw);
/* The earliest slot >= first that may have hit; -1 when none did (so far). */
long rpl_tix_first_hit(const struct rpl_tindex *t, size_t first, const uint32_t *pcs, int npc,
		       const struct rpl_tix_range *w, int nw);

/* Bytes it holds. */
uint64_t rpl_tix_bytes(const struct rpl_tindex *t);

/*
 * The index as bytes, for the index file (docs/FORMAT.md): interval,
 * covered steps, slot count, each slot's start (u64 each), then for the
 * code lines, the loaded blocks and the stored blocks: a list count (u64)
 * and each list as key, length, and the slots as differences from the one
 * before (u32 each, the first from 0); little-endian. Into a new buffer at
 * *out (free it); returns its length.
 */
size_t rpl_tix_serialize(const struct rpl_tindex *t, uint8_t **out);
/*
 * The same bytes in pieces of at most 64 KiB, each given to sink(ctx, p,
 * n) in order, so that they are never all in memory (the expanded lists
 * take some four times the index's own size): returns their length.
 */
typedef void (*rpl_tix_sink)(void *ctx, const uint8_t *p, size_t n);
uint64_t rpl_tix_serialize_to(const struct rpl_tindex *t, rpl_tix_sink sink, void *ctx);
/* Their length, without making them. */
uint64_t rpl_tix_serialized_size(const struct rpl_tindex *t);
/*
 * Those bytes back into an index for slots of `interval` positions; NULL
 * (and *why says what is wrong) when they are not a well-formed one.
 */
struct rpl_tindex *rpl_tix_deserialize(const uint8_t *p, size_t n, uint64_t interval,
				       const char **why);
/*
 * The same from a source of the n bytes in order, never all in memory:
 * source(ctx, buf, cap) puts the next bytes into buf, at most cap, and
 * returns how many (0 at their end, -1 when it fails: *why then says "does
 * not unpack"). Bytes after the n are refused as with a buffer.
 */
typedef long (*rpl_tix_source)(void *ctx, uint8_t *buf, size_t cap);
struct rpl_tindex *rpl_tix_deserialize_from(uint64_t n, rpl_tix_source source, void *ctx,
					    uint64_t interval, const char **why);

#endif

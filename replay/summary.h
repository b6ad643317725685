/*
 * summary: what each stretch between two checkpoints did, so that a search
 * for a breakpoint or a watchpoint can skip the stretches where it cannot
 * hit without replaying them (DESIGN.md section 7: "per-interval summaries
 * let reverse-continue skip intervals that cannot hit").
 *
 * A summary is a superset: three hashed bitmaps, of the program counters
 * the stretch's instructions were at (the address a breakpoint compares),
 * and of the 16-byte blocks of every data load and every data store (the
 * accesses watchpoints see): 17 KiB a stretch. A bit clear means "certainly not": a search
 * may skip the stretch; a bit set means "maybe": it replays it. The
 * bitmaps are filled as the replay first runs through a stretch (the only
 * time it is new) and sealed when the next checkpoint is taken.
 */
#ifndef RAPTOR_RPL_SUMMARY_H
#define RAPTOR_RPL_SUMMARY_H

#include <stdint.h>

#define RPL_SUM_PC_BITS 8192   /* program counter bloom, one hash */
#define RPL_SUM_DATA_BITS 65536 /* 16-byte blocks, hashed */

struct rpl_summary {
	uint64_t pc[RPL_SUM_PC_BITS / 64];
	uint64_t rd[RPL_SUM_DATA_BITS / 64];
	uint64_t wr[RPL_SUM_DATA_BITS / 64];
	int sealed; /* the stretch was run to its end: the summary is complete */
};

static inline unsigned rpl_sum_pc_bit(uint32_t pc)
{
	return ((pc >> 1) * 0x9e3779b1u) >> (32 - 13); /* 13 bits: 8192 */
}

/* The bit of the 16-byte block blk (an address >> 4). */
static inline unsigned rpl_sum_block_bit(uint32_t blk)
{
	return (blk * 0x9e3779b1u) >> (32 - 16); /* 16 bits: 65536 */
}

/* Note an instruction at pc, about to execute. */
static inline void rpl_sum_pc(struct rpl_summary *s, uint32_t pc)
{
	unsigned b = rpl_sum_pc_bit(pc);

	s->pc[b / 64] |= 1ull << (b % 64);
}

/* Note a data access of size bytes at addr. */
void rpl_sum_access(struct rpl_summary *s, uint32_t addr, unsigned size, int store);

/* Could an instruction at pc have executed in the stretch? */
int rpl_sum_may_pc(const struct rpl_summary *s, uint32_t pc);

/*
 * Could the stretch have loaded (reads), stored (writes) or either into
 * [addr, addr + len)?
 */
int rpl_sum_may_access(const struct rpl_summary *s, uint32_t addr, uint32_t len, int reads,
		       int writes);

#endif

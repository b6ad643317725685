/*
 * ibtb: the indirect branch target buffer of the TRaptor / mcfTRaptor trace
 * modules, with its path information register (PIR). TRaptor Sec. 5.1 and
 * Fig. 8; mcfTRaptor Sec. 5 and Fig. 4.
 *
 * q entries, 2-way set associative, q/2 sets, LRU; an entry holds a valid
 * bit, an 8-bit tag and a 32-bit target. With the 13-bit PIR:
 *
 *   PIR   = (((PIR << 2) ^ PC[16:4]) | outcome) & 0x1fff
 *   tag   = PIR[7:0] ^ PC[17:10]
 *   index = (PIR[12:8] ^ PC[8:4]) & (q/2 - 1)
 *
 * The papers give the index for 32 sets (q = 64); for fewer sets we keep the
 * LOW log2(q/2) bits of that 5-bit value, i.e. PIR[8+k-1:8] ^ PC[4+k-1:4]
 * with k = log2(q/2), so 32 sets is exactly the papers' formula. q is 0 (no
 * iBTB: every lookup misses) or a power of two in 2..64: a 13-bit PIR has
 * only 5 bits above the tag, so 32 sets is the largest the formula reaches.
 *
 * Which instructions update the PIR (the papers leave it open; our choice):
 * EVERY retired control-flow instruction -- conditional and unconditional,
 * direct and indirect, calls and returns, taken or not -- with outcome = 1
 * if it was taken (executed, for unconditional ones) and 0 if its condition
 * failed. mcfTRaptor (Sec. 5) says the PIR "is updated by control-flow
 * instructions" with no restriction to indirect ones, and the "| Outcome"
 * term, "the outcome bit of conditional branches", only carries information
 * if not-taken conditional branches shift into the PIR too (a PIR updated by
 * taken branches only would always OR in a 1). Folding unconditional direct
 * branches and calls in makes the path history tell apart call sites, which
 * is what an indirect predictor indexed by path wants. struct bp does the
 * updating: lookup and training use the PIR *before* the branch itself, then
 * the branch is shifted in. The replay sees every retired instruction, so any
 * rule is reproducible; this one must simply be the same on both sides.
 */
#ifndef RAPTOR_IBTB_H
#define RAPTOR_IBTB_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define IBTB_PIR_BITS 13
#define IBTB_PIR_MASK 0x1fffu
#define IBTB_WAYS 2
#define IBTB_MAX_ENTRIES 64u

struct ibtb;

/* entries is 0 or a power of two in 2..IBTB_MAX_ENTRIES. 0, or -1 with an error. */
int ibtb_config_check(unsigned entries) MUST_CHECK;

/* New iBTB (all entries invalid, PIR 0), or NULL after ibtb_config_check fails. */
struct ibtb *ibtb_new(unsigned entries);
void ibtb_free(struct ibtb *b);
/* Invalidate every entry, LRU and PIR to 0. */
void ibtb_reset(struct ibtb *b);

unsigned ibtb_entries(const struct ibtb *b);
unsigned ibtb_sets(const struct ibtb *b);

/* The formulas on explicit values (pure). sets is a power of two, or 0. */
uint32_t ibtb_pir_next(uint32_t pir, uint32_t pc, int outcome);
uint32_t ibtb_tag_of(uint32_t pir, uint32_t pc);
uint32_t ibtb_index_of(uint32_t pir, uint32_t pc, unsigned sets);

uint32_t ibtb_pir(const struct ibtb *b);
/* Shift a retired control-flow instruction into the PIR (see above). */
void ibtb_pir_update(struct ibtb *b, uint32_t pc, int outcome);

/*
 * Look up the indirect branch at pc under the current PIR: 1 and *target on
 * a hit, 0 on a miss (always when entries is 0). No state changes.
 */
int ibtb_lookup(const struct ibtb *b, uint32_t pc, uint32_t *target);
/*
 * Train with the actual target of the taken indirect branch at pc, under the
 * current PIR (call before ibtb_pir_update for that branch): a hit rewrites
 * the target and makes the way most recent; a miss fills an invalid way (way
 * 0 first) or else the set's least recently used way. No-op when entries is 0.
 */
void ibtb_update(struct ibtb *b, uint32_t pc, uint32_t target);
/* The least recently used way (0 or 1) of set (< sets); for tests. */
unsigned ibtb_lru_way(const struct ibtb *b, uint32_t set);

/*
 * Checkpoint (PIR, LRU bits, entries) as plain bytes in host order; restore
 * into the same size only. Restore checks the values: 0, or -1 with an
 * error (the iBTB is then reset).
 */
size_t ibtb_state_size(const struct ibtb *b);
void ibtb_save(const struct ibtb *b, void *buf);
int ibtb_restore(struct ibtb *b, const void *buf) MUST_CHECK;

#endif

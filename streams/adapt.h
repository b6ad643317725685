/*
 * adapt: chunk sizes that adapt at run time, the same in the encoder and
 * the decoder (the papers' future work: mcfTRaptor Sec. 6, CFAT Sec. 6).
 * Used by TR_a (cfmsg.h) and CFiat_a (lvmsg.h); docs/FORMAT.md "Adaptive
 * chunk sizes" is the normative text.
 *
 * One st_adapt per chunked field of a stream (all cores' values together):
 * the (c0,c1) for the next value, and a histogram of the bit lengths of
 * the values already coded in that field (bit length: 0 for 0, else
 * floor(log2 v) + 1). The cost of a value in chunks depends only on its
 * bit length, so the histogram gives the exact cost of any (c0,c1):
 *
 *   cost(L) = c0 + 1                              for L <= c0
 *           = c0 + 1 + ceil((L - c0) / c1)(c1 + 1) otherwise
 *
 * After coding value v with the current sizes, st_adapt_note(v):
 *   1. hist[len(v)] += 1; n += 1
 *   2. if n is a multiple of ST_ADAPT_HALVE (K = 16): every hist[L] :=
 *      hist[L] / 2 (integer division: old values fade, counts stay small)
 *   3. if n is a multiple of ST_ADAPT_PERIOD (M = 1: after every value):
 *      the (c0,c1) in 1..16 x 1..16 of least total cost
 *      sum_L hist[L] cost(L) becomes current; on a tie the current sizes
 *      stay if they are among the least, else the first in the order
 *      c0 = 1..16, then c1 = 1..16.
 *
 * M and K were measured (bench/BANDWIDTH.md, docs/FORMAT.md): short
 * memories win, the fields' lengths shift with the program's phases.
 *
 * The decoder calls st_adapt_note with each value it decodes, so it
 * derives the same sizes without a side channel. Plain data of fixed size:
 * a struct copy is a checkpoint of it.
 */
#ifndef RAPTOR_ADAPT_H
#define RAPTOR_ADAPT_H

#include <stdint.h>

#include "streams/vlc.h"

#define ST_ADAPT_LENGTHS 65   /* bit lengths 0..64 */
#define ST_ADAPT_PERIOD 1     /* values between recomputations (M) */
#define ST_ADAPT_HALVE 16     /* values between halvings (K) */
#define ST_ADAPT_MAX_CHUNK 16 /* c0 and c1 are chosen in 1..16 */

struct st_adapt {
	struct st_vlc ch;		 /* sizes for the next value */
	uint32_t n;			 /* values noted, modulo ST_ADAPT_HALVE */
	uint16_t hist[ST_ADAPT_LENGTHS]; /* < 2 * ST_ADAPT_HALVE each */
};

/* Start with sizes start (each in 1..64) and an empty histogram. */
void st_adapt_init(struct st_adapt *a, struct st_vlc start);

/* Note a value just coded with a->ch; a->ch may change (the rule above). */
void st_adapt_note(struct st_adapt *a, uint64_t v);

/* Bit length of v: 0 for 0, else floor(log2 v) + 1. */
static inline unsigned st_bit_length(uint64_t v)
{
	return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

#endif

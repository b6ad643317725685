/*
 * tune: the papers' search for chunk sizes (TRaptor Sec. 5.2, mcfTRaptor
 * Sec. 5, CFAT Sec. 4.2): for a field, the (c0, c1) that make the field
 * smallest over a set of recordings, from the values' bit-length
 * histograms (record/profile.h). A value's chunk cost depends only on its
 * bit length, so the cost of every pair is exact, not sampled.
 */
#ifndef RAPTOR_TUNE_H
#define RAPTOR_TUNE_H

#include <stdint.h>

#include "analysis/recstats.h"
#include "streams/vlc.h"

#define AN_TUNE_MAX 64 /* chunk sizes are 1..64 (vlc.h) */

struct an_tune {
	unsigned max;	     /* c0 and c1 searched in 1..max */
	int sgn;	     /* one sign bit per value (|diffTA|) */
	uint64_t n[AN_NLEN]; /* values by bit length, all recordings */
	uint64_t *cost;	     /* [(c0 - 1) * max + c1 - 1]: bits of the field */
	struct st_vlc best;  /* the smallest; ties go to the smaller c0, then c1 */
};

/* Start a search over 1..max (1..AN_TUNE_MAX); allocation dies on failure. */
void an_tune_init(struct an_tune *t, unsigned max, int sgn);
void an_tune_release(struct an_tune *t);
/* Add a recording's histogram. */
void an_tune_add(struct an_tune *t, const uint64_t *n);
/* Fill cost[] and best. */
void an_tune_search(struct an_tune *t);
/* The field's bits with ch (any sizes 1..64, searched or not). */
uint64_t an_tune_cost(const struct an_tune *t, struct st_vlc ch);

#endif

/*
 * adapt: run-time chunk sizes (adapt.h has the rule). The recomputation is
 * an exact search of the candidate sizes over the histogram's non-empty
 * lengths, after every value: exact so that encoder and decoder cannot
 * disagree through a heuristic, pruned (below) so that it stays cheap.
 */
#include "streams/adapt.h"

#include <string.h>

_Static_assert(ST_ADAPT_HALVE % ST_ADAPT_PERIOD == 0, "a halving falls on a recomputation");
_Static_assert(2 * ST_ADAPT_HALVE <= UINT16_MAX, "histogram counts fit in 16 bits");

void st_adapt_init(struct st_adapt *a, struct st_vlc start)
{
	memset(a, 0, sizeof(*a));
	a->ch = start;
}

/* Bits of a value of bit length len in chunks (c0, c1). */
static inline uint64_t len_cost(unsigned len, unsigned c0, unsigned c1)
{
	return len <= c0 ? c0 + 1 : c0 + 1 + (uint64_t)((len - c0 + c1 - 1) / c1) * (c1 + 1);
}

static uint64_t hist_cost(const uint16_t *hist, unsigned top, unsigned c0, unsigned c1)
{
	uint64_t total = 0;

	for (unsigned len = 0; len <= top; len++)
		if (hist[len])
			total += hist[len] * len_cost(len, c0, c1);
	return total;
}

/*
 * The argmin of adapt.h over 1..16 x 1..16, searching only where it can
 * be: with top the longest length present, a c0 above max(top, 1) only
 * costs more (every value fits the first chunk either way), and so does a
 * c1 above max(top - c0, 1) (every value fits two chunks either way, and
 * if none needs the second, c1 = 1 is already first among equals). The
 * result is exactly the full search's, order of ties included;
 * tests/unit/adapt_test.c checks it against the full search.
 */
static void recompute(struct st_adapt *a)
{
	unsigned top = ST_ADAPT_LENGTHS - 1, best0 = 0, best1 = 0, max0;
	uint64_t best = UINT64_MAX, cur;

	while (top && !a->hist[top])
		top--;
	max0 = top > 1 ? top : 1;
	if (max0 > ST_ADAPT_MAX_CHUNK)
		max0 = ST_ADAPT_MAX_CHUNK;
	for (unsigned c0 = 1; c0 <= max0; c0++) {
		unsigned max1 = top > c0 + 1 ? top - c0 : 1;

		if (max1 > ST_ADAPT_MAX_CHUNK)
			max1 = ST_ADAPT_MAX_CHUNK;
		for (unsigned c1 = 1; c1 <= max1; c1++) {
			uint64_t c = hist_cost(a->hist, top, c0, c1);

			if (c < best) {
				best = c;
				best0 = c0;
				best1 = c1;
			}
		}
	}
	/* the current sizes stay unless strictly worse (they may lie outside 1..16) */
	cur = hist_cost(a->hist, top, a->ch.c0, a->ch.c1);
	if (best < cur)
		a->ch = ST_VLC(best0, best1);
}

void st_adapt_note(struct st_adapt *a, uint64_t v)
{
	a->hist[st_bit_length(v)]++;
	if (++a->n == ST_ADAPT_HALVE) {
		a->n = 0;
		for (unsigned len = 0; len < ST_ADAPT_LENGTHS; len++)
			a->hist[len] /= 2;
	}
	if (a->n % ST_ADAPT_PERIOD == 0)
		recompute(a);
}

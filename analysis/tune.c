#include "analysis/tune.h"

#include <stdlib.h>
#include <string.h>

void an_tune_init(struct an_tune *t, unsigned max, int sgn)
{
	memset(t, 0, sizeof(*t));
	t->max = max < 1 ? 1 : max > AN_TUNE_MAX ? AN_TUNE_MAX : max;
	t->sgn = sgn;
	t->cost = xcalloc((size_t)t->max * t->max, sizeof(*t->cost));
}

void an_tune_release(struct an_tune *t)
{
	free(t->cost);
	t->cost = NULL;
}

void an_tune_add(struct an_tune *t, const uint64_t *n)
{
	for (int l = 0; l < AN_NLEN; l++)
		t->n[l] += n[l];
}

uint64_t an_tune_cost(const struct an_tune *t, struct st_vlc ch)
{
	return an_hist_cost(t->n, ch, t->sgn);
}

void an_tune_search(struct an_tune *t)
{
	uint64_t best = UINT64_MAX;

	for (unsigned c0 = 1; c0 <= t->max; c0++)
		for (unsigned c1 = 1; c1 <= t->max; c1++) {
			uint64_t b = an_hist_cost(t->n, ST_VLC(c0, c1), t->sgn);

			t->cost[(c0 - 1) * t->max + c1 - 1] = b;
			if (b < best) {
				best = b;
				t->best = ST_VLC(c0, c1);
			}
		}
}

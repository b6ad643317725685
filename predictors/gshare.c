#include "predictors/gshare.h"

#include <stdlib.h>
#include <string.h>

struct gshare {
	unsigned entries; /* p: 0 or a power of two */
	unsigned shift;
	uint32_t bhr; /* the last log2(p) outcomes, newest in bit 0 */
	uint8_t *ctr; /* p counters, 0..3 */
};

int gshare_config_check(unsigned entries, unsigned shift)
{
	if (entries && (entries < 2 || entries > GSHARE_MAX_ENTRIES || (entries & (entries - 1))))
		return error("gshare: %u entries is not 0 or a power of two in 2..%u", entries,
			     GSHARE_MAX_ENTRIES);
	if (shift > GSHARE_MAX_SHIFT)
		return error("gshare: index shift %u is not in 0..%u", shift, GSHARE_MAX_SHIFT);
	return 0;
}

struct gshare *gshare_new(unsigned entries, unsigned shift)
{
	struct gshare *g;

	if (gshare_config_check(entries, shift))
		return NULL;
	g = xcalloc(1, sizeof(*g));
	g->entries = entries;
	g->shift = shift;
	g->ctr = xmalloc(entries);
	gshare_reset(g);
	return g;
}

void gshare_free(struct gshare *g)
{
	if (!g)
		return;
	free(g->ctr);
	free(g);
}

void gshare_reset(struct gshare *g)
{
	g->bhr = 0;
	memset(g->ctr, 1, g->entries); /* weakly not-taken */
}

unsigned gshare_entries(const struct gshare *g)
{
	return g->entries;
}

unsigned gshare_shift(const struct gshare *g)
{
	return g->shift;
}

uint32_t gshare_bhr(const struct gshare *g)
{
	return g->bhr;
}

uint32_t gshare_index_of(unsigned entries, unsigned shift, uint32_t bhr, uint32_t pc)
{
	uint32_t mask = entries ? entries - 1 : 0;

	return (bhr & mask) ^ ((pc >> shift) & mask);
}

uint32_t gshare_index(const struct gshare *g, uint32_t pc)
{
	return gshare_index_of(g->entries, g->shift, g->bhr, pc);
}

unsigned gshare_counter(const struct gshare *g, uint32_t index)
{
	return g->entries ? g->ctr[index & (g->entries - 1)] : 0;
}

unsigned gshare_counter_next(unsigned c, int taken)
{
	if (taken)
		return c < 3 ? c + 1 : 3;
	return c > 0 ? c - 1 : 0;
}

int gshare_predict(const struct gshare *g, uint32_t pc)
{
	if (!g->entries)
		return 0;
	return g->ctr[gshare_index(g, pc)] >= 2;
}

void gshare_update(struct gshare *g, uint32_t pc, int taken)
{
	uint8_t *c;

	if (!g->entries)
		return;
	/* The counter is the one the prediction read: index under the old BHR. */
	c = &g->ctr[gshare_index(g, pc)];
	*c = gshare_counter_next(*c, taken);
	g->bhr = ((g->bhr << 1) | !!taken) & (g->entries - 1);
}

/* gshare_step with taken 0 or 1, or -1: the prediction (gshare_follow) */
static inline int step(struct gshare *g, uint32_t pc, int taken)
{
	uint8_t *c;
	int p;

	if (!g->entries)
		return 0;
	c = &g->ctr[gshare_index(g, pc)];
	p = *c >= 2;
	if (taken < 0)
		taken = p;
	*c = (uint8_t)gshare_counter_next(*c, taken);
	g->bhr = ((g->bhr << 1) | (unsigned)taken) & (g->entries - 1);
	return p;
}

int gshare_step(struct gshare *g, uint32_t pc, int taken)
{
	return step(g, pc, !!taken);
}

int gshare_follow(struct gshare *g, uint32_t pc)
{
	return step(g, pc, -1);
}

size_t gshare_state_size(const struct gshare *g)
{
	return sizeof(uint32_t) + g->entries;
}

void gshare_save(const struct gshare *g, void *buf)
{
	uint8_t *p = buf;

	memcpy(p, &g->bhr, sizeof(g->bhr));
	memcpy(p + sizeof(g->bhr), g->ctr, g->entries);
}

int gshare_restore(struct gshare *g, const void *buf)
{
	const uint8_t *p = buf;
	uint32_t mask = g->entries ? g->entries - 1 : 0;

	memcpy(&g->bhr, p, sizeof(g->bhr));
	memcpy(g->ctr, p + sizeof(g->bhr), g->entries);
	if (g->bhr & ~mask) {
		uint32_t bhr = g->bhr;

		gshare_reset(g);
		return error("gshare: bad saved state: BHR 0x%x for %u entries", bhr, g->entries);
	}
	for (unsigned i = 0; i < g->entries; i++)
		if (g->ctr[i] > 3) {
			unsigned c = g->ctr[i];

			gshare_reset(g);
			return error("gshare: bad saved state: counter %u is %u", i, c);
		}
	return 0;
}

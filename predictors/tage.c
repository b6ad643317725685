#include "predictors/tage.h"

#include <stdlib.h>
#include <string.h>

#include "predictors/gshare.h"

struct tage_entry {
	uint16_t tag;
	uint8_t ctr; /* 0..7, taken at >= 4 */
	uint8_t u;   /* 0..1 */
};

struct tage {
	struct tage_geom g;
	uint64_t ghr;
	uint32_t alt;		/* 0..15 */
	uint8_t *base;		/* 2^base_log counters, 0..3 */
	struct tage_entry *ent; /* ntables << table_log, table i at i << table_log */
};

#define ALT_MAX 15u
#define ALT_INIT 8u

/*
 * Geometry per budget, chosen by measurement over the multicore suite
 * (bench/PREDICTOR.md): base p/4 counters, three tables of p/32 entries with
 * 10-bit tags (9 for p = 256, to stay in budget), histories 6, 20 and 60.
 * That is p/2 + 3 * p/32 * 14 + 60 + 4 = 1.8125 p + 64 bits against
 * gshare's 2 p + log2(p): 7488 against 8204 for p = 4096. The 60-outcome
 * history is what pays most: it sees the exits of loops of up to ~50
 * iterations, which 44 did not (bench/PREDICTOR.md, "Design").
 */
int tage_geometry(unsigned p, struct tage_geom *g)
{
	unsigned lp = 0;

	if (gshare_config_check(p, GSHARE_SHIFT_DEFAULT))
		return -1;
	if (p < 256)
		return error("tage: no geometry for a %u-entry gshare budget (256 or more)", p);
	while ((1u << lp) < p)
		lp++;
	memset(g, 0, sizeof(*g));
	g->base_log = lp - 2;
	g->ntables = 3;
	g->table_log = lp - 5;
	g->tag_bits = p >= 512 ? 10 : 9;
	g->hist[0] = 6;
	g->hist[1] = 20;
	g->hist[2] = 60;
	return 0;
}

unsigned long tage_geom_bits(const struct tage_geom *g)
{
	return (2ul << g->base_log) +
	       (unsigned long)g->ntables * (1ul << g->table_log) * (3 + g->tag_bits + 1) +
	       g->hist[g->ntables - 1] + 4;
}

static int geom_check(const struct tage_geom *g)
{
	if (g->base_log > 20 || g->table_log > 16 || g->ntables < 1 ||
	    g->ntables > TAGE_MAX_TABLES || g->tag_bits < 2 || g->tag_bits > 16)
		return error("tage: bad geometry (base 2^%u, %u tables of 2^%u, %u-bit tags)",
			     g->base_log, g->ntables, g->table_log, g->tag_bits);
	for (unsigned i = 0; i < g->ntables; i++)
		if (g->hist[i] < 1 || g->hist[i] > TAGE_MAX_HIST ||
		    (i && g->hist[i] <= g->hist[i - 1]))
			return error(
			    "tage: history length %u of table %u is not ascending in 1..%u",
			    g->hist[i], i + 1, TAGE_MAX_HIST);
	return 0;
}

struct tage *tage_new(const struct tage_geom *g)
{
	struct tage *t;

	if (geom_check(g))
		return NULL;
	t = xcalloc(1, sizeof(*t));
	t->g = *g;
	t->base = xmalloc(1u << g->base_log);
	t->ent = xmalloc(sizeof(*t->ent) * ((size_t)g->ntables << g->table_log));
	tage_reset(t);
	return t;
}

void tage_free(struct tage *t)
{
	if (!t)
		return;
	free(t->base);
	free(t->ent);
	free(t);
}

void tage_reset(struct tage *t)
{
	t->ghr = 0;
	t->alt = ALT_INIT;
	memset(t->base, 1, 1u << t->g.base_log);
	/*
	 * No valid bits: an empty entry has tag 0 and so matches a lookup whose
	 * tag is 0. Its counter starts weak (3) with u 0, a fresh entry, so
	 * while alt >= 8 the alternate predicts rather than a made-up counter.
	 */
	for (size_t i = 0; i < ((size_t)t->g.ntables << t->g.table_log); i++)
		t->ent[i] = (struct tage_entry){.tag = 0, .ctr = 3, .u = 0};
}

const struct tage_geom *tage_get_geom(const struct tage *t)
{
	return &t->g;
}

uint64_t tage_ghr(const struct tage *t)
{
	return t->ghr;
}

static uint64_t ghr_mask(const struct tage_geom *g)
{
	unsigned L = g->hist[g->ntables - 1];

	return L < 64 ? (1ull << L) - 1 : ~0ull;
}

/* XOR of the k-bit slices of h's low len bits. */
static uint32_t fold(uint64_t h, unsigned len, unsigned k)
{
	uint32_t r = 0, mask = (1u << k) - 1;

	if (len < 64)
		h &= (1ull << len) - 1;
	for (; h; h >>= k)
		r ^= (uint32_t)h & mask;
	return r;
}

/* Everything a prediction reads, for predict and update alike. */
struct look {
	uint32_t idx[TAGE_MAX_TABLES];
	uint16_t tag[TAGE_MAX_TABLES];
	unsigned prov, altp; /* 0: base, i: table i - 1 */
	int prov_pred, alt_pred, pred;
	int fresh; /* the provider is a tagged entry, weak and u = 0 */
};

static struct tage_entry *entry(const struct tage *t, unsigned i, uint32_t idx)
{
	return &t->ent[((size_t)i << t->g.table_log) + idx];
}

static void look_up(const struct tage *t, uint32_t pc, struct look *lk)
{
	const struct tage_geom *g = &t->g;
	uint32_t a = pc >> 1, emask = (1u << g->table_log) - 1, tmask = (1u << g->tag_bits) - 1;
	int base_pred = t->base[a & ((1u << g->base_log) - 1)] >= 2;

	lk->prov = lk->altp = 0;
	for (unsigned i = 0; i < g->ntables; i++) {
		unsigned L = g->hist[i];

		lk->idx[i] = (a ^ a >> g->table_log ^ fold(t->ghr, L, g->table_log)) & emask;
		lk->tag[i] =
		    (a ^ fold(t->ghr, L, g->tag_bits) ^ fold(t->ghr, L, g->tag_bits - 1) << 1) &
		    tmask;
		if (entry(t, i, lk->idx[i])->tag == lk->tag[i]) {
			lk->altp = lk->prov;
			lk->prov = i + 1;
		}
	}
	lk->alt_pred =
	    lk->altp ? entry(t, lk->altp - 1, lk->idx[lk->altp - 1])->ctr >= 4 : base_pred;
	if (!lk->prov) {
		lk->prov_pred = lk->pred = base_pred;
		lk->fresh = 0;
		return;
	}
	{
		const struct tage_entry *e = entry(t, lk->prov - 1, lk->idx[lk->prov - 1]);

		lk->prov_pred = e->ctr >= 4;
		lk->fresh = (e->ctr == 3 || e->ctr == 4) && !e->u;
		lk->pred = lk->fresh && t->alt >= ALT_INIT ? lk->alt_pred : lk->prov_pred;
	}
}

int tage_predict(const struct tage *t, uint32_t pc)
{
	struct look lk;

	look_up(t, pc, &lk);
	return lk.pred;
}

unsigned tage_provider(const struct tage *t, uint32_t pc)
{
	struct look lk;

	look_up(t, pc, &lk);
	return lk.prov;
}

static void step3(uint8_t *c, int taken)
{
	if (taken)
		*c += *c < 7;
	else
		*c -= *c > 0;
}

void tage_update(struct tage *t, uint32_t pc, int taken)
{
	const struct tage_geom *g = &t->g;
	struct look lk;
	uint8_t *b = &t->base[(pc >> 1) & ((1u << g->base_log) - 1)];

	taken = !!taken;
	look_up(t, pc, &lk);
	if (lk.prov) {
		struct tage_entry *e = entry(t, lk.prov - 1, lk.idx[lk.prov - 1]);

		if (lk.fresh && lk.prov_pred != lk.alt_pred) {
			if (lk.alt_pred == taken)
				t->alt += t->alt < ALT_MAX;
			else
				t->alt -= t->alt > 0;
		}
		step3(&e->ctr, taken);
		if (lk.prov_pred != lk.alt_pred)
			e->u = lk.prov_pred == taken;
		if (lk.fresh && !lk.altp)
			*b = gshare_counter_next(*b, taken);
	} else {
		*b = gshare_counter_next(*b, taken);
	}
	if (lk.pred != taken && lk.prov < g->ntables) {
		unsigned i;

		for (i = lk.prov; i < g->ntables; i++)
			if (!entry(t, i, lk.idx[i])->u)
				break;
		if (i < g->ntables) {
			struct tage_entry *e = entry(t, i, lk.idx[i]);

			e->tag = lk.tag[i];
			e->ctr = taken ? 4 : 3;
			e->u = 0;
		} else {
			for (i = lk.prov; i < g->ntables; i++)
				entry(t, i, lk.idx[i])->u = 0;
		}
	}
	t->ghr = (t->ghr << 1 | (uint64_t)taken) & ghr_mask(g);
}

size_t tage_state_size(const struct tage *t)
{
	return sizeof(uint64_t) + sizeof(uint32_t) + ((size_t)1 << t->g.base_log) +
	       sizeof(*t->ent) * ((size_t)t->g.ntables << t->g.table_log);
}

void tage_save(const struct tage *t, void *buf)
{
	uint8_t *p = buf;
	size_t nb = (size_t)1 << t->g.base_log;

	memcpy(p, &t->ghr, sizeof(t->ghr));
	p += sizeof(t->ghr);
	memcpy(p, &t->alt, sizeof(t->alt));
	p += sizeof(t->alt);
	memcpy(p, t->base, nb);
	p += nb;
	memcpy(p, t->ent, sizeof(*t->ent) * ((size_t)t->g.ntables << t->g.table_log));
}

int tage_restore(struct tage *t, const void *buf)
{
	const uint8_t *p = buf;
	size_t nb = (size_t)1 << t->g.base_log, ne = (size_t)t->g.ntables << t->g.table_log;
	uint16_t tmask = (uint16_t)((1u << t->g.tag_bits) - 1);

	memcpy(&t->ghr, p, sizeof(t->ghr));
	p += sizeof(t->ghr);
	memcpy(&t->alt, p, sizeof(t->alt));
	p += sizeof(t->alt);
	memcpy(t->base, p, nb);
	p += nb;
	memcpy(t->ent, p, sizeof(*t->ent) * ne);
	if (t->alt > ALT_MAX || (t->ghr & ~ghr_mask(&t->g))) {
		unsigned a = t->alt;

		tage_reset(t);
		return error("tage: bad saved state: alt counter %u or history longer than %u bits",
			     a, t->g.hist[t->g.ntables - 1]);
	}
	for (size_t i = 0; i < nb; i++)
		if (t->base[i] > 3) {
			unsigned c = t->base[i];

			tage_reset(t);
			return error("tage: bad saved state: base counter %zu is %u", i, c);
		}
	for (size_t i = 0; i < ne; i++)
		if (t->ent[i].ctr > 7 || t->ent[i].u > 1 || (t->ent[i].tag & ~tmask)) {
			struct tage_entry e = t->ent[i];

			tage_reset(t);
			return error(
			    "tage: bad saved state: entry %zu (counter %u, u %u, tag 0x%x)", i,
			    e.ctr, e.u, e.tag);
		}
	return 0;
}

/*
 * tindex: the slots each code line and data block was used in
 * (replay/tindex.h).
 */
#include "replay/tindex.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* A line's or block's slots, increasing. */
struct tix_list {
	uint32_t key; /* line or block number + 1 (0: an empty cell) */
	uint32_t n, cap;
	uint32_t *slot;
};

/* Open addressing on the key; cap a power of two, at most half full. */
#define TIX_RECENT 256 /* a power of two */

struct tix_map {
	struct tix_list *cell;
	size_t cap, used;
	/*
	 * The lists noted lately, with their slot: most notes repeat one (the
	 * cores take turns, so not always the last). Direct-mapped by key,
	 * each entry slot << 32 | key (key + 1, so 0 is no entry).
	 */
	uint64_t recent[TIX_RECENT];
};

struct rpl_tindex {
	uint64_t interval;
	uint64_t *start; /* start[j]: the state where slot j starts */
	size_t nslots, aslots;
	uint64_t next_slot_pos; /* the position where slot nslots starts */
	uint64_t covered;
	struct tix_map code, rd, wr;
	uint64_t bytes; /* of the lists and cells */
};

static size_t hash(uint32_t key, size_t cap)
{
	return (size_t)((key * 0x9e3779b1u) & (cap - 1));
}

static struct tix_list *find(const struct tix_map *m, uint32_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = hash(key, m->cap); m->cell[i].key; i = (i + 1) & (m->cap - 1))
		if (m->cell[i].key == key)
			return &m->cell[i];
	return NULL;
}

static void grow(struct rpl_tindex *t, struct tix_map *m)
{
	size_t cap = m->cap ? 2 * m->cap : 1024, i, j;
	struct tix_list *cell = xcalloc(cap, sizeof(*cell));

	for (i = 0; i < m->cap; i++) {
		if (!m->cell[i].key)
			continue;
		for (j = hash(m->cell[i].key, cap); cell[j].key; j = (j + 1) & (cap - 1))
			;
		cell[j] = m->cell[i];
	}
	t->bytes += (cap - m->cap) * sizeof(*cell);
	free(m->cell);
	m->cell = cell;
	m->cap = cap;
}

/* Note slot for key (slot at least the last one noted for it). */
static void note(struct rpl_tindex *t, struct tix_map *m, uint32_t key, uint32_t slot)
{
	struct tix_list *l;
	size_t i;

	uint64_t *seen;

	key++;
	seen = &m->recent[key & (TIX_RECENT - 1)];
	if (*seen == ((uint64_t)slot << 32 | key))
		return;
	if (2 * (m->used + 1) > m->cap)
		grow(t, m);
	for (i = hash(key, m->cap); m->cell[i].key && m->cell[i].key != key;
	     i = (i + 1) & (m->cap - 1))
		;
	l = &m->cell[i];
	if (!l->key) {
		l->key = key;
		m->used++;
	}
	*seen = (uint64_t)slot << 32 | key;
	if (l->n && l->slot[l->n - 1] == slot)
		return;
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? 2 * l->cap : 2;

		l->slot = xrealloc(l->slot, cap * sizeof(*l->slot));
		t->bytes += (cap - l->cap) * sizeof(*l->slot);
		l->cap = cap;
	}
	l->slot[l->n++] = slot;
}

struct rpl_tindex *rpl_tix_new(uint64_t interval)
{
	struct rpl_tindex *t = xcalloc(1, sizeof(*t));

	t->interval = interval ? interval : 1;
	t->aslots = 64;
	t->start = xmalloc(t->aslots * sizeof(*t->start));
	t->start[0] = 0;
	t->nslots = 1;
	t->next_slot_pos = t->interval;
	t->bytes = sizeof(*t) + t->aslots * sizeof(*t->start);
	return t;
}

static void free_map(struct tix_map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->cell[i].slot);
	free(m->cell);
}

void rpl_tix_free(struct rpl_tindex *t)
{
	if (!t)
		return;
	free_map(&t->code);
	free_map(&t->rd);
	free_map(&t->wr);
	free(t->start);
	free(t);
}

void rpl_tix_pc(struct rpl_tindex *t, uint64_t position, uint32_t pc)
{
	(void)position;
	note(t, &t->code, pc >> RPL_TIX_CODE_SHIFT, (uint32_t)(t->nslots - 1));
}

void rpl_tix_access(struct rpl_tindex *t, uint64_t position, uint32_t addr, unsigned size,
		    int store)
{
	struct tix_map *m = store ? &t->wr : &t->rd;
	uint32_t first = addr >> RPL_TIX_DATA_SHIFT;
	uint32_t last = (uint32_t)(((uint64_t)addr + (size ? size : 1) - 1) >> RPL_TIX_DATA_SHIFT);

	(void)position;
	for (uint32_t b = first;; b++) {
		note(t, m, b, (uint32_t)(t->nslots - 1));
		if (b == last)
			break;
	}
}

void rpl_tix_done(struct rpl_tindex *t, uint64_t steps_after, uint64_t position_after)
{
	if (steps_after > t->covered)
		t->covered = steps_after;
	if (position_after < t->next_slot_pos)
		return;
	if (t->nslots == t->aslots) {
		t->aslots *= 2;
		t->start = xrealloc(t->start, t->aslots * sizeof(*t->start));
		t->bytes += t->aslots / 2 * sizeof(*t->start);
	}
	t->start[t->nslots++] = steps_after;
	t->next_slot_pos += t->interval;
}

uint64_t rpl_tix_covered(const struct rpl_tindex *t)
{
	return t->covered;
}

void rpl_tix_set_covered(struct rpl_tindex *t, uint64_t steps)
{
	if (steps > t->covered)
		t->covered = steps;
}

size_t rpl_tix_slots(const struct rpl_tindex *t)
{
	return t->nslots;
}

uint64_t rpl_tix_slot_steps(const struct rpl_tindex *t, size_t j)
{
	return t->start[j];
}

size_t rpl_tix_slot_of(const struct rpl_tindex *t, uint64_t steps)
{
	size_t lo = 0, hi = t->nslots; /* start[lo] <= steps < start[hi] */

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->start[mid] <= steps)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The list's latest slot <= last (-1: none), or earliest >= first (after = 1). */
static long pick(const struct tix_list *l, size_t at, int after)
{
	size_t lo = 0, hi;

	if (!l || !l->n)
		return -1;
	hi = l->n; /* the first index whose slot is > at (or >= at, after) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (after ? l->slot[mid] < at : l->slot[mid] <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (after)
		return lo < l->n ? (long)l->slot[lo] : -1;
	return lo ? (long)l->slot[lo - 1] : -1;
}

static long better(long a, long b, int after)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return after ? (a < b ? a : b) : (a > b ? a : b);
}

static long search(const struct rpl_tindex *t, size_t at, int after, const uint32_t *pcs, int npc,
		   const struct rpl_tix_range *w, int nw)
{
	long best = -1;

	for (int k = 0; k < npc; k++)
		best = better(best, pick(find(&t->code, (pcs[k] >> RPL_TIX_CODE_SHIFT) + 1), at, after),
			      after);
	for (int k = 0; k < nw; k++) {
		uint32_t first = w[k].addr >> RPL_TIX_DATA_SHIFT;
		uint32_t last = (uint32_t)(((uint64_t)w[k].addr + (w[k].len ? w[k].len : 1) - 1) >>
					   RPL_TIX_DATA_SHIFT);

		if (last - first > 4096) /* a range that wide: every slot may */
			return after ? (long)at : (long)(at < t->nslots ? at : t->nslots - 1);

		for (uint32_t b = first;; b++) {
			if (w[k].reads)
				best = better(best, pick(find(&t->rd, b + 1), at, after), after);
			if (w[k].writes)
				best = better(best, pick(find(&t->wr, b + 1), at, after), after);
			if (b == last)
				break;
		}
	}
	return best;
}

long rpl_tix_last_hit(const struct rpl_tindex *t, size_t last, const uint32_t *pcs, int npc,
		      const struct rpl_tix_range *w, int nw)
{
	return search(t, last, 0, pcs, npc, w, nw);
}

long rpl_tix_first_hit(const struct rpl_tindex *t, size_t first, const uint32_t *pcs, int npc,
		       const struct rpl_tix_range *w, int nw)
{
	return search(t, first, 1, pcs, npc, w, nw);
}

uint64_t rpl_tix_bytes(const struct rpl_tindex *t)
{
	return t->bytes;
}

/* ---- serialization --------------------------------------------------------- */

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, uint64_t v, unsigned bytes)
{
	if (b->n + bytes > b->cap) {
		b->cap = b->cap ? 2 * b->cap : 4096;
		if (b->cap < b->n + bytes)
			b->cap = b->n + bytes;
		b->p = xrealloc(b->p, b->cap);
	}
	for (unsigned i = 0; i < bytes; i++)
		b->p[b->n++] = (uint8_t)(v >> (8 * i));
}

size_t rpl_tix_serialize(const struct rpl_tindex *t, uint8_t **out)
{
	const struct tix_map *maps[3] = { &t->code, &t->rd, &t->wr };
	struct buf b = { NULL, 0, 0 };

	put(&b, t->interval, 8);
	put(&b, t->covered, 8);
	put(&b, t->nslots, 8);
	for (size_t j = 0; j < t->nslots; j++)
		put(&b, t->start[j], 8);
	for (int k = 0; k < 3; k++) {
		put(&b, maps[k]->used, 8);
		for (size_t i = 0; i < maps[k]->cap; i++) {
			const struct tix_list *l = &maps[k]->cell[i];

			if (!l->key)
				continue;
			put(&b, l->key - 1, 4);
			put(&b, l->n, 4);
			for (uint32_t s = 0; s < l->n; s++) /* as deltas: zlib packs them well */
				put(&b, l->slot[s] - (s ? l->slot[s - 1] : 0), 4);
		}
	}
	*out = b.p;
	return b.n;
}

struct rd {
	const uint8_t *p;
	size_t n, at;
};

static int get(struct rd *r, uint64_t *v, unsigned bytes)
{
	if (r->n - r->at < bytes)
		return -1;
	*v = 0;
	for (unsigned i = 0; i < bytes; i++)
		*v |= (uint64_t)r->p[r->at++] << (8 * i);
	return 0;
}

struct rpl_tindex *rpl_tix_deserialize(const uint8_t *p, size_t n, uint64_t interval,
				       const char **why)
{
	struct rd r = { p, n, 0 };
	struct tix_map *maps[3];
	struct rpl_tindex *t;
	uint64_t v, iv, covered, nslots, nlists, key, len;

	*why = "ends early";
	if (get(&r, &iv, 8) || get(&r, &covered, 8) || get(&r, &nslots, 8))
		return NULL;
	if (iv != interval || !nslots || nslots > (n - r.at) / 8) {
		*why = iv != interval ? "has another interval" : "counts more slots than it holds";
		return NULL;
	}
	t = rpl_tix_new(interval);
	maps[0] = &t->code, maps[1] = &t->rd, maps[2] = &t->wr;
	t->covered = covered;
	t->aslots = nslots;
	t->start = xrealloc(t->start, nslots * sizeof(*t->start));
	t->nslots = 0;
	for (uint64_t j = 0; j < nslots; j++) {
		if (get(&r, &v, 8))
			goto bad;
		if (j ? v <= t->start[j - 1] : v != 0) {
			*why = "has slots out of order";
			goto bad;
		}
		t->start[t->nslots++] = v;
	}
	t->next_slot_pos = nslots * interval;
	for (int k = 0; k < 3; k++) {
		if (get(&r, &nlists, 8))
			goto bad;
		if (nlists > (n - r.at) / 8) {
			*why = "counts more lists than it holds";
			goto bad;
		}
		for (uint64_t i = 0; i < nlists; i++) {
			struct tix_list *l;
			uint64_t slot = 0;

			if (get(&r, &key, 4) || get(&r, &len, 4))
				goto bad;
			if (key == UINT32_MAX || !len || len > (n - r.at) / 4 || find(maps[k], (uint32_t)key + 1)) {
				*why = "has a list that is empty, too long or repeated";
				goto bad;
			}
			note(t, maps[k], (uint32_t)key, 0); /* makes the list; slot 0 dropped below */
			l = find(maps[k], (uint32_t)key + 1);
			l->n = 0;
			l->slot = xrealloc(l->slot, len * sizeof(*l->slot));
			t->bytes += (len > l->cap ? len - l->cap : 0) * sizeof(*l->slot);
			l->cap = (uint32_t)len;
			for (uint64_t s = 0; s < len; s++) {
				if (get(&r, &v, 4))
					goto bad;
				slot += v;
				if ((s && !v) || slot >= nslots) {
					*why = "has a list out of order or past its slots";
					goto bad;
				}
				l->slot[l->n++] = (uint32_t)slot;
			}
		}
		memset(maps[k]->recent, 0, sizeof(maps[k]->recent));
	}
	if (r.at != n) {
		*why = "has bytes after its end";
		goto bad;
	}
	return t;
bad:
	rpl_tix_free(t);
	return NULL;
}

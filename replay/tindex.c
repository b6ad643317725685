/*
 * tindex: the slots each code line and data block was used in
 * (replay/tindex.h).
 */
#include "replay/tindex.h"

#include <stdlib.h>
#include <string.h>

#include "util/leb.h"
#include "util/util.h"

/*
 * A line's or block's slots, as runs of consecutive slots: one run for hot
 * code and data (used in every slot), short ones with short gaps for the
 * rest (a block a core sweeps in every few slots). In LEB128 varints
 * (util/leb.h), the first run's first slot, then a record for each run but
 * the latest:
 *
 *   +-------+   +----------------------------------+---------+
 *   | first |   | (gap - 1) << 2 | min(len - 1, 3) | len - 4 |  (next record) ...
 *   +-------+   +----------------------------------+---------+
 *    varint      varint                             varint, only when len >= 4
 *
 * len: the run's slots; gap: the slots between it and the next run (at least
 * 1). So a run of up to 3 slots 1 to 32 slots before the next takes one byte.
 * The latest run is [first, last] in the cell: its record is written when
 * the next run starts, so that a note in the slot after `last` (the common
 * case) just moves `last`. Up to TIX_INLINE bytes live in the cell; beyond,
 * in a spill block with a skip table: for the first run whose record starts
 * at or past each multiple of TIX_SKIP bytes, its first slot and the
 * record's offset, so that a query binary-searches the table and decodes at
 * most TIX_SKIP bytes and a record.
 */
#define TIX_INLINE 16
#define TIX_SKIP 128 /* > TIX_INLINE, and more than a record's 10 bytes */

struct tix_skip {
	uint32_t start; /* the run's first slot */
	uint32_t off;	/* where its record is (nbytes: the latest run) */
};

struct tix_spill {
	uint32_t nskip, askip;
	struct tix_skip *skip; /* skip[i]: the first run at or past (i + 1) * TIX_SKIP bytes */
	uint8_t data[];
};

struct tix_list {
	uint32_t key;	      /* line or block number + 1 (0: an empty cell) */
	uint32_t first, last; /* the latest run (nbytes > 0) */
	uint32_t nbytes;      /* of the encoding; 0: no slot yet */
	union {
		uint8_t in[TIX_INLINE]; /* nbytes <= TIX_INLINE */
		/*
		 * nbytes > TIX_INLINE: the block, and what a note asks of it
		 * kept here, so that the common note (a record appended, no
		 * skip entry due) does not read the block, a cache miss in a
		 * long index: the bytes its data[] holds, and the encoding's
		 * length at which the next skip entry is due ((nskip + 1) *
		 * TIX_SKIP)
		 */
		struct {
			struct tix_spill *spill;
			uint32_t cap, skip_at;
		} sp;
	} u;
};

_Static_assert(sizeof(struct tix_list) == 32, "a tix_list cell is 32 bytes");

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
	uint64_t bytes; /* all it holds: itself, start[], the cells, spill blocks, skip tables */
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

/* key's cell (key + 1), made empty if it has none. */
static struct tix_list *cell(struct rpl_tindex *t, struct tix_map *m, uint32_t key)
{
	size_t i;

	if (2 * (m->used + 1) > m->cap)
		grow(t, m);
	for (i = hash(key, m->cap); m->cell[i].key && m->cell[i].key != key;
	     i = (i + 1) & (m->cap - 1))
		;
	if (!m->cell[i].key) {
		m->cell[i].key = key;
		m->used++;
	}
	return &m->cell[i];
}

static const uint8_t *bytes_of(const struct tix_list *l)
{
	return l->nbytes <= TIX_INLINE ? l->u.in : l->u.sp.spill->data;
}

/* The varint at p[*at], which this file wrote (no bounds to check); *at moves past it. */
static uint64_t get_varint(const uint8_t *p, uint32_t *at)
{
	const uint8_t *q = p + *at;
	uint64_t v = get_uleb(&q);

	*at = (uint32_t)(q - p);
	return v;
}

/*
 * Append k bytes to l's encoding, spilling it out of the cell or growing the
 * block. An encoding takes at most a byte for every two slots (a record
 * covers its run and gap, 2 slots at least, and one more byte for every 7
 * bits these need) and slots are 32-bit: its length fits 32 bits.
 */
static void append(struct rpl_tindex *t, struct tix_list *l, const uint8_t *b, unsigned k)
{
	uint64_t n = (uint64_t)l->nbytes + k;
	struct tix_spill *s;

	if (n <= TIX_INLINE) {
		memcpy(l->u.in + l->nbytes, b, k);
		l->nbytes = (uint32_t)n;
		return;
	}
	s = l->nbytes > TIX_INLINE ? l->u.sp.spill : NULL;
	if (!s || n > l->u.sp.cap) {
		uint64_t cap = s ? (uint64_t)l->u.sp.cap + l->u.sp.cap / 4 : 3 * TIX_INLINE;

		if (cap < n)
			cap = n;
		if (cap > UINT32_MAX)
			cap = UINT32_MAX;
		if (!s) { /* out of the cell: u.in and u.sp share the bytes */
			s = xmalloc(sizeof(*s) + cap);
			memcpy(s->data, l->u.in, l->nbytes);
			s->nskip = s->askip = 0;
			s->skip = NULL;
			t->bytes += sizeof(*s) + cap;
			l->u.sp.skip_at = TIX_SKIP;
		} else {
			s = xrealloc(s, sizeof(*s) + cap);
			t->bytes += cap - l->u.sp.cap;
		}
		l->u.sp.cap = (uint32_t)cap;
		l->u.sp.spill = s;
	}
	memcpy(s->data + l->nbytes, b, k);
	l->nbytes = (uint32_t)n;
}

/* Note slot in l (slot at least the last one noted in it). */
static void list_note(struct rpl_tindex *t, struct tix_list *l, uint32_t slot)
{
	uint8_t b[2 * LEB_MAX], *q = b;
	struct tix_spill *s;

	if (l->nbytes && slot <= l->last)
		return;
	if (l->nbytes && slot == l->last + 1) { /* the latest run goes on */
		l->last = slot;
		return;
	}
	if (!l->nbytes) {
		put_uleb(&q, slot);
	} else { /* the latest run's record: it ends, the new one starts */
		uint32_t len1 = l->last - l->first;

		put_uleb(&q, (uint64_t)(slot - l->last - 2) << 2 | (len1 < 3 ? len1 : 3));
		if (len1 >= 3)
			put_uleb(&q, len1 - 3);
	}
	append(t, l, b, (unsigned)(q - b));
	l->first = l->last = slot;
	if (l->nbytes <= TIX_INLINE)
		return;
	if (l->nbytes < l->u.sp.skip_at) /* (the new run's record will be at nbytes) */
		return;
	s = l->u.sp.spill;
	if (s->nskip == s->askip) {
		uint32_t a = s->askip ? 2 * s->askip : 8;

		s->skip = xrealloc(s->skip, a * sizeof(*s->skip));
		t->bytes += (uint64_t)(a - s->askip) * sizeof(*s->skip);
		s->askip = a;
	}
	s->skip[s->nskip++] = (struct tix_skip){ slot, l->nbytes };
	l->u.sp.skip_at = (uint64_t)(s->nskip + 1) * TIX_SKIP > UINT32_MAX
				  ? UINT32_MAX
				  : (s->nskip + 1) * TIX_SKIP;
}

/* Note slot for key (slot at least the last one noted for it). */
static void note(struct rpl_tindex *t, struct tix_map *m, uint32_t key, uint32_t slot)
{
	uint64_t *seen;

	key++;
	seen = &m->recent[key & (TIX_RECENT - 1)];
	if (*seen == ((uint64_t)slot << 32 | key))
		return;
	*seen = (uint64_t)slot << 32 | key;
	list_note(t, cell(t, m, key), slot);
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
	for (size_t i = 0; i < m->cap; i++) {
		if (m->cell[i].key && m->cell[i].nbytes > TIX_INLINE) {
			free(m->cell[i].u.sp.spill->skip);
			free(m->cell[i].u.sp.spill);
		}
	}
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

/*
 * Where to decode l's runs from for slot at: the last run the skip table
 * knows starting at or before at (the first run when none), as its first
 * slot (*start) and its record's offset (*off).
 */
static void seek(const struct tix_list *l, const uint8_t *p, uint32_t at, uint32_t *off,
		 uint32_t *start)
{
	const struct tix_spill *s = l->nbytes > TIX_INLINE ? l->u.sp.spill : NULL;
	uint32_t lo = 0, hi = s ? s->nskip : 0; /* hi: the first entry whose run starts past at */

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->skip[mid].start <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		*start = s->skip[lo - 1].start;
		*off = s->skip[lo - 1].off;
	} else {
		*off = 0;
		*start = (uint32_t)get_varint(p, off);
	}
}

/*
 * The run starting at *start whose record is at *off, not the latest: its
 * last slot; *start and *off move on to the next run.
 */
static uint32_t run_end(const uint8_t *p, uint32_t *off, uint32_t *start)
{
	uint64_t v = get_varint(p, off);
	uint32_t end = *start + (uint32_t)(v & 3);

	if ((v & 3) == 3)
		end += (uint32_t)get_varint(p, off);
	*start = end + 2 + (uint32_t)(v >> 2);
	return end;
}

/* The list's latest slot <= at (-1: none), or earliest >= at (after = 1). */
static long pick(const struct tix_list *l, size_t at, int after)
{
	const uint8_t *p;
	uint32_t off, start, from, end;
	long best = -1;

	if (!l || !l->nbytes)
		return -1;
	if (at >= l->first) /* the latest run decides */
		return after ? (at <= l->last ? (long)at : -1)
			     : (long)(at < l->last ? at : l->last);
	/* at < first: the runs before the latest one */
	p = bytes_of(l);
	seek(l, p, (uint32_t)at, &off, &start);
	while (off < l->nbytes) {
		from = start;
		end = run_end(p, &off, &start);
		if (after && end >= at)
			return (long)(from > at ? from : at);
		if (!after) {
			if (from > at)
				return best;
			best = (long)(end < at ? end : at);
		}
	}
	/* the latest run: start == first > at */
	return after ? (long)start : best;
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
		best = better(best,
			      pick(find(&t->code, (pcs[k] >> RPL_TIX_CODE_SHIFT) + 1), at, after),
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

/*
 * Where the serialized bytes go: a buffer of BUF_PIECE bytes handed to
 * sink whenever it fills (the index file packs them as they come, so the
 * expanded index is never whole in memory), or, without a sink, one
 * growing buffer.
 */
#define BUF_PIECE (64 * 1024)

struct buf {
	uint8_t *p;
	size_t n, cap;
	uint64_t total; /* bytes handed to sink before p's */
	rpl_tix_sink sink;
	void *ctx;
};

static void put(struct buf *b, uint64_t v, unsigned bytes)
{
	if (b->n + bytes > b->cap) {
		if (b->sink) {
			b->sink(b->ctx, b->p, b->n);
			b->total += b->n;
			b->n = 0;
		} else {
			b->cap = b->cap ? 2 * b->cap : 4096;
			if (b->cap < b->n + bytes)
				b->cap = b->n + bytes;
			b->p = xrealloc(b->p, b->cap);
		}
	}
	for (unsigned i = 0; i < bytes; i++)
		b->p[b->n++] = (uint8_t)(v >> (8 * i));
}

/* Slots in l. */
static uint32_t count(const struct tix_list *l)
{
	const uint8_t *p = bytes_of(l);
	uint32_t off = 0, start = (uint32_t)get_varint(p, &off), n = l->last - l->first + 1;

	while (off < l->nbytes) {
		uint32_t from = start;

		n += run_end(p, &off, &start) - from + 1;
	}
	return n;
}

/* l's slots expanded, as differences from the one before (the first from 0). */
static void put_slots(struct buf *b, const struct tix_list *l)
{
	const uint8_t *p = bytes_of(l);
	uint32_t off = 0, start = (uint32_t)get_varint(p, &off), prev = 0, from, end;
	int any = 0, latest = 0;

	while (!latest) { /* as deltas: they pack well (util/zpack.h) */
		from = start;
		latest = off == l->nbytes;
		end = latest ? l->last : run_end(p, &off, &start);
		for (uint32_t s = from;; s++) {
			put(b, any ? s - prev : s, 4);
			prev = s, any = 1;
			if (s == end)
				break;
		}
	}
}

static void maps_of(const struct rpl_tindex *t, const struct tix_map *m[3])
{
	m[0] = &t->code;
	m[1] = &t->rd;
	m[2] = &t->wr;
}

static void serialize(const struct rpl_tindex *t, struct buf *b)
{
	const struct tix_map *maps[3];

	maps_of(t, maps);
	put(b, t->interval, 8);
	put(b, t->covered, 8);
	put(b, t->nslots, 8);
	for (size_t j = 0; j < t->nslots; j++)
		put(b, t->start[j], 8);
	for (int k = 0; k < 3; k++) {
		put(b, maps[k]->used, 8);
		for (size_t i = 0; i < maps[k]->cap; i++) {
			const struct tix_list *l = &maps[k]->cell[i];

			if (!l->key)
				continue;
			put(b, l->key - 1, 4);
			put(b, count(l), 4);
			put_slots(b, l);
		}
	}
}

size_t rpl_tix_serialize(const struct rpl_tindex *t, uint8_t **out)
{
	struct buf b = { NULL, 0, 0, 0, NULL, NULL };

	serialize(t, &b);
	*out = b.p;
	return b.n;
}

uint64_t rpl_tix_serialized_size(const struct rpl_tindex *t)
{
	const struct tix_map *maps[3];
	uint64_t n = 3 * 8 + (uint64_t)t->nslots * 8;

	maps_of(t, maps);
	for (int k = 0; k < 3; k++) {
		n += 8;
		for (size_t i = 0; i < maps[k]->cap; i++)
			if (maps[k]->cell[i].key)
				n += 8 + 4 * (uint64_t)count(&maps[k]->cell[i]);
	}
	return n;
}

uint64_t rpl_tix_serialize_to(const struct rpl_tindex *t, rpl_tix_sink sink, void *ctx)
{
	struct buf b = { xmalloc(BUF_PIECE), 0, BUF_PIECE, 0, sink, ctx };

	serialize(t, &b);
	if (b.n)
		sink(ctx, b.p, b.n);
	free(b.p);
	return b.total + b.n;
}

/*
 * The bytes being read: n in all, at the position of the next; in memory
 * (p, all n), or from a source through a window of BUF_PIECE bytes (win
 * holds [at - off, at - off + have)).
 */
struct rd {
	const uint8_t *p;
	uint64_t n, at;
	rpl_tix_source source;
	void *ctx;
	uint8_t *win;
	size_t off, have;
	int failed; /* the source failed */
};

/* At least `bytes` in the window, from the source: 0, or -1 at its end or failure. */
static int refill(struct rd *r, unsigned bytes)
{
	long got;

	memmove(r->win, r->win + r->off, r->have - r->off);
	r->have -= r->off;
	r->off = 0;
	while (r->have < bytes) {
		got = r->source(r->ctx, r->win + r->have, BUF_PIECE - r->have);
		if (got <= 0) {
			r->failed = got < 0;
			return -1;
		}
		r->have += (size_t)got;
	}
	return 0;
}

static int get(struct rd *r, uint64_t *v, unsigned bytes)
{
	const uint8_t *b;

	if (r->n - r->at < bytes)
		return -1;
	if (r->source) {
		if (r->have - r->off < bytes && refill(r, bytes))
			return -1;
		b = r->win + r->off;
		r->off += bytes;
	} else {
		b = r->p + r->at;
	}
	r->at += bytes;
	*v = 0;
	for (unsigned i = 0; i < bytes; i++)
		*v |= (uint64_t)b[i] << (8 * i);
	return 0;
}

static struct rpl_tindex *deserialize(struct rd *rd, uint64_t interval, const char **why);

struct rpl_tindex *rpl_tix_deserialize(const uint8_t *p, size_t n, uint64_t interval,
				       const char **why)
{
	struct rd r = { p, n, 0, NULL, NULL, NULL, 0, 0, 0 };

	return deserialize(&r, interval, why);
}

struct rpl_tindex *rpl_tix_deserialize_from(uint64_t n, rpl_tix_source source, void *ctx,
					    uint64_t interval, const char **why)
{
	struct rd r = { NULL, n, 0, source, ctx, xmalloc(BUF_PIECE), 0, 0, 0 };
	struct rpl_tindex *t = deserialize(&r, interval, why);
	uint8_t extra;

	/* the source must end with the bytes: one more is as wrong as one fewer */
	if (t && (r.have != r.off || source(ctx, &extra, 1) != 0)) {
		*why = "has bytes after its end";
		rpl_tix_free(t);
		t = NULL;
	}
	if (r.failed)
		*why = "does not unpack";
	free(r.win);
	return t;
}

static struct rpl_tindex *deserialize(struct rd *rd, uint64_t interval, const char **why)
{
	struct rd r = *rd;
	uint64_t n = r.n;
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
	if (nslots > UINT32_MAX) {
		*why = "counts more slots than a slot number holds";
		return NULL;
	}
	t = rpl_tix_new(interval);
	maps[0] = &t->code, maps[1] = &t->rd, maps[2] = &t->wr;
	t->covered = covered;
	t->bytes += (nslots - t->aslots) * sizeof(*t->start); /* (modulo 2^64: fewer) */
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
			if (key == UINT32_MAX || !len || len > (n - r.at) / 4 ||
			    find(maps[k], (uint32_t)key + 1)) {
				*why = "has a list that is empty, too long or repeated";
				goto bad;
			}
			l = cell(t, maps[k], (uint32_t)key + 1);
			for (uint64_t s = 0; s < len; s++) {
				if (get(&r, &v, 4))
					goto bad;
				slot += v;
				if ((s && !v) || slot >= nslots) {
					*why = "has a list out of order or past its slots";
					goto bad;
				}
				list_note(t, l, (uint32_t)slot);
			}
		}
	}
	if (r.at != n) {
		*why = "has bytes after its end";
		goto bad;
	}
	*rd = r;
	return t;
bad:
	*rd = r;
	rpl_tix_free(t);
	return NULL;
}

#include "replay/ckstore.h"

#include <stdlib.h>
#include <string.h>

#include "util/zpack.h"

#define DENSE_BITS 6  /* at sparse 0: 2^6 slots each side at full density */
#define MAX_SPARSE 70 /* m = 64: only slot 0 is kept */
#define HOT 4	      /* checkpoints nearest the replay whose state stays raw */
#define CHAIN 8	      /* a delta's key is one of the CHAIN - 1 entries before it when packed */
#define POOL 2	      /* raw state blocks kept for the next checkpoints (rpl_ckstore_block) */
#define NONE UINT64_MAX	      /* entry.base: not a delta */
#define LOST (UINT64_MAX - 1) /* entry.base: a delta whose key went and whose bytes did not inflate */

struct entry {
	uint64_t slot, steps, position;
	struct rpl_mem *mem;
	uint8_t *state;	   /* raw (len == state_size) or packed (util/zpack.h) */
	size_t len;	   /* bytes at state */
	int packed, tried; /* compressed; compression tried (it may not pay) */
	struct rpl_summary *sum;
	/*
	 * base: NONE, or the state is packed as a delta: the XOR of the raw
	 * state with the raw state of its key, the entry of those steps, which
	 * is not a delta itself (raw, or packed whole). deps: the deltas whose
	 * key this entry is.
	 */
	uint64_t base;
	unsigned deps;
};

struct rpl_ckstore {
	struct entry *e;
	size_t n, a;
	size_t state_size;
	const struct rpl_mem *live;
	uint64_t budget, held, peak;
	unsigned sparse;
	uint64_t dropped, recreated, rekeyed;
	/* the latest compressed state inflated, and whose (steps; UINT64_MAX: none) */
	uint8_t *scratch;
	uint64_t scratch_steps;
	/* the latest packed key inflated, and whose (steps; NONE: none) */
	uint8_t *kraw;
	uint64_t kraw_steps;
	/* a delta's XOR on its way to and from the compressor; a new key's raw state (rekey) */
	uint8_t *xbuf, *nraw;
	/*
	 * pack's output, zpack_bound(state_size) bytes, kept with the
	 * compressor (no workspace allocated per state), then copied to a
	 * block of its size.
	 */
	uint8_t *zbuf;
	struct zpack *zp; /* set up at the first state packed or unpacked */
	/*
	 * Raw states' blocks given back (packed or dropped), for the next
	 * checkpoints: a state from a fresh block faults its pages in anew
	 * (a third of an 8-core index's CPU time went to those faults and
	 * zeroed pages). Counted in held.
	 */
	uint8_t *pool[POOL];
	unsigned npool;
	int eager; /* rpl_ckstore_set_eager */
};

/* Bytes an entry holds besides its memory pages. */
static uint64_t entry_bytes(const struct entry *e)
{
	return sizeof(*e) + e->len + sizeof(*e->sum);
}

struct rpl_ckstore *rpl_ckstore_new(size_t state_size, const struct rpl_mem *live, uint64_t budget)
{
	struct rpl_ckstore *s = xcalloc(1, sizeof(*s));

	s->state_size = state_size;
	s->live = live;
	s->budget = budget;
	s->scratch_steps = UINT64_MAX;
	s->kraw_steps = NONE;
	return s;
}

/* A raw state's block (state_size bytes) goes back to the pool, or to the heap when it is full. */
static void give_back(struct rpl_ckstore *s, uint8_t *raw)
{
	if (s->npool == POOL) {
		free(raw);
		return;
	}
	s->pool[s->npool++] = raw;
	s->held += s->state_size;
}

uint8_t *rpl_ckstore_block(struct rpl_ckstore *s)
{
	if (!s->npool)
		return xmalloc(s->state_size);
	s->held -= s->state_size;
	return s->pool[--s->npool];
}

static void entry_release(struct rpl_ckstore *s, struct entry *e)
{
	rpl_mem_free(e->mem);
	if (e->packed)
		free(e->state);
	else
		give_back(s, e->state);
	free(e->sum);
}

void rpl_ckstore_free(struct rpl_ckstore *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		entry_release(s, &s->e[i]);
	while (s->npool)
		free(s->pool[--s->npool]);
	free(s->e);
	free(s->scratch);
	free(s->kraw);
	free(s->xbuf);
	free(s->nraw);
	zpack_free(s->zp);
	free(s->zbuf);
	free(s);
}

void rpl_ckstore_set_budget(struct rpl_ckstore *s, uint64_t bytes)
{
	s->budget = bytes;
}

size_t rpl_ckstore_count(const struct rpl_ckstore *s)
{
	return s->n;
}

/* The latest entry whose steps (or position) is at or before v: 0 at least. */
static size_t before(const struct rpl_ckstore *s, uint64_t v, int by_position)
{
	size_t lo = 0, hi = s->n;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if ((by_position ? s->e[mid].position : s->e[mid].steps) <= v)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

size_t rpl_ckstore_before_step(const struct rpl_ckstore *s, uint64_t step)
{
	return before(s, step, 0);
}

size_t rpl_ckstore_before_position(const struct rpl_ckstore *s, uint64_t position)
{
	return before(s, position, 1);
}

uint64_t rpl_ckstore_steps(const struct rpl_ckstore *s, size_t i)
{
	return s->e[i].steps;
}

uint64_t rpl_ckstore_position(const struct rpl_ckstore *s, size_t i)
{
	return s->e[i].position;
}

static unsigned bitlen(uint64_t x)
{
	return x ? 64 - (unsigned)__builtin_clzll(x) : 0;
}

/* The thinning rule (see ckstore.h): keep slot k with the replay at slot now? */
static int keep(const struct rpl_ckstore *s, uint64_t k, uint64_t now)
{
	unsigned sh = s->sparse < DENSE_BITS ? DENSE_BITS - s->sparse : 0;
	unsigned m = s->sparse > DENSE_BITS ? s->sparse - DENSE_BITS : 0;
	uint64_t d = k > now ? k - now : now - k;
	unsigned lvl = m + bitlen(d >> sh);

	if (!k)
		return 1;
	return lvl < 64 && !(k & ((1ull << lvl) - 1));
}

int rpl_ckstore_wants(const struct rpl_ckstore *s, uint64_t slot)
{
	return keep(s, slot, slot);
}

void rpl_ckstore_set_eager(struct rpl_ckstore *s, int on)
{
	s->eager = on;
}

int rpl_ckstore_drops(const struct rpl_ckstore *s, uint64_t slot, uint64_t at)
{
	unsigned m = s->sparse > DENSE_BITS ? s->sparse - DENSE_BITS : 0;
	/* the last thinning on the way: at the last slot up to `at` a re-run lays down */
	uint64_t last = m < 64 ? at & ~((1ull << m) - 1) : 0;

	return s->dropped && last > slot && !keep(s, slot, last);
}

int rpl_ckstore_full(const struct rpl_ckstore *s)
{
	uint64_t bytes = rpl_ckstore_bytes(s) - (uint64_t)s->npool * s->state_size;

	/* (a new checkpoint costs what one does on average, once packed) */
	return s->n && bytes + bytes / s->n > s->budget;
}

void rpl_ckstore_add(struct rpl_ckstore *s, uint64_t slot, uint64_t steps, uint64_t position,
		     uint8_t *state, struct rpl_mem *snap, int fresh)
{
	size_t i = s->n ? rpl_ckstore_before_step(s, steps) + 1 : 0;
	struct entry *e;

	if (s->n == s->a) {
		s->a = s->a ? 2 * s->a : 64;
		s->e = xrealloc(s->e, s->a * sizeof(*s->e));
	}
	memmove(&s->e[i + 1], &s->e[i], (s->n - i) * sizeof(*s->e));
	s->n++;
	e = &s->e[i];
	*e = (struct entry){slot, steps, position, snap, state, s->state_size, 0, 0, NULL, NONE, 0};
	e->sum = xmalloc(sizeof(*e->sum));
	if (fresh)
		memset(e->sum, 0, sizeof(*e->sum));
	else if (i)
		*e->sum = *s->e[i - 1].sum; /* both halves: the whole stretch's (a superset) */
	if (i + 1 == s->n) {
		/* the previous stretch ran to here: complete; the new one is open */
		if (i)
			s->e[i - 1].sum->sealed = 1;
		e->sum->sealed = 0;
	}
	if (!fresh)
		s->recreated++;
	s->held += entry_bytes(e);
}

/* The store's compressor, set up at first use; NULL only out of memory (reported). */
static struct zpack *zp(struct rpl_ckstore *s)
{
	if (!s->zp && !(s->zp = zpack_new()))
		error("replay: cannot set up the checkpoint compressor (out of memory?)");
	return s->zp;
}

/* The entry of exactly these steps among the first n, or -1. */
static long find_in(const struct rpl_ckstore *s, size_t n, uint64_t steps)
{
	size_t lo = 0, hi = n;

	if (!n)
		return -1;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->e[mid].steps <= steps)
			lo = mid;
		else
			hi = mid;
	}
	return s->e[lo].steps == steps ? (long)lo : -1;
}

static long find(const struct rpl_ckstore *s, uint64_t steps)
{
	return find_in(s, s->n, steps);
}

/* dst ^= src, n bytes (a multiple of nothing in particular). */
static void xor_into(uint8_t *dst, const uint8_t *src, size_t n)
{
	size_t k = 0;

	for (; k + 8 <= n; k += 8) {
		uint64_t a, b;

		memcpy(&a, dst + k, 8);
		memcpy(&b, src + k, 8);
		a ^= b;
		memcpy(dst + k, &a, 8);
	}
	for (; k < n; k++)
		dst[k] ^= src[k];
}

static int inflate(struct rpl_ckstore *s, const struct entry *e, uint8_t *dst);

/*
 * Entry i's raw state: its own if raw, else unpacked into the buffer *buf
 * (allocated at first use), which keeps the latest one unpacked, of steps
 * *at (NONE: none). NULL when it does not inflate (reported).
 */
static const uint8_t *unpacked(struct rpl_ckstore *s, size_t i, uint8_t **buf, uint64_t *at)
{
	const struct entry *e = &s->e[i];

	if (!e->packed)
		return e->state;
	if (*at == e->steps)
		return *buf;
	if (!*buf)
		*buf = xmalloc(s->state_size);
	*at = NONE;
	if (inflate(s, e, *buf))
		return NULL;
	*at = e->steps;
	return *buf;
}

/* The raw state of entry j, a key (not a delta), kept unpacked for the next delta on it. */
static const uint8_t *key_raw(struct rpl_ckstore *s, size_t j)
{
	return unpacked(s, j, &s->kraw, &s->kraw_steps);
}

/* Packed entry e's raw state into dst (state_size bytes): 0, or -1 (reported). */
static int inflate(struct rpl_ckstore *s, const struct entry *e, uint8_t *dst)
{
	const uint8_t *k = NULL;

	if (!zp(s))
		return -1;
	if (e->base == LOST)
		return error("replay: the compressed checkpoint at step %llu does not inflate",
			     (unsigned long long)e->steps);
	if (e->base != NONE) {
		long j = find(s, e->base);

		if (j < 0 || s->e[j].base != NONE)
			return error("replay: the checkpoint at step %llu is a delta against one "
				     "at step %llu that the store does not hold (a bug)",
				     (unsigned long long)e->steps, (unsigned long long)e->base);
		if (!(k = key_raw(s, (size_t)j)))
			return -1;
	}
	if (zpack_unpack(s->zp, dst, s->state_size, e->state, e->len))
		return error("replay: the compressed checkpoint at step %llu does not inflate",
			     (unsigned long long)e->steps);
	if (k)
		xor_into(dst, k, s->state_size);
	return 0;
}

const uint8_t *rpl_ckstore_state(struct rpl_ckstore *s, size_t i, const struct rpl_mem **mem)
{
	*mem = s->e[i].mem;
	return unpacked(s, i, &s->scratch, &s->scratch_steps);
}

const struct rpl_mem *rpl_ckstore_mem(const struct rpl_ckstore *s, size_t i)
{
	return s->e[i].mem;
}

struct rpl_summary *rpl_ckstore_sum(struct rpl_ckstore *s, size_t i)
{
	return s->e[i].sum;
}

struct rpl_summary *rpl_ckstore_last_sum(struct rpl_ckstore *s)
{
	return s->e[s->n - 1].sum;
}

const struct rpl_summary *rpl_ckstore_sum_const(const struct rpl_ckstore *s, size_t i)
{
	return s->e[i].sum;
}

uint64_t rpl_ckstore_bytes(const struct rpl_ckstore *s)
{
	/* the pool minus the live picture: the pages only snapshots hold */
	return s->held + rpl_mem_pool_bytes(s->live) - rpl_mem_bytes(s->live);
}

/* Trailing zero bits of a slot (64 for slot 0): how long thinning keeps it (ckstore.h). */
static unsigned durability(uint64_t slot)
{
	return slot ? (unsigned)__builtin_ctzll(slot) : 64;
}

/*
 * The key for entry i's delta: the nearest of the CHAIN - 1 entries before
 * it that is not a delta and whose slot outlasts i's under thinning (more
 * trailing zero bits: the rule drops i first, but for a rare case near
 * the replay, which rekey() mends), or -1.
 */
static long key_for(const struct rpl_ckstore *s, size_t i)
{
	for (size_t j = i; j-- > 0 && i - j < CHAIN;)
		if (rpl_ckstore_may_key(s, j, i))
			return (long)j;
	return -1;
}

int rpl_ckstore_may_key(const struct rpl_ckstore *s, size_t k, size_t i)
{
	return k < i && i - k < CHAIN && s->e[k].base == NONE &&
	       durability(s->e[k].slot) > durability(s->e[i].slot);
}

/*
 * Entry e's state becomes the packed src (state_size raw bytes): 0, or -1
 * when packing does not pay (e unchanged). A raw state's block goes back
 * to the pool (give_back) for a block of the packed size; a packed one's
 * is shrunk or grown in place.
 */
static int store_packed(struct rpl_ckstore *s, struct entry *e, const uint8_t *src)
{
	size_t bound = zpack_bound(s->state_size), n;

	if (!s->zbuf)
		s->zbuf = xmalloc(bound);
	n = zpack_pack(s->zp, s->zbuf, bound, src, s->state_size);
	if (!n || n >= s->state_size)
		return -1;
	s->held -= e->len;
	if (e->packed) {
		e->state = xrealloc(e->state, n);
	} else {
		give_back(s, e->state);
		e->state = xmalloc(n);
	}
	memcpy(e->state, s->zbuf, n);
	e->len = n;
	e->packed = 1;
	s->held += e->len;
	return 0;
}

/* Entry e's state becomes the raw src. */
static void store_raw(struct rpl_ckstore *s, struct entry *e, const uint8_t *src)
{
	s->held -= e->len;
	if (e->packed) {
		free(e->state);
		e->state = rpl_ckstore_block(s);
	}
	memcpy(e->state, src, s->state_size);
	e->len = s->state_size;
	e->packed = 0;
	s->held += e->len;
}

/*
 * Compress entry i's raw state (util/zpack.h; kept raw if that does not
 * pay): as a delta against its key (key_for) when it is no key itself and
 * has one, else whole.
 */
static void pack(struct rpl_ckstore *s, size_t i)
{
	struct entry *e = &s->e[i];
	const uint8_t *k;
	long j;

	e->tried = 1;
	if (!zp(s))
		return; /* (out of memory: the states stay raw) */
	if (!e->deps && (j = key_for(s, i)) >= 0 && (k = key_raw(s, (size_t)j))) {
		if (!s->xbuf)
			s->xbuf = xmalloc(s->state_size);
		memcpy(s->xbuf, e->state, s->state_size);
		xor_into(s->xbuf, k, s->state_size);
		if (!store_packed(s, e, s->xbuf)) {
			e->base = s->e[j].steps;
			s->e[j].deps++;
			return;
		}
	}
	store_packed(s, e, e->state);
}

/*
 * Key i is about to go: its deltas become the first one's raw state packed
 * whole (a new key) and the others' deltas against that. A delta whose
 * bytes do not inflate (a damaged index) is left LOST, reported when
 * restored.
 */
static void rekey(struct rpl_ckstore *s, size_t i)
{
	struct entry *key = &s->e[i];
	const uint8_t *k = key_raw(s, i);
	long first = -1;

	if (!s->scratch)
		s->scratch = xmalloc(s->state_size);
	if (!s->xbuf)
		s->xbuf = xmalloc(s->state_size);
	if (!s->nraw)
		s->nraw = xmalloc(s->state_size);
	s->scratch_steps = UINT64_MAX;
	for (size_t d = i + 1; d < s->n && key->deps; d++) {
		struct entry *e = &s->e[d];

		if (e->base != key->steps)
			continue;
		key->deps--;
		s->rekeyed++;
		if (!k || zpack_unpack(s->zp, s->scratch, s->state_size, e->state, e->len)) {
			e->base = LOST;
			continue;
		}
		xor_into(s->scratch, k, s->state_size);
		e->base = NONE;
		if (first >= 0) {
			memcpy(s->xbuf, s->scratch, s->state_size);
			xor_into(s->xbuf, s->nraw, s->state_size);
			if (!store_packed(s, e, s->xbuf)) {
				e->base = s->e[first].steps;
				s->e[first].deps++;
				continue;
			}
		}
		if (store_packed(s, e, s->scratch))
			store_raw(s, e, s->scratch);
		if (first < 0) {
			memcpy(s->nraw, s->scratch, s->state_size);
			first = (long)d;
		}
	}
}

/*
 * Let entry i > 0 go, in thin()'s pass: its stretch's summary merges into
 * entry p's, the one before it once the pass is done (entries 0..p are
 * those kept so far, in place; i's key is among them). Its slot in the
 * array is left for the pass to overwrite.
 */
static void let_go(struct rpl_ckstore *s, size_t i, size_t p)
{
	struct rpl_summary *ps = s->e[p].sum, *q = s->e[i].sum;
	long j;

	if (s->e[i].base != NONE && (j = find_in(s, p + 1, s->e[i].base)) >= 0)
		s->e[j].deps--;
	if (s->e[i].deps)
		rekey(s, i);
	if (s->kraw_steps == s->e[i].steps)
		s->kraw_steps = NONE;
	for (size_t k = 0; k < ARRAY_SIZE(ps->pc); k++)
		ps->pc[k] |= q->pc[k];
	for (size_t k = 0; k < ARRAY_SIZE(ps->rd); k++) {
		ps->rd[k] |= q->rd[k];
		ps->wr[k] |= q->wr[k];
	}
	ps->sealed = ps->sealed && q->sealed;
	if (s->scratch_steps == s->e[i].steps)
		s->scratch_steps = UINT64_MAX;
	s->held -= entry_bytes(&s->e[i]);
	entry_release(s, &s->e[i]);
	s->dropped++;
}

/*
 * Drop every checkpoint the thinning rule drops at the current density,
 * in one pass that closes the gaps as it goes (a thousand dropped at once
 * far from the replay, when it has moved, cost a memmove of the rest each).
 */
static void thin(struct rpl_ckstore *s, uint64_t now)
{
	size_t w = 1;

	for (size_t i = 1; i < s->n; i++) {
		if (!keep(s, s->e[i].slot, now)) {
			let_go(s, i, w - 1);
			continue;
		}
		if (w != i)
			s->e[w] = s->e[i];
		w++;
	}
	s->n = w;
}

/* Over the budget, the pool goes first (it is worth less than any checkpoint): the bytes held then. */
static uint64_t drain(struct rpl_ckstore *s)
{
	while (rpl_ckstore_bytes(s) > s->budget && s->npool) {
		free(s->pool[--s->npool]);
		s->held -= s->state_size;
	}
	return rpl_ckstore_bytes(s);
}

void rpl_ckstore_trim(struct rpl_ckstore *s, uint64_t now)
{
	size_t j = 0, hot = HOT, lo, hi;
	uint64_t bytes = drain(s);

	/*
	 * Once the store has thinned, what this density drops goes first, not
	 * compressed in vain: in a 10^9-instruction index 93% of the states
	 * compressed were dropped later, a third of its CPU time (see ckstore.h:
	 * what is compressed inside the dense window may still go later).
	 */
	if (bytes > s->budget && s->dropped)
		thin(s, now);
	/*
	 * The states of the cold checkpoints compressed: over the budget, or
	 * eagerly (within it too, see rpl_ckstore_set_eager). Raw ones take a
	 * quarter at most.
	 */
	if (bytes <= s->budget && !s->eager)
		goto out;
	if ((uint64_t)hot * s->state_size > s->budget / 4)
		hot = (size_t)(s->budget / 4 / s->state_size);
	while (j + 1 < s->n && s->e[j + 1].slot <= now)
		j++;
	lo = j + 1 >= hot / 2 ? j + 1 - hot / 2 : 0;
	hi = lo + hot; /* [lo, hi): the nearest ones, around j */
	for (size_t i = 0; i < s->n; i++)
		if (!s->e[i].tried && (i < lo || i >= hi))
			pack(s, i);
	/* then thinner and thinner until it fits */
	for (;;) {
		bytes = drain(s);
		if (bytes <= s->budget || s->n == 1)
			break;
		thin(s, now);
		bytes = rpl_ckstore_bytes(s);
		if (bytes <= s->budget || s->n == 1 || s->sparse == MAX_SPARSE)
			break;
		s->sparse++;
	}
out:
	if (bytes > s->peak)
		s->peak = bytes;
}

void rpl_ckstore_stats(const struct rpl_ckstore *s, struct rpl_ckstore_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->count = s->n;
	st->bytes = rpl_ckstore_bytes(s);
	st->peak = s->peak;
	st->budget = s->budget;
	st->dropped = s->dropped;
	st->recreated = s->recreated;
	st->rekeyed = s->rekeyed;
	st->sparse = s->sparse;
	for (size_t i = 0; i < s->n; i++)
		if (s->e[i].packed) {
			st->packed++;
			st->deltas += s->e[i].base != NONE;
			st->raw_state += s->state_size;
			st->packed_state += s->e[i].len;
		}
}

uint64_t rpl_ckstore_slot(const struct rpl_ckstore *s, size_t i)
{
	return s->e[i].slot;
}

uint64_t rpl_ckstore_budget(const struct rpl_ckstore *s)
{
	return s->budget;
}

int rpl_ckstore_load(struct rpl_ckstore *s, uint64_t slot, uint64_t steps, uint64_t position,
		     uint8_t *state, size_t len, int packed, uint64_t base, struct rpl_mem *snap,
		     const struct rpl_summary *sum)
{
	struct entry *e;
	long j = -1;

	if (base != NONE && ((j = find(s, base)) < 0 || s->e[j].base != NONE || !packed))
		return -1;
	rpl_ckstore_add(s, slot, steps, position, state, snap, 1);
	e = &s->e[s->n - 1];
	*e->sum = *sum;
	s->held -= e->len;
	e->len = len;
	e->packed = e->tried = packed;
	s->held += e->len;
	if (j >= 0) {
		e->base = base;
		s->e[j].deps++;
	}
	return 0;
}

const uint8_t *rpl_ckstore_state_stored(const struct rpl_ckstore *s, size_t i, size_t *len,
					int *packed, uint64_t *base)
{
	*len = s->e[i].len;
	*packed = s->e[i].packed;
	*base = s->e[i].base;
	return s->e[i].state;
}

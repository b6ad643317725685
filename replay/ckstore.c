#include "replay/ckstore.h"

#include <stdlib.h>
#include <string.h>

#include "util/zpack.h"

#define DENSE_BITS 6  /* at sparse 0: 2^6 slots each side at full density */
#define MAX_SPARSE 70 /* m = 64: only slot 0 is kept */
#define HOT 4	      /* checkpoints nearest the replay whose state stays raw */

struct entry {
	uint64_t slot, steps, position;
	struct rpl_mem *mem;
	uint8_t *state;	   /* raw (len == state_size) or packed (util/zpack.h) */
	size_t len;	   /* bytes at state */
	int packed, tried; /* compressed; compression tried (it may not pay) */
	struct rpl_summary *sum;
};

struct rpl_ckstore {
	struct entry *e;
	size_t n, a;
	size_t state_size;
	const struct rpl_mem *live;
	uint64_t budget, held, peak;
	unsigned sparse;
	uint64_t dropped, recreated;
	/* the latest compressed state inflated, and whose (steps; UINT64_MAX: none) */
	uint8_t *scratch;
	uint64_t scratch_steps;
	/*
	 * pack's output, zpack_bound(state_size) bytes, kept with the
	 * compressor (no workspace allocated per state): the compressed
	 * state then goes back into the raw one's block, shrunk in place. A
	 * new block per state, even a small one, grew the heap while a trim
	 * packed a thousand states at once (the resident memory rose 30-40 MiB
	 * over the budget while the store shrank).
	 */
	uint8_t *zbuf;
	struct zpack *zp; /* set up at the first state packed or unpacked */
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
	return s;
}

static void entry_release(struct entry *e)
{
	rpl_mem_free(e->mem);
	free(e->state);
	free(e->sum);
}

void rpl_ckstore_free(struct rpl_ckstore *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		entry_release(&s->e[i]);
	free(s->e);
	free(s->scratch);
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
	*e = (struct entry){slot, steps, position, snap, state, s->state_size, 0, 0, NULL};
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

const uint8_t *rpl_ckstore_state(struct rpl_ckstore *s, size_t i, const struct rpl_mem **mem)
{
	struct entry *e = &s->e[i];

	*mem = e->mem;
	if (!e->packed)
		return e->state;
	if (s->scratch_steps == e->steps)
		return s->scratch;
	if (!s->scratch)
		s->scratch = xmalloc(s->state_size);
	s->scratch_steps = UINT64_MAX;
	if (!zp(s))
		return NULL;
	if (zpack_unpack(s->zp, s->scratch, s->state_size, e->state, e->len)) {
		error("replay: the compressed checkpoint at step %llu does not inflate",
		      (unsigned long long)e->steps);
		return NULL;
	}
	s->scratch_steps = e->steps;
	return s->scratch;
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

/* Compress entry e's state (util/zpack.h; kept raw if that does not pay). */
static void pack(struct rpl_ckstore *s, struct entry *e)
{
	size_t bound = zpack_bound(s->state_size), n;

	e->tried = 1;
	if (!s->zbuf) {
		if (!zp(s))
			return; /* (out of memory: the states stay raw) */
		s->zbuf = xmalloc(bound);
	}
	n = zpack_pack(s->zp, s->zbuf, bound, e->state, s->state_size);
	if (!n || n >= s->state_size)
		return;
	/* in place: the raw state's block shrinks, nothing new is taken from the heap */
	memcpy(e->state, s->zbuf, n);
	s->held -= e->len;
	e->state = xrealloc(e->state, n);
	e->len = n;
	e->packed = 1;
	s->held += e->len;
}

/* Drop entry i > 0: its stretch's summary merges into the previous one's. */
static void drop(struct rpl_ckstore *s, size_t i)
{
	struct rpl_summary *p = s->e[i - 1].sum, *q = s->e[i].sum;

	for (size_t k = 0; k < ARRAY_SIZE(p->pc); k++)
		p->pc[k] |= q->pc[k];
	for (size_t k = 0; k < ARRAY_SIZE(p->rd); k++) {
		p->rd[k] |= q->rd[k];
		p->wr[k] |= q->wr[k];
	}
	p->sealed = p->sealed && q->sealed;
	if (s->scratch_steps == s->e[i].steps)
		s->scratch_steps = UINT64_MAX;
	s->held -= entry_bytes(&s->e[i]);
	entry_release(&s->e[i]);
	memmove(&s->e[i], &s->e[i + 1], (s->n - i - 1) * sizeof(*s->e));
	s->n--;
	s->dropped++;
}

/* Drop every checkpoint the thinning rule drops at the current density. */
static void thin(struct rpl_ckstore *s, uint64_t now)
{
	for (size_t i = s->n; i-- > 1;)
		if (!keep(s, s->e[i].slot, now))
			drop(s, i);
}

void rpl_ckstore_trim(struct rpl_ckstore *s, uint64_t now)
{
	size_t j = 0, hot = HOT, lo, hi;
	uint64_t bytes = rpl_ckstore_bytes(s);

	if (bytes <= s->budget)
		goto out;
	/*
	 * Once the store has thinned, what this density drops goes first, not
	 * compressed in vain: in a 10^9-instruction index 93% of the states
	 * compressed were dropped later, a third of its CPU time (see ckstore.h:
	 * what is compressed inside the dense window may still go later).
	 */
	if (s->dropped)
		thin(s, now);
	/* the states of the cold checkpoints compressed; raw ones take a quarter at most */
	if ((uint64_t)hot * s->state_size > s->budget / 4)
		hot = (size_t)(s->budget / 4 / s->state_size);
	while (j + 1 < s->n && s->e[j + 1].slot <= now)
		j++;
	lo = j + 1 >= hot / 2 ? j + 1 - hot / 2 : 0;
	hi = lo + hot; /* [lo, hi): the nearest ones, around j */
	for (size_t i = 0; i < s->n; i++)
		if (!s->e[i].tried && (i < lo || i >= hi))
			pack(s, &s->e[i]);
	/* then thinner and thinner until it fits */
	for (;;) {
		bytes = rpl_ckstore_bytes(s);
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
	st->sparse = s->sparse;
	for (size_t i = 0; i < s->n; i++)
		if (s->e[i].packed) {
			st->packed++;
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

void rpl_ckstore_load(struct rpl_ckstore *s, uint64_t slot, uint64_t steps, uint64_t position,
		      uint8_t *state, size_t len, int packed, struct rpl_mem *snap,
		      const struct rpl_summary *sum)
{
	struct entry *e;

	rpl_ckstore_add(s, slot, steps, position, state, snap, 1);
	e = &s->e[s->n - 1];
	*e->sum = *sum;
	s->held -= e->len;
	e->len = len;
	e->packed = e->tried = packed;
	s->held += e->len;
}

const uint8_t *rpl_ckstore_state_stored(const struct rpl_ckstore *s, size_t i, size_t *len,
					int *packed)
{
	*len = s->e[i].len;
	*packed = s->e[i].packed;
	return s->e[i].state;
}

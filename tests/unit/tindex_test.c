/*
 * tindex_test: the time index (replay/tindex.h) against a brute-force
 * reference: random runs of steps (some retire an instruction, some do
 * not, some access data that crosses a block's end), then random queries
 * for breakpoints and watched ranges in both directions, each compared
 * with a scan of everything noted. Then its compact lists (runs of slots)
 * against a plain model, an array of slots per line, over millions of
 * slots: hot lines, sporadic ones, ones with a million runs, gaps past
 * 2^21 slots; the same after a round trip through its serialized form; its
 * bytes for a hot line and an alternating one; damaged serialized forms.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "replay/tindex.h"
#include "tests/unit/tap.h"

struct note {
	size_t slot;
	int kind; /* 0 pc, 1 load, 2 store */
	uint32_t addr, size;
};

static uint64_t rng = 0x1234567;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* The reference: does note x hit a breakpoint at pc or the watched range w? */
static int ref_hits(const struct note *x, const uint32_t *pc, int npc, const struct rpl_tix_range *w,
		    int nw)
{
	for (int k = 0; k < npc && x->kind == 0; k++)
		if (x->addr >> RPL_TIX_CODE_SHIFT == pc[k] >> RPL_TIX_CODE_SHIFT)
			return 1;
	for (int k = 0; k < nw && x->kind; k++) {
		uint32_t a0 = x->addr >> RPL_TIX_DATA_SHIFT, a1 = (x->addr + x->size - 1) >> RPL_TIX_DATA_SHIFT;
		uint32_t b0 = w[k].addr >> RPL_TIX_DATA_SHIFT,
			 b1 = (w[k].addr + w[k].len - 1) >> RPL_TIX_DATA_SHIFT;

		if ((x->kind == 1 ? w[k].reads : w[k].writes) && a0 <= b1 && b0 <= a1)
			return 1;
	}
	return 0;
}

/* The bytes of rpl_tix_serialize_to's pieces, joined. */
struct joined {
	uint8_t *p;
	size_t n;
	int big; /* a piece over 64 KiB */
};

static void join_piece(void *ctx, const uint8_t *p, size_t n)
{
	struct joined *j = ctx;

	j->big |= n > 64 * 1024;
	j->p = realloc(j->p, j->n + n);
	memcpy(j->p + j->n, p, n);
	j->n += n;
}

/* A source of n bytes at p in pieces of random sizes, then (extra) one byte more, or a failure. */
struct pieced {
	const uint8_t *p;
	size_t n, at;
	int extra, fail;
};

static long piece_source(void *ctx, uint8_t *buf, size_t cap)
{
	struct pieced *s = ctx;
	size_t k = 1 + rnd(300);

	if (s->at == s->n) {
		if (s->fail)
			return -1;
		if (s->extra) {
			s->extra = 0;
			buf[0] = 0;
			return 1;
		}
		return 0;
	}
	if (k > cap)
		k = cap;
	if (k > s->n - s->at)
		k = s->n - s->at;
	memcpy(buf, s->p + s->at, k);
	s->at += k;
	return (long)k;
}

/* The streamed forms against the buffer ones: the same bytes, the same index, the same refusals. */
static void pieces(const struct rpl_tindex *t, const uint8_t *buf, size_t n, uint64_t interval)
{
	struct joined j = { NULL, 0, 0 };
	uint64_t len = rpl_tix_serialize_to(t, join_piece, &j);
	struct pieced src = { buf, n, 0, 0, 0 };
	const char *why = NULL;
	struct rpl_tindex *u;
	uint8_t *again;
	size_t n2;

	tap_ok(len == n && j.n == n && !memcmp(j.p, buf, n) && !j.big &&
		       rpl_tix_serialized_size(t) == n,
	       "interval %llu: in pieces of 64 KiB at most, the same %zu bytes, and their size "
	       "told beforehand", (unsigned long long)interval, n);
	u = rpl_tix_deserialize_from(n, piece_source, &src, interval, &why);
	n2 = u ? rpl_tix_serialize(u, &again) : 0;
	tap_ok(u && n2 == n && !memcmp(again, buf, n),
	       "... read back from pieces: the same index (%s)", u ? "read" : why);
	if (u)
		free(again);
	rpl_tix_free(u);
	src = (struct pieced){ buf, n, 0, 1, 0 };
	u = rpl_tix_deserialize_from(n, piece_source, &src, interval, &why);
	tap_ok(!u && !strcmp(why, "has bytes after its end"), "... a byte after them: refused (%s)",
	       why);
	src = (struct pieced){ buf, n - 1, 0, 0, 0 };
	u = rpl_tix_deserialize_from(n, piece_source, &src, interval, &why);
	tap_ok(!u, "... one byte short: refused (%s)", why);
	src = (struct pieced){ buf, n / 2, 0, 0, 1 };
	u = rpl_tix_deserialize_from(n, piece_source, &src, interval, &why);
	tap_ok(!u && !strcmp(why, "does not unpack"), "... a source that fails: refused (%s)", why);
	free(j.p);
}

static void run(uint64_t interval, int steps)
{
	struct rpl_tindex *t = rpl_tix_new(interval);
	struct note *notes = calloc((size_t)steps * 3, sizeof(*notes));
	uint64_t *start = calloc((size_t)steps + 2, sizeof(*start)), pos = 0;
	size_t nnotes = 0, nslots = 1, slot = 0;
	int bad = 0;

	for (int s = 0; s < steps; s++) {
		int retire = rnd(8) != 0;
		uint32_t pc = 0x100 + 2 * rnd(2048);

		rpl_tix_pc(t, pos, pc);
		notes[nnotes++] = (struct note){ slot, 0, pc, 2 };
		for (int a = rnd(3); a > 0; a--) {
			uint32_t addr = 0x20000000 + rnd(8192), size = 1u << rnd(3);
			int store = rnd(2);

			rpl_tix_access(t, pos, addr, size, store);
			notes[nnotes++] = (struct note){ slot, 1 + store, addr, size };
		}
		pos += retire;
		rpl_tix_done(t, (uint64_t)s + 1, pos);
		if (pos == nslots * interval) {
			start[nslots++] = (uint64_t)s + 1;
			slot++;
		}
	}
	tap_is_int(rpl_tix_slots(t), nslots, "slots started");
	tap_is_int(rpl_tix_covered(t), steps, "steps covered");
	for (size_t j = 0; j < nslots; j++)
		bad += rpl_tix_slot_steps(t, j) != start[j];
	tap_ok(!bad, "interval %llu: every slot starts where the positions say",
	       (unsigned long long)interval);
	bad = 0;
	for (int s = 0; s < steps; s += 1 + rnd(5)) {
		size_t want = 0;

		while (want + 1 < nslots && start[want + 1] <= (uint64_t)s)
			want++;
		bad += rpl_tix_slot_of(t, (uint64_t)s) != want;
	}
	tap_ok(!bad, "interval %llu: rpl_tix_slot_of agrees", (unsigned long long)interval);

	for (int q = 0, wrong = 0; q < 2000; q++) {
		uint32_t pcs[2] = { 0x100 + 2 * rnd(2048), 0x100 + 2 * rnd(2048) };
		struct rpl_tix_range w[2] = {
			{ 0x20000000 + rnd(8200), 1 + rnd(16), (int)rnd(2), 1 },
			{ 0x20000000 + rnd(8200), 1 + rnd(4), 1, (int)rnd(2) },
		};
		int npc = (int)rnd(3), nw = (int)rnd(3);
		size_t at = rnd((uint32_t)nslots);
		long last = -1, first = -1;

		for (size_t i = 0; i < nnotes; i++) {
			if (!ref_hits(&notes[i], pcs, npc, w, nw))
				continue;
			if (notes[i].slot <= at && (long)notes[i].slot > last)
				last = (long)notes[i].slot;
			if (notes[i].slot >= at && (first < 0 || (long)notes[i].slot < first))
				first = (long)notes[i].slot;
		}
		if (rpl_tix_last_hit(t, at, pcs, npc, w, nw) != last ||
		    rpl_tix_first_hit(t, at, pcs, npc, w, nw) != first) {
			if (!wrong++)
				tap_diag("query %d at slot %zu: last %ld (want %ld), first %ld (want %ld)",
					 q, at, rpl_tix_last_hit(t, at, pcs, npc, w, nw), last,
					 rpl_tix_first_hit(t, at, pcs, npc, w, nw), first);
		}
		if (q == 1999)
			tap_ok(!wrong, "interval %llu, %d steps: 2000 queries both ways as the scan",
			       (unsigned long long)interval, steps);
	}
	{
		struct rpl_tix_range wide = { 0x20000000, 1u << 24, 1, 1 };

		tap_is_int(rpl_tix_last_hit(t, nslots - 1, NULL, 0, &wide, 1), nslots - 1,
			   "a range too wide to look up may hit anywhere (backward)");
		tap_is_int(rpl_tix_first_hit(t, 0, NULL, 0, &wide, 1), 0,
			   "... and forward");
	}
	tap_ok(rpl_tix_bytes(t) > 0, "it counts its bytes");
	{
		uint8_t *buf;
		size_t n = rpl_tix_serialize(t, &buf), cut;
		const char *why = NULL;
		struct rpl_tindex *u = rpl_tix_deserialize(buf, n, interval, &why);
		int same = u && rpl_tix_slots(u) == nslots && rpl_tix_covered(u) == (uint64_t)steps;

		if (!u)
			tap_diag("not read back: %s", why);

		for (int q = 0; same && q < 500; q++) {
			uint32_t pc = 0x100 + 2 * rnd(2048);
			struct rpl_tix_range w = { 0x20000000 + rnd(8200), 1 + rnd(8), (int)rnd(2), 1 };
			size_t at = rnd((uint32_t)nslots);

			same = rpl_tix_last_hit(u, at, &pc, 1, &w, 1) ==
				       rpl_tix_last_hit(t, at, &pc, 1, &w, 1) &&
			       rpl_tix_first_hit(u, at, &pc, 1, &w, 1) ==
				       rpl_tix_first_hit(t, at, &pc, 1, &w, 1) &&
			       rpl_tix_slot_steps(u, at) == rpl_tix_slot_steps(t, at);
		}
		tap_ok(same, "interval %llu: serialized and read back, it answers the same",
		       (unsigned long long)interval);
		rpl_tix_free(u);
		pieces(t, buf, n, interval);
		/* (each read first: its reason is what the line prints) */
		u = rpl_tix_deserialize(buf, n, interval + 1, &why);
		tap_ok(!u && !strcmp(why, "has another interval"), "another interval is refused: %s",
		       why);
		cut = 24 + rnd((uint32_t)(n - 24));
		u = rpl_tix_deserialize(buf, cut, interval, &why);
		tap_ok(!u, "cut at byte %zu of %zu: refused (%s)", cut, n, why);
		buf[n - 1] ^= 0x80; /* the last delta: past the slots */
		u = rpl_tix_deserialize(buf, n, interval, &why);
		tap_ok(!u, "a slot past the end is refused (%s)", why);
		free(buf);
	}
	rpl_tix_free(t);
	free(notes);
	free(start);
}

/* An index of nslots slots of one step each, one line noted in the slots where every % k == 0. */
static struct rpl_tindex *one_line(uint32_t nslots, uint32_t every)
{
	struct rpl_tindex *t = rpl_tix_new(1);

	for (uint32_t s = 0; s < nslots; s++) {
		if (every && s % every == 0)
			rpl_tix_pc(t, s, 0x400);
		rpl_tix_done(t, (uint64_t)s + 1, (uint64_t)s + 1);
	}
	return t;
}

/* ---- the compact lists against a plain model ------------------------------ */

#define MSLOTS ((1u << 21) + (1u << 19) + 4321) /* slots: gaps past 2^21 fit */

/* A line (or block) of the model: its slots, increasing, as the index should list them. */
struct mline {
	int kind; /* 0 code, 1 loads, 2 stores */
	uint32_t addr;
	uint32_t *slot;
	size_t n, cap, cur; /* cur: the next one to feed */
};

static void madd(struct mline *m, uint32_t slot)
{
	if (slot >= MSLOTS || (m->n && m->slot[m->n - 1] >= slot))
		return;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->slot = realloc(m->slot, m->cap * sizeof(*m->slot));
	}
	m->slot[m->n++] = slot;
}

/*
 * Runs of rnd(maxlen) + 1 slots, rnd(maxgap) + 1 apart, from `from` to `to`
 * (a gap past 2^21 at 1 in `huge`).
 */
static void mruns(struct mline *m, uint32_t from, uint32_t to, uint32_t maxlen, uint32_t maxgap,
		  uint32_t huge)
{
	for (uint64_t s = from; s < to;) {
		uint32_t len = 1 + rnd(maxlen);

		for (uint32_t k = 0; k < len; k++)
			madd(m, (uint32_t)s + k);
		s += len + 1 + rnd(maxgap);
		if (huge && !rnd(huge))
			s += (1u << 21) + rnd(1000);
	}
}

/* The model's latest slot <= at (after = 0) or earliest >= at (after = 1); -1: none. */
static long mpick(const struct mline *m, size_t at, int after)
{
	size_t lo = 0, hi = m->n; /* the first whose slot is > at (>= at, after) */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (after ? m->slot[mid] < at : m->slot[mid] <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (after)
		return lo < m->n ? (long)m->slot[lo] : -1;
	return lo ? (long)m->slot[lo - 1] : -1;
}

static long qpick(const struct rpl_tindex *t, const struct mline *m, size_t at, int after)
{
	struct rpl_tix_range w = { m->addr + (uint32_t)rnd(60), 1 + rnd(4), m->kind == 1,
				   m->kind == 2 };

	if (!m->kind)
		return after ? rpl_tix_first_hit(t, at, &m->addr, 1, NULL, 0)
			     : rpl_tix_last_hit(t, at, &m->addr, 1, NULL, 0);
	return after ? rpl_tix_first_hit(t, at, NULL, 0, &w, 1)
		     : rpl_tix_last_hit(t, at, NULL, 0, &w, 1);
}

/* Queries on every line (random slots, and next to its slots) and on pairs; failures. */
static int mquery(const struct rpl_tindex *t, struct mline *ml, int nl, const char *what)
{
	int wrong = 0;

	for (int i = 0; i < nl; i++) {
		const struct mline *m = &ml[i];

		for (int q = 0; q < 3000; q++) {
			size_t at = rnd(MSLOTS);

			if (q & 1 && m->n) /* next to one of its slots */
				at = m->slot[rnd((uint32_t)m->n)] + rnd(3) - 1;
			if (at >= MSLOTS)
				continue;
			for (int after = 0; after < 2; after++) {
				long got = qpick(t, m, at, after), want = mpick(m, at, after);

				if (got != want && !wrong++)
					tap_diag("%s: line %d (kind %d, %zu slots), %s slot %zu: "
						 "%ld, want %ld",
						 what, i, m->kind, m->n,
						 after ? "first from" : "last to", at, got, want);
			}
		}
	}
	for (int q = 0; q < 3000; q++) { /* two lines at once: a breakpoint and a watchpoint */
		const struct mline *a = &ml[rnd((uint32_t)nl)], *b = &ml[rnd((uint32_t)nl)];
		size_t at = rnd(MSLOTS);
		struct rpl_tix_range w = { b->addr, 8, b->kind == 1, b->kind == 2 };
		uint32_t pc = a->kind ? 0x3000 : a->addr; /* 0x3000: never executed */
		long last = rpl_tix_last_hit(t, at, &pc, 1, &w, b->kind ? 1 : 0);
		long first = rpl_tix_first_hit(t, at, &pc, 1, &w, b->kind ? 1 : 0);
		long wl = a->kind ? -1 : mpick(a, at, 0), wf = a->kind ? -1 : mpick(a, at, 1);

		if (b->kind) {
			long l2 = mpick(b, at, 0), f2 = mpick(b, at, 1);

			wl = l2 > wl ? l2 : wl;
			wf = wf < 0 || (f2 >= 0 && f2 < wf) ? f2 : wf;
		}
		if ((last != wl || first != wf) && !wrong++)
			tap_diag(
			    "%s: pair query at slot %zu: last %ld (want %ld), first %ld (want %ld)",
			    what, at, last, wl, first, wf);
	}
	return wrong;
}

static void model(void)
{
	enum { NL = 13 };
	struct mline ml[NL];
	struct rpl_tindex *t = rpl_tix_new(1), *u;
	uint8_t *buf;
	size_t n, runs = 0, used = 0;
	uint64_t bare, bytes;
	const char *why = "";
	int i;

	memset(ml, 0, sizeof(ml));
	for (i = 0; i < NL; i++) { /* code lines, then blocks (block 6's loads and stores apart) */
		ml[i].kind = i < 5 ? 0 : i < 9 ? 1 : 2;
		ml[i].addr = ml[i].kind ? 0x20000000 + 64 * (uint32_t)(i == 11 ? 6 : i)
					: 0x1000 + 64 * 256 * (uint32_t)i; /* keys alike mod 256 */
	}
	for (uint32_t s = 0; s < MSLOTS; s++) {
		madd(&ml[0], s); /* hot: every slot */
		if (s < (1u << 20) && rnd(5000))
			madd(&ml[1], s); /* hot with holes */
		if (!rnd(1000))
			madd(&ml[2], s); /* sporadic */
		if (!(s & 1))
			madd(&ml[6], s); /* alternating: a million runs */
		if (s % 7 == 2 || s % 7 == 5)
			madd(&ml[9], s); /* a sweep, as soak's blocks */
	}
	madd(&ml[3], (1u << 21) + 7); /* far apart: varints of 4 bytes */
	madd(&ml[3], (1u << 22) - 3 < MSLOTS ? (1u << 22) - 3 : MSLOTS - 2);
	madd(&ml[4], 0), madd(&ml[4], 1);
	for (uint32_t s = (1u << 21) + 100; s <= (1u << 21) + 400; s++)
		madd(&ml[4], s); /* a run of 301 slots after a gap past 2^21 */
	madd(&ml[4], MSLOTS - 1);
	mruns(&ml[5], 3, 1u << 20, 300, 200, 0);   /* long runs, long gaps: records of 2, 3 bytes */
	mruns(&ml[7], 0, MSLOTS, 3, 32, 0);	   /* records of one byte */
	mruns(&ml[8], 11, MSLOTS, 4000, 6000, 20); /* now and then a gap past 2^21 */
	madd(&ml[10], MSLOTS - 1);		   /* one slot, the last */
	mruns(&ml[11], 1, MSLOTS, 2, 2, 0);	   /* block 6's stores */
	/* ml[12]: never used */
	for (i = 0; i < NL; i++) {
		used += ml[i].n;
		for (size_t k = 0; k < ml[i].n; k++)
			runs += !k || ml[i].slot[k] != ml[i].slot[k - 1] + 1;
	}

	/* fed slot by slot, notes repeated, lines interleaved */
	for (uint32_t s = 0; s < MSLOTS; s++) {
		for (int rep = 1 + (int)rnd(3); rep; rep--) {
			for (i = 0; i < NL; i++) {
				struct mline *m = &ml[i];

				if (m->cur >= m->n || m->slot[m->cur] != s)
					continue;
				if (!m->kind)
					rpl_tix_pc(t, s, m->addr + 2 * rnd(32));
				else
					rpl_tix_access(t, s, m->addr + rnd(60), 1u << rnd(3),
						       m->kind == 2);
				if (rep == 1)
					m->cur++;
			}
		}
		rpl_tix_done(t, (uint64_t)s + 1, (uint64_t)s + 1);
	}
	tap_ok(rpl_tix_slots(t) == MSLOTS + 1, "model: %u slots, %zu runs in %d lines", MSLOTS,
	       runs, NL);
	tap_ok(!mquery(t, ml, NL, "as filled"), "model: %d lines, 81000 queries as the model says",
	       NL);
	u = one_line(MSLOTS, 0); /* the same slots, no line */
	bare = rpl_tix_bytes(u);
	rpl_tix_free(u);
	bytes = rpl_tix_bytes(t);
	tap_ok(bytes - bare < runs + runs / 2 + 13 * 4096,
	       "model: its lists hold %llu bytes: under 1.5 a run (%zu runs; %llu as slot arrays)",
	       (unsigned long long)(bytes - bare), runs, 4ull * used);

	n = rpl_tix_serialize(t, &buf);
	rpl_tix_free(t);
	u = rpl_tix_deserialize(buf, n, 1, &why);
	free(buf);
	if (!u)
		tap_diag("not read back: %s", why);
	tap_ok(u && rpl_tix_slots(u) == MSLOTS + 1 && !mquery(u, ml, NL, "read back"),
	       "model: serialized (%zu bytes) and read back, as the model says", n);
	if (u) {
		size_t n2 = rpl_tix_serialize(u, &buf);

		free(buf);
		tap_ok(n2 == n, "model: read back, it serializes to as many bytes (%zu)", n2);
		tap_ok(rpl_tix_bytes(u) <= bytes,
		       "model: read back, it holds no more (%llu bytes, %llu as filled)",
		       (unsigned long long)rpl_tix_bytes(u), (unsigned long long)bytes);
	}
	rpl_tix_free(u);
	for (i = 0; i < NL; i++)
		free(ml[i].slot);
}

static void sizes(void)
{
	struct rpl_tindex *once = one_line(100000, 100000), *hot = one_line(100000, 1);
	struct rpl_tindex *alt = one_line(100000, 2);
	uint64_t b0 = rpl_tix_bytes(once);

	tap_ok(rpl_tix_bytes(hot) - b0 < 64,
	       "a line in 100000 consecutive slots: %llu bytes more than in one (400000 as slots)",
	       (unsigned long long)(rpl_tix_bytes(hot) - b0));
	tap_ok(rpl_tix_bytes(alt) - b0 < 75000,
	       "a line in every other of 100000 slots: %llu bytes more (200000 as slots)",
	       (unsigned long long)(rpl_tix_bytes(alt) - b0));
	tap_is_int(rpl_tix_last_hit(hot, 99999, (uint32_t[]){ 0x43e }, 1, NULL, 0), 99999,
		   "hot: the last slot hits");
	tap_is_int(rpl_tix_first_hit(alt, 99997, (uint32_t[]){ 0x400 }, 1, NULL, 0), 99998,
		   "alternating: the next even slot hits");
	rpl_tix_free(once);
	rpl_tix_free(hot);
	rpl_tix_free(alt);
}

/* ---- damaged serialized forms ----------------------------------------------- */

struct blob {
	uint8_t b[512];
	size_t n;
};

static void bput(struct blob *x, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		x->b[x->n++] = (uint8_t)(v >> (8 * i));
}

/* Four slots of interval 1; the code lists: key 5's slot deltas d[0..nd), then key2's {0}. */
static struct blob make_blob(const uint32_t *d, uint32_t nd, uint32_t key2)
{
	struct blob x = { { 0 }, 0 };

	bput(&x, 1, 8), bput(&x, 4, 8), bput(&x, 4, 8);
	for (int j = 0; j < 4; j++)
		bput(&x, (uint64_t)j, 8);
	bput(&x, key2 ? 2 : 1, 8);
	bput(&x, 5, 4), bput(&x, nd, 4);
	for (uint32_t k = 0; k < nd; k++)
		bput(&x, d[k], 4);
	if (key2)
		bput(&x, key2, 4), bput(&x, 1, 4), bput(&x, 0, 4);
	bput(&x, 0, 8), bput(&x, 0, 8); /* no loaded nor stored blocks */
	return x;
}

static void refused(struct blob x, const char *want, const char *what)
{
	const char *why = "";
	struct rpl_tindex *t = rpl_tix_deserialize(x.b, x.n, 1, &why);

	tap_ok(!t && !strcmp(why, want), "%s: refused (%s)", what, why);
	rpl_tix_free(t);
}

static void damaged(void)
{
	struct blob x = make_blob((uint32_t[]){ 0, 1, 2 }, 3, 0), y;
	const char *why = "";
	struct rpl_tindex *t = rpl_tix_deserialize(x.b, x.n, 1, &why);
	uint32_t pc = 5 << RPL_TIX_CODE_SHIFT;
	uint8_t *buf;
	size_t n;
	int ok = 0, crashed = 0;

	tap_ok(t && rpl_tix_last_hit(t, 2, &pc, 1, NULL, 0) == 1 &&
		   rpl_tix_first_hit(t, 2, &pc, 1, NULL, 0) == 3 &&
		   rpl_tix_last_hit(t, 3, &pc, 1, NULL, 0) == 3,
	       "a hand-made index (slots 0, 1, 3) reads back: %s", t ? "yes" : why);
	rpl_tix_free(t);
	refused(make_blob((uint32_t[]){ 0, 1, 0 }, 3, 0),
		"has a list out of order or past its slots", "a slot twice");
	refused(make_blob((uint32_t[]){ 0, 4 }, 2, 0), "has a list out of order or past its slots",
		"a slot past the last");
	refused(make_blob(NULL, 0, 0), "has a list that is empty, too long or repeated",
		"an empty list");
	refused(make_blob((uint32_t[]){ 1 }, 1, 5),
		"has a list that is empty, too long or repeated", "a key twice");
	refused(make_blob((uint32_t[]){ 1 }, 1, UINT32_MAX),
		"has a list that is empty, too long or repeated", "key 2^32 - 1");
	y = make_blob((uint32_t[]){ 1 }, 1, 0);
	y.b[y.n++] = 0;
	refused(y, "has bytes after its end", "a byte after the end");
	y = make_blob((uint32_t[]){ 1 }, 1, 0);
	y.b[24 + 16] = 5; /* slot 2 starts at step 5, slot 3 at 3 */
	refused(y, "has slots out of order", "slot starts out of order");
	y = make_blob((uint32_t[]){ 1 }, 1, 0);
	y.b[16] = 0xff; /* 255 slots */
	refused(y, "counts more slots than it holds", "too many slots");
	y = make_blob((uint32_t[]){ 1 }, 1, 0);
	y.b[56 + 4] = 0x10; /* a list count of 2^36 + 1 */
	refused(y, "counts more lists than it holds", "too many lists");
	y = make_blob((uint32_t[]){ 1, 1 }, 2, 0);
	y.b[64 + 5] = 1; /* a length of 258, two slots there */
	refused(y, "has a list that is empty, too long or repeated",
		"a list longer than its bytes");
	y = make_blob((uint32_t[]){ 1, 1 }, 2, 7);
	y.n = 80 + 6; /* cut in the second list's length */
	refused(y, "ends early", "a list cut short");

	/* random damage to a real one: refused, or a well-formed index that answers */
	t = one_line(3000, 3);
	rpl_tix_access(t, 3000, 0x20000040, 4, 1);
	n = rpl_tix_serialize(t, &buf);
	rpl_tix_free(t);
	for (int k = 0; k < 3000; k++) {
		uint8_t *c = malloc(n);
		size_t len = k % 10 == 9 ? rnd((uint32_t)n) : n;
		struct rpl_tix_range w = { 0x20000040, 4, 1, 1 };

		memcpy(c, buf, n);
		for (int f = 1 + (int)rnd(3); f; f--)
			c[rnd((uint32_t)n)] ^= (uint8_t)(1u << rnd(8));
		t = rpl_tix_deserialize(c, len, 1, &why);
		if (t) {
			size_t last = rpl_tix_slots(t) - 1;

			ok++;
			crashed += rpl_tix_last_hit(t, last, &pc, 1, &w, 1) > (long)last ||
				   rpl_tix_first_hit(t, 0, &pc, 1, &w, 1) > (long)last;
		}
		rpl_tix_free(t);
		free(c);
	}
	tap_ok(!crashed,
	       "3000 damaged copies: %d read as well-formed, all answers within their slots", ok);
	free(buf);
}

int main(void)
{
	struct rpl_tindex *t = rpl_tix_new(100);

	tap_is_int(rpl_tix_last_hit(t, 0, (uint32_t[]){ 0x100 }, 1, NULL, 0), -1,
		   "an empty index: no hit");
	tap_is_int(rpl_tix_slot_of(t, 0), 0, "an empty index: slot 0 from step 0");
	rpl_tix_free(t);
	run(1, 300);
	run(7, 3000);
	run(64, 20000);
	sizes();
	damaged();
	model();
	return tap_done();
}

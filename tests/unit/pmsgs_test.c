/*
 * pmsgs_test: the packed decoded-path lists (replay/pmsgs.h) against the
 * plain array of the same messages: every message and key comes back as
 * it went in, read forward from the start, from anywhere (a reader that
 * goes back, as after a checkpoint restore, or starts inside a chunk),
 * with the list growing between reads; the nth gap found where a scan of
 * the plain array finds it; and the bytes a message takes bounded on a
 * path shaped like a trace's (loops: small counts, few targets, byte
 * offsets that grow).
 */
#include <stdlib.h>
#include <string.h>

#include "replay/pmsgs.h"
#include "tests/unit/tap.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* a value of any size, small ones most often */
static uint64_t any(void)
{
	switch (rnd() % 4) {
	case 0: return rnd() % 4;
	case 1: return rnd() % 300;
	case 2: return rnd() % (1u << 20);
	default: return rnd();
	}
}

/* A message of any kind with any fields (a kind past CFW_P_END too), on core. */
static struct cfw_pmsg wild(int core)
{
	return (struct cfw_pmsg){.n = any(),
				 .at = any(),
				 .ta = (uint32_t)any(),
				 .exc = (uint16_t)any(),
				 .core = (uint8_t)core,
				 .kind = (uint8_t)(rnd() % 8 ? rnd() % 5 : rnd() % 256)};
}

/* A message as etmpath.c makes them: a loop's, mostly. */
static struct cfw_pmsg traced(int core, uint64_t *at, uint64_t *key)
{
	static const uint32_t loops[] = {0x1c4, 0x1e0, 0x22a, 0x400, 0x41c, 0x8f0};
	unsigned r = (unsigned)(rnd() % 100);
	struct cfw_pmsg m = {.n = 1 + rnd() % 40, .core = (uint8_t)core};

	*at += rnd() % 4;
	m.at = *at;
	if (r < 90) {
		m.kind = CFW_P_BRANCH;
		m.ta = r < 80 ? loops[rnd() % 6] : 0x400 + (uint32_t)(rnd() % 0x4000) * 2;
	} else if (r < 96) {
		m.kind = CFW_P_EXC;
		m.exc = (uint16_t)(16 + rnd() % 8);
		m.n = rnd() % 3;
	} else if (r < 98) {
		m.kind = CFW_P_TAIL;
		m.exc = (uint16_t)(11 + rnd() % 8);
	} else {
		m.kind = CFW_P_GAP;
		m.ta = 0x400 + (uint32_t)(rnd() % 0x4000) * 2;
	}
	*key += m.n + rnd() % 13;
	return m;
}

static int same(const struct cfw_pmsg *a, const struct cfw_pmsg *b)
{
	return a->n == b->n && a->at == b->at && a->ta == b->ta && a->exc == b->exc &&
	       a->core == b->core && a->kind == b->kind;
}

/* Read l from k on, len messages, against v/keys; the first index that differs or -1. */
static int64_t check_from(struct rpl_pcur *c, const struct rpl_pmsgs *l, uint64_t k, uint64_t len,
			  const struct cfw_pmsg *v, const uint64_t *keys, uint64_t n)
{
	const struct cfw_pmsg *m;
	uint64_t key;

	rpl_pcur_init(c, l, k);
	for (; len--; k++, rpl_pcur_skip(c)) {
		m = rpl_pcur_peek(c, &key);
		if (k >= n)
			return m ? (int64_t)k : -1;
		if (!m || !same(m, &v[k]) || key != keys[k])
			return (int64_t)k;
	}
	return -1;
}

static void roundtrip(const char *what, int wild_ones, uint64_t n)
{
	struct cfw_pmsg *v = malloc(n * sizeof(*v));
	uint64_t *keys = malloc(n * sizeof(*keys)), at = 0, key = 0, gaps = 0;
	struct rpl_pcur *c = malloc(sizeof(*c));
	struct rpl_pmsgs l;
	int64_t bad = -1;
	int ok;

	rpl_pmsgs_init(&l, 3);
	for (uint64_t i = 0; i < n; i++) {
		v[i] = wild_ones ? wild(3) : traced(3, &at, &key);
		keys[i] = wild_ones ? any() : key;
		rpl_pmsgs_push(&l, &v[i], keys[i]);
		gaps += v[i].kind == CFW_P_GAP;
		/* a reader of the list as it grows: the open chunk, then packed */
		if (i % 977 == 0 && bad < 0)
			bad = check_from(c, &l, i - i % 7, i % 7 + 2, v, keys, i + 1);
	}
	tap_ok(bad < 0, "%s: read while the list grows (%lld)", what, (long long)bad);
	tap_ok(rpl_pmsgs_count(&l) == n, "%s: %llu messages held", what, (unsigned long long)n);
	bad = check_from(c, &l, 0, n + 1, v, keys, n);
	tap_ok(bad < 0, "%s: read forward, every message and key (%lld)", what, (long long)bad);
	/* back and forth: a reader started anywhere, as the walk is after a restore */
	for (int i = 0; i < 500 && bad < 0; i++) {
		uint64_t k = rnd() % (n + 1);

		bad = check_from(c, &l, k, rnd() % (3 * RPL_PCHUNK), v, keys, n);
	}
	tap_ok(bad < 0, "%s: 500 reads from anywhere (%lld)", what, (long long)bad);
	ok = 1;
	for (uint64_t g = 0, k = 0; g <= gaps && ok; g++, k++) {
		while (k < n && v[k].kind != CFW_P_GAP)
			k++;
		ok = rpl_pmsgs_find_gap(&l, g) == (k < n ? k : UINT64_MAX);
	}
	tap_ok(ok, "%s: each of the %llu gaps found, none past them", what,
	       (unsigned long long)gaps);
	if (!wild_ones) {
		double per =
		    l.nchunks ? (double)l.packed_bytes / ((double)l.nchunks * RPL_PCHUNK) : 0.0;

		/* the plain messages took 32 bytes each (24 and the key) */
		tap_ok(per <= 6.0, "%s: %.2f bytes a packed message, 6 at most", what, per);
		tap_ok(rpl_pmsgs_bytes(&l) <= n * 6 + 16384, "%s: %llu bytes held in all", what,
		       (unsigned long long)rpl_pmsgs_bytes(&l));
	}
	rpl_pmsgs_release(&l);
	tap_ok(rpl_pmsgs_count(&l) == 0 && l.core == 3, "%s: released, empty", what);
	free(c);
	free(keys);
	free(v);
}

int main(void)
{
	struct rpl_pmsgs l;
	struct rpl_pcur c;
	struct cfw_pmsg m = {.n = 5, .kind = CFW_P_BRANCH, .ta = 0x100, .core = 1};

	rpl_pmsgs_init(&l, 1);
	rpl_pcur_init(&c, &l, 0);
	tap_ok(!rpl_pcur_peek(&c, NULL), "an empty list has nothing to read");
	tap_ok(rpl_pmsgs_find_gap(&l, 0) == UINT64_MAX, "nor a gap");
	rpl_pmsgs_push(&l, &m, 7);
	tap_ok(rpl_pcur_peek(&c, NULL) && same(rpl_pcur_peek(&c, NULL), &m),
	       "a reader at the end reads what is pushed after it");
	rpl_pmsgs_release(&l);
	roundtrip("traced", 0, 300000);
	roundtrip("any fields", 1, 100000);
	roundtrip("one chunk exactly", 0, RPL_PCHUNK);
	roundtrip("a partial chunk", 0, 100);
	return tap_done();
}

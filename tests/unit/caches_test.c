/*
 * caches_test: the mlvCFiat FA-flag caches (caches/fa.c) and the mc2RT MOESI
 * trace-bit caches (caches/mc2rt.c), against access sequences worked out by
 * hand from CFAT Fig. 3, mc2RT Fig. 5-6 and DESIGN.md section 4.
 *
 * Most FA tests use a small cache so sets are easy to hit on purpose:
 * 256 bytes, 2-way, 16-byte lines = 8 sets, set = (addr >> 4) & 7, so
 * 0x000, 0x080, 0x100, 0x180 share set 0.
 */
#include <stdlib.h>
#include <string.h>

#include "caches/fa.h"
#include "caches/mc2rt.h"
#include "tests/unit/capture.h"
#include "tests/unit/tap.h"

/*
 * A refused call, made after capture_start() (so the capture ends here,
 * once the call has returned rc): -1 and an error message containing want.
 */
static void refused(int rc, const char *want, const char *name)
{
	const char *msg = capture_end();

	if (!tap_ok(rc == -1 && strstr(msg, want), "%s: \"%s\"", name, want))
		tap_diag("rc %d, message: %s", rc, msg);
}

/*
 * A configuration check, made after capture_start(): valid when err is NULL
 * (0, nothing printed), else refused with err in the message.
 */
static void check_config(int rc, const char *err, const char *desc)
{
	const char *msg = capture_end();

	if (!err)
		tap_ok(rc == 0 && !*msg, "%s is valid", desc);
	else if (!tap_ok(rc == -1 && strstr(msg, err), "%s: error says \"%s\"", desc, err))
		tap_diag("rc %d, message: %s", rc, msg);
}

static struct dc_fa *small_fa(unsigned granule, int ncores, int shared)
{
	struct dc_fa_config cfg = {256, 2, 16, granule, ncores, shared};

	return dc_fa_new(&cfg);
}

/* ---- FA: scripted accesses ------------------------------------------------- */

struct fa_step {
	char op; /* 'L' load, 'S' store */
	int core;
	uint32_t addr;
	unsigned n;
	int miss;    /* loads: expected DC_FA_MISS */
	uint32_t ga; /* expected span on a miss */
	unsigned glen;
};

/* One test point per load: its result and, on a miss, the traced span. */
static void run_fa(struct dc_fa *fa, const char *what, const struct fa_step *s, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		uint32_t ga = 0;
		unsigned glen = 0;
		enum dc_fa_result r;
		int pass;

		if (s[i].op == 'S') {
			dc_fa_store(fa, s[i].core, s[i].addr, s[i].n);
			continue;
		}
		r = dc_fa_load(fa, s[i].core, s[i].addr, s[i].n, &ga, &glen);
		pass = s[i].miss ? r == DC_FA_MISS && ga == s[i].ga && glen == s[i].glen
				 : r == DC_FA_HIT;
		if (s[i].miss)
			tap_ok(pass,
			       "%s, step %zu: core %d load %u at 0x%x misses, traces [0x%x, +%u)",
			       what, i + 1, s[i].core, s[i].n, s[i].addr, s[i].ga, s[i].glen);
		else
			tap_ok(pass, "%s, step %zu: core %d load %u at 0x%x hits", what, i + 1,
			       s[i].core, s[i].n, s[i].addr);
		if (!pass)
			tap_diag("got %s, span [0x%x, +%u)", r == DC_FA_HIT ? "HIT" : "MISS", ga,
				 glen);
	}
}

/* A uint64_t counter of a stats struct, by name and offset. */
struct counter {
	const char *name;
	size_t off;
};
#define COUNTER(type, field)                                                                       \
	{                                                                                          \
		(#field), offsetof(type, field)                                                    \
	}

static const struct counter fa_counters[] = {
    COUNTER(struct dc_fa_stats, loads),		COUNTER(struct dc_fa_stats, load_hits),
    COUNTER(struct dc_fa_stats, fa_misses),	COUNTER(struct dc_fa_stats, line_misses),
    COUNTER(struct dc_fa_stats, stores),	COUNTER(struct dc_fa_stats, store_misses),
    COUNTER(struct dc_fa_stats, invalidations), COUNTER(struct dc_fa_stats, writebacks),
    COUNTER(struct dc_fa_stats, traced_bytes),
};

static const struct counter mc_counters[] = {
    COUNTER(struct dc_mc2rt_stats, reads),	   COUNTER(struct dc_mc2rt_stats, trace_hits),
    COUNTER(struct dc_mc2rt_stats, trace_misses),  COUNTER(struct dc_mc2rt_stats, read_misses),
    COUNTER(struct dc_mc2rt_stats, peer_supplied), COUNTER(struct dc_mc2rt_stats, writes),
    COUNTER(struct dc_mc2rt_stats, write_misses),  COUNTER(struct dc_mc2rt_stats, invalidations),
    COUNTER(struct dc_mc2rt_stats, writebacks),
};

/* Compare every counter; one test point, the differing fields as diagnostics. */
static void check_counters(const void *got, const void *want, const struct counter *f, size_t n,
			   const char *what)
{
	int pass = 1;

	for (size_t i = 0; i < n; i++) {
		uint64_t g, w;

		memcpy(&g, (const char *)got + f[i].off, sizeof(g));
		memcpy(&w, (const char *)want + f[i].off, sizeof(w));
		if (g != w) {
			if (pass)
				tap_diag("%s:", what);
			tap_diag("  %s: got %llu, expected %llu", f[i].name, (unsigned long long)g,
				 (unsigned long long)w);
			pass = 0;
		}
	}
	tap_ok(pass, "%s", what);
}

static void check_fa_stats(const struct dc_fa *fa, int core, const struct dc_fa_stats *want,
			   const char *what)
{
	struct dc_fa_stats got;

	dc_fa_stats(fa, core, &got);
	check_counters(&got, want, fa_counters, ARRAY_SIZE(fa_counters), what);
}

/* ---- FA: configuration ----------------------------------------------------- */

static void test_fa_config_check(void)
{
	struct dc_fa_config d;

	dc_fa_config_init(&d);
	tap_ok(d.size == 32768 && d.assoc == 4 && d.line == 32 && d.granule == 4 && d.ncores == 1 &&
		   d.shared == 0,
	       "defaults: 32 KiB, 4-way, 32-byte lines, 4-byte granules, 1 core, private");

	static const struct {
		struct dc_fa_config cfg;
		const char *err; /* NULL: valid; else a part of the message */
	} v[] = {
	    {{32768, 4, 32, 4, 1, 0}, NULL},
	    {{256, 8, 32, 4, 8, 0}, NULL},    /* fully associative, 8 cores */
	    {{4, 1, 4, 1, 2, 1}, NULL},	      /* one 4-byte line */
	    {{65536, 1, 256, 1, 1, 0}, NULL}, /* 256 flags a line */
	    {{32768, 4, 2, 1, 1, 0}, "line 2 "},
	    {{32768, 4, 48, 4, 1, 0}, "line 48 "},
	    {{32768, 4, 512, 4, 1, 0}, "line 512 "},
	    {{3000, 4, 32, 4, 1, 0}, "size 3000 "},
	    {{16, 1, 32, 4, 1, 0}, "size 16 "},
	    {{0, 1, 32, 4, 1, 0}, "size 0 "},
	    {{1u << 30, 4, 32, 4, 1, 0}, "size 1073741824 "},
	    {{32768, 3, 32, 4, 1, 0}, "assoc 3 "},
	    {{32768, 0, 32, 4, 1, 0}, "assoc 0 "},
	    {{32768, 2048, 32, 4, 1, 0}, "assoc 2048 is not a power of two <= 1024"},
	    {{32768, 4, 32, 3, 1, 0}, "granule 3 "},
	    {{32768, 4, 32, 16, 1, 0}, "granule 16 "},
	    {{32768, 4, 32, 0, 1, 0}, "granule 0 "},
	    {{32, 1, 4, 8, 1, 0}, "granule 8 is larger than the line (4)"},
	    {{32768, 4, 32, 4, 0, 0}, "ncores 0 "},
	    {{32768, 4, 32, 4, 9, 0}, "ncores 9 "},
	    {{32768, 4, 32, 4, -1, 0}, "ncores -1 "},
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		const struct dc_fa_config *c = &v[i].cfg;
		char desc[96];

		snprintf(desc, sizeof(desc), "config %u/%u/%u/g%u/%d cores", c->size, c->assoc,
			 c->line, c->granule, c->ncores);
		capture_start();
		check_config(dc_fa_config_check(c), v[i].err, desc);
	}

	error_quiet(1);
	tap_ok(!dc_fa_new(&v[4].cfg), "dc_fa_new refuses a bad configuration");
	error_quiet(-1);
}

static void test_fa_config_parse(void)
{
	static const struct {
		const char *s;
		uint32_t size, assoc, line, granule;
	} ok[] = {
	    /* every case starts from {1024, 2, 16, 1} */
	    {"size=32768,assoc=4,line=32,granule=4", 32768, 4, 32, 4},
	    {"size=32K", 32768, 2, 16, 1},
	    {"size=8k", 8192, 2, 16, 1},
	    {"granule=8,size=0x4000", 16384, 2, 16, 8},
	    {"line=0X40", 1024, 2, 64, 1},
	    {" line = 64 , assoc=2 ", 1024, 2, 64, 1},
	    {"line=010", 1024, 2, 10, 1}, /* decimal, not octal */
	    {"size=0x2K", 2048, 2, 16, 1},
	    {"assoc=4294967295", 1024, 4294967295u, 16, 1},
	};

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		struct dc_fa_config c = {1024, 2, 16, 1, 3, 1};
		int rc = dc_fa_config_parse(ok[i].s, &c);

		if (!tap_ok(rc == 0 && c.size == ok[i].size && c.assoc == ok[i].assoc &&
				c.line == ok[i].line && c.granule == ok[i].granule &&
				c.ncores == 3 && c.shared == 1,
			    "parse \"%s\"", ok[i].s))
			tap_diag("rc %d: size=%u,assoc=%u,line=%u,granule=%u", rc, c.size, c.assoc,
				 c.line, c.granule);
	}

	static const struct {
		const char *s, *item; /* the error quotes s and the bad item */
	} bad[] = {
	    {"size=32M", "\"size=32M\""},
	    {"size=32K,assoc=4K", "\"assoc=4K\""}, /* K only for size */
	    {"line=32,colour=3", "\"colour=3\""},
	    {"size", "\"size\""},
	    {"size=", "\"size=\""},
	    {"size=-1", "\"size=-1\""},
	    {"line=0x", "\"line=0x\""},
	    {"line=1e3", "\"line=1e3\""},
	    {"size=1,,line=32", "\"\""},
	    {"size=1,", "\"\""},
	    {"size=4294967296", "\"size=4294967296\""},
	    {"size=4194304K", "\"size=4194304K\""},
	    {"line=32,line=64", "\"line=64\""},
	    {"", "empty"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct dc_fa_config c = {1024, 2, 16, 1, 3, 1};
		char quoted[96];
		const char *msg;
		int rc;

		snprintf(quoted, sizeof(quoted), "\"%s\"", bad[i].s);
		capture_start();
		rc = dc_fa_config_parse(bad[i].s, &c);
		msg = capture_end();
		if (!tap_ok(rc == -1 && (!*bad[i].s || strstr(msg, quoted)) &&
				strstr(msg, bad[i].item) && c.size == 1024 && c.assoc == 2 &&
				c.line == 16 && c.granule == 1,
			    "parse \"%s\" fails naming %s, config untouched", bad[i].s,
			    bad[i].item))
			tap_diag("rc %d, message: %s", rc, msg);
	}
}

static void test_fa_config_format(void)
{
	static const struct dc_fa_config v[] = {
	    {32768, 4, 32, 4, 1, 0},
	    {256, 2, 16, 1, 2, 0},
	    {65536, 1, 256, 8, 4, 1},
	};
	struct dc_fa_config d;
	char buf[96];

	dc_fa_config_init(&d);
	dc_fa_config_format(&d, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "size=32768,assoc=4,line=32,granule=4"), "format of the defaults: %s",
	       buf);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		struct dc_fa_config back = {1, 1, 1, 1, v[i].ncores, v[i].shared};

		dc_fa_config_format(&v[i], buf, sizeof(buf));
		tap_ok(dc_fa_config_parse(buf, &back) == 0 && !memcmp(&back, &v[i], sizeof(back)),
		       "format \"%s\" parses back to the same config", buf);
	}
}

/* ---- FA: loads and stores -------------------------------------------------- */

static void test_fa_granules(void)
{
	/* granule 4: a byte load traces its whole word, so the word load hits */
	static const struct fa_step g4[] = {
	    {'L', 0, 0x1000, 4, 1, 0x1000, 4}, /* first load: line miss */
	    {'L', 0, 0x1000, 4, 0, 0, 0},      /* second: hit */
	    {'L', 0, 0x2001, 1, 1, 0x2000, 4}, /* byte: the whole granule */
	    {'L', 0, 0x2000, 4, 0, 0, 0},      /* word of that granule: hit */
	    {'L', 0, 0x2003, 1, 0, 0, 0},
	    {'L', 0, 0x2006, 2, 1, 0x2004, 4}, /* halfword in the next granule */
	    {'L', 0, 0x2003, 2, 0, 0, 0},      /* 0x2003..0x2004: both granules known */
	    {'L', 0, 0x2007, 2, 1, 0x2004, 8}, /* 0x2007..0x2008: 0x2008 unknown, both traced */
	    {'L', 0, 0x2004, 8, 0, 0, 0},
	};
	/* granule 1: the byte load knows one byte only, the word load misses */
	static const struct fa_step g1[] = {
	    {'L', 0, 0x2001, 1, 1, 0x2001, 1}, /* the byte alone */
	    {'L', 0, 0x2001, 1, 0, 0, 0},      /* known now */
	    {'L', 0, 0x2000, 4, 1, 0x2000, 4}, /* three bytes of the word are not */
	    {'L', 0, 0x2000, 4, 0, 0, 0},      /* the word is known now */
	    {'L', 0, 0x2002, 2, 0, 0, 0},      /* and so is each part */
	    {'L', 0, 0x2003, 2, 1, 0x2003, 2}, /* 0x2004 is not */
	};
	/* granule 8: a word at 4 mod 8 traces the doubleword, 6 mod 8 two of them */
	static const struct fa_step g8[] = {
	    {'L', 0, 0x3004, 4, 1, 0x3000, 8},	/* the doubleword */
	    {'L', 0, 0x3000, 8, 0, 0, 0},	/* known now */
	    {'L', 0, 0x300e, 4, 1, 0x3008, 16}, /* spans granules and lines 0x3000/0x3010 */
	    {'L', 0, 0x3008, 8, 0, 0, 0},	/* both granules known */
	    {'L', 0, 0x3010, 8, 0, 0, 0},
	};
	struct dc_fa *fa;

	fa = small_fa(4, 1, 0);
	run_fa(fa, "granule 4", g4, ARRAY_SIZE(g4));
	dc_fa_free(fa);
	fa = small_fa(1, 1, 0);
	run_fa(fa, "granule 1", g1, ARRAY_SIZE(g1));
	dc_fa_free(fa);
	fa = small_fa(8, 1, 0);
	run_fa(fa, "granule 8", g8, ARRAY_SIZE(g8));
	dc_fa_free(fa);
}

static void test_fa_spans(void)
{
	/* 16-byte lines, granule 4: 0x700e..0x7011 covers lines 0x7000 and 0x7010 */
	static const struct fa_step s[] = {
	    {'L', 0, 0x700e, 4, 1, 0x700c, 8}, /* both lines miss */
	    {'L', 0, 0x700c, 4, 0, 0, 0},
	    {'L', 0, 0x7010, 4, 0, 0, 0},
	    {'L', 0, 0x700e, 4, 0, 0, 0},
	    {'L', 0, 0x7008, 4, 1, 0x7008, 4},
	    {'L', 0, 0x701e, 4, 1, 0x701c, 8}, /* line 0x7010 hits, 0x7020 misses */
	    {'L', 0, 0x701c, 4, 0, 0, 0},
	    {'L', 0, 0x7012, 8, 1, 0x7010, 12}, /* 0x7010 known, 0x7014/0x7018 not */
	    {'L', 0, 0x7014, 8, 0, 0, 0},
	    {'L', 0, 0x702e, 4, 1, 0x702c, 8}, /* lines hit and miss, no flags */
	    {'L', 0, 0x702c, 8, 0, 0, 0},
	};
	struct dc_fa *fa = small_fa(4, 1, 0);
	struct dc_fa_stats want = {0};

	run_fa(fa, "two-line spans", s, ARRAY_SIZE(s));
	want.loads = 11;
	want.load_hits = 6;
	want.line_misses = 3; /* loads with a line miss, not lines */
	want.fa_misses = 2;
	want.traced_bytes = 8 + 4 + 8 + 12 + 8;
	check_fa_stats(fa, 0, &want, "two-line spans: counters");
	dc_fa_free(fa);

	/* a traced value never exceeds DC_FA_MAX_SPAN bytes */
	uint32_t ga;
	unsigned glen, maxlen = 0;

	fa = small_fa(8, 1, 0);
	for (uint32_t a = 0x4000; a < 0x4020; a++)
		for (unsigned n = 1; n <= 8; n++) {
			dc_fa_reset(fa);
			if (dc_fa_load(fa, 0, a, n, &ga, &glen) == DC_FA_MISS && glen > maxlen)
				maxlen = glen;
		}
	tap_ok(maxlen == 16 && maxlen <= DC_FA_MAX_SPAN,
	       "granule 8: the widest traced span is 16 bytes (got %u)", maxlen);
	tap_ok(dc_fa_load(fa, 0, 0x4001, 8, NULL, NULL) == DC_FA_MISS &&
		   dc_fa_load(fa, 0, 0x4000, 8, NULL, NULL) == DC_FA_HIT,
	       "ga and glen may be NULL");
	dc_fa_free(fa);

	/*
	 * An access that runs past 4 GiB (never cacheable on Cortex-M, but
	 * nothing stops a caller): the span is reported from its start and its
	 * length is exact; the bytes past the top live in a line of their own.
	 */
	static const struct fa_step top[] = {
	    {'L', 0, 0xfffffffe, 4, 1, 0xfffffffc, 8}, /* two granules, two lines */
	    {'L', 0, 0xfffffffe, 4, 0, 0, 0},	       /* known now */
	    {'L', 0, 0xfffffffc, 4, 0, 0, 0},	       /* the first granule alone */
	    {'S', 0, 0xfffffffd, 8, 0, 0, 0},	       /* covers only the granule past the top */
	    {'L', 0, 0xfffffff8, 8, 1, 0xfffffff8, 8}, /* 0xfffffff8 still unknown */
	};
	fa = small_fa(4, 2, 0);
	run_fa(fa, "past 4 GiB", top, ARRAY_SIZE(top));
	dc_fa_free(fa);
}

static void test_fa_stores(void)
{
	static const struct fa_step s[] = {
	    /* a partial store allocates the line but knows no whole granule */
	    {'S', 0, 0x4001, 1, 0, 0, 0},
	    {'L', 0, 0x4001, 1, 1, 0x4000, 4},
	    {'L', 0, 0x4000, 4, 0, 0, 0},
	    /* a partial store into a known granule keeps its flag */
	    {'S', 0, 0x4002, 2, 0, 0, 0},
	    {'L', 0, 0x4000, 4, 0, 0, 0},
	    /* a full store sets the flag: the load that follows hits */
	    {'S', 0, 0x5000, 4, 0, 0, 0},
	    {'L', 0, 0x5000, 4, 0, 0, 0},
	    {'L', 0, 0x5004, 4, 1, 0x5004, 4},
	    /* unaligned word: two partial granules, nothing known */
	    {'S', 0, 0x6002, 4, 0, 0, 0},
	    {'L', 0, 0x6000, 4, 1, 0x6000, 4},
	    {'L', 0, 0x6004, 4, 1, 0x6004, 4},
	    /* unaligned doubleword 0x6102..0x6109: only 0x6104 is covered fully */
	    {'S', 0, 0x6102, 8, 0, 0, 0},
	    {'L', 0, 0x6104, 4, 0, 0, 0},
	    {'L', 0, 0x6100, 4, 1, 0x6100, 4},
	    {'L', 0, 0x6108, 4, 1, 0x6108, 4},
	    /* a store across lines 0x6210/0x6220 sets flags in both */
	    {'S', 0, 0x621c, 8, 0, 0, 0},
	    {'L', 0, 0x621c, 8, 0, 0, 0},
	    {'L', 0, 0x6218, 4, 1, 0x6218, 4},
	    {'L', 0, 0x6224, 4, 1, 0x6224, 4},
	};
	static const struct fa_step s1[] = {
	    /* granule 1: every byte written is known */
	    {'S', 0, 0x4001, 1, 0, 0, 0},      /* store miss: allocate, flag 1 */
	    {'L', 0, 0x4001, 1, 0, 0, 0},      /* the stored byte is known */
	    {'L', 0, 0x4000, 2, 1, 0x4000, 2}, /* its neighbour is not */
	    {'S', 0, 0x400f, 2, 0, 0, 0},      /* across lines 0x4000 and 0x4010 */
	    {'L', 0, 0x400f, 2, 0, 0, 0},      /* both bytes known */
	};
	struct dc_fa *fa = small_fa(4, 1, 0);
	struct dc_fa_stats st;

	run_fa(fa, "stores, granule 4", s, ARRAY_SIZE(s));
	dc_fa_stats(fa, 0, &st);
	tap_ok(st.stores == 6 && st.store_misses == 5, "stores 6, store misses 5 (got %llu, %llu)",
	       (unsigned long long)st.stores, (unsigned long long)st.store_misses);
	dc_fa_free(fa);
	fa = small_fa(1, 1, 0);
	run_fa(fa, "stores, granule 1", s1, ARRAY_SIZE(s1));
	dc_fa_free(fa);
}

static void test_fa_lru(void)
{
	/* A, B, C, D: four lines of set 0 in a 2-way cache */
	enum { A = 0x000, B = 0x080, C = 0x100, D = 0x180 };
	static const struct fa_step s[] = {
	    {'L', 0, A, 4, 1, A, 4},
	    {'L', 0, B, 4, 1, B, 4},
	    {'L', 0, A, 4, 0, 0, 0}, /* A is now the most recent */
	    {'L', 0, C, 4, 1, C, 4}, /* evicts B, the LRU one */
	    {'L', 0, A, 4, 0, 0, 0},
	    {'L', 0, C, 4, 0, 0, 0},
	    {'L', 0, B, 4, 1, B, 4}, /* gone: misses, evicts A */
	    {'L', 0, C, 4, 0, 0, 0},
	    {'L', 0, A, 4, 1, A, 4}, /* evicts B */
	    /* stores update LRU too: C becomes the most recent, D evicts A */
	    {'S', 0, C + 4, 4, 0, 0, 0},
	    {'L', 0, D, 4, 1, D, 4},
	    {'L', 0, A, 4, 1, A, 4},	     /* evicts C, dirty */
	    {'L', 0, C + 4, 4, 1, C + 4, 4}, /* the stored word went with it */
	    /* other sets are untouched by all this */
	    {'L', 0, 0x010, 4, 1, 0x010, 4},
	    {'L', 0, 0x010, 4, 0, 0, 0},
	};
	struct dc_fa *fa = small_fa(4, 1, 0);
	struct dc_fa_stats st;

	run_fa(fa, "LRU in a 2-way set", s, ARRAY_SIZE(s));
	/* C was dirty (the store) and is evicted by A's last miss */
	dc_fa_stats(fa, 0, &st);
	tap_is_int(st.writebacks, 1, "the dirty line's eviction is one writeback");
	dc_fa_free(fa);

	/* direct-mapped, two sets of 8-byte lines: a span evicts two lines */
	struct dc_fa_config cfg = {16, 1, 8, 4, 1, 0};
	static const struct fa_step dm[] = {
	    {'L', 0, 0x0006, 4, 1, 0x0004, 8},
	    {'L', 0, 0x0004, 4, 0, 0, 0},
	    {'L', 0, 0x0016, 4, 1, 0x0014, 8}, /* lines 0x10 and 0x18 evict both */
	    {'L', 0, 0x0004, 4, 1, 0x0004, 4},
	};

	fa = dc_fa_new(&cfg);
	run_fa(fa, "direct-mapped", dm, ARRAY_SIZE(dm));
	dc_fa_free(fa);

	/* one line in all: the span's second line evicts its first */
	static const struct fa_step one[] = {
	    {'L', 0, 0x0006, 4, 1, 0x0004, 8},
	    {'L', 0, 0x0008, 4, 0, 0, 0},
	    {'L', 0, 0x0004, 4, 1, 0x0004, 4},
	    {'L', 0, 0x0008, 4, 1, 0x0008, 4},
	};

	cfg.size = 8;
	fa = dc_fa_new(&cfg);
	run_fa(fa, "a one-line cache", one, ARRAY_SIZE(one));
	dc_fa_free(fa);
}

static void test_fa_wide_line(void)
{
	/* 256-byte lines of byte granules: 256 flags, four words, crossed at 64 */
	struct dc_fa_config cfg = {4096, 2, 256, 1, 1, 0};
	static const struct fa_step s[] = {
	    {'L', 0, 0x803c, 8, 1, 0x803c, 8}, /* flags 60..67 */
	    {'L', 0, 0x803c, 8, 0, 0, 0},
	    {'L', 0, 0x8043, 1, 0, 0, 0},
	    {'L', 0, 0x8044, 1, 1, 0x8044, 1},
	    {'L', 0, 0x803b, 1, 1, 0x803b, 1},
	    {'L', 0, 0x80fc, 8, 1, 0x80fc, 8}, /* flags 252..255, next line 0..3 */
	    {'L', 0, 0x80fe, 4, 0, 0, 0},
	    {'L', 0, 0x80bf, 2, 1, 0x80bf, 2}, /* 191/192: words 2 and 3 */
	    {'L', 0, 0x80c0, 1, 0, 0, 0},
	    {'S', 0, 0x8180, 8, 0, 0, 0},
	    {'L', 0, 0x817f, 4, 1, 0x817f, 4},
	    {'L', 0, 0x8180, 8, 0, 0, 0},
	};
	struct dc_fa *fa = dc_fa_new(&cfg);

	run_fa(fa, "256-byte lines, granule 1", s, ARRAY_SIZE(s));
	dc_fa_free(fa);
}

/* ---- FA: several cores ----------------------------------------------------- */

static void test_fa_coherence(void)
{
	enum { X = 0x1240, Y = 0x1250 };
	static const struct fa_step s[] = {
	    {'L', 0, X, 4, 1, X, 4},	  /* first load: line miss */
	    {'L', 0, X, 4, 0, 0, 0},	  /* then a hit */
	    {'L', 1, X, 4, 1, X, 4},	  /* core 1 has its own cache */
	    {'L', 0, X, 4, 0, 0, 0},	  /* a load does not invalidate */
	    {'S', 1, X + 8, 4, 0, 0, 0},  /* core 1 writes X: core 0 loses it */
	    {'L', 0, X, 4, 1, X, 4},	  /* invalidated: line miss */
	    {'L', 1, X + 8, 4, 0, 0, 0},  /* the writer keeps its copy */
	    {'L', 1, X, 4, 0, 0, 0},	  /* with its flags */
	    {'S', 0, X + 12, 8, 0, 0, 0}, /* X and Y: core 1 loses X */
	    {'L', 1, X, 4, 1, X, 4},	  /* so its next load is traced */
	    {'L', 0, X + 12, 4, 0, 0, 0}, /* the writer knows the words it wrote */
	    {'L', 0, Y, 4, 0, 0, 0},	  /* in both lines */
	};
	struct dc_fa *fa = small_fa(4, 2, 0);
	struct dc_fa_stats st0, st1;

	run_fa(fa, "coherence, 2 private caches", s, ARRAY_SIZE(s));
	dc_fa_stats(fa, 0, &st0);
	dc_fa_stats(fa, 1, &st1);
	tap_ok(st0.invalidations == 1 && st1.invalidations == 1,
	       "each core lost one line to the other's store (got %llu, %llu)",
	       (unsigned long long)st0.invalidations, (unsigned long long)st1.invalidations);
	/* core 1's X was dirty from its store when core 0's store dropped it */
	tap_ok(st0.writebacks == 0 && st1.writebacks == 1,
	       "the dirty copy's invalidation is a writeback of its owner (got %llu, %llu)",
	       (unsigned long long)st0.writebacks, (unsigned long long)st1.writebacks);
	dc_fa_free(fa);

	/* three cores: one store drops two copies */
	static const struct fa_step s3[] = {
	    {'L', 0, X, 4, 1, X, 4},
	    {'L', 2, X, 4, 1, X, 4},
	    {'S', 1, X, 1, 0, 0, 0},
	    {'L', 0, X, 4, 1, X, 4},
	    {'L', 2, X, 4, 1, X, 4},
	    {'L', 1, X, 4, 1, X, 4}, /* its byte store left the granule unknown */
	    {'L', 1, X, 4, 0, 0, 0},
	};
	struct dc_fa_stats all;

	fa = small_fa(4, 3, 0);
	run_fa(fa, "coherence, 3 private caches", s3, ARRAY_SIZE(s3));
	dc_fa_stats(fa, 3, &all);
	tap_ok(all.invalidations == 2 && all.writebacks == 0,
	       "3 cores: 2 invalidations, no writeback (got %llu, %llu)",
	       (unsigned long long)all.invalidations, (unsigned long long)all.writebacks);
	dc_fa_free(fa);
}

static void test_fa_shared(void)
{
	enum { X = 0x1240 };
	static const struct fa_step s[] = {
	    {'L', 0, X, 4, 1, X, 4},
	    {'L', 1, X, 4, 0, 0, 0}, /* one cache: core 1 finds core 0's line */
	    {'S', 1, X + 4, 4, 0, 0, 0},
	    {'L', 0, X, 4, 0, 0, 0}, /* no invalidation */
	    {'L', 0, X + 4, 4, 0, 0, 0},
	    {'L', 1, X + 8, 4, 1, X + 8, 4},
	    {'L', 0, X + 8, 4, 0, 0, 0},
	};
	struct dc_fa *fa = small_fa(4, 2, 1);
	struct dc_fa_stats st0, st1, all;

	run_fa(fa, "shared cache", s, ARRAY_SIZE(s));
	dc_fa_stats(fa, 0, &st0);
	dc_fa_stats(fa, 1, &st1);
	dc_fa_stats(fa, 2, &all);
	tap_ok(st0.loads == 4 && st1.loads == 2 && st1.stores == 1 && all.loads == 6 &&
		   all.load_hits == 4 && all.invalidations == 0,
	       "shared cache: counted per accessing core, no invalidations");
	tap_is_int(dc_fa_get_config(fa)->shared, 1, "dc_fa_get_config reports shared");
	dc_fa_free(fa);
}

static void test_fa_stats(void)
{
	/*
	 * set 0 holds 0x000, 0x080 and 0x100; 0x110 is in set 1. The per-core
	 * totals are below the script, counted by hand.
	 */
	static const struct fa_step s[] = {
	    {'L', 0, 0x100, 4, 1, 0x100, 4}, /* c0 line miss */
	    {'L', 0, 0x100, 4, 0, 0, 0},     /* c0 hit */
	    {'L', 0, 0x104, 2, 1, 0x104, 4}, /* c0 FA miss */
	    {'S', 1, 0x100, 4, 0, 0, 0},     /* c1 store miss; c0 loses 0x100 (clean) */
	    {'L', 0, 0x102, 4, 1, 0x100, 8}, /* c0 line miss */
	    {'L', 1, 0x100, 4, 0, 0, 0},     /* c1 hit: it stored that word */
	    {'L', 1, 0x104, 4, 1, 0x104, 4}, /* c1 FA miss */
	    {'S', 0, 0x10e, 4, 0, 0, 0}, /* c0: 0x100 hits, 0x110 misses; c1 loses 0x100 (dirty) */
	    {'L', 0, 0x10c, 4, 1, 0x10c, 4}, /* c0 FA miss: the store covered no whole granule */
	    {'L', 0, 0x110, 4, 1, 0x110, 4}, /* c0 FA miss */
	    {'L', 0, 0x000, 1, 1, 0x000, 4}, /* c0 line miss */
	    {'L', 0, 0x080, 1, 1, 0x080, 4}, /* c0 line miss, evicts dirty 0x100 */
	};
	/*
	 * Per core, then all cores (core = ncores). Fields in order: loads,
	 * load_hits, fa_misses, line_misses, stores, store_misses,
	 * invalidations, writebacks, traced_bytes.
	 */
	static const struct {
		const char *what;
		struct dc_fa_stats want;
	} counts[] = {
	    {"counters of core 0", {8, 1, 3, 4, 1, 1, 1, 1, 32}},
	    {"counters of core 1", {2, 1, 1, 0, 1, 1, 1, 1, 4}},
	    {"counters of all cores (core = ncores)", {10, 2, 4, 4, 2, 2, 2, 2, 36}},
	};
	static const struct dc_fa_stats zero;
	struct dc_fa *fa = small_fa(4, 2, 0);

	run_fa(fa, "counters", s, ARRAY_SIZE(s));
	for (int c = 0; c < (int)ARRAY_SIZE(counts); c++)
		check_fa_stats(fa, c, &counts[c].want, counts[c].what);

	dc_fa_reset(fa);
	check_fa_stats(fa, 2, &zero, "reset zeroes the counters");
	static const struct fa_step after[] = {
	    {'L', 0, 0x102, 4, 1, 0x100, 8},
	    {'L', 1, 0x100, 4, 1, 0x100, 4},
	};
	run_fa(fa, "after reset", after, ARRAY_SIZE(after));
	dc_fa_free(fa);
}

/* ---- FA: checkpoints ------------------------------------------------------- */

/* A pseudo-random mix of loads and stores on 2 cores, results folded into a hash. */
static uint64_t fa_churn(struct dc_fa *fa, uint64_t seed, int steps)
{
	uint64_t h = 1469598103934665603ull;

	for (int i = 0; i < steps; i++) {
		uint32_t ga = 0, a;
		unsigned glen = 0, n;
		int core;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		a = 0x2000 + (uint32_t)(seed >> 33) % 0x400;
		n = 1u << (seed >> 20) % 4;
		core = (int)(seed >> 40) & 1;
		if ((seed >> 50) % 4 == 0) {
			dc_fa_store(fa, core, a, n);
			h = (h ^ 7) * 1099511628211ull;
		} else {
			h = (h ^ (dc_fa_load(fa, core, a, n, &ga, &glen) == DC_FA_HIT)) *
			    1099511628211ull;
			h = (h ^ ga ^ (uint64_t)glen << 32) * 1099511628211ull;
		}
	}
	return h;
}

static void test_fa_checkpoint(void)
{
	struct dc_fa *a = small_fa(4, 2, 0), *b = small_fa(4, 2, 0), *g8 = small_fa(8, 2, 0);
	struct dc_fa_config c3 = {256, 2, 16, 4, 3, 0};
	struct dc_fa *n3 = dc_fa_new(&c3);
	size_t len = dc_fa_state_size(a);
	uint8_t *buf = malloc(len), *again = malloc(len);
	struct dc_fa_stats sa, sb;
	uint64_t ha, hb;

	tap_ok(len == 9 * 4 + 8 + 2 * sizeof(struct dc_fa_stats) + 32 * 16 + 32 * 8,
	       "state size: header, clock, 2 stats, 32 ways, 32 flag words (%zu)", len);
	fa_churn(a, 1, 5000);
	dc_fa_save(a, buf);
	tap_ok(dc_fa_restore(b, buf, len) == 0, "restore into a cache of the same config");
	dc_fa_save(b, again);
	tap_ok(!memcmp(buf, again, len), "save after restore gives the same bytes");
	ha = fa_churn(a, 2, 5000);
	hb = fa_churn(b, 2, 5000);
	tap_ok(ha == hb, "original and restored copy answer the same 5000 accesses");
	dc_fa_stats(a, 2, &sa);
	dc_fa_stats(b, 2, &sb);
	tap_ok(!memcmp(&sa, &sb, sizeof(sa)) && sa.loads + sa.stores == 10000,
	       "and count the same");

	/* refusals leave the state alone */
	dc_fa_save(b, buf);
	capture_start();
	refused(dc_fa_restore(g8, buf, len), "granule is 4, this cache has 8",
		"restore into granule 8 refused");
	capture_start();
	refused(dc_fa_restore(n3, buf, len), "ncores is 2, this cache has 3",
		"restore into 3 cores refused");
	capture_start();
	refused(dc_fa_restore(b, buf, len - 1), "955 bytes, expected 956",
		"a short image is refused");
	buf[0] ^= 1;
	capture_start();
	refused(dc_fa_restore(b, buf, len), "bad magic 0x31414653", "a bad magic is refused");
	buf[0] ^= 1;
	/* way 0 of core 0 is in set 0: give it a set-1 tag and mark it valid */
	{
		size_t off = 9 * 4 + 8 + 2 * sizeof(struct dc_fa_stats);
		uint32_t w[2] = {0x11, 1};

		memcpy(buf + off, w, sizeof(w));
	}
	capture_start();
	refused(dc_fa_restore(b, buf, len), "way 0 is corrupt (tag 0x11, bits 1)",
		"a way in the wrong set is refused");
	dc_fa_save(b, again);
	dc_fa_save(a, buf);
	tap_ok(!memcmp(buf, again, len), "refused restores changed nothing");

	free(buf);
	free(again);
	dc_fa_free(a);
	dc_fa_free(b);
	dc_fa_free(g8);
	dc_fa_free(n3);
}

/* ---- mc2RT ----------------------------------------------------------------- */

static void test_mc_config_check(void)
{
	static const struct {
		struct dc_mc2rt_config cfg;
		const char *err;
	} v[] = {
	    {{32768, 4, 32, 1, 0}, NULL},
	    {{256, 8, 32, 8, 1}, NULL},
	    {{32768, 4, 2, 1, 0}, "line 2 "},
	    {{32768, 4, 384, 1, 0}, "line 384 "},
	    {{100, 1, 4, 1, 0}, "size 100 "},
	    {{32768, 3, 32, 1, 0}, "assoc 3 "},
	    {{256, 16, 32, 1, 0}, "assoc 16 is not a power of two <= 8"},
	    {{32768, 4, 32, 0, 0}, "ncores 0 "},
	    {{32768, 4, 32, 9, 0}, "ncores 9 "},
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		const struct dc_mc2rt_config *c = &v[i].cfg;
		char desc[96];

		snprintf(desc, sizeof(desc), "mc2rt config %u/%u/%u/%d cores", c->size, c->assoc,
			 c->line, c->ncores);
		capture_start();
		check_config(dc_mc2rt_config_check(c), v[i].err, desc);
	}
	error_quiet(1);
	tap_ok(!dc_mc2rt_new(&v[2].cfg), "dc_mc2rt_new refuses a bad configuration");
	error_quiet(-1);
}

struct mc_step {
	char op; /* 'R' read, 'W' write */
	int core;
	uint32_t addr;
	int miss;	    /* reads: expected DC_MC2RT_MISS */
	const char *states; /* the line's state in cores 0, 1, 2 afterwards */
	const char *tbits;  /* and the trace bits */
};

/* Per step: the read's result (and line address on a miss), then states and T bits. */
static void run_mc(struct dc_mc2rt *m, int ncores, const char *what, const struct mc_step *s,
		   size_t count)
{
	for (size_t i = 0; i < count; i++) {
		char st[9] = "", tb[9] = "";
		uint32_t la = 0;

		if (s[i].op == 'R') {
			enum dc_mc2rt_result r = dc_mc2rt_read(m, s[i].core, s[i].addr, &la);
			uint32_t want = s[i].addr & ~31u;

			if (s[i].miss)
				tap_ok(r == DC_MC2RT_MISS && la == want,
				       "%s, step %zu: core %d read 0x%x: trace miss, line 0x%x",
				       what, i + 1, s[i].core, s[i].addr, want);
			else
				tap_ok(r == DC_MC2RT_HIT,
				       "%s, step %zu: core %d read 0x%x: trace hit", what, i + 1,
				       s[i].core, s[i].addr);
		} else {
			dc_mc2rt_write(m, s[i].core, s[i].addr);
		}
		for (int c = 0; c < ncores; c++) {
			st[c] = dc_mc2rt_state(m, c, s[i].addr);
			tb[c] = (char)('0' + dc_mc2rt_tbit(m, c, s[i].addr));
		}
		if (!tap_ok(!strcmp(st, s[i].states) && !strcmp(tb, s[i].tbits),
			    "%s, step %zu: after core %d %s 0x%x: states %s, T %s", what, i + 1,
			    s[i].core, s[i].op == 'R' ? "reads" : "writes", s[i].addr, s[i].states,
			    s[i].tbits))
			tap_diag("got states %s, T %s", st, tb);
	}
}

static void check_mc_stats(const struct dc_mc2rt *m, int core, const struct dc_mc2rt_stats *want,
			   const char *what)
{
	struct dc_mc2rt_stats got;

	dc_mc2rt_stats(m, core, &got);
	check_counters(&got, want, mc_counters, ARRAY_SIZE(mc_counters), what);
}

/*
 * 256 bytes, 2-way, 32-byte lines: 4 sets, set = (addr >> 5) & 3. The four
 * lines of the script sit in four different sets so nothing is evicted.
 */
static struct dc_mc2rt *small_mc(int ncores, int shared)
{
	struct dc_mc2rt_config cfg = {256, 2, 32, ncores, shared};

	return dc_mc2rt_new(&cfg);
}

static void test_mc_script(void)
{
	enum { X = 0x1004, Y = 0x2020, Z = 0x3058, V = 0x4060 };
	static const struct mc_step s[] = {
	    /* Fig. 5 steps 12-13: from memory, E, T = 0: a trace miss, then T = 1 */
	    {'R', 0, X, 1, "EII", "100"},
	    {'R', 0, X + 8, 0, "EII", "100"},
	    /* step 11: from core 0, E -> S; core 1 in S inherits T = 1: a trace hit */
	    {'R', 1, X, 0, "SSI", "110"},
	    /* Fig. 6 step 4: write hit in S invalidates core 0 */
	    {'W', 1, X, 0, "IMI", "010"},
	    /* core 1 supplies: M -> O */
	    {'R', 0, X, 0, "SOI", "110"},
	    {'R', 2, X, 0, "SOS", "111"},
	    /* write hit in S: two copies dropped */
	    {'W', 2, X, 0, "IIM", "001"},
	    /* write miss, steps 6-12: from core 2 (T inherited), core 2 dropped */
	    {'W', 0, X, 0, "MII", "100"},
	    {'R', 1, X, 0, "OSI", "110"},
	    /* write hit in O */
	    {'W', 0, X, 0, "MII", "100"},
	    {'R', 0, X, 0, "MII", "100"},
	    /* write miss from memory (step 13): M with T = 0, then the read traces */
	    {'W', 1, Y, 0, "IMI", "000"},
	    {'R', 1, Y, 1, "IMI", "010"},
	    {'R', 1, Y, 0, "IMI", "010"},
	    /* write miss served by core 1's M copy: T = 1 inherited */
	    {'W', 2, Y, 0, "IIM", "001"},
	    /* an O line with T = 0 hands T = 0 on; each core traces for itself */
	    {'W', 0, Z, 0, "MII", "000"},
	    {'R', 2, Z, 1, "OIS", "001"},
	    {'R', 0, Z, 1, "OIS", "101"},
	    /* the owner supplies even when a lower core holds the line in S */
	    {'W', 2, V, 0, "IIM", "000"},
	    {'R', 1, V, 1, "ISO", "010"},
	    {'R', 0, V, 1, "SSO", "110"},
	    {'R', 1, V, 0, "SSO", "110"},
	};
	/*
	 * Per core, then all cores (core = ncores). Fields in order: reads,
	 * trace_hits, trace_misses, read_misses, peer_supplied, writes,
	 * write_misses, invalidations, writebacks.
	 */
	static const struct {
		const char *what;
		struct dc_mc2rt_stats want;
	} counts[] = {
	    {"mc2rt counters of core 0", {6, 3, 3, 3, 3, 3, 2, 2, 0}},
	    {"mc2rt counters of core 1", {6, 4, 2, 3, 3, 2, 1, 1, 0}},
	    {"mc2rt counters of core 2", {2, 1, 1, 2, 3, 3, 2, 3, 0}},
	    {"mc2rt counters of all cores", {14, 8, 6, 8, 9, 8, 5, 6, 0}},
	};
	struct dc_mc2rt *m = small_mc(3, 0);

	run_mc(m, 3, "MOESI", s, ARRAY_SIZE(s));
	for (int c = 0; c < (int)ARRAY_SIZE(counts); c++)
		check_mc_stats(m, c, &counts[c].want, counts[c].what);
	tap_ok(dc_mc2rt_read(m, 0, X, NULL) == DC_MC2RT_HIT, "line_addr may be NULL");

	dc_mc2rt_reset(m);
	tap_ok(dc_mc2rt_state(m, 0, X) == 'I' && dc_mc2rt_tbit(m, 0, X) == 0 &&
		   dc_mc2rt_state(m, 1, V) == 'I',
	       "reset: every line invalid");
	static const struct dc_mc2rt_stats zero;
	check_mc_stats(m, 3, &zero, "reset zeroes the mc2rt counters");
	dc_mc2rt_free(m);
}

static void test_mc_evictions(void)
{
	/* set 0 of a 2-way cache: A, B, C, D = 0x000, 0x080, 0x100, 0x180 */
	enum { A = 0x000, B = 0x080, C = 0x100, D = 0x180 };
	struct dc_mc2rt *m = small_mc(2, 0);
	struct dc_mc2rt_stats st;

	static const struct mc_step s[] = {
	    {'W', 0, A, 0, "MI", "00"},
	    {'R', 0, B, 1, "EI", "10"},
	    {'R', 0, A, 1, "MI", "10"}, /* A most recent */
	    {'R', 0, C, 1, "EI", "10"}, /* evicts B (E: no writeback) */
	    {'R', 0, B, 1, "EI", "10"}, /* evicts A (M: writeback), traced again */
	    {'R', 0, A, 1, "EI", "10"}, /* from memory again, evicts C */
	    /* an O line written back on eviction; the sharer keeps S */
	    {'W', 1, D, 0, "IM", "00"},
	    {'R', 0, D, 1, "SO", "10"}, /* core 0 evicts B; core 1's M -> O */
	    {'R', 1, A, 0, "SS", "11"}, /* core 1 from core 0's E: T = 1 inherited */
	    {'R', 1, B, 1, "IE", "01"}, /* core 1's set 0 is {D, A}: evicts D, the O */
	    {'R', 0, D, 0, "SI", "10"}, /* core 0 keeps S */
	};

	run_mc(m, 2, "evictions", s, ARRAY_SIZE(s));
	dc_mc2rt_stats(m, 0, &st);
	tap_is_int(st.writebacks, 1, "core 0: evicting M wrote back once");
	dc_mc2rt_stats(m, 1, &st);
	tap_is_int(st.writebacks, 1, "core 1: evicting O wrote back once");
	dc_mc2rt_free(m);
}

static void test_mc_shared(void)
{
	enum { X = 0x1004 };
	static const struct mc_step s[] = {
	    {'R', 0, X, 1, "EE", "11"}, /* one cache: both cores see the same line */
	    {'R', 1, X, 0, "EE", "11"},	     {'W', 1, X, 0, "MM", "11"},
	    {'R', 0, X, 0, "MM", "11"},	     {'W', 0, 0x2000, 0, "MM", "00"},
	    {'R', 1, 0x2000, 1, "MM", "11"},
	};
	/* all cores, fields in the order of test_mc_script's counts */
	static const struct dc_mc2rt_stats wall = {4, 2, 2, 1, 0, 2, 1, 0, 0};
	struct dc_mc2rt *m = small_mc(2, 1);

	run_mc(m, 2, "shared mc2rt", s, ARRAY_SIZE(s));
	check_mc_stats(m, 2, &wall, "shared mc2rt: no coherence traffic");
	dc_mc2rt_free(m);
}

static uint64_t mc_churn(struct dc_mc2rt *m, int ncores, uint64_t seed, int steps)
{
	uint64_t h = 1469598103934665603ull;

	for (int i = 0; i < steps; i++) {
		uint32_t a, la = 0;
		int core;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		a = 0x8000 + (uint32_t)(seed >> 33) % 0x800;
		core = (int)((seed >> 40) % (uint64_t)ncores);
		if ((seed >> 50) % 3 == 0) {
			dc_mc2rt_write(m, core, a);
			h = (h ^ 7) * 1099511628211ull;
		} else {
			h = (h ^ (dc_mc2rt_read(m, core, a, &la) == DC_MC2RT_HIT)) *
			    1099511628211ull;
			h = (h ^ la) * 1099511628211ull;
		}
		h = (h ^ (uint64_t)dc_mc2rt_state(m, core, a)) * 1099511628211ull;
	}
	return h;
}

static void test_mc_checkpoint(void)
{
	struct dc_mc2rt *a = small_mc(3, 0), *b = small_mc(3, 0), *sh = small_mc(3, 1);
	size_t len = dc_mc2rt_state_size(a);
	uint8_t *buf = malloc(len), *again = malloc(len);
	struct dc_mc2rt_stats sa, sb;
	uint64_t ha, hb;

	tap_ok(len == 8 * 4 + 8 + 3 * sizeof(struct dc_mc2rt_stats) + 3 * 8 * 16,
	       "mc2rt state size: header, clock, 3 stats, 24 ways (%zu)", len);
	mc_churn(a, 3, 1, 5000);
	dc_mc2rt_save(a, buf);
	tap_ok(dc_mc2rt_restore(b, buf, len) == 0, "mc2rt restore into the same config");
	dc_mc2rt_save(b, again);
	tap_ok(!memcmp(buf, again, len), "mc2rt save after restore gives the same bytes");
	ha = mc_churn(a, 3, 2, 5000);
	hb = mc_churn(b, 3, 2, 5000);
	dc_mc2rt_stats(a, 3, &sa);
	dc_mc2rt_stats(b, 3, &sb);
	tap_ok(ha == hb && !memcmp(&sa, &sb, sizeof(sa)) && sa.reads + sa.writes == 10000,
	       "mc2rt original and restored copy answer and count the same");

	dc_mc2rt_save(b, buf);
	capture_start();
	refused(dc_mc2rt_restore(sh, buf, len), "shared is 0, this cache has 1",
		"mc2rt restore into a shared cache refused");
	capture_start();
	refused(dc_mc2rt_restore(b, buf, len + 1), "641 bytes, expected 640",
		"mc2rt: a long image is refused");
	{
		uint32_t line = 64;

		memcpy(buf + 5 * 4, &line, sizeof(line));
	}
	capture_start();
	refused(dc_mc2rt_restore(b, buf, len), "line is 64, this cache has 32",
		"mc2rt: another line size is refused");
	dc_mc2rt_save(b, again);
	dc_mc2rt_save(a, buf);
	tap_ok(!memcmp(buf, again, len), "mc2rt refused restores changed nothing");

	free(buf);
	free(again);
	dc_mc2rt_free(a);
	dc_mc2rt_free(b);
	dc_mc2rt_free(sh);
}

int main(void)
{
	test_fa_config_check();
	test_fa_config_parse();
	test_fa_config_format();
	test_fa_granules();
	test_fa_spans();
	test_fa_stores();
	test_fa_lru();
	test_fa_wide_line();
	test_fa_coherence();
	test_fa_shared();
	test_fa_stats();
	test_fa_checkpoint();
	test_mc_config_check();
	test_mc_script();
	test_mc_evictions();
	test_mc_shared();
	test_mc_checkpoint();
	return tap_done();
}

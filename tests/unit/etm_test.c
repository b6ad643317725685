/*
 * etm_test: the Thumb waypoint classifier, the ETMv4 encoder's packets
 * against bytes worked out by hand from the ETMv4 specification (IHI 0064,
 * chapter 6), and round trips of tiny programs through OpenCSD.
 */
#include <stdlib.h>
#include <string.h>

#include "etm/cstf.h"
#include "etm/etm3.h"
#include "etm/etm4.h"
#include "etm/mtb.h"
#include "etm/ocsd.h"
#include "etm/thumb.h"
#include "tests/unit/tap.h"

/* ---- classifier ---------------------------------------------------------- */

static void test_thumb(void)
{
	static const struct {
		uint16_t hw1, hw2;
		enum etm_thumb_kind kind;
		int link;
		const char *what;
	} v[] = {
	    {0xbf00, 0, ETM_THUMB_OTHER, 0, "nop"},
	    {0x4770, 0, ETM_THUMB_INDIRECT, 0, "bx lr"},
	    {0x47a8, 0, ETM_THUMB_INDIRECT, 1, "blx r5"},
	    {0xbd10, 0, ETM_THUMB_INDIRECT, 0, "pop {r4, pc}"},
	    {0xbc10, 0, ETM_THUMB_OTHER, 0, "pop {r4}"},
	    {0x46f7, 0, ETM_THUMB_INDIRECT, 0, "mov pc, lr"},
	    {0x4487, 0, ETM_THUMB_INDIRECT, 0, "add pc, r0"},
	    {0x4408, 0, ETM_THUMB_OTHER, 0, "add r0, r1"},
	    {0xd1fe, 0, ETM_THUMB_DIRECT, 0, "bne ."},
	    {0xe7fe, 0, ETM_THUMB_DIRECT, 0, "b ."},
	    {0xb10a, 0, ETM_THUMB_DIRECT, 0, "cbz r2, +2"},
	    {0xdf00, 0, ETM_THUMB_OTHER, 0, "svc 0"},
	    {0xde00, 0, ETM_THUMB_OTHER, 0, "udf 0"},
	    {0xbeab, 0, ETM_THUMB_OTHER, 0, "bkpt 0xab"},
	    {0xf000, 0xf991, ETM_THUMB_DIRECT, 1, "bl"},
	    {0xf7ff, 0xbffe, ETM_THUMB_DIRECT, 0, "b.w ."},
	    {0xf000, 0x8000, ETM_THUMB_DIRECT, 0, "beq.w +0"},
	    {0xf3bf, 0x8f6f, ETM_THUMB_ISB, 0, "isb"},
	    {0xf3bf, 0x8f4f, ETM_THUMB_OTHER, 0, "dsb"},
	    {0xe8df, 0xf003, ETM_THUMB_INDIRECT, 0, "tbb [pc, r3]"},
	    {0xe8df, 0xf013, ETM_THUMB_INDIRECT, 0, "tbh [pc, r3, lsl #1]"},
	    {0xf85d, 0xfb04, ETM_THUMB_INDIRECT, 0, "ldr pc, [sp], #4"},
	    {0xf8d1, 0xf000, ETM_THUMB_INDIRECT, 0, "ldr.w pc, [r1]"},
	    {0xf8d1, 0x0000, ETM_THUMB_OTHER, 0, "ldr.w r0, [r1]"},
	    {0xe8bd, 0x8010, ETM_THUMB_INDIRECT, 0, "pop.w {r4, pc}"},
	    {0xe8bd, 0x4010, ETM_THUMB_OTHER, 0, "pop.w {r4, lr}"},
	    {0xe911, 0x8003, ETM_THUMB_INDIRECT, 0, "ldmdb r1, {r0, r1, pc}"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		int link = -1;

		tap_ok(etm_thumb_class(v[i].hw1, v[i].hw2, &link) == v[i].kind && link == v[i].link,
		       "class of %s (%04x %04x)", v[i].what, v[i].hw1, v[i].hw2);
	}
	tap_is_int(etm_thumb_size(0x4770), 2, "bx lr is 2 bytes");
	tap_is_int(etm_thumb_size(0xe8bd), 4, "0xe8bd starts a 4-byte instruction");
	tap_is_int(etm_thumb_size(0xf000), 4, "0xf000 starts a 4-byte instruction");
	tap_is_int(etm_thumb_size(0xe7fe), 2, "0xe7fe (b .) is 2 bytes");

	static const struct {
		uint32_t pc;
		uint16_t hw1, hw2;
		uint32_t target;
	} t[] = {
	    {0x3c6, 0xf000, 0xf991, 0x6ec},   /* bl, from a guest build */
	    {0x1000, 0xf7ff, 0xbffe, 0x1000}, /* b.w . */
	    {0x1000, 0xf000, 0x8000, 0x1004}, /* beq.w +0 */
	    {0x1000, 0xd1fe, 0, 0x1000},      /* bne . */
	    {0x1000, 0xe07d, 0, 0x10fe},      /* b +0xfa */
	    {0x1000, 0xb10a, 0, 0x1006},      /* cbz r2, +2 */
	    {0x1000, 0xb3fa, 0, 0x1082},      /* cbz r2, +126 (i = 1, imm5 = 31) */
	};
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		uint32_t got = 0;

		tap_ok(!etm_thumb_target(t[i].pc, t[i].hw1, t[i].hw2, &got) && got == t[i].target,
		       "target of %04x %04x at 0x%x: 0x%x (got 0x%x)", t[i].hw1, t[i].hw2, t[i].pc,
		       t[i].target, got);
	}
	uint32_t dummy;
	tap_ok(etm_thumb_target(0x1000, 0x4770, 0, &dummy) == -1, "bx lr has no encoded target");
}

/* ---- a tiny program image and the encoder ---------------------------------- */

static uint8_t mem[0x400];

static void put16(uint32_t a, uint16_t v)
{
	mem[a] = v;
	mem[a + 1] = v >> 8;
}

static void build_image(void)
{
	memset(mem, 0, sizeof(mem));
	for (uint32_t a = 0; a < sizeof(mem); a += 2)
		put16(a, 0xbf00); /* nop everywhere */
	put16(0x102, 0xe07d);	  /* b 0x200 */
	put16(0x104, 0xd1fe);	  /* bne . (not taken) */
	put16(0x108, 0xe7fe);	  /* b . */
	put16(0x200, 0x4770);	  /* bx lr */
	put16(0x300, 0x4770);	  /* bx lr (exception return) */
}

static const struct etm_region region = {.base = 0, .size = sizeof(mem), .data = mem};
static const struct etm_ocsd_mem image = {.regions = &region, .n = 1};

static struct etm4_insn I(uint32_t pc, uint32_t next, unsigned flags) {
	uint16_t hw1 = mem[pc] | mem[pc + 1] << 8, hw2 = mem[pc + 2] | mem[pc + 3] << 8;

	return (struct etm4_insn){.pc = pc,
				  .next = next,
				  .size = etm_thumb_size(hw1),
				  .kind = etm_thumb_class(hw1, hw2, NULL),
				  .flags = flags};
}

struct got {
	uint64_t v[1024];
	int n;
};

static int collect(void *ctx, uint64_t pc)
{
	struct got *g = ctx;

	if (g->n == 1024)
		return -1;
	g->v[g->n++] = pc;
	return 0;
}

static int bytes_are(const uint8_t *got, size_t n, const uint8_t *want, size_t wn, const char *what)
{
	int ok = n == wn && !memcmp(got, want, n);

	tap_ok(ok, "%s: %zu bytes as worked out by hand", what, wn);
	if (!ok) {
		tap_diag("got %zu bytes:", n);
		for (size_t i = 0; i < n; i++)
			tap_diag("  [%zu] %02x%s", i, got[i],
				 i < wn && got[i] != want[i] ? " <-" : "");
	}
	return ok;
}

static const uint8_t sync_hdr[] = {0,	 0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, /* A-sync */
				   0x01, 0x00,					/* Trace Info */
				   0x04};					/* Trace On */

static void test_sequence(void)
{
	struct etm4_cfg cfg = {.trace_id = 0x10, .sync_period = 4096};
	struct etm4 *e = etm4_new(&cfg);
	struct etm4_insn seq[] = {
	    I(0x100, 0x102, 0), I(0x102, 0x200, 0), I(0x200, 0x104, 0),
	    I(0x104, 0x106, 0), I(0x106, 0x108, 0),
	};
	struct etm4_insn after[] = {I(0x300, 0x108, ETM4_EXC_RETURN), I(0x108, 0x108, 0)};
	uint8_t want[64];
	size_t wn = 0, n;
	const uint8_t *data;
	struct got g = {.n = 0};
	struct etm4_stats st;
	int ok = 1;

	if (!tap_ok(e != NULL, "etm4_new"))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(seq); i++)
		ok &= !etm4_insn(e, &seq[i]);
	ok &= !etm4_exception(e, 15, 0x108, 0x300);
	for (size_t i = 0; i < ARRAY_SIZE(after); i++)
		ok &= !etm4_insn(e, &after[i]);
	ok &= !etm4_flush(e);
	tap_ok(ok, "encode: branch, return, not-taken branch, SysTick and its return");

	memcpy(want, sync_hdr, sizeof(sync_hdr));
	wn = sizeof(sync_hdr);
	static const uint8_t rest[] = {
	    0x83, 0x00, 0x01, 0x00, 0x00, 0x00, /* address 0x100 with context (T32, EL0, secure) */
	    0xdb,				/* atoms F2: E (b 0x200), E (bx lr) */
	    0x96, 0x02,				/* short address: 0x104 (low byte from A[7:1]) */
	    0xf6,				/* atom F1: N (bne not taken) */
	    0x06, 0x1f,				/* exception 15, E1:E0 = 01 */
	    0x96, 0x04,				/* its preferred return address 0x108, short */
	    0x96, 0x80, 0x03,			/* the handler 0x300, short with two bytes */
	    0xf7,				/* atom F1: E (bx lr, exception return) */
	    0x07,				/* exception return (ARMv7-M) */
	    0x91,				/* exact match: history entry 1 = 0x108 */
	    0xf7,				/* atom F1: E (b .) */
	};
	memcpy(want + wn, rest, sizeof(rest));
	wn += sizeof(rest);
	data = etm4_data(e, &n);
	bytes_are(data, n, want, wn, "sync, addresses, atoms, exception, exception return");
	etm4_get_stats(e, &st);
	tap_is_int(st.traced, 7, "all 7 instructions end at a P0 element");
	tap_is_int(st.exceptions, 1, "one exception");

	static const uint64_t path[] = {0x100, 0x102, 0x200, 0x104, 0x106, ETM_OCSD_EXC | 15,
					0x300, 0x108};
	int dk = etm_ocsd_decode(&cfg, &image, data, n, collect, &g);

	tap_ok(!dk && g.n == (int)ARRAY_SIZE(path) && !memcmp(g.v, path, sizeof(path)),
	       "OpenCSD decodes the path back (%d of %zu elements)", g.n, ARRAY_SIZE(path));
	for (int i = 0; i < g.n && i < 16; i++)
		if (i >= (int)ARRAY_SIZE(path) || g.v[i] != path[i])
			tap_diag("element %d: 0x%llx", i, (unsigned long long)g.v[i]);

	/* damage: the not-taken atom F6 -> taken F7 sends OpenCSD round bne . */
	uint8_t bad[64];
	memcpy(bad, data, n);
	for (size_t i = sizeof(sync_hdr); i < n; i++)
		if (bad[i] == 0xf6) {
			bad[i] = 0xf7;
			break;
		}
	g.n = 0;
	dk = etm_ocsd_decode(&cfg, &image, bad, n, collect, &g);
	tap_ok(dk || g.n != (int)ARRAY_SIZE(path) || memcmp(g.v, path, sizeof(path)),
	       "a flipped atom decodes to another path");
	etm4_free(e);
}

/* Runs of taken branches pack into atom format 6; long exception numbers; long addresses. */
static void test_formats(void)
{
	struct etm4_cfg cfg = {.trace_id = 0x11, .sync_period = 4096};
	struct etm4 *e = etm4_new(&cfg);
	struct etm4_insn loop = I(0x108, 0x108, 0), out = I(0x104, 0x106, 0);
	const uint8_t *data;
	size_t n;
	int ok = 1;

	for (int i = 0; i < 10; i++)
		ok &= !etm4_insn(e, &loop);
	ok &= !etm4_flush(e);
	data = etm4_data(e, &n);
	tap_ok(ok && n == sizeof(sync_hdr) + 6 + 1 && data[n - 1] == 0xc6,
	       "ten E atoms: one F6 byte 0xc6 (9 E's, then E)");
	for (int i = 0; i < 9; i++)
		ok &= !etm4_insn(e, &loop);
	ok &= !etm4_insn(e, &out) && !etm4_flush(e);
	data = etm4_data(e, &n);
	tap_ok(ok && data[n - 1] == 0xe6, "nine E's then N: F6 byte 0xe6");
	/* IRQ 20 = exception 36: two TYPE bytes; handler far away: a long address */
	ok &= !etm4_exception(e, 36, 0x108, 0x12345678);
	data = etm4_data(e, &n);
	static const uint8_t exc[] = {0x06, 0x89, 0x01, 0x90, 0x9b, 0x3c, 0x56, 0x34, 0x12};
	bytes_are(n >= sizeof(exc) ? data + n - sizeof(exc) : data,
		  n >= sizeof(exc) ? sizeof(exc) : n, exc, sizeof(exc),
		  "exception 36, exact-match return address, long handler address");
	tap_ok(etm4_exception(e, 1024, 0, 0) == -1, "exception number 1024 refused");
	etm4_free(e);

	struct etm4_cfg bad = {.trace_id = 0, .sync_period = 4096};
	tap_ok(etm4_new(&bad) == NULL, "trace ID 0 refused");
	bad.trace_id = 0x70;
	tap_ok(etm4_new(&bad) == NULL, "trace ID 0x70 refused");
	bad.trace_id = 1;
	bad.sync_period = 1000;
	tap_ok(etm4_new(&bad) == NULL, "sync period 1000 (not a power of 2) refused");

	struct etm4_regs r;
	etm4_regs(&cfg, &r);
	tap_is_hex(r.idr1, 0x4100f420, "TRCIDR1: ETMv4.2");
	tap_is_hex(r.idr2, 0x4, "TRCIDR2: 32-bit instruction addresses");
	tap_is_hex(r.traceidr, 0x11, "TRCTRACEIDR");
	tap_is_int(r.syncpr, 12, "TRCSYNCPR: 2^12 bytes");
}

struct cmp {
	const uint64_t *w;
	size_t n, i;
	int bad;
};

static int cmp_fn(void *ctx, uint64_t pc)
{
	struct cmp *c = ctx;

	if (c->i >= c->n || c->w[c->i] != pc) {
		c->bad = 1;
		return -1;
	}
	c->i++;
	return 0;
}

/*
 * A long loop with a small sync period: A-sync, Trace Info and an address
 * with context come mid-stream, at P0 boundaries, and OpenCSD follows on.
 * The loop: 0x102 b 0x200; 0x200 bx lr back to 0x102, every third time to
 * 0x104 (bne ., not taken), 0x106, then an SVC-like exception 11 whose
 * handler is 0x102 again.
 */
static void test_periodic_sync(void)
{
	struct etm4_cfg cfg = {.trace_id = 0x12, .sync_period = 256};
	struct etm4 *e = etm4_new(&cfg);
	static uint64_t want[12000];
	struct cmp c = {.w = want};
	struct etm4_stats st;
	const uint8_t *data;
	size_t n;
	int ok = 1;

	for (int i = 0; i < 2000; i++) {
		struct etm4_insn a = I(0x102, 0x200, 0), b = I(0x200, i % 3 ? 0x102 : 0x104, 0);

		ok &= !etm4_insn(e, &a) && !etm4_insn(e, &b);
		want[c.n++] = 0x102;
		want[c.n++] = 0x200;
		if (i % 3 == 0) {
			struct etm4_insn d = I(0x104, 0x106, 0), f = I(0x106, 0x108, 0);

			ok &= !etm4_insn(e, &d) && !etm4_insn(e, &f);
			ok &= !etm4_exception(e, 11, 0x108, 0x102);
			want[c.n++] = 0x104;
			want[c.n++] = 0x106;
			want[c.n++] = ETM_OCSD_EXC | 11;
		}
	}
	ok &= !etm4_flush(e);
	data = etm4_data(e, &n);
	etm4_get_stats(e, &st);
	tap_ok(ok && st.syncs > 3, "%llu syncs in %zu bytes at a period of 256",
	       (unsigned long long)st.syncs, n);
	int dk = etm_ocsd_decode(&cfg, &image, data, n, cmp_fn, &c);
	tap_ok(!dk && !c.bad && c.i == c.n,
	       "OpenCSD follows through the syncs: %zu of %zu elements", c.i, c.n);
	etm4_free(e);
}

/*
 * Cycle counting, threshold 3: test_sequence's program with each step's
 * cycles; a Cycle Count packet after every P0 element at which 3 or more
 * cycles were counted (F3 for counts 3..6, F1 beyond), Trace Info with
 * the INFO and CYCT sections; OpenCSD reports the counts where they were
 * written, and a threshold over 127 takes two CYCT bytes.
 */
static void test_cycles(void)
{
	struct etm4_cfg cfg = {.trace_id = 0x14, .sync_period = 4096, .cc_threshold = 3};
	struct etm4 *e = etm4_new(&cfg);
	struct etm4_insn seq[] = {
	    I(0x100, 0x102, 0), I(0x102, 0x200, 0), I(0x200, 0x104, 0),
	    I(0x104, 0x106, 0), I(0x106, 0x108, 0),
	};
	static const unsigned cost[] = {1, 2, 1, 5, 1};
	struct etm4_insn after[] = {I(0x300, 0x108, ETM4_EXC_RETURN), I(0x108, 0x108, 0)};
	static const unsigned cost_after[] = {2, 200};
	struct etm4_regs r;
	struct got g = {.n = 0};
	const uint8_t *data;
	size_t n;
	int ok = 1;

	if (!tap_ok(e != NULL, "etm4_new with cycle counting"))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(seq); i++) {
		etm4_add_cycles(e, cost[i]);
		ok &= !etm4_insn(e, &seq[i]);
	}
	etm4_add_cycles(e, 12);
	ok &= !etm4_exception(e, 15, 0x108, 0x300);
	for (size_t i = 0; i < ARRAY_SIZE(after); i++) {
		etm4_add_cycles(e, cost_after[i]);
		ok &= !etm4_insn(e, &after[i]);
	}
	ok &= !etm4_flush(e);
	tap_ok(ok, "encode with cycles");
	static const uint8_t want[] = {
	    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, /* A-sync */
	    0x01, 0x09, 0x01, 0x03,		   /* Trace Info: INFO (CC enabled), CYCT 3 */
	    0x04,				   /* Trace On */
	    0x83, 0x00, 0x01, 0x00, 0x00, 0x00,	   /* address 0x100 with context */
	    0xf7, 0x10,				   /* E (b 0x200); count 3 + 0 (F3) */
	    0xf7, 0x96, 0x02,			   /* E (bx lr): 1 cycle, no count; 0x104 */
	    0xf6, 0x13,				   /* N (bne): count 5 + 1 = 3 + 3 (F3) */
	    0x06, 0x1f, 0x96, 0x04, 0x96, 0x80, 0x03, /* exception 15, 0x108, 0x300 */
	    0x0e, 0x0a,				   /* count 1 + 12 = 3 + 10 (F1) */
	    0xf7, 0x07, 0x91,			   /* E (exception return): 2, no count */
	    0xf7, 0x0e, 0xc7, 0x01,		   /* E (b .); count 2 + 200 = 3 + 199 (F1) */
	};
	data = etm4_data(e, &n);
	bytes_are(data, n, want, sizeof(want), "Trace Info's sections, Cycle Count F3 and F1");
	etm4_regs(&cfg, &r);
	tap_ok(r.idr0 == 0x20000081 && r.idr2 == 0x10000004 && r.configr == 0x10,
	       "TRCIDR0 0x%08x (TRCCCI, COMMOPT), TRCIDR2 0x%08x (CCSIZE 20 bits), TRCCONFIGR "
	       "0x%08x (CCI)",
	       r.idr0, r.idr2, r.configr);

	static const uint64_t path[] = {
	    0x100, 0x102, ETM_OCSD_CC | 3, 0x200, 0x104, ETM_OCSD_CC | 6, 0x106,
	    ETM_OCSD_EXC | 15, ETM_OCSD_CC | 13, 0x300, 0x108, ETM_OCSD_CC | 202};
	int dk = etm_ocsd_decode(&cfg, &image, data, n, collect, &g);

	tap_ok(!dk && g.n == (int)ARRAY_SIZE(path) && !memcmp(g.v, path, sizeof(path)),
	       "OpenCSD reports the counts 3, 6, 13, 202 after their P0 elements (%d of %zu "
	       "elements)", g.n, ARRAY_SIZE(path));
	for (int i = 0; i < g.n && i < 16; i++)
		if (i >= (int)ARRAY_SIZE(path) || g.v[i] != path[i])
			tap_diag("element %d: 0x%llx", i, (unsigned long long)g.v[i]);
	etm4_free(e);

	cfg.cc_threshold = 200;
	e = etm4_new(&cfg);
	ok = e && !etm4_insn(e, &seq[0]);
	data = e ? etm4_data(e, &n) : NULL;
	tap_ok(ok && n > 17 && !memcmp(data + 12, "\x01\x09\x01\xc8\x01\x04", 6),
	       "threshold 200: CYCT in two bytes");
	etm4_free(e);
	cfg.cc_threshold = 4096;
	tap_ok(etm4_new(&cfg) == NULL, "threshold 4096 refused");

	/* a count past the 20-bit counter saturates at 2^20 - 1: F1, three bytes */
	cfg.cc_threshold = 1;
	e = etm4_new(&cfg);
	ok = e != NULL;
	if (ok) {
		etm4_add_cycles(e, 1);
		ok &= !etm4_insn(e, &seq[0]);
		etm4_add_cycles(e, 5000000);
		ok &= !etm4_insn(e, &seq[1]) && !etm4_flush(e);
		data = etm4_data(e, &n);
	}
	/* 0xffffe = 0xfffff - 1: 7e | ff | 3f with the "more" bits */
	tap_ok(ok && n >= 5 && !memcmp(data + n - 5, "\xf7\x0e\xfe\xff\x3f", 5),
	       "5000001 cycles: a saturated count, 0e fe ff 3f");
	g.n = 0;
	ok = ok && !etm_ocsd_decode(&cfg, &image, data, n, collect, &g) && g.n == 3;
	tap_ok(ok && g.v[2] == (ETM_OCSD_CC | ETM4_CC_MAX), "OpenCSD reads it as 0x%llx",
	       ok ? (unsigned long long)(g.v[2] & ~ETM_OCSD_CC) : 0ull);
	etm4_free(e);
}

/* ETMv3: the same program as test_sequence, packets by hand (IHI 0014). */
static void test_etm3(void)
{
	struct etm3_cfg cfg = {.trace_id = 0x13, .sync_period = 4096};
	struct etm3 *e = etm3_new(&cfg);
	struct etm4_insn seq[] = {
	    I(0x100, 0x102, 0), I(0x102, 0x200, 0), I(0x200, 0x104, 0),
	    I(0x104, 0x106, 0), I(0x106, 0x108, 0),
	};
	struct etm4_insn after[] = {I(0x300, 0x108, ETM4_EXC_RETURN), I(0x108, 0x108, 0)};
	struct got g = {.n = 0};
	const uint8_t *data;
	size_t n;
	int ok = 1;

	for (size_t i = 0; i < ARRAY_SIZE(seq); i++)
		ok &= !etm3_insn(e, &seq[i]);
	ok &= !etm3_exception(e, 15, 0x300);
	for (size_t i = 0; i < ARRAY_SIZE(after); i++)
		ok &= !etm3_insn(e, &after[i]);
	ok &= !etm3_flush(e);
	tap_ok(ok, "etm3: encode the program");
	static const uint8_t want[] = {
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x80, /* A-sync */
	    0x08, 0x20, 0x01, 0x01, 0x00, 0x00, /* I-sync, trace enabled: 0x100, Thumb */
	    0x8c,				/* P-header: E E E (nop, b, bx lr) */
	    0x05,				/* branch address, 1 byte: 0x104 */
	    0xc0,				/* P-header: N (bne) */
	    0x84,				/* P-header: E (nop) */
	    0x81, 0x46, 0x1e,			/* branch 0x300 with exception 15 (SysTick) */
	    0x84,				/* P-header: E (bx lr) */
	    0x76,				/* exception exit */
	    0x89, 0x02,				/* branch address, 2 bytes: 0x108 */
	    0x84,				/* P-header: E (b .) */
	};
	data = etm3_data(e, &n);
	bytes_are(data, n, want, sizeof(want), "etm3 packets");
	static const uint64_t path[] = {0x100, 0x102, 0x200, 0x104, 0x106, ETM_OCSD_EXC | 15,
					0x300, 0x108};
	int dk = etm_ocsd_decode3(&cfg, &image, data, n, collect, &g);
	tap_ok(!dk && g.n == (int)ARRAY_SIZE(path) && !memcmp(g.v, path, sizeof(path)),
	       "etm3: OpenCSD decodes the path back (%d of %zu elements)", g.n, ARRAY_SIZE(path));

	/* IRQ 20 (exception 36): two exception bytes; a far handler: five address bytes */
	ok = !etm3_exception(e, 36, 0x12345678);
	data = etm3_data(e, &n);
	static const uint8_t irq[] = {0xf9, 0xac, 0xd1, 0x91, 0x51, 0x88, 0x02};
	bytes_are(n >= sizeof(irq) ? data + n - sizeof(irq) : data,
		  n >= sizeof(irq) ? sizeof(irq) : n, irq, sizeof(irq),
		  "etm3: IRQ 20 to 0x12345678");
	tap_is_int(etm3_exception_number(3), 19, "etm3: HardFault is 19");
	tap_is_int(etm3_exception_number(16), 8, "etm3: IRQ 0 is 8");
	tap_is_int(etm3_exception_number(17), 1, "etm3: IRQ 1 is 1");
	tap_is_int(etm3_exception_number(11), 11, "etm3: SVCall is 11");
	tap_is_int(etm3_exception_number(40), 40, "etm3: IRQ 24 is 40");
	tap_is_int(etm3_exception_number(7), -1, "etm3: 7 is reserved");
	etm3_free(e);
}

/*
 * ETMv3 cycle accurate: the same program, each instruction k cycles after
 * the one before, so that every P-header format of that mode comes out
 * (IHI 0014, "P-header encodings in cycle-accurate mode"), bytes by hand;
 * OpenCSD gives k back after each instruction.
 */
static void test_etm3_cycles(void)
{
	struct etm3_cfg cfg = {.trace_id = 0x13, .sync_period = 4096, .cycle_accurate = 1};
	struct etm3 *e = etm3_new(&cfg);
	struct etm3_regs r;
	struct {
		struct etm4_insn in;
		unsigned k;
	} seq[] = {
	    {I(0x100, 0x102, 0), 1}, {I(0x102, 0x200, 0), 1}, {I(0x200, 0x104, 0), 3},
	    {I(0x104, 0x106, 0), 12}, {I(0x106, 0x108, 0), 0},
	};
	struct {
		struct etm4_insn in;
		unsigned k;
	} after[] = {
	    {I(0x300, 0x108, ETM4_EXC_RETURN), 1}, {I(0x108, 0x108, 0), 1}, {I(0x108, 0x108, 0), 0}};
	struct got g = {.n = 0};
	const uint8_t *data;
	size_t n;
	int ok = 1;

	etm3_regs(&cfg, &r);
	tap_ok(r.ctrl == 0x1000, "etm3 cycle accurate: ETMCR 0x%x has bit 12", r.ctrl);
	for (size_t i = 0; i < ARRAY_SIZE(seq); i++) {
		etm3_add_cycles(e, seq[i].k);
		ok &= !etm3_insn(e, &seq[i].in);
	}
	etm3_add_cycles(e, 5); /* the exception entry's: W atoms of the handler's first */
	ok &= !etm3_exception(e, 15, 0x300);
	for (size_t i = 0; i < ARRAY_SIZE(after); i++) {
		etm3_add_cycles(e, after[i].k);
		ok &= !etm3_insn(e, &after[i].in);
	}
	ok &= !etm3_flush(e);
	tap_ok(ok, "etm3 cycle accurate: encode the program");
	static const uint8_t want[] = {
	    0x00, 0x00, 0x00, 0x00, 0x00, 0x80,	      /* A-sync */
	    0x70, 0x00, 0x20, 0x01, 0x01, 0x00, 0x00, /* I-sync with cycle count 0 (unknown) */
	    0x88,				      /* format 1: WE WE (nop, b) */
	    0xe8,				      /* format 3: WWW E (bx lr, 3 cycles) */
	    0x05,				      /* branch address: 0x104 */
	    0xbc, 0xa8,				      /* format 3 alone: 8 W, then 3 W */
	    0xc0,				      /* format 1: WN (bne, the 12th cycle) */
	    0x92,				      /* format 4: E (nop, the same cycle) */
	    0x81, 0x46, 0x1e,			      /* branch 0x300, exception 15 */
	    0xf4,				      /* format 3: 6 W then E (bx lr: 5 + 1) */
	    0x76,				      /* exception exit */
	    0x89, 0x02,				      /* branch address: 0x108 */
	    0x82,				      /* format 2: W E E (b ., b . in one cycle) */
	};
	data = etm3_data(e, &n);
	bytes_are(data, n, want, sizeof(want), "etm3 cycle-accurate packets");
#define CC(k) (ETM_OCSD_CC | (k))
	static const uint64_t path[] = {0x100, CC(1),  0x102, CC(1), 0x200,
					CC(3), 0x104,  CC(12), 0x106, CC(0),
					ETM_OCSD_EXC | 15, 0x300, CC(6), 0x108, CC(1),
					0x108, CC(0)};
#undef CC
	int dk = etm_ocsd_decode3(&cfg, &image, data, n, collect, &g);
	tap_ok(!dk && g.n == (int)ARRAY_SIZE(path) && !memcmp(g.v, path, sizeof(path)),
	       "etm3 cycle accurate: OpenCSD gives the path and every instruction's cycles "
	       "back (%d of %zu elements)",
	       g.n, ARRAY_SIZE(path));
	for (int i = 0; i < g.n; i++)
		if (i >= (int)ARRAY_SIZE(path) || g.v[i] != path[i])
			tap_diag("  [%d] 0x%llx%s", i, (unsigned long long)g.v[i], " <-");
	/* read without ETMCR bit 12, the same bytes are another trace */
	cfg.cycle_accurate = 0;
	g.n = 0;
	dk = etm_ocsd_decode3(&cfg, &image, data, n, collect, &g);
	tap_ok(dk || g.n != (int)ARRAY_SIZE(path) - 8,
	       "etm3 cycle accurate: read as not cycle accurate, the path is not the same");
	etm3_free(e);
}

/*
 * A TPIU's HSYNCs: the same bursts through a formatter with and without
 * them; cstf_scan finds the same bytes of each source in both, and in a
 * copy with an HSYNC inside a frame (OpenCSD's deformatter takes one at
 * any halfword).
 */
static void test_cstf_hsync(void)
{
	struct cstf *a = cstf_new(), *b = cstf_new();
	uint8_t d[40], *mid;
	uint64_t ba[128], fa[128], bb[128], fb[128], bm[128], fm[128];
	const uint8_t *da, *db;
	size_t la, lb, h;
	int ok = a && b;

	for (size_t i = 0; i < sizeof(d); i++)
		d[i] = (uint8_t)(i * 37 + 1);
	cstf_set_fsync(a, 16);
	cstf_set_fsync(b, 16);
	cstf_set_hsync(b, 1);
	for (int k = 0; ok && k < 20; k++)
		ok = !cstf_put(a, 0x10 + k % 3, d, 17 + k) && !cstf_put(b, 0x10 + k % 3, d, 17 + k);
	ok = ok && !cstf_finish(a) && !cstf_finish(b);
	da = cstf_data(a, &la);
	db = cstf_data(b, &lb);
	h = (lb - la) / 2;
	tap_ok(ok && lb % 4 == 0 && lb > la && h >= 20,
	       "cstf hsync: %zu HSYNCs, at most one a burst, the capture whole words (%zu bytes, "
	       "%zu without)",
	       h, lb, la);
	ok = !cstf_scan(da, la, 1, ba, fa) && !cstf_scan(db, lb, 1, bb, fb) &&
	     !memcmp(ba, bb, sizeof(ba));
	mid = malloc(lb + 2);
	if (mid) { /* FSYNC, HSYNC, then an HSYNC after the first frame's 6th byte */
		memcpy(mid, db, 12);
		mid[12] = 0xff;
		mid[13] = 0x7f;
		memcpy(mid + 14, db + 12, lb - 12);
	}
	ok = ok && mid && !cstf_scan(mid, lb + 2, 1, bm, fm) && !memcmp(ba, bm, sizeof(ba));
	tap_ok(ok, "cstf hsync: the sources' bytes found alike with and without HSYNCs, one inside "
		   "a frame too (trace ID 0x10: %llu bytes)",
	       (unsigned long long)ba[0x10]);
	free(mid);
	cstf_free(a);
	cstf_free(b);
}

/* CoreSight formatter frames by hand (IHI 0029), then two ETMv4 streams in one capture. */
static void test_cstf(void)
{
	struct cstf *f = cstf_new();
	const uint8_t *data;
	size_t n;
	static const uint8_t a[] = {0xa1, 0xb2, 0xc3}, b[] = {0x04};
	static const uint8_t want1[16] = {0x21, 0xa1, 0xb2, 0xc3, 0x23, 0x04, 0x01};

	tap_ok(!cstf_put(f, 0x10, a, 3) && !cstf_put(f, 0x11, b, 1) && !cstf_finish(f),
	       "cstf: two sources, one frame");
	data = cstf_data(f, &n);
	bytes_are(data, n, want1, sizeof(want1), "cstf: IDs in even bytes, padding with ID 0");
	cstf_free(f);

	/* source 0x10 ends on an even byte: (ID 0x11 + previous-ID flag, its last byte) */
	static const uint8_t c[] = {0xa1, 0xb3}, d[] = {0x05, 0x06};
	static const uint8_t want2[16] = {0x21, 0xa1, 0x23, 0xb3, 0x04, 0x06, 0x01, [15] = 0x06};

	f = cstf_new();
	tap_ok(!cstf_put(f, 0x10, c, 2) && !cstf_put(f, 0x11, d, 2) && !cstf_finish(f),
	       "cstf: a change after an even byte");
	data = cstf_data(f, &n);
	bytes_are(data, n, want2, sizeof(want2), "cstf: the previous-ID flag and the bit-0 flags");
	tap_ok(cstf_put(f, 0x10, c, 1) == -1, "cstf: nothing after the end");
	cstf_free(f);

	/* the test program traced by two cores, their streams interleaved 3 bytes at a time */
	struct etm4_cfg cfg[2] = {{.trace_id = 0x10, .sync_period = 4096},
				  {.trace_id = 0x11, .sync_period = 4096}};
	struct etm4 *e[2] = {etm4_new(&cfg[0]), etm4_new(&cfg[1])};
	struct etm4_insn seq[] = {
	    I(0x100, 0x102, 0), I(0x102, 0x200, 0), I(0x200, 0x104, 0),
	    I(0x104, 0x106, 0), I(0x106, 0x108, 0),
	};
	struct etm4_insn after[] = {I(0x300, 0x108, ETM4_EXC_RETURN), I(0x108, 0x108, 0)};
	static struct got g[2];
	void *ctx[2] = {&g[0], &g[1]};
	const uint8_t *s0, *s1;
	size_t n0, n1, i0 = 0, i1 = 0;
	int ok = 1;

	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < ARRAY_SIZE(seq); i++)
			ok &= !etm4_insn(e[k], &seq[i]);
		ok &= !etm4_exception(e[k], 15, 0x108, 0x300);
		for (size_t i = 0; i < ARRAY_SIZE(after); i++)
			ok &= !etm4_insn(e[k], &after[i]);
		ok &= !etm4_flush(e[k]);
	}
	s0 = etm4_data(e[0], &n0);
	s1 = etm4_data(e[1], &n1);
	f = cstf_new();
	while (i0 < n0 || i1 < n1) {
		size_t k0 = n0 - i0 < 3 ? n0 - i0 : 3, k1 = n1 - i1 < 3 ? n1 - i1 : 3;

		ok &= !cstf_put(f, 0x10, s0 + i0, k0) && !cstf_put(f, 0x11, s1 + i1, k1);
		i0 += k0;
		i1 += k1;
	}
	ok &= !cstf_finish(f);
	data = cstf_data(f, &n);
	static const uint64_t path[] = {0x100, 0x102, 0x200, 0x104, 0x106, ETM_OCSD_EXC | 15,
					0x300, 0x108};
	int dk = etm_ocsd_decode_frames(cfg, 2, &image, data, n, collect, ctx);
	tap_ok(ok && !dk && n % 16 == 0, "cstf: %zu bytes of frames decoded by OpenCSD", n);
	for (int k = 0; k < 2; k++)
		tap_ok(g[k].n == (int)ARRAY_SIZE(path) && !memcmp(g[k].v, path, sizeof(path)),
		       "cstf: trace ID 0x%x's path out of the frames (%d of %zu elements)",
		       cfg[k].trace_id, g[k].n, ARRAY_SIZE(path));
	/* the scan finds each source's data bytes and where they start */
	uint64_t nb[128], first[128];

	int sk = cstf_scan(data, n, 0, nb, first);

	tap_ok(!sk && nb[0x10] == n0 && nb[0x11] == n1 && first[0x10] == 1 && nb[0x12] == 0,
	       "cstf_scan: %llu and %llu bytes of IDs 0x10 and 0x11, as put",
	       (unsigned long long)nb[0x10], (unsigned long long)nb[0x11]);
	tap_ok(!cstf_scan(want2, 16, 0, nb, first) && nb[0x10] == 2 && first[0x10] == 1 &&
		   nb[0x11] == 2 && first[0x11] == 4,
	       "cstf_scan: the previous-ID flag gives byte 3 to 0x10, 0x11 starts at byte 4");
	error_quiet(1);
	tap_ok(cstf_scan(data, n - 3, 0, nb, first) == -1, "cstf_scan: no part frame");
	error_quiet(-1);

	/*
	 * etm_ocsd_decode_src with ETM_OCSD_MARKS: the exception return element
	 * (ARMv7-M: Exception return packet) is a RET mark; the same trace again
	 * behind it (trace restarted: A-sync, Trace Info, Trace On) is a GAP mark,
	 * then the path again. Without marks: the return is not seen.
	 */
	static uint8_t twice[4096];
	static struct got gm;
	static const uint64_t marked[] = {
	    0x100, 0x102, 0x200, 0x104, 0x106, ETM_OCSD_EXC | 15, 0x300, ETM_OCSD_RET, 0x108,
	    ETM_OCSD_GAP, 0x100, 0x102, 0x200, 0x104, 0x106, ETM_OCSD_EXC | 15, 0x300,
	    ETM_OCSD_RET, 0x108};
	struct etm_ocsd_src src = {.c4 = cfg[0], .ctx = &gm};

	memcpy(twice, s0, n0);
	memcpy(twice + n0, s0, n0);
	sk = etm_ocsd_decode_src(&src, 1, 0, ETM_OCSD_MARKS, &image, twice, 2 * n0, collect);
	tap_ok(!sk && gm.n == (int)ARRAY_SIZE(marked) && !memcmp(gm.v, marked, sizeof(marked)),
	       "decode_src: RET and GAP marks where the trace returns and restarts (%d elements)",
	       gm.n);
	gm.n = 0;
	src.ctx = &gm;
	tap_ok(!etm_ocsd_decode_src(&src, 1, 0, 0, &image, s0, n0, collect) &&
		   gm.n == (int)ARRAY_SIZE(path) && !memcmp(gm.v, path, sizeof(path)),
	       "decode_src: no marks unless asked");
	cstf_free(f);
	etm4_free(e[0]);
	etm4_free(e[1]);
}

/* MTB: packets by hand (DDI 0486), then decoded back over the image. */
static void test_mtb(void)
{
	struct mtb *m = mtb_new();
	struct mtb_stats st;
	struct got g = {.n = 0};
	const uint8_t *data;
	size_t n;
	int ok = 1;

	ok &= !mtb_insn(m, 0x100, 2, 0x102, 0);		 /* nop: sequential, no packet */
	ok &= !mtb_insn(m, 0x102, 2, 0x200, 0);		 /* b 0x200 */
	ok &= !mtb_insn(m, 0x200, 2, 0x104, 0);		 /* bx lr */
	ok &= !mtb_insn(m, 0x104, 2, 0x106, 0);		 /* bne . not taken: no packet */
	ok &= !mtb_exception(m, 0x106, 0x300);		 /* an interrupt before 0x106 */
	ok &= !mtb_insn(m, 0x300, 2, 0x106, 0xfffffff9); /* its return */
	ok &= !mtb_insn(m, 0x106, 2, 0x108, 0);
	ok &= !mtb_insn(m, 0x108, 2, 0x108, 0); /* b . */
	ok &= !mtb_insn(m, 0x108, 2, 0x108, 0);
	tap_ok(ok, "mtb: encode branches, an exception and its return");
	static const uint8_t want[] = {
	    0x02, 0x01, 0x00, 0x00,
	    0x01, 0x02, 0x00, 0x00, /* 0x102 -> 0x200, S = 1 (first) */
	    0x00, 0x02, 0x00, 0x00,
	    0x04, 0x01, 0x00, 0x00, /* 0x200 -> 0x104 */
	    0x07, 0x01, 0x00, 0x00,
	    0x00, 0x03, 0x00, 0x00, /* A = 1: return address 0x106 -> handler */
	    0x00, 0x03, 0x00, 0x00,
	    0xf8, 0xff, 0xff, 0xff, /* bx lr -> EXC_RETURN 0xfffffff9 */
	    0xf9, 0xff, 0xff, 0xff,
	    0x06, 0x01, 0x00, 0x00, /* A = 1: EXC_RETURN -> 0x106 */
	    0x08, 0x01, 0x00, 0x00,
	    0x08, 0x01, 0x00, 0x00, /* b . */
	    0x08, 0x01, 0x00, 0x00,
	    0x08, 0x01, 0x00, 0x00,
	};
	data = mtb_data(m, &n);
	bytes_are(data, n, want, sizeof(want), "mtb packets");
	mtb_get_stats(m, &st);
	tap_ok(st.packets == 7 && st.first == 2 && st.traced == 8,
	       "mtb: 7 packets, 2 instructions before the first destination, %llu traced",
	       (unsigned long long)st.traced);

	static const uint64_t path[] = {0x200, 0x104, 0x300, 0x106, 0x108, 0x108};
	int dk = mtb_decode(data, n, &image, collect, &g);
	tap_ok(!dk && g.n == (int)ARRAY_SIZE(path) && !memcmp(g.v, path, sizeof(path)),
	       "mtb: decoded back (%d of %zu instructions)", g.n, ARRAY_SIZE(path));

	/* a wrapped buffer: decoding starts at its oldest whole packet */
	static const uint64_t tail[] = {0x104, 0x300, 0x106, 0x108, 0x108};
	g.n = 0;
	dk = mtb_decode(want + 8, sizeof(want) - 8, &image, collect, &g);
	tap_ok(!dk && g.n == (int)ARRAY_SIZE(tail) && !memcmp(g.v, tail, sizeof(tail)),
	       "mtb: a buffer that lost its first packet decodes from the next one");

	uint8_t bad[sizeof(want)];
	memcpy(bad, want, sizeof(want));
	bad[12] = 0x0a; /* 0x200 -> 0x10a: no straight path from 0x10a to 0x106 */
	g.n = 0;
	tap_ok(mtb_decode(bad, sizeof(bad), &image, collect, &g) == -1,
	       "mtb: a destination with no path to the next source is an error");
	memcpy(bad, want, 8);	       /* 0x102 -> 0x200, then */
	memcpy(bad + 8, want + 32, 8); /* EXC_RETURN -> 0x106 with no return to it before */
	g.n = 0;
	tap_ok(mtb_decode(bad, 16, &image, collect, &g) == -1,
	       "mtb: an EXC_RETURN packet with no return before it is refused");
	tap_ok(mtb_decode(want, 12, &image, collect, &g) == -1, "mtb: 12 bytes is no whole packet");
	mtb_free(m);
}

int main(void)
{
	build_image();
	test_thumb();
	test_sequence();
	test_formats();
	test_periodic_sync();
	test_cycles();
	test_etm3();
	test_etm3_cycles();
	test_mtb();
	test_cstf();
	test_cstf_hsync();
	return tap_done();
}

/*
 * msgs_test: the control-flow and load-value message codecs (cfmsg, lvmsg)
 * against bits worked out by hand (the docs/FORMAT.md examples), against a
 * reference encoder built field by field from st_put_uvlc / st_put_svlc /
 * st_put_bits, in long random round trips, and on broken streams.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "streams/bitio.h"
#include "streams/cfmsg.h"
#include "streams/lvmsg.h"
#include "streams/vlc.h"
#include "tests/unit/capture.h"
#include "tests/unit/tap.h"

/* ---- helpers ----------------------------------------------------------- */

/* The writer's stream from bit `from` on as '0'/'1' in transmission order. */
static const char *bits_from(const struct st_writer *w, uint64_t from)
{
	static char s[4096];
	uint64_t n = st_writer_bits(w) - from;

	if (n >= sizeof(s))
		n = sizeof(s) - 1;
	return st_bits_string(st_writer_buf(w, NULL), from, n, s);
}

static const char *bits_of(const struct st_writer *w)
{
	return bits_from(w, 0);
}

/* A stream made of a '0'/'1' string (other characters are skipped). */
static uint64_t from_string(struct st_writer *w, const char *s)
{
	st_writer_init(w);
	for (; *s; s++)
		if (*s == '0' || *s == '1')
			st_put_bit(w, *s == '1');
	return st_writer_bits(w);
}

/* Compare a captured error with the exact expected text. */
static int is_text(const char *got, const char *want, const char *name)
{
	int pass = tap_ok(!strcmp(got, want), "%s", name);

	if (!pass)
		tap_diag("     got: %s#  wanted: %s", got, want);
	return pass;
}

/* Run fn(arg) in a child; its stderr and exit status. */
static int run_child(void (*fn)(void *), void *arg, char *err, size_t size)
{
	int fd[2], status = -1;
	size_t n = 0;
	ssize_t k;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		fn(arg);
		_exit(0);
	}
	close(fd[1]);
	while (n < size - 1 && (k = read(fd[0], err + n, size - 1 - n)) > 0)
		n += (size_t)k;
	err[n] = 0;
	close(fd[0]);
	waitpid(pid, &status, 0);
	return status;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Random value of random width, so short and long chunk runs both occur. */
static uint64_t rnd_width(unsigned maxbits)
{
	uint64_t v = rnd64();
	unsigned w = (unsigned)(rnd64() % (maxbits + 1));

	return w >= 64 ? v : v & ((UINT64_C(1) << w) - 1);
}

/* ---- a reference encoder, field by field through vlc.h ------------------ */

/* Where each field of the last message ended, for the truncation tests. */
struct field_end {
	const char *name;
	uint64_t end;
	int target; /* read by st_cf_get_target */
};

struct ref_cf {
	struct st_cf_format fmt;
	struct st_writer w;
	uint32_t pta[ST_CF_MAX_CORES];
	uint64_t pcc[ST_CF_MAX_CORES];
	uint64_t start;		  /* of the last message */
	struct field_end end[10]; /* its fields */
	int nend;
};

static void ref_mark(struct ref_cf *x, const char *name, int target)
{
	x->end[x->nend].name = name;
	x->end[x->nend].end = st_writer_bits(&x->w);
	x->end[x->nend].target = target;
	x->nend++;
}

static void ref_cf_init(struct ref_cf *x, const struct st_cf_format *f)
{
	memset(x, 0, sizeof(*x));
	x->fmt = *f;
	st_writer_init(&x->w);
}

static void ref_cf_put(struct ref_cf *x, const struct st_cf_msg *m)
{
	const struct st_cf_format *f = &x->fmt;
	const char *cnt = f->enc == ST_CF_NXB ? "SL" : "bCnt";

	x->start = st_writer_bits(&x->w);
	x->nend = 0;
	if (f->timed) {
		st_put_uvlc(&x->w, f->cc, m->cycle - x->pcc[m->core]);
		ref_mark(x, "diffCC", 0);
	}
	x->pcc[m->core] = m->cycle;
	st_put_bits(&x->w, (uint64_t)m->core, st_ti_bits(f->ncores));
	ref_mark(x, "Ti", 0);
	st_put_uvlc(&x->w, f->cnt, m->count);
	ref_mark(x, cnt, 0);
	if (m->count) {
		if (m->indirect) {
			int t = 1;

			if (f->enc != ST_CF_NXB && m->cond) {
				t = m->taken;
				st_put_bit(&x->w, t);
				ref_mark(x, "T", 1);
			}
			if (t) {
				st_put_svlc(&x->w, f->ta,
					    (int64_t)m->ta - (int64_t)x->pta[m->core]);
				x->pta[m->core] = m->ta;
				ref_mark(x, "diffTA", 1);
			}
		}
	} else {
		st_put_uvlc(&x->w, f->icnt, m->icnt);
		ref_mark(x, "iCnt", 0);
		st_put_bits(&x->w, m->exc, 9);
		ref_mark(x, "E", 0);
		st_put_bit(&x->w, m->tail);
		ref_mark(x, "X", 0);
	}
}

/* ---- formats ----------------------------------------------------------- */

static int vlc_is(struct st_vlc ch, unsigned c0, unsigned c1)
{
	return ch.c0 == c0 && ch.c1 == c1;
}

static void test_formats(void)
{
	struct st_cf_format f;
	struct st_lv_format l;
	enum st_cf_enc ce;
	enum st_lv_enc le;
	const char *msg;
	static const unsigned ti[] = {0, 0, 1, 2, 2, 3, 3, 3, 3};

	for (int n = 1; n <= 8; n++)
		tap_is_int(st_ti_bits(n), ti[n], "Ti bits for n cores = ceil(log2 n)");

	st_cf_format_init(&f, ST_CF_NXB, 2, 1);
	tap_ok(f.enc == ST_CF_NXB && f.ncores == 2 && f.timed == 1 && vlc_is(f.cnt, 8, 8) &&
		   vlc_is(f.ta, 16, 16) && vlc_is(f.cc, 8, 8) && vlc_is(f.icnt, 8, 8),
	       "NX_b defaults: SL 8/8, diffTA 16/16, diffCC 8/8, iCnt 8/8");
	st_cf_format_init(&f, ST_CF_TRB, 4, 0);
	tap_ok(f.enc == ST_CF_TRB && f.ncores == 4 && !f.timed && vlc_is(f.cnt, 8, 8) &&
		   vlc_is(f.ta, 16, 16) && vlc_is(f.cc, 8, 8) && vlc_is(f.icnt, 8, 8),
	       "TR_b defaults: bCnt 8/8, diffTA 16/16, diffCC 8/8, iCnt 8/8");
	st_cf_format_init(&f, ST_CF_TRE, 8, 1);
	tap_ok(f.enc == ST_CF_TRE && vlc_is(f.cnt, 3, 2) && vlc_is(f.ta, 3, 4) &&
		   vlc_is(f.cc, 4, 2) && vlc_is(f.icnt, 2, 2),
	       "TR_e defaults: bCnt (3,2), diffTA (3,4), diffCC (4,2), iCnt (2,2)");
	tap_is_int(st_cf_format_check(&f), 0, "TR_e 8 cores timed passes the check");

	st_lv_format_init(&l, ST_LV_NXLV, 1, 1);
	tap_ok(vlc_is(l.cc, 8, 8) && vlc_is(l.cnt, 8, 8), "NX-LV defaults: dCC 8/8 (cnt 8/8)");
	st_lv_format_init(&l, ST_LV_CFIAT, 2, 1);
	tap_ok(vlc_is(l.cnt, 1, 2) && vlc_is(l.cc, 4, 2),
	       "CFiat defaults: fahCnt (1,2), dCC (4,2)");
	st_lv_format_init(&l, ST_LV_MC2RT, 3, 0);
	tap_ok(vlc_is(l.cnt, 8, 8) && vlc_is(l.cc, 8, 8) && l.ncores == 3 && !l.timed,
	       "mc2RT defaults: THCnt 8/8, dCC 8/8");
	tap_is_int(st_lv_format_check(&l), 0, "mc2RT 3 cores passes the check");

	/* every bad field named */
	st_cf_format_init(&f, ST_CF_TRE, 0, 1);
	capture_start();
	tap_is_int(st_cf_format_check(&f), -1, "0 cores refused");
	is_text(capture_end(), "raptor: error: cf format: ncores 0 is not in 1..8\n",
		"  error names ncores");
	f.ncores = 9;
	error_quiet(1);
	tap_is_int(st_cf_format_check(&f), -1, "9 cores refused");
	error_quiet(-1);
	f.ncores = 2;
	f.ta = ST_VLC(0, 4);
	capture_start();
	tap_is_int(st_cf_format_check(&f), -1, "diffTA chunk 0 refused");
	is_text(capture_end(),
		"raptor: error: cf format: diffTA chunk sizes (0,4) are not both in 1..64\n",
		"  error names diffTA, once");
	f.ta = ST_VLC(3, 4);
	f.cc = ST_VLC(4, 65);
	capture_start();
	tap_is_int(st_cf_format_check(&f), -1, "diffCC chunk 65 refused");
	is_text(capture_end(),
		"raptor: error: cf format: diffCC chunk sizes (4,65) are not both in 1..64\n",
		"  error names diffCC");
	f.timed = 0;
	tap_is_int(st_cf_format_check(&f), 0, "a functional format ignores diffCC sizes");
	f.cnt = ST_VLC(0, 0);
	capture_start();
	tap_is_int(st_cf_format_check(&f), -1, "bCnt chunk 0 refused");
	is_text(capture_end(),
		"raptor: error: cf format: bCnt chunk sizes (0,0) are not both in 1..64\n",
		"  error names bCnt");
	st_cf_format_init(&f, ST_CF_NXB, 1, 0);
	f.icnt = ST_VLC(2, 0);
	capture_start();
	tap_is_int(st_cf_format_check(&f), -1, "iCnt chunk 0 refused");
	is_text(capture_end(),
		"raptor: error: cf format: iCnt chunk sizes (2,0) are not both in 1..64\n",
		"  error names iCnt");
	f.icnt = ST_VLC(2, 2);
	f.cnt = ST_VLC(70, 1);
	capture_start();
	tap_is_int(st_cf_format_check(&f), -1, "SL chunk 70 refused");
	is_text(capture_end(),
		"raptor: error: cf format: SL chunk sizes (70,1) are not both in 1..64\n",
		"  NX_b calls its count SL");

	st_lv_format_init(&l, ST_LV_CFIAT, 9, 1);
	capture_start();
	tap_is_int(st_lv_format_check(&l), -1, "lv: 9 cores refused");
	is_text(capture_end(), "raptor: error: lv format: ncores 9 is not in 1..8\n",
		"  error names ncores");
	l.ncores = 4;
	l.cnt = ST_VLC(1, 0);
	capture_start();
	tap_is_int(st_lv_format_check(&l), -1, "lv: fahCnt chunk 0 refused");
	is_text(capture_end(),
		"raptor: error: lv format: fahCnt chunk sizes (1,0) are not both in 1..64\n",
		"  error names fahCnt");
	l.enc = ST_LV_MC2RT;
	error_quiet(1);
	tap_is_int(st_lv_format_check(&l), -1, "lv: THCnt chunk 0 refused");
	error_quiet(-1);
	l.enc = ST_LV_NXLV;
	tap_is_int(st_lv_format_check(&l), 0, "NX-LV has no count, its sizes do not matter");
	l.cc = ST_VLC(0, 8);
	capture_start();
	tap_is_int(st_lv_format_check(&l), -1, "lv: dCC chunk 0 refused");
	is_text(capture_end(),
		"raptor: error: lv format: dCC chunk sizes (0,8) are not both in 1..64\n",
		"  error names dCC");

	/* names */
	tap_ok(!strcmp(st_cf_enc_name(ST_CF_NXB), "nxb") &&
		   !strcmp(st_cf_enc_name(ST_CF_TRB), "trb") &&
		   !strcmp(st_cf_enc_name(ST_CF_TRE), "tre"),
	       "cf encoding names nxb trb tre");
	tap_ok(!strcmp(st_lv_enc_name(ST_LV_NXLV), "nxlv") &&
		   !strcmp(st_lv_enc_name(ST_LV_CFIAT), "cfiat") &&
		   !strcmp(st_lv_enc_name(ST_LV_MC2RT), "mc2rt"),
	       "lv encoding names nxlv cfiat mc2rt");
	tap_ok(!st_cf_enc_parse("TRe", &ce) && ce == ST_CF_TRE, "parse TRe (case-insensitive)");
	tap_ok(!st_cf_enc_parse("nxb", &ce) && ce == ST_CF_NXB, "parse nxb");
	tap_ok(!st_cf_enc_parse("TRB", &ce) && ce == ST_CF_TRB, "parse TRB");
	ce = ST_CF_TRB;
	capture_start();
	tap_ok(st_cf_enc_parse("tr_e", &ce) == -1 && ce == ST_CF_TRB,
	       "tr_e refused, enc untouched");
	msg = capture_end();
	is_text(msg, "raptor: error: unknown control-flow encoding 'tr_e' (valid: nxb, trb, tre, tra)\n",
		"  error lists the valid names");
	tap_ok(!st_lv_enc_parse("CFiat", &le) && le == ST_LV_CFIAT, "parse CFiat");
	tap_ok(!st_lv_enc_parse("MC2RT", &le) && le == ST_LV_MC2RT, "parse MC2RT");
	tap_ok(!st_lv_enc_parse("nxlv", &le) && le == ST_LV_NXLV, "parse nxlv");
	capture_start();
	tap_is_int(st_lv_enc_parse("", &le), -1, "empty lv encoding refused");
	is_text(capture_end(),
		"raptor: error: unknown load-value encoding '' (valid: nxlv, cfiat, mc2rt, cfiata)\n",
		"  error lists the valid names");
}

/* ---- the worked examples of docs/FORMAT.md ------------------------------ */

/* Encode msgs with fmt; check the bits of message i against want[i]. */
static void cf_example(const struct st_cf_format *fmt, const struct st_cf_msg *msgs, int n,
		       const char *const *want, const char *name)
{
	struct st_cf_encoder e;
	struct st_cf_decoder d;
	uint64_t at = 0;
	int ok = 1;

	st_cf_encoder_init(&e, fmt);
	for (int i = 0; i < n; i++) {
		const char *got;

		st_cf_put(&e, &msgs[i]);
		got = bits_from(&e.w, at);
		if (!tap_ok(!strcmp(got, want[i]), "%s: message %d is %s", name, i, want[i]))
			tap_diag("got %s", got);
		at = st_writer_bits(&e.w);
	}
	st_cf_decoder_init(&d, fmt, st_writer_buf(&e.w, NULL), at, name);
	for (int i = 0; i < n && ok; i++) {
		struct st_cf_msg m;
		const struct st_cf_msg *w = &msgs[i];

		ok = !st_cf_get_head(&d, &m) && m.core == w->core && m.count == w->count &&
		     m.cycle == (fmt->timed ? w->cycle : 0);
		if (ok && w->count && w->indirect)
			ok = !st_cf_get_target(&d, &m, w->cond) &&
			     m.taken == (w->taken || !w->cond) && (!m.taken || m.ta == w->ta);
		if (ok && !w->count)
			ok = m.icnt == w->icnt && m.exc == w->exc && m.tail == w->tail;
	}
	tap_ok(ok && st_cf_decoder_pos(&d) == at, "%s: decodes back", name);
	tap_ok(!memcmp(&d.fields, &e.fields, sizeof(d.fields)) &&
		   st_cf_fields_total(&e.fields) == at,
	       "%s: same field counters both ways, total %llu bits", name, (unsigned long long)at);
	st_cf_encoder_release(&e);
}

static void test_cf_examples(void)
{
	struct st_cf_format f;

	/*
	 * Example 1: TR_e outcome miss, core 1 of 2, bCnt 19, timed, diffCC 37.
	 *   diffCC 37 = 10 0101b in (4,2): chunk 0101 sent 1,0,1,0; C 1;
	 *     chunk 10 sent 0,1; C 0                      -> 1010 1 01 0
	 *   Ti 1 in 1 bit                                 -> 1
	 *   bCnt 19 = 10 011b in (3,2): 011 -> 1,1,0; C 1; 10 -> 0,1; C 0
	 *                                                 -> 110 1 01 0
	 */
	{
		static const struct st_cf_msg m[] = {{.core = 1, .cycle = 37, .count = 19}};
		static const char *const want[] = {"1010"
						   "1"
						   "01"
						   "0"
						   "1"
						   "110"
						   "1"
						   "01"
						   "0"};

		st_cf_format_init(&f, ST_CF_TRE, 2, 1);
		cf_example(&f, m, 1, want, "FORMAT.md example 1, tTR_e outcome miss");
	}

	/* The TRaptor vectors with i0 = i1 = 3, 1 core, functional: Ti and diffCC absent. */
	{
		static const struct st_cf_msg m[] = {{.count = 3}, {.count = 19}};
		static const char *const want[] = {"110"
						   "0",
						   "110"
						   "1"
						   "010"
						   "0"};

		st_cf_format_init(&f, ST_CF_TRE, 1, 0);
		f.cnt = ST_VLC(3, 3);
		cf_example(&f, m, 2, want, "TRaptor bCnt 3 and 19 (3,3)");
	}

	/*
	 * Example 2: TR_e functional, 3 cores (Ti 2 bits), core 2.
	 *  a) target miss of a conditional indirect branch, taken, bCnt 1,
	 *     TA 0x100, PTA 0: Ti 2 -> 0,1; bCnt 1 -> 100 0; T 1;
	 *     diffTA +256 = 10 0000 000b in (3,4): S 0; 000 C 1; 0000 C 1;
	 *     0010 -> 0,1,0,0; C 0
	 *  b) target miss, unconditional, bCnt 2, TA 0xf8: diffTA -8:
	 *     S 1; 000 C 1; 0001 -> 1,0,0,0; C 0
	 *  c) conditional indirect not taken, bCnt 5, core 0: T 0, no diffTA
	 */
	{
		static const struct st_cf_msg m[] = {
		    {.core = 2, .count = 1, .indirect = 1, .cond = 1, .taken = 1, .ta = 0x100},
		    {.core = 2, .count = 2, .indirect = 1, .taken = 1, .ta = 0xf8},
		    {.core = 0, .count = 5, .indirect = 1, .cond = 1, .taken = 0, .ta = 0x1234},
		};
		static const char *const want[] = {
		    "01"
		    "100"
		    "0"
		    "1"
		    "0"
		    "000"
		    "1"
		    "0000"
		    "1"
		    "0100"
		    "0",
		    "01"
		    "010"
		    "0"
		    "1"
		    "000"
		    "1"
		    "1000"
		    "0",
		    "00"
		    "101"
		    "0"
		    "0",
		};

		st_cf_format_init(&f, ST_CF_TRE, 3, 0);
		cf_example(&f, m, 3, want, "example 2, TR_e target misses");
	}

	/*
	 * Example 3: TR_e timed, 2 cores, core 1: exception 15 (SysTick)
	 * tail-chained after iCnt 6, diffCC 3; then its end after 0 more
	 * instructions, diffCC 0.
	 *   diffCC 3 -> 1100 0; Ti 1; bCnt 0 -> 000 0;
	 *   iCnt 6 = 1 10b in (2,2): 10 -> 0,1; C 1; 01 -> 1,0; C 0;
	 *   E 15 in 9 bits -> 1,1,1,1,0,0,0,0,0; X 1
	 *   end: diffCC 0 -> 0000 0; Ti 1; 000 0; iCnt 0 -> 00 0; E 0; X 0
	 */
	{
		static const struct st_cf_msg m[] = {
		    {.core = 1, .cycle = 3, .icnt = 6, .exc = 15, .tail = 1},
		    {.core = 1, .cycle = 3, .icnt = 0, .exc = ST_CF_END},
		};
		static const char *const want[] = {
		    "1100"
		    "0"
		    "1"
		    "000"
		    "0"
		    "01"
		    "1"
		    "10"
		    "0"
		    "111100000"
		    "1",
		    "0000"
		    "0"
		    "1"
		    "000"
		    "0"
		    "00"
		    "0"
		    "000000000"
		    "0",
		};

		st_cf_format_init(&f, ST_CF_TRE, 2, 1);
		cf_example(&f, m, 2, want, "example 3, tTR_e exception and end");
	}

	/*
	 * Example 4: NX_b timed, 2 cores, core 0: an indirect branch after
	 * SL 12 instructions at cycle 300 to 0x20000000 (PTA 0).
	 *   diffCC 300 = 1 0010 1100b in (8,8): 0010 1100 -> 00110100; C 1;
	 *     00000001 -> 10000000; C 0
	 *   Ti 0; SL 12 -> 00110000 0
	 *   diffTA +0x20000000: S 0; low 16 bits 0 -> 16 zeros; C 1;
	 *     0x2000 -> bit 13 set: 0000000000000100; C 0
	 */
	{
		static const struct st_cf_msg m[] = {
		    {.cycle = 300, .count = 12, .indirect = 1, .taken = 1, .ta = 0x20000000}};
		static const char *const want[] = {"00110100"
						   "1"
						   "10000000"
						   "0"
						   "0"
						   "00110000"
						   "0"
						   "0"
						   "0000000000000000"
						   "1"
						   "0000000000000100"
						   "0"};

		st_cf_format_init(&f, ST_CF_NXB, 2, 1);
		cf_example(&f, m, 1, want, "example 4, tNX_b indirect branch");
	}

	/* Example 5: TR_b functional, 1 core: bCnt 300 in two 8-bit chunks; direct. */
	{
		static const struct st_cf_msg m[] = {{.count = 300}};
		static const char *const want[] = {"00110100"
						   "1"
						   "10000000"
						   "0"};

		st_cf_format_init(&f, ST_CF_TRB, 1, 0);
		cf_example(&f, m, 1, want, "example 5, TR_b bCnt 300");
	}

	/* the same bits as stored bytes: example 1 is 16 bits */
	{
		struct st_cf_encoder e;
		struct st_cf_msg m = {.core = 1, .cycle = 37, .count = 19};
		const uint8_t *b;
		size_t n;

		st_cf_format_init(&f, ST_CF_TRE, 2, 1);
		st_cf_encoder_init(&e, &f);
		st_cf_put(&e, &m);
		b = st_writer_buf(&e.w, &n);
		/* bits 10101010 11101010: bit i is bit i%8 of byte i/8 -> 0x55 0x57 */
		tap_ok(n == 2 && b[0] == 0x55 && b[1] == 0x57 && st_writer_bits(&e.w) == 16,
		       "example 1 stored as 55 57 (16 bits)");
		st_cf_encoder_release(&e);
	}
}

static void lv_example(const struct st_lv_format *fmt, const struct st_lv_msg *m,
		       const uint8_t *value, unsigned n, const char *want, const char *name)
{
	struct st_lv_encoder e;
	struct st_lv_decoder d;
	struct st_lv_msg g;
	uint8_t v[ST_LV_MAX_VALUE];
	const char *got;

	st_lv_encoder_init(&e, fmt);
	st_lv_put(&e, m, value, n);
	got = bits_of(&e.w);
	if (!tap_ok(!strcmp(got, want), "%s is %s", name, want))
		tap_diag("got %s", got);
	st_lv_decoder_init(&d, fmt, st_writer_buf(&e.w, NULL), st_writer_bits(&e.w), name);
	tap_ok(!st_lv_get_head(&d, &g) && g.core == m->core && g.count == m->count &&
		   g.cycle == (fmt->timed ? m->cycle : 0) && !st_lv_get_value(&d, v, n) &&
		   !memcmp(v, value, n) && st_lv_get_head(&d, &g) == 1,
	       "%s decodes back", name);
	tap_ok(!memcmp(&d.fields, &e.fields, sizeof(d.fields)) &&
		   st_lv_fields_total(&e.fields) == st_writer_bits(&e.w),
	       "%s: same field counters both ways", name);
	st_lv_encoder_release(&e);
}

static void test_lv_examples(void)
{
	struct st_lv_format f;

	/*
	 * CFiat timed, 4 cores, core 1: a word load of 0x12345678 (bytes 78 56
	 * 34 12 in address order) after 5 FA hits, 5 cycles after cycle 0.
	 *   dCC 5 = 0101b in (4,2) -> 1010 0
	 *   Ti 1 in 2 bits -> 10
	 *   fahCnt 5 = 10 1b in (1,2): 1 C 1; 10 -> 0,1; C 0 -> 1 1 01 0
	 *   value: 0x78 -> 00011110, 0x56 -> 01101010, 0x34 -> 00101100,
	 *          0x12 -> 01001000
	 */
	{
		static const uint8_t val[] = {0x78, 0x56, 0x34, 0x12};
		struct st_lv_msg m = {.core = 1, .cycle = 5, .count = 5};

		st_lv_format_init(&f, ST_LV_CFIAT, 4, 1);
		lv_example(&f, &m, val, 4,
			   "1010"
			   "0"
			   "10"
			   "1"
			   "1"
			   "01"
			   "0"
			   "00011110"
			   "01101010"
			   "00101100"
			   "01001000",
			   "example 6, tCFiat word");
	}
	/* NX-LV, 1 core, functional: only the value; byte order 01 then 80 */
	{
		static const uint8_t val[] = {0x01, 0x80};
		struct st_lv_msg m = {0};

		st_lv_format_init(&f, ST_LV_NXLV, 1, 0);
		lv_example(&f, &m, val, 2,
			   "10000000"
			   "00000001",
			   "example 7, NX-LV halfword 0x8001");
	}
	/* mc2RT, 2 cores, functional, core 1, THCnt 0, an 8-byte line 00 .. 07 */
	{
		static const uint8_t val[] = {0, 1, 2, 3, 4, 5, 6, 7};
		struct st_lv_msg m = {.core = 1};

		st_lv_format_init(&f, ST_LV_MC2RT, 2, 0);
		lv_example(&f, &m, val, 8,
			   "1"
			   "00000000"
			   "0"
			   "00000000"
			   "10000000"
			   "01000000"
			   "11000000"
			   "00100000"
			   "10100000"
			   "01100000"
			   "11100000",
			   "example 8, mc2RT line");
	}
	/* tNX-LV, 2 cores: dCC 256 in (8,8): 00000000 1 10000000 0; Ti 0; one byte 0xc3 */
	{
		static const uint8_t val[] = {0xc3};
		struct st_lv_msg m = {.core = 0, .cycle = 256};

		st_lv_format_init(&f, ST_LV_NXLV, 2, 1);
		lv_example(&f, &m, val, 1,
			   "00000000"
			   "1"
			   "10000000"
			   "0"
			   "0"
			   "11000011",
			   "example 9, tNX-LV byte");
	}
}

/* ---- control flow: round trips against the reference ---------------------- */

/* What st_cf_get_target must give for m, and whether it is called at all. */
static int has_target(const struct st_cf_msg *m)
{
	return m->count && m->indirect;
}

static int want_taken(const struct st_cf_format *f, const struct st_cf_msg *m)
{
	return f->enc == ST_CF_NXB || !m->cond ? 1 : !!m->taken;
}

/*
 * Encode msgs with st_cf_put and with the reference; the bits must be the
 * same, decode must give every field back, and both sides must count the
 * same bits per field, adding up to the stream length.
 */
static void cf_round_trip(const struct st_cf_format *f, const struct st_cf_msg *msgs, size_t n,
			  const char *name)
{
	struct st_cf_encoder e;
	struct st_cf_decoder d;
	struct ref_cf ref;
	struct st_cf_fields kinds = {0};
	uint64_t nbits;
	size_t bad = n, nb, nr;
	const uint8_t *eb, *rb;
	int rc = 0;

	st_cf_encoder_init(&e, f);
	ref_cf_init(&ref, f);
	for (size_t i = 0; i < n; i++) {
		const struct st_cf_msg *m = &msgs[i];

		st_cf_put(&e, m);
		ref_cf_put(&ref, m);
		kinds.msgs++;
		if (!m->count)
			m->exc ? kinds.exc_msgs++ : kinds.end_msgs++;
		else if (has_target(m))
			kinds.target_msgs++;
		else
			kinds.branch_msgs++;
	}
	nbits = st_writer_bits(&e.w);
	eb = st_writer_buf(&e.w, &nb);
	rb = st_writer_buf(&ref.w, &nr);
	tap_ok(nbits == st_writer_bits(&ref.w) && nb == nr && !memcmp(eb, rb, nb),
	       "%s: %zu messages, %llu bits, same bits as the reference", name, n,
	       (unsigned long long)nbits);
	tap_ok(st_cf_fields_total(&e.fields) == nbits, "%s: fields_total = bits written", name);
	tap_ok(e.fields.msgs == kinds.msgs && e.fields.branch_msgs == kinds.branch_msgs &&
		   e.fields.target_msgs == kinds.target_msgs &&
		   e.fields.exc_msgs == kinds.exc_msgs && e.fields.end_msgs == kinds.end_msgs &&
		   e.fields.ti == n * st_ti_bits(f->ncores),
	       "%s: message kinds %llu/%llu/%llu/%llu and Ti bits counted", name,
	       (unsigned long long)kinds.branch_msgs, (unsigned long long)kinds.target_msgs,
	       (unsigned long long)kinds.exc_msgs, (unsigned long long)kinds.end_msgs);

	st_cf_decoder_init(&d, f, eb, nbits, name);
	for (size_t i = 0; i < n && bad == n; i++) {
		const struct st_cf_msg *w = &msgs[i];
		struct st_cf_msg m;
		int ok;

		rc = st_cf_get_head(&d, &m);
		ok = !rc && m.core == w->core && m.count == w->count &&
		     m.cycle == (f->timed ? w->cycle : 0);
		if (ok && !w->count)
			ok = m.icnt == w->icnt && m.exc == w->exc && m.tail == !!w->tail;
		if (ok && has_target(w)) {
			ok = !st_cf_get_target(&d, &m, w->cond) && m.taken == want_taken(f, w) &&
			     (!m.taken || m.ta == w->ta);
		}
		if (!ok)
			bad = i;
	}
	if (bad < n)
		tap_diag("message %zu (core %d count %llu) differs, rc %d", bad, msgs[bad].core,
			 (unsigned long long)msgs[bad].count, rc);
	tap_ok(bad == n && st_cf_get_head(&d, &(struct st_cf_msg){0}) == 1,
	       "%s: every field decodes back, then a clean end", name);
	tap_ok(!memcmp(&d.fields, &e.fields, sizeof(d.fields)) &&
		   !memcmp(d.pta, e.pta, sizeof(d.pta)) &&
		   (!f->timed || !memcmp(d.pcc, e.pcc, sizeof(d.pcc))),
	       "%s: decoder's field counters, PTA and PCC equal the encoder's", name);
	st_cf_encoder_release(&e);
	st_writer_release(&ref.w);
}

/* Every kind of message from every core, cycles going up. */
static size_t cf_all_kinds(const struct st_cf_format *f, struct st_cf_msg *m)
{
	size_t n = 0;
	uint64_t cyc = 1;

	for (int c = 0; c < f->ncores; c++) {
		uint32_t base = 0x08000100u + 0x40u * (uint32_t)c;

		/* outcome miss (TR) / taken conditional direct branch (NX) */
		m[n++] = (struct st_cf_msg){.core = c, .cycle = cyc++, .count = 1};
		m[n++] = (struct st_cf_msg){.core = c, .cycle = cyc += 1000, .count = 1000};
		/* unconditional indirect: a return, an indirect call */
		m[n++] = (struct st_cf_msg){
		    .core = c, .cycle = cyc++, .count = 3, .indirect = 1, .taken = 1, .ta = base};
		m[n++] = (struct st_cf_msg){.core = c,
					    .cycle = cyc += 70000,
					    .count = 2,
					    .indirect = 1,
					    .taken = 1,
					    .ta = 0x20001000};
		/* conditional indirect (bxne lr): taken, back down (negative diffTA) */
		m[n++] = (struct st_cf_msg){.core = c,
					    .cycle = cyc,
					    .count = 1,
					    .indirect = 1,
					    .cond = 1,
					    .taken = 1,
					    .ta = base - 0x20};
		/* ... and not taken: TR_* sends T = 0 only, NX_b has no such message */
		if (f->enc != ST_CF_NXB)
			m[n++] = (struct st_cf_msg){.core = c,
						    .cycle = cyc++,
						    .count = 4,
						    .indirect = 1,
						    .cond = 1,
						    .taken = 0,
						    .ta = 0xdeadbeef};
		/* exceptions: between instructions, tail-chained, the largest E */
		m[n++] = (struct st_cf_msg){.core = c, .cycle = cyc++, .icnt = 7, .exc = 11};
		m[n++] = (struct st_cf_msg){
		    .core = c, .cycle = cyc += 3, .icnt = 0, .exc = 511, .tail = 1};
		m[n++] = (struct st_cf_msg){.core = c, .cycle = cyc, .icnt = 300, .exc = 16};
	}
	/* TA edges: 0 -> 0xffffffff -> 0 */
	m[n++] = (struct st_cf_msg){
	    .core = 0, .cycle = cyc++, .count = 1, .indirect = 1, .taken = 1, .ta = 0};
	m[n++] = (struct st_cf_msg){
	    .core = 0, .cycle = cyc++, .count = 1, .indirect = 1, .taken = 1, .ta = 0xffffffff};
	m[n++] = (struct st_cf_msg){
	    .core = 0, .cycle = cyc++, .count = 1, .indirect = 1, .taken = 1, .ta = 0};
	for (int c = 0; c < f->ncores; c++)
		m[n++] = (struct st_cf_msg){.core = c, .cycle = cyc++, .icnt = 5, .exc = ST_CF_END};
	return n;
}

static void test_cf_kinds(void)
{
	static const int cores[] = {1, 2, 3, 8};
	static const unsigned tiw[] = {0, 1, 2, 3};
	struct st_cf_msg m[ST_CF_MAX_CORES * 12 + 8];

	for (int enc = ST_CF_NXB; enc <= ST_CF_TRE; enc++)
		for (int timed = 0; timed < 2; timed++)
			for (size_t k = 0; k < ARRAY_SIZE(cores); k++) {
				struct st_cf_format f;
				char name[64];
				size_t n;

				st_cf_format_init(&f, (enum st_cf_enc)enc, cores[k], timed);
				n = cf_all_kinds(&f, m);
				snprintf(name, sizeof(name), "%s%s %d cores (Ti %u bits) kinds",
					 timed ? "t" : "", st_cf_enc_name(f.enc), cores[k], tiw[k]);
				tap_is_int(st_ti_bits(cores[k]), tiw[k], name);
				cf_round_trip(&f, m, n, name);
			}
}

/* A random message for f; clock[] holds each core's cycle. */
static void cf_random_msg(const struct st_cf_format *f, uint64_t *clock, uint32_t *last_ta,
			  struct st_cf_msg *m)
{
	unsigned kind = (unsigned)(rnd64() % 16);
	int c = (int)(rnd64() % (uint64_t)f->ncores);

	memset(m, 0, sizeof(*m));
	m->core = c;
	/* mostly small steps, sometimes 0, sometimes 2^40 */
	clock[c] += rnd64() % 8 == 0 ? 0 : rnd_width(40);
	m->cycle = clock[c];
	if (kind < 7) {
		m->count = 1 + rnd_width(63);
	} else if (kind < 13) {
		m->count = 1 + rnd_width(20);
		m->indirect = 1;
		m->cond = kind >= 11;
		m->taken = f->enc == ST_CF_NXB || !m->cond ? 1 : (int)(rnd64() & 1);
		switch (rnd64() % 4) {
		case 0: m->ta = (uint32_t)rnd64(); break;
		case 1: m->ta = (uint32_t)rnd64() & 1 ? 0 : 0xffffffff; break;
		default: m->ta = last_ta[c] + (uint32_t)(rnd_width(12) - 2048) * 2; break;
		}
		if (m->taken)
			last_ta[c] = m->ta;
	} else {
		m->icnt = rnd_width(64);
		m->exc = kind == 15 && rnd64() % 4 == 0 ? ST_CF_END : 1 + (unsigned)(rnd64() % 511);
		m->tail = m->exc != ST_CF_END && (rnd64() & 1);
	}
}

static void cf_random_run(const struct st_cf_format *f, size_t n, const char *name)
{
	struct st_cf_msg *m = calloc(n, sizeof(*m));
	uint64_t clock[ST_CF_MAX_CORES] = {0};
	uint32_t last_ta[ST_CF_MAX_CORES] = {0};

	if (!m)
		return;
	for (size_t i = 0; i < n; i++)
		cf_random_msg(f, clock, last_ta, &m[i]);
	cf_round_trip(f, m, n, name);
	free(m);
}

static void test_cf_random(void)
{
	static const int cores[] = {1, 2, 3, 8};
	char name[96];

	rng = 20150601; /* fixed seed */
	for (int enc = ST_CF_NXB; enc <= ST_CF_TRE; enc++)
		for (int timed = 0; timed < 2; timed++)
			for (size_t k = 0; k < ARRAY_SIZE(cores); k++) {
				struct st_cf_format f;

				st_cf_format_init(&f, (enum st_cf_enc)enc, cores[k], timed);
				snprintf(name, sizeof(name), "random %s%s %d cores",
					 timed ? "t" : "", st_cf_enc_name(f.enc), cores[k]);
				cf_random_run(&f, 3000, name);
			}
	/* odd chunk sizes, up to the 64-bit ones that take two loads */
	for (int i = 0; i < 8; i++) {
		static const unsigned sizes[] = {1, 2, 5, 13, 31, 56, 57, 58, 63, 64};
		struct st_cf_format f;

		st_cf_format_init(&f, (enum st_cf_enc)(i % 3), 1 + i, 1);
		f.cnt = ST_VLC(sizes[rnd64() % 10], sizes[rnd64() % 10]);
		f.ta = ST_VLC(sizes[rnd64() % 10], sizes[rnd64() % 10]);
		f.cc = ST_VLC(sizes[rnd64() % 10], sizes[rnd64() % 10]);
		f.icnt = ST_VLC(sizes[rnd64() % 10], sizes[rnd64() % 10]);
		snprintf(
		    name, sizeof(name),
		    "random t%s %d cores, chunks cnt (%u,%u) ta (%u,%u) cc (%u,%u) icnt (%u,%u)",
		    st_cf_enc_name(f.enc), f.ncores, f.cnt.c0, f.cnt.c1, f.ta.c0, f.ta.c1, f.cc.c0,
		    f.cc.c1, f.icnt.c0, f.icnt.c1);
		cf_random_run(&f, 2000, name);
	}
}

/* ---- control flow: broken streams ---------------------------------------- */

/*
 * Cut the stream of prefix + last at every bit of last: each cut gives a
 * clean end (at the message start) or exactly the error naming the field
 * the stream ends in, with the reader back where the failing call began.
 */
static void cf_cuts(const struct st_cf_format *f, const struct st_cf_msg *msgs, size_t n,
		    const char *name)
{
	struct ref_cf ref;
	const struct st_cf_msg *last = &msgs[n - 1];
	uint64_t start, end, cuts = 0;
	int ok = 1;

	ref_cf_init(&ref, f);
	for (size_t i = 0; i < n; i++)
		ref_cf_put(&ref, &msgs[i]);
	start = ref.start;
	end = st_writer_bits(&ref.w);
	for (uint64_t k = start; k < end && ok; k++, cuts++) {
		struct st_cf_decoder d;
		struct st_cf_msg m;
		char want[256];
		const char *got = "";
		uint64_t tstart = start;
		int fi = 0, rc = 0;

		st_cf_decoder_init(&d, f, st_writer_buf(&ref.w, NULL), k, "cut");
		for (size_t i = 0; i + 1 < n && ok; i++) {
			ok = !st_cf_get_head(&d, &m);
			if (ok && has_target(&msgs[i]))
				ok = !st_cf_get_target(&d, &m, msgs[i].cond);
		}
		if (!ok) {
			tap_diag("prefix does not decode at cut %llu", (unsigned long long)k);
			break;
		}
		if (k == start) {
			ok = st_cf_get_head(&d, &m) == 1 && st_cf_decoder_pos(&d) == start;
			continue;
		}
		while (ref.end[fi].end <= k)
			fi++;
		for (int j = 0; j < fi; j++)
			if (!ref.end[j].target)
				tstart = ref.end[j].end;
		if (!ref.end[fi].target) {
			capture_start();
			rc = st_cf_get_head(&d, &m);
			got = capture_end();
			snprintf(want, sizeof(want),
				 "raptor: error: cut: message at bit %llu: %s runs past the end of "
				 "the stream (%llu bits)\n",
				 (unsigned long long)start, ref.end[fi].name,
				 (unsigned long long)k);
			ok = rc == -1 && st_cf_decoder_pos(&d) == start && !strcmp(got, want);
		} else {
			ok = !st_cf_get_head(&d, &m);
			capture_start();
			rc = ok ? st_cf_get_target(&d, &m, last->cond) : 0;
			got = capture_end();
			snprintf(
			    want, sizeof(want),
			    "raptor: error: cut: target (core %d) at bit %llu: %s runs past the "
			    "end of the stream (%llu bits)\n",
			    last->core, (unsigned long long)tstart, ref.end[fi].name,
			    (unsigned long long)k);
			ok =
			    ok && rc == -1 && st_cf_decoder_pos(&d) == tstart && !strcmp(got, want);
		}
		if (!ok)
			tap_diag("cut at %llu: rc %d pos %llu\n#  got: %s#  wanted: %s",
				 (unsigned long long)k, rc,
				 (unsigned long long)st_cf_decoder_pos(&d), got, want);
	}
	tap_ok(ok && cuts == end - start, "%s: cut at each of its %llu bits, exact errors", name,
	       (unsigned long long)(end - start));
	st_writer_release(&ref.w);
}

static void test_cf_cuts(void)
{
	struct st_cf_format f;
	struct st_cf_msg m[3] = {
	    {.core = 1, .cycle = 10, .count = 2, .indirect = 1, .taken = 1, .ta = 0x08000400},
	    {.core = 2, .cycle = 12, .count = 1},
	};

	st_cf_format_init(&f, ST_CF_TRE, 3, 1);
	m[2] = (struct st_cf_msg){.core = 1, .cycle = 400, .count = 77};
	cf_cuts(&f, m, 3, "tTR_e outcome miss");
	m[2] = (struct st_cf_msg){.core = 1,
				  .cycle = 400,
				  .count = 9,
				  .indirect = 1,
				  .cond = 1,
				  .taken = 1,
				  .ta = 0x08000100};
	cf_cuts(&f, m, 3, "tTR_e conditional target miss (Ti, bCnt, T, diffTA)");
	m[2].taken = 0;
	cf_cuts(&f, m, 3, "tTR_e conditional indirect not taken");
	m[2] = (struct st_cf_msg){.core = 1, .cycle = 400, .icnt = 1234, .exc = 300, .tail = 1};
	cf_cuts(&f, m, 3, "tTR_e exception (iCnt, E, X)");
	m[2] = (struct st_cf_msg){.core = 2, .cycle = 1u << 20, .icnt = 5, .exc = ST_CF_END};
	cf_cuts(&f, m, 3, "tTR_e end");

	st_cf_format_init(&f, ST_CF_NXB, 2, 1);
	m[1].core = 0;
	m[2] = (struct st_cf_msg){
	    .core = 1, .cycle = 1u << 30, .count = 40, .indirect = 1, .taken = 1, .ta = 0x100};
	cf_cuts(&f, m, 3, "tNX_b indirect (SL, diffTA)");
	st_cf_format_init(&f, ST_CF_TRB, 2, 0);
	cf_cuts(&f, m, 3, "TR_b target miss");
	m[2] = (struct st_cf_msg){.core = 0, .icnt = 70000, .exc = 3};
	cf_cuts(&f, m, 3, "TR_b exception");
}

/*
 * Decode a hand-made stream named sname with ops, one letter per call:
 * h st_cf_get_head, t st_cf_get_target(cond 0), c st_cf_get_target(cond 1).
 * All but the last must succeed; the last must fail with exactly want and
 * leave the reader at want_pos.
 */
static void cf_bad_stream(const struct st_cf_format *f, const char *sname, const char *bits,
			  const char *ops, const char *want, uint64_t want_pos, const char *name)
{
	struct st_writer w;
	struct st_cf_decoder d;
	struct st_cf_msg m = {0};
	uint64_t n = from_string(&w, bits);
	const char *got = "";
	int rc = 0;

	st_cf_decoder_init(&d, f, st_writer_buf(&w, NULL), n, sname);
	for (; *ops && !rc; ops++) {
		int last = !ops[1];

		if (last)
			capture_start();
		rc = *ops == 'h' ? st_cf_get_head(&d, &m) : st_cf_get_target(&d, &m, *ops == 'c');
		if (last)
			got = capture_end();
	}
	tap_ok(rc == -1 && !*ops && st_cf_decoder_pos(&d) == want_pos, "%s: -1, reader at bit %llu",
	       name, (unsigned long long)want_pos);
	is_text(got, want, "  exact error");
	/* and it stays broken: the same call fails the same way, at the same place */
	error_quiet(1);
	rc = ops[-1] == 'h' ? st_cf_get_head(&d, &m) : st_cf_get_target(&d, &m, ops[-1] == 'c');
	error_quiet(-1);
	tap_ok(rc == -1 && st_cf_decoder_pos(&d) == want_pos, "  again: same failure, same place");
	st_writer_release(&w);
}

static void test_cf_errors(void)
{
	struct st_cf_format f;

	/* Ti 3 with 3 cores, after a good 6-bit message of core 2 */
	st_cf_format_init(&f, ST_CF_TRE, 3, 0);
	cf_bad_stream(&f, "t3.cf", "01 100 0  11 100 0", "hh",
		      "raptor: error: t3.cf: message at bit 6: Ti 3 is not a core (3 cores)\n", 6,
		      "Ti 3 >= 3 cores");

	/* an end message with X = 1 */
	st_cf_format_init(&f, ST_CF_TRE, 1, 0);
	cf_bad_stream(&f, "x.cf", "000 0  00 0  000000000 1", "h",
		      "raptor: error: x.cf: message at bit 0: X is 1 in an end message (E = 0, "
		      "core 0)\n",
		      0, "end message with X = 1");
	/* but X = 1 with an exception number is a tail chain */
	{
		struct st_writer w;
		struct st_cf_decoder d;
		struct st_cf_msg m;
		uint64_t n = from_string(&w, "000 0  00 0  100000000 1");

		st_cf_decoder_init(&d, &f, st_writer_buf(&w, NULL), n, "tail");
		tap_ok(!st_cf_get_head(&d, &m) && m.exc == 1 && m.tail == 1 && m.icnt == 0 &&
			   !m.count && st_cf_get_head(&d, &m) == 1,
		       "E 1 X 1: a tail-chained exception 1");
		st_writer_release(&w);
	}

	/* non-minimal and too long chunked values, a negative zero */
	cf_bad_stream(&f, "nm.cf", "000 1 00 0", "h",
		      "raptor: error: nm.cf: message at bit 0: bCnt is not minimal (ends in a "
		      "chunk of zeros)\n",
		      0, "non-minimal bCnt");
	cf_bad_stream(&f, "nz.cf", "100 0  1 000 0", "ht",
		      "raptor: error: nz.cf: target (core 0) at bit 4: diffTA is a negative zero\n",
		      4, "negative zero diffTA");
	cf_bad_stream(&f, "nt.cf", "100 0  1 1 000 1 0000 0", "hc",
		      "raptor: error: nt.cf: target (core 0) at bit 4: diffTA is not minimal (ends "
		      "in a chunk of zeros)\n",
		      4, "non-minimal diffTA after T");
	st_cf_format_init(&f, ST_CF_TRB, 1, 0);
	cf_bad_stream(
	    &f, "big.cf",
	    "11111111 1 11111111 1 11111111 1 11111111 1 11111111 1 11111111 1 11111111 1 "
	    "11111111 1 10000000 0",
	    "h", "raptor: error: big.cf: message at bit 0: bCnt does not fit in 64 bits\n", 0,
	    "bCnt of 2^64 and more");

	cf_bad_stream(
	    &f, "big.cf",
	    "11111111 1 11111111 1 11111111 1 11111111 1 11111111 1 11111111 1 11111111 1 "
	    "11111111 1 00000000 1 10000000 0",
	    "h", "raptor: error: big.cf: message at bit 0: bCnt does not fit in 64 bits\n", 0,
	    "bCnt with a zero chunk at bit 64, then 2^72");
	/* (60,8): a second chunk reaching past bit 63 (bit 4 of it is 2^64) */
	f.cnt = ST_VLC(60, 8);
	cf_bad_stream(&f, "big.cf",
		      "100000000000000000000000000000000000000000000000000000000000 1 00001000 0",
		      "h",
		      "raptor: error: big.cf: message at bit 0: bCnt does not fit in 64 bits\n", 0,
		      "(60,8) bCnt with bit 64 set");
	{
		/* while bit 63 in that chunk is fine: 2^63 + 1 */
		struct st_writer w;
		struct st_cf_decoder d;
		struct st_cf_msg m;
		uint64_t n = from_string(
		    &w,
		    "100000000000000000000000000000000000000000000000000000000000 1 00010000 0");

		st_cf_decoder_init(&d, &f, st_writer_buf(&w, NULL), n, "top");
		tap_ok(!st_cf_get_head(&d, &m) && m.count == (UINT64_C(1) << 63) + 1,
		       "(60,8) bCnt 2^63 + 1 decodes");
		st_writer_release(&w);
	}
	f.cnt = ST_VLC(8, 8);

	/* TA out of 32 bits: below 0, and above 0xffffffff */
	cf_bad_stream(
	    &f, "ta.cf", "10000000 0  1 1000000000000000 0", "ht",
	    "raptor: error: ta.cf: target (core 0) at bit 9: diffTA -0x1 takes the target "
	    "outside 32 bits (PTA 0x00000000)\n",
	    9, "TA below 0");
	/* bCnt 1, diffTA +0xffffffff (44 bits); then bCnt 1, diffTA +1 */
	cf_bad_stream(&f, "ta.cf",
		      "10000000 0  0 1111111111111111 1 1111111111111111 0 "
		      "10000000 0  0 1000000000000000 0",
		      "htht",
		      "raptor: error: ta.cf: target (core 0) at bit 53: diffTA +0x1 takes the "
		      "target outside 32 bits (PTA 0xffffffff)\n",
		      53, "TA above 0xffffffff");
	cf_bad_stream(&f, "ta.cf",
		      "10000000 0  0 1111111111111111 1 1111111111111111 1 1000000000000000 0",
		      "ht",
		      "raptor: error: ta.cf: target (core 0) at bit 9: diffTA +0x1ffffffff takes "
		      "the target outside 32 bits (PTA 0x00000000)\n",
		      9, "|diffTA| of 33 bits");

	/* diffCC past 2^64 - 1: 72 bits of diffCC 2^64-1 and bCnt 1; then diffCC 1 */
	st_cf_format_init(&f, ST_CF_TRB, 1, 1);
	cf_bad_stream(
	    &f, "cc.cf",
	    "11111111 1 11111111 1 11111111 1 11111111 1 11111111 1 11111111 1 11111111 1 "
	    "11111111 0  10000000 0 "
	    "10000000 0  10000000 0",
	    "hh",
	    "raptor: error: cc.cf: message at bit 81: diffCC 1 overflows the 64-bit cycle "
	    "of core 0 (previous 18446744073709551615)\n",
	    81, "diffCC past the 64-bit cycle");

	/* get_target without a branch head */
	st_cf_format_init(&f, ST_CF_TRE, 1, 0);
	cf_bad_stream(&f, "nh.cf", "000 0  00 0  100000000 0", "hc",
		      "raptor: error: nh.cf: target at bit 17: no branch message head to complete "
		      "(core 0, count 0)\n",
		      17, "get_target after an exception message");
}

/* ---- encoder input that cannot be encoded: a bug, the process dies ------- */

struct bug_case {
	int lv;
	struct st_cf_format cf;
	struct st_lv_format lvf;
	struct st_cf_msg pre, m;
	struct st_lv_msg lpre, lm;
	unsigned n;
};

static void bug_child(void *arg)
{
	const struct bug_case *b = arg;
	static const uint8_t val[ST_LV_MAX_VALUE + 8];

	if (b->lv) {
		struct st_lv_encoder e;

		st_lv_encoder_init(&e, &b->lvf);
		st_lv_put(&e, &b->lpre, val, 1);
		st_lv_put(&e, &b->lm, val, b->n);
		st_lv_encoder_release(&e);
	} else {
		struct st_cf_encoder e;

		st_cf_encoder_init(&e, &b->cf);
		st_cf_put(&e, &b->pre);
		st_cf_put(&e, &b->m);
		st_cf_encoder_release(&e);
	}
}

static void expect_bug(struct bug_case *b, const char *want, const char *name)
{
	char err[512];
	int st = run_child(bug_child, b, err, sizeof(err));

	tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 128 && !strcmp(err, want), "encoder dies on %s",
	       name);
	if (strcmp(err, want))
		tap_diag("     got: %s#  wanted: %s", err, want);
}

static void test_encoder_bugs(void)
{
	struct bug_case b;
	struct st_cf_msg ok = {.core = 0, .cycle = 100, .count = 1};

	memset(&b, 0, sizeof(b));
	st_cf_format_init(&b.cf, ST_CF_TRE, 2, 1);
	b.pre = ok;
	b.m = (struct st_cf_msg){.core = 2, .cycle = 100, .count = 1};
	expect_bug(&b,
		   "raptor: fatal: BUG: tre encoder, message 1: core out of range (core 2, cycle "
		   "100, previous 0, count 1, exc 0, tail 0)\n",
		   "core 2 of 2");
	b.m = (struct st_cf_msg){.core = 0, .cycle = 99, .count = 1};
	expect_bug(&b,
		   "raptor: fatal: BUG: tre encoder, message 1: cycle goes back (core 0, cycle 99, "
		   "previous 100, count 1, exc 0, tail 0)\n",
		   "cycle going back");
	b.m = (struct st_cf_msg){.core = 1, .cycle = 5, .exc = 512};
	expect_bug(&b,
		   "raptor: fatal: BUG: tre encoder, message 1: E does not fit in 9 bits (core 1, "
		   "cycle 5, previous 0, count 0, exc 512, tail 0)\n",
		   "exc 512");
	b.m = (struct st_cf_msg){.core = 1, .cycle = 5, .exc = ST_CF_END, .tail = 1};
	expect_bug(&b,
		   "raptor: fatal: BUG: tre encoder, message 1: X = 1 in an end message (core 1, "
		   "cycle 5, previous 0, count 0, exc 0, tail 1)\n",
		   "end message with tail");
	b.m = (struct st_cf_msg){.core = 1, .cycle = 5, .count = 2, .indirect = 1, .taken = 0};
	expect_bug(&b,
		   "raptor: fatal: BUG: tre encoder, message 1: an unconditional indirect branch "
		   "not taken (core 1, cycle 5, previous 0, count 2, exc 0, tail 0)\n",
		   "unconditional indirect not taken");
	st_cf_format_init(&b.cf, ST_CF_NXB, 2, 0);
	b.m.cond = 1;
	expect_bug(&b,
		   "raptor: fatal: BUG: nxb encoder, message 1: NX_b has no message for a branch "
		   "not taken (core 1, cycle 5, previous 0, count 2, exc 0, tail 0)\n",
		   "NX_b indirect not taken");
	/* functional: a cycle going back is not encoded, so not checked */
	b.m = (struct st_cf_msg){.core = 0, .cycle = 1, .count = 1};
	{
		char err[64];
		int st = run_child(bug_child, &b, err, sizeof(err));

		tap_ok(WIFEXITED(st) && WEXITSTATUS(st) == 0 && !err[0],
		       "functional form: earlier cycle accepted");
	}

	memset(&b, 0, sizeof(b));
	b.lv = 1;
	st_lv_format_init(&b.lvf, ST_LV_CFIAT, 3, 1);
	b.lpre = (struct st_lv_msg){.core = 2, .cycle = 50};
	b.lm = (struct st_lv_msg){.core = 2, .cycle = 50};
	b.n = ST_LV_MAX_VALUE + 1;
	expect_bug(
	    &b,
	    "raptor: fatal: BUG: cfiat encoder, message 1: value longer than 256 bytes (core "
	    "2, cycle 50, previous 50, count 0, 257 value bytes)\n",
	    "a 257-byte value");
	b.n = 4;
	b.lm.core = 3;
	expect_bug(&b,
		   "raptor: fatal: BUG: cfiat encoder, message 1: core out of range (core 3, cycle "
		   "50, previous 0, count 0, 4 value bytes)\n",
		   "lv core 3 of 3");
	b.lm = (struct st_lv_msg){.core = 2, .cycle = 49};
	expect_bug(&b,
		   "raptor: fatal: BUG: cfiat encoder, message 1: cycle goes back (core 2, cycle "
		   "49, previous 50, count 0, 4 value bytes)\n",
		   "lv cycle going back");
	st_lv_format_init(&b.lvf, ST_LV_NXLV, 3, 1);
	b.lm = (struct st_lv_msg){.core = 2, .cycle = 60, .count = 1};
	expect_bug(&b,
		   "raptor: fatal: BUG: nxlv encoder, message 1: NX-LV has no count (core 2, cycle "
		   "60, previous 50, count 1, 4 value bytes)\n",
		   "NX-LV with a count");
}

/* ---- load values ------------------------------------------------------------ */

struct lv_item {
	struct st_lv_msg m;
	unsigned n;
	uint8_t v[ST_LV_MAX_VALUE];
};

static void ref_lv_put(struct st_writer *w, const struct st_lv_format *f, uint64_t *pcc,
		       const struct lv_item *it)
{
	if (f->timed)
		st_put_uvlc(w, f->cc, it->m.cycle - pcc[it->m.core]);
	pcc[it->m.core] = it->m.cycle;
	st_put_bits(w, (uint64_t)it->m.core, st_ti_bits(f->ncores));
	if (f->enc != ST_LV_NXLV)
		st_put_uvlc(w, f->cnt, it->m.count);
	for (unsigned i = 0; i < it->n; i++)
		st_put_bits(w, it->v[i], 8);
}

static void lv_round_trip(const struct st_lv_format *f, const struct lv_item *it, size_t n,
			  const char *name)
{
	struct st_lv_encoder e;
	struct st_lv_decoder d;
	struct st_writer ref;
	uint64_t pcc[ST_LV_MAX_CORES] = {0}, nbits, vbits = 0;
	size_t nb, nr, bad = n;
	const uint8_t *eb;

	st_lv_encoder_init(&e, f);
	st_writer_init(&ref);
	for (size_t i = 0; i < n; i++) {
		st_lv_put(&e, &it[i].m, it[i].v, it[i].n);
		ref_lv_put(&ref, f, pcc, &it[i]);
		vbits += 8 * it[i].n;
	}
	nbits = st_writer_bits(&e.w);
	eb = st_writer_buf(&e.w, &nb);
	tap_ok(nbits == st_writer_bits(&ref) && (st_writer_buf(&ref, &nr), nr == nb) &&
		   !memcmp(eb, st_writer_buf(&ref, NULL), nb),
	       "%s: %zu messages, %llu bits, same bits as the reference", name, n,
	       (unsigned long long)nbits);
	tap_ok(st_lv_fields_total(&e.fields) == nbits && e.fields.value == vbits &&
		   e.fields.msgs == n && e.fields.ti == n * st_ti_bits(f->ncores),
	       "%s: fields_total = bits written, value and Ti bits counted", name);

	st_lv_decoder_init(&d, f, eb, nbits, name);
	for (size_t i = 0; i < n && bad == n; i++) {
		struct st_lv_msg m;
		uint8_t v[ST_LV_MAX_VALUE];

		if (st_lv_get_head(&d, &m) || m.core != it[i].m.core || m.count != it[i].m.count ||
		    m.cycle != (f->timed ? it[i].m.cycle : 0) || st_lv_get_value(&d, v, it[i].n) ||
		    memcmp(v, it[i].v, it[i].n))
			bad = i;
	}
	if (bad < n)
		tap_diag("message %zu (core %d, %u bytes) differs", bad, it[bad].m.core, it[bad].n);
	tap_ok(bad == n && st_lv_get_head(&d, &(struct st_lv_msg){0}) == 1,
	       "%s: every message decodes back, then a clean end", name);
	tap_ok(!memcmp(&d.fields, &e.fields, sizeof(d.fields)) &&
		   (!f->timed || !memcmp(d.pcc, e.pcc, sizeof(d.pcc))),
	       "%s: decoder's field counters and PCC equal the encoder's", name);
	st_lv_encoder_release(&e);
	st_writer_release(&ref);
}

static void lv_random(const struct st_lv_format *f, struct lv_item *it, size_t n)
{
	uint64_t clock[ST_LV_MAX_CORES] = {0};

	for (size_t i = 0; i < n; i++) {
		int c = (int)(rnd64() % (uint64_t)f->ncores);

		clock[c] += rnd64() % 8 == 0 ? 0 : rnd_width(36);
		it[i].m.core = c;
		it[i].m.cycle = clock[c];
		it[i].m.count = f->enc == ST_LV_NXLV ? 0 : rnd_width(64);
		/* mostly 1..32 bytes, now and then a whole line up to 256 */
		it[i].n = rnd64() % 16 ? 1 + (unsigned)(rnd64() % 32)
				       : 1 + (unsigned)(rnd64() % ST_LV_MAX_VALUE);
		for (unsigned k = 0; k < it[i].n; k++)
			it[i].v[k] = (uint8_t)rnd64();
	}
}

static void test_lv_round_trips(void)
{
	static const int cores[] = {1, 2, 3, 8};
	enum { N = 2500 };
	struct lv_item *it = calloc(N, sizeof(*it));
	char name[96];

	if (!it)
		return;
	rng = 20130901;
	for (int enc = ST_LV_NXLV; enc <= ST_LV_MC2RT; enc++)
		for (int timed = 0; timed < 2; timed++)
			for (size_t k = 0; k < ARRAY_SIZE(cores); k++) {
				struct st_lv_format f;

				st_lv_format_init(&f, (enum st_lv_enc)enc, cores[k], timed);
				lv_random(&f, it, N);
				snprintf(name, sizeof(name), "random %s%s %d cores",
					 timed ? "t" : "", st_lv_enc_name(f.enc), cores[k]);
				lv_round_trip(&f, it, N, name);
			}
	/* every value length 1..32 once, in order, at every alignment Ti gives */
	for (int k = 0; k < 2; k++) {
		struct st_lv_format f;

		st_lv_format_init(&f, ST_LV_CFIAT, k ? 3 : 1, k);
		for (unsigned i = 0; i < 32; i++) {
			it[i].m = (struct st_lv_msg){
			    .core = (int)(i % (unsigned)f.ncores), .cycle = 3 * i, .count = i};
			it[i].n = i + 1;
			for (unsigned b = 0; b <= i; b++)
				it[i].v[b] = (uint8_t)(0x11 * b + i);
		}
		snprintf(name, sizeof(name), "%sCFiat %d cores: values of 1..32 bytes",
			 k ? "t" : "", f.ncores);
		lv_round_trip(&f, it, 32, name);
	}
	free(it);
}

static void lv_cuts(const struct st_lv_format *f, const struct lv_item *it, size_t n,
		    const char *name)
{
	struct st_writer w;
	uint64_t pcc[ST_LV_MAX_CORES] = {0}, start = 0, end, at_value, ends[3];
	const char *fields[3] = {"dCC", "Ti", f->enc == ST_LV_MC2RT ? "THCnt" : "fahCnt"};
	int ok = 1;

	st_writer_init(&w);
	for (size_t i = 0; i + 1 < n; i++)
		ref_lv_put(&w, f, pcc, &it[i]);
	start = st_writer_bits(&w);
	{
		/* the head field by field, to know where each ends */
		const struct lv_item *l = &it[n - 1];

		if (f->timed)
			st_put_uvlc(&w, f->cc, l->m.cycle - pcc[l->m.core]);
		ends[0] = st_writer_bits(&w);
		st_put_bits(&w, (uint64_t)l->m.core, st_ti_bits(f->ncores));
		ends[1] = st_writer_bits(&w);
		if (f->enc != ST_LV_NXLV)
			st_put_uvlc(&w, f->cnt, l->m.count);
		ends[2] = at_value = st_writer_bits(&w);
		for (unsigned i = 0; i < l->n; i++)
			st_put_bits(&w, l->v[i], 8);
	}
	end = st_writer_bits(&w);
	for (uint64_t k = start; k < end && ok; k++) {
		struct st_lv_decoder d;
		struct st_lv_msg m;
		uint8_t v[ST_LV_MAX_VALUE];
		char want[256];
		const char *got = "";
		int rc = 0, fi = 0;

		st_lv_decoder_init(&d, f, st_writer_buf(&w, NULL), k, "cut");
		for (size_t i = 0; i + 1 < n && ok; i++)
			ok = !st_lv_get_head(&d, &m) && !st_lv_get_value(&d, v, it[i].n);
		if (!ok)
			break;
		if (k == start) {
			ok = st_lv_get_head(&d, &m) == 1;
			continue;
		}
		if (k < at_value) {
			while (ends[fi] <= k)
				fi++;
			capture_start();
			rc = st_lv_get_head(&d, &m);
			got = capture_end();
			snprintf(want, sizeof(want),
				 "raptor: error: cut: message at bit %llu: %s runs past the end of "
				 "the stream (%llu bits)\n",
				 (unsigned long long)start, fields[fi], (unsigned long long)k);
			ok = rc == -1 && st_lv_decoder_pos(&d) == start && !strcmp(got, want);
		} else {
			ok = !st_lv_get_head(&d, &m);
			capture_start();
			rc = st_lv_get_value(&d, v, it[n - 1].n);
			got = capture_end();
			snprintf(
			    want, sizeof(want),
			    "raptor: error: cut: value at bit %llu: %u bytes run past the end of "
			    "the stream (%llu bits)\n",
			    (unsigned long long)at_value, it[n - 1].n, (unsigned long long)k);
			ok = ok && rc == -1 && st_lv_decoder_pos(&d) == at_value &&
			     !strcmp(got, want);
		}
		if (!ok)
			tap_diag("cut at %llu: rc %d\n#  got: %s#  wanted: %s",
				 (unsigned long long)k, rc, got, want);
	}
	tap_ok(ok, "%s: cut at each of its %llu bits, exact errors", name,
	       (unsigned long long)(end - start));
	st_writer_release(&w);
}

static void test_lv_errors(void)
{
	static struct lv_item it[2];
	struct st_lv_format f;

	it[0] = (struct lv_item){.m = {.core = 1, .cycle = 9, .count = 2}, .n = 2, .v = {1, 2}};
	it[1] = (struct lv_item){
	    .m = {.core = 2, .cycle = 1000, .count = 21}, .n = 4, .v = {0xde, 0xad, 0xbe, 0xef}};
	st_lv_format_init(&f, ST_LV_CFIAT, 3, 1);
	lv_cuts(&f, it, 2, "tCFiat 3 cores word");
	st_lv_format_init(&f, ST_LV_MC2RT, 3, 1);
	lv_cuts(&f, it, 2, "tmc2RT 3 cores");
	it[0].m.count = it[1].m.count = 0;
	st_lv_format_init(&f, ST_LV_NXLV, 8, 1);
	lv_cuts(&f, it, 2, "tNX-LV 8 cores");

	/* Ti 3 with 3 cores */
	{
		struct st_writer w;
		struct st_lv_decoder d;
		struct st_lv_msg m;
		uint8_t v[300];
		uint64_t n;
		int rc;

		st_lv_format_init(&f, ST_LV_CFIAT, 3, 0);
		/* core 2, fahCnt 0, byte 0xff; then Ti 3 */
		n = from_string(&w, "01 0 0 11111111  11 0 0 11111111");
		st_lv_decoder_init(&d, &f, st_writer_buf(&w, NULL), n, "t3.lv");
		rc = st_lv_get_head(&d, &m) || st_lv_get_value(&d, v, 1);
		capture_start();
		rc = rc ? rc : st_lv_get_head(&d, &m);
		is_text(capture_end(),
			"raptor: error: t3.lv: message at bit 12: Ti 3 is not a core (3 cores)\n",
			"lv: Ti 3 >= 3 cores, exact error");
		tap_ok(rc == -1 && st_lv_decoder_pos(&d) == 12, "  -1, reader at bit 12");
		st_lv_decoder_init(&d, &f, st_writer_buf(&w, NULL), n, "big.lv");
		error_quiet(1);
		rc = st_lv_get_head(&d, &m);
		error_quiet(-1);
		capture_start();
		rc = rc ? rc : st_lv_get_value(&d, v, ST_LV_MAX_VALUE + 1);
		is_text(capture_end(),
			"raptor: error: big.lv: value at bit 4: 257 bytes asked, at most 256 in a "
			"message\n",
			"lv: a value of 257 bytes is refused");
		tap_ok(rc == -1 && st_lv_decoder_pos(&d) == 4, "  -1, reader at bit 4");
		st_writer_release(&w);

		/* fahCnt (60,8) reaching 2^64 */
		f.cnt = ST_VLC(60, 8);
		n = from_string(&w,
				"00 100000000000000000000000000000000000000000000000000000000000 1 "
				"00001000 0");
		st_lv_decoder_init(&d, &f, st_writer_buf(&w, NULL), n, "big.lv");
		capture_start();
		rc = st_lv_get_head(&d, &m);
		is_text(capture_end(),
			"raptor: error: big.lv: message at bit 0: fahCnt does not fit in 64 bits\n",
			"lv: (60,8) fahCnt with bit 64 set, exact error");
		tap_ok(rc == -1 && st_lv_decoder_pos(&d) == 0, "  -1, reader at bit 0");
		st_writer_release(&w);
		f.cnt = ST_VLC(1, 2);

		/* non-minimal fahCnt: (1,2) 0 1 00 0 */
		n = from_string(&w, "00 0 1 00 0 11111111");
		st_lv_decoder_init(&d, &f, st_writer_buf(&w, NULL), n, "nm.lv");
		capture_start();
		rc = st_lv_get_head(&d, &m);
		is_text(capture_end(),
			"raptor: error: nm.lv: message at bit 0: fahCnt is not minimal (ends in a "
			"chunk of zeros)\n",
			"lv: non-minimal fahCnt, exact error");
		tap_ok(rc == -1 && st_lv_decoder_pos(&d) == 0, "  -1, reader at bit 0");
		st_writer_release(&w);
	}
}

int main(void)
{
	test_formats();
	test_cf_examples();
	test_lv_examples();
	test_cf_kinds();
	test_cf_random();
	test_cf_cuts();
	test_cf_errors();
	test_encoder_bugs();
	test_lv_round_trips();
	test_lv_errors();
	return tap_done();
}

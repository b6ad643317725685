/*
 * streams_test: bit order, the papers' chunk-encoding vectors, round trips
 * of random and edge values, and clean failures past the end of a stream.
 */
#include <stdlib.h>
#include <string.h>

#include "streams/bitio.h"
#include "streams/vlc.h"
#include "tests/unit/capture.h"
#include "tests/unit/tap.h"

/* ---- helpers ----------------------------------------------------------- */

/* The writer's whole stream as '0'/'1' in transmission order. */
static const char *bits_of(const struct st_writer *w)
{
	static char s[1024];
	uint64_t n = st_writer_bits(w);

	if (n >= sizeof(s))
		n = sizeof(s) - 1;
	return st_bits_string(st_writer_buf(w, NULL), 0, n, s);
}

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* ---- bitio ------------------------------------------------------------- */

static void test_bit_order(void)
{
	struct st_writer w;
	size_t n;
	const uint8_t *b;

	st_writer_init(&w);
	st_put_bits(&w, 3, 3); /* 011, LSB first: 1,1,0 */
	st_put_bit(&w, 0);
	b = st_writer_buf(&w, &n);
	tap_ok(!strcmp(bits_of(&w), "1100"), "3 in 3 bits then a 0 bit sent as 1100");
	tap_ok(n == 1 && b[0] == 0x03, "stored as byte 0x03 (bit i = bit i%%8 of byte i/8)");
	st_put_bits(&w, 0x1f, 5); /* crosses into byte 1 */
	b = st_writer_buf(&w, &n);
	tap_ok(n == 2 && b[0] == 0xf3 && b[1] == 0x01, "5 ones at bit 4 give bytes f3 01");
	tap_is_int(st_writer_bits(&w), 9, "bit offset 9");
	st_put_bits(&w, 0xffff, 0);
	tap_is_int(st_writer_bits(&w), 9, "a 0-bit field writes nothing");
	st_writer_pad(&w);
	tap_is_int(st_writer_bits(&w), 16, "pad to the byte boundary");
	st_writer_pad(&w);
	tap_is_int(st_writer_bits(&w), 16, "pad on a boundary adds nothing");
	st_put_bits(&w, 0x8000000000000001ull, 64);
	st_put_bits(&w, 0xdeadbeef, 4); /* only the low 4 bits: 0xf */
	b = st_writer_buf(&w, &n);
	tap_ok(n == 11 && b[2] == 0x01 && b[9] == 0x80 && b[10] == 0x0f,
	       "64-bit field and a masked 4-bit field");
	st_writer_release(&w);
	tap_ok(st_writer_bits(&w) == 0 && !w.buf, "release empties the writer");

	/* the reader sees what the writer wrote, bit for bit */
	{
		static const uint8_t buf[] = {0xa5, 0x5a};
		struct st_reader r;
		uint64_t v = 0;
		int bit = -1;

		st_reader_init(&r, buf, sizeof(buf));
		tap_ok(!st_get_bit(&r, &bit) && bit == 1, "first bit of 0xa5 is 1");
		tap_ok(!st_get_bits(&r, 12, &v) && v == (0x1aa5 >> 1), "12 bits from bit 1");
		tap_is_int(st_reader_pos(&r), 13, "position 13");
		tap_is_int(st_reader_left(&r), 3, "3 bits left");
	}
}

static void test_past_end(void)
{
	static const uint8_t buf[] = {0xa5, 0x5a};
	struct st_reader r;
	uint64_t v = 77;
	int rc;
	const char *msg;

	st_reader_init(&r, buf, sizeof(buf));
	r.name = "cf stream core 1";
	tap_ok(!st_get_bits(&r, 13, &v) && v == 0x1aa5, "13 bits read");
	capture_start();
	v = 77;
	rc = st_get_bits(&r, 4, &v);
	msg = capture_end();
	tap_is_int(rc, -1, "4 bits at bit 13 of 16: -1");
	tap_ok(v == 77 && st_reader_pos(&r) == 13, "value and position unchanged");
	tap_ok(strstr(msg, "bit 13") && strstr(msg, "cf stream core 1"),
	       "error names the stream and bit 13: %.*s", (int)strcspn(msg, "\n"), msg);
	tap_ok(!st_get_bits(&r, 3, &v) && v == 2, "the last 3 bits are still readable");
	capture_start();
	rc = st_get_bits(&r, 1, &v);
	msg = capture_end();
	tap_ok(rc == -1 && strstr(msg, "bit 16"), "one bit at the end: -1, names bit 16");

	st_reader_init_bits(&r, buf, 12);
	tap_ok(!st_get_bits(&r, 12, &v) && v == 0xaa5, "a 12-bit stream: 12 bits");
	error_quiet(1);
	tap_is_int(st_get_bits(&r, 1, &v), -1, "and not one more");
	error_quiet(-1);

	/* a chunked value cut short fails and rewinds to its start */
	struct st_writer w;
	uint64_t u;

	st_writer_init(&w);
	st_put_bits(&w, 5, 3);
	st_put_uvlc(&w, ST_VLC(3, 2), 1000);
	st_reader_init_bits(&r, st_writer_buf(&w, NULL), st_writer_bits(&w) - 1);
	tap_ok(!st_get_bits(&r, 3, &u), "prefix read");
	capture_start();
	rc = st_get_uvlc(&r, ST_VLC(3, 2), &u);
	msg = capture_end();
	tap_ok(rc == -1 && st_reader_pos(&r) == 3, "truncated chunked value: -1, back at bit 3");
	tap_ok(strstr(msg, "past the end") != NULL, "error says past the end: %.*s",
	       (int)strcspn(msg, "\n"), msg);
	st_writer_release(&w);
}

static void test_flush(void)
{
	struct st_writer a, b;
	FILE *f = tmpfile();
	uint8_t got[64], *whole;
	size_t n, held, len;

	st_writer_init(&a);
	st_writer_init(&b);
	rng = 7;
	for (int i = 0; i < 40; i++) {
		uint64_t v = rnd64();
		unsigned k = 1 + v % 13;

		st_put_bits(&a, v >> 8, k);
		st_put_bits(&b, v >> 8, k);
		if (i % 7 == 3 && st_writer_flush(&b, f, "tmp"))
			break;
	}
	st_writer_pad(&a);
	st_writer_pad(&b);
	tap_ok(!st_writer_flush(&b, f, "tmp"), "flush to a FILE");
	st_writer_buf(&b, &held);
	tap_ok(held == 0 && st_writer_bits(&b) == st_writer_bits(&a),
	       "after pad + flush nothing is held, offset continues");
	rewind(f);
	n = fread(got, 1, sizeof(got), f);
	whole = st_writer_detach(&a, &len);
	tap_ok(n == len && whole && !memcmp(got, whole, n),
	       "flushed bytes equal the in-memory stream");
	free(whole);
	tap_ok(!a.buf && st_writer_bits(&a) % 8 == 0, "detach empties the writer");
	fclose(f);
	st_writer_release(&a);
	st_writer_release(&b);
}

/* ---- vlc ----------------------------------------------------------------- */

static void test_vectors(void)
{
	static const struct {
		unsigned c0, c1;
		int is_signed;
		int64_t v;
		const char *bits; /* as transmitted, first bit first */
	} v[] = {
	    /* TRaptor Sec. 4, i0 = i1 = 3 */
	    {3, 3, 0, 3,
	     "110"
	     "0"},
	    {3, 3, 0, 19,
	     "110"
	     "1"
	     "010"
	     "0"},
	    /* more, by the same rule */
	    {3, 2, 0, 0, "0000"},
	    {3, 2, 0, 7, "1110"},
	    {3, 2, 0, 8,
	     "000"
	     "1"
	     "10"
	     "0"},
	    {1, 2, 0, 0, "00"},
	    {1, 2, 0, 5,
	     "1"
	     "1"
	     "01"
	     "0"},
	    {2, 2, 0, 6,
	     "01"
	     "1"
	     "10"
	     "0"},
	    {4, 2, 0, 16,
	     "0000"
	     "1"
	     "10"
	     "0"},
	    {8, 8, 0, 300,
	     "00110100"
	     "1"
	     "10000000"
	     "0"},
	    {3, 4, 1, 5,
	     "0"
	     "101"
	     "0"},
	    {3, 4, 1, -5,
	     "1"
	     "101"
	     "0"},
	    {3, 4, 1, 0,
	     "0"
	     "000"
	     "0"},
	    {16, 16, 1, -1,
	     "1"
	     "1000000000000000"
	     "0"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		struct st_writer w;
		struct st_vlc ch = ST_VLC(v[i].c0, v[i].c1);
		const char *got;
		unsigned len;

		st_writer_init(&w);
		if (v[i].is_signed) {
			st_put_svlc(&w, ch, v[i].v);
			len = st_svlc_len(ch, v[i].v);
		} else {
			st_put_uvlc(&w, ch, (uint64_t)v[i].v);
			len = st_uvlc_len(ch, (uint64_t)v[i].v);
		}
		got = bits_of(&w);
		tap_ok(!strcmp(got, v[i].bits), "(%u,%u) %s%lld -> %s", v[i].c0, v[i].c1,
		       v[i].is_signed ? "signed " : "", (long long)v[i].v, v[i].bits);
		if (strcmp(got, v[i].bits))
			tap_diag("got %s", got);
		tap_is_int(len, strlen(v[i].bits), "  length function agrees");
		st_writer_release(&w);
	}

	/* the paper's two vectors as stored bytes */
	struct st_writer w;
	const uint8_t *b;
	size_t n;

	st_writer_init(&w);
	st_put_uvlc(&w, ST_VLC(3, 3), 19);
	b = st_writer_buf(&w, &n);
	tap_ok(n == 1 && b[0] == 0x2b, "bCnt 19 (3,3) is byte 0x2b");
	st_writer_release(&w);
}

static void test_round_trips(void)
{
	static const unsigned cfg[][2] = {
	    {3, 2},   {3, 4}, {4, 2},	{1, 2},	 {2, 2},  {3, 3},  {8, 8},
	    {16, 16}, {1, 1}, {64, 64}, {7, 64}, {64, 1}, {5, 13},
	};
	enum { NRAND = 2000 };
	static uint64_t vals[NRAND + 200];
	static int64_t svals[NRAND + 200];
	size_t nv = 0, ns = 0;

	/* edge values: 0, 1, 2^k - 1, 2^k, UINT32_MAX, UINT64_MAX and the signed ones */
	vals[nv++] = 0;
	vals[nv++] = 1;
	for (int k = 1; k < 64; k++) {
		vals[nv++] = (UINT64_C(1) << k) - 1;
		vals[nv++] = UINT64_C(1) << k;
	}
	vals[nv++] = UINT32_MAX;
	vals[nv++] = UINT64_MAX;
	svals[ns++] = 0;
	svals[ns++] = 1;
	svals[ns++] = -1;
	svals[ns++] = INT64_MAX;
	svals[ns++] = INT64_MIN;
	svals[ns++] = INT64_MIN + 1;
	svals[ns++] = INT32_MIN;
	svals[ns++] = (int64_t)UINT32_MAX;
	svals[ns++] = -(int64_t)UINT32_MAX;
	rng = 12345; /* fixed seed */
	for (int i = 0; i < NRAND; i++) {
		uint64_t r = rnd64();

		vals[nv++] = r >> (rnd64() % 64); /* every width, not just huge values */
		svals[ns++] = (int64_t)(rnd64() >> (rnd64() % 64)) * (r & 1 ? -1 : 1);
	}

	for (size_t c = 0; c < ARRAY_SIZE(cfg); c++) {
		struct st_vlc ch = ST_VLC(cfg[c][0], cfg[c][1]);
		struct st_writer w;
		struct st_reader r;
		uint64_t want_bits = 0;
		int ok = 1, sok = 1;

		st_writer_init(&w);
		for (size_t i = 0; i < nv; i++) {
			st_put_uvlc(&w, ch, vals[i]);
			want_bits += st_uvlc_len(ch, vals[i]);
		}
		for (size_t i = 0; i < ns; i++) {
			st_put_svlc(&w, ch, svals[i]);
			want_bits += st_svlc_len(ch, svals[i]);
		}
		tap_ok(st_writer_bits(&w) == want_bits, "(%u,%u): lengths add up to %llu bits",
		       ch.c0, ch.c1, (unsigned long long)want_bits);

		st_reader_init_bits(&r, st_writer_buf(&w, NULL), st_writer_bits(&w));
		for (size_t i = 0; i < nv && ok; i++) {
			uint64_t u;

			ok = !st_get_uvlc(&r, ch, &u) && u == vals[i];
			if (!ok)
				tap_diag("value %zu: 0x%llx", i, (unsigned long long)vals[i]);
		}
		for (size_t i = 0; i < ns && ok && sok; i++) {
			int64_t s;

			sok = !st_get_svlc(&r, ch, &s) && s == svals[i];
			if (!sok)
				tap_diag("signed value %zu: %lld", i, (long long)svals[i]);
		}
		tap_ok(ok, "(%u,%u): %zu unsigned values round trip", ch.c0, ch.c1, nv);
		tap_ok(ok && sok, "(%u,%u): %zu signed values round trip", ch.c0, ch.c1, ns);
		tap_ok(st_reader_left(&r) == 0, "(%u,%u): reader ends exactly at the end", ch.c0,
		       ch.c1);
		st_writer_release(&w);
	}

	/* the named sizes are the papers' */
	tap_ok(ST_VLC_TRB_BCNT.c0 == 8 && ST_VLC_TRB_BCNT.c1 == 8 && ST_VLC_TRB_DIFFTA.c0 == 16 &&
		   ST_VLC_TRB_DIFFCC.c1 == 8,
	       "TR_b chunks 8 / 16 / 8");
	tap_ok(ST_VLC_TRE_BCNT.c0 == 3 && ST_VLC_TRE_BCNT.c1 == 2 && ST_VLC_TRE_DIFFTA.c1 == 4 &&
		   ST_VLC_TRE_DIFFCC.c0 == 4,
	       "TR_e chunks (3,2) (3,4) (4,2)");
	tap_is_int(st_uvlc_len(ST_VLC(3, 2), UINT64_MAX), 4 + 31 * 3, "(3,2) UINT64_MAX: 97 bits");
	tap_is_int(st_uvlc_chunks(ST_VLC(64, 64), UINT64_MAX), 1, "(64,64) UINT64_MAX: 1 chunk");
	tap_is_int(st_uvlc_len(ST_VLC(8, 8), 255), 9, "(8,8) 255: 9 bits");
	tap_is_int(st_uvlc_len(ST_VLC(8, 8), 256), 18, "(8,8) 256: 18 bits");
}

/* Decode the bit string s with ch; returns st_get_uvlc's result. */
static int decode_string(const char *s, struct st_vlc ch, uint64_t *v, int is_signed)
{
	struct st_writer w;
	struct st_reader r;
	int rc;

	st_writer_init(&w);
	for (; *s; s++)
		st_put_bit(&w, *s == '1');
	st_reader_init_bits(&r, st_writer_buf(&w, NULL), st_writer_bits(&w));
	if (is_signed) {
		int64_t sv;

		rc = st_get_svlc(&r, ch, &sv);
		*v = (uint64_t)sv;
	} else {
		rc = st_get_uvlc(&r, ch, v);
	}
	if (rc)
		tap_ok(st_reader_pos(&r) == 0, "  failed decode leaves the reader at bit 0");
	st_writer_release(&w);
	return rc;
}

static void test_strict(void)
{
	char s[200];
	uint64_t v = 0;

	tap_ok(!decode_string("11010100", ST_VLC(3, 3), &v, 0) && v == 19,
	       "decode 110 1 010 0 = 19");
	error_quiet(1);
	tap_is_int(decode_string("0001000", ST_VLC(3, 2), &v, 0), -1,
		   "non-minimal 000 1 00 0 is refused");
	tap_ok(!decode_string("0000", ST_VLC(3, 2), &v, 0) && v == 0, "but 000 0 is zero");
	/* (64,1): 64 ones, C=1, then a chunk '1' at bit 64: too big */
	memset(s, '1', 65);
	strcpy(s + 65, "10");
	tap_is_int(decode_string(s, ST_VLC(64, 1), &v, 0), -1, "a set bit at 2^64 is refused");
	/* (60,8): 60 bits, C=1, then 8 bits with bit 4 set (= 2^64) */
	memset(s, '0', 60);
	strcpy(s + 60, "1"
		       "00001000"
		       "0");
	tap_is_int(decode_string(s, ST_VLC(60, 8), &v, 0), -1, "(60,8) overflow in the 2nd chunk");
	/* (60,8): 2nd chunk with only bits below 2^64 set is fine */
	strcpy(s + 60, "1"
		       "00010000"
		       "0");
	tap_ok(!decode_string(s, ST_VLC(60, 8), &v, 0) && v == UINT64_C(1) << 63,
	       "(60,8) 2^63 decodes");
	tap_is_int(decode_string("10000", ST_VLC(3, 4), &v, 1), -1, "negative zero is refused");
	/* -(2^64 - 1) does not fit an int64_t */
	s[0] = '1';
	memset(s + 1, '1', 64);
	strcpy(s + 65, "0");
	tap_is_int(decode_string(s, ST_VLC(64, 64), &v, 1), -1, "-(2^64-1) is refused as int64");
	tap_is_int(st_vlc_check(ST_VLC(0, 2)), -1, "chunk size 0 is refused");
	tap_is_int(st_vlc_check(ST_VLC(3, 65)), -1, "chunk size 65 is refused");
	error_quiet(-1);
	tap_is_int(st_vlc_check(ST_VLC(1, 64)), 0, "chunk sizes (1,64) are fine");
}

int main(void)
{
	test_bit_order();
	test_past_end();
	test_flush();
	test_vectors();
	test_round_trips();
	test_strict();
	return tap_done();
}

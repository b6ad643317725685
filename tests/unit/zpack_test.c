/*
 * zpack_test: util/zpack.h on the shapes it packs (a checkpoint state:
 * long zero runs between counters; a memory page; random bytes that do
 * not pack): every blob unpacks to exactly what went in, with the same
 * contexts reused; and every kind of damage an index file can bring (a
 * byte changed anywhere, the blob cut short, bytes after it, the wrong
 * size asked for, nothing at all) is refused with -1, never a crash and
 * never other bytes taken as right (the frames' checksums). The same for
 * blobs packed and unpacked in pieces (zpack_stream_*, zpack_unstream_*).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/tap.h"
#include "util/zpack.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* n bytes shaped as kind says: 0 a state, 1 a page of code and data, 2 noise */
static void fill(uint8_t *b, size_t n, int kind)
{
	memset(b, 0, n);
	for (size_t i = 0; i < n; i++) {
		switch (kind) {
		case 0:
			if (rnd() % 16 == 0)
				b[i] = (uint8_t)(rnd() % 4);
			break;
		case 1: b[i] = (uint8_t)(i % 64 < 40 ? i * 7 : rnd() % 3); break;
		default: b[i] = (uint8_t)rnd(); break;
		}
	}
}

static void roundtrip(struct zpack *z, const char *what, size_t n, int kind)
{
	size_t cap = zpack_bound(n), len;
	uint8_t *src = malloc(n ? n : 1), *dst = malloc(cap), *back = malloc(n + 16);

	fill(src, n, kind);
	len = zpack_pack(z, dst, cap, src, n);
	tap_ok(len > 0 && len <= cap, "%s: %zu bytes pack into %zu", what, n, len);
	memset(back, 0xa5, n + 16);
	tap_ok(!zpack_unpack(z, back, n, dst, len) && !memcmp(back, src, n),
	       "%s: unpacks to what went in", what);
	tap_ok(zpack_unpack(z, back, n + 1, dst, len) == -1 &&
		       (!n || zpack_unpack(z, back, n - 1, dst, len) == -1),
	       "%s: asked for another size, refused", what);
	tap_ok(zpack_unpack(z, back, n, dst, len - 1) == -1, "%s: cut one byte short, refused",
	       what);
	dst[len] = 0;
	tap_ok(zpack_unpack(z, back, n, dst, len + 1) == -1, "%s: a byte after it, refused", what);
	free(src);
	free(dst);
	free(back);
}

/* Change one byte at a time across a packed state: refused, or the very same bytes back. */
static void damage(struct zpack *z, size_t n)
{
	size_t cap = zpack_bound(n), len, wrong = 0, tried = 0;
	uint8_t *src = malloc(n), *dst = malloc(cap), *back = malloc(n);

	fill(src, n, 0);
	len = zpack_pack(z, dst, cap, src, n);
	for (size_t i = 0; i < len; i += 1 + len / 600) {
		uint8_t keep = dst[i];

		dst[i] ^= (uint8_t)(1u << (rnd() % 8));
		if (!zpack_unpack(z, back, n, dst, len) && memcmp(back, src, n))
			wrong++;
		dst[i] = keep;
		tried++;
	}
	/* the frame's checksum: no change unpacks to other bytes */
	tap_ok(tried > 500 && !wrong, "%zu single-byte changes, each refused or unpacked to the "
	       "same bytes (%zu to others)", tried, wrong);
	tap_ok(!zpack_unpack(z, back, n, dst, len) && !memcmp(back, src, n),
	       "the undamaged blob still unpacks after them");
	tap_ok(zpack_unpack(z, back, n, dst, 0) == -1, "an empty blob is refused");
	memset(dst, 0, 64);
	tap_ok(zpack_unpack(z, back, n, dst, 64) == -1, "zeros are refused");
	free(src);
	free(dst);
	free(back);
}

/*
 * Packed in pieces of random sizes (zpack_stream_*) and unpacked in pieces
 * (zpack_unstream_*): the same bytes both ways as the one-piece calls; a
 * total that does not add up, a blob cut short or with a byte after it,
 * and a changed byte are refused.
 */
static void streams(struct zpack *z, size_t n, int kind)
{
	uint8_t *src = malloc(n), *dst = NULL, *back = malloc(n + 64), piece[777];
	size_t cap = 0, len = 0, at = 0, got = 0, wrong = 0;
	long k;
	int ok = !zpack_stream_begin(z, n);

	fill(src, n, kind);
	while (ok && at < n) {
		size_t m = 1 + rnd() % 5000;

		if (m > n - at)
			m = n - at;
		ok = !zpack_stream_feed(z, src + at, m, 0, &dst, &cap, &len);
		at += m;
	}
	ok = ok && !zpack_stream_feed(z, NULL, 0, 1, &dst, &cap, &len);
	tap_ok(ok && len > 0, "%zu bytes packed in pieces into %zu", n, len);
	tap_ok(!zpack_unpack(z, back, n, dst, len) && !memcmp(back, src, n),
	       "... one blob that unpacks whole to what went in");
	zpack_unstream_begin(z, dst, len);
	while ((k = zpack_unstream_read(z, piece, 1 + rnd() % sizeof(piece))) > 0) {
		if (got + (size_t)k > n || memcmp(piece, src + got, (size_t)k))
			wrong = 1;
		got += (size_t)k;
	}
	tap_ok(k == 0 && got == n && !wrong, "... and unpacks in pieces to the same bytes");
	zpack_unstream_begin(z, dst, len - 1);
	while ((k = zpack_unstream_read(z, back, n + 64)) > 0)
		;
	tap_ok(k == -1, "... cut one byte short: refused in pieces");
	dst[len] = 0;
	zpack_unstream_begin(z, dst, len + 1);
	while ((k = zpack_unstream_read(z, back, n + 64)) > 0)
		;
	tap_ok(k == -1, "... a byte after it: refused in pieces");
	dst[len / 2] ^= 0x10;
	zpack_unstream_begin(z, dst, len);
	got = 0;
	while ((k = zpack_unstream_read(z, back + got, n + 64 - got)) > 0)
		got += (size_t)k;
	tap_ok(k == -1 || (got == n && !memcmp(back, src, n)),
	       "... a byte changed: refused, or the same bytes (the checksum)");
	len = 0;
	ok = !zpack_stream_begin(z, n + 1) && !zpack_stream_feed(z, src, n, 0, &dst, &cap, &len);
	tap_ok(!ok || zpack_stream_feed(z, NULL, 0, 1, &dst, &cap, &len) == -1,
	       "pieces one byte short of the size given: refused");
	free(src);
	free(dst);
	free(back);
}

int main(void)
{
	struct zpack *z = zpack_new();

	if (!tap_ok(z != NULL, "contexts set up"))
		return tap_done();
	roundtrip(z, "a state", 170068, 0);
	roundtrip(z, "a page", 4608, 1);
	roundtrip(z, "noise", 20000, 2);
	roundtrip(z, "one byte", 1, 2);
	roundtrip(z, "the same contexts again", 170068, 0);
	damage(z, 60000);
	streams(z, 300000, 0);
	streams(z, 20000, 2);
	roundtrip(z, "one piece after pieces", 170068, 0);
	zpack_free(z);
	zpack_free(NULL);
	return tap_done();
}

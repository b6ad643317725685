/*
 * zchunks_test: the compressed chunk lists (replay/zchunks.h), with chunks
 * whose bytes are a function of their index: every chunk comes back as it
 * went in, read forward, while the list grows, and as a replay going back
 * reads them (stretches read forward, the stretches further and further
 * back) with no block inflated twice in such a sweep; blocks that do not
 * shrink kept raw; empty chunks; the bytes counted; a damaged block an
 * error naming it, the others still read.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/zchunks.h"
#include "tests/unit/capture.h"
#include "tests/unit/tap.h"

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Chunk i of a list of kind: its length and byte j. Kind 0 is shaped like
 * packed messages (small values, repeats: deflates to a third), kind 1 is
 * noise (does not shrink), kind 2 mixes both, a run of each, with empty
 * chunks among them.
 */
static size_t chunk_len(int kind, size_t i)
{
	if (kind == 2 && i % 37 == 5)
		return 0;
	return 1 + mix(i * 3 + (uint64_t)kind) % 3000;
}

static uint8_t chunk_byte(int kind, size_t i, size_t j)
{
	int noise = kind == 1 || (kind == 2 && i / 50 % 2);

	if (noise)
		return (uint8_t)mix(i << 20 ^ j);
	return (uint8_t)((j % 7 == 0 ? mix(i + j / 7) % 5 : j % 13) + (i % 3));
}

static void add(struct rpl_zchunks *l, int kind, size_t i)
{
	size_t n = chunk_len(kind, i);
	uint8_t *p = rpl_zchunks_room(l, n + 100);

	for (size_t j = 0; j < n; j++)
		p[j] = chunk_byte(kind, i, j);
	memset(p + n, 0xee, 100); /* room not used: must not show */
	rpl_zchunks_add(l, n);
}

/* Chunk i read back as it went in: 1, or 0 with a diagnostic. */
static int same(struct rpl_zchunks *l, int kind, size_t i)
{
	size_t len = SIZE_MAX;
	const uint8_t *p = rpl_zchunks_get(l, i, &len);

	if (!p || len != chunk_len(kind, i)) {
		tap_diag("chunk %zu: %s, %zu bytes, %zu expected", i, p ? "read" : "not read", len,
			 chunk_len(kind, i));
		return 0;
	}
	for (size_t j = 0; j < len; j++)
		if (p[j] != chunk_byte(kind, i, j)) {
			tap_diag("chunk %zu, byte %zu: 0x%02x, 0x%02x expected", i, j, p[j],
				 chunk_byte(kind, i, j));
			return 0;
		}
	return 1;
}

static void roundtrip(const char *what, int kind, size_t n, unsigned per_block)
{
	struct rpl_zcoder *z = rpl_zcoder_new();
	struct rpl_zchunks l;
	struct rpl_zchunks_stats st;
	uint64_t raw = 0, before, held, slack;
	int ok = 1;

	rpl_zchunks_init(&l, z, per_block);
	for (size_t i = 0; i < n; i++) {
		add(&l, kind, i);
		raw += chunk_len(kind, i);
		/* read while it grows: the newest, and now and then an older one */
		ok = ok && same(&l, kind, i);
		if (i % 97 == 0)
			ok = ok && same(&l, kind, (size_t)mix(i) % (i + 1));
	}
	tap_ok(ok, "%s: each chunk read as the list grows", what);
	tap_ok(rpl_zchunks_count(&l) == n, "%s: %zu chunks", what, n);
	ok = 1;
	for (size_t i = 0; i < n && ok; i++)
		ok = same(&l, kind, i);
	tap_ok(ok, "%s: read forward", what);

	/*
	 * A replay going back: stretches of up to a block, each read forward,
	 * from the end back to the start. Each block is inflated once at most
	 * (two kept: the stretch's and the one before it).
	 */
	before = l.inflations;
	ok = 1;
	for (size_t end = n; end > 0 && ok;) {
		size_t len = 1 + (size_t)mix(end) % per_block, start = end > len ? end - len : 0;

		for (size_t i = start; i < end && ok; i++)
			ok = same(&l, kind, i);
		end = start;
	}
	rpl_zchunks_bytes(&l, &st);
	tap_ok(ok, "%s: read back, stretch by stretch", what);
	tap_ok(st.inflations - before <= st.blocks, "%s: %llu inflations going back, %llu blocks",
	       what, (unsigned long long)(st.inflations - before), (unsigned long long)st.blocks);

	tap_ok(st.chunks == n && st.raw_bytes == raw && st.blocks == n / per_block,
	       "%s: the stats count %llu chunks of %llu bytes in %llu blocks", what,
	       (unsigned long long)st.chunks, (unsigned long long)st.raw_bytes,
	       (unsigned long long)st.blocks);
	if (kind == 0 && st.blocks >= 2)
		tap_ok(st.stored_bytes * 2 < raw, "%s: deflated, %llu bytes of %llu", what,
		       (unsigned long long)st.stored_bytes, (unsigned long long)raw);
	else if (kind == 1)
		tap_ok(st.stored_bytes == raw, "%s: noise kept raw, %llu bytes", what,
		       (unsigned long long)st.stored_bytes);
	/* over what is stored and cached: the incomplete block's room, the tables */
	held = rpl_zchunks_bytes(&l, NULL);
	slack = 64 * 1024 + n * sizeof(uint32_t) + (n / per_block + 64) * sizeof(struct rpl_zblock);
	tap_ok(held >= st.stored_bytes + st.cache_bytes &&
		   held <= st.stored_bytes + st.cache_bytes + slack,
	       "%s: %llu bytes held in all", what, (unsigned long long)held);
	tap_ok(st.blocks == 0 || rpl_zcoder_bytes(z) > 64 * 1024,
	       "%s: the coder counts its packer's contexts (%llu bytes)", what,
	       (unsigned long long)rpl_zcoder_bytes(z));
	rpl_zchunks_release(&l);
	tap_ok(rpl_zchunks_count(&l) == 0 && rpl_zchunks_bytes(&l, NULL) == 0,
	       "%s: released, empty", what);
	rpl_zcoder_free(z);
}

/* A deflated block damaged: an error naming it, nothing else lost. */
static void damaged(void)
{
	struct rpl_zcoder *z = rpl_zcoder_new();
	struct rpl_zchunks l;
	const uint8_t *p;
	const char *msg;
	size_t len;
	int ok = 1;

	rpl_zchunks_init(&l, z, 4);
	for (size_t i = 0; i < 40; i++)
		add(&l, 0, i);
	tap_ok(l.nblocks == 10 && l.block[3].z, "10 blocks, block 3 deflated");
	l.block[3].p[l.block[3].len / 2] ^= 0x55;
	capture_start();
	p = rpl_zchunks_get(&l, 13, &len);
	msg = capture_end();
	tap_ok(!p, "a chunk of the damaged block is not read");
	tap_ok(strstr(msg, "block 3 of 10 (chunks 12 to 15, ") && strstr(msg, "does not unpack"),
	       "the error names the block and its chunks");
	if (!strstr(msg, "block 3 of 10"))
		tap_diag("got: %s", msg);
	for (size_t i = 0; i < 40; i++)
		if (i / 4 != 3)
			ok = ok && same(&l, 0, i);
	tap_ok(ok, "every other block still reads");
	capture_start();
	p = rpl_zchunks_get(&l, 12, &len);
	capture_end();
	tap_ok(!p, "and the damaged one fails again, no stale cache");
	rpl_zchunks_release(&l);
	rpl_zcoder_free(z);
}

int main(void)
{
	roundtrip("packed-like, blocks of 16", 0, 2000, 16);
	roundtrip("noise, blocks of 16", 1, 300, 16);
	roundtrip("mixed with empty chunks, blocks of 3", 2, 1000, 3);
	roundtrip("blocks of 1", 0, 200, 1);
	roundtrip("one incomplete block", 0, 10, 16);
	roundtrip("nothing", 0, 0, 16);
	damaged();
	return tap_done();
}

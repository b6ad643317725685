/* zchunks: chunks of bytes kept in compressed blocks (zchunks.h). */
#include "replay/zchunks.h"

#include <stdlib.h>
#include <string.h>

#include "util/zpack.h"

struct rpl_zcoder {
	struct zpack *zp; /* set up when first needed */
	uint8_t *buf;	  /* the packer's output */
	size_t cap;
};

struct rpl_zcoder *rpl_zcoder_new(void)
{
	return xcalloc(1, sizeof(struct rpl_zcoder));
}

void rpl_zcoder_free(struct rpl_zcoder *z)
{
	if (!z)
		return;
	zpack_free(z->zp);
	free(z->buf);
	free(z);
}

uint64_t rpl_zcoder_bytes(const struct rpl_zcoder *z)
{
	return sizeof(*z) + z->cap + zpack_bytes(z->zp);
}

/* The coder's packer, set up at first use; NULL when the library cannot (out of memory). */
static struct zpack *packer(struct rpl_zcoder *z)
{
	if (!z->zp)
		z->zp = zpack_new();
	return z->zp;
}

/*
 * Pack n bytes at p (util/zpack.h) into the coder's buffer: their length
 * there, or 0 when the library cannot (out of memory) or they do not shrink.
 */
static size_t deflate_block(struct rpl_zcoder *z, const uint8_t *p, size_t n)
{
	size_t bound = zpack_bound(n), len;

	if (!packer(z))
		return 0;
	if (z->cap < bound) {
		z->buf = xrealloc(z->buf, bound);
		z->cap = bound;
	}
	len = zpack_pack(z->zp, z->buf, z->cap, p, n);
	return len && len < n ? len : 0;
}

void rpl_zchunks_init(struct rpl_zchunks *l, struct rpl_zcoder *z, unsigned per_block)
{
	memset(l, 0, sizeof(*l));
	l->z = z;
	l->per_block = per_block ? per_block : 1;
	for (int s = 0; s < RPL_ZCACHE; s++)
		l->slot[s].block = SIZE_MAX;
}

void rpl_zchunks_release(struct rpl_zchunks *l)
{
	for (size_t b = 0; b < l->nblocks; b++)
		free(l->block[b].p);
	free(l->block);
	free(l->off);
	free(l->raw);
	for (int s = 0; s < RPL_ZCACHE; s++)
		free(l->slot[s].p);
	rpl_zchunks_init(l, l->z, l->per_block);
}

uint8_t *rpl_zchunks_room(struct rpl_zchunks *l, size_t max)
{
	if (l->rcap - l->rlen < max) {
		size_t want = l->rlen + max;

		l->rcap = l->rcap ? l->rcap : 4096;
		while (l->rcap < want)
			l->rcap *= 2;
		l->raw = xrealloc(l->raw, l->rcap);
	}
	return l->raw + l->rlen;
}

/*
 * The incomplete block is complete: deflated into a block of its own
 * (raw if that does not pay); the raw buffer is kept for the next one.
 */
static void seal(struct rpl_zchunks *l)
{
	struct rpl_zblock *b;
	size_t n;

	if (l->nblocks == l->ablocks) {
		l->ablocks = l->ablocks ? 2 * l->ablocks : 64;
		l->block = xrealloc(l->block, l->ablocks * sizeof(*l->block));
	}
	b = &l->block[l->nblocks++];
	b->raw = (uint32_t)l->rlen;
	n = deflate_block(l->z, l->raw, l->rlen);
	b->z = n != 0;
	b->len = (uint32_t)(n ? n : l->rlen);
	b->p = xmalloc(b->len ? b->len : 1);
	if (b->len) /* (chunks of 0 bytes: raw may be NULL) */
		memcpy(b->p, n ? l->z->buf : l->raw, b->len);
	l->z_bytes += b->len;
	l->rlen = 0;
}

void rpl_zchunks_add(struct rpl_zchunks *l, size_t len)
{
	if (l->n == l->aoff) {
		l->aoff = l->aoff ? 2 * l->aoff : 256;
		l->off = xrealloc(l->off, l->aoff * sizeof(*l->off));
	}
	l->off[l->n++] = (uint32_t)l->rlen;
	l->rlen += len;
	l->raw_bytes += len;
	if (l->n % l->per_block == 0)
		seal(l);
}

/* How far block a is from block b (SIZE_MAX: an empty slot, the farthest). */
static size_t distance(size_t a, size_t b)
{
	return a == SIZE_MAX ? SIZE_MAX : a > b ? a - b : b - a;
}

/*
 * Block b (complete, deflated) inflated in the cache: its bytes, or NULL
 * with an error. It replaces the block farthest from it (the one read
 * longest ago of two as far): a replay going back reads the stretch
 * before the one it read, so block b - 1 is read after b + 1 was, and
 * b - 1 must stay when b - 2 comes in (the one read longest ago would be
 * it, a stretch read from b - 2 to b - 1 would inflate it again).
 */
static const uint8_t *inflated(struct rpl_zchunks *l, size_t b)
{
	const struct rpl_zblock *k = &l->block[b];
	struct rpl_zslot *s = &l->slot[0];
	struct rpl_zcoder *z = l->z;

	for (int i = 0; i < RPL_ZCACHE; i++) {
		size_t d = distance(l->slot[i].block, b), ds = distance(s->block, b);

		if (l->slot[i].block == b) {
			l->slot[i].used = ++l->tick;
			return l->slot[i].p;
		}
		if (d > ds || (d == ds && l->slot[i].used < s->used))
			s = &l->slot[i];
	}
	s->block = SIZE_MAX;
	if (s->cap < k->raw) {
		free(s->p);
		s->p = xmalloc(k->raw);
		s->cap = k->raw;
	}
	if (!packer(z) || zpack_unpack(z->zp, s->p, k->raw, k->p, k->len)) {
		error("block %zu of %zu (chunks %zu to %zu, %u bytes packed from %u) does not "
		      "unpack: %s",
		      b, l->nblocks, b * l->per_block, (b + 1) * l->per_block - 1, k->len, k->raw,
		      z->zp ? "damaged (its checksum or its length does not match)"
			    : "no memory for the decompressor");
		return NULL;
	}
	l->inflations++;
	s->block = b;
	s->used = ++l->tick;
	return s->p;
}

const uint8_t *rpl_zchunks_get(struct rpl_zchunks *l, size_t i, size_t *len)
{
	size_t b = i / l->per_block, end;
	const uint8_t *p;

	if (b == l->nblocks) {
		p = l->raw;
		end = i + 1 < l->n ? l->off[i + 1] : l->rlen;
	} else {
		if (!l->block[b].z)
			p = l->block[b].p;
		else if (!(p = inflated(l, b)))
			return NULL;
		end = (i + 1) % l->per_block ? l->off[i + 1] : l->block[b].raw;
	}
	*len = end - l->off[i];
	return p + l->off[i];
}

uint64_t rpl_zchunks_bytes(const struct rpl_zchunks *l, struct rpl_zchunks_stats *st)
{
	uint64_t cache = 0;

	for (int s = 0; s < RPL_ZCACHE; s++)
		cache += l->slot[s].cap;
	if (st)
		*st = (struct rpl_zchunks_stats){.chunks = l->n,
						 .raw_bytes = l->raw_bytes,
						 .stored_bytes = l->z_bytes + l->rlen,
						 .blocks = l->nblocks,
						 .cache_bytes = cache,
						 .inflations = l->inflations};
	return l->z_bytes + l->rcap + cache + l->ablocks * sizeof(*l->block) +
	       l->aoff * sizeof(*l->off);
}

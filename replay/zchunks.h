/*
 * zchunks: a list of byte strings ("chunks"), appended in order, kept for
 * good and read back by index, compressed: the control-flow-only replay's
 * packed messages (replay/cfwalk.c), which a replay going back reads
 * again, and which grow by about a quarter of a byte per instruction
 * packed (a tenth compressed, on the soak workload at 1 core).
 *
 * The chunks go in blocks of a fixed count (per_block). A block is
 * compressed whole (util/zpack.h: zstd level 1, checksummed) as soon as its
 * last chunk is added; only the newest, incomplete block stays raw. Reading
 * a chunk of a compressed block inflates the whole block into a cache of
 * RPL_ZCACHE blocks, the one farthest from it replaced. A replay going back
 * restores a checkpoint and reads forward from it, again and again from
 * checkpoints further back, so the chunks of one stretch are read in
 * increasing order and the stretches in decreasing order: the cache holds
 * the block of the current stretch and the one before it, which a stretch
 * that starts in the previous block needs too, and a sweep back inflates
 * each block once. A stretch over more blocks than the cache holds inflates
 * most of them again whenever it is walked again.
 *
 *   block 0         block 1         ...  block k (incomplete)
 *   [c0 ... c15]    [c16 ... c31]         [c(16k) ... c(n-1)]
 *   deflated        deflated              raw, grows
 *        \             /
 *      inflated into the cache when read (2 blocks)
 *
 * One compressor and one decompressor (struct rpl_zcoder) serve the lists
 * of a replay: their contexts take hundreds of KiB, and one list is kept
 * per core.
 */
#ifndef RAPTOR_ZCHUNKS_H
#define RAPTOR_ZCHUNKS_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/* blocks a list keeps inflated */
#define RPL_ZCACHE 2

/*
 * The packer (util/zpack.h) and its output buffer, shared by lists (not
 * by threads). rpl_zcoder_new dies on exhaustion, as xmalloc does; the
 * packer's contexts are set up when first needed.
 */
struct rpl_zcoder;
struct rpl_zcoder *rpl_zcoder_new(void);
void rpl_zcoder_free(struct rpl_zcoder *z);
/* Bytes it holds: the packer's contexts (as the library sizes them) and its buffer. */
uint64_t rpl_zcoder_bytes(const struct rpl_zcoder *z);

/* The fields are the module's (a test may damage a block's bytes). */
struct rpl_zchunks {
	struct rpl_zcoder *z;
	unsigned per_block;
	struct rpl_zblock {
		uint8_t *p;   /* its bytes: deflated if z, else raw */
		uint32_t len; /* at p */
		uint32_t raw; /* its chunks' bytes */
		uint8_t z;    /* deflated (0: it did not shrink, kept raw) */
	} * block;	      /* the complete blocks */
	size_t nblocks, ablocks;
	uint32_t *off; /* chunk i starts at off[i] in its block */
	size_t n, aoff;
	uint8_t *raw; /* the incomplete block, rlen bytes (of rcap) */
	size_t rlen, rcap;
	struct rpl_zslot {
		uint8_t *p;
		size_t cap;
		size_t block; /* the block inflated at p, SIZE_MAX: none */
		uint64_t used;
	} slot[RPL_ZCACHE];
	uint64_t tick;
	uint64_t raw_bytes, z_bytes; /* every chunk's bytes; the blocks' at p */
	uint64_t inflations;
};

/*
 * An empty list of blocks of per_block chunks (>= 1), compressed with z
 * (which must outlive it). No allocation.
 */
void rpl_zchunks_init(struct rpl_zchunks *l, struct rpl_zcoder *z, unsigned per_block);
void rpl_zchunks_release(struct rpl_zchunks *l);

/*
 * Room for the next chunk, max bytes at most, to be written there and
 * then added with rpl_zchunks_add(l, len), len <= max (and below 2^31).
 * The room holds until the next call on the list.
 */
uint8_t *rpl_zchunks_room(struct rpl_zchunks *l, size_t max);
/* Add the chunk written in the room: chunk rpl_zchunks_count(l) - 1 now. */
void rpl_zchunks_add(struct rpl_zchunks *l, size_t len);

static inline size_t rpl_zchunks_count(const struct rpl_zchunks *l)
{
	return l->n;
}

/*
 * Chunk i's bytes (i < the count), *len of them; the pointer holds until
 * the next call on the list. NULL with an error naming the block when its
 * bytes do not inflate to what went in (damaged memory: an internal
 * error).
 */
const uint8_t *rpl_zchunks_get(struct rpl_zchunks *l, size_t i, size_t *len);

/* What a list holds. */
struct rpl_zchunks_stats {
	uint64_t chunks;
	uint64_t raw_bytes;    /* its chunks' bytes, uncompressed */
	uint64_t stored_bytes; /* they take now: the blocks' bytes and the incomplete block's */
	uint64_t blocks;       /* complete blocks (compressed, unless that did not pay) */
	uint64_t cache_bytes;  /* the cache's inflated blocks (their buffers) */
	uint64_t inflations;   /* blocks inflated into the cache so far */
};
/*
 * Bytes the list holds in all (stored, the buffers' slack, the cache, its
 * tables; not the coder), and if st, what it holds.
 */
uint64_t rpl_zchunks_bytes(const struct rpl_zchunks *l, struct rpl_zchunks_stats *st);

#endif

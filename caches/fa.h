/*
 * fa: the mlvCFiat data caches with first-access (FA) flags (CFAT paper
 * Fig. 3-4, DESIGN.md section 4), for all cores of a board at once so that
 * coherence between private caches is part of the model.
 *
 * Each core has an L1 data cache (or all cores share one): size,
 * associativity, line size, LRU replacement, write-allocate, write-back.
 * Every line carries one FA flag per granule of g bytes (g = 1, 2, 4 or 8,
 * at most the line size). A set flag means "the debugger knows these g
 * bytes as this core sees them".
 *
 * The SAME code runs in the target's trace module and as the replay's
 * software copy; the caller decides what to do with the answer:
 *
 *   load of n bytes at a (may span lines):
 *     every line hits and every FA flag the access covers is set
 *       -> DC_FA_HIT: fahCnt++ (target) / the value is known (replay)
 *     otherwise
 *       -> DC_FA_MISS: emit / read a message whose value is every byte of
 *          every granule the access covers: [*ga, *ga + *glen), granule
 *          aligned. Lines that missed are allocated first (their flags
 *          cleared), then the flags of those granules are set.
 *   store of n bytes at a:
 *     write-allocate (a missing line is allocated, flags cleared), then the
 *     flags of granules the store covers FULLY are set; a granule written
 *     only in part keeps its flag as it was (the debugger knows the bytes
 *     written but not the rest of the granule unless it knew them before).
 *     With private caches, every other core's copy of each line touched is
 *     invalidated (write-invalidate coherence): its next read is traced.
 *
 * Only cacheable accesses come here: the caller traces uncached ones (the
 * peripherals) on every load by itself. Nothing here knows about values:
 * the model tracks presence and flags, the replay keeps the bytes.
 */
#ifndef RAPTOR_FA_H
#define RAPTOR_FA_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define DC_FA_MAX_CORES 8
#define DC_FA_MAX_SPAN 24 /* bytes a traced load value can span */

struct dc_fa_config {
	uint32_t size;	  /* bytes per cache, power of two */
	uint32_t assoc;	  /* ways, power of two, <= size / line */
	uint32_t line;	  /* bytes, power of two, 4..256 */
	uint32_t granule; /* FA-flag granule in bytes: 1, 2, 4 or 8, <= line */
	int ncores;	  /* 1..DC_FA_MAX_CORES */
	int shared;	  /* 1: one cache for all cores; 0: private + coherence */
};

/* Defaults: 32 KiB, 4-way, 32-byte lines, 4-byte granules, private, 1 core. */
void dc_fa_config_init(struct dc_fa_config *cfg);

/* Check a configuration: 0, or -1 with an error naming the bad field and value. */
int dc_fa_config_check(const struct dc_fa_config *cfg) MUST_CHECK;

/*
 * Parse "size=32768,assoc=4,line=32,granule=4" (any subset, any order, in
 * decimal, 0x hex, or with a K suffix for size: "size=32K"); keys not given
 * keep the values *cfg had. ncores and shared are not part of the string.
 * 0, or -1 with an error quoting the string and the bad item (*cfg untouched).
 */
int dc_fa_config_parse(const char *s, struct dc_fa_config *cfg) MUST_CHECK;
/* The canonical "size=N,assoc=N,line=N,granule=N" (parses back). */
void dc_fa_config_format(const struct dc_fa_config *cfg, char *buf, size_t len);

struct dc_fa;

/* New caches, all lines invalid; NULL after dc_fa_config_check fails. */
struct dc_fa *dc_fa_new(const struct dc_fa_config *cfg);
void dc_fa_free(struct dc_fa *fa);
/* All lines invalid again, statistics zero. */
void dc_fa_reset(struct dc_fa *fa);
const struct dc_fa_config *dc_fa_get_config(const struct dc_fa *fa);

enum dc_fa_result {
	DC_FA_HIT = 0, /* value known: fahCnt++ */
	DC_FA_MISS,    /* value must be traced: [*ga, *ga + *glen) */
};

/*
 * A load by core of n bytes (1..8) at addr (any alignment; may span two
 * lines). On DC_FA_MISS, *ga and *glen (both may be NULL) get the span of
 * the granules covering [addr, addr + n): granule aligned, at most
 * n + 2 * (granule - 1) bytes (DC_FA_MAX_SPAN). The flags of that span are
 * set before returning.
 */
enum dc_fa_result dc_fa_load(struct dc_fa *fa, int core, uint32_t addr, unsigned n,
			     uint32_t *ga, unsigned *glen);

/* A store by core of n bytes (1..8) at addr (see the top of this file). */
void dc_fa_store(struct dc_fa *fa, int core, uint32_t addr, unsigned n);

/* Counters, per core (index core) and summed (index ncores). */
struct dc_fa_stats {
	uint64_t loads, load_hits;   /* DC_FA_HIT / all loads */
	uint64_t fa_misses;	     /* loads whose lines hit but a flag was clear */
	uint64_t line_misses;	     /* line misses of loads (traced) */
	uint64_t stores, store_misses;
	uint64_t invalidations;	     /* lines dropped by other cores' stores */
	uint64_t writebacks;	     /* dirty lines evicted or invalidated */
	uint64_t traced_bytes;	     /* sum of *glen over misses */
};
/* Copy the counters of core (0..ncores-1), or of all cores for core = ncores. */
void dc_fa_stats(const struct dc_fa *fa, int core, struct dc_fa_stats *out);

/*
 * Checkpoints: the whole state as plain bytes (host order, no pointers),
 * starting with a magic and the configuration so a restore into a cache of
 * another configuration is refused. dc_fa_save writes dc_fa_state_size()
 * bytes. dc_fa_restore: 0, or -1 with an error (state unchanged).
 */
size_t dc_fa_state_size(const struct dc_fa *fa);
void dc_fa_save(const struct dc_fa *fa, void *buf);
int dc_fa_restore(struct dc_fa *fa, const void *buf, size_t len) MUST_CHECK;

#endif

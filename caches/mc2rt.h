/*
 * mc2rt: the mc2RT load-value filter (seed mc2RT-..., Fig. 4-7): private L1
 * data caches kept coherent by MOESI, each line with ONE trace bit T
 * ("this line's content has been traced out, the debugger knows it").
 *
 * Reads (Fig. 5), processed line by line: an access of n bytes that spans
 * two lines is two reads, in address order.
 *   hit, T = 1                  -> DC_MC2RT_HIT (THCnt++)
 *   hit, T = 0                  -> DC_MC2RT_MISS: the whole line is traced, T := 1
 *   miss, another cache has it  -> coherent read: the line comes from that
 *                                  cache (M -> O, E -> S, O/S stay), this copy
 *                                  becomes S and INHERITS the supplier's T;
 *                                  then as a hit above
 *   miss, no other copy         -> from memory, state E, T := 0 -> DC_MC2RT_MISS
 * Writes (Fig. 6):
 *   hit in M or E               -> M
 *   hit in S or O               -> other copies invalidated, M (T unchanged)
 *   miss                        -> coherent read-and-invalidate: from a peer
 *                                  cache (T inherited) or memory (T := 0),
 *                                  other copies invalidated, M
 * Evicting an M or O line writes it back (counted). The supplier when several
 * caches hold the line: the one in M or O if any, else the lowest core index.
 *
 * With shared = 1 all cores use one cache (no coherence traffic), each line
 * still with one T bit.
 *
 * Like fa.h, only cacheable accesses come here; the model holds states and
 * trace bits, not data.
 */
#ifndef RAPTOR_MC2RT_H
#define RAPTOR_MC2RT_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

struct dc_mc2rt_config {
	uint32_t size;  /* bytes per cache, power of two */
	uint32_t assoc; /* ways, power of two, <= size / line */
	uint32_t line;  /* bytes, power of two, 4..256 */
	int ncores;     /* 1..8 */
	int shared;
};

/* 0, or -1 with an error naming the bad field and value. */
int dc_mc2rt_config_check(const struct dc_mc2rt_config *cfg) MUST_CHECK;

struct dc_mc2rt;

struct dc_mc2rt *dc_mc2rt_new(const struct dc_mc2rt_config *cfg);
void dc_mc2rt_free(struct dc_mc2rt *m);
void dc_mc2rt_reset(struct dc_mc2rt *m);

enum dc_mc2rt_result {
	DC_MC2RT_HIT = 0, /* trace hit: THCnt++ */
	DC_MC2RT_MISS,	  /* trace miss: emit the whole line at *line_addr */
};

/*
 * One read by core that lies within ONE line (the caller splits an access
 * that spans two). On DC_MC2RT_MISS *line_addr gets the line's base address
 * (T is set before returning).
 */
enum dc_mc2rt_result dc_mc2rt_read(struct dc_mc2rt *m, int core, uint32_t addr,
				   uint32_t *line_addr);
/* One write by core to the line holding addr. */
void dc_mc2rt_write(struct dc_mc2rt *m, int core, uint32_t addr);

/* MOESI state of core's copy of the line holding addr: one of "MOESI", 'I' if absent. */
char dc_mc2rt_state(const struct dc_mc2rt *m, int core, uint32_t addr);
/* Its trace bit (0 if absent). */
int dc_mc2rt_tbit(const struct dc_mc2rt *m, int core, uint32_t addr);

struct dc_mc2rt_stats {
	uint64_t reads, trace_hits, trace_misses;
	uint64_t read_misses;	  /* line not present */
	uint64_t peer_supplied;	  /* misses served by another cache (T inherited) */
	uint64_t writes, write_misses;
	uint64_t invalidations;	  /* lines dropped in other caches */
	uint64_t writebacks;
};
/* Per core (0..ncores-1), or summed for core = ncores. */
void dc_mc2rt_stats(const struct dc_mc2rt *m, int core, struct dc_mc2rt_stats *out);

/* Checkpoints, as dc_fa_save/restore. */
size_t dc_mc2rt_state_size(const struct dc_mc2rt *m);
void dc_mc2rt_save(const struct dc_mc2rt *m, void *buf);
int dc_mc2rt_restore(struct dc_mc2rt *m, const void *buf, size_t len) MUST_CHECK;

#endif

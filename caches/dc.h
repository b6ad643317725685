/*
 * dc: a set-associative data-cache model: size, associativity, line size,
 * LRU replacement, write-allocate, write-back. The board's timing model uses
 * it for miss penalties; the mlvCFiat trace module and its software copy in
 * the replay use the same code with first-access flags.
 */
#ifndef RAPTOR_DC_H
#define RAPTOR_DC_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

struct dc_config {
	uint32_t size;  /* bytes, power of two */
	uint32_t assoc; /* ways, power of two, <= size / line */
	uint32_t line;  /* bytes, power of two, >= 4 */
};

struct dc;

/* Check a configuration; 0, or -1 with an error naming the bad field. */
int dc_config_check(const struct dc_config *cfg) MUST_CHECK;

/* New empty (all lines invalid) cache, or NULL after dc_config_check fails. */
struct dc *dc_new(const struct dc_config *cfg);
void dc_free(struct dc *dc);

/*
 * Access [addr, addr+len) (may span lines): every line is looked up and, on a
 * miss, allocated (LRU victim). Returns the number of lines that missed.
 */
unsigned dc_access(struct dc *dc, uint32_t addr, unsigned len);

/* Drop any line overlapping [addr, addr+len) (coherence invalidation). */
void dc_invalidate(struct dc *dc, uint32_t addr, unsigned len);

/*
 * Checkpoints: the state as plain bytes (host order), dc_state_size(dc)
 * of them, restored into a cache of the same configuration only.
 */
size_t dc_state_size(const struct dc *dc);
void dc_save(const struct dc *dc, void *buf);
void dc_restore(struct dc *dc, const void *buf);

#endif

#include "predictors/ras.h"

#include <stdlib.h>
#include <string.h>

struct ras {
	unsigned entries;
	uint32_t top;	/* slot of the newest entry (meaningless when depth = 0) */
	uint32_t depth; /* valid entries, 0..entries */
	uint32_t *slot;
};

int ras_config_check(unsigned entries)
{
	if (entries > RAS_MAX_ENTRIES)
		return error("ras: %u entries is more than %u", entries, RAS_MAX_ENTRIES);
	return 0;
}

struct ras *ras_new(unsigned entries)
{
	struct ras *r;

	if (ras_config_check(entries))
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->entries = entries;
	r->slot = xcalloc(entries ? entries : 1, sizeof(*r->slot));
	return r;
}

void ras_free(struct ras *r)
{
	if (!r)
		return;
	free(r->slot);
	free(r);
}

void ras_reset(struct ras *r)
{
	r->top = 0;
	r->depth = 0;
	memset(r->slot, 0, r->entries * sizeof(*r->slot));
}

unsigned ras_entries(const struct ras *r)
{
	return r->entries;
}

unsigned ras_depth(const struct ras *r)
{
	return r->depth;
}

int ras_peek(const struct ras *r, uint32_t *addr)
{
	if (!r->depth)
		return 0;
	*addr = r->slot[r->top];
	return 1;
}

void ras_push(struct ras *r, uint32_t addr)
{
	if (!r->entries)
		return;
	/* On a full ring the next slot holds the oldest entry: overwrite it. */
	r->top = r->depth ? (r->top + 1) % r->entries : 0;
	r->slot[r->top] = addr;
	if (r->depth < r->entries)
		r->depth++;
}

int ras_pop(struct ras *r, uint32_t *addr)
{
	if (!r->depth)
		return 0;
	*addr = r->slot[r->top];
	r->top = (r->top + r->entries - 1) % r->entries;
	r->depth--;
	return 1;
}

size_t ras_state_size(const struct ras *r)
{
	return 2 * sizeof(uint32_t) + r->entries * sizeof(uint32_t);
}

void ras_save(const struct ras *r, void *buf)
{
	uint8_t *p = buf;

	memcpy(p, &r->top, 4);
	memcpy(p + 4, &r->depth, 4);
	memcpy(p + 8, r->slot, r->entries * sizeof(*r->slot));
}

int ras_restore(struct ras *r, const void *buf)
{
	const uint8_t *p = buf;

	memcpy(&r->top, p, 4);
	memcpy(&r->depth, p + 4, 4);
	memcpy(r->slot, p + 8, r->entries * sizeof(*r->slot));
	if (r->depth > r->entries || (r->entries && r->top >= r->entries) ||
	    (!r->entries && r->top)) {
		uint32_t top = r->top, depth = r->depth;

		ras_reset(r);
		return error("ras: bad saved state: top %u depth %u for %u entries", top, depth,
			     r->entries);
	}
	return 0;
}

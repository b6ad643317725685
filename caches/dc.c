#include "caches/dc.h"

#include <stdlib.h>
#include <string.h>

struct dc_way {
	uint32_t tag;
	uint8_t valid;
	uint32_t lru; /* larger is more recent */
};

struct dc {
	struct dc_config cfg;
	unsigned sets, line_bits, set_bits;
	uint32_t clock;
	struct dc_way *ways; /* sets * assoc */
	/*
	 * The way of the line accessed last: a hint, checked before use (the way
	 * must still hold that line), so nothing has to keep it up to date.
	 */
	uint32_t hint_line;
	struct dc_way *hint;
};

static int pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

int dc_config_check(const struct dc_config *c)
{
	if (!pow2(c->line) || c->line < 4 || c->line > 4096)
		return error("cache: line size %u is not a power of two in 4..4096", c->line);
	if (!pow2(c->size) || c->size < c->line)
		return error("cache: size %u is not a power of two >= the line size", c->size);
	if (!pow2(c->assoc) || c->assoc > c->size / c->line)
		return error("cache: associativity %u is not a power of two <= %u lines",
			     c->assoc, c->size / c->line);
	return 0;
}

struct dc *dc_new(const struct dc_config *cfg)
{
	struct dc *dc;

	if (dc_config_check(cfg))
		return NULL;
	dc = xcalloc(1, sizeof(*dc));
	dc->cfg = *cfg;
	dc->sets = cfg->size / cfg->line / cfg->assoc;
	dc->line_bits = __builtin_ctz(cfg->line);
	dc->set_bits = __builtin_ctz(dc->sets);
	dc->ways = xcalloc((size_t)dc->sets * cfg->assoc, sizeof(*dc->ways));
	return dc;
}

void dc_free(struct dc *dc)
{
	if (!dc)
		return;
	free(dc->ways);
	free(dc);
}

static int access_line(struct dc *dc, uint32_t lineaddr)
{
	uint32_t set = lineaddr & (dc->sets - 1), tag = lineaddr >> dc->set_bits;
	struct dc_way *w = &dc->ways[(size_t)set * dc->cfg.assoc], *victim = w;

	if (dc->hint && lineaddr == dc->hint_line && dc->hint->valid && dc->hint->tag == tag) {
		dc->hint->lru = ++dc->clock;
		return 0;
	}
	dc->hint_line = lineaddr;
	for (unsigned i = 0; i < dc->cfg.assoc; i++) {
		if (w[i].valid && w[i].tag == tag) {
			w[i].lru = ++dc->clock;
			dc->hint = &w[i];
			return 0;
		}
		if (!w[i].valid || (victim->valid && w[i].lru < victim->lru))
			victim = &w[i];
	}
	victim->valid = 1;
	victim->tag = tag;
	victim->lru = ++dc->clock;
	dc->hint = victim;
	return 1;
}

/* dc_access's walk over the lines (its own function, so the usual access stays lean). */
static __attribute__((noinline)) unsigned access_lines(struct dc *dc, uint32_t first, uint32_t last)
{
	unsigned misses = 0;

	for (uint32_t l = first;; l++) {
		misses += access_line(dc, l);
		if (l == last)
			break;
	}
	return misses;
}

unsigned dc_access(struct dc *dc, uint32_t addr, unsigned len)
{
	uint32_t first = addr >> dc->line_bits, last = (addr + len - 1) >> dc->line_bits;

	/* the commonest access: within the line accessed last (access_line's first test) */
	if (first == last && first == dc->hint_line && dc->hint && dc->hint->valid &&
	    dc->hint->tag == first >> dc->set_bits) {
		dc->hint->lru = ++dc->clock;
		return 0;
	}
	return access_lines(dc, first, last);
}

void dc_invalidate(struct dc *dc, uint32_t addr, unsigned len)
{
	uint32_t first = addr >> dc->line_bits, last = (addr + len - 1) >> dc->line_bits;

	for (uint32_t l = first;; l++) {
		uint32_t set = l & (dc->sets - 1), tag = l >> dc->set_bits;
		struct dc_way *w = &dc->ways[(size_t)set * dc->cfg.assoc];

		for (unsigned i = 0; i < dc->cfg.assoc; i++)
			if (w[i].valid && w[i].tag == tag)
				w[i].valid = 0;
		if (l == last)
			break;
	}
}

size_t dc_state_size(const struct dc *dc)
{
	return sizeof(dc->clock) + (size_t)dc->sets * dc->cfg.assoc * sizeof(*dc->ways);
}

void dc_save(const struct dc *dc, void *buf)
{
	memcpy(buf, &dc->clock, sizeof(dc->clock));
	memcpy((char *)buf + sizeof(dc->clock), dc->ways,
	       (size_t)dc->sets * dc->cfg.assoc * sizeof(*dc->ways));
}

void dc_restore(struct dc *dc, const void *buf)
{
	memcpy(&dc->clock, buf, sizeof(dc->clock));
	memcpy(dc->ways, (const char *)buf + sizeof(dc->clock),
	       (size_t)dc->sets * dc->cfg.assoc * sizeof(*dc->ways));
}

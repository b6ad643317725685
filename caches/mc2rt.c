/*
 * mc2rt: MOESI private caches with one trace bit per line (see mc2rt.h).
 *
 * The layout follows fa.c: all caches in one array of ways, cache by cache
 * and set by set, each way tagged with its full line number. State I is
 * zero, so a zeroed array is a set of empty caches.
 */
#include "caches/mc2rt.h"

#include <stdlib.h>
#include <string.h>

#define MC_MAX_CORES 8
#define MC_MAX_LINE 256
#define MC_MAX_SIZE (16u << 20) /* a bound only to refuse typos that would eat the host */

enum mc_state { ST_I = 0, ST_M, ST_O, ST_E, ST_S, ST_COUNT };

static const char state_letter[ST_COUNT] = {'I', 'M', 'O', 'E', 'S'};

struct mc_way {
	uint32_t tag;	/* line number, addr >> line_bits */
	uint16_t state; /* enum mc_state */
	uint16_t tbit;	/* mc2RT Fig. 4: the line's content has been traced */
	uint64_t lru;	/* clock of the last access by the owning core(s) */
};

struct dc_mc2rt {
	struct dc_mc2rt_config cfg;
	unsigned line_bits;
	uint32_t set_mask; /* sets - 1 */
	unsigned assoc;
	size_t nways;	/* ways of all caches */
	uint64_t clock; /* LRU time, bumped by every access; never wraps in practice */
	struct mc_way *ways;
	struct dc_mc2rt_stats stats[MC_MAX_CORES];
};

static int pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

int dc_mc2rt_config_check(const struct dc_mc2rt_config *c)
{
	if (!pow2(c->line) || c->line < 4 || c->line > MC_MAX_LINE)
		return error("mc2rt cache: line %u is not a power of two in 4..%u", c->line,
			     MC_MAX_LINE);
	if (!pow2(c->size) || c->size < c->line || c->size > MC_MAX_SIZE)
		return error("mc2rt cache: size %u is not a power of two in %u..%u (line..16M)",
			     c->size, c->line, MC_MAX_SIZE);
	if (!pow2(c->assoc) || c->assoc > c->size / c->line)
		return error("mc2rt cache: assoc %u is not a power of two <= %u (size / line)",
			     c->assoc, c->size / c->line);
	if (c->ncores < 1 || c->ncores > MC_MAX_CORES)
		return error("mc2rt cache: ncores %d is not in 1..%d", c->ncores, MC_MAX_CORES);
	return 0;
}

struct dc_mc2rt *dc_mc2rt_new(const struct dc_mc2rt_config *cfg)
{
	struct dc_mc2rt *m;
	uint32_t sets;

	if (dc_mc2rt_config_check(cfg))
		return NULL;
	m = xcalloc(1, sizeof(*m));
	m->cfg = *cfg;
	m->cfg.shared = !!cfg->shared;
	sets = cfg->size / cfg->line / cfg->assoc;
	m->line_bits = __builtin_ctz(cfg->line);
	m->set_mask = sets - 1;
	m->assoc = cfg->assoc;
	m->nways = (size_t)(m->cfg.shared ? 1 : cfg->ncores) * sets * cfg->assoc;
	m->ways = xcalloc(m->nways, sizeof(*m->ways));
	return m;
}

void dc_mc2rt_free(struct dc_mc2rt *m)
{
	if (!m)
		return;
	free(m->ways);
	free(m);
}

void dc_mc2rt_reset(struct dc_mc2rt *m)
{
	memset(m->ways, 0, m->nways * sizeof(*m->ways));
	memset(m->stats, 0, sizeof(m->stats));
	m->clock = 0;
}

/* ---- lines --------------------------------------------------------------- */

/* The first way of the set of line ln in the cache core uses. */
static inline struct mc_way *set_of(const struct dc_mc2rt *m, int core, uint32_t ln)
{
	int c = m->cfg.shared ? 0 : core;

	return &m->ways[((size_t)c * (m->set_mask + 1) + (ln & m->set_mask)) * m->assoc];
}

/* The way holding line ln in the cache core uses, or NULL. */
static inline struct mc_way *lookup(const struct dc_mc2rt *m, int core, uint32_t ln)
{
	struct mc_way *w = set_of(m, core, ln);

	for (unsigned i = 0; i < m->assoc; i++)
		if (w[i].tag == ln && w[i].state != ST_I)
			return &w[i];
	return NULL;
}

/*
 * A way for line ln in core's cache: an invalid one if any, else the least
 * recently used; an M or O victim is written back (charged to core). The
 * caller sets state and T.
 */
static struct mc_way *fill(struct dc_mc2rt *m, int core, uint32_t ln)
{
	struct mc_way *w = set_of(m, core, ln), *v = w;

	for (unsigned i = 0; i < m->assoc; i++) {
		if (w[i].state == ST_I) {
			v = &w[i];
			break;
		}
		if (w[i].lru < v->lru)
			v = &w[i];
	}
	if (v->state == ST_M || v->state == ST_O)
		m->stats[core].writebacks++;
	v->tag = ln;
	return v;
}

/*
 * The peer cache that answers a coherent read of line ln: the owner (M or
 * O; there is at most one) if any, else the lowest-numbered sharer; NULL if
 * no peer holds it, or the cache is shared.
 */
static struct mc_way *supplier(const struct dc_mc2rt *m, int core, uint32_t ln)
{
	struct mc_way *first = NULL;

	if (m->cfg.shared)
		return NULL;
	for (int c = 0; c < m->cfg.ncores; c++) {
		struct mc_way *w;

		if (c == core || !(w = lookup(m, c, ln)))
			continue;
		if (w->state == ST_M || w->state == ST_O)
			return w;
		if (!first)
			first = w;
	}
	return first;
}

/* Coherent invalidate: drop every peer copy of ln, counted for core. */
static void invalidate_others(struct dc_mc2rt *m, int core, uint32_t ln)
{
	if (m->cfg.shared)
		return;
	for (int c = 0; c < m->cfg.ncores; c++) {
		struct mc_way *w;

		if (c == core || !(w = lookup(m, c, ln)))
			continue;
		w->state = ST_I;
		m->stats[core].invalidations++;
	}
}

/* ---- accesses ------------------------------------------------------------ */

enum dc_mc2rt_result dc_mc2rt_read(struct dc_mc2rt *m, int core, uint32_t addr, uint32_t *line_addr)
{
	struct dc_mc2rt_stats *st = &m->stats[core];
	uint32_t ln = addr >> m->line_bits;
	struct mc_way *w = lookup(m, core, ln);

	st->reads++;
	if (!w) {
		/* mc2RT Fig. 5, step 6: coherent read */
		struct mc_way *sup = supplier(m, core, ln);

		st->read_misses++;
		w = fill(m, core, ln);
		if (sup) {
			/* step 11: from Px, state S, T inherited; the owner keeps ownership */
			w->state = ST_S;
			w->tbit = sup->tbit;
			if (sup->state == ST_M)
				sup->state = ST_O;
			else if (sup->state == ST_E)
				sup->state = ST_S;
			st->peer_supplied++;
		} else {
			/* steps 12-13: from memory, state E, T cleared */
			w->state = ST_E;
			w->tbit = 0;
		}
	}
	w->lru = ++m->clock;
	if (w->tbit) {
		/* step 7: trace hit, THCnt++ */
		st->trace_hits++;
		return DC_MC2RT_HIT;
	}
	/* steps 4-5: the whole line is traced, T set */
	w->tbit = 1;
	st->trace_misses++;
	if (line_addr)
		*line_addr = ln << m->line_bits;
	return DC_MC2RT_MISS;
}

void dc_mc2rt_write(struct dc_mc2rt *m, int core, uint32_t addr)
{
	struct dc_mc2rt_stats *st = &m->stats[core];
	uint32_t ln = addr >> m->line_bits;
	struct mc_way *w = lookup(m, core, ln);

	st->writes++;
	if (w) {
		/* mc2RT Fig. 6, step 4: S or O must invalidate the other copies first */
		if (w->state == ST_S || w->state == ST_O)
			invalidate_others(m, core, ln);
		/* steps 3, 5: upgrade to M; T unchanged, the replay applies the store too */
		w->state = ST_M;
	} else {
		/* step 6: coherent read and invalidate */
		struct mc_way *sup = supplier(m, core, ln);
		uint16_t t = 0; /* step 13: from memory, T cleared */

		st->write_misses++;
		if (sup) {
			t = sup->tbit; /* step 10: from Px, T inherited */
			st->peer_supplied++;
		}
		invalidate_others(m, core, ln);
		w = fill(m, core, ln);
		w->state = ST_M;
		w->tbit = t;
	}
	w->lru = ++m->clock;
}

char dc_mc2rt_state(const struct dc_mc2rt *m, int core, uint32_t addr)
{
	const struct mc_way *w = lookup(m, core, addr >> m->line_bits);

	return w ? state_letter[w->state] : 'I';
}

int dc_mc2rt_tbit(const struct dc_mc2rt *m, int core, uint32_t addr)
{
	const struct mc_way *w = lookup(m, core, addr >> m->line_bits);

	return w ? w->tbit : 0;
}

void dc_mc2rt_stats(const struct dc_mc2rt *m, int core, struct dc_mc2rt_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (core < 0 || core > m->cfg.ncores)
		return;
	if (core < m->cfg.ncores) {
		*out = m->stats[core];
		return;
	}
	for (int c = 0; c < m->cfg.ncores; c++) {
		const struct dc_mc2rt_stats *s = &m->stats[c];

		out->reads += s->reads;
		out->trace_hits += s->trace_hits;
		out->trace_misses += s->trace_misses;
		out->read_misses += s->read_misses;
		out->peer_supplied += s->peer_supplied;
		out->writes += s->writes;
		out->write_misses += s->write_misses;
		out->invalidations += s->invalidations;
		out->writebacks += s->writebacks;
	}
}

/* ---- checkpoints --------------------------------------------------------- */

/*
 * Image, host order, no padding anywhere:
 *
 *   uint32 magic, way record size, stats record size,
 *          size, assoc, line, ncores, shared   (MC_HEADER_WORDS)
 *   uint64 clock
 *   struct dc_mc2rt_stats [ncores]
 *   struct mc_way         [nways]
 */
#define MC_STATE_MAGIC 0x31524d52u /* "RMR1" */
#define MC_HEADER_WORDS 8

static void header(const struct dc_mc2rt *m, uint32_t *h)
{
	h[0] = MC_STATE_MAGIC;
	h[1] = sizeof(struct mc_way);
	h[2] = sizeof(struct dc_mc2rt_stats);
	h[3] = m->cfg.size;
	h[4] = m->cfg.assoc;
	h[5] = m->cfg.line;
	h[6] = (uint32_t)m->cfg.ncores;
	h[7] = (uint32_t)m->cfg.shared;
}

size_t dc_mc2rt_state_size(const struct dc_mc2rt *m)
{
	return MC_HEADER_WORDS * sizeof(uint32_t) + sizeof(uint64_t) +
	       m->cfg.ncores * sizeof(struct dc_mc2rt_stats) + m->nways * sizeof(struct mc_way);
}

void dc_mc2rt_save(const struct dc_mc2rt *m, void *buf)
{
	uint32_t h[MC_HEADER_WORDS];
	uint8_t *p = buf;

	header(m, h);
	memcpy(p, h, sizeof(h));
	p += sizeof(h);
	memcpy(p, &m->clock, sizeof(m->clock));
	p += sizeof(m->clock);
	memcpy(p, m->stats, m->cfg.ncores * sizeof(*m->stats));
	p += m->cfg.ncores * sizeof(*m->stats);
	memcpy(p, m->ways, m->nways * sizeof(*m->ways));
}

int dc_mc2rt_restore(struct dc_mc2rt *m, const void *buf, size_t len)
{
	static const char *const what[MC_HEADER_WORDS] = {
	    "magic",  "way record size", "stats record size", "size", "assoc", "line",
	    "ncores", "shared"};
	uint32_t h[MC_HEADER_WORDS], want[MC_HEADER_WORDS];
	const uint8_t *p = buf, *wp;
	uint64_t clock;

	/* the header first: "ncores is 3, this cache has 2" says more than a length */
	if (len < sizeof(h))
		return error("mc2rt cache state: %zu bytes, shorter than its header", len);
	memcpy(h, p, sizeof(h));
	header(m, want);
	if (h[0] != want[0])
		return error("mc2rt cache state: bad magic 0x%08x", h[0]);
	for (int k = 1; k < MC_HEADER_WORDS; k++)
		if (h[k] != want[k])
			return error("mc2rt cache state: %s is %u, this cache has %u", what[k],
				     h[k], want[k]);
	if (len != dc_mc2rt_state_size(m))
		return error("mc2rt cache state: %zu bytes, expected %zu", len,
			     dc_mc2rt_state_size(m));
	memcpy(&clock, p + sizeof(h), sizeof(clock));
	wp = p + sizeof(h) + sizeof(clock) + m->cfg.ncores * sizeof(*m->stats);
	/* a way in the wrong set would never be found; a stamp past the clock would pin LRU */
	for (size_t i = 0; i < m->nways; i++) {
		struct mc_way w;

		memcpy(&w, wp + i * sizeof(w), sizeof(w));
		if (w.state >= ST_COUNT || w.tbit > 1 || w.lru > clock ||
		    (w.state != ST_I && (w.tag & m->set_mask) != i / m->assoc % (m->set_mask + 1)))
			return error(
			    "mc2rt cache state: way %zu is corrupt (tag 0x%x, state %u, T %u)", i,
			    w.tag, w.state, w.tbit);
	}
	m->clock = clock;
	memcpy(m->stats, p + sizeof(h) + sizeof(clock), m->cfg.ncores * sizeof(*m->stats));
	memcpy(m->ways, wp, m->nways * sizeof(*m->ways));
	return 0;
}

/*
 * fa: the mlvCFiat data caches with first-access flags (see fa.h).
 *
 * All caches of the board live in one array of ways, cache by cache, set by
 * set, so the ways of a set are adjacent and a lookup is one short scan.
 * A way is tagged with its full line number (addr >> line_bits) rather than
 * the bits above the set index: the line number is what the loops below walk
 * over, and a peer lookup for coherence needs no tag arithmetic.
 *
 * The FA flags sit in a second array, `fw` 64-bit words per way (one word
 * up to 64 granules a line, four for a 256-byte line of byte granules), so
 * the scan of a set touches only the small tag records.
 */
#include "caches/fa.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FA_MAX_LINE 256
#define FA_MAX_SIZE (16u << 20) /* a bound only to refuse typos that would eat the host */
#define FA_VALID 1u
#define FA_DIRTY 2u
#define FA_NONE ((size_t)-1)
#define FA_HELD_BITS 12
#define FA_HELD_BUCKETS (1u << FA_HELD_BITS)

struct fa_way {
	uint32_t tag;  /* line number, addr >> line_bits */
	uint32_t bits; /* FA_VALID, FA_DIRTY */
	uint64_t lru;  /* clock of the last access: the smallest valid one is the victim */
};

struct dc_fa {
	struct dc_fa_config cfg;
	unsigned line_bits, gran_bits;
	uint32_t set_mask; /* sets - 1 */
	unsigned assoc, assoc_bits;
	size_t cache_ways; /* ways of one cache: sets * assoc */
	unsigned fw;	   /* flag words per way */
	size_t nways;	   /* ways of all caches */
	uint64_t clock;	   /* LRU time, bumped by every access; never wraps in practice */
	struct fa_way *ways;
	uint64_t
	    *flags; /* nways * fw words: granule k of way i is bit k % 64 of word i * fw + k / 64 */
	struct dc_fa_stats stats[DC_FA_MAX_CORES];
	/*
	 * per cache, the way of the line looked up last: a hint, checked
	 * before use, and always one of that cache's ways
	 */
	size_t hint[DC_FA_MAX_CORES];
	uint32_t gran_mask; /* granules a line - 1 */
	/*
	 * held[held_bucket(ln)]: the valid ways, of all caches, whose line
	 * falls in that bucket. Derived from ways (rebuilt by a restore, not
	 * part of the state): a store whose line's bucket counts only its own
	 * copy has no peer copy to invalidate, so coherence looks no further.
	 */
	uint32_t held[FA_HELD_BUCKETS];
};

static inline unsigned held_bucket(uint32_t ln)
{
	return (ln * 0x9e3779b1u) >> (32 - FA_HELD_BITS);
}

/* Count the valid ways of ways[0..nways) into held again. */
static void held_rebuild(struct dc_fa *fa)
{
	memset(fa->held, 0, sizeof(fa->held));
	for (size_t i = 0; i < fa->nways; i++)
		if (fa->ways[i].bits & FA_VALID)
			fa->held[held_bucket(fa->ways[i].tag)]++;
}

/* ---- configuration ------------------------------------------------------- */

static int pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

void dc_fa_config_init(struct dc_fa_config *cfg)
{
	cfg->size = 32768;
	cfg->assoc = 4;
	cfg->line = 32;
	cfg->granule = 4;
	cfg->ncores = 1;
	cfg->shared = 0;
}

int dc_fa_config_check(const struct dc_fa_config *c)
{
	if (!pow2(c->line) || c->line < 4 || c->line > FA_MAX_LINE)
		return error("fa cache: line %u is not a power of two in 4..%u", c->line,
			     FA_MAX_LINE);
	if (!pow2(c->size) || c->size < c->line || c->size > FA_MAX_SIZE)
		return error("fa cache: size %u is not a power of two in %u..%u (line..16M)",
			     c->size, c->line, FA_MAX_SIZE);
	if (!pow2(c->assoc) || c->assoc > c->size / c->line)
		return error("fa cache: assoc %u is not a power of two <= %u (size / line)",
			     c->assoc, c->size / c->line);
	if (c->granule != 1 && c->granule != 2 && c->granule != 4 && c->granule != 8)
		return error("fa cache: granule %u is not 1, 2, 4 or 8", c->granule);
	if (c->granule > c->line)
		return error("fa cache: granule %u is larger than the line (%u)", c->granule,
			     c->line);
	if (c->ncores < 1 || c->ncores > DC_FA_MAX_CORES)
		return error("fa cache: ncores %d is not in 1..%d", c->ncores, DC_FA_MAX_CORES);
	return 0;
}

/*
 * One number of a config item: decimal or 0x hex, with a K (x 1024) suffix
 * where allow_k. Not strtoul(.., 0): "010" would silently be octal 8.
 */
static int parse_num(const char *s, int allow_k, uint32_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	const char *p = s;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!isxdigit((unsigned char)*p))
		return -1;
	for (; isxdigit((unsigned char)*p); p++) {
		unsigned d = isdigit((unsigned char)*p)
				 ? (unsigned)(*p - '0')
				 : (unsigned)(tolower((unsigned char)*p) - 'a' + 10);

		if (d >= base)
			return -1;
		v = v * base + d;
		if (v > UINT32_MAX)
			return -1;
	}
	if (allow_k && (*p == 'K' || *p == 'k')) {
		v *= 1024;
		p++;
	}
	if (*p || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int dc_fa_config_parse(const char *s, struct dc_fa_config *out)
{
	static const char *const keys[] = {"size", "assoc", "line", "granule"};
	struct dc_fa_config cfg = *out;
	uint32_t *field[] = {&cfg.size, &cfg.assoc, &cfg.line, &cfg.granule};
	unsigned seen = 0; /* bit per key */
	const char *p = s;
	char item[64];

	if (!s || !*s)
		return error("fa cache config is empty (expected size=,assoc=,line=,granule=)");
	for (;;) {
		const char *end = strchr(p, ','), *b, *e;
		size_t n = end ? (size_t)(end - p) : strlen(p), k;
		char *eq, *ke, *val;

		/* trim blanks around the item */
		for (b = p, e = p + n; b < e && isspace((unsigned char)*b); b++)
			;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		if ((size_t)(e - b) >= sizeof(item))
			return error("fa cache config \"%s\": item \"%.*s\" is too long", s,
				     (int)(e - b), b);
		memcpy(item, b, e - b);
		item[e - b] = 0;
		eq = strchr(item, '=');
		if (!eq)
			return error("fa cache config \"%s\": bad item \"%s\" (expected key=value)",
				     s, item);
		for (ke = eq; ke > item && isspace((unsigned char)ke[-1]); ke--)
			;
		*ke = 0;
		for (val = eq + 1; isspace((unsigned char)*val); val++)
			;
		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (!strcmp(item, keys[k]))
				break;
		if (k == ARRAY_SIZE(keys))
			return error(
			    "fa cache config \"%s\": bad item \"%.*s\" (unknown key \"%s\"; "
			    "expected size, assoc, line or granule)",
			    s, (int)(e - b), b, item);
		if (seen & 1u << k)
			return error("fa cache config \"%s\": bad item \"%.*s\" (%s given twice)",
				     s, (int)(e - b), b, item);
		seen |= 1u << k;
		if (parse_num(val, field[k] == &cfg.size, field[k]))
			return error("fa cache config \"%s\": bad item \"%.*s\" (not a number%s)",
				     s, (int)(e - b), b,
				     field[k] == &cfg.size ? ", 0x hex or K" : " or 0x hex");
		if (!end)
			break;
		p = end + 1;
	}
	*out = cfg;
	return 0;
}

void dc_fa_config_format(const struct dc_fa_config *cfg, char *buf, size_t len)
{
	snprintf(buf, len, "size=%u,assoc=%u,line=%u,granule=%u", cfg->size, cfg->assoc, cfg->line,
		 cfg->granule);
}

/* ---- lifecycle ----------------------------------------------------------- */

struct dc_fa *dc_fa_new(const struct dc_fa_config *cfg)
{
	struct dc_fa *fa;
	uint32_t sets;
	int ncaches;

	if (dc_fa_config_check(cfg))
		return NULL;
	fa = xcalloc(1, sizeof(*fa));
	fa->cfg = *cfg;
	fa->cfg.shared = !!cfg->shared;
	ncaches = fa->cfg.shared ? 1 : cfg->ncores;
	sets = cfg->size / cfg->line / cfg->assoc;
	fa->line_bits = __builtin_ctz(cfg->line);
	fa->gran_bits = __builtin_ctz(cfg->granule);
	fa->set_mask = sets - 1;
	fa->assoc = cfg->assoc;
	fa->assoc_bits = __builtin_ctz(cfg->assoc);
	fa->cache_ways = (size_t)sets * cfg->assoc;
	fa->fw = ((cfg->line >> fa->gran_bits) + 63) / 64;
	fa->gran_mask = (cfg->line >> fa->gran_bits) - 1;
	fa->nways = (size_t)ncaches * sets * cfg->assoc;
	fa->ways = xcalloc(fa->nways, sizeof(*fa->ways));
	fa->flags = xcalloc(fa->nways * fa->fw, sizeof(*fa->flags));
	for (int c = 0; c < ncaches; c++)
		fa->hint[c] = (size_t)c * fa->cache_ways;
	return fa;
}

void dc_fa_free(struct dc_fa *fa)
{
	if (!fa)
		return;
	free(fa->ways);
	free(fa->flags);
	free(fa);
}

void dc_fa_reset(struct dc_fa *fa)
{
	memset(fa->ways, 0, fa->nways * sizeof(*fa->ways));
	memset(fa->held, 0, sizeof(fa->held));
	memset(fa->flags, 0, fa->nways * fa->fw * sizeof(*fa->flags));
	memset(fa->stats, 0, sizeof(fa->stats));
	fa->clock = 0;
}

const struct dc_fa_config *dc_fa_get_config(const struct dc_fa *fa)
{
	return &fa->cfg;
}

/* ---- lines and flags ----------------------------------------------------- */

/* Index of the first way of the set of line ln in cache c. */
static inline size_t set_base(const struct dc_fa *fa, int c, uint32_t ln)
{
	return (size_t)c * fa->cache_ways + ((size_t)(ln & fa->set_mask) << fa->assoc_bits);
}

static inline size_t lookup(const struct dc_fa *fa, size_t base, uint32_t ln)
{
	for (size_t i = base; i < base + fa->assoc; i++)
		if (fa->ways[i].tag == ln && (fa->ways[i].bits & FA_VALID))
			return i;
	return FA_NONE;
}

/*
 * Allocate line ln in the set at base: an invalid way if there is one, else
 * the least recently used, written back (charged to st) if dirty. The new
 * line arrives with all flags clear: CFAT Fig. 3, line 10.
 */
static size_t fill(struct dc_fa *fa, size_t base, uint32_t ln, struct dc_fa_stats *st)
{
	size_t v = base;

	for (size_t i = base; i < base + fa->assoc; i++) {
		if (!(fa->ways[i].bits & FA_VALID)) {
			v = i;
			break;
		}
		if (fa->ways[i].lru < fa->ways[v].lru)
			v = i;
	}
	if ((fa->ways[v].bits & (FA_VALID | FA_DIRTY)) == (FA_VALID | FA_DIRTY))
		st->writebacks++;
	if (fa->ways[v].bits & FA_VALID)
		fa->held[held_bucket(fa->ways[v].tag)]--;
	fa->held[held_bucket(ln)]++;
	fa->ways[v].tag = ln;
	fa->ways[v].bits = FA_VALID;
	memset(&fa->flags[v * fa->fw], 0, fa->fw * sizeof(*fa->flags));
	return v;
}

/*
 * The way of line ln in cache c, its LRU stamp renewed: the cache's hint
 * first (always a way of its cache, so a right tag there is the right
 * set), else a lookup, else a fill (*filled = 1; 0 otherwise), the hint
 * then moved to it.
 */
static inline size_t way_of(struct dc_fa *fa, int c, uint32_t ln, struct dc_fa_stats *st,
			    int *filled)
{
	size_t i = fa->hint[c];

	*filled = 0;
	if (fa->ways[i].tag != ln || !(fa->ways[i].bits & FA_VALID)) {
		i = lookup(fa, set_base(fa, c, ln), ln);
		if (i == FA_NONE) {
			i = fill(fa, set_base(fa, c, ln), ln, st);
			*filled = 1;
		}
		fa->hint[c] = i;
	}
	fa->ways[i].lru = ++fa->clock;
	return i;
}

/* The bits of flag word w that granules [k0, k1) (k0 < k1) cover. */
static inline uint64_t word_mask(unsigned w, unsigned k0, unsigned k1)
{
	unsigned lo = w == k0 >> 6 ? k0 & 63 : 0;
	unsigned hi = w == (k1 - 1) >> 6 ? ((k1 - 1) & 63) + 1 : 64;

	return ~0ull >> (64 - (hi - lo)) << lo;
}

/* Set the flags of granules [k0, k1) of way i; 1 if all were set before. */
static inline int flags_set(struct dc_fa *fa, size_t i, unsigned k0, unsigned k1)
{
	uint64_t *f = &fa->flags[i * fa->fw];
	int all = 1;

	for (unsigned w = k0 >> 6; w <= (k1 - 1) >> 6; w++) {
		uint64_t m = word_mask(w, k0, k1);

		all &= (f[w] & m) == m;
		f[w] |= m;
	}
	return all;
}

/* ---- accesses ------------------------------------------------------------ */

/*
 * CFAT Fig. 3, lines 1-11, for an access that may cover several lines: the
 * span [lo, hi) is already widened to whole granules, so the flags set and
 * the bytes traced are the same thing (DESIGN.md 4: a byte load traces its
 * whole granule, or a later word load of that granule would replay unknown
 * bytes). The arithmetic is 64-bit so an access at the top of the address
 * space does not wrap.
 */
static __attribute__((noinline)) enum dc_fa_result load_walk(struct dc_fa *fa,
							     struct dc_fa_stats *st, int c,
							     uint64_t lo, uint64_t hi, uint32_t *ga,
							     unsigned *glen)
{
	int line_miss = 0, all = 1;

	for (uint64_t a = lo; a < hi;) {
		uint32_t ln = (uint32_t)(a >> fa->line_bits);
		uint64_t lend = (uint64_t)(ln + 1) << fa->line_bits, e = hi < lend ? hi : lend;
		size_t base = set_base(fa, c, ln), i = lookup(fa, base, ln);
		unsigned k0 = (unsigned)(a - ((uint64_t)ln << fa->line_bits)) >> fa->gran_bits;

		if (i == FA_NONE) {
			i = fill(fa, base, ln, st);
			line_miss = 1;
		}
		fa->ways[i].lru = ++fa->clock;
		/* a hit leaves set flags set; a miss sets them (Fig. 3, line 6) */
		all &= flags_set(fa, i, k0, k0 + (unsigned)((e - a) >> fa->gran_bits));
		a = e;
	}
	if (all) { /* a line that missed came with its flags clear */
		st->load_hits++;
		return DC_FA_HIT;
	}
	if (line_miss)
		st->line_misses++;
	else
		st->fa_misses++;
	st->traced_bytes += hi - lo;
	if (ga)
		*ga = (uint32_t)lo;
	if (glen)
		*glen = (unsigned)(hi - lo);
	return DC_FA_MISS;
}

/*
 * The usual case is kept short, in 32 bits: one line (an access that wraps
 * at 4 GiB has its ends in different lines) whose flags fit one word. Its
 * hit, its flag miss and its line miss are load_walk's for that line, in
 * one pass; anything else takes the general walk. The replay makes one of
 * these a load, so the way is found through the cache's hint first.
 */
enum dc_fa_result dc_fa_load(struct dc_fa *fa, int core, uint32_t addr, unsigned n, uint32_t *ga,
			     unsigned *glen)
{
	struct dc_fa_stats *st = &fa->stats[core];
	int c = fa->cfg.shared ? 0 : core;
	unsigned lb = fa->line_bits, gb = fa->gran_bits, k0, kn;
	uint32_t last = addr + n - 1, ln = addr >> lb, gmask;
	uint64_t m, *f;
	size_t i;
	int line_miss = 0;

	st->loads++;
	if (__builtin_expect((last >> lb) != ln || fa->fw != 1, 0)) {
		gmask = fa->cfg.granule - 1;
		return load_walk(fa, st, c, addr & ~(uint64_t)gmask,
				 (addr + (uint64_t)n + gmask) & ~(uint64_t)gmask, ga, glen);
	}
	k0 = (addr >> gb) & fa->gran_mask;
	kn = ((last >> gb) & fa->gran_mask) - k0 + 1; /* granules: 1..64 */
	m = ~0ull >> (64 - kn) << k0;
	i = way_of(fa, c, ln, st, &line_miss);
	f = &fa->flags[i];
	if ((*f & m) == m) { /* a line that missed came with its flags clear */
		st->load_hits++;
		return DC_FA_HIT;
	}
	*f |= m; /* Fig. 3, line 6 */
	if (line_miss)
		st->line_misses++;
	else
		st->fa_misses++;
	st->traced_bytes += (uint64_t)kn << gb;
	if (ga)
		*ga = ln << lb | k0 << gb;
	if (glen)
		*glen = kn << gb;
	return DC_FA_MISS;
}

/*
 * Drop line ln from every cache but core's: write-invalidate coherence.
 * Core's cache holds ln (the store allocated it): a bucket that counts one
 * valid way holds that copy alone.
 */
static void invalidate_others(struct dc_fa *fa, int core, uint32_t ln)
{
	if (fa->held[held_bucket(ln)] <= 1)
		return;
	for (int c = 0; c < fa->cfg.ncores; c++) {
		size_t i;

		if (c == core)
			continue;
		i = lookup(fa, set_base(fa, c, ln), ln);
		if (i == FA_NONE)
			continue;
		if (fa->ways[i].bits & FA_DIRTY)
			fa->stats[c].writebacks++;
		fa->ways[i].bits = 0;
		fa->held[held_bucket(ln)]--;
		fa->stats[c].invalidations++;
	}
}

/*
 * CFAT Fig. 3, line 13, with write-allocate: only granules the store covers
 * entirely become known, [flo, fhi); a partly written granule stays as it
 * was. Coherence (DESIGN.md 4) then drops the peers' copies.
 */
void dc_fa_store(struct dc_fa *fa, int core, uint32_t addr, unsigned n)
{
	struct dc_fa_stats *st = &fa->stats[core];
	int c = fa->cfg.shared ? 0 : core, coherent = !fa->cfg.shared && fa->cfg.ncores > 1;
	uint64_t gmask = fa->cfg.granule - 1;
	uint64_t lo = addr, hi = addr + (uint64_t)n;
	uint64_t flo = (lo + gmask) & ~gmask, fhi = hi & ~gmask;
	uint32_t first = (uint32_t)(lo >> fa->line_bits),
		 last = (uint32_t)((hi - 1) >> fa->line_bits);
	int miss = 0;

	st->stores++;
	if (first == last && fa->fw == 1) {
		/* the usual store: one line whose flags fit one word, its way found as a load's */
		uint64_t lb = (uint64_t)first << fa->line_bits;
		size_t i = way_of(fa, c, first, st, &miss);

		st->store_misses += (uint64_t)miss;
		fa->ways[i].bits |= FA_DIRTY;
		if (flo < fhi) {
			unsigned k0 = (unsigned)(flo - lb) >> fa->gran_bits;
			unsigned kn = (unsigned)(fhi - flo) >> fa->gran_bits;

			fa->flags[i] |= ~0ull >> (64 - kn) << k0;
		}
		if (coherent)
			invalidate_others(fa, core, first);
		return;
	}
	for (uint32_t ln = first; ln <= last; ln++) {
		uint64_t lb = (uint64_t)ln << fa->line_bits, le = lb + fa->cfg.line;
		uint64_t a = flo > lb ? flo : lb, e = fhi < le ? fhi : le;
		size_t base = set_base(fa, c, ln), i = lookup(fa, base, ln);

		if (i == FA_NONE) {
			i = fill(fa, base, ln, st);
			miss = 1;
		}
		fa->ways[i].lru = ++fa->clock;
		fa->ways[i].bits |= FA_DIRTY;
		if (a < e)
			flags_set(fa, i, (unsigned)(a - lb) >> fa->gran_bits,
				  (unsigned)(e - lb) >> fa->gran_bits);
		if (coherent)
			invalidate_others(fa, core, ln);
	}
	if (miss)
		st->store_misses++;
}

void dc_fa_stats(const struct dc_fa *fa, int core, struct dc_fa_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (core < 0 || core > fa->cfg.ncores)
		return;
	if (core < fa->cfg.ncores) {
		*out = fa->stats[core];
		return;
	}
	for (int c = 0; c < fa->cfg.ncores; c++) {
		const struct dc_fa_stats *s = &fa->stats[c];

		out->loads += s->loads;
		out->load_hits += s->load_hits;
		out->fa_misses += s->fa_misses;
		out->line_misses += s->line_misses;
		out->stores += s->stores;
		out->store_misses += s->store_misses;
		out->invalidations += s->invalidations;
		out->writebacks += s->writebacks;
		out->traced_bytes += s->traced_bytes;
	}
}

/* ---- checkpoints --------------------------------------------------------- */

/*
 * Image, host order, no padding anywhere:
 *
 *   uint32 magic, way record size, stats record size,
 *          size, assoc, line, granule, ncores, shared   (FA_HEADER_WORDS)
 *   uint64 clock
 *   struct dc_fa_stats [ncores]
 *   struct fa_way      [nways]
 *   uint64 flags       [nways * fw]
 */
#define FA_STATE_MAGIC 0x31414652u /* "RFA1" */
#define FA_HEADER_WORDS 9

static void header(const struct dc_fa *fa, uint32_t *h)
{
	h[0] = FA_STATE_MAGIC;
	h[1] = sizeof(struct fa_way);
	h[2] = sizeof(struct dc_fa_stats);
	h[3] = fa->cfg.size;
	h[4] = fa->cfg.assoc;
	h[5] = fa->cfg.line;
	h[6] = fa->cfg.granule;
	h[7] = (uint32_t)fa->cfg.ncores;
	h[8] = (uint32_t)fa->cfg.shared;
}

size_t dc_fa_state_size(const struct dc_fa *fa)
{
	return FA_HEADER_WORDS * sizeof(uint32_t) + sizeof(uint64_t) +
	       fa->cfg.ncores * sizeof(struct dc_fa_stats) + fa->nways * sizeof(struct fa_way) +
	       fa->nways * fa->fw * sizeof(uint64_t);
}

void dc_fa_save(const struct dc_fa *fa, void *buf)
{
	uint32_t h[FA_HEADER_WORDS];
	uint8_t *p = buf;

	header(fa, h);
	memcpy(p, h, sizeof(h));
	p += sizeof(h);
	memcpy(p, &fa->clock, sizeof(fa->clock));
	p += sizeof(fa->clock);
	memcpy(p, fa->stats, fa->cfg.ncores * sizeof(*fa->stats));
	p += fa->cfg.ncores * sizeof(*fa->stats);
	memcpy(p, fa->ways, fa->nways * sizeof(*fa->ways));
	p += fa->nways * sizeof(*fa->ways);
	memcpy(p, fa->flags, fa->nways * fa->fw * sizeof(*fa->flags));
}

int dc_fa_restore(struct dc_fa *fa, const void *buf, size_t len)
{
	static const char *const what[FA_HEADER_WORDS] = {
	    "magic",  "way record size", "stats record size", "size", "assoc", "line", "granule",
	    "ncores", "shared"};
	uint32_t h[FA_HEADER_WORDS], want[FA_HEADER_WORDS];
	const uint8_t *p = buf, *wp;
	uint64_t clock;

	/* the header first: "ncores is 3, this cache has 2" says more than a length */
	if (len < sizeof(h))
		return error("fa cache state: %zu bytes, shorter than its header", len);
	memcpy(h, p, sizeof(h));
	header(fa, want);
	if (h[0] != want[0])
		return error("fa cache state: bad magic 0x%08x", h[0]);
	for (int k = 1; k < FA_HEADER_WORDS; k++)
		if (h[k] != want[k])
			return error("fa cache state: %s is %u, this cache has %u", what[k], h[k],
				     want[k]);
	if (len != dc_fa_state_size(fa))
		return error("fa cache state: %zu bytes, expected %zu", len, dc_fa_state_size(fa));
	memcpy(&clock, p + sizeof(h), sizeof(clock));
	wp = p + sizeof(h) + sizeof(clock) + fa->cfg.ncores * sizeof(*fa->stats);
	/* a way in the wrong set would never be found; a stamp past the clock would pin LRU */
	for (size_t i = 0; i < fa->nways; i++) {
		struct fa_way w;

		memcpy(&w, wp + i * sizeof(w), sizeof(w));
		if (w.bits & ~(FA_VALID | FA_DIRTY) || w.lru > clock ||
		    ((w.bits & FA_VALID) &&
		     (w.tag & fa->set_mask) != i / fa->assoc % (fa->set_mask + 1)))
			return error("fa cache state: way %zu is corrupt (tag 0x%x, bits %u)", i,
				     w.tag, w.bits);
	}
	fa->clock = clock;
	memcpy(fa->stats, p + sizeof(h) + sizeof(clock), fa->cfg.ncores * sizeof(*fa->stats));
	memcpy(fa->ways, wp, fa->nways * sizeof(*fa->ways));
	memcpy(fa->flags, wp + fa->nways * sizeof(*fa->ways),
	       fa->nways * fa->fw * sizeof(*fa->flags));
	held_rebuild(fa);
	return 0;
}

#include "predictors/bp.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct bp {
	struct bp_config cfg;
	struct gshare *gs;
	struct ras *ras;
	struct ibtb *ibtb;
	struct tage *tage; /* dir=tage only */
};

/* ---- configurations ---------------------------------------------------- */

struct named_config {
	const char *name;
	struct bp_config cfg;
};

/* shift 4 with the papers' gshare, or with TAGE (SHT) */
#define SH GSHARE_SHIFT_DEFAULT, BP_DIR_GSHARE
#define SHT GSHARE_SHIFT_DEFAULT, BP_DIR_TAGE
static const struct named_config named[] = {
    /* mcfTRaptor Sec. 5 */
    {"small", {512, 8, 0, SH}},
    {"medium", {1024, 16, 16, SH}},
    {"large", {4096, 32, 64, SH}},
    /* TRaptor Sec. 5.1: gshare S/M/B = 256/512/1024; 0 none, 1 RAS 8, 2..4 + iBTB 16/32/64 */
    {"S0", {256, 0, 0, SH}},
    {"S1", {256, 8, 0, SH}},
    {"S2", {256, 8, 16, SH}},
    {"S3", {256, 8, 32, SH}},
    {"S4", {256, 8, 64, SH}},
    {"M0", {512, 0, 0, SH}},
    {"M1", {512, 8, 0, SH}},
    {"M2", {512, 8, 16, SH}},
    {"M3", {512, 8, 32, SH}},
    {"M4", {512, 8, 64, SH}},
    {"B0", {1024, 0, 0, SH}},
    {"B1", {1024, 8, 0, SH}},
    {"B2", {1024, 8, 16, SH}},
    {"B3", {1024, 8, 32, SH}},
    {"B4", {1024, 8, 64, SH}},
    /* beyond the papers: the same budgets with the TAGE outcome predictor */
    {"small+", {512, 8, 0, SHT}},
    {"medium+", {1024, 16, 16, SHT}},
    {"large+", {4096, 32, 64, SHT}},
};

static const char *const dir_names[] = {"gshare", "tage"};
#undef SH
#undef SHT

int bp_config_check(const struct bp_config *cfg)
{
	struct tage_geom g;

	if (gshare_config_check(cfg->gshare, cfg->shift) || ras_config_check(cfg->ras) ||
	    ibtb_config_check(cfg->ibtb))
		return -1;
	if (cfg->dir >= ARRAY_SIZE(dir_names))
		return error("predictor: outcome predictor %u is not gshare (0) or tage (1)",
			     cfg->dir);
	if (cfg->dir == BP_DIR_TAGE && tage_geometry(cfg->gshare, &g))
		return -1;
	return 0;
}

unsigned long bp_config_bits(const struct bp_config *cfg)
{
	unsigned long bits = 32ul * cfg->ras;
	struct tage_geom g;
	unsigned lp = 0;

	if (cfg->ibtb)
		bits += 40ul * cfg->ibtb + IBTB_PIR_BITS;
	if (cfg->dir == BP_DIR_TAGE && !tage_geometry(cfg->gshare, &g))
		return bits + tage_geom_bits(&g);
	while ((1u << lp) < cfg->gshare)
		lp++;
	return bits + 2ul * cfg->gshare + lp;
}

static int same_config(const struct bp_config *a, const struct bp_config *b)
{
	return a->gshare == b->gshare && a->ras == b->ras && a->ibtb == b->ibtb &&
	       a->shift == b->shift && a->dir == b->dir;
}

const char *bp_config_name(const struct bp_config *cfg)
{
	for (size_t i = 0; i < ARRAY_SIZE(named); i++)
		if (same_config(&named[i].cfg, cfg))
			return named[i].name;
	return NULL;
}

void bp_config_format(const struct bp_config *cfg, char *buf, size_t len)
{
	/* dir only when not gshare: old manifests keep their string byte for byte */
	snprintf(buf, len, "gshare=%u,ras=%u,ibtb=%u,shift=%u%s%s", cfg->gshare, cfg->ras,
		 cfg->ibtb, cfg->shift, cfg->dir ? ",dir=" : "",
		 cfg->dir ? (cfg->dir < ARRAY_SIZE(dir_names) ? dir_names[cfg->dir] : "?") : "");
}

#define PARSE_HELP                                                                                 \
	"expected small, medium, large, S0..B4, small+, medium+, large+, or "                      \
	"gshare=,ras=,ibtb=,shift=,dir=gshare|tage"

int bp_config_parse(const char *s, struct bp_config *out)
{
	struct bp_config cfg = {0, 0, 0, GSHARE_SHIFT_DEFAULT, BP_DIR_GSHARE};
	unsigned seen = 0; /* bit per key */
	static const char *const keys[] = {"gshare", "ras", "ibtb", "shift", "dir"};
	const char *p = s;
	char item[64];

	if (!s || !*s)
		return error("predictor config is empty (" PARSE_HELP ")");
	for (int first = 1;; first = 0) {
		const char *end = strchr(p, ','), *b, *e;
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char *eq;
		size_t k;
		uint64_t v;

		/* trim blanks around the item */
		for (b = p, e = p + n; b < e && isspace((unsigned char)*b); b++)
			;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		if (b == e)
			return error(
			    "predictor config \"%s\": empty item at offset %zu (" PARSE_HELP ")", s,
			    (size_t)(p - s));
		if ((size_t)(e - b) >= sizeof(item))
			return error("predictor config \"%s\": item at offset %zu is too long", s,
				     (size_t)(p - s));
		memcpy(item, b, e - b);
		item[e - b] = 0;

		eq = strchr(item, '=');
		if (!eq) {
			size_t i;

			for (i = 0; i < ARRAY_SIZE(named); i++)
				if (!strcasecmp(item, named[i].name))
					break;
			if (i == ARRAY_SIZE(named))
				return error(
				    "predictor config \"%s\": unknown name \"%s\" (" PARSE_HELP ")",
				    s, item);
			if (!first)
				return error("predictor config \"%s\": name \"%s\" must come first",
					     s, item);
			cfg = named[i].cfg;
		} else {
			char *ke = eq;

			while (ke > item && isspace((unsigned char)ke[-1]))
				ke--;
			*ke = 0;
			for (k = 0; k < ARRAY_SIZE(keys); k++)
				if (!strcmp(item, keys[k]))
					break;
			if (k == ARRAY_SIZE(keys))
				return error(
				    "predictor config \"%s\": unknown key \"%s\" (" PARSE_HELP ")",
				    s, item);
			if (seen & 1u << k)
				return error("predictor config \"%s\": key \"%s\" given twice", s,
					     item);
			seen |= 1u << k;
			if (k == 4) {
				const char *name = eq + 1;

				while (isspace((unsigned char)*name))
					name++;
				for (v = 0; v < ARRAY_SIZE(dir_names); v++)
					if (!strcasecmp(name, dir_names[v]))
						break;
				if (v == ARRAY_SIZE(dir_names))
					return error("predictor config \"%s\": dir \"%s\" is not "
						     "gshare or tage",
						     s, name);
				cfg.dir = v;
			} else if (parse_u64(eq + 1, &v) || v > 0xffffffffu)
				return error(
				    "predictor config \"%s\": %s value \"%s\" is not a number", s,
				    item, eq + 1);
			switch (k) {
			case 0: cfg.gshare = v; break;
			case 1: cfg.ras = v; break;
			case 2: cfg.ibtb = v; break;
			case 3: cfg.shift = v; break;
			default: break;
			}
		}
		if (!end)
			break;
		p = end + 1;
	}
	if (bp_config_check(&cfg))
		return error("predictor config \"%s\" is not valid (see above)", s);
	*out = cfg;
	return 0;
}

/* ---- lifecycle ------------------------------------------------------------ */

struct bp *bp_new(const struct bp_config *cfg)
{
	struct bp *bp;

	if (bp_config_check(cfg))
		return NULL;
	bp = xcalloc(1, sizeof(*bp));
	bp->cfg = *cfg;
	if (cfg->dir == BP_DIR_TAGE) {
		struct tage_geom g;

		if (!tage_geometry(cfg->gshare, &g))
			bp->tage = tage_new(&g);
		bp->gs = gshare_new(0, cfg->shift);
	} else {
		bp->gs = gshare_new(cfg->gshare, cfg->shift);
	}
	bp->ras = ras_new(cfg->ras);
	bp->ibtb = ibtb_new(cfg->ibtb);
	if (!bp->gs || !bp->ras || !bp->ibtb || (cfg->dir == BP_DIR_TAGE && !bp->tage)) {
		bp_free(bp);
		return NULL;
	}
	return bp;
}

void bp_free(struct bp *bp)
{
	if (!bp)
		return;
	gshare_free(bp->gs);
	ras_free(bp->ras);
	ibtb_free(bp->ibtb);
	tage_free(bp->tage);
	free(bp);
}

void bp_reset(struct bp *bp)
{
	gshare_reset(bp->gs);
	ras_reset(bp->ras);
	ibtb_reset(bp->ibtb);
	if (bp->tage)
		tage_reset(bp->tage);
}

const struct bp_config *bp_get_config(const struct bp *bp)
{
	return &bp->cfg;
}

const struct gshare *bp_gshare(const struct bp *bp)
{
	return bp->gs;
}

const struct tage *bp_tage(const struct bp *bp)
{
	return bp->tage;
}

const struct ras *bp_ras(const struct bp *bp)
{
	return bp->ras;
}

const struct ibtb *bp_ibtb(const struct bp *bp)
{
	return bp->ibtb;
}

/* ---- the step (TRaptor Fig. 3, mcfTRaptor Fig. 5 lines 3-19) --------------- */

static int is_conditional(const struct bp_branch *br)
{
	return br->conditional || br->cf == ISA_CF_COND_DIRECT;
}

static int is_indirect(enum isa_cf cf)
{
	return cf == ISA_CF_RETURN || cf == ISA_CF_IND_CALL || cf == ISA_CF_IND_JUMP;
}

void bp_predict(const struct bp *bp, const struct bp_branch *br, struct bp_prediction *pred)
{
	memset(pred, 0, sizeof(*pred));
	if (br->cf == ISA_CF_NONE)
		return;
	pred->conditional = is_conditional(br);
	pred->indirect = is_indirect(br->cf);
	pred->counts = pred->conditional || pred->indirect;
	if (!pred->conditional)
		pred->taken = 1;
	else
		pred->taken =
		    bp->tage ? tage_predict(bp->tage, br->pc) : gshare_predict(bp->gs, br->pc);
	if (br->cf == ISA_CF_RETURN)
		pred->target_known = ras_peek(bp->ras, &pred->target);
	else if (pred->indirect)
		pred->target_known = ibtb_lookup(bp->ibtb, br->pc, &pred->target);
}

void bp_update(struct bp *bp, const struct bp_branch *br, int taken, uint32_t target)
{
	int cond = is_conditional(br);
	uint32_t dummy;

	if (br->cf == ISA_CF_NONE)
		return;
	taken = cond ? !!taken : 1;
	if (cond && bp->tage)
		tage_update(bp->tage, br->pc, taken);
	else if (cond)
		gshare_update(bp->gs, br->pc, taken);
	if (taken) {
		switch (br->cf) {
		case ISA_CF_CALL: ras_push(bp->ras, br->fallthrough); break;
		case ISA_CF_RETURN: (void)ras_pop(bp->ras, &dummy); break;
		case ISA_CF_IND_CALL:
			ibtb_update(bp->ibtb, br->pc, target);
			ras_push(bp->ras, br->fallthrough);
			break;
		case ISA_CF_IND_JUMP: ibtb_update(bp->ibtb, br->pc, target); break;
		default: break;
		}
	}
	/* The iBTB was trained under the old PIR (the one bp_predict used). */
	ibtb_pir_update(bp->ibtb, br->pc, taken);
}

void bp_exception(struct bp *bp, uint32_t ret)
{
	ras_push(bp->ras, ret);
}

enum bp_miss bp_classify_miss(const struct bp_prediction *pred, int taken, uint32_t target)
{
	if (!pred->counts)
		return BP_MISS_NONE;
	taken = pred->conditional ? !!taken : 1;
	if (!pred->indirect)
		return taken != pred->taken ? BP_MISS_OUTCOME : BP_MISS_NONE;
	if (taken != pred->taken)
		return BP_MISS_TARGET; /* conditional indirect: the T/NT bit tells */
	if (taken && (!pred->target_known || pred->target != target))
		return BP_MISS_TARGET;
	return BP_MISS_NONE;
}

enum bp_miss bp_step(struct bp *bp, const struct bp_branch *br, int taken, uint32_t target,
		     struct bp_prediction *pred)
{
	struct bp_prediction local;
	enum bp_miss m;

	if (!pred)
		pred = &local;
	if (br->cf == ISA_CF_COND_DIRECT && !bp->tage) {
		/* the common branch: bp_predict + bp_classify_miss + bp_update, fused */
		taken = !!taken;
		memset(pred, 0, sizeof(*pred));
		pred->conditional = pred->counts = 1;
		pred->taken = gshare_step(bp->gs, br->pc, taken);
		ibtb_pir_update(bp->ibtb, br->pc, taken);
		return taken != pred->taken ? BP_MISS_OUTCOME : BP_MISS_NONE;
	}
	bp_predict(bp, br, pred);
	m = bp_classify_miss(pred, taken, target);
	bp_update(bp, br, taken, target);
	return m;
}

/* ---- checkpoints ------------------------------------------------------------ */

#define BP_STATE_MAGIC 0x32535042u /* "BPS2" */
#define BP_HEADER_WORDS 6
#define BP_HEADER_SIZE (BP_HEADER_WORDS * sizeof(uint32_t))

int bp_follow(struct bp *bp, const struct bp_branch *br, int stop, int *counts, int *taken,
	      uint32_t *target)
{
	struct bp_prediction pred;

	*target = 0;
	if (br->cf == ISA_CF_COND_DIRECT && !bp->tage) {
		/* the common branch, fused as in bp_step */
		if (stop)
			return 1;
		*counts = 1;
		*taken = gshare_follow(bp->gs, br->pc);
		ibtb_pir_update(bp->ibtb, br->pc, *taken);
		return 0;
	}
	bp_predict(bp, br, &pred);
	if (pred.counts && stop)
		return 1;
	if (pred.taken && pred.indirect && !pred.target_known)
		return -1;
	*counts = pred.counts;
	*taken = pred.taken;
	if (pred.taken && pred.indirect)
		*target = pred.target;
	bp_update(bp, br, pred.taken, pred.taken && pred.indirect ? pred.target : br->fallthrough);
	return 0;
}

size_t bp_state_size(const struct bp *bp)
{
	return BP_HEADER_SIZE + gshare_state_size(bp->gs) + ras_state_size(bp->ras) +
	       ibtb_state_size(bp->ibtb) + (bp->tage ? tage_state_size(bp->tage) : 0);
}

void bp_save(const struct bp *bp, void *buf)
{
	uint32_t hdr[BP_HEADER_WORDS] = {BP_STATE_MAGIC, bp->cfg.gshare, bp->cfg.ras,
					 bp->cfg.ibtb,	 bp->cfg.shift,	 bp->cfg.dir};
	uint8_t *p = buf;

	memcpy(p, hdr, sizeof(hdr));
	p += sizeof(hdr);
	gshare_save(bp->gs, p);
	p += gshare_state_size(bp->gs);
	ras_save(bp->ras, p);
	p += ras_state_size(bp->ras);
	ibtb_save(bp->ibtb, p);
	p += ibtb_state_size(bp->ibtb);
	if (bp->tage)
		tage_save(bp->tage, p);
}

int bp_restore(struct bp *bp, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t hdr[BP_HEADER_WORDS];

	if (len != bp_state_size(bp))
		return error("predictor state: %zu bytes, expected %zu", len, bp_state_size(bp));
	memcpy(hdr, p, sizeof(hdr));
	if (hdr[0] != BP_STATE_MAGIC)
		return error("predictor state: bad magic 0x%08x", hdr[0]);
	if (hdr[1] != bp->cfg.gshare || hdr[2] != bp->cfg.ras || hdr[3] != bp->cfg.ibtb ||
	    hdr[4] != bp->cfg.shift || hdr[5] != bp->cfg.dir)
		return error("predictor state: saved for gshare=%u,ras=%u,ibtb=%u,shift=%u,dir=%u, "
			     "restored into gshare=%u,ras=%u,ibtb=%u,shift=%u,dir=%u",
			     hdr[1], hdr[2], hdr[3], hdr[4], hdr[5], bp->cfg.gshare, bp->cfg.ras,
			     bp->cfg.ibtb, bp->cfg.shift, bp->cfg.dir);
	p += sizeof(hdr);
	if (gshare_restore(bp->gs, p))
		goto bad;
	p += gshare_state_size(bp->gs);
	if (ras_restore(bp->ras, p))
		goto bad;
	p += ras_state_size(bp->ras);
	if (ibtb_restore(bp->ibtb, p))
		goto bad;
	p += ibtb_state_size(bp->ibtb);
	if (bp->tage && tage_restore(bp->tage, p))
		goto bad;
	return 0;
bad:
	bp_reset(bp);
	return -1;
}

#include "record/lvtm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "caches/mc2rt.h"

#define FLUSH_BYTES (64 * 1024)

enum filter { F_NXLV, F_CFIAT, F_MC2RT, F_N };

/* A message waiting for the end of its step (its time stamp). */
struct pending {
	uint8_t filter;
	uint16_t n;
	uint64_t count;
	uint8_t value[ST_LV_MAX_VALUE];
};

struct rec_lv {
	struct rec_lv_config cfg;
	rec_lv_peek_fn peek;
	void *peek_ctx;
	struct dc_fa *fa;    /* NULL: CFiat does not run */
	struct dc_mc2rt *mc; /* NULL: mc2RT does not run */
	int nxlv;	     /* NX-LV runs */
	struct st_lv_encoder enc[REC_LV_NENC];
	/* the encoders run per filter: CFiat's messages also go to CFiat_a */
	int fenc[F_N][4], nfenc[F_N];
	int out_index;
	FILE *out;
	const char *out_name;
	int write_error;
	int snapshots; /* rec_lv_snapshot was called: the output is written by snapshots */
	uint64_t fah[ST_LV_MAX_CORES], thc[ST_LV_MAX_CORES];
	struct pending *pend;
	size_t npend, apend;
	z_stream gz[2]; /* NX-LV functional, timed */
	uint64_t gz_bytes[2];
	struct rec_lv_core_stats stats[ST_LV_MAX_CORES];
};

static void gz_init(z_stream *z)
{
	memset(z, 0, sizeof(*z));
	if (deflateInit(z, 1) != Z_OK)
		die("zlib: deflateInit failed");
}

/* The filter whose messages encoder enc sends. */
static enum filter enc_filter(enum st_lv_enc enc)
{
	return enc == ST_LV_NXLV ? F_NXLV : enc == ST_LV_MC2RT ? F_MC2RT : F_CFIAT;
}

struct rec_lv *rec_lv_new(const struct rec_lv_config *cfg, rec_lv_peek_fn peek, void *ctx)
{
	struct dc_mc2rt_config mcc = { cfg->cache.size, cfg->cache.assoc, cfg->cache.line,
				       cfg->cache.ncores, cfg->cache.shared };
	struct st_lv_format fmt;
	struct rec_lv *lv;

	if (dc_fa_config_check(&cfg->cache) || dc_mc2rt_config_check(&mcc))
		return NULL;
	lv = xcalloc(1, sizeof(*lv));
	lv->cfg = *cfg;
	lv->peek = peek;
	lv->peek_ctx = ctx;
	for (int e = ST_LV_NXLV; e <= ST_LV_CFIATA; e++) {
		for (int t = 0; t < 2; t++) {
			st_lv_format_init(&fmt, e, cfg->cache.ncores, t);
			if (e == ST_LV_CFIAT || e == ST_LV_CFIATA) {
				fmt.cnt = cfg->cnt;
				fmt.cc = cfg->cc;
			}
			if (st_lv_format_check(&fmt)) {
				rec_lv_free(lv);
				return NULL;
			}
			st_lv_encoder_init(&lv->enc[rec_lv_index(e, t)], &fmt);
			if (cfg->mask & 1u << rec_lv_index(e, t)) {
				enum filter f = enc_filter(e);

				lv->fenc[f][lv->nfenc[f]++] = rec_lv_index(e, t);
			}
		}
	}
	lv->nxlv = lv->nfenc[F_NXLV] > 0;
	if (lv->nfenc[F_CFIAT])
		lv->fa = dc_fa_new(&cfg->cache);
	if (lv->nfenc[F_MC2RT])
		lv->mc = dc_mc2rt_new(&mcc);
	if (cfg->gzip) {
		gz_init(&lv->gz[0]);
		gz_init(&lv->gz[1]);
	}
	lv->out_index = -1;
	return lv;
}

void rec_lv_free(struct rec_lv *lv)
{
	if (!lv)
		return;
	dc_fa_free(lv->fa);
	dc_mc2rt_free(lv->mc);
	for (int e = 0; e < REC_LV_NENC; e++)
		st_lv_encoder_release(&lv->enc[e]);
	if (lv->cfg.gzip) {
		deflateEnd(&lv->gz[0]);
		deflateEnd(&lv->gz[1]);
	}
	free(lv->pend);
	free(lv);
}

void rec_lv_set_output(struct rec_lv *lv, enum st_lv_enc enc, int timed, FILE *out,
		       const char *name)
{
	lv->out_index = rec_lv_index(enc, timed);
	lv->out = out;
	lv->out_name = name;
}

/* Feed bytes to a deflate stream, counting its output only. */
static void gz_feed(struct rec_lv *lv, int t, const uint8_t *p, size_t n, int flush)
{
	uint8_t buf[16384];
	z_stream *z = &lv->gz[t];

	z->next_in = (uint8_t *)p;
	z->avail_in = (uInt)n;
	do {
		z->next_out = buf;
		z->avail_out = sizeof(buf);
		deflate(z, flush);
		lv->gz_bytes[t] += sizeof(buf) - z->avail_out;
	} while (z->avail_out == 0 || z->avail_in);
}

/* Write to f (or drop) an encoder's complete bytes; NX-LV's also go through zlib. */
static void drain_to(struct rec_lv *lv, int e, FILE *f)
{
	struct st_writer *w = &lv->enc[e].w;
	size_t whole = (size_t)(st_writer_bits(w) / 8 - w->base);

	if (lv->cfg.gzip && (e == rec_lv_index(ST_LV_NXLV, 0) || e == rec_lv_index(ST_LV_NXLV, 1)))
		gz_feed(lv, e & 1, st_writer_buf(w, NULL), whole, Z_NO_FLUSH);
	if (st_writer_flush(w, f, lv->out_name))
		lv->write_error = 1;
}

/* Write (or drop) an encoder's complete bytes once there are enough, or now (force). */
static void drain(struct rec_lv *lv, int e, int force)
{
	struct st_writer *w = &lv->enc[e].w;

	if (!force && st_writer_bits(w) / 8 - w->base < FLUSH_BYTES)
		return;
	if (!force && e == lv->out_index && lv->out && lv->snapshots)
		return; /* the file holds the last snapshot until the next one */
	drain_to(lv, e, e == lv->out_index ? lv->out : NULL);
}

static struct pending *pend_new(struct rec_lv *lv, enum filter f, uint64_t count)
{
	struct pending *p;

	if (lv->npend == lv->apend) {
		lv->apend = lv->apend ? 2 * lv->apend : 16;
		lv->pend = xrealloc(lv->pend, lv->apend * sizeof(*lv->pend));
	}
	p = &lv->pend[lv->npend++];
	p->filter = f;
	p->count = count;
	p->n = 0;
	return p;
}

static void value_le(struct pending *p, uint32_t v, unsigned size)
{
	for (unsigned i = 0; i < size; i++)
		p->value[i] = v >> (8 * i);
	p->n = size;
}

/* Memory bytes as the core sees them now (the board has one coherent memory). */
static void value_mem(struct rec_lv *lv, struct pending *p, uint32_t addr, unsigned n)
{
	if (lv->peek(lv->peek_ctx, addr, p->value, n))
		die("lv trace module: %u bytes at 0x%08x are not in memory", n, addr);
	p->n = n;
}

static int is_load(enum isa_access k)
{
	return k == ISA_ACC_LOAD || k == ISA_ACC_LDREX || k == ISA_ACC_UNSTACK ||
	       k == ISA_ACC_VECTOR;
}

void rec_lv_access(struct rec_lv *lv, int core, const struct board_access *a)
{
	struct rec_lv_core_stats *s = &lv->stats[core];
	uint32_t line = lv->cfg.cache.line, first, last, ga, la;
	unsigned glen;
	struct pending *p;

	if (a->kind == ISA_ACC_FETCH)
		return;
	if (!is_load(a->kind)) {
		s->stores++;
		if (!a->cacheable)
			return;
		if (lv->fa)
			dc_fa_store(lv->fa, core, a->addr, a->size);
		if (!lv->mc)
			return;
		first = a->addr & ~(line - 1);
		last = (a->addr + a->size - 1) & ~(line - 1);
		dc_mc2rt_write(lv->mc, core, first);
		if (last != first)
			dc_mc2rt_write(lv->mc, core, last);
		return;
	}
	s->loads++;
	if (lv->nxlv)
		value_le(pend_new(lv, F_NXLV, 0), a->val, a->size);
	if (!a->cacheable) {
		/* CFiat and mc2RT trace every uncached load, with its own bytes */
		s->uncached_loads++;
		if (lv->fa)
			value_le(pend_new(lv, F_CFIAT, lv->fah[core]), a->val, a->size);
		if (lv->mc)
			value_le(pend_new(lv, F_MC2RT, lv->thc[core]), a->val, a->size);
		lv->fah[core] = lv->thc[core] = 0;
		return;
	}
	/* CFiat (CFAT Fig. 3): one message for the whole access on any miss */
	if (!lv->fa) {
		/* not run */
	} else if (dc_fa_load(lv->fa, core, a->addr, a->size, &ga, &glen) == DC_FA_HIT) {
		lv->fah[core]++;
	} else {
		p = pend_new(lv, F_CFIAT, lv->fah[core]);
		value_mem(lv, p, ga, glen);
		lv->fah[core] = 0;
	}
	/* mc2RT (Fig. 5): one read per line touched */
	if (!lv->mc)
		return;
	first = a->addr & ~(line - 1);
	last = (a->addr + a->size - 1) & ~(line - 1);
	for (uint32_t l = first;; l += line) {
		if (dc_mc2rt_read(lv->mc, core, l, &la) == DC_MC2RT_HIT) {
			lv->thc[core]++;
		} else {
			p = pend_new(lv, F_MC2RT, lv->thc[core]);
			value_mem(lv, p, la, line);
			lv->thc[core] = 0;
		}
		if (l == last)
			break;
	}
}

/* The step's pending messages into every encoder of their filter. */
static __attribute__((noinline)) void emit(struct rec_lv *lv, int core, uint64_t cycle)
{
	struct st_lv_msg m = { .core = core, .cycle = cycle };
	struct rec_profile *prof = lv->cfg.prof;

	for (size_t i = 0; i < lv->npend; i++) {
		struct pending *p = &lv->pend[i];

		m.count = p->count;
		for (int k = 0; k < lv->nfenc[p->filter]; k++) {
			int e = lv->fenc[p->filter][k];
			struct st_lv_encoder *en = &lv->enc[e];
			uint64_t before = st_writer_bits(&en->w);

			if (prof && e == rec_lv_index(ST_LV_CFIAT, 1)) {
				rec_prof_value(prof, REC_PF_FAHCNT, m.count);
				rec_prof_value(prof, REC_PF_DCC, cycle - en->pcc[core]);
			}
			st_lv_put(en, &m, p->value, p->n);
			if (prof)
				rec_prof_bits(prof, core, REC_PROF_LV_FIRST + e, cycle,
					      st_writer_bits(&en->w) - before);
			drain(lv, e, 0);
		}
		if (p->filter == F_CFIAT)
			lv->stats[core].cfiat_msgs++;
		else if (p->filter == F_MC2RT)
			lv->stats[core].mc2rt_msgs++;
	}
	lv->npend = 0;
}

void rec_lv_step(struct rec_lv *lv, int core, uint64_t cycle)
{
	if (lv->npend) /* most steps have none: no load, or FA hits only */
		emit(lv, core, cycle);
}

int rec_lv_flush(struct rec_lv *lv)
{
	if (lv->out_index >= 0)
		drain(lv, lv->out_index, 1);
	return lv->write_error ? -1 : 0;
}

int rec_lv_finish(struct rec_lv *lv, uint64_t *bits)
{
	*bits = lv->out_index >= 0 ? st_writer_bits(&lv->enc[lv->out_index].w) : 0;
	for (int e = 0; e < REC_LV_NENC; e++) {
		st_writer_pad(&lv->enc[e].w);
		drain(lv, e, 1);
	}
	if (lv->cfg.gzip) {
		gz_feed(lv, 0, NULL, 0, Z_FINISH);
		gz_feed(lv, 1, NULL, 0, Z_FINISH);
	}
	if (lv->write_error)
		return -1;
	if (lv->out && fflush(lv->out))
		return error("%s: write error: %m", lv->out_name);
	if (lv->out && lv->snapshots && ftruncate(fileno(lv->out), ftello(lv->out)))
		return error("%s: cannot truncate: %m", lv->out_name);
	return 0;
}

int rec_lv_snapshot(struct rec_lv *lv, int write, uint64_t *bits)
{
	struct st_writer *w;
	size_t n;

	*bits = 0;
	if (lv->out_index < 0 || !lv->out)
		return 0;
	lv->snapshots = 1;
	w = &lv->enc[lv->out_index].w;
	*bits = st_writer_bits(w);
	if (!write)
		return 0;
	/* w->buf[0..n): from byte w->base on, a partial last byte padded with 0 bits */
	st_writer_buf(w, &n);
	if (fseeko(lv->out, (off_t)w->base, SEEK_SET) ||
	    (n && fwrite(w->buf, 1, n, lv->out) != n) || fflush(lv->out) ||
	    ftruncate(fileno(lv->out), (off_t)(w->base + n))) {
		lv->write_error = 1;
		return error("%s: write error: %m", lv->out_name);
	}
	/* the complete bytes are in the file: drop them; the next snapshot starts there */
	drain_to(lv, lv->out_index, NULL);
	if (lv->write_error || fseeko(lv->out, (off_t)w->base, SEEK_SET)) {
		lv->write_error = 1;
		return error("%s: write error: %m", lv->out_name);
	}
	return 0;
}

const struct st_lv_encoder *rec_lv_encoder(const struct rec_lv *lv, int index)
{
	if (!(lv->cfg.mask & 1u << index))
		return NULL;
	return &lv->enc[index];
}

const struct rec_lv_core_stats *rec_lv_core(const struct rec_lv *lv, int core)
{
	return &lv->stats[core];
}

const struct dc_fa *rec_lv_fa(const struct rec_lv *lv)
{
	return lv->fa;
}

const struct dc_mc2rt *rec_lv_mc2rt(const struct rec_lv *lv)
{
	return lv->mc;
}

uint64_t rec_lv_nxlv_gz_bytes(const struct rec_lv *lv, int timed)
{
	return lv->gz_bytes[!!timed];
}

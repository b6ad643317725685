#include "record/cftm.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Bytes an encoder may hold before its output is written (or dropped). */
#define FLUSH_BYTES (64 * 1024)

struct core_state {
	uint64_t bcnt, icnt; /* TR_*: since the core's previous message */
	uint64_t sl;	     /* NX_b: instructions since its previous message */
};

struct rec_cf {
	struct rec_cf_config cfg;
	struct bp *bp[ST_CF_MAX_CORES]; /* all the same pointer when shared */
	struct st_cf_encoder enc[REC_CF_NENC];
	/* the encoders run, in index order: NX_b's, then the TR_* ones */
	int nx[2], nnx, tr[REC_CF_NENC - 2], ntr;
	int out_index;
	FILE *out;
	const char *out_name;
	int write_error;
	int snapshots; /* rec_cf_snapshot was called: the output is written by snapshots */
	struct core_state core[ST_CF_MAX_CORES];
	struct rec_cf_core_stats stats[ST_CF_MAX_CORES];
};

struct rec_cf *rec_cf_new(const struct rec_cf_config *cfg)
{
	struct rec_cf *cf;
	struct st_cf_format fmt;

	if (cfg->ncores < 1 || cfg->ncores > ST_CF_MAX_CORES) {
		error("cf trace module: %d cores (1 to %d)", cfg->ncores, ST_CF_MAX_CORES);
		return NULL;
	}
	if (bp_config_check(&cfg->bp))
		return NULL;
	cf = xcalloc(1, sizeof(*cf));
	cf->cfg = *cfg;
	for (int i = 0; i < cfg->ncores; i++)
		cf->bp[i] = cfg->shared && i ? cf->bp[0] : bp_new(&cfg->bp);
	for (int e = ST_CF_NXB; e <= ST_CF_TRA; e++) {
		for (int t = 0; t < 2; t++) {
			st_cf_format_init(&fmt, e, cfg->ncores, t);
			if (e == ST_CF_TRE || e == ST_CF_TRA) {
				fmt.cnt = cfg->cnt;
				fmt.ta = cfg->ta;
				fmt.cc = cfg->cc;
				fmt.icnt = cfg->icnt;
			}
			if (st_cf_format_check(&fmt)) {
				rec_cf_free(cf);
				return NULL;
			}
			st_cf_encoder_init(&cf->enc[rec_cf_index(e, t)], &fmt);
			if (!(cfg->mask & 1u << rec_cf_index(e, t)))
				continue;
			if (e == ST_CF_NXB)
				cf->nx[cf->nnx++] = rec_cf_index(e, t);
			else
				cf->tr[cf->ntr++] = rec_cf_index(e, t);
		}
	}
	cf->out_index = -1;
	return cf;
}

void rec_cf_free(struct rec_cf *cf)
{
	if (!cf)
		return;
	for (int i = 0; i < cf->cfg.ncores; i++)
		if (!(cf->cfg.shared && i))
			bp_free(cf->bp[i]);
	for (int e = 0; e < REC_CF_NENC; e++)
		st_cf_encoder_release(&cf->enc[e]);
	free(cf);
}

void rec_cf_set_output(struct rec_cf *cf, enum st_cf_enc enc, int timed, FILE *out,
		       const char *name)
{
	cf->out_index = rec_cf_index(enc, timed);
	cf->out = out;
	cf->out_name = name;
}

/* Keep memory flat: write the output encoder's bytes, drop the others'. */
static void drain(struct rec_cf *cf, int e)
{
	struct st_writer *w = &cf->enc[e].w;
	FILE *f = e == cf->out_index ? cf->out : NULL;

	if (st_writer_bits(w) / 8 - w->base < FLUSH_BYTES)
		return;
	if (f && cf->snapshots)
		return; /* the file holds the last snapshot until the next one */
	if (st_writer_flush(w, f, cf->out_name))
		cf->write_error = 1;
}

/*
 * The values the timed TR_e encoder is about to send, by field (profile.h).
 * diffTA is sent for a taken indirect branch (st_cf_put: an unconditional
 * one is always taken); diffCC and diffTA against the encoder's PCC / PTA.
 */
static void profile_values(struct rec_profile *prof, const struct st_cf_encoder *e,
			   const struct st_cf_msg *m)
{
	rec_prof_value(prof, REC_PF_DIFFCC, m->cycle - e->pcc[m->core]);
	rec_prof_value(prof, REC_PF_BCNT, m->count);
	if (!m->count) {
		rec_prof_value(prof, REC_PF_ICNT, m->icnt);
	} else if (m->indirect && m->taken) {
		int64_t diff = (int64_t)m->ta - (int64_t)e->pta[m->core];

		rec_prof_value(prof, REC_PF_DIFFTA, diff < 0 ? (uint64_t)-diff : (uint64_t)diff);
	}
}

/* One message into encoder e, its bits into the profile's timeline. */
static void put(struct rec_cf *cf, int e, const struct st_cf_msg *m)
{
	struct st_cf_encoder *enc = &cf->enc[e];
	struct rec_profile *prof = cf->cfg.prof;
	uint64_t before = st_writer_bits(&enc->w);

	if (prof && e == rec_cf_index(ST_CF_TRE, 1))
		profile_values(prof, enc, m);
	st_cf_put(enc, m);
	if (prof)
		rec_prof_bits(prof, m->core, e, m->cycle, st_writer_bits(&enc->w) - before);
	drain(cf, e);
}

/* Into every TR_* encoder run (the order does not matter: each has its own stream). */
static void put_tr(struct rec_cf *cf, const struct st_cf_msg *m)
{
	for (int k = 0; k < cf->ntr; k++)
		put(cf, cf->tr[k], m);
}

static void put_nx(struct rec_cf *cf, const struct st_cf_msg *m)
{
	for (int k = 0; k < cf->nnx; k++)
		put(cf, cf->nx[k], m);
}

/*
 * An exception (or, with exc 0, the end) for every encoding. Kept out of
 * line, as branch() is, so that rec_cf_step's common case (an instruction
 * that is no branch) stays a few increments without a stack frame.
 */
static __attribute__((noinline)) void put_exception(struct rec_cf *cf, int core, uint64_t cycle,
						    unsigned exc, int tail)
{
	struct core_state *cs = &cf->core[core];
	struct st_cf_msg m = { .core = core, .cycle = cycle, .exc = exc, .tail = tail };

	m.icnt = cs->icnt;
	put_tr(cf, &m);
	m.icnt = cs->sl;
	put_nx(cf, &m);
	cs->bcnt = cs->icnt = cs->sl = 0;
}

static void count_class(struct rec_cf_core_stats *s, const struct isa_step *st, int cond)
{
	switch (st->cf) {
	case ISA_CF_COND_DIRECT: s->cond_direct++; return;
	case ISA_CF_DIRECT: s->direct++; return;
	case ISA_CF_CALL: s->calls++; return;
	case ISA_CF_RETURN: s->returns++; break;
	case ISA_CF_IND_CALL: s->ind_calls++; break;
	case ISA_CF_IND_JUMP: s->ind_jumps++; break;
	default: return;
	}
	if (cond)
		s->cond_indirect++;
}

/* mcfTRaptor Fig. 4 (TR_*) and the Nexus-like baseline for one branch. */
static __attribute__((noinline)) void branch(struct rec_cf *cf, int core, const struct isa_step *st,
					     uint64_t cycle)
{
	struct core_state *cs = &cf->core[core];
	struct bp_branch br = {
		.pc = st->pc,
		.fallthrough = st->pc + st->size,
		.cf = st->cf,
		.conditional = st->in_it || st->cf == ISA_CF_COND_DIRECT,
	};
	struct bp_prediction pred;
	struct st_cf_msg m = { .core = core, .cycle = cycle };
	enum bp_miss miss;
	int taken;

	if (st->cf == ISA_CF_COND_DIRECT)
		taken = st->taken;
	else
		taken = br.conditional ? st->executed : 1;
	count_class(&cf->stats[core], st, br.conditional);

	miss = bp_step(cf->bp[core], &br, taken, st->next_pc, &pred);
	if (pred.counts)
		cs->bcnt++;
	if (miss != BP_MISS_NONE) {
		m.count = cs->bcnt;
		m.indirect = pred.indirect;
		m.cond = pred.conditional;
		m.taken = taken;
		m.ta = st->next_pc;
		put_tr(cf, &m);
		if (miss == BP_MISS_OUTCOME)
			cf->stats[core].outcome_misses++;
		else
			cf->stats[core].target_misses++;
		cs->bcnt = cs->icnt = 0;
	}

	/* NX_b: taken conditional direct branches and taken indirect ones */
	if (taken && (pred.indirect || st->cf == ISA_CF_COND_DIRECT)) {
		m.count = cs->sl;
		m.indirect = pred.indirect;
		m.cond = pred.conditional;
		m.taken = 1;
		m.ta = st->next_pc;
		put_nx(cf, &m);
		cs->sl = 0;
	}
}

void rec_cf_step(struct rec_cf *cf, int core, const struct isa_step *st, uint64_t cycle)
{
	struct core_state *cs = &cf->core[core];
	struct rec_cf_core_stats *s = &cf->stats[core];

	switch (st->ev) {
	case ISA_EV_INSN:
	case ISA_EV_STOP:
		if (st->faulted)
			return;
		s->insns++;
		cs->icnt++;
		cs->sl++;
		if (st->exc_return && st->exc) {
			/* tail-chained: the return did not happen */
			s->tail_chains++;
			s->exceptions++;
			put_exception(cf, core, cycle, st->exc, 1);
			return;
		}
		if (st->cf != ISA_CF_NONE)
			branch(cf, core, st, cycle);
		return;
	case ISA_EV_EXCEPTION:
		s->exceptions++;
		put_exception(cf, core, cycle, st->exc, 0);
		bp_exception(cf->bp[core], st->pc);
		return;
	case ISA_EV_SLEEP:
		return;
	}
}

void rec_cf_plain(struct rec_cf *cf, int core, uint64_t n)
{
	struct core_state *cs = &cf->core[core];

	cf->stats[core].insns += n;
	cs->icnt += n;
	cs->sl += n;
}

int rec_cf_flush(struct rec_cf *cf)
{
	if (cf->out_index >= 0 &&
	    st_writer_flush(&cf->enc[cf->out_index].w, cf->out, cf->out_name))
		cf->write_error = 1;
	if (cf->write_error)
		return -1;
	return 0;
}

int rec_cf_finish(struct rec_cf *cf, const uint64_t *cycles, uint64_t *bits)
{
	for (int i = 0; i < cf->cfg.ncores; i++)
		put_exception(cf, i, cycles[i], ST_CF_END, 0);
	if (cf->out_index >= 0) {
		*bits = st_writer_bits(&cf->enc[cf->out_index].w);
		st_writer_pad(&cf->enc[cf->out_index].w);
	} else {
		*bits = 0;
	}
	if (rec_cf_flush(cf))
		return -1;
	if (cf->out && fflush(cf->out))
		return error("%s: write error: %m", cf->out_name);
	/* a snapshot's end messages may reach further than the stream's end */
	if (cf->out && cf->snapshots && ftruncate(fileno(cf->out), ftello(cf->out)))
		return error("%s: cannot truncate: %m", cf->out_name);
	return 0;
}

int rec_cf_snapshot(struct rec_cf *cf, const uint64_t *cycles, int write, uint64_t *bits)
{
	struct st_cf_encoder *enc, saved;
	struct st_writer *w;
	uint64_t nbits;
	size_t n, first;
	int ret = 0;

	*bits = 0;
	if (cf->out_index < 0 || !cf->out)
		return 0;
	cf->snapshots = 1;
	enc = &cf->enc[cf->out_index];
	w = &enc->w;
	saved = *enc;
	nbits = st_writer_bits(w);
	/* put_exception's end messages, into the output encoder alone */
	for (int i = 0; i < cf->cfg.ncores; i++) {
		struct st_cf_msg m = { .core = i, .cycle = cycles[i], .exc = ST_CF_END };

		m.icnt = enc->fmt.enc == ST_CF_NXB ? cf->core[i].sl : cf->core[i].icnt;
		st_cf_put(enc, &m);
	}
	*bits = st_writer_bits(w);
	st_writer_buf(w, &n); /* w->buf[0..n): from byte w->base on, unused bits 0 */
	if (write && (fseeko(cf->out, (off_t)w->base, SEEK_SET) ||
		      fwrite(w->buf, 1, n, cf->out) != n || fflush(cf->out) ||
		      ftruncate(fileno(cf->out), (off_t)(w->base + n))))
		ret = error("%s: write error: %m", cf->out_name);
	/* take the end messages back: their bits 0 again, the encoder's state as it was */
	first = (size_t)(nbits / 8 - w->base);
	w->buf[first] &= (uint8_t)((1u << (nbits % 8)) - 1);
	if (n > first + 1)
		memset(w->buf + first + 1, 0, n - first - 1);
	saved.w = *w;
	saved.w.nbits = nbits;
	*enc = saved;
	/* the complete bytes are in the file: drop them; the next snapshot starts there */
	if (write && !ret &&
	    (st_writer_flush(w, NULL, cf->out_name) ||
	     fseeko(cf->out, (off_t)w->base, SEEK_SET)))
		ret = error("%s: write error: %m", cf->out_name);
	if (ret)
		cf->write_error = 1;
	return ret;
}

const struct st_cf_encoder *rec_cf_encoder(const struct rec_cf *cf, int index)
{
	if (!(cf->cfg.mask & 1u << index))
		return NULL;
	return &cf->enc[index];
}

const struct rec_cf_core_stats *rec_cf_core(const struct rec_cf *cf, int core)
{
	return &cf->stats[core];
}

/*
 * adapt_test: the adaptive chunk sizes (streams/adapt.h) and the encodings
 * built on them, TR_a (cfmsg) and CFiat_a (lvmsg).
 *
 * The reference here is written from the rule in adapt.h / docs/FORMAT.md
 * alone: a full search of 1..16 x 1..16 (no pruning), and streams built
 * field by field with st_put_uvlc / st_put_bits at the sizes it gives.
 * The codecs must produce exactly those bits, decode them back, switch
 * sizes on the way, and decode identically from a copy of the decoder
 * taken mid-stream (what the replay's checkpoints do).
 */
#include <stdlib.h>
#include <string.h>

#include "streams/adapt.h"
#include "streams/bitio.h"
#include "streams/cfmsg.h"
#include "streams/lvmsg.h"
#include "streams/vlc.h"
#include "tests/unit/tap.h"

/* ---- the reference rule ------------------------------------------------ */

struct ref {
	struct st_vlc ch;
	unsigned n;
	unsigned long hist[65];
	int switches; /* how often ch changed */
};

static void ref_init(struct ref *r, struct st_vlc start)
{
	memset(r, 0, sizeof(*r));
	r->ch = start;
}

static unsigned long long ref_cost(const struct ref *r, unsigned c0, unsigned c1)
{
	unsigned long long total = 0;

	for (unsigned len = 0; len <= 64; len++) {
		unsigned bits = c0 + 1;

		if (!r->hist[len])
			continue;
		/* chunk by chunk, as a person would count them */
		for (int left = (int)len - (int)c0; left > 0; left -= (int)c1)
			bits += c1 + 1;
		total += r->hist[len] * bits;
	}
	return total;
}

static void ref_note(struct ref *r, uint64_t v)
{
	unsigned len = 0;
	unsigned long long best = ~0ULL;
	struct st_vlc arg = r->ch;

	while (len < 64 && v >> len)
		len++;
	r->hist[len]++;
	r->n++;
	if (r->n % ST_ADAPT_HALVE == 0)
		for (unsigned l = 0; l <= 64; l++)
			r->hist[l] /= 2;
	if (r->n % ST_ADAPT_PERIOD)
		return;
	for (unsigned c0 = 1; c0 <= 16; c0++)
		for (unsigned c1 = 1; c1 <= 16; c1++) {
			unsigned long long c = ref_cost(r, c0, c1);

			if (c < best) {
				best = c;
				arg = ST_VLC(c0, c1);
			}
		}
	if (best < ref_cost(r, r->ch.c0, r->ch.c1)) {
		r->switches += arg.c0 != r->ch.c0 || arg.c1 != r->ch.c1;
		r->ch = arg;
	}
}

/* ---- value sequences ------------------------------------------------------ */

static uint64_t rng = 88172645463325252ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A value of about `bits` bits (0..64). */
static uint64_t of_length(unsigned bits)
{
	if (!bits)
		return 0;
	return (bits == 64 ? next() : next() & ((UINT64_C(1) << bits) - 1)) | UINT64_C(1)
										  << (bits - 1);
}

enum seq { S_PHASES, S_ZEROS, S_MAX, S_ALTERNATE, S_SPREAD, S_SMALL, S_NSEQ };
static const char *const seq_names[S_NSEQ] = {"phases of lengths",    "all zeros",
					      "all 2^64-1",	      "0 and 2^64-1 alternating",
					      "every length in turn", "random below 2^12"};

static uint64_t seq_value(enum seq s, unsigned i)
{
	switch (s) {
	case S_PHASES: return of_length((i / 300 % 4) * 5 + next() % 4);
	case S_ZEROS: return 0;
	case S_MAX: return UINT64_MAX;
	case S_ALTERNATE: return i & 1 ? UINT64_MAX : 0;
	case S_SPREAD: return of_length(i % 65);
	default: return next() % 4096;
	}
}

/* st_adapt against the reference, value by value; the sizes switch at least once. */
static void test_rule(void)
{
	static const struct st_vlc starts[] = {ST_VLC(3, 2), ST_VLC(1, 2), ST_VLC(64, 64),
					       ST_VLC(20, 1)};

	for (int s = 0; s < S_NSEQ; s++)
		for (size_t k = 0; k < sizeof(starts) / sizeof(starts[0]); k++) {
			struct st_adapt a;
			struct ref r;
			unsigned i, bad = 0;

			st_adapt_init(&a, starts[k]);
			ref_init(&r, starts[k]);
			for (i = 0; i < 2000 && !bad; i++) {
				uint64_t v = seq_value((enum seq)s, i);

				st_adapt_note(&a, v);
				ref_note(&r, v);
				if (a.ch.c0 != r.ch.c0 || a.ch.c1 != r.ch.c1)
					bad = i + 1;
			}
			if (!tap_ok(!bad, "%s from (%u,%u): the sizes follow the full search",
				    seq_names[s], starts[k].c0, starts[k].c1))
				tap_diag("value %u: (%u,%u), reference (%u,%u)", bad - 1, a.ch.c0,
					 a.ch.c1, r.ch.c0, r.ch.c1);
			if (s == S_PHASES || s == S_SPREAD)
				tap_ok(r.switches >= 2,
				       "%s from (%u,%u): the sizes switch (%d times)", seq_names[s],
				       starts[k].c0, starts[k].c1, r.switches);
		}
}

/*
 * One verdict per encoded stream: w holds exactly ref's bits, the field
 * bits the encoder counted (total) add up to them, and, for the phased
 * sequences, the reference switched sizes on the way.
 */
static void check_stream(const struct st_writer *w, const struct st_writer *ref, uint64_t total,
			 const char *enc, enum seq s, int ncores, int timed, int switches)
{
	uint64_t nbits = st_writer_bits(w);

	tap_ok(nbits == st_writer_bits(ref) &&
		   !memcmp(st_writer_buf(w, NULL), st_writer_buf(ref, NULL), (nbits + 7) / 8) &&
		   total == nbits,
	       "%s %s, %d cores, %s: the reference's %llu bits", enc, seq_names[s], ncores,
	       timed ? "timed" : "functional", (unsigned long long)st_writer_bits(ref));
	if (s == S_PHASES || s == S_SPREAD)
		tap_ok(switches > 0, "  the sizes switched (%d times)", switches);
}

/* ---- TR_a ------------------------------------------------------------------ */

#define NMSG 1500

struct cfcase {
	struct st_cf_msg m[NMSG];
	int n;
};

/* Messages of every kind for ncores cores, fields of shifting lengths. */
static void cf_messages(struct cfcase *c, int ncores, enum seq s)
{
	uint64_t cycle[ST_CF_MAX_CORES] = {0};

	c->n = 0;
	for (int i = 0; i < NMSG - ncores; i++) {
		struct st_cf_msg *m = &c->m[c->n++];
		int kind = (int)(next() % 8);
		uint64_t v = seq_value(s, (unsigned)i);

		memset(m, 0, sizeof(*m));
		m->core = (int)(next() % ncores);
		/* diffCC of up to 40 bits: cycles stay far from overflowing */
		cycle[m->core] += s == S_PHASES || s == S_SMALL ? v >> 24 : v & 0xffffffffffULL;
		m->cycle = cycle[m->core];
		if (kind == 0) {
			m->icnt = v;
			m->exc = 1 + (unsigned)(next() % 511);
			m->tail = (int)(next() & 1);
			continue;
		}
		m->count = v ? v : 1;
		if (kind >= 4) {
			m->indirect = 1;
			m->cond = kind == 6 || kind == 7;
			m->taken = kind != 7;
			m->ta = (uint32_t)next();
		}
	}
	for (int k = 0; k < ncores; k++)
		c->m[c->n++] =
		    (struct st_cf_msg){.core = k, .cycle = cycle[k] + 1, .icnt = next() % 100};
}

/* The stream TR_a must give, built from vlc.h's calls at the reference's sizes. */
static void cf_reference(const struct cfcase *c, const struct st_cf_format *f, struct st_writer *w,
			 int *switches)
{
	struct ref cc, cnt, ta, icnt;
	uint64_t pcc[ST_CF_MAX_CORES] = {0};
	uint32_t pta[ST_CF_MAX_CORES] = {0};

	ref_init(&cc, f->cc);
	ref_init(&cnt, f->cnt);
	ref_init(&ta, f->ta);
	ref_init(&icnt, f->icnt);
	st_writer_init(w);
	for (int i = 0; i < c->n; i++) {
		const struct st_cf_msg *m = &c->m[i];

		if (f->timed) {
			st_put_uvlc(w, cc.ch, m->cycle - pcc[m->core]);
			ref_note(&cc, m->cycle - pcc[m->core]);
		}
		pcc[m->core] = m->cycle;
		st_put_bits(w, (uint64_t)m->core, st_ti_bits(f->ncores));
		st_put_uvlc(w, cnt.ch, m->count);
		ref_note(&cnt, m->count);
		if (!m->count) {
			st_put_uvlc(w, icnt.ch, m->icnt);
			ref_note(&icnt, m->icnt);
			st_put_bits(w, m->exc, 9);
			st_put_bit(w, m->tail);
		} else if (m->indirect) {
			if (m->cond)
				st_put_bit(w, m->taken);
			if (m->taken) {
				int64_t d = (int64_t)m->ta - (int64_t)pta[m->core];
				uint64_t mag = d < 0 ? (uint64_t)-d : (uint64_t)d;

				st_put_bit(w, d < 0);
				st_put_uvlc(w, ta.ch, mag);
				ref_note(&ta, mag);
				pta[m->core] = m->ta;
			}
		}
	}
	*switches = cc.switches + cnt.switches + ta.switches + icnt.switches;
}

/* Decode messages [from, to) of c; 0 if they all come back, else the first bad + 1. */
static int cf_decode(struct st_cf_decoder *d, const struct cfcase *c, int from, int to)
{
	for (int i = from; i < to; i++) {
		const struct st_cf_msg *m = &c->m[i];
		struct st_cf_msg h;

		if (st_cf_get_head(d, &h) || h.core != m->core || h.count != m->count ||
		    (d->fmt.timed && h.cycle != m->cycle))
			return i + 1;
		if (!m->count && (h.icnt != m->icnt || h.exc != m->exc || h.tail != m->tail))
			return i + 1;
		if (m->count && m->indirect &&
		    (st_cf_get_target(d, &h, m->cond) || h.taken != m->taken ||
		     (m->taken && h.ta != m->ta)))
			return i + 1;
	}
	return 0;
}

static void test_tra(void)
{
	static struct cfcase c;

	for (int s = 0; s < S_NSEQ; s++)
		for (int ncores = 1; ncores <= 8; ncores *= 2)
			for (int timed = 0; timed < 2; timed++) {
				struct st_cf_format f;
				struct st_cf_encoder e;
				struct st_cf_decoder d, ckpt;
				struct st_writer ref;
				const uint8_t *buf;
				uint64_t nbits;
				int switches, bad, half;

				st_cf_format_init(&f, ST_CF_TRA, ncores, timed);
				cf_messages(&c, ncores, (enum seq)s);
				st_cf_encoder_init(&e, &f);
				for (int i = 0; i < c.n; i++)
					st_cf_put(&e, &c.m[i]);
				cf_reference(&c, &f, &ref, &switches);
				nbits = st_writer_bits(&e.w);
				buf = st_writer_buf(&e.w, NULL);
				check_stream(&e.w, &ref, st_cf_fields_total(&e.fields), "TR_a",
					     (enum seq)s, ncores, timed, switches);
				st_cf_decoder_init(&d, &f, buf, nbits, "tra");
				half = c.n / 2;
				bad = cf_decode(&d, &c, 0, half);
				ckpt = d; /* a checkpoint: the replay copies the decoder */
				if (!bad)
					bad = cf_decode(&d, &c, half, c.n);
				tap_ok(!bad && st_cf_decoder_pos(&d) == nbits &&
					   d.fields.cc == e.fields.cc &&
					   d.fields.cnt == e.fields.cnt &&
					   d.fields.ta == e.fields.ta &&
					   d.fields.icnt == e.fields.icnt,
				       "  decodes back (message %d), field bits agree", bad - 1);
				d = ckpt;
				bad = cf_decode(&d, &c, half, c.n);
				tap_ok(!bad && st_cf_decoder_pos(&d) == nbits,
				       "  decodes the second half again from a mid-stream copy");
				st_cf_encoder_release(&e);
				st_writer_release(&ref);
			}
}

/* ---- CFiat_a --------------------------------------------------------------- */

static void test_cfiata(void)
{
	static struct st_lv_msg m[NMSG];
	static uint8_t val[NMSG][8];

	for (int s = 0; s < S_NSEQ; s++)
		for (int ncores = 1; ncores <= 8; ncores *= 2)
			for (int timed = 0; timed < 2; timed++) {
				uint64_t cycle[ST_LV_MAX_CORES] = {0}, pcc[ST_LV_MAX_CORES] = {0};
				struct st_lv_format f;
				struct st_lv_encoder e;
				struct st_lv_decoder d, ckpt;
				struct st_writer ref;
				struct ref cc, cnt;
				uint64_t nbits;
				const uint8_t *buf;
				int bad = 0, half = NMSG / 2;

				st_lv_format_init(&f, ST_LV_CFIATA, ncores, timed);
				st_lv_encoder_init(&e, &f);
				st_writer_init(&ref);
				ref_init(&cc, f.cc);
				ref_init(&cnt, f.cnt);
				for (int i = 0; i < NMSG; i++) {
					uint64_t v = seq_value((enum seq)s, (unsigned)i);
					unsigned n = (unsigned)(i % 9 == 0 ? 8 : 4);

					m[i].core = (int)(next() % ncores);
					cycle[m[i].core] += v & 0xffffffffffULL;
					m[i].cycle = cycle[m[i].core];
					m[i].count = v;
					for (unsigned b = 0; b < 8; b++)
						val[i][b] = (uint8_t)next();
					st_lv_put(&e, &m[i], val[i], n);
					if (timed) {
						st_put_uvlc(&ref, cc.ch,
							    m[i].cycle - pcc[m[i].core]);
						ref_note(&cc, m[i].cycle - pcc[m[i].core]);
					}
					pcc[m[i].core] = m[i].cycle;
					st_put_bits(&ref, (uint64_t)m[i].core, st_ti_bits(ncores));
					st_put_uvlc(&ref, cnt.ch, v);
					ref_note(&cnt, v);
					for (unsigned b = 0; b < n; b++)
						st_put_bits(&ref, val[i][b], 8);
				}
				nbits = st_writer_bits(&e.w);
				buf = st_writer_buf(&e.w, NULL);
				check_stream(&e.w, &ref, st_lv_fields_total(&e.fields), "CFiat_a",
					     (enum seq)s, ncores, timed,
					     cc.switches + cnt.switches);
				st_lv_decoder_init(&d, &f, buf, nbits, "cfiata");
				for (int pass = 0; pass < 2 && !bad; pass++) {
					if (pass)
						d = ckpt; /* again from the mid-stream copy */
					for (int i = pass ? half : 0; i < NMSG && !bad; i++) {
						struct st_lv_msg h;
						uint8_t got[8];
						unsigned n = (unsigned)(i % 9 == 0 ? 8 : 4);

						if (i == half && !pass)
							ckpt = d;
						if (st_lv_get_head(&d, &h) || h.core != m[i].core ||
						    h.count != m[i].count ||
						    (timed && h.cycle != m[i].cycle) ||
						    st_lv_get_value(&d, got, n) ||
						    memcmp(got, val[i], n))
							bad = i + 1;
					}
					if (!bad && st_lv_decoder_pos(&d) != nbits)
						bad = -1;
				}
				tap_ok(!bad, "  decodes back, also from a mid-stream copy (%d)",
				       bad);
				st_lv_encoder_release(&e);
				st_writer_release(&ref);
			}
}

/* ---- names and formats ------------------------------------------------------ */

static void test_formats(void)
{
	struct st_cf_format f;
	struct st_lv_format l;
	enum st_cf_enc ce;
	enum st_lv_enc le;

	st_cf_format_init(&f, ST_CF_TRA, 2, 1);
	tap_ok(f.enc == ST_CF_TRE && f.adapt && f.cnt.c0 == 3 && f.cnt.c1 == 2 &&
		   st_cf_format_enc(&f) == ST_CF_TRA && !st_cf_format_check(&f),
	       "tra: TR_e's messages and starting sizes, adapt 1");
	st_cf_format_init(&f, ST_CF_TRE, 2, 1);
	tap_ok(!f.adapt && st_cf_format_enc(&f) == ST_CF_TRE, "tre: no adaptation");
	tap_ok(!st_cf_enc_parse("TRA", &ce) && ce == ST_CF_TRA &&
		   !strcmp(st_cf_enc_name(ST_CF_TRA), "tra"),
	       "tra parses and names");
	st_cf_format_init(&f, ST_CF_TRB, 2, 1);
	f.adapt = 1;
	error_quiet(1);
	tap_ok(st_cf_format_check(&f) == -1, "adaptive TR_b is refused");
	error_quiet(-1);
	st_lv_format_init(&l, ST_LV_CFIATA, 3, 0);
	tap_ok(l.enc == ST_LV_CFIAT && l.adapt && l.cnt.c0 == 1 && l.cnt.c1 == 2 &&
		   st_lv_format_enc(&l) == ST_LV_CFIATA && !st_lv_format_check(&l),
	       "cfiata: CFiat's messages and starting sizes, adapt 1");
	tap_ok(!st_lv_enc_parse("CFiatA", &le) && le == ST_LV_CFIATA &&
		   !strcmp(st_lv_enc_name(ST_LV_CFIATA), "cfiata"),
	       "cfiata parses and names");
	st_lv_format_init(&l, ST_LV_MC2RT, 3, 0);
	l.adapt = 1;
	error_quiet(1);
	tap_ok(st_lv_format_check(&l) == -1, "adaptive mc2RT is refused");
	error_quiet(-1);
}

int main(void)
{
	test_formats();
	test_rule();
	test_tra();
	test_cfiata();
	return tap_done();
}

/*
 * cfmsg: the control-flow trace messages (mcfTRaptor Table 3, Fig. 7).
 *
 * The encoder runs once per trace message of 1e8-instruction simulations,
 * and a recorder keeps six of them side by side (NX_b, TR_b, TR_e, each
 * timed and functional). Its bit assembly and strict reading are shared
 * with lvmsg.c through msg_priv.h, which says why they are built as they are.
 */
#include "streams/cfmsg.h"

#include <string.h>

#include "streams/msg_priv.h"

#define TA_MAX UINT64_C(0xffffffff)

/* ---- formats ------------------------------------------------------------- */

static const char *const enc_names[] = {
    [ST_CF_NXB] = "nxb",
    [ST_CF_TRB] = "trb",
    [ST_CF_TRE] = "tre",
    [ST_CF_TRA] = "tra",
};

void st_cf_format_init(struct st_cf_format *f, enum st_cf_enc enc, int ncores, int timed)
{
	f->ncores = ncores;
	f->timed = timed;
	st_cf_format_set_enc(f, enc);
	if (f->enc == ST_CF_TRE) {
		/* mcfTRaptor Sec. 5 and TRaptor Sec. 5.2: the best variable chunks */
		f->cnt = ST_VLC_TRE_BCNT;
		f->ta = ST_VLC_TRE_DIFFTA;
		f->cc = ST_VLC_TRE_DIFFCC;
		f->icnt = ST_VLC_TRE_ICNT;
	} else {
		/* Fig. 7a/7b: 8-bit counters and time, 16-bit |diffTA| chunks */
		f->cnt = ST_VLC_TRB_BCNT;
		f->ta = ST_VLC_TRB_DIFFTA;
		f->cc = ST_VLC_TRB_DIFFCC;
		f->icnt = ST_VLC(8, 8);
	}
}

void st_cf_format_set_enc(struct st_cf_format *f, enum st_cf_enc enc)
{
	f->adapt = enc == ST_CF_TRA;
	f->enc = f->adapt ? ST_CF_TRE : enc;
}

enum st_cf_enc st_cf_format_enc(const struct st_cf_format *f)
{
	return f->adapt && f->enc == ST_CF_TRE ? ST_CF_TRA : f->enc;
}

int st_cf_format_check(const struct st_cf_format *f)
{
	if ((unsigned)f->enc > ST_CF_TRE)
		return error("cf format: encoding %d is not nxb, trb or tre", (int)f->enc);
	if (f->adapt && f->enc != ST_CF_TRE)
		return error("cf format: adaptive chunks with encoding %s (only tre's messages "
			     "adapt: tra)",
			     enc_names[f->enc]);
	if (f->ncores < 1 || f->ncores > ST_CF_MAX_CORES)
		return error("cf format: ncores %d is not in 1..%d", f->ncores, ST_CF_MAX_CORES);
	if (check_chunks(f->cnt, "cf", f->enc == ST_CF_NXB ? "SL" : "bCnt") ||
	    check_chunks(f->ta, "cf", "diffTA") || check_chunks(f->icnt, "cf", "iCnt"))
		return -1;
	/* a functional trace never reads cc, so its sizes do not matter */
	if (f->timed && check_chunks(f->cc, "cf", "diffCC"))
		return -1;
	return 0;
}

const char *st_cf_enc_name(enum st_cf_enc enc)
{
	return (unsigned)enc < ARRAY_SIZE(enc_names) ? enc_names[enc] : "?";
}

int st_cf_enc_parse(const char *s, enum st_cf_enc *enc)
{
	int i = enc_index(enc_names, ARRAY_SIZE(enc_names), s);

	if (i < 0)
		return error("unknown control-flow encoding '%s' (valid: nxb, trb, tre, tra)", s);
	*enc = (enum st_cf_enc)i;
	return 0;
}

unsigned st_ti_bits(int ncores)
{
	return ti_bits(ncores);
}

uint64_t st_cf_fields_total(const struct st_cf_fields *f)
{
	return f->cc + f->ti + f->cnt + f->tnt + f->ta + f->icnt + f->exc;
}

/* The name of the count field in messages: Fig. 7a calls it SL, 7b/7c bCnt. */
static const char *cnt_name(const struct st_cf_format *f)
{
	return f->enc == ST_CF_NXB ? "SL" : "bCnt";
}

/* ---- TR_a: adaptive chunks --------------------------------------------------- */

/* Every field starts at the format's sizes (the papers' TR_e by default). */
static void adapt_init(struct st_cf_adapt *a, const struct st_cf_format *f)
{
	st_adapt_init(&a->cc, f->cc);
	st_adapt_init(&a->cnt, f->cnt);
	st_adapt_init(&a->ta, f->ta);
	st_adapt_init(&a->icnt, f->icnt);
}

/* ---- encoder --------------------------------------------------------------- */

void st_cf_encoder_init(struct st_cf_encoder *e, const struct st_cf_format *fmt)
{
	if (st_cf_format_check(fmt))
		die("BUG: st_cf_encoder_init with a bad format");
	memset(e, 0, sizeof(*e));
	e->fmt = *fmt;
	if (fmt->adapt)
		adapt_init(&e->ad, fmt);
	st_writer_init(&e->w);
}

void st_cf_encoder_release(struct st_cf_encoder *e)
{
	st_writer_release(&e->w);
}

/* Why m cannot be encoded, or NULL: one test per message, the report (cf_bug) is cold. */
static const char *cf_unencodable(const struct st_cf_encoder *e, const struct st_cf_msg *m)
{
	const struct st_cf_format *f = &e->fmt;

	if (m->core < 0 || m->core >= f->ncores)
		return "core out of range";
	if (f->timed && m->cycle < e->pcc[m->core])
		return "cycle goes back";
	if (m->count) {
		if (m->indirect && !m->taken && (f->enc == ST_CF_NXB || !m->cond))
			return f->enc == ST_CF_NXB ? "NX_b has no message for a branch not taken"
						   : "an unconditional indirect branch not taken";
	} else {
		if (m->exc >= 1u << ST_CF_EXC_BITS)
			return "E does not fit in 9 bits";
		if (m->exc == ST_CF_END && m->tail)
			return "X = 1 in an end message";
	}
	return NULL;
}

static void __attribute__((noreturn, cold))
cf_bug(const struct st_cf_encoder *e, const struct st_cf_msg *m, const char *why)
{
	die("BUG: %s encoder, message %llu: %s (core %d, cycle %llu, previous %llu, count "
	    "%llu, exc %u, tail %d)",
	    st_cf_enc_name(st_cf_format_enc(&e->fmt)), (unsigned long long)e->fields.msgs, why,
	    m->core, (unsigned long long)m->cycle,
	    (unsigned long long)(m->core >= 0 && m->core < e->fmt.ncores ? e->pcc[m->core] : 0),
	    (unsigned long long)m->count, m->exc, m->tail);
}

/*
 * mcfTRaptor Table 3 / Fig. 7, first field first:
 *
 *   +--------+----+-------+-- count > 0: branch -------------------------+
 *   |[diffCC]| Ti | count | [T] [diffTA]                                  |
 *   +--------+----+-------+-----------------------------------------------+
 *   +--------+----+-------+------+-----+---+  count = 0: exception / end
 *   |[diffCC]| Ti |   0   | iCnt |  E  | X |
 *   +--------+----+-------+------+-----+---+
 *
 * diffCC, count, iCnt: chunks (vlc.h); Ti: ceil(log2 ncores) bits;
 * T: 1 bit (TR_* conditional indirect); diffTA: sign bit, |TA - PTA| in
 * chunks; E: 9 bits; X: 1 bit.
 */
void st_cf_put(struct st_cf_encoder *e, const struct st_cf_msg *m)
{
	const struct st_cf_format *f = &e->fmt;
	struct st_cf_fields *fl = &e->fields;
	struct pack p = {&e->w, 0, 0};
	unsigned tib = ti_bits(f->ncores);
	const char *why = cf_unencodable(e, m);
	int c = m->core;

	if (__builtin_expect(why != NULL, 0))
		cf_bug(e, m, why);
	if (f->timed) {
		fl->cc += pk_uvlc(&p, ad_sizes(f->adapt, f->cc, &e->ad.cc), m->cycle - e->pcc[c]);
		ad_note(f->adapt, &e->ad.cc, m->cycle - e->pcc[c]);
	}
	/* kept in the functional form too: a caller may read e->pcc */
	e->pcc[c] = m->cycle;
	pk_bits(&p, (uint64_t)c, tib);
	fl->ti += tib;
	fl->cnt += pk_uvlc(&p, ad_sizes(f->adapt, f->cnt, &e->ad.cnt), m->count);
	ad_note(f->adapt, &e->ad.cnt, m->count);
	if (m->count) {
		if (!m->indirect) {
			fl->branch_msgs++;
		} else {
			int taken = 1;

			/* Fig. 7 has no T (IA32 has no conditional indirect branch); ARM does */
			if (f->enc != ST_CF_NXB && m->cond) {
				taken = !!m->taken;
				pk_bits(&p, (uint64_t)taken, 1);
				fl->tnt++;
			}
			if (taken) {
				/* mcfTRaptor Sec. 4: diffTA = TA - PTA; PTA = TA */
				int64_t diff = (int64_t)m->ta - (int64_t)e->pta[c];
				uint64_t mag = diff < 0 ? (uint64_t)-diff : (uint64_t)diff;

				pk_bits(&p, diff < 0, 1);
				fl->ta +=
				    1 + pk_uvlc(&p, ad_sizes(f->adapt, f->ta, &e->ad.ta), mag);
				ad_note(f->adapt, &e->ad.ta, mag);
				e->pta[c] = m->ta;
			}
			fl->target_msgs++;
		}
	} else {
		fl->icnt += pk_uvlc(&p, ad_sizes(f->adapt, f->icnt, &e->ad.icnt), m->icnt);
		ad_note(f->adapt, &e->ad.icnt, m->icnt);
		pk_bits(&p, m->exc | (uint64_t)(m->tail != 0) << ST_CF_EXC_BITS,
			ST_CF_EXC_BITS + 1);
		fl->exc += ST_CF_EXC_BITS + 1;
		if (m->exc != ST_CF_END)
			fl->exc_msgs++;
		else
			fl->end_msgs++;
	}
	fl->msgs++;
	pk_flush(&p);
}

/* ---- decoder --------------------------------------------------------------- */

void st_cf_decoder_init(struct st_cf_decoder *d, const struct st_cf_format *fmt, const void *buf,
			uint64_t nbits, const char *name)
{
	/* a bad format would index pta[] past ST_CF_MAX_CORES: a caller bug */
	if (st_cf_format_check(fmt))
		die("BUG: st_cf_decoder_init with a bad format");
	memset(d, 0, sizeof(*d));
	d->fmt = *fmt;
	if (fmt->adapt)
		adapt_init(&d->ad, fmt);
	st_reader_init_bits(&d->r, buf, nbits);
	d->r.name = name ? name : "cf stream";
}

/*
 * The head: every field of an exception / end message, or up to count for
 * a branch (the diagram at st_cf_put). Nothing is committed (PCC, counters,
 * *m) until the whole head has been read and checked, so a failure leaves
 * the decoder as it was, at the message start.
 */
static int get_head_rest(struct st_cf_decoder *d, struct st_cf_msg *m);

int st_cf_get_head(struct st_cf_decoder *d, struct st_cf_msg *m)
{
	const struct st_cf_format *f = &d->fmt;
	struct st_reader *r = &d->r;
	uint64_t start = r->pos, cycle;

	if (!f->adapt && r->nbits - start >= 64) {
		/*
		 * The usual head, a branch message's, read from one 64-bit window:
		 * fixed chunks, every field inside the window's 57 or more bits.
		 * What else comes (adaptive chunks, an exception or end message,
		 * a field past the window, anything wrong, the end) takes the
		 * general way, get_head_rest.
		 */
		struct win_head h;
		unsigned tib = ti_bits(f->ncores);

		if (win_head(r, f->timed, f->cc, tib, f->ncores, f->cnt, d->pcc, &h) && h.count) {
			cycle = f->timed ? d->pcc[h.ti] + h.dcc : 0;
			r->pos = start + h.at;
			d->pcc[h.ti] = cycle;
			d->fields.cc += h.cc_bits;
			d->fields.ti += tib;
			d->fields.cnt += h.cnt_bits;
			d->fields.branch_msgs++;
			d->fields.msgs++;
			*m = (struct st_cf_msg){.core = (int)h.ti, .cycle = cycle, .count = h.count};
			return 0;
		}
	}
	return get_head_rest(d, m);
}

/* st_cf_get_head's general way (its own function, so the usual head stays lean). */
static __attribute__((noinline)) int get_head_rest(struct st_cf_decoder *d, struct st_cf_msg *m)
{
	const struct st_cf_format *f = &d->fmt;
	struct st_reader *r = &d->r;
	unsigned tib = ti_bits(f->ncores);
	uint64_t start = r->pos, ti, count, icnt = 0, exc = 0, x = 0, cycle, pcc;
	uint64_t at_cnt, at_icnt;
	const char *field;
	enum rd_err e;

	if (start == r->nbits)
		return 1;
	if (get_cc_ti(r, f->timed, ad_sizes(f->adapt, f->cc, &d->ad.cc), "diffCC", f->ncores,
		      d->pcc, &ti, &cycle))
		return -1;
	at_cnt = r->pos;
	field = cnt_name(f);
	if ((e = get_uvlc(r, ad_sizes(f->adapt, f->cnt, &d->ad.cnt), &count)))
		goto fail;
	at_icnt = r->pos;
	if (!count) {
		field = "iCnt";
		if ((e = get_uvlc(r, ad_sizes(f->adapt, f->icnt, &d->ad.icnt), &icnt)))
			goto fail;
		e = RD_SHORT;
		field = "E";
		if (!take(r, ST_CF_EXC_BITS, &exc))
			goto fail;
		field = "X";
		if (!take(r, 1, &x))
			goto fail;
		/* the end comes after the last instruction, never from a return */
		if (exc == ST_CF_END && x) {
			r->pos = start;
			return error("%s: message at bit %llu: X is 1 in an end message (E = 0, "
				     "core %d)",
				     r->name, (unsigned long long)start, (int)ti);
		}
	}

	/* TR_a: the values in the order the encoder noted them */
	pcc = d->pcc[ti];
	if (f->timed)
		ad_note(f->adapt, &d->ad.cc, cycle - pcc);
	ad_note(f->adapt, &d->ad.cnt, count);
	if (!count)
		ad_note(f->adapt, &d->ad.icnt, icnt);
	d->pcc[ti] = cycle; /* 0 in the functional form, as it started */
	d->fields.cc += at_cnt - tib - start;
	d->fields.ti += tib;
	d->fields.cnt += at_icnt - at_cnt;
	*m = (struct st_cf_msg){.core = (int)ti, .cycle = cycle, .count = count};
	if (count) {
		d->fields.branch_msgs++;
	} else {
		d->fields.icnt += r->pos - at_icnt - (ST_CF_EXC_BITS + 1);
		d->fields.exc += ST_CF_EXC_BITS + 1;
		m->icnt = icnt;
		m->exc = (unsigned)exc;
		m->tail = (int)x;
		if (exc != ST_CF_END)
			d->fields.exc_msgs++;
		else
			d->fields.end_msgs++;
	}
	d->fields.msgs++;
	return 0;
fail:
	r->pos = start;
	return bad(r, "message", start, field, e);
}

/*
 * The target part of a branch message whose branch is indirect:
 *
 *   ... | count | [T] | [S | |diffTA| in chunks] |
 *
 * T only in TR_* and only for a conditional branch (1 taken); diffTA only
 * when taken. The head is already consumed and counted, so on failure the
 * reader goes back to where the target part starts, the point the
 * decoder's state describes, and the error names that offset.
 */
int st_cf_get_target(struct st_cf_decoder *d, struct st_cf_msg *m, int cond)
{
	const struct st_cf_format *f = &d->fmt;
	struct st_reader *r = &d->r;
	uint64_t start = r->pos, t = 1, neg = 0, mag = 0, ta = 0, at_ta;
	const char *field = "T";
	enum rd_err e = RD_SHORT;
	char what[48];
	int c = m->core;

	if (c < 0 || c >= f->ncores || !m->count || !d->fields.branch_msgs)
		return error("%s: target at bit %llu: no branch message head to complete (core "
			     "%d, count %llu)",
			     r->name, (unsigned long long)start, c, (unsigned long long)m->count);
	if (f->enc != ST_CF_NXB && cond && !take(r, 1, &t))
		goto fail;
	at_ta = r->pos;
	if (t) {
		uint32_t pta = d->pta[c];

		field = "diffTA";
		if (!take(r, 1, &neg) ||
		    (e = get_uvlc(r, ad_sizes(f->adapt, f->ta, &d->ad.ta), &mag)))
			goto fail;
		if (neg && !mag) {
			e = RD_NEGZERO;
			goto fail;
		}
		if (neg ? mag > pta : mag > TA_MAX - pta) {
			r->pos = start;
			return error("%s: target (core %d) at bit %llu: diffTA %s0x%llx takes the "
				     "target outside 32 bits (PTA 0x%08x)",
				     r->name, c, (unsigned long long)start, neg ? "-" : "+",
				     (unsigned long long)mag, (unsigned)pta);
		}
		ta = neg ? pta - mag : pta + mag;
		d->pta[c] = (uint32_t)ta;
		ad_note(f->adapt, &d->ad.ta, mag);
	}
	d->fields.tnt += at_ta - start;
	d->fields.ta += r->pos - at_ta;
	d->fields.branch_msgs--;
	d->fields.target_msgs++;
	m->taken = (int)t;
	m->ta = (uint32_t)ta;
	return 0;
fail:
	r->pos = start;
	snprintf(what, sizeof(what), "target (core %d)", c);
	return bad(r, what, start, field, e);
}

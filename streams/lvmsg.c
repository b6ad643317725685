/*
 * lvmsg: the load-value trace messages (CFAT Fig. 6, mc2RT Fig. 8).
 *
 * NX-LV runs once per load of the simulation, so as in cfmsg.c a message
 * is assembled in a 64-bit accumulator and the decoder reads a chunk and
 * its connect bit with one unaligned load; both codecs inline the same
 * helpers from msg_priv.h.
 */
#include "streams/lvmsg.h"

#include <string.h>

#include "streams/msg_priv.h"

/* ---- formats ------------------------------------------------------------- */

static const char *const enc_names[] = {
    [ST_LV_NXLV] = "nxlv",
    [ST_LV_CFIAT] = "cfiat",
    [ST_LV_MC2RT] = "mc2rt",
    [ST_LV_CFIATA] = "cfiata",
};

void st_lv_format_init(struct st_lv_format *f, enum st_lv_enc enc, int ncores, int timed)
{
	f->ncores = ncores;
	f->timed = timed;
	st_lv_format_set_enc(f, enc);
	if (f->enc == ST_LV_CFIAT) {
		/* CFAT Sec. 4.2: fahCnt (1,2); dCC as TR_e's diffCC */
		f->cnt = ST_VLC_FAHCNT;
		f->cc = ST_VLC_TRE_DIFFCC;
	} else {
		/* mc2RT Fig. 8: "at least 8 bits" and C; NX-LV has no count */
		f->cnt = ST_VLC(8, 8);
		f->cc = ST_VLC(8, 8);
	}
}

/* The count field's name in messages: CFAT's fahCnt, mc2RT's THCnt. */
static const char *cnt_name(const struct st_lv_format *f)
{
	return f->enc == ST_LV_MC2RT ? "THCnt" : "fahCnt";
}

void st_lv_format_set_enc(struct st_lv_format *f, enum st_lv_enc enc)
{
	f->adapt = enc == ST_LV_CFIATA;
	f->enc = f->adapt ? ST_LV_CFIAT : enc;
}

enum st_lv_enc st_lv_format_enc(const struct st_lv_format *f)
{
	return f->adapt && f->enc == ST_LV_CFIAT ? ST_LV_CFIATA : f->enc;
}

int st_lv_format_check(const struct st_lv_format *f)
{
	if ((unsigned)f->enc > ST_LV_MC2RT)
		return error("lv format: encoding %d is not nxlv, cfiat or mc2rt", (int)f->enc);
	if (f->adapt && f->enc != ST_LV_CFIAT)
		return error("lv format: adaptive chunks with encoding %s (only cfiat's messages "
			     "adapt: cfiata)",
			     enc_names[f->enc]);
	if (f->ncores < 1 || f->ncores > ST_LV_MAX_CORES)
		return error("lv format: ncores %d is not in 1..%d", f->ncores, ST_LV_MAX_CORES);
	/* fields a format never writes do not constrain it */
	if (f->enc != ST_LV_NXLV && check_chunks(f->cnt, "lv", cnt_name(f)))
		return -1;
	if (f->timed && check_chunks(f->cc, "lv", "dCC"))
		return -1;
	return 0;
}

const char *st_lv_enc_name(enum st_lv_enc enc)
{
	return (unsigned)enc < ARRAY_SIZE(enc_names) ? enc_names[enc] : "?";
}

int st_lv_enc_parse(const char *s, enum st_lv_enc *enc)
{
	int i = enc_index(enc_names, ARRAY_SIZE(enc_names), s);

	if (i < 0)
		return error("unknown load-value encoding '%s' (valid: nxlv, cfiat, mc2rt, cfiata)",
			     s);
	*enc = (enum st_lv_enc)i;
	return 0;
}

uint64_t st_lv_fields_total(const struct st_lv_fields *f)
{
	return f->cc + f->ti + f->cnt + f->value;
}

/* ---- CFiat_a: adaptive chunks ------------------------------------------------ */

static void adapt_init(struct st_lv_adapt *a, const struct st_lv_format *f)
{
	st_adapt_init(&a->cc, f->cc);
	st_adapt_init(&a->cnt, f->cnt);
}

/* ---- encoder --------------------------------------------------------------- */

void st_lv_encoder_init(struct st_lv_encoder *e, const struct st_lv_format *fmt)
{
	if (st_lv_format_check(fmt))
		die("BUG: st_lv_encoder_init with a bad format");
	memset(e, 0, sizeof(*e));
	e->fmt = *fmt;
	if (fmt->adapt)
		adapt_init(&e->ad, fmt);
	st_writer_init(&e->w);
}

void st_lv_encoder_release(struct st_lv_encoder *e)
{
	st_writer_release(&e->w);
}

static const char *lv_unencodable(const struct st_lv_encoder *e, const struct st_lv_msg *m,
				  unsigned n)
{
	const struct st_lv_format *f = &e->fmt;

	if (m->core < 0 || m->core >= f->ncores)
		return "core out of range";
	if (f->timed && m->cycle < e->pcc[m->core])
		return "cycle goes back";
	if (f->enc == ST_LV_NXLV && m->count)
		return "NX-LV has no count";
	if (n > ST_LV_MAX_VALUE)
		return "value longer than 256 bytes";
	return NULL;
}

static void __attribute__((noreturn, cold))
lv_bug(const struct st_lv_encoder *e, const struct st_lv_msg *m, unsigned n, const char *why)
{
	die("BUG: %s encoder, message %llu: %s (core %d, cycle %llu, previous %llu, count "
	    "%llu, %u value bytes)",
	    st_lv_enc_name(st_lv_format_enc(&e->fmt)), (unsigned long long)e->fields.msgs, why,
	    m->core, (unsigned long long)m->cycle,
	    (unsigned long long)(m->core >= 0 && m->core < e->fmt.ncores ? e->pcc[m->core] : 0),
	    (unsigned long long)m->count, n);
}

/*
 * CFAT Fig. 6 / mc2RT Fig. 8, first field first:
 *
 *   NX-LV   every load:                   | [dCC] | Ti |       | value |
 *   CFiat   a load the FA flags miss:     | [dCC] | Ti | fahCnt| value |
 *   mc2RT   a line the trace bit misses:  | [dCC] | Ti | THCnt | value |
 *
 * dCC, fahCnt / THCnt: chunks (vlc.h); Ti: ceil(log2 ncores) bits;
 * value: n bytes in address order, 8 bits each, LSB first.
 */
void st_lv_put(struct st_lv_encoder *e, const struct st_lv_msg *m, const uint8_t *value, unsigned n)
{
	const struct st_lv_format *f = &e->fmt;
	struct st_lv_fields *fl = &e->fields;
	struct pack p = {&e->w, 0, 0};
	unsigned tib = ti_bits(f->ncores), i = 0;
	const char *why = lv_unencodable(e, m, n);
	int c = m->core;

	if (__builtin_expect(why != NULL, 0))
		lv_bug(e, m, n, why);
	if (f->timed) {
		fl->cc += pk_uvlc(&p, ad_sizes(f->adapt, f->cc, &e->ad.cc), m->cycle - e->pcc[c]);
		ad_note(f->adapt, &e->ad.cc, m->cycle - e->pcc[c]);
	}
	e->pcc[c] = m->cycle;
	pk_bits(&p, (uint64_t)c, tib);
	fl->ti += tib;
	if (f->enc != ST_LV_NXLV) {
		fl->cnt += pk_uvlc(&p, ad_sizes(f->adapt, f->cnt, &e->ad.cnt), m->count);
		ad_note(f->adapt, &e->ad.cnt, m->count);
	}
	/* bytes in address order, each LSB first: a little-endian word, 8 at a time, the rest in one */
	for (; i + 8 <= n; i += 8)
		pk_bits(&p, load64(value + i), 64);
	if (i < n) {
		const uint8_t *b = value + i;
		uint64_t v = 0;

		if (n - i == 4) /* (the usual granule: one load) */
			v = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
			    (uint64_t)b[3] << 24;
		else
			for (unsigned k = n - i; k-- > 0;)
				v = v << 8 | b[k];
		pk_bits(&p, v, 8 * (n - i));
	}
	fl->value += 8 * (uint64_t)n;
	fl->msgs++;
	pk_flush(&p);
}

/* ---- decoder --------------------------------------------------------------- */

void st_lv_decoder_init(struct st_lv_decoder *d, const struct st_lv_format *fmt, const void *buf,
			uint64_t nbits, const char *name)
{
	/* a bad format would index pcc[] past ST_LV_MAX_CORES: a caller bug */
	if (st_lv_format_check(fmt))
		die("BUG: st_lv_decoder_init with a bad format");
	memset(d, 0, sizeof(*d));
	d->fmt = *fmt;
	if (fmt->adapt)
		adapt_init(&d->ad, fmt);
	st_reader_init_bits(&d->r, buf, nbits);
	d->r.name = name ? name : "lv stream";
}

static int get_head_rest(struct st_lv_decoder *d, struct st_lv_msg *m);

/* The head, everything before value; commits nothing unless all of it reads. */
int st_lv_get_head(struct st_lv_decoder *d, struct st_lv_msg *m)
{
	const struct st_lv_format *f = &d->fmt;
	struct st_reader *r = &d->r;
	uint64_t start = r->pos, cycle;

	if (!f->adapt && f->enc != ST_LV_NXLV && r->nbits - start >= 64) {
		/*
		 * The usual head, read from one 64-bit window: fixed chunks, every
		 * field inside the window's 57 or more bits. What else comes
		 * (adaptive chunks, a field past the window, anything wrong, the
		 * end) takes the general way, get_head_rest.
		 */
		struct win_head h;
		unsigned tib = ti_bits(f->ncores);

		if (win_head(r, f->timed, f->cc, tib, f->ncores, f->cnt, d->pcc, &h)) {
			cycle = f->timed ? d->pcc[h.ti] + h.dcc : 0;
			r->pos = start + h.at;
			d->pcc[h.ti] = cycle;
			d->fields.cc += h.cc_bits;
			d->fields.ti += tib;
			d->fields.cnt += h.cnt_bits;
			d->fields.msgs++;
			m->core = (int)h.ti;
			m->cycle = cycle;
			m->count = h.count;
			return 0;
		}
	}
	return get_head_rest(d, m);
}

/* st_lv_get_head's general way (its own function, so the usual head stays lean). */
static __attribute__((noinline)) int get_head_rest(struct st_lv_decoder *d, struct st_lv_msg *m)
{
	const struct st_lv_format *f = &d->fmt;
	struct st_reader *r = &d->r;
	unsigned tib = ti_bits(f->ncores);
	uint64_t start = r->pos, ti, count = 0, cycle, at_cnt;
	enum rd_err e;

	if (start == r->nbits)
		return 1;
	if (get_cc_ti(r, f->timed, ad_sizes(f->adapt, f->cc, &d->ad.cc), "dCC", f->ncores, d->pcc,
		      &ti, &cycle))
		return -1;
	at_cnt = r->pos;
	if (f->enc != ST_LV_NXLV &&
	    (e = get_uvlc(r, ad_sizes(f->adapt, f->cnt, &d->ad.cnt), &count))) {
		r->pos = start;
		return bad(r, "message", start, cnt_name(f), e);
	}

	/* CFiat_a: the values in the order the encoder noted them */
	if (f->timed)
		ad_note(f->adapt, &d->ad.cc, cycle - d->pcc[ti]);
	if (f->enc != ST_LV_NXLV)
		ad_note(f->adapt, &d->ad.cnt, count);
	d->pcc[ti] = cycle;
	d->fields.cc += at_cnt - tib - start;
	d->fields.ti += tib;
	d->fields.cnt += r->pos - at_cnt;
	d->fields.msgs++;
	m->core = (int)ti;
	m->cycle = cycle;
	m->count = count;
	return 0;
}

/* st_lv_get_value's every other case: its own function, so the usual one stays lean. */
static __attribute__((noinline)) int get_value_rest(struct st_lv_decoder *d, uint8_t *value,
						    unsigned n)
{
	struct st_reader *r = &d->r;
	uint64_t start = r->pos, x = 0;
	unsigned i = 0;

	if (n > ST_LV_MAX_VALUE)
		return error("%s: value at bit %llu: %u bytes asked, at most %d in a message",
			     r->name, (unsigned long long)start, n, ST_LV_MAX_VALUE);
	if (8 * (uint64_t)n > r->nbits - start)
		return error("%s: value at bit %llu: %u bytes run past the end of the stream "
			     "(%llu bits)",
			     r->name, (unsigned long long)start, n, (unsigned long long)r->nbits);
	if (!n)
		return 0;
	if (start % 8 == 0) {
		memcpy(value, r->buf + start / 8, n);
		r->pos += 8 * (uint64_t)n;
	} else {
		/* 7 bytes per load: take() holds at most 57 bits */
		for (; i + 7 <= n; i += 7) {
			(void)take(r, 56, &x);
			for (unsigned k = 0; k < 7; k++)
				value[i + k] = (uint8_t)(x >> (8 * k));
		}
		for (; i < n; i++) {
			(void)take(r, 8, &x);
			value[i] = (uint8_t)x;
		}
	}
	d->fields.value += 8 * (uint64_t)n;
	return 0;
}

/*
 * The value part: n bytes in address order. The head is consumed and
 * counted already, so a failure leaves the reader where the value starts
 * (the decoder's state) and the error names that offset. The usual value,
 * a word or less with 64 bits of stream left, comes from one 64-bit window
 * (its 8 bytes are the reader's); get_value_rest has the others.
 */
int st_lv_get_value(struct st_lv_decoder *d, uint8_t *value, unsigned n)
{
	struct st_reader *r = &d->r;
	uint64_t start = r->pos, x;

	if (n - 1 >= 7 || r->nbits - start < 64)
		return get_value_rest(d, value, n);
	x = load64(r->buf + start / 8) >> (start % 8);
	if (n == 4) { /* (the usual granule: a constant count, one store) */
		for (unsigned i = 0; i < 4; i++)
			value[i] = (uint8_t)(x >> (8 * i));
	} else {
		for (unsigned i = 0; i < n; i++)
			value[i] = (uint8_t)(x >> (8 * i));
	}
	r->pos += 8 * (uint64_t)n;
	d->fields.value += 8 * (uint64_t)n;
	return 0;
}

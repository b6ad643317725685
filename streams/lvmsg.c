/*
 * lvmsg: the load-value trace messages (CFAT Fig. 6, mc2RT Fig. 8).
 *
 * NX-LV runs once per load of the simulation, so as in cfmsg.c a message
 * is assembled in a 64-bit accumulator and the decoder reads a chunk and
 * its connect bit with one unaligned load. The few lines of bit assembly
 * are repeated here rather than shared through a header, so each codec
 * inlines them into its per-message path; the bits are exactly those of
 * st_put_uvlc / st_put_bits (vlc.h, bitio.h), which
 * tests/unit/msgs_test.c checks against a reference encoder.
 */
#include "streams/lvmsg.h"

#include <string.h>
#include <strings.h>

/* ---- bit assembly (as in cfmsg.c) ----------------------------------------- */

static inline uint64_t shr(uint64_t v, unsigned n)
{
	return n >= 64 ? 0 : v >> n;
}

static inline uint64_t low(uint64_t v, unsigned n)
{
	return n >= 64 ? v : v & ((UINT64_C(1) << n) - 1);
}

struct pack {
	struct st_writer *w;
	uint64_t acc; /* bits not yet handed to w, first bit in bit 0 */
	unsigned n;   /* how many, 0..64 */
};

/* Append the n (0..64) bits of v, which must be < 2^n. */
static inline void pk_bits(struct pack *p, uint64_t v, unsigned n)
{
	unsigned room = 64 - p->n;

	if (n <= room) {
		if (n) {
			p->acc |= v << p->n;
			p->n += n;
		}
		return;
	}
	if (room)
		p->acc |= v << p->n;
	st_put_bits(p->w, p->acc, 64);
	p->acc = v >> room;
	p->n = n - room;
}

static inline void pk_flush(struct pack *p)
{
	st_put_bits(p->w, p->acc, p->n);
}

/* vlc.h's chunks, LSB first, each followed by C; returns the bits written. */
static inline unsigned pk_uvlc(struct pack *p, struct st_vlc ch, uint64_t v)
{
	unsigned c = ch.c0, len = 0;

	for (;;) {
		uint64_t rest = shr(v, c);

		if (c < 64) {
			pk_bits(p, low(v, c) | (uint64_t)(rest != 0) << c, c + 1);
		} else {
			pk_bits(p, v, 64);
			pk_bits(p, 0, 1);
		}
		len += c + 1;
		if (!rest)
			return len;
		v = rest;
		c = ch.c1;
	}
}

/* ---- strict reading (as in cfmsg.c) ----------------------------------------- */

enum rd_err {
	RD_OK,
	RD_SHORT, /* the stream ends inside the field */
	RD_BIG,	  /* a chunked value past 64 bits */
	RD_LOOSE  /* a last chunk of zeros after the first: not minimal */
};

static inline uint64_t load64(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
	       (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
	       (uint64_t)p[7] << 56;
}

/* Take n (1..57) bits: they sit in the 8 bytes from the current one. */
static inline int take(struct st_reader *r, unsigned n, uint64_t *v)
{
	uint64_t pos = r->pos, b = pos / 8, nbytes = (r->nbits + 7) / 8, x = 0;

	if (n > r->nbits - pos)
		return 0;
	if (b + 8 <= nbytes)
		x = load64(r->buf + b);
	else
		for (unsigned i = 0; b + i < nbytes; i++)
			x |= (uint64_t)r->buf[b + i] << (8 * i);
	*v = low(x >> (pos % 8), n);
	r->pos = pos + n;
	return 1;
}

static inline int take_wide(struct st_reader *r, unsigned n, uint64_t *v)
{
	uint64_t lo, hi;

	if (n <= 57) {
		if (!n) {
			*v = 0;
			return 1;
		}
		return take(r, n, v);
	}
	if (n > r->nbits - r->pos)
		return 0;
	if (!take(r, 32, &lo) || !take(r, n - 32, &hi))
		return 0;
	*v = lo | hi << 32;
	return 1;
}

static inline enum rd_err get_uvlc(struct st_reader *r, struct st_vlc ch, uint64_t *out)
{
	uint64_t v = 0, x, more;
	unsigned shift = 0, c = ch.c0;

	for (;;) {
		if (shift >= 64)
			return RD_BIG;
		if (c < 57) {
			if (!take(r, c + 1, &x))
				return RD_SHORT;
			more = x >> c;
			x = low(x, c);
		} else if (!take_wide(r, c, &x) || !take(r, 1, &more)) {
			return RD_SHORT;
		}
		if (shift && shr(x, 64 - shift))
			return RD_BIG;
		if (!more && !x && shift)
			return RD_LOOSE;
		v |= x << shift;
		if (!more)
			break;
		shift += c;
		c = ch.c1;
	}
	*out = v;
	return RD_OK;
}

static int bad(const struct st_reader *r, const char *what, uint64_t at, const char *field,
	       enum rd_err e)
{
	static const char *const problem[] = {
	    [RD_OK] = "is fine",
	    [RD_SHORT] = "runs past the end of the stream",
	    [RD_BIG] = "does not fit in 64 bits",
	    [RD_LOOSE] = "is not minimal (ends in a chunk of zeros)",
	};

	if (e == RD_SHORT)
		return error("%s: %s at bit %llu: %s %s (%llu bits)", r->name, what,
			     (unsigned long long)at, field, problem[e],
			     (unsigned long long)r->nbits);
	return error("%s: %s at bit %llu: %s %s", r->name, what, (unsigned long long)at, field,
		     problem[e]);
}

/* ---- formats ------------------------------------------------------------- */

static const char *const enc_names[] = {
    [ST_LV_NXLV] = "nxlv",
    [ST_LV_CFIAT] = "cfiat",
    [ST_LV_MC2RT] = "mc2rt",
};

void st_lv_format_init(struct st_lv_format *f, enum st_lv_enc enc, int ncores, int timed)
{
	f->enc = enc;
	f->ncores = ncores;
	f->timed = timed;
	if (enc == ST_LV_CFIAT) {
		/* CFAT Sec. 4.2: fahCnt (1,2); dCC as TR_e's diffCC */
		f->cnt = ST_VLC_FAHCNT;
		f->cc = ST_VLC_TRE_DIFFCC;
	} else {
		/* mc2RT Fig. 8: "at least 8 bits" and C; NX-LV has no count */
		f->cnt = ST_VLC(8, 8);
		f->cc = ST_VLC(8, 8);
	}
}

static int check_chunks(struct st_vlc ch, const char *field)
{
	int bad_size;

	error_quiet(1);
	bad_size = st_vlc_check(ch);
	error_quiet(-1);
	if (bad_size)
		return error("lv format: %s chunk sizes (%u,%u) are not both in 1..64", field,
			     ch.c0, ch.c1);
	return 0;
}

/* The count field's name in messages: CFAT's fahCnt, mc2RT's THCnt. */
static const char *cnt_name(const struct st_lv_format *f)
{
	return f->enc == ST_LV_MC2RT ? "THCnt" : "fahCnt";
}

int st_lv_format_check(const struct st_lv_format *f)
{
	if ((unsigned)f->enc >= ARRAY_SIZE(enc_names))
		return error("lv format: encoding %d is not nxlv, cfiat or mc2rt", (int)f->enc);
	if (f->ncores < 1 || f->ncores > ST_LV_MAX_CORES)
		return error("lv format: ncores %d is not in 1..%d", f->ncores, ST_LV_MAX_CORES);
	/* fields a format never writes do not constrain it */
	if (f->enc != ST_LV_NXLV && check_chunks(f->cnt, cnt_name(f)))
		return -1;
	if (f->timed && check_chunks(f->cc, "dCC"))
		return -1;
	return 0;
}

const char *st_lv_enc_name(enum st_lv_enc enc)
{
	return (unsigned)enc < ARRAY_SIZE(enc_names) ? enc_names[enc] : "?";
}

int st_lv_enc_parse(const char *s, enum st_lv_enc *enc)
{
	for (unsigned i = 0; i < ARRAY_SIZE(enc_names); i++)
		if (!strcasecmp(s, enc_names[i])) {
			*enc = (enum st_lv_enc)i;
			return 0;
		}
	return error("unknown load-value encoding '%s' (valid: nxlv, cfiat, mc2rt)", s);
}

uint64_t st_lv_fields_total(const struct st_lv_fields *f)
{
	return f->cc + f->ti + f->cnt + f->value;
}

/* ceil(log2 ncores), as st_ti_bits in cfmsg.c (the two streams agree on Ti). */
static unsigned ti_bits(int ncores)
{
	unsigned b = 0;

	while (b < 31 && (1 << b) < ncores)
		b++;
	return b;
}

/* ---- encoder --------------------------------------------------------------- */

void st_lv_encoder_init(struct st_lv_encoder *e, const struct st_lv_format *fmt)
{
	if (st_lv_format_check(fmt))
		die("BUG: st_lv_encoder_init with a bad format");
	memset(e, 0, sizeof(*e));
	e->fmt = *fmt;
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
	    st_lv_enc_name(e->fmt.enc), (unsigned long long)e->fields.msgs, why, m->core,
	    (unsigned long long)m->cycle,
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
	if (f->timed)
		fl->cc += pk_uvlc(&p, f->cc, m->cycle - e->pcc[c]);
	e->pcc[c] = m->cycle;
	pk_bits(&p, (uint64_t)c, tib);
	fl->ti += tib;
	if (f->enc != ST_LV_NXLV)
		fl->cnt += pk_uvlc(&p, f->cnt, m->count);
	/* bytes in address order, each LSB first: a little-endian word, 8 at a time */
	for (; i + 8 <= n; i += 8)
		pk_bits(&p, load64(value + i), 64);
	for (; i < n; i++)
		pk_bits(&p, value[i], 8);
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
	st_reader_init_bits(&d->r, buf, nbits);
	d->r.name = name ? name : "lv stream";
}

/* The head, everything before value; commits nothing unless all of it reads. */
int st_lv_get_head(struct st_lv_decoder *d, struct st_lv_msg *m)
{
	const struct st_lv_format *f = &d->fmt;
	struct st_reader *r = &d->r;
	unsigned tib = ti_bits(f->ncores);
	uint64_t start = r->pos, dcc = 0, ti = 0, count = 0, cycle = 0, at_ti, at_cnt;
	const char *field;
	enum rd_err e;

	if (start == r->nbits)
		return 1;
	field = "dCC";
	if (f->timed && (e = get_uvlc(r, f->cc, &dcc)))
		goto fail;
	at_ti = r->pos;
	field = "Ti";
	e = RD_SHORT;
	if (tib && !take(r, tib, &ti))
		goto fail;
	if (ti >= (uint64_t)f->ncores) {
		r->pos = start;
		return error("%s: message at bit %llu: Ti %llu is not a core (%d cores)", r->name,
			     (unsigned long long)start, (unsigned long long)ti, f->ncores);
	}
	if (f->timed) {
		if (dcc > UINT64_MAX - d->pcc[ti]) {
			r->pos = start;
			return error("%s: message at bit %llu: dCC %llu overflows the 64-bit "
				     "cycle of core %d (previous %llu)",
				     r->name, (unsigned long long)start, (unsigned long long)dcc,
				     (int)ti, (unsigned long long)d->pcc[ti]);
		}
		cycle = d->pcc[ti] + dcc;
	}
	at_cnt = r->pos;
	field = cnt_name(f);
	if (f->enc != ST_LV_NXLV && (e = get_uvlc(r, f->cnt, &count)))
		goto fail;

	d->pcc[ti] = cycle;
	d->fields.cc += at_ti - start;
	d->fields.ti += tib;
	d->fields.cnt += r->pos - at_cnt;
	d->fields.msgs++;
	m->core = (int)ti;
	m->cycle = cycle;
	m->count = count;
	return 0;
fail:
	r->pos = start;
	return bad(r, "message", start, field, e);
}

/*
 * The value part: n bytes in address order. The head is consumed and
 * counted already, so a failure leaves the reader where the value starts
 * (the decoder's state) and the error names that offset.
 */
int st_lv_get_value(struct st_lv_decoder *d, uint8_t *value, unsigned n)
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

/*
 * cfmsg: the control-flow trace messages (mcfTRaptor Table 3, Fig. 7).
 *
 * The encoder runs once per trace message of 1e8-instruction simulations,
 * and a recorder keeps six of them side by side (NX_b, TR_b, TR_e, each
 * timed and functional). So a message is assembled in a 64-bit
 * accumulator and handed to the writer in one st_put_bits call in the
 * common case, and the decoder reads a chunk and its connect bit with one
 * unaligned load. The bits are exactly those of st_put_uvlc / st_put_sm /
 * st_put_bits field by field (vlc.h, bitio.h); tests/unit/msgs_test.c
 * checks that against a reference encoder built from those calls.
 */
#include "streams/cfmsg.h"

#include <string.h>
#include <strings.h>

#define TA_MAX UINT64_C(0xffffffff)

/* ---- bit assembly, shared shape with lvmsg.c ----------------------------- */

/* v >> n and the low n bits of v for n up to 64 (C leaves >> 64 undefined). */
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

/* ---- strict reading ------------------------------------------------------ */

enum rd_err {
	RD_OK,
	RD_SHORT,  /* the stream ends inside the field */
	RD_BIG,	   /* a chunked value past 64 bits */
	RD_LOOSE,  /* a last chunk of zeros after the first: not minimal */
	RD_NEGZERO /* sign 1 with magnitude 0 */
};

/* Little-endian 64-bit load; compilers turn this into one mov. */
static inline uint64_t load64(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
	       (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
	       (uint64_t)p[7] << 56;
}

/*
 * Take n (1..57) bits: 57 = 64 - 7, so they sit in the 8 bytes from the
 * current one whatever the bit offset. Near the end of the buffer the
 * bytes are gathered one by one (the reader owns only ceil(nbits/8) bytes).
 */
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

/* Take n (0..64) bits. */
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

/* vlc.h's strict rules; on failure the position is left for the caller to reset. */
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

/* "<stream>: <what> at bit <at>: <field> <problem>" for the reading failures. */
static int bad(const struct st_reader *r, const char *what, uint64_t at, const char *field,
	       enum rd_err e)
{
	static const char *const problem[] = {
	    [RD_OK] = "is fine",
	    [RD_SHORT] = "runs past the end of the stream",
	    [RD_BIG] = "does not fit in 64 bits",
	    [RD_LOOSE] = "is not minimal (ends in a chunk of zeros)",
	    [RD_NEGZERO] = "is a negative zero",
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
    [ST_CF_NXB] = "nxb",
    [ST_CF_TRB] = "trb",
    [ST_CF_TRE] = "tre",
};

void st_cf_format_init(struct st_cf_format *f, enum st_cf_enc enc, int ncores, int timed)
{
	f->enc = enc;
	f->ncores = ncores;
	f->timed = timed;
	if (enc == ST_CF_TRE) {
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

static int check_chunks(struct st_vlc ch, const char *field)
{
	int bad_size;

	error_quiet(1);
	bad_size = st_vlc_check(ch);
	error_quiet(-1);
	if (bad_size)
		return error("cf format: %s chunk sizes (%u,%u) are not both in 1..64", field,
			     ch.c0, ch.c1);
	return 0;
}

int st_cf_format_check(const struct st_cf_format *f)
{
	if ((unsigned)f->enc >= ARRAY_SIZE(enc_names))
		return error("cf format: encoding %d is not nxb, trb or tre", (int)f->enc);
	if (f->ncores < 1 || f->ncores > ST_CF_MAX_CORES)
		return error("cf format: ncores %d is not in 1..%d", f->ncores, ST_CF_MAX_CORES);
	if (check_chunks(f->cnt, f->enc == ST_CF_NXB ? "SL" : "bCnt") ||
	    check_chunks(f->ta, "diffTA") || check_chunks(f->icnt, "iCnt"))
		return -1;
	/* a functional trace never reads cc, so its sizes do not matter */
	if (f->timed && check_chunks(f->cc, "diffCC"))
		return -1;
	return 0;
}

const char *st_cf_enc_name(enum st_cf_enc enc)
{
	return (unsigned)enc < ARRAY_SIZE(enc_names) ? enc_names[enc] : "?";
}

int st_cf_enc_parse(const char *s, enum st_cf_enc *enc)
{
	for (unsigned i = 0; i < ARRAY_SIZE(enc_names); i++)
		if (!strcasecmp(s, enc_names[i])) {
			*enc = (enum st_cf_enc)i;
			return 0;
		}
	return error("unknown control-flow encoding '%s' (valid: nxb, trb, tre)", s);
}

unsigned st_ti_bits(int ncores)
{
	unsigned b = 0;

	while (b < 31 && (1 << b) < ncores)
		b++;
	return b;
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

/* ---- encoder --------------------------------------------------------------- */

void st_cf_encoder_init(struct st_cf_encoder *e, const struct st_cf_format *fmt)
{
	if (st_cf_format_check(fmt))
		die("BUG: st_cf_encoder_init with a bad format");
	memset(e, 0, sizeof(*e));
	e->fmt = *fmt;
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
	    st_cf_enc_name(e->fmt.enc), (unsigned long long)e->fields.msgs, why, m->core,
	    (unsigned long long)m->cycle,
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
	unsigned tib = st_ti_bits(f->ncores);
	const char *why = cf_unencodable(e, m);
	int c = m->core;

	if (__builtin_expect(why != NULL, 0))
		cf_bug(e, m, why);
	if (f->timed)
		fl->cc += pk_uvlc(&p, f->cc, m->cycle - e->pcc[c]);
	/* kept in the functional form too: a caller may read e->pcc */
	e->pcc[c] = m->cycle;
	pk_bits(&p, (uint64_t)c, tib);
	fl->ti += tib;
	fl->cnt += pk_uvlc(&p, f->cnt, m->count);
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
				fl->ta += 1 + pk_uvlc(&p, f->ta, mag);
				e->pta[c] = m->ta;
			}
			fl->target_msgs++;
		}
	} else {
		fl->icnt += pk_uvlc(&p, f->icnt, m->icnt);
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
	st_reader_init_bits(&d->r, buf, nbits);
	d->r.name = name ? name : "cf stream";
}

/*
 * The head: every field of an exception / end message, or up to count for
 * a branch (the diagram at st_cf_put). Nothing is committed (PCC, counters,
 * *m) until the whole head has been read and checked, so a failure leaves
 * the decoder as it was, at the message start.
 */
int st_cf_get_head(struct st_cf_decoder *d, struct st_cf_msg *m)
{
	const struct st_cf_format *f = &d->fmt;
	struct st_reader *r = &d->r;
	unsigned tib = st_ti_bits(f->ncores);
	uint64_t start = r->pos, dcc = 0, ti = 0, count, icnt = 0, exc = 0, x = 0, cycle = 0;
	uint64_t at_ti, at_cnt, at_icnt;
	const char *field;
	enum rd_err e;

	if (start == r->nbits)
		return 1;
	field = "diffCC";
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
			return error("%s: message at bit %llu: diffCC %llu overflows the 64-bit "
				     "cycle of core %d (previous %llu)",
				     r->name, (unsigned long long)start, (unsigned long long)dcc,
				     (int)ti, (unsigned long long)d->pcc[ti]);
		}
		cycle = d->pcc[ti] + dcc;
	}
	at_cnt = r->pos;
	field = cnt_name(f);
	if ((e = get_uvlc(r, f->cnt, &count)))
		goto fail;
	at_icnt = r->pos;
	if (!count) {
		field = "iCnt";
		if ((e = get_uvlc(r, f->icnt, &icnt)))
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

	d->pcc[ti] = cycle; /* 0 in the functional form, as it started */
	d->fields.cc += at_ti - start;
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
		if (!take(r, 1, &neg) || (e = get_uvlc(r, f->ta, &mag)))
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

/*
 * msg_priv.h: the bit assembly and strict reading under both message codecs
 * (cfmsg.c, lvmsg.c); not for other modules.
 *
 * The encoders run once per trace message (cfmsg) or once per load (lvmsg)
 * of 1e8-instruction simulations, so a message is assembled in a 64-bit
 * accumulator and handed to the writer in one st_put_bits call in the
 * common case, and the decoders read a chunk and its connect bit with one
 * unaligned load. Everything here is static inline so each codec inlines it
 * into its per-message path. The bits are exactly those of st_put_uvlc /
 * st_put_sm / st_put_bits field by field (vlc.h, bitio.h);
 * tests/unit/msgs_test.c checks that against a reference encoder built
 * from those calls.
 */
#ifndef RAPTOR_MSG_PRIV_H
#define RAPTOR_MSG_PRIV_H

#include <stdint.h>
#include <strings.h>

#include "streams/adapt.h"
#include "streams/bitio.h"
#include "streams/vlc.h"
#include "util/util.h"

/* v >> n and the low n bits of v for n up to 64 (C leaves >> 64 undefined). */
static inline uint64_t shr(uint64_t v, unsigned n)
{
	return n >= 64 ? 0 : v >> n;
}

static inline uint64_t low(uint64_t v, unsigned n)
{
	return n >= 64 ? v : v & ((UINT64_C(1) << n) - 1);
}

/* Bits of the Ti field: ceil(log2 ncores), 0 for one core (both streams agree). */
static inline unsigned ti_bits(int ncores)
{
	/* the b with 2^(b-1) < ncores <= 2^b: the bits of ncores - 1 */
	return ncores <= 1 ? 0 : 32 - (unsigned)__builtin_clz((unsigned)ncores - 1);
}

/* ---- bit assembly -------------------------------------------------------- */

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
	RD_NEGZERO /* sign 1 with magnitude 0 (cf diffTA) */
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

/*
 * get_uvlc on a window: w holds the stream's next bits (bit 0 first), the
 * field starts at bit *at, bits from avail on are not there. 1 with the
 * value in *out and *at moved past the field; 0 (nothing moved) when the
 * field does not end inside the window or is not minimal, for get_uvlc to
 * read it again and report what is wrong. A window is at most 64 bits, so
 * a value here always fits.
 */
static inline int win_uvlc(uint64_t w, unsigned *at, unsigned avail, struct st_vlc ch,
			   uint64_t *out)
{
	unsigned p = *at, c = ch.c0, shift;
	uint64_t v, x;

	/* the first chunk, all of most values, before the loop over the others */
	if (c >= 57 || p + c + 1 > avail)
		return 0;
	v = (w >> p) & ((UINT64_C(1) << c) - 1);
	p += c + 1;
	if (!(w >> (p - 1) & 1)) {
		*at = p;
		*out = v;
		return 1;
	}
	shift = c;
	c = ch.c1;
	for (;;) {
		if (c >= 57 || p + c + 1 > avail)
			return 0;
		x = (w >> p) & ((UINT64_C(1) << c) - 1);
		p += c + 1;
		v |= x << shift;
		if (!(w >> (p - 1) & 1)) { /* the last chunk: zeros are not minimal */
			if (!x)
				return 0;
			break;
		}
		shift += c;
	}
	*at = p;
	*out = v;
	return 1;
}

/*
 * A message head both codecs share, [dCC] Ti count, read from one 64-bit
 * window at the reader's position (the stream must have 64 bits left):
 * 1 when every field ends inside the window, Ti is a core and its cycle
 * does not overflow, with the fields and their bit counts in *h (nothing
 * consumed: the caller commits at + the reader's position); 0 otherwise,
 * for the general reader to read it again and report what is wrong.
 */
struct win_head {
	uint64_t ti, dcc, count;
	unsigned cc_bits, cnt_bits, at; /* at: the bits the head takes */
};

static inline int win_head(const struct st_reader *r, int timed, struct st_vlc cc, unsigned tib,
			   int ncores, struct st_vlc cnt, const uint64_t *pcc, struct win_head *h)
{
	uint64_t w = load64(r->buf + r->pos / 8) >> (r->pos % 8);
	unsigned at = 0, avail = 64 - (unsigned)(r->pos % 8);

	h->dcc = 0;
	if ((timed && !win_uvlc(w, &at, avail, cc, &h->dcc)) || at + tib > avail)
		return 0;
	h->cc_bits = at;
	h->ti = tib ? (w >> at) & ((UINT64_C(1) << tib) - 1) : 0;
	at += tib;
	if (h->ti >= (uint64_t)ncores || !win_uvlc(w, &at, avail, cnt, &h->count) ||
	    h->dcc > UINT64_MAX - pcc[h->ti])
		return 0;
	h->cnt_bits = at - h->cc_bits - tib;
	h->at = at;
	return 1;
}

/* "<stream>: <what> at bit <at>: <field> <problem>" for the reading failures; -1. */
static inline int bad(const struct st_reader *r, const char *what, uint64_t at, const char *field,
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

/*
 * The fields every message starts with, cf and lv alike:
 *
 *   | [dCC] | Ti | ...
 *
 * dCC (timed form only, cc_name in messages: "diffCC" or "dCC") in chunks
 * cc, then Ti in ti_bits(ncores) bits. *ti gets the core and *cycle its
 * absolute cycle, pcc[core] + dCC (0 in the functional form). Nothing is
 * committed: the caller does that once the rest of its head has been
 * read. 0; or -1 with an error naming the stream, the field and the
 * message start, and the reader back at the start.
 */
static inline int get_cc_ti(struct st_reader *r, int timed, struct st_vlc cc, const char *cc_name,
			    int ncores, const uint64_t *pcc, uint64_t *ti, uint64_t *cycle)
{
	uint64_t start = r->pos, dcc = 0;
	unsigned tib = ti_bits(ncores);
	const char *field = cc_name;
	enum rd_err e;

	*ti = 0;
	*cycle = 0;
	if (timed && (e = get_uvlc(r, cc, &dcc)))
		goto fail;
	field = "Ti";
	e = RD_SHORT;
	if (tib && !take(r, tib, ti))
		goto fail;
	if (*ti >= (uint64_t)ncores) {
		r->pos = start;
		return error("%s: message at bit %llu: Ti %llu is not a core (%d cores)", r->name,
			     (unsigned long long)start, (unsigned long long)*ti, ncores);
	}
	if (timed) {
		if (dcc > UINT64_MAX - pcc[*ti]) {
			r->pos = start;
			return error("%s: message at bit %llu: %s %llu overflows the 64-bit "
				     "cycle of core %d (previous %llu)",
				     r->name, (unsigned long long)start, cc_name,
				     (unsigned long long)dcc, (int)*ti,
				     (unsigned long long)pcc[*ti]);
		}
		*cycle = pcc[*ti] + dcc;
	}
	return 0;
fail:
	r->pos = start;
	return bad(r, "message", start, field, e);
}

/* ---- adaptive chunks (TR_a, CFiat_a; adapt.h) ------------------------------ */

/* The sizes a field holds for its next value: fixed ones, or the adaptive st's. */
static inline struct st_vlc ad_sizes(int adapt, struct st_vlc fixed, const struct st_adapt *st)
{
	return adapt ? st->ch : fixed;
}

/* A value just coded in an adaptive field (nothing if the format is fixed). */
static inline void ad_note(int adapt, struct st_adapt *st, uint64_t v)
{
	if (adapt)
		st_adapt_note(st, v);
}

/* ---- formats ------------------------------------------------------------- */

/* "<stream> format: <field> chunk sizes (c0,c1) are not both in 1..64", or 0. */
static inline int check_chunks(struct st_vlc ch, const char *stream, const char *field)
{
	int bad_size;

	error_quiet(1);
	bad_size = st_vlc_check(ch);
	error_quiet(-1);
	if (bad_size)
		return error("%s format: %s chunk sizes (%u,%u) are not both in 1..64", stream,
			     field, ch.c0, ch.c1);
	return 0;
}

/* The index of s (case-insensitive) in names[0..n-1], or -1. */
static inline int enc_index(const char *const *names, unsigned n, const char *s)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcasecmp(s, names[i]))
			return (int)i;
	return -1;
}

#endif

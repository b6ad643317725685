#include "streams/vlc.h"

#include <assert.h>

/* v >> n and the low n bits of v, for n up to 64 (C leaves >> 64 undefined). */
static inline uint64_t shr(uint64_t v, unsigned n)
{
	return n >= 64 ? 0 : v >> n;
}

static inline uint64_t low(uint64_t v, unsigned n)
{
	return n >= 64 ? v : v & ((UINT64_C(1) << n) - 1);
}

int st_vlc_check(struct st_vlc ch)
{
	if (ch.c0 < 1 || ch.c0 > 64 || ch.c1 < 1 || ch.c1 > 64)
		return error("chunk sizes (%u,%u) are not both in 1..64", ch.c0, ch.c1);
	return 0;
}

void st_put_uvlc(struct st_writer *w, struct st_vlc ch, uint64_t v)
{
	unsigned c = ch.c0;

	assert(ch.c0 >= 1 && ch.c0 <= 64 && ch.c1 >= 1 && ch.c1 <= 64);
	for (;;) {
		uint64_t rest = shr(v, c);

		st_put_bits(w, low(v, c), c);
		st_put_bit(w, rest != 0); /* C: more chunks follow */
		if (!rest)
			return;
		v = rest;
		c = ch.c1;
	}
}

int st_get_uvlc(struct st_reader *r, struct st_vlc ch, uint64_t *out)
{
	uint64_t start = r->pos, v = 0, chunk;
	unsigned shift = 0, c = ch.c0;
	int more;

	if (st_vlc_check(ch))
		return -1;
	for (;;) {
		if (shift >= 64) {
			error("%s: chunked value at bit %llu does not fit in 64 bits (chunk at bit "
			      "%llu)",
			      r->name, (unsigned long long)start, (unsigned long long)r->pos);
			goto fail;
		}
		if (st_get_bits(r, c, &chunk))
			goto fail;
		if (shift + c > 64 && shr(chunk, 64 - shift)) {
			error("%s: chunked value at bit %llu does not fit in 64 bits", r->name,
			      (unsigned long long)start);
			goto fail;
		}
		if (st_get_bit(r, &more))
			goto fail;
		if (!more && !chunk && shift) {
			error("%s: chunked value at bit %llu is not minimal (last chunk of zeros "
			      "at bit %llu)",
			      r->name, (unsigned long long)start,
			      (unsigned long long)(r->pos - c - 1));
			goto fail;
		}
		v |= chunk << shift;
		shift += c;
		if (!more)
			break;
		c = ch.c1;
	}
	*out = v;
	return 0;
fail:
	r->pos = start;
	return -1;
}

void st_put_sm(struct st_writer *w, struct st_vlc ch, int negative, uint64_t mag)
{
	st_put_bit(w, negative && mag);
	st_put_uvlc(w, ch, mag);
}

int st_get_sm(struct st_reader *r, struct st_vlc ch, int *negative, uint64_t *mag)
{
	uint64_t start = r->pos, m;
	int s;

	if (st_get_bit(r, &s))
		return -1;
	if (st_get_uvlc(r, ch, &m)) {
		r->pos = start;
		return -1;
	}
	if (s && !m) {
		r->pos = start;
		return error("%s: signed value at bit %llu is a negative zero", r->name,
			     (unsigned long long)start);
	}
	*negative = s;
	*mag = m;
	return 0;
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

void st_put_svlc(struct st_writer *w, struct st_vlc ch, int64_t v)
{
	st_put_sm(w, ch, v < 0, magnitude(v));
}

int st_get_svlc(struct st_reader *r, struct st_vlc ch, int64_t *v)
{
	uint64_t start = r->pos, m;
	int neg;

	if (st_get_sm(r, ch, &neg, &m))
		return -1;
	if (m > (neg ? UINT64_C(1) << 63 : (uint64_t)INT64_MAX)) {
		r->pos = start;
		return error("%s: signed value at bit %llu does not fit in 64 bits", r->name,
			     (unsigned long long)start);
	}
	/* -(2^63) is INT64_MIN; negate in unsigned arithmetic to stay defined */
	*v = neg ? (int64_t)((uint64_t)0 - m) : (int64_t)m;
	return 0;
}

unsigned st_uvlc_chunks(struct st_vlc ch, uint64_t v)
{
	unsigned n = 1;

	for (v = shr(v, ch.c0); v; v = shr(v, ch.c1))
		n++;
	return n;
}

unsigned st_uvlc_len(struct st_vlc ch, uint64_t v)
{
	return ch.c0 + 1 + (st_uvlc_chunks(ch, v) - 1) * (ch.c1 + 1);
}

unsigned st_svlc_len(struct st_vlc ch, int64_t v)
{
	return 1 + st_uvlc_len(ch, magnitude(v));
}

#include "streams/bitio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void st_writer_init(struct st_writer *w)
{
	memset(w, 0, sizeof(*w));
}

void st_writer_release(struct st_writer *w)
{
	free(w->buf);
	st_writer_init(w);
}

/*
 * Make room for the bytes holding bits up to absolute bit `end` (exclusive),
 * and 8 more: st_put_bits stores a whole 64-bit word from the byte the
 * field starts in, and a field may spill into a ninth byte.
 */
static void reserve(struct st_writer *w, uint64_t end)
{
	size_t need = (size_t)((end + 7) / 8 - w->base) + 8;

	if (need <= w->alloc)
		return;
	size_t n = w->alloc ? w->alloc : 64;

	while (n < need)
		n *= 2;
	w->buf = xrealloc(w->buf, n);
	memset(w->buf + w->alloc, 0, n - w->alloc);
	w->alloc = n;
}

/* Little-endian 64-bit load and store: one mov each on the usual hosts. */
static inline uint64_t get_le64(const uint8_t *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	return x;
}

static inline void put_le64(uint8_t *p, uint64_t x)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	memcpy(p, &x, 8);
}

void st_put_bits(struct st_writer *w, uint64_t v, unsigned n)
{
	if (!n)
		return;
	if (n < 64)
		v &= (UINT64_C(1) << n) - 1;
	reserve(w, w->nbits + n);

	/*
	 * Bit i of the stream is bit i % 8 of byte i / 8, so the 8 bytes from
	 * the one holding the next bit, read as a little-endian word, are the
	 * stream bits from that byte's bit 0 on. The bits past w->nbits are 0
	 * (reserve and flush keep them so), so OR-ing v in at the bit offset
	 * writes the field; what does not fit in the word (off + n > 64, at
	 * most 7 bits) goes into the ninth byte.
	 */
	uint8_t *p = w->buf + (size_t)(w->nbits / 8 - w->base);
	unsigned off = w->nbits % 8;

	put_le64(p, get_le64(p) | v << off);
	if (off + n > 64)
		p[8] |= (uint8_t)(v >> (64 - off));
	w->nbits += n;
}

void st_put_bit(struct st_writer *w, int bit)
{
	st_put_bits(w, !!bit, 1);
}

void st_writer_pad(struct st_writer *w)
{
	if (w->nbits % 8)
		st_put_bits(w, 0, 8 - w->nbits % 8);
}

const uint8_t *st_writer_buf(const struct st_writer *w, size_t *nbytes)
{
	if (nbytes)
		*nbytes = (size_t)((w->nbits + 7) / 8 - w->base);
	return w->buf;
}

uint8_t *st_writer_detach(struct st_writer *w, size_t *nbytes)
{
	size_t n = (size_t)((w->nbits + 7) / 8 - w->base);
	uint8_t *p = w->buf;

	if (!n) {
		free(p);
		p = NULL;
	}
	*nbytes = n;
	/* The stream goes on from the next byte boundary, held bytes handed over. */
	w->base = (w->nbits + 7) / 8;
	w->nbits = w->base * 8;
	w->buf = NULL;
	w->alloc = 0;
	return p;
}

int st_writer_flush(struct st_writer *w, FILE *f, const char *name)
{
	size_t whole = (size_t)(w->nbits / 8 - w->base);

	if (!whole)
		return 0;
	if (f && fwrite(w->buf, 1, whole, f) != whole)
		return error("%s: writing %zu bytes at byte %llu: %s", name ? name : "bit stream",
			     whole, (unsigned long long)w->base, strerror(errno));
	if (w->nbits % 8) {
		w->buf[0] = w->buf[whole];
		memset(w->buf + 1, 0, w->alloc - 1);
	} else {
		memset(w->buf, 0, w->alloc);
	}
	w->base += whole;
	return 0;
}

void st_reader_init(struct st_reader *r, const void *buf, size_t nbytes)
{
	st_reader_init_bits(r, buf, (uint64_t)nbytes * 8);
}

void st_reader_init_bits(struct st_reader *r, const void *buf, uint64_t nbits)
{
	r->buf = buf;
	r->nbits = nbits;
	r->pos = 0;
	r->name = "bit stream";
}

int st_get_bits(struct st_reader *r, unsigned n, uint64_t *out)
{
	uint64_t v = 0, pos = r->pos;
	unsigned got = 0;

	if (n > 64)
		return error("%s: %u-bit field at bit %llu: fields are at most 64 bits", r->name, n,
			     (unsigned long long)r->pos);
	if (n > r->nbits - r->pos)
		return error("%s: %u-bit field at bit %llu runs past the end (%llu bits)", r->name,
			     n, (unsigned long long)r->pos, (unsigned long long)r->nbits);
	while (got < n) {
		unsigned off = pos % 8, k = 8 - off;
		uint64_t bits;

		if (k > n - got)
			k = n - got;
		bits = (r->buf[pos / 8] >> off) & ((1u << k) - 1);
		v |= bits << got;
		got += k;
		pos += k;
	}
	r->pos = pos;
	*out = v;
	return 0;
}

int st_get_bit(struct st_reader *r, int *bit)
{
	uint64_t v;

	if (st_get_bits(r, 1, &v))
		return -1;
	*bit = (int)v;
	return 0;
}

char *st_bits_string(const void *buf, uint64_t from, uint64_t n, char *out)
{
	const uint8_t *b = buf;

	for (uint64_t i = 0; i < n; i++)
		out[i] = '0' + ((b[(from + i) / 8] >> ((from + i) % 8)) & 1);
	out[n] = 0;
	return out;
}

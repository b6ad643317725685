/*
 * leb: LEB128 varints and zigzag deltas, for the packed message lists
 * (replay/cfwalk.c, replay/pmsgs.c). A uint64_t takes 1 to 10 bytes, 7
 * bits a byte, least significant first, bit 7 set on all but the last.
 */
#ifndef RAPTOR_LEB_H
#define RAPTOR_LEB_H

#include <stdint.h>

/* the most one value takes */
#define LEB_MAX 10

static inline void put_uleb(uint8_t **p, uint64_t v)
{
	do {
		*(*p)++ = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static inline uint64_t get_uleb(const uint8_t **p)
{
	uint64_t v = 0;
	unsigned sh = 0;
	uint8_t b;

	do {
		b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
	} while (b & 0x80);
	return v;
}

/* a - b, either sign, as a small unsigned number (modulo 2^64) */
static inline uint64_t zigzag(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
}

/* the a of zigzag(a, b) */
static inline uint64_t unzigzag(uint64_t z, uint64_t b)
{
	return b + ((z >> 1) ^ (0 - (z & 1)));
}

#endif

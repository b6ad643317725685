/*
 * bitcount: population count six ways (MiBench style). All methods must agree
 * on pseudo-random words, and over 0..2^k-1 the total must be k * 2^(k-1).
 */
#include "common.h"

#define N_RANDOM 600
#define RANGE_BITS 9

typedef unsigned (*count_fn)(uint32_t);

/* Test every bit with a shift. */
static unsigned count_shift(uint32_t x)
{
	unsigned n = 0;

	for (int i = 0; i < 32; i++)
		n += (x >> i) & 1u;
	return n;
}

/* Kernighan: x & (x - 1) clears the lowest set bit. */
static unsigned count_kernighan(uint32_t x)
{
	unsigned n = 0;

	while (x != 0) {
		x &= x - 1;
		n++;
	}
	return n;
}

static unsigned count_nibble(uint32_t x)
{
	static const uint8_t bits4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
	unsigned n = 0;

	for (; x != 0; x >>= 4)
		n += bits4[x & 15u];
	return n;
}

static uint8_t bits8[256];

static unsigned count_byte(uint32_t x)
{
	return bits8[x & 0xFFu] + bits8[(x >> 8) & 0xFFu] + bits8[(x >> 16) & 0xFFu] + bits8[x >> 24];
}

/* SWAR: add neighbouring fields in parallel, widths 1, 2, 4, then multiply. */
static unsigned count_swar(uint32_t x)
{
	x = x - ((x >> 1) & 0x55555555u);
	x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
	x = (x + (x >> 4)) & 0x0F0F0F0Fu;
	return (x * 0x01010101u) >> 24;
}

static unsigned count_builtin(uint32_t x)
{
	return (unsigned)__builtin_popcount(x);
}

static const count_fn methods[] = {count_shift, count_kernighan, count_nibble,
				   count_byte,  count_swar,      count_builtin};
static const char *const names[] = {"shift", "kernighan", "nibble", "byte", "swar", "builtin"};

int main(void)
{
	uint32_t seed = 0xB17C0047u;
	uint32_t total[ARRAY_SIZE(methods)] = {0};

	/* The byte table from the recurrence bits(i) = bits(i/2) + (i&1). */
	for (int i = 1; i < 256; i++)
		bits8[i] = (uint8_t)(bits8[i / 2] + (i & 1));

	for (int i = 0; i < N_RANDOM; i++) {
		uint32_t x = rng_next(&seed);

		/* Sparse and dense words too, not just ~16 bits set. */
		if (i % 3 == 1)
			x &= rng_next(&seed);
		else if (i % 3 == 2)
			x |= rng_next(&seed);
		unsigned want = count_shift(x);
		for (size_t m = 1; m < ARRAY_SIZE(methods); m++)
			if (methods[m](x) != want)
				return fail("bitcount", "%s(%08lx)=%u, shift says %u", names[m],
					    (unsigned long)x, methods[m](x), want);
	}
	for (uint32_t x = 0; x < (1u << RANGE_BITS); x++)
		for (size_t m = 0; m < ARRAY_SIZE(methods); m++)
			total[m] += methods[m](x);
	for (size_t m = 0; m < ARRAY_SIZE(methods); m++)
		if (total[m] != RANGE_BITS << (RANGE_BITS - 1))
			return fail("bitcount", "%s: total %lu over 0..%u, want %u", names[m],
				    (unsigned long)total[m], (1u << RANGE_BITS) - 1,
				    RANGE_BITS << (RANGE_BITS - 1));
	/* Edge cases: none, all, and one bit at each end. */
	static const uint32_t edge[] = {0u, 0xFFFFFFFFu, 1u, 0x80000000u};
	static const unsigned edge_want[] = {0, 32, 1, 1};
	for (size_t e = 0; e < ARRAY_SIZE(edge); e++)
		for (size_t m = 0; m < ARRAY_SIZE(methods); m++)
			if (methods[m](edge[e]) != edge_want[e])
				return fail("bitcount", "%s(%08lx)=%u", names[m],
					    (unsigned long)edge[e], methods[m](edge[e]));
	printf("bitcount ok: %d methods agree\n", (int)ARRAY_SIZE(methods));
	return 0;
}

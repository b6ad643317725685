/*
 * radix (multicore): parallel LSD radix sort of 32-bit keys, 8 bits a pass.
 *
 * Per pass: every core histograms its slice; barrier; every core computes
 * where its keys of each digit go (all smaller digits, plus the same digit
 * in lower-numbered cores' slices) and scatters them; barrier. Cores and
 * slices are in order, so each pass is stable and the sort is correct.
 * Core 0 checks the result is ordered and is a permutation of the input
 * (count, sum, xor and sum of squares of the keys, recomputed serially).
 * Works for any num_cores() from 1 to 8.
 */
#include "common.h"

#define N 1024
#define RADIX 256
#define PASSES 4

static uint32_t keys[N], tmp[N];
static uint32_t hist[RAPTOR_MAX_CORES][RADIX];
static struct barrier bar = BARRIER_INIT;

static uint32_t key(uint32_t i)
{
	uint32_t x = (i + 0x1234u) * 0x2C1B3C6Du;

	x ^= x >> 12;
	x *= 0x297A2D39u;
	return x ^ (x >> 15);
}

static void slice(unsigned core, unsigned n, uint32_t *lo, uint32_t *hi)
{
	uint32_t chunk = (N + n - 1) / n;

	*lo = core * chunk < N ? core * chunk : N;
	*hi = *lo + chunk < N ? *lo + chunk : N;
}

/* Where this core's first key with each digit goes. */
static void offsets(unsigned me, unsigned n, uint32_t off[RADIX])
{
	uint32_t base = 0;

	for (int d = 0; d < RADIX; d++) {
		uint32_t before_me = 0, all = 0;

		for (unsigned c = 0; c < n; c++) {
			if (c < me)
				before_me += hist[c][d];
			all += hist[c][d];
		}
		off[d] = base + before_me;
		base += all;
	}
}

static void sort_pass(unsigned me, unsigned n, int pass, const uint32_t *src, uint32_t *dst)
{
	uint32_t lo, hi, off[RADIX];
	int shift = 8 * pass;

	slice(me, n, &lo, &hi);
	for (int d = 0; d < RADIX; d++)
		hist[me][d] = 0;
	for (uint32_t i = lo; i < hi; i++)
		hist[me][(src[i] >> shift) & (RADIX - 1)]++;
	barrier_wait(&bar);
	offsets(me, n, off);
	for (uint32_t i = lo; i < hi; i++)
		dst[off[(src[i] >> shift) & (RADIX - 1)]++] = src[i];
	/* dst is complete, and nobody rewrites hist before all have read it. */
	barrier_wait(&bar);
}

static int check(unsigned n)
{
	uint64_t sum = 0, sq = 0, want_sum = 0, want_sq = 0;
	uint32_t x = 0, want_x = 0;

	for (uint32_t i = 0; i < N; i++) {
		uint32_t k = key(i);

		want_sum += k, want_x ^= k, want_sq += (uint64_t)(k >> 16) * (k >> 16);
		sum += keys[i], x ^= keys[i], sq += (uint64_t)(keys[i] >> 16) * (keys[i] >> 16);
		if (i > 0 && keys[i - 1] > keys[i])
			return fail("radix", "%u cores: keys[%lu] = %08lx < keys[%lu] = %08lx", n,
				    (unsigned long)i, (unsigned long)keys[i], (unsigned long)i - 1,
				    (unsigned long)keys[i - 1]);
	}
	if (sum != want_sum || x != want_x || sq != want_sq)
		return fail("radix", "%u cores: output is not a permutation of the input", n);
	return 0;
}

int main(void)
{
	unsigned me = core_id(), n = num_cores();
	uint32_t lo, hi;

	slice(me, n, &lo, &hi);
	for (uint32_t i = lo; i < hi; i++)
		keys[i] = key(i);
	barrier_wait(&bar);
	/* An even number of passes ends back in keys[]. */
	for (int p = 0; p < PASSES; p++)
		sort_pass(me, n, p, p % 2 ? tmp : keys, p % 2 ? keys : tmp);
	if (me != 0)
		return 0;
	if (check(n) != 0)
		return 1;
	printf("radix ok: %u cores sorted %d keys, min %08lx max %08lx\n", n, N,
	       (unsigned long)keys[0], (unsigned long)keys[N - 1]);
	return 0;
}

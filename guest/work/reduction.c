/*
 * reduction (multicore): parallel sums over a shared array.
 *
 * Each round every core fills its slice of data[], meets the others at a
 * barrier, then sums the *next* core's slice (so it reads memory another core
 * wrote) and adds its partial sum to the round's total twice: once under a
 * spinlock, once with an LDREX/STREX atomic add. Core 0 then checks both
 * totals against a closed form (linear rounds) or its own serial sum (hashed
 * rounds). Works for any num_cores() from 1 to 8.
 */
#include "common.h"

#define N 2048
#define ROUNDS 4

static uint32_t data[N];
static uint64_t locked_total[ROUNDS];
static volatile uint32_t atomic_total[ROUNDS];
static spinlock_t lock = SPINLOCK_INIT;
static struct barrier bar = BARRIER_INIT;

/* Rounds alternate a linear fill (closed-form sum) and a hashed one. */
static uint32_t value(int round, uint32_t i)
{
	if (round % 2 == 0)
		return i * (uint32_t)(round + 1) + (uint32_t)round;
	uint32_t x = i * 0x9E3779B1u + (uint32_t)round;
	return (x ^ (x >> 15)) & 0xFFFFu;
}

static void slice(unsigned core, unsigned n, uint32_t *lo, uint32_t *hi)
{
	uint32_t chunk = (N + n - 1) / n;

	*lo = core * chunk < N ? core * chunk : N;
	*hi = *lo + chunk < N ? *lo + chunk : N;
}

static int check(unsigned n)
{
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t want = 0;

		if (r % 2 == 0) {
			/* sum of i*(r+1) + r over 0..N-1 */
			want = (uint64_t)(r + 1) * N * (N - 1) / 2 + (uint64_t)r * N;
		} else {
			for (uint32_t i = 0; i < N; i++)
				want += value(r, i);
		}
		if (locked_total[r] != want || atomic_total[r] != (uint32_t)want)
			return fail("reduction", "round %d on %u cores: locked %llu atomic %lu, want %llu",
				    r, n, (unsigned long long)locked_total[r],
				    (unsigned long)atomic_total[r], (unsigned long long)want);
	}
	return 0;
}

int main(void)
{
	unsigned me = core_id(), n = num_cores();
	uint32_t lo, hi;

	for (int r = 0; r < ROUNDS; r++) {
		slice(me, n, &lo, &hi);
		for (uint32_t i = lo; i < hi; i++)
			data[i] = value(r, i);
		barrier_wait(&bar);

		uint64_t part = 0;
		slice((me + 1) % n, n, &lo, &hi);
		for (uint32_t i = lo; i < hi; i++)
			part += data[i];
		spin_lock(&lock);
		locked_total[r] += part;
		spin_unlock(&lock);
		atomic_add_u32(&atomic_total[r], (uint32_t)part);
		/* Nobody refills data[] until every core has read its slice. */
		barrier_wait(&bar);
	}
	if (me != 0)
		return 0;
	if (check(n) != 0)
		return 1;
	printf("reduction ok: %u cores, %d rounds of %d words\n", n, ROUNDS, N);
	return 0;
}

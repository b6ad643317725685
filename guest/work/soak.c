/*
 * soak (multicore, long): ~10^8 instructions of shared-memory work, for the
 * replay benchmarks (bench/replay-index.sh) that need a long recording.
 *
 * A ring of N words goes through ROUNDS reversible rounds and then back
 * through their inverses, so the check needs no pinned answer: the data must
 * come back to the generated input bit for bit, at any core count. A round
 * is two lifting steps (as in a lifting wavelet): every even word adds a
 * mixing function of its two odd neighbours, a barrier, every odd word XORs
 * in another function of its even neighbours, a barrier. A step only reads
 * the parity it does not write, so the cores split the ring into slices and
 * read across the slice edges what other cores wrote. After each forward
 * round every core adds its slice's sum to fwd[round] under a spinlock; the
 * backward pass, reaching the same state again, adds to bwd[round] with an
 * LDREX/STREX atomic add: core 0 checks the two agree round by round, and
 * that a locked counter of visited words is exact. Works for any
 * num_cores() from 1 to 8.
 */
#include "common.h"

#define N 16384 /* words in the ring (64 KiB): even, so parities alternate around it */
#ifndef ROUNDS
#define ROUNDS 115 /* about 1.05 * 10^8 instructions at m3-O2, all cores together */
#endif

static uint32_t ring[N];
static uint64_t fwd[ROUNDS];
static volatile uint32_t bwd[ROUNDS];
static uint64_t visited;
static spinlock_t lock = SPINLOCK_INIT;
static struct barrier bar = BARRIER_INIT;

static uint32_t input(uint32_t i)
{
	uint32_t s = i * 0x9E3779B9u + 0x2545F491u;

	rng_next(&s);
	return rng_next(&s);
}

static uint32_t rotl(uint32_t x, unsigned k)
{
	k &= 31;
	return k ? x << k | x >> (32 - k) : x;
}

/* The even step's function: data-dependent branches and a multiply. */
static uint32_t f(uint32_t a, uint32_t b, uint32_t round)
{
	uint32_t x = a ^ rotl(b, round + 7);

	if (x & 1)
		x = x * 0x85EBCA6Bu + round;
	else
		x = (x >> 3) ^ (a > b ? a - b : b - a);
	return x ^ (x >> 13);
}

/* The odd step's function: a small loop whose trip count is data-dependent. */
static uint32_t g(uint32_t a, uint32_t b, uint32_t round)
{
	uint32_t x = a + b + round;

	for (uint32_t k = (a ^ b) & 3; k; k--)
		x = rotl(x, 5) * 0xC2B2AE35u;
	return x;
}

static void slice(unsigned core, unsigned n, uint32_t *lo, uint32_t *hi)
{
	/* whole pairs, so a slice starts on an even word */
	uint32_t chunk = ((N / 2 + n - 1) / n) * 2;

	*lo = core * chunk < N ? core * chunk : N;
	*hi = *lo + chunk < N ? *lo + chunk : N;
}

#define LEFT(i) ring[((i) + N - 1) % N]
#define RIGHT(i) ring[((i) + 1) % N]

static void even_step(uint32_t lo, uint32_t hi, uint32_t round, int undo)
{
	for (uint32_t i = lo; i < hi; i += 2) {
		uint32_t d = f(LEFT(i), RIGHT(i), round);

		ring[i] = undo ? ring[i] - d : ring[i] + d;
	}
}

static void odd_step(uint32_t lo, uint32_t hi, uint32_t round)
{
	for (uint32_t i = lo + 1; i < hi; i += 2)
		ring[i] ^= g(LEFT(i), RIGHT(i), round);
}

static uint64_t slice_sum(uint32_t lo, uint32_t hi)
{
	uint64_t s = 0;

	for (uint32_t i = lo; i < hi; i++)
		s += ring[i];
	return s;
}

static int check(unsigned n)
{
	for (int r = 0; r < ROUNDS; r++)
		if ((uint32_t)fwd[r] != bwd[r])
			return fail("soak",
				    "round %d on %u cores: forward sum %08lx, backward %08lx", r, n,
				    (unsigned long)(uint32_t)fwd[r], (unsigned long)bwd[r]);
	for (uint32_t i = 0; i < N; i++)
		if (ring[i] != input(i))
			return fail("soak", "word %lu on %u cores: %08lx, input %08lx",
				    (unsigned long)i, n, (unsigned long)ring[i],
				    (unsigned long)input(i));
	if (visited != 2ull * ROUNDS * N)
		return fail("soak", "%u cores visited %llu words, want %llu", n,
			    (unsigned long long)visited, 2ull * ROUNDS * N);
	return 0;
}

int main(void)
{
	unsigned me = core_id(), n = num_cores();
	uint32_t lo, hi;

	slice(me, n, &lo, &hi);
	for (uint32_t i = lo; i < hi; i++)
		ring[i] = input(i);
	barrier_wait(&bar);

	for (int r = 0; r < ROUNDS; r++) {
		even_step(lo, hi, (uint32_t)r, 0);
		barrier_wait(&bar);
		odd_step(lo, hi, (uint32_t)r);
		barrier_wait(&bar);
		uint64_t s = slice_sum(lo, hi);
		spin_lock(&lock);
		fwd[r] += s;
		visited += hi - lo;
		spin_unlock(&lock);
	}
	for (int r = ROUNDS - 1; r >= 0; r--) {
		/* the state after round r: the same sum as on the way forward */
		atomic_add_u32(&bwd[r], (uint32_t)slice_sum(lo, hi));
		spin_lock(&lock);
		visited += hi - lo;
		spin_unlock(&lock);
		odd_step(lo, hi, (uint32_t)r); /* XOR is its own inverse */
		barrier_wait(&bar);
		even_step(lo, hi, (uint32_t)r, 1);
		barrier_wait(&bar);
	}
	if (me != 0)
		return 0;
	if (check(n) != 0)
		return 1;
	printf("soak ok: %u cores, %d rounds there and back over %d words\n", n, ROUNDS, N);
	return 0;
}

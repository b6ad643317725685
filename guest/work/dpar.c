/*
 * dpar (multicore, double precision): for the Cortex-M7 (FPv5-D16) builds.
 *
 * Each round every core integrates its slice of a function with the
 * midpoint rule in double precision (4/(1+x^2) gives pi; sqrt(1-x^2) gives
 * pi/4, with fused multiply-adds and a square root per point) and writes its
 * partial sum to its own slot; after a barrier core 0 adds the slots in core
 * order, recomputes every slice itself, and checks both bit for bit, and
 * the totals against pi to 1e-5. The sums depend on the partition only, not
 * on the interleaving. Works for any num_cores() from 1 to 8.
 */
#include <math.h>

#include "common.h"

#define N 1200
#define ROUNDS 2

static volatile double part[ROUNDS][8];
static struct barrier bar = BARRIER_INIT;

static double f(int round, double x)
{
	if (round == 0)
		return 4.0 / fma(x, x, 1.0);
	return 4.0 * sqrt(fma(-x, x, 1.0));
}

static double slice_sum(int round, unsigned core, unsigned n)
{
	unsigned chunk = (N + n - 1) / n, lo = core * chunk, hi = lo + chunk;
	double s = 0.0, h = 1.0 / N;

	if (hi > N)
		hi = N;
	for (unsigned i = lo; i < hi; i++)
		s += f(round, ((double)i + 0.5) * h) * h;
	return s;
}

int main(void)
{
	unsigned me = core_id(), n = num_cores();

	for (int r = 0; r < ROUNDS; r++)
		part[r][me] = slice_sum(r, me, n);
	barrier_wait(&bar);
	if (me != 0)
		return 0;
	for (int r = 0; r < ROUNDS; r++) {
		double total = 0.0, again = 0.0;

		for (unsigned c = 0; c < n; c++) {
			double mine = slice_sum(r, c, n);

			if (mine != part[r][c])
				return fail("dpar", "round %d: core %u's slice differs", r, c);
			total += part[r][c];
			again += mine;
		}
		if (total != again || fabs(total - M_PI) > 1e-5)
			return fail("dpar", "round %d on %u cores: pi = %ld/1e9", r, n,
				    (long)(total * 1e9));
	}
	printf("dpar ok: %u cores, %d points\n", n, N);
	return 0;
}

/*
 * lu (multicore): parallel LU decomposition (Doolittle, no pivoting) of an
 * integer matrix built as A = L0 * U0, with L0 unit lower triangular and U0
 * upper triangular with a non-zero diagonal, all small integers.
 *
 * Because the factorisation is unique, elimination must give back exactly
 * L0 and U0, and every multiplier a[i][k] / a[k][k] divides exactly: the
 * whole computation stays in integers. Rows are dealt out cyclically
 * (row i to core i mod n) and a barrier separates the elimination steps.
 * Core 0 checks the packed result against L0 \ U0 and multiplies L * U back
 * to A. Works for any num_cores() from 1 to 8.
 */
#include "common.h"

#define N 20

static int32_t a[N][N], a0[N][N];
static volatile uint32_t inexact; /* multipliers that did not divide */
static struct barrier bar = BARRIER_INIT;

/* L0 (below the diagonal) and U0 (on and above it), from a hash of (i, j). */
static int32_t l0(int i, int j)
{
	if (i == j)
		return 1;
	if (j > i)
		return 0;
	return (int32_t)((uint32_t)(i * 7 + j * 13 + 5) % 3) - 1; /* -1, 0, 1 */
}

static int32_t u0(int i, int j)
{
	if (j < i)
		return 0;
	if (i == j) {
		/* Pivots +-1..3, never 0; not all +-1, or division is trivial. */
		uint32_t g = (uint32_t)(i * 5 + 1);
		return (g % 2 ? 1 : -1) * (int32_t)(1 + g % 3);
	}
	return (int32_t)((uint32_t)(i * 31 + j * 17 + 3) % 9) - 4;
}

static void build_rows(unsigned me, unsigned n)
{
	for (int i = (int)me; i < N; i += (int)n)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;

			for (int k = 0; k < N; k++)
				s += l0(i, k) * u0(k, j);
			a[i][j] = a0[i][j] = s;
		}
}

/* Step k: every row below k loses its multiple of row k. */
static void eliminate(unsigned me, unsigned n)
{
	for (int k = 0; k < N - 1; k++) {
		int first = k + 1 + (int)((me + n - (unsigned)(k + 1) % n) % n);

		for (int i = first; i < N; i += (int)n) {
			int32_t l = a[i][k] / a[k][k];

			if (l * a[k][k] != a[i][k])
				atomic_add_u32(&inexact, 1);
			a[i][k] = l;
			for (int j = k + 1; j < N; j++)
				a[i][j] -= l * a[k][j];
		}
		/* Row k+1 is final only when every core has finished step k. */
		barrier_wait(&bar);
	}
}

static int check(unsigned n)
{
	if (inexact != 0)
		return fail("lu", "%u cores: %lu multipliers did not divide", n,
			    (unsigned long)inexact);
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			int32_t want = j < i ? l0(i, j) : u0(i, j);

			if (a[i][j] != want)
				return fail("lu", "%u cores: lu[%d][%d] = %ld, want %ld", n, i, j,
					    (long)a[i][j], (long)want);
		}
	/* And the other way: L * U is A again. */
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			int32_t s = 0;

			for (int k = 0; k <= (i < j ? i : j); k++)
				s += (k == i ? 1 : a[i][k]) * a[k][j];
			if (s != a0[i][j])
				return fail("lu", "%u cores: (L*U)[%d][%d] = %ld, A has %ld", n, i, j,
					    (long)s, (long)a0[i][j]);
		}
	return 0;
}

/* det A = det U: the product of the pivots. */
static int64_t determinant(void)
{
	int64_t d = 1;

	for (int i = 0; i < N; i++)
		d *= a[i][i];
	return d;
}

int main(void)
{
	unsigned me = core_id(), n = num_cores();

	build_rows(me, n);
	barrier_wait(&bar);
	eliminate(me, n);
	if (me != 0)
		return 0;
	if (check(n) != 0)
		return 1;
	printf("lu ok: %u cores, %dx%d, det = %lld\n", n, N, N, (long long)determinant());
	return 0;
}

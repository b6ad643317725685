/*
 * matmul: dense integer matrix multiply, C = A * B, N x N.
 *   int32: computed in i-j-k and i-k-j loop orders (different access
 *          patterns, same sums) and checked with Freivalds' test
 *          C v == A (B v) for a few random vectors v.
 *   int64: entries up to +-2^20, so products need the 64-bit accumulator
 *          (SMULL/SMLAL), with the same Freivalds test in 64 bits.
 * A 3 x 3 product worked out by hand comes first.
 */
#include <string.h>

#include "common.h"

#define N 16

static int32_t a32[N][N], b32[N][N], c32[N][N], d32[N][N];
static int32_t a20[N][N], b20[N][N];
static int64_t c64[N][N];

static void mul_ijk(int n, int32_t a[][N], int32_t b[][N], int32_t c[][N])
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			int32_t s = 0;

			for (int k = 0; k < n; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

/* Row-streaming order: c[i][*] += a[i][k] * b[k][*]. */
static void mul_ikj(int32_t a[][N], int32_t b[][N], int32_t c[][N])
{
	memset(c, 0, sizeof(int32_t) * N * N);
	for (int i = 0; i < N; i++)
		for (int k = 0; k < N; k++) {
			int32_t aik = a[i][k];

			for (int j = 0; j < N; j++)
				c[i][j] += aik * b[k][j];
		}
}

static void mul_64(int32_t a[][N], int32_t b[][N], int64_t c[][N])
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			int64_t s = 0;

			for (int k = 0; k < N; k++)
				s += (int64_t)a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

/* Freivalds in 64 bits: C v == A (B v) holds for every v iff C = A B. */
static int freivalds32(int32_t a[][N], int32_t b[][N], int32_t c[][N], uint32_t *seed)
{
	for (int trial = 0; trial < 3; trial++) {
		int64_t v[N], bv[N];

		for (int i = 0; i < N; i++)
			v[i] = (int64_t)(rng_next(seed) % 17) - 8;
		for (int i = 0; i < N; i++) {
			bv[i] = 0;
			for (int k = 0; k < N; k++)
				bv[i] += b[i][k] * v[k];
		}
		for (int i = 0; i < N; i++) {
			int64_t cv = 0, abv = 0;

			for (int k = 0; k < N; k++) {
				cv += c[i][k] * v[k];
				abv += a[i][k] * bv[k];
			}
			if (cv != abv)
				return fail("matmul", "int32 Freivalds row %d: %lld vs %lld", i,
					    (long long)cv, (long long)abv);
		}
	}
	return 0;
}

static int freivalds64(int32_t a[][N], int32_t b[][N], int64_t c[][N], uint32_t *seed)
{
	for (int trial = 0; trial < 3; trial++) {
		int64_t v[N], bv[N];

		for (int i = 0; i < N; i++)
			v[i] = (int64_t)(rng_next(seed) % 17) - 8;
		for (int i = 0; i < N; i++) {
			bv[i] = 0;
			for (int k = 0; k < N; k++)
				bv[i] += b[i][k] * v[k];
		}
		for (int i = 0; i < N; i++) {
			int64_t cv = 0, abv = 0;

			for (int k = 0; k < N; k++) {
				cv += c[i][k] * v[k];
				abv += a[i][k] * bv[k];
			}
			if (cv != abv)
				return fail("matmul", "int64 Freivalds row %d: %lld vs %lld", i,
					    (long long)cv, (long long)abv);
		}
	}
	return 0;
}

static int check_known(void)
{
	static int32_t a[N][N], b[N][N], c[N][N];
	static const int32_t want[3][3] = {{-3, 10, 9}, {9, -3, 6}, {-8, 21, 6}};
	/* a = [1 2 0; 3 -1 2; -2 4 1], b = [1 0 3; -2 5 3; 2 1 0] */
	static const int32_t ai[3][3] = {{1, 2, 0}, {3, -1, 2}, {-2, 4, 1}};
	static const int32_t bi[3][3] = {{1, 0, 3}, {-2, 5, 3}, {2, 1, 0}};

	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			a[i][j] = ai[i][j], b[i][j] = bi[i][j];
	mul_ijk(3, a, b, c);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			if (c[i][j] != want[i][j])
				return fail("matmul", "3x3 c[%d][%d]=%ld, want %ld", i, j,
					    (long)c[i][j], (long)want[i][j]);
	return 0;
}

int main(void)
{
	uint32_t seed = 0x3A7A3A7Au;
	int64_t trace = 0;

	if (check_known() != 0)
		return 1;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			a32[i][j] = (int32_t)(rng_next(&seed) % 201) - 100;
			b32[i][j] = (int32_t)(rng_next(&seed) % 201) - 100;
			/* +-2^20: each product needs ~41 bits. */
			a20[i][j] = (int32_t)(rng_next(&seed) & 0x1FFFFF) - 0x100000;
			b20[i][j] = (int32_t)(rng_next(&seed) & 0x1FFFFF) - 0x100000;
		}
	mul_ijk(N, a32, b32, c32);
	mul_ikj(a32, b32, d32);
	if (memcmp(c32, d32, sizeof(c32)) != 0)
		return fail("matmul", "i-j-k and i-k-j orders differ");
	if (freivalds32(a32, b32, c32, &seed) != 0)
		return 1;
	mul_64(a20, b20, c64);
	if (freivalds64(a20, b20, c64, &seed) != 0)
		return 1;
	for (int i = 0; i < N; i++)
		trace += c64[i][i];
	printf("matmul ok: N=%d, trace(int32)=%ld trace(int64)=%lld\n", N,
	       (long)(c32[0][0] + c32[N - 1][N - 1]), (long long)trace);
	return 0;
}

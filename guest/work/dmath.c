/*
 * dmath: double precision, for the Cortex-M7 (FPv5-D16) hard-float build:
 * an n-body step, Newton square roots against sqrt(), libm (sin, exp, log,
 * pow), the FPv5 roundings (rint, nearbyint, round, floor, ceil, trunc,
 * lround: VRINT and VCVTA/N/P/M), fmax/fmin (VMAXNM/VMINNM), selects
 * (VSEL), fused multiply-add, and conversions double <-> float, int,
 * unsigned. The results are checked against exact expectations where they
 * have one, and hashed bit for bit otherwise (the QEMU differential and the
 * replay compare every step, so the hash is only printed).
 */
#include <math.h>
#include <string.h>

#include "common.h"

#define NB 6

static double px[NB], py[NB], vx[NB], vy[NB], m[NB];

static uint32_t dhash(uint32_t h, double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	h ^= (uint32_t)u;
	h = h * 0x9e3779b1u;
	h ^= (uint32_t)(u >> 32);
	return h * 0x85ebca77u;
}

static uint32_t nbody(uint32_t *seed)
{
	uint32_t h = 0;

	for (int i = 0; i < NB; i++) {
		px[i] = (double)(rng_next(seed) % 20000) / 1000.0 - 10.0;
		py[i] = (double)(rng_next(seed) % 20000) / 1000.0 - 10.0;
		vx[i] = vy[i] = 0.0;
		m[i] = 1.0 + (double)(rng_next(seed) % 100) / 50.0;
	}
	for (int step = 0; step < 25; step++) {
		for (int i = 0; i < NB; i++) {
			double ax = 0.0, ay = 0.0;

			for (int j = 0; j < NB; j++) {
				if (j == i)
					continue;
				double dx = px[j] - px[i], dy = py[j] - py[i];
				double d2 = dx * dx + dy * dy + 1e-3;
				double inv = 1.0 / (d2 * sqrt(d2));

				ax += m[j] * dx * inv;
				ay += m[j] * dy * inv;
			}
			vx[i] += 0.001 * ax;
			vy[i] += 0.001 * ay;
		}
		for (int i = 0; i < NB; i++) {
			px[i] += 0.001 * vx[i];
			py[i] += 0.001 * vy[i];
		}
	}
	for (int i = 0; i < NB; i++)
		h = dhash(dhash(h, px[i]), py[i]);
	return h;
}

static int newton(uint32_t *seed)
{
	for (int i = 0; i < 40; i++) {
		double a = (double)(rng_next(seed) % 1000000) / 7.0 + 1.0, x = a;

		for (int k = 0; k < 60; k++)
			x = 0.5 * (x + a / x);
		if (fabs(x - sqrt(a)) > 1e-9 * sqrt(a))
			return fail("dmath", "newton sqrt(%d) differs from sqrt", (int)a);
	}
	return 0;
}

static uint32_t libm(uint32_t *seed)
{
	uint32_t h = 0;

	for (int i = 0; i < 12; i++) {
		double x = (double)(int32_t)rng_next(seed) / 2147483648.0 * 4.0;

		h = dhash(h, sin(x));
		h = dhash(h, exp(x));
		h = dhash(h, log(fabs(x) + 1e-3));
		h = dhash(h, pow(fabs(x), 1.5));
	}
	return h;
}

/* volatile: the compiler must round at run time, with the FPv5 instructions */
static volatile double vin[] = {2.5, -2.5, 3.5, -0.5, 0.49999999999999994, 1e300, -7.25, 0.0};

static int roundings(void)
{
	/* round half away, half even (FPSCR's mode: nearest), floor, ceil, trunc */
	static const double want[][5] = {
	    {3, 2, 2, 3, 2},	     {-3, -2, -3, -2, -2},	   {4, 4, 3, 4, 3},
	    {-1, -0.0, -1, -0.0, -0.0}, {0, 0, 0, 1, 0},	   {1e300, 1e300, 1e300, 1e300, 1e300},
	    {-7, -7, -8, -7, -7},	     {0, 0, 0, 0, 0},
	};

	for (unsigned i = 0; i < ARRAY_SIZE(vin); i++) {
		double x = vin[i];
		double got[5] = {round(x), rint(x), floor(x), ceil(x), trunc(x)};

		for (int k = 0; k < 5; k++)
			if (got[k] != want[i][k] || signbit(got[k]) != signbit(want[i][k]))
				return fail("dmath", "rounding %d of input %u", k, i);
		if (nearbyint(x) != want[i][1])
			return fail("dmath", "nearbyint of input %u", i);
		if (fabs(x) < 1e9 && lround(x) != (long)want[i][0])
			return fail("dmath", "lround of input %u: %ld", i, lround(x));
	}
	return 0;
}

static volatile double va[] = {1.5, -0.0, 0.0, -3.0, 1e-310, 2.0, -1e308, 5.0};

static uint32_t selects(void)
{
	uint32_t h = 0;

	for (unsigned i = 0; i + 1 < ARRAY_SIZE(va); i++) {
		double a = va[i], b = va[i + 1];

		h = dhash(h, fmax(a, b));
		h = dhash(h, fmin(a, b));
		h = dhash(h, a > b ? a : b);
		h = dhash(h, a >= b ? a - b : b + a);
		h = dhash(h, a == b ? 1.0 : a);
		h = dhash(h, fma(a, b, -a));
		h = dhash(h, (double)(float)(a * 3.0));
		h = dhash(h, a / (b + 0.5));
	}
	return h;
}

static int conversions(uint32_t *seed)
{
	for (int i = 0; i < 64; i++) {
		int32_t s = (int32_t)rng_next(seed);
		uint32_t u = rng_next(seed);
		double ds = s, du = u;
		float f = (float)ds;

		if ((int32_t)ds != s || (uint32_t)du != u)
			return fail("dmath", "int round trip %ld %lu", (long)s, (unsigned long)u);
		if ((double)f != (double)(float)s)
			return fail("dmath", "float of %ld", (long)s);
		if ((int32_t)(ds / 3.0) != s / 3)
			return fail("dmath", "%ld / 3 truncates", (long)s);
		if ((uint32_t)(du * 0.25) != u / 4)
			return fail("dmath", "%lu / 4 truncates", (unsigned long)u);
	}
	/* saturation: out of range converts to the nearest end (VCVT) */
	volatile double big = 1e12, neg = -1e12;

	if ((int32_t)big != INT32_MAX || (int32_t)neg != INT32_MIN || (uint32_t)neg != 0)
		return fail("dmath", "saturating conversions");
	return 0;
}

int main(void)
{
	uint32_t seed = 0x2545f491u, h1, h2, h3;

	h1 = nbody(&seed);
	if (newton(&seed) || roundings() || conversions(&seed))
		return 1;
	h2 = libm(&seed);
	h3 = selects();
	printf("dmath ok: %08lx %08lx %08lx\n", (unsigned long)h1, (unsigned long)h2,
	       (unsigned long)h3);
	return 0;
}

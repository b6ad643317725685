/*
 * fpmath: single-precision floating point, for the hard-float (FPv4-SP)
 * builds: an n-body step, a float FFT-free DSP loop (biquad filter), a
 * Newton square root against sqrtf, float <-> int conversions (including
 * fixed point) and a Gaussian elimination. Without an FPU the same code
 * runs through libgcc's soft float, so the checks hold for every build.
 * The results are printed as integers (their bit patterns' checksum and
 * rounded values), so printf needs no float support.
 */
#include <math.h>
#include <string.h>

#include "common.h"

#define NB 8
#define NL 10

static float px[NB], py[NB], vx[NB], vy[NB], m[NB];

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static uint32_t nbody(uint32_t *seed)
{
	uint32_t h = 0;

	for (int i = 0; i < NB; i++) {
		px[i] = (float)(rng_next(seed) % 2000) / 100.0f - 10.0f;
		py[i] = (float)(rng_next(seed) % 2000) / 100.0f - 10.0f;
		vx[i] = vy[i] = 0.0f;
		m[i] = 1.0f + (float)(rng_next(seed) % 100) / 50.0f;
	}
	for (int step = 0; step < 40; step++) {
		for (int i = 0; i < NB; i++) {
			float ax = 0.0f, ay = 0.0f;

			for (int j = 0; j < NB; j++) {
				if (j == i)
					continue;
				float dx = px[j] - px[i], dy = py[j] - py[i];
				float d2 = dx * dx + dy * dy + 0.01f;
				float inv = 1.0f / (d2 * sqrtf(d2));

				ax += m[j] * dx * inv;
				ay += m[j] * dy * inv;
			}
			vx[i] += 0.01f * ax;
			vy[i] += 0.01f * ay;
		}
		for (int i = 0; i < NB; i++) {
			px[i] += 0.01f * vx[i];
			py[i] += 0.01f * vy[i];
		}
	}
	for (int i = 0; i < NB; i++)
		h = h * 31 + fbits(px[i]) + fbits(vy[i]);
	return h;
}

static uint32_t biquad(uint32_t *seed)
{
	const float b0 = 0.2f, b1 = 0.4f, b2 = 0.2f, a1 = -0.3f, a2 = 0.1f;
	float x1 = 0, x2 = 0, y1 = 0, y2 = 0;
	uint32_t h = 0;

	for (int n = 0; n < 400; n++) {
		float x = (float)((int32_t)(rng_next(seed) & 0xffff) - 0x8000) * (1.0f / 32768.0f);
		float y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;

		x2 = x1, x1 = x;
		y2 = y1, y1 = y;
		h += (uint32_t)(int32_t)(y * 32767.0f); /* to Q15 */
		h ^= (uint32_t)(y > 0.5f) << (n & 31);
	}
	return h;
}

static int newton(void)
{
	for (int i = 1; i < 200; i++) {
		float a = (float)i * 0.37f, x = a > 1.0f ? a : 1.0f;

		for (int k = 0; k < 30; k++)
			x = 0.5f * (x + a / x);
		if (fabsf(x - sqrtf(a)) > 1e-5f * x)
			return fail("fpmath", "newton sqrt differs from sqrtf");
	}
	return 0;
}

static uint32_t convert(uint32_t *seed)
{
	uint32_t h = 0;

	for (int i = 0; i < 300; i++) {
		int32_t v = (int32_t)rng_next(seed);
		float f = (float)v, g = (float)(uint32_t)v * 0.5f;
		uint32_t u = (uint32_t)g;
		int16_t q = (int16_t)(f / 65536.0f);

		h = h * 33 + (uint32_t)(int32_t)f + u + (uint32_t)q;
		h += f < g ? 1 : f == g ? 2 : 3;
	}
	return h;
}

static uint32_t gauss(uint32_t *seed)
{
	static float a[NL][NL + 1];
	uint32_t h = 0;

	for (int i = 0; i < NL; i++)
		for (int j = 0; j <= NL; j++)
			a[i][j] = (float)(rng_next(seed) % 1000) / 10.0f + (i == j ? 100.0f : 0.0f);
	for (int k = 0; k < NL; k++) {
		int p = k;

		for (int i = k + 1; i < NL; i++)
			if (fabsf(a[i][k]) > fabsf(a[p][k]))
				p = i;
		for (int j = 0; j <= NL; j++) {
			float t = a[k][j];

			a[k][j] = a[p][j], a[p][j] = t;
		}
		for (int i = k + 1; i < NL; i++) {
			float f = a[i][k] / a[k][k];

			for (int j = k; j <= NL; j++)
				a[i][j] -= f * a[k][j];
		}
	}
	for (int i = NL - 1; i >= 0; i--) {
		float s = a[i][NL];

		for (int j = i + 1; j < NL; j++)
			s -= a[i][j] * a[j][NL];
		a[i][NL] = s / a[i][i];
		h = h * 7 + fbits(a[i][NL]);
	}
	return h;
}

int main(void)
{
	uint32_t seed = 0x1234567u, h1, h2, h3, h4;

	h1 = nbody(&seed);
	h2 = biquad(&seed);
	if (newton())
		return 1;
	h3 = convert(&seed);
	h4 = gauss(&seed);
	printf("fpmath ok: %08lx %08lx %08lx %08lx\n", (unsigned long)h1, (unsigned long)h2,
	       (unsigned long)h3, (unsigned long)h4);
	return 0;
}

/*
 * fft: fixed-point (Q15) radix-2 decimation-in-time FFT, N = 128.
 *
 * The forward transform halves at every stage (output = DFT / N), so it can
 * never overflow; the inverse does not scale, so inverse(forward(x)) = x up to
 * rounding. Checks, each against something known independently:
 *   - an impulse transforms to a flat spectrum of exactly height / N;
 *   - a sum of two cosines puts A/2 in bins +-k and nothing elsewhere;
 *   - a direct DFT agrees with the FFT on noise, bin by bin (a stride of
 *     bins per round, as all N would cost N^2 64-bit MACs);
 *   - the inverse gives the input back within a few LSB.
 * Twiddles come from libm's sin() for one quadrant, the rest by symmetry.
 */
#include <math.h>
#include <stdlib.h>

#include "common.h"

#define LOG2N 7
#define N (1 << LOG2N)

/*
 * Tolerances in LSB. Each forward bin lands within ~2 LSB of the exactly
 * rounded DFT / N (observed: 2). The inverse sums N such bins, so the round
 * trip error grows like sqrt(N) times that; N LSB (0.4% of full scale) is a
 * safe bound (observed: ~70 at N = 128).
 */
#define SPECTRUM_TOL 4
#define ROUND_TRIP_TOL N

struct cq15 {
	int32_t re, im; /* Q15 values, held in 32 bits so sums are plain C */
};

static int16_t cos_tab[N], sin_tab[N]; /* cos, sin of 2*pi*k/N in Q15 */
static struct cq15 x[N], input[N], dft[N];

static void make_twiddles(void)
{
	int16_t q[N / 4 + 1];

	for (int k = 0; k <= N / 4; k++)
		q[k] = (int16_t)lround(sin(2.0 * M_PI * k / N) * 32767.0);
	for (int k = 0; k < N; k++) {
		if (k <= N / 4)
			sin_tab[k] = q[k];
		else if (k <= N / 2)
			sin_tab[k] = q[N / 2 - k];
		else if (k <= 3 * N / 4)
			sin_tab[k] = (int16_t)-q[k - N / 2];
		else
			sin_tab[k] = (int16_t)-q[N - k];
	}
	for (int k = 0; k < N; k++)
		cos_tab[k] = sin_tab[(k + N / 4) % N];
}

static unsigned bit_reverse(unsigned v)
{
	unsigned r = 0;

	for (int i = 0; i < LOG2N; i++, v >>= 1)
		r = (r << 1) | (v & 1u);
	return r;
}

/* In place. Forward: W = e^(-2 pi i k/N), halve per stage. Inverse: W*, no scaling. */
static void fft(struct cq15 *a, int inverse)
{
	for (unsigned i = 0; i < N; i++) {
		unsigned j = bit_reverse(i);
		if (j > i) {
			struct cq15 t = a[i];
			a[i] = a[j];
			a[j] = t;
		}
	}
	for (int size = 2; size <= N; size <<= 1) {
		int half = size / 2, step = N / size;

		for (int start = 0; start < N; start += size) {
			for (int j = 0; j < half; j++) {
				int32_t wr = cos_tab[j * step];
				int32_t wi = inverse ? sin_tab[j * step] : -sin_tab[j * step];
				struct cq15 *p = &a[start + j], *q = &a[start + j + half];
				/* Round to nearest when dropping the 15 fraction bits. */
				int32_t tr = (wr * q->re - wi * q->im + (1 << 14)) >> 15;
				int32_t ti = (wr * q->im + wi * q->re + (1 << 14)) >> 15;
				/* Forward halves with rounding: truncation would bias
				 * every stage the same way and the bias adds up. */
				int shift = inverse ? 0 : 1;
				int32_t rnd = inverse ? 0 : 1;

				q->re = (p->re - tr + rnd) >> shift;
				q->im = (p->im - ti + rnd) >> shift;
				p->re = (p->re + tr + rnd) >> shift;
				p->im = (p->im + ti + rnd) >> shift;
			}
		}
	}
}

/*
 * Direct DFT / N in 64-bit, the slow obvious definition, for bins
 * first, first + DFT_STRIDE, ... only (all N bins would cost N^2 MACs).
 */
#define DFT_STRIDE 16

static void direct_dft(const struct cq15 *in, struct cq15 *out, int first)
{
	for (int k = first; k < N; k += DFT_STRIDE) {
		int64_t re = 0, im = 0;

		for (int n = 0; n < N; n++) {
			int idx = (k * n) % N;
			int32_t c = cos_tab[idx], s = sin_tab[idx];
			/* (a + ib)(c - is) = ac + bs + i(bc - as) */
			re += (int64_t)in[n].re * c + (int64_t)in[n].im * s;
			im += (int64_t)in[n].im * c - (int64_t)in[n].re * s;
		}
		/* Divide by 2^15 (Q15) and by N, rounding to nearest. */
		out[k].re = (int32_t)((re + (1LL << (14 + LOG2N))) >> (15 + LOG2N));
		out[k].im = (int32_t)((im + (1LL << (14 + LOG2N))) >> (15 + LOG2N));
	}
}

/* Largest component difference over bins first, first + stride, ... */
static int32_t max_err(const struct cq15 *a, const struct cq15 *b, int first, int stride)
{
	int32_t m = 0;

	for (int i = first; i < N; i += stride) {
		int32_t d = abs(a[i].re - b[i].re);
		int32_t e = abs(a[i].im - b[i].im);
		m = d > m ? d : m;
		m = e > m ? e : m;
	}
	return m;
}

static int check_impulse(void)
{
	for (int i = 0; i < N; i++)
		x[i].re = x[i].im = 0;
	x[0].re = 0x4000;
	fft(x, 0);
	for (int k = 0; k < N; k++)
		if (x[k].re != 0x4000 / N || x[k].im != 0)
			return fail("fft", "impulse: X[%d] = %ld%+ldi, want %d", k, (long)x[k].re,
				    (long)x[k].im, 0x4000 / N);
	return 0;
}

/* A cos(2 pi k1 n/N) + B cos(2 pi k2 n/N) -> A/2 at +-k1, B/2 at +-k2. */
static int check_cosines(int k1, int32_t amp1, int k2, int32_t amp2)
{
	for (int n = 0; n < N; n++) {
		x[n].re = (amp1 * cos_tab[(k1 * n) % N] + amp2 * cos_tab[(k2 * n) % N]) >> 15;
		x[n].im = 0;
		input[n] = x[n];
	}
	fft(x, 0);
	for (int k = 0; k < N; k++) {
		int32_t want = 0;

		if (k == k1 || k == N - k1)
			want += amp1 / 2;
		if (k == k2 || k == N - k2)
			want += amp2 / 2;
		if (abs(x[k].re - want) > SPECTRUM_TOL || abs(x[k].im) > SPECTRUM_TOL)
			return fail("fft", "cosines %d,%d: X[%d] = %ld%+ldi, want %ld", k1, k2, k,
				    (long)x[k].re, (long)x[k].im, (long)want);
	}
	fft(x, 1);
	int32_t e = max_err(x, input, 0, 1);
	if (e > ROUND_TRIP_TOL)
		return fail("fft", "cosines %d,%d: round trip off by %ld", k1, k2, (long)e);
	return 0;
}

static int check_noise(uint32_t *seed, int round, int32_t *worst)
{
	for (int n = 0; n < N; n++) {
		/* +-0.25 full scale: the unscaled inverse cannot overflow. */
		x[n].re = (int32_t)(rng_next(seed) % 16384) - 8192;
		x[n].im = (int32_t)(rng_next(seed) % 16384) - 8192;
		input[n] = x[n];
	}
	direct_dft(input, dft, round % DFT_STRIDE);
	fft(x, 0);
	int32_t e = max_err(x, dft, round % DFT_STRIDE, DFT_STRIDE);
	if (e > SPECTRUM_TOL)
		return fail("fft", "noise: FFT and direct DFT differ by %ld", (long)e);
	fft(x, 1);
	e = max_err(x, input, 0, 1);
	if (e > ROUND_TRIP_TOL)
		return fail("fft", "noise: round trip off by %ld", (long)e);
	*worst = e > *worst ? e : *worst;
	return 0;
}

int main(void)
{
	uint32_t seed = 0xFF7F0001u;
	int32_t worst = 0;

	make_twiddles();
	if (sin_tab[N / 4] != 32767 || cos_tab[0] != 32767 || cos_tab[N / 2] != -32767)
		return fail("fft", "twiddles: sin(pi/2)=%d cos(0)=%d cos(pi)=%d", sin_tab[N / 4],
			    cos_tab[0], cos_tab[N / 2]);
	if (check_impulse() != 0 || check_cosines(5, 0x2000, 17, 0x1000) != 0 ||
	    check_cosines(1, 0x3000, 40, 0x0800) != 0)
		return 1;
	for (int r = 0; r < 2; r++)
		if (check_noise(&seed, r * 5, &worst) != 0)
			return 1;
	printf("fft ok: N=%d, worst round-trip error %ld LSB\n", N, (long)worst);
	return 0;
}

/*
 * bitops: integer corners every compiler back end and ISS must get right.
 *   - 64-bit / and % (libgcc's __aeabi_ldivmod / __aeabi_uldivmod), checked by
 *     q * b + r == a with |r| < |b| and against a shift-subtract divider;
 *   - 64-bit multiply (SMULL/UMULL/MLA sequences) against 16-bit limbs;
 *   - __builtin_clz/ctz/bswap/popcountll/parity, RBIT/REV/CLZ (inline asm;
 *     GCC 12's arm_acle.h lacks __rbit) and rotates against plain loops;
 *   - bitfield structs (signed fields sign-extend) against explicit masks;
 *   - saturating add/sub/mul written in C two ways: 64-bit widening with a
 *     clamp, and __builtin_*_overflow.
 */
#include <limits.h>
#include <stdlib.h>

#include "common.h"

#define N_RANDOM 120

static int failures;

#define EXPECT(cond, ...)                                                      \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("FAIL bitops line %d: ", __LINE__);             \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
			failures++;                                            \
		}                                                              \
	} while (0)

static uint64_t rng64(uint32_t *seed)
{
	uint64_t hi = rng_next(seed);

	return hi << 32 | rng_next(seed);
}

/* ------------------------------------------------------------------ */
/* 64-bit division and multiplication                                  */
/* ------------------------------------------------------------------ */

/* Restoring division, one quotient bit per step: slow and obviously right. */
static uint64_t udiv64_slow(uint64_t a, uint64_t b, uint64_t *rem)
{
	uint64_t q = 0, r = 0;

	for (int i = 63; i >= 0; i--) {
		r = (r << 1) | ((a >> i) & 1u);
		if (r >= b) {
			r -= b;
			q |= 1ULL << i;
		}
	}
	*rem = r;
	return q;
}

static void check_div_one(int64_t a, int64_t b)
{
	int64_t q = a / b, r = a % b;
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b, urem;
	uint64_t uq = udiv64_slow(ua, ub, &urem);

	EXPECT(q * b + r == a, "%lld / %lld: q %lld r %lld", (long long)a, (long long)b,
	       (long long)q, (long long)r);
	EXPECT((r == 0 || (r < 0) == (a < 0)) && llabs(r) < llabs(b),
	       "%lld %% %lld = %lld: wrong sign or size", (long long)a, (long long)b, (long long)r);
	EXPECT(ua / ub == uq && ua % ub == urem, "%llu / %llu: %llu r %llu, slow %llu r %llu",
	       (unsigned long long)ua, (unsigned long long)ub, (unsigned long long)(ua / ub),
	       (unsigned long long)(ua % ub), (unsigned long long)uq,
	       (unsigned long long)urem);
}

static void check_division(uint32_t *seed)
{
	/* Values worked out on the host. */
	volatile uint64_t a = 0x123456789ABCDEF0ULL, b = 0x12345;
	EXPECT(a / b == 0x100005b00205ULL && a % b == 0xa497, "known unsigned");
	volatile int64_t c = -1000000000000LL, d = 7;
	EXPECT(c / d == -142857142857LL && c % d == -1, "known signed");
	volatile uint64_t e = ULLONG_MAX;
	EXPECT(e / 3 == 0x5555555555555555ULL && e % 3 == 0, "ULLONG_MAX / 3");

	for (int i = 0; i < N_RANDOM; i++) {
		int64_t x = (int64_t)rng64(seed);
		/* Divisors of every width, from 1 bit to 64. */
		int64_t y = (int64_t)(rng64(seed) >> (i % 64));

		if (y == 0 || (x == LLONG_MIN && y == -1))
			continue;
		check_div_one(x, y);
	}
	/* 32-bit: hardware SDIV/UDIV, rounding toward zero. */
	volatile int32_t m = -7, n = 2;
	EXPECT(m / n == -3 && m % n == -1, "-7 / 2");
	volatile uint32_t u = 0xFFFFFFFFu, v = 0x10;
	EXPECT(u / v == 0x0FFFFFFFu && u % v == 15, "0xFFFFFFFF / 16");
}

/* Full 64 x 64 -> low 64 and 32 x 32 -> 64 from 16-bit limbs. */
static uint64_t mul32_limbs(uint32_t a, uint32_t b)
{
	uint64_t al = a & 0xFFFF, ah = a >> 16, bl = b & 0xFFFF, bh = b >> 16;

	return al * bl + ((al * bh + ah * bl) << 16) + ((ah * bh) << 32);
}

static void check_multiply(uint32_t *seed)
{
	for (int i = 0; i < N_RANDOM; i++) {
		uint32_t a = rng_next(seed), b = rng_next(seed);
		int32_t sa = (int32_t)a, sb = (int32_t)b;
		uint64_t p = (uint64_t)a * b;
		int64_t sp = (int64_t)sa * sb;

		EXPECT(p == mul32_limbs(a, b), "umull %08lx * %08lx", (unsigned long)a,
		       (unsigned long)b);
		/* Signed from unsigned: subtract b<<32 if a<0, a<<32 if b<0. */
		uint64_t fix = p - (sa < 0 ? (uint64_t)b << 32 : 0) - (sb < 0 ? (uint64_t)a << 32 : 0);
		EXPECT((uint64_t)sp == fix, "smull %ld * %ld", (long)sa, (long)sb);
		/* 64 x 64: (ah*2^32 + al)(bh*2^32 + bl) mod 2^64. */
		uint64_t x = rng64(seed), y = rng64(seed);
		uint64_t lo = mul32_limbs((uint32_t)x, (uint32_t)y);
		uint64_t cross = (uint64_t)(uint32_t)(x >> 32) * (uint32_t)y +
				 (uint64_t)(uint32_t)x * (uint32_t)(y >> 32);
		EXPECT(x * y == lo + (cross << 32), "64-bit multiply");
	}
}

/* ------------------------------------------------------------------ */
/* Bit scans, byte swaps, bit reverse                                  */
/* ------------------------------------------------------------------ */

static int clz_loop(uint64_t x, int width)
{
	int n = 0;

	for (int i = width - 1; i >= 0 && !((x >> i) & 1u); i--)
		n++;
	return n;
}

static int ctz_loop(uint64_t x)
{
	int n = 0;

	while (n < 64 && !((x >> n) & 1u))
		n++;
	return n;
}

static uint64_t bswap_loop(uint64_t x, int bytes)
{
	uint64_t r = 0;

	for (int i = 0; i < bytes; i++, x >>= 8)
		r = (r << 8) | (x & 0xFF);
	return r;
}

static uint32_t rbit_loop(uint32_t x)
{
	uint32_t r = 0;

	for (int i = 0; i < 32; i++, x >>= 1)
		r = (r << 1) | (x & 1u);
	return r;
}

static int popcount_loop(uint64_t x)
{
	int n = 0;

	for (; x != 0; x >>= 1)
		n += (int)(x & 1u);
	return n;
}

static uint32_t asm_rbit(uint32_t x)
{
	uint32_t r;

	__asm__("rbit %0, %1" : "=r"(r) : "r"(x));
	return r;
}

static uint32_t asm_rev(uint32_t x)
{
	uint32_t r;

	__asm__("rev %0, %1" : "=r"(r) : "r"(x));
	return r;
}

/* CLZ of 0 is 32 in hardware (__builtin_clz(0) is undefined). */
static uint32_t asm_clz(uint32_t x)
{
	uint32_t r;

	__asm__("clz %0, %1" : "=r"(r) : "r"(x));
	return r;
}

/* One bit at a time: the obvious rotate. */
static uint32_t ror_loop(uint32_t x, unsigned n)
{
	for (unsigned i = 0; i < n % 32; i++)
		x = (x >> 1) | (x << 31);
	return x;
}

/* The C rotate idiom; GCC turns it into ROR. */
static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> (n & 31)) | (x << ((32 - n) & 31));
}

static void check_scans(uint32_t *seed)
{
	for (int i = 0; i < N_RANDOM; i++) {
		/* Shift right by a varying amount so leading zeros vary; keep
		 * one bit set, as clz/ctz of 0 are undefined. */
		uint64_t x = (rng64(seed) >> (i % 63)) | 1ULL << (i % 64);
		uint32_t w = (uint32_t)x | 1u << (i % 32);

		EXPECT(__builtin_clz(w) == clz_loop(w, 32), "clz %08lx", (unsigned long)w);
		EXPECT(__builtin_ctz(w) == ctz_loop(w), "ctz %08lx", (unsigned long)w);
		EXPECT(__builtin_clzll(x) == clz_loop(x, 64), "clzll");
		EXPECT(__builtin_ctzll(x) == ctz_loop(x), "ctzll");
		EXPECT(__builtin_bswap32(w) == bswap_loop(w, 4), "bswap32");
		EXPECT(__builtin_bswap64(x) == bswap_loop(x, 8), "bswap64");
		EXPECT(__builtin_bswap16((uint16_t)w) == bswap_loop(w & 0xFFFF, 2), "bswap16");
		EXPECT(__builtin_popcountll(x) == popcount_loop(x), "popcountll");
		EXPECT(__builtin_parity(w) == (popcount_loop(w) & 1), "parity");
		EXPECT(asm_rbit(w) == rbit_loop(w), "rbit %08lx", (unsigned long)w);
		EXPECT(asm_rev(w) == bswap_loop(w, 4), "rev");
		EXPECT(asm_clz(w) == (uint32_t)clz_loop(w, 32), "clz asm");
		EXPECT(rotr(w, i) == ror_loop(w, i), "ror %08lx by %d", (unsigned long)w, i);
	}
	EXPECT(asm_clz(0) == 32, "clz(0) = %lu", (unsigned long)asm_clz(0));
}

/* ------------------------------------------------------------------ */
/* Bitfields                                                           */
/* ------------------------------------------------------------------ */

/* AAPCS: fields fill a 32-bit container from bit 0 upwards. */
struct fields {
	unsigned a : 3;
	signed b : 5;
	unsigned c : 12;
	unsigned d : 1;
	signed e : 11;
};

union fields_word {
	struct fields f;
	uint32_t w;
};

static int32_t sext(uint32_t v, int bits)
{
	uint32_t m = 1u << (bits - 1);

	return (int32_t)((v ^ m) - m);
}

static void check_bitfields(uint32_t *seed)
{
	EXPECT(sizeof(struct fields) == 4, "sizeof(struct fields) = %u",
	       (unsigned)sizeof(struct fields));
	for (int i = 0; i < N_RANDOM; i++) {
		union fields_word u;
		uint32_t w = rng_next(seed);

		u.w = w;
		EXPECT(u.f.a == (w & 7u), "a");
		EXPECT(u.f.b == sext((w >> 3) & 0x1F, 5), "b: %d from %08lx", u.f.b,
		       (unsigned long)w);
		EXPECT(u.f.c == ((w >> 8) & 0xFFF), "c");
		EXPECT(u.f.d == ((w >> 20) & 1u), "d");
		EXPECT(u.f.e == sext(w >> 21, 11), "e");

		/* Writing a field touches only its own bits. */
		int32_t nb = (int32_t)(rng_next(seed) % 32) - 16;
		u.f.b = nb;
		EXPECT(u.w == ((w & ~0xF8u) | (((uint32_t)nb & 0x1F) << 3)), "write b");
		u.f.e = -1;
		EXPECT((u.w >> 21) == 0x7FF && u.f.e == -1, "write e");
	}
}

/* ------------------------------------------------------------------ */
/* Saturating arithmetic                                               */
/* ------------------------------------------------------------------ */

static int32_t clamp_s32(int64_t v)
{
	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

static int32_t sat_add_wide(int32_t a, int32_t b) { return clamp_s32((int64_t)a + b); }
static int32_t sat_sub_wide(int32_t a, int32_t b) { return clamp_s32((int64_t)a - b); }
static int32_t sat_mul_wide(int32_t a, int32_t b) { return clamp_s32((int64_t)a * b); }

static int32_t sat_add_ovf(int32_t a, int32_t b)
{
	int32_t r;

	if (__builtin_add_overflow(a, b, &r))
		return a < 0 ? INT32_MIN : INT32_MAX;
	return r;
}

static int32_t sat_sub_ovf(int32_t a, int32_t b)
{
	int32_t r;

	if (__builtin_sub_overflow(a, b, &r))
		return a < 0 ? INT32_MIN : INT32_MAX;
	return r;
}

static int32_t sat_mul_ovf(int32_t a, int32_t b)
{
	int32_t r;

	if (__builtin_mul_overflow(a, b, &r))
		return (a < 0) != (b < 0) ? INT32_MIN : INT32_MAX;
	return r;
}

static uint32_t usat_add_wide(uint32_t a, uint32_t b)
{
	uint64_t s = (uint64_t)a + b;

	return s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
}

/* Carry out of the 32-bit add shows as a wrap-around. */
static uint32_t usat_add_wrap(uint32_t a, uint32_t b)
{
	uint32_t s = a + b;

	return s < a ? UINT32_MAX : s;
}

static uint32_t usat_sub(uint32_t a, uint32_t b)
{
	return a > b ? a - b : 0;
}

static void check_saturation(uint32_t *seed)
{
	static const int32_t edge[] = {0, 1, -1, INT32_MAX, INT32_MIN, INT32_MAX - 1, INT32_MIN + 1,
				       46341, -46341, 65536};

	for (int i = 0; i < N_RANDOM + 100; i++) {
		int32_t a, b;

		if (i < 100) { /* every pair of edge values */
			a = edge[i / 10];
			b = edge[i % 10];
		} else {
			a = (int32_t)rng_next(seed) >> (i % 20);
			b = (int32_t)rng_next(seed) >> (i % 17);
		}
		EXPECT(sat_add_wide(a, b) == sat_add_ovf(a, b), "sat add %ld %ld", (long)a, (long)b);
		EXPECT(sat_sub_wide(a, b) == sat_sub_ovf(a, b), "sat sub %ld %ld", (long)a, (long)b);
		EXPECT(sat_mul_wide(a, b) == sat_mul_ovf(a, b), "sat mul %ld %ld", (long)a, (long)b);
		EXPECT(usat_add_wide((uint32_t)a, (uint32_t)b) == usat_add_wrap((uint32_t)a, (uint32_t)b),
		       "usat add");
		EXPECT(usat_sub((uint32_t)a, (uint32_t)b) ==
			       ((uint32_t)a >= (uint32_t)b ? (uint32_t)a - (uint32_t)b : 0u),
		       "usat sub");
	}
	EXPECT(sat_add_wide(INT32_MAX, 1) == INT32_MAX && sat_sub_wide(INT32_MIN, 1) == INT32_MIN,
	       "saturation limits");
	EXPECT(sat_mul_wide(46341, 46341) == INT32_MAX && sat_mul_wide(46340, 46340) == 2147395600,
	       "sat mul limits");
}

int main(void)
{
	uint32_t seed = 0xB170B5u;

	check_division(&seed);
	check_multiply(&seed);
	check_scans(&seed);
	check_bitfields(&seed);
	check_saturation(&seed);
	if (failures != 0)
		return fail("bitops", "%d checks failed", failures);
	printf("bitops ok\n");
	return 0;
}

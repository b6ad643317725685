/*
 * softfp.c: IEEE binary32/binary16 in exact integer arithmetic, with the
 * ARM settings QEMU's softfloat uses (softfp.h has the rules).
 *
 * A finite nonzero value is held unpacked as sign and sig * 2^e with an
 * integer significand; every result goes through one rounding routine,
 * round_pack, which normalises, detects tininess before rounding, flushes,
 * rounds by the mode and packs into the format.
 */
#include "isa/softfp.h"

enum { C_ZERO, C_NORM, C_INF, C_QNAN, C_SNAN };

struct fmt {
	int fbits; /* stored fraction bits */
	int ebits; /* exponent bits */
	int ahp;   /* ARM alternative half precision: no Inf/NaN */
};

static const struct fmt F32 = {23, 8, 0};
static const struct fmt F16 = {10, 5, 0};
static const struct fmt F16_AHP = {10, 5, 1};

struct up {
	int cls;
	int sign;
	int e; /* C_NORM: value = sig * 2^e */
	uint64_t sig;
	uint32_t raw; /* the packed value (NaNs keep their payload) */
};

struct sf_env sf_env_of(uint32_t fpscr)
{
	struct sf_env e = {(uint8_t)(fpscr >> 22 & 3), (uint8_t)(fpscr >> 24 & 1),
			   (uint8_t)(fpscr >> 25 & 1), (uint8_t)(fpscr >> 26 & 1), 0};

	return e;
}

static int bias_of(const struct fmt *f)
{
	return (1 << (f->ebits - 1)) - 1;
}

static struct up unpack(struct sf_env *env, const struct fmt *f, uint32_t raw, int flush)
{
	int emax = (1 << f->ebits) - 1;
	uint32_t E = raw >> f->fbits & (uint32_t)emax;
	uint32_t F = raw & ((1u << f->fbits) - 1);
	struct up u = {C_NORM, (int)(raw >> (f->fbits + f->ebits) & 1), 0, 0, raw};

	if (E == (uint32_t)emax && !f->ahp) {
		if (!F)
			u.cls = C_INF;
		else
			u.cls = (F >> (f->fbits - 1) & 1) ? C_QNAN : C_SNAN;
		return u;
	}
	if (E == 0) {
		if (!F) {
			u.cls = C_ZERO;
			return u;
		}
		if (flush) {
			env->flags |= SF_IDC;
			u.cls = C_ZERO;
			return u;
		}
		u.sig = F;
		u.e = 1 - bias_of(f) - f->fbits;
		return u;
	}
	u.sig = F | 1u << f->fbits;
	u.e = (int)E - bias_of(f) - f->fbits;
	return u;
}

static uint32_t pack(const struct fmt *f, int sign, uint32_t E, uint32_t frac)
{
	return (uint32_t)sign << (f->fbits + f->ebits) | E << f->fbits | frac;
}

static uint32_t zero_of(const struct fmt *f, int sign)
{
	return pack(f, sign, 0, 0);
}

static uint32_t inf_of(const struct fmt *f, int sign)
{
	return pack(f, sign, (1u << f->ebits) - 1, 0);
}

static uint32_t maxnorm_of(const struct fmt *f, int sign)
{
	return pack(f, sign, (1u << f->ebits) - 2, (1u << f->fbits) - 1);
}

static uint32_t default_nan(const struct fmt *f)
{
	return pack(f, 0, (1u << f->ebits) - 1, 1u << (f->fbits - 1));
}

static uint64_t shr_jam(uint64_t v, int n)
{
	if (n <= 0)
		return v;
	if (n >= 64)
		return v != 0;
	return v >> n | ((v & ((1ull << n) - 1)) != 0);
}

/* Does rounding away the low `drop` bits of sig increment it? */
static int round_inc(enum sf_round rm, int sign, uint64_t sig, int drop)
{
	uint64_t rest = sig & ((1ull << drop) - 1), half = 1ull << (drop - 1);

	switch (rm) {
	case SF_RN: return rest > half || (rest == half && (sig >> drop & 1));
	case SF_RP: return rest && !sign;
	case SF_RM: return rest && sign;
	default: return 0;
	}
}

/*
 * Round sign * sig * 2^e (sig != 0, exact but for a sticky bit in bit 0)
 * into format f. ftz: flush tiny results to zero (FPSCR.FZ).
 */
static uint32_t round_pack(struct sf_env *env, const struct fmt *f, int sign, int e, uint64_t sig,
			   int ftz)
{
	int n = __builtin_clzll(sig);
	int drop = 62 - f->fbits; /* rounding bits below the kept significand */
	int emax = (1 << f->ebits) - 1;
	int E;
	uint64_t rest;

	/* normalise: MSB at bit 62, one spare bit for the carry of rounding */
	if (n == 0) {
		sig = shr_jam(sig, 1);
		e += 1;
	} else {
		sig <<= n - 1;
		e -= n - 1;
	}
	E = e + 62 + bias_of(f);
	if (E >= 1) {
		rest = sig & ((1ull << drop) - 1);
		if (round_inc(env->rmode, sign, sig, drop))
			sig += 1ull << drop;
		if (sig >> 63) {
			sig >>= 1;
			E++;
		}
		if (f->ahp) {
			if (E > emax) {
				/* no infinity: the largest normal, and Invalid alone */
				env->flags |= SF_IOC;
				return pack(f, sign, (uint32_t)emax, (1u << f->fbits) - 1);
			}
		} else if (E >= emax) {
			env->flags |= SF_OFC | SF_IXC;
			if (env->rmode == SF_RN || (env->rmode == SF_RP && !sign) ||
			    (env->rmode == SF_RM && sign))
				return inf_of(f, sign);
			return maxnorm_of(f, sign);
		}
		if (rest)
			env->flags |= SF_IXC;
		return pack(f, sign, (uint32_t)E, (uint32_t)(sig >> drop) & ((1u << f->fbits) - 1));
	}
	/* tiny (before rounding) */
	if (ftz) {
		env->flags |= SF_UFC;
		return zero_of(f, sign);
	}
	sig = shr_jam(sig, 1 - E);
	rest = sig & ((1ull << drop) - 1);
	if (round_inc(env->rmode, sign, sig, drop))
		sig += 1ull << drop;
	if (rest)
		env->flags |= SF_IXC | SF_UFC;
	/* a carry into bit 62 makes it the smallest normal: E = 1 */
	return pack(f, sign, (uint32_t)(sig >> 62 & 1),
		    (uint32_t)(sig >> drop) & ((1u << f->fbits) - 1));
}

static uint32_t quiet32(uint32_t v)
{
	return v | 1u << 22;
}

/* FPProcessNaNs for two operands, one of them a NaN (binary32). */
static uint32_t pick_nan2(struct sf_env *env, const struct up *a, const struct up *b)
{
	if (a->cls == C_SNAN || b->cls == C_SNAN)
		env->flags |= SF_IOC;
	if (env->dn)
		return SF32_DEFAULT_NAN;
	if (a->cls == C_SNAN)
		return quiet32(a->raw);
	if (b->cls == C_SNAN)
		return quiet32(b->raw);
	if (a->cls == C_QNAN)
		return a->raw;
	return b->raw;
}

static int is_nan(const struct up *u)
{
	return u->cls == C_QNAN || u->cls == C_SNAN;
}

/*
 * sign_a * siga * 2^ea + sign_b * sigb * 2^eb, exact then rounded; both
 * nonzero finite, significands below 2^62.
 */
static uint32_t add_finite(struct sf_env *env, int sa, int ea, uint64_t siga, int sb, int eb,
			   uint64_t sigb)
{
	unsigned __int128 x, y, r;
	int e, sign, d, nx, ny;

	/* put both significands' MSB at bit 125 of 128 */
	nx = __builtin_clzll(siga) + 64 - 2;
	ny = __builtin_clzll(sigb) + 64 - 2;
	x = (unsigned __int128)siga << nx;
	y = (unsigned __int128)sigb << ny;
	ea -= nx;
	eb -= ny;
	if (ea < eb || (ea == eb && x < y)) {
		unsigned __int128 t = x;
		int te = ea, ts = sa;

		x = y, y = t;
		ea = eb, eb = te;
		sa = sb, sb = ts;
	}
	d = ea - eb;
	if (d >= 127)
		y = y != 0;
	else if (d > 0)
		y = y >> d | ((y & (((unsigned __int128)1 << d) - 1)) != 0);
	e = ea;
	sign = sa;
	if (sa == sb) {
		r = x + y;
	} else {
		r = x - y;
		if (!r) /* exact cancellation: +0, or -0 rounding down */
			return zero_of(&F32, env->rmode == SF_RM);
	}
	/* down to 63 bits, keeping a sticky bit */
	{
		int hi = 127 - (r >> 64 ? __builtin_clzll((uint64_t)(r >> 64))
					: 64 + __builtin_clzll((uint64_t)r));
		int sh = hi > 62 ? hi - 62 : 0;
		uint64_t s =
		    sh ? (uint64_t)(r >> sh) | ((r & (((unsigned __int128)1 << sh) - 1)) != 0)
		       : (uint64_t)r;

		return round_pack(env, &F32, sign, e + sh, s, env->fz);
	}
}

static uint32_t addsub(struct sf_env *env, uint32_t ra, uint32_t rb, int sub)
{
	struct up a = unpack(env, &F32, ra, env->fz), b = unpack(env, &F32, rb, env->fz);
	int sb = b.sign ^ sub;

	if (is_nan(&a) || is_nan(&b))
		return pick_nan2(env, &a, &b);
	if (a.cls == C_INF) {
		if (b.cls == C_INF && a.sign != sb) {
			env->flags |= SF_IOC;
			return SF32_DEFAULT_NAN;
		}
		return inf_of(&F32, a.sign);
	}
	if (b.cls == C_INF)
		return inf_of(&F32, sb);
	if (a.cls == C_ZERO && b.cls == C_ZERO)
		return zero_of(&F32, a.sign == sb ? a.sign : env->rmode == SF_RM);
	if (a.cls == C_ZERO)
		return round_pack(env, &F32, sb, b.e, b.sig, env->fz);
	if (b.cls == C_ZERO)
		return round_pack(env, &F32, a.sign, a.e, a.sig, env->fz);
	return add_finite(env, a.sign, a.e, a.sig, sb, b.e, b.sig);
}

uint32_t sf32_add(struct sf_env *e, uint32_t a, uint32_t b)
{
	return addsub(e, a, b, 0);
}

uint32_t sf32_sub(struct sf_env *e, uint32_t a, uint32_t b)
{
	return addsub(e, a, b, 1);
}

uint32_t sf32_mul(struct sf_env *env, uint32_t ra, uint32_t rb)
{
	struct up a = unpack(env, &F32, ra, env->fz), b = unpack(env, &F32, rb, env->fz);
	int sign = a.sign ^ b.sign;

	if (is_nan(&a) || is_nan(&b))
		return pick_nan2(env, &a, &b);
	if ((a.cls == C_INF && b.cls == C_ZERO) || (a.cls == C_ZERO && b.cls == C_INF)) {
		env->flags |= SF_IOC;
		return SF32_DEFAULT_NAN;
	}
	if (a.cls == C_INF || b.cls == C_INF)
		return inf_of(&F32, sign);
	if (a.cls == C_ZERO || b.cls == C_ZERO)
		return zero_of(&F32, sign);
	return round_pack(env, &F32, sign, a.e + b.e, a.sig * b.sig, env->fz);
}

uint32_t sf32_div(struct sf_env *env, uint32_t ra, uint32_t rb)
{
	struct up a = unpack(env, &F32, ra, env->fz), b = unpack(env, &F32, rb, env->fz);
	int sign = a.sign ^ b.sign;
	uint64_t q, r, n;
	int na, nb;

	if (is_nan(&a) || is_nan(&b))
		return pick_nan2(env, &a, &b);
	if ((a.cls == C_INF && b.cls == C_INF) || (a.cls == C_ZERO && b.cls == C_ZERO)) {
		env->flags |= SF_IOC;
		return SF32_DEFAULT_NAN;
	}
	if (a.cls == C_INF)
		return inf_of(&F32, sign);
	if (b.cls == C_INF || a.cls == C_ZERO)
		return zero_of(&F32, sign);
	if (b.cls == C_ZERO) {
		env->flags |= SF_DZC;
		return inf_of(&F32, sign);
	}
	/* normalise both to 24 significant bits, then a 64/24 division */
	na = __builtin_clzll(a.sig) - 40;
	nb = __builtin_clzll(b.sig) - 40;
	a.sig <<= na, a.e -= na;
	b.sig <<= nb, b.e -= nb;
	n = a.sig << 39;
	q = n / b.sig;
	r = n % b.sig;
	return round_pack(env, &F32, sign, a.e - 40 - b.e, q << 1 | (r != 0), env->fz);
}

static uint64_t isqrt64(uint64_t m, int *exact)
{
	uint64_t r = 0, bit = 1ull << 62;

	while (bit > m)
		bit >>= 2;
	while (bit) {
		if (m >= r + bit) {
			m -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	*exact = m == 0;
	return r;
}

uint32_t sf32_sqrt(struct sf_env *env, uint32_t ra)
{
	struct up a = unpack(env, &F32, ra, env->fz);
	int exact, n;
	uint64_t r;

	if (a.cls == C_SNAN) {
		env->flags |= SF_IOC;
		return env->dn ? SF32_DEFAULT_NAN : quiet32(ra);
	}
	if (a.cls == C_QNAN)
		return env->dn ? SF32_DEFAULT_NAN : ra;
	if (a.cls == C_ZERO)
		return ra & 0x80000000u ? zero_of(&F32, 1) : 0;
	if (a.sign) {
		env->flags |= SF_IOC;
		return SF32_DEFAULT_NAN;
	}
	if (a.cls == C_INF)
		return ra;
	/* sig to 61 or 62 bits with an even exponent, then a 31-bit root */
	n = __builtin_clzll(a.sig) - 2;
	a.sig <<= n;
	a.e -= n;
	if (a.e & 1) {
		a.sig >>= 1; /* the low bits are zero: exact */
		a.e += 1;
	}
	r = isqrt64(a.sig, &exact);
	return round_pack(env, &F32, 0, a.e / 2 - 1, r << 1 | !exact, env->fz);
}

uint32_t sf32_muladd(struct sf_env *env, uint32_t ra, uint32_t rb, uint32_t rc)
{
	struct up a = unpack(env, &F32, ra, env->fz), b = unpack(env, &F32, rb, env->fz);
	struct up c = unpack(env, &F32, rc, env->fz);
	int infzero = (a.cls == C_INF && b.cls == C_ZERO) || (a.cls == C_ZERO && b.cls == C_INF);
	int ps;

	if (is_nan(&a) || is_nan(&b) || is_nan(&c)) {
		/* the addend first (ARM's operand order for VFMA), then a, b */
		if (a.cls == C_SNAN || b.cls == C_SNAN || c.cls == C_SNAN || infzero)
			env->flags |= SF_IOC;
		if (env->dn || (infzero && c.cls == C_QNAN))
			return SF32_DEFAULT_NAN;
		if (c.cls == C_SNAN)
			return quiet32(rc);
		if (a.cls == C_SNAN)
			return quiet32(ra);
		if (b.cls == C_SNAN)
			return quiet32(rb);
		if (c.cls == C_QNAN)
			return rc;
		if (a.cls == C_QNAN)
			return ra;
		return rb;
	}
	if (infzero) {
		env->flags |= SF_IOC;
		return SF32_DEFAULT_NAN;
	}
	ps = a.sign ^ b.sign;
	if (a.cls == C_INF || b.cls == C_INF) {
		if (c.cls == C_INF && c.sign != ps) {
			env->flags |= SF_IOC;
			return SF32_DEFAULT_NAN;
		}
		return inf_of(&F32, ps);
	}
	if (c.cls == C_INF)
		return inf_of(&F32, c.sign);
	if (a.cls == C_ZERO || b.cls == C_ZERO) {
		if (c.cls == C_NORM)
			return round_pack(env, &F32, c.sign, c.e, c.sig, env->fz);
		return zero_of(&F32, ps == c.sign ? ps : env->rmode == SF_RM);
	}
	if (c.cls == C_ZERO)
		return round_pack(env, &F32, ps, a.e + b.e, a.sig * b.sig, env->fz);
	return add_finite(env, ps, a.e + b.e, a.sig * b.sig, c.sign, c.e, c.sig);
}

unsigned sf32_cmp(struct sf_env *env, uint32_t ra, uint32_t rb, int signal)
{
	struct up a = unpack(env, &F32, ra, env->fz), b = unpack(env, &F32, rb, env->fz);
	int lt;

	if (is_nan(&a) || is_nan(&b)) {
		if (signal || a.cls == C_SNAN || b.cls == C_SNAN)
			env->flags |= SF_IOC;
		return 0x3;
	}
	if (a.cls == C_ZERO && b.cls == C_ZERO)
		return 0x6;
	/* compare as sign-magnitude integers (zeros flushed have cls ZERO) */
	{
		uint32_t ma = a.cls == C_ZERO ? 0 : ra & 0x7fffffffu;
		uint32_t mb = b.cls == C_ZERO ? 0 : rb & 0x7fffffffu;
		int sa = a.cls == C_ZERO ? 0 : a.sign, sb = b.cls == C_ZERO ? 0 : b.sign;

		if (ma == mb && (sa == sb || !ma))
			return 0x6;
		if (sa != sb)
			lt = sa;
		else
			lt = sa ? ma > mb : ma < mb;
	}
	return lt ? 0x8 : 0x2;
}

uint32_t sf32_to_int(struct sf_env *env, uint32_t ra, enum sf_round rm, int sign, int bits,
		     int fbits)
{
	struct up a = unpack(env, &F32, ra, env->fz);
	uint64_t max = sign ? (1ull << (bits - 1)) - 1 : (bits == 32 ? 0xffffffffull : 0xffffull);
	uint64_t mag;
	uint32_t res;
	int e, inexact = 0;

	if (is_nan(&a)) {
		env->flags |= SF_IOC;
		return 0;
	}
	if (a.cls == C_ZERO)
		return 0;
	if (a.cls == C_INF) {
		env->flags |= SF_IOC;
		if (a.sign)
			return sign ? (uint32_t) - (int64_t)(max + 1) : 0;
		return (uint32_t)max;
	}
	e = a.e + fbits;
	if (e >= 0) {
		if (e > 40)
			mag = UINT64_MAX;
		else
			mag = a.sig << e;
	} else {
		int sh = -e;
		uint64_t s = sh >= 63 ? (a.sig != 0) : a.sig; /* drop = sh, with jam */

		if (sh >= 63) {
			/* |value| < 1/2: only the direction matters */
			s = 1;
			sh = 2;
		}
		inexact = (s & ((1ull << sh) - 1)) != 0;
		mag = (s >> sh) + (uint64_t)round_inc(rm, a.sign, s, sh);
	}
	if (!mag) {
		if (inexact)
			env->flags |= SF_IXC;
		return 0;
	}
	if (a.sign) {
		if (!sign || mag > max + 1) {
			env->flags |= SF_IOC;
			return sign ? (uint32_t) - (int64_t)(max + 1) : 0;
		}
		res = (uint32_t) - (int64_t)mag;
	} else {
		if (mag > max) {
			env->flags |= SF_IOC;
			return (uint32_t)max;
		}
		res = (uint32_t)mag;
	}
	if (inexact)
		env->flags |= SF_IXC;
	if (bits == 16)
		res = sign ? (uint32_t)(int32_t)(int16_t)res : res & 0xffff;
	return res;
}

uint32_t sf32_from_int(struct sf_env *env, uint32_t v, int sign, int fbits)
{
	int neg = sign && (int32_t)v < 0;
	uint64_t mag = neg ? (uint64_t) - (int64_t)(int32_t)v : v;

	if (!mag)
		return 0;
	return round_pack(env, &F32, neg, -fbits, mag, env->fz);
}

uint16_t sf32_to_f16(struct sf_env *env, uint32_t ra)
{
	const struct fmt *h = env->ahp ? &F16_AHP : &F16;
	struct up a = unpack(env, &F32, ra, env->fz);

	switch (a.cls) {
	case C_QNAN:
	case C_SNAN:
		if (env->ahp) {
			env->flags |= SF_IOC;
			return (uint16_t)zero_of(h, a.sign);
		}
		if (a.cls == C_SNAN)
			env->flags |= SF_IOC;
		if (env->dn)
			return (uint16_t)default_nan(h);
		return (uint16_t)(a.sign << 15 | 0x7e00 | ((ra >> 13) & 0x1ff));
	case C_INF:
		if (env->ahp) {
			env->flags |= SF_IOC;
			return (uint16_t)maxnorm_of(h, a.sign) | 0x7c00;
		}
		return (uint16_t)inf_of(h, a.sign);
	case C_ZERO: return (uint16_t)zero_of(h, a.sign);
	}
	/* the result is never flushed: QEMU clears FZ for this conversion */
	return (uint16_t)round_pack(env, h, a.sign, a.e, a.sig, 0);
}

uint32_t sf16_to_f32(struct sf_env *env, uint16_t hv)
{
	const struct fmt *h = env->ahp ? &F16_AHP : &F16;
	/* inputs are not flushed: QEMU clears FZ for this conversion */
	struct up a = unpack(env, h, hv, 0);

	switch (a.cls) {
	case C_QNAN:
	case C_SNAN:
		if (a.cls == C_SNAN)
			env->flags |= SF_IOC;
		if (env->dn)
			return SF32_DEFAULT_NAN;
		return (uint32_t)a.sign << 31 | 0x7fc00000u | (uint32_t)(hv & 0x1ff) << 13;
	case C_INF: return inf_of(&F32, a.sign);
	case C_ZERO: return zero_of(&F32, a.sign);
	}
	return round_pack(env, &F32, a.sign, a.e, a.sig, 0);
}

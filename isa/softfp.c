/*
 * softfp.c: IEEE binary16/32/64 in exact integer arithmetic, with the
 * ARM settings QEMU's softfloat uses (softfp.h has the rules).
 *
 * A finite nonzero value is held unpacked as sign and sig * 2^e with an
 * integer significand; every result goes through one rounding routine,
 * round_pack, which normalises, detects tininess before rounding, flushes,
 * rounds by the mode and packs into the format. Each operation is written
 * once for a format (struct fmt); sf32_* and sf64_* only name the format.
 * Products and fused sums of binary64 significands need 106 bits and more:
 * those are carried in unsigned __int128 and jammed down to 63 bits, with a
 * sticky bit, before rounding.
 */
#include "isa/softfp.h"

typedef unsigned __int128 u128;

enum { C_ZERO, C_NORM, C_INF, C_QNAN, C_SNAN };

struct fmt {
	int fbits; /* stored fraction bits */
	int ebits; /* exponent bits */
	int ahp;   /* ARM alternative half precision: no Inf/NaN */
};

static const struct fmt F64 = {52, 11, 0};
static const struct fmt F32 = {23, 8, 0};
static const struct fmt F16 = {10, 5, 0};
static const struct fmt F16_AHP = {10, 5, 1};

struct up {
	int cls;
	int sign;
	int e; /* C_NORM: value = sig * 2^e */
	uint64_t sig;
	uint64_t raw; /* the packed value (NaNs keep their payload) */
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

static uint64_t frac_mask(const struct fmt *f)
{
	return (1ull << f->fbits) - 1;
}

static int sign_bit(const struct fmt *f)
{
	return f->fbits + f->ebits;
}

static struct up unpack(struct sf_env *env, const struct fmt *f, uint64_t raw, int flush)
{
	uint64_t emax = (1ull << f->ebits) - 1;
	uint64_t E = raw >> f->fbits & emax;
	uint64_t F = raw & frac_mask(f);
	struct up u = {C_NORM, (int)(raw >> sign_bit(f) & 1), 0, 0, raw};

	if (E == emax && !f->ahp) {
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
	u.sig = F | 1ull << f->fbits;
	u.e = (int)E - bias_of(f) - f->fbits;
	return u;
}

static uint64_t pack(const struct fmt *f, int sign, uint64_t E, uint64_t frac)
{
	return (uint64_t)sign << sign_bit(f) | E << f->fbits | frac;
}

static uint64_t zero_of(const struct fmt *f, int sign)
{
	return pack(f, sign, 0, 0);
}

static uint64_t inf_of(const struct fmt *f, int sign)
{
	return pack(f, sign, (1ull << f->ebits) - 1, 0);
}

static uint64_t maxnorm_of(const struct fmt *f, int sign)
{
	return pack(f, sign, (1ull << f->ebits) - 2, frac_mask(f));
}

static uint64_t default_nan(const struct fmt *f)
{
	return pack(f, 0, (1ull << f->ebits) - 1, 1ull << (f->fbits - 1));
}

static uint64_t quiet(const struct fmt *f, uint64_t v)
{
	return v | 1ull << (f->fbits - 1);
}

/* The packed value of an unpacked one (zeros keep their sign: flushed inputs) */
static uint64_t repack(const struct fmt *f, const struct up *u)
{
	return u->cls == C_ZERO ? zero_of(f, u->sign) : u->raw;
}

static uint64_t shr_jam(uint64_t v, int n)
{
	if (n <= 0)
		return v;
	if (n >= 64)
		return v != 0;
	return v >> n | ((v & ((1ull << n) - 1)) != 0);
}

static int clz128(u128 v)
{
	return v >> 64 ? __builtin_clzll((uint64_t)(v >> 64)) : 64 + __builtin_clzll((uint64_t)v);
}

/* Does rounding away the low `drop` bits (0 < drop < 64) of sig increment it? */
static int round_inc(enum sf_round rm, int sign, uint64_t sig, int drop)
{
	uint64_t rest = sig & ((1ull << drop) - 1), half = 1ull << (drop - 1);

	switch (rm) {
	case SF_RN: return rest > half || (rest == half && (sig >> drop & 1));
	case SF_RA: return rest >= half;
	case SF_RP: return rest && !sign;
	case SF_RM: return rest && sign;
	default: return 0;
	}
}

/*
 * Round sign * sig * 2^e (sig != 0, exact but for a sticky bit in bit 0)
 * into format f. ftz: flush tiny results to zero (FPSCR.FZ).
 */
static uint64_t round_pack(struct sf_env *env, const struct fmt *f, int sign, int e, uint64_t sig,
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
				return pack(f, sign, (uint64_t)emax, frac_mask(f));
			}
		} else if (E >= emax) {
			env->flags |= SF_OFC | SF_IXC;
			if (env->rmode == SF_RN || env->rmode == SF_RA ||
			    (env->rmode == SF_RP && !sign) || (env->rmode == SF_RM && sign))
				return inf_of(f, sign);
			return maxnorm_of(f, sign);
		}
		if (rest)
			env->flags |= SF_IXC;
		return pack(f, sign, (uint64_t)E, sig >> drop & frac_mask(f));
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
	return pack(f, sign, sig >> 62 & 1, sig >> drop & frac_mask(f));
}

/* round_pack for a significand of up to 128 bits (products, fused sums) */
static uint64_t round_pack128(struct sf_env *env, const struct fmt *f, int sign, int e, u128 r,
			      int ftz)
{
	int hi = 127 - clz128(r);
	int sh = hi > 62 ? hi - 62 : 0;
	uint64_t s = sh ? (uint64_t)(r >> sh) | ((r & (((u128)1 << sh) - 1)) != 0) : (uint64_t)r;

	return round_pack(env, f, sign, e + sh, s, ftz);
}

/* FPProcessNaNs for two operands, one of them a NaN. */
static uint64_t pick_nan2(struct sf_env *env, const struct fmt *f, const struct up *a,
			  const struct up *b)
{
	if (a->cls == C_SNAN || b->cls == C_SNAN)
		env->flags |= SF_IOC;
	if (env->dn)
		return default_nan(f);
	if (a->cls == C_SNAN)
		return quiet(f, a->raw);
	if (b->cls == C_SNAN)
		return quiet(f, b->raw);
	if (a->cls == C_QNAN)
		return a->raw;
	return b->raw;
}

/* FPProcessNaN for one operand, a NaN. */
static uint64_t pick_nan1(struct sf_env *env, const struct fmt *f, const struct up *a)
{
	if (a->cls == C_SNAN)
		env->flags |= SF_IOC;
	if (env->dn)
		return default_nan(f);
	return quiet(f, a->raw);
}

static int is_nan(const struct up *u)
{
	return u->cls == C_QNAN || u->cls == C_SNAN;
}

/*
 * sign_a * siga * 2^ea + sign_b * sigb * 2^eb, exact then rounded; both
 * nonzero finite, significands below 2^120 (a binary64 product has 106 bits).
 */
static uint64_t add_finite(struct sf_env *env, const struct fmt *f, int sa, int ea, u128 x,
			   int sb, int eb, u128 y)
{
	u128 r;
	int d, nx, ny;

	/* put both significands' MSB at bit 125 of 128 */
	nx = clz128(x) - 2;
	ny = clz128(y) - 2;
	x <<= nx;
	y <<= ny;
	ea -= nx;
	eb -= ny;
	if (ea < eb || (ea == eb && x < y)) {
		u128 t = x;
		int te = ea, ts = sa;

		x = y, y = t;
		ea = eb, eb = te;
		sa = sb, sb = ts;
	}
	/*
	 * Align with a sticky bit: exact when d <= 1 (no bit is lost: the
	 * significands have at most 106 bits of 126), and when d >= 2 the
	 * difference loses at most one bit, far above the sticky one.
	 */
	d = ea - eb;
	if (d >= 127)
		y = y != 0;
	else if (d > 0)
		y = y >> d | ((y & (((u128)1 << d) - 1)) != 0);
	if (sa == sb) {
		r = x + y;
	} else {
		r = x - y;
		if (!r) /* exact cancellation: +0, or -0 rounding down */
			return zero_of(f, env->rmode == SF_RM);
	}
	return round_pack128(env, f, sa, ea, r, env->fz);
}

static uint64_t addsub(struct sf_env *env, const struct fmt *f, uint64_t ra, uint64_t rb, int sub)
{
	struct up a = unpack(env, f, ra, env->fz), b = unpack(env, f, rb, env->fz);
	int sb = b.sign ^ sub;

	if (is_nan(&a) || is_nan(&b))
		return pick_nan2(env, f, &a, &b);
	if (a.cls == C_INF) {
		if (b.cls == C_INF && a.sign != sb) {
			env->flags |= SF_IOC;
			return default_nan(f);
		}
		return inf_of(f, a.sign);
	}
	if (b.cls == C_INF)
		return inf_of(f, sb);
	if (a.cls == C_ZERO && b.cls == C_ZERO)
		return zero_of(f, a.sign == sb ? a.sign : env->rmode == SF_RM);
	if (a.cls == C_ZERO)
		return round_pack(env, f, sb, b.e, b.sig, env->fz);
	if (b.cls == C_ZERO)
		return round_pack(env, f, a.sign, a.e, a.sig, env->fz);
	return add_finite(env, f, a.sign, a.e, a.sig, sb, b.e, b.sig);
}

static uint64_t mul(struct sf_env *env, const struct fmt *f, uint64_t ra, uint64_t rb)
{
	struct up a = unpack(env, f, ra, env->fz), b = unpack(env, f, rb, env->fz);
	int sign = a.sign ^ b.sign;

	if (is_nan(&a) || is_nan(&b))
		return pick_nan2(env, f, &a, &b);
	if ((a.cls == C_INF && b.cls == C_ZERO) || (a.cls == C_ZERO && b.cls == C_INF)) {
		env->flags |= SF_IOC;
		return default_nan(f);
	}
	if (a.cls == C_INF || b.cls == C_INF)
		return inf_of(f, sign);
	if (a.cls == C_ZERO || b.cls == C_ZERO)
		return zero_of(f, sign);
	return round_pack128(env, f, sign, a.e + b.e, (u128)a.sig * b.sig, env->fz);
}

static uint64_t divide(struct sf_env *env, const struct fmt *f, uint64_t ra, uint64_t rb)
{
	struct up a = unpack(env, f, ra, env->fz), b = unpack(env, f, rb, env->fz);
	int sign = a.sign ^ b.sign;
	u128 n;
	uint64_t q;
	int na, nb, rem;

	if (is_nan(&a) || is_nan(&b))
		return pick_nan2(env, f, &a, &b);
	if ((a.cls == C_INF && b.cls == C_INF) || (a.cls == C_ZERO && b.cls == C_ZERO)) {
		env->flags |= SF_IOC;
		return default_nan(f);
	}
	if (a.cls == C_INF)
		return inf_of(f, sign);
	if (b.cls == C_INF || a.cls == C_ZERO)
		return zero_of(f, sign);
	if (b.cls == C_ZERO) {
		env->flags |= SF_DZC;
		return inf_of(f, sign);
	}
	/*
	 * Both significands to MSB at bit 62, then (a << 62) / b: a quotient
	 * in (2^61, 2^63), far more bits than binary64 keeps, and a sticky bit.
	 */
	na = __builtin_clzll(a.sig) - 1;
	nb = __builtin_clzll(b.sig) - 1;
	a.sig <<= na, a.e -= na;
	b.sig <<= nb, b.e -= nb;
	n = (u128)a.sig << 62;
	q = (uint64_t)(n / b.sig);
	rem = n % b.sig != 0;
	return round_pack(env, f, sign, a.e - 62 - b.e - 1, q << 1 | (uint64_t)rem, env->fz);
}

/* floor(sqrt(m)) for m < 2^126; *exact when it is the exact root */
static uint64_t isqrt128(u128 m, int *exact)
{
	u128 r = 0, bit = (u128)1 << 124;

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
	return (uint64_t)r;
}

static uint64_t root(struct sf_env *env, const struct fmt *f, uint64_t ra)
{
	struct up a = unpack(env, f, ra, env->fz);
	int exact, n;
	uint64_t r;
	u128 m;

	if (is_nan(&a))
		return pick_nan1(env, f, &a);
	if (a.cls == C_ZERO)
		return zero_of(f, a.sign);
	if (a.sign) {
		env->flags |= SF_IOC;
		return default_nan(f);
	}
	if (a.cls == C_INF)
		return ra;
	/* sig to MSB at bit 124 or 125 with an even exponent: a 62- or 63-bit root */
	n = __builtin_clzll(a.sig) - 2;
	a.sig <<= n;
	a.e -= n;
	if (a.e & 1) {
		a.sig >>= 1; /* the low bits are zero: exact */
		a.e += 1;
	}
	m = (u128)a.sig << 62;
	r = isqrt128(m, &exact);
	return round_pack(env, f, 0, (a.e - 62) / 2 - 1, r << 1 | (uint64_t)!exact, env->fz);
}

static uint64_t muladd(struct sf_env *env, const struct fmt *f, uint64_t ra, uint64_t rb,
		       uint64_t rc)
{
	struct up a = unpack(env, f, ra, env->fz), b = unpack(env, f, rb, env->fz);
	struct up c = unpack(env, f, rc, env->fz);
	int infzero = (a.cls == C_INF && b.cls == C_ZERO) || (a.cls == C_ZERO && b.cls == C_INF);
	int ps;

	if (is_nan(&a) || is_nan(&b) || is_nan(&c)) {
		/* the addend first (ARM's operand order for VFMA), then a, b */
		if (a.cls == C_SNAN || b.cls == C_SNAN || c.cls == C_SNAN || infzero)
			env->flags |= SF_IOC;
		if (env->dn || (infzero && c.cls == C_QNAN))
			return default_nan(f);
		if (c.cls == C_SNAN)
			return quiet(f, rc);
		if (a.cls == C_SNAN)
			return quiet(f, ra);
		if (b.cls == C_SNAN)
			return quiet(f, rb);
		if (c.cls == C_QNAN)
			return rc;
		if (a.cls == C_QNAN)
			return ra;
		return rb;
	}
	if (infzero) {
		env->flags |= SF_IOC;
		return default_nan(f);
	}
	ps = a.sign ^ b.sign;
	if (a.cls == C_INF || b.cls == C_INF) {
		if (c.cls == C_INF && c.sign != ps) {
			env->flags |= SF_IOC;
			return default_nan(f);
		}
		return inf_of(f, ps);
	}
	if (c.cls == C_INF)
		return inf_of(f, c.sign);
	if (a.cls == C_ZERO || b.cls == C_ZERO) {
		if (c.cls == C_NORM)
			return round_pack(env, f, c.sign, c.e, c.sig, env->fz);
		return zero_of(f, ps == c.sign ? ps : env->rmode == SF_RM);
	}
	if (c.cls == C_ZERO)
		return round_pack128(env, f, ps, a.e + b.e, (u128)a.sig * b.sig, env->fz);
	return add_finite(env, f, ps, a.e + b.e, (u128)a.sig * b.sig, c.sign, c.e, c.sig);
}

static unsigned cmp(struct sf_env *env, const struct fmt *f, uint64_t ra, uint64_t rb, int signal)
{
	struct up a = unpack(env, f, ra, env->fz), b = unpack(env, f, rb, env->fz);
	uint64_t mag = (1ull << sign_bit(f)) - 1, ma, mb;
	int lt, sa, sb;

	if (is_nan(&a) || is_nan(&b)) {
		if (signal || a.cls == C_SNAN || b.cls == C_SNAN)
			env->flags |= SF_IOC;
		return 0x3;
	}
	if (a.cls == C_ZERO && b.cls == C_ZERO)
		return 0x6;
	/* compare as sign-magnitude integers (zeros flushed have cls ZERO) */
	ma = a.cls == C_ZERO ? 0 : ra & mag;
	mb = b.cls == C_ZERO ? 0 : rb & mag;
	sa = a.cls == C_ZERO ? 0 : a.sign;
	sb = b.cls == C_ZERO ? 0 : b.sign;
	if (ma == mb && (sa == sb || !ma))
		return 0x6;
	if (sa != sb)
		lt = sa;
	else
		lt = sa ? ma > mb : ma < mb;
	return lt ? 0x8 : 0x2;
}

static uint32_t to_int(struct sf_env *env, const struct fmt *f, uint64_t ra, enum sf_round rm,
		       int sign, int bits, int fbits)
{
	struct up a = unpack(env, f, ra, env->fz);
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
		/* sig has at most fbits + 1 bits: 2^63 and more saturate anyway */
		if (e > 62 - f->fbits)
			mag = UINT64_MAX;
		else
			mag = a.sig << e;
	} else {
		int sh = -e;
		uint64_t s = a.sig;

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

static uint64_t from_int(struct sf_env *env, const struct fmt *f, uint32_t v, int sign, int fbits)
{
	int neg = sign && (int32_t)v < 0;
	uint64_t mag = neg ? (uint64_t) - (int64_t)(int32_t)v : v;

	if (!mag)
		return 0;
	return round_pack(env, f, neg, -fbits, mag, env->fz);
}

static uint64_t round_int(struct sf_env *env, const struct fmt *f, uint64_t ra, enum sf_round rm,
		     int exact)
{
	struct up a = unpack(env, f, ra, env->fz);
	uint64_t s, m;
	int sh, rest;

	if (is_nan(&a))
		return pick_nan1(env, f, &a);
	if (a.cls != C_NORM)
		return repack(f, &a);
	if (a.e >= 0)
		return ra; /* already integral */
	sh = -a.e;
	s = a.sig;
	if (sh >= 63) {
		/* |value| < 1/2: only the direction matters */
		s = 1;
		sh = 2;
	}
	rest = (s & ((1ull << sh) - 1)) != 0;
	m = (s >> sh) + (uint64_t)round_inc(rm, a.sign, s, sh);
	if (rest && exact)
		env->flags |= SF_IXC;
	if (!m)
		return zero_of(f, a.sign);
	/* m <= 2^(fbits+1): exact, no flags */
	return round_pack(env, f, a.sign, 0, m, 0);
}

static uint64_t minmaxnum(struct sf_env *env, const struct fmt *f, uint64_t ra, uint64_t rb,
			  int max)
{
	struct up a = unpack(env, f, ra, env->fz), b = unpack(env, f, rb, env->fz);
	const struct up *r;
	int c;

	if (is_nan(&a) || is_nan(&b)) {
		/* a quiet NaN and a number: the number */
		if (a.cls != C_SNAN && b.cls != C_SNAN && !(is_nan(&a) && is_nan(&b)))
			return repack(f, is_nan(&a) ? &b : &a);
		return pick_nan2(env, f, &a, &b);
	}
	if (a.sign != b.sign) {
		c = a.sign ? -1 : 1; /* the negative one is less, -0 < +0 too */
	} else {
		uint64_t ma = a.cls == C_ZERO ? 0 : a.raw & ((1ull << sign_bit(f)) - 1);
		uint64_t mb = b.cls == C_ZERO ? 0 : b.raw & ((1ull << sign_bit(f)) - 1);

		c = ma == mb ? 0 : ma < mb ? -1 : 1;
		if (a.sign)
			c = -c;
	}
	if (!max)
		c = -c;
	r = c < 0 ? &b : &a;
	return repack(f, r);
}

/* Between formats: NaNs keep the top of their payload, quieted. */
static uint64_t convert(struct sf_env *env, const struct fmt *to, const struct fmt *from,
			uint64_t ra, int flush_in, int flush_out)
{
	struct up a = unpack(env, from, ra, flush_in);

	switch (a.cls) {
	case C_QNAN:
	case C_SNAN: {
		uint64_t fr = quiet(from, a.raw) & frac_mask(from);

		if (to->ahp) {
			env->flags |= SF_IOC;
			return zero_of(to, a.sign);
		}
		if (a.cls == C_SNAN)
			env->flags |= SF_IOC;
		if (env->dn)
			return default_nan(to);
		fr = to->fbits >= from->fbits ? fr << (to->fbits - from->fbits)
					      : fr >> (from->fbits - to->fbits);
		return pack(to, a.sign, (1ull << to->ebits) - 1, fr);
	}
	case C_INF:
		if (to->ahp) {
			env->flags |= SF_IOC;
			return pack(to, a.sign, (1ull << to->ebits) - 1, frac_mask(to));
		}
		return inf_of(to, a.sign);
	case C_ZERO: return zero_of(to, a.sign);
	}
	return round_pack(env, to, a.sign, a.e, a.sig, flush_out);
}

/* The two formats' entry points */

uint32_t sf32_add(struct sf_env *e, uint32_t a, uint32_t b)
{
	return (uint32_t)addsub(e, &F32, a, b, 0);
}

uint32_t sf32_sub(struct sf_env *e, uint32_t a, uint32_t b)
{
	return (uint32_t)addsub(e, &F32, a, b, 1);
}

uint32_t sf32_mul(struct sf_env *e, uint32_t a, uint32_t b)
{
	return (uint32_t)mul(e, &F32, a, b);
}

uint32_t sf32_div(struct sf_env *e, uint32_t a, uint32_t b)
{
	return (uint32_t)divide(e, &F32, a, b);
}

uint32_t sf32_sqrt(struct sf_env *e, uint32_t a)
{
	return (uint32_t)root(e, &F32, a);
}

uint32_t sf32_muladd(struct sf_env *e, uint32_t a, uint32_t b, uint32_t c)
{
	return (uint32_t)muladd(e, &F32, a, b, c);
}

unsigned sf32_cmp(struct sf_env *e, uint32_t a, uint32_t b, int signal)
{
	return cmp(e, &F32, a, b, signal);
}

uint32_t sf32_to_int(struct sf_env *e, uint32_t a, enum sf_round rmode, int sign, int bits,
		     int fbits)
{
	return to_int(e, &F32, a, rmode, sign, bits, fbits);
}

uint32_t sf32_from_int(struct sf_env *e, uint32_t v, int sign, int fbits)
{
	return (uint32_t)from_int(e, &F32, v, sign, fbits);
}

uint32_t sf32_rint(struct sf_env *e, uint32_t a, enum sf_round rmode, int exact)
{
	return (uint32_t)round_int(e, &F32, a, rmode, exact);
}

uint32_t sf32_minmaxnum(struct sf_env *e, uint32_t a, uint32_t b, int max)
{
	return (uint32_t)minmaxnum(e, &F32, a, b, max);
}

/* Half precision: QEMU clears FZ for these, on the f16 side (result or input) */
uint16_t sf32_to_f16(struct sf_env *e, uint32_t a)
{
	return (uint16_t)convert(e, e->ahp ? &F16_AHP : &F16, &F32, a, e->fz, 0);
}

uint32_t sf16_to_f32(struct sf_env *e, uint16_t h)
{
	return (uint32_t)convert(e, &F32, e->ahp ? &F16_AHP : &F16, h, 0, 0);
}

uint64_t sf64_add(struct sf_env *e, uint64_t a, uint64_t b)
{
	return addsub(e, &F64, a, b, 0);
}

uint64_t sf64_sub(struct sf_env *e, uint64_t a, uint64_t b)
{
	return addsub(e, &F64, a, b, 1);
}

uint64_t sf64_mul(struct sf_env *e, uint64_t a, uint64_t b)
{
	return mul(e, &F64, a, b);
}

uint64_t sf64_div(struct sf_env *e, uint64_t a, uint64_t b)
{
	return divide(e, &F64, a, b);
}

uint64_t sf64_sqrt(struct sf_env *e, uint64_t a)
{
	return root(e, &F64, a);
}

uint64_t sf64_muladd(struct sf_env *e, uint64_t a, uint64_t b, uint64_t c)
{
	return muladd(e, &F64, a, b, c);
}

unsigned sf64_cmp(struct sf_env *e, uint64_t a, uint64_t b, int signal)
{
	return cmp(e, &F64, a, b, signal);
}

uint32_t sf64_to_int(struct sf_env *e, uint64_t a, enum sf_round rmode, int sign, int bits,
		     int fbits)
{
	return to_int(e, &F64, a, rmode, sign, bits, fbits);
}

uint64_t sf64_from_int(struct sf_env *e, uint32_t v, int sign, int fbits)
{
	return from_int(e, &F64, v, sign, fbits);
}

uint64_t sf64_rint(struct sf_env *e, uint64_t a, enum sf_round rmode, int exact)
{
	return round_int(e, &F64, a, rmode, exact);
}

uint64_t sf64_minmaxnum(struct sf_env *e, uint64_t a, uint64_t b, int max)
{
	return minmaxnum(e, &F64, a, b, max);
}

uint32_t sf64_to_f32(struct sf_env *e, uint64_t a)
{
	return (uint32_t)convert(e, &F32, &F64, a, e->fz, e->fz);
}

uint64_t sf32_to_f64(struct sf_env *e, uint32_t a)
{
	return convert(e, &F64, &F32, a, e->fz, e->fz);
}

uint16_t sf64_to_f16(struct sf_env *e, uint64_t a)
{
	return (uint16_t)convert(e, e->ahp ? &F16_AHP : &F16, &F64, a, e->fz, 0);
}

uint64_t sf16_to_f64(struct sf_env *e, uint16_t h)
{
	return convert(e, &F64, e->ahp ? &F16_AHP : &F16, h, 0, 0);
}

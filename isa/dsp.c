/*
 * dsp.c: the ARMv7E-M DSP extension (Cortex-M4): parallel add/subtract,
 * saturating arithmetic, packing, halfword multiplies, SEL and the GE flags.
 * On a Cortex-M3 every one of these is UNDEFINED (UsageFault UNDEFINSTR).
 *
 * Semantics follow the pseudocode of the ARMv7-M ARM (DDI 0403E, A7.7).
 * Operand layouts are Capstone 4.0.2's, in assembler order:
 *   3-register ops          Rd, Rn, Rm         (QADD & co.: Rd, Rm, Rn)
 *   4-register ops          Rd, Rn, Rm, Ra
 *   long accumulates/UMAAL  RdLo, RdHi, Rn, Rm
 *   SSAT16/USAT16           Rd, #sat (as printed: 1..16 / 0..15), Rn
 *   PKHBT/PKHTB             Rd, Rn, Rm{shift}: LSL n, or ASR n with n 1..32
 *                           (no shift: shift_type 0)
 *   extend (+add)           Rd, {Rn,} Rm{ROR #8/16/24}
 * Capstone's update_flags is never used (it claims UADD8 sets flags).
 * As in exec.c, every input is read before anything is written.
 */
#include "isa/isa_priv.h"
#include "isa/model.h"

#define APSR_GE_SHIFT 16
#define APSR_GE (0xfu << APSR_GE_SHIFT)

/* ---- helpers ---------------------------------------------------------- */

static inline int no_dsp(const struct isa_cpu *c)
{
	return !isa_model_info(c->model)->dsp;
}

static int undef(struct isa_cpu *c)
{
	return isa_fault(c, EXC_USAGEFAULT, UFSR_UNDEFINSTR, 0);
}

#define DSP_ONLY(c)                 \
	do {                        \
		if (no_dsp(c))      \
			return undef(c); \
	} while (0)

static inline uint32_t reg(const struct isa_cpu *c, const struct isa_insn *in, int i)
{
	return rreg(c, in->op[i].reg);
}

static inline void set_ge(struct isa_cpu *c, unsigned ge)
{
	c->s.apsr = (c->s.apsr & ~APSR_GE) | (ge & 0xf) << APSR_GE_SHIFT;
}

static inline unsigned get_ge(const struct isa_cpu *c)
{
	return c->s.apsr >> APSR_GE_SHIFT & 0xf;
}

static inline void set_q(struct isa_cpu *c)
{
	c->s.apsr |= APSR_Q;
}

static inline int32_t lo16(uint32_t v)
{
	return (int16_t)(v & 0xffff);
}

static inline int32_t hi16(uint32_t v)
{
	return (int16_t)(v >> 16);
}

/* SignedSat / UnsignedSat (A2.2.3) reporting saturation through *sat. */
static int64_t ssat(int64_t v, unsigned bits, int *sat)
{
	int64_t hi = ((int64_t)1 << (bits - 1)) - 1, lo = -((int64_t)1 << (bits - 1));

	if (v > hi) {
		*sat = 1;
		return hi;
	}
	if (v < lo) {
		*sat = 1;
		return lo;
	}
	return v;
}

static int64_t usat(int64_t v, unsigned bits, int *sat)
{
	int64_t hi = ((int64_t)1 << bits) - 1;

	if (v > hi) {
		*sat = 1;
		return hi;
	}
	if (v < 0) {
		*sat = 1;
		return 0;
	}
	return v;
}

/* ROR(Rm, rotation) of the extend instructions (rotation 0/8/16/24). */
static uint32_t rotated(const struct isa_cpu *c, const struct isa_op *o)
{
	uint32_t v = rreg(c, o->reg);
	unsigned n = o->shift_type == ARM_SFT_ROR ? o->shift & 31 : 0;

	return n ? v >> n | v << (32 - n) : v;
}

/* ---- parallel add/subtract (A4.4.3) ---------------------------------- */

/* Prefixes: S and U set GE; Q/UQ saturate; SH/UH halve. */
enum pfx { P_S, P_Q, P_SH, P_U, P_UQ, P_UH };
/* Operations: lane arrangements. */
enum pop { O_ADD16, O_ASX, O_SAX, O_SUB16, O_ADD8, O_SUB8 };

static int parallel(struct isa_cpu *c, const struct isa_insn *in, enum pfx p, enum pop o)
{
	int sgn = p <= P_SH, w = (o == O_ADD8 || o == O_SUB8) ? 8 : 16;
	int lanes = 32 / w, sat = 0;
	uint32_t n = reg(c, in, 1), m = reg(c, in, 2), mask = (1u << w) - 1, r = 0;
	unsigned ge = 0;

	DSP_ONLY(c);
	for (int i = 0; i < lanes; i++) {
		/* lane i of the result takes Rn lane i and Rm lane mi */
		int mi = (o == O_ASX || o == O_SAX) ? 1 - i : i;
		int sub = o == O_SUB16 || o == O_SUB8 || (o == O_ASX && i == 0) ||
			  (o == O_SAX && i == 1);
		uint32_t un = n >> (i * w) & mask, um = m >> (mi * w) & mask;
		int32_t a, b, x, v;

		if (sgn) {
			a = (int32_t)(un << (32 - w)) >> (32 - w);
			b = (int32_t)(um << (32 - w)) >> (32 - w);
		} else {
			a = (int32_t)un;
			b = (int32_t)um;
		}
		x = sub ? a - b : a + b;
		switch (p) {
		case P_S:
			v = x;
			ge |= (x >= 0) << i;
			break;
		case P_U:
			v = x;
			ge |= (sub ? x >= 0 : x >= (1 << w)) << i;
			break;
		case P_Q: v = (int32_t)ssat(x, w, &sat); break;
		case P_UQ: v = (int32_t)usat(x, w, &sat); break;
		default: v = x >> 1; break; /* SH, UH: sum<w:1> */
		}
		r |= ((uint32_t)v & mask) << (i * w);
	}
	if (p == P_S || p == P_U)
		set_ge(c, w == 16 ? (ge & 1) * 3 | (ge >> 1 & 1) * 0xc : ge);
	isa_wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* Rd.h[i] := Rn.h[i] + Rm.h[i] (signed); GE[2i+1:2i] := sum >= 0 */
static int x_sadd16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_S, O_ADD16);
}
/* Rd.h0 := Rn.h0 - Rm.h1, Rd.h1 := Rn.h1 + Rm.h0 (signed); GE per result >= 0 */
static int x_sasx(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_S, O_ASX);
}
/* Rd.h0 := Rn.h0 + Rm.h1, Rd.h1 := Rn.h1 - Rm.h0 (signed); GE per result >= 0 */
static int x_ssax(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_S, O_SAX);
}
/* Rd.h[i] := Rn.h[i] - Rm.h[i] (signed); GE per difference >= 0 */
static int x_ssub16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_S, O_SUB16);
}
/* Rd.b[i] := Rn.b[i] + Rm.b[i] (signed); GE[i] := sum >= 0 */
static int x_sadd8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_S, O_ADD8);
}
/* Rd.b[i] := Rn.b[i] - Rm.b[i] (signed); GE[i] := difference >= 0 */
static int x_ssub8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_S, O_SUB8);
}

/* Rd.h[i] := SignedSat16(Rn.h[i] + Rm.h[i]) */
static int x_qadd16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_Q, O_ADD16);
}
/* Rd.h0 := SignedSat16(Rn.h0 - Rm.h1), Rd.h1 := SignedSat16(Rn.h1 + Rm.h0) */
static int x_qasx(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_Q, O_ASX);
}
/* Rd.h0 := SignedSat16(Rn.h0 + Rm.h1), Rd.h1 := SignedSat16(Rn.h1 - Rm.h0) */
static int x_qsax(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_Q, O_SAX);
}
/* Rd.h[i] := SignedSat16(Rn.h[i] - Rm.h[i]) */
static int x_qsub16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_Q, O_SUB16);
}
/* Rd.b[i] := SignedSat8(Rn.b[i] + Rm.b[i]) */
static int x_qadd8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_Q, O_ADD8);
}
/* Rd.b[i] := SignedSat8(Rn.b[i] - Rm.b[i]) */
static int x_qsub8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_Q, O_SUB8);
}

/* Rd.h[i] := (Rn.h[i] + Rm.h[i]) >> 1 (signed) */
static int x_shadd16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_SH, O_ADD16);
}
/* Rd.h0 := (Rn.h0 - Rm.h1) >> 1, Rd.h1 := (Rn.h1 + Rm.h0) >> 1 (signed) */
static int x_shasx(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_SH, O_ASX);
}
/* Rd.h0 := (Rn.h0 + Rm.h1) >> 1, Rd.h1 := (Rn.h1 - Rm.h0) >> 1 (signed) */
static int x_shsax(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_SH, O_SAX);
}
/* Rd.h[i] := (Rn.h[i] - Rm.h[i]) >> 1 (signed) */
static int x_shsub16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_SH, O_SUB16);
}
/* Rd.b[i] := (Rn.b[i] + Rm.b[i]) >> 1 (signed) */
static int x_shadd8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_SH, O_ADD8);
}
/* Rd.b[i] := (Rn.b[i] - Rm.b[i]) >> 1 (signed) */
static int x_shsub8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_SH, O_SUB8);
}

/* Rd.h[i] := Rn.h[i] + Rm.h[i] (unsigned); GE[2i+1:2i] := carry out */
static int x_uadd16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_U, O_ADD16);
}
/* Rd.h0 := Rn.h0 - Rm.h1 (GE: no borrow), Rd.h1 := Rn.h1 + Rm.h0 (GE: carry) */
static int x_uasx(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_U, O_ASX);
}
/* Rd.h0 := Rn.h0 + Rm.h1 (GE: carry), Rd.h1 := Rn.h1 - Rm.h0 (GE: no borrow) */
static int x_usax(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_U, O_SAX);
}
/* Rd.h[i] := Rn.h[i] - Rm.h[i] (unsigned); GE := no borrow */
static int x_usub16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_U, O_SUB16);
}
/* Rd.b[i] := Rn.b[i] + Rm.b[i] (unsigned); GE[i] := carry out */
static int x_uadd8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_U, O_ADD8);
}
/* Rd.b[i] := Rn.b[i] - Rm.b[i] (unsigned); GE[i] := no borrow */
static int x_usub8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_U, O_SUB8);
}

/* Rd.h[i] := UnsignedSat16(Rn.h[i] + Rm.h[i]) */
static int x_uqadd16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UQ, O_ADD16);
}
/* Rd.h0 := UnsignedSat16(Rn.h0 - Rm.h1), Rd.h1 := UnsignedSat16(Rn.h1 + Rm.h0) */
static int x_uqasx(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UQ, O_ASX);
}
/* Rd.h0 := UnsignedSat16(Rn.h0 + Rm.h1), Rd.h1 := UnsignedSat16(Rn.h1 - Rm.h0) */
static int x_uqsax(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UQ, O_SAX);
}
/* Rd.h[i] := UnsignedSat16(Rn.h[i] - Rm.h[i]) */
static int x_uqsub16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UQ, O_SUB16);
}
/* Rd.b[i] := UnsignedSat8(Rn.b[i] + Rm.b[i]) */
static int x_uqadd8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UQ, O_ADD8);
}
/* Rd.b[i] := UnsignedSat8(Rn.b[i] - Rm.b[i]) */
static int x_uqsub8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UQ, O_SUB8);
}

/* Rd.h[i] := (Rn.h[i] + Rm.h[i]) >> 1 (unsigned) */
static int x_uhadd16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UH, O_ADD16);
}
/* Rd.h0 := (Rn.h0 - Rm.h1) >> 1, Rd.h1 := (Rn.h1 + Rm.h0) >> 1 (unsigned) */
static int x_uhasx(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UH, O_ASX);
}
/* Rd.h0 := (Rn.h0 + Rm.h1) >> 1, Rd.h1 := (Rn.h1 - Rm.h0) >> 1 (unsigned) */
static int x_uhsax(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UH, O_SAX);
}
/* Rd.h[i] := (Rn.h[i] - Rm.h[i]) >> 1 (unsigned) */
static int x_uhsub16(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UH, O_SUB16);
}
/* Rd.b[i] := (Rn.b[i] + Rm.b[i]) >> 1 (unsigned) */
static int x_uhadd8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UH, O_ADD8);
}
/* Rd.b[i] := (Rn.b[i] - Rm.b[i]) >> 1 (unsigned) */
static int x_uhsub8(struct isa_cpu *c, const struct isa_insn *in)
{
	return parallel(c, in, P_UH, O_SUB8);
}

/* ---- SEL, sum of absolute differences -------------------------------- */

/* Rd.b[i] := GE[i] ? Rn.b[i] : Rm.b[i] */
static int x_sel(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t n = reg(c, in, 1), m = reg(c, in, 2), mask = 0;
	unsigned ge = get_ge(c);

	DSP_ONLY(c);
	for (int i = 0; i < 4; i++)
		if (ge >> i & 1)
			mask |= 0xffu << (8 * i);
	isa_wreg(c, in->op[0].reg, (n & mask) | (m & ~mask));
	return EX_OK;
}

static uint32_t sad8(uint32_t n, uint32_t m)
{
	uint32_t s = 0;

	for (int i = 0; i < 32; i += 8) {
		int d = (int)(n >> i & 0xff) - (int)(m >> i & 0xff);

		s += d < 0 ? -d : d;
	}
	return s;
}

/* Rd := sum of |Rn.b[i] - Rm.b[i]| (unsigned bytes) */
static int x_usad8(struct isa_cpu *c, const struct isa_insn *in)
{
	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, sad8(reg(c, in, 1), reg(c, in, 2)));
	return EX_OK;
}

/* Rd := Ra + sum of |Rn.b[i] - Rm.b[i]| (unsigned bytes) */
static int x_usada8(struct isa_cpu *c, const struct isa_insn *in)
{
	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, reg(c, in, 3) + sad8(reg(c, in, 1), reg(c, in, 2)));
	return EX_OK;
}

/* ---- saturating arithmetic (Capstone order: Rd, Rm, Rn) -------------- */

static int qaddsub(struct isa_cpu *c, const struct isa_insn *in, int sub, int dbl)
{
	int64_t m = (int32_t)reg(c, in, 1), n = (int32_t)reg(c, in, 2);
	int sat = 0;
	int64_t r;

	DSP_ONLY(c);
	if (dbl)
		n = ssat(2 * n, 32, &sat);
	r = ssat(sub ? m - n : m + n, 32, &sat);
	if (sat)
		set_q(c);
	isa_wreg(c, in->op[0].reg, (uint32_t)r);
	return EX_OK;
}

/* Rd := SignedSat32(Rm + Rn); Q on saturation */
static int x_qadd(struct isa_cpu *c, const struct isa_insn *in) { return qaddsub(c, in, 0, 0); }
/* Rd := SignedSat32(Rm - Rn); Q on saturation */
static int x_qsub(struct isa_cpu *c, const struct isa_insn *in) { return qaddsub(c, in, 1, 0); }
/* Rd := SignedSat32(Rm + SignedSat32(2 * Rn)); Q if either saturates */
static int x_qdadd(struct isa_cpu *c, const struct isa_insn *in) { return qaddsub(c, in, 0, 1); }
/* Rd := SignedSat32(Rm - SignedSat32(2 * Rn)); Q if either saturates */
static int x_qdsub(struct isa_cpu *c, const struct isa_insn *in) { return qaddsub(c, in, 1, 1); }

/* Rd.h[i] := SignedSat(Rn.h[i], #sat) (sat 1..16); Q on saturation */
static int x_ssat16(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t n = reg(c, in, 2);
	unsigned bits = in->op[1].imm;
	int sat = 0;
	uint32_t r;

	DSP_ONLY(c);
	r = ((uint32_t)ssat(lo16(n), bits, &sat) & 0xffff) |
	    (uint32_t)ssat(hi16(n), bits, &sat) << 16;
	if (sat)
		set_q(c);
	isa_wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* Rd.h[i] := UnsignedSat(SInt(Rn.h[i]), #sat) (sat 0..15); Q on saturation */
static int x_usat16(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t n = reg(c, in, 2);
	unsigned bits = in->op[1].imm;
	int sat = 0;
	uint32_t r;

	DSP_ONLY(c);
	r = ((uint32_t)usat(lo16(n), bits, &sat) & 0xffff) |
	    (uint32_t)usat(hi16(n), bits, &sat) << 16;
	if (sat)
		set_q(c);
	isa_wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* ---- packing ---------------------------------------------------------- */

/* Rd := (Rm LSL n)[31:16] : Rn[15:0] */
static int x_pkhbt(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t n = reg(c, in, 1), m = reg(c, in, 2);
	unsigned sh = in->op[2].shift_type == ARM_SFT_LSL ? in->op[2].shift & 31 : 0;

	DSP_ONLY(c);
	m <<= sh;
	isa_wreg(c, in->op[0].reg, (m & 0xffff0000u) | (n & 0xffff));
	return EX_OK;
}

/* Rd := Rn[31:16] : (Rm ASR n)[15:0] (n 1..32) */
static int x_pkhtb(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t n = reg(c, in, 1), m = reg(c, in, 2);
	unsigned sh = in->op[2].shift_type == ARM_SFT_ASR ? in->op[2].shift : 0;

	DSP_ONLY(c);
	m = (uint32_t)((int32_t)m >> (sh > 31 ? 31 : sh));
	isa_wreg(c, in->op[0].reg, (n & 0xffff0000u) | (m & 0xffff));
	return EX_OK;
}

/* ---- extend and add --------------------------------------------------- */

/* Rd := Rn + SignExtend(ROR(Rm)[7:0]) */
static int x_sxtab(struct isa_cpu *c, const struct isa_insn *in)
{
	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg,
		 reg(c, in, 1) + (uint32_t)(int32_t)(int8_t)rotated(c, &in->op[2]));
	return EX_OK;
}

/* Rd := Rn + SignExtend(ROR(Rm)[15:0]) */
static int x_sxtah(struct isa_cpu *c, const struct isa_insn *in)
{
	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg,
		 reg(c, in, 1) + (uint32_t)(int32_t)(int16_t)rotated(c, &in->op[2]));
	return EX_OK;
}

/* Rd := Rn + ZeroExtend(ROR(Rm)[7:0]) */
static int x_uxtab(struct isa_cpu *c, const struct isa_insn *in)
{
	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, reg(c, in, 1) + (rotated(c, &in->op[2]) & 0xff));
	return EX_OK;
}

/* Rd := Rn + ZeroExtend(ROR(Rm)[15:0]) */
static int x_uxtah(struct isa_cpu *c, const struct isa_insn *in)
{
	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, reg(c, in, 1) + (rotated(c, &in->op[2]) & 0xffff));
	return EX_OK;
}

/* Two halfword lanes: acc.h[i] + extend(ROR(Rm).b[2i]). */
static uint32_t xt16(uint32_t acc, uint32_t v, int sign)
{
	uint32_t b0 = v & 0xff, b2 = v >> 16 & 0xff;

	if (sign) {
		b0 = (uint32_t)(int32_t)(int8_t)b0;
		b2 = (uint32_t)(int32_t)(int8_t)b2;
	}
	return ((acc + b0) & 0xffff) | ((acc >> 16) + b2) << 16;
}

/* Rd.h0 := Rn.h0 + SignExtend(ROR(Rm).b0); Rd.h1 := Rn.h1 + SignExtend(ROR(Rm).b2) */
static int x_sxtab16(struct isa_cpu *c, const struct isa_insn *in)
{
	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, xt16(reg(c, in, 1), rotated(c, &in->op[2]), 1));
	return EX_OK;
}

/* Rd.h0 := Rn.h0 + ZeroExtend(ROR(Rm).b0); Rd.h1 := Rn.h1 + ZeroExtend(ROR(Rm).b2) */
static int x_uxtab16(struct isa_cpu *c, const struct isa_insn *in)
{
	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, xt16(reg(c, in, 1), rotated(c, &in->op[2]), 0));
	return EX_OK;
}

/* Rd.h0 := SignExtend(ROR(Rm).b0); Rd.h1 := SignExtend(ROR(Rm).b2) */
static int x_sxtb16(struct isa_cpu *c, const struct isa_insn *in)
{
	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, xt16(0, rotated(c, &in->op[1]), 1));
	return EX_OK;
}

/* Rd.h0 := ZeroExtend(ROR(Rm).b0); Rd.h1 := ZeroExtend(ROR(Rm).b2) */
static int x_uxtb16(struct isa_cpu *c, const struct isa_insn *in)
{
	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, xt16(0, rotated(c, &in->op[1]), 0));
	return EX_OK;
}

/* ---- halfword multiplies ---------------------------------------------- */

static inline int64_t half(uint32_t v, int top)
{
	return top ? hi16(v) : lo16(v);
}

/* SMLA<x><y>: Rd := Rn.x * Rm.y + Ra; Q if the sum overflows 32 bits */
static int smla_xy(struct isa_cpu *c, const struct isa_insn *in, int nt, int mt)
{
	int64_t r = half(reg(c, in, 1), nt) * half(reg(c, in, 2), mt) + (int32_t)reg(c, in, 3);

	DSP_ONLY(c);
	if (r != (int32_t)r)
		set_q(c);
	isa_wreg(c, in->op[0].reg, (uint32_t)r);
	return EX_OK;
}

/* Rd := Rn.b * Rm.b + Ra; Q on signed overflow */
static int x_smlabb(struct isa_cpu *c, const struct isa_insn *in) { return smla_xy(c, in, 0, 0); }
/* Rd := Rn.b * Rm.t + Ra; Q on signed overflow */
static int x_smlabt(struct isa_cpu *c, const struct isa_insn *in) { return smla_xy(c, in, 0, 1); }
/* Rd := Rn.t * Rm.b + Ra; Q on signed overflow */
static int x_smlatb(struct isa_cpu *c, const struct isa_insn *in) { return smla_xy(c, in, 1, 0); }
/* Rd := Rn.t * Rm.t + Ra; Q on signed overflow */
static int x_smlatt(struct isa_cpu *c, const struct isa_insn *in) { return smla_xy(c, in, 1, 1); }

/* SMUL<x><y>: Rd := Rn.x * Rm.y (cannot overflow) */
static int smul_xy(struct isa_cpu *c, const struct isa_insn *in, int nt, int mt)
{
	int64_t r = half(reg(c, in, 1), nt) * half(reg(c, in, 2), mt);

	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, (uint32_t)r);
	return EX_OK;
}

/* Rd := Rn.b * Rm.b */
static int x_smulbb(struct isa_cpu *c, const struct isa_insn *in) { return smul_xy(c, in, 0, 0); }
/* Rd := Rn.b * Rm.t */
static int x_smulbt(struct isa_cpu *c, const struct isa_insn *in) { return smul_xy(c, in, 0, 1); }
/* Rd := Rn.t * Rm.b */
static int x_smultb(struct isa_cpu *c, const struct isa_insn *in) { return smul_xy(c, in, 1, 0); }
/* Rd := Rn.t * Rm.t */
static int x_smultt(struct isa_cpu *c, const struct isa_insn *in) { return smul_xy(c, in, 1, 1); }

/* SMLAL<x><y>: RdHi:RdLo += Rn.x * Rm.y (64-bit, wraps) */
static int smlal_xy(struct isa_cpu *c, const struct isa_insn *in, int nt, int mt)
{
	uint64_t acc = (uint64_t)reg(c, in, 1) << 32 | reg(c, in, 0);
	uint64_t r = acc + (uint64_t)(half(reg(c, in, 2), nt) * half(reg(c, in, 3), mt));

	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, (uint32_t)r);
	isa_wreg(c, in->op[1].reg, (uint32_t)(r >> 32));
	return EX_OK;
}

/* RdHi:RdLo += Rn.b * Rm.b */
static int x_smlalbb(struct isa_cpu *c, const struct isa_insn *in) { return smlal_xy(c, in, 0, 0); }
/* RdHi:RdLo += Rn.b * Rm.t */
static int x_smlalbt(struct isa_cpu *c, const struct isa_insn *in) { return smlal_xy(c, in, 0, 1); }
/* RdHi:RdLo += Rn.t * Rm.b */
static int x_smlaltb(struct isa_cpu *c, const struct isa_insn *in) { return smlal_xy(c, in, 1, 0); }
/* RdHi:RdLo += Rn.t * Rm.t */
static int x_smlaltt(struct isa_cpu *c, const struct isa_insn *in) { return smlal_xy(c, in, 1, 1); }

/* SMLAW<y>/SMULW<y>: Rd := (Rn * Rm.y + (Ra << 16))[47:16] */
static int smlaw(struct isa_cpu *c, const struct isa_insn *in, int mt, int acc)
{
	int64_t r = (int64_t)(int32_t)reg(c, in, 1) * half(reg(c, in, 2), mt);
	int64_t d;

	DSP_ONLY(c);
	if (acc)
		r += (int64_t)(int32_t)reg(c, in, 3) * 65536;
	d = r >> 16;
	if (acc && d != (int32_t)d)
		set_q(c);
	isa_wreg(c, in->op[0].reg, (uint32_t)d);
	return EX_OK;
}

/* Rd := (Rn * Rm.b + (Ra << 16))[47:16]; Q on signed overflow */
static int x_smlawb(struct isa_cpu *c, const struct isa_insn *in) { return smlaw(c, in, 0, 1); }
/* Rd := (Rn * Rm.t + (Ra << 16))[47:16]; Q on signed overflow */
static int x_smlawt(struct isa_cpu *c, const struct isa_insn *in) { return smlaw(c, in, 1, 1); }
/* Rd := (Rn * Rm.b)[47:16] */
static int x_smulwb(struct isa_cpu *c, const struct isa_insn *in) { return smlaw(c, in, 0, 0); }
/* Rd := (Rn * Rm.t)[47:16] */
static int x_smulwt(struct isa_cpu *c, const struct isa_insn *in) { return smlaw(c, in, 1, 0); }

/* ---- dual 16-bit multiplies ------------------------------------------- */

/* Rn.b * Rm'.b +/- Rn.t * Rm'.t, Rm' = Rm or ROR(Rm, 16) when exchanged. */
static int64_t dual(uint32_t n, uint32_t m, int x, int sub)
{
	int64_t p1, p2;

	if (x)
		m = m >> 16 | m << 16;
	p1 = (int64_t)lo16(n) * lo16(m);
	p2 = (int64_t)hi16(n) * hi16(m);
	return sub ? p1 - p2 : p1 + p2;
}

/* SMLAD/SMLSD/SMUAD/SMUSD: Rd := dual (+ Ra); Q on signed overflow */
static int smlad(struct isa_cpu *c, const struct isa_insn *in, int x, int sub, int acc)
{
	int64_t r = dual(reg(c, in, 1), reg(c, in, 2), x, sub);

	DSP_ONLY(c);
	if (acc)
		r += (int32_t)reg(c, in, 3);
	if (r != (int32_t)r)
		set_q(c);
	isa_wreg(c, in->op[0].reg, (uint32_t)r);
	return EX_OK;
}

/* Rd := Rn.b*Rm.b + Rn.t*Rm.t + Ra; Q on signed overflow */
static int x_smlad(struct isa_cpu *c, const struct isa_insn *in) { return smlad(c, in, 0, 0, 1); }
/* Rd := Rn.b*Rm.t + Rn.t*Rm.b + Ra; Q on signed overflow */
static int x_smladx(struct isa_cpu *c, const struct isa_insn *in) { return smlad(c, in, 1, 0, 1); }
/* Rd := Rn.b*Rm.b - Rn.t*Rm.t + Ra; Q on signed overflow */
static int x_smlsd(struct isa_cpu *c, const struct isa_insn *in) { return smlad(c, in, 0, 1, 1); }
/* Rd := Rn.b*Rm.t - Rn.t*Rm.b + Ra; Q on signed overflow */
static int x_smlsdx(struct isa_cpu *c, const struct isa_insn *in) { return smlad(c, in, 1, 1, 1); }
/* Rd := Rn.b*Rm.b + Rn.t*Rm.t; Q on signed overflow */
static int x_smuad(struct isa_cpu *c, const struct isa_insn *in) { return smlad(c, in, 0, 0, 0); }
/* Rd := Rn.b*Rm.t + Rn.t*Rm.b; Q on signed overflow */
static int x_smuadx(struct isa_cpu *c, const struct isa_insn *in) { return smlad(c, in, 1, 0, 0); }
/* Rd := Rn.b*Rm.b - Rn.t*Rm.t (cannot overflow) */
static int x_smusd(struct isa_cpu *c, const struct isa_insn *in) { return smlad(c, in, 0, 1, 0); }
/* Rd := Rn.b*Rm.t - Rn.t*Rm.b (cannot overflow) */
static int x_smusdx(struct isa_cpu *c, const struct isa_insn *in) { return smlad(c, in, 1, 1, 0); }

/* SMLALD/SMLSLD: RdHi:RdLo += dual (64-bit, wraps) */
static int smlald(struct isa_cpu *c, const struct isa_insn *in, int x, int sub)
{
	uint64_t acc = (uint64_t)reg(c, in, 1) << 32 | reg(c, in, 0);
	uint64_t r = acc + (uint64_t)dual(reg(c, in, 2), reg(c, in, 3), x, sub);

	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, (uint32_t)r);
	isa_wreg(c, in->op[1].reg, (uint32_t)(r >> 32));
	return EX_OK;
}

/* RdHi:RdLo += Rn.b*Rm.b + Rn.t*Rm.t */
static int x_smlald(struct isa_cpu *c, const struct isa_insn *in) { return smlald(c, in, 0, 0); }
/* RdHi:RdLo += Rn.b*Rm.t + Rn.t*Rm.b */
static int x_smlaldx(struct isa_cpu *c, const struct isa_insn *in) { return smlald(c, in, 1, 0); }
/* RdHi:RdLo += Rn.b*Rm.b - Rn.t*Rm.t */
static int x_smlsld(struct isa_cpu *c, const struct isa_insn *in) { return smlald(c, in, 0, 1); }
/* RdHi:RdLo += Rn.b*Rm.t - Rn.t*Rm.b */
static int x_smlsldx(struct isa_cpu *c, const struct isa_insn *in) { return smlald(c, in, 1, 1); }

/* ---- most-significant-word multiplies, UMAAL -------------------------- */

/* SMMUL/SMMLA/SMMLS: Rd := ((Ra << 32) +/- Rn * Rm (+ 0x80000000 if R))[63:32] */
static int smml(struct isa_cpu *c, const struct isa_insn *in, int acc, int sub, int round)
{
	uint64_t p = (uint64_t)((int64_t)(int32_t)reg(c, in, 1) * (int32_t)reg(c, in, 2));
	uint64_t r = acc ? (uint64_t)reg(c, in, 3) << 32 : 0;

	DSP_ONLY(c);
	r = sub ? r - p : r + p;
	if (round)
		r += 0x80000000u;
	isa_wreg(c, in->op[0].reg, (uint32_t)(r >> 32));
	return EX_OK;
}

/* Rd := ((Ra << 32) + Rn * Rm)[63:32] */
static int x_smmla(struct isa_cpu *c, const struct isa_insn *in) { return smml(c, in, 1, 0, 0); }
/* Rd := ((Ra << 32) + Rn * Rm + 0x80000000)[63:32] */
static int x_smmlar(struct isa_cpu *c, const struct isa_insn *in) { return smml(c, in, 1, 0, 1); }
/* Rd := ((Ra << 32) - Rn * Rm)[63:32] */
static int x_smmls(struct isa_cpu *c, const struct isa_insn *in) { return smml(c, in, 1, 1, 0); }
/* Rd := ((Ra << 32) - Rn * Rm + 0x80000000)[63:32] */
static int x_smmlsr(struct isa_cpu *c, const struct isa_insn *in) { return smml(c, in, 1, 1, 1); }
/* Rd := (Rn * Rm)[63:32] */
static int x_smmul(struct isa_cpu *c, const struct isa_insn *in) { return smml(c, in, 0, 0, 0); }
/* Rd := (Rn * Rm + 0x80000000)[63:32] */
static int x_smmulr(struct isa_cpu *c, const struct isa_insn *in) { return smml(c, in, 0, 0, 1); }

/* RdHi:RdLo := Rn * Rm + RdHi + RdLo (unsigned, cannot overflow 64 bits) */
static int x_umaal(struct isa_cpu *c, const struct isa_insn *in)
{
	uint64_t r = (uint64_t)reg(c, in, 2) * reg(c, in, 3) + reg(c, in, 0) + reg(c, in, 1);

	DSP_ONLY(c);
	isa_wreg(c, in->op[0].reg, (uint32_t)r);
	isa_wreg(c, in->op[1].reg, (uint32_t)(r >> 32));
	return EX_OK;
}

/* ---- the table -------------------------------------------------------- */

const isa_exec_fn isa_dsp_table[ARM_INS_ENDING] = {
	[ARM_INS_SADD16] = x_sadd16,
	[ARM_INS_SASX] = x_sasx,
	[ARM_INS_SSAX] = x_ssax,
	[ARM_INS_SSUB16] = x_ssub16,
	[ARM_INS_SADD8] = x_sadd8,
	[ARM_INS_SSUB8] = x_ssub8,
	[ARM_INS_QADD16] = x_qadd16,
	[ARM_INS_QASX] = x_qasx,
	[ARM_INS_QSAX] = x_qsax,
	[ARM_INS_QSUB16] = x_qsub16,
	[ARM_INS_QADD8] = x_qadd8,
	[ARM_INS_QSUB8] = x_qsub8,
	[ARM_INS_SHADD16] = x_shadd16,
	[ARM_INS_SHASX] = x_shasx,
	[ARM_INS_SHSAX] = x_shsax,
	[ARM_INS_SHSUB16] = x_shsub16,
	[ARM_INS_SHADD8] = x_shadd8,
	[ARM_INS_SHSUB8] = x_shsub8,
	[ARM_INS_UADD16] = x_uadd16,
	[ARM_INS_UASX] = x_uasx,
	[ARM_INS_USAX] = x_usax,
	[ARM_INS_USUB16] = x_usub16,
	[ARM_INS_UADD8] = x_uadd8,
	[ARM_INS_USUB8] = x_usub8,
	[ARM_INS_UQADD16] = x_uqadd16,
	[ARM_INS_UQASX] = x_uqasx,
	[ARM_INS_UQSAX] = x_uqsax,
	[ARM_INS_UQSUB16] = x_uqsub16,
	[ARM_INS_UQADD8] = x_uqadd8,
	[ARM_INS_UQSUB8] = x_uqsub8,
	[ARM_INS_UHADD16] = x_uhadd16,
	[ARM_INS_UHASX] = x_uhasx,
	[ARM_INS_UHSAX] = x_uhsax,
	[ARM_INS_UHSUB16] = x_uhsub16,
	[ARM_INS_UHADD8] = x_uhadd8,
	[ARM_INS_UHSUB8] = x_uhsub8,
	[ARM_INS_SEL] = x_sel,
	[ARM_INS_USAD8] = x_usad8,
	[ARM_INS_USADA8] = x_usada8,
	[ARM_INS_QADD] = x_qadd,
	[ARM_INS_QSUB] = x_qsub,
	[ARM_INS_QDADD] = x_qdadd,
	[ARM_INS_QDSUB] = x_qdsub,
	[ARM_INS_SSAT16] = x_ssat16,
	[ARM_INS_USAT16] = x_usat16,
	[ARM_INS_PKHBT] = x_pkhbt,
	[ARM_INS_PKHTB] = x_pkhtb,
	[ARM_INS_SXTAB] = x_sxtab,
	[ARM_INS_SXTAH] = x_sxtah,
	[ARM_INS_SXTAB16] = x_sxtab16,
	[ARM_INS_SXTB16] = x_sxtb16,
	[ARM_INS_UXTAB] = x_uxtab,
	[ARM_INS_UXTAH] = x_uxtah,
	[ARM_INS_UXTAB16] = x_uxtab16,
	[ARM_INS_UXTB16] = x_uxtb16,
	[ARM_INS_SMLABB] = x_smlabb,
	[ARM_INS_SMLABT] = x_smlabt,
	[ARM_INS_SMLATB] = x_smlatb,
	[ARM_INS_SMLATT] = x_smlatt,
	[ARM_INS_SMLAD] = x_smlad,
	[ARM_INS_SMLADX] = x_smladx,
	[ARM_INS_SMLSD] = x_smlsd,
	[ARM_INS_SMLSDX] = x_smlsdx,
	[ARM_INS_SMLALBB] = x_smlalbb,
	[ARM_INS_SMLALBT] = x_smlalbt,
	[ARM_INS_SMLALTB] = x_smlaltb,
	[ARM_INS_SMLALTT] = x_smlaltt,
	[ARM_INS_SMLALD] = x_smlald,
	[ARM_INS_SMLALDX] = x_smlaldx,
	[ARM_INS_SMLSLD] = x_smlsld,
	[ARM_INS_SMLSLDX] = x_smlsldx,
	[ARM_INS_SMLAWB] = x_smlawb,
	[ARM_INS_SMLAWT] = x_smlawt,
	[ARM_INS_SMULWB] = x_smulwb,
	[ARM_INS_SMULWT] = x_smulwt,
	[ARM_INS_SMULBB] = x_smulbb,
	[ARM_INS_SMULBT] = x_smulbt,
	[ARM_INS_SMULTB] = x_smultb,
	[ARM_INS_SMULTT] = x_smultt,
	[ARM_INS_SMUAD] = x_smuad,
	[ARM_INS_SMUADX] = x_smuadx,
	[ARM_INS_SMUSD] = x_smusd,
	[ARM_INS_SMUSDX] = x_smusdx,
	[ARM_INS_SMMLA] = x_smmla,
	[ARM_INS_SMMLAR] = x_smmlar,
	[ARM_INS_SMMLS] = x_smmls,
	[ARM_INS_SMMLSR] = x_smmlsr,
	[ARM_INS_SMMUL] = x_smmul,
	[ARM_INS_SMMULR] = x_smmulr,
	[ARM_INS_UMAAL] = x_umaal,
};

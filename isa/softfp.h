/*
 * softfp: IEEE 754 binary32 (and binary16 for conversions) arithmetic in
 * exact integers, with the ARM FPSCR's settings as QEMU's softfloat applies
 * them, so results and cumulative flags match QEMU bit for bit:
 *
 * - tininess is detected before rounding; underflow is raised for a tiny
 *   result only when it is also inexact;
 * - FZ flushes denormal inputs to zero (IDC) and tiny results to zero (UFC,
 *   no IXC); the flush of results looks at the exponent before rounding;
 * - DN returns the default NaN 0x7fc00000; otherwise NaNs propagate as
 *   ARM's FPProcessNaNs does: the first signalling NaN in operand order,
 *   quieted, else the first quiet NaN; for the fused multiply-add the
 *   addend comes first, and inf * 0 + qNaN gives the default NaN and IOC;
 * - conversions to integer saturate with IOC alone (no IXC), NaN gives 0;
 * - maxNum/minNum (VMAXNM/VMINNM) return the number when the other operand
 *   is a quiet NaN, and order -0 below +0.
 *
 * Values are passed as raw bit patterns. Every operation takes the FPSCR
 * bits that control it (struct sf_env) and ORs the exception flags it
 * raises into env->flags, in FPSCR positions (SF_IOC ...).
 *
 * One rounding core (round_pack in softfp.c), parameterised by the format,
 * serves binary16, binary32 and binary64 (FPv5-D16, the Cortex-M7): the
 * sf32_* and sf64_* functions are the same algorithms on two formats.
 */
#ifndef RAPTOR_ISA_SOFTFP_H
#define RAPTOR_ISA_SOFTFP_H

#include <stdint.h>

/* FPSCR cumulative exception bits (ARMv7-M A2.5.3) */
#define SF_IOC 0x01u /* invalid operation */
#define SF_DZC 0x02u /* division by zero */
#define SF_OFC 0x04u /* overflow */
#define SF_UFC 0x08u /* underflow */
#define SF_IXC 0x10u /* inexact */
#define SF_IDC 0x80u /* input denormal (flushed) */

/* FPSCR.RMode values */
/* FPSCR.RMode values; SF_RA (ties away) only for VRINTA/VCVTA, never in FPSCR */
enum sf_round { SF_RN = 0, SF_RP = 1, SF_RM = 2, SF_RZ = 3, SF_RA = 4 };

struct sf_env {
	uint8_t rmode;	/* enum sf_round */
	uint8_t fz;	/* flush to zero */
	uint8_t dn;	/* default NaN */
	uint8_t ahp;	/* alternative half precision */
	uint32_t flags; /* SF_* raised, cumulative */
};

/* The env for FPSCR value fpscr, flags clear. */
struct sf_env sf_env_of(uint32_t fpscr);

#define SF32_DEFAULT_NAN 0x7fc00000u
#define SF64_DEFAULT_NAN 0x7ff8000000000000ull

uint32_t sf32_add(struct sf_env *e, uint32_t a, uint32_t b);
uint32_t sf32_sub(struct sf_env *e, uint32_t a, uint32_t b);
uint32_t sf32_mul(struct sf_env *e, uint32_t a, uint32_t b);
uint32_t sf32_div(struct sf_env *e, uint32_t a, uint32_t b);
uint32_t sf32_sqrt(struct sf_env *e, uint32_t a);
/* a * b + c rounded once (VFMA: a=Sn, b=Sm, c=Sd; negations done by the caller) */
uint32_t sf32_muladd(struct sf_env *e, uint32_t a, uint32_t b, uint32_t c);
/*
 * Compare: the NZCV nibble of VCMP (0x6 equal, 0x8 less, 0x2 greater, 0x3
 * unordered). signal: any NaN raises IOC (VCMPE); else only signalling ones.
 */
unsigned sf32_cmp(struct sf_env *e, uint32_t a, uint32_t b, int signal);

/*
 * To integer: a * 2^fbits rounded with rmode, saturated to the range of a
 * bits-bit signed (sign) or unsigned integer (bits 16 or 32). Returns the
 * integer's 32-bit pattern (16-bit results sign- or zero-extended).
 */
uint32_t sf32_to_int(struct sf_env *e, uint32_t a, enum sf_round rmode, int sign, int bits,
		     int fbits);
/* From integer: v (signed if sign) * 2^-fbits, rounded with env->rmode. */
uint32_t sf32_from_int(struct sf_env *e, uint32_t v, int sign, int fbits);

/* binary32 <-> binary16 (IEEE, or ARM's alternative format when env->ahp). */
uint16_t sf32_to_f16(struct sf_env *e, uint32_t a);
uint32_t sf16_to_f32(struct sf_env *e, uint16_t h);

/*
 * Round to an integral value in the same format (VRINT): rmode as given
 * (SF_RA for VRINTA); IXC only when exact is set (VRINTX), never otherwise.
 */
uint32_t sf32_rint(struct sf_env *e, uint32_t a, enum sf_round rmode, int exact);
/* IEEE 754-2008 maxNum (max set) or minNum (VMAXNM, VMINNM) */
uint32_t sf32_minmaxnum(struct sf_env *e, uint32_t a, uint32_t b, int max);

/* binary64: the same operations, with the same rules (FPv5-D16). */
uint64_t sf64_add(struct sf_env *e, uint64_t a, uint64_t b);
uint64_t sf64_sub(struct sf_env *e, uint64_t a, uint64_t b);
uint64_t sf64_mul(struct sf_env *e, uint64_t a, uint64_t b);
uint64_t sf64_div(struct sf_env *e, uint64_t a, uint64_t b);
uint64_t sf64_sqrt(struct sf_env *e, uint64_t a);
uint64_t sf64_muladd(struct sf_env *e, uint64_t a, uint64_t b, uint64_t c);
unsigned sf64_cmp(struct sf_env *e, uint64_t a, uint64_t b, int signal);
uint32_t sf64_to_int(struct sf_env *e, uint64_t a, enum sf_round rmode, int sign, int bits,
		     int fbits);
uint64_t sf64_from_int(struct sf_env *e, uint32_t v, int sign, int fbits);
uint64_t sf64_rint(struct sf_env *e, uint64_t a, enum sf_round rmode, int exact);
uint64_t sf64_minmaxnum(struct sf_env *e, uint64_t a, uint64_t b, int max);
/* binary64 <-> binary32 (VCVT.F32.F64 rounds with env, VCVT.F64.F32 is exact) */
uint32_t sf64_to_f32(struct sf_env *e, uint64_t a);
uint64_t sf32_to_f64(struct sf_env *e, uint32_t a);
/* binary64 <-> binary16, as the binary32 ones (VCVTB/VCVTT with .F64) */
uint16_t sf64_to_f16(struct sf_env *e, uint64_t a);
uint64_t sf16_to_f64(struct sf_env *e, uint16_t h);

#endif

/*
 * vfp.c: the FP extension, FPv4-SP (Cortex-M4F) and FPv5-D16 (Cortex-M7:
 * double precision, and ARMv8's VSEL, VMAXNM/VMINNM, VRINT, VCVTA/N/P/M,
 * VCVTB/VCVTT with .F64), decoded from the raw encoding (ARMv7-M A6.5,
 * A7.7.219 on; the FPv5 ones as in ARMv8-M C2.4): Capstone 4.0.2 names these
 * instructions but its operands for VCVT (fixed point, half precision),
 * VMOV (two registers) and VLDM/VSTM with D registers are vague, so one
 * handler, isa_exec_vfp, reads every field from the bits itself.
 *
 * Access and context rules (B1.5.7, QEMU's vfp_access_check_m): CPACR.CP10
 * denies -> UsageFault NOCP; a pending lazy save (FPCCR.LSPACT) is done
 * first; with FPCCR.ASPEN and CONTROL.FPCA clear, a new context starts:
 * FPSCR := FPDSCR and CONTROL.FPCA := 1.
 *
 * Arithmetic is isa/softfp.c. Data processing the model's FPU does not
 * have (double precision on an SP-only FPU, D16-D31 on FPv5-D16) is
 * UNDEFINED: a UsageFault UNDEFINSTR, or NOCP while CP10 is denied (QEMU's
 * M-profile NOCP check comes before its VFP decoder refuses the encoding).
 * Other encodings no handler knows stop the run as unimplemented: never
 * guessed.
 */
#include "isa/isa_priv.h"
#include "isa/model.h"
#include "isa/softfp.h"

/* The handler for unknown encodings (decode.c), reached through this. */
static int unimpl(struct isa_cpu *c, const struct isa_insn *in)
{
	return isa_exec_unimplemented(c, in);
}

static int cpacr_pass(const struct isa_cpu *c)
{
	switch (c->s.cpacr >> 20 & 3) {
	case 1: return c->s.ipsr || !(c->s.control & 1);
	case 3: return 1;
	default: return 0;
	}
}

/*
 * The lazy save (B1.5.7 "lazy context save"): S0-S15 and FPSCR to the frame
 * space reserved at FPCAR on exception entry.
 */
static int preserve_fp_state(struct isa_cpu *c)
{
	uint32_t a = c->s.fpcar;

	for (int i = 0; i < 16; i++)
		if (isa_store(c, a + 4 * i, 4, c->s.fpr[i], ISA_ACC_STACK))
			return EX_FAULT;
	if (isa_store(c, a + 0x40, 4, c->s.fpscr, ISA_ACC_STACK))
		return EX_FAULT;
	c->s.fpccr &= ~FPCCR_LSPACT;
	return EX_OK;
}

/* ExecuteFPCheck: 0 to go on, or EX_FAULT. */
/* An encoding the model's FPU lacks (see the top): NOCP first, else UNDEFINSTR. */
static int fp_undefined(struct isa_cpu *c)
{
	if (!cpacr_pass(c))
		return isa_fault(c, EXC_USAGEFAULT, UFSR_NOCP, 0);
	return isa_fault(c, EXC_USAGEFAULT, UFSR_UNDEFINSTR, 0);
}

static int fp_check(struct isa_cpu *c)
{
	if (!cpacr_pass(c))
		return isa_fault(c, EXC_USAGEFAULT, UFSR_NOCP, 0);
	if (c->s.fpccr & FPCCR_LSPACT) {
		int r = preserve_fp_state(c);

		if (r)
			return r;
	}
	if ((c->s.fpccr & FPCCR_ASPEN) && !(c->s.control & CONTROL_FPCA)) {
		c->s.fpscr = c->s.fpdscr;
		c->s.control |= CONTROL_FPCA;
	}
	return EX_OK;
}

static uint32_t vfp_expand_imm32(unsigned imm8)
{
	unsigned b6 = imm8 >> 6 & 1;

	return (uint32_t)(imm8 >> 7) << 31 | (uint32_t)!b6 << 30 | (b6 ? 0x1fu << 25 : 0) |
	       (imm8 >> 4 & 3) << 23 | (imm8 & 15) << 19;
}

static uint64_t vfp_expand_imm64(unsigned imm8)
{
	uint64_t b6 = imm8 >> 6 & 1;

	return (uint64_t)(imm8 >> 7) << 63 | (uint64_t)!b6 << 62 | (b6 ? 0xffull << 54 : 0) |
	       (uint64_t)(imm8 >> 4 & 3) << 52 | (uint64_t)(imm8 & 15) << 48;
}

static uint32_t fneg(uint32_t v)
{
	return v ^ 0x80000000u;
}

static uint64_t dneg(uint64_t v)
{
	return v ^ 0x8000000000000000ull;
}

/* FPv5-D16: double precision (M7) */
static int has_dp(const struct isa_cpu *c)
{
	return isa_model_info(c->model)->fpu == ISA_FPU_DP;
}

/* FPv5, single or double: the ARMv8 additions (VRINT, VSEL, VMAXNM, VCVTA...) */
static int model_fpv5(enum isa_model model)
{
	const struct isa_model_info *mi = isa_model_info(model);

	return mi->fpu == ISA_FPU_DP || (mi->fpu == ISA_FPU_SP && mi->arch == ISA_ARCH_V8MML);
}

static int has_fpv5(const struct isa_cpu *c)
{
	return model_fpv5(c->model);
}

/* Dn as the pair S(2n), S(2n+1), low word first */
static uint64_t dreg(const struct isa_cpu *c, unsigned n)
{
	return c->s.fpr[2 * n] | (uint64_t)c->s.fpr[2 * n + 1] << 32;
}

static void set_dreg(struct isa_cpu *c, unsigned n, uint64_t v)
{
	c->s.fpr[2 * n] = (uint32_t)v;
	c->s.fpr[2 * n + 1] = (uint32_t)(v >> 32);
}

/* Run an operation with the FPSCR's controls; its flags accumulate. */
#define FP_ENV(c) struct sf_env env_ = sf_env_of((c)->s.fpscr)
#define FP_DONE(c) ((c)->s.fpscr |= env_.flags)

/* VLDR/VSTR/VLDM/VSTM/VPUSH/VPOP and 64-bit core transfers (A6.5.x) */
/* n words between memory at addr and s[first...] (l: load), in order. */
static int transfer(struct isa_cpu *c, int l, uint32_t addr, unsigned first, unsigned n)
{
	uint32_t v;
	int r;

	for (unsigned i = 0; i < n; i++) {
		if (l) {
			if ((r = isa_load(c, addr + 4 * i, 4, &v, ISA_ACC_LOAD)))
				return r;
			c->s.fpr[first + i] = v;
		} else if ((r = isa_store(c, addr + 4 * i, 4, c->s.fpr[first + i],
					  ISA_ACC_STORE))) {
			return r;
		}
	}
	return EX_OK;
}

static int ldst(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned hw1 = in->raw >> 16, hw2 = in->raw & 0xffff;
	unsigned p = hw1 >> 8 & 1, u = hw1 >> 7 & 1, d = hw1 >> 6 & 1, w = hw1 >> 5 & 1;
	unsigned l = hw1 >> 4 & 1, rn = hw1 & 15, vd = hw2 >> 12, dbl = hw2 >> 8 & 1;
	unsigned imm8 = hw2 & 0xff, first, n;
	uint32_t addr, base;
	int r;

	if ((hw1 & 0x1e0) == 0x040) {
		/* VMOV Rt, Rt2 <-> Sm, Sm+1 or Dm */
		unsigned rt = hw2 >> 12, rt2 = hw1 & 15, vm = hw2 & 15, m = hw2 >> 5 & 1;
		unsigned s0 = dbl ? (m << 4 | vm) * 2 : (vm << 1 | m);

		if ((hw2 & 0xd0) != 0x10 || rt == 15 || rt2 == 15 || rt == 13 || rt2 == 13 ||
		    s0 + 1 > 31 || (l && rt == rt2))
			return unimpl(c, in);
		if ((r = fp_check(c)))
			return r;
		if (l) {
			isa_wreg(c, rt, c->s.fpr[s0]);
			isa_wreg(c, rt2, c->s.fpr[s0 + 1]);
		} else {
			c->s.fpr[s0] = c->s.r[rt];
			c->s.fpr[s0 + 1] = c->s.r[rt2];
		}
		return EX_OK;
	}
	first = dbl ? (d << 4 | vd) * 2 : (vd << 1 | d);
	if (p && !w) {
		/* VLDR/VSTR: [Rn, #+/-imm8*4]; PC reads word-aligned */
		base = rn == 15 ? (c->pc + 4) & ~3u : c->s.r[rn];
		addr = u ? base + imm8 * 4 : base - imm8 * 4;
		n = dbl ? 2 : 1;
		if (first + n > 32) /* D16-D31 (dbl: first <= 31 else) */
			return fp_undefined(c);
		if ((r = fp_check(c)))
			return r;
		if (addr & 3) /* VLDR/VSTR need word alignment, whatever CCR says */
			return isa_fault(c, EXC_USAGEFAULT, UFSR_UNALIGNED, 0);
		return transfer(c, l, addr, first, n);
	}
	/* VLDM/VSTM IA (P=0 U=1) or DB with writeback (P=1 U=0 W=1) */
	if (p == u || (p && !w) || rn == 15 || (dbl && (imm8 & 1)))
		return unimpl(c, in);
	n = imm8; /* words: D registers count two each */
	if (!n || first + n > 32)
		return unimpl(c, in);
	if ((r = fp_check(c)))
		return r;
	base = c->s.r[rn];
	addr = u ? base : base - 4 * n;
	if (addr & 3)
		return isa_fault(c, EXC_USAGEFAULT, UFSR_UNALIGNED, 0);
	if ((r = transfer(c, l, addr, first, n)))
		return r;
	if (w)
		c->s.r[rn] = u ? base + 4 * n : base - 4 * n;
	return EX_OK;
}

/* VMOV Rt <-> Sn, VMRS, VMSR (A6.5.x 8, 16 and 32-bit transfers) */
static int xfer(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned hw1 = in->raw >> 16, hw2 = in->raw & 0xffff, rt = hw2 >> 12;
	unsigned l = hw1 >> 4 & 1, a = hw1 >> 5 & 7;
	int r;

	if (hw2 & 0x100) {
		/* VMOV.32 Dd[x], Rt / VMOV.32 Rt, Dn[x] (FPv5-D16; no other sizes) */
		unsigned dn = (hw2 >> 7 & 1) << 4 | (hw1 & 15), x = hw1 >> 5 & 1;

		if (!has_dp(c) || (hw1 & 0xc0) || (hw2 & 0x6f) != 0x00 || dn >= 16 || rt == 13 ||
		    rt == 15)
			return unimpl(c, in);
		if ((r = fp_check(c)))
			return r;
		if (l)
			isa_wreg(c, rt, c->s.fpr[2 * dn + x]);
		else
			c->s.fpr[2 * dn + x] = c->s.r[rt];
		return EX_OK;
	}
	if (a == 0 && (hw2 & 0x6f) == 0x00) {
		unsigned sn = (hw1 & 15) << 1 | (hw2 >> 7 & 1);

		if (rt == 13 || rt == 15)
			return unimpl(c, in);
		if ((r = fp_check(c)))
			return r;
		if (l)
			isa_wreg(c, rt, c->s.fpr[sn]);
		else
			c->s.fpr[sn] = c->s.r[rt];
		return EX_OK;
	}
	if (a == 7 && (hw1 & 15) == 1 && (hw2 & 0xff) == 0x10) {
		if ((r = fp_check(c)))
			return r;
		if (l) {
			if (rt == 15)
				c->s.apsr = (c->s.apsr & 0x0fffffffu) | (c->s.fpscr & 0xf0000000u);
			else if (rt == 13)
				return unimpl(c, in);
			else
				isa_wreg(c, rt, c->s.fpscr);
		} else {
			if (rt == 13 || rt == 15)
				return unimpl(c, in);
			c->s.fpscr = c->s.r[rt] & FPSCR_MASK;
		}
		return EX_OK;
	}
	return unimpl(c, in);
}

/*
 * Data processing, double precision (FPv5-D16): the single-precision
 * layout with sz = 1. Registers are D:Vd, N:Vn, M:Vm, D0-D15 only, but
 * for the conversions whose other side is an S register (Vd:D or Vm:M).
 */
static int dp64(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned hw1 = in->raw >> 16, hw2 = in->raw & 0xffff;
	unsigned opc1 = (hw1 >> 4 & 0xb), opc2 = hw1 & 15, op = hw2 >> 6 & 1, bit7 = hw2 >> 7 & 1;
	unsigned dd = (hw1 >> 6 & 1) << 4 | hw2 >> 12, dn = bit7 << 4 | (hw1 & 15);
	unsigned dm = (hw2 >> 5 & 1) << 4 | (hw2 & 15);
	unsigned sd = (hw2 >> 12) << 1 | (hw1 >> 6 & 1), sm = (hw2 & 15) << 1 | (hw2 >> 5 & 1);
	uint64_t d, n, m, t;
	uint32_t *f = c->s.fpr;
	int r, s_dst = 0, s_src = 0, no_m = 0;

	if ((hw2 & 0x10))
		return unimpl(c, in);
	if (opc1 == 0xb) {
		/* the "other" group: which side is an S register, is there an Dm? */
		s_dst = op && (opc2 == 0x3 || (opc2 == 0x7 && bit7) || (opc2 & 0xe) == 0xc);
		s_src = op && (opc2 == 0x2 || opc2 == 0x8);
		/* VMOV #imm, VCMP #0, fixed point (in place in Dd): imm bits */
		no_m = !op || opc2 == 0x5 || (opc2 & 0xa) == 0xa;
	}
	if ((!s_dst && dd >= 16) || (!s_src && !no_m && dm >= 16) || (opc1 != 0xb && dn >= 16))
		return fp_undefined(c); /* D16-D31: FPv5-D16 has none */
	if (opc1 == 0xb && !op) {
		/* VMOV.F64 Dd, #imm */
		if ((r = fp_check(c)))
			return r;
		set_dreg(c, dd, vfp_expand_imm64((hw1 & 15) << 4 | (hw2 & 15)));
		return EX_OK;
	}
	if ((r = fp_check(c)))
		return r;
	d = s_dst ? 0 : dreg(c, dd);
	n = opc1 != 0xb ? dreg(c, dn) : 0;
	m = no_m ? 0 : s_src ? f[sm] : dreg(c, dm);
	FP_ENV(c);
	switch (opc1) {
	case 0x0: /* VMLA / VMLS: Dd := Dd +/- round(Dn * Dm) */
		t = sf64_mul(&env_, n, m);
		set_dreg(c, dd, sf64_add(&env_, d, op ? dneg(t) : t));
		break;
	case 0x1: /* VNMLS / VNMLA: Dd := -Dd +/- round(Dn * Dm) */
		t = sf64_mul(&env_, n, m);
		set_dreg(c, dd, sf64_add(&env_, dneg(d), op ? dneg(t) : t));
		break;
	case 0x2: /* VMUL / VNMUL */
		t = sf64_mul(&env_, n, m);
		set_dreg(c, dd, op ? dneg(t) : t);
		break;
	case 0x3: /* VADD / VSUB */
		set_dreg(c, dd, op ? sf64_sub(&env_, n, m) : sf64_add(&env_, n, m));
		break;
	case 0x8: /* VDIV */
		if (op)
			return unimpl(c, in);
		set_dreg(c, dd, sf64_div(&env_, n, m));
		break;
	case 0x9: /* VFNMS (op 0) / VFNMA (op 1): Dd := -Dd + (+/-Dn) * Dm, fused */
		set_dreg(c, dd, sf64_muladd(&env_, op ? dneg(n) : n, m, dneg(d)));
		break;
	case 0xa: /* VFMA (op 0) / VFMS (op 1): Dd := Dd + (+/-Dn) * Dm, fused */
		set_dreg(c, dd, sf64_muladd(&env_, op ? dneg(n) : n, m, d));
		break;
	case 0xb: /* other, op = 1 */
		switch (opc2) {
		case 0x0: /* VMOV Dd, Dm / VABS */
			set_dreg(c, dd, bit7 ? m & 0x7fffffffffffffffull : m);
			break;
		case 0x1: /* VNEG / VSQRT */
			set_dreg(c, dd, bit7 ? sf64_sqrt(&env_, m) : dneg(m));
			break;
		case 0x2: /* VCVTB/VCVTT.F64.F16 Dd, Sm */
			set_dreg(c, dd, sf16_to_f64(&env_, (uint16_t)(bit7 ? m >> 16 : m)));
			break;
		case 0x3: /* VCVTB/VCVTT.F16.F64 Sd, Dm: half of Sd */
			t = sf64_to_f16(&env_, m);
			f[sd] = bit7 ? (f[sd] & 0xffffu) | (uint32_t)t << 16
				     : (f[sd] & 0xffff0000u) | (uint32_t)t;
			break;
		case 0x4: /* VCMP{E} Dd, Dm */
		case 0x5: /* VCMP{E} Dd, #0 */
			if (opc2 == 5 && (hw2 & 0x2f))
				return unimpl(c, in);
			t = sf64_cmp(&env_, d, opc2 == 5 ? 0 : m, bit7);
			c->s.fpscr = (c->s.fpscr & 0x0fffffffu) | (uint32_t)t << 28;
			break;
		case 0x6: /* VRINTR (bit7 0: FPSCR rounding) / VRINTZ; no IXC */
			set_dreg(c, dd,
				 sf64_rint(&env_, m, bit7 ? SF_RZ : (enum sf_round)env_.rmode, 0));
			break;
		case 0x7:
			if (!bit7) /* VRINTX: FPSCR rounding, IXC */
				set_dreg(c, dd,
					 sf64_rint(&env_, m, (enum sf_round)env_.rmode, 1));
			else /* VCVT.F32.F64 Sd, Dm */
				f[sd] = sf64_to_f32(&env_, m);
			break;
		case 0x8: /* VCVT.F64.{S,U}32 Dd, Sm (exact) */
			set_dreg(c, dd, sf64_from_int(&env_, (uint32_t)m, bit7, 0));
			break;
		case 0xa:
		case 0xb:
		case 0xe:
		case 0xf: {
			/* VCVT between F64 and fixed point, in place in Dd (low word) */
			unsigned size = bit7 ? 32 : 16, imm = (hw2 & 15) << 1 | (hw2 >> 5 & 1);
			int uns = opc2 & 1, fbits = (int)size - (int)imm;
			uint32_t lo = (uint32_t)d;

			if (fbits < 0)
				return unimpl(c, in);
			if (opc2 & 4) {
				/* the integer is sign- or zero-extended into all of Dd */
				uint32_t v = sf64_to_int(&env_, d, SF_RZ, !uns, size, fbits);

				set_dreg(c, dd, uns ? (uint64_t)v : (uint64_t)(int64_t)(int32_t)v);
				break;
			}
			env_.rmode = SF_RN; /* FixedToFP rounds to nearest (exact here) */
			set_dreg(c, dd,
				 sf64_from_int(&env_,
					       size == 16 ? (uns ? lo & 0xffff
								 : (uint32_t)(int32_t)(int16_t)lo)
							  : lo,
					       !uns, fbits));
			break;
		}
		case 0xc:
		case 0xd: /* VCVT{R}.{U,S}32.F64 Sd, Dm */
			f[sd] = sf64_to_int(&env_, m, bit7 ? SF_RZ : (enum sf_round)env_.rmode,
					    opc2 & 1, 32, 0);
			break;
		default: return unimpl(c, in);
		}
		break;
	default: return unimpl(c, in);
	}
	FP_DONE(c);
	return EX_OK;
}

/* Data processing, single precision (A6.5.x "floating-point data-processing") */
static int dp(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned hw1 = in->raw >> 16, hw2 = in->raw & 0xffff;
	unsigned opc1 = (hw1 >> 4 & 0xb), opc2 = hw1 & 15, op = hw2 >> 6 & 1, bit7 = hw2 >> 7 & 1;
	unsigned sd = (hw2 >> 12) << 1 | (hw1 >> 6 & 1);
	unsigned sn = (hw1 & 15) << 1 | bit7;
	unsigned sm = (hw2 & 15) << 1 | (hw2 >> 5 & 1);
	uint32_t *f = c->s.fpr, d = f[sd], n = f[sn], m = f[sm], t;
	int r;

	if (hw2 & 0x100)
		return has_dp(c) ? dp64(c, in) : fp_undefined(c); /* SP-only FPUs have none */
	if ((hw2 & 0x10))
		return unimpl(c, in);
	if (opc1 == 0xb && op && opc2 == 0x7 && bit7 && (!has_dp(c) || (hw1 >> 6 & 1)))
		return fp_undefined(c); /* VCVT.F64.F32 Dd, Sm: double precision, D0-D15 */
	if (opc1 == 0xb && !op) {
		/* VMOV.F32 Sd, #imm */
		if ((r = fp_check(c)))
			return r;
		f[sd] = vfp_expand_imm32((hw1 & 15) << 4 | (hw2 & 15));
		return EX_OK;
	}
	if ((r = fp_check(c)))
		return r;
	FP_ENV(c);
	switch (opc1) {
	case 0x0: /* VMLA / VMLS: Sd := Sd +/- round(Sn * Sm) */
		t = sf32_mul(&env_, n, m);
		f[sd] = sf32_add(&env_, d, op ? fneg(t) : t);
		break;
	case 0x1: /* VNMLS / VNMLA: Sd := -Sd +/- round(Sn * Sm) */
		t = sf32_mul(&env_, n, m);
		f[sd] = sf32_add(&env_, fneg(d), op ? fneg(t) : t);
		break;
	case 0x2: /* VMUL / VNMUL */
		t = sf32_mul(&env_, n, m);
		f[sd] = op ? fneg(t) : t;
		break;
	case 0x3: /* VADD / VSUB */
		f[sd] = op ? sf32_sub(&env_, n, m) : sf32_add(&env_, n, m);
		break;
	case 0x8: /* VDIV */
		if (op)
			return unimpl(c, in);
		f[sd] = sf32_div(&env_, n, m);
		break;
	case 0x9: /* VFNMS (op 0) / VFNMA (op 1): Sd := -Sd + (+/-Sn) * Sm, fused */
		f[sd] = sf32_muladd(&env_, op ? fneg(n) : n, m, fneg(d));
		break;
	case 0xa: /* VFMA (op 0) / VFMS (op 1): Sd := Sd + (+/-Sn) * Sm, fused */
		f[sd] = sf32_muladd(&env_, op ? fneg(n) : n, m, d);
		break;
	case 0xb: /* other, op = 1 */
		switch (opc2) {
		case 0x0: /* VMOV Sd, Sm / VABS */ f[sd] = bit7 ? m & 0x7fffffffu : m; break;
		case 0x1: /* VNEG / VSQRT */ f[sd] = bit7 ? sf32_sqrt(&env_, m) : fneg(m); break;
		case 0x2: /* VCVTB/VCVTT.F32.F16: Sd := f32(half of Sm) */
			f[sd] = sf16_to_f32(&env_, (uint16_t)(bit7 ? m >> 16 : m));
			break;
		case 0x3: /* VCVTB/VCVTT.F16.F32: half of Sd := f16(Sm) */
			t = sf32_to_f16(&env_, m);
			f[sd] = bit7 ? (d & 0xffffu) | t << 16 : (d & 0xffff0000u) | t;
			break;
		case 0x4: /* VCMP{E} Sd, Sm */
		case 0x5: /* VCMP{E} Sd, #0 */
			if (opc2 == 5 && (hw2 & 0x2f))
				return unimpl(c, in);
			t = sf32_cmp(&env_, d, opc2 == 5 ? 0 : m, bit7);
			c->s.fpscr = (c->s.fpscr & 0x0fffffffu) | t << 28;
			break;
		case 0x6: /* VRINTR (bit7 0: FPSCR rounding) / VRINTZ; no IXC */
			if (!has_fpv5(c))
				return unimpl(c, in);
			f[sd] = sf32_rint(&env_, m, bit7 ? SF_RZ : (enum sf_round)env_.rmode, 0);
			break;
		case 0x7:
			if (!bit7) { /* VRINTX: FPSCR rounding, IXC */
				if (!has_fpv5(c))
					return unimpl(c, in);
				f[sd] = sf32_rint(&env_, m, (enum sf_round)env_.rmode, 1);
				break;
			}
			/* VCVT.F64.F32 Dd, Sm (FPv5-D16, Dd < D16: checked above) */
			set_dreg(c, hw2 >> 12, sf32_to_f64(&env_, m));
			break;
		case 0x8: /* VCVT.F32.{S,U}32 Sd, Sm (FPSCR rounding) */
			f[sd] = sf32_from_int(&env_, m, bit7, 0);
			break;
		case 0xa:
		case 0xb:
		case 0xe:
		case 0xf: {
			/* VCVT between F32 and fixed point, in place in Sd */
			unsigned size = bit7 ? 32 : 16, imm = (hw2 & 15) << 1 | (hw2 >> 5 & 1);
			int uns = opc2 & 1, fbits = (int)size - (int)imm;

			if (fbits < 0)
				return unimpl(c, in);
			if (opc2 & 4) {
				f[sd] = sf32_to_int(&env_, d, SF_RZ, !uns, size, fbits);
				break;
			}
			/* FixedToFP(..., round_to_nearest TRUE): not FPSCR's mode */
			env_.rmode = SF_RN;
			f[sd] = sf32_from_int(
			    &env_,
			    size == 16 ? (uns ? d & 0xffff : (uint32_t)(int32_t)(int16_t)d) : d,
			    !uns, fbits);
			break;
		}
		case 0xc:
		case 0xd: /* VCVT{R}.{U,S}32.F32 Sd, Sm */
			f[sd] = sf32_to_int(&env_, m, bit7 ? SF_RZ : (enum sf_round)env_.rmode,
					    opc2 & 1, 32, 0);
			break;
		default: return unimpl(c, in);
		}
		break;
	default: return unimpl(c, in);
	}
	FP_DONE(c);
	return EX_OK;
}

/*
 * FPv5's unconditional encodings (hw1 0xFExx, ARMv8-M C2.4.7): VSEL,
 * VMAXNM/VMINNM, VRINT{A,N,P,M} and VCVT{A,N,P,M}, single or double (sz).
 */
static int v8(struct isa_cpu *c, const struct isa_insn *in)
{
	static const enum sf_round rmode_of[4] = {SF_RA, SF_RN, SF_RP, SF_RM};
	unsigned hw1 = in->raw >> 16, hw2 = in->raw & 0xffff, dbl = hw2 >> 8 & 1;
	unsigned D = hw1 >> 6 & 1, N = hw2 >> 7 & 1, M = hw2 >> 5 & 1;
	unsigned vd = hw2 >> 12, vn = hw1 & 15, vm = hw2 & 15;
	unsigned rd = dbl ? D << 4 | vd : vd << 1 | D, rn = dbl ? N << 4 | vn : vn << 1 | N;
	unsigned rm = dbl ? M << 4 | vm : vm << 1 | M;
	uint32_t *f = c->s.fpr;
	int r;

	if (dbl && !has_dp(c))
		return unimpl(c, in); /* FPv5-SP (M33): single precision only */
	if (!(hw1 & 0x80)) {
		/* VSEL<cc>: Dd := cc ? Dn : Dm, cc of EQ VS GE GT; no FP flags */
		unsigned cc = hw1 >> 4 & 3, cond = cc << 2 | ((cc >> 1) ^ (cc & 1)) << 1;
		int pass;

		if ((hw2 & 0x50) || (dbl && (rd | rn | rm) >= 16))
			return unimpl(c, in);
		if ((r = fp_check(c)))
			return r;
		pass = cond_pass(c->s.apsr, cond);
		if (dbl)
			set_dreg(c, rd, dreg(c, pass ? rn : rm));
		else
			f[rd] = f[pass ? rn : rm];
		return EX_OK;
	}
	if ((hw1 & 0x30) == 0) {
		/* VMAXNM (op 0) / VMINNM (op 1): IEEE 754-2008 maxNum, minNum */
		int max = !(hw2 >> 6 & 1);

		if ((hw2 & 0x10) || (dbl && (rd | rn | rm) >= 16))
			return unimpl(c, in);
		if ((r = fp_check(c)))
			return r;
		FP_ENV(c);
		if (dbl)
			set_dreg(c, rd, sf64_minmaxnum(&env_, dreg(c, rn), dreg(c, rm), max));
		else
			f[rd] = sf32_minmaxnum(&env_, f[rn], f[rm], max);
		FP_DONE(c);
		return EX_OK;
	}
	if ((hw1 & 0x3c) == 0x38) {
		/* VRINT{A,N,P,M}: to integral, the mode in the encoding; no IXC */
		enum sf_round rm_ = rmode_of[hw1 & 3];

		if ((hw2 & 0xd0) != 0x40 || (dbl && (rd | rm) >= 16))
			return unimpl(c, in);
		if ((r = fp_check(c)))
			return r;
		FP_ENV(c);
		if (dbl)
			set_dreg(c, rd, sf64_rint(&env_, dreg(c, rm), rm_, 0));
		else
			f[rd] = sf32_rint(&env_, f[rm], rm_, 0);
		FP_DONE(c);
		return EX_OK;
	}
	if ((hw1 & 0x3c) == 0x3c) {
		/* VCVT{A,N,P,M}.{S,U}32 Sd, Sm/Dm: the mode in the encoding */
		enum sf_round rm_ = rmode_of[hw1 & 3];
		unsigned sd = vd << 1 | D;
		int sign = hw2 >> 7 & 1;

		if ((hw2 & 0x50) != 0x40 || (dbl && rm >= 16))
			return unimpl(c, in);
		if ((r = fp_check(c)))
			return r;
		FP_ENV(c);
		f[sd] = dbl ? sf64_to_int(&env_, dreg(c, rm), rm_, sign, 32, 0)
			    : sf32_to_int(&env_, f[rm], rm_, sign, 32, 0);
		FP_DONE(c);
		return EX_OK;
	}
	return unimpl(c, in);
}

int isa_is_vfp(enum isa_model model, uint32_t raw, unsigned size)
{
	unsigned hw1 = raw >> 16, hw2 = raw & 0xffff;

	if (size != 4 || (hw2 & 0x0e00) != 0x0a00)
		return 0;
	/* FPv5's unconditional space only where the FPU has it */
	if ((hw1 & 0xff00) == 0xfe00 && !(hw2 & 0x10))
		return model_fpv5(model);
	return (hw1 & 0xfe00) == 0xec00 || (hw1 & 0xff00) == 0xee00;
}

int isa_exec_vfp(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned hw1 = in->raw >> 16, hw2 = in->raw & 0xffff;

	/* QEMU's early NOCP check covers the whole CP10/CP11 space */
	if (!cpacr_pass(c))
		return isa_fault(c, EXC_USAGEFAULT, UFSR_NOCP, 0);

	if ((hw1 & 0xff00) == 0xfe00)
		return v8(c, in);
	if ((hw1 & 0xfe00) == 0xec00)
		return ldst(c, in);
	if (hw2 & 0x10)
		return xfer(c, in);
	return dp(c, in);
}

/*
 * A core without an FP extension: every coprocessor 10/11 instruction is
 * a NOCP UsageFault, as on QEMU's cortex-m3/m4.
 */
int isa_exec_nocp(struct isa_cpu *c, const struct isa_insn *in)
{
	return isa_fault(c, EXC_USAGEFAULT, UFSR_NOCP, 0);
}

/*
 * exec.c: one handler per Capstone instruction id (ARMv7-M integer ISA).
 * Each handler carries a one-line semantics comment; the DSP extension
 * lives in dsp.c. A handler reads every input before it writes anything, so
 * a fault (EX_FAULT) leaves the architectural state untouched.
 * References are to the ARMv7-M Architecture Reference Manual (DDI 0403E).
 */
#include "isa/isa_priv.h"
#include "isa/model.h"

/* ---- operand helpers ------------------------------------------------- */

/* Shift_C (A7.4.2): n is the effective amount (LSR #32 arrives as 32). */
static inline uint32_t shift_c(uint32_t v, unsigned type, unsigned n, int *carry)
{
	switch (type) {
	case ARM_SFT_LSL:
	case ARM_SFT_LSL_REG:
		if (n == 0)
			return v;
		if (n < 32) {
			*carry = v >> (32 - n) & 1;
			return v << n;
		}
		*carry = n == 32 ? (v & 1) : 0;
		return 0;
	case ARM_SFT_LSR:
	case ARM_SFT_LSR_REG:
		if (n == 0)
			return v;
		if (n < 32) {
			*carry = v >> (n - 1) & 1;
			return v >> n;
		}
		*carry = n == 32 ? v >> 31 : 0;
		return 0;
	case ARM_SFT_ASR:
	case ARM_SFT_ASR_REG:
		if (n == 0)
			return v;
		if (n < 32) {
			*carry = v >> (n - 1) & 1;
			return (uint32_t)((int32_t)v >> n);
		}
		*carry = v >> 31;
		return (uint32_t)((int32_t)v >> 31);
	case ARM_SFT_ROR:
	case ARM_SFT_ROR_REG:
		if (n == 0)
			return v;
		n &= 31;
		if (n)
			v = v >> n | v << (32 - n);
		*carry = v >> 31;
		return v;
	case ARM_SFT_RRX:
	case ARM_SFT_RRX_REG: {
		uint32_t r = (uint32_t)(*carry & 1) << 31 | v >> 1;

		*carry = v & 1;
		return r;
	}
	default:
		return v;
	}
}

static inline int cflag(const struct isa_cpu *c)
{
	return c->s.apsr >> 29 & 1;
}

/* The flexible second operand op[i]: shifted register or immediate. */
static inline uint32_t operand2(const struct isa_cpu *c, const struct isa_insn *in, int i,
				int *carry)
{
	const struct isa_op *o = &in->op[i];

	*carry = cflag(c);
	if (o->kind == OP_IMM) {
		if (in->imm_carry)
			*carry = in->imm_carry & 1;
		return o->imm;
	}
	return shift_c(rreg(c, o->reg), o->shift_type, o->shift, carry);
}

static inline int setflags(const struct isa_cpu *c, const struct isa_insn *in)
{
	return in->s_mode == S_ALWAYS || (in->s_mode == S_OUTSIDE_IT && !in_it_block(c));
}

static inline void set_nz(struct isa_cpu *c, uint32_t r)
{
	c->s.apsr = (c->s.apsr & ~(APSR_N | APSR_Z)) | (r & APSR_N) | (r ? 0 : APSR_Z);
}

static inline void set_nzc(struct isa_cpu *c, uint32_t r, int carry)
{
	c->s.apsr = (c->s.apsr & ~(APSR_N | APSR_Z | APSR_C)) | (r & APSR_N) | (r ? 0 : APSR_Z) |
		    (carry ? APSR_C : 0);
}

/*
 * AddWithCarry (A2.2.1) with NZCV update when s. The signed overflow is
 * that of the sum of two operands of one sign whose result has the other:
 * bit 31 of (x ^ r) & (y ^ r), the same as comparing the 64-bit signed sum
 * with the result, in a few instructions and inlined into every handler.
 */
static inline uint32_t add_with_carry(struct isa_cpu *c, uint32_t x, uint32_t y, int cin, int s)
{
	uint64_t us = (uint64_t)x + y + (unsigned)cin;
	uint32_t r = (uint32_t)us;

	if (s)
		c->s.apsr = (c->s.apsr & ~(APSR_N | APSR_Z | APSR_C | APSR_V)) | (r & APSR_N) |
			    (r ? 0 : APSR_Z) | (uint32_t)(us >> 32) << 29 |
			    (((x ^ r) & (y ^ r)) >> 31) << 28;
	return r;
}

/* Write a result register; PC writes from ALU ops branch (ALUWritePC). */
static inline void wreg(struct isa_cpu *c, unsigned n, uint32_t v)
{
	if (n == 15) {
		c->next_pc = v & ~1u;
		c->branched = 1;
	} else {
		c->s.r[n] = v;
	}
}

/*
 * BXWritePC / LoadWritePC: interworking branch, or exception return in
 * handler mode. Bit 0 clear means EPSR.T := 0: the branch happens and the
 * next instruction takes an INVSTATE UsageFault (isa_cpu_step).
 */
static int bx_write_pc(struct isa_cpu *c, uint32_t v)
{
	if (c->s.ipsr && (v >> 28) == 0xf)
		return isa_exception_return(c, v);
	c->next_pc = v & ~1u;
	c->branched = 1;
	if (!(v & 1))
		c->s.tbit_clear = 1;
	return EX_OK;
}

/*
 * ARMv8-M stack limit checks, where QEMU 7.2 makes them (translate.c,
 * v8m_stackcheck): ADD/SUB with Rd = Rn = SP, MOV to SP, and loads and
 * stores that write back to SP, before any memory access. Nothing on
 * other architectures.
 */
static inline int sp_check(struct isa_cpu *c, uint32_t newsp)
{
	return c->dec->v8m ? isa_stack_check(c, newsp) : EX_OK;
}

/* Three forms: Rd, Rn, op2 / Rd(=Rn), op2. Returns the index of op2. */
static inline int rn_index(const struct isa_insn *in)
{
	return in->nops >= 3 ? 1 : 0;
}

/* ---- data processing ------------------------------------------------- */

enum alu { A_AND, A_EOR, A_ORR, A_ORN, A_BIC, A_ADD, A_ADC, A_SUB, A_SBC, A_RSB };

/* (inlined into each handler, where op is a constant) */
static inline __attribute__((always_inline)) int dp(struct isa_cpu *c, const struct isa_insn *in,
						    enum alu op)
{
	int rn = rn_index(in), s = setflags(c, in), carry;
	uint32_t x = rreg(c, in->op[rn].reg);
	uint32_t y = operand2(c, in, in->nops - 1, &carry), r;

	switch (op) {
	case A_AND: r = x & y; break;
	case A_EOR: r = x ^ y; break;
	case A_ORR: r = x | y; break;
	case A_ORN: r = x | ~y; break;
	case A_BIC: r = x & ~y; break;
	case A_ADD: r = add_with_carry(c, x, y, 0, s); break;
	case A_ADC: r = add_with_carry(c, x, y, cflag(c), s); break;
	case A_SUB: r = add_with_carry(c, x, ~y, 1, s); break;
	case A_SBC: r = add_with_carry(c, x, ~y, cflag(c), s); break;
	case A_RSB: r = add_with_carry(c, ~x, y, 1, s); break;
	default: return EX_FATAL;
	}
	if (s && op <= A_BIC)
		set_nzc(c, r, carry);
	wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* Rd := Rn AND op2; NZC if S */
static int x_and(struct isa_cpu *c, const struct isa_insn *in) { return dp(c, in, A_AND); }
/* Rd := Rn EOR op2; NZC if S */
static int x_eor(struct isa_cpu *c, const struct isa_insn *in) { return dp(c, in, A_EOR); }
/* Rd := Rn OR op2; NZC if S */
static int x_orr(struct isa_cpu *c, const struct isa_insn *in) { return dp(c, in, A_ORR); }
/* Rd := Rn OR NOT op2; NZC if S */
static int x_orn(struct isa_cpu *c, const struct isa_insn *in) { return dp(c, in, A_ORN); }
/* Rd := Rn AND NOT op2; NZC if S */
static int x_bic(struct isa_cpu *c, const struct isa_insn *in) { return dp(c, in, A_BIC); }
/* Rd := Rn + op2 + C; NZCV if S */
static int x_adc(struct isa_cpu *c, const struct isa_insn *in) { return dp(c, in, A_ADC); }
/* Rd := Rn - op2 - NOT C; NZCV if S */
static int x_sbc(struct isa_cpu *c, const struct isa_insn *in) { return dp(c, in, A_SBC); }
/* Rd := op2 - Rn; NZCV if S (NEG is RSB #0) */
static int x_rsb(struct isa_cpu *c, const struct isa_insn *in) { return dp(c, in, A_RSB); }

/* ADR, ADDW/SUBW with Rn = PC use Align(PC, 4) (A7.7.7). */
static uint32_t pc_base(const struct isa_cpu *c, unsigned r, int align)
{
	return r == 15 && align ? (c->pc + 4) & ~3u : rreg(c, r);
}

static inline __attribute__((always_inline)) int
addsub(struct isa_cpu *c, const struct isa_insn *in, int sub, int align)
{
	int rn = rn_index(in), s = setflags(c, in), carry;
	uint32_t x = pc_base(c, in->op[rn].reg, align);
	uint32_t y = operand2(c, in, in->nops - 1, &carry);
	uint32_t r = sub ? x - y : x + y;

	/* SP := SP +/- op2 is checked against the stack limit (v8-M) */
	if (in->op[0].reg == 13 && in->op[rn].reg == 13 && sp_check(c, r) != EX_OK)
		return EX_FAULT;
	r = sub ? add_with_carry(c, x, ~y, 1, s) : add_with_carry(c, x, y, 0, s);
	wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* Rd := Rn + op2; NZCV if S */
static int x_add(struct isa_cpu *c, const struct isa_insn *in) { return addsub(c, in, 0, 0); }
/* Rd := Rn - op2; NZCV if S */
static int x_sub(struct isa_cpu *c, const struct isa_insn *in) { return addsub(c, in, 1, 0); }
/* Rd := Rn + imm12 (Rn = PC: Align(PC,4)) */
static int x_addw(struct isa_cpu *c, const struct isa_insn *in) { return addsub(c, in, 0, 1); }
/* Rd := Rn - imm12 (Rn = PC: Align(PC,4)) */
static int x_subw(struct isa_cpu *c, const struct isa_insn *in) { return addsub(c, in, 1, 1); }

/* Rd := Align(PC,4) + imm8*4 (16-bit ADR; Capstone shows the raw offset) */
static int x_adr(struct isa_cpu *c, const struct isa_insn *in)
{
	wreg(c, in->op[0].reg, ((c->pc + 4) & ~3u) + (uint32_t)in->op[1].imm);
	return EX_OK;
}

static inline __attribute__((always_inline)) int compare(struct isa_cpu *c,
							 const struct isa_insn *in, enum alu op)
{
	int carry;
	uint32_t x = rreg(c, in->op[0].reg), y = operand2(c, in, 1, &carry);

	switch (op) {
	case A_SUB: add_with_carry(c, x, ~y, 1, 1); break;
	case A_ADD: add_with_carry(c, x, y, 0, 1); break;
	case A_AND: set_nzc(c, x & y, carry); break;
	case A_EOR: set_nzc(c, x ^ y, carry); break;
	default: return EX_FATAL;
	}
	return EX_OK;
}

/* flags := Rn - op2 */
static int x_cmp(struct isa_cpu *c, const struct isa_insn *in) { return compare(c, in, A_SUB); }
/* flags := Rn + op2 */
static int x_cmn(struct isa_cpu *c, const struct isa_insn *in) { return compare(c, in, A_ADD); }
/* NZC := Rn AND op2 */
static int x_tst(struct isa_cpu *c, const struct isa_insn *in) { return compare(c, in, A_AND); }
/* NZC := Rn EOR op2 */
static int x_teq(struct isa_cpu *c, const struct isa_insn *in) { return compare(c, in, A_EOR); }

/* Rd := op2; NZC if S (SP: stack limit check on v8-M) */
static int x_mov(struct isa_cpu *c, const struct isa_insn *in)
{
	int carry;
	uint32_t r = operand2(c, in, 1, &carry);

	if (in->op[0].reg == 13 && sp_check(c, r) != EX_OK)
		return EX_FAULT;
	if (setflags(c, in))
		set_nzc(c, r, carry);
	wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* Rd := NOT op2; NZC if S */
static int x_mvn(struct isa_cpu *c, const struct isa_insn *in)
{
	int carry;
	uint32_t r = ~operand2(c, in, 1, &carry);

	if (setflags(c, in))
		set_nzc(c, r, carry);
	wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* Rd := imm16 */
static int x_movw(struct isa_cpu *c, const struct isa_insn *in)
{
	wreg(c, in->op[0].reg, (uint32_t)in->op[1].imm & 0xffff);
	return EX_OK;
}

/* Rd[31:16] := imm16 */
static int x_movt(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t r = c->s.r[in->op[0].reg];

	wreg(c, in->op[0].reg, (r & 0xffff) | (uint32_t)in->op[1].imm << 16);
	return EX_OK;
}

/*
 * Shifts as instructions: Rd, Rm, #imm | Rd, Rm, Rs | Rd(=Rm), Rs (16-bit).
 * A register amount uses Rs[7:0].
 */
static inline __attribute__((always_inline)) int
shift_insn(struct isa_cpu *c, const struct isa_insn *in, unsigned type)
{
	int carry = cflag(c);
	const struct isa_op *amt = &in->op[in->nops - 1];
	uint32_t v = rreg(c, in->op[in->nops == 3 ? 1 : 0].reg);
	unsigned n = amt->kind == OP_IMM ? (unsigned)amt->imm : rreg(c, amt->reg) & 0xff;
	uint32_t r;

	if (amt->kind == OP_REG)
		type += ARM_SFT_ASR_REG - ARM_SFT_ASR;
	r = shift_c(v, type, n, &carry);
	if (setflags(c, in))
		set_nzc(c, r, carry);
	wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* Rd := Rm LSL n; NZC if S */
static int x_lsl(struct isa_cpu *c, const struct isa_insn *in) { return shift_insn(c, in, ARM_SFT_LSL); }
/* Rd := Rm LSR n; NZC if S */
static int x_lsr(struct isa_cpu *c, const struct isa_insn *in) { return shift_insn(c, in, ARM_SFT_LSR); }
/* Rd := Rm ASR n; NZC if S */
static int x_asr(struct isa_cpu *c, const struct isa_insn *in) { return shift_insn(c, in, ARM_SFT_ASR); }
/* Rd := Rm ROR n; NZC if S */
static int x_ror(struct isa_cpu *c, const struct isa_insn *in) { return shift_insn(c, in, ARM_SFT_ROR); }

/* Rd := C:Rm[31:1]; NZC if S */
static int x_rrx(struct isa_cpu *c, const struct isa_insn *in)
{
	int carry = cflag(c);
	uint32_t r = shift_c(rreg(c, in->op[1].reg), ARM_SFT_RRX, 1, &carry);

	if (setflags(c, in))
		set_nzc(c, r, carry);
	wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* ---- multiply and divide --------------------------------------------- */

/* Rd := Rn * Rm; NZ if S (16-bit MULS) */
static int x_mul(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t a = rreg(c, in->op[in->nops - 2].reg), b = rreg(c, in->op[in->nops - 1].reg);
	uint32_t r = a * b;

	if (setflags(c, in))
		set_nz(c, r);
	wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* Rd := Ra + Rn * Rm */
static int x_mla(struct isa_cpu *c, const struct isa_insn *in)
{
	wreg(c, in->op[0].reg,
	     rreg(c, in->op[3].reg) + rreg(c, in->op[1].reg) * rreg(c, in->op[2].reg));
	return EX_OK;
}

/* Rd := Ra - Rn * Rm */
static int x_mls(struct isa_cpu *c, const struct isa_insn *in)
{
	wreg(c, in->op[0].reg,
	     rreg(c, in->op[3].reg) - rreg(c, in->op[1].reg) * rreg(c, in->op[2].reg));
	return EX_OK;
}

static void wr64(struct isa_cpu *c, const struct isa_insn *in, uint64_t v)
{
	wreg(c, in->op[0].reg, (uint32_t)v);
	wreg(c, in->op[1].reg, (uint32_t)(v >> 32));
}

static uint64_t rd64(const struct isa_cpu *c, const struct isa_insn *in)
{
	return (uint64_t)rreg(c, in->op[1].reg) << 32 | rreg(c, in->op[0].reg);
}

/* RdHi:RdLo := Rn * Rm (unsigned) */
static int x_umull(struct isa_cpu *c, const struct isa_insn *in)
{
	wr64(c, in, (uint64_t)rreg(c, in->op[2].reg) * rreg(c, in->op[3].reg));
	return EX_OK;
}

/* RdHi:RdLo := Rn * Rm (signed) */
static int x_smull(struct isa_cpu *c, const struct isa_insn *in)
{
	wr64(c, in, (uint64_t)((int64_t)(int32_t)rreg(c, in->op[2].reg) *
			       (int32_t)rreg(c, in->op[3].reg)));
	return EX_OK;
}

/* RdHi:RdLo += Rn * Rm (unsigned) */
static int x_umlal(struct isa_cpu *c, const struct isa_insn *in)
{
	wr64(c, in, rd64(c, in) + (uint64_t)rreg(c, in->op[2].reg) * rreg(c, in->op[3].reg));
	return EX_OK;
}

/* RdHi:RdLo += Rn * Rm (signed) */
static int x_smlal(struct isa_cpu *c, const struct isa_insn *in)
{
	wr64(c, in, rd64(c, in) + (uint64_t)((int64_t)(int32_t)rreg(c, in->op[2].reg) *
					     (int32_t)rreg(c, in->op[3].reg)));
	return EX_OK;
}

#define CCR_DIV_0_TRP (1u << 4)
#define CCR_UNALIGN_TRP (1u << 3)

/* Rd := Rn / Rm (signed, toward zero); /0 -> 0 or UsageFault if CCR.DIV_0_TRP */
static int x_sdiv(struct isa_cpu *c, const struct isa_insn *in)
{
	int32_t n = rreg(c, in->op[1].reg), m = rreg(c, in->op[2].reg);

	if (m == 0) {
		if (c->s.scs.ccr & CCR_DIV_0_TRP)
			return isa_fault(c, EXC_USAGEFAULT, UFSR_DIVBYZERO, 0);
		wreg(c, in->op[0].reg, 0);
	} else if (n == INT32_MIN && m == -1) {
		wreg(c, in->op[0].reg, (uint32_t)INT32_MIN);
	} else {
		wreg(c, in->op[0].reg, (uint32_t)(n / m));
	}
	return EX_OK;
}

/* Rd := Rn / Rm (unsigned); /0 -> 0 or UsageFault if CCR.DIV_0_TRP */
static int x_udiv(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t n = rreg(c, in->op[1].reg), m = rreg(c, in->op[2].reg);

	if (m == 0) {
		if (c->s.scs.ccr & CCR_DIV_0_TRP)
			return isa_fault(c, EXC_USAGEFAULT, UFSR_DIVBYZERO, 0);
		wreg(c, in->op[0].reg, 0);
	} else {
		wreg(c, in->op[0].reg, n / m);
	}
	return EX_OK;
}

/* ---- saturation, bit fields, extension, reversal --------------------- */

static uint32_t ssat_q(struct isa_cpu *c, int64_t v, unsigned bits)
{
	int64_t hi = ((int64_t)1 << (bits - 1)) - 1, lo = -((int64_t)1 << (bits - 1));

	if (v > hi || v < lo) {
		c->s.apsr |= APSR_Q;
		v = v > hi ? hi : lo;
	}
	return (uint32_t)v;
}

static uint32_t usat_q(struct isa_cpu *c, int64_t v, unsigned bits)
{
	int64_t hi = ((int64_t)1 << bits) - 1;

	if (v > hi || v < 0) {
		c->s.apsr |= APSR_Q;
		v = v > hi ? hi : 0;
	}
	return (uint32_t)v;
}

/* Rd := SignedSat(Rn shifted, #sat); Q on saturation */
static int x_ssat(struct isa_cpu *c, const struct isa_insn *in)
{
	int carry;
	int32_t v = (int32_t)operand2(c, in, 2, &carry);

	wreg(c, in->op[0].reg, ssat_q(c, v, in->op[1].imm));
	return EX_OK;
}

/* Rd := UnsignedSat(Rn shifted, #sat); Q on saturation */
static int x_usat(struct isa_cpu *c, const struct isa_insn *in)
{
	int carry;
	int32_t v = (int32_t)operand2(c, in, 2, &carry);

	wreg(c, in->op[0].reg, usat_q(c, v, in->op[1].imm));
	return EX_OK;
}

static inline uint32_t field_mask(unsigned width)
{
	return width >= 32 ? 0xffffffffu : (1u << width) - 1;
}

/* Rd[lsb+width-1:lsb] := 0 */
static int x_bfc(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned lsb = in->op[1].imm, w = in->op[2].imm;

	wreg(c, in->op[0].reg, c->s.r[in->op[0].reg] & ~(field_mask(w) << lsb));
	return EX_OK;
}

/* Rd[lsb+width-1:lsb] := Rn[width-1:0] */
static int x_bfi(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned lsb = in->op[2].imm, w = in->op[3].imm;
	uint32_t m = field_mask(w) << lsb;

	wreg(c, in->op[0].reg,
	     (c->s.r[in->op[0].reg] & ~m) | ((rreg(c, in->op[1].reg) << lsb) & m));
	return EX_OK;
}

/* Rd := SignExtend(Rn[lsb+width-1:lsb]) */
static int x_sbfx(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned lsb = in->op[2].imm, w = in->op[3].imm;
	uint32_t v = rreg(c, in->op[1].reg) >> lsb & field_mask(w);

	if (w < 32 && (v >> (w - 1) & 1))
		v |= ~field_mask(w);
	wreg(c, in->op[0].reg, v);
	return EX_OK;
}

/* Rd := ZeroExtend(Rn[lsb+width-1:lsb]) */
static int x_ubfx(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned lsb = in->op[2].imm, w = in->op[3].imm;

	wreg(c, in->op[0].reg, rreg(c, in->op[1].reg) >> lsb & field_mask(w));
	return EX_OK;
}

/* Rd := count of leading zeros of Rm */
static int x_clz(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t v = rreg(c, in->op[1].reg);

	wreg(c, in->op[0].reg, v ? (uint32_t)__builtin_clz(v) : 32);
	return EX_OK;
}

/* Rd := bit-reversed Rm */
static int x_rbit(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t v = rreg(c, in->op[1].reg), r = 0;

	for (int i = 0; i < 32; i++)
		r |= (v >> i & 1) << (31 - i);
	wreg(c, in->op[0].reg, r);
	return EX_OK;
}

/* Rd := byte-reversed Rm */
static int x_rev(struct isa_cpu *c, const struct isa_insn *in)
{
	wreg(c, in->op[0].reg, __builtin_bswap32(rreg(c, in->op[1].reg)));
	return EX_OK;
}

/* Rd := bytes reversed in each halfword of Rm */
static int x_rev16(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t v = rreg(c, in->op[1].reg);

	wreg(c, in->op[0].reg, (v & 0xff00ff00u) >> 8 | (v & 0x00ff00ffu) << 8);
	return EX_OK;
}

/* Rd := SignExtend(bytes reversed in Rm[15:0]) */
static int x_revsh(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t v = rreg(c, in->op[1].reg);

	wreg(c, in->op[0].reg, (uint32_t)(int32_t)(int16_t)((v & 0xff) << 8 | (v >> 8 & 0xff)));
	return EX_OK;
}

/* Rm rotated by the optional ROR #8/16/24 of the extend instructions. */
static uint32_t rotated(const struct isa_cpu *c, const struct isa_op *o)
{
	uint32_t v = rreg(c, o->reg);
	unsigned n = o->shift_type == ARM_SFT_ROR ? o->shift & 31 : 0;

	return n ? v >> n | v << (32 - n) : v;
}

/* Rd := SignExtend(ROR(Rm)[7:0]) */
static int x_sxtb(struct isa_cpu *c, const struct isa_insn *in)
{
	wreg(c, in->op[0].reg, (uint32_t)(int32_t)(int8_t)rotated(c, &in->op[1]));
	return EX_OK;
}

/* Rd := SignExtend(ROR(Rm)[15:0]) */
static int x_sxth(struct isa_cpu *c, const struct isa_insn *in)
{
	wreg(c, in->op[0].reg, (uint32_t)(int32_t)(int16_t)rotated(c, &in->op[1]));
	return EX_OK;
}

/* Rd := ZeroExtend(ROR(Rm)[7:0]) */
static int x_uxtb(struct isa_cpu *c, const struct isa_insn *in)
{
	wreg(c, in->op[0].reg, rotated(c, &in->op[1]) & 0xff);
	return EX_OK;
}

/* Rd := ZeroExtend(ROR(Rm)[15:0]) */
static int x_uxth(struct isa_cpu *c, const struct isa_insn *in)
{
	wreg(c, in->op[0].reg, rotated(c, &in->op[1]) & 0xffff);
	return EX_OK;
}

/* ---- loads and stores ------------------------------------------------ */

/* Address of a single load/store: offset, pre-indexed or post-indexed. */
static uint32_t ea(const struct isa_cpu *c, const struct isa_insn *in, const struct isa_op *m,
		   uint32_t *wb)
{
	uint32_t base = m->reg == 15 ? (c->pc + 4) & ~3u : c->s.r[m->reg];
	uint32_t off;

	if (in->post) {
		*wb = base + (uint32_t)in->post_imm;
		return base;
	}
	if (m->index != 0xff)
		off = c->s.r[m->index] << m->shift;
	else
		off = (uint32_t)m->imm;
	*wb = base + off;
	return base + off;
}

/*
 * A load or store writing back to SP (v8-M): QEMU checks the new SP when
 * the offset goes down, else the SP as it is (op_addr_ri_pre).
 */
static int wb_sp_check(struct isa_cpu *c, const struct isa_insn *in, const struct isa_op *m)
{
	int32_t off = in->post ? in->post_imm : m->imm;

	if (m->reg != 13 || !(in->writeback || in->post) || !c->dec->v8m)
		return EX_OK;
	return sp_check(c, off < 0 ? c->s.r[13] + (uint32_t)off : c->s.r[13]);
}

static int unaligned_trap(struct isa_cpu *c, uint32_t addr, unsigned size, int always)
{
	if ((addr & (size - 1)) && (always || (c->s.scs.ccr & CCR_UNALIGN_TRP)))
		return isa_fault(c, EXC_USAGEFAULT, UFSR_UNALIGNED, 0);
	return EX_OK;
}

/* (load1 and store1 inline into each handler, where size and sign are constants) */
static inline __attribute__((always_inline)) int load1(struct isa_cpu *c, const struct isa_insn *in,
						       unsigned size, int sign)
{
	const struct isa_op *m = &in->op[1];
	uint32_t wb, addr = ea(c, in, m, &wb), v;
	int r;

	if ((r = wb_sp_check(c, in, m)) != EX_OK || (r = unaligned_trap(c, addr, size, 0)) != EX_OK)
		return r;
	if ((r = isa_load(c, addr, size, &v, ISA_ACC_LOAD)) != EX_OK)
		return r;
	if (sign)
		v = size == 1 ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)(int32_t)(int16_t)v;
	if (in->writeback || in->post)
		c->s.r[m->reg] = wb;
	if (in->op[0].reg == 15)
		return bx_write_pc(c, v);
	c->s.r[in->op[0].reg] = v;
	return EX_OK;
}

static inline __attribute__((always_inline)) int store1(struct isa_cpu *c,
							const struct isa_insn *in, unsigned size)
{
	const struct isa_op *m = &in->op[1];
	uint32_t wb, addr = ea(c, in, m, &wb);
	int r;

	if ((r = wb_sp_check(c, in, m)) != EX_OK || (r = unaligned_trap(c, addr, size, 0)) != EX_OK)
		return r;
	if ((r = isa_store(c, addr, size, rreg(c, in->op[0].reg), ISA_ACC_STORE)) != EX_OK)
		return r;
	if (in->writeback || in->post)
		c->s.r[m->reg] = wb;
	return EX_OK;
}

/* Rt := Mem32[ea] (PC: interworking branch / exception return) */
static int x_ldr(struct isa_cpu *c, const struct isa_insn *in) { return load1(c, in, 4, 0); }
/* Rt := ZeroExtend(Mem8[ea]) */
static int x_ldrb(struct isa_cpu *c, const struct isa_insn *in) { return load1(c, in, 1, 0); }
/* Rt := ZeroExtend(Mem16[ea]) */
static int x_ldrh(struct isa_cpu *c, const struct isa_insn *in) { return load1(c, in, 2, 0); }
/* Rt := SignExtend(Mem8[ea]) */
static int x_ldrsb(struct isa_cpu *c, const struct isa_insn *in) { return load1(c, in, 1, 1); }
/* Rt := SignExtend(Mem16[ea]) */
static int x_ldrsh(struct isa_cpu *c, const struct isa_insn *in) { return load1(c, in, 2, 1); }
/* Mem32[ea] := Rt */
static int x_str(struct isa_cpu *c, const struct isa_insn *in) { return store1(c, in, 4); }
/* Mem8[ea] := Rt[7:0] */
static int x_strb(struct isa_cpu *c, const struct isa_insn *in) { return store1(c, in, 1); }
/* Mem16[ea] := Rt[15:0] */
static int x_strh(struct isa_cpu *c, const struct isa_insn *in) { return store1(c, in, 2); }

/*
 * Unprivileged variants (LDRT & co.): the board has no MPU, so they behave
 * as the ordinary forms.
 */

/* Rt, Rt2 := Mem32[ea], Mem32[ea+4]; word-aligned or UsageFault */
static int x_ldrd(struct isa_cpu *c, const struct isa_insn *in)
{
	const struct isa_op *m = &in->op[2];
	uint32_t wb, addr = ea(c, in, m, &wb), lo, hi;
	int r;

	if ((r = wb_sp_check(c, in, m)) != EX_OK || (r = unaligned_trap(c, addr, 4, 1)) != EX_OK)
		return r;
	if ((r = isa_load(c, addr, 4, &lo, ISA_ACC_LOAD)) != EX_OK ||
	    (r = isa_load(c, addr + 4, 4, &hi, ISA_ACC_LOAD)) != EX_OK)
		return r;
	if (in->writeback || in->post)
		c->s.r[m->reg] = wb;
	c->s.r[in->op[0].reg] = lo;
	c->s.r[in->op[1].reg] = hi;
	return EX_OK;
}

/* Mem32[ea], Mem32[ea+4] := Rt, Rt2; word-aligned or UsageFault */
static int x_strd(struct isa_cpu *c, const struct isa_insn *in)
{
	const struct isa_op *m = &in->op[2];
	uint32_t wb, addr = ea(c, in, m, &wb);
	int r;

	if ((r = wb_sp_check(c, in, m)) != EX_OK || (r = unaligned_trap(c, addr, 4, 1)) != EX_OK)
		return r;
	if ((r = isa_store(c, addr, 4, rreg(c, in->op[0].reg), ISA_ACC_STORE)) != EX_OK ||
	    (r = isa_store(c, addr + 4, 4, rreg(c, in->op[1].reg), ISA_ACC_STORE)) != EX_OK)
		return r;
	if (in->writeback || in->post)
		c->s.r[m->reg] = wb;
	return EX_OK;
}

/*
 * Load multiple from consecutive words starting at start; PC last, through
 * LoadWritePC. wbreg gets wbval unless it is itself loaded.
 */
static int ldm_common(struct isa_cpu *c, unsigned list, uint32_t start, int wbreg,
		      uint32_t wbval)
{
	uint32_t v[16], a = start;
	int r;

	if (!list)
		return EX_OK;
	/* v8-M: writeback to SP checks the lowest address (QEMU's op_addr_block_pre) */
	if (wbreg == 13 && sp_check(c, start) != EX_OK)
		return EX_FAULT;
	if ((r = unaligned_trap(c, start, 4, 1)) != EX_OK)
		return r;
	for (int i = 0; i < 16; i++)
		if (list >> i & 1) {
			if ((r = isa_load(c, a, 4, &v[i], ISA_ACC_LOAD)) != EX_OK)
				return r;
			a += 4;
		}
	if (wbreg >= 0 && !(list >> wbreg & 1))
		c->s.r[wbreg] = wbval;
	for (int i = 0; i < 15; i++)
		if (list >> i & 1)
			c->s.r[i] = v[i];
	if (list >> 15 & 1)
		return bx_write_pc(c, v[15]);
	return EX_OK;
}

static int stm_common(struct isa_cpu *c, unsigned list, uint32_t start, int wbreg,
		      uint32_t wbval)
{
	uint32_t a = start;
	int r;

	if (wbreg == 13 && sp_check(c, start) != EX_OK)
		return EX_FAULT;
	if ((r = unaligned_trap(c, start, 4, 1)) != EX_OK)
		return r;
	for (int i = 0; i < 16; i++)
		if (list >> i & 1) {
			if ((r = isa_store(c, a, 4, rreg(c, i), ISA_ACC_STORE)) != EX_OK)
				return r;
			a += 4;
		}
	if (wbreg >= 0)
		c->s.r[wbreg] = wbval;
	return EX_OK;
}

/* registers := Mem[Rn], Mem[Rn+4], ...; Rn += 4*n if ! */
static int x_ldm(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned n = __builtin_popcount(in->reglist), rn = in->op[0].reg;

	return ldm_common(c, in->reglist, c->s.r[rn], in->writeback ? (int)rn : -1,
			  c->s.r[rn] + 4 * n);
}

/* registers := Mem[Rn-4n], ...; Rn -= 4*n if ! */
static int x_ldmdb(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned n = __builtin_popcount(in->reglist), rn = in->op[0].reg;

	return ldm_common(c, in->reglist, c->s.r[rn] - 4 * n, in->writeback ? (int)rn : -1,
			  c->s.r[rn] - 4 * n);
}

/* Mem[Rn], Mem[Rn+4], ... := registers; Rn += 4*n if ! */
static int x_stm(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned n = __builtin_popcount(in->reglist), rn = in->op[0].reg;

	return stm_common(c, in->reglist, c->s.r[rn], in->writeback ? (int)rn : -1,
			  c->s.r[rn] + 4 * n);
}

/* Mem[Rn-4n], ... := registers; Rn -= 4*n if ! */
static int x_stmdb(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned n = __builtin_popcount(in->reglist), rn = in->op[0].reg;

	return stm_common(c, in->reglist, c->s.r[rn] - 4 * n, in->writeback ? (int)rn : -1,
			  c->s.r[rn] - 4 * n);
}

/* registers := pop from SP (PC: return) */
static int x_pop(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned n = __builtin_popcount(in->reglist);

	return ldm_common(c, in->reglist, c->s.r[13], 13, c->s.r[13] + 4 * n);
}

/* push registers below SP */
static int x_push(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned n = __builtin_popcount(in->reglist);

	return stm_common(c, in->reglist, c->s.r[13] - 4 * n, 13, c->s.r[13] - 4 * n);
}

/* ---- exclusives ------------------------------------------------------ */

static int ldrex(struct isa_cpu *c, const struct isa_insn *in, unsigned size)
{
	const struct isa_op *m = &in->op[1];
	uint32_t addr = c->s.r[m->reg] + (uint32_t)m->imm, v;
	int r;

	if ((r = unaligned_trap(c, addr, size, 1)) != EX_OK)
		return r;
	if ((r = isa_load(c, addr, size, &v, ISA_ACC_LDREX)) != EX_OK)
		return r;
	c->s.excl.valid = 1;
	c->s.excl.addr = addr & ~3u;
	wreg(c, in->op[0].reg, v);
	return EX_OK;
}

/* Rt := Mem32[Rn+imm]; open the exclusive reservation */
static int x_ldrex(struct isa_cpu *c, const struct isa_insn *in) { return ldrex(c, in, 4); }
/* Rt := Mem8[Rn]; open the exclusive reservation */
static int x_ldrexb(struct isa_cpu *c, const struct isa_insn *in) { return ldrex(c, in, 1); }
/* Rt := Mem16[Rn]; open the exclusive reservation */
static int x_ldrexh(struct isa_cpu *c, const struct isa_insn *in) { return ldrex(c, in, 2); }

/*
 * STREX: store only if this core's reservation still covers the address
 * (no other core stored to the granule since, no CLREX, no exception).
 * Rd := 0 on success, 1 on failure; the reservation closes either way.
 */
static int strex(struct isa_cpu *c, const struct isa_insn *in, unsigned size)
{
	const struct isa_op *m = &in->op[2];
	uint32_t addr = c->s.r[m->reg] + (uint32_t)m->imm;
	int r, ok = c->s.excl.valid && c->s.excl.addr == (addr & ~3u);

	if ((r = unaligned_trap(c, addr, size, 1)) != EX_OK)
		return r;
	if (ok && (r = isa_store(c, addr, size, rreg(c, in->op[1].reg), ISA_ACC_STREX)) != EX_OK)
		return r;
	c->s.excl.valid = 0;
	wreg(c, in->op[0].reg, ok ? 0 : 1);
	return EX_OK;
}

/* Mem32[Rn+imm] := Rt if exclusive; Rd := status */
static int x_strex(struct isa_cpu *c, const struct isa_insn *in) { return strex(c, in, 4); }
/* Mem8[Rn] := Rt if exclusive; Rd := status */
static int x_strexb(struct isa_cpu *c, const struct isa_insn *in) { return strex(c, in, 1); }
/* Mem16[Rn] := Rt if exclusive; Rd := status */
static int x_strexh(struct isa_cpu *c, const struct isa_insn *in) { return strex(c, in, 2); }

/* close the exclusive reservation */
static int x_clrex(struct isa_cpu *c, const struct isa_insn *in)
{
	isa_clear_excl(c);
	return EX_OK;
}

/*
 * ARMv8-M load-acquire/store-release. One core executes in order and the
 * board has no reordering, so the ordering they add is already there: they
 * are the plain accesses (the bus sees ordinary and exclusive loads and
 * stores), at [Rn] with no offset, and always aligned: an unaligned one is
 * the UNALIGNED UsageFault (as QEMU 7.2). The exclusive forms share the
 * monitor.
 */
static int load_acquire(struct isa_cpu *c, const struct isa_insn *in, unsigned size)
{
	uint32_t addr = c->s.r[in->op[1].reg], v;
	int r;

	if ((r = unaligned_trap(c, addr, size, 1)) != EX_OK ||
	    (r = isa_load(c, addr, size, &v, ISA_ACC_LOAD)) != EX_OK)
		return r;
	wreg(c, in->op[0].reg, v);
	return EX_OK;
}

static int store_release(struct isa_cpu *c, const struct isa_insn *in, unsigned size)
{
	uint32_t addr = c->s.r[in->op[1].reg];
	int r;

	if ((r = unaligned_trap(c, addr, size, 1)) != EX_OK)
		return r;
	return isa_store(c, addr, size, rreg(c, in->op[0].reg), ISA_ACC_STORE);
}

/* Rt := Mem32[Rn] (acquire) */
static int x_lda(struct isa_cpu *c, const struct isa_insn *in) { return load_acquire(c, in, 4); }
/* Rt := Mem8[Rn] (acquire) */
static int x_ldab(struct isa_cpu *c, const struct isa_insn *in) { return load_acquire(c, in, 1); }
/* Rt := Mem16[Rn] (acquire) */
static int x_ldah(struct isa_cpu *c, const struct isa_insn *in) { return load_acquire(c, in, 2); }
/* Mem32[Rn] := Rt (release) */
static int x_stl(struct isa_cpu *c, const struct isa_insn *in) { return store_release(c, in, 4); }
/* Mem8[Rn] := Rt[7:0] (release) */
static int x_stlb(struct isa_cpu *c, const struct isa_insn *in) { return store_release(c, in, 1); }
/* Mem16[Rn] := Rt[15:0] (release) */
static int x_stlh(struct isa_cpu *c, const struct isa_insn *in) { return store_release(c, in, 2); }
/* Rt := Mem32[Rn]; open the exclusive reservation (acquire) */
static int x_ldaex(struct isa_cpu *c, const struct isa_insn *in) { return ldrex(c, in, 4); }
/* Rt := Mem8[Rn]; open the exclusive reservation (acquire) */
static int x_ldaexb(struct isa_cpu *c, const struct isa_insn *in) { return ldrex(c, in, 1); }
/* Rt := Mem16[Rn]; open the exclusive reservation (acquire) */
static int x_ldaexh(struct isa_cpu *c, const struct isa_insn *in) { return ldrex(c, in, 2); }
/* Mem32[Rn] := Rt if exclusive; Rd := status (release) */
static int x_stlex(struct isa_cpu *c, const struct isa_insn *in) { return strex(c, in, 4); }
/* Mem8[Rn] := Rt if exclusive; Rd := status (release) */
static int x_stlexb(struct isa_cpu *c, const struct isa_insn *in) { return strex(c, in, 1); }
/* Mem16[Rn] := Rt if exclusive; Rd := status (release) */
static int x_stlexh(struct isa_cpu *c, const struct isa_insn *in) { return strex(c, in, 2); }

/* ---- branches -------------------------------------------------------- */

static inline void branch(struct isa_cpu *c, uint32_t target)
{
	c->next_pc = target & ~1u;
	c->branched = 1;
}

/* PC := target (conditional outside IT through in->cond) */
static int x_b(struct isa_cpu *c, const struct isa_insn *in)
{
	branch(c, in->op[0].imm);
	return EX_OK;
}

/* LR := next | 1; PC := target */
static int x_bl(struct isa_cpu *c, const struct isa_insn *in)
{
	c->s.r[14] = (c->pc + in->size) | 1;
	branch(c, in->op[0].imm);
	return EX_OK;
}

/* PC := Rm (interworking; EXC_RETURN in handler mode) */
static int x_bx(struct isa_cpu *c, const struct isa_insn *in)
{
	return bx_write_pc(c, rreg(c, in->op[0].reg));
}

/* LR := next | 1; PC := Rm (interworking) */
static int x_blx(struct isa_cpu *c, const struct isa_insn *in)
{
	uint32_t t = rreg(c, in->op[0].reg);

	if (in->op[0].kind == OP_IMM) /* BLX imm switches to ARM: not in v7-M */
		return isa_fault(c, EXC_USAGEFAULT, UFSR_INVSTATE, 0);
	c->s.r[14] = (c->pc + in->size) | 1;
	return bx_write_pc(c, t);
}

/* if Rn == 0 then PC := target */
static int x_cbz(struct isa_cpu *c, const struct isa_insn *in)
{
	if (c->s.r[in->op[0].reg] == 0)
		branch(c, in->op[1].imm);
	return EX_OK;
}

/* if Rn != 0 then PC := target */
static int x_cbnz(struct isa_cpu *c, const struct isa_insn *in)
{
	if (c->s.r[in->op[0].reg] != 0)
		branch(c, in->op[1].imm);
	return EX_OK;
}

static int table_branch(struct isa_cpu *c, const struct isa_insn *in, unsigned size)
{
	const struct isa_op *m = &in->op[0];
	uint32_t base = rreg(c, m->reg), idx = c->s.r[m->index], v;
	int r;

	if ((r = isa_load(c, base + (size == 2 ? idx << 1 : idx), size, &v, ISA_ACC_LOAD)) !=
	    EX_OK)
		return r;
	branch(c, c->pc + 4 + 2 * v);
	return EX_OK;
}

/* PC := PC + 2 * Mem8[Rn + Rm] */
static int x_tbb(struct isa_cpu *c, const struct isa_insn *in) { return table_branch(c, in, 1); }
/* PC := PC + 2 * Mem16[Rn + 2*Rm] */
static int x_tbh(struct isa_cpu *c, const struct isa_insn *in) { return table_branch(c, in, 2); }

/* ITSTATE := firstcond:mask (decoded by hand; Capstone never sees IT) */
int isa_exec_it(struct isa_cpu *c, const struct isa_insn *in)
{
	c->s.it = in->raw & 0xff;
	return EX_OK;
}

/* ---- system ---------------------------------------------------------- */

static int privileged(const struct isa_cpu *c)
{
	return c->s.ipsr || !(c->s.control & 1);
}

static inline int v6m(const struct isa_cpu *c)
{
	return c->dec->v6m;
}

static inline int v8m(const struct isa_cpu *c)
{
	return c->dec->v8m;
}

/* Rd := special register SYSm (A7.7.82, B5.2.2) */
static int x_mrs(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned sysm = in->raw & 0xff, rd = in->raw >> 8 & 0xf;
	uint32_t v = 0;

	switch (sysm >> 3) {
	case 0: /* xPSR views; EPSR reads as zero */
		if (sysm & 1)
			v |= c->s.ipsr;
		if (!(sysm & 4))
			v |= c->s.apsr & (isa_model_info(c->model)->dsp ? 0xf80f0000u : 0xf8000000u);
		break;
	case 1:
		if (!privileged(c))
			break;
		if ((sysm & 7) == 0)
			v = isa_sp_is_psp(c) ? c->s.other_sp : c->s.r[13];
		else if ((sysm & 7) == 1)
			v = isa_sp_is_psp(c) ? c->s.r[13] : c->s.other_sp;
		else if ((sysm & 7) == 2 && v8m(c))
			v = c->s.msplim;
		else if ((sysm & 7) == 3 && v8m(c))
			v = c->s.psplim;
		break;
	case 2:
		switch (sysm & 7) {
		case 0: v = c->s.primask; break;
		case 1:
		case 2: v = v6m(c) ? 0 : c->s.basepri; break; /* v6-M: none */
		case 3: v = v6m(c) ? 0 : c->s.faultmask; break;
		case 4: v = c->s.control; break;
		}
		break;
	}
	wreg(c, rd, v);
	return EX_OK;
}

/* special register SYSm := Rn, per mask and privilege (A7.7.83, B5.2.3) */
static int x_msr(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned sysm = in->raw & 0xff, rn = in->raw >> 16 & 0xf, mask = in->raw >> 10 & 3;
	uint32_t v = c->s.r[rn];

	switch (sysm >> 3) {
	case 0:
		if (sysm & 4)
			break; /* IPSR/EPSR views are read-only */
		if (mask & 2)
			c->s.apsr = (c->s.apsr & ~0xf8000000u) | (v & 0xf8000000u);
		if ((mask & 1) && isa_model_info(c->model)->dsp)
			c->s.apsr = (c->s.apsr & ~0x000f0000u) | (v & 0x000f0000u);
		break;
	case 1:
		if (!privileged(c))
			break;
		if ((sysm & 7) == 0) {
			if (isa_sp_is_psp(c))
				c->s.other_sp = v & ~3u;
			else
				c->s.r[13] = v & ~3u;
		} else if ((sysm & 7) == 1) {
			if (isa_sp_is_psp(c))
				c->s.r[13] = v & ~3u;
			else
				c->s.other_sp = v & ~3u;
		} else if ((sysm & 7) == 2 && v8m(c)) {
			c->s.msplim = v & ~7u;
		} else if ((sysm & 7) == 3 && v8m(c)) {
			c->s.psplim = v & ~7u;
		}
		break;
	case 2:
		if (!privileged(c))
			break;
		/* ARMv6-M has PRIMASK and CONTROL only: QEMU ignores the others */
		if (v6m(c) && (sysm & 7) != 0 && (sysm & 7) != 4)
			break;
		switch (sysm & 7) {
		case 0: c->s.primask = v & 1; break;
		case 1: c->s.basepri = v & 0xff; break;
		case 2:
			if ((v & 0xff) && ((v & 0xff) < c->s.basepri || !c->s.basepri))
				c->s.basepri = v & 0xff;
			break;
		case 3:
			if (c->s.ipsr != EXC_NMI && c->s.ipsr != EXC_HARDFAULT)
				c->s.faultmask = v & 1;
			break;
		case 4:
			/*
			 * nPRIV: QEMU's ARMv6-M cores have no unprivileged
			 * mode (the M0+'s is optional), so only SPSEL writes
			 */
			if (!v6m(c))
				c->s.control = (c->s.control & ~1u) | (v & 1);
			if (isa_model_info(c->model)->fpu != ISA_FPU_NONE)
				c->s.control = (c->s.control & ~CONTROL_FPCA) | (v & CONTROL_FPCA);
			/* v8-M Secure state with an FPU: SFPA too, as QEMU writes it */
			if (v8m(c) && isa_model_info(c->model)->fpu != ISA_FPU_NONE)
				c->s.control = (c->s.control & ~CONTROL_SFPA) | (v & CONTROL_SFPA);
			if (!c->s.ipsr)
				isa_select_sp(c, v >> 1 & 1);
			else if (v8m(c)) /* v8-M records SPSEL in handler mode too */
				c->s.control = (c->s.control & ~2u) | (v & 2u);
			break;
		}
		break;
	}
	return EX_OK;
}

/* PRIMASK/FAULTMASK := im for the I/F bits (CPSIE/CPSID; PRIMASK only on v6-M) */
static int x_cps(struct isa_cpu *c, const struct isa_insn *in)
{
	unsigned im = in->raw >> 4 & 1;

	if (!privileged(c))
		return EX_OK;
	if (in->raw & 2)
		c->s.primask = im;
	/* ARMv6-M has no FAULTMASK: CPSID f is ignored, as QEMU does */
	if ((in->raw & 1) && !v6m(c) &&
	    !(im && (c->s.ipsr == EXC_NMI || c->s.ipsr == EXC_HARDFAULT)))
		c->s.faultmask = im;
	return EX_OK;
}

/* no operation (NOP, YIELD, barriers, unallocated hints, PLD/PLI) */
static int x_nop(struct isa_cpu *c, const struct isa_insn *in)
{
	return EX_OK;
}

/* sleep until an interrupt would preempt (PRIMASK ignored for waking) */
static int x_wfi(struct isa_cpu *c, const struct isa_insn *in)
{
	if (!isa_pending_wakes_wfi(c))
		c->s.sleeping = 1;
	return EX_OK;
}

/* if event register set: clear it; else sleep until an event */
static int x_wfe(struct isa_cpu *c, const struct isa_insn *in)
{
	if (c->s.event)
		c->s.event = 0;
	else if (!isa_pending_preempts(c))
		c->s.sleeping = 2;
	return EX_OK;
}

/* signal an event to every core (the board broadcasts; see isa_step.insn_id) */
static int x_sev(struct isa_cpu *c, const struct isa_insn *in)
{
	c->s.event = 1;
	return EX_OK;
}

/* supervisor call: SVCall is taken after this instruction */
static int x_svc(struct isa_cpu *c, const struct isa_insn *in)
{
	c->s.pend_fault = EXC_SVCALL;
	return EX_OK;
}

/* breakpoint: semihosting (0xAB) through the bus, else a debug event */
static int x_bkpt(struct isa_cpu *c, const struct isa_insn *in)
{
	int r = c->bus->bkpt ? c->bus->bkpt(c->bus->ctx, c, in->op[0].imm & 0xff)
			     : ISA_BKPT_DEBUG;

	switch (r) {
	case ISA_BKPT_HANDLED:
		return EX_OK;
	case ISA_BKPT_STOP:
		c->stop = 1;
		return EX_OK;
	case ISA_BKPT_DEBUG:
		/* no debugger: the debug event escalates to HardFault (DEBUGEVT) */
		c->s.scs.hfsr |= 1u << 31;
		return isa_fault(c, EXC_HARDFAULT, 0, 0);
	default:
		return EX_FATAL;
	}
}

/* permanently undefined: UsageFault UNDEFINSTR */
int isa_exec_undefined(struct isa_cpu *c, const struct isa_insn *in)
{
	return isa_fault(c, EXC_USAGEFAULT, UFSR_UNDEFINSTR, 0);
}

/* ---- classification for the trace modules ----------------------------- */

void isa_classify(struct isa_insn *in)
{
	int pc_dest = in->nops && in->op[0].kind == OP_REG && in->op[0].reg == 15;

	switch (in->id) {
	case ARM_INS_B:
		in->cf = in->cond != 14 ? ISA_CF_COND_DIRECT : ISA_CF_DIRECT;
		break;
	case ARM_INS_CBZ:
	case ARM_INS_CBNZ:
		in->cf = ISA_CF_COND_DIRECT;
		break;
	case ARM_INS_BL:
		in->cf = ISA_CF_CALL;
		break;
	case ARM_INS_BLX:
		in->cf = ISA_CF_IND_CALL;
		break;
	case ARM_INS_BX:
		in->cf = in->op[0].reg == 14 ? ISA_CF_RETURN : ISA_CF_IND_JUMP;
		break;
	case ARM_INS_TBB:
	case ARM_INS_TBH:
		in->cf = ISA_CF_IND_JUMP;
		break;
	case ARM_INS_POP:
		if (in->reglist >> 15 & 1)
			in->cf = ISA_CF_RETURN;
		break;
	case ARM_INS_LDM:
		if (in->reglist >> 15 & 1)
			in->cf = in->op[0].reg == 13 && in->writeback ? ISA_CF_RETURN
								      : ISA_CF_IND_JUMP;
		break;
	case ARM_INS_LDMDB:
		if (in->reglist >> 15 & 1)
			in->cf = ISA_CF_IND_JUMP;
		break;
	case ARM_INS_LDR:
		if (pc_dest)
			in->cf = in->op[1].reg == 13 && in->post && in->post_imm == 4
					 ? ISA_CF_RETURN
					 : ISA_CF_IND_JUMP;
		break;
	case ARM_INS_MOV:
	case ARM_INS_ADD:
		if (pc_dest)
			in->cf = ISA_CF_IND_JUMP;
		break;
	default:
		if (pc_dest && in->id != ARM_INS_CMP && in->id != ARM_INS_CMN &&
		    in->id != ARM_INS_TST && in->id != ARM_INS_TEQ)
			in->cf = ISA_CF_IND_JUMP;
		break;
	}
}

/* ---- the table ------------------------------------------------------- */

const isa_exec_fn isa_exec_table[ARM_INS_ENDING] = {
	[ARM_INS_ADC] = x_adc,
	[ARM_INS_ADD] = x_add,
	[ARM_INS_ADDW] = x_addw,
	[ARM_INS_ADR] = x_adr,
	[ARM_INS_AND] = x_and,
	[ARM_INS_ASR] = x_asr,
	[ARM_INS_B] = x_b,
	[ARM_INS_BFC] = x_bfc,
	[ARM_INS_BFI] = x_bfi,
	[ARM_INS_BIC] = x_bic,
	[ARM_INS_BKPT] = x_bkpt,
	[ARM_INS_BL] = x_bl,
	[ARM_INS_BLX] = x_blx,
	[ARM_INS_BX] = x_bx,
	[ARM_INS_CBNZ] = x_cbnz,
	[ARM_INS_CBZ] = x_cbz,
	[ARM_INS_CLREX] = x_clrex,
	[ARM_INS_CLZ] = x_clz,
	[ARM_INS_CMN] = x_cmn,
	[ARM_INS_CMP] = x_cmp,
	[ARM_INS_CPS] = x_cps,
	[ARM_INS_DMB] = x_nop,
	[ARM_INS_DSB] = x_nop,
	[ARM_INS_EOR] = x_eor,
	[ARM_INS_HINT] = x_nop, /* unallocated hints execute as NOPs (A5.2.5) */
	[ARM_INS_ISB] = x_nop,
	[ARM_INS_LDA] = x_lda,
	[ARM_INS_LDAB] = x_ldab,
	[ARM_INS_LDAEX] = x_ldaex,
	[ARM_INS_LDAEXB] = x_ldaexb,
	[ARM_INS_LDAEXH] = x_ldaexh,
	[ARM_INS_LDAH] = x_ldah,
	[ARM_INS_LDM] = x_ldm,
	[ARM_INS_LDMDB] = x_ldmdb,
	[ARM_INS_LDR] = x_ldr,
	[ARM_INS_LDRB] = x_ldrb,
	[ARM_INS_LDRBT] = x_ldrb,
	[ARM_INS_LDRD] = x_ldrd,
	[ARM_INS_LDREX] = x_ldrex,
	[ARM_INS_LDREXB] = x_ldrexb,
	[ARM_INS_LDREXH] = x_ldrexh,
	[ARM_INS_LDRH] = x_ldrh,
	[ARM_INS_LDRHT] = x_ldrh,
	[ARM_INS_LDRSB] = x_ldrsb,
	[ARM_INS_LDRSBT] = x_ldrsb,
	[ARM_INS_LDRSH] = x_ldrsh,
	[ARM_INS_LDRSHT] = x_ldrsh,
	[ARM_INS_LDRT] = x_ldr,
	[ARM_INS_LSL] = x_lsl,
	[ARM_INS_LSR] = x_lsr,
	[ARM_INS_MLA] = x_mla,
	[ARM_INS_MLS] = x_mls,
	[ARM_INS_MOV] = x_mov,
	[ARM_INS_MOVT] = x_movt,
	[ARM_INS_MOVW] = x_movw,
	[ARM_INS_MRS] = x_mrs,
	[ARM_INS_MSR] = x_msr,
	[ARM_INS_MUL] = x_mul,
	[ARM_INS_MVN] = x_mvn,
	[ARM_INS_NOP] = x_nop,
	[ARM_INS_ORN] = x_orn,
	[ARM_INS_ORR] = x_orr,
	[ARM_INS_PLD] = x_nop,
	[ARM_INS_PLI] = x_nop,
	[ARM_INS_POP] = x_pop,
	[ARM_INS_PUSH] = x_push,
	[ARM_INS_RBIT] = x_rbit,
	[ARM_INS_REV] = x_rev,
	[ARM_INS_REV16] = x_rev16,
	[ARM_INS_REVSH] = x_revsh,
	[ARM_INS_ROR] = x_ror,
	[ARM_INS_RRX] = x_rrx,
	[ARM_INS_RSB] = x_rsb,
	[ARM_INS_SBC] = x_sbc,
	[ARM_INS_SBFX] = x_sbfx,
	[ARM_INS_SDIV] = x_sdiv,
	[ARM_INS_SEV] = x_sev,
	[ARM_INS_SMLAL] = x_smlal,
	[ARM_INS_SMULL] = x_smull,
	[ARM_INS_SSAT] = x_ssat,
	[ARM_INS_STL] = x_stl,
	[ARM_INS_STLB] = x_stlb,
	[ARM_INS_STLEX] = x_stlex,
	[ARM_INS_STLEXB] = x_stlexb,
	[ARM_INS_STLEXH] = x_stlexh,
	[ARM_INS_STLH] = x_stlh,
	[ARM_INS_STM] = x_stm,
	[ARM_INS_STMDB] = x_stmdb,
	[ARM_INS_STR] = x_str,
	[ARM_INS_STRB] = x_strb,
	[ARM_INS_STRBT] = x_strb,
	[ARM_INS_STRD] = x_strd,
	[ARM_INS_STREX] = x_strex,
	[ARM_INS_STREXB] = x_strexb,
	[ARM_INS_STREXH] = x_strexh,
	[ARM_INS_STRH] = x_strh,
	[ARM_INS_STRHT] = x_strh,
	[ARM_INS_STRT] = x_str,
	[ARM_INS_SUB] = x_sub,
	[ARM_INS_SUBW] = x_subw,
	[ARM_INS_SVC] = x_svc,
	[ARM_INS_SXTB] = x_sxtb,
	[ARM_INS_SXTH] = x_sxth,
	[ARM_INS_TBB] = x_tbb,
	[ARM_INS_TBH] = x_tbh,
	[ARM_INS_TEQ] = x_teq,
	[ARM_INS_TST] = x_tst,
	[ARM_INS_UBFX] = x_ubfx,
	[ARM_INS_UDF] = isa_exec_undefined,
	[ARM_INS_UDIV] = x_udiv,
	[ARM_INS_UMLAL] = x_umlal,
	[ARM_INS_UMULL] = x_umull,
	[ARM_INS_USAT] = x_usat,
	[ARM_INS_UXTB] = x_uxtb,
	[ARM_INS_UXTH] = x_uxth,
	[ARM_INS_WFE] = x_wfe,
	[ARM_INS_WFI] = x_wfi,
	[ARM_INS_YIELD] = x_nop,
};

void isa_wreg(struct isa_cpu *c, unsigned n, uint32_t v)
{
	wreg(c, n, v);
}

/* ---- the block engine's plain instructions ---------------------------- */

int isa_insn_plain(const struct isa_insn *in)
{
	if (in->fn == isa_exec_it)
		return 1;
	if (in->cf != ISA_CF_NONE || !in->id || in->fn != isa_exec_table[in->id])
		return 0; /* a branch, or a handler that replaced the table's (UNDEFINED, FP) */
	if (in->fn == x_nop)
		return 1; /* NOP, the barriers, hints, PLD/PLI (no access) */
	switch (in->id) {
	case ARM_INS_ADC: case ARM_INS_ADD: case ARM_INS_ADDW: case ARM_INS_ADR:
	case ARM_INS_AND: case ARM_INS_ASR: case ARM_INS_BFC: case ARM_INS_BFI:
	case ARM_INS_BIC: case ARM_INS_CLZ: case ARM_INS_EOR: case ARM_INS_LSL:
	case ARM_INS_LSR: case ARM_INS_MLA: case ARM_INS_MLS: case ARM_INS_MOV:
	case ARM_INS_MOVT: case ARM_INS_MOVW: case ARM_INS_MUL: case ARM_INS_MVN:
	case ARM_INS_ORN: case ARM_INS_ORR: case ARM_INS_RBIT: case ARM_INS_REV:
	case ARM_INS_REV16: case ARM_INS_REVSH: case ARM_INS_ROR: case ARM_INS_RRX:
	case ARM_INS_RSB: case ARM_INS_SBC: case ARM_INS_SBFX: case ARM_INS_SSAT:
	case ARM_INS_SUB: case ARM_INS_SUBW: case ARM_INS_SXTB: case ARM_INS_SXTH:
	case ARM_INS_UBFX: case ARM_INS_USAT: case ARM_INS_UXTB: case ARM_INS_UXTH:
		/* one destination, op[0]: never SP or PC here */
		return in->nops && in->op[0].kind == OP_REG && in->op[0].reg < 13;
	case ARM_INS_SMLAL: case ARM_INS_SMULL: case ARM_INS_UMLAL: case ARM_INS_UMULL:
		return in->nops >= 2 && in->op[0].kind == OP_REG && in->op[0].reg < 13 &&
		       in->op[1].kind == OP_REG && in->op[1].reg < 13;
	case ARM_INS_CMN: case ARM_INS_CMP: case ARM_INS_TEQ: case ARM_INS_TST:
		return 1; /* flags only */
	default:
		return 0;
	}
}

int isa_insn_dbranch(const struct isa_insn *in)
{
	if (!in->id || in->fn != isa_exec_table[in->id])
		return 0;
	return in->fn == x_b || in->fn == x_bl || in->fn == x_cbz || in->fn == x_cbnz;
}

int isa_insn_sload(const struct isa_insn *in)
{
	const struct isa_op *m = &in->op[1];
	int k;

	if (!in->id || in->fn != isa_exec_table[in->id] || in->nops != 2 ||
	    in->op[0].kind != OP_REG || in->op[0].reg == 13 || in->op[0].reg == 15 ||
	    m->kind != OP_MEM || m->reg == 15 || (m->index != 0xff && m->index >= 13) ||
	    in->cond < 14)
		return 0;
	/* writeback: the base r0-r12 or LR, not Rt (no v8-M stack check, one order) */
	if ((in->writeback || in->post) && (m->reg == 13 || m->reg == in->op[0].reg))
		return 0;
	if (in->fn == x_ldr)
		k = 4;
	else if (in->fn == x_ldrh)
		k = 2;
	else if (in->fn == x_ldrb)
		k = 1;
	else if (in->fn == x_ldrsh)
		k = 2 | 8;
	else if (in->fn == x_ldrsb)
		k = 1 | 8;
	else
		return 0;
	return k | (in->writeback || in->post ? ISA_SLOAD_WB : 0);
}

/*
 * Specialised handlers: the commonest forms of the commonest data-processing
 * instructions and shifts, spelled out for the decode cache
 * (isa_specialise). Each computes exactly what its general handler does for
 * those forms: Rd and Rn are r0..r12 or LR (no PC, whose reads and writes
 * are special, and no SP, which ARMv8-M checks), op2 an immediate or a
 * register that is not PC, with no shift (LSL #0 included, which keeps C
 * as no shift does).
 */
/*
 * Each form comes in eighteen variants, its shape fixed when it is decoded:
 * n operands (2: Rd(=Rn), op2; 3: Rd, Rn, op2), op2 an immediate (k 0), a
 * register (k 1) or a register shifted by an immediate (k 2), and its flag
 * setting sm (S_NEVER, S_ALWAYS, S_OUTSIDE_IT), so that a handler tests
 * none of them. XS_FORMS makes the eighteen of name from name##_t, in the
 * order of xs_index.
 */
#define XS_SETS(c, sm) ((sm) == S_ALWAYS || ((sm) == S_OUTSIDE_IT && !in_it_block(c)))

/* op2 of variant k and the carry after it, as operand2 has them for these forms */
static inline __attribute__((always_inline)) uint32_t
xs_op2(const struct isa_cpu *c, const struct isa_insn *in, int n, int k, int *carry)
{
	const struct isa_op *o = &in->op[n - 1];

	if (!k) {
		*carry = in->imm_carry ? in->imm_carry & 1 : cflag(c);
		return (uint32_t)o->imm;
	}
	*carry = cflag(c);
	if (k == 1)
		return c->s.r[o->reg];
	return shift_c(c->s.r[o->reg], o->shift_type, o->shift, carry);
}

/* (XS_FORMS is a table of names, laid out as one) */
/* clang-format off */
#define XS_ONE(name, n, k, sm)                                                                     \
	static int name##_##n##k##sm(struct isa_cpu *c, const struct isa_insn *in)                 \
	{                                                                                          \
		return name##_t(c, in, n, k, sm);                                                  \
	}
#define XS_FORMS(name)                                                                             \
	XS_ONE(name, 2, 0, 0) XS_ONE(name, 2, 0, 1) XS_ONE(name, 2, 0, 2)                          \
	XS_ONE(name, 2, 1, 0) XS_ONE(name, 2, 1, 1) XS_ONE(name, 2, 1, 2)                          \
	XS_ONE(name, 2, 2, 0) XS_ONE(name, 2, 2, 1) XS_ONE(name, 2, 2, 2)                          \
	XS_ONE(name, 3, 0, 0) XS_ONE(name, 3, 0, 1) XS_ONE(name, 3, 0, 2)                          \
	XS_ONE(name, 3, 1, 0) XS_ONE(name, 3, 1, 1) XS_ONE(name, 3, 1, 2)                          \
	XS_ONE(name, 3, 2, 0) XS_ONE(name, 3, 2, 1) XS_ONE(name, 3, 2, 2)                          \
	static const isa_exec_fn name##_fns[18] = {                                                \
	    name##_200, name##_201, name##_202, name##_210, name##_211, name##_212,                \
	    name##_220, name##_221, name##_222, name##_300, name##_301, name##_302,                \
	    name##_310, name##_311, name##_312, name##_320, name##_321, name##_322,                \
	};
/* clang-format on */
#define XS_T(name)                                                                                 \
	static inline __attribute__((always_inline)) int name##_t(                                 \
	    struct isa_cpu *c, const struct isa_insn *in, int n, int k, int sm)

/* The end of MOV, the logical ops and the shifts: r to Rd, and N, Z, C if the form sets flags. */
static inline __attribute__((always_inline)) int xs_result(struct isa_cpu *c,
							   const struct isa_insn *in, int sm,
							   uint32_t r, int carry)
{
	if (XS_SETS(c, sm))
		set_nzc(c, r, carry);
	c->s.r[in->op[0].reg] = r;
	return EX_OK;
}

/* op2's k for in: an immediate, a register, or one shifted by an immediate. */
static unsigned xs_kind(const struct isa_op *o)
{
	if (o->kind == OP_IMM)
		return 0;
	if (o->shift_type == ARM_SFT_INVALID || (o->shift_type == ARM_SFT_LSL && !o->shift))
		return 1;
	return 2;
}

/* The variant of a form for in: its place in name##_fns. */
static unsigned xs_index(const struct isa_insn *in)
{
	return (unsigned)(in->nops - 2) * 9 + xs_kind(&in->op[in->nops - 1]) * 3 + in->s_mode;
}

XS_T(xs_add)
{
	int carry;
	uint32_t x = c->s.r[in->op[n - 2].reg], y = xs_op2(c, in, n, k, &carry);

	c->s.r[in->op[0].reg] = XS_SETS(c, sm) ? add_with_carry(c, x, y, 0, 1) : x + y;
	return EX_OK;
}
XS_FORMS(xs_add)

XS_T(xs_sub)
{
	int carry;
	uint32_t x = c->s.r[in->op[n - 2].reg], y = xs_op2(c, in, n, k, &carry);

	c->s.r[in->op[0].reg] = XS_SETS(c, sm) ? add_with_carry(c, x, ~y, 1, 1) : x - y;
	return EX_OK;
}
XS_FORMS(xs_sub)

/* (CMP: two operands, flags always; its other variants are never chosen) */
XS_T(xs_cmp)
{
	int carry;

	(void)sm;
	add_with_carry(c, c->s.r[in->op[n - 2].reg], ~xs_op2(c, in, n, k, &carry), 1, 1);
	return EX_OK;
}
XS_FORMS(xs_cmp)

/* (MOV: two operands; its three-operand variants are never chosen) */
XS_T(xs_mov)
{
	int carry;
	uint32_t r = xs_op2(c, in, n, k, &carry);

	return xs_result(c, in, sm, r, carry);
}
XS_FORMS(xs_mov)

#define XS_LOGIC(name, expr)                                                                       \
	XS_T(name)                                                                                 \
	{                                                                                          \
		int carry;                                                                         \
		uint32_t x = c->s.r[in->op[n - 2].reg];                                            \
		uint32_t y = xs_op2(c, in, n, k, &carry), r = (expr);                              \
                                                                                                   \
		return xs_result(c, in, sm, r, carry);                                             \
	}                                                                                          \
	XS_FORMS(name)
XS_LOGIC(xs_and, x & y)
XS_LOGIC(xs_eor, x ^ y)
XS_LOGIC(xs_orr, x | y)
XS_LOGIC(xs_bic, x & ~y)
#undef XS_LOGIC

/*
 * The shifts as instructions (shift_insn), the same variants: the value
 * in op[n - 2], the amount op2, an immediate or Rs[7:0] (k 1; isa_specialise
 * never chooses k 2 for them).
 */
#define XS_SHIFT(name, type)                                                                       \
	XS_T(name)                                                                                 \
	{                                                                                          \
		int carry = cflag(c);                                                              \
		unsigned amt = k ? c->s.r[in->op[n - 1].reg] & 0xff : (unsigned)in->op[n - 1].imm; \
		uint32_t r =                                                                       \
		    shift_c(c->s.r[in->op[n - 2].reg],                                             \
			    k ? type + ARM_SFT_ASR_REG - ARM_SFT_ASR : type, amt, &carry);         \
                                                                                                   \
		return xs_result(c, in, sm, r, carry);                                             \
	}                                                                                          \
	XS_FORMS(name)
XS_SHIFT(xs_lsl, ARM_SFT_LSL)
XS_SHIFT(xs_lsr, ARM_SFT_LSR)
XS_SHIFT(xs_asr, ARM_SFT_ASR)
XS_SHIFT(xs_ror, ARM_SFT_ROR)
#undef XS_SHIFT

static int plain_reg(const struct isa_op *o)
{
	return o->kind == OP_REG && o->reg != 13 && o->reg != 15;
}

/*
 * op2 of a specialised form: an immediate, or a plain register, unshifted,
 * or (shifted, unless the form is a shift) shifted by an immediate: LSL,
 * LSR, ASR or ROR, as operand2 does it (not RRX, nor by a register).
 */
static int plain_operand(const struct isa_op *o, int shifted)
{
	if (o->kind == OP_IMM)
		return 1;
	if (!plain_reg(o))
		return 0;
	switch (o->shift_type) {
	case ARM_SFT_INVALID: return 1;
	case ARM_SFT_LSL: return !o->shift || shifted;
	case ARM_SFT_LSR:
	case ARM_SFT_ASR:
	case ARM_SFT_ROR: return shifted;
	default: return 0;
	}
}

void isa_specialise(struct isa_insn *in)
{
	static const struct {
		uint16_t id;
		uint8_t shift; /* a shift instruction: op2 is its amount, never shifted */
		isa_exec_fn general;
		const isa_exec_fn *fns;
	} forms[] = {
	    {ARM_INS_ADD, 0, x_add, xs_add_fns}, {ARM_INS_SUB, 0, x_sub, xs_sub_fns},
	    {ARM_INS_CMP, 0, x_cmp, xs_cmp_fns}, {ARM_INS_MOV, 0, x_mov, xs_mov_fns},
	    {ARM_INS_AND, 0, x_and, xs_and_fns}, {ARM_INS_EOR, 0, x_eor, xs_eor_fns},
	    {ARM_INS_ORR, 0, x_orr, xs_orr_fns}, {ARM_INS_BIC, 0, x_bic, xs_bic_fns},
	    {ARM_INS_LSL, 1, x_lsl, xs_lsl_fns}, {ARM_INS_LSR, 1, x_lsr, xs_lsr_fns},
	    {ARM_INS_ASR, 1, x_asr, xs_asr_fns}, {ARM_INS_ROR, 1, x_ror, xs_ror_fns},
	};

	if (in->nops < 2 || in->nops > 3)
		return;
	for (size_t k = 0; k < ARRAY_SIZE(forms); k++) {
		if (forms[k].id != in->id || in->fn != forms[k].general)
			continue;
		/* every register operand but the last is a plain register, the last plain op2 */
		for (int i = 0; i < in->nops - 1; i++)
			if (!plain_reg(&in->op[i]) || in->op[i].shift_type != ARM_SFT_INVALID)
				return;
		if (!plain_operand(&in->op[in->nops - 1], !forms[k].shift))
			return;
		if ((in->id == ARM_INS_CMP || in->id == ARM_INS_MOV) && in->nops != 2)
			return;
		in->fn = forms[k].fns[xs_index(in)];
		return;
	}
}

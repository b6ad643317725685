/*
 * isa_priv.h: the ISS's insides, shared by decode.c, exec.c, dsp.c and exc.c.
 * Nothing outside isa/ includes this.
 */
#ifndef RAPTOR_ISA_PRIV_H
#define RAPTOR_ISA_PRIV_H

#include <capstone/capstone.h>

#include "isa/isa.h"

/* Outcome of an instruction handler. */
enum {
	EX_OK = 0,
	EX_FAULT = 1, /* a fault is pending; the instruction did not retire */
	EX_FATAL = -1, /* reported error: stop the run */
};

/* Flag-setting behaviour decided from the raw encoding (Capstone guesses). */
enum {
	S_NEVER = 0,
	S_ALWAYS,
	S_OUTSIDE_IT, /* 16-bit ALU ops: set flags only outside an IT block */
};

/* A compact operand: what handlers need, nothing of Capstone's text. */
enum { OP_NONE, OP_REG, OP_IMM, OP_MEM };

struct isa_op {
	uint8_t kind;
	uint8_t reg;   /* OP_REG: register; OP_MEM: base */
	uint8_t index; /* OP_MEM: index register, or 0xff for none */
	uint8_t shift_type; /* ARM_SFT_* applied to a register (or index) */
	uint8_t shift;      /* shift amount */
	int32_t imm;        /* OP_IMM value; OP_MEM displacement */
};

struct isa_insn;
typedef int (*isa_exec_fn)(struct isa_cpu *c, const struct isa_insn *in);

#define ISA_MAXOPS 5

struct isa_insn {
	isa_exec_fn fn;     /* NULL: not decoded yet */
	uint32_t raw;       /* hw1 << 16 | hw2 for 32-bit, hw1 for 16-bit */
	uint16_t id;        /* Capstone ARM_INS_* (0 for IT) */
	uint8_t size;       /* 2 or 4 */
	uint8_t cond;       /* ARM condition 0..14 from the encoding (B<cc>) */
	uint8_t s_mode;     /* S_* */
	uint8_t writeback;  /* base register writeback */
	uint8_t post;       /* post-indexed: post_imm is the offset */
	uint8_t nops;
	uint8_t cf;         /* enum isa_cf */
	uint8_t imm_carry;  /* ThumbExpandImm_C carry: 0 unchanged, 2 clear, 3 set */
	uint8_t plain;      /* isa_insn_plain: the block engine may run it (isa_cpu_step_plain) */
	uint8_t dbranch;    /* isa_insn_dbranch: ... as a direct branch (isa_cpu_exec_dbranch) */
	uint8_t sload;      /* isa_insn_sload: ... as a simple load (isa_cpu_sload_at) */
	uint16_t reglist;   /* LDM/STM/PUSH/POP register mask */
	int32_t post_imm;
	struct isa_op op[ISA_MAXOPS];
};

/* Decode-cache page: one entry per halfword of a 4 KiB page. */
#define DC_PAGE_BITS 12
#define DC_PAGE_INSNS (1u << (DC_PAGE_BITS - 1))

struct isa_decoder {
	csh cs;
	/*
	 * ARMv8-M mainline: a second handle in Capstone's V8 mode, which alone
	 * decodes the load-acquire/store-release group (isa_v8m_group).
	 */
	csh cs_v8;
	enum isa_model model;
	int v6m; /* ARMv6-M: the encodings it lacks decode as UNDEFINED */
	int v8m; /* ARMv8-M mainline: its additions, stack limits, SCS */
	int cache_on;
	/*
	 * Every step takes the general path (isa_cpu_step's fast path off):
	 * RAPTOR_SIMPLE_ENGINE=1 at creation, a white-box switch; also while
	 * the decode cache is off.
	 */
	int simple;
	struct isa_insn **pages; /* 2^20 page pointers, allocated lazily */
	/*
	 * The pages allocated, to free them without walking 2^20 pointers (and
	 * so that leak checkers, which do not scan the mapped table, see them).
	 */
	struct isa_insn **used;
	size_t nused, aused;
	struct isa_insn scratch; /* used when the cache is off */
	/*
	 * lookups counts isa_decode's alone: every fast step is a lookup too,
	 * added in isa_decoder_stats, so that the fast path bumps one counter.
	 */
	uint64_t lookups, decodes;
	uint64_t fast; /* steps isa_cpu_step's fast path made */
};

/* System Control Space state of one core. */
struct isa_scs {
	/* SysTick */
	uint32_t syst_csr, syst_rvr, syst_cvr;
	/* NVIC: external interrupts */
	uint32_t nvic_enable, nvic_pending, nvic_active;
	uint8_t nvic_prio[ISA_NIRQ];
	/* SCB */
	uint32_t vtor, aircr_prigroup, scr, ccr, shcsr, cfsr, hfsr, mmfar, bfar;
	uint8_t shpr[12]; /* priorities of exceptions 4..15 */
	/* system exceptions 1..15: pending and active bits by number */
	uint32_t sys_pending, sys_active;
};

/* The exclusive monitor: one reservation per core (ARMv7-M A3.4). */
struct isa_excl {
	uint8_t valid;
	uint32_t addr; /* granule-aligned */
};

/* Plain-data part of the cpu (saved and restored by checkpoints). */
struct isa_state {
	int pend_fault;    /* synchronous exception to take next (0: none) */
	uint32_t r[16];    /* r[13] is the active stack pointer */
	uint32_t other_sp; /* the banked SP not in use */
	uint32_t apsr;     /* N Z C V Q in 31..27, GE in 19..16 */
	uint32_t ipsr;
	uint8_t it;        /* ITSTATE */
	uint8_t primask, faultmask, basepri;
	uint32_t control;  /* bit0 nPRIV, bit1 SPSEL, bit2 FPCA, bit3 SFPA (v8-M) */
	uint32_t msplim, psplim; /* ARMv8-M stack limits (Secure bank), 8-aligned */
	uint8_t sleeping;  /* 1 WFI, 2 WFE */
	uint8_t event;     /* event register */
	uint8_t lockup;
	uint8_t tbit_clear; /* EPSR.T = 0: the next instruction faults */
	struct isa_excl excl;
	struct isa_scs scs;
	uint64_t icount;
	uint64_t tick_frac; /* SysTick cycles not yet applied */
	/* FP extension (models with an FPU; zero otherwise) */
	uint32_t fpr[32];  /* S0-S31 (D0-D15 as pairs) */
	uint32_t fpscr;
	uint32_t cpacr;    /* 0xE000ED88: CP10/CP11 access, bits 23:20 */
	uint32_t fpccr;    /* 0xE000EF34 */
	uint32_t fpcar;    /* 0xE000EF38: where the lazy save goes */
	uint32_t fpdscr;   /* 0xE000EF3C: FPSCR of a new FP context */
};

struct isa_cpu {
	struct isa_state s;
	int core;
	enum isa_model model;
	struct isa_decoder *dec;
	const struct isa_bus *bus;
	/* per-instruction scratch */
	uint32_t pc;      /* address of the executing instruction */
	uint32_t next_pc; /* fall-through or branch target */
	uint8_t branched; /* next_pc was written by the instruction */
	uint8_t exc_return;
	uint16_t tail_exc; /* exception tail-chained into by this instruction */
	uint8_t stop;     /* semihosting exit */
};

/* Condition codes of ARMv7-M (A7.3), 14 = always. */
static inline int cond_pass(uint32_t apsr, unsigned cond)
{
	int n = apsr >> 31 & 1, z = apsr >> 30 & 1, c = apsr >> 29 & 1, v = apsr >> 28 & 1;
	int r;

	switch (cond >> 1) {
	case 0: r = z; break;
	case 1: r = c; break;
	case 2: r = n; break;
	case 3: r = v; break;
	case 4: r = c && !z; break;
	case 5: r = n == v; break;
	case 6: r = !z && n == v; break;
	default: return 1;
	}
	return (cond & 1) ? !r : r;
}

#define CONTROL_FPCA (1u << 2)
#define CONTROL_SFPA (1u << 3) /* v8-M Security Extension, Secure FP active */
#define FPCCR_LSPACT (1u << 0)
#define FPCCR_USER (1u << 1)
#define FPCCR_THREAD (1u << 3)
#define FPCCR_HFRDY (1u << 4)
#define FPCCR_MMRDY (1u << 5)
#define FPCCR_BFRDY (1u << 6)
#define FPCCR_MONRDY (1u << 8)
#define FPCCR_UFRDY (1u << 10)
#define FPCCR_LSPEN (1u << 30)
#define FPCCR_ASPEN (1u << 31)
#define FPCCR_V7M_MASK 0xc000017bu
#define FPCCR_S (1u << 2)          /* v8-M: the FP context is Secure */
#define FPCCR_SPLIMVIOL (1u << 9)  /* v8-M: lazy save would cross the limit */
/* v8-M (QEMU 7.2, Secure): TS, CLRONRET(S), LSPENS, SFRDY, ... kept, no effect */
#define FPCCR_V8M_MASK 0xfc0007ffu
/* FPSCR bits that hold state: NZCV, AHP, DN, FZ, RMode, cumulative flags */
#define FPSCR_MASK 0xf7c0009fu

#define APSR_N (1u << 31)
#define APSR_Z (1u << 30)
#define APSR_C (1u << 29)
#define APSR_V (1u << 28)
#define APSR_Q (1u << 27)

static inline int in_it_block(const struct isa_cpu *c)
{
	return (c->s.it & 0xf) != 0;
}

/* ITAdvance (A7.3.3) */
static inline void it_advance(struct isa_cpu *c)
{
	if ((c->s.it & 7) == 0)
		c->s.it = 0;
	else
		c->s.it = (c->s.it & 0xe0) | ((c->s.it << 1) & 0x1f);
}

/* Register read as an operand: PC reads as the instruction address + 4. */
static inline uint32_t rreg(const struct isa_cpu *c, unsigned n)
{
	return n == 15 ? c->pc + 4 : c->s.r[n];
}

/* exec.c */
extern const isa_exec_fn isa_exec_table[ARM_INS_ENDING];
int isa_exec_it(struct isa_cpu *c, const struct isa_insn *in);
/* UNDEFINED: UsageFault UNDEFINSTR (HardFault on ARMv6-M, which has no UsageFault) */
int isa_exec_undefined(struct isa_cpu *c, const struct isa_insn *in);
void isa_classify(struct isa_insn *in);
/*
 * Is the decoded instruction plain: one that only computes (registers and
 * APSR), so that executing it can never touch memory or special registers,
 * branch, fault, sleep or stop? IT and NOP-like hints are plain; an
 * instruction that writes SP is not (ARMv8-M checks stack limits there).
 * Called by the decoder once fn and cf are set.
 */
int isa_insn_plain(const struct isa_insn *in);
/*
 * Is it a direct branch whose handler only moves the PC and sets LR: B,
 * B<cc>, BL, CBZ, CBNZ with their own handlers (no replacement), which
 * can never touch memory or special registers, fault, sleep or stop?
 * (Inside an IT block the step is the general one.) Called with
 * isa_insn_plain.
 */
int isa_insn_dbranch(const struct isa_insn *in);
/*
 * A simple load: LDR, LDRH, LDRB, LDRSH, LDRSB with the table's handler,
 * an immediate or register offset, Rt r0-r12 or LR, the base not PC, the
 * index (if any) r0-r12, and if it writes the base back (pre- or
 * post-indexed) the base neither SP nor Rt: its size (1, 2, 4), plus 8 if
 * it sign-extends, plus ISA_SLOAD_WB if it writes back; 0 for any other
 * instruction. Such a load only reads its address and writes Rt and the
 * base (its faults come of the address alone: the caller of
 * isa_cpu_sload_at takes the general step for an unaligned one or one
 * outside memory). Called with isa_insn_plain.
 */
#define ISA_SLOAD_WB 16
int isa_insn_sload(const struct isa_insn *in);
/*
 * Replace the handler of a decoded instruction by a specialised one where
 * its form has one (the commonest data-processing forms), doing exactly
 * the same. The decoder calls it after isa_insn_plain, unless the simple
 * engine is asked for.
 */
void isa_specialise(struct isa_insn *in);

/* dsp.c: handlers of the DSP extension (Cortex-M4), by Capstone id. */
extern const isa_exec_fn isa_dsp_table[ARM_INS_ENDING];
/* Shared helpers that dsp.c uses too. */
void isa_wreg(struct isa_cpu *c, unsigned n, uint32_t v);

/*
 * vfp.c: the FP extension, decoded from the raw bits. isa_is_vfp: 1 when
 * raw is a CP10/CP11 instruction isa_exec_vfp (or isa_exec_nocp) takes on
 * a core of this model (FPv5's unconditional space only on FPv5 cores).
 */
int isa_is_vfp(enum isa_model model, uint32_t raw, unsigned size);
int isa_exec_vfp(struct isa_cpu *c, const struct isa_insn *in);
int isa_exec_nocp(struct isa_cpu *c, const struct isa_insn *in);

/* decode.c */
/* Report an instruction the ISS does not implement (core, pc, encoding, text). */
int isa_exec_unimplemented(struct isa_cpu *c, const struct isa_insn *in);
const struct isa_insn *isa_decode(struct isa_decoder *d, const struct isa_bus *bus,
				  uint32_t pc, int *err);

/* exc.c: exceptions and the System Control Space */
enum {
	EXC_RESET = 1,
	EXC_NMI = 2,
	EXC_HARDFAULT = 3,
	EXC_MEMMANAGE = 4,
	EXC_BUSFAULT = 5,
	EXC_USAGEFAULT = 6,
	EXC_SVCALL = 11,
	EXC_DEBUGMON = 12,
	EXC_PENDSV = 14,
	EXC_SYSTICK = 15,
	EXC_IRQ0 = 16,
};
/* CFSR bits raised with a fault */
#define UFSR_UNDEFINSTR (1u << 16)
#define UFSR_INVSTATE (1u << 17)
#define UFSR_INVPC (1u << 18)
#define UFSR_NOCP (1u << 19)
#define UFSR_STKOF (1u << 20)
#define UFSR_UNALIGNED (1u << 24)
#define UFSR_DIVBYZERO (1u << 25)
#define BFSR_IBUSERR (1u << 8)
#define BFSR_PRECISERR (1u << 9)
#define BFSR_BFARVALID (1u << 15)
#define BFSR_STKERR (1u << 12)
#define BFSR_UNSTKERR (1u << 11)

/*
 * ARMv8-M stack limit check of a new SP value (QEMU's v8m_stackcheck):
 * below the active stack's limit (PSPLIM in thread mode on PSP, else
 * MSPLIM) it raises the STKOF UsageFault and returns EX_FAULT; else EX_OK.
 * Always EX_OK on other architectures.
 */
int isa_stack_check(struct isa_cpu *c, uint32_t newsp);
/* Raise a synchronous fault for the executing instruction; returns EX_FAULT. */
int isa_fault(struct isa_cpu *c, int exc, uint32_t cfsr_bits, uint32_t addr);
/* Exception return through EXC_RETURN value v (from BX/POP/LDR/LDM). */
int isa_exception_return(struct isa_cpu *c, uint32_t v);
/* Take the highest-priority pending exception if it may preempt: 1 taken, 0 none, -1 fatal. */
int isa_take_pending(struct isa_cpu *c, struct isa_step *out);
/* Is there a pending exception that would preempt now (wakes WFI)? */
int isa_pending_preempts(const struct isa_cpu *c);
/* Would a pending exception wake WFI (preempt, ignoring PRIMASK)? */
int isa_pending_wakes_wfi(const struct isa_cpu *c);
uint32_t isa_xpsr(const struct isa_cpu *c);
void isa_set_xpsr_flags(struct isa_cpu *c, uint32_t v, unsigned mask);
int isa_scs_read(struct isa_cpu *c, uint32_t addr, unsigned size, uint32_t *val);
int isa_scs_write(struct isa_cpu *c, uint32_t addr, unsigned size, uint32_t val);
void isa_scs_reset(struct isa_cpu *c);
/* Switch the active stack pointer between MSP (0) and PSP (1). */
void isa_select_sp(struct isa_cpu *c, int psp);
int isa_sp_is_psp(const struct isa_cpu *c);
/* Exclusive monitor: clear the local reservation (CLREX, exception entry/return). */
static inline void isa_clear_excl(struct isa_cpu *c)
{
	c->s.excl.valid = 0;
}

/* Memory helpers used by handlers (exec.c); return EX_OK or EX_FAULT. */
int isa_load(struct isa_cpu *c, uint32_t addr, unsigned size, uint32_t *val,
	     enum isa_access kind) MUST_CHECK;
int isa_store(struct isa_cpu *c, uint32_t addr, unsigned size, uint32_t val,
	      enum isa_access kind) MUST_CHECK;

#endif

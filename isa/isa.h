/*
 * isa: the ARMv7-M (Thumb-2, integer + DSP, FP) and ARMv6-M instruction-set
 * simulator.
 *
 * One struct isa_cpu per core. Instructions are decoded by Capstone once per
 * PC into a decode cache shared by all cores (struct isa_decoder), then
 * executed through a table indexed by Capstone's instruction id. Memory is
 * reached only through struct isa_bus callbacks, so the recorder and the
 * replay engine plug in their own memory models. The ISS knows nothing about
 * traces: it reports what each step did in a struct isa_step.
 *
 * The System Control Space (SysTick, NVIC, SCB) is part of each core and is
 * modelled here; the bus sees PPB writes too, and may override PPB reads.
 */
#ifndef RAPTOR_ISA_H
#define RAPTOR_ISA_H

#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

struct isa_cpu;
struct isa_decoder;

/* Core models; isa/model.h describes each (DSP, FP extension, CPUID). */
enum isa_model {
	ISA_CORTEX_M3,
	ISA_CORTEX_M4,	   /* adds the DSP extension */
	ISA_CORTEX_M4F,	   /* M4 with FPv4-SP */
	ISA_CORTEX_M7,	   /* DSP, FPv5 single and double precision */
	ISA_CORTEX_M33,	   /* ARMv8-M mainline, DSP, FPv5-SP */
	ISA_CORTEX_M0PLUS, /* ARMv6-M */
	ISA_NMODELS
};

/* Why the bus is being asked. */
enum isa_access {
	ISA_ACC_LOAD,     /* ordinary data load (LDR*, LDM, POP, TBB/TBH) */
	ISA_ACC_STORE,    /* ordinary data store */
	ISA_ACC_LDREX,    /* exclusive load */
	ISA_ACC_STREX,    /* exclusive store that passed the monitors */
	ISA_ACC_STACK,    /* exception entry stacking (store) */
	ISA_ACC_UNSTACK,  /* exception return unstacking (load) */
	ISA_ACC_VECTOR,   /* vector table read on exception entry */
	ISA_ACC_FETCH,    /* instruction fetch (halfwords) */
};

/* Return values of struct isa_bus read/write. */
enum {
	ISA_BUS_OK = 0,
	ISA_BUS_FAULT = -1,  /* bus error: the ISS raises a precise BusFault */
	ISA_BUS_DEFAULT = 1, /* read of the PPB: let the ISS's SCS model answer */
};

/* Result of struct isa_bus.bkpt. */
enum {
	ISA_BKPT_DEBUG = 0,  /* not handled: a debug event (HardFault, no debugger) */
	ISA_BKPT_HANDLED,    /* handled (semihosting): continue after the BKPT */
	ISA_BKPT_STOP,       /* the program ended (SYS_EXIT) */
	ISA_BKPT_ERROR = -1, /* fatal: the handler reported an error */
};

struct isa_bus {
	void *ctx;
	/*
	 * Read size (1, 2 or 4) bytes at addr (any alignment) into *val, little
	 * endian. Returns ISA_BUS_OK, ISA_BUS_FAULT, or ISA_BUS_DEFAULT (only for
	 * addresses in the PPB, 0xE0000000..0xE00FFFFF).
	 */
	int (*read)(void *ctx, struct isa_cpu *cpu, uint32_t addr, unsigned size,
		    uint32_t *val, enum isa_access kind);
	/* Write; the ISS has already applied PPB writes to its SCS model. */
	int (*write)(void *ctx, struct isa_cpu *cpu, uint32_t addr, unsigned size,
		     uint32_t val, enum isa_access kind);
	/* Fetch one code halfword at addr (even). ISA_BUS_OK or ISA_BUS_FAULT. */
	int (*fetch)(void *ctx, uint32_t addr, uint16_t *hw);
	/* BKPT #imm executed (semihosting uses 0xAB); may change registers. */
	int (*bkpt)(void *ctx, struct isa_cpu *cpu, unsigned imm);
};

/* Control-flow class of an instruction, as the trace modules see it. */
enum isa_cf {
	ISA_CF_NONE = 0,
	ISA_CF_COND_DIRECT,  /* B<cc>, CBZ, CBNZ, or a direct branch in an IT block */
	ISA_CF_DIRECT,       /* B */
	ISA_CF_CALL,         /* BL */
	ISA_CF_RETURN,       /* BX LR, POP/LDM SP! with PC, LDR PC,[SP],#4 */
	ISA_CF_IND_CALL,     /* BLX Rm */
	ISA_CF_IND_JUMP,     /* BX Rm, LDR PC, MOV/ADD PC, LDM with PC, TBB/TBH */
};

/* What one isa_step did. */
enum isa_event {
	ISA_EV_INSN,      /* an instruction was executed (or attempted and faulted) */
	ISA_EV_EXCEPTION, /* an exception was taken: no instruction executed */
	ISA_EV_SLEEP,     /* the core is asleep (WFI/WFE): nothing happened */
	ISA_EV_STOP,      /* the program stopped (semihosting exit) */
};

struct isa_step {
	enum isa_event ev;
	uint32_t pc;        /* address of the instruction (ISA_EV_INSN) */
	uint32_t next_pc;   /* where execution continues */
	uint8_t size;       /* 2 or 4 */
	uint8_t cf;         /* enum isa_cf of the instruction */
	uint8_t in_it;      /* the instruction was inside an IT block */
	uint8_t executed;   /* condition passed (always 1 outside IT/B<cc>) */
	uint8_t taken;      /* control flow left the fall-through path */
	uint8_t faulted;    /* the instruction raised a fault and did not retire */
	uint8_t exc_return; /* the instruction performed an exception return */
	uint16_t exc;       /* exception number taken (ISA_EV_EXCEPTION), or the
			     * exception an exception return tail-chained into
			     * (ISA_EV_INSN with exc_return; next_pc is its handler) */
	uint32_t insn_id;   /* Capstone id (0 for IT) */
};

/* Create a decoder (the shared decode cache) for the given core model. */
struct isa_decoder *isa_decoder_new(enum isa_model model);
void isa_decoder_free(struct isa_decoder *d);
/* Turn the decode cache off (every step decodes afresh); for white-box tests. */
void isa_decoder_set_cache(struct isa_decoder *d, int on);
/*
 * Counters: instruction lookups and Capstone decodes since creation. With
 * the cache on, decodes is the number of distinct PCs executed. The
 * environment variable RAPTOR_NO_DECODE_CACHE turns the cache off at
 * creation (a white-box switch for tests: every lookup decodes).
 */
void isa_decoder_stats(const struct isa_decoder *d, uint64_t *lookups, uint64_t *decodes);
/*
 * 1 when the environment asks for the simple engine (RAPTOR_SIMPLE_ENGINE
 * set and not "0"): a white-box switch for tests, read when a decoder or a
 * replay is created. The ISS then takes its general step for every
 * instruction, and the replay its step-by-step loop, so that tests can
 * check that the fast paths do exactly what the simple ones do.
 */
int isa_simple_engine(void);
/* Steps of the cores on d that took isa_cpu_step's fast path (0 if simple). */
uint64_t isa_decoder_fast_steps(const struct isa_decoder *d);
/* Forget decoded instructions overlapping [addr, addr+len). */
void isa_decoder_invalidate(struct isa_decoder *d, uint32_t addr, uint32_t len);

/*
 * Describe the instruction at pc without executing it: mnemonic text into
 * buf (may be NULL), its size, control-flow class and, for direct branches,
 * the static target. Returns 0, or -1 if it cannot be fetched or decoded.
 */
int isa_describe(struct isa_decoder *d, const struct isa_bus *bus, uint32_t pc,
		 char *buf, size_t len, unsigned *size, enum isa_cf *cf,
		 uint32_t *target) MUST_CHECK;

/*
 * Allocate a core. core is its index (the CPUID register of the board), the
 * decoder and bus are shared and must outlive the cpu.
 */
struct isa_cpu *isa_cpu_new(int core, enum isa_model model, struct isa_decoder *d,
			    const struct isa_bus *bus);
void isa_cpu_free(struct isa_cpu *cpu);

/* Reset: SP and PC from the vector table at vtor (usually 0). 0 / -1. */
int isa_cpu_reset(struct isa_cpu *cpu, uint32_t vtor) MUST_CHECK;

/*
 * Execute one step: take a pending exception, or execute one instruction,
 * or report that the core sleeps. Returns 0, or -1 on a fatal error (an
 * unimplemented or undecodable instruction, lockup), already reported with
 * core, PC, encoding and mnemonic.
 */
int isa_cpu_step(struct isa_cpu *cpu, struct isa_step *out) MUST_CHECK;

/*
 * The block engine's step: when the next step of the core is a plain
 * instruction (one that only computes: no memory access, branch, fault,
 * special register, sleep or stop; IT and hints included), found in the
 * decode cache, on a core isa_cpu_step would take its fast path on,
 * execute it and return 1 with its address in *pc, and, if out is not
 * NULL, what isa_cpu_step would have said of it (ev ISA_EV_INSN, cf
 * ISA_CF_NONE, nothing taken, faulted or returned). Otherwise change
 * nothing and return 0: isa_cpu_step takes that step. Always 0 under
 * RAPTOR_SIMPLE_ENGINE. -1 (reported) if a handler marked plain did not
 * retire: a bug in isa_insn_plain's list, never a guest's doing.
 */
int isa_cpu_step_plain(struct isa_cpu *cpu, uint32_t *pc, struct isa_step *out);

/* Advance the core's SysTick by the given number of cycles. */
void isa_cpu_tick(struct isa_cpu *cpu, uint64_t cycles);
/* Cycles until this core's SysTick next wraps (UINT64_MAX if disabled). */
uint64_t isa_cpu_next_tick(const struct isa_cpu *cpu);

/* Set the event register (SEV from another core); wakes WFE. */
void isa_cpu_signal_event(struct isa_cpu *cpu);
/* Pend external interrupt irq (0..ISA_NIRQ-1) on this core. */
void isa_cpu_pend_irq(struct isa_cpu *cpu, unsigned irq);
/*
 * Will the next isa_cpu_step execute the instruction at the PC (rather than
 * take an exception, stay asleep or fail)? For debuggers that must stop
 * before an instruction, not after.
 */
int isa_cpu_will_execute(const struct isa_cpu *cpu);
/* Is the core asleep in WFI/WFE with nothing to wake it? */
int isa_cpu_sleeping(const struct isa_cpu *cpu);

/*
 * A store by another core (or DMA) to [addr, addr+size): clears this core's
 * exclusive reservation if it overlaps the reservation granule.
 */
void isa_cpu_snoop_store(struct isa_cpu *cpu, uint32_t addr, unsigned size);

/*
 * Read or write a System Control Space register (0xE000E000..0xE000EFFF) as
 * this core's model has it, side effects included (a read of SYST_CSR clears
 * COUNTFLAG). A bus answers PPB reads with this to see the value itself.
 */
int isa_cpu_scs_read(struct isa_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val);

/* Register numbering for get/set: 0..15 core registers, then these. */
enum isa_reg {
	ISA_R_SP = 13,
	ISA_R_LR = 14,
	ISA_R_PC = 15,
	ISA_R_XPSR = 16,
	ISA_R_MSP,
	ISA_R_PSP,
	ISA_R_PRIMASK,
	ISA_R_BASEPRI,
	ISA_R_FAULTMASK,
	ISA_R_CONTROL,
	ISA_NREGS,
};
#define ISA_NIRQ 32

uint32_t isa_cpu_get(const struct isa_cpu *cpu, enum isa_reg r);
/* Every register at once, regs[r] = isa_cpu_get(cpu, r) (the truth's per-step reads). */
void isa_cpu_get_regs(const struct isa_cpu *cpu, uint32_t regs[ISA_NREGS]);
void isa_cpu_set(struct isa_cpu *cpu, enum isa_reg r, uint32_t v);
int isa_cpu_core(const struct isa_cpu *cpu);
/* FP registers: s0..s31 then FPSCR into v; returns ISA_NFPREGS, or 0 without an FPU. */
#define ISA_NFPREGS 33
unsigned isa_cpu_get_fp(const struct isa_cpu *cpu, uint32_t v[ISA_NFPREGS]);
/* Register i of isa_cpu_get_fp's order by name: "s0".."s31", "fpscr" ("?" past it). */
const char *isa_fp_name(unsigned i);
uint64_t isa_cpu_icount(const struct isa_cpu *cpu);

/*
 * Write the trace-regs line (core pc r0..r12 sp lr xpsr; then s0..s31 fpscr
 * on a model with an FPU) for the current state.
 */
void isa_cpu_trace_regs(const struct isa_cpu *cpu, FILE *f);

/*
 * Whole-state snapshot for checkpoints: the struct is plain data of
 * isa_cpu_state_size() bytes (no pointers survive a restore: the decoder and
 * bus stay those of the target cpu).
 */
size_t isa_cpu_state_size(void);
void isa_cpu_save(const struct isa_cpu *cpu, void *buf);
void isa_cpu_restore(struct isa_cpu *cpu, const void *buf);

#endif

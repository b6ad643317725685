/*
 * board: the virtual multicore Cortex-M board (DESIGN.md section 5).
 *
 * QEMU mps2-an385 memory map (code/ROM 0x00000000 4 MiB, SRAM 0x20000000
 * 4 MiB, CMSDK UART0 at 0x40004000; the Cortex-M33 has mps2-an505's ROM
 * and SRAM addresses, struct board_mem), semihosting through BKPT 0xAB, 1..8
 * cores sharing memory and starting at the reset vector, a read-only
 * core-index register at 0xD0000000 and core count at 0xD0000004, a SysTick
 * per core. Timing: 1 cycle per instruction, plus a taken-branch penalty,
 * plus a D-cache miss penalty (a private 32 KiB 4-way 32-byte-line cache per
 * core), plus an optional seeded jitter; the scheduler always steps the core
 * with the smallest cycle count, ties to the lowest index. Same seed, same run.
 *
 * Observers see every step and every data access, so the trace modules
 * (record/) attach here without the board knowing about traces.
 */
#ifndef RAPTOR_BOARD_H
#define RAPTOR_BOARD_H

#include <stdint.h>
#include <stdio.h>

#include "isa/elf.h"
#include "isa/isa.h"

#define BOARD_MAX_CORES 8
#define BOARD_ROM_SIZE 0x00400000u
#define BOARD_SRAM_SIZE 0x00400000u

/*
 * Where ROM and SRAM sit. Every core model has QEMU mps2-an385's map but
 * the Cortex-M33, which has mps2-an505's as its Secure state sees it: ROM
 * at 0x10000000 (the Secure alias of the an505's SSRAM1, where it boots)
 * and SRAM at 0x38000000 (the Secure alias of its SSRAM2 and SSRAM3). One
 * run uses one map, so no byte has two addresses in it.
 */
struct board_mem {
	uint32_t rom_base, sram_base;
};

static inline struct board_mem board_mem_of(enum isa_model m)
{
	return m == ISA_CORTEX_M33 ? (struct board_mem){0x10000000u, 0x38000000u}
				   : (struct board_mem){0x00000000u, 0x20000000u};
}

/*
 * Offset of [addr, addr+n) in the board's storage, ROM's 4 MiB then
 * SRAM's, under either map (the replay's memory pictures and the truth's
 * are indexed so); -1 when the range is not all in ROM or all in SRAM.
 */
static inline int64_t board_mem_offset(uint32_t addr, uint32_t n)
{
	static const uint32_t rom[] = {0x00000000u, 0x10000000u};
	static const uint32_t sram[] = {0x20000000u, 0x38000000u};

	for (int i = 0; i < 2; i++) {
		if (addr - rom[i] < BOARD_ROM_SIZE && n <= BOARD_ROM_SIZE - (addr - rom[i]))
			return addr - rom[i];
		if (addr - sram[i] < BOARD_SRAM_SIZE && n <= BOARD_SRAM_SIZE - (addr - sram[i]))
			return (int64_t)BOARD_ROM_SIZE + (addr - sram[i]);
	}
	return -1;
}
#define BOARD_UART0 0x40004000u
#define BOARD_CPUID 0xd0000000u
#define BOARD_NCORES 0xd0000004u
/* the private D-cache of each core that the timing model charges misses on */
#define BOARD_TIMING_CACHE_SIZE (32 * 1024)
#define BOARD_TIMING_CACHE_ASSOC 4
#define BOARD_TIMING_CACHE_LINE 32

struct board_config {
	int ncores;             /* 1..8 */
	enum isa_model model;
	uint64_t seed;          /* jitter PRNG seed */
	unsigned jitter;        /* max extra stall cycles of a jittered instruction; 0: off */
	unsigned branch_penalty; /* cycles added to a taken branch */
	unsigned miss_penalty;   /* cycles added per D-cache line miss */
	unsigned exc_penalty;    /* cycles of exception entry */
	uint64_t max_insns;     /* stop with an error after this many (0: no limit) */
	FILE *out;              /* UART and semihosting output (stdout) */
};

/* Defaults: 2 cores, Cortex-M3, seed 1, jitter 8, penalties 2/10/12, no limit. */
void board_config_init(struct board_config *cfg);

/* One data access, as a trace module sees it. */
struct board_access {
	uint32_t addr;
	uint32_t val;
	uint8_t size;
	uint8_t store;
	uint8_t kind;     /* enum isa_access */
	uint8_t cacheable; /* ROM or SRAM (not peripherals) */
};

struct board_observer {
	void *ctx;
	/* Every data access of core (before the step's on_step). */
	void (*on_access)(void *ctx, int core, const struct board_access *a);
	/* Every step of core, with the core's cycle count after it. */
	void (*on_step)(void *ctx, int core, const struct isa_step *st, uint64_t cycle);
	/*
	 * Optional. When set, the plain steps (isa_cpu_step_plain: an executed
	 * or skipped instruction with no data access, no control flow and no
	 * exception) are not given to on_step one by one but counted per core,
	 * and on_plain(ctx, core, n) reports the n counted since the last report
	 * (n >= 1): before any other callback of that core, at
	 * board_observe_flush, and when the observer is replaced or detached.
	 * Between two of a core's reports its plain steps' order against the
	 * other cores' steps is not told. on_plain only counts: it must not
	 * change the board (the step under way goes on with what it found).
	 */
	void (*on_plain)(void *ctx, int core, uint64_t n);
};

struct board;

/* Create a board and its cores; NULL with an error on a bad configuration. */
struct board *board_new(const struct board_config *cfg);
void board_free(struct board *b);

/* Load an ELF into memory and reset every core. 0 / -1 (error names the file). */
int board_load(struct board *b, const char *elf_path) MUST_CHECK;
const struct isa_elf *board_elf(const struct board *b);

/* Attach an observer (at most one; NULL detaches); the previous one's plain steps go first. */
void board_observe(struct board *b, const struct board_observer *obs);

/* Report every core's counted plain steps to the observer's on_plain (if any) now. */
void board_observe_flush(struct board *b);

/*
 * Trace-regs output: before each executed instruction, one line
 * "<core> <pc> <r0>..<r12> <sp> <lr> <xpsr>" (8 hex digits each).
 */
void board_trace_regs(struct board *b, FILE *f);

/*
 * Run until a core exits through semihosting (returns 0 and sets *status to
 * the exit status), or an error (returns -1: unimplemented instruction,
 * lockup, deadlock with every core asleep, instruction limit).
 */
int board_run(struct board *b, int *status) MUST_CHECK;

/* Execute one scheduler step. 1: the program exited (*status set), 0: go on, -1: error. */
int board_step(struct board *b, int *status) MUST_CHECK;

/*
 * Execute steps, as board_step one after the other, until the board has
 * executed `until` instructions in all (board_insns; at least one step is
 * done), the program exits (1, *status set) or an error (-1); 0 otherwise.
 * It does not look at board_interrupt: a caller that must stop promptly
 * keeps until - board_insns small.
 */
int board_steps(struct board *b, uint64_t until, int *status) MUST_CHECK;

/* Ask a running board_run to stop at the next step (signal-safe). */
void board_interrupt(struct board *b);

struct isa_cpu *board_cpu(struct board *b, int core);
struct isa_decoder *board_decoder(struct board *b);
int board_ncores(const struct board *b);
uint64_t board_cycles(const struct board *b, int core);
uint64_t board_insns(const struct board *b); /* instructions executed, all cores */

/*
 * What the board has at [addr, addr+size) for a load (store = 0) or store:
 * the board's whole address decode, so the replay faults exactly where the
 * board does. Memory ranges must hold the whole access; the core registers
 * and the UART take aligned words only (UART offsets 0x0-0x10), the core
 * registers are read-only; anything else is a bus fault.
 */
enum board_region {
	BOARD_R_FAULT = 0,
	BOARD_R_MEM,	/* ROM or SRAM: cacheable */
	BOARD_R_PPB,	/* 0xE0000000-0xE00FFFFF: the core's SCS model */
	BOARD_R_CPUID,
	BOARD_R_NCORES,
	BOARD_R_UART,
};
static inline enum board_region board_map(const struct board_mem *bm, uint32_t addr, unsigned size,
					  int store)
{
	int word = size == 4 && !(addr & 3);

	if ((addr - bm->rom_base < BOARD_ROM_SIZE &&
	     size <= BOARD_ROM_SIZE - (addr - bm->rom_base)) ||
	    (addr - bm->sram_base < BOARD_SRAM_SIZE &&
	     size <= BOARD_SRAM_SIZE - (addr - bm->sram_base)))
		return BOARD_R_MEM;
	if ((addr >> 20) == 0xe00)
		return BOARD_R_PPB;
	if (addr == BOARD_CPUID && word && !store)
		return BOARD_R_CPUID;
	if (addr == BOARD_NCORES && word && !store)
		return BOARD_R_NCORES;
	if (addr - BOARD_UART0 <= 0x10 && word)
		return BOARD_R_UART;
	return BOARD_R_FAULT;
}

/* Read guest memory (ROM/SRAM only) without side effects; 0 / -1. */
int board_peek(const struct board *b, uint32_t addr, void *buf, uint32_t len) MUST_CHECK;

#endif

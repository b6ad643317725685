#include "board/board.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "board/sched.h"
#include "isa/fast.h"
#include "isa/model.h"

#define SEMI_WRITEC 0x03
#define SEMI_WRITE0 0x04
#define SEMI_WRITE 0x05
#define SEMI_EXIT 0x18
#define SEMI_EXIT_EXTENDED 0x20
#define ADP_APPLICATION_EXIT 0x20026u
/* SYS_WRITEC/SYS_WRITE0 leave r0 "corrupted"; QEMU writes this value */
#define SEMI_CORRUPTED 0xdeadbeefu

struct board {
	struct board_config cfg;
	struct board_mem bm; /* where ROM and SRAM are, from the core model */
	uint8_t *rom, *sram;
	struct isa_decoder *dec;
	struct isa_bus bus;
	struct isa_cpu *cpu[BOARD_MAX_CORES];
	struct board_sched sched;
	uint64_t insns;
	struct isa_elf elf;
	int loaded;
	struct board_observer obs;
	int have_obs;
	uint64_t plain[BOARD_MAX_CORES]; /* plain steps not yet given to obs.on_plain */
	FILE *trace;
	char line[(18 + ISA_NFPREGS) * 9]; /* the trace line of the step under way */
	size_t line_len;
	uint32_t uart_ctrl;
	int exit_status;
	volatile sig_atomic_t interrupted;
	int misfit; /* board_load: a segment fell outside ROM and SRAM */
};

void board_config_init(struct board_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->ncores = 1; /* QEMU's mps2 boards have one core */
	cfg->model = ISA_CORTEX_M3;
	cfg->seed = 1;
	cfg->jitter = 8;
	cfg->branch_penalty = 2;
	cfg->miss_penalty = 10;
	cfg->exc_penalty = 12;
	cfg->out = stdout;
}

/* ---- memory ------------------------------------------------------------ */

/* Host pointer for [addr, addr+len) in ROM or SRAM, or NULL. */
static uint8_t *mem_ptr(const struct board *b, uint32_t addr, uint32_t len)
{
	uint32_t rom = b->bm.rom_base, sram = b->bm.sram_base;

	if (addr - rom < BOARD_ROM_SIZE && len <= BOARD_ROM_SIZE - (addr - rom))
		return b->rom + (addr - rom);
	if (addr - sram < BOARD_SRAM_SIZE && len <= BOARD_SRAM_SIZE - (addr - sram))
		return b->sram + (addr - sram);
	return NULL;
}

int board_peek(const struct board *b, uint32_t addr, void *buf, uint32_t len)
{
	uint8_t *p = mem_ptr(b, addr, len);

	if (!p)
		return -1;
	memcpy(buf, p, len);
	return 0;
}

/* size 1, 2 or 4 (each case folds into one load or store) */
static inline uint32_t get_le(const uint8_t *p, unsigned size)
{
	switch (size) {
	case 4: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		       (uint32_t)p[3] << 24;
	case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
	default: return p[0];
	}
}

static inline void put_le(uint8_t *p, unsigned size, uint32_t v)
{
	switch (size) {
	case 4: p[3] = (uint8_t)(v >> 24); p[2] = (uint8_t)(v >> 16); /* fall through */
	case 2: p[1] = (uint8_t)(v >> 8); /* fall through */
	default: p[0] = (uint8_t)v;
	}
}

static inline void observe(struct board *b, int core, uint32_t addr, unsigned size, uint32_t val,
			   int store, enum isa_access kind, int cacheable)
{
	struct board_access a = { addr, val, size, store, kind, cacheable };

	board_sched_access(&b->sched, core, addr, size, kind, cacheable);
	if (b->have_obs && b->obs.on_access)
		b->obs.on_access(b->obs.ctx, core, &a);
}

static int uart_read(struct board *b, uint32_t off, uint32_t *val)
{
	switch (off) {
	case 0x0: *val = 0; return 0;           /* DATA: nothing received */
	case 0x4: *val = 0; return 0;           /* STATE: never full */
	case 0x8: *val = b->uart_ctrl; return 0; /* CTRL */
	case 0xc: *val = 0; return 0;           /* INTSTATUS */
	case 0x10: *val = 0; return 0;          /* BAUDDIV */
	}
	return -1;
}

static int uart_write(struct board *b, uint32_t off, uint32_t val)
{
	switch (off) {
	case 0x0:
		if (b->uart_ctrl & 1) /* TX enabled */
			fputc(val & 0xff, b->cfg.out);
		return 0;
	case 0x4: case 0xc: case 0x10: return 0;
	case 0x8: b->uart_ctrl = val & 0x7f; return 0;
	}
	return -1;
}

static int bus_read(void *ctx, struct isa_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val,
		    enum isa_access kind)
{
	struct board *b = ctx;
	int core = isa_cpu_core(cpu);

	switch (board_map(&b->bm, addr, size, 0)) {
	case BOARD_R_MEM:
		*val = get_le(mem_ptr(b, addr, size), size);
		observe(b, core, addr, size, *val, 0, kind, 1);
		return ISA_BUS_OK;
	case BOARD_R_PPB:
		if (isa_cpu_scs_read(cpu, addr, size, val))
			return ISA_BUS_FAULT;
		break;
	case BOARD_R_CPUID:
		*val = core;
		break;
	case BOARD_R_NCORES:
		*val = b->cfg.ncores;
		break;
	case BOARD_R_UART:
		uart_read(b, addr - BOARD_UART0, val);
		break;
	case BOARD_R_FAULT:
		return ISA_BUS_FAULT;
	}
	observe(b, core, addr, size, *val, 0, kind, 0);
	return ISA_BUS_OK;
}

static int bus_write(void *ctx, struct isa_cpu *cpu, uint32_t addr, unsigned size, uint32_t val,
		     enum isa_access kind)
{
	struct board *b = ctx;
	int core = isa_cpu_core(cpu);

	switch (board_map(&b->bm, addr, size, 1)) {
	case BOARD_R_MEM:
		put_le(mem_ptr(b, addr, size), size, val);
		/* the global exclusive monitor: other cores' reservations on it close */
		for (int i = 0; i < b->cfg.ncores; i++)
			if (i != core)
				isa_cpu_snoop_store(b->cpu[i], addr, size);
		observe(b, core, addr, size, val, 1, kind, 1);
		return ISA_BUS_OK;
	case BOARD_R_PPB:
		break; /* the ISS already applied it to this core's SCS */
	case BOARD_R_UART:
		uart_write(b, addr - BOARD_UART0, val);
		break;
	default:
		return ISA_BUS_FAULT; /* includes the read-only core registers */
	}
	observe(b, core, addr, size, val, 1, kind, 0);
	return ISA_BUS_OK;
}

static int bus_fetch(void *ctx, uint32_t addr, uint16_t *hw)
{
	struct board *b = ctx;
	uint8_t *p = mem_ptr(b, addr, 2);

	if (!p)
		return ISA_BUS_FAULT;
	*hw = p[0] | p[1] << 8;
	return ISA_BUS_OK;
}

/* ---- semihosting --------------------------------------------------------- */

static int peek32(struct board *b, uint32_t addr, uint32_t *v)
{
	uint8_t *p = mem_ptr(b, addr, 4);

	if (!p)
		return -1;
	*v = get_le(p, 4);
	return 0;
}

static int semihost(struct board *b, struct isa_cpu *cpu)
{
	uint32_t op = isa_cpu_get(cpu, 0), arg = isa_cpu_get(cpu, 1), blk[3];
	uint32_t pc = isa_cpu_get(cpu, ISA_R_PC);
	int core = isa_cpu_core(cpu);
	uint8_t *p;

	switch (op) {
	case SEMI_WRITEC:
		if (!(p = mem_ptr(b, arg, 1)))
			return error("semihosting: core %d, pc 0x%08x: SYS_WRITEC pointer 0x%08x "
				     "outside memory", core, pc, arg);
		fputc(*p, b->cfg.out);
		isa_cpu_set(cpu, 0, SEMI_CORRUPTED);
		return ISA_BKPT_HANDLED;
	case SEMI_WRITE0:
		for (uint32_t a = arg;; a++) {
			if (!(p = mem_ptr(b, a, 1)))
				return error("semihosting: core %d, pc 0x%08x: SYS_WRITE0 string "
					     "at 0x%08x runs outside memory", core, pc, arg);
			if (!*p)
				break;
			fputc(*p, b->cfg.out);
		}
		isa_cpu_set(cpu, 0, SEMI_CORRUPTED);
		return ISA_BKPT_HANDLED;
	case SEMI_WRITE:
		if (peek32(b, arg, &blk[0]) || peek32(b, arg + 4, &blk[1]) ||
		    peek32(b, arg + 8, &blk[2]) || !(p = mem_ptr(b, blk[1], blk[2])))
			return error("semihosting: core %d, pc 0x%08x: SYS_WRITE block at "
				     "0x%08x is not in memory", core, pc, arg);
		if (blk[0] != 1 && blk[0] != 2)
			return error("semihosting: core %d, pc 0x%08x: SYS_WRITE to handle %u "
				     "(only 1 and 2, the console, exist)", core, pc, blk[0]);
		fwrite(p, 1, blk[2], b->cfg.out);
		isa_cpu_set(cpu, 0, 0); /* bytes not written */
		return ISA_BKPT_HANDLED;
	case SEMI_EXIT:
		b->exit_status = arg == ADP_APPLICATION_EXIT ? 0 : 1;
		return ISA_BKPT_STOP;
	case SEMI_EXIT_EXTENDED:
		if (peek32(b, arg, &blk[0]) || peek32(b, arg + 4, &blk[1]))
			return error("semihosting: core %d, pc 0x%08x: SYS_EXIT_EXTENDED block "
				     "at 0x%08x is not in memory", core, pc, arg);
		b->exit_status = blk[0] == ADP_APPLICATION_EXIT ? (int)blk[1] : 1;
		return ISA_BKPT_STOP;
	}
	return error("semihosting: core %d, pc 0x%08x: unsupported operation 0x%x (the board "
		     "has SYS_WRITEC, SYS_WRITE0, SYS_WRITE, SYS_EXIT, SYS_EXIT_EXTENDED)",
		     core, pc, op);
}

static int bus_bkpt(void *ctx, struct isa_cpu *cpu, unsigned imm)
{
	if (imm != 0xab)
		return ISA_BKPT_DEBUG;
	return semihost(ctx, cpu);
}

/* ---- lifecycle ----------------------------------------------------------- */

struct board *board_new(const struct board_config *cfg)
{
	struct board *b;
	struct board_sched_config sc;

	if (cfg->ncores < 1 || cfg->ncores > BOARD_MAX_CORES) {
		error("board: %d cores requested; the board has 1 to %d", cfg->ncores,
		      BOARD_MAX_CORES);
		return NULL;
	}
	b = xcalloc(1, sizeof(*b));
	b->cfg = *cfg;
	b->bm = board_mem_of(cfg->model);
	if (!b->cfg.out)
		b->cfg.out = stdout;
	b->rom = xcalloc(1, BOARD_ROM_SIZE);
	b->sram = xcalloc(1, BOARD_SRAM_SIZE);
	b->dec = isa_decoder_new(cfg->model);
	b->bus = (struct isa_bus){ b, bus_read, bus_write, bus_fetch, bus_bkpt };
	for (int i = 0; i < cfg->ncores; i++)
		b->cpu[i] = isa_cpu_new(i, cfg->model, b->dec, &b->bus);
	sc = (struct board_sched_config){ cfg->ncores, cfg->seed, cfg->jitter,
					  cfg->branch_penalty, cfg->miss_penalty,
					  cfg->exc_penalty };
	board_sched_init(&b->sched, &sc, b->cpu);
	return b;
}

void board_free(struct board *b)
{
	if (!b)
		return;
	board_sched_release(&b->sched);
	for (int i = 0; i < b->cfg.ncores; i++)
		isa_cpu_free(b->cpu[i]);
	isa_decoder_free(b->dec);
	if (b->loaded)
		isa_elf_release(&b->elf);
	free(b->rom);
	free(b->sram);
	free(b);
}

static int load_bytes(void *ctx, uint32_t addr, const uint8_t *data, size_t len)
{
	struct board *b = ctx;
	uint8_t *p = mem_ptr(b, addr, len);

	if (!p) {
		b->misfit = 1;
		return -1;
	}
	memcpy(p, data, len);
	return 0;
}

int board_load(struct board *b, const char *path)
{
	b->misfit = 0;
	if (isa_elf_load(path, load_bytes, b, &b->elf))
		return b->misfit ? error("%s: the board of a %s has 4 MiB of ROM at 0x%08x and "
					 "4 MiB of SRAM at 0x%08x", path,
					 isa_model_info(b->cfg.model)->title, b->bm.rom_base,
					 b->bm.sram_base)
				 : -1;
	b->loaded = 1;
	for (int i = 0; i < b->cfg.ncores; i++)
		if (isa_cpu_reset(b->cpu[i], b->bm.rom_base))
			return error("%s: cannot reset core %d", path, i);
	return 0;
}

const struct isa_elf *board_elf(const struct board *b)
{
	return &b->elf;
}

void board_observe_flush(struct board *b)
{
	if (!b->have_obs || !b->obs.on_plain)
		return;
	for (int i = 0; i < b->cfg.ncores; i++)
		if (b->plain[i]) {
			uint64_t n = b->plain[i];

			b->plain[i] = 0;
			b->obs.on_plain(b->obs.ctx, i, n);
		}
}

void board_observe(struct board *b, const struct board_observer *obs)
{
	board_observe_flush(b);
	b->have_obs = obs != NULL;
	if (obs)
		b->obs = *obs;
}

void board_trace_regs(struct board *b, FILE *f)
{
	b->trace = f;
}

struct isa_cpu *board_cpu(struct board *b, int core)
{
	return core >= 0 && core < b->cfg.ncores ? b->cpu[core] : NULL;
}

struct isa_decoder *board_decoder(struct board *b)
{
	return b->dec;
}

int board_ncores(const struct board *b)
{
	return b->cfg.ncores;
}

uint64_t board_cycles(const struct board *b, int core)
{
	return b->sched.cycles[core];
}

uint64_t board_insns(const struct board *b)
{
	return b->insns;
}

void board_interrupt(struct board *b)
{
	b->interrupted = 1;
}

/* ---- scheduler ------------------------------------------------------------ */

/* board_run's instructions between two looks at board_interrupt */
#define RUN_SLICE 4096

static char *hex8(char *p, uint32_t v)
{
	static const char d[] = "0123456789abcdef";

	for (int i = 7; i >= 0; i--)
		p[i] = d[v & 15], v >>= 4;
	p[8] = ' ';
	return p + 9;
}

static size_t format_regs(struct isa_cpu *cpu, char *buf)
{
	char *p = buf;

	p = hex8(p, isa_cpu_core(cpu));
	p = hex8(p, isa_cpu_get(cpu, ISA_R_PC));
	for (int r = 0; r < 15; r++)
		p = hex8(p, isa_cpu_get(cpu, r));
	p = hex8(p, isa_cpu_get(cpu, ISA_R_XPSR));
	/* a core with an FPU: then s0..s31 and FPSCR, as qemulog --fpu */
	{
		uint32_t fp[ISA_NFPREGS];
		unsigned n = isa_cpu_get_fp(cpu, fp);

		for (unsigned i = 0; i < n; i++)
			p = hex8(p, fp[i]);
	}
	p[-1] = '\n';
	return p - buf;
}

/* A core's counted plain steps to the observer, before its next callback. */
static inline void flush_plain(struct board *b, int i)
{
	if (b->plain[i]) {
		uint64_t n = b->plain[i];

		b->plain[i] = 0;
		b->obs.on_plain(b->obs.ctx, i, n);
	}
}

/* The trace-regs line of the step about to run, into b->line (out of line: rarely asked). */
static __attribute__((noinline)) void trace_line(struct board *b, struct isa_cpu *cpu)
{
	b->line_len = format_regs(cpu, b->line);
}

/*
 * board_step's body, inlined into board_step and board_steps. obs: 0 no
 * on_step, 1 on_step for every step, 2 on_plain counts the plain steps.
 */
static inline __attribute__((always_inline)) int step(struct board *b, int *status, int obs)
{
	struct isa_step st;
	struct isa_cpu *cpu;
	const struct isa_insn *in;
	int i = board_sched_pick(&b->sched), k;
	uint32_t pc;

	cpu = b->cpu[i];
	if (__builtin_expect(b->trace != NULL, 0))
		trace_line(b, cpu);
	k = isa_cpu_step_plain_or(cpu, &pc, obs == 1 ? &st : NULL, &in);
	if (k < 0)
		return -1;
	if (k) {
		/* a plain instruction (the block engine) */
		board_sched_retire_plain(&b->sched, i);
		b->insns++;
		if (__builtin_expect(b->trace != NULL, 0))
			fwrite(b->line, 1, b->line_len, b->trace);
		if (obs == 1)
			b->obs.on_step(b->obs.ctx, i, &st, b->sched.cycles[i]);
		else if (obs == 2)
			b->plain[i]++;
		goto counted;
	}
	if (obs == 2)
		flush_plain(b, i); /* (on_plain changes nothing here: in stays good) */
	/* an instruction fast_insn found is a core awake: no need to ask */
	if (!in && isa_cpu_sleeping(cpu))
		return board_sched_sleep(&b->sched, i, b->insns);
	board_sched_begin(&b->sched);
	if (in ? isa_cpu_step_decoded(cpu, in, &st) : isa_cpu_step(cpu, &st))
		return -1;
	if (st.ev == ISA_EV_INSN || st.ev == ISA_EV_STOP) {
		b->insns++;
		if (__builtin_expect(b->trace != NULL, 0))
			fwrite(b->line, 1, b->line_len, b->trace);
	}
	board_sched_retire(&b->sched, i, &st);
	if (obs)
		b->obs.on_step(b->obs.ctx, i, &st, b->sched.cycles[i]);
	if (st.ev == ISA_EV_STOP) {
		*status = b->exit_status;
		return 1;
	}
counted:
	if (b->cfg.max_insns && b->insns >= b->cfg.max_insns)
		return error("board: instruction limit of %llu reached (core %d at pc 0x%08x)",
			     (unsigned long long)b->cfg.max_insns, i,
			     isa_cpu_get(cpu, ISA_R_PC));
	return 0;
}

/* 0, 1 or 2 as step() takes it. */
static int obs_mode(const struct board *b)
{
	if (!b->have_obs || !b->obs.on_step)
		return 0;
	return b->obs.on_plain ? 2 : 1;
}

int board_step(struct board *b, int *status)
{
	switch (obs_mode(b)) {
	case 0: return step(b, status, 0);
	case 1: return step(b, status, 1);
	default: return step(b, status, 2);
	}
}

/* board_steps' loop for one observer mode. */
static inline __attribute__((always_inline)) int steps(struct board *b, uint64_t until,
						      int *status, int obs)
{
	int k;

	do
		k = step(b, status, obs);
	while (!k && b->insns < until);
	return k;
}

int board_steps(struct board *b, uint64_t until, int *status)
{
	switch (obs_mode(b)) {
	case 0: return steps(b, until, status, 0);
	case 1: return steps(b, until, status, 1);
	default: return steps(b, until, status, 2);
	}
}

int board_run(struct board *b, int *status)
{
	int r;

	if (!b->loaded)
		return error("board: no program loaded");
	/* in slices, so that board_interrupt is seen within a few milliseconds */
	while (!(r = board_steps(b, b->insns + RUN_SLICE, status)))
		if (b->interrupted)
			return error("board: interrupted after %llu instructions",
				     (unsigned long long)b->insns);
	return r < 0 ? -1 : 0;
}

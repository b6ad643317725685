#include "board/board.h"

#include <capstone/arm.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "caches/dc.h"

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
	uint8_t *rom, *sram;
	struct isa_decoder *dec;
	struct isa_bus bus;
	struct isa_cpu *cpu[BOARD_MAX_CORES];
	struct dc *cache[BOARD_MAX_CORES];
	uint64_t cycles[BOARD_MAX_CORES];
	uint64_t insns;
	uint64_t rng;
	struct isa_elf elf;
	int loaded;
	struct board_observer obs;
	int have_obs;
	FILE *trace;
	uint32_t uart_ctrl;
	/* per-step scratch */
	unsigned misses;
	int exit_status;
	volatile sig_atomic_t interrupted;
};

void board_config_init(struct board_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->ncores = 2;
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
	if (addr - BOARD_ROM_BASE < BOARD_ROM_SIZE && len <= BOARD_ROM_SIZE - (addr - BOARD_ROM_BASE))
		return b->rom + (addr - BOARD_ROM_BASE);
	if (addr - BOARD_SRAM_BASE < BOARD_SRAM_SIZE &&
	    len <= BOARD_SRAM_SIZE - (addr - BOARD_SRAM_BASE))
		return b->sram + (addr - BOARD_SRAM_BASE);
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

static uint32_t get_le(const uint8_t *p, unsigned size)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < size; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

static void put_le(uint8_t *p, unsigned size, uint32_t v)
{
	for (unsigned i = 0; i < size; i++)
		p[i] = v >> (8 * i);
}

static int is_data(enum isa_access kind)
{
	return kind != ISA_ACC_FETCH && kind != ISA_ACC_VECTOR;
}

static void observe(struct board *b, int core, uint32_t addr, unsigned size, uint32_t val,
		    int store, enum isa_access kind, int cacheable)
{
	struct board_access a = { addr, val, size, store, kind, cacheable };

	if (cacheable && is_data(kind))
		b->misses += dc_access(b->cache[core], addr, size);
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
	uint8_t *p = mem_ptr(b, addr, size);

	if (p) {
		*val = get_le(p, size);
		observe(b, core, addr, size, *val, 0, kind, 1);
		return ISA_BUS_OK;
	}
	if ((addr >> 20) == 0xe00) {
		if (isa_cpu_scs_read(cpu, addr, size, val))
			return ISA_BUS_FAULT;
	} else if ((addr & ~3u) == BOARD_CPUID && size == 4 && !(addr & 3)) {
		*val = core;
	} else if ((addr & ~3u) == BOARD_NCORES && size == 4 && !(addr & 3)) {
		*val = b->cfg.ncores;
	} else if (addr - BOARD_UART0 < 0x1000 && size == 4 && !(addr & 3)) {
		if (uart_read(b, addr - BOARD_UART0, val))
			return ISA_BUS_FAULT;
	} else {
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
	uint8_t *p = mem_ptr(b, addr, size);

	if (p) {
		put_le(p, size, val);
		/* the global exclusive monitor: other cores' reservations on it close */
		for (int i = 0; i < b->cfg.ncores; i++)
			if (i != core)
				isa_cpu_snoop_store(b->cpu[i], addr, size);
		observe(b, core, addr, size, val, 1, kind, 1);
		return ISA_BUS_OK;
	}
	if ((addr >> 20) == 0xe00) {
		/* the ISS already applied it to this core's SCS */
	} else if (addr - BOARD_UART0 < 0x1000 && size == 4 && !(addr & 3)) {
		if (uart_write(b, addr - BOARD_UART0, val))
			return ISA_BUS_FAULT;
	} else {
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
	struct dc_config dcc = { 32 * 1024, 4, 32 };

	if (cfg->ncores < 1 || cfg->ncores > BOARD_MAX_CORES) {
		error("board: %d cores requested; the board has 1 to %d", cfg->ncores,
		      BOARD_MAX_CORES);
		return NULL;
	}
	b = xcalloc(1, sizeof(*b));
	b->cfg = *cfg;
	if (!b->cfg.out)
		b->cfg.out = stdout;
	b->rom = xcalloc(1, BOARD_ROM_SIZE);
	b->sram = xcalloc(1, BOARD_SRAM_SIZE);
	b->dec = isa_decoder_new(cfg->model);
	b->bus = (struct isa_bus){ b, bus_read, bus_write, bus_fetch, bus_bkpt };
	for (int i = 0; i < cfg->ncores; i++) {
		b->cpu[i] = isa_cpu_new(i, cfg->model, b->dec, &b->bus);
		b->cache[i] = dc_new(&dcc);
	}
	b->rng = cfg->seed ^ 0x9e3779b97f4a7c15ull;
	return b;
}

void board_free(struct board *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->cfg.ncores; i++) {
		isa_cpu_free(b->cpu[i]);
		dc_free(b->cache[i]);
	}
	isa_decoder_free(b->dec);
	if (b->loaded)
		isa_elf_release(&b->elf);
	free(b->rom);
	free(b->sram);
	free(b);
}

static int load_bytes(void *ctx, uint32_t addr, const uint8_t *data, size_t len)
{
	uint8_t *p = mem_ptr(ctx, addr, len);

	if (!p)
		return -1;
	memcpy(p, data, len);
	return 0;
}

int board_load(struct board *b, const char *path)
{
	if (isa_elf_load(path, load_bytes, b, &b->elf))
		return -1;
	b->loaded = 1;
	for (int i = 0; i < b->cfg.ncores; i++)
		if (isa_cpu_reset(b->cpu[i], 0))
			return error("%s: cannot reset core %d", path, i);
	return 0;
}

const struct isa_elf *board_elf(const struct board *b)
{
	return &b->elf;
}

void board_observe(struct board *b, const struct board_observer *obs)
{
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
	return b->cycles[core];
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

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A stall of 1..jitter cycles on one instruction in 64 (bus contention, refresh). */
static unsigned jitter(struct board *b)
{
	uint64_t r;

	if (!b->cfg.jitter)
		return 0;
	r = splitmix(&b->rng);
	if (r & 63)
		return 0;
	return 1 + (unsigned)((r >> 6) % b->cfg.jitter);
}

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
	p[-1] = '\n';
	return p - buf;
}

/* A sleeping core skips ahead to when something could wake it. */
static int advance_sleeper(struct board *b, int i)
{
	uint64_t target = UINT64_MAX, t;

	for (int j = 0; j < b->cfg.ncores; j++) {
		if (j == i)
			t = isa_cpu_next_tick(b->cpu[j]);
		else if (!isa_cpu_sleeping(b->cpu[j]))
			t = 1;
		else
			t = isa_cpu_next_tick(b->cpu[j]);
		if (t != UINT64_MAX && b->cycles[j] + t < target)
			target = b->cycles[j] + t;
	}
	if (target == UINT64_MAX)
		return error("board: deadlock: every core is asleep (WFI/WFE) with no interrupt "
			     "or event to come; core %d sleeps at pc 0x%08x after %llu "
			     "instructions",
			     i, isa_cpu_get(b->cpu[i], ISA_R_PC), (unsigned long long)b->insns);
	t = target > b->cycles[i] ? target - b->cycles[i] : 1;
	b->cycles[i] += t;
	isa_cpu_tick(b->cpu[i], t);
	return 0;
}

int board_step(struct board *b, int *status)
{
	struct isa_step st;
	struct isa_cpu *cpu;
	char line[18 * 9];
	size_t len = 0;
	uint64_t cost;
	int i = 0;

	for (int j = 1; j < b->cfg.ncores; j++)
		if (b->cycles[j] < b->cycles[i])
			i = j;
	cpu = b->cpu[i];
	if (isa_cpu_sleeping(cpu))
		return advance_sleeper(b, i);
	if (b->trace)
		len = format_regs(cpu, line);
	b->misses = 0;
	if (isa_cpu_step(cpu, &st))
		return -1;
	switch (st.ev) {
	case ISA_EV_INSN:
	case ISA_EV_STOP:
		b->insns++;
		if (b->trace)
			fwrite(line, 1, len, b->trace);
		cost = 1 + (st.taken ? b->cfg.branch_penalty : 0) + jitter(b);
		if (st.insn_id == ARM_INS_SEV)
			for (int j = 0; j < b->cfg.ncores; j++)
				if (j != i)
					isa_cpu_signal_event(b->cpu[j]);
		break;
	case ISA_EV_EXCEPTION:
		cost = b->cfg.exc_penalty;
		break;
	default:
		cost = 1;
		break;
	}
	cost += (uint64_t)b->misses * b->cfg.miss_penalty;
	b->cycles[i] += cost;
	isa_cpu_tick(cpu, cost);
	if (b->have_obs && b->obs.on_step)
		b->obs.on_step(b->obs.ctx, i, &st, b->cycles[i]);
	if (st.ev == ISA_EV_STOP) {
		*status = b->exit_status;
		return 1;
	}
	if (b->cfg.max_insns && b->insns >= b->cfg.max_insns)
		return error("board: instruction limit of %llu reached (core %d at pc 0x%08x)",
			     (unsigned long long)b->cfg.max_insns, i,
			     isa_cpu_get(cpu, ISA_R_PC));
	return 0;
}

int board_run(struct board *b, int *status)
{
	int r;

	if (!b->loaded)
		return error("board: no program loaded");
	while (!(r = board_step(b, status)))
		if (b->interrupted)
			return error("board: interrupted after %llu instructions",
				     (unsigned long long)b->insns);
	return r < 0 ? -1 : 0;
}

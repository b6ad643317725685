#include "replay/replay.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board/board.h"
#include "board/sched.h"
#include "caches/fa.h"
#include "caches/mc2rt.h"
#include "isa/elf.h"
#include "predictors/bp.h"
#include "replay/cfwalk.h"
#include "replay/ckstore.h"
#include "replay/mem.h"
#include "replay/summary.h"
#include "replay/tindex.h"
#include "streams/cfmsg.h"
#include "streams/lvmsg.h"
#include "streams/truth.h"

#define MAX_CORES ST_CF_MAX_CORES
#define MAX_STEP_ACC 64 /* data accesses of one step: LDM of 16 + stacking + vector */

struct acc {
	uint8_t kind, size, store;
	uint32_t addr, value;
};

/*
 * The replay's scalar state: the stream decoders with the next heads, the
 * counters, the position. Plain data, so a checkpoint is a copy of it plus
 * the blobs of the cores, predictors, caches and the memory snapshot.
 */
struct dyn {
	struct st_cf_decoder cfd;
	struct st_lv_decoder lvd;
	struct st_cf_msg cf_head;
	uint64_t cf_head_at; /* bit offset of the head */
	int cf_have;
	struct st_lv_msg lv_head;
	uint64_t lv_head_at;
	int lv_have;

	/* per-core counters since the core's previous message */
	uint64_t bcnt[MAX_CORES], icnt[MAX_CORES], sl[MAX_CORES], hits[MAX_CORES];
	uint64_t insns[MAX_CORES], position;
	uint64_t steps; /* scheduler steps (instructions, exception entries, sleeps) */
	uint64_t csteps[MAX_CORES]; /* each core's instructions and exception entries */

	/* the end of the trace: each core's last instruction, from the end messages */
	int have_end;
	uint64_t budget[MAX_CORES];

	int exited, exit_status;
	int ended; /* nothing more to replay */
};

/* cf-only verification: one step of the truth, kept until the replay reaches it. */
struct tstep {
	uint64_t cycle;
	uint32_t pc;
	uint16_t exc;
	uint8_t type, flags;
};

/* The truth's steps of one core read ahead of the replay's order: v[head..n). */
struct tqueue {
	struct tstep *v;
	size_t head, n, a;
};

struct rpl {
	struct st_manifest mf;
	char *dir, *cf_path, *lv_path, *elf_path;
	struct isa_elf elf;
	int elf_loaded;
	struct rpl_mem *mem;
	struct isa_decoder *dec;
	struct isa_bus bus;
	struct isa_cpu *cpu[MAX_CORES];
	struct board_sched sched;
	int ncores;
	struct bp *bp[MAX_CORES];
	struct dc_fa *fa;
	struct dc_mc2rt *mc;

	/* streams, each with the next message's head already decoded */
	uint8_t *cf_buf, *lv_buf;
	struct dyn d; /* everything a checkpoint restores besides the blobs below */

	/* the step under way */
	int cur;
	int failed;
	uint64_t good_steps; /* if failed: the steps before the one that failed */
	struct acc acc[MAX_STEP_ACC];
	int nacc;
	uint64_t lv_due[MAX_STEP_ACC]; /* time stamps of the lv messages of this step */
	uint64_t lv_due_at[MAX_STEP_ACC];
	int nlv_due;

	int in_reset; /* reset reads the vector table untraced, as the board did */
	int simple;   /* RAPTOR_SIMPLE_ENGINE: the step loop as it was first written */
	/*
	 * Names the open summary for the cf-only walk's block marks (cfw_run's
	 * sum_gen): bumped whenever the store may change which summary is open
	 * (a checkpoint added, a trim, a restore), never reused.
	 */
	uint32_t sum_gen;
	struct isa_step last; /* what the latest step did */

	/*
	 * checkpoints, at every `interval`-th position (slot position / interval),
	 * as many as the memory budget keeps (replay/ckstore.h); each holds a
	 * state of state_size bytes: struct dyn, the cycles and the scheduler's
	 * generator, then the blob of the cores, predictors, caches and timing
	 * caches
	 */
	struct rpl_ckstore *ck;
	size_t state_size;
	uint64_t interval, next_ckpt;

	uint32_t breaks[RPL_MAX_POINTS];
	int nbreak;
	struct rpl_watchpoint watch[RPL_MAX_POINTS];
	int nwatch;
	volatile int interrupt;
	/*
	 * The store's summary i: what the stretch from checkpoint i to
	 * checkpoint i + 1 did, filled while the replay runs it the first time
	 * (steps >= frontier: always in the last stretch).
	 */
	uint64_t frontier;
	/*
	 * The slots where each code line and data block was used (full replays
	 * only; NULL for a control-flow-only one): filled with the summaries,
	 * it finds the stretches a search must run where thinning made the
	 * summaries coarse.
	 */
	struct rpl_tindex *tix;
	uint64_t break_step; /* the step where a breakpoint stop was last reported */

	struct st_truth_reader *truth;
	uint64_t verified;

	/* control-flow only (no lv stream): the walk replaces the ISS */
	struct cfw *cfw;
	struct tqueue tq[MAX_CORES];
	struct rpl_verify_stats vs;
	uint64_t cycle_error_sum;

	rpl_step_fn obs; /* rpl_observe */
	void *obs_ctx;
};

#define U(x) ((unsigned long long)(x))

static void take_checkpoint(struct rpl *r);
static size_t state_size(const struct rpl *r);

/* The summary the first run through fills: the last stretch's. */
static struct rpl_summary *open_sum(struct rpl *r)
{
	return rpl_ckstore_sum(r->ck, rpl_ckstore_count(r->ck) - 1);
}

/* The accesses watchpoints see: the instructions' own, not stacking or vectors. */
static int watchable(enum isa_access kind)
{
	return kind == ISA_ACC_LOAD || kind == ISA_ACC_STORE || kind == ISA_ACC_LDREX ||
	       kind == ISA_ACC_STREX;
}

/* "<file>: core C, instruction N, bit B: ..." and the replay stops. */
static int desync(struct rpl *r, const char *file, int core, uint64_t bit, const char *fmt, ...)
	PRINTF_LIKE(5, 6);

static int desync(struct rpl *r, const char *file, int core, uint64_t bit, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->failed = 1;
	return error("%s: core %d, instruction %llu (position %llu), bit %llu: %s", file, core,
		     U(r->d.insns[core]), U(r->d.position), U(bit), msg);
}

/* A message that does not decode: the codec's (quiet) error with where the replay was. */
static int undecodable(struct rpl *r, const char *file, int core, uint64_t bit)
{
	char why[512];

	snprintf(why, sizeof(why), "%s", error_last());
	return desync(r, file, core, bit, "the message cannot be decoded: %s", why);
}

/* ---- stream heads --------------------------------------------------------- */

static int lv_next(struct rpl *r)
{
	int s;

	r->d.lv_have = 0;
	if (!r->mf.lv_on)
		return 0;
	r->d.lv_head_at = st_lv_decoder_pos(&r->d.lvd);
	error_quiet(1); /* undecodable() reports the codec's error with the replay's place */
	s = st_lv_get_head(&r->d.lvd, &r->d.lv_head);
	error_quiet(-1);
	if (s < 0)
		return undecodable(r, r->lv_path, r->cur, r->d.lv_head_at);
	r->d.lv_have = s == 0;
	return 0;
}

/* Count kept by the recording's cf encoding (NX_b counts SL, TR_* iCnt). */
static uint64_t *cf_icount(struct rpl *r)
{
	return r->mf.cf.enc == ST_CF_NXB ? r->d.sl : r->d.icnt;
}

/* After an end message: the others follow, one per core in order, then nothing. */
static int read_ends(struct rpl *r)
{
	uint64_t *cnt = cf_icount(r);

	for (int c = 0; c < r->ncores; c++) {
		if (c) {
			r->d.cf_head_at = st_cf_decoder_pos(&r->d.cfd);
			if (st_cf_get_head(&r->d.cfd, &r->d.cf_head))
				return desync(r, r->cf_path, c, r->d.cf_head_at,
					      "the end message of core %d is missing", c);
		}
		if (r->d.cf_head.core != c || r->d.cf_head.count || r->d.cf_head.exc != ST_CF_END)
			return desync(r, r->cf_path, c, r->d.cf_head_at,
				      "expected the end message of core %d, the stream has a "
				      "message of core %d", c, r->d.cf_head.core);
		r->d.budget[c] = r->d.insns[c] - cnt[c] + r->d.cf_head.icnt;
		if (r->d.budget[c] < r->d.insns[c])
			return desync(r, r->cf_path, c, r->d.cf_head_at,
				      "the end message says %llu instructions after the last "
				      "message, the core has already run %llu",
				      U(r->d.cf_head.icnt), U(cnt[c]));
	}
	if (st_cf_get_head(&r->d.cfd, &r->d.cf_head) != 1)
		return desync(r, r->cf_path, r->ncores - 1, st_cf_decoder_pos(&r->d.cfd),
			      "bits are left after the end messages");
	r->d.have_end = 1;
	r->d.cf_have = 0;
	return 0;
}

static int cf_next(struct rpl *r)
{
	int s;

	r->d.cf_have = 0;
	if (!r->mf.cf_on)
		return 0;
	r->d.cf_head_at = st_cf_decoder_pos(&r->d.cfd);
	error_quiet(1);
	s = st_cf_get_head(&r->d.cfd, &r->d.cf_head);
	error_quiet(-1);
	if (s < 0)
		return undecodable(r, r->cf_path, r->cur, r->d.cf_head_at);
	if (s == 1)
		return desync(r, r->cf_path, 0, r->d.cf_head_at,
			      "the stream ends without end messages (truncated?)");
	if (!r->d.cf_head.count && r->d.cf_head.exc == ST_CF_END)
		return read_ends(r);
	r->d.cf_have = 1;
	return 0;
}

/* ---- memory and the bus ------------------------------------------------------ */

static void le_bytes(uint8_t *b, uint32_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		b[i] = v >> (8 * i);
}

static uint32_t le_value(const uint8_t *b, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint32_t)b[i] << (8 * i);
	return v;
}

/*
 * Take the next lv message for core, with count hits before it, and n value
 * bytes into val. 0 / -1 (desync reported).
 */
static int lv_take(struct rpl *r, int core, uint8_t *val, unsigned n, const char *what)
{
	uint64_t at = r->d.lv_head_at;
	int s;

	if (!r->mf.lv_on)
		return desync(r, r->dir, core, 0, "a %s needs a value but the recording has no "
			      "load-value stream", what);
	if (!r->d.lv_have)
		return desync(r, r->lv_path, core, at, "the stream ends, but a %s needs a value",
			      what);
	if (r->d.lv_head.core != core)
		return desync(r, r->lv_path, core, at, "a %s needs a value, the next message is "
			      "core %d's", what, r->d.lv_head.core);
	if (r->mf.lv.enc != ST_LV_NXLV && r->d.lv_head.count != r->d.hits[core])
		return desync(r, r->lv_path, core, at, "the message counts %llu hits before this "
			      "%s, the replay's cache copy %llu", U(r->d.lv_head.count), what,
			      U(r->d.hits[core]));
	error_quiet(1);
	s = st_lv_get_value(&r->d.lvd, val, n);
	error_quiet(-1);
	if (s)
		return undecodable(r, r->lv_path, core, at);
	if (r->nlv_due < MAX_STEP_ACC) {
		r->lv_due[r->nlv_due] = r->d.lv_head.cycle;
		r->lv_due_at[r->nlv_due++] = at;
	}
	r->d.hits[core] = 0;
	return lv_next(r);
}

/* Merge traced bytes into memory: known bytes must agree. */
static int merge(struct rpl *r, int core, uint32_t addr, const uint8_t *val, unsigned n)
{
	uint8_t have[ST_LV_MAX_VALUE];
	uint32_t first;

	if (rpl_mem_read(r->mem, addr, have, n, &first) == 0) {
		if (memcmp(have, val, n))
			goto differ;
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		uint8_t b;

		if (!rpl_mem_read(r->mem, addr + i, &b, 1, NULL) && b != val[i])
			goto differ;
	}
	rpl_mem_write(r->mem, addr, val, n);
	return 0;
differ:
	return desync(r, r->lv_path, core, r->d.lv_head_at,
		      "the traced bytes at 0x%08x differ from what the replay knows there", addr);
}

/* A cacheable load: the software copy of the cache says known or traced. */
static int load_mem(struct rpl *r, int core, uint32_t addr, unsigned size, uint32_t *val)
{
	uint8_t v[ST_LV_MAX_VALUE], b[4];
	uint32_t ga, line = r->mf.cache.line, first;
	unsigned glen;

	switch (r->mf.lv_on ? (int)r->mf.lv.enc : -1) {
	case ST_LV_CFIAT: /* CFAT Fig. 4, replay side */
		if (dc_fa_load(r->fa, core, addr, size, &ga, &glen) == DC_FA_HIT) {
			r->d.hits[core]++;
			break;
		}
		if (lv_take(r, core, v, glen, "load") || merge(r, core, ga, v, glen))
			return -1;
		break;
	case ST_LV_MC2RT: /* mc2RT Fig. 7 */
		for (uint64_t l = addr & ~(line - 1); l <= ((uint64_t)addr + size - 1); l += line) {
			if (dc_mc2rt_read(r->mc, core, (uint32_t)l, &ga) == DC_MC2RT_HIT) {
				r->d.hits[core]++;
				continue;
			}
			if (lv_take(r, core, v, line, "load") || merge(r, core, ga, v, line))
				return -1;
		}
		break;
	case ST_LV_NXLV:
		if (lv_take(r, core, v, size, "load") || merge(r, core, addr, v, size))
			return -1;
		break;
	default:
		break;
	}
	if (rpl_mem_read(r->mem, addr, b, size, &first))
		return desync(r, r->lv_path ? r->lv_path : r->dir, core, r->d.lv_head_at,
			      "a %u-byte load at 0x%08x reads 0x%08x, which the debugger does "
			      "not know although the cache copy says it should", size, addr, first);
	*val = le_value(b, size);
	return 0;
}

static void note_access(struct rpl *r, uint32_t addr, unsigned size, uint32_t val, int store,
			enum isa_access kind)
{
	if (size < 4)
		val &= (1u << (8 * size)) - 1; /* as the truth keeps it */
	if (r->nacc < MAX_STEP_ACC)
		r->acc[r->nacc++] = (struct acc){ kind, size, store, addr, val };
}

static int bus_read(void *ctx, struct isa_cpu *cpu, uint32_t addr, unsigned size, uint32_t *val,
		    enum isa_access kind)
{
	struct rpl *r = ctx;
	int core = isa_cpu_core(cpu);
	enum board_region reg = board_map(addr, size, 0);
	uint8_t v[4];
	uint32_t want;

	*val = 0;
	if (r->failed)
		return ISA_BUS_OK;
	switch (reg) {
	case BOARD_R_FAULT:
		return ISA_BUS_FAULT;
	case BOARD_R_MEM:
		if (r->in_reset) {
			if (rpl_mem_read(r->mem, addr, v, size, NULL))
				return ISA_BUS_FAULT;
			*val = le_value(v, size);
			return ISA_BUS_OK;
		}
		board_sched_access(&r->sched, core, addr, size, kind, 1);
		if (load_mem(r, core, addr, size, val))
			return ISA_BUS_OK;
		break;
	default:
		/* uncached: traced on every load, in every encoding */
		if (reg == BOARD_R_PPB && isa_cpu_scs_read(cpu, addr, size, &want))
			return ISA_BUS_FAULT;
		if (lv_take(r, core, v, size, "peripheral load"))
			return ISA_BUS_OK;
		*val = le_value(v, size);
		if (reg == BOARD_R_PPB && *val != want)
			desync(r, r->lv_path, core, r->d.lv_head_at, "the System Control Space "
			       "register at 0x%08x reads 0x%08x in the replay, the stream says "
			       "0x%08x", addr, want, *val);
		if (reg == BOARD_R_CPUID && *val != (uint32_t)core)
			desync(r, r->lv_path, core, r->d.lv_head_at, "the core-index register "
			       "reads %u in the stream", *val);
		break;
	}
	note_access(r, addr, size, *val, 0, kind);
	return ISA_BUS_OK;
}

static int bus_write(void *ctx, struct isa_cpu *cpu, uint32_t addr, unsigned size, uint32_t val,
		     enum isa_access kind)
{
	struct rpl *r = ctx;
	int core = isa_cpu_core(cpu);
	uint32_t line = r->mf.cache.line;
	uint8_t b[4];

	switch (board_map(addr, size, 1)) {
	case BOARD_R_MEM:
		le_bytes(b, val, size);
		rpl_mem_write(r->mem, addr, b, size);
		for (int i = 0; i < r->ncores; i++)
			if (i != core)
				isa_cpu_snoop_store(r->cpu[i], addr, size);
		board_sched_access(&r->sched, core, addr, size, kind, 1);
		if (r->fa)
			dc_fa_store(r->fa, core, addr, size);
		if (r->mc) {
			dc_mc2rt_write(r->mc, core, addr & ~(line - 1));
			if (((addr + size - 1) & ~(line - 1)) != (addr & ~(line - 1)))
				dc_mc2rt_write(r->mc, core, (addr + size - 1) & ~(line - 1));
		}
		break;
	case BOARD_R_PPB:
	case BOARD_R_UART:
		break;
	default:
		return ISA_BUS_FAULT;
	}
	note_access(r, addr, size, val, 1, kind);
	return ISA_BUS_OK;
}

static int bus_fetch(void *ctx, uint32_t addr, uint16_t *hw)
{
	struct rpl *r = ctx;
	uint8_t b[2];

	if (!rpl_mem_valid(addr, 2) || rpl_mem_read(r->mem, addr, b, 2, NULL))
		return ISA_BUS_FAULT;
	*hw = b[0] | b[1] << 8;
	return ISA_BUS_OK;
}

/* Semihosting as the board answers it (board/board.c), without the output. */
static int bus_bkpt(void *ctx, struct isa_cpu *cpu, unsigned imm)
{
	struct rpl *r = ctx;
	uint32_t op = isa_cpu_get(cpu, 0), arg = isa_cpu_get(cpu, 1);
	uint8_t blk[8];

	if (imm != 0xab)
		return ISA_BKPT_DEBUG;
	switch (op) {
	case 0x03: /* SYS_WRITEC */
	case 0x04: /* SYS_WRITE0 */
		isa_cpu_set(cpu, 0, 0xdeadbeefu);
		return ISA_BKPT_HANDLED;
	case 0x05: /* SYS_WRITE: all written */
		isa_cpu_set(cpu, 0, 0);
		return ISA_BKPT_HANDLED;
	case 0x18: /* SYS_EXIT */
		r->d.exit_status = arg == 0x20026u ? 0 : 1;
		return ISA_BKPT_STOP;
	case 0x20: /* SYS_EXIT_EXTENDED */
		r->d.exit_status = 1;
		if (rpl_mem_valid(arg, 8) && !rpl_mem_read(r->mem, arg, blk, 8, NULL) &&
		    le_value(blk, 4) == 0x20026u)
			r->d.exit_status = (int)le_value(blk + 4, 4);
		return ISA_BKPT_STOP;
	}
	return error("replay: core %d, pc 0x%08x: semihosting operation 0x%x, which the "
		     "board does not have", isa_cpu_core(cpu), isa_cpu_get(cpu, ISA_R_PC), op);
}

/* ---- opening -------------------------------------------------------------- */

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Read a whole stream file of `bits` bits. */
static uint8_t *read_stream(const char *path, uint64_t bits)
{
	uint64_t want = (bits + 7) / 8;
	FILE *f = fopen(path, "rb");
	struct stat sb;
	uint8_t *buf;
	long size;

	if (!f) {
		error("%s: cannot open: %m", path);
		return NULL;
	}
	if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		errno = EISDIR;
		error("%s: cannot read: %m", path);
		fclose(f);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		error("%s: cannot read: %m", path);
		fclose(f);
		return NULL;
	}
	if ((uint64_t)size != want) {
		error("%s: %ld bytes, but the manifest says the stream has %llu bits (%llu "
		      "bytes)%s", path, size, U(bits), U(want),
		      (uint64_t)size < want ? ": the file is truncated" : "");
		fclose(f);
		return NULL;
	}
	buf = xmalloc(want ? want : 1);
	if (fread(buf, 1, want, f) != want) {
		error("%s: read error: %m", path);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static int load_bytes(void *ctx, uint32_t addr, const uint8_t *data, size_t len)
{
	if (!rpl_mem_valid(addr, (uint32_t)len))
		return -1;
	rpl_mem_write(ctx, addr, data, (uint32_t)len);
	return 0;
}

static const char *const reg_names[ISA_NREGS] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12",
	"sp", "lr", "pc", "xpsr", "msp", "psp", "primask", "basepri", "faultmask", "control",
};

struct rpl *rpl_open(const char *dir)
{
	struct rpl *r = xcalloc(1, sizeof(*r));
	struct board_sched_config sc;
	char *mpath = join(dir, "manifest.ini");
	struct dc_mc2rt_config mcc;
	int s;

	r->dir = xstrdup(dir);
	if (st_manifest_read(mpath, &r->mf))
		goto fail;
	r->ncores = r->mf.ncores;
	r->elf_path = join(dir, r->mf.elf);
	if (isa_elf_load(r->elf_path, NULL, NULL, &r->elf))
		goto fail;
	r->elf_loaded = 1;
	if (strcmp(r->elf.sha256_hex, r->mf.sha256)) {
		error("%s: SHA-256 %s, but %s says the recorded program's is %s: not the "
		      "program that was recorded", r->elf_path, r->elf.sha256_hex, mpath,
		      r->mf.sha256);
		goto fail;
	}
	r->mem = rpl_mem_new();
	isa_elf_release(&r->elf);
	r->elf_loaded = 0;
	if (isa_elf_load(r->elf_path, load_bytes, r->mem, &r->elf))
		goto fail;
	r->elf_loaded = 1;

	r->dec = isa_decoder_new(r->mf.model);
	r->simple = isa_simple_engine();
	r->sum_gen = 1;
	r->bus = (struct isa_bus){ r, bus_read, bus_write, bus_fetch, bus_bkpt };
	for (int i = 0; i < r->ncores; i++) {
		r->cpu[i] = isa_cpu_new(i, r->mf.model, r->dec, &r->bus);
		r->in_reset = 1;
		s = isa_cpu_reset(r->cpu[i], 0);
		r->in_reset = 0;
		if (s) {
			error("%s: cannot reset core %d", r->elf_path, i);
			goto fail;
		}
		for (int k = 0; k < ISA_NREGS; k++)
			if (isa_cpu_get(r->cpu[i], k) != r->mf.regs[i][k]) {
				error("%s: [core%d] %s = 0x%08x, but the program resets it to "
				      "0x%08x", mpath, i, reg_names[k], r->mf.regs[i][k],
				      isa_cpu_get(r->cpu[i], k));
				goto fail;
			}
	}
	sc = (struct board_sched_config){ r->ncores, r->mf.seed, r->mf.jitter,
					  r->mf.branch_penalty, r->mf.miss_penalty,
					  r->mf.exc_penalty };
	board_sched_init(&r->sched, &sc, r->cpu);

	if (!r->mf.cf_on) {
		error("%s: the recording has no control-flow stream (cf none, lv %s): nothing "
		      "tells the replay where the cores went", dir, r->mf.lv_on ? "on" : "none");
		goto fail;
	}
	if (r->mf.lv_on) {
		for (int i = 0; i < r->ncores; i++)
			r->bp[i] = r->mf.bp_shared && i ? r->bp[0] : bp_new(&r->mf.bp);
	}
	r->cf_path = join(dir, r->mf.cf_file);
	if (!(r->cf_buf = read_stream(r->cf_path, r->mf.cf_bits)))
		goto fail;
	if (r->mf.lv_on) {
		st_cf_decoder_init(&r->d.cfd, &r->mf.cf, r->cf_buf, r->mf.cf_bits, r->cf_path);
	} else {
		/* control flow only: walk the code, no ISS (see replay.h) */
		struct cfw_config cc = { &r->mf, r->cf_buf, r->cf_path, r->dec, &r->bus };

		if (!(r->cfw = cfw_new(&cc)))
			goto fail;
	}
	if (r->mf.lv_on) {
		r->lv_path = join(dir, r->mf.lv_file);
		if (!(r->lv_buf = read_stream(r->lv_path, r->mf.lv_bits)))
			goto fail;
		st_lv_decoder_init(&r->d.lvd, &r->mf.lv, r->lv_buf, r->mf.lv_bits, r->lv_path);
		if (r->mf.lv.enc == ST_LV_CFIAT) {
			r->fa = dc_fa_new(&r->mf.cache);
		} else if (r->mf.lv.enc == ST_LV_MC2RT) {
			mcc = (struct dc_mc2rt_config){ r->mf.cache.size, r->mf.cache.assoc,
							r->mf.cache.line, r->ncores,
							r->mf.cache.shared };
			r->mc = dc_mc2rt_new(&mcc);
		}
	}
	if (!r->cfw && (cf_next(r) || lv_next(r)))
		goto fail;
	r->break_step = UINT64_MAX;
	r->state_size = state_size(r);
	r->ck = rpl_ckstore_new(r->state_size, r->mem, RPL_DEFAULT_MEMORY);
	if (!r->cfw)
		r->tix = rpl_tix_new(RPL_DEFAULT_INTERVAL);
	rpl_set_interval(r, RPL_DEFAULT_INTERVAL);
	take_checkpoint(r); /* the beginning */
	free(mpath);
	return r;
fail:
	free(mpath);
	rpl_close(r);
	return NULL;
}

void rpl_close(struct rpl *r)
{
	if (!r)
		return;
	if (r->truth)
		st_truth_close_reader(r->truth);
	rpl_ckstore_free(r->ck);
	rpl_tix_free(r->tix);
	cfw_free(r->cfw);
	for (int i = 0; i < r->ncores; i++) {
		if (r->bp[i] && !(r->mf.bp_shared && i))
			bp_free(r->bp[i]);
		isa_cpu_free(r->cpu[i]);
		free(r->tq[i].v);
	}
	board_sched_release(&r->sched);
	dc_fa_free(r->fa);
	dc_mc2rt_free(r->mc);
	if (r->dec)
		isa_decoder_free(r->dec);
	rpl_mem_free(r->mem);
	if (r->elf_loaded)
		isa_elf_release(&r->elf);
	free(r->cf_buf);
	free(r->lv_buf);
	free(r->dir);
	free(r->cf_path);
	free(r->lv_path);
	free(r->elf_path);
	free(r);
}

const struct st_manifest *rpl_manifest(const struct rpl *r)
{
	return &r->mf;
}

const char *rpl_dir(const struct rpl *r)
{
	return r->dir;
}

/* ---- control flow: the mcfTRaptor checks of one step ------------------------------ */

static int cf_expect_head(struct rpl *r, int core, const char *what)
{
	if (!r->d.cf_have)
		return desync(r, r->cf_path, core, r->d.cf_head_at, "%s, but the stream has no "
			      "message left", what);
	if (r->d.cf_head.core != core)
		return desync(r, r->cf_path, core, r->d.cf_head_at, "%s, but the next message is "
			      "core %d's", what, r->d.cf_head.core);
	return 0;
}

static int cf_check_time(struct rpl *r, int core, uint64_t cycle)
{
	if (r->mf.cf.timed && r->d.cf_head.cycle != cycle)
		return desync(r, r->cf_path, core, r->d.cf_head_at, "the message is stamped cycle "
			      "%llu, the replay is at cycle %llu", U(r->d.cf_head.cycle), U(cycle));
	return 0;
}

static int cf_exception(struct rpl *r, int core, unsigned exc, int tail, uint64_t cycle)
{
	char what[96];
	uint64_t *cnt = cf_icount(r);

	snprintf(what, sizeof(what), "core %d takes exception %u%s", core, exc,
		 tail ? " (tail-chained)" : "");
	if (cf_expect_head(r, core, what))
		return -1;
	if (r->d.cf_head.count)
		return desync(r, r->cf_path, core, r->d.cf_head_at, "%s, the stream has a branch "
			      "message (count %llu)", what, U(r->d.cf_head.count));
	if (r->d.cf_head.exc != exc || r->d.cf_head.tail != tail || r->d.cf_head.icnt != cnt[core])
		return desync(r, r->cf_path, core, r->d.cf_head_at, "%s after %llu instructions, "
			      "the stream says exception %u%s after %llu", what, U(cnt[core]),
			      r->d.cf_head.exc, r->d.cf_head.tail ? " (tail-chained)" : "",
			      U(r->d.cf_head.icnt));
	if (cf_check_time(r, core, cycle))
		return -1;
	r->d.bcnt[core] = r->d.icnt[core] = r->d.sl[core] = 0;
	return cf_next(r);
}

/* A message for a branch at count `count` of core: check it and its target part. */
static int cf_branch_msg(struct rpl *r, int core, uint64_t count, int indirect, int cond,
			 int taken, uint32_t ta, uint64_t cycle)
{
	int k;

	if (cf_expect_head(r, core, "the replay's predictor mispredicts"))
		return -1;
	if (r->d.cf_head.count != count)
		return desync(r, r->cf_path, core, r->d.cf_head_at, "the replay mispredicts at "
			      "count %llu, the stream's message is for count %llu", U(count),
			      U(r->d.cf_head.count));
	if (cf_check_time(r, core, cycle))
		return -1;
	if (indirect) {
		error_quiet(1);
		k = st_cf_get_target(&r->d.cfd, &r->d.cf_head, cond);
		error_quiet(-1);
		if (k)
			return undecodable(r, r->cf_path, core, r->d.cf_head_at);
		if (r->d.cf_head.taken != taken || (taken && r->d.cf_head.ta != ta))
			return desync(r, r->cf_path, core, r->d.cf_head_at, "the branch went %s "
				      "0x%08x, the stream says %s 0x%08x", taken ? "to" : "not taken,",
				      ta, r->d.cf_head.taken ? "to" : "not taken,", r->d.cf_head.ta);
	}
	/* the counters restart before the next head (an end message counts on them) */
	if (r->mf.cf.enc == ST_CF_NXB)
		r->d.sl[core] = 0;
	else
		r->d.bcnt[core] = r->d.icnt[core] = 0;
	return cf_next(r);
}

/* A counted branch predicted right: the stream must not have a message here. */
static int cf_no_msg(struct rpl *r, int core, uint64_t count)
{
	if (r->d.cf_have && r->d.cf_head.core == core && r->d.cf_head.count == count)
		return desync(r, r->cf_path, core, r->d.cf_head_at, "the stream has a message at "
			      "count %llu, where the replay's predictor predicts right", U(count));
	return 0;
}

static int cf_step(struct rpl *r, int core, const struct isa_step *st, uint64_t cycle)
{
	struct bp_branch br;
	struct bp_prediction pred;
	enum bp_miss miss;
	int taken, nx = r->mf.cf.enc == ST_CF_NXB;

	if (st->ev == ISA_EV_EXCEPTION) {
		if (cf_exception(r, core, st->exc, 0, cycle))
			return -1;
		bp_exception(r->bp[core], st->pc);
		return 0;
	}
	if (st->faulted)
		return 0;
	r->d.icnt[core]++;
	r->d.sl[core]++;
	if (st->exc_return && st->exc)
		return cf_exception(r, core, st->exc, 1, cycle);
	if (st->cf == ISA_CF_NONE)
		return 0;
	br = (struct bp_branch){ st->pc, st->pc + st->size, st->cf,
				 st->in_it || st->cf == ISA_CF_COND_DIRECT };
	if (st->cf == ISA_CF_COND_DIRECT)
		taken = st->taken;
	else
		taken = br.conditional ? st->executed : 1;
	miss = bp_step(r->bp[core], &br, taken, st->next_pc, &pred);
	if (nx) {
		if (!taken || !(pred.indirect || st->cf == ISA_CF_COND_DIRECT))
			return 0;
		return cf_branch_msg(r, core, r->d.sl[core], pred.indirect, 0, 1, st->next_pc, cycle);
	}
	if (pred.counts)
		r->d.bcnt[core]++;
	if (miss == BP_MISS_NONE)
		return pred.counts ? cf_no_msg(r, core, r->d.bcnt[core]) : 0;
	return cf_branch_msg(r, core, r->d.bcnt[core], pred.indirect, pred.conditional, taken,
			     st->next_pc, cycle);
}

/* ---- verification against the ground truth ------------------------------------------ */

int rpl_verify(struct rpl *r)
{
	struct st_truth_rec rec;
	char *path;

	if (!r->mf.has_truth) {
		path = join(r->dir, "manifest.ini");
		error("%s: no [truth] section: the recording has no ground truth (record it "
		      "with --truth)", path);
		free(path);
		return -1;
	}
	path = join(r->dir, r->mf.truth_file);
	r->truth = st_truth_open(path);
	free(path);
	if (!r->truth)
		return -1;
	if (st_truth_ncores(r->truth) != r->ncores)
		return error("%s: the ground truth is for %d cores, the recording has %d", r->dir,
			     st_truth_ncores(r->truth), r->ncores);
	for (int i = 0; i < r->ncores; i++) {
		if (st_truth_next(r->truth, &rec) != 1 || rec.type != ST_TRUTH_RESET ||
		    rec.core != i)
			return error("%s: the ground truth does not start with core %d's reset",
				     r->dir, i);
		for (int k = 0; k < ISA_NREGS; k++)
			if (rec.regs[k] != isa_cpu_get(r->cpu[i], k))
				return error("verify: core %d at reset: %s is 0x%08x, the truth "
					     "says 0x%08x", i, reg_names[k],
					     isa_cpu_get(r->cpu[i], k), rec.regs[k]);
	}
	return 0;
}

static int differ(struct rpl *r, int core, const char *fmt, ...) PRINTF_LIKE(3, 4);

static int differ(struct rpl *r, int core, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->failed = 1;
	return error("verify: core %d, instruction %llu (position %llu, %llu verified): %s", core,
		     U(r->d.insns[core]), U(r->d.position), U(r->verified), msg);
}

static int verify_step(struct rpl *r, int core, const struct isa_step *st, uint64_t cycle)
{
	struct st_truth_rec t;
	unsigned flags;
	int n = 0, s;

	for (;;) {
		s = st_truth_next(r->truth, &t);
		if (s < 0)
			return r->failed = 1, -1;
		if (s == 0)
			return differ(r, core, "the ground truth ends before this step");
		if (t.type != ST_TRUTH_ACCESS)
			break;
		if (n >= r->nacc)
			return differ(r, core, "the truth has a %s of 0x%08x at 0x%08x that the "
				      "replay did not make", t.store ? "store" : "load", t.value,
				      t.addr);
		if (t.core != core || t.kind != r->acc[n].kind || t.size != r->acc[n].size ||
		    t.store != r->acc[n].store || t.addr != r->acc[n].addr ||
		    t.value != r->acc[n].value)
			return differ(r, core, "access %d: the replay %s %u bytes 0x%08x at 0x%08x "
				      "(kind %u), the truth: core %d %s %u bytes 0x%08x at 0x%08x "
				      "(kind %u)", n, r->acc[n].store ? "stores" : "loads",
				      r->acc[n].size, r->acc[n].value, r->acc[n].addr,
				      r->acc[n].kind, t.core, t.store ? "stores" : "loads", t.size,
				      t.value, t.addr, t.kind);
		n++;
	}
	if (n != r->nacc)
		return differ(r, core, "the replay made %d accesses, the truth %d", r->nacc, n);
	if (t.core != core)
		return differ(r, core, "the truth's next step is core %d's: the interleaving "
			      "differs", t.core);
	if (st->ev == ISA_EV_EXCEPTION) {
		if (t.type != ST_TRUTH_EXC || t.exc != st->exc)
			return differ(r, core, "the replay takes exception %u, the truth does not",
				      st->exc);
	} else {
		flags = (st->faulted ? ST_TRUTH_FAULTED : 0) |
			(st->exc_return ? ST_TRUTH_EXC_RETURN : 0) |
			(st->exc_return && st->exc ? ST_TRUTH_TAIL : 0);
		if (t.type != ST_TRUTH_INSN || t.pc != st->pc || t.flags != flags)
			return differ(r, core, "the replay executes pc 0x%08x (flags %u), the truth "
				      "%s 0x%08x (flags %u)", st->pc, flags,
				      t.type == ST_TRUTH_INSN ? "pc" : "an exception, pc", t.pc,
				      t.flags);
	}
	if (t.cycle != cycle)
		return differ(r, core, "cycle %llu, the truth %llu", U(cycle), U(t.cycle));
	for (int k = 0; k < ISA_NREGS; k++)
		if (t.regs[k] != isa_cpu_get(r->cpu[core], k))
			return differ(r, core, "after pc 0x%08x %s = 0x%08x, the truth 0x%08x",
				      st->pc, reg_names[k], isa_cpu_get(r->cpu[core], k),
				      t.regs[k]);
	if (st->ev != ISA_EV_EXCEPTION)
		r->verified++;
	return 0;
}

static int verify_exit(struct rpl *r)
{
	struct st_truth_rec t;

	if (st_truth_next(r->truth, &t) != 1 || t.type != ST_TRUTH_EXIT ||
	    t.status != (uint32_t)r->d.exit_status)
		return differ(r, r->cur, "the truth does not end with the exit (status %d)",
			      r->d.exit_status);
	return 0;
}

/* ---- verification of a control-flow-only replay ------------------------------------- */

static void tq_push(struct tqueue *q, const struct tstep *t)
{
	if (q->n == q->a) {
		if (q->head > q->n / 2) {
			/* mostly consumed: slide down rather than grow */
			memmove(q->v, q->v + q->head, (q->n - q->head) * sizeof(*q->v));
			q->n -= q->head;
			q->head = 0;
		} else {
			q->a = q->a ? 2 * q->a : 1024;
			q->v = xrealloc(q->v, q->a * sizeof(*q->v));
		}
	}
	q->v[q->n++] = *t;
}

/*
 * The truth's next step of core (its instructions that retired and its
 * exception entries; faulted attempts are no steps of the walk): 1, 0 when
 * the truth has none left, -1 on a read error. The other cores' steps read
 * on the way are kept for them. *exit gets 1 if the truth's exit was read.
 */
static int truth_core_next(struct rpl *r, int core, struct tstep *t, int *exit)
{
	struct tqueue *q = &r->tq[core];
	struct st_truth_rec rec;
	struct tstep ts;
	int s;

	if (q->head < q->n) {
		*t = q->v[q->head++];
		if (q->head == q->n)
			q->head = q->n = 0;
		return 1;
	}
	for (;;) {
		s = st_truth_next(r->truth, &rec);
		if (s <= 0)
			return s;
		if (rec.type == ST_TRUTH_EXIT && exit)
			*exit = 1;
		if ((rec.type != ST_TRUTH_INSN && rec.type != ST_TRUTH_EXC) ||
		    (rec.type == ST_TRUTH_INSN && (rec.flags & ST_TRUTH_FAULTED)))
			continue;
		ts = (struct tstep){ rec.cycle, rec.pc, rec.exc, rec.type, rec.flags };
		if (rec.core == core) {
			*t = ts;
			return 1;
		}
		tq_push(&r->tq[rec.core], &ts);
	}
}

/*
 * One step of the walk against the truth: the core's next step there must
 * be the same instruction (PC, and whether it tail-chained) or exception
 * entry; a step that emitted a timed message must be at the truth's cycle.
 * Other steps' cycles are estimates: their error is measured, not judged.
 */
static int verify_cf(struct rpl *r, const struct cfw_step *cs)
{
	int core = cs->core, s;
	struct tstep t;
	uint64_t e;

	s = truth_core_next(r, core, &t, NULL);
	if (s < 0)
		return r->failed = 1, -1;
	if (!s)
		return differ(r, core, "the ground truth has no more steps of core %d", core);
	if (cs->exception) {
		if (t.type != ST_TRUTH_EXC || t.exc != cs->exc)
			return differ(r, core, "the replay enters exception %u, the truth %s 0x%08x",
				      cs->exc, t.type == ST_TRUTH_EXC ? "exception" : "executes pc",
				      t.type == ST_TRUTH_EXC ? t.exc : t.pc);
		r->vs.exceptions++;
	} else if (t.type != ST_TRUTH_INSN || t.pc != cs->pc ||
		   !!(t.flags & ST_TRUTH_TAIL) != !!cs->tail) {
		return differ(r, core, "the replay executes pc 0x%08x%s, the truth %s 0x%08x%s",
			      cs->pc, cs->tail ? " (tail-chaining)" : "",
			      t.type == ST_TRUTH_INSN ? "pc" : "enters exception",
			      t.type == ST_TRUTH_INSN ? t.pc : t.exc,
			      t.flags & ST_TRUTH_TAIL ? " (tail-chaining)" : "");
	}
	if (cs->pinned) {
		if (t.cycle != cs->cycle)
			return differ(r, core, "the step's message is stamped cycle %llu, the truth "
				      "says cycle %llu", U(cs->cycle), U(t.cycle));
		r->vs.stamps++;
	} else {
		e = cs->cycle > t.cycle ? cs->cycle - t.cycle : t.cycle - cs->cycle;
		r->vs.estimated++;
		r->cycle_error_sum += e;
		if (e > r->vs.max_cycle_error)
			r->vs.max_cycle_error = e;
	}
	if (!cs->exception)
		r->verified++;
	return 0;
}

/*
 * At the end of the walk of a complete recording: the truth must have no step
 * left and end with the exit. A partial one (killed recorder) ends where its
 * streams end; every step before was checked against the truth on the way.
 */
static int verify_cf_end(struct rpl *r)
{
	int exit = 0, s;
	struct tstep t;

	if (!r->mf.complete)
		return 0; /* a killed recorder's truth goes on past its last snapshot */
	for (int c = 0; c < r->ncores; c++) {
		s = truth_core_next(r, c, &t, &exit);
		if (s < 0)
			return r->failed = 1, -1;
		if (s)
			return differ(r, c, "the replay ends, the truth goes on with core %d's %s "
				      "0x%08x", c, t.type == ST_TRUTH_INSN ? "pc" : "exception",
				      t.type == ST_TRUTH_INSN ? t.pc : t.exc);
	}
	if (!exit)
		return differ(r, r->cur, "the truth does not end with the program's exit");
	return 0;
}

/* ---- the run ------------------------------------------------------------------------- */

static int at_end(struct rpl *r)
{
	for (int i = 0; i < r->ncores; i++)
		if (r->d.insns[i] < r->d.budget[i])
			return 0;
	return 1;
}

/* Everything consumed at the end: no message may be left in either stream. */
static int check_drained(struct rpl *r)
{
	if (!r->d.have_end && cf_next(r))
		return -1;
	if (!r->d.have_end)
		return desync(r, r->cf_path, r->cur, r->d.cf_head_at, "the program ended, but the "
			      "stream goes on");
	for (int i = 0; i < r->ncores; i++)
		if (r->d.insns[i] != r->d.budget[i])
			return desync(r, r->cf_path, i, r->d.cf_head_at, "the end message counts "
				      "%llu instructions, the replay ran %llu", U(r->d.budget[i]),
				      U(r->d.insns[i]));
	if (r->d.lv_have)
		return desync(r, r->lv_path, r->d.lv_head.core, r->d.lv_head_at, "messages are left "
			      "in the stream at the end of the recording");
	return 0;
}

/* The walk is at the end of the recording. 1, or -1 if the truth goes on. */
static int cf_only_end(struct rpl *r)
{
	if (r->truth && verify_cf_end(r))
		return -1;
	r->d.ended = 1;
	r->d.exited = r->mf.complete; /* by SYS_EXIT, whose status is in a register */
	r->d.exit_status = -1;
	return 1;
}

/* r->last and r->cur: the walk's step cs. */
static void cf_only_last(struct rpl *r, const struct cfw_step *cs)
{
	struct isa_step *st = &r->last;

	memset(st, 0, sizeof(*st));
	r->cur = cs->core;
	st->ev = cs->exception ? ISA_EV_EXCEPTION : ISA_EV_INSN;
	st->pc = cs->pc;
	st->next_pc = cs->next_pc;
	st->exc = cs->exc;
	st->exc_return = cs->tail;
}

/* Count the walk's step cs (its summary aside). */
static void cf_only_count(struct rpl *r, const struct cfw_step *cs)
{
	r->d.steps++;
	r->d.csteps[cs->core]++;
	if (!cs->exception) {
		r->d.insns[cs->core]++;
		r->d.position++;
	}
}

/*
 * step() for a control-flow-only recording: the walk's next step in its
 * estimated order; r->last tells what it was (no data accesses).
 */
static int cf_only_step(struct rpl *r)
{
	struct isa_step *st = &r->last;
	struct cfw_step cs;
	int s;

	r->nacc = 0;
	memset(st, 0, sizeof(*st));
	st->ev = ISA_EV_SLEEP;
	if (r->d.ended)
		return 1;
	s = cfw_step(r->cfw, &cs);
	if (s < 0)
		return r->failed = 1, -1;
	if (s > 0)
		return cf_only_end(r);
	cf_only_last(r, &cs);
	isa_cpu_set(r->cpu[cs.core], ISA_R_PC, cs.next_pc);
	if (r->d.steps >= r->frontier) {
		/* the first run through: the stretch's summary (no data accesses) */
		rpl_sum_pc(open_sum(r), cs.pc);
		r->frontier = r->d.steps + 1;
	}
	cf_only_count(r, &cs);
	if (r->truth && verify_cf(r, &cs))
		return -1;
	if (r->d.position >= r->next_ckpt)
		take_checkpoint(r);
	return 0;
}

/* The picked core sleeps: its clock skips ahead (a step of its own). */
static int sleep_step(struct rpl *r, int i)
{
	memset(&r->last, 0, sizeof(r->last));
	r->last.ev = ISA_EV_SLEEP;
	if (board_sched_sleep(&r->sched, i, r->d.position))
		return r->failed = 1, -1;
	r->d.steps++;
	return 0;
}

/* rpl_observe's callback for the step just done. */
static void notify(struct rpl *r, int core, const struct isa_step *st, uint64_t cycle)
{
	struct board_access a[MAX_STEP_ACC];

	for (int k = 0; k < r->nacc; k++) {
		const struct acc *x = &r->acc[k];

		a[k].addr = x->addr;
		a[k].val = x->value;
		a[k].size = x->size;
		a[k].store = x->store;
		a[k].kind = x->kind;
		a[k].cacheable = board_map(x->addr, x->size, x->store) == BOARD_R_MEM;
	}
	r->obs(r->obs_ctx, core, st, cycle, a, r->nacc);
}

#define CF_LOG 256 /* steps of a run checked against the truth at a time */

/*
 * The loop `while (position < to) step()` for a control-flow-only
 * recording (rpl_run, rpl_seek, rpl_index), with the same steps, stops,
 * summaries, checkpoints and errors, in runs of the walk: each ends where
 * one of those could happen (a checkpoint's position, the frontier of the
 * summaries, to). With the truth, every step of a run is checked in turn,
 * counted as it is (an error names the step's counts).
 */
static int cf_only_run(struct rpl *r, uint64_t to)
{
	struct cfw_step log[CF_LOG];
	struct cfw_run run;
	uint64_t before;
	int s;

	while (r->d.position < to) {
		r->nacc = 0;
		if (r->d.ended) {
			memset(&r->last, 0, sizeof(r->last));
			r->last.ev = ISA_EV_SLEEP;
			return 1;
		}
		memset(&run, 0, sizeof(run));
		run.max_insns = to - r->d.position;
		if (r->next_ckpt > r->d.position && r->next_ckpt - r->d.position < run.max_insns)
			run.max_insns = r->next_ckpt - r->d.position;
		run.max_steps = r->d.steps < r->frontier ? r->frontier - r->d.steps : UINT64_MAX;
		if (r->next_ckpt <= r->d.position)
			run.max_steps = 1; /* a checkpoint after the next step, whatever it is */
		if (r->truth) {
			run.log = log;
			if (run.max_steps > CF_LOG)
				run.max_steps = CF_LOG;
		}
		if (r->d.steps >= r->frontier) {
			/* the first run through: the stretch's summary (no data accesses) */
			run.sum = open_sum(r);
			run.sum_gen = r->sum_gen;
		}
		before = r->d.steps;
		s = cfw_run(r->cfw, &run);
		if (run.steps)
			cf_only_last(r, &run.last);
		if (run.sum)
			r->frontier = before + run.steps;
		if (run.log) {
			for (uint64_t i = 0; i < run.steps; i++) {
				cf_only_count(r, &log[i]);
				if (verify_cf(r, &log[i])) {
					r->cur = log[i].core;
					r->good_steps = r->d.steps - 1;
					return -1;
				}
			}
		} else {
			r->d.steps += run.steps;
			r->d.position = 0;
			for (int c = 0; c < r->ncores; c++) {
				r->d.insns[c] = cfw_insns(r->cfw, c);
				r->d.csteps[c] = cfw_steps(r->cfw, c);
				r->d.position += r->d.insns[c];
			}
		}
		for (int c = 0; c < r->ncores; c++)
			isa_cpu_set(r->cpu[c], ISA_R_PC, cfw_pc(r->cfw, c));
		if (s < 0) {
			r->failed = 1;
			r->good_steps = before + run.steps;
			return -1;
		}
		if (s > 0) {
			memset(&r->last, 0, sizeof(r->last));
			r->last.ev = ISA_EV_SLEEP;
			s = cf_only_end(r);
			if (s < 0)
				r->good_steps = before;
			return s;
		}
		if (r->d.position >= r->next_ckpt)
			take_checkpoint(r);
	}
	return 0;
}

/*
 * One scheduler step: 0 go on, 1 the end of the recording (no step done
 * then, or the program's exit), -1 error. r->cur, r->last and r->acc tell
 * what the step did (r->last.ev is ISA_EV_SLEEP for a sleep step).
 */
static int step_once(struct rpl *r)
{
	struct isa_step *st = &r->last;
	struct isa_cpu *cpu;
	struct rpl_summary *osum; /* the open summary, past the frontier */
	int i;
	uint64_t cycle;

	if (r->cfw)
		return cf_only_step(r);
	i = board_sched_pick(&r->sched);
	cpu = r->cpu[i];
	r->nacc = 0;
	r->cur = i;
	if (r->d.ended || (r->d.have_end && at_end(r))) {
		memset(st, 0, sizeof(*st));
		st->ev = ISA_EV_SLEEP;
		if (r->d.ended)
			return 1;
		if (check_drained(r))
			return -1;
		r->d.ended = 1;
		return 1;
	}
	if (r->simple && isa_cpu_sleeping(cpu))
		return sleep_step(r, i);
	if (r->d.have_end && r->d.insns[i] >= r->d.budget[i] && !isa_cpu_sleeping(cpu))
		return desync(r, r->cf_path, i, r->d.cf_head_at, "core %d runs past the end of its "
			      "trace (its end message counts %llu instructions)", i,
			      U(r->d.budget[i]));
	r->nlv_due = 0;
	board_sched_begin(&r->sched);
	/*
	 * A core that sleeps (isa_cpu_sleeping) is exactly one whose step reports
	 * ISA_EV_SLEEP without changing anything, so the fast engine asks the
	 * step instead of asking first.
	 */
	if (isa_cpu_step(cpu, st))
		return r->failed = 1, -1;
	if (st->ev == ISA_EV_SLEEP)
		return sleep_step(r, i);
	osum = r->d.steps >= r->frontier ? open_sum(r) : NULL;
	if (osum && st->ev != ISA_EV_EXCEPTION) {
		rpl_sum_pc(osum, st->pc);
		rpl_tix_pc(r->tix, r->d.position, st->pc);
	}
	board_sched_retire(&r->sched, i, st);
	if (r->failed)
		return -1;
	r->d.steps++;
	cycle = r->sched.cycles[i];
	if ((st->ev == ISA_EV_INSN || st->ev == ISA_EV_STOP) && !st->faulted) {
		r->d.insns[i]++;
		r->d.position++;
		r->d.csteps[i]++;
	} else if (st->ev == ISA_EV_EXCEPTION) {
		r->d.csteps[i]++;
	}
	if (r->nlv_due && r->mf.lv.timed)
		for (int k = 0; k < r->nlv_due; k++)
			if (r->lv_due[k] != cycle)
				return desync(r, r->lv_path, i, r->lv_due_at[k], "the message is "
					      "stamped cycle %llu, the load retired at cycle %llu",
					      U(r->lv_due[k]), U(cycle));
	if (cf_step(r, i, st, cycle))
		return -1;
	if (r->truth && verify_step(r, i, st, cycle))
		return -1;
	if (r->obs)
		notify(r, i, st, cycle);
	if (osum) {
		for (int a = 0; a < r->nacc; a++) {
			if (!watchable(r->acc[a].kind))
				continue;
			rpl_sum_access(osum, r->acc[a].addr, r->acc[a].size, r->acc[a].store);
			rpl_tix_access(r->tix, r->d.position, r->acc[a].addr, r->acc[a].size,
				       r->acc[a].store);
		}
		r->frontier = r->d.steps;
		rpl_tix_done(r->tix, r->d.steps, r->d.position);
	}
	if (r->d.position >= r->next_ckpt)
		take_checkpoint(r);
	if (st->ev == ISA_EV_STOP) {
		r->d.exited = 1;
		if (check_drained(r))
			return -1;
		if (r->truth && verify_exit(r))
			return -1;
		r->d.ended = 1;
		return 1;
	}
	return 0;
}

/*
 * One step of the replay: 0, 1 at the end, -1 at an error. After an error the
 * step counters may already count the step that failed, so good_steps keeps
 * the count before it: a reverse run from there starts from the last good step.
 */
static int step(struct rpl *r)
{
	uint64_t before = r->d.steps;
	int k = step_once(r);

	if (k < 0)
		r->good_steps = before;
	return k;
}

int rpl_run(struct rpl *r, uint64_t to)
{
	int s;

	if (r->failed)
		return error("%s: the replay stopped at an earlier error", r->dir);
	if (r->cfw)
		return cf_only_run(r, to);
	while (r->d.position < to) {
		s = step(r);
		if (s)
			return s;
	}
	return 0;
}

/* ---- checkpoints ------------------------------------------------------------------- */

static size_t blob_size(const struct rpl *r)
{
	size_t n = (size_t)r->ncores * isa_cpu_state_size();

	for (int i = 0; i < r->ncores; i++) {
		if (r->bp[i] && !(r->mf.bp_shared && i))
			n += bp_state_size(r->bp[i]);
		if (!r->cfw)
			n += dc_state_size(r->sched.tcache[i]);
	}
	if (r->cfw)
		n += cfw_state_size(r->cfw);
	if (r->fa)
		n += dc_fa_state_size(r->fa);
	if (r->mc)
		n += dc_mc2rt_state_size(r->mc);
	return n;
}

/* A checkpoint's state: struct dyn, the cycles, the generator, the blob. */
static size_t state_size(const struct rpl *r)
{
	return sizeof(struct dyn) + sizeof(r->sched.cycles) + sizeof(r->sched.rng) + blob_size(r);
}

/*
 * At every interval-th position (called when position reaches next_ckpt):
 * a checkpoint there unless the store has it. At the frontier it is new;
 * behind it, on a re-run of a stretch whose checkpoint thinning dropped, it
 * is laid down again if the store would keep it (replay/ckstore.h).
 */
static void take_checkpoint(struct rpl *r)
{
	uint64_t slot = r->d.position / r->interval;
	int fresh = r->d.steps >= r->frontier;
	struct rpl_mem *snap;
	uint8_t *state, *p;
	size_t ci;

	r->next_ckpt = (slot + 1) * r->interval;
	if (r->d.position != slot * r->interval)
		return; /* restored past a slot: the next one is due later */
	if (rpl_ckstore_count(r->ck)) {
		ci = rpl_ckstore_before_step(r->ck, r->d.steps);
		/*
		 * Re-running a stretch: no new checkpoint, but the live picture has
		 * moved on, so pages only the snapshots hold have grown: trim.
		 */
		if (rpl_ckstore_steps(r->ck, ci) == r->d.steps ||
		    (!fresh && !rpl_ckstore_wants(r->ck, slot))) {
			rpl_ckstore_trim(r->ck, slot);
			r->sum_gen++;
			return;
		}
	}
	state = p = xmalloc(r->state_size);
	memcpy(p, &r->d, sizeof(r->d));
	/* the readers' pointers are restore_checkpoint's to set: none kept (an index is a file) */
	((struct dyn *)p)->cfd.r.buf = ((struct dyn *)p)->lvd.r.buf = NULL;
	((struct dyn *)p)->cfd.r.name = ((struct dyn *)p)->lvd.r.name = NULL;
	p += sizeof(r->d);
	memcpy(p, r->sched.cycles, sizeof(r->sched.cycles));
	p += sizeof(r->sched.cycles);
	memcpy(p, &r->sched.rng, sizeof(r->sched.rng));
	p += sizeof(r->sched.rng);
	for (int i = 0; i < r->ncores; i++) {
		isa_cpu_save(r->cpu[i], p);
		p += isa_cpu_state_size();
		if (r->bp[i] && !(r->mf.bp_shared && i)) {
			bp_save(r->bp[i], p);
			p += bp_state_size(r->bp[i]);
		}
		if (r->cfw)
			continue;
		dc_save(r->sched.tcache[i], p);
		p += dc_state_size(r->sched.tcache[i]);
	}
	if (r->cfw) {
		cfw_save(r->cfw, p);
		p += cfw_state_size(r->cfw);
	}
	if (r->fa) {
		dc_fa_save(r->fa, p);
		p += dc_fa_state_size(r->fa);
	}
	if (r->mc)
		dc_mc2rt_save(r->mc, p);
	snap = rpl_mem_snapshot(r->mem);
	rpl_ckstore_add(r->ck, slot, r->d.steps, r->d.position, state, snap, fresh);
	rpl_ckstore_trim(r->ck, slot);
	r->sum_gen++;
}

/* A page of memory changes with a restore: code there may have been rewritten. */
static void forget_decoded(void *dec, uint32_t addr, uint32_t len)
{
	isa_decoder_invalidate(dec, addr, len);
}

/* Go back (or forward) to the store's checkpoint i. 0 / -1. */
static int restore_checkpoint(struct rpl *r, size_t ci)
{
	const struct rpl_mem *mem;
	const uint8_t *p = rpl_ckstore_state(r->ck, ci, &mem);
	struct st_reader cr, lr;

	if (!p)
		return -1;
	r->sum_gen++;
	if (r->truth) {
		/* the ground truth is read forward only */
		st_truth_close_reader(r->truth);
		r->truth = NULL;
		for (int i = 0; i < r->ncores; i++)
			r->tq[i].head = r->tq[i].n = 0;
	}
	/*
	 * The decoders' readers point at this process's stream buffers and
	 * names: a state read from a persistent index holds another's.
	 */
	cr = r->d.cfd.r;
	lr = r->d.lvd.r;
	memcpy(&r->d, p, sizeof(r->d));
	p += sizeof(r->d);
	r->d.cfd.r.buf = cr.buf;
	r->d.cfd.r.name = cr.name;
	r->d.lvd.r.buf = lr.buf;
	r->d.lvd.r.name = lr.name;
	memcpy(r->sched.cycles, p, sizeof(r->sched.cycles));
	p += sizeof(r->sched.cycles);
	memcpy(&r->sched.rng, p, sizeof(r->sched.rng));
	p += sizeof(r->sched.rng);
	rpl_mem_restore(r->mem, mem, forget_decoded, r->dec);
	for (int i = 0; i < r->ncores; i++) {
		isa_cpu_restore(r->cpu[i], p);
		p += isa_cpu_state_size();
		if (r->bp[i] && !(r->mf.bp_shared && i)) {
			if (bp_restore(r->bp[i], p, bp_state_size(r->bp[i])))
				return -1;
			p += bp_state_size(r->bp[i]);
		}
		if (r->cfw)
			continue;
		dc_restore(r->sched.tcache[i], p);
		p += dc_state_size(r->sched.tcache[i]);
	}
	if (r->cfw) {
		if (cfw_restore(r->cfw, p, cfw_state_size(r->cfw)))
			return -1;
		p += cfw_state_size(r->cfw);
	}
	if (r->fa) {
		if (dc_fa_restore(r->fa, p, dc_fa_state_size(r->fa)))
			return -1;
		p += dc_fa_state_size(r->fa);
	}
	if (r->mc && dc_mc2rt_restore(r->mc, p, dc_mc2rt_state_size(r->mc)))
		return -1;
	r->failed = 0;
	r->next_ckpt = r->d.position + 1;
	return 0;
}

/* The latest checkpoint at or before step s (there is always the one at step 0). */
static size_t ckpt_before(const struct rpl *r, uint64_t s)
{
	return rpl_ckstore_before_step(r->ck, s);
}

/* The steps of checkpoint i. */
static uint64_t ckpt_steps(const struct rpl *r, size_t i)
{
	return rpl_ckstore_steps(r->ck, i);
}

void rpl_set_interval(struct rpl *r, uint64_t insns)
{
	r->interval = insns ? insns : 1;
	r->next_ckpt = r->d.position + r->interval;
	if (r->tix && !rpl_tix_covered(r->tix)) { /* its slots are the checkpoints' */
		rpl_tix_free(r->tix);
		r->tix = rpl_tix_new(r->interval);
	}
}

void rpl_set_memory(struct rpl *r, uint64_t bytes)
{
	rpl_ckstore_set_budget(r->ck, bytes);
	rpl_ckstore_trim(r->ck, r->d.position / r->interval);
	r->sum_gen++;
}

/* Go to the state after s steps: 0, 1 if the recording ends before, -1 error. */
int rpl_seek_step(struct rpl *r, uint64_t s)
{
	size_t c = ckpt_before(r, s);
	int k;

	if (r->failed || r->d.steps > s || ckpt_steps(r, c) > r->d.steps)
		if (restore_checkpoint(r, c))
			return -1;
	while (r->d.steps < s) {
		k = step(r);
		if (k)
			return k;
	}
	return 0;
}

int rpl_seek(struct rpl *r, uint64_t position)
{
	size_t c = rpl_ckstore_before_position(r->ck, position);
	int k;

	if (r->failed || r->d.position > position || ckpt_steps(r, c) > r->d.steps)
		if (restore_checkpoint(r, c))
			return -1;
	if (r->cfw)
		return cf_only_run(r, position);
	while (r->d.position < position) {
		k = step(r);
		if (k)
			return k;
	}
	return 0;
}

int rpl_index(struct rpl *r)
{
	int k;

	if (r->cfw)
		return cf_only_run(r, UINT64_MAX) < 0 ? -1 : 0;
	while (!(k = step(r)))
		;
	return k < 0 ? -1 : 0;
}

/* ---- the persistent index's access (replay/index.h) ------------------------------------ */

struct rpl_ckstore *rpl_store(struct rpl *r)
{
	return r->ck;
}

struct rpl_mem *rpl_live_mem(struct rpl *r)
{
	return r->mem;
}

size_t rpl_state_size(const struct rpl *r)
{
	return r->state_size;
}

uint64_t rpl_interval(const struct rpl *r)
{
	return r->interval;
}

double rpl_progress(const struct rpl *r)
{
	if (r->cfw || !r->mf.cf_bits)
		return -1;
	return (double)st_cf_decoder_pos(&r->d.cfd) / (double)r->mf.cf_bits;
}

int rpl_adopt(struct rpl *r, struct rpl_ckstore *ck, uint64_t end_steps, uint64_t end_position)
{
	size_t last = rpl_ckstore_count(ck) - 1;
	int k;

	if (rpl_ckstore_count(ck) < 1 || rpl_ckstore_steps(ck, 0) != 0 || r->failed ||
	    r->d.steps != 0) {
		rpl_ckstore_free(ck);
		return error("%s: an index must be loaded into a fresh replay", r->dir);
	}
	rpl_ckstore_free(r->ck);
	r->ck = ck;
	/* the summaries are the index's: a run up to end_steps adds nothing */
	r->frontier = end_steps;
	if (restore_checkpoint(r, last))
		return -1;
	while (!(k = step(r)))
		;
	if (k < 0)
		return -1;
	if (r->d.steps != end_steps || r->d.position != end_position)
		return error("%s: the index says the recording ends after %llu steps at position "
			     "%llu, the replay ended after %llu at %llu", r->dir, U(end_steps),
			     U(end_position), U(r->d.steps), U(r->d.position));
	return 0;
}

/* ---- breakpoints, watchpoints, continue and step ---------------------------------- */

int rpl_observe(struct rpl *r, rpl_step_fn fn, void *ctx)
{
	if (fn && r->cfw)
		return error("%s: a control-flow-only recording: its replay has no data "
			     "accesses to observe",
			     r->dir);
	r->obs = fn;
	r->obs_ctx = ctx;
	return 0;
}

int rpl_break(struct rpl *r, uint32_t pc, int on)
{
	for (int i = 0; i < r->nbreak; i++)
		if (r->breaks[i] == pc) {
			if (!on)
				r->breaks[i] = r->breaks[--r->nbreak];
			return 0;
		}
	if (!on)
		return error("no breakpoint at 0x%08x", pc);
	if (r->nbreak == RPL_MAX_POINTS)
		return error("%d breakpoints already set", RPL_MAX_POINTS);
	r->breaks[r->nbreak++] = pc;
	return 0;
}

int rpl_watch(struct rpl *r, uint32_t addr, uint32_t len, enum rpl_watch_kind kind, int on)
{
	if (r->cfw)
		return error("%s: no watchpoints: the recording has no load-value stream, so the "
			     "replay does not know the data addresses the cores access", r->dir);
	for (int i = 0; i < r->nwatch; i++)
		if (r->watch[i].addr == addr && r->watch[i].len == len && r->watch[i].kind == kind) {
			if (!on)
				r->watch[i] = r->watch[--r->nwatch];
			return 0;
		}
	if (!on)
		return error("no watchpoint at 0x%08x", addr);
	if (!len)
		return error("a watchpoint needs a length");
	if (r->nwatch == RPL_MAX_POINTS)
		return error("%d watchpoints already set", RPL_MAX_POINTS);
	r->watch[r->nwatch++] = (struct rpl_watchpoint){ addr, len, kind };
	return 0;
}

/* Will the next step execute an instruction at a breakpoint? */
static int at_break(struct rpl *r, int *core)
{
	int i, insn, s;
	uint32_t pc;

	if (r->cfw) {
		if (!r->nbreak || r->d.ended || r->failed)
			return 0;
		/* an error here is the next step's: let that report it */
		error_quiet(1);
		s = cfw_peek(r->cfw, &i, &pc, &insn);
		error_quiet(-1);
		if (s || !insn)
			return 0;
	} else {
		i = board_sched_pick(&r->sched);
		if (!r->nbreak || r->d.ended || !isa_cpu_will_execute(r->cpu[i]))
			return 0;
		pc = isa_cpu_get(r->cpu[i], ISA_R_PC);
	}
	for (int k = 0; k < r->nbreak; k++)
		if (r->breaks[k] == pc) {
			*core = i;
			return 1;
		}
	return 0;
}

/* Did the last step's accesses hit a watchpoint? Fills *stop. */
static int hit_watch(struct rpl *r, struct rpl_stop *stop)
{
	for (int a = 0; a < r->nacc; a++) {
		const struct acc *x = &r->acc[a];

		if (!watchable(x->kind))
			continue;
		for (int w = 0; w < r->nwatch; w++) {
			const struct rpl_watchpoint *p = &r->watch[w];

			if (x->addr >= p->addr + p->len || p->addr >= x->addr + x->size)
				continue;
			if ((p->kind == RPL_WATCH_WRITE && !x->store) ||
			    (p->kind == RPL_WATCH_READ && x->store))
				continue;
			stop->kind = RPL_STOP_WATCH;
			stop->watch = *p;
			stop->addr = x->addr > p->addr ? x->addr : p->addr;
			stop->core = r->cur;
			stop->store = x->store;
			return 1;
		}
	}
	return 0;
}

static void fill_stop(struct rpl *r, struct rpl_stop *stop, enum rpl_stop_kind kind, int core)
{
	stop->kind = kind;
	stop->core = core;
	stop->position = r->d.position;
	stop->step = r->d.steps;
}

/*
 * Could a breakpoint or watchpoint hit in the stretch after checkpoint i?
 * 1 unless its summary is complete and rules every one out.
 */
static int may_hit(const struct rpl *r, size_t i)
{
	const struct rpl_summary *s = rpl_ckstore_sum_const(r->ck, i);

	if (i + 1 >= rpl_ckstore_count(r->ck) || !s->sealed)
		return 1;
	for (int k = 0; k < r->nbreak; k++)
		if (rpl_sum_may_pc(s, r->breaks[k]))
			return 1;
	for (int k = 0; k < r->nwatch; k++)
		if (rpl_sum_may_access(s, r->watch[k].addr, r->watch[k].len,
				       r->watch[k].kind != RPL_WATCH_WRITE,
				       r->watch[k].kind != RPL_WATCH_READ))
			return 1;
	return 0;
}

/*
 * The earliest (after = 1) or latest slot of the time index, from slot at
 * on, where a break- or watchpoint may hit; -1 if none may.
 */
static long tix_hit(const struct rpl *r, size_t at, int after)
{
	struct rpl_tix_range w[RPL_MAX_POINTS];

	for (int k = 0; k < r->nwatch; k++)
		w[k] = (struct rpl_tix_range){ r->watch[k].addr, r->watch[k].len,
					       r->watch[k].kind != RPL_WATCH_WRITE,
					       r->watch[k].kind != RPL_WATCH_READ };
	return after ? rpl_tix_first_hit(r->tix, at, r->breaks, r->nbreak, w, r->nwatch)
		     : rpl_tix_last_hit(r->tix, at, r->breaks, r->nbreak, w, r->nwatch);
}

/*
 * Forward, at a checkpoint: skip the stretches that cannot hit, to the
 * checkpoint that starts the next one that may (or the last). The time
 * index, where it covers, finds that stretch at the grain of the interval
 * even where thinning merged the summaries. 0 / -1.
 */
static int skip_forward(struct rpl *r)
{
	size_t i = ckpt_before(r, r->d.steps), j = i, c;
	long h;

	if (ckpt_steps(r, i) != r->d.steps)
		return 0;
	if (r->tix && r->d.steps < rpl_tix_covered(r->tix)) {
		h = tix_hit(r, rpl_tix_slot_of(r->tix, r->d.steps), 1);
		c = ckpt_before(r, h < 0 ? rpl_tix_covered(r->tix) - 1
					 : rpl_tix_slot_steps(r->tix, (size_t)h));
		if (c > i)
			return restore_checkpoint(r, c);
	}
	while (j + 1 < rpl_ckstore_count(r->ck) && !may_hit(r, j))
		j++;
	if (j == i)
		return 0;
	return restore_checkpoint(r, j);
}

/* The steps of the first checkpoint after the state now (UINT64_MAX: none yet). */
static uint64_t next_edge(const struct rpl *r)
{
	size_t i = ckpt_before(r, r->d.steps);

	return i + 1 < rpl_ckstore_count(r->ck) ? ckpt_steps(r, i + 1) : UINT64_MAX;
}

/*
 * Forward until a breakpoint (stop before the instruction), a watchpoint
 * (stop after the access), `core` retiring an instruction (core >= 0: a
 * single step), an interrupt request or the end.
 */
static int forward(struct rpl *r, int core, struct rpl_stop *stop)
{
	int k, c, first = r->d.steps == r->break_step;
	uint64_t edge = core < 0 ? next_edge(r) : UINT64_MAX;

	memset(stop, 0, sizeof(*stop));
	if (core < 0 && ckpt_steps(r, ckpt_before(r, r->d.steps)) == r->d.steps)
		edge = r->d.steps; /* at a checkpoint already */
	for (;;) {
		if (r->d.steps == edge) {
			/* a continue at a checkpoint: past the stretches that cannot hit */
			uint64_t at = r->d.steps;

			if (skip_forward(r))
				return -1;
			edge = next_edge(r);
			if (r->d.steps != at)
				first = 0;
		}
		if (!first && at_break(r, &c)) {
			fill_stop(r, stop, RPL_STOP_BREAK, c);
			r->break_step = r->d.steps;
			return 0;
		}
		if (r->interrupt) {
			r->interrupt = 0;
			fill_stop(r, stop, RPL_STOP_INTERRUPT, r->cur);
			return 0;
		}
		first = 0;
		k = step(r);
		if (k < 0)
			return -1;
		if (k > 0) {
			fill_stop(r, stop, RPL_STOP_END, r->cur);
			return 0;
		}
		if (hit_watch(r, stop)) {
			stop->position = r->d.position;
			stop->step = r->d.steps;
			return 0;
		}
		if (core >= 0 && r->cur == core &&
		    (r->last.ev == ISA_EV_INSN || r->last.ev == ISA_EV_STOP) && !r->last.faulted) {
			fill_stop(r, stop, RPL_STOP_STEP, core);
			return 0;
		}
	}
}

/*
 * Backward: the latest event before the current step. Events: a breakpoint
 * before step k (state k - 1), a watchpoint hit by step k (state k), core
 * retiring an instruction at step k (state k - 1, a reverse single step).
 */
static int backward(struct rpl *r, int core, struct rpl_stop *stop)
{
	uint64_t now = r->failed ? r->good_steps : r->d.steps, hi = now;
	struct rpl_stop found, w;
	int have, c, k;

	memset(stop, 0, sizeof(*stop));
	while (hi > 0) {
		if (core < 0 && r->tix && hi <= rpl_tix_covered(r->tix)) {
			/* the time index: no hit after the end of the latest slot that may */
			long j = tix_hit(r, rpl_tix_slot_of(r->tix, hi - 1), 0);

			if (j < 0)
				break;
			if ((size_t)j + 1 < rpl_tix_slots(r->tix) &&
			    rpl_tix_slot_steps(r->tix, (size_t)j + 1) < hi)
				hi = rpl_tix_slot_steps(r->tix, (size_t)j + 1);
		}
		if (core < 0 && !may_hit(r, ckpt_before(r, hi - 1))) {
			hi = ckpt_steps(r, ckpt_before(r, hi - 1)); /* nothing there can hit */
			continue;
		}
		/* (running may add and drop checkpoints, moving the indexes: keep the step) */
		uint64_t from = ckpt_steps(r, ckpt_before(r, hi - 1));

		if (restore_checkpoint(r, ckpt_before(r, hi - 1)))
			return -1;
		have = 0;
		while (r->d.steps < hi) {
			if (r->interrupt) {
				r->interrupt = 0;
				fill_stop(r, stop, RPL_STOP_INTERRUPT, r->cur);
				return 0;
			}
			if (at_break(r, &c) && r->d.steps < now) {
				fill_stop(r, &found, RPL_STOP_BREAK, c);
				have = 1;
			}
			k = step(r);
			if (k < 0)
				return -1;
			if (k > 0)
				break;
			if (r->d.steps <= now && hit_watch(r, &w)) {
				w.position = r->d.position;
				w.step = r->d.steps;
				found = w;
				have = 1;
			}
			if (core >= 0 && r->cur == core && r->d.steps <= now &&
			    (r->last.ev == ISA_EV_INSN || r->last.ev == ISA_EV_STOP) &&
			    !r->last.faulted) {
				found.kind = RPL_STOP_STEP;
				found.core = core;
				found.step = r->d.steps - 1;
				have = 1;
			}
		}
		if (have) {
			if (rpl_seek_step(r, found.step) < 0)
				return -1;
			found.position = r->d.position;
			if (found.kind == RPL_STOP_BREAK)
				r->break_step = found.step;
			*stop = found;
			return 0;
		}
		hi = from;
	}
	if (restore_checkpoint(r, 0))
		return -1;
	fill_stop(r, stop, RPL_STOP_BEGIN, 0);
	return 0;
}

int rpl_continue(struct rpl *r, int reverse, struct rpl_stop *stop)
{
	return reverse ? backward(r, -1, stop) : forward(r, -1, stop);
}

int rpl_stepi(struct rpl *r, int core, int reverse, struct rpl_stop *stop)
{
	if (core < 0 || core >= r->ncores)
		return error("no core %d", core);
	return reverse ? backward(r, core, stop) : forward(r, core, stop);
}

void rpl_interrupt(struct rpl *r)
{
	r->interrupt = 1;
}

void rpl_take_stop_state(struct rpl *to, const struct rpl *from)
{
	to->break_step = from->break_step;
}

uint64_t rpl_steps(const struct rpl *r)
{
	return r->d.steps;
}

size_t rpl_checkpoints(const struct rpl *r, uint64_t *bytes)
{
	if (bytes)
		*bytes = rpl_ckstore_bytes(r->ck);
	return rpl_ckstore_count(r->ck);
}

void rpl_checkpoint_stats(const struct rpl *r, struct rpl_ckstore_stats *st)
{
	rpl_ckstore_stats(r->ck, st);
}

const struct rpl_tindex *rpl_time_index(const struct rpl *r)
{
	return r->tix;
}

void rpl_set_time_index(struct rpl *r, struct rpl_tindex *t)
{
	if (!r->tix || rpl_tix_covered(r->tix)) {
		rpl_tix_free(t);
		return;
	}
	rpl_tix_free(r->tix);
	r->tix = t;
}

uint64_t rpl_time_index_bytes(const struct rpl *r, uint64_t *covered)
{
	if (covered)
		*covered = r->tix ? rpl_tix_covered(r->tix) : 0;
	return r->tix ? rpl_tix_bytes(r->tix) : 0;
}

int rpl_read_mem(struct rpl *r, uint32_t addr, uint8_t *buf, uint32_t n, uint32_t *unknown)
{
	if (!rpl_mem_valid(addr, n))
		return -1;
	if (r->cfw) {
		/* no value is traced, and the board lets programs write ROM too */
		memset(buf, 0, n);
		if (unknown)
			*unknown = addr;
		return 1;
	}
	return rpl_mem_read(r->mem, addr, buf, n, unknown) ? 1 : 0;
}

uint64_t rpl_position(const struct rpl *r)
{
	return r->d.position;
}

uint64_t rpl_core_insns(const struct rpl *r, int core)
{
	return r->d.insns[core];
}

uint64_t rpl_verified(const struct rpl *r)
{
	return r->verified;
}

uint64_t rpl_cycles(const struct rpl *r, int core)
{
	return r->cfw ? cfw_cycle(r->cfw, core) : r->sched.cycles[core];
}

uint64_t rpl_core_steps(const struct rpl *r, int core)
{
	return r->d.csteps[core];
}

int rpl_regs_known(const struct rpl *r)
{
	return !r->cfw;
}

void rpl_verify_stats(const struct rpl *r, struct rpl_verify_stats *s)
{
	*s = r->vs;
	s->insns = r->verified;
	s->mean_cycle_error = s->estimated ? (double)r->cycle_error_sum / s->estimated : 0;
}

int rpl_ncores(const struct rpl *r)
{
	return r->ncores;
}

struct isa_cpu *rpl_cpu(struct rpl *r, int core)
{
	return r->cpu[core];
}

int rpl_exited(const struct rpl *r, int *status)
{
	if (r->d.exited && status)
		*status = r->d.exit_status;
	return r->d.exited;
}

/*
 * replay: opening a recording, its stream heads, the replay's bus and the
 * step loop (replay/replay.h); checkpoints are in ckpt.c, searches in
 * search.c.
 */
#include "replay/replay_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "isa/fast.h"
#include "util/heap.h"

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

static inline __attribute__((always_inline)) int lv_next(struct rpl *r)
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

static inline uint32_t le_value(const uint8_t *b, unsigned n)
{
	switch (n) { /* (a word folds into one load) */
	case 4: return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		       (uint32_t)b[3] << 24;
	case 2: return (uint32_t)b[0] | (uint32_t)b[1] << 8;
	case 1: return b[0];
	default: {
		uint32_t v = 0;

		for (unsigned i = 0; i < n && i < 4; i++)
			v |= (uint32_t)b[i] << (8 * i);
		return v;
	}
	}
}

/*
 * The message at the head (stamped, read from bit `at`) was core's and its
 * value is read: its stamp is due at the end of the step, the core's hits
 * count anew, the next head is decoded. 0 / -1 (desync reported).
 */
static inline __attribute__((always_inline)) int lv_taken(struct rpl *r, int core, uint64_t at)
{
	if (r->nlv_due < MAX_STEP_ACC) {
		r->lv_due[r->nlv_due] = r->d.lv_head.cycle;
		r->lv_due_at[r->nlv_due++] = at;
	}
	r->d.hits[core] = 0;
	return lv_next(r);
}

/* Traced bytes at addr that disagree with what memory knows: -1. */
static int traced_differ(struct rpl *r, int core, uint32_t addr)
{
	return desync(r, r->lv_path, core, r->d.lv_head_at,
		      "the traced bytes at 0x%08x differ from what the replay knows there", addr);
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
	return lv_taken(r, core, at);
}

/* Merge traced bytes into memory: known bytes must agree. */
static int merge(struct rpl *r, int core, uint32_t addr, const uint8_t *val, unsigned n)
{
	uint8_t have[ST_LV_MAX_VALUE];
	uint32_t first;

	if (rpl_mem_read(r->mem, addr, have, n, &first) == 0) {
		/* (the usual granules' sizes compare as one word, without a call) */
		if (n == 4   ? memcmp(have, val, 4)
		    : n == 8 ? memcmp(have, val, 8)
			     : memcmp(have, val, n))
			goto differ;
		return 0;
	}
	for (unsigned i = 0; i < n; i++) {
		/* have[i]: 1 where the byte is not known yet */
		uint8_t b;

		if (!(have[i] = (uint8_t)(rpl_mem_read(r->mem, addr + i, &b, 1, NULL) != 0)) &&
		    b != val[i])
			goto differ;
	}
	/* first sight of the bytes not known yet: their values since the start */
	for (unsigned i = 0; i < n; i++)
		if (have[i])
			rpl_mem_write(r->init, addr + i, &val[i], 1);
	rpl_mem_write(r->mem, addr, val, n);
	return 0;
differ:
	return traced_differ(r, core, addr);
}

/* A cacheable load whose bytes memory must know (the cache copy says so). */
static int load_known(struct rpl *r, int core, uint32_t addr, unsigned size, uint32_t *val)
{
	uint8_t b[4];
	uint32_t first;

	if (rpl_mem_read(r->mem, addr, b, size, &first))
		return desync(r, r->lv_path ? r->lv_path : r->dir, core, r->d.lv_head_at,
			      "a %u-byte load at 0x%08x reads 0x%08x, which the debugger does "
			      "not know although the cache copy says it should", size, addr, first);
	*val = le_value(b, size);
	return 0;
}

/* A CFiat load the cache copy missed: the message with the bytes [ga, ga + glen). */
static int load_traced(struct rpl *r, int core, uint32_t addr, unsigned size, uint32_t *val,
		       uint32_t ga, unsigned glen)
{
	uint8_t v[ST_LV_MAX_VALUE];

	if (lv_take(r, core, v, glen, "load") || merge(r, core, ga, v, glen))
		return -1;
	if (ga <= addr && (uint64_t)addr + size <= (uint64_t)ga + glen) {
		/* the traced bytes cover the load: memory holds them now */
		*val = le_value(v + (addr - ga), size);
		return 0;
	}
	return load_known(r, core, addr, size, val);
}

/* A cacheable load: the software copy of the cache says known or traced. */
static int load_mem(struct rpl *r, int core, uint32_t addr, unsigned size, uint32_t *val)
{
	uint8_t v[ST_LV_MAX_VALUE];
	uint32_t ga, line = r->mf.cache.line;
	unsigned glen;

	switch (r->mf.lv_on ? (int)r->mf.lv.enc : -1) {
	case ST_LV_CFIAT: /* CFAT Fig. 4, replay side */
		if (dc_fa_load(r->fa, core, addr, size, &ga, &glen) == DC_FA_HIT) {
			r->d.hits[core]++;
			break;
		}
		return load_traced(r, core, addr, size, val, ga, glen);
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
		*val = le_value(v, size);
		return 0;
	default:
		break;
	}
	return load_known(r, core, addr, size, val);
}

/* The n (<= 8) bytes at b, little-endian (the usual sizes fold into one load). */
static inline uint64_t le_value64(const uint8_t *b, unsigned n)
{
	uint64_t v = 0;

	switch (n) {
	case 4: return le_value(b, 4);
	case 8: return le_value(b, 4) | (uint64_t)le_value(b + 4, 4) << 32;
	default:
		for (unsigned i = n; i-- > 0;)
			v = v << 8 | b[i];
		return v;
	}
}

/*
 * load_mem for a CFiat recording, the usual outcomes without a byte loop or
 * a copy: a hit on bytes memory knows, or a miss whose head is the core's
 * with the right count, whose value of at most 8 bytes is in the stream and
 * whose bytes memory knows already (they must agree) or not at all. Anything
 * else goes load_mem's way, which says what is wrong in the same words.
 */
static inline __attribute__((always_inline)) int load_cfiat(struct rpl *r, int core, uint32_t addr,
							    unsigned size, uint32_t *val)
{
	uint8_t v[ST_LV_MAX_VALUE];
	uint32_t ga;
	unsigned glen;
	uint64_t have, x;
	int s;

	if (dc_fa_load(r->fa, core, addr, size, &ga, &glen) == DC_FA_HIT) {
		r->d.hits[core]++;
		if (!rpl_mem_peek(r->mem, addr, size, &x))
			return load_known(r, core, addr, size, val);
		*val = (uint32_t)x;
		return 0;
	}
	if (glen > 8 || !r->d.lv_have || r->d.lv_head.core != core ||
	    r->d.lv_head.count != r->d.hits[core] ||
	    st_reader_left(&r->d.lvd.r) < 8 * (uint64_t)glen)
		return load_traced(r, core, addr, size, val, ga, glen);
	/* (with the bits there, a value of 8 bytes or less always decodes) */
	s = st_lv_get_value(&r->d.lvd, v, glen);
	if (s)
		return undecodable(r, r->lv_path, core, r->d.lv_head_at);
	if (lv_taken(r, core, r->d.lv_head_at))
		return -1;
	x = le_value64(v, glen);
	if (rpl_mem_peek(r->mem, ga, glen, &have)) {
		if (have != x)
			return traced_differ(r, core, ga);
	} else if (merge(r, core, ga, v, glen)) {
		return -1;
	}
	if (ga <= addr && (uint64_t)addr + size <= (uint64_t)ga + glen) {
		*val = (uint32_t)(x >> (8 * (addr - ga)));
		if (size < 4)
			*val &= (1u << (8 * size)) - 1;
		return 0;
	}
	return load_known(r, core, addr, size, val);
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
	enum board_region reg = board_map(&r->bm, addr, size, 0);
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
		if (r->fa ? load_cfiat(r, core, addr, size, val)
			  : load_mem(r, core, addr, size, val))
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

	switch (board_map(&r->bm, addr, size, 1)) {
	case BOARD_R_MEM:
		if (!rpl_mem_poke(r->mem, addr, size, val)) {
			le_bytes(b, val, size);
			rpl_mem_write(r->mem, addr, b, size);
		}
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

/* [addr, addr+n) is all in the ROM or all in the SRAM of this recording's board. */
static int mem_valid(const struct rpl *r, uint32_t addr, uint32_t n)
{
	return board_map(&r->bm, addr, n, 0) == BOARD_R_MEM;
}

static int bus_fetch(void *ctx, uint32_t addr, uint16_t *hw)
{
	struct rpl *r = ctx;
	uint8_t b[2];

	if (!mem_valid(r, addr, 2) || rpl_mem_read(r->mem, addr, b, 2, NULL))
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
		if (mem_valid(r, arg, 8) && !rpl_mem_read(r->mem, arg, blk, 8, NULL) &&
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

/* Map a whole stream file of `bits` bits (util/fmap.h). */
static int map_stream(struct fmap *m, const char *path, uint64_t bits)
{
	char what[96];

	snprintf(what, sizeof(what), "the manifest says the stream has %llu bits (%llu bytes)",
		 U(bits), U((bits + 7) / 8));
	return fmap_open(m, path, (bits + 7) / 8, what);
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

/*
 * rpl_open (mf NULL: the manifest and the streams are read from dir's
 * files) and rpl_open_streams (mf, cf and lv given).
 */
static struct rpl *open_recording(const char *dir, const struct st_manifest *mf, const uint8_t *cf,
				  const uint8_t *lv)
{
	static const uint8_t no_bytes[1]; /* a stream of 0 bits given as NULL */
	struct rpl *r;
	struct board_sched_config sc;
	char *mpath;
	struct dc_mc2rt_config mcc;
	int s;

	heap_hugepages_init(); /* before the replay's memory: util/heap.h */
	r = xcalloc(1, sizeof(*r));
	mpath = join(dir, "manifest.ini");

	r->dir = xstrdup(dir);
	r->goal_slot = r->end_position = UINT64_MAX;
	if (mf)
		r->mf = *mf;
	else if (st_manifest_read(mpath, &r->mf))
		goto fail;
	r->ncores = r->mf.ncores;
	r->bm = board_mem_of(r->mf.model);
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
	r->init = rpl_mem_new();
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
		s = isa_cpu_reset(r->cpu[i], r->bm.rom_base);
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
	if (r->mf.lv_on && r->mf.port.kind != ST_PORT_NONE) {
		error("%s: a %s trace with a load-value stream: only control flow is replayed "
		      "from a trace port", dir, st_port_name(r->mf.port.kind));
		goto fail;
	}
	if (r->mf.lv_on) {
		for (int i = 0; i < r->ncores; i++)
			r->bp[i] = r->mf.bp_shared && i ? r->bp[0] : bp_new(&r->mf.bp);
	}
	r->cf_path = join(dir, r->mf.cf_file);
	if (mf)
		r->cf_buf = cf ? cf : no_bytes;
	else if (map_stream(&r->cf_map, r->cf_path, r->mf.cf_bits))
		goto fail;
	else
		r->cf_buf = r->cf_map.p;
	if (r->mf.lv_on) {
		st_cf_decoder_init(&r->d.cfd, &r->mf.cf, r->cf_buf, r->mf.cf_bits, r->cf_path);
	} else {
		/* control flow only: walk the code, no ISS (see replay.h) */
		struct cfw_config cc = { &r->mf, r->cf_buf, r->cf_path, r->dec, &r->bus, NULL, NULL };

		/* a trace port's: OpenCSD's decode is the walk's path (etmpath.h) */
		if (r->mf.port.kind != ST_PORT_NONE) {
			r->etm = rpl_etm_open(&r->mf, r->elf_path, r->cf_buf, r->mf.cf_bits / 8,
					      r->cf_path);
			if (!r->etm)
				goto fail;
			cc.path_next = rpl_etm_next;
			cc.path_ctx = r->etm;
		}
		if (!(r->cfw = cfw_new(&cc)))
			goto fail;
	}
	if (r->mf.lv_on) {
		r->lv_path = join(dir, r->mf.lv_file);
		if (mf)
			r->lv_buf = lv ? lv : no_bytes;
		else if (map_stream(&r->lv_map, r->lv_path, r->mf.lv_bits))
			goto fail;
		else
			r->lv_buf = r->lv_map.p;
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
	r->state_size = rpl_ckpt_state_size(r);
	r->ck = rpl_ckstore_new(r->state_size, r->mem, RPL_DEFAULT_MEMORY);
	rpl_set_interval(r, RPL_DEFAULT_INTERVAL);
	rpl_set_memory(r, RPL_DEFAULT_MEMORY);
	rpl_ckpt_take(r); /* the beginning */
	free(mpath);
	return r;
fail:
	free(mpath);
	rpl_close(r);
	return NULL;
}

struct rpl *rpl_open(const char *dir)
{
	return open_recording(dir, NULL, NULL, NULL);
}

struct rpl *rpl_open_streams(const char *dir, const struct st_manifest *mf, const uint8_t *cf,
			     const uint8_t *lv)
{
	return open_recording(dir, mf, cf, lv);
}

void rpl_close(struct rpl *r)
{
	if (!r)
		return;
	if (r->truth)
		st_truth_close_reader(r->truth);
	rpl_memory_forget(r);
	rpl_ckstore_free(r->ck);
	rpl_tix_free(r->tix);
	cfw_free(r->cfw);
	rpl_etm_free(r->etm);
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
	rpl_mem_free(r->init);
	if (r->elf_loaded)
		isa_elf_release(&r->elf);
	fmap_close(&r->cf_map);
	fmap_close(&r->lv_map);
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

static inline __attribute__((always_inline)) int cf_step(struct rpl *r, int core,
							 const struct isa_step *st, uint64_t cycle)
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

/*
 * The FP registers of core's cpu against the truth record t's (when either
 * has them): NULL if equal, else what differs, into buf.
 */
static const char *fp_differs(struct rpl *r, int core, const struct st_truth_rec *t, char *buf,
			      size_t size)
{
	uint32_t fp[ISA_NFPREGS];
	unsigned n = isa_cpu_get_fp(r->cpu[core], fp);

	if (!n != !t->has_fp) {
		snprintf(buf, size, "the replay's core %s, the truth %s FP registers (a mismatched "
			 "core model)", n ? "has an FPU" : "has no FPU", t->has_fp ? "has" : "has no");
		return buf;
	}
	for (unsigned k = 0; k < n; k++)
		if (fp[k] != t->fp[k]) {
			snprintf(buf, size, "%s = 0x%08x, the truth 0x%08x", isa_fp_name(k), fp[k],
				 t->fp[k]);
			return buf;
		}
	if (n)
		r->vs.fp_states++;
	return NULL;
}

int rpl_verify(struct rpl *r)
{
	struct st_truth_rec rec;
	char *path, msg[160];

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
		if (fp_differs(r, i, &rec, msg, sizeof(msg)))
			return error("verify: core %d at reset: %s", i, msg);
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
	uint32_t regs[ISA_NREGS], diff;
	unsigned flags;
	int n = 0, s;
	char msg[160];

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
	isa_cpu_get_regs(r->cpu[core], regs);
	diff = 0;
	for (int k = 0; k < ISA_NREGS; k++)
		diff |= regs[k] ^ t.regs[k];
	if (diff)
		for (int k = 0; k < ISA_NREGS; k++)
			if (t.regs[k] != regs[k])
				return differ(r, core, "after pc 0x%08x %s = 0x%08x, the truth "
					      "0x%08x", st->pc, reg_names[k], regs[k], t.regs[k]);
	if (fp_differs(r, core, &t, msg, sizeof(msg)))
		return differ(r, core, "after pc 0x%08x %s", st->pc, msg);
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

/* Put t back in front of q: the next truth_core_next of its core gives it again. */
static void tq_unget(struct tqueue *q, const struct tstep *t)
{
	if (q->head) {
		q->v[--q->head] = *t;
		return;
	}
	if (q->n == q->a) {
		q->a = q->a ? 2 * q->a : 1024;
		q->v = xrealloc(q->v, q->a * sizeof(*q->v));
	}
	memmove(q->v + 1, q->v, q->n * sizeof(*q->v));
	q->v[0] = *t;
	q->n++;
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
 * The same exception entry: the same number; for an MTB, which records the
 * handler and not the number, the same vector.
 */
static int same_exception(struct rpl *r, unsigned a, unsigned b)
{
	uint16_t h[4];
	uint32_t va = r->bm.rom_base + 4 * a, vb = r->bm.rom_base + 4 * b;

	if (a == b)
		return 1;
	if (r->mf.port.kind != ST_PORT_MTB)
		return 0;
	return r->bus.fetch(r, va, &h[0]) == ISA_BUS_OK && r->bus.fetch(r, va + 2, &h[1]) == ISA_BUS_OK &&
	       r->bus.fetch(r, vb, &h[2]) == ISA_BUS_OK && r->bus.fetch(r, vb + 2, &h[3]) == ISA_BUS_OK &&
	       h[0] == h[2] && h[1] == h[3];
}

/* Does the truth's step t fit constraint k of sig (etmpath.h)? */
static int gap_fits(struct rpl *r, const struct rpl_gap_sig *sig, int k, const struct tstep *t)
{
	switch (sig->c[k].kind) {
	case 0: return t->type == ST_TRUTH_INSN && t->pc == sig->c[k].pc;
	case 1: return t->type == ST_TRUTH_EXC && same_exception(r, t->exc, sig->c[k].pc);
	default: return t->type == ST_TRUTH_INSN && (t->flags & ST_TRUTH_TAIL);
	}
}

/*
 * A trace port's gap of core: the trace finds the core again at pc. The
 * truth's steps up to there are not compared; where "there" is, is the
 * first step at pc after which the truth fits what the path says next
 * (rpl_etm_gap_sig: up to RPL_GAP_SIG branches and exceptions), so that a
 * gap that ends inside a loop is aligned with the right iteration. The
 * truth's steps read ahead are given back for the walk's next steps.
 */
static int verify_gap(struct rpl *r, int core, uint32_t pc)
{
	struct rpl_gap_sig sig;
	struct tstep *buf = NULL;
	size_t n = 0, a = 0, j = 0;
	uint64_t span;
	int s = 1, found = 0;

	if (rpl_etm_gap_sig(r->etm, core, r->gaps_seen[core]++, &sig))
		return differ(r, core, "the walk has a gap the decoded path does not (a bug)");
	span = sig.n ? sig.c[sig.n - 1].at + 1 : 1;
	for (;; j++) {
		/* the steps from candidate j on, as far as the signature reaches */
		while (s > 0 && n < j + span) {
			if (n == a) {
				a = a ? 2 * a : 1024;
				buf = xrealloc(buf, a * sizeof(*buf));
			}
			s = truth_core_next(r, core, &buf[n], NULL);
			if (s > 0)
				n++;
		}
		if (s < 0) {
			free(buf);
			free(sig.c);
			return r->failed = 1, -1;
		}
		if (j >= n)
			break;
		if (buf[j].type == ST_TRUTH_INSN && buf[j].pc == pc) {
			int k = 0;

			while (k < sig.n && j + sig.c[k].at < n && gap_fits(r, &sig, k, &buf[j + sig.c[k].at]))
				k++;
			if (k == sig.n) {
				found = 1;
				break;
			}
		}
		if (j >= 65536) {
			/* drop what no candidate needs any more */
			memmove(buf, buf + j, (n - j) * sizeof(*buf));
			n -= j;
			r->vs.in_gaps += j;
			j = 0;
		}
	}
	free(sig.c);
	if (!found) {
		free(buf);
		return differ(r, core, "the trace finds core %d again at 0x%08x after a gap, and no "
			      "later step of the truth there goes on as the trace does", core, pc);
	}
	r->vs.in_gaps += j;
	r->vs.gaps++;
	/* the steps from the aligned one on are the walk's next: give them back */
	while (n > j)
		tq_unget(&r->tq[core], &buf[--n]);
	free(buf);
	return 0;
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

	if (cs->gap)
		return verify_gap(r, core, cs->next_pc);
	s = truth_core_next(r, core, &t, NULL);
	if (s < 0)
		return r->failed = 1, -1;
	if (!s)
		return differ(r, core, "the ground truth has no more steps of core %d", core);
	if (cs->exception) {
		if (t.type != ST_TRUTH_EXC || !same_exception(r, t.exc, cs->exc))
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
		/*
		 * A trace port shows no instruction after its last waypoint: the
		 * truth's may go on in straight-line code from the walk's PC
		 * (anything, when the trace lost the core for good).
		 */
		if (r->mf.port.kind != ST_PORT_NONE) {
			uint32_t pc = cfw_pc(r->cfw, c);
			int first = 1;

			/* after a last indirect branch the trace has no target for, anywhere */
			while (s > 0 && (rpl_etm_stats_of(r->etm)->lost_at_end[c] ||
					 (t.type == ST_TRUTH_INSN &&
					  (first == 1   ? t.pc == pc
					   : first == 2 ? 1
							: t.pc > pc && t.pc - pc <= 4)))) {
				pc = t.pc;
				first = first == 1 && rpl_etm_stats_of(r->etm)->end_branch[c] ? 2 : 0;
				r->vs.untraced++;
				s = truth_core_next(r, c, &t, &exit);
			}
			if (s < 0)
				return r->failed = 1, -1;
		}
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
 * rpl_step_one() for a control-flow-only recording: the walk's next step in its
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
		rpl_sum_pc(rpl_open_summary(r), cs.pc);
		r->frontier = r->d.steps + 1;
	}
	cf_only_count(r, &cs);
	if (r->truth && verify_cf(r, &cs))
		return -1;
	if (r->d.position >= r->next_ckpt)
		rpl_ckpt_take(r);
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
		a[k].cacheable = board_map(&r->bm, x->addr, x->size, x->store) == BOARD_R_MEM;
	}
	r->obs(r->obs_ctx, core, st, cycle, a, r->nacc);
}

#define CF_LOG 256 /* steps of a run checked against the truth at a time */

/*
 * The loop `while (position < to) rpl_step_one()` for a control-flow-only
 * recording (rpl_run, rpl_seek, rpl_index), with the same steps, stops,
 * summaries, checkpoints and errors, in runs of the walk: each ends where
 * one of those could happen (a checkpoint's position, the frontier of the
 * summaries, to). With the truth, every step of a run is checked in turn,
 * counted as it is (an error names the step's counts).
 */
int rpl_cf_only_run(struct rpl *r, uint64_t to)
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
			run.sum = rpl_open_summary(r);
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
			rpl_ckpt_take(r);
	}
	return 0;
}

/* A new slot of the time index: forget what was noted in the last one. */
static void tix_forget(struct rpl *r)
{
	memset(r->tix_line, 0xff, sizeof(r->tix_line));
	memset(r->tix_blk, 0xff, sizeof(r->tix_blk));
}

/* Note a data access in the time index, unless it repeats the block the core noted last. */
static inline void note_tix_access(struct rpl *r, const struct acc *x)
{
	uint32_t first = x->addr >> RPL_TIX_DATA_SHIFT;
	uint32_t last = (uint32_t)(((uint64_t)x->addr + x->size - 1) >> RPL_TIX_DATA_SHIFT);

	if (first == last && first == r->tix_blk[r->cur][x->store])
		return;
	rpl_tix_access(r->tix, r->d.position, x->addr, x->size, x->store);
	r->tix_blk[r->cur][x->store] = last;
}

/* The step's load-value messages (timed) against the cycle core i's load retired at. */
static int lv_due_check(struct rpl *r, int i, uint64_t cycle)
{
	for (int k = 0; k < r->nlv_due; k++)
		if (r->lv_due[k] != cycle)
			return desync(r, r->lv_path, i, r->lv_due_at[k], "the message is stamped "
				      "cycle %llu, the load retired at cycle %llu", U(r->lv_due[k]),
				      U(cycle));
	return 0;
}

/*
 * One scheduler step: 0 go on, 1 the end of the recording (no step done
 * then, or the program's exit), -1 error. r->cur, r->last and r->acc tell
 * what the step did (r->last.ev is ISA_EV_SLEEP for a sleep step).
 *
 * step_once is the whole of it; run_fast_with's steps that are not plain
 * are step_fast's, the same body compiled for the block engine (fast): no
 * walk, not the simple engine, core i the pick already, in (if not NULL)
 * the instruction its fast path found at the PC, for isa_cpu_step_decoded,
 * osum (if not NULL) the open summary, looked up since the store last
 * changed, and `checked` 0 when neither a truth nor an observer is there.
 */
static inline __attribute__((always_inline)) int step_body(struct rpl *r, int fast, int i,
							   const struct isa_insn *in,
							   struct rpl_summary *osum, int checked)
{
	struct isa_step *st = &r->last;
	struct isa_cpu *cpu;
	uint64_t cycle;

	if (!fast) {
		if (r->cfw)
			return cf_only_step(r);
		i = board_sched_pick(&r->sched);
	}
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
	if (!fast && r->simple && isa_cpu_sleeping(cpu))
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
	if (in ? isa_cpu_step_decoded(cpu, in, st) : isa_cpu_step(cpu, st))
		return r->failed = 1, -1;
	if (st->ev == ISA_EV_SLEEP)
		return sleep_step(r, i);
	if (r->d.steps < r->frontier)
		osum = NULL;
	else if (!osum)
		osum = rpl_open_summary(r);
	if (osum && st->ev != ISA_EV_EXCEPTION) {
		rpl_sum_pc(osum, st->pc);
		if (st->pc >> RPL_TIX_CODE_SHIFT != r->tix_line[i]) {
			rpl_tix_pc(r->tix, r->d.position, st->pc);
			r->tix_line[i] = st->pc >> RPL_TIX_CODE_SHIFT;
		}
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
	if (r->nlv_due && r->mf.lv.timed && lv_due_check(r, i, cycle))
		return -1;
	if (cf_step(r, i, st, cycle))
		return -1;
	if (checked && r->truth && verify_step(r, i, st, cycle))
		return -1;
	if (checked && r->obs)
		notify(r, i, st, cycle);
	if (osum) {
		for (int a = 0; a < r->nacc; a++) {
			if (!rpl_watchable(r->acc[a].kind))
				continue;
			rpl_sum_access(osum, r->acc[a].addr, r->acc[a].size, r->acc[a].store);
			note_tix_access(r, &r->acc[a]);
		}
		r->frontier = r->d.steps;
		if (r->d.position >= r->tix_next_pos) {
			rpl_tix_done(r->tix, r->d.steps, r->d.position);
			r->tix_next_pos += r->interval;
			tix_forget(r);
		}
	}
	if (r->d.position >= r->next_ckpt)
		rpl_ckpt_take(r);
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

static int step_once(struct rpl *r)
{
	return step_body(r, 0, 0, NULL, NULL, 1);
}

/* run_fast_with's step_body (above); `checked` is a constant in each call. */
static __attribute__((noinline)) int step_fast(struct rpl *r, int i, const struct isa_insn *in,
					       struct rpl_summary *osum, int checked)
{
	if (checked)
		return step_body(r, 1, i, in, osum, 1);
	return step_body(r, 1, i, in, osum, 0);
}

/*
 * One step of the replay: 0, 1 at the end, -1 at an error. After an error the
 * step counters may already count the step that failed, so good_steps keeps
 * the count before it: a reverse run from there starts from the last good step.
 */
int rpl_step_one(struct rpl *r)
{
	uint64_t before = r->d.steps;
	int k = step_once(r);

	if (k < 0)
		r->good_steps = before;
	return k;
}

/*
 * What a block engine's step of core i at pc (plain, or branch_fast's)
 * notes past the frontier, before its counters move: its PC in the open
 * summary and the time index, the frontier, the time index's slot done.
 */
static inline __attribute__((always_inline)) void note_fast(struct rpl *r, int i, uint32_t pc)
{
	r->cur = i;
	r->nacc = 0;
	if (r->d.steps < r->frontier)
		return;
	if (!r->run_osum)
		r->run_osum = rpl_open_summary(r);
	rpl_sum_pc(r->run_osum, pc);
	if (pc >> RPL_TIX_CODE_SHIFT != r->tix_line[i]) {
		rpl_tix_pc(r->tix, r->d.position, pc);
		r->tix_line[i] = pc >> RPL_TIX_CODE_SHIFT;
	}
	r->frontier = r->d.steps + 1;
	if (r->d.position + 1 >= r->tix_next_pos) {
		rpl_tix_done(r->tix, r->d.steps + 1, r->d.position + 1);
		r->tix_next_pos += r->interval;
		tix_forget(r);
	}
}

/* A block engine's step of core i that cost `cost` cycles, retired: its clock, SysTick, the counters. */
static inline __attribute__((always_inline)) void retire_fast(struct rpl *r, int i, uint64_t cost)
{
	struct board_sched *sc = &r->sched;

	sc->cycles[i] += cost;
	board_sched_moved(sc, i);
	isa_cpu_tick_inline(r->cpu[i], cost);
	r->d.steps++;
	r->d.insns[i]++;
	r->d.position++;
	r->d.csteps[i]++;
}

/*
 * run_fast_with's step of a direct branch (isa_insn.dbranch) outside an
 * IT block, the position below its limit and the core within its trace:
 * what step_fast does for it (no access, no
 * fault, no exception, not the end) without the general step: the branch,
 * note_fast, its cost (1, the branch penalty if taken, the jitter), the
 * counters, the predictor and the stream's messages (cf_step), and if
 * checked (run_fast_with's st) the truth and the observer. *bs: the step
 * as step_fast would have recorded it. 0, or -1 at an error.
 */
static inline __attribute__((always_inline)) int branch_fast(struct rpl *r, int i,
							     const struct isa_insn *in,
							     struct isa_step *bs, int checked)
{
	struct board_sched *sc = &r->sched;

	if (isa_cpu_exec_dbranch(r->cpu[i], in, bs))
		return -1;
	note_fast(r, i, bs->pc);
	retire_fast(r, i, 1 + (bs->taken ? sc->cfg.branch_penalty : 0) + board_sched_jitter(sc));
	if (cf_step(r, i, bs, sc->cycles[i]))
		return -1;
	if (checked && r->truth && verify_step(r, i, bs, sc->cycles[i]))
		return -1;
	if (checked && r->obs)
		notify(r, i, bs, sc->cycles[i]);
	return 0;
}

/*
 * run_fast_with's step of a simple load (isa_cpu_sload_at: size bytes at
 * addr, aligned) from the board's memory (not in reset), the position
 * below its limit and the core within its trace: what step_fast does for
 * it, in its order, without the general step: the timing cache, the value
 * (load_cfiat or load_mem, as bus_read), Rt, the summary's PC and the time
 * index, its cost (1, the misses, the jitter), the counters, the
 * load-value message's cycle, the control-flow counters, if checked
 * (run_fast_with's st) the truth and the observer, the summary's access,
 * the frontier and the time index's slot. *bs: the step as step_fast
 * would have recorded it. 0, or -1 at an error.
 */
static inline __attribute__((always_inline)) int load_fast(struct rpl *r, int i,
							   const struct isa_insn *in, uint32_t addr,
							   unsigned size, struct isa_step *bs, int checked)
{
	struct board_sched *sc = &r->sched;
	struct isa_cpu *cpu = r->cpu[i];
	struct rpl_summary *osum = NULL;
	uint32_t v;
	uint64_t cycle;

	r->nacc = 0;
	r->cur = i;
	r->nlv_due = 0;
	board_sched_begin(sc);
	board_sched_access(sc, i, addr, size, ISA_ACC_LOAD, 1);
	if (r->fa ? load_cfiat(r, i, addr, size, &v) : load_mem(r, i, addr, size, &v))
		return -1; /* (a desync, reported: r->failed) */
	note_access(r, addr, size, v, 0, ISA_ACC_LOAD);
	isa_cpu_sload_done(cpu, in, v, bs);
	if (r->d.steps >= r->frontier) {
		if (!r->run_osum)
			r->run_osum = rpl_open_summary(r);
		osum = r->run_osum;
		rpl_sum_pc(osum, bs->pc);
		if (bs->pc >> RPL_TIX_CODE_SHIFT != r->tix_line[i]) {
			rpl_tix_pc(r->tix, r->d.position, bs->pc);
			r->tix_line[i] = bs->pc >> RPL_TIX_CODE_SHIFT;
		}
	}
	retire_fast(r, i, 1 + board_sched_jitter(sc) + (uint64_t)sc->misses * sc->cfg.miss_penalty);
	cycle = sc->cycles[i];
	if (r->nlv_due && r->mf.lv.timed && lv_due_check(r, i, cycle))
		return -1;
	r->d.icnt[i]++; /* cf_step: an instruction that is no branch */
	r->d.sl[i]++;
	if (checked && r->truth && verify_step(r, i, bs, cycle))
		return -1;
	if (checked && r->obs)
		notify(r, i, bs, cycle);
	if (osum) {
		rpl_sum_access(osum, addr, size, 0);
		note_tix_access(r, &r->acc[0]);
		r->frontier = r->d.steps;
		if (r->d.position >= r->tix_next_pos) {
			rpl_tix_done(r->tix, r->d.steps, r->d.position);
			r->tix_next_pos += r->interval;
			tix_forget(r);
		}
	}
	return 0;
}

/*
 * rpl_run's loop (not under RAPTOR_SIMPLE_ENGINE): the picked core's plain
 * instructions (isa_cpu_step_plain) take the block engine's path, with
 * exactly the bookkeeping step_once gives them (a plain step accesses no
 * data, takes no branch and sends no message: its cost is 1 plus the
 * jitter, the control-flow counters count it, the summary notes its PC,
 * the truth and the observer see it); so do a direct branch outside an
 * IT block (branch_fast) and a simple aligned load from memory
 * (load_fast), with their own bookkeeping; every other step is
 * step_once's (step_fast).
 */
static inline __attribute__((always_inline)) int run_fast_with(struct rpl *r, uint64_t to,
								 struct isa_step *st)
{
	struct board_sched *sc = &r->sched;
	const struct isa_insn *in;
	struct isa_step bs;
	uint64_t lim, before;
	uint32_t pc = 0, la = 0;
	unsigned ls = 0;
	/* plain: the last step was plain (1), branch_fast's or load_fast's (2); ld: a load's */
	int i, k, plain = 0, p, ld;

	/*
	 * What only step_fast and rpl_ckpt_take change, read again after them:
	 * lim, the position the plain path stops before (the end, at a core's
	 * end, the next checkpoint); and r->run_osum after a checkpoint
	 * (rpl_ckpt_take moves next_ckpt on, always). The rest is read from r
	 * where it is used: every register this loop holds is one the block
	 * engine's inlined step has not.
	 */
#define RUN_FAST_LIM()                                                                             \
	do {                                                                                       \
		uint64_t end = UINT64_MAX;                                                         \
                                                                                                   \
		if (r->d.have_end) {                                                               \
			end = 0;                                                                   \
			for (int c = 0; c < r->ncores; c++)                                        \
				end += r->d.budget[c];                                             \
		}                                                                                  \
		lim = r->d.ended ? 0 : end < r->next_ckpt ? end : r->next_ckpt;                    \
	} while (0)
	r->run_osum = NULL;
	RUN_FAST_LIM();
	while (r->d.position < to) {
		i = board_sched_pick(sc);
		/* (past the end, and at a core's end, step_fast reports what is wrong) */
		p = 0;
		in = NULL;
		if (r->d.position < lim && (!r->d.have_end || r->d.insns[i] < r->d.budget[i]))
			p = isa_cpu_step_plain_or(r->cpu[i], &pc, st, &in);
		if (p < 0) {
			r->failed = 1;
			r->good_steps = r->d.steps;
			return -1;
		}
		ld = 0;
		if (!p && r->d.position < lim &&
		    (!r->d.have_end || r->d.insns[i] < r->d.budget[i]) &&
		    (isa_cpu_dbranch_at(r->cpu[i], in) ||
		     (ld = isa_cpu_sload_at(r->cpu[i], in, &la, &ls) && !r->in_reset &&
			   board_map(&r->bm, la, ls, 0) == BOARD_R_MEM))) {
			before = r->d.steps;
			k = ld ? load_fast(r, i, in, la, ls, &bs, st != NULL)
			       : branch_fast(r, i, in, &bs, st != NULL);
			if (st)
				*st = bs;
			if (k) {
				r->failed = 1;
				r->good_steps = before;
				return -1;
			}
			plain = 2;
			if (r->d.position >= r->next_ckpt) {
				rpl_ckpt_take(r);
				r->run_osum = NULL;
				RUN_FAST_LIM();
			}
			continue;
		}
		if (!p) {
			uint64_t ckpt = r->next_ckpt;

			plain = 0;
			before = r->d.steps;
			/* (run_osum: the open summary, or NULL not looked up) */
			k = step_fast(r, i, in, r->run_osum, st != NULL);
			if (k < 0)
				r->good_steps = before;
			if (k)
				return k;
			/* (lim moves at a checkpoint, at the end messages, at the end) */
			if (r->next_ckpt != ckpt || r->d.have_end || r->d.ended) {
				if (r->next_ckpt != ckpt)
					r->run_osum = NULL;
				RUN_FAST_LIM();
			}
			continue;
		}
		note_fast(r, i, pc);
		board_sched_retire_plain(sc, i);
		r->d.steps++;
		r->d.insns[i]++;
		r->d.position++;
		r->d.csteps[i]++;
		r->d.icnt[i]++;
		r->d.sl[i]++;
		plain = 1;
		/* (st NULL: neither, as run_fast chose, and nothing in the run sets them) */
		if (st && r->truth && verify_step(r, i, st, sc->cycles[i])) {
			r->good_steps = r->d.steps - 1;
			return -1;
		}
		if (st && r->obs)
			notify(r, i, st, sc->cycles[i]);
		if (r->d.position >= r->next_ckpt) {
			rpl_ckpt_take(r);
			r->run_osum = NULL;
			RUN_FAST_LIM();
		}
	}
#undef RUN_FAST_LIM
	if (plain == 2) {
		r->last = bs; /* branch_fast's or load_fast's */
	} else if (plain && !st) {
		/* r->last, filled only under the truth or an observer: the step's PCs */
		memset(&r->last, 0, sizeof(r->last));
		r->last.ev = ISA_EV_INSN;
		r->last.pc = pc;
		r->last.next_pc = isa_cpu_get(r->cpu[r->cur], ISA_R_PC);
		r->last.size = (uint8_t)(r->last.next_pc - pc);
	}
	return 0;
}

/* run_fast_with, compiled twice: st NULL (no truth, no observer) and not */
static int run_fast(struct rpl *r, uint64_t to)
{
	if (r->truth || r->obs)
		return run_fast_with(r, to, &r->last);
	return run_fast_with(r, to, NULL);
}

int rpl_run(struct rpl *r, uint64_t to)
{
	int s;

	if (r->failed)
		return error("%s: the replay stopped at an earlier error", r->dir);
	if (r->cfw)
		return rpl_cf_only_run(r, to);
	if (!r->simple)
		return run_fast(r, to);
	while (r->d.position < to) {
		s = rpl_step_one(r);
		if (s)
			return s;
	}
	return 0;
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

void rpl_tix_restart(struct rpl *r)
{
	rpl_tix_free(r->tix);
	r->tix = r->cfw ? NULL : rpl_tix_new(r->interval);
	r->tix_fed = r->tix != NULL;
	r->tix_next_pos = r->interval;
	tix_forget(r);
}

const struct rpl_tindex *rpl_time_index(struct rpl *r)
{
	if (r->tix && r->tix_fed) /* its own count lags: say what it covers */
		rpl_tix_set_covered(r->tix, r->frontier);
	return r->tix;
}

void rpl_set_time_index(struct rpl *r, struct rpl_tindex *t)
{
	if (!r->tix || r->tix_fed) {
		rpl_tix_free(t);
		return;
	}
	rpl_tix_free(r->tix);
	r->tix = t;
}

uint64_t rpl_time_index_bytes(const struct rpl *r, uint64_t *covered)
{
	if (covered)
		*covered = r->tix ? rpl_tix_cover(r) : 0;
	return r->tix ? rpl_tix_bytes(r->tix) : 0;
}

struct board_mem rpl_board_mem(const struct rpl *r)
{
	return r->bm;
}

int rpl_read_mem(struct rpl *r, uint32_t addr, uint8_t *buf, uint32_t n, uint32_t *unknown)
{
	if (!mem_valid(r, addr, n))
		return -1;
	if (r->cfw) {
		/* no value is traced, and the board lets programs write ROM too */
		memset(buf, 0, n);
		if (unknown)
			*unknown = addr;
		return 1;
	}
	return rpl_mem_read_under(r->mem, r->init, addr, buf, n, unknown) ? 1 : 0;
}

struct rpl_mem *rpl_initial_image(struct rpl *r)
{
	return r->init;
}

void rpl_set_initial_image(struct rpl *r, struct rpl_mem *init)
{
	rpl_mem_free(r->init);
	r->init = init;
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

const struct rpl_etm_stats *rpl_port_stats(const struct rpl *r)
{
	return r->etm ? rpl_etm_stats_of(r->etm) : NULL;
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

#include "record/recorder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "caches/mc2rt.h"
#include "record/cftm.h"
#include "record/lvtm.h"
#include "record/porttm.h"
#include "record/profile.h"
#include "replay/replay.h"
#include "streams/manifest.h"
#include "streams/truth.h"

#define PROGRESS_EVERY (1u << 20) /* instructions between progress lines */
/*
 * Snapshots (see snapshot()) fall on multiples of SNAPSHOT_EVERY
 * instructions, at the first of them SNAPSHOT_GAP after the previous one:
 * each costs an fsync, a few percent of a fast run's time if taken every
 * 2^20 instructions (23 ms at 45 MIPS).
 */
#define SNAPSHOT_EVERY (1u << 20)
#define SNAPSHOT_GAP 0.1 /* s */
#define STEP_SLICE (1u << 16)	  /* instructions between two looks at Ctrl-C */

/* What a recording directory may hold: ours, and what a killed recorder leaves. */
static const char *const rec_files[] = {
	"manifest.ini", "program.elf", "cf.bin", "lv.bin", "truth.gz", "stats.ini",
	"timeline.csv", "manifest.ini.tmp", "manifest.ini.next", "manifest.ini.next.tmp",
};

static volatile sig_atomic_t interrupted;

void rec_interrupt(void)
{
	interrupted = 1;
}

void rec_options_init(struct rec_options *o)
{
	memset(o, 0, sizeof(*o));
	board_config_init(&o->board);
	if (bp_config_parse("large", &o->bp))
		die("built-in predictor configuration 'large' does not parse");
	dc_fa_config_init(&o->cache);
	o->cf_on = o->lv_on = 1;
	o->port.sync_period = 4096;
	for (int c = 0; c < ST_CF_MAX_CORES; c++)
		o->port.trace_id[c] = 0x10 + c;
	o->cf_enc = ST_CF_TRE;
	o->lv_enc = ST_LV_CFIAT;
	o->timed = 1;
	o->cnt = ST_VLC_TRE_BCNT;
	o->ta = ST_VLC_TRE_DIFFTA;
	o->cc = ST_VLC_TRE_DIFFCC;
	o->icnt = ST_VLC_TRE_ICNT;
	o->fah = ST_VLC_FAHCNT;
	o->lvcc = ST_VLC_TRE_DIFFCC;
}

int rec_chunks_parse(const char *s, struct rec_options *o)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "cnt", offsetof(struct rec_options, cnt) },
		{ "ta", offsetof(struct rec_options, ta) },
		{ "cc", offsetof(struct rec_options, cc) },
		{ "icnt", offsetof(struct rec_options, icnt) },
		{ "fah", offsetof(struct rec_options, fah) },
		{ "lvcc", offsetof(struct rec_options, lvcc) },
	};
	struct rec_options tmp = *o;
	char *copy = xstrdup(s), *item, *save = NULL;
	int ret = 0;

	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		unsigned a, b;
		char key[8];
		int used = 0;
		size_t k;

		if (sscanf(item, "%7[a-z]=%u/%u%n", key, &a, &b, &used) != 3 ||
		    item[used]) {
			ret = error("--chunks '%s': '%s' is not KEY=C0/C1", s, item);
			break;
		}
		for (k = 0; k < ARRAY_SIZE(keys); k++)
			if (!strcmp(keys[k].key, key))
				break;
		if (k == ARRAY_SIZE(keys)) {
			ret = error("--chunks '%s': unknown field '%s' (cnt, ta, cc, icnt, fah, "
				    "lvcc)", s, key);
			break;
		}
		if (st_vlc_check(ST_VLC(a, b))) {
			ret = error("--chunks '%s': '%s': chunk sizes must be 1 to 64", s, item);
			break;
		}
		*(struct st_vlc *)((char *)&tmp + keys[k].off) = ST_VLC(a, b);
	}
	free(copy);
	if (!ret)
		*o = tmp;
	return ret;
}

/* ---- the run ------------------------------------------------------------- */

struct rec {
	const struct rec_options *o;
	struct board *b;
	struct rec_cf *cf;
	struct rec_lv *lv;	   /* NULL: no load-value machinery (--lv-enc none, fast) */
	unsigned cf_mask, lv_mask; /* the encoders run (cftm.h, lvtm.h) */
	struct st_truth_writer *truth;
	struct rec_profile *prof;
	struct rec_port *port; /* a real trace port instead of mcfTRaptor (porttm.h) */
	int port_failed;
	struct st_manifest mf;
	FILE *cf_file, *lv_file;
	char *path_cf, *path_lv, *path_manifest, *path_next;
	int ncores;
	int last_core; /* of the latest step: the one that exited, at the end */
	uint32_t regs[ISA_NREGS];
	uint32_t fp[ISA_NFPREGS];
	uint64_t cycles[BOARD_MAX_CORES]; /* every core's at the end, for stats.ini */
};

static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static void read_regs(struct board *b, int core, uint32_t *regs)
{
	isa_cpu_get_regs(board_cpu(b, core), regs);
}

static int peek_board(void *ctx, uint32_t addr, uint8_t *buf, unsigned n)
{
	return board_peek(ctx, addr, buf, n);
}

static void on_access(void *ctx, int core, const struct board_access *a)
{
	struct rec *r = ctx;

	if (r->lv)
		rec_lv_access(r->lv, core, a);
	if (r->truth)
		st_truth_access(r->truth, core, a->kind, a->size, a->store, a->addr, a->val);
}

/*
 * A core's FP registers into the truth, right before its reset, instruction
 * or exception record ('F' when they changed); nothing without an FPU.
 */
static void truth_fp(struct rec *r, int core)
{
	if (isa_cpu_get_fp(board_cpu(r->b, core), r->fp))
		st_truth_fp(r->truth, core, r->fp);
}

/* The ground truth of a step (out of line: on_step's common case stays lean). */
static __attribute__((noinline)) void truth_step(struct rec *r, int core, const struct isa_step *st,
						 uint64_t cycle)
{
	unsigned flags;

	switch (st->ev) {
	case ISA_EV_INSN:
	case ISA_EV_STOP:
		flags = (st->faulted ? ST_TRUTH_FAULTED : 0) |
			(st->exc_return ? ST_TRUTH_EXC_RETURN : 0) |
			(st->exc_return && st->exc ? ST_TRUTH_TAIL : 0);
		read_regs(r->b, core, r->regs);
		truth_fp(r, core);
		st_truth_insn(r->truth, core, flags, st->pc, cycle, r->regs);
		break;
	case ISA_EV_EXCEPTION:
		read_regs(r->b, core, r->regs);
		truth_fp(r, core);
		st_truth_exc(r->truth, core, st->exc, cycle, r->regs);
		break;
	case ISA_EV_SLEEP:
		break;
	}
}

/* The encoders' part of every step; the board's on_step itself without the truth and a trace port. */
static void on_step_encoders(void *ctx, int core, const struct isa_step *st, uint64_t cycle)
{
	struct rec *r = ctx;

	r->last_core = core;
	rec_cf_step(r->cf, core, st, cycle);
	if (r->lv)
		rec_lv_step(r->lv, core, cycle);
}

static void on_step(void *ctx, int core, const struct isa_step *st, uint64_t cycle)
{
	struct rec *r = ctx;

	if (r->port) {
		const struct isa_cpu *cpu = board_cpu(r->b, core);

		/* an error sticks: the run stops after this step (rec_run) */
		if (rec_port_step(r->port, core, st, isa_cpu_get(cpu, ISA_R_PC),
				  isa_cpu_get(cpu, ISA_R_LR), cycle))
			r->port_failed = 1;
	}
	on_step_encoders(ctx, core, st, cycle);
	if (r->truth)
		truth_step(r, core, st, cycle);
}

/* n plain steps of core (only without the truth and a trace port: see rec_run). */
static void on_plain(void *ctx, int core, uint64_t n)
{
	struct rec *r = ctx;

	r->last_core = core;
	rec_cf_plain(r->cf, core, n);
}

/* Make dir, or check that it may be (re)used: 0 / -1. */
static int prepare_dir(const char *dir, int force)
{
	struct dirent *de;
	DIR *d;

	if (!mkdir(dir, 0777))
		return 0;
	if (errno != EEXIST)
		return error("cannot create recording directory '%s': %m", dir);
	d = opendir(dir);
	if (!d)
		return error("'%s' exists and is not a readable directory: %m", dir);
	while ((de = readdir(d))) {
		size_t k;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		for (k = 0; k < ARRAY_SIZE(rec_files); k++)
			if (!strcmp(de->d_name, rec_files[k]))
				break;
		if (k == ARRAY_SIZE(rec_files)) {
			/* the message first: closedir() frees de */
			int ret = error("'%s' exists and holds '%s', which is not part of a "
					"recording; choose another directory", dir, de->d_name);

			closedir(d);
			return ret;
		}
		if (!force) {
			closedir(d);
			return error("'%s' already holds a recording; --force replaces it", dir);
		}
	}
	closedir(d);
	for (size_t k = 0; k < ARRAY_SIZE(rec_files); k++) {
		char *p = path_join(dir, rec_files[k]);

		if (unlink(p) && errno != ENOENT) {
			error("cannot remove '%s': %m", p);
			free(p);
			return -1;
		}
		free(p);
	}
	return 0;
}

static void fill_manifest(struct rec *r)
{
	const struct rec_options *o = r->o;
	struct st_manifest *m = &r->mf;

	st_manifest_init(m);
	snprintf(m->tool, sizeof(m->tool), "raptor %s", RAPTOR_VERSION);
	snprintf(m->elf, sizeof(m->elf), "program.elf");
	memcpy(m->sha256, board_elf(r->b)->sha256_hex, sizeof(m->sha256));
	m->model = o->board.model;
	m->ncores = r->ncores;
	m->seed = o->board.seed;
	m->jitter = o->board.jitter;
	m->branch_penalty = o->board.branch_penalty;
	m->miss_penalty = o->board.miss_penalty;
	m->exc_penalty = o->board.exc_penalty;
	m->timing_cache = (struct dc_config){ BOARD_TIMING_CACHE_SIZE, BOARD_TIMING_CACHE_ASSOC,
					      BOARD_TIMING_CACHE_LINE };
	m->cf_on = o->cf_on || o->port.kind != ST_PORT_NONE;
	m->port = o->port;
	memset(m->port.bytes, 0, sizeof(m->port.bytes));
	st_cf_format_init(&m->cf, o->cf_enc, r->ncores, o->timed);
	if (o->cf_enc == ST_CF_TRE || o->cf_enc == ST_CF_TRA) {
		m->cf.cnt = o->cnt;
		m->cf.ta = o->ta;
		m->cf.cc = o->cc;
		m->cf.icnt = o->icnt;
	}
	m->bp = o->bp;
	m->bp_shared = o->bp_shared;
	snprintf(m->cf_file, sizeof(m->cf_file), "cf.bin");
	m->lv_on = o->lv_on;
	st_lv_format_init(&m->lv, o->lv_enc, r->ncores, o->timed);
	if (o->lv_enc == ST_LV_CFIAT || o->lv_enc == ST_LV_CFIATA) {
		m->lv.cnt = o->fah;
		m->lv.cc = o->lvcc;
	}
	m->cache = o->cache;
	m->cache.ncores = r->ncores;
	snprintf(m->lv_file, sizeof(m->lv_file), "lv.bin");
	for (int i = 0; i < r->ncores; i++)
		read_regs(r->b, i, m->regs[i]);
	m->has_truth = o->truth;
	snprintf(m->truth_file, sizeof(m->truth_file), "truth.gz");
}

/* ---- stats.ini and the summary -------------------------------------------- */

static const char *cf_section(int e)
{
	static const char *const names[REC_CF_NENC] = { "nxb", "tnxb", "trb", "ttrb",
							 "tre", "ttre", "tra", "ttra" };
	return names[e];
}

static const char *lv_section(int e)
{
	static const char *const names[REC_LV_NENC] = { "nxlv",	"tnxlv",  "cfiat",  "tcfiat",
							 "mc2rt", "tmc2rt", "cfiata", "tcfiata" };
	return names[e];
}

static uint64_t total_insns(const struct rec *r)
{
	uint64_t n = 0;

	for (int i = 0; i < r->ncores; i++)
		n += rec_cf_core(r->cf, i)->insns;
	return n;
}

static uint64_t total_cycles(const struct rec *r)
{
	uint64_t c = 0;

	for (int i = 0; i < r->ncores; i++)
		if (r->cycles[i] > c)
			c = r->cycles[i];
	return c;
}

/* The profile streams that ran: cf encoders 0..7, lv encoders 8..15. */
static uint32_t prof_streams(const struct rec *r)
{
	return r->cf_mask | (r->lv ? r->lv_mask : 0) << REC_PROF_LV_FIRST;
}

#define U(x) ((unsigned long long)(x))

/* The histograms and the timeline of profile.h: stats.ini sections and timeline.csv. */
static int write_profile(const struct rec *r, FILE *f, const char *dir)
{
	const struct rec_options *o = r->o;
	const struct st_vlc ch[REC_PF_NFIELDS] = { o->cnt, o->ta, o->cc, o->icnt, o->fah, o->lvcc };
	char buf[REC_PF_NFIELDS][24];
	const char *chunks[REC_PF_NFIELDS], *names[REC_PROF_STREAMS];
	char *path;
	int ret;

	for (int k = 0; k < REC_PF_NFIELDS; k++) {
		snprintf(buf[k], sizeof(buf[k]), "%u,%u", ch[k].c0, ch[k].c1);
		chunks[k] = buf[k];
	}
	for (int e = 0; e < REC_CF_NENC; e++)
		names[e] = cf_section(e);
	for (int e = 0; e < REC_LV_NENC; e++)
		names[REC_PROF_LV_FIRST + e] = lv_section(e);
	rec_prof_write_stats(r->prof, f, chunks, total_cycles(r), prof_streams(r));
	path = path_join(dir, "timeline.csv");
	ret = rec_prof_write_timeline(r->prof, path, names, total_cycles(r), prof_streams(r));
	free(path);
	return ret;
}

/*
 * stats.ini (and timeline.csv) into dir, of the encoders that ran: all of
 * them (encodings = all) or the recorded ones (encodings = recorded, the
 * fast way: `raptor stat` computes the others by replaying the recording,
 * rec_restat; the chunk sizes go in [run] chunks for that).
 */
static int write_stats(const struct rec *r, const char *dir, int exited, int status)
{
	const struct rec_options *o = r->o;
	char *path = path_join(dir, "stats.ini");
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f) {
		ret = error("cannot create '%s': %m", path);
		free(path);
		return ret;
	}
	if (r->cf_mask == REC_CF_ALL && r->lv_mask == REC_LV_ALL && r->lv)
		fprintf(f, "; raptor record statistics: every encoding's size from the same "
			   "run.\n");
	else
		fprintf(f, "; raptor record statistics: the recorded encodings' sizes; `raptor "
			   "stat`\n; computes the others by replaying the recording.\n");
	fprintf(f, "; Not read by the debugger. Keys: docs/FORMAT.md \"stats.ini\".\n");
	fprintf(f, "[run]\ncores = %d\ninstructions = %llu\ncycles = %llu\nexited = %d\n"
		   "status = %d\n",
		r->ncores, U(total_insns(r)), U(total_cycles(r)), exited, status);
	/* all: no key, as before the fast way existed */
	if (!(r->cf_mask == REC_CF_ALL && r->lv_mask == REC_LV_ALL && r->lv))
		fprintf(f,
			"encodings = recorded\nchunks = cnt=%u/%u,ta=%u/%u,cc=%u/%u,"
			"icnt=%u/%u,fah=%u/%u,lvcc=%u/%u\n",
			o->cnt.c0, o->cnt.c1, o->ta.c0, o->ta.c1, o->cc.c0, o->cc.c1, o->icnt.c0,
			o->icnt.c1, o->fah.c0, o->fah.c1, o->lvcc.c0, o->lvcc.c1);
	for (int i = 0; i < r->ncores; i++) {
		const struct rec_cf_core_stats *c = rec_cf_core(r->cf, i);

		fprintf(f, "\n[core%d]\ninstructions = %llu\ncycles = %llu\n", i, U(c->insns),
			U(r->cycles[i]));
		fprintf(f, "cond_direct = %llu\ndirect = %llu\ncalls = %llu\nreturns = %llu\n"
			   "ind_calls = %llu\nind_jumps = %llu\ncond_indirect = %llu\n"
			   "exceptions = %llu\ntail_chains = %llu\noutcome_misses = %llu\n"
			   "target_misses = %llu\n",
			U(c->cond_direct), U(c->direct), U(c->calls), U(c->returns),
			U(c->ind_calls), U(c->ind_jumps), U(c->cond_indirect), U(c->exceptions),
			U(c->tail_chains), U(c->outcome_misses), U(c->target_misses));
		if (r->lv) {
			const struct rec_lv_core_stats *l = rec_lv_core(r->lv, i);
			struct dc_fa_stats fs;
			struct dc_mc2rt_stats ms;

			fprintf(f, "loads = %llu\nstores = %llu\nuncached_loads = %llu\n",
				U(l->loads), U(l->stores), U(l->uncached_loads));
			/* the cache models' counters when they ran (in the keys' old order) */
			if (rec_lv_fa(r->lv))
				fprintf(f, "cfiat_msgs = %llu\n", U(l->cfiat_msgs));
			if (rec_lv_mc2rt(r->lv))
				fprintf(f, "mc2rt_msgs = %llu\n", U(l->mc2rt_msgs));
			if (rec_lv_fa(r->lv)) {
				dc_fa_stats(rec_lv_fa(r->lv), i, &fs);
				fprintf(f,
					"fa_load_hits = %llu\nfa_misses = %llu\n"
					"line_misses = %llu\ninvalidations = %llu\n",
					U(fs.load_hits), U(fs.fa_misses), U(fs.line_misses),
					U(fs.invalidations));
			}
			if (rec_lv_mc2rt(r->lv)) {
				dc_mc2rt_stats(rec_lv_mc2rt(r->lv), i, &ms);
				fprintf(f,
					"mc2rt_trace_hits = %llu\nmc2rt_trace_misses = %llu\n"
					"mc2rt_peer_supplied = %llu\n",
					U(ms.trace_hits), U(ms.trace_misses), U(ms.peer_supplied));
			}
		}
	}
	for (int e = 0; e < REC_CF_NENC; e++) {
		const struct st_cf_encoder *enc = rec_cf_encoder(r->cf, e);
		const struct st_cf_fields *fl;

		if (!enc)
			continue;
		fl = &enc->fields;
		fprintf(f, "\n[cf.%s]\nbits = %llu\nmsgs = %llu\nbranch_msgs = %llu\n"
			   "target_msgs = %llu\nexc_msgs = %llu\nend_msgs = %llu\n"
			   "bits_cc = %llu\nbits_ti = %llu\nbits_cnt = %llu\nbits_tnt = %llu\n"
			   "bits_ta = %llu\nbits_icnt = %llu\nbits_exc = %llu\n",
			cf_section(e), U(st_cf_fields_total(fl)), U(fl->msgs), U(fl->branch_msgs),
			U(fl->target_msgs), U(fl->exc_msgs), U(fl->end_msgs), U(fl->cc),
			U(fl->ti), U(fl->cnt), U(fl->tnt), U(fl->ta), U(fl->icnt), U(fl->exc));
	}
	for (int e = 0; r->lv && e < REC_LV_NENC; e++) {
		const struct st_lv_fields *fl;

		if (!rec_lv_encoder(r->lv, e))
			continue;
		fl = &rec_lv_encoder(r->lv, e)->fields;
		fprintf(f, "\n[lv.%s]\nbits = %llu\nmsgs = %llu\nbits_cc = %llu\nbits_ti = %llu\n"
			   "bits_cnt = %llu\nbits_value = %llu\n",
			lv_section(e), U(st_lv_fields_total(fl)), U(fl->msgs), U(fl->cc),
			U(fl->ti), U(fl->cnt), U(fl->value));
		if (r->lv_mask == REC_LV_ALL &&
		    (e == rec_lv_index(ST_LV_NXLV, 0) || e == rec_lv_index(ST_LV_NXLV, 1)))
			fprintf(f, "gzip1_bits = %llu\n",
				U(8 * rec_lv_nxlv_gz_bytes(r->lv, e & 1)));
	}
	if (r->prof)
		ret = write_profile(r, f, dir);
	if (fclose(f) && !ret)
		ret = error("error writing '%s': %m", path);
	free(path);
	return ret;
}

static void summary(const struct rec *r, int exited, int status)
{
	uint64_t insns = total_insns(r), cycles = total_cycles(r);
	double bpi, bpc;
	uint64_t base;

	if (exited)
		fprintf(stderr, "raptor record: %s: the program exited with status %d\n",
			r->o->dir, status);
	else
		fprintf(stderr, "raptor record: %s: a partial recording (the program did not "
				"exit)\n", r->o->dir);
	fprintf(stderr, "  %d cores, %llu instructions, %llu cycles\n", r->ncores, U(insns),
		U(cycles));
	fprintf(stderr, "  core  instructions       cycles    IPC   cf misses   exceptions\n");
	for (int i = 0; i < r->ncores; i++) {
		const struct rec_cf_core_stats *c = rec_cf_core(r->cf, i);
		uint64_t cyc = r->cycles[i];

		fprintf(stderr, "  %4d  %12llu %12llu  %5.3f  %10llu  %11llu\n", i,
			U(c->insns), U(cyc), cyc ? (double)c->insns / cyc : 0.0,
			U(c->outcome_misses + c->target_misses), U(c->exceptions));
	}
	fprintf(stderr, "  stream       bits          bpi      bpc   vs baseline%s\n",
		"");
	for (int t = 0; t < 2; t++) {
		const struct st_cf_encoder *b = rec_cf_encoder(r->cf, rec_cf_index(ST_CF_NXB, t));

		base = b ? st_cf_fields_total(&b->fields) : 0;
		for (int e = ST_CF_NXB; e <= ST_CF_TRA; e++) {
			int k = rec_cf_index(e, t);
			uint64_t bits;
			char ratio[16] = "       -";

			if (!rec_cf_encoder(r->cf, k))
				continue;
			bits = st_cf_fields_total(&rec_cf_encoder(r->cf, k)->fields);
			bpi = insns ? (double)bits / insns : 0;
			bpc = cycles ? (double)bits / cycles : 0;
			if (b)
				snprintf(ratio, sizeof(ratio), "%7.2fx",
					 bits ? (double)base / bits : 0.0);
			fprintf(stderr, "  cf %-8s %10llu  %10.4f %8.4f  %s%s\n", cf_section(k),
				U(bits), bpi, bpc, ratio,
				r->o->cf_on && k == rec_cf_index(r->o->cf_enc, r->o->timed)
				    ? "  (recorded)"
				    : "");
		}
	}
	if (r->port) {
		uint64_t bits = r->mf.cf_bits;

		fprintf(stderr, "  cf %-8s %10llu  %10.4f %8.4f         -  (recorded: %s%s, "
			"docs/ETM.md)\n", st_port_name(r->o->port.kind), U(bits),
			insns ? (double)bits / insns : 0, cycles ? (double)bits / cycles : 0,
			r->o->port.kind == ST_PORT_MTB ? "each core's MTB buffer" : "the ETMs' bytes",
			r->o->port.framed ? " in CoreSight formatter frames" : "");
	}
	for (int t = 0; r->lv && t < 2; t++) {
		const struct st_lv_encoder *b = rec_lv_encoder(r->lv, rec_lv_index(ST_LV_NXLV, t));

		base = b ? st_lv_fields_total(&b->fields) : 0;
		for (int e = ST_LV_NXLV; e <= ST_LV_CFIATA; e++) {
			int k = rec_lv_index(e, t);
			uint64_t bits;
			char ratio[16] = "       -";

			if (!rec_lv_encoder(r->lv, k))
				continue;
			bits = st_lv_fields_total(&rec_lv_encoder(r->lv, k)->fields);
			bpi = insns ? (double)bits / insns : 0;
			bpc = cycles ? (double)bits / cycles : 0;
			if (b)
				snprintf(ratio, sizeof(ratio), "%7.2fx",
					 bits ? (double)base / bits : 0.0);
			fprintf(stderr, "  lv %-8s %10llu  %10.4f %8.4f  %s%s\n", lv_section(k),
				U(bits), bpi, bpc, ratio,
				r->o->lv_on && k == rec_lv_index(r->o->lv_enc, r->o->timed)
				    ? "  (recorded)"
				    : "");
		}
		if (r->lv_mask == REC_LV_ALL) {
			uint64_t gz = 8 * rec_lv_nxlv_gz_bytes(r->lv, t);

			fprintf(stderr, "  lv %-8s %10llu  %10.4f %8.4f   %6.2fx  (NX-LV, zlib -1)\n",
				t ? "tnxlv.gz" : "nxlv.gz", U(gz), insns ? (double)gz / insns : 0,
				cycles ? (double)gz / cycles : 0, gz ? (double)base / gz : 0.0);
		}
	}
	if (!r->o->all_encodings)
		fprintf(stderr,
			"  (the recorded encodings only: `raptor stat %s` gives the "
			"others, or record with --all-encodings)\n",
			r->o->dir);
}

/* Seconds from a to b. */
static double seconds(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static void progress(const struct rec *r, uint64_t insns, const struct timespec *t0)
{
	struct timespec t;
	double s;

	clock_gettime(CLOCK_MONOTONIC, &t);
	s = seconds(t0, &t);
	fprintf(stderr, "\rrecording %s: %llu instructions, %.1f s, %.1f MIPS ", r->o->dir,
		U(insns), s, s > 0 ? insns / s / 1e6 : 0.0);
}

/*
 * Make the directory a complete partial recording of the run so far, as
 * if it stopped now (every core's end message, the manifest's bits), so
 * that a recorder killed at any moment, even by SIGKILL, leaves one that
 * replays: this snapshot's or the previous one's. The output streams reach
 * their files only here (rec_cf_snapshot), never in between. The order
 * keeps the files' disagreement to a sliver: the truth flushed, the new
 * manifest written and synced as manifest.ini.next, then the streams'
 * new bytes and end messages (held in memory until now: a write to the
 * page cache), then the rename into manifest.ini. A kill between the last
 * two leaves streams longer than manifest.ini says, which the replay
 * refuses clearly; manifest.ini.next, beside it, describes them. The truth
 * is not flushed at the start, so that a short run's truth.gz stays one
 * gzip member: a recorder killed before its first snapshot past the start
 * leaves it empty, or holding only the members its buffer filled. 0 / -1.
 */
static int snapshot(struct rec *r)
{
	uint64_t cycles[BOARD_MAX_CORES], bits;

	for (int i = 0; i < r->ncores; i++)
		cycles[i] = board_cycles(r->b, i);
	r->mf.lv_bits = 0;
	if (rec_cf_snapshot(r->cf, cycles, 0, &r->mf.cf_bits) ||
	    (r->lv && rec_lv_snapshot(r->lv, 0, &r->mf.lv_bits)))
		return -1;
	r->mf.complete = 0;
	/* not at the start: a short run's truth.gz stays byte for byte what it was */
	if (r->truth && board_insns(r->b) && st_truth_flush(r->truth))
		return -1;
	if (st_manifest_write(&r->mf, r->path_next))
		return -1;
	if (rec_cf_snapshot(r->cf, cycles, 1, &bits) || (r->lv && rec_lv_snapshot(r->lv, 1, &bits)))
		return -1;
	if (rename(r->path_next, r->path_manifest))
		return error("cannot rename '%s' to '%s': %m", r->path_next, r->path_manifest);
	return 0;
}

static FILE *create(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		error("cannot create '%s': %m", path);
	return f;
}

int rec_run(const struct rec_options *o, int *status)
{
	struct rec r = { .o = o };
	struct board_observer obs = { &r, on_access, on_step, NULL };
	struct board_config bc = o->board;
	struct rec_cf_config cfc;
	struct rec_lv_config lvc;
	struct timespec t0, t, t_snap;
	uint64_t cycles[BOARD_MAX_CORES], next_progress = PROGRESS_EVERY,
		 next_snapshot = SNAPSHOT_EVERY;
	int ret = -1, run = 0, exited = 0, st = 0, io_error = 0;
	char *p;

	r.ncores = bc.ncores;
	r.path_manifest = path_join(o->dir, "manifest.ini");
	r.path_next = path_join(o->dir, "manifest.ini.next");
	r.path_cf = path_join(o->dir, "cf.bin");
	r.path_lv = path_join(o->dir, "lv.bin");
	bc.max_insns = 0; /* the limit is ours: a limited run is a partial recording */
	/* the program first: a bad ELF leaves no directory behind */
	r.b = board_new(&bc);
	if (!r.b || board_load(r.b, o->elf) || prepare_dir(o->dir, o->force))
		goto out;
	p = path_join(o->dir, "program.elf");
	if (file_copy(o->elf, p)) {
		free(p);
		goto out;
	}
	free(p);

	/* the fast way: only the encoders written; all of them for statistics */
	r.cf_mask = o->all_encodings ? REC_CF_ALL
		    : o->cf_on	     ? 1u << rec_cf_index(o->cf_enc, o->timed)
				     : 0;
	r.lv_mask = o->all_encodings ? REC_LV_ALL
		    : o->lv_on	     ? 1u << rec_lv_index(o->lv_enc, o->timed)
				     : 0;
	r.prof = rec_prof_new(r.ncores);
	cfc = (struct rec_cf_config){.ncores = r.ncores,
				     .bp = o->bp,
				     .shared = o->bp_shared,
				     .cnt = o->cnt,
				     .ta = o->ta,
				     .cc = o->cc,
				     .icnt = o->icnt,
				     .mask = r.cf_mask,
				     .prof = r.prof};
	r.cf = rec_cf_new(&cfc);
	if (!r.cf)
		goto out;
	if (o->cf_on) {
		if (!(r.cf_file = create(r.path_cf)))
			goto out;
		rec_cf_set_output(r.cf, o->cf_enc, o->timed, r.cf_file, r.path_cf);
	} else if (o->port.kind != ST_PORT_NONE) {
		uint32_t reset[BOARD_MAX_CORES];

		/* the trace units hold the trace until the end: cf.bin stays empty till then */
		if (!(r.cf_file = create(r.path_cf)))
			goto out;
		for (int i = 0; i < r.ncores; i++)
			reset[i] = isa_cpu_get(board_cpu(r.b, i), ISA_R_PC);
		if (!(r.port = rec_port_new(&o->port, r.ncores, o->elf, reset)))
			goto out;
	}
	lvc = (struct rec_lv_config){.cache = o->cache,
				     .cnt = o->fah,
				     .cc = o->lvcc,
				     .mask = r.lv_mask,
				     .gzip = o->all_encodings,
				     .prof = r.prof};
	lvc.cache.ncores = r.ncores;
	/* --lv-enc none, the fast way: no load-value machinery at all */
	if (r.lv_mask && !(r.lv = rec_lv_new(&lvc, peek_board, r.b)))
		goto out;
	if (o->lv_on) {
		if (!(r.lv_file = create(r.path_lv)))
			goto out;
		rec_lv_set_output(r.lv, o->lv_enc, o->timed, r.lv_file, r.path_lv);
	}
	fill_manifest(&r);
	if (o->truth) {
		p = path_join(o->dir, "truth.gz");
		r.truth = st_truth_create(p, r.ncores);
		free(p);
		if (!r.truth)
			goto out;
		for (int i = 0; i < r.ncores; i++) {
			truth_fp(&r, i); /* the board's state at reset, as r.mf.regs */
			st_truth_reset(r.truth, i, r.mf.regs[i]);
		}
	}
	/* the empty recording (end messages only): replayable from the start */
	if (snapshot(&r))
		goto out;

	/*
	 * The truth and the trace ports see every instruction; the cf and lv
	 * encoders need nothing of a plain one but its count, so without those
	 * the board counts them (the lv encoder has nothing pending after a
	 * step: a plain one accesses no data).
	 */
	if (!r.truth && !r.port) {
		obs.on_step = on_step_encoders;
		obs.on_plain = on_plain;
	}
	board_observe(r.b, &obs);
	interrupted = 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	t_snap = t0;
	run = 1;
	for (;;) {
		uint64_t n = board_insns(r.b), until;
		int s;

		/*
		 * Steps up to the next thing to do (a snapshot, a progress line, the
		 * limit), at most STEP_SLICE instructions for the Ctrl-C; one step at
		 * a time with a trace port, whose error stops the run after its step.
		 */
		until = n + STEP_SLICE;
		if (until > next_snapshot)
			until = next_snapshot;
		if (o->progress && until > next_progress)
			until = next_progress;
		if (o->board.max_insns && until > o->board.max_insns)
			until = o->board.max_insns;
		s = r.port ? board_step(r.b, &st) : board_steps(r.b, until, &st);

		if (s > 0) {
			exited = 1;
			break;
		}
		if (s < 0)
			break;
		if (interrupted) {
			error("interrupted after %llu instructions", U(board_insns(r.b)));
			break;
		}
		if (r.port_failed) {
			io_error = 1; /* the trace unit's error is above */
			break;
		}
		n = board_insns(r.b);
		if (o->board.max_insns && n >= o->board.max_insns) {
			error("instruction limit of %llu reached", U(o->board.max_insns));
			break;
		}
		if (n >= next_snapshot) {
			next_snapshot += SNAPSHOT_EVERY;
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (seconds(&t_snap, &t) >= SNAPSHOT_GAP) {
				t_snap = t;
				board_observe_flush(r.b);
				if (snapshot(&r)) {
					io_error = 1;
					break;
				}
			}
		}
		if (o->progress && n >= next_progress) {
			next_progress += PROGRESS_EVERY;
			progress(&r, n, &t0);
		}
	}
	if (o->progress) {
		progress(&r, board_insns(r.b), &t0);
		fputc('\n', stderr);
	}
	board_observe(r.b, NULL);

	/* finish the streams whatever happened: the prefix stays replayable */
	for (int i = 0; i < r.ncores; i++)
		cycles[i] = r.cycles[i] = board_cycles(r.b, i);
	if (rec_cf_finish(r.cf, cycles, &r.mf.cf_bits))
		io_error = 1;
	r.mf.lv_bits = 0;
	if (r.lv && rec_lv_finish(r.lv, &r.mf.lv_bits))
		io_error = 1;
	if (r.truth) {
		if (exited)
			st_truth_exit(r.truth, r.last_core, (uint32_t)st);
		if (st_truth_close(r.truth))
			io_error = 1;
		r.truth = NULL;
	}
	if (!o->cf_on)
		r.mf.cf_bits = 0;
	if (!o->lv_on)
		r.mf.lv_bits = 0;
	if (r.port) {
		uint64_t total = 0;

		if (rec_port_finish(r.port, r.cf_file, r.path_cf, r.mf.port.bytes, &total) ||
		    fflush(r.cf_file)) {
			io_error = 1;
			memset(r.mf.port.bytes, 0, sizeof(r.mf.port.bytes));
			total = 0;
		}
		r.mf.cf_bits = 8 * total;
	}
	r.mf.complete = exited && !io_error;
	if (st_manifest_write(&r.mf, r.path_manifest))
		io_error = 1;
	if (write_stats(&r, o->dir, exited, st))
		io_error = 1;
	if (!o->quiet)
		summary(&r, exited, st);
	if (exited && !io_error) {
		*status = st;
		ret = 0;
	} else if (io_error) {
		error("%s: the recording is incomplete (write error above)", o->dir);
	} else {
		error("%s: a partial recording of the first %llu instructions was written",
		      o->dir, U(board_insns(r.b)));
	}
out:
	if (!run)
		error("%s: no recording was made", o->dir);
	if (r.truth && st_truth_close(r.truth))
		ret = -1;
	if (r.cf_file && fclose(r.cf_file))
		ret = error("error writing '%s': %m", r.path_cf);
	if (r.lv_file && fclose(r.lv_file))
		ret = error("error writing '%s': %m", r.path_lv);
	rec_cf_free(r.cf);
	rec_port_free(r.port);
	rec_lv_free(r.lv);
	rec_prof_free(r.prof);
	board_free(r.b);
	free(r.path_cf);
	free(r.path_lv);
	free(r.path_manifest);
	free(r.path_next);
	return ret;
}

/* ---- every encoding from a replay ------------------------------------------ */

static int peek_replay(void *ctx, uint32_t addr, uint8_t *buf, unsigned n)
{
	/* a byte the debugger does not know reads as 0: only values' lengths count here */
	return rpl_read_mem(ctx, addr, buf, n, NULL) < 0 ? -1 : 0;
}

/* rpl_observe: the board observer's calls, on the replayed run. */
static void on_replay_step(void *ctx, int core, const struct isa_step *st, uint64_t cycle,
			   const struct board_access *acc, int nacc)
{
	struct rec *r = ctx;

	for (int k = 0; k < nacc; k++)
		rec_lv_access(r->lv, core, &acc[k]);
	rec_cf_step(r->cf, core, st, cycle);
	rec_lv_step(r->lv, core, cycle);
}

int rec_restat(const char *dir, const char *chunks, const char *out_dir)
{
	struct rec_options o;
	struct rec r = { .o = &o };
	const struct st_manifest *mf;
	struct rec_cf_config cfc;
	struct rec_lv_config lvc;
	struct rpl *rp = rpl_open(dir);
	uint64_t bits;
	int ret = -1, s, status = 0, exited;

	if (!rp)
		return -1;
	mf = rpl_manifest(rp);
	rec_options_init(&o);
	o.dir = out_dir;
	o.all_encodings = 1;
	if (chunks && rec_chunks_parse(chunks, &o))
		goto out;
	r.ncores = mf->ncores;
	r.cf_mask = REC_CF_ALL;
	r.lv_mask = REC_LV_ALL;
	r.prof = rec_prof_new(r.ncores);
	cfc = (struct rec_cf_config){ .ncores = r.ncores, .bp = mf->bp, .shared = mf->bp_shared,
				      .cnt = o.cnt, .ta = o.ta, .cc = o.cc, .icnt = o.icnt,
				      .mask = r.cf_mask, .prof = r.prof };
	lvc = (struct rec_lv_config){ .cache = mf->cache, .cnt = o.fah, .cc = o.lvcc,
				      .mask = r.lv_mask, .gzip = 1, .prof = r.prof };
	lvc.cache.ncores = r.ncores;
	if (!(r.cf = rec_cf_new(&cfc)) || !(r.lv = rec_lv_new(&lvc, peek_replay, rp)))
		goto out;
	/* one run forward: no checkpoints needed */
	rpl_set_interval(rp, UINT64_MAX);
	if (rpl_observe(rp, on_replay_step, &r))
		goto out;
	s = rpl_run(rp, UINT64_MAX);
	if (s < 0)
		goto out;
	for (int i = 0; i < r.ncores; i++)
		r.cycles[i] = rpl_cycles(rp, i);
	if (rec_cf_finish(r.cf, r.cycles, &bits) || rec_lv_finish(r.lv, &bits))
		goto out;
	exited = rpl_exited(rp, &status);
	ret = write_stats(&r, out_dir, exited, exited ? status : 0);
out:
	rec_cf_free(r.cf);
	rec_port_free(r.port);
	rec_lv_free(r.lv);
	rec_prof_free(r.prof);
	rpl_close(rp);
	return ret;
}

/*
 * etmcheck: encode a recording's ground truth as the trace each core's
 * real trace port would write -- ETMv4 (etm/etm4), ETMv3.5 (etm/etm3) and
 * the MTB (etm/mtb) -- decode every core's ETM streams with OpenCSD
 * (etm/ocsd) and its MTB buffer with raptor's MTB decoder, and compare
 * each decoded path with the truth, instruction by instruction (and
 * exception by exception where the format says which).
 *
 *   etmcheck REC [--sync BYTES] [--v7m | --v8m] [--cycles THRESHOLD] [--raw DIR] [-q]
 *
 * REC/truth.gz gives every core's retired instructions (and the PC after
 * each, hence branch outcomes and targets) and exception entries;
 * REC/program.elf is the code image the decoders walk. Core c gets trace
 * ID 0x10 + c. --sync: the ETMs' sync period (default 4096 bytes). --raw
 * DIR writes DIR/etm4-coreC.bin, DIR/etm3-coreC.bin and DIR/mtb-coreC.bin,
 * each core's raw stream or buffer, and DIR/etm4-frames.bin, all the cores'
 * ETMv4 streams interleaved in one capture of CoreSight formatter frames
 * (etm/cstf), which is decoded and compared too. --v8m / --v7m pick the architecture
 * OpenCSD's ETMv4 decoder is told (the default follows the manifest's core
 * model: ARMv8-M for the M33, else ARMv7-M). --cycles: the ETMv4s count
 * cycles with that threshold (etm4_cfg.cc_threshold), fed each step's
 * cycles from the truth, and every count OpenCSD reports must equal the
 * truth's cycles from the point of the previous count (the start of the
 * trace for the first) to the instruction or exception it follows; the
 * ETMv3s trace cycle-accurate too (etm3_cfg.cycle_accurate), and the count
 * OpenCSD gives after each instruction must be the truth's cycles since
 * the instruction before. A recording made through an ETM trace port
 * ([port], raptor record --cf-enc etm4 or etm3) has its own cf.bin decoded
 * with the manifest's settings and compared the same way, cycle counts
 * included.
 *
 * Per core and format it prints the instructions compared, the
 * mismatches, the bytes and bits per instruction. The instructions no
 * trace of that format can show are counted, never compared: after a
 * core's last P0 element for ETMv4; before the first packet's destination
 * and after the last packet's source for the MTB. Exit 1 on any mismatch
 * (naming core, format, instruction index and both PCs) or decode error,
 * 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etm/cstf.h"
#include "etm/etm3.h"
#include "etm/etm4.h"
#include "etm/mtb.h"
#include "etm/ocsd.h"
#include "etm/port.h"
#include "streams/manifest.h"
#include "streams/truth.h"

#define EXC_DEPTH 64

static const char usage[] =
    "usage: etmcheck REC [--sync BYTES] [--v7m | --v8m] [--cycles THRESHOLD] [--raw DIR] [-q]\n"
    "  encode REC's ground truth as each core's ETMv4, ETMv3.5 and MTB trace, decode\n"
    "  them (OpenCSD for the ETMs) and compare with the truth, instruction by instruction\n";

struct cmp {
	size_t got, got_insns, bad, bad_index;
	uint64_t bad_want, bad_got;
	/* cycle counts: checked, saturated, wrong (the first: after element cc_bad_at) */
	uint64_t cc_last, cc_n, cc_sat, cc_bad, cc_sum;
	size_t cc_bad_at;
	uint64_t cc_bad_want, cc_bad_got;
};

struct core {
	struct etm4 *enc;
	struct etm3 *e3;
	struct mtb *mtb;
	uint32_t *pcs; /* the retired instructions alone, for the MTB */
	size_t npcs, pcs_cap;
	uint32_t excret[EXC_DEPTH]; /* EXC_RETURN values of active exceptions */
	uint64_t *want;		    /* PCs and ETM_OCSD_EXC | number, in order */
	uint64_t *wcyc;		    /* the core's cycle after each of them (truth) */
	uint64_t cyc_now;	    /* the cycle after the record being fed */
	uint64_t insn_cyc;	    /* the cycle after the last instruction retired */
	size_t n, cap, covered;
	uint64_t insns, faulted;
	uint32_t cur_pc;	 /* the PC the core would execute next */
	uint32_t exc[EXC_DEPTH]; /* preferred return addresses of active exceptions */
	int nexc;
	/* decode side */
	struct cmp e4, e4f, e3c, mt;
	struct cmp rec;		 /* the recording's own ETMv4 trace (a trace port's cf.bin) */
	size_t framed;		 /* bytes of the ETMv4 stream put in the frames */
	size_t mtb_from, mtb_to; /* pcs[mtb_from..mtb_to) are in the MTB */
};

static int push(struct core *c, uint64_t v)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 1 << 16;
		uint64_t *w = realloc(c->want, cap * sizeof(*w)), *y;

		if (!w)
			return error("etmcheck: out of memory at %zu instructions", c->n);
		c->want = w;
		y = realloc(c->wcyc, cap * sizeof(*y));
		if (!y)
			return error("etmcheck: out of memory at %zu instructions", c->n);
		c->wcyc = y;
		c->cap = cap;
	}
	c->wcyc[c->n] = c->cyc_now;
	c->want[c->n++] = v;
	return 0;
}

/* Note a retired instruction's PC (what the MTB side is checked against). */
static int push_pc(struct core *c, uint32_t pc)
{
	if (c->npcs == c->pcs_cap) {
		size_t cap = c->pcs_cap ? 2 * c->pcs_cap : 1 << 16;
		uint32_t *w = realloc(c->pcs, cap * sizeof(*w));

		if (!w)
			return error("etmcheck: out of memory at %zu instructions", c->npcs);
		c->pcs = w;
		c->pcs_cap = cap;
	}
	c->pcs[c->npcs++] = pc;
	return 0;
}

static int mismatch(struct cmp *m, uint64_t want, uint64_t got)
{
	if (!m->bad) {
		m->bad_index = m->got_insns;
		m->bad_want = want;
		m->bad_got = got;
	}
	m->bad++;
	return -1;
}

/*
 * A cycle count OpenCSD reports after the m->got elements so far: the
 * truth's cycles from the previous count's element (or the start) to the
 * last of them. A count at the counter's maximum is a saturated one: the
 * truth must have at least that many.
 */
static int check_cc(struct core *c, struct cmp *m, uint64_t v)
{
	uint64_t got = v & 0xffffffffull, at, want;

	if (!m->got) {
		m->cc_bad++;
		m->cc_bad_at = 0;
		m->cc_bad_want = 0;
		m->cc_bad_got = got;
		return -1;
	}
	at = c->wcyc[m->got - 1];
	want = at - m->cc_last;
	if (got == ETM4_CC_MAX && want >= got)
		m->cc_sat++;
	else if (got != want) {
		if (!m->cc_bad++) {
			m->cc_bad_at = m->got;
			m->cc_bad_want = want;
			m->cc_bad_got = got;
		}
		return -1;
	}
	m->cc_n++;
	m->cc_sum += want;
	m->cc_last = at;
	return 0;
}

/* OpenCSD's next element v against core c's expectation, in the tally m. */
static int check_next(struct core *c, struct cmp *m, uint64_t v)
{
	if (v & ETM_OCSD_CC)
		return check_cc(c, m, v);
	if (m->got >= c->covered || c->want[m->got] != v)
		return mismatch(m, m->got < c->covered ? c->want[m->got] : ~0ull, v);
	m->got++;
	if (!(v & ETM_OCSD_EXC))
		m->got_insns++;
	return 0;
}

/* The ETMv4 stream's elements. */
static int check_etm4(void *ctx, uint64_t v)
{
	struct core *c = ctx;

	return check_next(c, &c->e4, v);
}

/* The same elements from the framed capture. */
static int check_etm4f(void *ctx, uint64_t v)
{
	struct core *c = ctx;

	return check_next(c, &c->e4f, v);
}

static int report(const char *rec, int c, const char *what, const struct cmp *m);

/* The recording's own ETMv4 trace. */
static int check_rec(void *ctx, uint64_t v)
{
	struct core *c = ctx;

	return check_next(c, &c->rec, v);
}

/* The ETMv3 side expects every element, exceptions in ETMv3's numbering. */
static uint64_t want3(const struct core *c, size_t i)
{
	uint64_t v = c->want[i];

	return v & ETM_OCSD_EXC ? ETM_OCSD_EXC | etm3_exception_number(v & 0x3ff) : v;
}

static int check_rec3(void *ctx, uint64_t v);

/* The whole of path into *data (malloc'd) and *len. 0 / -1. */
static int read_whole(const char *path, uint8_t **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, k;
	uint8_t *d = malloc(cap), *g;

	if (!f || !d) {
		if (f)
			fclose(f);
		free(d);
		return error("etmcheck: cannot read '%s': %m", path);
	}
	while ((k = fread(d + n, 1, cap - n, f)) > 0) {
		n += k;
		if (n == cap) {
			if (!(g = realloc(d, 2 * cap))) {
				fclose(f);
				free(d);
				return error("etmcheck: out of memory reading '%s'", path);
			}
			d = g;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		fclose(f);
		free(d);
		return error("etmcheck: cannot read '%s': %m", path);
	}
	fclose(f);
	*data = d;
	*len = n;
	return 0;
}

/*
 * A recording made through an ETM trace port (raptor record --cf-enc etm4
 * or etm3): its cf.bin decoded with the manifest's [port] settings, as the
 * replay decodes it (raw streams or frames), and compared with the truth
 * as etmcheck's own streams are, cycle counts included. 0 when it
 * matches, 1 when not or it does not decode, -1 on an error of our own.
 */
static int check_recorded(const char *rec, const struct st_manifest *man, struct core *cores,
			  const struct etm_ocsd_mem *mem, int quiet)
{
	struct etm_ocsd_src src[ST_TRUTH_MAX_CORES];
	unsigned flags = man->port.cycle_counting ? ETM_OCSD_CYCLES : 0;
	int v3 = man->port.kind == ST_PORT_ETM3;
	const char *what = v3 ? "ETMv3" : "ETMv4";
	etm_ocsd_fn fn = v3 ? check_rec3 : check_rec;
	char path[4096];
	uint8_t *data = NULL;
	size_t len = 0, off = 0;
	int bad = 0, dk = 0;

	snprintf(path, sizeof(path), "%s/%s", rec, man->cf_file);
	if (read_whole(path, &data, &len))
		return -1;
	for (int c = 0; c < man->ncores; c++) {
		src[c] = (struct etm_ocsd_src){
		    .v3 = v3, .ctx = &cores[c], .have_regs = man->port.have_regs};
		memcpy(src[c].regs, man->port.regs, sizeof(src[c].regs));
		src[c].c4 = (struct etm4_cfg){
		    .trace_id = man->port.trace_id[c],
		    .sync_period = man->port.sync_period,
		    .v8m = man->port.v8m,
		    .cc_threshold = man->port.cycle_counting ? man->port.cc_threshold : 0};
		src[c].c3 = (struct etm3_cfg){.trace_id = man->port.trace_id[c],
					      .sync_period = man->port.sync_period,
					      .cycle_accurate = man->port.cycle_counting};
	}
	if (man->port.framed) {
		dk = etm_ocsd_decode_src(src, man->ncores, man->port.tpiu ? 2 : 1, flags, mem, data,
					 len, fn);
	} else {
		for (int c = 0; c < man->ncores && !dk; c++) {
			if (man->port.bytes[c] > len - off) {
				free(data);
				return error("etmcheck: %s: core_bytes past the end of the file",
					     path);
			}
			dk = etm_ocsd_decode_src(&src[c], 1, 0, flags, mem, data + off,
						 man->port.bytes[c], fn);
			off += man->port.bytes[c];
		}
	}
	free(data);
	for (int c = 0; c < man->ncores; c++) {
		struct core *co = &cores[c];
		size_t end = v3 ? co->n : co->covered; /* ETMv3 traces every instruction */
		char who[64];

		if (!co->rec.bad && !dk && co->rec.got != end)
			mismatch(&co->rec, v3 ? want3(co, co->rec.got) : co->want[co->rec.got],
				 ~0ull);
		snprintf(who, sizeof(who), "the recording's %s (OpenCSD)", what);
		bad |= report(rec, c, who, &co->rec);
	}
	bad |= dk != 0;
	if (!quiet) {
		printf("recorded: %s's %s trace (%s); instructions compared per core:", path, what,
		       man->port.tpiu	  ? "TPIU frames"
		       : man->port.framed ? "frames"
					  : "raw");
		for (int c = 0; c < man->ncores; c++)
			printf(" %zu", cores[c].rec.got_insns);
		if (man->port.cycle_counting) {
			printf("; cycle counts equal to the truth's per core:");
			for (int c = 0; c < man->ncores; c++)
				printf(" %llu", (unsigned long long)cores[c].rec.cc_n);
		}
		printf("; %s\n", bad ? "MISMATCH" : "0 mismatches");
	}
	return bad;
}

/*
 * What core c's ETMv4 wrote since last time goes to the formatter once
 * there are at least min bytes of it, so the frames interleave the cores
 * as their trace came out, in bursts of FRAME_BURST bytes or more (as a
 * funnel drains each trace unit's FIFO) rather than byte by byte.
 */
#define FRAME_BURST 16
static int to_frames(struct cstf *f, struct core *c, int ci, size_t min)
{
	size_t len;
	const uint8_t *d = etm4_data(c->enc, &len);

	if (len == c->framed || len - c->framed < min)
		return 0;
	if (cstf_put(f, 0x10 + ci, d + c->framed, len - c->framed))
		return -1;
	c->framed = len;
	return 0;
}

/* OpenCSD's next ETMv3 element v against core c's expectation (all of it), in m. */
static int check_next3(struct core *c, struct cmp *m, uint64_t v)
{
	if (v & ETM_OCSD_CC)
		return check_cc(c, m, v);
	if (m->got >= c->n || want3(c, m->got) != v)
		return mismatch(m, m->got < c->n ? want3(c, m->got) : ~0ull, v);
	m->got++;
	if (!(v & ETM_OCSD_EXC))
		m->got_insns++;
	return 0;
}

static int check_etm3(void *ctx, uint64_t v)
{
	struct core *c = ctx;

	return check_next3(c, &c->e3c, v);
}

/* The recording's own ETMv3 trace. */
static int check_rec3(void *ctx, uint64_t v)
{
	struct core *c = ctx;

	return check_next3(c, &c->rec, v);
}

/* the MTB decoder's next instruction */
static int check_mtb(void *ctx, uint64_t v)
{
	struct core *c = ctx;
	struct cmp *m = &c->mt;
	size_t i = c->mtb_from + m->got;

	if (i >= c->mtb_to || c->pcs[i] != v)
		return mismatch(m, i < c->mtb_to ? c->pcs[i] : ~0ull, v);
	m->got++;
	m->got_insns++;
	return 0;
}

static void show(char *buf, size_t n, uint64_t v)
{
	if (v == ~0ull)
		snprintf(buf, n, "nothing (the traced part ended)");
	else if (v & ETM_OCSD_EXC)
		snprintf(buf, n, "exception %u", (unsigned)(v & 0x3ff));
	else
		snprintf(buf, n, "pc 0x%08x", (unsigned)v);
}

static int step(struct core *c, int ci, const struct st_truth_rec *r,
		const struct etm_ocsd_mem *mem)
{
	struct etm4_stats st;
	uint32_t next = r->regs[ISA_R_PC];

	if (r->type == ST_TRUTH_RESET) {
		c->cur_pc = next;
		return 0;
	}
	/* the step's cycles (a faulted one's too) count towards the next P0
	   element (ETMv3: the next instruction's W atoms) */
	etm4_add_cycles(c->enc, r->cycle - c->cyc_now);
	etm3_add_cycles(c->e3, r->cycle - c->cyc_now);
	c->cyc_now = r->cycle;
	if (r->type == ST_TRUTH_EXC) {
		if (c->nexc == EXC_DEPTH)
			return error("etmcheck: core %d: exceptions nested deeper than %d", ci,
				     EXC_DEPTH);
		c->exc[c->nexc] = c->cur_pc;
		c->excret[c->nexc++] = r->regs[ISA_R_LR];
		if (etm4_exception(c->enc, r->exc, c->cur_pc, next) ||
		    push(c, ETM_OCSD_EXC | r->exc) || etm3_exception(c->e3, r->exc, next) ||
		    mtb_exception(c->mtb, c->cur_pc, next))
			return -1;
		c->covered = c->n;
		c->cur_pc = next;
		return 0;
	}
	if (r->flags & ST_TRUTH_FAULTED) { /* did not retire: the exception follows */
		c->faulted++;
		c->cur_pc = r->pc;
		return 0;
	}
	const struct etm_region *rg = etm_ocsd_region(mem, r->pc, 4);

	if (!rg)
		return error(
		    "etmcheck: core %d: instruction %llu at 0x%08x is outside the program image",
		    ci, (unsigned long long)c->insns, r->pc);

	const uint8_t *p = rg->data + (r->pc - rg->base);
	uint16_t hw1 = p[0] | p[1] << 8, hw2 = p[2] | p[3] << 8;
	struct etm4_insn in = {.pc = r->pc, .next = next, .size = etm_thumb_size(hw1)};
	uint32_t target;

	in.kind = etm_thumb_class(hw1, hw2, NULL);
	if (in.kind == ETM_THUMB_DIRECT && next != r->pc + in.size &&
	    (etm_thumb_target(r->pc, hw1, hw2, &target) || target != next))
		return error(
		    "etmcheck: core %d: instruction %llu: the branch at 0x%08x goes to 0x%08x, "
		    "its encoding %04x %04x says 0x%08x",
		    ci, (unsigned long long)c->insns, r->pc, next, hw1, hw2, target);
	if (r->flags & ST_TRUTH_TAIL)
		in.flags = ETM4_EXC_RETURN | ETM4_TAIL;
	else if (r->flags & ST_TRUTH_EXC_RETURN)
		in.flags = ETM4_EXC_RETURN;
	uint32_t excret = 0;

	if (in.flags & ETM4_EXC_RETURN) {
		if (!c->nexc)
			return error(
			    "etmcheck: core %d: instruction %llu: an exception return with no "
			    "exception active",
			    ci, (unsigned long long)c->insns);
		excret = c->excret[c->nexc - 1];
	}
	if (etm4_insn(c->enc, &in) || push(c, r->pc) || push_pc(c, r->pc) ||
	    etm3_insn(c->e3, &in) || mtb_insn(c->mtb, r->pc, in.size, next, excret))
		return -1;
	c->insns++;
	c->insn_cyc = c->cyc_now;
	if (in.flags & ETM4_TAIL) {
		/* the return tail-chained: the new handler returns where the old one would have */
		unsigned num = r->regs[ISA_R_XPSR] & 0x1ff;

		if (etm4_exception(c->enc, num, c->exc[c->nexc - 1], next) ||
		    etm3_exception(c->e3, num, next) || push(c, ETM_OCSD_EXC | num))
			return -1;
		c->excret[c->nexc - 1] = r->regs[ISA_R_LR];
	} else if (in.flags & ETM4_EXC_RETURN)
		c->nexc--;
	etm4_get_stats(c->enc, &st);
	if (st.traced == c->insns)
		c->covered = c->n;
	c->cur_pc = next;
	return 0;
}

/* Say what the first mismatch of one decode was: 1 if there was one. */
static int report(const char *rec, int c, const char *what, const struct cmp *m)
{
	char w[64], g[64];

	if (m->cc_bad)
		fprintf(
		    stderr,
		    "etmcheck: %s: core %d: %s: %llu wrong cycle counts, the first after element "
		    "%zu: the truth has %llu cycles, the decode gives %llu\n",
		    rec, c, what, (unsigned long long)m->cc_bad, m->cc_bad_at,
		    (unsigned long long)m->cc_bad_want, (unsigned long long)m->cc_bad_got);
	if (!m->bad)
		return m->cc_bad != 0;
	show(w, sizeof(w), m->bad_want);
	show(g, sizeof(g), m->bad_got);
	fprintf(stderr,
		"etmcheck: %s: core %d: %s: mismatch at instruction %zu: the truth has %s, "
		"the decode gives %s\n",
		rec, c, what, m->bad_index, w, g);
	return 1;
}

int main(int argc, char **argv)
{
	const char *rec = NULL, *raw = NULL;
	uint64_t sync = 4096, cct = 0;
	int quiet = 0, arch = -1, k, ncores, bad = 0, ret = 1, have_img = 0;
	char path[4096];
	struct st_manifest man;
	struct st_truth_reader *tr = NULL;
	struct st_truth_rec r;
	static struct core cores[ST_TRUTH_MAX_CORES];
	static struct etm_image img;
	const struct etm_ocsd_mem *mem = &img.mem;
	uint64_t tot_cc = 0, tot_cc3 = 0, tot_bytes = 0, tot_insns = 0, tot_mtb = 0, tot_e3 = 0,
		 tot_frames = 0;
	struct cstf *frames = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sync") && i + 1 < argc) {
			if (parse_u64(argv[++i], &sync)) {
				fprintf(stderr, "etmcheck: --sync %s is not a number\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--cycles") && i + 1 < argc) {
			if (parse_u64(argv[++i], &cct) || cct < 1 || cct > 4095) {
				fprintf(stderr,
					"etmcheck: --cycles %s is not a threshold from 1 to 4095\n",
					argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--raw") && i + 1 < argc)
			raw = argv[++i];
		else if (!strcmp(argv[i], "--v7m"))
			arch = 0;
		else if (!strcmp(argv[i], "--v8m"))
			arch = 1;
		else if (!strcmp(argv[i], "-q"))
			quiet = 1;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			return 0;
		} else if (argv[i][0] != '-' && !rec)
			rec = argv[i];
		else {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!rec) {
		fputs(usage, stderr);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/manifest.ini", rec);
	if (st_manifest_read(path, &man))
		goto out;
	if (arch < 0)
		arch = man.model == ISA_CORTEX_M33;
	snprintf(path, sizeof(path), "%s/%s", rec, man.elf);
	if (etm_image_load(&img, path))
		goto out;
	have_img = 1;
	snprintf(path, sizeof(path), "%s/truth.gz", rec);
	tr = st_truth_open(path);
	if (!tr)
		goto out;
	ncores = st_truth_ncores(tr);
	frames = cstf_new();
	if (!frames)
		goto out;
	for (int c = 0; c < ncores; c++) {
		struct etm4_cfg cfg = {
		    .trace_id = 0x10 + c, .sync_period = sync, .v8m = arch, .cc_threshold = cct};

		cores[c].enc = etm4_new(&cfg);
		struct etm3_cfg cfg3 = {
		    .trace_id = 0x10 + c, .sync_period = sync, .cycle_accurate = cct > 0};

		cores[c].e3 = etm3_new(&cfg3);
		cores[c].mtb = mtb_new();
		if (!cores[c].enc || !cores[c].e3 || !cores[c].mtb)
			goto out;
	}
	while ((k = st_truth_next(tr, &r)) == 1) {
		if (r.type != ST_TRUTH_RESET && r.type != ST_TRUTH_INSN && r.type != ST_TRUTH_EXC)
			continue;
		if (step(&cores[r.core], r.core, &r, mem) ||
		    to_frames(frames, &cores[r.core], r.core, FRAME_BURST))
			goto out;
	}
	if (k < 0)
		goto out;
	st_truth_close_reader(tr);
	tr = NULL;

	for (int c = 0; c < ncores; c++) {
		struct core *co = &cores[c];
		struct etm4_cfg cfg = {
		    .trace_id = 0x10 + c, .sync_period = sync, .v8m = arch, .cc_threshold = cct};
		struct etm4_stats st;
		struct mtb_stats ms;
		const uint8_t *data, *mdata;
		size_t len, mlen;
		int dk;

		if (etm4_flush(co->enc))
			goto out;
		data = etm4_data(co->enc, &len);
		etm4_get_stats(co->enc, &st);
		mdata = mtb_data(co->mtb, &mlen);
		mtb_get_stats(co->mtb, &ms);
		if (raw && (etm_raw_write(raw, "etm4", c, data, len) ||
			    etm_raw_write(raw, "mtb", c, mdata, mlen)))
			goto out;

		dk = etm_ocsd_decode(&cfg, mem, data, len, check_etm4, co);
		if (!co->e4.bad && !dk && co->e4.got != co->covered)
			mismatch(&co->e4, co->want[co->e4.got], ~0ull);
		bad |= report(rec, c, "ETMv4 (OpenCSD)", &co->e4) || dk;
		tot_bytes += len;
		tot_insns += co->insns;
		if (!quiet)
			printf(
			    "core %d etm4: %zu instructions compared (%llu retired, %llu after the "
			    "last P0 "
			    "element untraced), %zu mismatches, %zu bytes, %.4f bits/instruction "
			    "(%llu atoms, %llu addresses, %llu exceptions, %llu syncs)\n",
			    c, co->e4.got_insns, (unsigned long long)co->insns,
			    (unsigned long long)(co->insns - st.traced), co->e4.bad, len,
			    co->insns ? 8.0 * len / co->insns : 0.0, (unsigned long long)st.atoms,
			    (unsigned long long)st.addresses, (unsigned long long)st.exceptions,
			    (unsigned long long)st.syncs);
		if (!quiet && cct)
			printf("core %d etm4 cycles: %llu counts (%llu packets) equal the truth's "
			       "cycles, %llu saturated, %llu wrong; %llu cycles counted\n",
			       c, (unsigned long long)co->e4.cc_n, (unsigned long long)st.counts,
			       (unsigned long long)co->e4.cc_sat, (unsigned long long)co->e4.cc_bad,
			       (unsigned long long)co->e4.cc_sum);
		tot_cc += co->e4.cc_n;

		struct etm3_cfg cfg3 = {
		    .trace_id = 0x10 + c, .sync_period = sync, .cycle_accurate = cct > 0};
		struct etm4_stats st3;
		const uint8_t *d3;
		size_t len3;

		if (etm3_flush(co->e3))
			goto out;
		d3 = etm3_data(co->e3, &len3);
		etm3_get_stats(co->e3, &st3);
		if (raw && etm_raw_write(raw, "etm3", c, d3, len3))
			goto out;
		dk = etm_ocsd_decode3(&cfg3, mem, d3, len3, check_etm3, co);
		if (!co->e3c.bad && !dk && co->e3c.got != co->n)
			mismatch(&co->e3c, want3(co, co->e3c.got), ~0ull);
		bad |= report(rec, c, "ETMv3 (OpenCSD)", &co->e3c) || dk;
		tot_e3 += len3;
		if (!quiet)
			printf("core %d etm3: %zu instructions compared (%llu retired), %zu "
			       "mismatches, "
			       "%zu bytes, %.4f bits/instruction (%llu addresses, %llu exceptions, "
			       "%llu syncs)\n",
			       c, co->e3c.got_insns, (unsigned long long)co->insns, co->e3c.bad,
			       len3, co->insns ? 8.0 * len3 / co->insns : 0.0,
			       (unsigned long long)st3.addresses,
			       (unsigned long long)st3.exceptions, (unsigned long long)st3.syncs);
		if (!quiet && cct)
			printf("core %d etm3 cycles: %llu counts equal the truth's cycles, %llu "
			       "wrong; %llu cycles counted of the truth's %llu to the last "
			       "instruction\n",
			       c, (unsigned long long)co->e3c.cc_n,
			       (unsigned long long)co->e3c.cc_bad,
			       (unsigned long long)co->e3c.cc_sum, (unsigned long long)co->insn_cyc);
		tot_cc3 += co->e3c.cc_n;

		co->mtb_from = ms.first;
		co->mtb_to = ms.traced;
		dk = mtb_decode(mdata, mlen, mem, check_mtb, co);
		if (!co->mt.bad && !dk && co->mt.got != co->mtb_to - co->mtb_from)
			mismatch(&co->mt, co->pcs[co->mtb_from + co->mt.got], ~0ull);
		bad |= report(rec, c, "MTB", &co->mt) || dk;
		tot_mtb += mlen;
		if (!quiet)
			printf(
			    "core %d mtb: %zu instructions compared (%llu retired, %llu before the "
			    "first "
			    "packet and %llu after the last untraced), %zu mismatches, %zu bytes, "
			    "%.4f bits/instruction (%llu packets)\n",
			    c, co->mt.got_insns, (unsigned long long)co->insns,
			    (unsigned long long)ms.first,
			    (unsigned long long)(co->insns - ms.traced), co->mt.bad, mlen,
			    co->insns ? 8.0 * mlen / co->insns : 0.0,
			    (unsigned long long)ms.packets);
	}
	/* all the cores' ETMv4 streams in one capture of formatter frames */
	for (int c = 0; c < ncores; c++)
		if (to_frames(frames, &cores[c], c, 0))
			goto out;
	if (cstf_finish(frames))
		goto out;
	{
		struct etm4_cfg cfgs[ST_TRUTH_MAX_CORES];
		void *ctxs[ST_TRUTH_MAX_CORES];
		const uint8_t *fd;
		size_t flen;
		int dk;

		for (int c = 0; c < ncores; c++) {
			cfgs[c] = (struct etm4_cfg){.trace_id = 0x10 + c,
						    .sync_period = sync,
						    .v8m = arch,
						    .cc_threshold = cct};
			ctxs[c] = &cores[c];
		}
		fd = cstf_data(frames, &flen);
		if (raw && etm_raw_write(raw, "etm4-frames", -1, fd, flen))
			goto out;
		dk = etm_ocsd_decode_frames(cfgs, ncores, mem, fd, flen, check_etm4f, ctxs);
		for (int c = 0; c < ncores; c++) {
			struct core *co = &cores[c];

			if (!co->e4f.bad && !dk && co->e4f.got != co->covered)
				mismatch(&co->e4f, co->want[co->e4f.got], ~0ull);
			bad |= report(rec, c, "ETMv4 in formatter frames (OpenCSD)", &co->e4f);
		}
		bad |= dk;
		if (!quiet) {
			printf("frames: the %d ETMv4 streams in %zu CoreSight formatter frames, "
			       "%zu bytes, "
			       "%.4f bits/instruction; instructions compared per core:",
			       ncores, flen / CSTF_FRAME, flen,
			       tot_insns ? 8.0 * flen / tot_insns : 0.0);
			for (int c = 0; c < ncores; c++)
				printf(" %zu", cores[c].e4f.got_insns);
			if (cct) {
				printf("; cycle counts equal to the truth's per core:");
				for (int c = 0; c < ncores; c++)
					printf(" %llu", (unsigned long long)cores[c].e4f.cc_n);
			}
			printf("\n");
		}
		tot_frames = flen;
	}
	if ((man.port.kind == ST_PORT_ETM4 || man.port.kind == ST_PORT_ETM3) && man.cf_on) {
		int k2 = check_recorded(rec, &man, cores, mem, quiet);

		if (k2 < 0)
			goto out;
		bad |= k2;
	}
	printf("etmcheck: %s: %d cores, %llu instructions; ETMv4 (%s) %llu bytes, %.4f "
	       "bits/instruction; ETMv3 %llu bytes, %.4f bits/instruction; MTB %llu bytes, %.4f "
	       "bits/instruction; ETMv4 frames %llu bytes; %s\n",
	       rec, ncores, (unsigned long long)tot_insns, arch ? "ARMv8-M" : "ARMv7-M",
	       (unsigned long long)tot_bytes, tot_insns ? 8.0 * tot_bytes / tot_insns : 0.0,
	       (unsigned long long)tot_e3, tot_insns ? 8.0 * tot_e3 / tot_insns : 0.0,
	       (unsigned long long)tot_mtb, tot_insns ? 8.0 * tot_mtb / tot_insns : 0.0,
	       (unsigned long long)tot_frames, bad ? "MISMATCH" : "0 mismatches");
	if (cct)
		printf(
		    "etmcheck: %s: ETMv4 cycle counting, threshold %llu: %llu cycle counts equal "
		    "the truth's; ETMv3 cycle-accurate: %llu\n",
		    rec, (unsigned long long)cct, (unsigned long long)tot_cc,
		    (unsigned long long)tot_cc3);
	ret = bad;
out:
	if (tr)
		st_truth_close_reader(tr);
	for (int c = 0; c < ST_TRUTH_MAX_CORES; c++) {
		etm4_free(cores[c].enc);
		etm3_free(cores[c].e3);
		mtb_free(cores[c].mtb);
		free(cores[c].want);
		free(cores[c].wcyc);
		free(cores[c].pcs);
	}
	cstf_free(frames);
	if (have_img)
		etm_image_release(&img);
	return ret;
}

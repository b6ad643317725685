/*
 * etmcheck: encode a recording's ground truth as the ETMv4 instruction
 * trace each core's trace unit would write (etm/etm4), decode every
 * core's stream with OpenCSD (etm/ocsd) and compare the decoded path with
 * the truth, instruction by instruction and exception by exception.
 *
 *   etmcheck REC [--sync BYTES] [--v7m | --v8m] [--raw DIR] [-q]
 *
 * REC/truth.gz gives every core's retired instructions (and the PC after
 * each, hence branch outcomes and targets) and exception entries;
 * REC/program.elf is the code image OpenCSD walks. Core c gets trace ID
 * 0x10 + c. --raw DIR writes DIR/etm4-coreC.bin, each core's raw stream.
 * --v8m / --v7m pick the architecture the decoder is told (the default
 * follows the manifest's core model: ARMv8-M for the M33, else ARMv7-M).
 *
 * Per core it prints the instructions compared, the mismatches, the trace
 * bytes and bits per instruction. The instructions after a core's last P0
 * element (branch or exception) are in no ETM trace: they are counted as
 * untraced, never compared. Exit 1 on any mismatch (naming core,
 * instruction index and both PCs) or decode error, 2 on bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etm/etm4.h"
#include "etm/ocsd.h"
#include "isa/elf.h"
#include "streams/manifest.h"
#include "streams/truth.h"

#define MAX_REGIONS 32
#define REGION_GAP 4096 /* segments closer than this share one region */
#define EXC_DEPTH 64

static const char usage[] = "usage: etmcheck REC [--sync BYTES] [--v7m | --v8m] [--raw DIR] [-q]\n";

struct core {
	struct etm4 *enc;
	uint64_t *want; /* PCs and ETM_OCSD_EXC | number, in order */
	size_t n, cap, covered;
	uint64_t insns, faulted;
	uint32_t cur_pc;            /* the PC the core would execute next */
	uint32_t exc[EXC_DEPTH];    /* preferred return addresses of active exceptions */
	int nexc;
	/* decode side */
	size_t got, got_insns, bad;
	uint64_t bad_want, bad_got;
	size_t bad_index;
};

static int push(struct core *c, uint64_t v)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 1 << 16;
		uint64_t *w = realloc(c->want, cap * sizeof(*w));

		if (!w)
			return error("etmcheck: out of memory at %zu instructions", c->n);
		c->want = w;
		c->cap = cap;
	}
	c->want[c->n++] = v;
	return 0;
}

struct image {
	struct etm_region r[MAX_REGIONS];
	int n;
};

/* Every loaded byte range becomes a region, merged with its neighbours. */
static int write_image(void *ctx, uint32_t addr, const uint8_t *data, size_t len)
{
	struct image *im = ctx;
	uint64_t end = (uint64_t)addr + len;

	for (int i = 0; i < im->n; i++) {
		struct etm_region *r = &im->r[i];
		uint64_t lo = r->base < addr ? r->base : addr, rend = (uint64_t)r->base + r->size;
		uint64_t hi = rend > end ? rend : end;
		uint8_t *d;

		if (addr > rend + REGION_GAP || r->base > end + REGION_GAP)
			continue;
		d = calloc(1, hi - lo + 4);
		if (!d)
			return error("etmcheck: out of memory for a %llu-byte image region",
				     (unsigned long long)(hi - lo));
		memcpy(d + (r->base - lo), r->data, r->size);
		memcpy(d + (addr - lo), data, len);
		free((void *)r->data);
		r->base = lo;
		r->size = hi - lo + 4; /* 4 zero bytes past the end: OpenCSD reads words */
		r->data = d;
		return 0;
	}
	if (im->n == MAX_REGIONS)
		return error("etmcheck: more than %d separate loaded regions", MAX_REGIONS);

	uint8_t *d = calloc(1, len + 4);

	if (!d)
		return error("etmcheck: out of memory for a %zu-byte image region", len);
	memcpy(d, data, len);
	im->r[im->n++] = (struct etm_region){ .base = addr, .size = len + 4, .data = d };
	return 0;
}

static int check_pc(void *ctx, uint64_t v)
{
	struct core *c = ctx;

	if (c->got >= c->covered || c->want[c->got] != v) {
		if (!c->bad) {
			c->bad_index = c->got_insns;
			c->bad_want = c->got < c->covered ? c->want[c->got] : ~0ull;
			c->bad_got = v;
		}
		c->bad++;
		return -1;
	}
	c->got++;
	if (!(v & ETM_OCSD_EXC))
		c->got_insns++;
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

static int step(struct core *c, int ci, const struct st_truth_rec *r, const struct etm_ocsd_mem *mem)
{
	struct etm4_stats st;
	uint32_t next = r->regs[ISA_R_PC];

	if (r->type == ST_TRUTH_RESET) {
		c->cur_pc = next;
		return 0;
	}
	if (r->type == ST_TRUTH_EXC) {
		if (c->nexc == EXC_DEPTH)
			return error("etmcheck: core %d: exceptions nested deeper than %d", ci, EXC_DEPTH);
		c->exc[c->nexc++] = c->cur_pc;
		if (etm4_exception(c->enc, r->exc, c->cur_pc, next) || push(c, ETM_OCSD_EXC | r->exc))
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
		return error("etmcheck: core %d: instruction %llu at 0x%08x is outside the program image",
			     ci, (unsigned long long)c->insns, r->pc);

	const uint8_t *p = rg->data + (r->pc - rg->base);
	uint16_t hw1 = p[0] | p[1] << 8, hw2 = p[2] | p[3] << 8;
	struct etm4_insn in = { .pc = r->pc, .next = next, .size = etm_thumb_size(hw1) };
	uint32_t target;

	in.kind = etm_thumb_class(hw1, hw2, NULL);
	if (in.kind == ETM_THUMB_DIRECT && next != r->pc + in.size &&
	    (etm_thumb_target(r->pc, hw1, hw2, &target) || target != next))
		return error("etmcheck: core %d: instruction %llu: the branch at 0x%08x goes to 0x%08x, "
			     "its encoding %04x %04x says 0x%08x",
			     ci, (unsigned long long)c->insns, r->pc, next, hw1, hw2, target);
	if (r->flags & ST_TRUTH_TAIL)
		in.flags = ETM4_EXC_RETURN | ETM4_TAIL;
	else if (r->flags & ST_TRUTH_EXC_RETURN)
		in.flags = ETM4_EXC_RETURN;
	if (etm4_insn(c->enc, &in) || push(c, r->pc))
		return -1;
	c->insns++;
	if (in.flags & ETM4_TAIL) {
		/* the return tail-chained: the new handler returns where the old one would have */
		unsigned num = r->regs[ISA_R_XPSR] & 0x1ff;

		if (!c->nexc)
			return error("etmcheck: core %d: instruction %llu: a tail-chained exception return "
				     "with no exception active",
				     ci, (unsigned long long)c->insns);
		if (etm4_exception(c->enc, num, c->exc[c->nexc - 1], next) ||
		    push(c, ETM_OCSD_EXC | num))
			return -1;
	} else if ((in.flags & ETM4_EXC_RETURN) && c->nexc)
		c->nexc--;
	etm4_get_stats(c->enc, &st);
	if (st.traced == c->insns)
		c->covered = c->n;
	c->cur_pc = next;
	return 0;
}

int main(int argc, char **argv)
{
	const char *rec = NULL, *raw = NULL;
	uint64_t sync = 4096;
	int quiet = 0, arch = -1, k, ncores, bad = 0;
	char path[4096];
	struct st_manifest man;
	struct isa_elf elf;
	struct st_truth_reader *tr;
	struct st_truth_rec r;
	static struct core cores[ST_TRUTH_MAX_CORES];
	static struct image img;
	struct etm_ocsd_mem mem = { .regions = img.r };
	uint64_t tot_bytes = 0, tot_insns = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sync") && i + 1 < argc) {
			if (parse_u64(argv[++i], &sync)) {
				fprintf(stderr, "etmcheck: --sync %s is not a number\n", argv[i]);
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
		return 1;
	if (arch < 0)
		arch = man.model == ISA_CORTEX_M33;
	snprintf(path, sizeof(path), "%s/%s", rec, man.elf);
	if (isa_elf_load(path, write_image, &img, &elf))
		return 1;
	mem.n = img.n;
	snprintf(path, sizeof(path), "%s/truth.gz", rec);
	tr = st_truth_open(path);
	if (!tr)
		return 1;
	ncores = st_truth_ncores(tr);
	for (int c = 0; c < ncores; c++) {
		struct etm4_cfg cfg = { .trace_id = 0x10 + c, .sync_period = sync, .v8m = arch };

		cores[c].enc = etm4_new(&cfg);
		if (!cores[c].enc)
			return 1;
	}
	while ((k = st_truth_next(tr, &r)) == 1) {
		if (r.type != ST_TRUTH_RESET && r.type != ST_TRUTH_INSN && r.type != ST_TRUTH_EXC)
			continue;
		if (step(&cores[r.core], r.core, &r, &mem))
			return 1;
	}
	if (k < 0)
		return 1;
	st_truth_close_reader(tr);

	for (int c = 0; c < ncores; c++) {
		struct core *co = &cores[c];
		struct etm4_cfg cfg = { .trace_id = 0x10 + c, .sync_period = sync, .v8m = arch };
		struct etm4_stats st;
		const uint8_t *data;
		size_t len;
		int dk;

		if (etm4_flush(co->enc))
			return 1;
		data = etm4_data(co->enc, &len);
		etm4_get_stats(co->enc, &st);
		if (raw) {
			FILE *f;

			snprintf(path, sizeof(path), "%s/etm4-core%d.bin", raw, c);
			f = fopen(path, "wb");
			if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
				error("etmcheck: cannot write %s", path);
				return 1;
			}
		}
		dk = etm_ocsd_decode(&cfg, &mem, data, len, check_pc, co);
		if (!co->bad && !dk && co->got != co->covered) {
			co->bad = 1;
			co->bad_index = co->got_insns;
			co->bad_want = co->want[co->got];
			co->bad_got = ~0ull;
		}
		if (co->bad) {
			char w[64], g[64];

			show(w, sizeof(w), co->bad_want);
			show(g, sizeof(g), co->bad_got);
			fprintf(stderr, "etmcheck: %s: core %d: mismatch at instruction %zu: the truth has %s, "
					"OpenCSD decoded %s\n",
				rec, c, co->bad_index, w, g);
			bad = 1;
		} else if (dk)
			bad = 1;
		tot_bytes += len;
		tot_insns += co->insns;
		if (!quiet)
			printf("core %d: %zu instructions compared (%llu retired, %llu after the last P0 "
			       "element untraced), %zu mismatches, %zu bytes, %.4f bits/instruction "
			       "(%llu atoms, %llu addresses, %llu exceptions, %llu syncs)\n",
			       c, co->got_insns, (unsigned long long)co->insns,
			       (unsigned long long)(co->insns - st.traced), co->bad, len,
			       co->insns ? 8.0 * len / co->insns : 0.0, (unsigned long long)st.atoms,
			       (unsigned long long)st.addresses, (unsigned long long)st.exceptions,
			       (unsigned long long)st.syncs);
	}
	printf("etmcheck: %s: %d cores, ETMv4 (%s), %llu instructions, %llu bytes, %.4f bits/instruction, %s\n",
	       rec, ncores, arch ? "ARMv8-M" : "ARMv7-M", (unsigned long long)tot_insns,
	       (unsigned long long)tot_bytes, tot_insns ? 8.0 * tot_bytes / tot_insns : 0.0,
	       bad ? "MISMATCH" : "0 mismatches");
	for (int c = 0; c < ncores; c++) {
		etm4_free(cores[c].enc);
		free(cores[c].want);
	}
	isa_elf_release(&elf);
	for (int i = 0; i < img.n; i++)
		free((void *)img.r[i].data);
	return bad;
}

/*
 * truth_test: random recordings on 1..8 cores, some with FP registers ('F'
 * records), read back record for record (whole states from masks, cycles
 * from dcycle), files cut anywhere give a prefix and never a crash, and bad
 * files are refused with their messages.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "streams/truth.h"
#include "tests/unit/capture.h"
#include "tests/unit/tap.h"

/* ---- helpers ----------------------------------------------------------- */

static char dir[64];

/* dir/name, in one of 8 buffers used in turn. */
static const char *in_dir(const char *name)
{
	static char bufs[8][256];
	static int k;
	char *b = bufs[k++ % 8];

	snprintf(b, 256, "%s/%s", dir, name);
	return b;
}

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd64(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint32_t rnd(uint32_t n)
{
	return (uint32_t)(rnd64() % n);
}

#define ALL_REGS ((1u << ISA_NREGS) - 1)
#define ALL_FP ((1ull << ISA_NFPREGS) - 1)

/* ---- a model of what the reader must give back -------------------------- */

struct model {
	int ncores;
	uint32_t regs[ST_TRUTH_MAX_CORES][ISA_NREGS];
	int has_fp[ST_TRUTH_MAX_CORES];
	uint32_t fp[ST_TRUTH_MAX_CORES][ISA_NFPREGS];
	uint64_t cycle[ST_TRUTH_MAX_CORES];
	struct st_truth_rec *recs;
	size_t n, alloc;
};

static struct st_truth_rec *push(struct model *m)
{
	struct st_truth_rec *r;

	if (m->n == m->alloc) {
		m->alloc = m->alloc ? 2 * m->alloc : 1024;
		m->recs = realloc(m->recs, m->alloc * sizeof(*m->recs));
		if (!m->recs)
			abort();
	}
	r = &m->recs[m->n++];
	memset(r, 0, sizeof(*r));
	return r;
}

/* The next state of core: some registers change (none, a few or all). */
static void step_regs(const uint32_t *prev, uint32_t *regs)
{
	unsigned how = rnd(10);

	memcpy(regs, prev, ISA_NREGS * sizeof(*regs));
	if (how == 0)
		return;
	for (int r = 0; r < ISA_NREGS; r++)
		if (how == 1 || rnd(6) == 0)
			regs[r] = how == 2 ? regs[r] : (uint32_t)rnd64();
	regs[ISA_R_PC] += 2; /* the PC nearly always moves */
}

static uint32_t mask_of(const uint32_t *a, const uint32_t *b)
{
	uint32_t m = 0;

	for (int r = 0; r < ISA_NREGS; r++)
		if (a[r] != b[r])
			m |= 1u << r;
	return m;
}

/*
 * A core with an FPU, before its step's record: its FP registers change
 * (mostly not, sometimes a few, sometimes all) and go to the writer; the
 * step's record r gets what the reader must give back.
 */
static void step_fp(struct st_truth_writer *w, struct model *m, int c, struct st_truth_rec *r)
{
	unsigned how = rnd(8);
	uint64_t changed = 0;

	if (!m->has_fp[c])
		return;
	for (int i = 0; i < ISA_NFPREGS && how; i++)
		if (how == 1 || rnd(10) == 0) {
			uint32_t v = how == 2 ? m->fp[c][i] : (uint32_t)rnd64();

			if (v != m->fp[c][i])
				changed |= 1ull << i;
			m->fp[c][i] = v;
		}
	st_truth_fp(w, c, m->fp[c]);
	r->has_fp = 1;
	memcpy(r->fp, m->fp[c], sizeof(r->fp));
	r->fp_changed = changed;
}

/*
 * Write a random recording of about n records on ncores cores to path
 * through the writer, and what it should read back into *m.
 */
static int make_recording(const char *path, int ncores, int n, struct model *m)
{
	struct st_truth_writer *w = st_truth_create(path, ncores);
	struct st_truth_rec *r;
	uint32_t regs[ISA_NREGS];

	memset(m, 0, sizeof(*m));
	m->ncores = ncores;
	if (!w)
		return -1;
	for (int c = 0; c < ncores; c++) {
		for (int i = 0; i < ISA_NREGS; i++)
			m->regs[c][i] = (uint32_t)rnd64();
		r = push(m);
		/* about half the cores have an FPU: all 33 registers before the reset */
		if ((m->has_fp[c] = rnd(2))) {
			for (int i = 0; i < ISA_NFPREGS; i++)
				m->fp[c][i] = rnd(2) ? 0 : (uint32_t)rnd64();
			st_truth_fp(w, c, m->fp[c]);
			r->has_fp = 1;
			memcpy(r->fp, m->fp[c], sizeof(r->fp));
			r->fp_changed = ALL_FP;
		}
		st_truth_reset(w, c, m->regs[c]);
		r->type = ST_TRUTH_RESET;
		r->core = c;
		memcpy(r->regs, m->regs[c], sizeof(r->regs));
		r->changed = ALL_REGS;
	}
	for (int i = 0; i < n; i++) {
		int c = (int)rnd((uint32_t)ncores);
		unsigned kind = rnd(10);

		if (kind < 3) {
			static const unsigned sizes[] = {1, 2, 4};
			unsigned size = sizes[rnd(3)];
			uint32_t value = (uint32_t)rnd64();

			r = push(m);
			r->type = ST_TRUTH_ACCESS;
			r->core = c;
			r->kind = (enum isa_access)rnd(ISA_ACC_FETCH + 1);
			r->size = size;
			r->store = rnd(2);
			r->addr = (uint32_t)rnd64();
			/* the writer keeps only the access's bytes */
			r->value = size == 4 ? value : value & ((1u << (8 * size)) - 1);
			st_truth_access(w, c, r->kind, size, (int)r->store, r->addr, value);
			continue;
		}
		step_regs(m->regs[c], regs);
		/* mostly small steps, sometimes none, sometimes the largest dcycle */
		m->cycle[c] += rnd(8) == 0 ? (rnd(2) ? 0 : UINT32_MAX) : rnd(40);
		r = push(m);
		step_fp(w, m, c, r);
		r->core = c;
		r->changed = mask_of(m->regs[c], regs);
		memcpy(m->regs[c], regs, sizeof(regs));
		memcpy(r->regs, regs, sizeof(regs));
		r->cycle = m->cycle[c];
		if (kind < 9) {
			r->type = ST_TRUTH_INSN;
			r->flags = rnd(8);
			r->pc = (uint32_t)rnd64() & ~1u;
			st_truth_insn(w, c, r->flags, r->pc, r->cycle, regs);
		} else {
			r->type = ST_TRUTH_EXC;
			r->exc = rnd(2) ? rnd(512) : 0xffff;
			st_truth_exc(w, c, r->exc, r->cycle, regs);
		}
	}
	r = push(m);
	r->type = ST_TRUTH_EXIT;
	r->core = (int)rnd((uint32_t)ncores);
	r->status = (uint32_t)rnd64();
	r->cycle = m->cycle[r->core];
	st_truth_exit(w, r->core, r->status);
	return st_truth_close(w);
}

/* Which field of two records differs, or NULL. */
static const char *rec_diff(const struct st_truth_rec *a, const struct st_truth_rec *b)
{
	if (a->type != b->type)
		return "type";
	if (a->core != b->core)
		return "core";
	if (memcmp(a->regs, b->regs, sizeof(a->regs)))
		return "regs";
	if (a->changed != b->changed)
		return "changed";
	if (a->pc != b->pc)
		return "pc";
	if (a->flags != b->flags)
		return "flags";
	if (a->type != ST_TRUTH_ACCESS && a->cycle != b->cycle)
		return "cycle";
	if (a->exc != b->exc)
		return "exc";
	if (a->kind != b->kind || a->size != b->size || a->store != b->store)
		return "kind/size/store";
	if (a->addr != b->addr || a->value != b->value)
		return "addr/value";
	if (a->status != b->status)
		return "status";
	if (a->has_fp != b->has_fp)
		return "has_fp";
	if (memcmp(a->fp, b->fp, sizeof(a->fp)))
		return "fp";
	if (a->fp_changed != b->fp_changed)
		return "fp_changed";
	return NULL;
}

/*
 * Read path and check it against the first records of m. Returns what the
 * last st_truth_next said (0 at a clean end, -1 after an error, or -2 if the
 * file would not open), with the number of records that matched in *got.
 */
static int read_back(const char *path, const struct model *m, size_t *got, const char **why)
{
	struct st_truth_reader *r = st_truth_open(path);
	struct st_truth_rec rec;
	int k;

	*got = 0;
	*why = NULL;
	if (!r)
		return -2;
	if (st_truth_ncores(r) != m->ncores) {
		*why = "ncores";
		st_truth_close_reader(r);
		return -1;
	}
	while ((k = st_truth_next(r, &rec)) == 1) {
		if (*got >= m->n) {
			*why = "more records than written";
			break;
		}
		if ((*why = rec_diff(&rec, &m->recs[*got])))
			break;
		++*got;
	}
	if (!*why && st_truth_count(r) != *got)
		*why = "st_truth_count";
	st_truth_close_reader(r);
	return k;
}

/* ---- round trips ------------------------------------------------------- */

static void test_round_trips(void)
{
	const char *path = in_dir("rt.gz");

	for (int ncores = 1; ncores <= ST_TRUTH_MAX_CORES; ncores++) {
		struct model m;
		size_t got;
		const char *why;
		int k;

		if (!tap_ok(!make_recording(path, ncores, 3000, &m), "%d cores: write", ncores))
			continue;
		k = read_back(path, &m, &got, &why);
		if (!tap_ok(k == 0 && got == m.n && !why, "%d cores: %zu records read back equal",
			    ncores, m.n))
			tap_diag("k %d, %zu of %zu, %s", k, got, m.n, why ? why : "");
		free(m.recs);
	}
}

/* The records' fields as the reader fills them, on one small recording. */
static void test_fields(void)
{
	const char *path = in_dir("fields.gz");
	struct st_truth_writer *w = st_truth_create(path, 2);
	struct st_truth_reader *r;
	struct st_truth_rec rec;
	uint32_t regs[ISA_NREGS] = {0}, regs1[ISA_NREGS] = {0};
	int ok;

	regs[ISA_R_PC] = 0x100;
	regs1[ISA_R_PC] = 0x200;
	st_truth_reset(w, 0, regs);
	st_truth_reset(w, 1, regs1);
	st_truth_access(w, 1, ISA_ACC_LOAD, 2, 0, 0x20000002, 0xdeadbeef);
	regs1[3] = 7;
	regs1[ISA_R_PC] = 0x202;
	st_truth_insn(w, 1, ST_TRUTH_FAULTED, 0x200, 5, regs1);
	regs[ISA_R_PC] = 0x40;
	regs[ISA_R_XPSR] = 15;
	st_truth_exc(w, 0, 15, 12, regs);
	st_truth_insn(w, 0, ST_TRUTH_EXC_RETURN | ST_TRUTH_TAIL, 0x40, 12, regs);
	st_truth_exit(w, 1, 3);
	tap_ok(!st_truth_close(w), "write a small recording");

	r = st_truth_open(path);
	if (!tap_ok(r != NULL, "open it"))
		return;
	tap_is_int(st_truth_ncores(r), 2, "2 cores");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_RESET && rec.core == 0 &&
	     rec.regs[ISA_R_PC] == 0x100 && rec.changed == ALL_REGS && rec.cycle == 0;
	tap_ok(ok, "reset of core 0: whole state, every register changed");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_RESET && rec.core == 1 &&
	     rec.regs[ISA_R_PC] == 0x200;
	tap_ok(ok, "reset of core 1");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_ACCESS && rec.core == 1 &&
	     rec.kind == ISA_ACC_LOAD && rec.size == 2 && !rec.store && rec.addr == 0x20000002 &&
	     rec.value == 0xbeef;
	tap_ok(ok, "an access: only the low size bytes of the value");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_INSN && rec.core == 1 &&
	     rec.flags == ST_TRUTH_FAULTED && rec.pc == 0x200 && rec.cycle == 5 &&
	     rec.changed == ((1u << 3) | (1u << ISA_R_PC)) && rec.regs[3] == 7 &&
	     rec.regs[ISA_R_PC] == 0x202;
	tap_ok(ok, "an instruction: mask of r3 and pc, the whole state after it");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_EXC && rec.core == 0 &&
	     rec.exc == 15 && rec.cycle == 12 && rec.regs[ISA_R_XPSR] == 15 &&
	     rec.changed == ((1u << ISA_R_PC) | (1u << ISA_R_XPSR));
	tap_ok(ok, "an exception entry on core 0 at its own cycle 12");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_INSN && rec.core == 0 &&
	     rec.flags == (ST_TRUTH_EXC_RETURN | ST_TRUTH_TAIL) && rec.changed == 0 &&
	     rec.cycle == 12 && rec.regs[ISA_R_PC] == 0x40;
	tap_ok(ok, "nothing changed, no cycle spent: mask 0, dcycle 0");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_EXIT && rec.core == 1 &&
	     rec.status == 3;
	tap_ok(ok, "the exit record");
	tap_is_int(st_truth_next(r, &rec), 0, "then the end");
	tap_is_int(st_truth_next(r, &rec), 0, "and the end again");
	tap_is_int(st_truth_count(r), 7, "7 records");
	st_truth_close_reader(r);
}

/*
 * FP registers on one small recording: core 1 has an FPU, core 0 none. An
 * unchanged state writes no 'F' record (fp_changed 0), a changed one only
 * its registers; 'F' records are never returned nor counted.
 */
static void test_fp_fields(void)
{
	const char *path = in_dir("fp.gz");
	struct st_truth_writer *w = st_truth_create(path, 2);
	struct st_truth_reader *r;
	struct st_truth_rec rec;
	uint32_t regs[ISA_NREGS] = {0}, fp[ISA_NFPREGS], fp0[ISA_NFPREGS];
	int ok;

	for (int i = 0; i < ISA_NFPREGS; i++)
		fp[i] = (uint32_t)i * 3;
	memcpy(fp0, fp, sizeof(fp));
	st_truth_reset(w, 0, regs);
	st_truth_fp(w, 1, fp);
	st_truth_reset(w, 1, regs);
	st_truth_fp(w, 1, fp); /* unchanged: nothing written */
	st_truth_insn(w, 1, 0, 0x100, 1, regs);
	fp[7] = 0x3f800000;
	fp[32] = 0x03000000;
	st_truth_fp(w, 1, fp);
	st_truth_exc(w, 1, 11, 2, regs);
	st_truth_insn(w, 0, 0, 0x200, 3, regs);
	st_truth_exit(w, 0, 0);
	tap_ok(!st_truth_close(w), "write a small recording with FP records");

	r = st_truth_open(path);
	if (!tap_ok(r != NULL, "open it"))
		return;
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_RESET && rec.core == 0 &&
	     !rec.has_fp && !rec.fp_changed;
	tap_ok(ok, "core 0's reset: no FP state");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_RESET && rec.core == 1 &&
	     rec.has_fp && rec.fp_changed == ALL_FP && !memcmp(rec.fp, fp0, sizeof(fp0));
	tap_ok(ok, "core 1's reset: its 'F' record folded in, every FP register");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_INSN && rec.core == 1 &&
	     rec.has_fp && rec.fp_changed == 0 && !memcmp(rec.fp, fp0, sizeof(fp0));
	tap_ok(ok, "an instruction that changed no FP register: the whole state, mask 0");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_EXC && rec.core == 1 &&
	     rec.exc == 11 && rec.has_fp && rec.fp_changed == ((1ull << 7) | (1ull << 32)) &&
	     !memcmp(rec.fp, fp, sizeof(fp));
	tap_ok(ok, "an exception entry after s7 and fpscr changed");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_INSN && rec.core == 0 &&
	     !rec.has_fp;
	tap_ok(ok, "core 0's instruction: still no FP state");
	ok = st_truth_next(r, &rec) == 1 && rec.type == ST_TRUTH_EXIT && !rec.has_fp;
	tap_ok(ok, "the exit record");
	tap_is_int(st_truth_next(r, &rec), 0, "then the end");
	tap_is_int(st_truth_count(r), 6, "6 records ('F' ones not counted)");
	st_truth_close_reader(r);
}

/* ---- cut files --------------------------------------------------------- */

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	struct stat st;

	if (!f || fstat(fileno(f), &st)) {
		if (f)
			fclose(f);
		return NULL;
	}
	buf = malloc(st.st_size ? st.st_size : 1);
	*n = fread(buf, 1, st.st_size, f);
	fclose(f);
	return buf;
}

static void spit(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (f) {
		fwrite(buf, 1, n, f);
		fclose(f);
	}
}

static void test_cut(void)
{
	const char *full = in_dir("full.gz"), *cut = in_dir("cut.gz");
	struct model m;
	unsigned char *bytes;
	size_t size = 0, got;
	const char *why;
	int bad = 0, prefixes = 0, errors = 0, cuts = 0;

	if (make_recording(full, 4, 20000, &m) || !(bytes = slurp(full, &size)))
		return;
	/* every offset near both ends, and a spread in between */
	for (size_t at = 0; at < size; at += at < 64 || at > size - 64 ? 1 : 1 + size / 97) {
		int k;

		spit(cut, bytes, at);
		capture_start();
		k = read_back(cut, &m, &got, &why);
		capture_end();
		if (why || (k == 0 && got == m.n) || (k == 1)) {
			if (!bad++)
				tap_diag("cut at %zu of %zu: k %d, %zu records, %s", at, size, k,
					 got, why ? why : "");
		}
		prefixes += got > 0;
		errors += k < 0;
		cuts++;
	}
	tap_ok(!bad, "a cut file reads as a prefix of the records, then an error");
	tap_ok(prefixes > 50, "most cuts keep records (%d did)", prefixes);
	tap_is_int(errors, cuts, "every cut is reported (an error, or the open fails)");

	/* the last record cut in the uncompressed data */
	{
		gzFile g = gzopen(cut, "wb");
		const char *msg;
		char want[512];
		int k;

		/* header + the first reset record without its last byte */
		gzwrite(g, "RPTRUTH1\004", 9);
		gzwrite(g, "R\000", 2);
		for (int i = 0; i < ISA_NREGS * 4 - 1; i++)
			gzputc(g, 0);
		gzclose(g);
		capture_start();
		k = read_back(cut, &m, &got, &why);
		msg = capture_end();
		snprintf(want, sizeof(want), "raptor: error: %s: truncated record at byte 9\n",
			 cut);
		if (!tap_ok(k == -1 && !strcmp(msg, want), "a record cut short: its byte offset"))
			tap_diag("got: %s", msg);
	}

	/* a file cut inside the gzip trailer: every record, then an error */
	spit(cut, bytes, size - 4);
	{
		const char *msg;
		int k;

		capture_start();
		k = read_back(cut, &m, &got, &why);
		msg = capture_end();
		if (!tap_ok(k == -1 && got == m.n && strstr(msg, "ends early"),
			    "cut in the gzip trailer: all records, then 'ends early'"))
			tap_diag("k %d, %zu of %zu: %s", k, got, m.n, msg);
	}

	/*
	 * A flipped byte: deflate may hand out garbage before the CRC check
	 * at the end catches it, so records may differ; what matters is an
	 * error in the end and no crash.
	 */
	{
		int all_failed = 1;

		for (int i = 1; i < 16; i++) {
			size_t at = size * i / 16;
			struct st_truth_reader *r;
			struct st_truth_rec rec;
			int k = -1;

			bytes[at] ^= 0x5a;
			spit(cut, bytes, size);
			bytes[at] ^= 0x5a;
			capture_start();
			if ((r = st_truth_open(cut))) {
				while ((k = st_truth_next(r, &rec)) == 1)
					;
				st_truth_close_reader(r);
			}
			capture_end();
			all_failed &= k < 0;
		}
		tap_ok(all_failed, "a corrupt byte anywhere ends in an error");
	}
	free(bytes);
	free(m.recs);
}

/* ---- the prefix is readable while the writer runs ----------------------- */

static void test_flush(void)
{
	const char *path = in_dir("live.gz");
	struct st_truth_writer *w = st_truth_create(path, 2);
	uint32_t regs[ISA_NREGS] = {0};
	const char *msg;
	size_t got;
	const char *why;
	struct model m;
	int k;

	memset(&m, 0, sizeof(m));
	m.ncores = 2;
	for (int c = 0; c < 2; c++) {
		struct st_truth_rec *r = push(&m);

		st_truth_reset(w, c, regs);
		r->type = ST_TRUTH_RESET;
		r->core = c;
		r->changed = ALL_REGS;
	}
	for (int i = 1; i <= 5000; i++) {
		struct st_truth_rec *r = push(&m);

		regs[ISA_R_PC] = (uint32_t)i * 2;
		regs[i % 13] = (uint32_t)i;
		r->type = ST_TRUTH_INSN;
		r->core = i & 1;
		r->pc = (uint32_t)i;
		r->cycle = (uint64_t)i;
		st_truth_insn(w, r->core, 0, r->pc, r->cycle, regs);
		/* each core's state, as the reader rebuilds it */
		r->changed = mask_of(m.regs[r->core], regs);
		memcpy(m.regs[r->core], regs, sizeof(regs));
		memcpy(r->regs, regs, sizeof(regs));
	}
	tap_ok(!st_truth_flush(w), "flush while recording");
	capture_start();
	k = read_back(path, &m, &got, &why);
	msg = capture_end();
	if (!tap_ok(!why && got == m.n, "every record flushed is readable (%zu)", got))
		tap_diag("%zu of %zu: %s", got, m.n, why ? why : "");
	/* a flush ends a gzip member: what a killed recorder leaves reads cleanly to there */
	tap_ok(k == 0 && !*msg, "then a clean end: the flush wrote whole gzip members");
	tap_ok(!st_truth_close(w), "close");
	k = read_back(path, &m, &got, &why);
	tap_ok(k == 0 && got == m.n, "after close: the same records and a clean end");
	free(m.recs);
}

/* ---- refused files ----------------------------------------------------- */

/* A gzip file holding the n bytes of data. */
static void gz_file(const char *path, const void *data, size_t n)
{
	gzFile g = gzopen(path, "wb");

	gzwrite(g, data, (unsigned)n);
	gzclose(g);
}

/* Open (and read all of) path: the last message must end with want. */
static void refused(const char *what, const char *path, const char *want)
{
	struct st_truth_reader *r;
	struct st_truth_rec rec;
	const char *msg;
	char line[512];
	int k = -1;

	capture_start();
	r = st_truth_open(path);
	if (r) {
		while ((k = st_truth_next(r, &rec)) == 1)
			;
		if (k == -1)
			k = st_truth_next(r, &rec); /* stays failed, no second message */
		st_truth_close_reader(r);
	}
	msg = capture_end();
	snprintf(line, sizeof(line), "raptor: error: %s: %s\n", path, want);
	if (!tap_ok(k == -1 && !strcmp(msg, line), "%s", what))
		tap_diag("got: %s# want: %s", msg, line);
}

/* An 'F' record of core at p holding the registers of mask (values i + 1): its size. */
static size_t put_fp(unsigned char *p, int core, uint64_t mask)
{
	size_t n = 10;

	p[0] = 'F';
	p[1] = (unsigned char)core;
	for (int i = 0; i < 8; i++)
		p[2 + i] = (unsigned char)(mask >> (8 * i));
	for (int i = 0; i < 64; i++)
		if (mask >> i & 1) {
			memset(p + n, 0, 4);
			p[n] = (unsigned char)(i + 1);
			n += 4;
		}
	return n;
}

static void test_refused_fp(const char *path)
{
	unsigned char b[1024];
	size_t n, reset = 2 + 4 * ISA_NREGS, full = 10 + 4 * ISA_NFPREGS;

	/* header, core 0's first 'F' (every register) at byte 9, its reset at 151 */
	memset(b, 0, sizeof(b));
	memcpy(b, "RPTRUTH1\002", 9);
	n = 9 + put_fp(b + 9, 0, ALL_FP);
	gz_file(path, b, n - 1);
	refused("an FP record cut short", path, "truncated record at byte 9");
	gz_file(path, b, 9 + 5);
	refused("an FP record cut in its mask", path, "truncated record at byte 9");
	gz_file(path, b, n);
	refused("an FP record at the end of the file", path,
		"the 'F' record at byte 9 for core 0 ends the file (its core's 'R', 'I' or 'X' "
		"record must follow)");
	b[n] = 'R';
	b[n + 1] = 1;
	gz_file(path, b, n + reset);
	refused("an FP record followed by another core's record", path,
		"the 'F' record at byte 9 for core 0 is followed by 'R' for core 1 at byte 151, "
		"not its core's 'R', 'I' or 'X' record");
	b[n + 1] = 0;
	n += reset;
	n += put_fp(b + n, 0, 1);
	memcpy(b + n, "A\000\000\004\000", 5);
	gz_file(path, b, n + 13);
	refused("an FP record followed by an access", path,
		"the 'F' record at byte 245 for core 0 is followed by 'A' for core 0 at byte 259, "
		"not its core's 'R', 'I' or 'X' record");
	n = 245;
	put_fp(b + n, 0, ALL_FP | 1ull << ISA_NFPREGS);
	gz_file(path, b, n + full + 4);
	refused("an FP mask past the last FP register", path,
		"FP register mask 0x00000003ffffffff at byte 245 has bits past register 32");
	put_fp(b + n, 0, 1ull << 63);
	gz_file(path, b, n + 14);
	refused("an FP mask with bit 63", path,
		"FP register mask 0x8000000000000000 at byte 245 has bits past register 32");
	put_fp(b + n, 2, 1);
	gz_file(path, b, n + 14);
	refused("an FP record for a core out of range", path,
		"record 'F' at byte 245 for core 2 of 2");
	/* core 1's first 'F' after its reset, then without every register */
	memcpy(b + n, "R\001", 2);
	memset(b + n + 2, 0, reset - 2);
	put_fp(b + n + reset, 1, ALL_FP);
	gz_file(path, b, n + reset + full);
	refused("a core's first FP record after its reset", path,
		"the first 'F' record of core 1, at byte 339, comes after its reset record");
	put_fp(b + n, 1, ALL_FP & ~(1ull << 32));
	gz_file(path, b, n + full - 4);
	refused("a core's first FP record without every register", path,
		"the first 'F' record of core 1, at byte 245, does not hold every FP register "
		"(mask 0x00000000ffffffff)");
}

static void test_refused(void)
{
	const char *path = in_dir("bad.gz");
	unsigned char b[256];
	size_t n;

	spit(path, "RPTRUTH1\002 plain text, not gzip\n", 32);
	refused("a file that is not gzip", path, "not a gzip file");
	spit(path, "", 0);
	refused("an empty file", path, "not a gzip file");
	gz_file(path, "RPTRUTH2\002", 9);
	refused("bad magic", path, "not a truth file (no RPTRUTH1 magic)");
	gz_file(path, "RPTRUTH1", 8);
	refused("no ncores byte", path, "not a truth file (no RPTRUTH1 magic)");
	gz_file(path, "RPTRUTH1\000", 9);
	refused("0 cores", path, "0 cores (1..8)");
	gz_file(path, "RPTRUTH1\011", 9);
	refused("9 cores", path, "9 cores (1..8)");
	refused("a missing file", in_dir("nonexistent.gz"),
		"cannot read: No such file or directory");

	/* records: header, then one reset of core 0 (all zero), then the bad one */
	memset(b, 0, sizeof(b));
	memcpy(b, "RPTRUTH1\002R", 10);
	n = 9 + 2 + 4 * ISA_NREGS;
	b[n] = 'Q';
	gz_file(path, b, n + 2);
	refused("unknown record type", path, "unknown record type 0x51 at byte 103");
	b[n] = 'E';
	b[n + 1] = 2;
	gz_file(path, b, n + 6);
	refused("core out of range", path, "record 'E' at byte 103 for core 2 of 2");
	b[n] = 'I';
	b[n + 1] = 1;
	gz_file(path, b, n + 15);
	refused("an instruction before its core's reset", path,
		"record 'I' at byte 103 for core 1 before its reset record");
	b[n + 1] = 0;
	b[n + 14] = 0x80; /* mask bit 31 */
	gz_file(path, b, n + 15);
	refused("a mask past the last register", path,
		"register mask 0x80000000 at byte 103 has bits past register 22");
	b[n + 14] = 0;
	b[n + 2] = 8;
	gz_file(path, b, n + 15);
	refused("unknown flags", path, "instruction record at byte 103 with flags 0x08");
	b[n + 2] = 0;
	b[n + 11] = 1; /* mask: r0 changed, but its value is missing */
	gz_file(path, b, n + 15);
	refused("values missing after the mask", path, "truncated record at byte 103");
	memset(b + n, 0, 20);
	b[n] = 'A';
	b[n + 2] = ISA_ACC_FETCH + 1;
	b[n + 3] = 4;
	gz_file(path, b, n + 13);
	refused("bad access kind", path,
		"bad access record at byte 103 (kind 8, size 4, store 0, value 0x00000000)");
	b[n + 2] = 0;
	b[n + 3] = 2;
	b[n + 11] = 1; /* value byte 2 set in a 2-byte access */
	gz_file(path, b, n + 13);
	refused("access value wider than its size", path,
		"bad access record at byte 103 (kind 0, size 2, store 0, value 0x00010000)");
	memset(b + n, 0, 20);
	b[n] = 'E';
	b[n + 6] = 'E';
	gz_file(path, b, n + 12);
	refused("a record after the exit", path, "record at byte 109 after the exit record");
	test_refused_fp(path);
}

/* ---- the writer refuses ------------------------------------------------ */

static void test_writer_errors(void)
{
	const char *path = in_dir("w.gz");
	struct st_truth_writer *w;
	uint32_t regs[ISA_NREGS] = {0};
	const char *msg;
	char want[512];
	int r1, r2;

	capture_start();
	w = st_truth_create(in_dir("no/such/dir.gz"), 2);
	msg = capture_end();
	snprintf(want, sizeof(want),
		 "raptor: error: %s: cannot create: No such file or directory\n",
		 in_dir("no/such/dir.gz"));
	tap_ok(!w && !strcmp(msg, want), "create in a missing directory");
	capture_start();
	w = st_truth_create(path, 9);
	msg = capture_end();
	snprintf(want, sizeof(want), "raptor: error: %s: 9 cores (1..8)\n", path);
	tap_ok(!w && !strcmp(msg, want), "create for 9 cores");

	w = st_truth_create(path, 2);
	st_truth_reset(w, 0, regs);
	st_truth_insn(w, 1, 0, 0, 1, regs);
	st_truth_insn(w, 0, 0, 0, 1, regs); /* dropped after the error */
	capture_start();
	r1 = st_truth_flush(w);
	r2 = st_truth_close(w);
	msg = capture_end();
	snprintf(want, sizeof(want),
		 "raptor: error: %s: instruction record for core 1 before its reset record\n",
		 path);
	tap_ok(r1 == -1 && r2 == -1 && !strcmp(msg, want),
	       "an instruction before the reset: flush and close fail, one message");

	w = st_truth_create(path, 1);
	st_truth_reset(w, 0, regs);
	st_truth_insn(w, 0, 0, 0, 10, regs);
	st_truth_insn(w, 0, 0, 0, 9, regs);
	capture_start();
	r1 = st_truth_close(w);
	msg = capture_end();
	snprintf(want, sizeof(want),
		 "raptor: error: %s: instruction record for core 0 at cycle 9 after cycle 10\n",
		 path);
	tap_ok(r1 == -1 && !strcmp(msg, want), "a core's cycle going back");

	w = st_truth_create(path, 1);
	st_truth_reset(w, 0, regs);
	st_truth_exc(w, 0, 1, 1ull << 32, regs);
	capture_start();
	r1 = st_truth_close(w);
	msg = capture_end();
	tap_ok(r1 == -1 &&
		   strstr(msg, "exception record for core 0 at cycle 4294967296 after cycle 0"),
	       "a dcycle that does not fit 32 bits");

	w = st_truth_create(path, 3);
	st_truth_access(w, 3, ISA_ACC_LOAD, 4, 0, 0, 0);
	st_truth_access(w, 0, ISA_ACC_LOAD, 3, 0, 0, 0);
	capture_start();
	r1 = st_truth_close(w);
	msg = capture_end();
	tap_ok(r1 == -1 && strstr(msg, "access record for core 3 of 3") && capture_lines(msg) == 1,
	       "a core out of range (first error only)");

	w = st_truth_create("/dev/full", 1);
	if (w) {
		st_truth_reset(w, 0, regs);
		capture_start();
		r1 = st_truth_flush(w);
		r2 = st_truth_close(w);
		msg = capture_end();
		tap_ok(r1 == -1 && r2 == -1 &&
			   !strcmp(msg, "raptor: error: /dev/full: cannot write: No space left on "
					"device\n"),
		       "a full disk: flush fails, close fails, one message");
	}

	w = st_truth_create(path, 1);
	st_truth_exit(w, 0, 0);
	st_truth_reset(w, 0, regs);
	capture_start();
	r1 = st_truth_close(w);
	msg = capture_end();
	tap_ok(r1 == -1 && strstr(msg, "reset record for core 0 after the exit record"),
	       "a record after the exit");

	{
		uint32_t fp[ISA_NFPREGS] = {0};

		w = st_truth_create(path, 2);
		st_truth_reset(w, 0, regs);
		st_truth_fp(w, 0, fp);
		capture_start();
		r1 = st_truth_close(w);
		msg = capture_end();
		tap_ok(r1 == -1 && strstr(msg, "FP record for core 0 after its reset record (the "
					       "first comes before it)"),
		       "a core's first FP record after its reset");

		w = st_truth_create(path, 2);
		st_truth_fp(w, 0, fp);
		st_truth_reset(w, 1, regs);
		capture_start();
		r1 = st_truth_close(w);
		msg = capture_end();
		tap_ok(r1 == -1 && strstr(msg, "reset record for core 1 right after core 0's FP "
					       "record"),
		       "another core's record right after an FP record");

		w = st_truth_create(path, 1);
		st_truth_fp(w, 0, fp);
		st_truth_reset(w, 0, regs);
		fp[3] = 1;
		st_truth_fp(w, 0, fp);
		st_truth_access(w, 0, ISA_ACC_LOAD, 4, 0, 0, 0);
		capture_start();
		r1 = st_truth_close(w);
		msg = capture_end();
		tap_ok(r1 == -1 && strstr(msg, "access record for core 0 right after core 0's FP "
					       "record"),
		       "an access right after an FP record");
	}
}

int main(void)
{
	static const char *const files[] = {"rt.gz",  "fields.gz", "fp.gz",  "full.gz",
					    "cut.gz", "live.gz",   "bad.gz", "w.gz"};

	snprintf(dir, sizeof(dir), "/tmp/truth_test.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_round_trips();
	test_fields();
	test_fp_fields();
	test_cut();
	test_flush();
	test_refused();
	test_writer_errors();
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		unlink(in_dir(files[i]));
	rmdir(dir);
	return tap_done();
}

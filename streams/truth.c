#include "streams/truth.h"

#include <errno.h>
#include <libdeflate.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/*
 * Record sizes (truth.h has the layouts). A state record carries at most
 * every register, so nothing is longer than TR_MAX bytes.
 *
 *   'R' type core regs[ISA_NREGS]                       2 + 4 * ISA_NREGS
 *   'A' type core kind size store addr value            5 + 4 + 4
 *   'I' type core flags pc dcycle mask values[n]        3 + 12 + 4 n
 *   'X' type core exc(u16) dcycle mask values[n]        2 + 2 + 8 + 4 n
 *   'E' type core status                                2 + 4
 *   'F' type core mask(u64) values[n]                   2 + 8 + 4 n
 */
#define TR_HEAD (sizeof(ST_TRUTH_MAGIC) - 1 + 1)
#define TR_RESET (2 + 4 * ISA_NREGS)
#define TR_ACCESS 13
#define TR_INSN 15
#define TR_EXC 12
#define TR_EXIT 6
#define TR_FP 10
#define TR_MAX_INT (TR_INSN + 4 * ISA_NREGS)
#define TR_MAX_FP (TR_FP + 4 * ISA_NFPREGS)
#define TR_MAX (TR_MAX_INT > TR_MAX_FP ? TR_MAX_INT : TR_MAX_FP)
#define TR_ALL_REGS ((uint32_t)((1ull << ISA_NREGS) - 1))
#define TR_ALL_FP ((1ull << ISA_NFPREGS) - 1)

/*
 * Records are gathered here, and each buffer full (or what there is at a
 * flush) becomes one gzip member, compressed by libdeflate at level 1: a
 * gzip file may hold any number of members one after the other, and every
 * gzip reader (zlib's gzread, gzip -t, Python's gzip) reads them as one
 * stream. libdeflate at level 1 takes well under half the time zlib's
 * deflate took at its level 1 (all of record --truth of fpmath-m4-O0:
 * 0.77 -> 0.43 s of CPU), and the file is a quarter smaller.
 */
#define TR_WBUF (1024 * 1024)
#define TR_LEVEL 1
/* The reader's buffer: gzread in big pieces, records parsed in place. */
#define TR_RBUF (256 * 1024)

static inline uint8_t *put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
	return p + 4;
}

static inline uint32_t get32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Bits set in x, in a few instructions (__builtin_popcount calls libgcc without -mpopcnt). */
static inline unsigned popcount32(uint32_t x)
{
	x -= x >> 1 & 0x55555555u;
	x = (x & 0x33333333u) + (x >> 2 & 0x33333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0fu;
	return (x * 0x01010101u) >> 24;
}

static inline uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/*
 * zlib's account of the last error on f, with errno when it is a system
 * error. gzerror says "path: what"; our messages name the path already.
 */
static const char *gz_message(gzFile f, const char *path, int saved_errno)
{
	size_t n = strlen(path);
	int num = 0;
	const char *msg = gzerror(f, &num);

	if (num == Z_ERRNO)
		return strerror(saved_errno);
	if (!msg || !*msg)
		return "unknown zlib error";
	if (!strncmp(msg, path, n) && !strncmp(msg + n, ": ", 2))
		msg += n + 2;
	return msg;
}

/* ---- writer ------------------------------------------------------------- */

struct st_truth_writer {
	FILE *f;
	struct libdeflate_compressor *z;
	uint8_t *out; /* a member, compressed: zbound bytes */
	size_t zbound;
	char *path;
	int ncores;
	uint8_t *buf;
	size_t len;
	uint32_t regs[ST_TRUTH_MAX_CORES][ISA_NREGS]; /* as the last record left them */
	uint64_t cycle[ST_TRUTH_MAX_CORES];
	unsigned char reset[ST_TRUTH_MAX_CORES];
	int exited;
	/* FP registers as the core's last 'F' record left them (has_fp: it had one) */
	uint32_t fp[ST_TRUTH_MAX_CORES][ISA_NFPREGS];
	unsigned char has_fp[ST_TRUTH_MAX_CORES];
	int fp_pending; /* 1 + the core whose 'F' was just written (its step comes next) */
	/*
	 * The recorder appends a record per instruction and cannot stop to
	 * look at a return value each time: the first error is kept here,
	 * later records are dropped, and flush/close report it (once).
	 */
	int failed, reported;
	char err[512];
};

static void PRINTF_LIKE(2, 3) w_fail(struct st_truth_writer *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->failed)
		return;
	w->failed = 1;
	n = snprintf(w->err, sizeof(w->err), "%s: ", w->path);
	if (n < 0 || (size_t)n >= sizeof(w->err))
		return;
	va_start(ap, fmt);
	vsnprintf(w->err + n, sizeof(w->err) - n, fmt, ap);
	va_end(ap);
}

/* Print the kept error the first time; -1 if there is one. */
static int w_report(struct st_truth_writer *w)
{
	if (!w->failed)
		return 0;
	if (!w->reported) {
		w->reported = 1;
		error("%s", w->err);
	}
	return -1;
}

/* The buffered records to the file as one gzip member. */
static void spill(struct st_truth_writer *w)
{
	size_t n;

	if (w->failed || !w->len)
		return;
	n = libdeflate_gzip_compress(w->z, w->buf, w->len, w->out, w->zbound);
	if (!n)
		w_fail(w, "cannot compress %zu bytes (libdeflate)", w->len);
	else if (fwrite(w->out, 1, n, w->f) != n)
		w_fail(w, "cannot write: %s", strerror(errno));
	w->len = 0;
}

/* Room for one record of at most TR_MAX bytes; NULL once failed. */
static inline uint8_t *room(struct st_truth_writer *w)
{
	if (w->failed)
		return NULL;
	if (w->len + TR_MAX > TR_WBUF) {
		spill(w);
		if (w->failed)
			return NULL;
	}
	return w->buf + w->len;
}

#define W_NEED_RESET 1 /* an instruction or exception: the core's reset came before */
#define W_STATE 2      /* a reset, instruction or exception: may follow the core's 'F' */

/*
 * Refuse a record for a core out of range, after the exit, (W_NEED_RESET)
 * before its reset, or other than (W_STATE) a state record of the core
 * whose 'F' record was just written.
 */
static int w_core(struct st_truth_writer *w, int core, const char *what, unsigned how)
{
	if (core < 0 || core >= w->ncores) {
		w_fail(w, "%s record for core %d of %d", what, core, w->ncores);
		return -1;
	}
	if (w->exited) {
		w_fail(w, "%s record for core %d after the exit record", what, core);
		return -1;
	}
	if ((how & W_NEED_RESET) && !w->reset[core]) {
		w_fail(w, "%s record for core %d before its reset record", what, core);
		return -1;
	}
	if (w->fp_pending && (!(how & W_STATE) || core != w->fp_pending - 1)) {
		w_fail(w,
		       "%s record for core %d right after core %d's FP record (its reset, "
		       "instruction or exception record must follow)",
		       what, core, w->fp_pending - 1);
		return -1;
	}
	w->fp_pending = 0;
	return 0;
}

struct st_truth_writer *st_truth_create(const char *path, int ncores)
{
	struct st_truth_writer *w;

	if (ncores < 1 || ncores > ST_TRUTH_MAX_CORES) {
		error("%s: %d cores (1..%d)", path, ncores, ST_TRUTH_MAX_CORES);
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->f = fopen(path, "wbe");
	if (!w->f) {
		error("%s: cannot create: %s", path, strerror(errno));
		free(w);
		return NULL;
	}
	w->z = libdeflate_alloc_compressor(TR_LEVEL);
	if (!w->z) {
		error("%s: cannot set up libdeflate's compressor: out of memory", path);
		fclose(w->f);
		free(w);
		return NULL;
	}
	w->zbound = libdeflate_gzip_compress_bound(w->z, TR_WBUF);
	w->out = xmalloc(w->zbound);
	w->path = xstrdup(path);
	w->ncores = ncores;
	w->buf = xmalloc(TR_WBUF);
	memcpy(w->buf, ST_TRUTH_MAGIC, TR_HEAD - 1);
	w->buf[TR_HEAD - 1] = (uint8_t)ncores;
	w->len = TR_HEAD;
	return w;
}

void st_truth_reset(struct st_truth_writer *w, int core, const uint32_t regs[ISA_NREGS])
{
	uint8_t *p;

	if (w_core(w, core, "reset", W_STATE) || !(p = room(w)))
		return;
	*p++ = ST_TRUTH_RESET;
	*p++ = (uint8_t)core;
	for (int r = 0; r < ISA_NREGS; r++)
		p = put32(p, regs[r]);
	w->len += TR_RESET;
	memcpy(w->regs[core], regs, sizeof(w->regs[core]));
	w->reset[core] = 1;
}

void st_truth_access(struct st_truth_writer *w, int core, enum isa_access kind, unsigned size,
		     int store, uint32_t addr, uint32_t value)
{
	uint8_t *p;

	if (w_core(w, core, "access", 0))
		return;
	if ((unsigned)kind > ISA_ACC_FETCH || (size != 1 && size != 2 && size != 4)) {
		w_fail(w, "access record for core %d: kind %d, size %u", core, (int)kind, size);
		return;
	}
	if (!(p = room(w)))
		return;
	*p++ = ST_TRUTH_ACCESS;
	*p++ = (uint8_t)core;
	*p++ = (uint8_t)kind;
	*p++ = (uint8_t)size;
	*p++ = store != 0;
	p = put32(p, addr);
	/* only the low size bytes are the access's: the reader relies on the rest being 0 */
	put32(p, size == 4 ? value : value & ((1u << (8 * size)) - 1));
	w->len += TR_ACCESS;
}

/*
 * The cycles since the core's previous state record, and the changed
 * registers; p points where the mask goes. Returns the end of the record.
 */
static uint8_t *put_delta(struct st_truth_writer *w, int core, uint64_t cycle,
			  const uint32_t regs[ISA_NREGS], uint8_t *p)
{
	uint32_t *prev = w->regs[core], mask = 0;
	uint8_t *mp = p + 4;

	p = put32(p, (uint32_t)(cycle - w->cycle[core]));
	p += 4;
	for (int r = 0; r < ISA_NREGS; r++) {
		if (regs[r] != prev[r]) {
			mask |= 1u << r;
			p = put32(p, regs[r]);
			prev[r] = regs[r];
		}
	}
	put32(mp, mask);
	w->cycle[core] = cycle;
	return p;
}

/* dcycle is 32 bits: a core's clock only goes forward, by less than 2^32 at a time. */
static int w_cycle(struct st_truth_writer *w, int core, const char *what, uint64_t cycle)
{
	if (cycle < w->cycle[core] || cycle - w->cycle[core] > UINT32_MAX) {
		w_fail(w, "%s record for core %d at cycle %llu after cycle %llu", what, core,
		       (unsigned long long)cycle, (unsigned long long)w->cycle[core]);
		return -1;
	}
	return 0;
}

void st_truth_insn(struct st_truth_writer *w, int core, unsigned flags, uint32_t pc, uint64_t cycle,
		   const uint32_t regs[ISA_NREGS])
{
	uint8_t *p, *start;

	if (w_core(w, core, "instruction", W_NEED_RESET | W_STATE) ||
	    w_cycle(w, core, "instruction", cycle))
		return;
	if (flags & ~(ST_TRUTH_FAULTED | ST_TRUTH_EXC_RETURN | ST_TRUTH_TAIL)) {
		w_fail(w, "instruction record for core %d: flags 0x%x", core, flags);
		return;
	}
	if (!(start = p = room(w)))
		return;
	*p++ = ST_TRUTH_INSN;
	*p++ = (uint8_t)core;
	*p++ = (uint8_t)flags;
	p = put32(p, pc);
	p = put_delta(w, core, cycle, regs, p);
	w->len += p - start;
}

void st_truth_exc(struct st_truth_writer *w, int core, unsigned exc, uint64_t cycle,
		  const uint32_t regs[ISA_NREGS])
{
	uint8_t *p, *start;

	if (w_core(w, core, "exception", W_NEED_RESET | W_STATE) ||
	    w_cycle(w, core, "exception", cycle))
		return;
	if (exc > 0xffff) {
		w_fail(w, "exception record for core %d: exception %u", core, exc);
		return;
	}
	if (!(start = p = room(w)))
		return;
	*p++ = ST_TRUTH_EXC;
	*p++ = (uint8_t)core;
	*p++ = (uint8_t)exc;
	*p++ = (uint8_t)(exc >> 8);
	p = put_delta(w, core, cycle, regs, p);
	w->len += p - start;
}

void st_truth_exit(struct st_truth_writer *w, int core, uint32_t status)
{
	uint8_t *p;

	if (w_core(w, core, "exit", 0) || !(p = room(w)))
		return;
	*p++ = ST_TRUTH_EXIT;
	*p++ = (uint8_t)core;
	put32(p, status);
	w->len += TR_EXIT;
	w->exited = 1;
}

void st_truth_fp(struct st_truth_writer *w, int core, const uint32_t v[ISA_NFPREGS])
{
	uint8_t *p, *start;
	uint32_t *prev;
	uint64_t mask = 0;

	if (w_core(w, core, "FP", 0))
		return;
	if (!w->has_fp[core] && w->reset[core]) {
		w_fail(w,
		       "FP record for core %d after its reset record (the first comes before it)",
		       core);
		return;
	}
	prev = w->fp[core];
	for (int i = 0; i < ISA_NFPREGS; i++)
		if (!w->has_fp[core] || v[i] != prev[i])
			mask |= 1ull << i;
	if (!mask)
		return;
	if (!(start = p = room(w)))
		return;
	*p++ = ST_TRUTH_FP;
	*p++ = (uint8_t)core;
	p = put32(p, (uint32_t)mask);
	p = put32(p, (uint32_t)(mask >> 32));
	for (int i = 0; i < ISA_NFPREGS; i++)
		if (mask >> i & 1) {
			p = put32(p, v[i]);
			prev[i] = v[i];
		}
	w->len += p - start;
	w->has_fp[core] = 1;
	w->fp_pending = core + 1;
}

int st_truth_flush(struct st_truth_writer *w)
{
	/* a whole member: what is on disk reads up to here if the process dies */
	spill(w);
	if (!w->failed && fflush(w->f))
		w_fail(w, "cannot write: %s", strerror(errno));
	return w_report(w);
}

int st_truth_close(struct st_truth_writer *w)
{
	int ret;

	if (!w)
		return 0;
	spill(w);
	if (fclose(w->f) && !w->failed)
		w_fail(w, "cannot write: %s", strerror(errno));
	ret = w_report(w);
	libdeflate_free_compressor(w->z);
	free(w->out);
	free(w->buf);
	free(w->path);
	free(w);
	return ret;
}

/* ---- reader ------------------------------------------------------------- */

struct st_truth_reader {
	gzFile gz;
	char *path;
	int ncores;
	uint8_t *buf;
	size_t pos, len; /* unread bytes are buf[pos, len) */
	uint64_t off;	 /* offset of buf[pos] in the uncompressed data */
	int eof;	 /* gzread has nothing more */
	char cut[128];	 /* at eof: why the compressed data ended early, or "" */
	int failed;
	int exited;
	uint64_t count;
	uint32_t regs[ST_TRUTH_MAX_CORES][ISA_NREGS];
	uint64_t cycle[ST_TRUTH_MAX_CORES];
	unsigned char reset[ST_TRUTH_MAX_CORES];
	uint32_t fp[ST_TRUTH_MAX_CORES][ISA_NFPREGS];
	unsigned char has_fp[ST_TRUTH_MAX_CORES];
	/* the 'F' record just read: 1 + its core (0: none), its mask and byte offset */
	int fp_pending;
	uint64_t fp_mask, fp_off;
};

/*
 * Make n bytes readable at buf + pos: 1 if they are, 0 if the data ends
 * first, -1 with an error if the compressed data is corrupt.
 */
static int fill(struct st_truth_reader *r, size_t n)
{
	while (r->len - r->pos < n) {
		int got;

		if (r->eof)
			return 0;
		if (r->pos) {
			memmove(r->buf, r->buf + r->pos, r->len - r->pos);
			r->len -= r->pos;
			r->pos = 0;
		}
		errno = 0;
		got = gzread(r->gz, r->buf + r->len, (unsigned)(TR_RBUF - r->len));
		if (got < 0) {
			int e = errno;

			return error("%s: corrupt compressed data after byte %llu: %s", r->path,
				     (unsigned long long)(r->off + r->len - r->pos),
				     gz_message(r->gz, r->path, e));
		}
		if (got == 0) {
			int num = 0;

			/*
			 * A stream without its end (a recorder killed after a
			 * flush, or a file cut short) reads as a clean end
			 * with Z_BUF_ERROR set: remember it for the message.
			 */
			r->eof = 1;
			gzerror(r->gz, &num);
			if (num != Z_OK)
				snprintf(r->cut, sizeof(r->cut), "%s",
					 gz_message(r->gz, r->path, errno));
		}
		r->len += got;
	}
	return 1;
}

struct st_truth_reader *st_truth_open(const char *path)
{
	struct st_truth_reader *r;
	const uint8_t *h;
	int k;

	r = xcalloc(1, sizeof(*r));
	errno = 0;
	r->gz = gzopen(path, "rb");
	if (!r->gz) {
		error("%s: cannot read: %s", path, errno ? strerror(errno) : "out of memory");
		free(r);
		return NULL;
	}
	gzbuffer(r->gz, 128 * 1024);
	r->path = xstrdup(path);
	r->buf = xmalloc(TR_RBUF);

	k = fill(r, TR_HEAD);
	if (k < 0)
		goto fail;
	/* zlib reads a file without the gzip header as it is: refuse that */
	if (gzdirect(r->gz)) {
		error("%s: not a gzip file", path);
		goto fail;
	}
	h = r->buf;
	if (!k && r->cut[0]) {
		error("%s: the compressed data ends inside the header (%s)", path, r->cut);
		goto fail;
	}
	if (!k || memcmp(h, ST_TRUTH_MAGIC, TR_HEAD - 1)) {
		error("%s: not a truth file (no %s magic)", path, ST_TRUTH_MAGIC);
		goto fail;
	}
	r->ncores = h[TR_HEAD - 1];
	if (r->ncores < 1 || r->ncores > ST_TRUTH_MAX_CORES) {
		error("%s: %d cores (1..%d)", path, r->ncores, ST_TRUTH_MAX_CORES);
		goto fail;
	}
	r->pos = TR_HEAD;
	r->off = TR_HEAD;
	return r;
fail:
	st_truth_close_reader(r);
	return NULL;
}

int st_truth_ncores(const struct st_truth_reader *r)
{
	return r->ncores;
}

uint64_t st_truth_count(const struct st_truth_reader *r)
{
	return r->count;
}

void st_truth_close_reader(struct st_truth_reader *r)
{
	if (!r)
		return;
	gzclose(r->gz);
	free(r->buf);
	free(r->path);
	free(r);
}

/* After an error every call fails at once: the stream is out of step. */
static int PRINTF_LIKE(2, 3) r_fail(struct st_truth_reader *r, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	r->failed = 1;
	return error("%s: %s", r->path, what);
}

/* n bytes of the record at the current offset, or the reason there are not. */
static int need(struct st_truth_reader *r, size_t n)
{
	int k = fill(r, n);

	if (k < 0) {
		r->failed = 1;
		return -1;
	}
	if (!k) {
		if (r->cut[0])
			return r_fail(r,
				      "truncated record at byte %llu (the compressed data ends "
				      "early: %s)",
				      (unsigned long long)r->off, r->cut);
		return r_fail(r, "truncated record at byte %llu", (unsigned long long)r->off);
	}
	return 0;
}

/* The changed registers after the mask at p into the core's state and rec. */
static int get_delta(struct st_truth_reader *r, struct st_truth_rec *rec, size_t fixed)
{
	const uint8_t *p;
	uint32_t mask, *regs = r->regs[rec->core];
	unsigned n;

	p = r->buf + r->pos + fixed - 8;
	rec->cycle = r->cycle[rec->core] += get32(p);
	mask = get32(p + 4);
	if (mask & ~TR_ALL_REGS)
		return r_fail(r, "register mask 0x%08x at byte %llu has bits past register %d",
			      mask, (unsigned long long)r->off, ISA_NREGS - 1);
	n = popcount32(mask);
	if (need(r, fixed + 4 * n))
		return -1;
	p = r->buf + r->pos + fixed;
	for (uint32_t m = mask; m; m &= m - 1, p += 4)
		regs[__builtin_ctz(m)] = get32(p);
	rec->changed = mask;
	memcpy(rec->regs, regs, sizeof(rec->regs));
	return (int)(fixed + 4 * n);
}

/* An 'F' record of core at the current offset into the core's FP state: its size, or -1. */
static int get_fp(struct st_truth_reader *r, int core)
{
	const uint8_t *p;
	uint64_t mask;
	unsigned n;

	if (need(r, TR_FP))
		return -1;
	mask = get64(r->buf + r->pos + 2);
	if (mask & ~TR_ALL_FP)
		return r_fail(
		    r, "FP register mask 0x%016llx at byte %llu has bits past register %d",
		    (unsigned long long)mask, (unsigned long long)r->off, ISA_NFPREGS - 1);
	if (!r->has_fp[core] && r->reset[core])
		return r_fail(r,
			      "the first 'F' record of core %d, at byte %llu, comes after its "
			      "reset record",
			      core, (unsigned long long)r->off);
	if (!r->has_fp[core] && mask != TR_ALL_FP)
		return r_fail(r,
			      "the first 'F' record of core %d, at byte %llu, does not hold "
			      "every FP register (mask 0x%016llx)",
			      core, (unsigned long long)r->off, (unsigned long long)mask);
	n = (unsigned)__builtin_popcountll(mask);
	if (need(r, TR_FP + 4 * n))
		return -1;
	p = r->buf + r->pos + TR_FP;
	for (uint64_t m = mask; m; m &= m - 1, p += 4)
		r->fp[core][__builtin_ctzll(m)] = get32(p);
	r->has_fp[core] = 1;
	r->fp_pending = core + 1;
	r->fp_mask = mask;
	r->fp_off = r->off;
	return (int)(TR_FP + 4 * n);
}

/* The next record, an 'F' one too (folded into the reader's state only): 1, 0, -1. */
static int read_record(struct st_truth_reader *r, struct st_truth_rec *rec)
{
	const uint8_t *p;
	int k, core, size;

	k = fill(r, 1);
	if (k < 0) {
		r->failed = 1;
		return -1;
	}
	if (!k) {
		if (r->cut[0])
			return r_fail(r,
				      "the compressed data ends early after byte %llu (%s): the "
				      "recording was cut short",
				      (unsigned long long)r->off, r->cut);
		return 0;
	}
	if (r->exited)
		return r_fail(r, "record at byte %llu after the exit record",
			      (unsigned long long)r->off);
	if (need(r, 2))
		return -1;
	p = r->buf + r->pos;
	core = p[1];
	memset(rec, 0, sizeof(*rec));
	rec->type = (enum st_truth_type)p[0];
	rec->core = core;
	switch (p[0]) {
	case ST_TRUTH_RESET:
	case ST_TRUTH_ACCESS:
	case ST_TRUTH_INSN:
	case ST_TRUTH_EXC:
	case ST_TRUTH_EXIT:
	case ST_TRUTH_FP: break;
	default:
		return r_fail(r, "unknown record type 0x%02x at byte %llu", p[0],
			      (unsigned long long)r->off);
	}
	if (core >= r->ncores)
		return r_fail(r, "record '%c' at byte %llu for core %d of %d", p[0],
			      (unsigned long long)r->off, core, r->ncores);
	if ((p[0] == ST_TRUTH_INSN || p[0] == ST_TRUTH_EXC) && !r->reset[core])
		return r_fail(r, "record '%c' at byte %llu for core %d before its reset record",
			      p[0], (unsigned long long)r->off, core);

	switch (rec->type) {
	case ST_TRUTH_RESET:
		if (need(r, TR_RESET))
			return -1;
		p = r->buf + r->pos + 2;
		for (int i = 0; i < ISA_NREGS; i++, p += 4)
			r->regs[core][i] = get32(p);
		r->reset[core] = 1;
		memcpy(rec->regs, r->regs[core], sizeof(rec->regs));
		rec->changed = TR_ALL_REGS;
		rec->cycle = r->cycle[core];
		size = TR_RESET;
		break;
	case ST_TRUTH_ACCESS:
		if (need(r, TR_ACCESS))
			return -1;
		p = r->buf + r->pos;
		rec->kind = (enum isa_access)p[2];
		rec->size = p[3];
		rec->store = p[4];
		rec->addr = get32(p + 5);
		rec->value = get32(p + 9);
		if (p[2] > ISA_ACC_FETCH || (p[3] != 1 && p[3] != 2 && p[3] != 4) || p[4] > 1 ||
		    (p[3] < 4 && rec->value >> (8 * p[3])))
			return r_fail(r,
				      "bad access record at byte %llu (kind %u, size %u, store "
				      "%u, value 0x%08x)",
				      (unsigned long long)r->off, p[2], p[3], p[4], rec->value);
		size = TR_ACCESS;
		break;
	case ST_TRUTH_INSN:
		if (need(r, TR_INSN))
			return -1;
		p = r->buf + r->pos;
		rec->flags = p[2];
		rec->pc = get32(p + 3);
		if (rec->flags & ~(ST_TRUTH_FAULTED | ST_TRUTH_EXC_RETURN | ST_TRUTH_TAIL))
			return r_fail(r, "instruction record at byte %llu with flags 0x%02x",
				      (unsigned long long)r->off, rec->flags);
		if ((size = get_delta(r, rec, TR_INSN)) < 0)
			return -1;
		break;
	case ST_TRUTH_EXC:
		if (need(r, TR_EXC))
			return -1;
		p = r->buf + r->pos;
		rec->exc = p[2] | (unsigned)p[3] << 8;
		if ((size = get_delta(r, rec, TR_EXC)) < 0)
			return -1;
		break;
	case ST_TRUTH_EXIT:
		if (need(r, TR_EXIT))
			return -1;
		rec->status = get32(r->buf + r->pos + 2);
		rec->cycle = r->cycle[core];
		r->exited = 1;
		size = TR_EXIT;
		break;
	case ST_TRUTH_FP:
		if ((size = get_fp(r, core)) < 0)
			return -1;
		break;
	default: return -1; /* not reached: the type was checked above */
	}
	r->pos += size;
	r->off += size;
	return 1;
}

/* A record that carries a core's state: RESET, INSN, EXC. */
static int is_state(enum st_truth_type t)
{
	return t == ST_TRUTH_RESET || t == ST_TRUTH_INSN || t == ST_TRUTH_EXC;
}

int st_truth_next(struct st_truth_reader *r, struct st_truth_rec *rec)
{
	uint64_t off;
	int k, pending;

	if (r->failed)
		return -1;
	/* 'F' records are folded in until the next record of another type */
	for (;;) {
		pending = r->fp_pending;
		off = r->off;
		k = read_record(r, rec);
		if (k < 0)
			return -1;
		if (pending && !k)
			return r_fail(r,
				      "the 'F' record at byte %llu for core %d ends the file (its "
				      "core's 'R', 'I' or 'X' record must follow)",
				      (unsigned long long)r->fp_off, pending - 1);
		if (pending && (!is_state(rec->type) || rec->core != pending - 1))
			return r_fail(r,
				      "the 'F' record at byte %llu for core %d is followed by "
				      "'%c' for core %d at byte %llu, not its core's 'R', 'I' or "
				      "'X' record",
				      (unsigned long long)r->fp_off, pending - 1, rec->type,
				      rec->core, (unsigned long long)off);
		if (!k)
			return 0;
		if (rec->type != ST_TRUTH_FP)
			break;
	}
	r->fp_pending = 0;
	if (is_state(rec->type)) {
		rec->has_fp = r->has_fp[rec->core];
		if (rec->has_fp)
			memcpy(rec->fp, r->fp[rec->core], sizeof(rec->fp));
		rec->fp_changed = pending ? r->fp_mask : 0;
	}
	r->count++;
	return 1;
}

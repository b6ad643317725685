/*
 * fuzz_cf, fuzz_lv: a stream decoder (streams/cfmsg.c, streams/lvmsg.c,
 * and for a control-flow-only recording replay/cfwalk.c) driven the way
 * the debugger drives it: through the replay (rpl_open_streams, rpl_run,
 * a seek back and forth), with the fuzz input as the stream of a small real
 * recording. Built twice from this file: -DFZ_LV=0 (cf.bin) and -DFZ_LV=1
 * (lv.bin).
 *
 * Input: byte 0 picks the base recording (bits 0..4, modulo their number)
 * and the padding (bits 5..7: the stream has 8 * (size - 1) - pad bits, as
 * the manifest then says); the rest is the stream. The seeds are the
 * base recordings' own streams (tests/fuzz/run.sh makes them).
 *
 * The base recordings are directories in fz_recs_dir(), used in place:
 * each one's manifest is read once, and every input is replayed with
 * rpl_open_streams, its bits in a copy of that manifest, the input itself
 * as the stream (libFuzzer's copy of it: ASan sees a read past its end)
 * and the base's other stream, read once. Nothing is written per input.
 * The oracle is the sanitizers, plus: the replay ends (a limit of 4 times
 * the base's length and 20000 instructions), and reaches the same position
 * again after going back to the beginning.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "streams/manifest.h"
#include "tests/fuzz/fuzz_util.h"
#include "util/util.h"

#ifndef FZ_LV
#define FZ_LV 0
#endif

struct base {
	char *dir;	       /* the recording */
	struct st_manifest mf; /* its manifest */
	uint8_t *other;	       /* its other stream (FZ_LV: cf.bin; else lv.bin or NULL) */
	uint64_t limit;	       /* instructions to run at most */
};

static struct base bases[32];
static int nbases;

/*
 * Opening a replay makes an instruction decoder and closing it frees it,
 * decode cache and all, so every input would decode its program again
 * (and the decoder's 8 MiB page table, before it was mapped, was 70% of
 * the time). So the Makefile links this target with
 * -Wl,--wrap=isa_decoder_new,--wrap=isa_decoder_free: each base recording
 * gets its decoder once and keeps it, decode cache and all (its program
 * never changes). `current` says whose it is.
 */
struct isa_decoder *__real_isa_decoder_new(enum isa_model model);
struct isa_decoder *__wrap_isa_decoder_new(enum isa_model model);
void __wrap_isa_decoder_free(struct isa_decoder *d);

static struct isa_decoder *decoders[ARRAY_SIZE(bases)][ISA_NMODELS];
static int current;

struct isa_decoder *__wrap_isa_decoder_new(enum isa_model model)
{
	struct isa_decoder **d = &decoders[current][(unsigned)model < ISA_NMODELS ? model : 0];

	if (!*d)
		*d = __real_isa_decoder_new(model);
	return *d;
}

void __wrap_isa_decoder_free(struct isa_decoder *d) {}

/*
 * The control-flow-only walk (replay/cfwalk.c) asks isa_describe about
 * each PC it reaches, once per replay: Capstone's disassembly and its
 * allocations were a quarter of fuzz_cf's time. A base's code never
 * changes (the walk runs no instruction: nothing writes to memory), so
 * the answers are kept per base for the whole run: the Makefile links
 * with --wrap=isa_describe too. Only successful answers are kept (a
 * failure also sets error_last: asked again).
 */
int __real_isa_describe(struct isa_decoder *d, const struct isa_bus *bus, uint32_t pc, char *buf,
			size_t len, unsigned *size, enum isa_cf *cf, uint32_t *target);
int __wrap_isa_describe(struct isa_decoder *d, const struct isa_bus *bus, uint32_t pc, char *buf,
			size_t len, unsigned *size, enum isa_cf *cf, uint32_t *target);

struct described {
	uint32_t pc;
	int used;
	unsigned size;
	enum isa_cf cf;
	uint32_t target;
	char text[256];
};

/* Per base: open addressing on the PC, at most half full. */
static struct memo {
	struct described *v;
	size_t cap, n;
} memos[ARRAY_SIZE(bases)];

static struct described *memo_slot(struct memo *m, uint32_t pc)
{
	size_t i = (pc * 0x9e3779b1u) & (m->cap - 1);

	while (m->v[i].used && m->v[i].pc != pc)
		i = (i + 1) & (m->cap - 1);
	return &m->v[i];
}

static void memo_grow(struct memo *m)
{
	struct memo g = {calloc(m->cap ? 2 * m->cap : 1024, sizeof(*g.v)),
			 m->cap ? 2 * m->cap : 1024, m->n};

	if (!g.v)
		abort();
	for (size_t i = 0; i < m->cap; i++)
		if (m->v[i].used)
			*memo_slot(&g, m->v[i].pc) = m->v[i];
	free(m->v);
	*m = g;
}

int __wrap_isa_describe(struct isa_decoder *d, const struct isa_bus *bus, uint32_t pc, char *buf,
			size_t len, unsigned *size, enum isa_cf *cf, uint32_t *target)
{
	struct memo *m = &memos[current];
	struct described *e;

	if (2 * (m->n + 1) > m->cap)
		memo_grow(m);
	e = memo_slot(m, pc);
	if (!e->used) {
		if (__real_isa_describe(d, bus, pc, e->text, sizeof(e->text), &e->size, &e->cf,
					&e->target))
			return -1;
		e->pc = pc;
		e->used = 1;
		m->n++;
	}
	if (buf && len)
		snprintf(buf, len, "%s", e->text);
	if (size)
		*size = e->size;
	if (cf)
		*cf = e->cf;
	if (target)
		*target = e->target;
	return 0;
}

static void add_base(const char *dir)
{
	struct base *b = &bases[nbases];
	char *path = fz_join(dir, "manifest.ini");
	struct rpl *r;

	if (st_manifest_read(path, &b->mf)) {
		fprintf(stderr, "fuzz: %s\n", error_last());
		abort();
	}
	free(path);
	if (FZ_LV ? !b->mf.lv_on : !b->mf.cf_on)
		return; /* no such stream in this recording (encoding = none): not a base for us */
	b->dir = strdup(dir);
	if (!b->dir)
		abort();
	if (FZ_LV || b->mf.lv_on) {
		path = fz_join(dir, FZ_LV ? b->mf.cf_file : b->mf.lv_file);
		b->other = (uint8_t *)fz_read(path, NULL);
		if (!b->other) {
			perror(path);
			abort();
		}
		free(path);
	}
	/* the base itself must replay: its length bounds the fuzzed replays */
	current = nbases;
	r = rpl_open(b->dir);
	if (!r || rpl_run(r, UINT64_MAX) < 0) {
		fprintf(stderr, "fuzz: the base recording %s does not replay: %s\n", dir,
			error_last());
		abort();
	}
	b->limit = 4 * rpl_position(r) + 20000;
	rpl_close(r);
	fprintf(stderr, "fuzz: base %d: %s\n", nbases, dir);
	nbases++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *recs = fz_recs_dir(), **dirs = fz_list_dirs(recs);

	for (char **d = dirs; *d && nbases < (int)ARRAY_SIZE(bases); d++) {
		add_base(*d);
		free(*d);
	}
	free(dirs);
	free(recs);
	if (!nbases) {
		fprintf(stderr, "fuzz: no base recording has a%s stream\n", FZ_LV ? "n lv" : " cf");
		abort();
	}
	error_quiet(1); /* the replay's messages are the inputs' business */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_manifest mf;
	struct base *b;
	uint64_t bits, pos;
	unsigned pad;
	struct rpl *r;
	int k;

	if (!size)
		return 0;
	current = (data[0] & 31) % nbases;
	b = &bases[current];
	pad = data[0] >> 5;
	bits = 8 * (uint64_t)(size - 1);
	bits = bits >= pad ? bits - pad : 0;
	mf = b->mf;
	if (FZ_LV) {
		mf.lv_bits = bits;
		r = rpl_open_streams(b->dir, &mf, b->other, data + 1);
	} else {
		mf.cf_bits = bits;
		r = rpl_open_streams(b->dir, &mf, data + 1, b->other);
	}
	if (!r)
		return 0;
	k = rpl_run(r, b->limit);
	pos = rpl_position(r);
	if (k == 0 && pos < b->limit) {
		fprintf(stderr, "fuzz: rpl_run returned 0 at position %llu, before its limit\n",
			(unsigned long long)pos);
		abort();
	}
	if (k >= 0 && pos) {
		/* back to the beginning (the first checkpoint) and forward again */
		if (rpl_seek_step(r, 0) < 0 || rpl_position(r) != 0) {
			fprintf(stderr, "fuzz: cannot go back to the beginning: %s\n",
				error_last());
			abort();
		}
		if (rpl_seek(r, pos) < 0 || rpl_position(r) != pos) {
			fprintf(stderr, "fuzz: position %llu again: at %llu: %s\n",
				(unsigned long long)pos, (unsigned long long)rpl_position(r),
				error_last());
			abort();
		}
	}
	rpl_close(r);
	return 0;
}

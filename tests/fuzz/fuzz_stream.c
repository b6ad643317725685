/*
 * fuzz_cf, fuzz_lv: a stream decoder (streams/cfmsg.c, streams/lvmsg.c,
 * and for a control-flow-only recording replay/cfwalk.c) driven the way
 * the debugger drives it: through the replay (rpl_open, rpl_run, a seek
 * back and forth), with the fuzz input as the stream of a small real
 * recording. Built twice from this file: -DFZ_LV=0 (cf.bin) and -DFZ_LV=1
 * (lv.bin).
 *
 * Input: byte 0 picks the base recording (bits 0..4, modulo their number)
 * and the padding (bits 5..7: the stream has 8 * (size - 1) - pad bits, as
 * the manifest then says); the rest is the stream file. The seeds are the
 * base recordings' own streams (tests/fuzz/run.sh makes them).
 *
 * The base recordings are directories in fz_recs_dir(); each is copied to
 * a scratch directory once, where every input rewrites the stream file and
 * the manifest's bits. The oracle is the sanitizers, plus: the replay ends
 * (a limit of 4 times the base's length and 20000 instructions), and
 * reaches the same position again after going back to the beginning.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "replay/replay.h"
#include "tests/fuzz/fuzz_util.h"
#include "util/util.h"

#ifndef FZ_LV
#define FZ_LV 0
#endif
#define FZ_SECTION (FZ_LV ? "[lv]" : "[cf]")

struct base {
	char *dir;	   /* the scratch copy */
	char *stream;	   /* its stream file */
	char *manifest;	   /* its manifest.ini */
	char *head, *tail; /* the manifest's text before and after the stream's bits */
	uint64_t limit;	   /* instructions to run at most */
};

static struct base bases[32];
static int nbases;

/*
 * rpl_open makes an instruction decoder and rpl_close frees it: 8 MiB of
 * decode-cache page pointers (isa/decode.c), allocated, then walked and
 * freed, for every input; that was 70% of the time. So the Makefile links
 * this target with -Wl,--wrap=isa_decoder_new,--wrap=isa_decoder_free:
 * each base recording gets its decoder once and keeps it, decode cache
 * and all (its program never changes). `current` says whose it is.
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

/* Split the manifest text at the number of "bits = N" in FZ_SECTION. 0 / -1. */
static int split_manifest(struct base *b, char *text)
{
	char *sec = strstr(text, FZ_SECTION), *bits, *end;

	if (!sec)
		return -1;
	bits = strstr(sec, "\nbits = ");
	if (!bits)
		return -1;
	bits += strlen("\nbits = ");
	end = bits + strspn(bits, "0123456789");
	b->tail = strdup(end);
	*bits = 0;
	b->head = strdup(text);
	return b->head && b->tail ? 0 : -1;
}

/* The value of "key = value" in FZ_SECTION of the manifest text, malloc'ed; NULL if absent. */
static char *section_value(const char *text, const char *key)
{
	const char *sec = strstr(text, FZ_SECTION), *p;
	char want[64];

	if (!sec)
		return NULL;
	snprintf(want, sizeof(want), "\n%s = ", key);
	p = strstr(sec, want);
	if (!p)
		return NULL;
	p += strlen(want);
	return strndup(p, strcspn(p, "\n"));
}

static void add_base(const char *from)
{
	static int ndirs;
	struct base *b = &bases[nbases];
	char name[32], *text, *file;
	struct rpl *r;

	snprintf(name, sizeof(name), "base%d", ndirs++);
	b->dir = fz_join(fz_tmpdir(), name);
	if (mkdir(b->dir, 0700)) {
		perror(b->dir);
		abort();
	}
	fz_copy_dir(from, b->dir);
	b->manifest = fz_join(b->dir, "manifest.ini");
	text = fz_read(b->manifest, NULL);
	if (!text) {
		perror(b->manifest);
		abort();
	}
	file = section_value(text, "file");
	if (!file || split_manifest(b, text)) {
		/* no such stream in this recording (encoding = none): not a base for us */
		free(file);
		free(text);
		free(b->head);
		free(b->tail);
		free(b->manifest);
		free(b->dir);
		memset(b, 0, sizeof(*b));
		return;
	}
	b->stream = fz_join(b->dir, file);
	free(file);
	free(text);
	/* the base itself must replay: its length bounds the fuzzed replays */
	current = nbases;
	r = rpl_open(b->dir);
	if (!r || rpl_run(r, UINT64_MAX) < 0) {
		fprintf(stderr, "fuzz: the base recording %s does not replay: %s\n", from,
			error_last());
		abort();
	}
	b->limit = 4 * rpl_position(r) + 20000;
	rpl_close(r);
	fprintf(stderr, "fuzz: base %d: %s\n", nbases, from);
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
		fprintf(stderr, "fuzz: no base recording has a %s stream\n", FZ_SECTION);
		abort();
	}
	error_quiet(1); /* the replay's messages are the inputs' business */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct base *b;
	uint64_t bits, pos;
	unsigned pad;
	struct rpl *r;
	char num[32];
	FILE *f;
	int k;

	if (!size)
		return 0;
	current = (data[0] & 31) % nbases;
	b = &bases[current];
	pad = data[0] >> 5;
	bits = 8 * (uint64_t)(size - 1);
	bits = bits >= pad ? bits - pad : 0;
	fz_write(b->stream, data + 1, size - 1);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)bits);
	f = fopen(b->manifest, "w");
	if (!f || fputs(b->head, f) == EOF || fputs(num, f) == EOF || fputs(b->tail, f) == EOF ||
	    fclose(f))
		abort();

	r = rpl_open(b->dir);
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

/*
 * fuzz_manifest: streams/manifest.c's reader (and, for what it accepts,
 * the writer) on arbitrary manifest.ini text.
 *
 * The input is written to a scratch file and read with st_manifest_read.
 * Oracle, besides the sanitizers: a manifest the reader accepts is one
 * the writer can write (st_manifest_write reads its own output back and
 * compares the text), unless a value holds what INI cannot say again
 * (quotes, ';' or '#', leading or trailing blanks): the writer then refuses
 * it with an error, which is fine; anything else aborts. And what it wrote
 * reads back into the same text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "streams/manifest.h"
#include "tests/fuzz/fuzz_util.h"
#include "util/util.h"

static char *in_path, *out_path, *again_path;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	in_path = fz_join(fz_tmpdir(), "in.ini");
	out_path = fz_join(fz_tmpdir(), "out.ini");
	again_path = fz_join(fz_tmpdir(), "again.ini");
	error_quiet(1);
	return 0;
}

/* Whether the writer may refuse m: a text field INI cannot carry as it is. */
static int unwritable(const struct st_manifest *m)
{
	const char *const fields[] = {m->tool, m->elf, m->cf_file, m->lv_file, m->truth_file};

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		const char *s = fields[i];
		size_t n = strlen(s);

		if (strpbrk(s, "\"';#=\\[]") ||
		    (n && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t')))
			return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_manifest m, back;
	char *a, *b;
	size_t na, nb;

	fz_write(in_path, data, size);
	if (st_manifest_read(in_path, &m))
		return 0;
	if (st_manifest_write(&m, out_path)) {
		if (unwritable(&m))
			return 0;
		fprintf(stderr, "fuzz: read, but cannot be written back: %s\n", error_last());
		abort();
	}
	if (st_manifest_read(out_path, &back)) {
		fprintf(stderr, "fuzz: written, but cannot be read back: %s\n", error_last());
		abort();
	}
	if (st_manifest_write(&back, again_path)) {
		fprintf(stderr, "fuzz: read back, but cannot be written again: %s\n", error_last());
		abort();
	}
	a = fz_read(out_path, &na);
	b = fz_read(again_path, &nb);
	if (!a || !b || na != nb || memcmp(a, b, na)) {
		fprintf(stderr, "fuzz: written twice, two different texts\n");
		abort();
	}
	free(a);
	free(b);
	return 0;
}

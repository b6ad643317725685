/*
 * open_test: rpl_open_streams against rpl_open on committed recordings
 * (traces/, read from the source tree, where the unit tests run): the
 * same manifest and streams in memory replay to the same end; streams cut
 * short in memory fail as the files would, with messages naming the files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "tests/unit/tap.h"

static uint8_t *slurp(const char *dir, const char *name)
{
	char path[512];
	uint8_t *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		if (f)
			fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

struct end {
	int rc;
	uint64_t position, steps, cycles[8];
};

/* Run r to the end (or its error) and close it. */
static struct end run_out(struct rpl *r)
{
	struct end e = {0};

	e.rc = rpl_run(r, UINT64_MAX);
	e.position = rpl_position(r);
	e.steps = rpl_steps(r);
	for (int c = 0; c < rpl_ncores(r) && c < 8; c++)
		e.cycles[c] = rpl_cycles(r, c);
	rpl_close(r);
	return e;
}

static void same_replay(const char *dir)
{
	struct st_manifest orig, mf;
	struct end want, got, failed = {.rc = -2};
	uint8_t *cf, *lv = NULL;
	struct rpl *r = rpl_open(dir);
	char file[600];

	if (!tap_ok(r != NULL, "%s: rpl_open", dir))
		return;
	orig = mf = *rpl_manifest(r);
	want = run_out(r);
	tap_is_int(want.rc, 1, "rpl_open: the replay reaches the end");
	cf = slurp(dir, mf.cf_file);
	if (mf.lv_on)
		lv = slurp(dir, mf.lv_file);
	if (!tap_ok(cf && (!mf.lv_on || lv), "%s: its streams read", dir))
		return;

	r = rpl_open_streams(dir, &mf, cf, lv);
	if (tap_ok(r != NULL, "rpl_open_streams: the same manifest and streams, in memory")) {
		tap_ok(!strcmp(rpl_dir(r), dir), "its directory is the one given");
		got = run_out(r);
		tap_is_int(got.rc, want.rc, "the replay ends the same way");
		tap_is_int((long long)got.position, (long long)want.position,
			   "at the same position");
		tap_is_int((long long)got.steps, (long long)want.steps, "after the same steps");
		tap_ok(!memcmp(got.cycles, want.cycles, sizeof(got.cycles)),
		       "with the same cycle count on every core");
	}

	/* the cf stream cut at half its bytes, as the manifest then says */
	mf.cf_bits = mf.cf_bits / 16 * 8;
	r = rpl_open_streams(dir, &mf, cf, lv);
	got = r ? run_out(r) : failed;
	snprintf(file, sizeof(file), "%s/%s", dir, mf.cf_file);
	tap_is_int(got.rc, -1, "cf cut short: the replay stops with an error");
	tap_ok(strstr(error_last(), file) != NULL, "naming %s: %s", file, error_last());
	mf = orig;

	if (mf.lv_on) {
		/* no load value at all */
		mf.lv_bits = 0;
		r = rpl_open_streams(dir, &mf, cf, NULL);
		got = r ? run_out(r) : failed;
		snprintf(file, sizeof(file), "%s/%s", dir, mf.lv_file);
		tap_is_int(got.rc, -1, "an empty lv stream given as NULL: an error");
		tap_ok(strstr(error_last(), file) != NULL, "naming %s: %s", file, error_last());
	}
	free(cf);
	free(lv);
}

int main(void)
{
	error_quiet(1); /* the errors are checked through error_last */
	same_replay("traces/publish");
	same_replay("traces/lost-update");
	return tap_done();
}

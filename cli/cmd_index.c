/*
 * raptor index: replay a recording to its end once and keep its checkpoints
 * and summaries in an index file (replay/index.h), which `replay` and
 * `serve` then load instead of re-running the recording. Also the helper
 * those two open a recording with.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "replay/index.h"
#include "replay/replay.h"

static const char index_usage[] =
    "usage: raptor index REC [options]\n"
    "\n"
    "Replay the recording in directory REC to its end and write its checkpoints\n"
    "(each one's state and memory pages, each distinct page once) and the\n"
    "summaries of the stretches between them to REC/" RPL_INDEX_NAME ", or, when\n"
    "REC is not writable, to the cache directory ($XDG_CACHE_HOME/raptor, else\n"
    "~/.cache/raptor) under a name derived from its key. `raptor replay` and\n"
    "`raptor serve` load a valid index instead of re-running the recording.\n"
    "\n"
    "The index is keyed by the SHA-256 of manifest.ini, the ELF and the streams,\n"
    "the index format's version and the interval: a stale, truncated or damaged\n"
    "index is reported and rebuilt, never used. Only the index file is written\n"
    "(atomically); the recording's files are only read.\n"
    "\n"
    "options:\n"
    "  --interval N    instructions between checkpoints (default 65536; replay\n"
    "                  and serve must use the same to use the index)\n"
    "  --memory SIZE   resident memory while indexing (default 512M; K, M, G\n"
    "                  suffixes; as raptor replay's): the index holds\n"
    "                  the checkpoints kept, dense near the end and sparse far\n"
    "                  from it\n"
    "  --force         rebuild even if a valid index exists\n"
    "  --cache-dir DIR the cache directory instead of $XDG_CACHE_HOME/raptor\n"
    "  -q, --quiet     no summary\n"
    "  -h, --help      this text\n"
    "\n"
    "Progress (position, share of the cf stream, MIPS) goes to stderr once a\n"
    "second when stderr is a terminal.\n"
    "\n"
    "Exit status: 0 when the index is up to date or written; 1 otherwise; 2 for\n"
    "bad usage.\n";

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Run r to its end, with progress on a terminal. 0 / -1. */
static int run_to_end(struct rpl *r, const char *who)
{
	int tty = isatty(2), k;
	double t0 = now(), last = t0, t;
	uint64_t p0 = rpl_position(r);

	rpl_set_sweep(r, 1);
	for (;;) {
		k = rpl_run(r, rpl_position(r) + 1000000);
		if (k < 0)
			break;
		t = now();
		if (tty && (t - last >= 1 || k == 1)) {
			double f = rpl_progress(r);

			fprintf(stderr, "\r%s: position %" PRIu64, who, rpl_position(r));
			if (f >= 0)
				fprintf(stderr, " (%.0f%% of the cf stream)", 100 * f);
			if (t > t0)
				fprintf(stderr, ", %.1f MIPS",
					(rpl_position(r) - p0) / (t - t0) / 1e6);
			fprintf(stderr, "   ");
			last = t;
		}
		if (k == 1)
			break;
	}
	rpl_set_sweep(r, 0);
	if (tty)
		fputc('\n', stderr);
	return k < 0 ? -1 : 0;
}

static struct rpl *open_set(const char *dir, uint64_t interval, uint64_t memory)
{
	struct rpl *r = rpl_open(dir);

	if (!r)
		return NULL;
	if (interval)
		rpl_set_interval(r, interval);
	rpl_set_memory(r, memory);
	return r;
}

struct rpl *cli_open_indexed(const char *dir, uint64_t interval, uint64_t memory, int use,
			     const char *cache_dir, int quiet, int *at_end, struct cli_index *info)
{
	struct rpl *r = open_set(dir, interval, memory);
	struct rpl_idx *x;
	int bad = 0, none;
	char *beside;
	double t0;

	*at_end = 0;
	if (info)
		*info = (struct cli_index){0};
	if (!r || !use)
		return r;
	/*
	 * An index goes beside a writable recording: none there, none at all,
	 * and replay (no info) needs no hashing; serve (info) builds one.
	 */
	beside = xmalloc(strlen(dir) + sizeof(RPL_INDEX_NAME) + 1);
	sprintf(beside, "%s/%s", dir, RPL_INDEX_NAME);
	none = access(beside, F_OK) && errno == ENOENT && !access(dir, W_OK);
	free(beside);
	if (none && !info)
		return r;
	if (!(x = rpl_idx_new(r, cache_dir)))
		return r; /* a file rpl_open read cannot be hashed: replay without */
	if (rpl_idx_find(x, &bad)) {
		t0 = now();
		if (!rpl_idx_load(x, r)) {
			if (!quiet)
				fprintf(stderr,
					"raptor: index: loaded %" PRIu64 " checkpoints from "
					"%s (%.2f s)\n",
					rpl_idx_count(x), rpl_idx_path(x), now() - t0);
			*at_end = 1;
			if (info) {
				snprintf(info->path, sizeof(info->path), "%s", rpl_idx_path(x));
				info->count = rpl_idx_count(x);
			}
			rpl_idx_free(x);
			return r;
		}
		/* valid to every check, yet it does not replay: start afresh */
		rpl_close(r);
		if (!(r = open_set(dir, interval, memory))) {
			rpl_idx_free(x);
			return NULL;
		}
		bad = 1;
	}
	if (info) {
		info->missing = 1; /* the caller builds it */
		bad = 0;
	}
	if (bad) {
		fprintf(stderr, "raptor: index: rebuilding the index of %s\n", dir);
		if (run_to_end(r, "raptor: index")) {
			rpl_idx_free(x);
			rpl_close(r);
			return NULL;
		}
		*at_end = 1;
		if (rpl_idx_write(x, r))
			warning("%s: the index could not be written; replaying without it", dir);
		else if (!quiet)
			fprintf(stderr, "raptor: index: wrote %" PRIu64 " checkpoints to %s\n",
				rpl_idx_count(x), rpl_idx_path(x));
	}
	rpl_idx_free(x);
	return r;
}

int cmd_index(int argc, char **argv)
{
	enum { O_INTERVAL = 256, O_MEMORY, O_FORCE, O_CACHE };
	static const struct option opts[] = {
	    {"interval", required_argument, NULL, O_INTERVAL},
	    {"memory", required_argument, NULL, O_MEMORY},
	    {"force", no_argument, NULL, O_FORCE},
	    {"cache-dir", required_argument, NULL, O_CACHE},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	uint64_t interval = 0, memory = RPL_DEFAULT_MEMORY;
	const char *cache = NULL, *dir;
	int opt, force = 0, quiet = 0, bad = 0, rc = 1;
	struct rpl_idx *x = NULL;
	double t0, t1, t2;
	struct rpl *r;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "hq", opts, NULL)) != -1) {
		switch (opt) {
		case O_INTERVAL:
			if (parse_u64(optarg, &interval) || !interval)
				return error("--interval: '%s' is not a positive number", optarg),
				       2;
			break;
		case O_MEMORY:
			if (parse_size(optarg, &memory))
				return error("--memory: '%s' is not a size (512M, 2G, ...)",
					     optarg),
				       2;
			break;
		case O_FORCE: force = 1; break;
		case O_CACHE: cache = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': fputs(index_usage, stdout); return 0;
		default: fputs(index_usage, stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		error("index: exactly one recording directory expected");
		fputs(index_usage, stderr);
		return 2;
	}
	dir = argv[optind];
	if (!(r = open_set(dir, interval, memory)))
		return 1;
	if (!(x = rpl_idx_new(r, cache)))
		goto out;
	if (!force && rpl_idx_find(x, &bad)) {
		if (!quiet)
			fprintf(stderr,
				"raptor index: %s: up to date (%" PRIu64 " checkpoints, %" PRIu64
				" bytes)\n",
				rpl_idx_path(x), rpl_idx_count(x), rpl_idx_bytes(x));
		rc = 0;
		goto out;
	}
	t0 = now();
	if (run_to_end(r, "raptor index"))
		goto out;
	t1 = now();
	if (rpl_idx_write(x, r))
		goto out;
	t2 = now();
	if (!quiet) {
		uint64_t deltas, sb = rpl_idx_state_bytes(x, &deltas);
		struct rpl_ckstore_stats cs;

		rpl_checkpoint_stats(r, &cs);
		fprintf(stderr,
			"raptor index: %s: %" PRIu64 " checkpoints over %" PRIu64
			" instructions (replayed in %.2f s, %.1f MIPS; written in %.2f s) to %s, "
			"%" PRIu64 " bytes (their states %" PRIu64 ", %" PRIu64 " of them deltas; "
			"%" PRIu64 " dropped on the way, %" PRIu64 " not laid down, as thinning "
			"would have dropped them before the end)\n",
			dir, rpl_idx_count(x), rpl_position(r), t1 - t0,
			t1 > t0 ? rpl_position(r) / (t1 - t0) / 1e6 : 0.0, t2 - t1, rpl_idx_path(x),
			rpl_idx_bytes(x), sb, deltas, cs.dropped, rpl_swept(r));
	}
	rc = 0;
out:
	rpl_idx_free(x);
	rpl_close(r);
	return rc;
}

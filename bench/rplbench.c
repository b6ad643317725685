/*
 * rplbench: time a replay's indexing and seeks through the replay/ API, for
 * bench/replay-index.sh. Not part of raptor: the CLI prints no checkpoint
 * count or seek latency without a ground truth, so this calls rpl_index,
 * rpl_checkpoints, rpl_seek and rpl_stepi itself; bench/scale.sh too.
 *
 * Usage: rplbench REC [INTERVAL [SEEKS [SEED [MEMORY]]]]
 *
 * Opens REC, sets the checkpoint interval (default RPL_DEFAULT_INTERVAL)
 * and the checkpoints' memory budget (default RPL_DEFAULT_MEMORY; a size
 * such as 64M),
 * replays to the end leaving checkpoints (rpl_index), then seeks SEEKS
 * (default 200) positions drawn uniformly from [0, end] in that random
 * order, forward or backward from wherever the previous seek left the
 * replay, and after each seek steps core 0 back by one instruction (a GDB
 * reverse-stepi). Prints key=value lines on stdout: index_s (CPU time) and
 * index_wall_s, instructions, checkpoints, checkpoint_bytes, rss_kb (peak
 * after indexing, getrusage), ck_* (the store: budget, the most it held,
 * how many states are compressed and from how many bytes to how many,
 * checkpoints dropped and laid down again), tindex_bytes (the time index),
 * walk_* (a control-flow-only replay's walk: its bytes, its messages, how
 * many of them packed, in how many bytes deflated and before), then
 * seek_{min,median,p90,p99,max,mean}_ms and rstep_{...}_ms, all CPU time.
 * Then the far searches GDB's reverse-continue makes, from the end: to a
 * breakpoint at the reset handler (executed only at the very beginning:
 * the search crosses the whole recording) and to a
 * write watchpoint on the first word stored in the run, as rcont_*_ms,
 * rcont_*_position (where each landed), and the store's ck_* and rss_kb
 * again at the end.
 * Exit status 0, 1 on a replay error, 2 for bad usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "replay/replay.h"

/*
 * CPU time of this process, not wall time: the benchmarks run on shared
 * machines where waiting for a CPU can triple a wall time, and a seek is
 * pure computation (page faults included, as system time).
 */
static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static double wall(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* The same generator as replay/check.c, so a seed means one set of positions. */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sort the n times (ms) and print min, median, p90, max and mean as PREFIX_*. */
static void summary(const char *prefix, double *ms, unsigned n)
{
	double sum = 0;

	if (!n)
		return;
	qsort(ms, n, sizeof(*ms), by_value);
	for (unsigned i = 0; i < n; i++)
		sum += ms[i];
	printf("%s_min_ms=%.3f\n%s_median_ms=%.3f\n%s_p90_ms=%.3f\n%s_p99_ms=%.3f\n"
	       "%s_max_ms=%.3f\n%s_mean_ms=%.3f\n",
	       prefix, ms[0], prefix, ms[n / 2], prefix, ms[n * 9 / 10], prefix, ms[n * 99 / 100],
	       prefix, ms[n - 1], prefix, sum / n);
}

static void store_stats(const struct rpl *r)
{
	struct rpl_ckstore_stats cs;

	rpl_checkpoint_stats(r, &cs);
	printf("ck_budget=%llu\nck_peak=%llu\nck_packed=%zu\nck_raw_state=%llu\n"
	       "ck_packed_state=%llu\nck_dropped=%llu\nck_recreated=%llu\nck_sparse=%u\n",
	       (unsigned long long)cs.budget, (unsigned long long)cs.peak, cs.packed,
	       (unsigned long long)cs.raw_state, (unsigned long long)cs.packed_state,
	       (unsigned long long)cs.dropped, (unsigned long long)cs.recreated, cs.sparse);
}

int main(int argc, char **argv)
{
	uint64_t interval = RPL_DEFAULT_INTERVAL, nseeks = 200, seed = 1, bytes, end;
	uint64_t memory = RPL_DEFAULT_MEMORY;
	double *seek_ms = NULL, *rstep_ms = NULL, t0, w0;
	unsigned nrstep = 0;
	uint32_t reset_pc, first;
	struct rpl_memory_use mu;
	struct rusage ru;
	struct rpl_stop stop;
	struct rpl *r;
	size_t n;
	int s = 1;

	if (argc < 2 || argc > 6 || (argc > 2 && (parse_u64(argv[2], &interval) || !interval)) ||
	    (argc > 3 && (parse_u64(argv[3], &nseeks) || nseeks > 1000000)) ||
	    (argc > 4 && parse_u64(argv[4], &seed)) || (argc > 5 && parse_size(argv[5], &memory))) {
		fputs("usage: rplbench REC [INTERVAL [SEEKS [SEED [MEMORY]]]]\n", stderr);
		return 2;
	}
	r = rpl_open(argv[1]);
	if (!r)
		return 1;
	rpl_set_interval(r, interval);
	rpl_set_memory(r, memory);
	t0 = now();
	w0 = wall();
	if (rpl_index(r))
		goto out;
	printf("index_s=%.3f\nindex_wall_s=%.3f\n", now() - t0, wall() - w0);
	end = rpl_position(r);
	n = rpl_checkpoints(r, &bytes);
	getrusage(RUSAGE_SELF, &ru);
	printf("instructions=%llu\ncheckpoints=%zu\ncheckpoint_bytes=%llu\nrss_kb=%ld\n",
	       (unsigned long long)end, n, (unsigned long long)bytes, ru.ru_maxrss);
	store_stats(r);
	printf("tindex_bytes=%llu\n", (unsigned long long)rpl_time_index_bytes(r, NULL));
	rpl_memory_use(r, &mu);
	if (mu.walk)
		printf("walk_bytes=%llu\nwalk_messages=%llu\nwalk_packed=%llu\n"
		       "walk_packed_bytes=%llu\nwalk_packed_raw=%llu\n",
		       (unsigned long long)mu.walk, (unsigned long long)mu.walk_messages,
		       (unsigned long long)mu.walk_packed, (unsigned long long)mu.walk_packed_bytes,
		       (unsigned long long)mu.walk_packed_raw);

	seek_ms = xcalloc(nseeks + 1, sizeof(*seek_ms));
	rstep_ms = xcalloc(nseeks + 1, sizeof(*rstep_ms));
	for (uint64_t i = 0; i < nseeks; i++) {
		uint64_t to = splitmix(&seed) % (end + 1);

		t0 = now();
		if (rpl_seek(r, to) < 0)
			goto out;
		seek_ms[i] = (now() - t0) * 1e3;
		if (rpl_core_insns(r, 0) == 0)
			continue; /* nothing to step back over */
		t0 = now();
		if (rpl_stepi(r, 0, 1, &stop))
			goto out;
		rstep_ms[nrstep++] = (now() - t0) * 1e3;
	}
	printf("seeks=%llu\n", (unsigned long long)nseeks);
	summary("seek", seek_ms, (unsigned)nseeks);
	summary("rstep", rstep_ms, nrstep);

	/* reverse-continue from the end to the beginning's breakpoint */
	reset_pc = rpl_manifest(r)->regs[0][ISA_R_PC] & ~1u;
	if (rpl_seek(r, UINT64_MAX) < 0 || rpl_break(r, reset_pc, 1))
		goto out;
	t0 = now();
	if (rpl_continue(r, 1, &stop))
		goto out;
	printf("rcont_break_ms=%.3f\nrcont_break_position=%llu\n", (now() - t0) * 1e3,
	       (unsigned long long)stop.position);
	if (rpl_break(r, reset_pc, 0))
		goto out;
	/* the first store of the run (a watchpoint on all of SRAM), then from the end */
	if (rpl_seek(r, 0) < 0 || rpl_watch(r, 0x20000000u, 0x400000u, RPL_WATCH_WRITE, 1) ||
	    rpl_continue(r, 0, &stop) ||
	    rpl_watch(r, 0x20000000u, 0x400000u, RPL_WATCH_WRITE, 0))
		goto out;
	first = stop.addr & ~3u;
	if (rpl_seek(r, UINT64_MAX) < 0 || rpl_watch(r, first, 4, RPL_WATCH_WRITE, 1))
		goto out;
	t0 = now();
	if (rpl_continue(r, 1, &stop))
		goto out;
	printf("rcont_watch_ms=%.3f\nrcont_watch_position=%llu\nrcont_watch_addr=0x%08x\n",
	       (now() - t0) * 1e3, (unsigned long long)stop.position, first);
	n = rpl_checkpoints(r, &bytes);
	getrusage(RUSAGE_SELF, &ru);
	printf("end_checkpoints=%zu\nend_checkpoint_bytes=%llu\nend_rss_kb=%ld\n", n,
	       (unsigned long long)bytes, ru.ru_maxrss);
	store_stats(r);
	s = 0;
out:
	free(seek_ms);
	free(rstep_ms);
	rpl_close(r);
	return s;
}

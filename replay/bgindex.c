/*
 * bgindex: the index built in a second thread (replay/bgindex.h).
 */
#include "replay/bgindex.h"

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "replay/index.h"

/*
 * Instructions per slice: a stop request waits for one (some 10 ms at the
 * replay's speed), and the progress moves by one.
 */
#define SLICE (1u << 18)

struct rpl_bgindex {
	struct rpl *r; /* the thread's until RPL_BG_DONE, then the taker's */
	char *cache_dir;
	FILE *progress;
	pthread_t thread;
	int joined;
	atomic_int stop;
	atomic_int state;	    /* enum rpl_bgindex_state */
	atomic_int writing;	    /* at the end, writing the index */
	_Atomic uint64_t position;  /* the thread's replay's, after each slice */
	_Atomic int64_t millionths; /* its share of the cf stream (-1: not known) */
	/* set by the thread before it publishes RPL_BG_DONE or _FAILED: */
	char path[4096]; /* the index written ("": not written) */
	uint64_t count;	 /* its checkpoints */
	double secs;	 /* from the start to the index written */
	char why[512];	 /* RPL_BG_FAILED, or why the index was not written */
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void describe(const struct rpl_bgindex *b, char *buf, size_t n)
{
	uint64_t pos = atomic_load(&b->position);
	int64_t m = atomic_load(&b->millionths);

	switch ((enum rpl_bgindex_state)atomic_load(&b->state)) {
	case RPL_BG_RUNNING:
		if (atomic_load(&b->writing))
			snprintf(buf, n,
				 "indexing in the background: 100%% (position %" PRIu64
				 ", the end), writing the index",
				 pos);
		else if (m > 0)
			snprintf(buf, n,
				 "indexing in the background: %d%% (position %" PRIu64
				 " of about %" PRIu64 ")",
				 (int)(m / 10000), pos, (uint64_t)(pos * (1e6 / m)));
		else
			snprintf(buf, n, "indexing in the background: position %" PRIu64, pos);
		break;
	case RPL_BG_DONE:
		if (b->path[0])
			snprintf(buf, n, "index: %s (%" PRIu64 " checkpoints)", b->path, b->count);
		else
			snprintf(buf, n,
				 "index: not written (%s); %" PRIu64 " checkpoints in memory",
				 b->why, b->count);
		break;
	case RPL_BG_FAILED: snprintf(buf, n, "index: none, indexing failed: %s", b->why); break;
	case RPL_BG_STOPPED: snprintf(buf, n, "index: none, indexing stopped"); break;
	}
}

static void publish(struct rpl_bgindex *b)
{
	double f = rpl_progress(b->r);

	atomic_store(&b->position, rpl_position(b->r));
	atomic_store(&b->millionths, f < 0 ? -1 : (int64_t)(f * 1e6));
}

static void *bg_main(void *arg)
{
	struct rpl_bgindex *b = arg;
	double t0 = now(), last = t0, t;
	struct rpl_idx *x = NULL;
	char line[640];
	int k;
	/*
	 * White-box switch for the tests: while the file RAPTOR_TEST_BGINDEX_HOLD
	 * names exists, the thread waits between slices (a stop still stops it),
	 * so a test can work with GDB while the index is surely being built.
	 */
	const char *hold = getenv("RAPTOR_TEST_BGINDEX_HOLD");

	/* errors are this thread's (util.c): reported once, below, not as they come */
	error_quiet(1);
	for (;;) {
		if (atomic_load(&b->stop)) {
			atomic_store(&b->state, RPL_BG_STOPPED);
			goto out;
		}
		k = rpl_run(b->r, rpl_position(b->r) + SLICE);
		publish(b);
		if (k < 0) {
			snprintf(b->why, sizeof(b->why), "%s", error_last());
			if (b->progress && last > t0)
				fputc('\n', b->progress);
			fprintf(stderr, "raptor serve: index: not built: %s\n", b->why);
			atomic_store(&b->state, RPL_BG_FAILED);
			goto out;
		}
		if (k == 1)
			break;
		while (hold && *hold && !atomic_load(&b->stop) && access(hold, F_OK) == 0)
			usleep(10000);
		t = now();
		if (b->progress && t - last >= 1) {
			describe(b, line, sizeof(line));
			fprintf(b->progress, "\rraptor serve: %s   ", line);
			fflush(b->progress);
			last = t;
		}
	}
	if (b->progress && last > t0)
		fputc('\n', b->progress);
	b->count = rpl_checkpoints(b->r, NULL);
	atomic_store(&b->writing, 1);
	if (!(x = rpl_idx_new(b->r, b->cache_dir)) || rpl_idx_write(x, b->r)) {
		snprintf(b->why, sizeof(b->why), "%s", error_last());
	} else {
		snprintf(b->path, sizeof(b->path), "%s", rpl_idx_path(x));
		b->count = rpl_idx_count(x);
	}
	b->secs = now() - t0;
	if (b->path[0])
		fprintf(stderr,
			"raptor serve: index: wrote %" PRIu64 " checkpoints to %s in the "
			"background (%.2f s)\n",
			b->count, b->path, b->secs);
	else
		fprintf(stderr, "raptor serve: index: not written: %s\n", b->why);
	atomic_store(&b->state, RPL_BG_DONE);
out:
	rpl_idx_free(x);
	return NULL;
}

struct rpl_bgindex *rpl_bgindex_start(struct rpl *r, const char *cache_dir, FILE *progress)
{
	struct rpl_bgindex *b = calloc(1, sizeof(*b));
	sigset_t all, old;
	int e;

	if (!b || (cache_dir && !(b->cache_dir = strdup(cache_dir)))) {
		free(b);
		rpl_close(r);
		error("serve: out of memory starting the background index");
		return NULL;
	}
	b->r = r;
	rpl_set_sweep(r, 1); /* it runs to the end, from one slice to the next */
	b->progress = progress;
	atomic_init(&b->stop, 0);
	atomic_init(&b->state, RPL_BG_RUNNING);
	atomic_init(&b->writing, 0);
	atomic_init(&b->position, 0);
	atomic_init(&b->millionths, -1);
	/* signals (SIGINT, SIGTERM) stay the serving thread's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&b->thread, NULL, bg_main, b);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		rpl_close(r);
		free(b->cache_dir);
		free(b);
		error("serve: cannot start the background index: %s", strerror(e));
		return NULL;
	}
	return b;
}

enum rpl_bgindex_state rpl_bgindex_state(const struct rpl_bgindex *b)
{
	return (enum rpl_bgindex_state)atomic_load(&b->state);
}

void rpl_bgindex_describe(const struct rpl_bgindex *b, char *buf, size_t n)
{
	describe(b, buf, n);
}

static void join(struct rpl_bgindex *b)
{
	if (!b->joined)
		pthread_join(b->thread, NULL);
	b->joined = 1;
}

struct rpl *rpl_bgindex_take(struct rpl_bgindex *b)
{
	struct rpl *r;

	if (rpl_bgindex_state(b) != RPL_BG_DONE)
		return NULL;
	join(b);
	r = b->r;
	b->r = NULL;
	return r;
}

void rpl_bgindex_free(struct rpl_bgindex *b)
{
	if (!b)
		return;
	atomic_store(&b->stop, 1);
	join(b);
	rpl_close(b->r);
	free(b->cache_dir);
	free(b);
}

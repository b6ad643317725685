/*
 * bgindex: build a recording's index (replay/index.h) in a second thread
 * while `raptor serve` answers GDB from its own replay (DESIGN.md section 7:
 * "the server answers while it indexes in the background").
 *
 * The thread owns a second replay of the same recording (rpl_open'ed by the
 * caller: its own decoders, memory and checkpoint store; replays share no
 * state but util.c's error state, which is per thread). It runs it to the
 * end in slices, publishing its position and its share of the cf stream
 * through atomics after each, checks for a stop request between slices, and
 * writes the index. The replay it leaves (at the end, every checkpoint and
 * summary laid down: what rpl_idx_load gives) is then handed over whole to
 * the caller, which swaps it in for the one serving GDB (replay/target.c).
 *
 * Every function but rpl_bgindex_free is cheap and may be called while the
 * thread runs; all are for one (the serving) thread.
 */
#ifndef RAPTOR_RPL_BGINDEX_H
#define RAPTOR_RPL_BGINDEX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "replay/replay.h"
#include "util/util.h"

struct rpl_bgindex;

enum rpl_bgindex_state {
	RPL_BG_RUNNING, /* replaying the recording */
	RPL_BG_DONE,	/* at the end; the index written (or not: rpl_bgindex_describe) */
	RPL_BG_FAILED,	/* the replay failed (a damaged recording): no index */
	RPL_BG_STOPPED, /* rpl_bgindex_free asked it to stop */
};

/*
 * Start indexing r (fresh from rpl_open, its interval and memory budget
 * set; the thread's from now on, closed by rpl_bgindex_free unless taken).
 * cache_dir: as rpl_idx_new's. progress: a terminal to print progress on at
 * most once a second (NULL: none); the outcome goes to stderr in any case.
 * NULL (with an error; r closed) if the thread cannot be started.
 */
struct rpl_bgindex *rpl_bgindex_start(struct rpl *r, const char *cache_dir, FILE *progress);

enum rpl_bgindex_state rpl_bgindex_state(const struct rpl_bgindex *b);

/*
 * One line (no newline) for monitor info: "indexing in the background: N%
 * (position P of about T)" (at the end: "..., writing the index"), then
 * "index: FILE (N checkpoints)", or why there is none.
 */
void rpl_bgindex_describe(const struct rpl_bgindex *b, char *buf, size_t n);

/*
 * Once RPL_BG_DONE: the thread joined, its replay (at the end of the
 * recording, as after rpl_idx_load) becomes the caller's. NULL before, or
 * after it was taken.
 */
struct rpl *rpl_bgindex_take(struct rpl_bgindex *b);

/* Stop the thread if it runs (within a slice), join it, close its replay if not taken. */
void rpl_bgindex_free(struct rpl_bgindex *b);

#endif

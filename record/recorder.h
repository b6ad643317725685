/*
 * recorder: `raptor record`, the target side. Runs a program on the board
 * with every core's mcfTRaptor (cftm.h) and load-value (lvtm.h) trace
 * modules attached, and writes the recording directory:
 *
 *   REC/manifest.ini   what the debugger needs (streams/manifest.h)
 *   REC/program.elf    a copy of the program (the manifest has its SHA-256)
 *   REC/cf.bin         the control-flow stream (unless --cf-enc none)
 *   REC/lv.bin         the load-value stream (unless --lv-enc none)
 *   REC/truth.gz       with --truth: the ground truth (streams/truth.h)
 *   REC/stats.ini      sizes and field statistics of the recorded encodings
 *                      (with all_encodings: of EVERY encoding, from the same
 *                      run, the baselines), and per-core counters
 *   REC/timeline.csv   those encodings' bits per core per time window
 *                      (stats.ini also gets field-value histograms; profile.h)
 *
 * The manifest is written first with state = partial and rewritten at the
 * end (atomically). An interrupted or failed run leaves a recording of what
 * happened up to that point: every core gets its end message and the
 * manifest its final lengths. A killed one (SIGKILL, a crash) too, up to
 * its last snapshot: at the start, then at multiples of 2^20 instructions
 * at least 0.1 s apart (a snapshot's fsync costs), the
 * directory is made a complete partial recording of the run so far (the
 * streams' new bytes and end messages, the truth flushed, the manifest
 * renamed into place last; recorder.c snapshot()).
 */
#ifndef RAPTOR_RECORDER_H
#define RAPTOR_RECORDER_H

#include <stdio.h>

#include "board/board.h"
#include "caches/fa.h"
#include "predictors/bp.h"
#include "streams/cfmsg.h"
#include "streams/lvmsg.h"
#include "streams/manifest.h"
#include "util/util.h"

struct rec_options {
	const char *elf;
	const char *dir;
	struct board_config board;
	struct bp_config bp;
	int bp_shared;
	struct dc_fa_config cache; /* shared flag here; ncores from board */
	int cf_on, lv_on;
	/*
	 * port.kind != NONE: a real trace port writes cf.bin instead of
	 * mcfTRaptor (cf_on 0, lv_on 0; record/porttm.h); its settings as the
	 * manifest's [port] has them (bytes unused)
	 */
	struct st_port_cfg port;
	enum st_cf_enc cf_enc;
	enum st_lv_enc lv_enc;
	int timed;
	/* chunk sizes: TR_e's cnt, ta, cc, icnt; CFiat's fahCnt and dCC */
	struct st_vlc cnt, ta, cc, icnt, fah, lvcc;
	int truth;
	/*
	 * Run every encoding side by side (stats.ini then has them all, from
	 * the same run); 0: only the recorded ones, the fast way.
	 */
	int all_encodings;
	int force;    /* replace an existing recording directory */
	int progress; /* progress line on stderr */
	int quiet;    /* no summary */
};

/* Defaults of `raptor record` (DESIGN.md: large, 32K/4/32/4, private, timed TR_e + CFiat). */
void rec_options_init(struct rec_options *o);

/*
 * Parse "cnt=3/2,ta=3/4,cc=4/2,icnt=2/2,fah=1/2,lvcc=4/2" (any subset) into
 * o's chunk sizes. 0, or -1 with an error quoting the bad item.
 */
int rec_chunks_parse(const char *s, struct rec_options *o) MUST_CHECK;

/*
 * Record. Returns 0 when the program exited (its status in *status) and
 * the recording is complete; -1 with an error otherwise (bad options or
 * files: nothing or an incomplete directory is left, said in the error; a
 * failed or interrupted run: the recording of its prefix is complete on
 * disk with state = partial).
 */
int rec_run(const struct rec_options *o, int *status) MUST_CHECK;

/*
 * Every encoding's statistics for the recording in dir, made without
 * --all-encodings: replay it (replay.h) and run every trace module's
 * encoders on the replayed run, as rec_run does on the board, with the
 * chunk sizes the recording's stats.ini gives ([run] chunks, in --chunks
 * syntax; NULL: the defaults). Writes stats.ini and timeline.csv, as
 * --all-encodings would have, into out_dir. Needs both streams (the
 * replay of a control-flow-only recording has no data accesses). 0, or -1
 * with an error (a desync of the replay included).
 */
int rec_restat(const char *dir, const char *chunks, const char *out_dir) MUST_CHECK;

/* Ask a running rec_run to stop after the current step (signal-safe). */
void rec_interrupt(void);

#endif

/*
 * lvtm: the load-value trace modules (mlvCFiat, DESIGN.md section 4; CFAT
 * Fig. 3; mc2RT Fig. 5-6), attached to the board through its observer.
 *
 * Three filters can run side by side on the same accesses, each functional
 * and timed: NX-LV (every load), CFiat (FA flags, caches/fa.h) and mc2RT
 * (trace bit per line, caches/mc2rt.h), and CFiat's messages again with
 * adaptive chunks (CFiat_a, lvmsg.h). The mask says which encoders run:
 * the recording's stream alone (the fast way; a filter none of whose
 * encoders runs is not run at all, its cache model not even made), or all
 * eight. One encoder is the recording's stream, written to a file as it
 * grows; the others count bits only. With gzip, NX-LV is also compressed
 * with zlib level 1 on the fly (the papers' gzip baseline).
 *
 * Which accesses are loads: ordinary loads, exclusive loads, exception
 * return unstacking and vector-table reads, i.e. every value a core reads
 * from memory; stores: ordinary and exclusive stores and exception entry
 * stacking. An uncached load (peripherals, the PPB, the board's core
 * registers) is traced on every load, with its own bytes as the value, in
 * CFiat and mc2RT too. A cacheable load's CFiat value is every byte of the
 * granules it covers, mc2RT's the whole line, read from memory as the core
 * sees it at the access (the board has one coherent memory).
 *
 * Messages get their time stamp at the end of the step that made them
 * (the retire cycle), like the control-flow messages.
 */
#ifndef RAPTOR_LVTM_H
#define RAPTOR_LVTM_H

#include <stdint.h>
#include <stdio.h>

#include "board/board.h" /* struct board_access */
#include "caches/fa.h"
#include "record/profile.h"
#include "streams/lvmsg.h"
#include "util/util.h"

#define REC_LV_NENC 8 /* NX-LV, CFiat, mc2RT, CFiat_a x functional, timed */
#define REC_LV_ALL ((1u << REC_LV_NENC) - 1)

static inline int rec_lv_index(enum st_lv_enc enc, int timed)
{
	return (int)enc * 2 + !!timed;
}

struct rec_lv_config {
	struct dc_fa_config cache; /* ncores and shared included; mc2RT uses size/assoc/line */
	struct st_vlc cnt, cc;	   /* CFiat's chunk sizes, CFiat_a's first ones (others: papers') */
	unsigned mask;		   /* bit rec_lv_index(enc, timed): run it (REC_LV_ALL: all) */
	int gzip;		   /* compress the NX-LV streams (both must be in the mask) */
	/* if not NULL: every encoder's bits per window (streams 8..15), timed CFiat's values */
	struct rec_profile *prof;
};

struct rec_lv_core_stats {
	uint64_t loads, stores, uncached_loads;
	uint64_t cfiat_msgs, mc2rt_msgs;
};

struct rec_lv;

/*
 * Memory as the core sees it now, for the values CFiat and mc2RT send
 * (whole granules and lines): n bytes at addr into buf; 0, or -1 when they
 * are not memory (the module then stops the program: a bug).
 */
typedef int (*rec_lv_peek_fn)(void *ctx, uint32_t addr, uint8_t *buf, unsigned n);

/* NULL with an error on a bad configuration. */
struct rec_lv *rec_lv_new(const struct rec_lv_config *cfg, rec_lv_peek_fn peek, void *ctx);
void rec_lv_free(struct rec_lv *lv);

void rec_lv_set_output(struct rec_lv *lv, enum st_lv_enc enc, int timed, FILE *out,
		       const char *name);

/* Every data access of core (board observer on_access). */
void rec_lv_access(struct rec_lv *lv, int core, const struct board_access *a);
/* The end of a step of core: time-stamp and emit its messages. */
void rec_lv_step(struct rec_lv *lv, int core, uint64_t cycle);

/* Pad and flush the output stream; *bits gets its exact length. 0 / -1. */
int rec_lv_finish(struct rec_lv *lv, uint64_t *bits) MUST_CHECK;
int rec_lv_flush(struct rec_lv *lv) MUST_CHECK;
/*
 * A snapshot of the output stream, as rec_cf_snapshot: *bits gets its
 * length so far (a load-value stream needs no end messages); with write,
 * the output file then holds exactly that, padded to a byte. From the first
 * call on, the output's bytes reach the file only through snapshots and
 * rec_lv_finish. 0 / -1.
 */
int rec_lv_snapshot(struct rec_lv *lv, int write, uint64_t *bits) MUST_CHECK;

/* Encoder index (NULL when it is not in the mask). */
const struct st_lv_encoder *rec_lv_encoder(const struct rec_lv *lv, int index);
/* Counters of core: cfiat_msgs and mc2rt_msgs only count when those filters run. */
const struct rec_lv_core_stats *rec_lv_core(const struct rec_lv *lv, int core);
/* The cache models (NULL when the filter does not run). */
const struct dc_fa *rec_lv_fa(const struct rec_lv *lv);
const struct dc_mc2rt *rec_lv_mc2rt(const struct rec_lv *lv);
/* Bytes of the zlib-1 compressed functional and timed NX-LV streams (after finish; gzip). */
uint64_t rec_lv_nxlv_gz_bytes(const struct rec_lv *lv, int timed);

#endif

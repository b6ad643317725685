/*
 * cftm: the mcfTRaptor trace module of every core (mcfTRaptor Fig. 4,
 * DESIGN.md section 3), attached to the board through its step observer.
 *
 * Per retired instruction of core i: iCnt++; a counted branch (conditional
 * direct, any indirect) bCnt++; a predictor miss emits <[CC] Ti bCnt ...>,
 * an exception <[CC] Ti 0 iCnt E X>, and the counters restart. At the end
 * each core emits its end message <[CC] Ti 0 iCnt 0 0>.
 *
 * The module runs the encoders of its mask: the recording's stream alone
 * (the fast way), or all four encodings, functional and timed, side by
 * side on the same events (eight encoders; TR_b, TR_e and TR_a share the
 * predictors' messages, NX_b has its own counter SL), so the baselines come
 * from the same run. One of them is the recording's stream, written to a
 * file as it grows; the others are kept only for their sizes and field
 * statistics. The predictors and the per-core counters run in any case.
 *
 * What the predictors see is fixed here, and the replay does the same:
 *   - taken: for a conditional direct branch (B<cc>, CBZ/CBNZ, a direct
 *     branch in an IT block) whether it branched; for another branch in an
 *     IT block whether its condition passed; 1 for every other branch.
 *   - an exception entry pushes the stacked return address on the RAS
 *     (bp_exception); the exception return then is an ordinary RETURN.
 *   - an exception return that tail-chains is not a branch for anyone: it
 *     only counts as an instruction, and the exception message has X = 1.
 *   - an instruction that faulted did not retire: it counts nowhere, and
 *     the fault's exception message follows.
 */
#ifndef RAPTOR_CFTM_H
#define RAPTOR_CFTM_H

#include <stdint.h>
#include <stdio.h>

#include "isa/isa.h"
#include "predictors/bp.h"
#include "record/profile.h"
#include "streams/cfmsg.h"
#include "util/util.h"

#define REC_CF_NENC 8 /* NX_b, TR_b, TR_e, TR_a x functional, timed */
#define REC_CF_ALL ((1u << REC_CF_NENC) - 1)

/* Index of (enc, timed) among the eight encoders. */
static inline int rec_cf_index(enum st_cf_enc enc, int timed)
{
	return (int)enc * 2 + !!timed;
}

struct rec_cf_config {
	int ncores;
	struct bp_config bp;
	int shared; /* one predictor set for all cores */
	/* chunk sizes of the TR_e encoders and TR_a's first ones (the others: the papers') */
	struct st_vlc cnt, ta, cc, icnt;
	/* bit rec_cf_index(enc, timed) set: run that encoder (REC_CF_ALL: all eight) */
	unsigned mask;
	/* if not NULL: every encoder's bits per window, timed TR_e's field values */
	struct rec_profile *prof;
};

/* Counters per core, for the summary and stats.ini. */
struct rec_cf_core_stats {
	uint64_t insns;
	uint64_t cond_direct, direct, calls, returns, ind_calls, ind_jumps, cond_indirect;
	uint64_t exceptions, tail_chains;
	uint64_t outcome_misses, target_misses;
};

struct rec_cf;

/* NULL with an error on a bad configuration. */
struct rec_cf *rec_cf_new(const struct rec_cf_config *cfg);
void rec_cf_free(struct rec_cf *cf);

/*
 * Write the encoder (enc, timed), which must be in the mask, to out as it
 * grows (name for messages); the others are discarded after counting. Call
 * once before the first step.
 */
void rec_cf_set_output(struct rec_cf *cf, enum st_cf_enc enc, int timed, FILE *out,
		       const char *name);

/* One board step of core, with its cycle count after the step. */
void rec_cf_step(struct rec_cf *cf, int core, const struct isa_step *st, uint64_t cycle);

/*
 * n plain steps of core (board_observer.on_plain): the same as n calls of
 * rec_cf_step with executed or skipped instructions that are not control
 * flow, exception returns or faults.
 */
void rec_cf_plain(struct rec_cf *cf, int core, uint64_t n);

/*
 * End of the run: every core's end message (with its cycle count now),
 * pad the output stream to a byte and flush it. 0, or -1 on a write error.
 * *bits gets the exact length of the output stream.
 */
int rec_cf_finish(struct rec_cf *cf, const uint64_t *cycles, uint64_t *bits) MUST_CHECK;

/* Write what the output stream holds so far (complete bytes). 0 / -1. */
int rec_cf_flush(struct rec_cf *cf) MUST_CHECK;

/*
 * A snapshot of the output stream: the stream as it would end if the run
 * stopped now, every core's end message (at cycles[core]) after what was
 * sent so far; *bits gets its length (0 without an output). With write, it
 * also goes to the output file, which then holds exactly that, padded to a
 * byte (the previous snapshot's end messages are overwritten); the
 * encoders carry on as if the end messages had not been sent. From the
 * first call on, the output's bytes reach the file only through snapshots
 * and rec_cf_finish, never in between: the file is always the last
 * snapshot, so a recorder killed at any time leaves it whole. 0 / -1.
 */
int rec_cf_snapshot(struct rec_cf *cf, const uint64_t *cycles, int write,
		    uint64_t *bits) MUST_CHECK;

/* Encoder index (its fields; NULL when it is not in the mask). */
const struct st_cf_encoder *rec_cf_encoder(const struct rec_cf *cf, int index);
const struct rec_cf_core_stats *rec_cf_core(const struct rec_cf *cf, int core);

#endif

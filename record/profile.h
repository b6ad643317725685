/*
 * profile: what `raptor stat` and `raptor tune` need beyond the totals of
 * stats.ini, gathered while recording (docs/FORMAT.md "stats.ini" and
 * "timeline.csv"):
 *
 *   - the timeline: every encoding's bits per core per window of W cycles
 *     (the papers' bandwidth over time, mcfTRaptor Fig. 14, mc2RT Fig.
 *     15-16). A message counts in the window of the cycle it carries (its
 *     core's cycle at the end of the step that made it): window i holds
 *     cycles iW+1 .. (i+1)W (cycle 0 goes to window 0). W starts at
 *     REC_PROF_WINDOW0 and grows along 1, 2, 10, 20, 100, 200, ... times
 *     a power of ten whenever the run would need more than
 *     REC_PROF_MAX_WINDOWS windows, merging neighbours; so any multiple of
 *     the final W is a valid analysis window, 10^6 included.
 *   - field values by bit length (0 for the value 0): the chunk cost of a
 *     value depends only on its bit length, so these histograms give the
 *     exact size of a field under any chunk sizes (mcfTRaptor Fig. 9,
 *     CFAT Fig. 5, TRaptor Sec. 5.2).
 *
 * Cheap by design: one add per message and encoding, one per field value.
 */
#ifndef RAPTOR_PROFILE_H
#define RAPTOR_PROFILE_H

#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

#define REC_PROF_STREAMS 16	  /* the eight cf encoders, then the eight lv encoders */
#define REC_PROF_LV_FIRST 8	  /* stream of lv encoder e: REC_PROF_LV_FIRST + e */
#define REC_PROF_WINDOW0 100	  /* cycles of the first window size */
#define REC_PROF_MAX_WINDOWS 1000 /* at most this many windows */
#define REC_PROF_LENGTHS 65	  /* bit lengths 0..64 */

/* The histogrammed fields: TR_e's (timed encoder) and CFiat's (timed). */
enum rec_prof_field {
	REC_PF_BCNT,   /* bCnt, every message (0 in exception and end messages) */
	REC_PF_DIFFTA, /* |diffTA| of every message that carries diffTA */
	REC_PF_DIFFCC, /* diffCC */
	REC_PF_ICNT,   /* iCnt of exception and end messages */
	REC_PF_FAHCNT, /* CFiat fahCnt */
	REC_PF_DCC,    /* CFiat dCC */
	REC_PF_NFIELDS
};

struct rec_profile;

/* A profile of ncores cores (1..8); start-up sized, allocation dies on failure. */
struct rec_profile *rec_prof_new(int ncores);
void rec_prof_free(struct rec_profile *p);

/* bits more for stream (0..REC_PROF_STREAMS-1) of core, at its cycle. */
void rec_prof_bits(struct rec_profile *p, int core, int stream, uint64_t cycle, uint64_t bits);

/* One value of field f. */
void rec_prof_value(struct rec_profile *p, enum rec_prof_field f, uint64_t v);

/* The profile streams of the timed TR_e and CFiat encoders (their fields are histogrammed). */
#define REC_PROF_TTRE 5
#define REC_PROF_TCFIAT (REC_PROF_LV_FIRST + 3)

/*
 * Append the [hist.*] and [timeline] sections to stats.ini (f). chunks[f]
 * are the chunk sizes the histogrammed encoder used for field f, as
 * "c0,c1"; cycles is the run's length (largest core cycle count). streams:
 * bit s set for each stream that ran; a field's histogram is written only
 * when its encoder ran.
 */
void rec_prof_write_stats(const struct rec_profile *p, FILE *f, const char *const *chunks,
			  uint64_t cycles, uint32_t streams);

/*
 * Write the timeline as CSV to path: a header "start,core,<stream names>",
 * then one row per window and core (names[s] names stream s), with a
 * column for each stream whose bit is set in streams. 0 / -1.
 */
int rec_prof_write_timeline(const struct rec_profile *p, const char *path, const char *const *names,
			    uint64_t cycles, uint32_t streams) MUST_CHECK;

#endif

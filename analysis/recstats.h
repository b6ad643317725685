/*
 * recstats: a recording's statistics as `raptor stat` and `raptor tune`
 * read them: REC/manifest.ini (streams/manifest.h), REC/stats.ini and
 * REC/timeline.csv (docs/FORMAT.md), checked against each other and against
 * the stream files, and the metrics derived from them (docs/STAT.md).
 *
 * Encodings are numbered as the recorder's profile streams
 * (record/profile.h): 0..7 the control-flow encoders nxb, tnxb, trb,
 * ttrb, tre, ttre, tra, ttra; 8..15 the load-value encoders nxlv, tnxlv,
 * cfiat, tcfiat, mc2rt, tmc2rt, cfiata, tcfiata; then 16, 17 the zlib-1
 * compressed NX-LV streams nxlv.gz, tnxlv.gz (sizes only: no fields, no
 * timeline). The adaptive encodings (tra, ttra, cfiata, tcfiata) are
 * absent from recordings made before them: an_enc.present is 0 and their
 * timeline columns read as 0.
 */
#ifndef RAPTOR_RECSTATS_H
#define RAPTOR_RECSTATS_H

#include <stdint.h>

#include "streams/manifest.h"
#include "streams/vlc.h"
#include "util/util.h"

#define AN_NENC 18     /* 8 cf, 8 lv, 2 gzip */
#define AN_NSTREAMS 16 /* encodings with fields and a timeline */
#define AN_LV_FIRST 8  /* first load-value encoding */
#define AN_GZ_FIRST 16 /* nxlv.gz, tnxlv.gz */
#define AN_MAX_CORES 8
#define AN_NLEN 65 /* bit lengths 0..64 */

/* Field bits of an encoding, as stats.ini names them (bits_cc ...). */
enum an_field {
	AN_F_CC,    /* diffCC / dCC */
	AN_F_TI,    /* Ti */
	AN_F_CNT,   /* SL / bCnt / fahCnt / THCnt */
	AN_F_TNT,   /* T */
	AN_F_TA,    /* diffTA: sign and magnitude */
	AN_F_ICNT,  /* iCnt */
	AN_F_EXC,   /* E and X */
	AN_F_VALUE, /* load values */
	AN_NFIELDS
};

/* The histogrammed fields, as record/profile.h writes them ([hist.NAME]). */
enum an_hfield { AN_H_BCNT, AN_H_DIFFTA, AN_H_DIFFCC, AN_H_ICNT, AN_H_FAHCNT, AN_H_DCC, AN_NHIST };

struct an_core {
	uint64_t insns, cycles;
	uint64_t cond_direct, direct, calls, returns, ind_calls, ind_jumps, cond_indirect;
	uint64_t exceptions, tail_chains, outcome_misses, target_misses;
	uint64_t loads, stores, uncached_loads, cfiat_msgs, mc2rt_msgs, fa_load_hits, fa_misses,
	    line_misses, invalidations, mc2rt_trace_hits, mc2rt_trace_misses, mc2rt_peer_supplied;
};

struct an_enc {
	int present; /* in stats.ini (0: an adaptive encoding, older recording) */
	uint64_t bits, msgs;
	uint64_t field[AN_NFIELDS];
	uint64_t branch_msgs, target_msgs, exc_msgs, end_msgs; /* cf only */
};

struct an_hist {
	int present;
	struct st_vlc chunks; /* what the recording used */
	uint64_t n[AN_NLEN];  /* values by bit length */
};

struct an_rec {
	const char *dir;
	struct st_manifest mf;
	int ncores;
	uint64_t insns, cycles; /* all cores; cycles: the largest core's */
	int exited, status;
	struct an_core core[AN_MAX_CORES];
	struct an_enc enc[AN_NENC];
	struct an_hist hist[AN_NHIST];
	int recorded_cf, recorded_lv; /* encoding index of the stream files, or -1 */
	/*
	 * Recorded the fast way (stats.ini [run] encodings = recorded: the
	 * recorded encodings only). With both streams the others were
	 * computed by replaying the recording (replayed = 1: every encoding
	 * present, as with --all-encodings). Otherwise (replayed = 0) only
	 * the recorded ones are present; without a load-value stream no load
	 * value is known (lv_known = 0: the cores' load and cache counters
	 * are 0, and no load-value encoding can be computed).
	 */
	int fast, replayed, lv_known;
	/* timeline (0 windows: none in this recording) */
	uint64_t window;
	uint64_t nwin;
	uint64_t *tl; /* [window][core][AN_NSTREAMS] bits */
};

/*
 * Read and check the recording in dir (not copied: it must outlive r).
 * Every inconsistency is an error naming the file and the value: stats.ini
 * keys missing or not numbers, field bits that do not add up, stream sizes
 * that disagree with the manifest or with stats.ini, a timeline whose
 * windows do not add up to the totals. A recording made the fast way with
 * both streams is replayed (record/recorder.h rec_restat) to compute every
 * encoding, and what its stats.ini holds must equal the replay's figures.
 * 0 / -1; on -1 nothing to release.
 */
int an_rec_load(struct an_rec *r, const char *dir) MUST_CHECK;
void an_rec_release(struct an_rec *r);

/* "nxb" ... "tmc2rt", "nxlv.gz", "tnxlv.gz". */
const char *an_enc_name(int e);
/* "cf" or "lv". */
const char *an_enc_stream(int e);
int an_enc_timed(int e);
/* The Nexus-like baseline of e: nxb / tnxb, nxlv / tnxlv. */
int an_enc_baseline(int e);
/* For an adaptive encoding its fixed-chunk twin (tra: tre, tcfiata: tcfiat); else -1. */
int an_enc_fixed_twin(int e);
/* stats.ini key of a field ("cc" for bits_cc) and a person's name for it. */
const char *an_field_key(enum an_field f);
/* [hist.NAME] and a person's name (bCnt, |diffTA| ...). */
const char *an_hist_key(enum an_hfield h);
const char *an_hist_label(enum an_hfield h);
/* The papers' default chunk sizes of h (vlc.h). */
struct st_vlc an_hist_default(enum an_hfield h);
/* Which encoding's field h is, and which of its fields. */
int an_hist_enc(enum an_hfield h);
enum an_field an_hist_field(enum an_hfield h);
/* 1 for |diffTA|: one sign bit per value on top of the chunks. */
int an_hist_signed(enum an_hfield h);

/* Bits that n[] values take with chunks ch (sign bits included if sgn). */
uint64_t an_hist_cost(const uint64_t *n, struct st_vlc ch, int sgn);

/* Bits of encoding e (< AN_NSTREAMS) sent by core over the whole run (timeline sums). */
uint64_t an_rec_core_bits(const struct an_rec *r, int core, int e);

/*
 * Windows of n cycles (a multiple of r->window) for --over-time: for each
 * window its first cycle, its length in cycles (the last may be shorter) and
 * bits[(w * (ncores + 1) + k) * AN_NSTREAMS + e], k = core or ncores for all
 * cores. *nw gets the count; the arrays are malloc'ed, the caller frees them.
 * 0, or -1 with an error (no timeline, n not a multiple).
 */
struct an_windows {
	uint64_t n, count;
	uint64_t *start, *len, *bits;
};
int an_rec_windows(const struct an_rec *r, uint64_t n, struct an_windows *w) MUST_CHECK;
void an_windows_release(struct an_windows *w);

#endif

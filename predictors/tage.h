/*
 * tage: a small TAGE-like outcome predictor (Seznec and Michaud, "A case for
 * (partially) TAgged GEometric history length branch prediction", JILP 2006),
 * the "beyond the papers" replacement for gshare in struct bp (dir=tage).
 * It is sized to fit in the bits of a gshare of a given size (tage_bits <=
 * 2 * p + log2(p)), so a trace module could trade one for the other.
 *
 * Components:
 *   base    2^b 2-bit counters indexed by PC[b:1] (a bimodal predictor:
 *           counters start at 1, predict taken at >= 2, as gshare's)
 *   T1..Tn  n tables of 2^e entries {3-bit counter c in 0..7 (taken at
 *           >= 4), t-bit tag, 1-bit useful u}; table i is indexed and
 *           tagged by the PC and the last L_i outcomes of the global
 *           history, L_1 < L_2 < ... (geometric)
 *   GHR     the last L_n conditional outcomes, newest in bit 0
 *   alt     a 4-bit "use the alternate prediction" counter (0..15, start 8)
 *
 * Hashes, with H = GHR, pc = PC >> 1 (Thumb code is 2-byte aligned) and
 * fold(H, L, k) = the XOR of the k-bit slices of H's low L bits:
 *   index_i = (pc ^ pc >> e ^ fold(H, L_i, e)) & (2^e - 1)
 *   tag_i   = (pc ^ fold(H, L_i, t) ^ fold(H, L_i, t - 1) << 1) & (2^t - 1)
 *
 * Predict: the provider is the matching table (tag equal) with the longest
 * history, the alternate the next matching one or else the base. The
 * provider predicts, except when its counter is weak (3 or 4) and its u is
 * 0 (a fresh entry) and alt >= 8: then the alternate predicts. No match:
 * the base predicts.
 *
 * Update (with the actual outcome; the state the prediction read):
 *   - a fresh weak provider whose prediction differs from the alternate's
 *     moves alt towards whichever was right;
 *   - the provider's counter steps towards the outcome, and the base's
 *     counter too when the provider was fresh and weak or there was none;
 *   - u := 1 if the provider was right and the alternate wrong, 0 if the
 *     provider was wrong and the alternate right;
 *   - if the final prediction was wrong, one entry is allocated in the
 *     first table above the provider whose entry has u = 0 (tag set, counter
 *     weak towards the outcome: 4 taken, 3 not, u 0); if every such entry
 *     has u = 1, they are all cleared instead (no allocation). No random
 *     choice: the same code on the target and in the replay must agree;
 *   - GHR := GHR << 1 | outcome.
 *
 * Geometry per budget: tage_geometry. Deterministic, no allocation after
 * tage_new; predict does not change state.
 */
#ifndef RAPTOR_TAGE_H
#define RAPTOR_TAGE_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define TAGE_MAX_TABLES 4
#define TAGE_MAX_HIST 64

/* Sizes: log2 of base and tagged-table entries, tag bits, history lengths. */
struct tage_geom {
	unsigned base_log;
	unsigned ntables; /* 1..TAGE_MAX_TABLES */
	unsigned table_log;
	unsigned tag_bits;		/* 2..16 */
	unsigned hist[TAGE_MAX_TABLES]; /* ascending, 1..TAGE_MAX_HIST */
};

/*
 * The geometry that replaces a gshare of p entries (a power of two,
 * 256..GSHARE_MAX_ENTRIES): 0 and *g, or -1 with an error naming p (no
 * geometry below 256 entries: too few bits for tagged tables).
 */
int tage_geometry(unsigned p, struct tage_geom *g) MUST_CHECK;
/* Storage in bits: counters, tags, useful bits, GHR, alt. */
unsigned long tage_geom_bits(const struct tage_geom *g);

struct tage;

/* New predictor in its reset state, or NULL with an error (bad geometry). */
struct tage *tage_new(const struct tage_geom *g);
void tage_free(struct tage *t);
/* Base counters 1, tagged entries tag 0, counter 3, u 0; GHR 0, alt 8. */
void tage_reset(struct tage *t);
const struct tage_geom *tage_get_geom(const struct tage *t);
uint64_t tage_ghr(const struct tage *t);

/* Predicted direction of the conditional branch at pc: 1 taken, 0 not. */
int tage_predict(const struct tage *t, uint32_t pc);
/*
 * Which component predicts the branch at pc: 0 the base, i (1..ntables) the
 * tagged table Ti; for tests.
 */
unsigned tage_provider(const struct tage *t, uint32_t pc);
/* Train with the actual direction (see above). */
void tage_update(struct tage *t, uint32_t pc, int taken);

/*
 * Checkpoint as plain bytes in host order; restore into the same geometry
 * only (struct bp checks the configuration). Restore checks every value:
 * 0, or -1 with an error (the predictor is then reset).
 */
size_t tage_state_size(const struct tage *t);
void tage_save(const struct tage *t, void *buf);
int tage_restore(struct tage *t, const void *buf) MUST_CHECK;

#endif

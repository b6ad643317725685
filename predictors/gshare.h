/*
 * gshare: the outcome predictor of the TRaptor / mcfTRaptor trace modules
 * (TRaptor Sec. 5.1, mcfTRaptor Sec. 5 and Fig. 4).
 *
 * p entries of 2-bit saturating counters and a global branch history
 * register (BHR) of log2(p) bits:
 *
 *   index   = (BHR & (p-1)) ^ ((PC >> shift) & (p-1))
 *   predict = counter[index] >= 2          (taken)
 *   update  : counter[index] += taken ? +1 : -1, saturating in 0..3;
 *             BHR = ((BHR << 1) | taken) & (p-1)
 *
 * The papers write the index as BHR[log2(p):0] xor PC[4+log2(p):4], i.e. a
 * shift of 4 (ARM code, 4-byte instructions). Thumb code is 2-byte aligned,
 * so the shift is a parameter; GSHARE_SHIFT_DEFAULT keeps the papers' 4.
 *
 * Counters start at 1 (weakly not-taken) and the BHR at 0. p = 0 means no
 * predictor: every branch is predicted not-taken and nothing is stored.
 *
 * Only conditional branches reach this module (struct bp decides); the same
 * code runs in the recorder's trace module and in the replay's software
 * copy, so prediction never changes state and update is deterministic.
 */
#ifndef RAPTOR_GSHARE_H
#define RAPTOR_GSHARE_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define GSHARE_SHIFT_DEFAULT 4
#define GSHARE_MAX_ENTRIES (1u << 20)
#define GSHARE_MAX_SHIFT 16

struct gshare;

/*
 * Check a size and shift: entries is 0 or a power of two in
 * 2..GSHARE_MAX_ENTRIES, shift is 0..GSHARE_MAX_SHIFT. 0, or -1 with an error.
 */
int gshare_config_check(unsigned entries, unsigned shift) MUST_CHECK;

/* New predictor in its reset state, or NULL after gshare_config_check fails. */
struct gshare *gshare_new(unsigned entries, unsigned shift);
void gshare_free(struct gshare *g);
/* Counters back to 1, BHR to 0. */
void gshare_reset(struct gshare *g);

unsigned gshare_entries(const struct gshare *g);
unsigned gshare_shift(const struct gshare *g);
uint32_t gshare_bhr(const struct gshare *g);

/* The index formula on explicit values (pure; 0 when entries is 0). */
uint32_t gshare_index_of(unsigned entries, unsigned shift, uint32_t bhr, uint32_t pc);
/* Index of the branch at pc under the current BHR. */
uint32_t gshare_index(const struct gshare *g, uint32_t pc);
/* Counter value (0..3) at index (< entries); 0 when entries is 0. */
unsigned gshare_counter(const struct gshare *g, uint32_t index);
/* The saturating step of one counter (pure): c in 0..3. */
unsigned gshare_counter_next(unsigned c, int taken);

/* Predicted direction of the conditional branch at pc: 1 taken, 0 not. */
int gshare_predict(const struct gshare *g, uint32_t pc);
/* Train with the actual direction: the counter first, then the BHR. */
void gshare_update(struct gshare *g, uint32_t pc, int taken);

/*
 * gshare_predict, then gshare_update with taken (0/1), with one index: the
 * prediction made before the update.
 */
int gshare_step(struct gshare *g, uint32_t pc, int taken);

/*
 * gshare_step with the predicted direction as the actual one (a replay
 * following a prediction no message contradicts): returns that direction.
 */
int gshare_follow(struct gshare *g, uint32_t pc);

/*
 * Checkpoint the state (BHR and counters) as plain bytes in host order;
 * restore into a predictor of the same size only (struct bp checks that).
 * Restore checks every value is one the predictor can hold: 0, or -1 with an
 * error (the predictor is then reset).
 */
size_t gshare_state_size(const struct gshare *g);
void gshare_save(const struct gshare *g, void *buf);
int gshare_restore(struct gshare *g, const void *buf) MUST_CHECK;

#endif

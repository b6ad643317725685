/*
 * bp: the TRaptor / mcfTRaptor predict-and-update step (TRaptor Fig. 3 and
 * Table 2, mcfTRaptor Fig. 4-6): a gshare outcome predictor, a return
 * address stack and an indirect BTB with its path register, driven by one
 * retired control-flow instruction at a time.
 *
 * The SAME code runs in the recorder's trace module (target side) and as the
 * software copy in the replay (debugger side); it does not know which. So
 * prediction and training are split:
 *
 *   target:  bp_predict -> compare with what happened (bp_classify_miss)
 *            -> emit a message on a miss -> bp_update with the actual result
 *   replay:  bp_predict -> the message decides (bCnt > 0: the prediction is
 *            right; bCnt = 0: opposite outcome / the message's target)
 *            -> bp_update with that result
 *
 * bp_update must be called for EVERY retired control-flow instruction
 * (including direct unconditional B and BL, and conditional ones whose
 * condition failed), on both sides, in retirement order.
 *
 * Which structure serves which branch (cond = br->conditional, or cf is
 * ISA_CF_COND_DIRECT; "gshare" is the outcome predictor cfg.dir chooses,
 * gshare or TAGE):
 *
 *   cf                cond counts direction    target    trained (gshare+BHR if cond, and)
 *   COND_DIRECT        1    yes   gshare       (static)  -
 *   DIRECT  (B)        0    no    taken        (static)  -
 *   CALL    (BL)       0/1  cond  taken/gshare (static)  RAS push if taken
 *   RETURN             0/1  yes   taken/gshare RAS top   RAS pop if taken
 *   IND_CALL (BLX Rm)  0/1  yes   taken/gshare iBTB      iBTB and RAS push if taken
 *   IND_JUMP           0/1  yes   taken/gshare iBTB      iBTB if taken
 *
 * and every one of them then shifts (pc, taken) into the PIR (see ibtb.h for
 * that choice). Returns are predicted by the RAS only and do not occupy the
 * iBTB. An empty RAS, an iBTB miss or a size-0 structure gives no target
 * (target_known = 0), which counts as a target misprediction.
 *
 * "taken" throughout means "the branch executed" (its condition passed),
 * not "next_pc != fall-through": an unconditional branch is always taken,
 * even an indirect one whose target happens to be the next instruction.
 * Addresses are instruction addresses with bit 0 clear.
 */
#ifndef RAPTOR_BP_H
#define RAPTOR_BP_H

#include <stddef.h>
#include <stdint.h>

#include "isa/isa.h"
#include "predictors/gshare.h"
#include "predictors/ibtb.h"
#include "predictors/ras.h"
#include "predictors/tage.h"
#include "util/util.h"

/*
 * Sizes: gshare entries p (0, 256, 512, 1024, 2048, 4096, or any power of two
 * up to GSHARE_MAX_ENTRIES), RAS entries r (0, 8, 16, 32, or any up to
 * RAS_MAX_ENTRIES), iBTB entries q (0, 16, 32, 64, or a power of two >= 2),
 * and the gshare PC shift (GSHARE_SHIFT_DEFAULT = 4, the papers').
 */
struct bp_config {
	unsigned gshare;
	unsigned ras;
	unsigned ibtb;
	unsigned shift;
	unsigned dir; /* enum bp_dir: the outcome predictor */
};

/*
 * The outcome predictor (key dir=). BP_DIR_GSHARE is the papers' gshare of
 * p = gshare entries. BP_DIR_TAGE ("beyond the papers", predictors/tage.h)
 * replaces it with a TAGE-like predictor that fits in the same bits as that
 * gshare (tage_geometry(p); p >= 256), everything else unchanged: then
 * shift is unused and the BHR is the TAGE's own history.
 */
enum bp_dir {
	BP_DIR_GSHARE = 0,
	BP_DIR_TAGE,
};

/*
 * Named configurations:
 *   mcfTRaptor Sec. 5:  small  = 512 gshare +  8 RAS
 *                       medium = 1024 gshare + 16 RAS + 16 iBTB
 *                       large  = 4096 gshare + 32 RAS + 64 iBTB
 *   TRaptor Sec. 5.1:   gshare S = 256, M = 512, B = 1024 entries, with
 *                       0: nothing for targets, 1: 8 RAS, 2: 8 RAS + 16 iBTB,
 *                       3: 8 RAS + 32 iBTB, 4: 8 RAS + 64 iBTB
 *                       (S0 .. S4, M0 .. M4, B0 .. B4; M1 equals small)
 * all with shift 4, dir=gshare; and the same budgets with dir=tage:
 *                       small+, medium+, large+ (small, medium, large with
 *                       the TAGE outcome predictor instead of gshare).
 */

/* Check sizes and shift; 0, or -1 with an error naming the bad field. */
int bp_config_check(const struct bp_config *cfg) MUST_CHECK;

/*
 * Parse a configuration string: a comma-separated list whose first item may
 * be a name (small, medium, large, S0..B4; case-insensitive), and whose
 * other items are key=value with key gshare, ras, ibtb or shift (values
 * decimal or 0x hex) or dir (gshare or tage). Keys not given keep the named
 * configuration's values, or 0 (shift 4, dir gshare) without a name.
 * "large", "B4", "gshare=1024,ras=16,ibtb=32,shift=4", "large,shift=1",
 * "large+" and "medium,dir=tage" are valid.
 * Returns 0 and fills *cfg, or -1 with an error quoting the string and the
 * offending item (*cfg untouched).
 */
int bp_config_parse(const char *s, struct bp_config *cfg) MUST_CHECK;

/*
 * The canonical string "gshare=P,ras=R,ibtb=Q,shift=S" (parses back), with
 * ",dir=D" appended only when dir is not gshare: recordings made before the
 * key existed store the string in their manifests and keep it byte for byte.
 */
void bp_config_format(const struct bp_config *cfg, char *buf, size_t len);

/* The first name (small, medium, large, S0..B4, small+ ..) equal to cfg, or NULL. */
const char *bp_config_name(const struct bp_config *cfg);

/*
 * The hardware budget of a configuration in bits, the one the variants are
 * sized by (docs/STAT.md "Predictor budgets"): the outcome predictor (gshare:
 * 2 * p counter bits + log2(p) BHR bits; TAGE: tage_geom_bits, every bit of
 * it), RAS entries x 32, iBTB entries x (8-bit tag + 32-bit target) plus the
 * 13-bit PIR when there is an iBTB. Left out on both sides alike: the RAS
 * pointer and depth, iBTB valid and LRU bits.
 */
unsigned long bp_config_bits(const struct bp_config *cfg);

/* One retired control-flow instruction, as the trace module sees it. */
struct bp_branch {
	uint32_t pc;	      /* its address */
	uint32_t fallthrough; /* pc + size: the return address a call pushes */
	enum isa_cf cf;	      /* ISA_CF_NONE: not a branch, bp ignores it */
	int conditional;      /* in an IT block, or B<cc> / CBZ / CBNZ */
};

/* What the predictors say about a bp_branch. */
struct bp_prediction {
	/* bCnt counts this branch: conditional direct, or any indirect incl. returns */
	int counts;
	int taken;	  /* predicted direction (1 for unconditional branches) */
	uint32_t target;  /* predicted target of an indirect branch, if target_known */
	int target_known; /* 1: RAS / iBTB gave a target; 0: none (or a direct branch) */
	int conditional;  /* copied from the branch (cf COND_DIRECT counts as conditional) */
	int indirect;	  /* cf is RETURN, IND_CALL or IND_JUMP */
};

enum bp_miss {
	BP_MISS_NONE = 0, /* predicted right (or the branch does not count) */
	BP_MISS_OUTCOME,  /* a conditional direct branch went the other way: <[CC] Ti bCnt> */
	BP_MISS_TARGET,	  /* an indirect branch mispredicted: <[CC] Ti bCnt [T|NT] TA> */
};

struct bp;

/* New predictor set in its reset state, or NULL after bp_config_check fails. */
struct bp *bp_new(const struct bp_config *cfg);
void bp_free(struct bp *bp);
/* Back to the reset state: counters 1, BHR 0, RAS empty, iBTB invalid, PIR 0
 * (TAGE: see tage_reset). */
void bp_reset(struct bp *bp);
const struct bp_config *bp_get_config(const struct bp *bp);

/* The parts, read-only, for statistics and white-box tests. */
/* bp_gshare has 0 entries and bp_tage is NULL unless dir is theirs. */
const struct gshare *bp_gshare(const struct bp *bp);
const struct tage *bp_tage(const struct bp *bp);
const struct ras *bp_ras(const struct bp *bp);
const struct ibtb *bp_ibtb(const struct bp *bp);

/*
 * Predict br without changing any state. For a branch that does not count,
 * pred->counts is 0 (the other fields are still filled: a direct B/BL is
 * predicted taken with no target).
 */
void bp_predict(const struct bp *bp, const struct bp_branch *br, struct bp_prediction *pred);

/*
 * Train every structure with what br actually did, exactly as the target's
 * trace module does (table above). taken is ignored (treated as 1) for
 * unconditional branches; target is the address execution continued at,
 * used only if br is an indirect branch that was taken. No-op for ISA_CF_NONE.
 */
void bp_update(struct bp *bp, const struct bp_branch *br, int taken, uint32_t target);

/*
 * An exception entry (not a tail-chain) that will return to ret (the
 * stacked PC): push ret onto the RAS, so the exception return, a RETURN
 * like any other (bx lr, pop {pc} with EXC_RETURN), is predicted by the RAS
 * as a function return is. Nested exceptions nest on the RAS as calls do.
 * A tail-chained exception pushes nothing (the frame and its return
 * address are reused) and the exception return that tail-chained is not a
 * retired branch for the predictors (bp_update is not called for it).
 * Nothing else changes (no PIR update).
 */
void bp_exception(struct bp *bp, uint32_t ret);

/*
 * Which message a prediction calls for, given what happened:
 * - a counting direct branch (conditional) whose direction differs from
 *   pred->taken: BP_MISS_OUTCOME;
 * - an indirect branch that was taken to a target other than the predicted
 *   one, or with no predicted target: BP_MISS_TARGET; for a conditional
 *   indirect branch also any direction miss (the message carries the T/NT
 *   bit, and the TA only matters when taken);
 * - otherwise BP_MISS_NONE (also for branches that do not count).
 */
enum bp_miss bp_classify_miss(const struct bp_prediction *pred, int taken, uint32_t target);

/*
 * The target side in one call: predict into *pred (may be NULL), classify
 * against (taken, target), train. Returns the classification.
 */
enum bp_miss bp_step(struct bp *bp, const struct bp_branch *br, int taken, uint32_t target,
		     struct bp_prediction *pred);

/*
 * The replay's side in one call, for a branch whose direction and target
 * the predictors give (no message lands on it): bp_predict, then
 * bp_update with the predicted direction and target. stop: do nothing
 * and return 1 if the branch counts (a message lands on it after all);
 * -1 (no state changed, no error printed) when it is predicted taken
 * indirect with no target known; else 0, with *counts, *taken and *target
 * (the predicted target of a taken indirect branch; else 0: the caller
 * knows the static target and the fall-through).
 */
int bp_follow(struct bp *bp, const struct bp_branch *br, int stop, int *counts, int *taken,
	      uint32_t *target);

/*
 * Checkpoints: the whole state as plain bytes (no pointers, host byte order:
 * an in-memory snapshot, not a file format). The bytes start with a magic and
 * the configuration, so bp_restore refuses a state saved from another
 * configuration. bp_save writes exactly bp_state_size(bp) bytes to buf.
 * bp_restore returns 0, or -1 with an error (wrong length, magic or
 * configuration, or impossible values; the predictor is then reset).
 */
size_t bp_state_size(const struct bp *bp);
void bp_save(const struct bp *bp, void *buf);
int bp_restore(struct bp *bp, const void *buf, size_t len) MUST_CHECK;

#endif

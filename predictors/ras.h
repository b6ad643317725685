/*
 * ras: the return address stack of the TRaptor / mcfTRaptor trace modules
 * (TRaptor Sec. 5.1 configurations 1..4, mcfTRaptor Fig. 4).
 *
 * r entries, circular. A call (BL, BLX Rm) that executes pushes its return
 * address (the address of the instruction after the call); a return that
 * executes pops the prediction for its target.
 *
 * Overflow: a push onto a full stack overwrites the OLDEST entry (the ring's
 * top pointer just moves on), and the depth stays r. So after r+k nested
 * calls the r innermost returns are predicted and the k outermost ones find
 * the stack empty.
 *
 * Underflow: a pop of an empty stack (or any pop when r = 0) yields no
 * prediction, which the trace module counts as a target misprediction
 * (DESIGN 3: "An empty RAS is a misprediction"); the stack stays empty.
 *
 * Addresses are stored as given (the caller passes them with bit 0 clear).
 */
#ifndef RAPTOR_RAS_H
#define RAPTOR_RAS_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define RAS_MAX_ENTRIES 256u

struct ras;

/* entries is 0..RAS_MAX_ENTRIES (any value). 0, or -1 with an error. */
int ras_config_check(unsigned entries) MUST_CHECK;

/* New empty stack, or NULL after ras_config_check fails. */
struct ras *ras_new(unsigned entries);
void ras_free(struct ras *r);
/* Empty the stack (the stored addresses are zeroed too). */
void ras_reset(struct ras *r);

unsigned ras_entries(const struct ras *r);
/* Number of valid entries: 0..entries. */
unsigned ras_depth(const struct ras *r);

/* The prediction a pop would give: 1 and *addr, or 0 if empty. No change. */
int ras_peek(const struct ras *r, uint32_t *addr);
/* Push a return address; on a full stack the oldest entry is overwritten. */
void ras_push(struct ras *r, uint32_t addr);
/* Pop: 1 and *addr, or 0 (and *addr untouched) if the stack is empty. */
int ras_pop(struct ras *r, uint32_t *addr);

/*
 * Checkpoint as plain bytes (host order); restore into the same size only.
 * Restore checks the bytes are a state this stack can be in: 0, or -1 with
 * an error (the stack is then reset).
 */
size_t ras_state_size(const struct ras *r);
void ras_save(const struct ras *r, void *buf);
int ras_restore(struct ras *r, const void *buf) MUST_CHECK;

#endif

/*
 * thumb: what a trace unit needs to know of a Thumb instruction, from its
 * encoding alone (ARMv7-M / ARMv8-M ARM, "Thumb instruction set encoding"):
 * its size and whether it is a P0 element of ETMv4 instruction trace (a
 * branch, direct or indirect, or an ISB), i.e. a waypoint where the decoder
 * stops walking the program image and needs an atom.
 *
 * The set is the architecture's: every instruction that writes the PC
 * (B, BL, CBZ/CBNZ, BX, BLX, POP/LDM with the PC, LDR to the PC, ADD/MOV to
 * the PC, TBB/TBH) plus ISB, which ETMv4 traces as a P0 element. DSB/DMB are
 * not (TRCIDR0 and the decoder are set up without barrier waypoints), nor
 * WFI/WFE (ETMv4.3+ only), nor SVC, UDF or BKPT (they are exceptions, or
 * semihosting on raptor's board).
 */
#ifndef RAPTOR_ETM_THUMB_H
#define RAPTOR_ETM_THUMB_H

#include <stdint.h>

enum etm_thumb_kind {
	ETM_THUMB_OTHER,    /* not a waypoint */
	ETM_THUMB_DIRECT,   /* branch with the target in the encoding */
	ETM_THUMB_INDIRECT, /* branch whose target the trace must give */
	ETM_THUMB_ISB,	    /* P0 element, never taken elsewhere */
};

/* Size in bytes (2 or 4) of the instruction whose first halfword is hw1. */
static inline unsigned etm_thumb_size(uint16_t hw1)
{
	return (hw1 >> 11) >= 0x1d ? 4 : 2;
}

/*
 * Classify the instruction whose halfwords are hw1 (at the lower address)
 * and hw2 (ignored for a 16-bit instruction). *link (may be NULL) is set
 * when the branch writes LR (BL, BLX).
 */
enum etm_thumb_kind etm_thumb_class(uint16_t hw1, uint16_t hw2, int *link);

/*
 * The target of a direct branch at pc (hw1, hw2 as above): 0 and *target,
 * or -1 when the instruction is not a direct branch.
 */
int etm_thumb_target(uint32_t pc, uint16_t hw1, uint16_t hw2, uint32_t *target)
    __attribute__((warn_unused_result));

#endif

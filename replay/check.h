/*
 * check: random access checked against the ground truth. Used by
 * `raptor replay --random N` and the tests: the state the replay reaches
 * by seeking, forward and backward, must equal the truth at that position.
 */
#ifndef RAPTOR_RPL_CHECK_H
#define RAPTOR_RPL_CHECK_H

#include <stdint.h>

#include "replay/replay.h"
#include "util/util.h"

/* What rpl_check_random compared besides the integer registers: FP registers, memory. */
struct rpl_check_mem {
	/* cores' states (a core at a position) whose s0..s31 and FPSCR were compared */
	unsigned fp_states;
	unsigned probes;     /* positions whose memory was compared */
	uint64_t determined; /* bytes the recording determines: all read, all equal */
	uint64_t later;	     /* of them, known from a later load only (the initial image) */
	uint64_t extra;      /* bytes read although the truth's rule does not need
			      * them (a traced granule's neighbours): all equal */
	uint64_t unknown;    /* bytes of the pages compared that stay unreadable */
};

/*
 * Index r (replay to the end), pick n positions with a seeded PRNG, read
 * the ground truth once for every core's registers (the FP ones too, on a
 * core with an FPU: a core with one where the truth has no FP state, or the
 * other way round, is a difference) and the last value each core loaded or
 * stored before each of them, then visit the positions in a shuffled order
 * (so the seeks go forward and backward) and compare. *end
 * gets the recording's last position. Then memory, at the beginning and
 * at up to 24 of the positions (in increasing order): on every 4 KiB page of ROM and SRAM the
 * program accessed, each byte the replay can read (rpl_read_mem) must
 * equal the truth's memory there (the ELF's image and every store so far),
 * and each byte the recording determines (the ELF's, accessed before the
 * position, or first accessed by a load) must be readable; *cm counts.
 * 0 when all match (*forward and *backward get how many seeks went which
 * way), -1 with the first difference reported.
 */
int rpl_check_random(struct rpl *r, unsigned n, uint64_t seed, uint64_t *end,
		     unsigned *forward, unsigned *backward, struct rpl_check_mem *cm) MUST_CHECK;

/*
 * Breakpoints, watchpoints and single steps against the truth: n PCs and n
 * store addresses picked at random; continuing forward from the beginning
 * must stop at the first execution (store), reverse-continuing from the end
 * at the last, on the truth's core and position; and from n random places,
 * k stepi forward then k backward on a random core must come back to the
 * same step with every register equal. *checks gets how many held. 0 / -1.
 */
int rpl_check_points(struct rpl *r, unsigned n, uint64_t seed, unsigned *checks) MUST_CHECK;

#endif

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

/*
 * Index r (replay to the end), pick n positions with a seeded PRNG, read
 * the ground truth once for every core's registers and the last value each
 * core loaded or stored before each of them, then visit the positions in a
 * shuffled order (so the seeks go forward and backward) and compare. *end
 * gets the recording's last position. 0 when
 * all match (*forward and *backward get how many seeks went which way),
 * -1 with the first difference reported.
 */
int rpl_check_random(struct rpl *r, unsigned n, uint64_t seed, uint64_t *end,
		     unsigned *forward, unsigned *backward) MUST_CHECK;

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

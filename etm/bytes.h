/*
 * bytes: the growing output buffer every trace encoder here writes into
 * (etm4, etm3, mtb, cstf): the encoders keep buf/len/cap themselves and
 * ask for room before they write.
 */
#ifndef RAPTOR_ETM_BYTES_H
#define RAPTOR_ETM_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

/*
 * Make *buf (cap bytes, *cap updated) hold at least need bytes, doubling
 * from 4096. 0, or -1 when out of memory (nothing reported: the caller
 * names its trace and place; *buf is unchanged then).
 */
int etm_bytes_reserve(uint8_t **buf, size_t *cap, size_t need) MUST_CHECK;

#endif

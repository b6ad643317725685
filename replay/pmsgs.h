/*
 * pmsgs: one core's messages of a decoded path (replay/cfwalk.h, struct
 * cfw_pmsg), each with the merge's key (etmpath.c: the core's lower-bound
 * cycles at the message), kept packed: a trace of 10^9 instructions has
 * some 10^8 taken branches, and the path holds one message for each.
 *
 * The messages go in chunks of RPL_PCHUNK, packed when the chunk is full
 * (the last, partial one stays plain), each chunk on its own so that a
 * reader unpacks one chunk at a time (struct rpl_pcur). A message packed:
 *
 *     7   6   5   4   3   2   1   0
 *   +---+---------------+-----------+
 *   | F |      sel      |   kind    |  head byte
 *   +---+---------------+-----------+
 *   n              ULEB128
 *   at             ULEB128, zigzag: at - the previous message's at
 *   key            ULEB128, zigzag: key - the previous key - n
 *   ta             sel = 15: ULEB128, zigzag: ta - recent[0]
 *                  sel < 15: none, ta is recent[sel]
 *   exc            F = 1, or kind EXC or TAIL: ULEB128
 *
 * recent: the chunk's latest distinct targets, newest first (move to
 * front, RPL_PRECENT of them, 0 at the start of a chunk): a loop's
 * branches go to the same few places. ta is stored (sel) for every kind
 * when F = 1, else for BRANCH and GAP only (the others' ta is 0); exc is
 * stored for EXC and TAIL, and for any kind when F = 1 (the others' exc
 * is 0). F is set when a message does not fit its kind's usual form, so
 * that any message comes back as it went in. "previous" is 0 for the
 * chunk's first message, and deltas are taken modulo 2^64. A message of
 * a TPIU capture takes about 4 bytes (docs/ETM.md).
 */
#ifndef RAPTOR_PMSGS_H
#define RAPTOR_PMSGS_H

#include <stddef.h>
#include <stdint.h>

#include "replay/cfwalk.h"

#define RPL_PCHUNK 256
#define RPL_PRECENT 15

struct rpl_pmsgs {
	int core; /* every message's core */
	struct rpl_pchunk {
		uint8_t *p;
		uint32_t len;
		uint32_t gaps; /* its CFW_P_GAP messages */
	} * chunk;
	size_t nchunks, achunks;
	struct cfw_pmsg *open; /* the partial chunk, plain: RPL_PCHUNK of room */
	uint64_t *open_keys;
	size_t nopen;
	uint64_t packed_bytes;
};

/* An empty list for core's messages (no allocation). */
void rpl_pmsgs_init(struct rpl_pmsgs *l, int core);
void rpl_pmsgs_release(struct rpl_pmsgs *l);

/* Append m (m->core must be the list's) with its key; full chunks are packed. */
void rpl_pmsgs_push(struct rpl_pmsgs *l, const struct cfw_pmsg *m, uint64_t key);

/* The messages held, and the bytes they take (packed, plain, the chunk table). */
uint64_t rpl_pmsgs_count(const struct rpl_pmsgs *l);
uint64_t rpl_pmsgs_bytes(const struct rpl_pmsgs *l);

/*
 * A reader of a list, from message k on, one chunk unpacked at a time
 * (the list may grow meanwhile, not be released). rpl_pcur_peek: the
 * message at the reader and its key (key may be NULL), NULL past the end;
 * rpl_pcur_skip moves to the next one. The pointer holds until the next
 * skip.
 */
struct rpl_pcur {
	const struct rpl_pmsgs *l;
	uint64_t k;
	size_t cached; /* the chunk in m, or SIZE_MAX */
	struct cfw_pmsg m[RPL_PCHUNK];
	uint64_t keys[RPL_PCHUNK];
};
void rpl_pcur_init(struct rpl_pcur *c, const struct rpl_pmsgs *l, uint64_t k);
const struct cfw_pmsg *rpl_pcur_peek(struct rpl_pcur *c, uint64_t *key);
void rpl_pcur_skip(struct rpl_pcur *c);

/*
 * Where the list's nth CFW_P_GAP message is (n from 0): its index, or
 * UINT64_MAX when it has fewer. Reads one chunk.
 */
uint64_t rpl_pmsgs_find_gap(const struct rpl_pmsgs *l, uint64_t nth);

#endif

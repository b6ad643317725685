/*
 * vlc: the papers' variable chunk encoding of counters and differences
 * (TRaptor Sec. 4 and Fig. 6; mcfTRaptor Sec. 4 and Fig. 7b/7c).
 *
 * An unsigned value v is sent as chunks of sizes c0, c1, c1, c1, ... bits.
 * The first chunk carries bits [c0-1:0] of v, the next one bits
 * [c0+c1-1:c0], and so on: the low bits of the value go first. Each chunk is
 * written LSB first (bitio.h: bit k of the chunk is the k-th bit sent) and is
 * followed by one connect bit C: 1 = another chunk follows, 0 = this was the
 * last. The encoder sends the fewest chunks that hold v (the paper's
 * "eliminating the leading zero bits"); 0 is one chunk of c0 zero bits.
 *
 *   | chunk 0: c0 bits | C | chunk 1: c1 bits | C | ... | chunk k: c1 bits | 0 |
 *     v[c0-1:0], LSB 1st     v[c0+c1-1:c0]                 v[top bits]
 *
 * The TRaptor paper's example with i0 = i1 = 3, written as transmitted
 * (first bit first): bCnt = 3 = 0b011 is "110 0"; bCnt = 19 = 0b010_011 is
 * "110 1 010 0" (chunk 011 sent LSB first = 1,1,0, C = 1, chunk 010 sent LSB
 * first = 0,1,0, C = 0). In the byte buffer (bit i = bit i%8 of byte i/8)
 * they are 0x03 (4 bits) and 0x2b (8 bits).
 *
 * Fixed-size chunks (TR_b: 8-bit chunks of bCnt and diffCC, 16-bit chunks of
 * |diffTA|) are the special case c0 = c1.
 *
 * Signed fields (diffTA = TA - PTA): one sign bit (1 = negative) FIRST, then
 * the magnitude |v| as above. (TRaptor Sec. 4 describes the sign bit next to
 * the |diffTA| chunks without fixing its place; raptor puts it first.)
 * Zero is sent with sign 0.
 *
 *   | S | |v| in chunks as above |
 *
 * Decoding is strict, so a stream out of step is caught early: it fails with
 * -1 and an error naming the stream and the bit offset where the value
 * starts, leaving the reader where the value started, when the stream ends
 * inside the value, when the value does not fit in 64 bits (set bits at 2^64
 * or above, or a chunk starting at bit 64), when the encoding is not minimal
 * (a last chunk of zeros that is not the first chunk), or for a negative zero.
 */
#ifndef RAPTOR_VLC_H
#define RAPTOR_VLC_H

#include <stdint.h>

#include "streams/bitio.h"
#include "util/util.h"

/* Chunk sizes: c0 for the first chunk, c1 for each following one; 1..64 each. */
struct st_vlc {
	unsigned c0, c1;
};

#define ST_VLC(a, b) ((struct st_vlc){(a), (b)})
/* TR_b (mcfTRaptor Fig. 7b): fixed chunks */
#define ST_VLC_TRB_BCNT ST_VLC(8, 8)
#define ST_VLC_TRB_DIFFTA ST_VLC(16, 16)
#define ST_VLC_TRB_DIFFCC ST_VLC(8, 8)
/* TR_e (mcfTRaptor Sec. 5): the papers' best chunk sizes */
#define ST_VLC_TRE_BCNT ST_VLC(3, 2)
#define ST_VLC_TRE_DIFFTA ST_VLC(3, 4)
#define ST_VLC_TRE_DIFFCC ST_VLC(4, 2)
#define ST_VLC_TRE_ICNT ST_VLC(2, 2) /* TRaptor Sec. 5.2 */
#define ST_VLC_FAHCNT ST_VLC(1, 2)   /* CFAT's best */

/* Both sizes in 1..64? 0, or -1 with an error. */
int st_vlc_check(struct st_vlc ch) MUST_CHECK;

/* Append v in chunks. ch must pass st_vlc_check. */
void st_put_uvlc(struct st_writer *w, struct st_vlc ch, uint64_t v);
/* Read a chunked value into *v: 0, or -1 (see above; *v untouched). */
int st_get_uvlc(struct st_reader *r, struct st_vlc ch, uint64_t *v) MUST_CHECK;

/* Sign bit, then the magnitude in chunks; negative is 0 or 1, 0 for mag 0. */
void st_put_sm(struct st_writer *w, struct st_vlc ch, int negative, uint64_t mag);
int st_get_sm(struct st_reader *r, struct st_vlc ch, int *negative, uint64_t *mag) MUST_CHECK;

/* The same for an int64_t (INT64_MIN included: magnitude 2^63). */
void st_put_svlc(struct st_writer *w, struct st_vlc ch, int64_t v);
int st_get_svlc(struct st_reader *r, struct st_vlc ch, int64_t *v) MUST_CHECK;

/* Bits the encodings of v take (chunks + connect bits [+ sign]); for statistics. */
unsigned st_uvlc_len(struct st_vlc ch, uint64_t v);
unsigned st_svlc_len(struct st_vlc ch, int64_t v);
/* Number of chunks v takes (>= 1). */
unsigned st_uvlc_chunks(struct st_vlc ch, uint64_t v);

#endif

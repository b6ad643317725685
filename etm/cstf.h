/*
 * cstf: the CoreSight trace formatter (ARM IHI 0029, "CoreSight
 * Architecture Specification", "Trace Formatter"), which merges the trace
 * streams of several sources, each with its own trace ID, into 16-byte
 * frames, as an ETB/ETR writes them to memory (frame aligned, no frame
 * syncs) and a TPIU sends them (there with FSYNC patterns between frames,
 * and HSYNCs where the port idles: cstf_set_fsync, cstf_set_hsync).
 *
 * Frame, bytes 0..15:
 *   even bytes 0..14: bit 0 = 1: an ID byte, ID = bits[7:1]: the bytes
 *                     after it belong to that source; bit 0 = 0: a data
 *                     byte whose real bit 0 is in byte 15
 *   odd bytes 1..13:  always data
 *   byte 15:          bit k = bit 0 of the data byte at 2k; for an ID byte
 *                     at 2k, bit k = 1 says byte 2k+1 still belongs to the
 *                     previous ID
 * The end of the capture is padded with ID 0 (no source) and zeroes.
 */
#ifndef RAPTOR_ETM_CSTF_H
#define RAPTOR_ETM_CSTF_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define CSTF_FRAME 16

struct cstf;

struct cstf *cstf_new(void);
void cstf_free(struct cstf *f);

/* Append len bytes of the source with trace ID id (1..0x6f). 0 / -1. */
int cstf_put(struct cstf *f, uint8_t id, const uint8_t *data, size_t len) MUST_CHECK;
/* Pad the last frame. 0 / -1. No cstf_put after it. */
int cstf_finish(struct cstf *f) MUST_CHECK;

/* The frames written so far (whole frames only). */
const uint8_t *cstf_data(const struct cstf *f, size_t *len);

/*
 * TPIU output (continuous mode): a frame synchronisation packet (FSYNC,
 * bytes ff ff ff 7f) before the first frame and then before every
 * period-th one, so that a probe capturing from any byte on finds the
 * frames (period 0: none, the ETB/ETR form). Before the first cstf_put.
 */
void cstf_set_fsync(struct cstf *f, unsigned period);

/*
 * TPIU output on a port that idles between the funnel's bursts (on): each
 * cstf_put is a burst after an idle spell, which the TPIU fills with a
 * halfword synchronisation packet (HSYNC, bytes ff 7f) before the next
 * frame (after its FSYNC, when one is due), so frames then start at any
 * halfword. No HSYNC is ever a frame's: an even frame byte ff would be ID
 * 0x7f, reserved. Before the first cstf_put.
 */
void cstf_set_hsync(struct cstf *f, int on);

/* The offset of the first FSYNC in a TPIU's capture, or len when there is none. */
size_t cstf_tpiu_start(const uint8_t *data, size_t len);

/*
 * Read a capture of frames: for every trace ID 0..127, how many data
 * bytes it has (bytes[id]) and the capture offset of its first (first[id],
 * meaningful when bytes[id] > 0). ID 0 is the formatter's padding,
 * 0x70..0x7f are reserved. fsyncs 0: frame aligned (len a multiple of
 * 16); 1: a TPIU's, the frames found from the first FSYNC on, FSYNCs
 * between frames and HSYNCs at any halfword skipped (as OpenCSD's
 * deformatter does), a part frame at the end left out. 0, or -1 with
 * an error naming the byte offset (len not whole frames, no FSYNC).
 */
int cstf_scan(const uint8_t *data, size_t len, int fsyncs, uint64_t bytes[128],
	      uint64_t first[128]) MUST_CHECK;

#endif

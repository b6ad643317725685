/*
 * bitio: the bit writer and bit reader under every trace stream.
 *
 * Bit order (this is part of docs/FORMAT.md): a stream is a sequence of
 * bits numbered 0, 1, 2, ... in the order a trace port transmits them.
 * Bit i of the stream is bit (i % 8) of byte (i / 8), bit 0 being the least
 * significant bit of a byte. A field of n bits holding value v is written
 * LSB first: bit k of v (k = 0 .. n-1) becomes stream bit (start + k).
 *
 *   stream bit:  7 6 5 4 3 2 1 0   15 14 13 12 11 10 9 8
 *               +---------------+ +---------------------+
 *   byte:       |    byte 0     | |       byte 1        |  ...
 *               +---------------+ +---------------------+
 *                MSB         LSB   MSB               LSB
 *
 * So writing 3 bits of 3 (binary 011) then 1 bit of 0 into an empty stream
 * transmits 1,1,0,0 and leaves byte 0 = 0x03. A stream whose length is not a
 * multiple of 8 is padded with 0 bits up to the next byte when it is stored.
 *
 * Writer: struct st_writer, on the stack or embedded; st_writer_init, then
 * st_put_*, then st_writer_release (git strbuf style: the fields are visible
 * for speed but read-only to callers). It keeps the bits not yet flushed in a
 * growable buffer; st_writer_flush moves every complete byte to a FILE so a
 * long recording does not stay in memory.
 *
 * Reader: struct st_reader over a memory buffer. Every read either succeeds
 * whole or fails with -1, an error naming the stream and the bit offset,
 * and the position unchanged.
 */
#ifndef RAPTOR_BITIO_H
#define RAPTOR_BITIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/util.h"

struct st_writer {
	uint8_t *buf;	/* bytes from absolute byte `base` on; unused bits are 0 */
	size_t alloc;	/* bytes allocated at buf */
	uint64_t base;	/* absolute index of buf[0]: bytes already flushed */
	uint64_t nbits; /* absolute bit offset of the next bit = bits written so far */
};

/* An empty writer (no allocation yet). */
void st_writer_init(struct st_writer *w);
/* Free the buffer; the writer is empty again (as after init). */
void st_writer_release(struct st_writer *w);

/* Append the low n bits of v (n = 0..64), LSB first. */
void st_put_bits(struct st_writer *w, uint64_t v, unsigned n);
/* Append one bit (0 or nonzero). */
void st_put_bit(struct st_writer *w, int bit);
/* Append 0 bits up to the next byte boundary (none if already there). */
void st_writer_pad(struct st_writer *w);

/* Bits written so far = absolute offset of the next bit. */
static inline uint64_t st_writer_bits(const struct st_writer *w)
{
	return w->nbits;
}

/*
 * The bytes held in memory (from absolute byte w->base on; nothing flushed
 * means the whole stream). *nbytes, if not NULL, gets their count, the last
 * one partial if st_writer_bits is not a multiple of 8. The pointer is valid
 * until the next put, flush or release.
 */
const uint8_t *st_writer_buf(const struct st_writer *w, size_t *nbytes);

/*
 * Hand the in-memory bytes to the caller (who frees them, a partial last byte
 * padded with 0 bits); *nbytes gets their count; NULL (and *nbytes 0) if
 * nothing is held. The writer keeps going: its offset moves on to the next
 * byte boundary, as if st_writer_pad had been called.
 */
uint8_t *st_writer_detach(struct st_writer *w, size_t *nbytes);

/*
 * Write every complete byte held to f and drop it from memory; a partial last
 * byte stays (st_writer_pad first to flush everything). f NULL drops the
 * bytes unwritten (an encoder kept only for its size). 0, or -1 with an
 * error naming name (a file name for the message) on a write error.
 */
int st_writer_flush(struct st_writer *w, FILE *f, const char *name) MUST_CHECK;

struct st_reader {
	const uint8_t *buf;
	uint64_t nbits;	  /* readable bits */
	uint64_t pos;	  /* absolute bit offset of the next bit */
	const char *name; /* for messages; "bit stream" unless set */
};

/* Read the first nbytes * 8 bits of buf (the reader does not copy it). */
void st_reader_init(struct st_reader *r, const void *buf, size_t nbytes);
/* Read only the first nbits bits of buf (buf holds at least ceil(nbits/8) bytes). */
void st_reader_init_bits(struct st_reader *r, const void *buf, uint64_t nbits);

/*
 * Read n bits (0..64), LSB first, into *v. 0, or -1 when fewer than n bits
 * remain: the error names the stream, n and the bit offset, *v and the
 * position are unchanged.
 */
int st_get_bits(struct st_reader *r, unsigned n, uint64_t *v) MUST_CHECK;
/* Read one bit into *bit (0 or 1); like st_get_bits. */
int st_get_bit(struct st_reader *r, int *bit) MUST_CHECK;

static inline uint64_t st_reader_pos(const struct st_reader *r)
{
	return r->pos;
}

static inline uint64_t st_reader_left(const struct st_reader *r)
{
	return r->nbits - r->pos;
}

/*
 * Render n bits of buf from bit offset from as '0'/'1' characters in
 * transmission order (stream bit `from` first) into out, which holds n + 1
 * bytes; for dumps and tests. Returns out.
 */
char *st_bits_string(const void *buf, uint64_t from, uint64_t n, char *out);

#endif

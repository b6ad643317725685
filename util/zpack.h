/*
 * zpack: how raptor compresses what it keeps of a replay: checkpoint states
 * in the store (replay/ckstore.c) and every blob of the persisted index
 * (replay/index.c). A blob is one zstd frame at level 1 (libzstd). On the
 * 175 checkpoint states (170 KB each) of a 4-core soak recording it took
 * 0.30 ms a state to zlib level 1's 1.02, for 11.8% of the raw size to
 * zlib's 15.6%. Each frame carries zstd's content checksum (XXH64, 4
 * bytes), so a damaged blob is refused rather than unpacked to other bytes
 * of the right size. Each struct zpack keeps its own compression and
 * decompression contexts, so nothing is allocated per blob; it is not
 * shared between threads. Also the compressed blocks of the control-flow
 * walk's messages (replay/zchunks.h).
 */
#ifndef RAPTOR_ZPACK_H
#define RAPTOR_ZPACK_H

#include <stddef.h>
#include <stdint.h>

struct zpack;

/* The most bytes n bytes take packed (what zpack_pack's dst needs). */
size_t zpack_bound(size_t n);

/* NULL only when the library cannot set up its contexts (out of memory). */
struct zpack *zpack_new(void);
void zpack_free(struct zpack *z);
/* Bytes it holds (its contexts, as the library sizes them); 0 for NULL. */
size_t zpack_bytes(const struct zpack *z);

/* Pack n bytes of src into dst (cap bytes): the packed length, 0 if it fails. */
size_t zpack_pack(struct zpack *z, void *dst, size_t cap, const void *src, size_t n);

/*
 * Pack a blob that comes in pieces, never whole in memory: one frame, as
 * zpack_pack would make of the pieces joined. zpack_stream_begin with
 * their total size, then zpack_stream_feed with each piece in order (last:
 * 1 with the final one, which may be empty); the frame grows at *dst
 * (realloc'd; *cap its size, *len the bytes made so far, both 0 with *dst
 * NULL at first). 0, or -1 when the library fails or the pieces do not
 * add up to the size (the frame is then not whole).
 */
int zpack_stream_begin(struct zpack *z, unsigned long long size);
int zpack_stream_feed(struct zpack *z, const void *src, size_t n, int last, uint8_t **dst,
		      size_t *cap, size_t *len);

/*
 * Unpack a blob in pieces, never whole in memory: zpack_unstream_begin
 * with its len bytes at src (kept until the end), then zpack_unstream_read
 * for the next bytes into dst (at most cap, cap > 0): how many, 0 at the
 * end of a whole blob with its checksum right and nothing after it, -1
 * when it is damaged.
 */
void zpack_unstream_begin(struct zpack *z, const void *src, size_t len);
long zpack_unstream_read(struct zpack *z, void *dst, size_t cap);

/*
 * Unpack the len bytes at src into dst: 0 when they are one whole blob that
 * unpacks to exactly n bytes and matches its checksum, else -1 (damaged,
 * truncated, another size); quiet: the caller names what did not unpack.
 */
int zpack_unpack(struct zpack *z, void *dst, size_t n, const void *src, size_t len);

#endif

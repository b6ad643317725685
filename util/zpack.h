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
 * Unpack the len bytes at src into dst: 0 when they are one whole blob that
 * unpacks to exactly n bytes and matches its checksum, else -1 (damaged,
 * truncated, another size); quiet: the caller names what did not unpack.
 */
int zpack_unpack(struct zpack *z, void *dst, size_t n, const void *src, size_t len);

#endif

/* zpack: one zstd frame per blob (util/zpack.h). */
#include "util/zpack.h"

#include <stdlib.h>
#include <zstd.h>

#include "util/util.h"

#define ZPACK_LEVEL 1

struct zpack {
	ZSTD_CCtx *c;
	ZSTD_DCtx *d;
};

size_t zpack_bound(size_t n)
{
	return ZSTD_compressBound(n);
}

struct zpack *zpack_new(void)
{
	struct zpack *z = xcalloc(1, sizeof(*z));

	z->c = ZSTD_createCCtx();
	z->d = ZSTD_createDCtx();
	if (!z->c || !z->d ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->c, ZSTD_c_compressionLevel, ZPACK_LEVEL)) ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->c, ZSTD_c_checksumFlag, 1))) {
		zpack_free(z);
		return NULL;
	}
	return z;
}

size_t zpack_bytes(const struct zpack *z)
{
	return z ? sizeof(*z) + ZSTD_sizeof_CCtx(z->c) + ZSTD_sizeof_DCtx(z->d) : 0;
}

void zpack_free(struct zpack *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->c);
	ZSTD_freeDCtx(z->d);
	free(z);
}

size_t zpack_pack(struct zpack *z, void *dst, size_t cap, const void *src, size_t n)
{
	size_t r = ZSTD_compress2(z->c, dst, cap, src, n);

	return ZSTD_isError(r) ? 0 : r;
}

int zpack_unpack(struct zpack *z, void *dst, size_t n, const void *src, size_t len)
{
	size_t r;

	/* one frame, all of src: a frame that ends early or trailing bytes are damage */
	if (ZSTD_findFrameCompressedSize(src, len) != len)
		return -1;
	r = ZSTD_decompressDCtx(z->d, dst, n, src, len);
	return ZSTD_isError(r) || r != n ? -1 : 0;
}

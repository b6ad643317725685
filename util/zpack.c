/* zpack: one zstd frame per blob (util/zpack.h). */
#include "util/zpack.h"

#include <stdlib.h>
#include <zstd.h>

#include "util/util.h"

#define ZPACK_LEVEL 1

struct zpack {
	ZSTD_CCtx *c;
	ZSTD_DCtx *d;
	ZSTD_inBuffer in; /* zpack_unstream's blob */
	int ended;	  /* ... its frame is whole */
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

int zpack_stream_begin(struct zpack *z, unsigned long long size)
{
	ZSTD_CCtx_reset(z->c, ZSTD_reset_session_only);
	return ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(z->c, size)) ? -1 : 0;
}

int zpack_stream_feed(struct zpack *z, const void *src, size_t n, int last, uint8_t **dst,
		      size_t *cap, size_t *len)
{
	ZSTD_inBuffer in = { src, n, 0 };
	size_t left;

	do {
		ZSTD_outBuffer out;

		if (*cap - *len < ZSTD_CStreamOutSize()) {
			*cap = *cap ? 2 * *cap : 2 * ZSTD_CStreamOutSize();
			*dst = xrealloc(*dst, *cap);
		}
		out = (ZSTD_outBuffer){ *dst, *cap, *len };
		left = ZSTD_compressStream2(z->c, &out, &in, last ? ZSTD_e_end : ZSTD_e_continue);
		if (ZSTD_isError(left))
			return -1;
		*len = out.pos;
	} while (last ? left != 0 : in.pos < in.size);
	return 0;
}

void zpack_unstream_begin(struct zpack *z, const void *src, size_t len)
{
	ZSTD_DCtx_reset(z->d, ZSTD_reset_session_only);
	z->in = (ZSTD_inBuffer){ src, len, 0 };
	z->ended = 0;
}

long zpack_unstream_read(struct zpack *z, void *dst, size_t cap)
{
	ZSTD_outBuffer out = { dst, cap, 0 };
	size_t r;

	while (!z->ended && !out.pos) {
		r = ZSTD_decompressStream(z->d, &out, &z->in);
		if (ZSTD_isError(r))
			return -1;
		if (!r) {
			z->ended = 1; /* the frame is whole: nothing may follow it */
			if (z->in.pos != z->in.size)
				return -1;
		} else if (!out.pos && z->in.pos == z->in.size) {
			return -1; /* (it ends early) */
		}
	}
	return (long)out.pos;
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

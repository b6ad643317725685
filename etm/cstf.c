/*
 * cstf: CoreSight trace formatter frames (IHI 0029). An ID change may only
 * sit in an even byte; when a source's data ends on an even byte, the byte
 * pair becomes (ID of the next source with the "previous ID" flag, that
 * last data byte), so the next source starts on the next pair.
 */
#include <stdlib.h>
#include <string.h>

#include "etm/cstf.h"
#include "etm/bytes.h"

struct cstf {
	uint8_t *buf;
	size_t len, cap;
	uint8_t frame[CSTF_FRAME];
	int slot; /* next byte of frame to fill, 0..14 */
	int cur;  /* current ID, -1 before the first */
	int done;
	unsigned fsync_period; /* TPIU: an FSYNC before every fsync_period-th frame (0: none) */
	int hsync;	       /* TPIU: an HSYNC before the frame after each burst */
	int idle;	       /* ... a burst came since the last frame went out */
	uint64_t frames;
};

static const uint8_t fsync[4] = {0xff, 0xff, 0xff, 0x7f};
static const uint8_t hsync[2] = {0xff, 0x7f};

void cstf_set_fsync(struct cstf *f, unsigned period)
{
	f->fsync_period = period;
}

void cstf_set_hsync(struct cstf *f, int on)
{
	f->hsync = on;
}

struct cstf *cstf_new(void)
{
	struct cstf *f = calloc(1, sizeof(*f));

	if (!f) {
		error("cstf: out of memory");
		return NULL;
	}
	f->cur = -1;
	return f;
}

void cstf_free(struct cstf *f)
{
	if (!f)
		return;
	free(f->buf);
	free(f);
}

static int emit(struct cstf *f)
{
	if (etm_bytes_reserve(&f->buf, &f->cap,
			      f->len + CSTF_FRAME + sizeof(fsync) + sizeof(hsync)))
		return error("cstf: out of memory at frame %llu", (unsigned long long)f->frames);
	if (f->fsync_period && f->frames % f->fsync_period == 0) {
		memcpy(f->buf + f->len, fsync, sizeof(fsync));
		f->len += sizeof(fsync);
	}
	if (f->hsync && f->idle) {
		memcpy(f->buf + f->len, hsync, sizeof(hsync));
		f->len += sizeof(hsync);
		f->idle = 0;
	}
	f->frames++;
	memcpy(f->buf + f->len, f->frame, CSTF_FRAME);
	f->len += CSTF_FRAME;
	memset(f->frame, 0, sizeof(f->frame));
	f->slot = 0;
	return 0;
}

/* Move on one byte: a full frame (15 bytes and the flags) goes out. */
static int next(struct cstf *f)
{
	return ++f->slot == 15 ? emit(f) : 0;
}

static int put_byte(struct cstf *f, uint8_t id, uint8_t b)
{
	if (id != f->cur) {
		if (f->slot & 1) {
			/* an ID cannot go in an odd byte: the even byte before it
			   (data of the old ID) moves here, its place takes the ID
			   with the "previous ID" flag */
			int e = f->slot - 1;
			uint8_t d0 = f->frame[e] | ((f->frame[15] >> (e / 2)) & 1);

			f->frame[e] = (uint8_t)(id << 1 | 1);
			f->frame[15] |= 1u << (e / 2);
			f->frame[f->slot] = d0;
			f->cur = id;
			if (next(f))
				return -1;
		} else {
			f->frame[f->slot] = (uint8_t)(id << 1 | 1);
			f->frame[15] &= ~(1u << (f->slot / 2));
			f->cur = id;
			if (next(f))
				return -1;
		}
	}
	if (f->slot & 1)
		f->frame[f->slot] = b;
	else {
		f->frame[f->slot] = b & 0xfe;
		f->frame[15] = (f->frame[15] & ~(1u << (f->slot / 2))) | (b & 1) << (f->slot / 2);
	}
	return next(f);
}

int cstf_put(struct cstf *f, uint8_t id, const uint8_t *data, size_t len)
{
	if (id < 1 || id > 0x6f)
		return error("cstf: trace ID 0x%x out of range 0x01..0x6f", id);
	if (f->done)
		return error("cstf: trace ID 0x%x: data after the end of the capture", id);
	f->idle = 1;
	for (size_t i = 0; i < len; i++)
		if (put_byte(f, id, data[i]))
			return -1;
	return 0;
}

/* The port idles after the last frame: an HSYNC if the capture ends on a halfword. */
static int finish_hsync(struct cstf *f)
{
	if (!f->hsync || f->len % 4 == 0)
		return 0;
	if (etm_bytes_reserve(&f->buf, &f->cap, f->len + sizeof(hsync)))
		return error("cstf: out of memory at frame %llu", (unsigned long long)f->frames);
	memcpy(f->buf + f->len, hsync, sizeof(hsync));
	f->len += sizeof(hsync);
	return 0;
}

int cstf_finish(struct cstf *f)
{
	f->done = 1;
	if (f->slot == 0)
		return finish_hsync(f);
	if (f->slot & 1) { /* close the pair as put_byte does, with ID 0 */
		int e = f->slot - 1;
		uint8_t d0 = f->frame[e] | ((f->frame[15] >> (e / 2)) & 1);

		f->frame[e] = 0x01;
		f->frame[15] |= 1u << (e / 2);
		f->frame[f->slot] = d0;
	} else
		f->frame[f->slot] = 0x01; /* ID 0: the rest is nobody's */
	return emit(f) || finish_hsync(f) ? -1 : 0;
}

const uint8_t *cstf_data(const struct cstf *f, size_t *len)
{
	*len = f->len;
	return f->buf;
}

static void scan_byte(int id, uint64_t off, uint64_t bytes[128], uint64_t first[128])
{
	if (id < 0)
		return; /* data before any ID: a decoder drops it too */
	if (!bytes[id]++)
		first[id] = off;
}

size_t cstf_tpiu_start(const uint8_t *data, size_t len)
{
	for (size_t pos = 0; pos + sizeof(fsync) <= len; pos++)
		if (!memcmp(data + pos, fsync, sizeof(fsync)))
			return pos;
	return len;
}

/*
 * One frame fr into the counts, its byte i at capture offset at[i] (at
 * NULL: f + i); *cur is the current ID.
 */
static void scan_frame(const uint8_t *fr, size_t f, const size_t *at, int *cur,
		       uint64_t bytes[128], uint64_t first[128])
{
#define AT(i) (at ? at[i] : f + (i))
	for (int k = 0; k < 8; k++) {
		uint8_t b = fr[2 * k];
		int flag = fr[15] >> k & 1;

		if (b & 1) {
			int prev = *cur;

			*cur = b >> 1;
			if (k < 7)
				scan_byte(flag ? prev : *cur, AT(2 * k + 1), bytes, first);
		} else {
			scan_byte(*cur, AT(2 * k), bytes, first);
			if (k < 7)
				scan_byte(*cur, AT(2 * k + 1), bytes, first);
		}
	}
#undef AT
}

int cstf_scan(const uint8_t *data, size_t len, int fsyncs, uint64_t bytes[128],
	      uint64_t first[128])
{
	int cur = -1;
	size_t pos = 0;

	memset(bytes, 0, 128 * sizeof(*bytes));
	memset(first, 0, 128 * sizeof(*first));
	if (!fsyncs) {
		if (len % CSTF_FRAME)
			return error("cstf: a capture of %zu bytes is no whole number of %d-byte "
				     "frames (%zu bytes past the last whole one, at byte %zu)",
				     len, CSTF_FRAME, len % CSTF_FRAME, len - len % CSTF_FRAME);
		for (size_t f = 0; f < len; f += CSTF_FRAME)
			scan_frame(data + f, f, NULL, &cur, bytes, first);
		return 0;
	}
	/*
	 * a TPIU's: frames start after the first FSYNC, FSYNCs come between
	 * them, HSYNCs at any halfword; a part frame at the end is cut off
	 */
	pos = cstf_tpiu_start(data, len);
	if (pos == len)
		return error("cstf: no frame synchronisation (FSYNC, ff ff ff 7f) in the %zu bytes "
			     "of the capture", len);
	for (;;) {
		uint8_t fr[CSTF_FRAME];
		size_t at[CSTF_FRAME];
		int n = 0;

		while (pos + sizeof(fsync) <= len && !memcmp(data + pos, fsync, sizeof(fsync)))
			pos += sizeof(fsync);
		for (; n < CSTF_FRAME && pos + 2 <= len; pos += 2) {
			if (!memcmp(data + pos, hsync, sizeof(hsync)))
				continue;
			at[n] = pos;
			fr[n++] = data[pos];
			at[n] = pos + 1;
			fr[n++] = data[pos + 1];
		}
		if (n < CSTF_FRAME)
			return 0;
		scan_frame(fr, 0, at, &cur, bytes, first);
	}
}

/*
 * fmap: a file mapped read-only, for the replay's streams. A recording of
 * 10^9 instructions has streams of hundreds of MiB; read into the heap they
 * would count against the process's memory for the whole run. Mapped, the
 * pages the decoders have passed can be handed back (fmap_release_before):
 * they stay in the kernel's page cache, and a replay that goes back to them
 * (a checkpoint restored) faults them in again from there.
 *
 * The file must not change while it is mapped: a file truncated under a
 * running replay ends the process (exit 128) with a message naming the
 * cause and the files mapped (SIGBUS is caught), never a wrong replay.
 */
#ifndef RAPTOR_FMAP_H
#define RAPTOR_FMAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

struct fmap {
	const uint8_t *p; /* the bytes (a valid pointer even for an empty file) */
	size_t len;
	size_t released; /* bytes [0, released) handed back, page-aligned */
	int mapped;	 /* 0: an empty file, p is a heap byte */
};

/*
 * Map the whole file at path, which must hold exactly `want` bytes: 0, or
 * -1 with an error naming the file (cannot open, a directory; another size:
 * "PATH: N bytes, but WHAT", and ": the file is truncated" when shorter;
 * what says where `want` comes from).
 */
int fmap_open(struct fmap *m, const char *path, uint64_t want, const char *what) MUST_CHECK;

/*
 * The reader is at byte off: hand back the whole pages before it once there
 * are at least 1 MiB of them (cheap to call often). A reader that went
 * back before what was handed back is fine: the pages fault in again.
 */
void fmap_release_before(struct fmap *m, size_t off);

/* Unmap (m zeroed; a zeroed m may be closed too). */
void fmap_close(struct fmap *m);

#endif

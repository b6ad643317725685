/*
 * index: the replay's checkpoints and stretch summaries persisted beside the
 * recording (DESIGN.md section 7: "the index persists beside the recording
 * keyed by the streams' hash"), so that a later replay or serve has them at
 * once instead of re-running the recording.
 *
 * The file is REC/index.raptor, or, when REC is not writable, the cache
 * directory's <key>.raptor ($XDG_CACHE_HOME/raptor, else ~/.cache/raptor,
 * or --cache-dir). docs/FORMAT.md draws it: a fixed header (magic, format
 * version, the key and the SHA-256 of each file it covers, sizes, the
 * body's SHA-256, a CRC-32 of the header), then the records, one per
 * checkpoint, their parts packed by util/zpack.h: its slot, steps and
 * position, the summary of
 * the stretch after it, its state, the memory pages it is the first to
 * hold (each distinct page is written once, with the last checkpoint that
 * holds it) and the list of the pages its snapshot holds.
 *
 * The key is the SHA-256 of the format version, the interval and the
 * SHA-256s of manifest.ini, the ELF and the streams (their bytes). A file
 * whose key differs (stale), that is shorter or longer than its header
 * says (truncated), whose checksums do not match (damaged) or that was
 * written by a build with another checkpoint layout is reported naming the
 * file and the fault, and not used. Nothing but the index file is ever
 * written, and that atomically (a temporary file renamed).
 */
#ifndef RAPTOR_RPL_INDEX_H
#define RAPTOR_RPL_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "replay/replay.h"
#include "util/util.h"

#define RPL_INDEX_NAME "index.raptor"
#define RPL_INDEX_VERSION 5

struct rpl_idx;

/*
 * The index of r's recording at r's interval (set it first): hashes the
 * recording's files. cache_dir NULL: the XDG cache directory. NULL with an
 * error if a file cannot be read.
 */
struct rpl_idx *rpl_idx_new(struct rpl *r, const char *cache_dir);
void rpl_idx_free(struct rpl_idx *x);

/*
 * Is there a valid index (beside the recording, else in the cache)? 1 yes
 * (rpl_idx_path names it), 0 no. An invalid one is reported (a warning
 * naming the file and the fault) and *bad set to 1.
 */
int rpl_idx_find(struct rpl_idx *x, int *bad);

/*
 * Load the valid index rpl_idx_find found into r, fresh from rpl_open
 * (its interval and memory budget set): r then holds its checkpoints and
 * summaries (thinned to the budget as they come) and is at the end of the
 * recording, as after rpl_index. 0, or -1 (reported; r must then be
 * closed: it may be half-loaded).
 */
int rpl_idx_load(struct rpl_idx *x, struct rpl *r) MUST_CHECK;

/*
 * Write r's checkpoints and summaries (r having run to the end: rpl_index)
 * as the index: beside the recording if its directory is writable, else
 * in the cache directory (created). 0 / -1.
 */
int rpl_idx_write(struct rpl_idx *x, struct rpl *r) MUST_CHECK;

/* The index file found or written last (NULL: none), its checkpoints and size. */
const char *rpl_idx_path(const struct rpl_idx *x);
uint64_t rpl_idx_count(const struct rpl_idx *x);
uint64_t rpl_idx_bytes(const struct rpl_idx *x);
/* Of the index written last: its states' bytes, and in *deltas how many are deltas (ckstore.h). */
uint64_t rpl_idx_state_bytes(const struct rpl_idx *x, uint64_t *deltas);

#endif

/*
 * fuzz_util: what the libFuzzer targets in tests/fuzz/ share: a scratch
 * directory (in /dev/shm when it can, so the files the targets write for
 * every input stay in memory), whole-file reads and writes, and where the
 * base recordings are.
 *
 * Every function dies (abort) when the machine, not the input, fails: a
 * fuzz target has nobody to return an error to, and libFuzzer reports the
 * abort with the input that was running.
 */
#ifndef RAPTOR_FUZZ_UTIL_H
#define RAPTOR_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* A fresh directory, removed with everything in it at exit. Owned here. */
const char *fz_tmpdir(void);

/* "a/b" in a malloc'ed string. */
char *fz_join(const char *a, const char *b);

/* Write data[0..len) to path (created or truncated). */
void fz_write(const char *path, const void *data, size_t len);
/* The whole of path, malloc'ed and NUL-terminated, *len its size; NULL if it cannot be read. */
char *fz_read(const char *path, size_t *len);

/*
 * The directory of base recordings: $RAPTOR_FUZZ_RECS, else "recs" next
 * to the fuzz target's executable (tests/fuzz/run.sh records them there).
 */
char *fz_recs_dir(void);
/* The subdirectories of dir, sorted by name, into a NULL-terminated malloc'ed array. */
char **fz_list_dirs(const char *dir);

#endif

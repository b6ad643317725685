/* util: error reporting and checked allocation shared by every module. */
#ifndef RAPTOR_UTIL_H
#define RAPTOR_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* The version `raptor --version` and recordings' manifests report. */
#define RAPTOR_VERSION "0.3"

#define MUST_CHECK __attribute__((warn_unused_result))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Print "raptor: error: <msg>" to stderr and return -1, so callers can
 * write `return error("cf stream: bCnt past end at core %d", c);`.
 * The message should name the thing, the place and the value.
 */
int error(const char *fmt, ...) PRINTF_LIKE(1, 2);

/*
 * The message of the latest error() call, quiet or not ("" before any):
 * a daemon passes it on to its client. Overwritten by the next error().
 * Per thread, as error_quiet's count is.
 */
const char *error_last(void);

/* Print "raptor: warning: <msg>" to stderr. */
void warning(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* Print "raptor: fatal: <msg>" and exit(128). Only during start-up in main. */
void die(const char *fmt, ...) PRINTF_LIKE(1, 2) __attribute__((noreturn));

/*
 * Silence error() (it still returns -1) while quiet > 0. Used by callers that
 * probe and report errors themselves. Inline: the replay brackets every
 * stream message's decoding with it.
 */
extern _Thread_local int error_quiet_depth;
static inline void error_quiet(int delta)
{
	error_quiet_depth += delta;
}

/* Allocation that dies on exhaustion: only for start-up-sized objects. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/*
 * A zeroed table of n bytes for sparse use (2^20 page pointers, say),
 * mapped: the kernel's zero pages until touched, so setting one up and
 * freeing it costs nothing whatever its size. From malloc a large block may
 * be a reused heap block that calloc clears whole, and a sanitizer's
 * allocator poisons and unpoisons all of it. Dies on exhaustion, naming
 * what; free with xunmap_table(p, n).
 */
void *xmap_table(size_t n, const char *what);
void xunmap_table(void *p, size_t n);

/* Parse an unsigned integer (decimal, 0x hex); 0 on success, -1 otherwise. */
int parse_u64(const char *s, uint64_t *out) MUST_CHECK;
/*
 * Parse a size in bytes: a decimal number with an optional suffix K, M or
 * G (KiB, MiB, GiB; either case), e.g. 512M, 2G. 0 / -1 (also on overflow).
 */
int parse_size(const char *s, uint64_t *out) MUST_CHECK;

/* Copy the file from into to (created or replaced): 0, or -1 with an error naming the file. */
int file_copy(const char *from, const char *to) MUST_CHECK;

#endif

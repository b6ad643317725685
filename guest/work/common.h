/*
 * common.h: helpers shared by the workloads (header-only, static inline).
 *
 * Workloads check themselves and return 0 from main on success; on failure
 * they print one line naming the check and the values, and return non-zero.
 */
#ifndef RAPTOR_WORK_COMMON_H
#define RAPTOR_WORK_COMMON_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Print "FAIL name: why" and return 1, so callers write return fail(...). */
__attribute__((format(printf, 2, 3))) static inline int fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return 1;
}

/* xorshift32: a fixed, seedable stream so every run sees the same data. */
static inline uint32_t rng_next(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

#endif

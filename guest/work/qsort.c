/*
 * qsort: newlib's qsort on ints and on strings (strcmp), bsearch on the
 * result. Each sort is checked for order, and against an independent
 * insertion sort of the same input, so a lost or duplicated element shows.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define N_INTS 300
#define N_WORDS 120
#define WORD_MAX 12

static int32_t ints[N_INTS], ints_ref[N_INTS];
static char words[N_WORDS][WORD_MAX + 1];
static const char *wp[N_WORDS], *wp_ref[N_WORDS];

static int cmp_int(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	/* Not x - y: that overflows for far-apart values. */
	return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void insertion_sort_ints(int32_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int32_t v = a[i];
		size_t j = i;

		for (; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static void insertion_sort_strs(const char **a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const char *v = a[i];
		size_t j = i;

		for (; j > 0 && strcmp(a[j - 1], v) > 0; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static int check_ints(uint32_t *seed)
{
	for (size_t i = 0; i < N_INTS; i++) {
		/* Mix signs and force some duplicates. */
		int32_t v = (int32_t)rng_next(seed);
		ints[i] = (i % 7 == 0) ? v % 16 : v;
		ints_ref[i] = ints[i];
	}
	qsort(ints, N_INTS, sizeof(ints[0]), cmp_int);
	insertion_sort_ints(ints_ref, N_INTS);
	for (size_t i = 0; i < N_INTS; i++) {
		if (i > 0 && ints[i - 1] > ints[i])
			return fail("qsort", "ints out of order at %u", (unsigned)i);
		if (ints[i] != ints_ref[i])
			return fail("qsort", "ints[%u]=%ld, insertion sort says %ld", (unsigned)i,
				    (long)ints[i], (long)ints_ref[i]);
	}
	for (size_t i = 0; i < N_INTS; i += 37) {
		int32_t *hit = bsearch(&ints_ref[i], ints, N_INTS, sizeof(ints[0]), cmp_int);
		if (hit == NULL || *hit != ints_ref[i])
			return fail("qsort", "bsearch lost %ld", (long)ints_ref[i]);
	}
	return 0;
}

static int check_strings(uint32_t *seed)
{
	for (size_t i = 0; i < N_WORDS; i++) {
		size_t len = 1 + rng_next(seed) % WORD_MAX;

		/* A 4-letter alphabet makes long shared prefixes, so strcmp
		 * has to look past the first byte. */
		for (size_t k = 0; k < len; k++)
			words[i][k] = (char)('a' + rng_next(seed) % 4);
		words[i][len] = '\0';
		wp[i] = wp_ref[i] = words[i];
	}
	qsort(wp, N_WORDS, sizeof(wp[0]), cmp_str);
	insertion_sort_strs(wp_ref, N_WORDS);
	for (size_t i = 0; i < N_WORDS; i++) {
		if (i > 0 && strcmp(wp[i - 1], wp[i]) > 0)
			return fail("qsort", "words out of order at %u", (unsigned)i);
		if (strcmp(wp[i], wp_ref[i]) != 0)
			return fail("qsort", "word %u: %s vs %s", (unsigned)i, wp[i], wp_ref[i]);
	}
	const char *key = words[N_WORDS / 2];
	const char **hit = bsearch(&key, wp, N_WORDS, sizeof(wp[0]), cmp_str);
	if (hit == NULL || strcmp(*hit, key) != 0)
		return fail("qsort", "bsearch lost \"%s\"", key);
	return 0;
}

int main(void)
{
	uint32_t seed = 0xC0FFEE11u;

	if (check_ints(&seed) != 0 || check_strings(&seed) != 0)
		return 1;
	printf("qsort ok: min %ld max %ld first \"%s\" last \"%s\"\n", (long)ints[0],
	       (long)ints[N_INTS - 1], wp[0], wp[N_WORDS - 1]);
	return 0;
}

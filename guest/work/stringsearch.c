/*
 * stringsearch: Boyer-Moore-Horspool against a naive scan and newlib's strstr
 * (MiBench style). A generated text over a small alphabet gets needles planted
 * at known offsets; every search must find the same occurrences, and the
 * planted ones must be among them.
 */
#include <string.h>

#include "common.h"

#define TEXT_LEN 1000
#define N_NEEDLES 16
#define NEEDLE_MAX 16

static char text[TEXT_LEN + 1];

struct bmh {
	const char *pat;
	size_t len;
	size_t skip[256];
};

static void bmh_init(struct bmh *b, const char *pat)
{
	b->pat = pat;
	b->len = strlen(pat);
	for (int c = 0; c < 256; c++)
		b->skip[c] = b->len;
	/* Distance from the last occurrence (excluding the final char) to the end. */
	for (size_t i = 0; i + 1 < b->len; i++)
		b->skip[(uint8_t)pat[i]] = b->len - 1 - i;
}

/* First match at or after from, or -1. */
static long bmh_find(const struct bmh *b, const char *s, size_t n, size_t from)
{
	size_t i = from;

	while (i + b->len <= n) {
		size_t j = b->len;

		while (j > 0 && s[i + j - 1] == b->pat[j - 1])
			j--;
		if (j == 0)
			return (long)i;
		i += b->skip[(uint8_t)s[i + b->len - 1]];
	}
	return -1;
}

static long naive_find(const char *pat, const char *s, size_t n, size_t from)
{
	size_t m = strlen(pat);

	for (size_t i = from; i + m <= n; i++) {
		size_t j = 0;

		while (j < m && s[i + j] == pat[j])
			j++;
		if (j == m)
			return (long)i;
	}
	return -1;
}

static long strstr_find(const char *pat, const char *s, size_t from)
{
	const char *hit = strstr(s + from, pat);

	return hit ? (long)(hit - s) : -1;
}

/* Count every occurrence three ways; they must agree hit for hit. */
static int search_all(const char *pat, long planted, unsigned *hits)
{
	struct bmh b;
	long a = -1, seen_planted = planted < 0;

	bmh_init(&b, pat);
	*hits = 0;
	for (size_t from = 0;; from = (size_t)a + 1) {
		a = bmh_find(&b, text, TEXT_LEN, from);
		long n = naive_find(pat, text, TEXT_LEN, from);
		long s = strstr_find(pat, text, from);

		if (a != n || a != s)
			return fail("stringsearch", "\"%s\" from %u: bmh %ld naive %ld strstr %ld",
				    pat, (unsigned)from, a, n, s);
		if (a < 0)
			break;
		seen_planted |= a == planted;
		(*hits)++;
	}
	if (!seen_planted)
		return fail("stringsearch", "\"%s\" planted at %ld not found", pat, planted);
	return 0;
}

int main(void)
{
	static char needles[N_NEEDLES][NEEDLE_MAX + 1];
	static long planted[N_NEEDLES];
	uint32_t seed = 0x5EA2C400u;
	unsigned total = 0;

	for (size_t i = 0; i < TEXT_LEN; i++)
		text[i] = "abcdefgh "[rng_next(&seed) % 9];
	text[TEXT_LEN] = '\0';

	/* Half the needles are planted with letters outside the text's
	 * alphabet, so they occur exactly where planted; the rest are random
	 * and may occur anywhere or nowhere. */
	for (int k = 0; k < N_NEEDLES; k++) {
		size_t len = 3 + rng_next(&seed) % (NEEDLE_MAX - 2);
		const char *alpha = (k % 2 == 0) ? "abcdefghXYZ" : "abcdefgh";
		size_t nalpha = strlen(alpha);

		for (size_t i = 0; i < len; i++)
			needles[k][i] = alpha[rng_next(&seed) % nalpha];
		needles[k][len] = '\0';
		planted[k] = -1;
		if (k % 2 == 0) {
			/* One slot per planted needle, so none overwrites another. */
			size_t slot = TEXT_LEN / (N_NEEDLES / 2);

			planted[k] = (long)((size_t)(k / 2) * slot + rng_next(&seed) % (slot - len));
			memcpy(text + planted[k], needles[k], len);
		}
	}
	for (int k = 0; k < N_NEEDLES; k++) {
		unsigned hits;

		if (search_all(needles[k], planted[k], &hits) != 0)
			return 1;
		total += hits;
	}
	/* A 2-letter needle from the alphabet must occur several times. */
	unsigned hits;
	if (search_all("ab", -1, &hits) != 0)
		return 1;
	if (hits < 3) /* about TEXT_LEN / 81 expected */
		return fail("stringsearch", "\"ab\" only %u times in %d chars", hits, TEXT_LEN);
	printf("stringsearch ok: %u hits for %d needles, \"ab\" %u times\n", total, N_NEEDLES,
	       hits);
	return 0;
}

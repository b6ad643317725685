/*
 * printf: newlib's formatted I/O and number parsing.
 *   - snprintf of %d %i %u %x %X %o %ld %lu %lld %llu %llx %f %e %E %g %s %c %%
 *     with flags, width, precision and '*', compared with strcmp against
 *     strings that glibc produces for the same calls (the expected strings
 *     were checked on the host);
 *   - snprintf truncation and return values, sprintf;
 *   - strtol/strtoul/strtoll/strtod/atof/atoi, with end pointers;
 *   - "%.17g" then strtod gives every double back exactly (the two
 *     conversions are independent code in newlib: dtoa and gdtoa's strtod).
 * printf itself writes the final line to stdout through _write.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static char buf[160];
static int failures;

/* One case: snprintf into buf, compare text and return value. */
#define T(want, ...)                                                           \
	do {                                                                   \
		int n_ = snprintf(buf, sizeof(buf), __VA_ARGS__);              \
		if (strcmp(buf, want) != 0 || n_ != (int)strlen(want)) {       \
			printf("FAIL printf line %d: got \"%s\" (%d), want \"%s\"\n", \
			       __LINE__, buf, n_, want);                       \
			failures++;                                            \
		}                                                              \
	} while (0)

static void check_integers(void)
{
	T("42|   42|42   |00042|+42| 42", "%d|%5d|%-5d|%05d|%+d|% d", 42, 42, 42, 42, 42, 42);
	T("-123 -2147483648 2147483647", "%i %d %d", -123, INT_MIN, INT_MAX);
	T("4294967295 0 7", "%u %u %u", UINT_MAX, 0u, 7u);
	T("deadbeef DEADBEEF 0xff 000000ff 377 0377", "%x %X %#x %08x %o %#o", 0xdeadbeefu,
	  0xdeadbeefu, 255u, 255u, 255u, 255u);
	T("-1234567890 4000000000 7fffffff", "%ld %lu %lx", -1234567890L, 4000000000UL,
	  (unsigned long)LONG_MAX);
	T("-9223372036854775808 18446744073709551615 123456789abcdef", "%lld %llu %llx",
	  LLONG_MIN, ULLONG_MAX, 0x123456789abcdefULL);
	T("[  -17] [-17  ] [-0017]", "[%*d] [%-*d] [%0*d]", 5, -17, 5, -17, 5, -17);
	T("00012 ", "%.5d%.0d ", 12, 0);
	T("-5 250", "%hd %hhu", (short)-5, (unsigned char)250);
}

static void check_floats(void)
{
	T("3.141590 3.14 3.1416", "%f %.2f %.4f", 3.14159, 3.14159, 3.14159);
	T("    -1.500|-1.500    |+2.250", "%10.3f|%-10.3f|%+.3f", -1.5, -1.5, 2.25);
	T("10000000000.000000 0.000010", "%f %f", 1e10, 1e-5);
	T("2.67 0.1 100", "%.2f %.1f %.0f", 2.675, 0.125, 99.7);
	T("1.234560e+02 1.235e-04 -6.02E+23", "%e %.3e %.2E", 123.456, 0.000123456, -6.02e23);
	T("0.0001 1.23457e+08 100000 1e-05", "%g %g %g %g", 0.0001, 123456789.0, 100000.0, 1e-5);
	T("3.14 1e+06 0.5 2.50000", "%.3g %g %g %#g", 3.14159, 1e6, 0.5, 2.5);
	T("0000003.50 -0.000000", "%010.2f %f", 3.5, -1e-9);
	T("12.345678901", "%.*f", 9, 12.345678901);
	T("inf -inf", "%f %f", __builtin_inf(), -__builtin_inf());
}

static void check_strings(void)
{
	T("hello|     hello|hello     |hel", "%s|%10s|%-10s|%.3s", "hello", "hello", "hello",
	  "hello");
	T("abc % x", "%c%c%c %% %c", 'a', 'b', 'c', 'x');

	/* Truncation: the return value is the length it would have had.
	 * GCC sees the truncation coming and warns; here it is the point. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
	int n = snprintf(buf, 8, "%s", "hello world");
#pragma GCC diagnostic pop
	if (n != 11 || strcmp(buf, "hello w") != 0) {
		printf("FAIL printf: snprintf truncation \"%s\" %d\n", buf, n);
		failures++;
	}
	n = snprintf(NULL, 0, "%d-%d", 1000, -1);
	if (n != 7) {
		printf("FAIL printf: snprintf(NULL, 0) returned %d, want 7\n", n);
		failures++;
	}
	n = sprintf(buf, "%s=%d", "x", 5);
	if (n != 3 || strcmp(buf, "x=5") != 0) {
		printf("FAIL printf: sprintf \"%s\" %d\n", buf, n);
		failures++;
	}
}

#define PARSE(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			printf("FAIL printf line %d: %s\n", __LINE__, #cond);  \
			failures++;                                            \
		}                                                              \
	} while (0)

static void check_parsing(void)
{
	char *end;

	PARSE(strtol("  +123abc", &end, 10) == 123 && strcmp(end, "abc") == 0);
	PARSE(strtol("0x1F", NULL, 0) == 31 && strtol("-077", NULL, 0) == -63);
	PARSE(strtol("zz", &end, 36) == 1295 && *end == '\0');
	PARSE(strtoul("4294967295", NULL, 10) == 4294967295UL);
	PARSE(strtoll("-9223372036854775808", NULL, 10) == LLONG_MIN);
	PARSE(strtol("99999999999", NULL, 10) == LONG_MAX); /* saturates */
	PARSE(atoi("-42") == -42);
	PARSE(strtod("3.25e2", &end) == 325.0 && *end == '\0');
	PARSE(strtod("-0.125", NULL) == -0.125);
	PARSE(atof("1.5e-3") == 1.5e-3);
	PARSE(strtod("1e400", NULL) == __builtin_inf());
	PARSE(strtod("12.5xyz", &end) == 12.5 && strcmp(end, "xyz") == 0);
	PARSE(strtod("0.1", NULL) + strtod("0.2", NULL) != 0.3); /* binary, as on a PC */
}

/* Random doubles over many magnitudes: print with 17 digits, parse back. */
static void check_round_trip(void)
{
	uint32_t seed = 0x0DDBA11u;

	for (int i = 0; i < 40; i++) {
		uint64_t bits = (uint64_t)rng_next(&seed) << 32 | rng_next(&seed);
		double x;

		/* Keep the exponent in 2^-64..2^64 and skip inf/nan. */
		bits = (bits & 0x800FFFFFFFFFFFFFULL) | (uint64_t)(1023 - 64 + i * 3) << 52;
		memcpy(&x, &bits, sizeof(x));
		snprintf(buf, sizeof(buf), "%.17g", x);
		double y = strtod(buf, NULL);
		if (memcmp(&x, &y, sizeof(x)) != 0) {
			printf("FAIL printf: %s did not round-trip\n", buf);
			failures++;
		}
	}
}

int main(void)
{
	check_integers();
	check_floats();
	check_strings();
	check_parsing();
	check_round_trip();
	if (failures != 0)
		return fail("printf", "%d checks failed", failures);
	printf("printf ok: %d %u %x %ld %lld %.3f %.2e %g %s %c\n", -1, 2u, 0xabu, 3L, -4LL, 5.5,
	       6.25e-7, 7e20, "str", 'c');
	return 0;
}

/*
 * tap.h: a header-only TAP producer for C unit tests (tests/unit/NAME.c).
 *
 *   #include "tests/unit/tap.h"
 *
 *   int main(void)
 *   {
 *       tap_ok(crc == 0xcbf43926, "crc32 of \"%s\"", "123456789");
 *       tap_is_int(n, 3, "three fields");
 *       tap_is_hex(pc, 0x08000100, "pc after reset");
 *       return tap_done();
 *   }
 *
 * Every check prints "ok N - name" or "not ok N - name" followed by
 * "#"-diagnostics giving the file, line and, for the tap_is_* forms, the
 * values; each returns its verdict (1 passed, 0 failed) so a test can stop
 * early. tap_done() prints the plan "1..N" last, and returns the exit status
 * for main: 0 if all passed, 1 otherwise (also if nothing was checked).
 * Output goes to stdout, flushed per line, so a crash loses nothing printed.
 */
#ifndef RAPTOR_TAP_H
#define RAPTOR_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_count_, tap_failed_;

static inline void tap_vresult_(int pass, const char *file, int line, const char *fmt, va_list ap)
{
	tap_count_++;
	if (!pass)
		tap_failed_++;
	printf("%sok %d - ", pass ? "" : "not ", tap_count_);
	vprintf(fmt, ap);
	putchar('\n');
	if (!pass)
		printf("#   Failed test at %s line %d\n", file, line);
	fflush(stdout);
}

static inline int tap_ok_at_(int pass, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int tap_ok_at_(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vresult_(pass, file, line, fmt, ap);
	va_end(ap);
	return pass;
}

/* tap_diag(fmt, ...): a "# " comment line. */
static inline void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static inline int tap_is_int_at_(long long got, long long want, const char *name, const char *file,
				 int line)
{
	int pass = got == want;

	tap_ok_at_(pass, file, line, "%s", name);
	if (!pass)
		tap_diag("       got: %lld\n#  expected: %lld", got, want);
	return pass;
}

static inline int tap_is_hex_at_(unsigned long long got, unsigned long long want, const char *name,
				 const char *file, int line)
{
	int pass = got == want;

	tap_ok_at_(pass, file, line, "%s", name);
	if (!pass)
		tap_diag("       got: 0x%08llx\n#  expected: 0x%08llx", got, want);
	return pass;
}

/* tap_ok(cond, fmt, ...): pass if cond is true; the name is printf-formatted. */
#define tap_ok(cond, ...) tap_ok_at_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
/* tap_is_int(got, want, name): signed integers, shown in decimal. */
#define tap_is_int(got, want, name)                                                                \
	tap_is_int_at_((long long)(got), (long long)(want), (name), __FILE__, __LINE__)
/* tap_is_hex(got, want, name): unsigned integers, shown as 0x%08llx. */
#define tap_is_hex(got, want, name)                                                                \
	tap_is_hex_at_((unsigned long long)(got), (unsigned long long)(want), (name), __FILE__,    \
		       __LINE__)

/* tap_done(): print the plan; return main's exit status. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_count_);
	if (tap_failed_)
		printf("# failed %d of %d\n", tap_failed_, tap_count_);
	fflush(stdout);
	return tap_failed_ || !tap_count_ ? 1 : 0;
}

#endif

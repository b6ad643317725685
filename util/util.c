#include "util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Per thread: raptor serve indexes in a second thread (replay/bgindex.h). */
_Thread_local int error_quiet_depth;
static _Thread_local char last_error[1024];

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "raptor: %s%s\n", prefix, buf);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	if (error_quiet_depth > 0)
		return -1;
	fprintf(stderr, "raptor: error: %s\n", last_error);
	return -1;
}

const char *error_last(void)
{
	return last_error;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(128);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", n, m);
	return p;
}

void *xmap_table(size_t n, const char *what)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("cannot map %s (%zu bytes): %s", what, n, strerror(errno));
	return p;
}

void xunmap_table(void *p, size_t n)
{
	if (p)
		munmap(p, n);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory reallocating %zu bytes", n);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory duplicating a string");
	return p;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	case 0:
		break;
	default:
		return -1;
	}
	if ((shift && end[1]) || v > UINT64_MAX >> shift)
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int file_copy(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "rb"), *out;
	size_t n;
	int ret = 0;

	if (!in)
		return error("cannot read '%s': %m", from);
	out = fopen(to, "wb");
	if (!out) {
		fclose(in);
		return error("cannot create '%s': %m", to);
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			ret = error("error writing '%s': %m", to);
			break;
		}
	if (ferror(in))
		ret = error("error reading '%s': %m", from);
	fclose(in);
	if (fclose(out) && !ret)
		ret = error("error writing '%s': %m", to);
	return ret;
}

/*
 * tracecmp: compare two trace-regs files line by line, streaming, so two
 * simulators can be checked against each other through FIFOs.
 *
 * A trace-regs line is one retired instruction:
 *
 *   +------+----+----+-----+-----+----+----+------+
 *   | core | pc | r0 | ... | r12 | sp | lr | xpsr |   18 fields, %08x,
 *   +------+----+----+-----+-----+----+----+------+   ' ' between, '\n'
 *
 * or, for a core with an FPU, 51 fields: those, then s0 ... s31 fpscr.
 *
 * Lines are compared as bytes; only a differing pair is split into fields
 * to name what differs. Instruction indexes count from 0 (index i is on
 * line i + 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#define NFIELDS 18
#define NFIELDS_FPU 51
#define CONTEXT 3
#define SHOWN 250 /* bytes of a line kept for context */
#define MAX_LINE (16u << 20)
/* A read of less than this from a pipe found it nearly drained. */
#define PIPE_FILL (256u << 10)
#define SHOW_UNLIMITED 10 /* details shown when --max-mismatches 0 */

static const char *const field_names[NFIELDS] = {
    "core", "pc", "r0", "r1",  "r2",  "r3",  "r4", "r5", "r6",
    "r7",   "r8", "r9", "r10", "r11", "r12", "sp", "lr", "xpsr",
};

struct reader {
	int fd;
	const char *name;
	char *buf;
	size_t cap, start, end;
	int eof;
	int fifo, short_read;	/* a pipe; its last read got less than PIPE_FILL */
};

/* A line kept for context: a prefix of at most SHOWN bytes. */
struct kept {
	char text[SHOWN + 4];
	int len;
};

static const char *prog = "tracecmp";

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void reader_open(struct reader *r, const char *path)
{
	struct stat st;

	r->name = path;
	if (!strcmp(path, "-")) {
		r->fd = 0;
		r->name = "<stdin>";
	} else if ((r->fd = open(path, O_RDONLY)) < 0) {
		die("cannot open %s: %s", path, strerror(errno));
	}
	/* A bigger pipe means fewer wake-ups of the two producers. */
	if (!fstat(r->fd, &st) && S_ISFIFO(st.st_mode)) {
		(void)fcntl(r->fd, F_SETPIPE_SZ, 1 << 20);
		r->fifo = 1;
	}
	r->cap = 1u << 20;
	r->buf = malloc(r->cap);
	if (!r->buf)
		die("out of memory");
}

/* Next line without its '\n', or NULL at end; valid until the next call. */
static char *next_line(struct reader *r, size_t *lenp, unsigned long long idx)
{
	for (;;) {
		char *p = r->buf + r->start;
		char *nl = memchr(p, '\n', r->end - r->start);

		if (nl) {
			*lenp = (size_t)(nl - p);
			r->start += *lenp + 1;
			return p;
		}
		if (r->eof) {
			if (r->start == r->end)
				return NULL;
			*lenp = r->end - r->start;
			r->start = r->end;
			return p;
		}
		if (r->start > 0) {
			memmove(r->buf, p, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (r->end == r->cap) {
			if (r->cap >= MAX_LINE)
				die("%s: line %llu is longer than %u bytes", r->name, idx + 1,
				    MAX_LINE);
			r->cap *= 2;
			if (!(r->buf = realloc(r->buf, r->cap)))
				die("out of memory");
		}
		/*
		 * Both producers write a few lines at a time: reading each write
		 * as it comes costs a wake-up per write, more than comparing.
		 * When the last read found the pipe nearly empty, let it fill.
		 */
		if (r->fifo && r->short_read) {
			struct timespec pause = { 0, 2000000 };
			nanosleep(&pause, NULL);
		}
		ssize_t n = read(r->fd, r->buf + r->end, r->cap - r->end);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("%s: read error at line %llu: %s", r->name, idx + 1, strerror(errno));
		}
		if (n == 0)
			r->eof = 1;
		r->short_read = n < PIPE_FILL;
		r->end += (size_t)n;
	}
}

static void keep(struct kept *k, const char *line, size_t len)
{
	k->len = (int)(len > SHOWN ? SHOWN : len);
	memcpy(k->text, line, (size_t)k->len);
	if (len > SHOWN) {
		memcpy(k->text + k->len, "...", 3);
		k->len += 3;
	}
}

/* Split at single spaces into at most max fields; returns the count. */
static int split(const char *line, size_t len, const char **f, int *flen, int max)
{
	int n = 0;
	size_t i = 0;

	while (i <= len) {
		size_t j = i;
		while (j < len && line[j] != ' ')
			j++;
		if (n < max) {
			f[n] = line + i;
			flen[n] = (int)(j - i);
		}
		n++;
		i = j + 1;
	}
	return n;
}

static void explain(const char *e, size_t elen, const char *g, size_t glen)
{
	const char *ef[NFIELDS_FPU], *gf[NFIELDS_FPU];
	int el[NFIELDS_FPU], gl[NFIELDS_FPU];
	int en = split(e, elen, ef, el, NFIELDS_FPU), gn = split(g, glen, gf, gl, NFIELDS_FPU);

	if (en != NFIELDS && en != NFIELDS_FPU) {
		printf("  expected line has %d fields, not %d (or %d with an FPU)\n", en, NFIELDS,
		       NFIELDS_FPU);
		return;
	}
	if (gn != en) {
		printf("  got line has %d fields, not %d\n", gn, en);
		return;
	}
	for (int i = 0; i < en; i++) {
		char name[8];

		if (i < NFIELDS)
			snprintf(name, sizeof(name), "%s", field_names[i]);
		else if (i < NFIELDS_FPU - 1)
			snprintf(name, sizeof(name), "s%d", i - NFIELDS);
		else
			snprintf(name, sizeof(name), "fpscr");
		if (el[i] != gl[i] || memcmp(ef[i], gf[i], (size_t)el[i]))
			printf("  %s: expected %.*s got %.*s\n", name, el[i], ef[i], gl[i], gf[i]);
	}
}

static void print_line(char mark, unsigned long long idx, const char *line, size_t len)
{
	printf("  %c %llu  %.*s%s\n", mark, idx, (int)(len > SHOWN ? SHOWN : len), line,
	       len > SHOWN ? "..." : "");
}

static void show_context(const struct kept *ke, const struct kept *kg, unsigned long long idx)
{
	unsigned long long first = idx > CONTEXT ? idx - CONTEXT : 0;

	for (unsigned long long i = first; i < idx; i++) {
		const struct kept *a = &ke[i % (CONTEXT + 1)], *b = &kg[i % (CONTEXT + 1)];
		if (a->len == b->len && !memcmp(a->text, b->text, (size_t)a->len)) {
			printf("    %llu  %.*s\n", i, a->len, a->text);
		} else {
			printf("  - %llu  %.*s\n", i, a->len, a->text);
			printf("  + %llu  %.*s\n", i, b->len, b->text);
		}
	}
}

static const char *usage_text =
    "usage: tracecmp [--max-mismatches N] EXPECTED GOT\n"
    "\n"
    "Compare two trace-regs files (or FIFOs, or '-' for standard input) line by\n"
    "line, streaming. Equal: print 'N instructions compared, 0 mismatches' and\n"
    "exit 0. Otherwise print the instruction index (from 0; line = index + 1),\n"
    "the 3 lines before it, both lines and each differing field\n"
    "('r3: expected 00000004 got 00000005'), and exit 1; a trace that ends\n"
    "before the other is named with the index where it ended, and exits 1.\n"
    "\n"
    "  --max-mismatches N  go on past differences, stopping at the Nth (default\n"
    "                      1); 0 counts them all, detailing the first 10\n"
    "  -h, --help          show this help\n"
    "\n"
    "Exit status: 0 equal, 1 different, 2 bad usage or I/O error.\n";

int main(int argc, char **argv)
{
	const char *paths[2];
	int npaths = 0;
	unsigned long long max_mm = 1;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(a, "--max-mismatches") || !strncmp(a, "--max-mismatches=", 17)) {
			const char *v = a[16] == '=' ? a + 17 : (i + 1 < argc ? argv[++i] : NULL);
			char *endp;
			if (!v || !*v || (max_mm = strtoull(v, &endp, 10), *endp)) {
				fprintf(stderr, "%s: --max-mismatches needs a number\n", prog);
				return 2;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "%s: unknown option '%s'\n%s", prog, a, usage_text);
			return 2;
		} else if (npaths == 2) {
			fprintf(stderr, "%s: more than two files\n%s", prog, usage_text);
			return 2;
		} else {
			paths[npaths++] = a;
		}
	}
	if (npaths != 2) {
		fprintf(stderr, "%s", usage_text);
		return 2;
	}
	if (!strcmp(paths[0], "-") && !strcmp(paths[1], "-"))
		die("only one side can be standard input");

	struct reader e = {0}, g = {0};
	reader_open(&e, paths[0]);
	reader_open(&g, paths[1]);

	static struct kept ke[CONTEXT + 1], kg[CONTEXT + 1];
	unsigned long long idx = 0, mismatches = 0;
	unsigned long long show = max_mm ? max_mm : SHOW_UNLIMITED;
	const char *ended = NULL;

	for (;; idx++) {
		size_t el, gl;
		char *eline = next_line(&e, &el, idx);
		char *gline = next_line(&g, &gl, idx);

		if (!eline || !gline) {
			if (!eline && !gline)
				break;
			/* One side ended: name it, and show what the other has next. */
			const char *longer = eline ? e.name : g.name;
			ended = eline ? g.name : e.name;
			printf("%s: %s (%s) ended early at instruction %llu; %s goes on:\n", prog,
			       eline ? "got" : "expected", ended, idx, longer);
			show_context(ke, kg, idx);
			if (eline)
				print_line('-', idx, eline, el);
			else
				print_line('+', idx, gline, gl);
			break;
		}
		if (el != gl || memcmp(eline, gline, el)) {
			mismatches++;
			if (mismatches <= show) {
				if (mismatches == 1)
					printf("--- expected: %s\n+++ got: %s\n", e.name, g.name);
				printf("%s: mismatch at instruction %llu (line %llu):\n", prog, idx,
				       idx + 1);
				show_context(ke, kg, idx);
				print_line('-', idx, eline, el);
				print_line('+', idx, gline, gl);
				explain(eline, el, gline, gl);
			}
			if (max_mm && mismatches >= max_mm) {
				idx++;
				break;
			}
		}
		keep(&ke[idx % (CONTEXT + 1)], eline, el);
		keep(&kg[idx % (CONTEXT + 1)], gline, gl);
	}

	if (ended)
		printf("%llu instructions compared, %llu mismatches, %s ended early\n", idx,
		       mismatches, ended);
	else
		printf("%llu instructions compared, %llu mismatches\n", idx, mismatches);
	if (fflush(stdout) || ferror(stdout))
		die("write error: %s", strerror(errno));
	free(e.buf);
	free(g.buf);
	return mismatches || ended ? 1 : 0;
}

/*
 * qemulog: convert QEMU's instruction log of an M-profile guest into
 * raptor's trace-regs format, streaming.
 *
 * QEMU 7.2 must run with "-singlestep -d exec,cpu,nochain": every
 * translation block then holds one instruction and is logged, before it
 * runs, as
 *
 *   Trace 0: 0x7fb450000100 [00800400/00000008/00000110/ff000201] sym
 *   R00=00000000 R01=00000000 R02=00000000 R03=00000000
 *   R04=00000000 R05=00000000 R06=00000000 R07=00000000
 *   R08=00000000 R09=00000000 R10=00000000 R11=00000000
 *   R12=00000000 R13=20400000 R14=ffffffff R15=00000008
 *   XPSR=41000000 -Z-- T priv-thread
 *
 * The bracket holds cs_base/pc/flags/cflags. Each record becomes one line
 *
 *   +--------+----+----+-----+-----+----+----+------+
 *   |  core  | pc | r0 | ... | r12 | sp | lr | xpsr |   18 fields,
 *   +--------+----+----+-----+-----+----+----+------+   %08x, ' ', '\n'
 *
 * with core always 00000000 (the mps2 boards have one CPU).
 *
 * Other lines QEMU may write (see --help) are skipped, except two that
 * say the block logged just before did not run its instruction, so its
 * record is withdrawn: "Stopped execution of TB chain before P [PC]" (an
 * interrupt or a kick of the vCPU thread arrived first) and, with -icount,
 * "cpu_io_recompile: rewound execution of TB to PC" (the block is run
 * again and logged again). This is why one record is always held back
 * until the next log line decides it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#define REC_FIELDS 18
#define REC_FIELDS_FPU (REC_FIELDS + 33) /* then s0..s31 fpscr (--fpu) */
#define REC_MAX (REC_FIELDS_FPU * 9)
/* "%08x " * (fields - 1) + "%08x\n" */
static size_t rec_fields = REC_FIELDS, rec_len = REC_FIELDS * 9;
#define MAX_LINE (64u << 20)
/* A read of less than this from a pipe found it nearly drained. */
#define PIPE_FILL (256u << 10)

/* TranslationBlock cflags bits in QEMU 7.2 (include/exec/exec-all.h). */
#define CF_COUNT_MASK 0x000001ffu
#define CF_NO_GOTO_TB 0x00000200u

struct reader {
	int fd;
	const char *name;
	char *buf;
	size_t cap, start, end;
	int eof;
	int fifo, short_read;	/* a pipe; its last read got less than PIPE_FILL */
	unsigned long long lineno;
};

static const char *prog = "qemulog";
static struct reader in;

static signed char hexval[256];

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Report a bad input line with its number and (a prefix of) its text. */
static void bad_line(const char *line, size_t len, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
static void bad_line(const char *line, size_t len, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s:%llu: ", prog, in.name, in.lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (line)
		fprintf(stderr, ": \"%.*s%s\"", (int)(len > 120 ? 120 : len), line,
			len > 120 ? "..." : "");
	fputc('\n', stderr);
	exit(1);
}

/*
 * Next line without its '\n' (a last line lacking one is still a line:
 * QEMU exits from inside a semihosting call before ending its message).
 * NULL at end of input. The pointer is valid until the next call.
 */
static char *next_line(size_t *lenp)
{
	for (;;) {
		char *p = in.buf + in.start;
		char *nl = memchr(p, '\n', in.end - in.start);

		if (nl) {
			*lenp = (size_t)(nl - p);
			in.start += *lenp + 1;
			in.lineno++;
			return p;
		}
		if (in.eof) {
			if (in.start == in.end)
				return NULL;
			*lenp = in.end - in.start;
			in.start = in.end;
			in.lineno++;
			return p;
		}
		if (in.start > 0) {
			memmove(in.buf, p, in.end - in.start);
			in.end -= in.start;
			in.start = 0;
		}
		if (in.end == in.cap) {
			if (in.cap >= MAX_LINE)
				die("%s:%llu: line longer than %u bytes", in.name, in.lineno + 1,
				    MAX_LINE);
			in.cap *= 2;
			in.buf = realloc(in.buf, in.cap);
			if (!in.buf)
				die("out of memory");
		}
		/*
		 * QEMU writes its log a line at a time: reading each write as
		 * it comes costs a wake-up per line, more than the parsing. When
		 * the last read found the pipe nearly empty, let it fill first.
		 */
		if (in.fifo && in.short_read) {
			struct timespec pause = { 0, 2000000 };
			nanosleep(&pause, NULL);
		}
		ssize_t n = read(in.fd, in.buf + in.end, in.cap - in.end);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("%s: read error after line %llu: %s", in.name, in.lineno,
			    strerror(errno));
		}
		if (n == 0)
			in.eof = 1;
		in.short_read = n < PIPE_FILL;
		in.end += (size_t)n;
	}
}

static int starts(const char *line, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(line, prefix, n) == 0;
}

/* Parse hex digits at *pp (lowercase or uppercase); advance; -1 if none. */
static int parse_hex(const char **pp, const char *end, uint64_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;

	if (p < end && p + 1 < end && p[0] == '0' && p[1] == 'x')
		p += 2;
	const char *digits = p;
	while (p < end && hexval[(unsigned char)*p] >= 0 && p - digits < 16)
		x = x << 4 | (uint64_t)hexval[(unsigned char)*p++];
	if (p == digits)
		return -1;
	*pp = p;
	*v = x;
	return 0;
}

static void put_hex32(char *out, uint32_t v)
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 7; i >= 0; i--, v >>= 4)
		out[i] = digits[v & 15];
}

/* Is s[0..7] exactly eight lowercase hex digits, as QEMU's %08x prints? */
static int is_hex8(const char *s)
{
	for (int i = 0; i < 8; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return 0;
	}
	return 1;
}

/*
 * "R%02d=%08x R%02d=%08x R%02d=%08x R%02d=%08x" for registers first..+3:
 * copy the four values into the record at fields 2+first.. (after core, pc).
 */
static void parse_rline(const char *line, size_t len, int first, char *rec)
{
	if (len < 51 || (len > 51 && line[51] != ' '))
		bad_line(line, len, "expected R%02d..R%02d register line", first, first + 3);
	for (int i = 0; i < 4; i++) {
		const char *f = line + i * 13;
		int r = first + i;
		if (f[0] != 'R' || f[1] != '0' + r / 10 || f[2] != '0' + r % 10 || f[3] != '=' ||
		    !is_hex8(f + 4) || (i < 3 && f[12] != ' '))
			bad_line(line, len, "expected R%02d..R%02d register line", first,
				 first + 3);
		memcpy(rec + (2 + r) * 9, f + 4, 8);
	}
}

/*
 * With --fpu, -d fpu's dump follows the XPSR line: 16 lines
 * "sNN=%08x sNN=%08x dNN=%016x" and "FPSCR: %08x". Into fields 18..50.
 */
static void parse_fpu(char *rec, unsigned long long rec_line)
{
	size_t len;
	char *line;

	for (int i = 0; i < 17; i++) {
		line = next_line(&len);
		if (!line)
			bad_line(NULL, 0,
				 "unexpected end of log: the record of line %llu is incomplete",
				 rec_line);
		if (i == 16) {
			if (len < 15 || memcmp(line, "FPSCR: ", 7) || !is_hex8(line + 7))
				bad_line(line, len, "expected FPSCR line (-d fpu)");
			memcpy(rec + 50 * 9, line + 7, 8);
			break;
		}
		for (int k = 0; k < 2; k++) {
			const char *f = line + 13 * k;
			int r = 2 * i + k;

			if (len < 26 || f[0] != 's' || f[1] != '0' + r / 10 ||
			    f[2] != '0' + r % 10 || f[3] != '=' || !is_hex8(f + 4))
				bad_line(line, len, "expected s%02d s%02d line (-d fpu)", 2 * i,
					 2 * i + 1);
			memcpy(rec + (18 + r) * 9, f + 4, 8);
		}
	}
}

static int outfd = 1;
static char *obuf;
static size_t ocap = 1u << 20, olen;

static void flush_out(void)
{
	size_t off = 0;

	while (off < olen) {
		ssize_t n = write(outfd, obuf + off, olen - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write error: %s", strerror(errno));
		off += (size_t)n;
	}
	olen = 0;
}

static void emit(const char *rec)
{
	if (ocap - olen < rec_len)
		flush_out();
	memcpy(obuf + olen, rec, rec_len);
	olen += rec_len;
}

static const char *usage_text =
    "usage: qemulog [--count] [--fpu] [-o OUT] [LOG]\n"
    "\n"
    "Convert the log of qemu-system-arm -singlestep -d exec,cpu,nochain -D LOG\n"
    "(QEMU 7.2, M profile) from LOG, or standard input if LOG is absent or '-',\n"
    "into raptor's trace-regs format, one line per executed instruction:\n"
    "\n"
    "  <core> <pc> <r0> ... <r12> <sp> <lr> <xpsr>\n"
    "\n"
    "each a %08x value, core always 00000000, registers as they were before\n"
    "the instruction ran. Input and output are streamed (a FIFO is fine).\n"
    "\n"
    "  --count     print only the number of instructions\n"
    "  --fpu       the log has -d fpu too (a core with an FPU): append\n"
    "              <s0> ... <s31> <fpscr> to each line\n"
    "  -o OUT      write to OUT instead of standard output\n"
    "  -h, --help  show this help\n"
    "\n"
    "Lines skipped: -d int (\"Taking exception\", \"Exception return\", \"...\",\n"
    "\"Loaded reset SP\", \"Lockup:\"), -d in_asm, -d fpu (sNN=, FPSCR:, VPR:).\n"
    "\"Stopped execution of TB chain before P [PC]\" and (with -icount)\n"
    "\"cpu_io_recompile: rewound execution of TB to PC\" withdraw the record just\n"
    "logged: QEMU abandoned that block before running it. Any other line, a\n"
    "\"Linking TBs\" line (-d nochain missing) or a block that may hold more\n"
    "than one instruction (-singlestep missing) is an error naming the line.\n"
    "Exit status: 0 on success, 1 on bad input or I/O error, 2 on bad usage.\n";

int main(int argc, char **argv)
{
	int count_only = 0;
	const char *path = NULL, *outpath = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(a, "--count")) {
			count_only = 1;
		} else if (!strcmp(a, "--fpu")) {
			rec_fields = REC_FIELDS_FPU;
			rec_len = REC_FIELDS_FPU * 9;
		} else if (!strcmp(a, "-o")) {
			if (++i == argc) {
				fprintf(stderr, "%s: -o needs a file name\n", prog);
				return 2;
			}
			outpath = argv[i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "%s: unknown option '%s'\n%s", prog, a, usage_text);
			return 2;
		} else if (path) {
			fprintf(stderr, "%s: more than one input file\n%s", prog, usage_text);
			return 2;
		} else {
			path = a;
		}
	}

	memset(hexval, -1, sizeof(hexval));
	for (int c = 0; c < 10; c++)
		hexval['0' + c] = (signed char)c;
	for (int c = 0; c < 6; c++)
		hexval['a' + c] = hexval['A' + c] = (signed char)(10 + c);

	in.fd = 0;
	in.name = "<stdin>";
	if (path && strcmp(path, "-")) {
		in.fd = open(path, O_RDONLY);
		if (in.fd < 0)
			die("cannot open %s: %s", path, strerror(errno));
		in.name = path;
	}
	/*
	 * QEMU flushes its log twice per instruction; a 1 MiB pipe instead of
	 * 64 KiB lets both sides run longer between wake-ups.
	 */
	struct stat st;
	if (!fstat(in.fd, &st) && S_ISFIFO(st.st_mode)) {
		(void)fcntl(in.fd, F_SETPIPE_SZ, 1 << 20);
		in.fifo = 1;
	}
	in.cap = 1u << 20;
	in.buf = malloc(in.cap);

	if (outpath && strcmp(outpath, "-")) {
		outfd = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (outfd < 0)
			die("cannot create %s: %s", outpath, strerror(errno));
	}
	obuf = malloc(ocap);
	if (!in.buf || !obuf)
		die("out of memory");

	/* The record held back; see the header comment. */
	char rec[REC_MAX];
	int pending = 0;
	uint32_t pending_pc = 0;
	uint64_t pending_tb = 0;
	unsigned long long pending_line = 0, n_insns = 0;

	memset(rec, '0', sizeof(rec));
	for (size_t f = 0; f < rec_fields; f++)
		rec[f * 9 + 8] = f == rec_fields - 1 ? '\n' : ' ';

	size_t len;
	char *line;
	while ((line = next_line(&len))) {
		const char *end = line + len;

		if (starts(line, len, "Trace ")) {
			const char *p = line + 6;
			uint64_t tb, cs_base, pc, flags, cflags;

			while (p < end && *p >= '0' && *p <= '9')
				p++;
			if (p == line + 6 || p + 2 > end || p[0] != ':' || p[1] != ' ')
				bad_line(line, len, "malformed Trace line");
			p += 2;
			if (parse_hex(&p, end, &tb) || p >= end || *p++ != ' ' || p >= end ||
			    *p++ != '[' || parse_hex(&p, end, &cs_base) || p >= end ||
			    *p++ != '/' || parse_hex(&p, end, &pc) || p >= end || *p++ != '/' ||
			    parse_hex(&p, end, &flags) || p >= end || *p++ != '/' ||
			    parse_hex(&p, end, &cflags) || p >= end || *p != ']')
				bad_line(line, len, "malformed Trace line");
			if ((cflags & CF_COUNT_MASK) != 1)
				bad_line(line, len,
					 "block may hold several instructions (cflags %08llx):"
					 " run QEMU with -singlestep",
					 (unsigned long long)cflags);
			if (!(cflags & CF_NO_GOTO_TB))
				bad_line(line, len,
					 "block may be chained unlogged (cflags %08llx):"
					 " run QEMU with -d nochain",
					 (unsigned long long)cflags);
			if (pending) {
				n_insns++;
				if (!count_only)
					emit(rec);
			}
			put_hex32(rec + 9, (uint32_t)pc);
			pending_pc = (uint32_t)pc;
			pending_tb = tb;
			pending_line = in.lineno;

			/* The register dump follows at once, in one locked write. */
			for (int r = 0; r < 16; r += 4) {
				line = next_line(&len);
				if (!line)
					bad_line(NULL, 0,
						 "unexpected end of log: the record of line %llu "
						 "is incomplete",
						 pending_line);
				parse_rline(line, len, r, rec);
			}
			/* R15 went to the xpsr field: it must equal the pc. */
			if (memcmp(rec + 17 * 9, rec + 9, 8))
				bad_line(line, len, "R15 differs from the Trace pc %08x",
					 pending_pc);
			line = next_line(&len);
			if (!line)
				bad_line(
				    NULL, 0,
				    "unexpected end of log: the record of line %llu is incomplete",
				    pending_line);
			if (len < 13 || memcmp(line, "XPSR=", 5) || !is_hex8(line + 5) ||
			    line[13] != ' ')
				bad_line(line, len, "expected XPSR line");
			memcpy(rec + 17 * 9, line + 5, 8);
			if (rec_fields == REC_FIELDS_FPU)
				parse_fpu(rec, pending_line);
			pending = 1;
		} else if (starts(line, len, "Stopped execution of TB chain before ")) {
			const char *p = line + 37;
			uint64_t tb, pc;

			if (parse_hex(&p, end, &tb) || p + 2 > end || p[0] != ' ' || p[1] != '[')
				bad_line(line, len, "malformed Stopped line");
			p += 2;
			if (parse_hex(&p, end, &pc) || p >= end || *p != ']')
				bad_line(line, len, "malformed Stopped line");
			if (!pending || tb != pending_tb || (uint32_t)pc != pending_pc)
				bad_line(line, len,
					 "abandoned block does not match the record of line %llu",
					 pending_line);
			pending = 0;
		} else if (starts(line, len, "cpu_io_recompile: rewound execution of TB to ")) {
			/* -icount: the block did I/O mid-way; it is run again, logged anew. */
			const char *p = line + 45;
			uint64_t pc;

			if (parse_hex(&p, end, &pc) || p != end)
				bad_line(line, len, "malformed cpu_io_recompile line");
			if (!pending || (uint32_t)pc != pending_pc)
				bad_line(line, len,
					 "rewound block does not match the record of line %llu",
					 pending_line);
			pending = 0;
		} else if (len == 0 || starts(line, len, "Taking exception ") ||
			   starts(line, len, "Exception return") || starts(line, len, "...") ||
			   starts(line, len, "Loaded reset SP ") || starts(line, len, "Lockup: ") ||
			   starts(line, len, "FPSCR: ") || starts(line, len, "VPR: ") ||
			   starts(line, len, "IN: ") || starts(line, len, "----------------") ||
			   (len > 4 && line[0] == 's' && line[1] >= '0' && line[1] <= '9' &&
			    line[3] == '=') ||
			   (len > 11 && line[0] == '0' && line[1] == 'x' && line[10] == ':')) {
			continue;
		} else if (starts(line, len, "Linking TBs ")) {
			bad_line(
			    line, len,
			    "blocks were chained, so some went unlogged: run QEMU with -d nochain");
		} else {
			bad_line(line, len, "unexpected line");
		}
	}

	if (pending) {
		n_insns++;
		if (!count_only)
			emit(rec);
	}
	if (count_only)
		olen = (size_t)snprintf(obuf, ocap, "%llu\n", n_insns);
	flush_out();
	if (outfd != 1 && close(outfd))
		die("write error: %s", strerror(errno));
	free(in.buf);
	free(obuf);
	return 0;
}

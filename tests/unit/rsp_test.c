/*
 * rsp_test: the GDB remote protocol side (server/rsp.c, server/gdbserver.c)
 * against a fake target: three cores whose registers and memory are
 * functions of a position counter, with unknown registers and an unknown
 * memory hole; break/watchpoints recorded; resume moves the counter
 * forward or back and reports breakpoints, watchpoints and the ends, or
 * spins until interrupted. The server runs in a thread on one end of a
 * socketpair (or on a TCP port), and a tiny client checks every reply byte
 * for byte; then 20000 random packets. Last, the real gdb-multiarch
 * against the same fake, if it is installed.
 *
 * RSP_TEST_SERVE=PORT build/unit/rsp_test serves the fake on a TCP port
 * until Ctrl-C instead, logging packets, to try GDB by hand
 * (RSP_TEST_SPIN, RSP_TEST_FAIL, RSP_TEST_EXITS change its resume).
 */
#define _GNU_SOURCE /* pthread_timedjoin_np */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server/gdbserver.h"
#include "server/rsp.h"
#include "server/tdesc.h"
#include "tests/unit/tap.h"

/* ---- the fake target ------------------------------------------------------ */

#define FK_CORES 3
#define FK_RAM 0x20000000u
#define FK_RAM_SIZE 256u
#define FK_HOLE 0x80u /* RAM bytes [0x80, 0x90) are unknown */
#define FK_HOLE_END 0x90u
#define FK_FLASH 0x08000000u
#define FK_FLASH_SIZE 1024u
#define FK_END 100	/* the last position */
#define FK_STORES 0xa0u /* position p stores p to RAM + FK_STORES + 4 * (p % 16) */
#define FK_LOADS 0x40u	/* ... and loads from RAM + FK_LOADS + 4 * (p % 16) */
#define CONSOLE_CHUNK_TEST 1024

struct fk_point {
	enum rsp_point kind;
	uint32_t addr, len;
};

struct fake {
	int pos;
	uint8_t ram[FK_RAM_SIZE];
	struct fk_point points[16];
	int npoints;
	int last_kind, last_on; /* the last point() call */
	uint32_t last_addr, last_len;
	int spin;	/* resume() spins until interrupted */
	int fail;	/* resume() fails */
	int exits;	/* the program exits at FK_END */
	int intr;	/* interrupt() was called and not yet seen (atomic) */
	int interrupts; /* interrupt() calls, all told (atomic) */
	int resumes;	/* resume() calls */
	int how, core, alone, reverse;
	const char *exec; /* exec_file() */
	const char *arch; /* llvm_arch() */
	int hide_psp;	  /* psp of core 2 unknown (GDB 13 then cannot step core 2) */
	int fpu;	  /* has_fp() (fk_fp_ops only) */
};

static struct fake fk;

static void fk_reset_all(void)
{
	uint32_t i;

	memset(&fk, 0, sizeof(fk));
	for (i = 0; i < FK_RAM_SIZE; i++)
		fk.ram[i] = (uint8_t)i; /* holds # $ } * at 0x23, 0x24, 0x7d, 0x2a */
}

static uint32_t fk_pc(int pos)
{
	return FK_FLASH + 2u * (uint32_t)pos;
}

static int fk_ncores(void *t)
{
	return FK_CORES;
}

static uint32_t fk_reg(int core, int pos, int i)
{
	if (i == 15)
		return fk_pc(pos);
	if (i == 13)
		i = 17; /* sp is msp: GDB 13 warns when it is neither msp nor psp */
	if (i == 19)
		return 1; /* primask */
	return (uint32_t)core << 24 | (uint32_t)pos << 8 | (uint32_t)i;
}

static int fk_read_regs(void *t, int core, uint32_t *v, uint8_t *known, char *why)
{
	int i;

	if (core < 0 || core >= FK_CORES) {
		snprintf(why, RSP_WHY_MAX, "no core %d", core);
		return -1;
	}
	for (i = 0; i < RSP_NREGS; i++) {
		v[i] = fk_reg(core, fk.pos, i);
		known[i] = i != 12 && !(fk.hide_psp && core == 2 && i == 18);
	}
	return 0;
}

static int fk_read_mem(void *t, int core, uint32_t addr, uint8_t *buf, uint32_t len, char *why)
{
	uint64_t end = (uint64_t)addr + len;
	uint32_t i;

	if (addr >= FK_FLASH && end <= FK_FLASH + FK_FLASH_SIZE) {
		memset(buf, 0, len);
		return 0;
	}
	if (addr < FK_RAM || end > FK_RAM + FK_RAM_SIZE) {
		snprintf(why, RSP_WHY_MAX, "0x%08x is not mapped", addr);
		return -1;
	}
	if (addr - FK_RAM < FK_HOLE_END && end - FK_RAM > FK_HOLE) {
		snprintf(why, RSP_WHY_MAX, "0x%08x is unknown", FK_RAM + FK_HOLE);
		return -1;
	}
	memcpy(buf, fk.ram + (addr - FK_RAM), len);
	/* the stores up to now: the latest position q <= pos with q % 16 == k */
	for (i = 0; i < len; i++) {
		uint32_t off = addr + i - FK_RAM - FK_STORES, k = off / 4;
		int q;

		if (addr + i < FK_RAM + FK_STORES || k >= 16 || fk.pos < (int)k)
			continue;
		q = fk.pos - (fk.pos - (int)k) % 16;
		if (q >= 1)
			buf[i] = (uint8_t)((uint32_t)q >> 8 * (off % 4));
	}
	return 0;
}

static int fk_point(void *t, enum rsp_point kind, uint32_t addr, uint32_t len, int on, char *why)
{
	int i;

	fk.last_kind = (int)kind;
	fk.last_addr = addr;
	fk.last_len = len;
	fk.last_on = on;
	if (addr == 0xdead) {
		snprintf(why, RSP_WHY_MAX, "no such place");
		return -1;
	}
	for (i = 0; i < fk.npoints; i++)
		if (fk.points[i].kind == kind && fk.points[i].addr == addr)
			break;
	if (on && i == fk.npoints && fk.npoints < 16)
		fk.points[fk.npoints++] = (struct fk_point){kind, addr, len};
	else if (!on && i < fk.npoints)
		fk.points[i] = fk.points[--fk.npoints];
	return 0;
}

/* Whether position pos hits a point: its instruction, its store or its load. */
static int fk_hit(int pos, struct rsp_stop *st)
{
	uint32_t store = FK_RAM + FK_STORES + 4u * (uint32_t)(pos % 16);
	uint32_t load = FK_RAM + FK_LOADS + 4u * (uint32_t)(pos % 16);
	int i;

	for (i = 0; i < fk.npoints; i++) {
		struct fk_point *p = &fk.points[i];
		uint32_t a = p->kind == RSP_WP_READ ? load : store;

		if (p->kind <= RSP_BP_HW) {
			if (p->addr == fk_pc(pos)) {
				st->kind = RSP_STOP_BREAK;
				st->point = p->kind;
				return 1;
			}
			continue;
		}
		if (a >= p->addr && a < p->addr + p->len) {
			st->kind = RSP_STOP_WATCH;
			st->point = p->kind;
			st->addr = a;
			return 1;
		}
	}
	return 0;
}

static int fk_resume(void *t, enum rsp_resume how, int core, int alone, int reverse,
		     struct rsp_stop *st, char *why)
{
	struct timespec ms = {0, 1000000};
	int i;

	fk.resumes++;
	fk.how = (int)how;
	fk.core = core;
	fk.alone = alone;
	fk.reverse = reverse;
	st->core = core;
	if (fk.fail) {
		snprintf(why, RSP_WHY_MAX, "cf stream: bad bits at core %d", core);
		return -1;
	}
	if (__atomic_exchange_n(&fk.intr, 0, __ATOMIC_SEQ_CST)) {
		st->kind = RSP_STOP_INTERRUPT;
		return 0;
	}
	if (fk.spin) {
		for (i = 0; i < 10000; i++) {
			if (__atomic_exchange_n(&fk.intr, 0, __ATOMIC_SEQ_CST)) {
				st->kind = RSP_STOP_INTERRUPT;
				return 0;
			}
			nanosleep(&ms, NULL);
		}
		st->kind = RSP_STOP_END; /* never interrupted: the test fails */
		return 0;
	}
	if (how == RSP_STEP) {
		if (reverse ? fk.pos == 0 : fk.pos == FK_END) {
			st->kind = reverse ? RSP_STOP_BEGIN : RSP_STOP_END;
			return 0;
		}
		fk.pos += reverse ? -1 : 1;
		st->kind = RSP_STOP_STEP;
		return 0;
	}
	for (;;) {
		if (reverse ? fk.pos == 0 : fk.pos == FK_END) {
			st->kind = reverse    ? RSP_STOP_BEGIN
				   : fk.exits ? RSP_STOP_EXITED
					      : RSP_STOP_END;
			st->status = 3;
			return 0;
		}
		fk.pos += reverse ? -1 : 1;
		if (fk_hit(fk.pos, st)) {
			st->core = fk.pos % FK_CORES;
			return 0;
		}
	}
}

static void fk_interrupt(void *t)
{
	__atomic_store_n(&fk.intr, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&fk.interrupts, 1, __ATOMIC_SEQ_CST);
}

static int fk_reset(void *t, char *why)
{
	fk.pos = 0;
	return 0;
}

static int fk_monitor(void *t, const char *cmd, void (*out)(void *ctx, const char *text), void *ctx,
		      char *why)
{
	char buf[64];

	if (!strcmp(cmd, "help")) {
		out(ctx, "fake commands:\n  info   where the fake is\n");
		return 0;
	}
	if (!strcmp(cmd, "info")) {
		snprintf(buf, sizeof(buf), "fake at position %d\n", fk.pos);
		out(ctx, buf);
		return 0;
	}
	if (!strcmp(cmd, "fail")) {
		snprintf(why, RSP_WHY_MAX, "fake failure");
		return -1;
	}
	return 1;
}

static uint64_t fk_position(void *t)
{
	return (uint64_t)fk.pos;
}

static const char *fk_exec_file(void *t)
{
	return fk.exec;
}

static const char *fk_llvm_arch(void *t)
{
	return fk.arch;
}

/*
 * The FP registers of fk_fp_ops: s[i] = core << 24 | pos << 8 | 0x80 + i,
 * fpscr core << 24 | pos << 8 | 0xff; s5 is unknown (so d2 is), and all of
 * them at positions past FK_END / 2.
 */
static uint32_t fk_fp(int core, int pos, int i)
{
	return (uint32_t)core << 24 | (uint32_t)pos << 8 | (i == 32 ? 0xffu : 0x80u + (uint32_t)i);
}

static int fk_fp_known(int pos, int i)
{
	return i != 5 && pos <= FK_END / 2;
}

static int fk_has_fp(void *t)
{
	return fk.fpu;
}

static int fk_read_fp(void *t, int core, uint32_t *v, uint8_t *known, char *why)
{
	if (core < 0 || core >= FK_CORES) {
		snprintf(why, RSP_WHY_MAX, "no core %d", core);
		return -1;
	}
	for (int i = 0; i < RSP_NFPREGS; i++) {
		v[i] = fk_fp(core, fk.pos, i);
		known[i] = fk_fp_known(fk.pos, i);
	}
	return 0;
}

static const struct rsp_target_ops fk_ops = {
    .ncores = fk_ncores,
    .read_regs = fk_read_regs,
    .read_mem = fk_read_mem,
    .point = fk_point,
    .resume = fk_resume,
    .interrupt = fk_interrupt,
    .reset = fk_reset,
    .monitor = fk_monitor,
    .position = fk_position,
    .exec_file = fk_exec_file,
    .llvm_arch = fk_llvm_arch,
};

/* The same target with FP registers (when fk.fpu is set as the server is made). */
static const struct rsp_target_ops fk_fp_ops = {
    .ncores = fk_ncores,
    .read_regs = fk_read_regs,
    .has_fp = fk_has_fp,
    .read_fp = fk_read_fp,
    .read_mem = fk_read_mem,
    .point = fk_point,
    .resume = fk_resume,
    .interrupt = fk_interrupt,
    .reset = fk_reset,
    .monitor = fk_monitor,
    .position = fk_position,
    .exec_file = fk_exec_file,
    .llvm_arch = fk_llvm_arch,
};

/* ---- the server in a thread ------------------------------------------------------ */

struct server_run {
	struct gdbserver *srv;
	int fd; /* serve this fd; -1: gdbserver_serve() */
	int rc;
	pthread_t thread;
};

static void *serve_main(void *arg)
{
	struct server_run *r = arg;

	r->rc = r->fd >= 0 ? gdbserver_serve_fd(r->srv, r->fd) : gdbserver_serve(r->srv);
	return NULL;
}

static int start_server(struct server_run *r, struct gdbserver *srv, int fd)
{
	r->srv = srv;
	r->fd = fd;
	r->rc = -2;
	return pthread_create(&r->thread, NULL, serve_main, r);
}

/* Join the server thread within ms; 0, or -1 if it is still running. */
static int join_server(struct server_run *r, int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return pthread_timedjoin_np(r->thread, NULL, &ts) ? -1 : 0;
}

/* ---- the client ----------------------------------------------------------------- */

struct client {
	int fd;
	int noack;
	char buf[65536]; /* the last reply's payload as sent (escapes kept) */
	size_t len;
	char con[8192]; /* console output ('O' packets) seen since the last exchange began */
	size_t clen;
};

static int rd(struct client *c, int ms)
{
	struct pollfd p = {.fd = c->fd, .events = POLLIN};
	unsigned char b;

	if (poll(&p, 1, ms) <= 0)
		return -1;
	if (read(c->fd, &b, 1) != 1)
		return -2; /* end of file */
	return b;
}

static void cl_raw(struct client *c, const void *p, size_t n)
{
	if (write(c->fd, p, n) != (ssize_t)n)
		tap_diag("client write failed: %s", strerror(errno));
}

/* "$payload#cs" (payload sent as is, so the caller escapes). */
static void cl_frame(struct client *c, const void *payload, size_t n)
{
	static char f[70000];
	unsigned char sum = 0;
	size_t i;

	f[0] = '$';
	for (i = 0; i < n; i++)
		sum += ((const unsigned char *)payload)[i];
	memcpy(f + 1, payload, n);
	snprintf(f + 1 + n, 4, "#%02x", sum);
	cl_raw(c, f, n + 4);
}

/* Read one packet ('$' first); 0, or -1 (timeout, junk, bad checksum). */
static int cl_packet(struct client *c)
{
	unsigned char sum = 0;
	int ch, hi, lo;

	c->len = 0;
	if ((ch = rd(c, 5000)) != '$') {
		tap_diag("expected '$', got %d", ch);
		return -1;
	}
	while ((ch = rd(c, 5000)) >= 0 && ch != '#') {
		if (c->len + 1 < sizeof(c->buf))
			c->buf[c->len++] = (char)ch;
		sum += (unsigned char)ch;
	}
	c->buf[c->len] = 0;
	hi = rd(c, 5000);
	lo = rd(c, 5000);
	if (ch != '#' || hi < 0 || lo < 0) {
		tap_diag("a truncated packet");
		return -1;
	}
	{
		char cs[3] = {(char)hi, (char)lo, 0};

		if (strtoul(cs, NULL, 16) != sum) {
			tap_diag("bad checksum %s", cs);
			return -1;
		}
	}
	return 0;
}

static int is_hexstr(const char *s)
{
	for (; *s; s++)
		if (!strchr("0123456789abcdef", *s))
			return 0;
	return 1;
}

/* Send payload[0..n), read the reply (collecting 'O' output); the reply or "<none>". */
static const char *xchg_n(struct client *c, const void *payload, size_t n)
{
	int ch;

	c->clen = 0;
	cl_frame(c, payload, n);
	if (!c->noack && (ch = rd(c, 5000)) != '+') {
		tap_diag("expected an ack, got %d", ch);
		return "<none>";
	}
	for (;;) {
		if (cl_packet(c))
			return "<none>";
		if (!c->noack)
			cl_raw(c, "+", 1);
		if (c->buf[0] == 'O' && (c->len & 1) && c->len > 1 && is_hexstr(c->buf + 1)) {
			size_t i;

			for (i = 1; i + 1 < c->len && c->clen + 1 < sizeof(c->con); i += 2) {
				char h[3] = {c->buf[i], c->buf[i + 1], 0};

				c->con[c->clen++] = (char)strtoul(h, NULL, 16);
			}
			c->con[c->clen] = 0;
			continue;
		}
		return c->buf;
	}
}

static const char *xchg(struct client *c, const char *payload)
{
	return xchg_n(c, payload, strlen(payload));
}

static int is_str(const char *got, const char *want, const char *name)
{
	int pass = tap_ok(!strcmp(got, want), "%s", name);

	if (!pass)
		tap_diag("     got: '%s'\n#  wanted: '%s'", got, want);
	return pass;
}

/* The reply to payload is want. */
static int reply_is(struct client *c, const char *payload, const char *want)
{
	char name[200], *p;

	snprintf(name, sizeof(name), "%.80s -> %.80s", payload, want[0] ? want : "(empty)");
	for (p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == '#')
			*p = '.';
	return is_str(xchg(c, payload), want, name);
}

static const char *hex_of(const char *text)
{
	static char out[4096];
	size_t i;

	for (i = 0; text[i] && 2 * i + 2 < sizeof(out); i++)
		snprintf(out + 2 * i, 3, "%02x", (unsigned char)text[i]);
	out[2 * i] = 0;
	return out;
}

/* A monitor command: its console output; *reply gets the final reply. */
static const char *monitor(struct client *c, const char *cmd, const char **reply)
{
	char pkt[512];

	snprintf(pkt, sizeof(pkt), "qRcmd,%s", hex_of(cmd));
	*reply = xchg(c, pkt);
	return c->con;
}

/* A socketpair session: the client end in c, the server thread in r. */
static int open_session(struct client *c, struct server_run *r, struct gdbserver *srv)
{
	int sv[2];

	memset(c, 0, sizeof(*c));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	c->fd = sv[0];
	if (start_server(r, srv, sv[1])) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	return 0;
}

static void close_session(struct client *c, struct server_run *r, const char *name)
{
	close(c->fd);
	tap_ok(!join_server(r, 5000) && r->rc == 0, "%s: the server ends the session", name);
}

/* ---- rsp.c alone ---------------------------------------------------------------- */

/* The bytes the other end of a socketpair received, within 200 ms. */
static size_t drain(int fd, char *buf, size_t cap)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	size_t n = 0;
	ssize_t k;

	while (n < cap - 1 && poll(&p, 1, 200) > 0 && (k = read(fd, buf + n, cap - 1 - n)) > 0)
		n += (size_t)k;
	buf[n] = 0;
	return n;
}

/* Write "$payload#cs" (payload as is, n bytes) to fd. */
static void raw_frame(int fd, const char *payload, size_t n)
{
	char f[256];
	unsigned char sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += (unsigned char)payload[i];
	f[0] = '$';
	memcpy(f + 1, payload, n);
	snprintf(f + 1 + n, 4, "#%02x", sum);
	if (write(fd, f, n + 4) != (ssize_t)(n + 4))
		tap_diag("write: %s", strerror(errno));
}

static void test_framing(void)
{
	struct rsp_conn *c;
	const char *pkt = NULL;
	char got[256], *big;
	size_t len = 0, n;
	int sv[2];

	if (!tap_ok(!socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "rsp: socketpair"))
		return;
	c = rsp_conn_new(sv[1]);
	if (!tap_ok(c != NULL, "rsp: a connection"))
		return;

	/* escapes out: # $ } * */
	if (write(sv[0], "+", 1) != 1)
		tap_diag("write");
	tap_ok(!rsp_send(c, "a#b$c}d*e", 9), "rsp: send with specials, acked");
	n = drain(sv[0], got, sizeof(got));
	{
		unsigned char sum = 0;
		char want[64];
		size_t i;

		snprintf(want, sizeof(want),
			 "$a}\x03"
			 "b}\x04"
			 "c}]d}\x0a"
			 "e#");
		for (i = 1; want[i] != '#'; i++)
			sum += (unsigned char)want[i];
		snprintf(want + i + 1, 3, "%02x", sum);
		is_str(got, want, "rsp: # $ } * escaped on output, checksum over the escapes");
	}
	(void)n;

	/* escapes in and a NUL: X-like binary */
	rsp_set_noack(c, 1);
	{
		const char in[] = "$X0,5:}\x03}\x04}]}\x0a\x00#";
		unsigned char sum = 0;
		char frame[64];
		size_t i, k = sizeof(in) - 1;

		for (i = 1; i < k - 1; i++)
			sum += (unsigned char)in[i];
		memcpy(frame, in, k);
		k += (size_t)snprintf(frame + k, 3, "%02x", sum);
		if (write(sv[0], frame, k) != (ssize_t)k)
			tap_diag("write");
	}
	tap_ok(rsp_fill(c) > 0, "rsp: bytes read");
	tap_is_int(rsp_next(c, &pkt, &len), RSP_PACKET, "rsp: an escaped binary packet");
	tap_ok(len == 10 && !memcmp(pkt, "X0,5:#$}*\0", 10), "rsp: unescaped, NUL kept (%zu)", len);

	/* run-length input: "a* " is aaaa */
	raw_frame(sv[0], "a* b", 4);
	tap_ok(rsp_fill(c) > 0, "rsp: rle read");
	tap_is_int(rsp_next(c, &pkt, &len), RSP_PACKET, "rsp: run-length packet");
	is_str(pkt, "aaaab", "rsp: run-length expanded");

	/* a '$' inside a packet restarts it; 0x03 between packets; junk skipped */
	if (write(sv[0], "junk$qX$?#3f\x03", 13) != 13)
		tap_diag("write");
	tap_ok(rsp_fill(c) > 0, "rsp: read");
	tap_is_int(rsp_next(c, &pkt, &len), RSP_PACKET, "rsp: restarted packet");
	is_str(pkt, "?", "rsp: the packet after the second '$'");
	tap_is_int(rsp_next(c, &pkt, &len), RSP_INTERRUPT, "rsp: 0x03 between packets");
	tap_is_int(rsp_next(c, &pkt, &len), RSP_NONE, "rsp: nothing more");

	/* an interrupt taken by the watcher's path, not one inside a packet */
	raw_frame(sv[0], "X0,1:\x03", 6);
	if (write(sv[0], "\x03", 1) != 1)
		tap_diag("write");
	usleep(20000);
	tap_ok(rsp_fill(c) > 0, "rsp: read");
	tap_is_int(rsp_take_interrupt(c), 1, "rsp: the 0x03 after the packet is taken");
	tap_is_int(rsp_take_interrupt(c), 0, "rsp: the 0x03 inside the packet is not");
	tap_is_int(rsp_next(c, &pkt, &len), RSP_PACKET, "rsp: the packet is intact");
	tap_ok(len == 6 && pkt[5] == 3, "rsp: with its 0x03");

	/* oversize: read to its end, reported, the next packet fine */
	big = malloc(RSP_PACKET_MAX + 100);
	if (big) {
		size_t i, k = 0;
		unsigned char sum = 0;

		big[k++] = '$';
		for (i = 0; i < RSP_PACKET_MAX + 10; i++, k++) {
			big[k] = 'a';
			sum += 'a';
		}
		k += (size_t)snprintf(big + k, 4, "#%02x", sum);
		if (write(sv[0], big, k) != (ssize_t)k || write(sv[0], "$?#3f", 5) != 5)
			tap_diag("write");
		free(big);
	}
	{
		enum rsp_event ev;

		while ((ev = rsp_next(c, &pkt, &len)) == RSP_NONE && rsp_fill(c) > 0)
			;
		tap_is_int(ev, RSP_OVERSIZE, "rsp: an oversize packet is reported");
		while ((ev = rsp_next(c, &pkt, &len)) == RSP_NONE && rsp_fill(c) > 0)
			;
		tap_ok(ev == RSP_PACKET && !strcmp(pkt, "?"), "rsp: the next packet is fine");
	}

	/* no-ack mode: a bad checksum is reported, not nakked */
	if (write(sv[0], "$?#00", 5) != 5)
		tap_diag("write");
	tap_ok(rsp_fill(c) > 0, "rsp: read");
	tap_is_int(rsp_next(c, &pkt, &len), RSP_BADSUM, "rsp: no-ack bad checksum");

	close(sv[0]);
	{
		enum rsp_event ev;

		while ((ev = rsp_next(c, &pkt, &len)) == RSP_NONE && rsp_fill(c) > 0)
			;
		if (ev == RSP_NONE)
			ev = rsp_next(c, &pkt, &len);
		tap_is_int(ev, RSP_CLOSED, "rsp: end of file");
	}
	rsp_conn_free(c);
}

/* ---- the server over a socketpair ------------------------------------------------ */

static const char *regs_hex(int core, int pos)
{
	static char out[RSP_NREGS * 8 + 1];
	int i;

	for (i = 0; i < RSP_NREGS; i++) {
		uint32_t v = fk_reg(core, pos, i);

		if (i == 12 || (fk.hide_psp && core == 2 && i == 18))
			memcpy(out + 8 * i, "xxxxxxxx", 8);
		else
			snprintf(out + 8 * i, 9, "%02x%02x%02x%02x", v & 255, v >> 8 & 255,
				 v >> 16 & 255, v >> 24);
	}
	out[RSP_NREGS * 8] = 0;
	return out;
}

static void test_basics(struct gdbserver *srv)
{
	struct server_run r;
	struct client c;
	char raw[64], want[256];
	int ch;

	fk_reset_all();
	if (!tap_ok(!open_session(&c, &r, srv), "session 1 opens"))
		return;

	/* framing: good, then bad checksum -> '-' and a retransmit accepted */
	cl_raw(&c, "$?#3f", 5);
	tap_is_int(rd(&c, 5000), '+', "good checksum: '+'");
	tap_ok(!cl_packet(&c), "a reply");
	cl_raw(&c, "+", 1);
	is_str(c.buf, "T05thread:1;", "? before anything ran: T05thread:1;");
	cl_raw(&c, "$?#00", 5);
	tap_is_int(rd(&c, 5000), '-', "bad checksum: '-'");
	tap_is_int(rd(&c, 200), -1, "... and no reply");
	cl_raw(&c, "$?#zz", 5);
	tap_is_int(rd(&c, 5000), '-', "non-hex checksum: '-'");
	cl_raw(&c, "+++junk\r\n$?#3f", 15);
	tap_is_int(rd(&c, 5000), '+', "retransmit after junk and stray acks: '+'");
	tap_ok(!cl_packet(&c) && !strcmp(c.buf, "T05thread:1;"), "... and its reply");
	cl_raw(&c, "+", 1);
	/* the reply's bytes exactly */
	cl_raw(&c, "$qC#b4", 6);
	{
		size_t n = 0;

		while (n < 8 && (ch = rd(&c, 5000)) >= 0)
			raw[n++] = (char)ch;
		raw[n] = 0;
		is_str(raw, "+$QC1#c5", "qC: '+' then $QC1#c5, byte for byte");
		cl_raw(&c, "+", 1);
	}
	/* a nak makes the server resend */
	cl_frame(&c, "qAttached", 9);
	tap_is_int(rd(&c, 5000), '+', "qAttached acked");
	tap_ok(!cl_packet(&c) && !strcmp(c.buf, "1"), "qAttached: 1");
	cl_raw(&c, "-", 1);
	tap_ok(!cl_packet(&c) && !strcmp(c.buf, "1"), "'-' from GDB: the reply is sent again");
	cl_raw(&c, "+", 1);

	/* unsupported: empty */
	reply_is(&c, "qFooBar", "");
	reply_is(&c, "vMustReplyEmpty", "");
	reply_is(&c, "qTStatus", "");
	reply_is(&c, "qOffsets", "");
	reply_is(&c, "b9600", "");
	reply_is(&c, "qCRC:0,4", "");
	reply_is(&c, "x20000000,4", "");
	reply_is(&c, "vFile:setfs:0", "");
	reply_is(&c, "qSymbol::", "OK");

	reply_is(&c,
		 "qSupported:multiprocess+;swbreak+;hwbreak+;qRelocInsn+;fork-events+;"
		 "vfork-events+;exec-events+;vContSupported+;QThreadEvents+;no-resumed+;"
		 "memory-tagging+",
		 "PacketSize=4000;QStartNoAckMode+;qXfer:features:read+;qXfer:threads:read+;"
		 "ReverseStep+;ReverseContinue+;swbreak+;hwbreak+;vContSupported+");

	/* the ELF, when the target names one */
	reply_is(&c, "qXfer:exec-file:read::0,fff", "E01");
	fk.exec = "/work/fw.elf";
	reply_is(&c, "qSupported:swbreak+",
		 "PacketSize=4000;QStartNoAckMode+;qXfer:features:read+;qXfer:threads:read+;"
		 "ReverseStep+;ReverseContinue+;swbreak+;hwbreak+;vContSupported+;"
		 "qXfer:exec-file:read+");
	reply_is(&c, "qXfer:exec-file:read:1:0,fff", "l/work/fw.elf");
	reply_is(&c, "qXfer:exec-file:read::6,fff", "lfw.elf");
	reply_is(&c, "qXfer:exec-file:read::0,5", "m/work");
	reply_is(&c, "qXfer:exec-file:read:0,5", "E01");
	fk.exec = NULL;

	/* threads */
	reply_is(&c, "qfThreadInfo", "m1,2,3");
	reply_is(&c, "qsThreadInfo", "l");
	reply_is(&c, "Hg2", "OK");
	reply_is(&c, "qC", "QC2");
	reply_is(&c, "Hg4", "E02");
	reply_is(&c, "Hgzz", "E01");
	reply_is(&c, "H", "E01");
	reply_is(&c, "Hx1", "E01");
	reply_is(&c, "Hg0", "OK");
	reply_is(&c, "qC", "QC1");
	reply_is(&c, "Hg-1", "OK");
	reply_is(&c, "Hgp1.3", "OK");
	reply_is(&c, "qC", "QC3");
	reply_is(&c, "Hgp1.-1", "OK");
	reply_is(&c, "Hc-1", "OK");
	reply_is(&c, "T3", "OK");
	reply_is(&c, "T4", "E02");
	reply_is(&c, "T0", "E02");
	reply_is(&c, "T", "E01");
	snprintf(want, sizeof(want), "%s", hex_of("core 1"));
	reply_is(&c, "qThreadExtraInfo,2", want);
	reply_is(&c, "qThreadExtraInfo,9", "E02");
	reply_is(&c, "qXfer:threads:read::0,fff",
		 "l<?xml version=\"1.0\"?>\n<threads>\n"
		 "<thread id=\"1\" core=\"0\" name=\"core0\"/>\n"
		 "<thread id=\"2\" core=\"1\" name=\"core1\"/>\n"
		 "<thread id=\"3\" core=\"2\" name=\"core2\"/>\n</threads>\n");
	reply_is(&c, "qXfer:threads:read::0,10", "m<?xml version=\"1");
	reply_is(&c, "qXfer:threads:read::9999,10", "E01");
	reply_is(&c, "qXfer:threads:read:x:0,10", "E01");

	/* target.xml, whole and in pieces */
	{
		char xml[8192], piece[64];
		const char *got;
		size_t off = 0;
		int n = rsp_tdesc_xml(xml, sizeof(xml), 0, 0), pieces = 0, ok = 1;

		got = xchg(&c, "qXfer:features:read:target.xml:0,3fff");
		tap_ok(got[0] == 'l' && n > 0 && !strcmp(got + 1, xml), "target.xml in one piece");
		for (;;) {
			snprintf(piece, sizeof(piece), "qXfer:features:read:target.xml:%zx,64",
				 off);
			got = xchg(&c, piece);
			if ((got[0] != 'm' && got[0] != 'l') ||
			    strncmp(got + 1, xml + off, strlen(got + 1))) {
				ok = 0;
				break;
			}
			off += strlen(got + 1);
			pieces++;
			if (got[0] == 'l')
				break;
		}
		tap_ok(ok && off == (size_t)n && pieces > 2, "target.xml in %d pieces of 100",
		       pieces);
		tap_ok(strstr(xml, "<architecture>arm</architecture>") &&
			   strstr(xml, "<feature name=\"org.gnu.gdb.arm.m-profile\">\n"
				       "<reg name=\"r0\" bitsize=\"32\" regnum=\"0\" type=\"int\" "
				       "group=\"general\" dwarf_regnum=\"0\"/>") &&
			   strstr(xml, "<reg name=\"sp\" bitsize=\"32\" regnum=\"13\" "
				       "type=\"data_ptr\"") &&
			   strstr(xml, "<reg name=\"pc\" bitsize=\"32\" regnum=\"15\" "
				       "type=\"code_ptr\"") &&
			   strstr(xml,
				  "<reg name=\"xpsr\" bitsize=\"32\" regnum=\"16\" type=\"int\" "
				  "group=\"general\" generic=\"flags\"/>\n</feature>\n"
				  "<feature name=\"org.gnu.gdb.arm.m-system\">\n"
				  "<reg name=\"msp\" bitsize=\"32\" regnum=\"17\" "
				  "type=\"data_ptr\" group=\"system\"/>") &&
			   strstr(xml, "<reg name=\"control\" bitsize=\"32\" regnum=\"22\" "
				       "type=\"int\" group=\"system\"/>\n</feature>\n</target>\n"),
		       "target.xml: OpenOCD's features and numbers");
		tap_ok(strstr(xml, "<reg name=\"r7\" bitsize=\"32\" regnum=\"7\" type=\"int\" "
				   "group=\"general\" dwarf_regnum=\"7\" generic=\"fp\"/>") &&
			   strstr(xml, "regnum=\"13\" type=\"data_ptr\" group=\"general\" "
				       "dwarf_regnum=\"13\" generic=\"sp\"/>") &&
			   strstr(xml, "regnum=\"14\" type=\"int\" group=\"general\" "
				       "dwarf_regnum=\"14\" generic=\"ra\"/>") &&
			   strstr(xml, "regnum=\"15\" type=\"code_ptr\" group=\"general\" "
				       "dwarf_regnum=\"15\" generic=\"pc\"/>") &&
			   strstr(xml, "regnum=\"17\" type=\"data_ptr\" group=\"system\"/>"),
		       "target.xml: LLDB's DWARF numbers and roles (r7 the frame pointer)");
		tap_ok(!strstr(xml, "arm.vfp") && !strstr(xml, "fpscr"),
		       "target.xml without an FPU: no FP registers");
		reply_is(&c, "qXfer:features:read:other.xml:0,fff", "E01");
		reply_is(&c, "qXfer:features:read:target.xml:zz,fff", "E01");
	}

	/* registers */
	fk.hide_psp = 1;
	reply_is(&c, "Hg1", "OK");
	reply_is(&c, "g", regs_hex(0, 0));
	reply_is(&c, "Hg3", "OK");
	reply_is(&c, "g", regs_hex(2, 0));
	reply_is(&c, "p12", "xxxxxxxx"); /* psp of core 2 */
	reply_is(&c, "pd", "11000002");	 /* sp = msp */
	reply_is(&c, "Hg2", "OK");
	reply_is(&c, "p1", "01000001");
	reply_is(&c, "pf", "00000008");
	reply_is(&c, "pc", "xxxxxxxx");
	reply_is(&c, "p13", "01000000");
	reply_is(&c, "p16", "16000001");
	reply_is(&c, "p17", "E01");
	reply_is(&c, "pzz", "E01");
	reply_is(&c, "p", "E01");

	/* memory */
	reply_is(&c, "m20000020,8", "2021222324252627");
	reply_is(&c, "m2000007c,8", "7c7d7e7f");
	reply_is(&c, "m2000007c,4", "7c7d7e7f");
	reply_is(&c, "m20000080,4", "E01");
	reply_is(&c, "m30000000,4", "E01");
	reply_is(&c, "m200000fe,4", "feff");
	reply_is(&c, "m2000000x,4", "E01");
	reply_is(&c, "m20000000", "E01");
	reply_is(&c, "m,4", "E01");
	reply_is(&c, "m20000000,0", "E01");
	reply_is(&c, "m120000000,4", "E01");
	{
		const char *got = xchg(&c, "m8000000,ffff");

		tap_ok(strlen(got) == 2 * FK_FLASH_SIZE,
		       "a long m: the known prefix (%zu hex digits)", strlen(got));
	}

	/* writes refused */
	reply_is(&c, "G00000000", "E.replay is read-only");
	reply_is(&c, "P0=00000000", "E.replay is read-only");
	reply_is(&c, "M20000000,1:00", "E.replay is read-only");
	reply_is(&c, "X20000000,0:", "E.replay is read-only");
	{
		static const char x[] = "X20000000,4:}\x03}\x04}]}\x0a";

		is_str(xchg_n(&c, x, sizeof(x) - 1), "E.replay is read-only",
		       "binary X with escaped # $ } *: refused, the stream in step");
		reply_is(&c, "qC", "QC2");
	}

	/* break- and watchpoints */
	reply_is(&c, "Z0,8000014,2", "OK");
	tap_ok(fk.last_kind == 0 && fk.last_addr == 0x8000014 && fk.last_len == 2 && fk.last_on,
	       "Z0 reaches point()");
	reply_is(&c, "Z1,8000016,4", "OK");
	tap_ok(fk.last_kind == 1 && fk.last_addr == 0x8000016 && fk.last_len == 4, "Z1");
	reply_is(&c, "Z2,20000010,4", "OK");
	tap_ok(fk.last_kind == 2 && fk.last_len == 4, "Z2");
	reply_is(&c, "Z3,20000050,4", "OK");
	reply_is(&c, "Z4,20000020,8", "OK");
	tap_ok(fk.last_kind == 4 && fk.last_len == 8 && fk.npoints == 5, "Z4; five points set");
	reply_is(&c, "z0,8000014,2", "OK");
	tap_ok(fk.last_kind == 0 && !fk.last_on && fk.npoints == 4, "z0 reaches point()");
	reply_is(&c, "z1,8000016,4", "OK");
	reply_is(&c, "z2,20000010,4", "OK");
	reply_is(&c, "z3,20000050,4", "OK");
	reply_is(&c, "z4,20000020,8", "OK");
	tap_is_int(fk.npoints, 0, "all removed");
	reply_is(&c, "Z0,dead,2", "E01");
	reply_is(&c, "Z5,8000000,2", "");
	reply_is(&c, "Z0,xyz,2", "E01");
	reply_is(&c, "Z0,8000000", "E01");
	reply_is(&c, "Z0,8000000,2;X1,ff", "OK");

	/* malformed */
	reply_is(&c, "vCont", "E01");
	reply_is(&c, "vCont;x", "E01");
	reply_is(&c, "vCont;s:9", "E02");
	reply_is(&c, "vCont;s:zz", "E01");
	reply_is(&c, "c20000000", "E01");
	reply_is(&c, "Cxx", "E01");
	reply_is(&c, "qRcmd,4", "E01");
	reply_is(&c, "qRcmd,zz", "E01");
	reply_is(&c, "qRcmd", "E01");
	reply_is(&c, "qRcmd,0068", "E01");
	reply_is(&c, "qThreadExtraInfo", "E01");
	tap_is_int(fk.resumes, 0, "no malformed resume reached the target");

	/* oversize: E03, the connection still works */
	{
		char *big = malloc(20001);

		if (big) {
			memset(big, 'a', 20000);
			big[0] = 'q';
			is_str(xchg_n(&c, big, 20000), "E03",
			       "a packet longer than PacketSize: E03");
			free(big);
		}
		reply_is(&c, "qC", "QC2");
	}

	close_session(&c, &r, "session 1");
}

static void test_resume(struct gdbserver *srv)
{
	struct server_run r;
	struct client c;
	char want[128];

	fk_reset_all();
	if (!tap_ok(!open_session(&c, &r, srv), "session 2 opens"))
		return;
	xchg(&c, "qSupported:swbreak+;hwbreak+");
	reply_is(&c, "vCont?", "vCont;c;C;s;S");

	/* steps */
	reply_is(&c, "vCont;s:2;c", "T05thread:2;");
	tap_ok(fk.how == RSP_STEP && fk.core == 1 && !fk.reverse && fk.pos == 1 && !fk.alone,
	       "vCont;s:2;c steps core 1 forward, the others not held");
	reply_is(&c, "qC", "QC2");
	reply_is(&c, "vCont;c;s:3", "T05thread:3;");
	tap_ok(fk.how == RSP_STEP && fk.core == 2, "vCont;c;s:3 steps core 2");
	reply_is(&c, "vCont;S05:1", "T05thread:1;");
	tap_ok(fk.how == RSP_STEP && fk.core == 0 && fk.alone, "vCont;S05:1 steps core 0 alone");
	reply_is(&c, "vCont;s", "T05thread:1;");
	tap_ok(fk.how == RSP_STEP && fk.core == 0, "vCont;s steps the last reported thread");
	reply_is(&c, "Hc3", "OK");
	reply_is(&c, "s", "T05thread:3;");
	tap_ok(fk.how == RSP_STEP && fk.core == 2 && fk.pos == 5, "Hc3; s steps core 2");
	reply_is(&c, "bs", "T05thread:3;");
	tap_ok(fk.how == RSP_STEP && fk.core == 2 && fk.reverse && fk.pos == 4,
	       "bs steps core 2 backward");
	tap_ok(fk.alone, "... alone (Hc3: scheduler-locking)");
	/* `thread 1` after a stop of thread 3, then reverse-stepi (issue 16) */
	reply_is(&c, "Hc0", "OK");
	reply_is(&c, "Hg1", "OK");
	reply_is(&c, "bs", "T05thread:1;");
	tap_ok(fk.core == 0 && fk.reverse && fk.pos == 3 && !fk.alone,
	       "Hc0; Hg1; bs: the Hg thread, not the last reported one");
	reply_is(&c, "qC", "QC1");
	reply_is(&c, "Hg2", "OK");
	reply_is(&c, "Hc-1", "OK");
	reply_is(&c, "bc", "T05thread:2;replaylog:begin;");
	tap_ok(fk.how == RSP_CONTINUE && fk.core == 1 && fk.reverse && !fk.alone,
	       "Hc-1; Hg2; bc: for the Hg thread, every core");
	reply_is(&c, "Hg3", "OK");
	reply_is(&c, "s", "T05thread:3;");
	tap_ok(fk.how == RSP_STEP && fk.core == 2 && !fk.reverse, "Hc-1; Hg3; s steps core 2");
	reply_is(&c, "vCont;c:2", "T05thread:2;replaylog:end;");
	tap_ok(fk.how == RSP_CONTINUE && fk.core == 1 && fk.alone,
	       "vCont;c:2 continues core 1 alone");
	reply_is(&c, "vCont;s:3", "T05thread:3;replaylog:end;");
	tap_ok(fk.how == RSP_STEP && fk.core == 2 && fk.alone, "vCont;s:3 steps core 2 alone");
	reply_is(&c, "vCont;s:1;c:2", "T05thread:1;replaylog:end;");
	tap_ok(fk.how == RSP_STEP && fk.core == 0 && !fk.alone,
	       "vCont;s:1;c:2: core 0, the others not held");
	fk.pos = 3;
	reply_is(&c, "Hc0", "OK");
	reply_is(&c, "Hg3", "OK");
	reply_is(&c, "S05", "T05thread:3;");
	tap_ok(fk.how == RSP_STEP && fk.core == 2 && !fk.reverse, "S05 steps forward");
	reply_is(&c, "g", regs_hex(2, 4));

	/* breakpoints both ways, the ends */
	reply_is(&c, "Z0,8000014,2", "OK"); /* position 10: core 1 */
	reply_is(&c, "vCont;c", "T05thread:2;swbreak:;");
	tap_ok(fk.how == RSP_CONTINUE && !fk.reverse && fk.pos == 10,
	       "vCont;c continues to pos 10");
	reply_is(&c, "qC", "QC2");
	reply_is(&c, "vCont;c", "T05thread:2;replaylog:end;");
	tap_is_int(fk.pos, FK_END, "to the end");
	reply_is(&c, "bc", "T05thread:2;swbreak:;");
	tap_ok(fk.how == RSP_CONTINUE && fk.reverse && fk.pos == 10, "bc back to the breakpoint");
	reply_is(&c, "bc", "T05thread:2;replaylog:begin;");
	tap_is_int(fk.pos, 0, "to the beginning");
	reply_is(&c, "bs", "T05thread:2;replaylog:begin;");
	reply_is(&c, "z0,8000014,2", "OK");
	reply_is(&c, "Z1,8000016,2", "OK"); /* position 11: core 2 */
	reply_is(&c, "c", "T05thread:3;hwbreak:;");
	reply_is(&c, "z1,8000016,2", "OK");

	/* watchpoints, the three kinds */
	reply_is(&c, "Z2,200000b0,4", "OK"); /* stores at positions = 4 mod 16 */
	reply_is(&c, "c", "T05thread:3;watch:200000b0;");
	tap_is_int(fk.pos, 20, "write watchpoint at position 20");
	reply_is(&c, "bc", "T05thread:2;watch:200000b0;");
	tap_is_int(fk.pos, 4, "... backward at position 4");
	reply_is(&c, "z2,200000b0,4", "OK");
	reply_is(&c, "Z3,20000060,4", "OK"); /* loads from 0x20000060 at 8 mod 16 */
	reply_is(&c, "vCont;c", "T05thread:3;rwatch:20000060;");
	tap_is_int(fk.pos, 8, "read watchpoint at position 8");
	reply_is(&c, "z3,20000060,4", "OK");
	reply_is(&c, "Z4,200000d0,2", "OK"); /* stores at 12 mod 16 */
	reply_is(&c, "vCont;c:1", "T05thread:1;awatch:200000d0;");
	tap_is_int(fk.pos, 12, "access watchpoint at position 12");
	reply_is(&c, "z4,200000d0,4", "OK");

	/* without swbreak+ from GDB: no swbreak in the stop reply */
	xchg(&c, "qSupported:multiprocess+");
	reply_is(&c, "Z0,8000028,2", "OK"); /* position 20: core 2 */
	reply_is(&c, "c", "T05thread:3;");
	reply_is(&c, "z0,8000028,2", "OK");

	/* the program's exit: replaylog:end, the status as console output */
	fk.exits = 1;
	reply_is(&c, "vCont;c", "T05thread:3;replaylog:end;");
	is_str(c.con,
	       "raptor: the program exited with status 3 at position 100, the end of the "
	       "recording\n",
	       "exit: its status as 'O' output");
	fk.exits = 0;

	/* resume() fails: the reason as output, then T06 */
	fk.fail = 1;
	reply_is(&c, "vCont;s:1", "T06thread:1;");
	is_str(c.con, "raptor: the replay stopped at position 100: cf stream: bad bits at core 0\n",
	       "failure: the reason as 'O' output");
	fk.fail = 0;

	/* Ctrl-C during a spinning continue */
	fk.pos = 50;
	fk.spin = 1;
	cl_frame(&c, "vCont;c", 7);
	tap_is_int(rd(&c, 5000), '+', "spinning continue acked");
	tap_is_int(rd(&c, 100), -1, "no reply while it spins");
	cl_raw(&c, "\x03", 1);
	tap_ok(!cl_packet(&c), "a stop reply after Ctrl-C");
	cl_raw(&c, "+", 1);
	snprintf(want, sizeof(want), "T02thread:1;");
	is_str(c.buf, want, "Ctrl-C: T02thread:1;");
	tap_is_int(fk.interrupts, 1, "interrupt() called once");
	fk.spin = 0;
	reply_is(&c, "vCont;s:1", "T05thread:1;");
	tap_ok(fk.how == RSP_STEP && fk.intr == 0, "no interrupt left pending");

	/* Ctrl-C in the same write as the continue: stop before running */
	fk.resumes = 0;
	fk.spin = 1;
	cl_raw(&c, "$c#63\x03", 6);
	tap_is_int(rd(&c, 5000), '+', "c acked");
	tap_ok(!cl_packet(&c) && !strcmp(c.buf, "T02thread:1;"), "c+Ctrl-C together: T02");
	cl_raw(&c, "+", 1);
	tap_is_int(fk.resumes, 0, "... without resuming");
	fk.spin = 0;

	/* reverse Ctrl-C */
	fk.spin = 1;
	cl_frame(&c, "bc", 2);
	tap_is_int(rd(&c, 5000), '+', "spinning bc acked");
	usleep(20000);
	cl_raw(&c, "\x03", 1);
	tap_ok(!cl_packet(&c) && !strcmp(c.buf, "T02thread:1;") && fk.reverse,
	       "Ctrl-C during a reverse continue: T02");
	cl_raw(&c, "+", 1);
	fk.spin = 0;

	/* no-ack mode */
	reply_is(&c, "QStartNoAckMode", "OK");
	c.noack = 1;
	cl_raw(&c, "+", 1); /* GDB's trailing ack, ignored */
	reply_is(&c, "qC", "QC1");
	cl_raw(&c, "$qC#00", 6);
	tap_ok(!cl_packet(&c) && !strcmp(c.buf, "E01"), "no-ack: bad checksum -> E01, no '-'");
	reply_is(&c, "vCont;s:2", "T05thread:2;");
	fk.spin = 1;
	cl_frame(&c, "vCont;c", 7);
	usleep(20000);
	cl_raw(&c, "\x03", 1);
	tap_ok(!cl_packet(&c) && !strcmp(c.buf, "T02thread:2;"), "no-ack: Ctrl-C");
	fk.spin = 0;

	/* disconnect during a continue: the session ends, the target stops */
	fk.spin = 1;
	fk.interrupts = 0;
	cl_frame(&c, "vCont;c", 7);
	usleep(20000);
	close_session(&c, &r, "disconnect during a continue");
	tap_is_int(fk.interrupts, 1, "... which interrupted the target");
	fk.spin = 0;
}

static void test_monitor(struct gdbserver *srv)
{
	struct server_run r;
	struct client c;
	const char *out, *rep;

	fk_reset_all();
	fk.pos = 7;
	if (!tap_ok(!open_session(&c, &r, srv), "session 3 opens"))
		return;
	reply_is(&c, "Hg2", "OK");
	out = monitor(&c, "mdw 0x20000020 2", &rep);
	is_str(out, "0x20000020: 23222120 27262524 \n", "mdw: OpenOCD's format");
	is_str(rep, "OK", "mdw: OK");
	out = monitor(&c, "mdw 0x2000007c 3", &rep);
	is_str(out, "0x2000007c: 7f7e7d7c xxxxxxxx xxxxxxxx \n(xx: unknown at this position)\n",
	       "mdw over the unknown hole");
	out = monitor(&c, "mdw 536870912 9", &rep);
	is_str(out,
	       "0x20000000: 03020100 07060504 0b0a0908 0f0e0d0c 13121110 17161514 1b1a1918 "
	       "1f1e1d1c \n0x20000020: 23222120 \n",
	       "mdw: 8 words a line, decimal address");
	out = monitor(&c, "mdh phys 0x20000002", &rep);
	is_str(out, "0x20000002: 0302 \n", "mdh phys");
	out = monitor(&c, "mdb 0x200000f0 17", &rep);
	is_str(out,
	       "0x200000f0: f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 fa fb fc fd fe ff xx \n"
	       "(xx: unknown at this position)\n",
	       "mdb: past the end of RAM");
	out = monitor(&c, "mdw", &rep);
	tap_ok(strstr(out, "usage: mdw [phys] ADDR [COUNT]") && !strcmp(rep, "E01"),
	       "mdw without an address: usage, E01");
	out = monitor(&c, "mdw 0xfffffffc 2", &rep);
	tap_ok(strstr(out, "outside the 4 GiB space") && !strcmp(rep, "E01"), "mdw past 4 GiB");
	out = monitor(&c, "reg r1", &rep);
	is_str(out, "r1 (/32): 0x01000701\n", "reg r1 of thread 2");
	out = monitor(&c, "reg xpsr", &rep);
	is_str(out, "xPSR (/32): 0x01000710\n", "reg xpsr: OpenOCD's name");
	out = monitor(&c, "reg primask", &rep);
	is_str(out, "primask (/1): 0x1\n", "reg primask: OpenOCD's width");
	out = monitor(&c, "reg 12", &rep);
	is_str(out, "r12 (/32): unknown at this position\n", "reg 12: unknown");
	out = monitor(&c, "reg r0 5", &rep);
	tap_ok(strstr(out, "read-only") && !strcmp(rep, "E01"), "reg r0 5: refused");
	out = monitor(&c, "reg foo", &rep);
	tap_ok(strstr(out, "no register 'foo'") && !strcmp(rep, "E01"),
	       "reg foo: no such register");
	out = monitor(&c, "reg", &rep);
	tap_ok(!strncmp(out,
			"===== arm v7m registers, core 1 (GDB thread 2)\n"
			"(0) r0 (/32): 0x01000700\n",
			strlen("===== arm v7m registers, core 1 (GDB thread 2)\n"
			       "(0) r0 (/32): 0x01000700\n")) &&
		   strstr(out, "(16) xPSR (/32): 0x01000710\n(17) msp (/32): 0x01000711\n") &&
		   strstr(out, "(22) control (/3): 0x6\n") && !strcmp(rep, "OK"),
	       "reg: all, numbered");
	out = monitor(&c, "targets", &rep);
	is_str(out,
	       "    TargetName         Type       Endian TapName            State       \n"
	       "--  ------------------ ---------- ------ ------------------ ------------\n"
	       " 0  raptor.core0       cortex_m   little replay             halted\n"
	       " 1* raptor.core1       cortex_m   little replay             halted\n"
	       " 2  raptor.core2       cortex_m   little replay             halted\n",
	       "targets: OpenOCD's table");
	out = monitor(&c, "halt", &rep);
	tap_ok(strstr(out, "already halted") && !strcmp(rep, "OK"), "halt: already halted");
	out = monitor(&c, "frob 1", &rep);
	is_str(out, "raptor: unknown monitor command 'frob' (try 'monitor help')\n",
	       "unknown: a clear message");
	is_str(rep, "E01", "unknown: E01");
	out = monitor(&c, "info", &rep);
	is_str(out, "fake at position 7\n", "the target's own command");
	is_str(rep, "OK", "... OK");
	out = monitor(&c, "fail", &rep);
	is_str(out, "raptor: fail: fake failure\n", "the target's failure: its reason");
	is_str(rep, "E01", "... E01");
	out = monitor(&c, "help", &rep);
	tap_ok(strstr(out, "mdw [phys] ADDR [COUNT]") && strstr(out, "reset [halt|init]") &&
		   strstr(out, "info   where the fake is") && !strcmp(rep, "OK"),
	       "help: ours and the target's");
	out = monitor(&c, "reset run", &rep);
	tap_ok(strstr(out, "use 'reset halt'") && !strcmp(rep, "E01") && fk.pos == 7,
	       "reset run: refused");
	out = monitor(&c, "reset halt", &rep);
	tap_ok(strstr(out, "beginning of the recording (position 0)") && !strcmp(rep, "OK") &&
		   fk.pos == 0,
	       "reset halt");
	fk.pos = 3;
	out = monitor(&c, "reset", &rep);
	tap_ok(!strcmp(rep, "OK") && fk.pos == 0, "reset");

	/* long output: several 'O' packets */
	out = monitor(&c, "mdb 0x8000000 1024", &rep);
	tap_ok(strlen(out) > CONSOLE_CHUNK_TEST && !strcmp(rep, "OK"), "long output (%zu bytes)",
	       strlen(out));

	/* k ends the session at once */
	cl_frame(&c, "k", 1);
	tap_is_int(rd(&c, 5000), '+', "k acked");
	tap_is_int(rd(&c, 5000), -2, "k: no reply, the connection closed");
	close_session(&c, &r, "k");

	/* D: OK then closed */
	if (tap_ok(!open_session(&c, &r, srv), "session 4 opens")) {
		reply_is(&c, "D", "OK");
		tap_is_int(rd(&c, 5000), -2, "D: the connection closed");
		close_session(&c, &r, "D");
	}
	if (tap_ok(!open_session(&c, &r, srv), "session 5 opens")) {
		reply_is(&c, "vKill;1", "OK");
		tap_is_int(rd(&c, 5000), -2, "vKill: the connection closed");
		close_session(&c, &r, "vKill");
	}
}

/* ---- extended mode (target extended-remote) ------------------------------------------ */

static void test_extended(struct gdbserver *srv)
{
	struct server_run r;
	struct client c;

	fk_reset_all();
	if (!tap_ok(!open_session(&c, &r, srv), "extended: a session opens"))
		return;
	reply_is(&c, "!", "OK");
	reply_is(&c, "qAttached", "1");
	fk.pos = 7;
	reply_is(&c, "vCont;s:2", "T05thread:2;");

	/* vKill: OK, the connection stays, no process until vRun or vAttach */
	reply_is(&c, "vKill;a410", "OK");
	tap_is_int(rd(&c, 200), -1, "vKill: the connection stays");
	reply_is(&c, "?", "W00");
	reply_is(&c, "qfThreadInfo", "l");
	reply_is(&c, "g", "E01");
	reply_is(&c, "m20000000,4", "E01");
	fk.resumes = 0;
	reply_is(&c, "vCont;c", "E01");
	reply_is(&c, "bs", "E01");
	tap_is_int(fk.resumes, 0, "no process: nothing resumed");
	tap_is_int(fk.pos, 8, "vKill leaves the replay where it was");

	/* vRun: the beginning of the recording, stopped */
	reply_is(&c, "vRun;", "T05thread:1;");
	tap_is_int(fk.pos, 0, "vRun: back to the beginning");
	reply_is(&c, "qAttached", "0");
	reply_is(&c, "qfThreadInfo", "m1,2,3");
	reply_is(&c, "qC", "QC1");
	reply_is(&c, "g", regs_hex(0, 0));
	reply_is(&c, "vCont;s:3", "T05thread:3;");
	reply_is(&c, "vRun;2f746d702f612e656c66;6172677331", "T05thread:1;");
	tap_is_int(fk.pos, 0, "vRun with a file and arguments: the recording all the same");
	reply_is(&c, "vRun", "E01");

	/* k: no reply, the process only */
	fk.pos = 5;
	cl_frame(&c, "k", 1);
	tap_is_int(rd(&c, 5000), '+', "extended k acked");
	tap_is_int(rd(&c, 200), -1, "extended k: no reply, the connection stays");
	reply_is(&c, "?", "W00");

	/* vAttach;1: where the replay is */
	reply_is(&c, "vAttach;2", "E.raptor: no process 2: the replay is process 1");
	reply_is(&c, "vAttach;x", "E01");
	reply_is(&c, "vAttach;1", "T05thread:1;");
	tap_is_int(fk.pos, 5, "vAttach: the replay where it was");
	reply_is(&c, "qAttached", "1");
	reply_is(&c, "?", "T05thread:1;");

	/* D: OK, detached, connected */
	reply_is(&c, "vCont;s:3", "T05thread:3;");
	reply_is(&c, "D", "OK");
	tap_is_int(rd(&c, 200), -1, "extended D: the connection stays");
	reply_is(&c, "?", "W00");
	reply_is(&c, "vAttach;1", "T05thread:1;");
	tap_is_int(fk.pos, 6, "vAttach after D: the replay where it was, thread 1 reported");
	close_session(&c, &r, "extended");

	/* the next session: attached again, at the same position */
	if (tap_ok(!open_session(&c, &r, srv), "after extended: a session opens")) {
		reply_is(&c, "?", "T05thread:1;");
		tap_is_int(fk.pos, 6, "the position kept across sessions");
		reply_is(&c, "qAttached", "1");
		reply_is(&c, "vKill;1", "OK");
		tap_is_int(rd(&c, 5000), -2, "not extended: vKill closes the connection");
		close_session(&c, &r, "after extended");
	}
}

/* ---- LLDB ------------------------------------------------------------------------- */

/* LLDB's packets: what it is attached to, threads in stop replies, its steps. */
static void test_lldb(struct gdbserver *srv)
{
	static const char *const empty[] = {
	    "QThreadSuffixSupported", "qStructuredDataPlugins", "jThreadsInfo",
	    "jThreadExtendedInfo:",   "qMemoryRegionInfo:0",	"x0,0",
	    "QEnableErrorStrings",    "qGetWorkingDir",		"qVAttachOrWaitSupported",
	    "qRegisterInfo0",	      "qThreadStopInfo1",
	};
	struct server_run r;
	struct client c;
	char want[512];
	size_t i;

	fk_reset_all();
	if (!tap_ok(!open_session(&c, &r, srv), "LLDB: a session opens"))
		return;
	for (i = 0; i < ARRAY_SIZE(empty); i++)
		reply_is(&c, empty[i], "");

	/* the triple: plain arm when the target does not say, else its M profile */
	snprintf(want, sizeof(want),
		 "triple:%s;cputype:12;cpusubtype:0;endian:little;ptrsize:4;"
		 "watchpoint_exceptions_received:before;",
		 hex_of("arm-none-eabi"));
	reply_is(&c, "qHostInfo", want);
	fk.arch = "armv7em";
	snprintf(want, sizeof(want),
		 "triple:%s;cputype:12;cpusubtype:16;endian:little;ptrsize:4;"
		 "watchpoint_exceptions_received:before;",
		 hex_of("armv7em-none-eabi"));
	reply_is(&c, "qHostInfo", want);
	snprintf(want, sizeof(want),
		 "pid:1;triple:%s;cputype:c;cpusubtype:10;endian:little;ptrsize:4;",
		 hex_of("armv7em-none-eabi"));
	reply_is(&c, "qProcessInfo", want);
	fk.arch = "armv7m";
	snprintf(want, sizeof(want),
		 "pid:1;triple:%s;cputype:c;cpusubtype:f;endian:little;ptrsize:4;",
		 hex_of("armv7m-none-eabi"));
	reply_is(&c, "qProcessInfo", want);
	reply_is(&c, "qWatchpointSupportInfo:", "num:32;");

	reply_is(&c, "vCont;s:2", "T05thread:2;");

	/* threads and their pcs in stop replies, once asked for; memory all or nothing */
	reply_is(&c, "m2000007c,8", "7c7d7e7f");
	reply_is(&c, "QListThreadsInStopReply", "OK");
	reply_is(&c, "m2000007c,8", "E01");
	reply_is(&c, "m2000007c,4", "7c7d7e7f");
	reply_is(&c, "m20000080,4", "E01");
	reply_is(&c, "?",
		 "T05thread:2;name:core1;threads:1,2,3;thread-pcs:8000002,8000002,8000002;");
	reply_is(&c, "vCont;s:3",
		 "T05thread:3;name:core2;threads:1,2,3;thread-pcs:8000004,8000004,8000004;");
	reply_is(&c, "Z0,8000014,2", "OK"); /* position 10: core 1 */
	reply_is(&c, "c",
		 "T05thread:2;name:core1;threads:1,2,3;thread-pcs:8000014,8000014,8000014;");
	reply_is(&c, "z0,8000014,2", "OK");

	/* no process (extended mode, killed): no process info */
	reply_is(&c, "!", "OK");
	reply_is(&c, "vKill;1", "OK");
	reply_is(&c, "qProcessInfo", "E01");
	reply_is(&c, "vAttach;1",
		 "T05thread:1;name:core0;threads:1,2,3;thread-pcs:8000014,8000014,8000014;");
	reply_is(&c, "vCont;s:3",
		 "T05thread:3;name:core2;threads:1,2,3;thread-pcs:8000016,8000016,8000016;");
	close_session(&c, &r, "LLDB session");

	/* the next session starts without the thread lists; asked, `?` names thread 1 */
	if (!tap_ok(!open_session(&c, &r, srv), "LLDB: a second session opens"))
		return;
	reply_is(&c, "?", "T05thread:3;");
	reply_is(&c, "QListThreadsInStopReply", "OK");
	reply_is(&c, "?",
		 "T05thread:1;name:core0;threads:1,2,3;thread-pcs:8000016,8000016,8000016;");
	reply_is(&c, "vCont;s:3",
		 "T05thread:3;name:core2;threads:1,2,3;thread-pcs:8000018,8000018,8000018;");
	reply_is(&c, "?",
		 "T05thread:3;name:core2;threads:1,2,3;thread-pcs:8000018,8000018,8000018;");

	/* LLDB's own 0x03 right after a step: the step runs, its stop comes back */
	{
		static const char step[] = "vCont;s:2";
		char frame[32];
		unsigned sum = 0;
		size_t k;
		int n;

		for (k = 0; step[k]; k++)
			sum += (unsigned char)step[k];
		n = snprintf(frame, sizeof(frame), "$%s#%02x\x03", step, sum & 0xff);
		fk.resumes = fk.interrupts = 0;
		cl_raw(&c, frame, (size_t)n);
		tap_is_int(rd(&c, 5000), '+', "LLDB: step and 0x03 in one write: acked");
		tap_ok(!cl_packet(&c) && !strncmp(c.buf, "T05thread:2;", 12),
		       "LLDB: ... the step's stop, not T02 (%s)", c.buf);
		cl_raw(&c, "+", 1);
		tap_ok(fk.resumes == 1 && fk.how == RSP_STEP && fk.pos == 13 && !fk.interrupts,
		       "LLDB: ... the step ran, uninterrupted");
	}
	/* a continue still stops at once */
	fk.resumes = 0;
	fk.spin = 1;
	cl_raw(&c, "$c#63\x03", 6);
	tap_is_int(rd(&c, 5000), '+', "LLDB: c and 0x03 in one write: acked");
	tap_ok(!cl_packet(&c) && !strncmp(c.buf, "T02thread:2;", 12), "LLDB: ... T02");
	cl_raw(&c, "+", 1);
	tap_is_int(fk.resumes, 0, "LLDB: ... without resuming");
	fk.spin = 0;
	close_session(&c, &r, "LLDB session 2");
	fk.arch = NULL;
}

/* ---- random packets --------------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static int draining;

/* Read and drop what the server sends while the random packets go in. */
static void *drain_main(void *arg)
{
	struct client *c = arg;
	char buf[4096];

	while (__atomic_load_n(&draining, __ATOMIC_SEQ_CST)) {
		struct pollfd p = {.fd = c->fd, .events = POLLIN};

		if (poll(&p, 1, 50) > 0 && read(c->fd, buf, sizeof(buf)) <= 0)
			break;
	}
	return NULL;
}

/* Thousands of random, mostly malformed packets: the server answers a sane one after. */
/* ---- FP registers ------------------------------------------------------------------ */

/* The hex of a g reply's FP part: d0..d15, fpscr. */
static const char *fp_hex(int core, int pos)
{
	static char out[(16 * 8 + 4) * 2 + 1];
	size_t n = 0;

	for (int d = 0; d < 17; d++) {
		int lo = 2 * d, bytes = d < 16 ? 8 : 4;

		if (d == 16)
			lo = 32;
		if (!fk_fp_known(pos, lo) || (d < 16 && !fk_fp_known(pos, lo + 1))) {
			memset(out + n, 'x', 2 * (size_t)bytes);
			n += 2 * (size_t)bytes;
			continue;
		}
		for (int k = 0; k < bytes; k++) {
			uint32_t w = fk_fp(core, pos, lo + k / 4);

			snprintf(out + n, 3, "%02x", w >> 8 * (k % 4) & 255);
			n += 2;
		}
	}
	out[n] = 0;
	return out;
}

static void test_fp(void)
{
	struct gdbserver *srv;
	struct server_run r;
	struct client c;
	const char *got, *out, *rep;
	char xml[16384], want[1024];
	int n;

	/* has_fp saying 0: as a target without the ops */
	fk_reset_all();
	srv = gdbserver_new(&fk_fp_ops, NULL);
	if (tap_ok(srv && !open_session(&c, &r, srv), "FP: a server whose has_fp says 0")) {
		n = rsp_tdesc_xml(xml, sizeof(xml), 0, 0);
		got = xchg(&c, "qXfer:features:read:target.xml:0,3fff");
		tap_ok(n > 0 && got[0] == 'l' && !strcmp(got + 1, xml),
		       "has_fp 0: the integer target.xml");
		reply_is(&c, "g", regs_hex(0, 0));
		reply_is(&c, "p17", "E01");
		close_session(&c, &r, "has_fp 0");
	}
	gdbserver_free(srv);

	fk_reset_all();
	fk.fpu = 1;
	srv = gdbserver_new(&fk_fp_ops, NULL);
	if (!tap_ok(srv && !open_session(&c, &r, srv), "FP: a server with FP registers")) {
		gdbserver_free(srv);
		return;
	}
	n = rsp_tdesc_xml(xml, sizeof(xml), 1, 0);
	got = xchg(&c, "qXfer:features:read:target.xml:0,3fff");
	tap_ok(n > 0 && got[0] == 'l' && !strcmp(got + 1, xml), "FP: target.xml in one piece");
	tap_ok(strstr(xml, "<reg name=\"control\" bitsize=\"32\" regnum=\"22\" type=\"int\" "
			   "group=\"system\"/>\n</feature>\n"
			   "<feature name=\"org.gnu.gdb.arm.vfp\">\n"
			   "<reg name=\"d0\" bitsize=\"64\" regnum=\"23\" type=\"ieee_double\" "
			   "group=\"float\" dwarf_regnum=\"256\"/>\n") &&
		   strstr(xml, "<reg name=\"d15\" bitsize=\"64\" regnum=\"38\" "
			       "type=\"ieee_double\" group=\"float\" dwarf_regnum=\"271\"/>\n"
			       "<reg name=\"fpscr\" bitsize=\"32\" regnum=\"39\" type=\"int\" "
			       "group=\"float\"/>\n</feature>\n</target>\n") &&
		   !strstr(xml, "name=\"s0\""),
	       "FP: org.gnu.gdb.arm.vfp after the integer features: d0..d15 (DWARF 256..271), "
	       "fpscr; no s registers");
	{
		char t[16384];

		tap_ok(rsp_tdesc_xml(t, sizeof(t), 0, 0) > 0 && !strncmp(xml, t, strlen(t) - 10),
		       "FP: the integer part of target.xml unchanged");
	}

	/* g: the 23 words, then d0..d15 (s2n low, s2n+1 high) and fpscr; d2 holds unknown s5 */
	fk.pos = 9;
	reply_is(&c, "Hg2", "OK");
	snprintf(want, sizeof(want), "%s", regs_hex(1, 9));
	snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s", fp_hex(1, 9));
	reply_is(&c, "g", want);
	tap_is_int((int)strlen(want), 2 * (23 * 4 + 16 * 8 + 4), "FP: g is 224 bytes");
	reply_is(&c, "p17", "8009000181090001"); /* d0 = s1:s0 of core 1 at 9 */
	reply_is(&c, "p18", "8209000183090001"); /* d1 */
	reply_is(&c, "p19", "xxxxxxxxxxxxxxxx"); /* d2: s5 unknown */
	reply_is(&c, "p26", "9e0900019f090001"); /* d15 = s31:s30 */
	reply_is(&c, "p27", "ff090001");	 /* fpscr */
	reply_is(&c, "p28", "E01");
	reply_is(&c, "p10", "10090001"); /* xpsr, as before */
	/* unknown: every FP register */
	fk.pos = FK_END / 2 + 1;
	reply_is(&c, "p17", "xxxxxxxxxxxxxxxx");
	reply_is(&c, "p27", "xxxxxxxx");
	got = xchg(&c, "g");
	tap_ok(strlen(got) == 448 && strspn(got + 184, "x") == 264,
	       "FP: g with the FP registers unknown: xx for each of their bytes");
	fk.pos = 9;
	/* writes refused as for the integer registers */
	reply_is(&c, "P17=0000000000000000", "E.replay is read-only");
	reply_is(&c, "P27=00000000", "E.replay is read-only");

	/* monitor reg */
	out = monitor(&c, "reg d1", &rep);
	is_str(out, "d1 (/64): 0x0100098301000982\n", "FP: reg d1, 64 bits");
	out = monitor(&c, "reg FPSCR", &rep);
	is_str(out, "fpscr (/32): 0x010009ff\n", "FP: reg FPSCR");
	out = monitor(&c, "reg 25", &rep);
	is_str(out, "d2 (/64): unknown at this position\n", "FP: reg 25 (d2): unknown");
	out = monitor(&c, "reg 40", &rep);
	tap_ok(strstr(out, "no register '40'") && !strcmp(rep, "E01"), "FP: reg 40: none");
	out = monitor(&c, "reg", &rep);
	tap_ok(strstr(out, "(22) control (/3): 0x6\n(23) d0 (/64): 0x0100098101000980\n") &&
		   strstr(out, "(38) d15 (/64): 0x0100099f0100099e\n"
			       "(39) fpscr (/32): 0x010009ff\n") &&
		   !strcmp(rep, "OK"),
	       "FP: reg: d0..d15 and fpscr after control, numbered");
	close_session(&c, &r, "FP");

	/* LLDB's target.xml: s0..s31 too, as halves of the d registers */
	if (tap_ok(!open_session(&c, &r, srv), "FP: an LLDB session")) {
		reply_is(&c, "QListThreadsInStopReply", "OK");
		n = rsp_tdesc_xml(xml, sizeof(xml), 1, 1);
		got = xchg(&c, "qXfer:features:read:target.xml:0,3fff");
		tap_ok(n > 0 && got[0] == 'l' && !strcmp(got + 1, xml),
		       "FP, LLDB: its target.xml in one piece (%d bytes)", n);
		tap_ok(strstr(xml,
			      "<reg name=\"fpscr\" bitsize=\"32\" regnum=\"39\" type=\"int\" "
			      "group=\"float\"/>\n"
			      "<reg name=\"s0\" bitsize=\"32\" regnum=\"40\" type=\"ieee_single\" "
			      "group=\"float\" value_regnums=\"23\" offset=\"92\" "
			      "dwarf_regnum=\"64\"/>\n"
			      "<reg name=\"s1\" bitsize=\"32\" regnum=\"41\" type=\"ieee_single\" "
			      "group=\"float\" value_regnums=\"23\" offset=\"96\" "
			      "dwarf_regnum=\"65\"/>\n") &&
			   strstr(xml,
				  "<reg name=\"s31\" bitsize=\"32\" regnum=\"71\" "
				  "type=\"ieee_single\" group=\"float\" value_regnums=\"38\" "
				  "offset=\"216\" dwarf_regnum=\"95\"/>\n</feature>\n</target>\n"),
		       "FP, LLDB: s0..s31 after fpscr, halves of d0..d15 (offsets in g), DWARF "
		       "64..95");
		close_session(&c, &r, "FP, LLDB");
	}
	/* and the next GDB gets GDB's again */
	if (tap_ok(!open_session(&c, &r, srv), "FP: a GDB session after it")) {
		n = rsp_tdesc_xml(xml, sizeof(xml), 1, 0);
		got = xchg(&c, "qXfer:features:read:target.xml:0,3fff");
		tap_ok(n > 0 && got[0] == 'l' && !strcmp(got + 1, xml) && !strstr(xml, "\"s0\""),
		       "FP: GDB's target.xml, no s registers");
		close_session(&c, &r, "FP, GDB after LLDB");
	}
	gdbserver_free(srv);

	/* the integer server's monitor knows no FP register */
	fk_reset_all();
	srv = gdbserver_new(&fk_ops, NULL);
	if (tap_ok(srv && !open_session(&c, &r, srv), "FP: an integer server")) {
		out = monitor(&c, "reg d0", &rep);
		tap_ok(strstr(out, "no register 'd0'") && !strcmp(rep, "E01"),
		       "integer target: reg d0: none");
		out = monitor(&c, "reg 23", &rep);
		tap_ok(strstr(out, "no register '23'") && !strcmp(rep, "E01"),
		       "integer target: reg 23: none");
		close_session(&c, &r, "integer");
	}
	gdbserver_free(srv);
}

static void test_random(struct gdbserver *srv)
{
	/* packet heads, space-separated; the empty head too */
	static const char heads[] =
	    "m M X g G p P H Hg Hc T Z z Z0, Z2, z4, vCont; vCont? vCont;s: "
	    "qRcmd, qXfer:features:read:target.xml: qXfer:threads:read:: "
	    "qXfer:exec-file:read: qSupported: qThreadExtraInfo, c s bc bs "
	    "qHostInfo qProcessInfo QListThreadsInStopReply qWatchpointSupportInfo "
	    "C S q Q v b ? ";
	static const char alphabet[] = "0123456789abcdefABCDEFxp-,;:.=}*#$\x03 ";
	struct server_run r;
	struct client c;
	pthread_t drain;
	char pkt[300];
	int i, k, n;

	fk_reset_all();
	if (getenv("RSP_TEST_SEED"))
		rng = strtoull(getenv("RSP_TEST_SEED"), NULL, 0) | 1;
	if (getenv("RSP_TEST_LOG"))
		gdbserver_set_log(srv, stderr);
	if (!tap_ok(!open_session(&c, &r, srv), "random: session opens"))
		return;
	reply_is(&c, "QStartNoAckMode", "OK");
	c.noack = 1;
	__atomic_store_n(&draining, 1, __ATOMIC_SEQ_CST);
	if (pthread_create(&drain, NULL, drain_main, &c)) {
		tap_ok(0, "random: drain thread");
		return;
	}
	for (i = 0; i < 20000; i++) {
		const char *h = heads;

		for (k = (int)rnd(44); k > 0 && strchr(h, ' '); k--)
			h = strchr(h, ' ') + 1;
		n = (int)strcspn(h, " ");
		memcpy(pkt, h, (size_t)n);
		for (k = (int)rnd(40); k > 0; k--) {
			pkt[n] = rnd(8) ? alphabet[rnd(sizeof(alphabet) - 1)] : (char)rnd(256);
			if (pkt[n] && strchr("kDKd", pkt[n])) /* k, D (also escaped): the end */
				pkt[n] = 'q';
			n++;
		}
		if (rnd(10))
			cl_frame(&c, pkt, (size_t)n); /* may hold $ # } * and NUL: framing too */
		else
			cl_raw(&c, pkt, (size_t)n);
	}
	/* Close whatever frame the noise left open, then wait for quiet. */
	cl_raw(&c, "#00#00", 6);
	usleep(300000);
	__atomic_store_n(&draining, 0, __ATOMIC_SEQ_CST);
	pthread_join(drain, NULL);
	while (rd(&c, 300) >= 0)
		;
	{
		const char *got = xchg(&c, "qC");

		tap_ok(!strncmp(got, "QC", 2), "random: still answering (%s)", got);
	}
	is_str(xchg(&c, "qfThreadInfo"), "m1,2,3", "random: still sane");
	close_session(&c, &r, "random");
}

/* ---- TCP: listen, a second client, reconnect, stop ---------------------------------- */

static int tcp_connect(int port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_tcp(void)
{
	struct gdbserver *srv = gdbserver_new(&fk_ops, NULL);
	struct server_run r;
	struct client a, b;
	char log[4096];
	FILE *lf = tmpfile();
	int port;

	fk_reset_all();
	if (!tap_ok(srv != NULL, "tcp: a server"))
		return;
	gdbserver_set_log(srv, lf);
	tap_is_int(gdbserver_port(srv), -1, "tcp: no port before listen");
	tap_ok(!gdbserver_listen(srv, NULL, 0), "tcp: listen on 127.0.0.1, port 0");
	port = gdbserver_port(srv);
	tap_ok(port > 0, "tcp: an ephemeral port (%d)", port);
	if (start_server(&r, srv, -1)) {
		tap_ok(0, "tcp: server thread");
		return;
	}
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.fd = tcp_connect(port);
	reply_is(&a, "?", "T05thread:1;");
	reply_is(&a, "Hg2", "OK");

	/* a second GDB: refused clearly, the first undisturbed */
	b.fd = tcp_connect(port);
	cl_frame(&b, "qSupported:swbreak+", 19);
	tap_is_int(rd(&b, 5000), '+', "second client: its packet acked");
	tap_ok(!cl_packet(&b), "second client: a reply");
	is_str(b.buf, "E.raptor: another GDB is already attached to this server",
	       "second client: refused");
	cl_raw(&b, "+", 1);
	tap_is_int(rd(&b, 5000), -2, "second client: closed");
	close(b.fd);
	reply_is(&a, "qC", "QC2");

	/* a second GDB during a long continue */
	fk.spin = 1;
	cl_frame(&a, "c", 1);
	tap_is_int(rd(&a, 5000), '+', "tcp: spinning continue acked");
	b.fd = tcp_connect(port);
	cl_frame(&b, "qSupported", 10);
	tap_is_int(rd(&b, 5000), '+', "second client during a continue: acked");
	tap_ok(!cl_packet(&b) && !strncmp(b.buf, "E.raptor: another GDB", 21),
	       "second client during a continue: refused");
	close(b.fd);
	cl_raw(&a, "\x03", 1);
	tap_ok(!cl_packet(&a) && !strcmp(a.buf, "T02thread:2;"),
	       "tcp: the continue (for the Hg thread) still ^C-able");
	cl_raw(&a, "+", 1);
	fk.spin = 0;

	/* the first leaves, the next is served, at the same position */
	close(a.fd);
	usleep(50000);
	a.fd = tcp_connect(port);
	reply_is(&a, "?", "T05thread:2;");
	reply_is(&a, "qfThreadInfo", "m1,2,3");

	/* gdbserver_stop during a continue: T02, then the server returns */
	fk.spin = 1;
	cl_frame(&a, "vCont;c", 7);
	tap_is_int(rd(&a, 5000), '+', "tcp: continue acked");
	gdbserver_stop(srv);
	tap_ok(!cl_packet(&a) && !strcmp(a.buf, "T02thread:2;"), "stop: the continue interrupted");
	cl_raw(&a, "+", 1);
	tap_ok(!join_server(&r, 5000) && r.rc == 0, "stop: gdbserver_serve returns 0");
	fk.spin = 0;
	close(a.fd);
	gdbserver_free(srv);

	if (lf) {
		size_t n;

		rewind(lf);
		n = fread(log, 1, sizeof(log) - 1, lf);
		log[n] = 0;
		tap_ok(strstr(log, "rsp: <- ?\n") && strstr(log, "rsp: -> T05thread:1;\n") &&
			   strstr(log, "refusing"),
		       "the log shows packets in and out, and the refusal");
		fclose(lf);
	}
}

/* ---- the real GDB -------------------------------------------------------------------- */

static void test_gdb(void)
{
	static const char gdb[] = "/usr/bin/gdb-multiarch";
	struct gdbserver *srv;
	struct server_run r;
	char cmd[2048], out[65536];
	size_t n = 0;
	FILE *p;
	int port, status;

	if (access(gdb, X_OK)) {
		tap_ok(1, "# SKIP gdb-multiarch is not installed");
		return;
	}
	fk_reset_all();
	srv = gdbserver_new(&fk_ops, NULL);
	if (!tap_ok(srv && !gdbserver_listen(srv, "127.0.0.1", 0), "gdb: a server") ||
	    start_server(&r, srv, -1)) {
		gdbserver_free(srv);
		return;
	}
	port = gdbserver_port(srv);
	if (getenv("RSP_TEST_LOG"))
		gdbserver_set_log(srv, stderr);
	snprintf(cmd, sizeof(cmd),
		 "%s -nx -batch -ex 'set confirm off' -ex 'target remote 127.0.0.1:%d' "
		 "-ex 'info registers' -ex 'info registers primask' -ex 'p $control' "
		 "-ex 'info threads' -ex 'stepi' -ex 'p $pc' -ex 'thread 3' -ex 'stepi' "
		 "-ex 'reverse-stepi' -ex 'p $pc' -ex 'watch *(int *)0x200000b0' -ex 'continue' "
		 "-ex 'reverse-continue' -ex 'delete' -ex 'reverse-continue' "
		 "-ex 'set $r0 = 1' -ex 'x/2wx 0x2000007c' -ex 'monitor targets' "
		 "-ex 'monitor frob' -ex 'detach' 2>&1",
		 gdb, port);
	p = popen(cmd, "r");
	if (p) {
		size_t k;

		while (n < sizeof(out) - 1 && (k = fread(out + n, 1, sizeof(out) - 1 - n, p)) > 0)
			n += k;
		status = pclose(p);
	} else {
		status = -1;
	}
	out[n] = 0;
	gdbserver_stop(srv);
	tap_ok(!join_server(&r, 5000), "gdb: the server stops");
	gdbserver_free(srv);
	if (!tap_ok(status == 0, "gdb: gdb-multiarch ran (status %d)", status))
		tap_diag("%s", out);
	{
		/* the fake names no ELF (exec_file), and GDB says so */
		char *w = strstr(out, "warning: No executable has been specified");

		if (w)
			memset(w, '_', strlen("warning"));
		if (!tap_ok(!strstr(out, "warning") && !strstr(out, "Warning") &&
				!strstr(out, "not available"),
			    "gdb: no warnings, no unavailable registers"))
			tap_diag("%s", out);
	}
#define GDB_HAS(text, name)                                                                        \
	do {                                                                                       \
		if (!tap_ok(strstr(out, text) != NULL, "gdb: %s", name))                           \
			tap_diag("'%s' not in:\n%s", text, out);                                   \
	} while (0)
	GDB_HAS("r12            <unavailable>", "info registers: r12 unavailable");
	GDB_HAS("xpsr           0x10", "info registers: xpsr");
	GDB_HAS("msp            0x11", "info registers: msp");
	GDB_HAS("primask        0x1 ", "info registers primask");
	GDB_HAS("$1 = 22", "p $control");
	GDB_HAS("Thread 3 \"core2\"", "info threads: named cores");
	GDB_HAS("$2 = (void (*)()) 0x8000002", "stepi: pc advanced");
	GDB_HAS("[Switching to thread 3 (Thread 3)]", "thread 3");
	GDB_HAS("$3 = (void (*)()) 0x8000002", "reverse-stepi: pc back");
	GDB_HAS("Hardware watchpoint 1: *(int *)0x200000b0", "watch");
	GDB_HAS("Old value = -1280134736\nNew value = 4", "watchpoint triggered");
	GDB_HAS("No more reverse-execution history.", "reverse-continue to the beginning");
	GDB_HAS("Could not write register \"r0\"; remote failure reply 'E.replay is read-only'",
		"set $r0: a clear refusal");
	GDB_HAS("0x2000007c:\t0x7f7e7d7c\tCannot access memory at address 0x20000080",
		"x over the unknown hole");
	GDB_HAS(" raptor.core1       cortex_m   little replay             halted",
		"monitor targets");
	GDB_HAS("raptor: unknown monitor command 'frob' (try 'monitor help')",
		"monitor frob: a clear message");
#undef GDB_HAS
}

static struct gdbserver *manual;

static void on_signal(int sig)
{
	gdbserver_stop(manual);
}

/* RSP_TEST_SERVE=PORT: serve the fake on 127.0.0.1:PORT until Ctrl-C, logging to stderr. */
static int serve_manually(const char *port)
{
	manual = gdbserver_new(&fk_ops, NULL);
	fk_reset_all();
	fk.exits = getenv("RSP_TEST_EXITS") != NULL;
	fk.fail = getenv("RSP_TEST_FAIL") != NULL;
	fk.spin = getenv("RSP_TEST_SPIN") != NULL;
	if (!manual || gdbserver_listen(manual, NULL, atoi(port)))
		return 1;
	gdbserver_set_log(manual, stderr);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	fprintf(stderr, "serving the fake on port %d\n", gdbserver_port(manual));
	return gdbserver_serve(manual) ? 1 : 0;
}

int main(void)
{
	struct gdbserver *srv;

	signal(SIGPIPE, SIG_IGN);
	if (getenv("RSP_TEST_SERVE"))
		return serve_manually(getenv("RSP_TEST_SERVE"));
	test_framing();
	fk_reset_all();
	srv = gdbserver_new(&fk_ops, NULL);
	if (!tap_ok(srv != NULL, "gdbserver_new"))
		return tap_done();
	tap_is_int(gdbserver_port(srv), -1, "not listening");
	test_basics(srv);
	test_resume(srv);
	test_monitor(srv);
	test_extended(srv);
	test_lldb(srv);
	test_random(srv);
	gdbserver_free(srv);
	test_fp();
	test_tcp();
	test_gdb();
	return tap_done();
}

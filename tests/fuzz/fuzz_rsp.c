/*
 * fuzz_rsp: the GDB remote protocol server (server/rsp.c's framing and
 * server/gdbserver.c's dispatcher, monitor commands and resume with its
 * watcher thread) on arbitrary client bytes, against a fake target like
 * tests/unit/rsp_test.c's: cores whose registers (FP ones too) and
 * memory are functions of a position, a hole of unknown memory, break- and
 * watchpoints kept, resume moving the position and reporting hits, ends,
 * failures, exits.
 *
 * Input: the bytes a client sends. A new server serves one session on a
 * socketpair; a client thread writes the input followed by two "$k#6b"
 * (whatever state the input leaves the parser in, the second one ends a
 * plain session), then shuts its side for writing as GDB does when it goes
 * (that ends an extended-mode session, which k does not), and reads
 * everything the server says. The session must end
 * (libFuzzer's -timeout catches a hang); the sanitizers catch the rest,
 * and a reply must be well framed: '$', no raw '#' or '$' inside, '#' and
 * two hex digits of the right checksum.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/gdbserver.h"
#include "server/target.h"
#include "tests/fuzz/fuzz_util.h"
#include "util/util.h"

/* ---- the fake target ------------------------------------------------------ */

#define FK_CORES 3
#define FK_RAM 0x20000000u
#define FK_RAM_SIZE 512u
#define FK_HOLE 0x80u /* RAM bytes [0x80, 0x90) are unknown */
#define FK_HOLE_END 0x90u
#define FK_FLASH 0x08000000u
#define FK_FLASH_SIZE 4096u
#define FK_END 200 /* the last position */
#define FK_POINTS 16

struct fk_point {
	enum rsp_point kind;
	uint32_t addr, len;
};

static struct {
	int pos;
	struct fk_point points[FK_POINTS];
	int npoints;
	int intr;   /* interrupt() called (atomic) */
	int broken; /* resume fails from this position on (0: never) */
} fk;

static int fk_ncores(void *t)
{
	return FK_CORES;
}

static int fk_read_regs(void *t, int core, uint32_t *v, uint8_t *known, char *why)
{
	if (core < 0 || core >= FK_CORES) {
		snprintf(why, RSP_WHY_MAX, "no core %d", core);
		return -1;
	}
	for (int i = 0; i < RSP_NREGS; i++) {
		v[i] = i == 15 ? FK_FLASH + 2u * (uint32_t)fk.pos
			       : (uint32_t)core << 24 | (uint32_t)fk.pos << 8 | (uint32_t)i;
		known[i] = i != 12;
	}
	return 0;
}

/* An FPU: d registers and fpscr in g, p and monitor reg; s5 (so d2) unknown. */
static int fk_has_fp(void *t)
{
	return 1;
}

static int fk_read_fp(void *t, int core, uint32_t *v, uint8_t *known, char *why)
{
	if (core < 0 || core >= FK_CORES) {
		snprintf(why, RSP_WHY_MAX, "no core %d", core);
		return -1;
	}
	for (int i = 0; i < RSP_NFPREGS; i++) {
		v[i] = (uint32_t)core << 24 | (uint32_t)fk.pos << 8 | 0x80u | (uint32_t)i;
		known[i] = i != 5;
	}
	return 0;
}

static int fk_read_mem(void *t, int core, uint32_t addr, uint8_t *buf, uint32_t len, char *why)
{
	uint64_t end = (uint64_t)addr + len;

	if (core < 0 || core >= FK_CORES) {
		snprintf(why, RSP_WHY_MAX, "no core %d", core);
		return -1;
	}
	if (addr >= FK_FLASH && end <= FK_FLASH + FK_FLASH_SIZE) {
		for (uint32_t i = 0; i < len; i++)
			buf[i] = (uint8_t)(addr + i);
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
	for (uint32_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(addr + i + (uint32_t)fk.pos); /* # $ } * among them */
	return 0;
}

static int fk_point(void *t, enum rsp_point kind, uint32_t addr, uint32_t len, int on, char *why)
{
	int i;

	if ((unsigned)kind > RSP_WP_ACCESS) {
		snprintf(why, RSP_WHY_MAX, "kind %d passed to the target", (int)kind);
		abort(); /* the server must filter them */
	}
	if (addr == 0xdead) {
		snprintf(why, RSP_WHY_MAX, "no such place");
		return -1;
	}
	for (i = 0; i < fk.npoints; i++)
		if (fk.points[i].kind == kind && fk.points[i].addr == addr)
			break;
	if (on && i == fk.npoints) {
		if (fk.npoints == FK_POINTS) {
			snprintf(why, RSP_WHY_MAX, "too many");
			return -1;
		}
		fk.points[fk.npoints++] = (struct fk_point){kind, addr, len};
	} else if (!on) {
		if (i == fk.npoints) {
			snprintf(why, RSP_WHY_MAX, "no such point");
			return -1;
		}
		fk.points[i] = fk.points[--fk.npoints];
	}
	return 0;
}

static int fk_hit(struct rsp_stop *st)
{
	uint32_t pc = FK_FLASH + 2u * (uint32_t)fk.pos, a = FK_RAM + 4u * (uint32_t)(fk.pos % 64);

	for (int i = 0; i < fk.npoints; i++) {
		struct fk_point *p = &fk.points[i];

		if (p->kind <= RSP_BP_HW ? p->addr == pc
					 : a >= p->addr && a - p->addr < (uint64_t)p->len) {
			st->kind = p->kind <= RSP_BP_HW ? RSP_STOP_BREAK : RSP_STOP_WATCH;
			st->point = p->kind;
			st->addr = a;
			st->core = fk.pos % FK_CORES;
			return 1;
		}
	}
	return 0;
}

static int fk_resume(void *t, enum rsp_resume how, int core, int alone, int reverse,
		     struct rsp_stop *st, char *why)
{
	st->core = core;
	if (core < -1 || core >= FK_CORES) {
		fprintf(stderr, "fuzz: resume of core %d\n", core);
		abort(); /* the server checks thread ids */
	}
	for (;;) {
		if (__atomic_exchange_n(&fk.intr, 0, __ATOMIC_SEQ_CST)) {
			st->kind = RSP_STOP_INTERRUPT;
			return 0;
		}
		if (fk.broken && fk.pos >= fk.broken && !reverse) {
			snprintf(why, RSP_WHY_MAX, "cf.bin: core %d, bit %d: damaged", core,
				 fk.pos);
			return -1;
		}
		if (reverse ? fk.pos == 0 : fk.pos == FK_END) {
			st->kind = reverse	? RSP_STOP_BEGIN
				   : fk.pos & 1 ? RSP_STOP_END
						: RSP_STOP_EXITED;
			st->status = fk.pos;
			return 0;
		}
		fk.pos += reverse ? -1 : 1;
		if (how == RSP_STEP) {
			st->kind = RSP_STOP_STEP;
			return 0;
		}
		if (fk_hit(st))
			return 0;
	}
}

static void fk_interrupt(void *t)
{
	__atomic_store_n(&fk.intr, 1, __ATOMIC_SEQ_CST);
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
		out(ctx, "fake commands:\n  info\n  break N\n  fail\n");
		return 0;
	}
	if (!strcmp(cmd, "info")) {
		snprintf(buf, sizeof(buf), "fake at position %d\n", fk.pos);
		out(ctx, buf);
		return 0;
	}
	if (!strncmp(cmd, "break ", 6)) {
		fk.broken = atoi(cmd + 6);
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
	return "/nonexistent/program.elf";
}

static const struct rsp_target_ops fk_ops = {
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
};

/* ---- the client ------------------------------------------------------------- */

static const char trailer[] = "$k#6b$k#6b";

struct client {
	int fd;
	const uint8_t *data;
	size_t size;
	/* what the server said: packets are checked as they come */
	int st; /* 0 outside a packet, 1 in it, 2 and 3 in the checksum */
	unsigned char sum, want;
};

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* The server's bytes: packets must be well framed, with the right checksum. */
static void check_output(struct client *c, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = p[i];
		int d;

		switch (c->st) {
		case 0:
			if (ch == '$') {
				c->st = 1;
				c->sum = 0;
			} else if (ch != '+' && ch != '-') {
				fprintf(stderr, "fuzz: the server sent 0x%02x between packets\n",
					ch);
				abort();
			}
			break;
		case 1:
			if (ch == '#') {
				c->st = 2;
			} else if (ch == '$') {
				fprintf(stderr, "fuzz: the server sent a raw '$' in a packet\n");
				abort();
			} else {
				c->sum += ch;
			}
			break;
		case 2:
		case 3:
			d = hexval(ch);
			if (d < 0) {
				fprintf(stderr, "fuzz: checksum digit 0x%02x\n", ch);
				abort();
			}
			c->want = (unsigned char)(c->want << 4 | d);
			if (c->st++ == 3) {
				if (c->want != c->sum) {
					fprintf(stderr,
						"fuzz: checksum %02x, payload sums to %02x\n",
						c->want, c->sum);
					abort();
				}
				c->st = 0;
			}
			break;
		}
	}
}

/*
 * Write the input and the trailer, then end of file; read and check every
 * reply, until the server closes.
 */
static void *client_main(void *arg)
{
	struct client *c = arg;
	size_t off = 0, total = c->size + sizeof(trailer) - 1;
	unsigned char buf[65536];
	int shut = 0;

	for (;;) {
		struct pollfd p = {.fd = c->fd, .events = POLLIN | (off < total ? POLLOUT : 0)};
		ssize_t n;

		if (off == total && !shut) {
			shutdown(c->fd, SHUT_WR);
			shut = 1;
		}
		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			abort();
		}
		if (p.revents & POLLIN) {
			n = read(c->fd, buf, sizeof(buf));
			if (n <= 0)
				break; /* the session is over */
			check_output(c, buf, (size_t)n);
		} else if (p.revents & POLLOUT) {
			const uint8_t *src = off < c->size
						 ? c->data + off
						 : (const uint8_t *)trailer + (off - c->size);
			size_t len = off < c->size ? c->size - off : total - off;

			n = send(c->fd, src, len, MSG_NOSIGNAL);
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				off = total; /* the server hung up first (k or D in the input) */
			else if (n > 0)
				off += (size_t)n;
		} else if (p.revents) {
			break;
		}
	}
	return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	signal(SIGPIPE, SIG_IGN);
	error_quiet(1);
	if (getenv("FUZZ_RSP_LOG"))
		setvbuf(stderr, NULL, _IOLBF, 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gdbserver *srv;
	struct client c = {.data = data, .size = size};
	pthread_t thread;
	int sv[2];

	memset(&fk, 0, sizeof(fk));
	srv = gdbserver_new(&fk_ops, NULL);
	if (!srv)
		abort();
	if (getenv("FUZZ_RSP_LOG"))
		gdbserver_set_log(srv, stderr);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		abort();
	c.fd = sv[1];
	if (pthread_create(&thread, NULL, client_main, &c))
		abort();
	if (gdbserver_serve_fd(srv, sv[0]))
		abort();
	pthread_join(thread, NULL);
	close(sv[1]);
	gdbserver_free(srv);
	if (c.st) {
		fprintf(stderr, "fuzz: the session ended inside a reply packet\n");
		abort();
	}
	return 0;
}

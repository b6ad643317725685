#define _GNU_SOURCE /* accept4, pipe2 */
#include "server/gdbserver.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server/rsp.h"
#include "server/tdesc.h"

#define MAX_REFUSALS 4		/* second clients being turned away at once */
#define REFUSAL_TIMEOUT_MS 5000 /* ... each given this long to say something */
#define CONSOLE_CHUNK 1024	/* text bytes per 'O' packet */
#define MD_MAX_BYTES (1u << 20) /* monitor mdw/mdh/mdb */
#define MON_MAX_ARGS 8
#define XML_MAX 16384		     /* target.xml, the thread list */
#define MEM_MAX (RSP_PACKET_MAX / 2) /* bytes per `m` reply */
#define WATCHPOINTS_TOLD 32	     /* qWatchpointSupportInfo: the replay has no limit */

static const char read_only[] = "E.replay is read-only";
static const char refusal_text[] = "E.raptor: another GDB is already attached to this server";

/*
 * A second client being refused: its first packet gets refusal_text. Unless
 * the attached GDB turns out to have hung up by then (its hang-up and the
 * newcomer's connection can reach us in either order): the newcomer is
 * then the next GDB, handed over with the bytes read so far (head).
 */
struct refusal {
	int fd; /* -1: a free slot */
	int st; /* 0 before '$', 1 in it, 2 and 3 after '#', 4 complete, 5 draining */
	long long deadline_ms;
	size_t nhead; /* bytes in head; more were read once it is full */
	char head[512];
};

struct gdbserver {
	const struct rsp_target_ops *ops;
	void *t;
	int ncores;
	int nregs; /* registers shown: RSP_NREGS, RSP_NREGS_FP with an FPU (ops->has_fp) */
	FILE *log;
	int lfd, port;
	int stop_pipe[2]; /* gdbserver_stop() writes a byte, nobody reads it */
	int done_pipe[2]; /* tells the watcher thread that resume() returned */
	int stop;	  /* set by gdbserver_stop(): read and written atomically */
	struct refusal refusals[MAX_REFUSALS];
	int lfd_polled; /* refusal_pollfds() put the listening socket first */
	int closing;	/* the attached client hung up: a new connection is the next
			 * GDB, accepted after the session, not a second client */
	int next_fd;	/* a newcomer handed over (see struct refusal), or -1 */
	size_t next_nhead;
	char next_head[512];

	/* The session. */
	struct rsp_conn *conn;
	int end;	      /* end the session after this packet */
	int noreply;	      /* this packet gets no reply (k) */
	int gen, cont;	      /* Hg, Hc thread ids: 0 any, -1 all */
	int extended;	      /* GDB sent `!` (target extended-remote) */
	int gone;	      /* extended: killed or detached, until vRun or vAttach */
	int created;	      /* the process came from vRun (qAttached 0), not attach */
	int last;	      /* thread id of the last stop (kept across sessions) */
	int swbreak, hwbreak; /* GDB's qSupported offered them */
	int lldb;	      /* the client is LLDB: it sent QListThreadsInStopReply (GDB never
			       * does); stop replies list the threads, `m` is all or nothing */
	int stopped;	      /* a stop reply went out this session (rep_stop) */
	char why[RSP_WHY_MAX];

	char rep[RSP_PACKET_MAX + 1]; /* the reply being built */
	size_t rlen;
	int rover; /* it outgrew rep: E01 instead */
	char con[CONSOLE_CHUNK];
	size_t clen; /* console text not sent yet */
	uint8_t mem[MEM_MAX];

	char xml[XML_MAX], xml_lldb[XML_MAX]; /* target.xml for GDB, for LLDB (s->lldb) */
	size_t xml_len, xml_lldb_len;
};

/* ---- helpers ----------------------------------------------------------- */

/* A line in the log, if any. */
static void note(struct gdbserver *s, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void note(struct gdbserver *s, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	if (!s->log)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	fprintf(s->log, "gdbserver: %s\n", line); /* one call: whole lines from both threads */
	fflush(s->log);
}

static int stopping(struct gdbserver *s)
{
	return __atomic_load_n(&s->stop, __ATOMIC_SEQ_CST);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* A hex number of at most 32 bits at *p (one digit at least); advances *p. 0 / -1. */
static int parse_hex(const char **p, uint32_t *v)
{
	const char *q = *p;
	uint64_t x = 0;
	int d;

	if (hexval(*q) < 0)
		return -1;
	while ((d = hexval(*q)) >= 0) {
		x = x * 16 + (uint64_t)d;
		if (x > UINT32_MAX)
			return -1;
		q++;
	}
	*v = (uint32_t)x;
	*p = q;
	return 0;
}

/* A thread id at *p: "-1", "0", hex, or multiprocess "p<pid>.<tid>". 0 / -1. */
static int parse_tid(const char **p, int *tid)
{
	uint32_t v;

	if (**p == 'p') {
		const char *q = *p + 1;

		if (q[0] == '-' && q[1] == '1')
			q += 2;
		else if (parse_hex(&q, &v))
			return -1;
		if (*q != '.') {
			*tid = -1;
			*p = q;
			return 0;
		}
		*p = q + 1;
	}
	if ((*p)[0] == '-' && (*p)[1] == '1') {
		*tid = -1;
		*p += 2;
		return 0;
	}
	if (parse_hex(p, &v) || v > 0x7fffffff)
		return -1;
	*tid = (int)v;
	return 0;
}

static int valid_tid(const struct gdbserver *s, int tid)
{
	return tid >= 1 && tid <= s->ncores;
}

/* The thread register and memory packets act for. */
static int gen_tid(const struct gdbserver *s)
{
	return s->gen > 0 ? s->gen : s->last;
}

/*
 * The thread c, s, bc and bs act for. Hc0 (any) or Hc-1 (all) is how GDB
 * resumes every thread (scheduler-locking off), and then the thread it
 * steps is the one the user selected, which GDB reads through Hg: so the
 * Hg thread (after a stop, the reported one), not the last reported.
 */
static int cont_tid(const struct gdbserver *s)
{
	return s->cont > 0 ? s->cont : gen_tid(s);
}

/* The target's ELF file, or NULL. */
static const char *exec_file(struct gdbserver *s)
{
	return s->ops->exec_file ? s->ops->exec_file(s->t) : NULL;
}

/* The target's reason after a failed call, never empty. */
static const char *why(struct gdbserver *s)
{
	s->why[RSP_WHY_MAX - 1] = 0;
	return s->why[0] ? s->why : "no reason given";
}

/*
 * Every register of core the server shows (s->nregs, tdesc.h's numbers):
 * v[i] and known[i]; a d register is the pair of s registers it holds (s2n
 * the low word, s2n+1 the high one), known when both are. 0 / -1 (s->why).
 */
static int read_regs(struct gdbserver *s, int core, uint64_t v[RSP_NREGS_FP],
		     uint8_t known[RSP_NREGS_FP])
{
	uint32_t w[RSP_NREGS] = {0}, f[RSP_NFPREGS] = {0};
	uint8_t kw[RSP_NREGS] = {0}, kf[RSP_NFPREGS] = {0};
	int i;

	s->why[0] = 0;
	if (s->ops->read_regs(s->t, core, w, kw, s->why))
		return -1;
	for (i = 0; i < RSP_NREGS; i++) {
		v[i] = w[i];
		known[i] = kw[i];
	}
	if (s->nregs == RSP_NREGS)
		return 0;
	if (s->ops->read_fp(s->t, core, f, kf, s->why))
		return -1;
	for (i = 0; i < 16; i++) {
		v[RSP_REG_D0 + i] = f[2 * i] | (uint64_t)f[2 * i + 1] << 32;
		known[RSP_REG_D0 + i] = kf[2 * i] && kf[2 * i + 1];
	}
	v[RSP_REG_FPSCR] = f[32];
	known[RSP_REG_FPSCR] = kf[32];
	return 0;
}

/* ---- the reply ----------------------------------------------------------- */

static void rep_add(struct gdbserver *s, const void *p, size_t n)
{
	if (s->rlen + n > RSP_PACKET_MAX) {
		s->rover = 1;
		return;
	}
	memcpy(s->rep + s->rlen, p, n);
	s->rlen += n;
}

static void rep_str(struct gdbserver *s, const char *str)
{
	rep_add(s, str, strlen(str));
}

static void rep_printf(struct gdbserver *s, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void rep_printf(struct gdbserver *s, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf))
		s->rover = 1;
	else
		rep_add(s, buf, (size_t)n);
}

static void rep_hex(struct gdbserver *s, const void *p, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const uint8_t *b = p;
	size_t i;

	if (s->rlen + 2 * n > RSP_PACKET_MAX) {
		s->rover = 1;
		return;
	}
	for (i = 0; i < n; i++) {
		s->rep[s->rlen++] = hex[b[i] >> 4];
		s->rep[s->rlen++] = hex[b[i] & 15];
	}
}

/* Replace the reply with error code: see the header for the codes. */
static void rep_err(struct gdbserver *s, int code)
{
	s->rlen = 0;
	s->rover = 0;
	rep_printf(s, "E%02x", code);
}

/* ---- console output ('O' packets) --------------------------------------- */

static void con_flush(struct gdbserver *s)
{
	char pkt[1 + 2 * CONSOLE_CHUNK];
	static const char hex[] = "0123456789abcdef";
	size_t i, n = 0;

	if (!s->clen)
		return;
	pkt[n++] = 'O';
	for (i = 0; i < s->clen; i++) {
		pkt[n++] = hex[(uint8_t)s->con[i] >> 4];
		pkt[n++] = hex[(uint8_t)s->con[i] & 15];
	}
	s->clen = 0;
	if (rsp_send(s->conn, pkt, n))
		s->end = 1;
}

static void con_write(struct gdbserver *s, const char *text, size_t n)
{
	while (n) {
		size_t k = sizeof(s->con) - s->clen;

		if (k > n)
			k = n;
		memcpy(s->con + s->clen, text, k);
		s->clen += k;
		text += k;
		n -= k;
		if (s->clen == sizeof(s->con))
			con_flush(s);
	}
}

static void con_printf(struct gdbserver *s, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void con_printf(struct gdbserver *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	con_write(s, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

/* ops->monitor's out(): the target's text goes to GDB's console. */
static void target_out(void *ctx, const char *text)
{
	con_write(ctx, text, strlen(text));
}

/* ---- second clients ------------------------------------------------------ */

static void refusal_close(struct gdbserver *s, struct refusal *r)
{
	close(r->fd);
	r->fd = -1;
	note(s, "second client closed");
}

/* A connection is waiting on the listening socket while a GDB is attached. */
static void refusal_accept(struct gdbserver *s)
{
	int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	int i;

	if (fd < 0)
		return;
	for (i = 0; i < MAX_REFUSALS; i++)
		if (s->refusals[i].fd < 0)
			break;
	if (i == MAX_REFUSALS) {
		note(s, "too many second clients: closed one at once");
		close(fd);
		return;
	}
	s->refusals[i].fd = fd;
	s->refusals[i].st = 0;
	s->refusals[i].nhead = 0;
	s->refusals[i].deadline_ms = now_ms() + REFUSAL_TIMEOUT_MS;
	note(s, "a second client connected while a GDB is attached: refusing it");
}

/* Whether the attached GDB hung up: its socket at end of file, nothing unread. */
static int attached_gone(struct gdbserver *s)
{
	ssize_t n;
	char b;

	if (s->closing)
		return 1;
	if (!s->conn || rsp_closed(s->conn))
		return 1;
	n = recv(rsp_fd(s->conn), &b, 1, MSG_PEEK | MSG_DONTWAIT);
	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* The newcomer in r becomes the next GDB (the attached one is gone). */
static void refusal_hand_over(struct gdbserver *s, struct refusal *r)
{
	int fl = fcntl(r->fd, F_GETFL);

	if (s->next_fd >= 0 || fl < 0 || fcntl(r->fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		refusal_close(s, r);
		return;
	}
	s->next_fd = r->fd;
	s->next_nhead = r->nhead;
	memcpy(s->next_head, r->head, r->nhead);
	r->fd = -1;
	s->closing = 1;
	note(s, "the attached GDB hung up: the newcomer is the next one");
}

/* Its socket is readable: read, and answer once its first packet is in. */
static void refusal_read(struct gdbserver *s, struct refusal *r)
{
	char buf[512], reply[sizeof(refusal_text) + 8];
	unsigned char sum = 0;
	ssize_t n, i;
	size_t k;

	n = read(r->fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		refusal_close(s, r);
		return;
	}
	if (r->st < 4) {
		k = (size_t)n < sizeof(r->head) - r->nhead ? (size_t)n : sizeof(r->head) - r->nhead;
		memcpy(r->head + r->nhead, buf, k);
		r->nhead += k;
	}
	for (i = 0; i < n && r->st < 4; i++) {
		if (r->st == 0 && buf[i] == '$')
			r->st = 1;
		else if (r->st == 1 && buf[i] == '#')
			r->st = 2;
		else if (r->st >= 2)
			r->st++;
	}
	if (r->st != 4)
		return;
	/* every byte read is in head, and the attached GDB went away meanwhile */
	if (r->nhead < sizeof(r->head) && attached_gone(s)) {
		refusal_hand_over(s, r);
		return;
	}
	/* Drain until GDB closes: closing with unread input would reset the
	 * connection and could destroy the reply before GDB reads it. */
	r->st = 5;
	for (k = 0; refusal_text[k]; k++)
		sum += (unsigned char)refusal_text[k];
	k = (size_t)snprintf(reply, sizeof(reply), "+$%s#%02x", refusal_text, sum);
	if (send(r->fd, reply, k, MSG_NOSIGNAL) < 0 || shutdown(r->fd, SHUT_WR))
		refusal_close(s, r);
}

/*
 * Add the listening socket and the second clients to a poll set; lower
 * *timeout to the nearest refusal deadline. The number of entries added.
 */
static int refusal_pollfds(struct gdbserver *s, struct pollfd *p, int *timeout)
{
	long long now = now_ms();
	int i, n = 0;

	s->lfd_polled = s->lfd >= 0 && !s->closing;
	if (s->lfd_polled)
		p[n++] = (struct pollfd){.fd = s->lfd, .events = POLLIN};
	for (i = 0; i < MAX_REFUSALS; i++) {
		struct refusal *r = &s->refusals[i];
		long long left;

		if (r->fd < 0)
			continue;
		left = r->deadline_ms - now;
		if (left < 0)
			left = 0;
		if (*timeout < 0 || left < *timeout)
			*timeout = (int)left;
		p[n++] = (struct pollfd){.fd = r->fd, .events = POLLIN};
	}
	return n;
}

/* Act on the poll results of the entries refusal_pollfds() added. */
static void refusal_handle(struct gdbserver *s, const struct pollfd *p, int n)
{
	long long now = now_ms();
	int i, k = 0;

	if (s->lfd_polled) {
		/* not once the attached client hung up (in this very poll, maybe):
		 * the newcomer is then the next GDB, gdbserver_serve() accepts it */
		if (p[k].revents && !s->closing)
			refusal_accept(s);
		k++;
	}
	for (i = 0; i < MAX_REFUSALS && k < n; i++) {
		struct refusal *r = &s->refusals[i];

		if (r->fd < 0 || p[k].fd != r->fd)
			continue;
		if (p[k].revents)
			refusal_read(s, r);
		k++;
		if (r->fd >= 0 && now >= r->deadline_ms)
			refusal_close(s, r);
	}
}

/* ---- running the target, and Ctrl-C ---------------------------------------- */

/*
 * While resume() runs, the watcher thread owns the connection: it reads
 * what GDB sends, and a 0x03, a hang-up or gdbserver_stop() becomes one
 * ops->interrupt(). It calls interrupt() only while resume() runs (the
 * lock makes "still running?" and the call one step), so no request is
 * left pending for the next resume.
 */
struct watcher {
	struct gdbserver *s;
	pthread_mutex_t lock;
	int running; /* resume() has not returned */
	int kicked;  /* interrupt() was called */
	int hangup;  /* the client went away */
	int steady;  /* 0x03 does not stop this resume (an LLDB step: do_resume) */
};

static void kick(struct watcher *w)
{
	pthread_mutex_lock(&w->lock);
	if (w->running && !w->kicked) {
		w->kicked = 1;
		w->s->ops->interrupt(w->s->t);
	}
	pthread_mutex_unlock(&w->lock);
}

static void *watch_main(void *arg)
{
	struct watcher *w = arg;
	struct gdbserver *s = w->s;
	int full = 0, stop_seen = 0;

	for (;;) {
		struct pollfd p[3 + 1 + MAX_REFUSALS];
		int n = 0, ic = -1, is = -1, timeout = -1, r;

		p[n++] = (struct pollfd){.fd = s->done_pipe[0], .events = POLLIN};
		if (!stop_seen) {
			is = n;
			p[n++] = (struct pollfd){.fd = s->stop_pipe[0], .events = POLLIN};
		}
		if (!w->hangup && !full) {
			ic = n;
			p[n++] = (struct pollfd){.fd = rsp_fd(s->conn), .events = POLLIN};
		}
		r = refusal_pollfds(s, p + n, &timeout);
		if (poll(p, (nfds_t)(n + r), timeout) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].revents)
			break;
		if (is >= 0 && p[is].revents) {
			stop_seen = 1;
			kick(w);
		}
		if (ic >= 0 && p[ic].revents) {
			int k = rsp_fill(s->conn);

			if (k < 0) {
				w->hangup = 1;
				s->closing = 1;
				kick(w);
			} else if (!k) {
				full = 1;
			}
			while (rsp_take_interrupt(s->conn))
				if (!w->steady)
					kick(w);
		}
		refusal_handle(s, p + n, r);
	}
	return NULL;
}

/*
 * What LLDB asked stop replies to add (QListThreadsInStopReply): the
 * stopped thread's name, every thread, and their pcs (left out if one is
 * unknown), so that it need not ask for each after every stop.
 */
static void rep_stop_threads(struct gdbserver *s, int tid)
{
	uint32_t v[RSP_NREGS], pcs[8];
	uint8_t known[RSP_NREGS];
	int i, all = 1;

	if (!s->lldb)
		return;
	rep_printf(s, "name:core%d;threads:", tid - 1);
	for (i = 0; i < s->ncores; i++) {
		rep_printf(s, i ? ",%x" : "%x", i + 1);
		memset(known, 0, sizeof(known));
		s->why[0] = 0;
		if (s->ops->read_regs(s->t, i, v, known, s->why) || !known[15])
			all = 0;
		pcs[i] = v[15];
	}
	rep_str(s, ";");
	if (!all)
		return;
	rep_str(s, "thread-pcs:");
	for (i = 0; i < s->ncores; i++)
		rep_printf(s, i ? ",%x" : "%x", pcs[i]);
	rep_str(s, ";");
}

/* The stop reply for *st (the thread-id conventions of the header). */
static void rep_stop(struct gdbserver *s, const struct rsp_stop *st)
{
	int tid = st->core >= 0 && st->core < s->ncores ? st->core + 1 : cont_tid(s);

	s->last = s->gen = tid;
	s->stopped = 1;
	switch (st->kind) {
	case RSP_STOP_STEP: rep_printf(s, "T05thread:%x;", tid); break;
	case RSP_STOP_BREAK:
		rep_printf(s, "T05thread:%x;", tid);
		if (st->point == RSP_BP_HW && s->hwbreak)
			rep_str(s, "hwbreak:;");
		else if (st->point != RSP_BP_HW && s->swbreak)
			rep_str(s, "swbreak:;");
		break;
	case RSP_STOP_WATCH:
		rep_printf(s, "T05thread:%x;%s:%x;", tid,
			   st->point == RSP_WP_READ	? "rwatch"
			   : st->point == RSP_WP_ACCESS ? "awatch"
							: "watch",
			   st->addr);
		break;
	case RSP_STOP_BEGIN: rep_printf(s, "T05thread:%x;replaylog:begin;", tid); break;
	case RSP_STOP_END: rep_printf(s, "T05thread:%x;replaylog:end;", tid); break;
	case RSP_STOP_INTERRUPT: rep_printf(s, "T02thread:%x;", tid); break;
	case RSP_STOP_EXITED:
		con_printf(s,
			   "raptor: the program exited with status %d at position %llu, the end "
			   "of the recording\n",
			   st->status, (unsigned long long)s->ops->position(s->t));
		con_flush(s);
		rep_printf(s, "T05thread:%x;replaylog:end;", tid);
		break;
	default: rep_printf(s, "T05thread:%x;", tid); break;
	}
	rep_stop_threads(s, tid);
}

/* Run the target, watching for Ctrl-C; the stop reply. */
static void do_resume(struct gdbserver *s, enum rsp_resume how, int tid, int alone, int reverse)
{
	struct rsp_stop st = {.kind = RSP_STOP_INTERRUPT, .core = tid - 1};
	/*
	 * LLDB sends 0x03 by itself when another of its threads has a packet
	 * to send while the target runs, and takes the SIGINT stop for "only
	 * that": it then resumes with `c`, every thread, which would turn a
	 * step cut short into a continue. So its steps run to their end and
	 * the 0x03 is dropped; LLDB then reads the step's stop.
	 */
	struct watcher w = {.s = s, .running = 1, .steady = s->lldb && how == RSP_STEP};
	pthread_t thread;
	int watching, r;
	char b;

	if (rsp_take_interrupt(s->conn) && !w.steady) {
		/* Ctrl-C came with the resume packet: stop before running. */
		rep_stop(s, &st);
		return;
	}
	if (pthread_mutex_init(&w.lock, NULL)) {
		note(s, "cannot make a mutex: not resuming");
		rep_err(s, 1);
		return;
	}
	watching = !pthread_create(&thread, NULL, watch_main, &w);
	if (!watching)
		note(s, "cannot start the watcher thread: Ctrl-C will not work this time");
	note(s, "%s %s core %d%s from position %llu", reverse ? "reverse" : "forward",
	     how == RSP_STEP ? "step of" : "continue for", tid - 1, alone ? " alone" : "",
	     (unsigned long long)s->ops->position(s->t));
	s->why[0] = 0;
	r = s->ops->resume(s->t, how, tid - 1, alone, reverse, &st, s->why);
	pthread_mutex_lock(&w.lock);
	w.running = 0;
	pthread_mutex_unlock(&w.lock);
	if (watching) {
		b = 1;
		if (write(s->done_pipe[1], &b, 1) != 1)
			note(s, "cannot wake the watcher thread");
		pthread_join(thread, NULL);
		while (read(s->done_pipe[0], &b, 1) == 1)
			;
	}
	pthread_mutex_destroy(&w.lock);
	note(s, "stopped at position %llu", (unsigned long long)s->ops->position(s->t));
	if (w.hangup) {
		note(s, "GDB went away while the target ran");
		s->end = 1;
		return;
	}
	if (r) {
		con_printf(s, "raptor: the replay stopped at position %llu: %s\n",
			   (unsigned long long)s->ops->position(s->t), why(s));
		con_flush(s);
		s->last = s->gen = tid;
		rep_printf(s, "T06thread:%x;", tid);
		return;
	}
	rep_stop(s, &st);
}

/* ---- monitor commands (qRcmd) ---------------------------------------------- */

struct monitor_command {
	const char *name;
	int (*fn)(struct gdbserver *s, int argc, char **argv); /* 0 / -1 (text printed) */
	const char *usage, *help;
};

static const struct monitor_command monitor_commands[];

/* help: our commands, then the target's */
static int mon_help(struct gdbserver *s, int argc, char **argv)
{
	const struct monitor_command *m;
	char buf[64];

	con_printf(s, "gdbserver commands (OpenOCD's dialect):\n");
	for (m = monitor_commands; m->name; m++) {
		snprintf(buf, sizeof(buf), "%s %s", m->name, m->usage);
		con_printf(s, "  %-28s %s\n", buf, m->help);
	}
	s->why[0] = 0;
	if (s->ops->monitor(s->t, "help", target_out, s, s->why) < 0)
		con_printf(s, "raptor: help: %s\n", why(s));
	return 0;
}

/* reset [halt|init]: back to the beginning of the recording */
static int mon_reset(struct gdbserver *s, int argc, char **argv)
{
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "halt") && strcmp(argv[1], "init"))) {
		con_printf(s,
			   "raptor: 'reset %s': a replay only runs when GDB continues or "
			   "steps; use 'reset halt'\n",
			   argv[1]);
		return -1;
	}
	s->why[0] = 0;
	if (s->ops->reset(s->t, s->why)) {
		con_printf(s, "raptor: reset failed: %s\n", why(s));
		return -1;
	}
	con_printf(s,
		   "every core halted at the beginning of the recording (position %llu)\n"
		   "plain GDB still shows the old registers: run 'maint flush register-cache'\n"
		   "(gdbscripts/raptor.py, which raptor debug loads, does it)\n",
		   (unsigned long long)s->ops->position(s->t));
	return 0;
}

/* halt: nothing to do, said so */
static int mon_halt(struct gdbserver *s, int argc, char **argv)
{
	con_printf(s, "every core is already halted (the replay runs only when GDB continues "
		      "or steps)\n");
	return 0;
}

/* targets: OpenOCD's table, one row per core, '*' on the current one */
static int mon_targets(struct gdbserver *s, int argc, char **argv)
{
	int c;

	con_printf(s, "    TargetName         Type       Endian TapName            State       \n"
		      "--  ------------------ ---------- ------ ------------------ ------------\n");
	for (c = 0; c < s->ncores; c++) {
		char name[32];

		snprintf(name, sizeof(name), "raptor.core%d", c);
		con_printf(s, "%2d%c %-18s %-10s %-6s %-18s %s\n", c,
			   c + 1 == gen_tid(s) ? '*' : ' ', name, "cortex_m", "little", "replay",
			   "halted");
	}
	return 0;
}

static void print_reg(struct gdbserver *s, int i, const uint64_t *v, const uint8_t *known,
		      int numbered)
{
	const struct rsp_reg *r = &rsp_regs[i];
	int bits = r->ocd_bits;
	uint64_t mask = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;

	if (numbered)
		con_printf(s, "(%d) ", i);
	if (known[i])
		con_printf(s, "%s (/%d): 0x%0*llx\n", r->ocd_name, bits, (bits + 3) / 4,
			   (unsigned long long)(v[i] & mask));
	else
		con_printf(s, "%s (/%d): unknown at this position\n", r->ocd_name, bits);
}

/* reg [NAME]: the current core's registers, OpenOCD's format */
static int mon_reg(struct gdbserver *s, int argc, char **argv)
{
	uint64_t v[RSP_NREGS_FP];
	uint8_t known[RSP_NREGS_FP] = {0};
	int tid = gen_tid(s), i;

	if (argc > 2) {
		con_printf(s, "raptor: reg: registers are read-only in a replay\n");
		return -1;
	}
	i = argc == 2 ? rsp_reg_find(argv[1], s->nregs) : 0;
	if (i < 0) {
		con_printf(s, "raptor: reg: no register '%s'\n", argv[1]);
		return -1;
	}
	if (read_regs(s, tid - 1, v, known)) {
		con_printf(s, "raptor: reg: core %d: %s\n", tid - 1, why(s));
		return -1;
	}
	if (argc == 2) {
		print_reg(s, i, v, known, 0);
		return 0;
	}
	con_printf(s, "===== arm v7m registers, core %d (GDB thread %d)\n", tid - 1, tid);
	for (i = 0; i < s->nregs; i++)
		print_reg(s, i, v, known, 1);
	return 0;
}

/* mdw/mdh/mdb [phys] ADDR [COUNT]: OpenOCD's layout, 32 bytes a line */
static int mon_md(struct gdbserver *s, int argc, char **argv)
{
	int size = argv[0][2] == 'w' ? 4 : argv[0][2] == 'h' ? 2 : 1;
	uint64_t addr, count = 1, i;
	uint32_t per_line = 32 / (uint32_t)size;
	uint8_t *buf;
	int all, a = 1;

	if (argc > 1 && !strcmp(argv[1], "phys"))
		a++;
	if (argc < a + 1 || argc > a + 2 || parse_u64(argv[a], &addr) ||
	    (argc == a + 2 && parse_u64(argv[a + 1], &count))) {
		con_printf(s, "raptor: usage: %s [phys] ADDR [COUNT]\n", argv[0]);
		return -1;
	}
	if (!count || count > MD_MAX_BYTES / (uint32_t)size || addr > UINT32_MAX ||
	    addr + count * (uint64_t)size > (uint64_t)UINT32_MAX + 1) {
		con_printf(s,
			   "raptor: %s: 0x%llx, %llu items: outside the 4 GiB space or more than "
			   "%u bytes\n",
			   argv[0], (unsigned long long)addr, (unsigned long long)count,
			   MD_MAX_BYTES);
		return -1;
	}
	buf = malloc((size_t)(count * (uint64_t)size));
	if (!buf) {
		con_printf(s, "raptor: %s: out of memory\n", argv[0]);
		return -1;
	}
	s->why[0] = 0;
	all = !s->ops->read_mem(s->t, gen_tid(s) - 1, (uint32_t)addr, buf,
				(uint32_t)(count * (uint64_t)size), s->why);
	for (i = 0; i < count && !s->end; i++) {
		uint8_t *b = buf + i * (uint64_t)size;
		uint32_t at = (uint32_t)(addr + i * (uint64_t)size);
		int ok =
		    all || !s->ops->read_mem(s->t, gen_tid(s) - 1, at, b, (uint32_t)size, s->why);

		if (i % per_line == 0)
			con_printf(s, "0x%8.8x: ", at);
		if (!ok)
			con_printf(s, "%.*s ", 2 * size, "xxxxxxxx");
		else if (size == 4)
			con_printf(s, "%8.8x ",
				   b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24);
		else if (size == 2)
			con_printf(s, "%4.4x ", b[0] | b[1] << 8);
		else
			con_printf(s, "%2.2x ", b[0]);
		if (i % per_line == per_line - 1 || i == count - 1)
			con_printf(s, "\n");
	}
	if (!all)
		con_printf(s, "(xx: unknown at this position)\n");
	free(buf);
	return 0;
}

static const struct monitor_command monitor_commands[] = {
    {"help", mon_help, "", "this list"},
    {"reset", mon_reset, "[halt|init]", "go back to the beginning of the recording"},
    {"halt", mon_halt, "", "(every core is halted between GDB commands)"},
    {"targets", mon_targets, "", "the cores, '*' on the current one"},
    {"reg", mon_reg, "[NAME]", "the current core's registers"},
    {"mdw", mon_md, "[phys] ADDR [COUNT]", "memory as 32-bit words"},
    {"mdh", mon_md, "[phys] ADDR [COUNT]", "memory as 16-bit half-words"},
    {"mdb", mon_md, "[phys] ADDR [COUNT]", "memory as bytes"},
    {NULL, NULL, NULL, NULL},
};

/* One monitor command line; 0 / -1 (its reason printed). */
static int monitor(struct gdbserver *s, char *line)
{
	const struct monitor_command *m;
	char copy[512], *argv[MON_MAX_ARGS + 1], *p;
	size_t n;
	int argc = 0, r;

	while (*line == ' ' || *line == '\t')
		line++;
	n = strlen(line);
	while (n && strchr(" \t\r\n", line[n - 1]))
		line[--n] = 0;
	snprintf(copy, sizeof(copy), "%s", line);
	for (p = strtok(copy, " \t\r\n"); p && argc <= MON_MAX_ARGS; p = strtok(NULL, " \t\r\n"))
		argv[argc++] = p;
	if (!argc) {
		argv[argc++] = "help";
		argv[argc] = NULL;
	}
	for (m = monitor_commands; m->name; m++)
		if (!strcmp(argv[0], m->name)) {
			if (argc > MON_MAX_ARGS) {
				con_printf(s, "raptor: %s: too many arguments\n", m->name);
				return -1;
			}
			return m->fn(s, argc, argv);
		}
	s->why[0] = 0;
	r = s->ops->monitor(s->t, line, target_out, s, s->why);
	if (r == 1)
		con_printf(s, "raptor: unknown monitor command '%s' (try 'monitor help')\n",
			   argv[0]);
	else if (r < 0)
		con_printf(s, "raptor: %s: %s\n", argv[0], why(s));
	return r ? -1 : 0;
}

/* ---- packets ------------------------------------------------------------------ */

/* ? : the last stop, as a stop reply (LLDB connecting: thread 1's) */
static void pk_why(struct gdbserver *s, const char *a, size_t n)
{
	if (s->gone) {
		rep_str(s, "W00"); /* no process: as gdbserver --multi says */
		return;
	}
	/*
	 * LLDB numbers the threads in the order it hears of them, this reply's
	 * first: when it connects (no stop yet this session) name thread 1, so
	 * that LLDB's thread #N is core N-1 as GDB's thread N is
	 */
	if (s->lldb && !s->stopped)
		s->last = 1;
	rep_printf(s, "T05thread:%x;", s->last);
	rep_stop_threads(s, s->last);
}

/* G P M X: writes, refused: the recording must not change */
static void pk_write(struct gdbserver *s, const char *a, size_t n)
{
	rep_str(s, read_only);
}

/* Register i as target.xml sizes it, little endian; unknown: xx for each byte. */
static void rep_reg(struct gdbserver *s, int i, const uint64_t *v, const uint8_t *known)
{
	int k, bytes = rsp_regs[i].bits / 8;
	uint8_t le[8];

	for (k = 0; k < bytes; k++)
		le[k] = (uint8_t)(v[i] >> 8 * k);
	if (known[i])
		rep_hex(s, le, (size_t)bytes);
	else
		rep_str(s, &"xxxxxxxxxxxxxxxx"[16 - 2 * bytes]); /* 2 x per unknown byte */
}

/* g : every register of the Hg thread, unknown ones as xx bytes */
static void pk_read_regs(struct gdbserver *s, const char *a, size_t n)
{
	uint64_t v[RSP_NREGS_FP];
	uint8_t known[RSP_NREGS_FP] = {0};
	int i, tid = gen_tid(s);

	if (read_regs(s, tid - 1, v, known)) {
		note(s, "registers of core %d: %s", tid - 1, why(s));
		rep_err(s, 1);
		return;
	}
	for (i = 0; i < s->nregs; i++)
		rep_reg(s, i, v, known);
}

/* p n : one register */
static void pk_read_reg(struct gdbserver *s, const char *a, size_t n)
{
	uint64_t v[RSP_NREGS_FP];
	uint8_t known[RSP_NREGS_FP] = {0};
	uint32_t r;
	int tid = gen_tid(s);

	if (parse_hex(&a, &r) || *a || r >= (uint32_t)s->nregs) {
		rep_err(s, 1);
		return;
	}
	if (read_regs(s, tid - 1, v, known)) {
		note(s, "registers of core %d: %s", tid - 1, why(s));
		rep_err(s, 1);
		return;
	}
	rep_reg(s, (int)r, v, known);
}

/* m addr,len : memory as hex; the known prefix if it is partly unknown (LLDB: E01) */
static void pk_read_mem(struct gdbserver *s, const char *a, size_t n)
{
	uint32_t addr, len, lo, hi;
	int core = gen_tid(s) - 1;

	if (parse_hex(&a, &addr) || *a++ != ',' || parse_hex(&a, &len) || *a || !len) {
		rep_err(s, 1);
		return;
	}
	if (len > MEM_MAX)
		len = MEM_MAX;
	if ((uint64_t)addr + len > (uint64_t)UINT32_MAX + 1)
		len = (uint32_t)((uint64_t)UINT32_MAX + 1 - addr);
	s->why[0] = 0;
	if (!s->ops->read_mem(s->t, core, addr, s->mem, len, s->why)) {
		rep_hex(s, s->mem, len);
		return;
	}
	note(s, "memory 0x%08x+%u: %s", addr, len, why(s));
	if (s->lldb) {
		/* LLDB 14 takes a short reply to its 512-byte cache-line reads for a
		 * shorter line and then writes outside its buffer: E01 */
		rep_err(s, 1);
		return;
	}
	/* The longest readable prefix: lo bytes read, hi do not. */
	lo = 0;
	hi = len;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->ops->read_mem(s->t, core, addr, s->mem, mid, s->why))
			hi = mid;
		else
			lo = mid;
	}
	if (!lo || s->ops->read_mem(s->t, core, addr, s->mem, lo, s->why)) {
		rep_err(s, 1);
		return;
	}
	rep_hex(s, s->mem, lo);
}

/* H op tid : the thread later g/p/m (op g) or c/s (op c) act for */
static void pk_set_thread(struct gdbserver *s, const char *a, size_t n)
{
	char op = *a++;
	int tid;

	if ((op != 'g' && op != 'c' && op != 'm') || parse_tid(&a, &tid) || *a) {
		rep_err(s, 1);
		return;
	}
	if (tid > 0 && !valid_tid(s, tid)) {
		rep_err(s, 2);
		return;
	}
	if (op == 'c')
		s->cont = tid;
	else
		s->gen = tid;
	rep_str(s, "OK");
}

/* T tid : is the thread alive */
static void pk_thread_alive(struct gdbserver *s, const char *a, size_t n)
{
	int tid;

	if (parse_tid(&a, &tid) || *a)
		rep_err(s, 1);
	else if (!valid_tid(s, tid))
		rep_err(s, 2);
	else
		rep_str(s, "OK");
}

/* c [addr], C sig[;addr], s, S : continue all / step the Hc thread; no new address */
static void pk_resume(struct gdbserver *s, const char *a, size_t n, enum rsp_resume how, int sig)
{
	uint32_t v;

	if (sig && (parse_hex(&a, &v) || (*a && *a++ != ';'))) {
		rep_err(s, 1);
		return;
	}
	if (*a) {
		note(s, "resuming at another address is impossible in a replay");
		rep_err(s, 1);
		return;
	}
	do_resume(s, how, cont_tid(s), s->cont > 0, 0);
}

static void pk_c(struct gdbserver *s, const char *a, size_t n)
{
	pk_resume(s, a, n, RSP_CONTINUE, 0);
}

static void pk_C(struct gdbserver *s, const char *a, size_t n)
{
	pk_resume(s, a, n, RSP_CONTINUE, 1);
}

static void pk_s(struct gdbserver *s, const char *a, size_t n)
{
	pk_resume(s, a, n, RSP_STEP, 0);
}

static void pk_S(struct gdbserver *s, const char *a, size_t n)
{
	pk_resume(s, a, n, RSP_STEP, 1);
}

/* bc : continue backward (the Hc thread alone if Hc named one) */
static void pk_bc(struct gdbserver *s, const char *a, size_t n)
{
	do_resume(s, RSP_CONTINUE, cont_tid(s), s->cont > 0, 1);
}

/* bs : step the Hc thread backward (Hc0, Hc-1: the Hg thread) */
static void pk_bs(struct gdbserver *s, const char *a, size_t n)
{
	do_resume(s, RSP_STEP, cont_tid(s), s->cont > 0, 1);
}

/* vCont? : the actions vCont supports */
static void pk_vcont_query(struct gdbserver *s, const char *a, size_t n)
{
	rep_str(s, "vCont;c;C;s;S");
}

/*
 * vCont;ACTION[:tid]... : a step action anywhere steps its thread (the
 * replay runs every core on the way, in the recorded order); otherwise
 * everything continues. Actions that all name one thread, with no default
 * action (GDB's scheduler-locking), resume that thread alone.
 */
static void pk_vcont(struct gdbserver *s, const char *a, size_t n)
{
	int step = 0, only = 0, all = 0, tid;
	uint32_t sig;

	if (*a != ';') {
		rep_err(s, 1);
		return;
	}
	while (*a == ';') {
		char act = *++a;

		a++;
		if (act == 'C' || act == 'S') {
			if (parse_hex(&a, &sig)) {
				rep_err(s, 1);
				return;
			}
		} else if (act != 'c' && act != 's') {
			rep_err(s, 1);
			return;
		}
		tid = -1;
		if (*a == ':' && (a++, parse_tid(&a, &tid))) {
			rep_err(s, 1);
			return;
		}
		if (tid > 0 && !valid_tid(s, tid)) {
			rep_err(s, 2);
			return;
		}
		if ((act == 's' || act == 'S') && !step)
			step = tid > 0 ? tid : cont_tid(s);
		if (tid <= 0 || (only && only != tid))
			all = 1;
		only = tid;
	}
	if (*a) {
		rep_err(s, 1);
		return;
	}
	if (step)
		do_resume(s, RSP_STEP, step, !all, 0);
	else
		do_resume(s, RSP_CONTINUE, all ? cont_tid(s) : only, !all, 0);
}

/* Z/z type,addr,kind[;...] : insert/remove a break- or watchpoint */
static void pk_point(struct gdbserver *s, const char *a, size_t n)
{
	int on = a[-1] == 'Z'; /* args follow the packet's letter */
	uint32_t type, addr, len;

	if (parse_hex(&a, &type) || *a++ != ',' || parse_hex(&a, &addr) || *a++ != ',' ||
	    parse_hex(&a, &len) || (*a && *a != ';')) {
		rep_err(s, 1);
		return;
	}
	if (type > RSP_WP_ACCESS)
		return; /* unsupported kind: empty */
	s->why[0] = 0;
	if (s->ops->point(s->t, (enum rsp_point)type, addr, len, on, s->why)) {
		note(s, "%c%u at 0x%08x: %s", on ? 'Z' : 'z', type, addr, why(s));
		rep_err(s, 1);
		return;
	}
	rep_str(s, "OK");
}

/*
 * k : no reply; end the session, or in extended mode the process only
 * (the connection stays, as with gdbserver --multi)
 */
static void pk_kill(struct gdbserver *s, const char *a, size_t n)
{
	s->noreply = 1;
	if (s->extended)
		s->gone = 1;
	else
		s->end = 1;
}

/* vKill;pid and D[;pid] : OK, then end the session (extended mode: the process only) */
static void pk_detach(struct gdbserver *s, const char *a, size_t n)
{
	rep_str(s, "OK");
	if (s->extended)
		s->gone = 1;
	else
		s->end = 1;
}

/* ! : extended mode (target extended-remote) */
static void pk_extended(struct gdbserver *s, const char *a, size_t n)
{
	s->extended = 1;
	rep_str(s, "OK");
}

/* The stop reply of a process GDB just started or attached: thread tid, stopped. */
static void rep_started(struct gdbserver *s, int tid)
{
	struct rsp_stop st = {.kind = RSP_STOP_STEP, .core = tid - 1};

	s->gone = 0;
	s->cont = 0;
	rep_stop(s, &st);
}

/*
 * vRun;[file][;arg]... : start the program again: back to the beginning of
 * the recording, stopped (the file and arguments are what was recorded:
 * ignored). A stop reply.
 */
static void pk_run(struct gdbserver *s, const char *a, size_t n)
{
	if (*a != ';') {
		rep_err(s, 1);
		return;
	}
	s->why[0] = 0;
	if (s->ops->reset(s->t, s->why)) {
		note(s, "vRun: %s", why(s));
		rep_err(s, 1);
		return;
	}
	s->created = 1;
	rep_started(s, 1);
}

/*
 * vAttach;pid : the replay is process 1; attach to it where it is. A stop
 * reply for thread 1, so that GDB numbers the threads it then lists as the
 * cores (it numbers them in the order it hears of them).
 */
static void pk_attach(struct gdbserver *s, const char *a, size_t n)
{
	uint32_t pid;

	if (*a++ != ';' || parse_hex(&a, &pid) || *a) {
		rep_err(s, 1);
		return;
	}
	if (pid != 1) {
		rep_printf(s, "E.raptor: no process %u: the replay is process 1", pid);
		return;
	}
	s->created = 0;
	rep_started(s, 1);
}

/* qSupported[:features] : ours; note GDB's swbreak+ and hwbreak+ */
static void pk_supported(struct gdbserver *s, const char *a, size_t n)
{
	s->swbreak = strstr(a, "swbreak+") != NULL;
	s->hwbreak = strstr(a, "hwbreak+") != NULL;
	rep_printf(s,
		   "PacketSize=%x;QStartNoAckMode+;qXfer:features:read+;"
		   "qXfer:threads:read+;ReverseStep+;ReverseContinue+;swbreak+;hwbreak+;"
		   "vContSupported+",
		   RSP_PACKET_MAX);
	if (exec_file(s))
		rep_str(s, ";qXfer:exec-file:read+");
}

/* QStartNoAckMode : OK (acknowledged by GDB), then no acks either way */
static void pk_noack(struct gdbserver *s, const char *a, size_t n)
{
	if (rsp_send_str(s->conn, "OK"))
		s->end = 1;
	rsp_set_noack(s->conn, 1);
	s->noreply = 1;
}

/*
 * qAttached : 1, an existing process: leaving GDB detaches rather than
 * kills; 0 after vRun, as for a process the server created
 */
static void pk_attached(struct gdbserver *s, const char *a, size_t n)
{
	rep_str(s, s->created ? "0" : "1");
}

/* qC : the current thread */
static void pk_current(struct gdbserver *s, const char *a, size_t n)
{
	rep_printf(s, "QC%x", gen_tid(s));
}

/* qfThreadInfo : every thread at once */
static void pk_first_thread(struct gdbserver *s, const char *a, size_t n)
{
	int i;

	if (s->gone) {
		rep_str(s, "l"); /* no process, no threads */
		return;
	}
	rep_str(s, "m");
	for (i = 1; i <= s->ncores; i++)
		rep_printf(s, i > 1 ? ",%x" : "%x", i);
}

/* qsThreadInfo : no more */
static void pk_next_thread(struct gdbserver *s, const char *a, size_t n)
{
	rep_str(s, "l");
}

/* qThreadExtraInfo,tid : "core N", hex */
static void pk_thread_extra(struct gdbserver *s, const char *a, size_t n)
{
	char text[32];
	int tid;

	if (*a++ != ',' || parse_tid(&a, &tid) || *a) {
		rep_err(s, 1);
		return;
	}
	if (!valid_tid(s, tid)) {
		rep_err(s, 2);
		return;
	}
	snprintf(text, sizeof(text), "core %d", tid - 1);
	rep_hex(s, text, strlen(text));
}

/* A qXfer read of data[0..total) for ":annex:offset,length" (annex wanted; NULL: any). */
static void xfer(struct gdbserver *s, const char *a, const char *annex, const char *data,
		 size_t total)
{
	const char *colon = *a == ':' ? strchr(a + 1, ':') : NULL;
	uint32_t off, len;

	if (!colon || (annex && ((size_t)(colon - a - 1) != strlen(annex) ||
				 strncmp(a + 1, annex, strlen(annex))))) {
		rep_err(s, 1);
		return;
	}
	a = colon + 1;
	if (parse_hex(&a, &off) || *a++ != ',' || parse_hex(&a, &len) || *a || off > total) {
		rep_err(s, 1);
		return;
	}
	if (len > RSP_PACKET_MAX - 1)
		len = RSP_PACKET_MAX - 1;
	if (len >= total - off) {
		rep_str(s, "l");
		rep_add(s, data + off, total - off);
	} else {
		rep_str(s, "m");
		rep_add(s, data + off, len);
	}
}

/* qXfer:features:read:target.xml:offset,length */
static void pk_features(struct gdbserver *s, const char *a, size_t n)
{
	if (s->lldb)
		xfer(s, a, "target.xml", s->xml_lldb, s->xml_lldb_len);
	else
		xfer(s, a, "target.xml", s->xml, s->xml_len);
}

/* qXfer:exec-file:read:annex:offset,length : the ELF GDB loads symbols from */
static void pk_exec_file(struct gdbserver *s, const char *a, size_t n)
{
	const char *path = exec_file(s);

	if (!path) {
		rep_err(s, 1);
		return;
	}
	xfer(s, a, NULL, path, strlen(path));
}

/* qXfer:threads:read::offset,length : the cores, with core= and name= */
static void pk_threads(struct gdbserver *s, const char *a, size_t n)
{
	char xml[XML_MAX];
	size_t len = 0;
	int i;

	len +=
	    (size_t)snprintf(xml + len, sizeof(xml) - len, "<?xml version=\"1.0\"?>\n<threads>\n");
	for (i = 0; i < s->ncores && !s->gone; i++) /* no process: no threads */
		len += (size_t)snprintf(xml + len, sizeof(xml) - len,
					"<thread id=\"%x\" core=\"%d\" name=\"core%d\"/>\n", i + 1,
					i, i);
	len += (size_t)snprintf(xml + len, sizeof(xml) - len, "</threads>\n");
	xfer(s, a, "", xml, len);
}

/* qRcmd,hex : a monitor command; its output as O packets, then OK or E01 */
static void pk_rcmd(struct gdbserver *s, const char *a, size_t n)
{
	char line[512];
	size_t i, k = 0;

	if (*a++ != ',') {
		rep_err(s, 1);
		return;
	}
	for (i = 0; a[i]; i += 2) {
		int hi = hexval(a[i]), lo = hi < 0 ? -1 : hexval(a[i + 1]);

		if (lo < 0 || k + 1 >= sizeof(line)) {
			rep_err(s, 1);
			return;
		}
		line[k++] = (char)(hi << 4 | lo);
	}
	line[k] = 0;
	if (strlen(line) != k) {
		rep_err(s, 1);
		return;
	}
	note(s, "monitor %s", line);
	if (monitor(s, line))
		rep_err(s, 1);
	else
		rep_str(s, "OK");
	con_flush(s);
}

/* qSymbol:: : no symbols wanted */
static void pk_symbol(struct gdbserver *s, const char *a, size_t n)
{
	rep_str(s, "OK");
}

/* ---- LLDB's packets ---------------------------------------------------------- */

/* The cores' architecture in LLVM's words ("armv7m"), or plain "arm". */
static const char *llvm_arch(struct gdbserver *s)
{
	const char *a = s->ops->llvm_arch ? s->ops->llvm_arch(s->t) : NULL;

	return a ? a : "arm";
}

/* Mach-O's CPU_SUBTYPE_ARM_V6M, _V7M, _V7EM for arch; 0 (_ALL) for any other. */
static int mach_subtype(const char *arch)
{
	static const struct {
		const char *arch;
		int subtype;
	} subtypes[] = {{"armv6m", 14}, {"armv7m", 15}, {"armv7em", 16}};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(subtypes); i++)
		if (!strcmp(arch, subtypes[i].arch))
			return subtypes[i].subtype;
	return 0;
}

/* "triple:HEX;" : ARCH-none-eabi, hex-encoded as LLDB wants it */
static void rep_triple(struct gdbserver *s)
{
	char triple[64];

	snprintf(triple, sizeof(triple), "%s-none-eabi", llvm_arch(s));
	rep_str(s, "triple:");
	rep_hex(s, triple, strlen(triple));
	rep_str(s, ";");
}

/*
 * qHostInfo : what LLDB debugs: the triple (an M-profile one tells it that
 * every instruction is Thumb), CPU_TYPE_ARM (12) and the subtype in
 * decimal, little-endian, 4-byte pointers; watchpoints stop before the
 * access (as GDB on ARM expects too), so LLDB steps over it itself
 */
static void pk_host_info(struct gdbserver *s, const char *a, size_t n)
{
	rep_triple(s);
	rep_printf(s,
		   "cputype:12;cpusubtype:%d;endian:little;ptrsize:4;"
		   "watchpoint_exceptions_received:before;",
		   mach_subtype(llvm_arch(s)));
}

/*
 * qProcessInfo : the replay is process 1 (without it LLDB takes the qC
 * thread for the pid); the rest as qHostInfo, numbers in hex. E01 when
 * there is no process (extended mode, killed or detached).
 */
static void pk_process_info(struct gdbserver *s, const char *a, size_t n)
{
	if (s->gone) {
		rep_err(s, 1);
		return;
	}
	rep_str(s, "pid:1;");
	rep_triple(s);
	rep_printf(s, "cputype:c;cpusubtype:%x;endian:little;ptrsize:4;",
		   mach_subtype(llvm_arch(s)));
}

/*
 * QListThreadsInStopReply : OK; stop replies list the threads from now on.
 * Only LLDB asks: the session is LLDB's (struct gdbserver, lldb).
 */
static void pk_list_threads(struct gdbserver *s, const char *a, size_t n)
{
	s->lldb = 1;
	rep_str(s, "OK");
}

/*
 * qWatchpointSupportInfo[:] : how many watchpoints LLDB may set. The
 * replay watches any number of ranges; LLDB wants a number.
 */
static void pk_watchpoint_info(struct gdbserver *s, const char *a, size_t n)
{
	rep_printf(s, "num:%d;", WATCHPOINTS_TOLD);
}

struct packet_handler {
	const char *name;
	void (*fn)(struct gdbserver *s, const char *args, size_t len);
	int live; /* needs the process: E01 once killed or detached (extended mode) */
};

/*
 * Single-letter packets are found by their letter (args: what follows);
 * those starting with q, Q, v or b by their name, which must be followed
 * by the end, ':', ';' or ',' (args start there). Anything else: empty.
 */
static const struct packet_handler handlers[] = {
    {"!", pk_extended, 0},
    {"?", pk_why, 0},
    {"c", pk_c, 1},
    {"C", pk_C, 1},
    {"D", pk_detach, 0},
    {"g", pk_read_regs, 1},
    {"G", pk_write, 0},
    {"H", pk_set_thread, 0},
    {"k", pk_kill, 0},
    {"m", pk_read_mem, 1},
    {"M", pk_write, 0},
    {"p", pk_read_reg, 1},
    {"P", pk_write, 0},
    {"s", pk_s, 1},
    {"S", pk_S, 1},
    {"T", pk_thread_alive, 1},
    {"X", pk_write, 0},
    {"z", pk_point, 1},
    {"Z", pk_point, 1},
    {"bc", pk_bc, 1},
    {"bs", pk_bs, 1},
    {"qSupported", pk_supported, 0},
    {"QStartNoAckMode", pk_noack, 0},
    {"qAttached", pk_attached, 0},
    {"qC", pk_current, 0},
    {"qfThreadInfo", pk_first_thread, 0},
    {"qsThreadInfo", pk_next_thread, 0},
    {"qThreadExtraInfo", pk_thread_extra, 0},
    {"qXfer:features:read", pk_features, 0},
    {"qXfer:threads:read", pk_threads, 0},
    {"qXfer:exec-file:read", pk_exec_file, 0},
    {"qRcmd", pk_rcmd, 0},
    {"qSymbol", pk_symbol, 0},
    {"qHostInfo", pk_host_info, 0},
    {"qProcessInfo", pk_process_info, 0},
    {"QListThreadsInStopReply", pk_list_threads, 0},
    {"qWatchpointSupportInfo", pk_watchpoint_info, 0},
    {"vCont?", pk_vcont_query, 0},
    {"vCont", pk_vcont, 1},
    {"vKill", pk_detach, 0},
    {"vRun", pk_run, 0},
    {"vAttach", pk_attach, 0},
};

static void dispatch(struct gdbserver *s, const char *pkt, size_t len)
{
	const struct packet_handler *h = NULL;
	const char *args = pkt + 1;
	size_t i;

	s->rlen = 0;
	s->rover = 0;
	s->noreply = 0;
	if (len && strchr("qQvb", pkt[0])) {
		for (i = 0; i < ARRAY_SIZE(handlers); i++) {
			size_t k = strlen(handlers[i].name);

			if (k > 1 && !strncmp(pkt, handlers[i].name, k) &&
			    (!pkt[k] || strchr(":;,", pkt[k]))) {
				h = &handlers[i];
				args = pkt + k;
				break;
			}
		}
	} else if (len) {
		for (i = 0; i < ARRAY_SIZE(handlers); i++)
			if (!handlers[i].name[1] && handlers[i].name[0] == pkt[0]) {
				h = &handlers[i];
				break;
			}
	}
	if (h && h->live && s->gone)
		rep_err(s, 1);
	else if (h)
		h->fn(s, args, len - (size_t)(args - pkt));
	if (s->noreply || rsp_closed(s->conn))
		return;
	if (s->rover) {
		note(s, "reply too long for the packet size");
		rep_err(s, 1);
	}
	if (rsp_send(s->conn, s->rep, s->rlen))
		s->end = 1;
}

/* ---- sessions --------------------------------------------------------------- */

/* Wait until the client has bytes for us; refuse others meanwhile. 0 / -1 (closed, stop). */
static int wait_input(struct gdbserver *s)
{
	for (;;) {
		struct pollfd p[2 + 1 + MAX_REFUSALS];
		int timeout = -1, r;

		if (stopping(s) || s->closing)
			return -1;
		p[0] = (struct pollfd){.fd = rsp_fd(s->conn), .events = POLLIN};
		p[1] = (struct pollfd){.fd = s->stop_pipe[0], .events = POLLIN};
		r = refusal_pollfds(s, p + 2, &timeout);
		if (poll(p, (nfds_t)(2 + r), timeout) < 0) {
			if (errno == EINTR)
				continue;
			note(s, "poll: %s", strerror(errno));
			return -1;
		}
		/* our client first: if it hung up, a newcomer in this poll is the next GDB */
		if (p[0].revents && rsp_fill(s->conn) < 0)
			s->closing = 1;
		refusal_handle(s, p + 2, r);
		if (s->closing || p[1].revents || stopping(s))
			return -1;
		if (p[0].revents)
			return 0;
	}
}

/* Serve the client on fd, whose first nhead bytes were read already (head). */
static int session(struct gdbserver *s, int fd, const char *head, size_t nhead)
{
	int one = 1;

	s->conn = rsp_conn_new(fd);
	if (!s->conn)
		return -1;
	if (nhead && rsp_prime(s->conn, head, nhead)) {
		rsp_conn_free(s->conn);
		s->conn = NULL;
		return error("gdbserver: %zu bytes do not fit the input buffer", nhead);
	}
	rsp_set_log(s->conn, s->log);
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	s->end = 0;
	s->closing = 0;
	s->gen = s->cont = 0;
	s->extended = s->gone = s->created = 0;
	s->swbreak = s->hwbreak = 0;
	s->lldb = 0;
	s->stopped = 0;
	s->clen = 0;
	note(s, "GDB connected, position %llu", (unsigned long long)s->ops->position(s->t));
	while (!s->end && !stopping(s)) {
		const char *pkt;
		size_t len;

		switch (rsp_next(s->conn, &pkt, &len)) {
		case RSP_PACKET: dispatch(s, pkt, len); break;
		case RSP_OVERSIZE:
			if (rsp_send_str(s->conn, "E03"))
				s->end = 1;
			break;
		case RSP_BADSUM:
			if (rsp_send_str(s->conn, "E01"))
				s->end = 1;
			break;
		case RSP_INTERRUPT: break; /* already halted */
		case RSP_NONE:
			if (wait_input(s))
				s->end = 1;
			break;
		case RSP_CLOSED: s->end = 1; break;
		}
		if (rsp_closed(s->conn))
			s->end = 1;
	}
	note(s, "session over, position %llu", (unsigned long long)s->ops->position(s->t));
	rsp_conn_free(s->conn);
	s->conn = NULL;
	s->closing = 0;
	return 0;
}

int gdbserver_serve_fd(struct gdbserver *s, int fd)
{
	return session(s, fd, NULL, 0);
}

int gdbserver_serve(struct gdbserver *s)
{
	if (s->lfd < 0)
		return error("gdbserver: not listening (gdbserver_listen first)");
	while (!stopping(s)) {
		struct pollfd p[2 + 1 + MAX_REFUSALS];
		int timeout = -1, r, fd;

		if (s->next_fd >= 0) {
			/* handed over while the last session ended (refusal_hand_over) */
			fd = s->next_fd;
			s->next_fd = -1;
			if (session(s, fd, s->next_head, s->next_nhead))
				note(s, "out of memory for a session");
			continue;
		}
		p[0] = (struct pollfd){.fd = s->stop_pipe[0], .events = POLLIN};
		r = refusal_pollfds(s, p + 1, &timeout);
		/* p[1] is the listening socket: a connection there is the next GDB. */
		if (poll(p, (nfds_t)(1 + r), timeout) < 0) {
			if (errno == EINTR)
				continue;
			return error("gdbserver: poll on port %d: %s", s->port, strerror(errno));
		}
		if (p[0].revents || stopping(s))
			break;
		if (p[1].revents) {
			fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
			if (fd < 0) {
				if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
				    errno == ENOMEM) {
					note(s, "accept: %s", strerror(errno));
					poll(NULL, 0, 100);
				}
			} else if (session(s, fd, NULL, 0)) {
				note(s, "out of memory for a session");
			}
			p[1].revents = 0;
		}
		refusal_handle(s, p + 1, r);
	}
	return 0;
}

void gdbserver_stop(struct gdbserver *s)
{
	int saved = errno;
	char b = 1;

	__atomic_store_n(&s->stop, 1, __ATOMIC_SEQ_CST); /* lock-free: signal-safe */
	if (write(s->stop_pipe[1], &b, 1) < 0) {
		/* full already: the pipe is readable, which is all that counts */
	}
	errno = saved;
}

/* ---- life cycle ------------------------------------------------------------- */

static int make_pipe(int p[2])
{
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return error("gdbserver: pipe: %s", strerror(errno));
	return 0;
}

struct gdbserver *gdbserver_new(const struct rsp_target_ops *ops, void *target)
{
	struct gdbserver *s = calloc(1, sizeof(*s));
	int i, n, k;

	if (!s) {
		error("gdbserver: out of memory (%zu bytes)", sizeof(*s));
		return NULL;
	}
	s->ops = ops;
	s->t = target;
	s->lfd = -1;
	s->port = -1;
	s->next_fd = -1;
	s->stop_pipe[0] = s->stop_pipe[1] = s->done_pipe[0] = s->done_pipe[1] = -1;
	s->last = 1;
	for (i = 0; i < MAX_REFUSALS; i++)
		s->refusals[i].fd = -1;
	s->ncores = ops->ncores(target);
	if (s->ncores < 1 || s->ncores > 8) {
		error("gdbserver: the target has %d cores (1 to 8 allowed)", s->ncores);
		goto fail;
	}
	s->nregs = ops->has_fp && ops->read_fp && ops->has_fp(target) ? RSP_NREGS_FP : RSP_NREGS;
	n = rsp_tdesc_xml(s->xml, sizeof(s->xml), s->nregs == RSP_NREGS_FP, 0);
	k = rsp_tdesc_xml(s->xml_lldb, sizeof(s->xml_lldb), s->nregs == RSP_NREGS_FP, 1);
	if (n < 0 || k < 0) {
		error("gdbserver: target.xml longer than %d bytes", XML_MAX);
		goto fail;
	}
	s->xml_len = (size_t)n;
	s->xml_lldb_len = (size_t)k;
	if (make_pipe(s->stop_pipe) || make_pipe(s->done_pipe))
		goto fail;
	return s;
fail:
	gdbserver_free(s);
	return NULL;
}

void gdbserver_free(struct gdbserver *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < 2; i++) {
		if (s->stop_pipe[i] >= 0)
			close(s->stop_pipe[i]);
		if (s->done_pipe[i] >= 0)
			close(s->done_pipe[i]);
	}
	for (i = 0; i < MAX_REFUSALS; i++)
		if (s->refusals[i].fd >= 0)
			close(s->refusals[i].fd);
	if (s->next_fd >= 0)
		close(s->next_fd);
	if (s->lfd >= 0)
		close(s->lfd);
	free(s);
}

void gdbserver_set_log(struct gdbserver *s, FILE *log)
{
	s->log = log;
}

int gdbserver_listen(struct gdbserver *s, const char *addr, int port)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC,
				 .ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
	struct addrinfo *res, *ai;
	struct sockaddr_storage sa;
	socklen_t salen = sizeof(sa);
	char service[16];
	int fd = -1, one = 1, e, saved = 0;

	if (!addr)
		addr = GDBSERVER_DEFAULT_ADDR;
	if (port < 0 || port > 65535)
		return error("gdbserver: port %d out of range", port);
	if (s->lfd >= 0)
		return error("gdbserver: already listening on port %d", s->port);
	snprintf(service, sizeof(service), "%d", port);
	e = getaddrinfo(addr, service, &hints, &res);
	if (e)
		return error("gdbserver: address %s: %s", addr, gai_strerror(e));
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
			    ai->ai_protocol);
		if (fd < 0) {
			saved = errno;
			continue;
		}
		if (!setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) &&
		    !bind(fd, ai->ai_addr, ai->ai_addrlen) && !listen(fd, 64))
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return error("gdbserver: cannot listen on %s:%d: %s", addr, port, strerror(saved));
	if (getsockname(fd, (struct sockaddr *)&sa, &salen)) {
		saved = errno;
		close(fd);
		return error("gdbserver: getsockname on %s:%d: %s", addr, port, strerror(saved));
	}
	s->lfd = fd;
	s->port = ntohs(sa.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&sa)->sin6_port
						 : ((struct sockaddr_in *)&sa)->sin_port);
	note(s, "listening on %s:%d", addr, s->port);
	return 0;
}

int gdbserver_port(const struct gdbserver *s)
{
	return s->port;
}

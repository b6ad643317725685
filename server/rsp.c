#include "server/rsp.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define RSP_IN_MAX 8192		 /* read buffer: unparsed input */
#define RSP_ACK_TIMEOUT_MS 10000 /* GDB acks at once; silence this long is a dead client */
#define RSP_RESENDS 3		 /* '-' answers tolerated for one packet */

/* Where the streaming parser is in the frame diagram of rsp.h. */
enum rsp_pstate {
	P_IDLE, /* between packets */
	P_DATA, /* after '$' */
	P_ESC,	/* after '}' */
	P_RUN,	/* after '*': the count comes next */
	P_CS1,	/* after '#' */
	P_CS2,	/* after the first checksum digit */
};

struct rsp_conn {
	int fd;
	int noack, closed;
	FILE *log;

	unsigned char in[RSP_IN_MAX]; /* in[ipos..ilen) read, not yet parsed */
	size_t ipos, ilen;

	enum rsp_pstate st;
	unsigned char sum;  /* payload bytes as transmitted, mod 256 */
	unsigned char want; /* the checksum the packet carries */
	int badhex;	    /* a checksum character that is not a hex digit */
	int over;	    /* the payload outgrew pkt */
	size_t plen;
	char pkt[RSP_PACKET_MAX + 1];

	char out[2 * RSP_PACKET_MAX + 4]; /* a framed, escaped packet */
};

struct rsp_conn *rsp_conn_new(int fd)
{
	struct rsp_conn *c = calloc(1, sizeof(*c));

	if (!c) {
		close(fd);
		error("rsp: out of memory for a connection (%zu bytes)", sizeof(struct rsp_conn));
		return NULL;
	}
	c->fd = fd;
	return c;
}

void rsp_conn_free(struct rsp_conn *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	free(c);
}

int rsp_fd(const struct rsp_conn *c)
{
	return c->fd;
}

int rsp_prime(struct rsp_conn *c, const void *data, size_t n)
{
	if (n > sizeof(c->in) - c->ilen)
		return -1;
	memcpy(c->in + c->ilen, data, n);
	c->ilen += n;
	return 0;
}

void rsp_set_log(struct rsp_conn *c, FILE *log)
{
	c->log = log;
}

void rsp_set_noack(struct rsp_conn *c, int on)
{
	c->noack = on;
}

int rsp_noack(const struct rsp_conn *c)
{
	return c->noack;
}

int rsp_closed(const struct rsp_conn *c)
{
	return c->closed;
}

/* One log line: prefix, then the bytes with anything unprintable as \xNN. */
static void log_bytes(struct rsp_conn *c, const char *prefix, const void *data, size_t len)
{
	const unsigned char *p = data;
	char chunk[512];
	size_t i, n = 0;

	if (!c->log)
		return;
	flockfile(c->log); /* whole lines, also from the watcher thread */
	fprintf(c->log, "rsp: %s", prefix);
	for (i = 0; i < len; i++) {
		if (n + 5 > sizeof(chunk)) {
			fwrite(chunk, 1, n, c->log);
			n = 0;
		}
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			chunk[n++] = (char)p[i];
		else
			n += (size_t)snprintf(chunk + n, 5, "\\x%02x", p[i]);
	}
	chunk[n++] = '\n';
	fwrite(chunk, 1, n, c->log);
	funlockfile(c->log);
	fflush(c->log);
}

static void log_line(struct rsp_conn *c, const char *text)
{
	log_bytes(c, text, "", 0);
}

/* send() without SIGPIPE on sockets; plain write() for anything else. */
static ssize_t write_some(int fd, const void *buf, size_t len)
{
	ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

	if (n < 0 && errno == ENOTSOCK)
		n = write(fd, buf, len);
	return n;
}

static int write_all(struct rsp_conn *c, const void *buf, size_t len)
{
	const char *p = buf;

	if (c->closed)
		return -1;
	while (len) {
		ssize_t n = write_some(c->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			c->closed = 1;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int rsp_fill(struct rsp_conn *c)
{
	ssize_t n;

	if (c->closed)
		return -1;
	if (c->ipos == c->ilen) {
		c->ipos = c->ilen = 0;
	} else if (c->ilen == sizeof(c->in) && c->ipos) {
		memmove(c->in, c->in + c->ipos, c->ilen - c->ipos);
		c->ilen -= c->ipos;
		c->ipos = 0;
	}
	if (c->ilen == sizeof(c->in))
		return 0;
	do
		n = read(c->fd, c->in + c->ilen, sizeof(c->in) - c->ilen);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		c->closed = 1;
		log_line(c, n ? "connection error" : "connection closed by GDB");
		return -1;
	}
	c->ilen += (size_t)n;
	return (int)n;
}

static int hexval(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static void start_packet(struct rsp_conn *c)
{
	c->st = P_DATA;
	c->sum = 0;
	c->plen = 0;
	c->over = 0;
	c->badhex = 0;
}

static void put(struct rsp_conn *c, unsigned char ch)
{
	if (c->plen < RSP_PACKET_MAX)
		c->pkt[c->plen++] = (char)ch;
	else
		c->over = 1;
}

/* The packet's end: check, acknowledge, classify. */
static enum rsp_event finish(struct rsp_conn *c)
{
	int good = !c->badhex && c->want == c->sum;

	c->st = P_IDLE;
	c->pkt[c->plen] = 0;
	if (!good) {
		char msg[80];

		snprintf(msg, sizeof(msg), "bad checksum (sent %02x, computed %02x) in <- ",
			 c->want, c->sum);
		log_bytes(c, msg, c->pkt, c->plen);
		if (c->noack)
			return RSP_BADSUM;
		if (write_all(c, "-", 1))
			return RSP_CLOSED;
		return RSP_NONE;
	}
	if (!c->noack && write_all(c, "+", 1))
		return RSP_CLOSED;
	if (c->over) {
		char msg[80];

		snprintf(msg, sizeof(msg), "<- (a packet longer than %d bytes: refused)",
			 RSP_PACKET_MAX);
		log_line(c, msg);
		return RSP_OVERSIZE;
	}
	log_bytes(c, "<- ", c->pkt, c->plen);
	return RSP_PACKET;
}

enum rsp_event rsp_next(struct rsp_conn *c, const char **pkt, size_t *len)
{
	while (c->ipos < c->ilen) {
		unsigned char ch = c->in[c->ipos++];
		enum rsp_event ev;
		int n;

		if (c->st != P_IDLE && c->st != P_CS1 && c->st != P_CS2) {
			/* GDB's read_frame: '$' restarts, '#' always ends the payload. */
			if (ch == '$') {
				log_line(c, "<- '$' inside a packet: restarted");
				start_packet(c);
				continue;
			}
			if (ch == '#') {
				c->st = P_CS1;
				continue;
			}
		}
		switch (c->st) {
		case P_IDLE:
			if (ch == '$')
				start_packet(c);
			else if (ch == 0x03) {
				log_line(c, "<- interrupt (0x03)");
				return RSP_INTERRUPT;
			} else if (ch == '-' && !c->noack)
				log_line(c, "<- - (nak outside a reply: ignored)");
			/* '+' and junk between packets: skipped */
			break;
		case P_DATA:
			c->sum += ch;
			if (ch == '}')
				c->st = P_ESC;
			else if (ch == '*' && c->plen)
				c->st = P_RUN;
			else
				put(c, ch);
			break;
		case P_ESC:
			c->sum += ch;
			put(c, ch ^ 0x20);
			c->st = P_DATA;
			break;
		case P_RUN:
			c->sum += ch;
			for (n = ch - 29; n > 0 && !c->over; n--)
				put(c, (unsigned char)c->pkt[c->plen - 1]);
			if (n > 0)
				c->over = 1;
			c->st = P_DATA;
			break;
		case P_CS1:
			n = hexval(ch);
			c->badhex = n < 0;
			c->want = (unsigned char)((n < 0 ? 0 : n) << 4);
			c->st = P_CS2;
			break;
		case P_CS2:
			n = hexval(ch);
			c->badhex |= n < 0;
			c->want |= (unsigned char)(n < 0 ? 0 : n);
			ev = finish(c);
			if (ev == RSP_NONE)
				break;
			*pkt = c->pkt;
			*len = c->plen;
			return ev;
		}
	}
	return c->closed ? RSP_CLOSED : RSP_NONE;
}

int rsp_take_interrupt(struct rsp_conn *c)
{
	enum rsp_pstate st = c->st;
	size_t i;

	for (i = c->ipos; i < c->ilen; i++) {
		unsigned char ch = c->in[i];

		switch (st) {
		case P_IDLE:
			if (ch == 0x03) {
				memmove(c->in + i, c->in + i + 1, c->ilen - i - 1);
				c->ilen--;
				log_line(c, "<- interrupt (0x03)");
				return 1;
			}
			if (ch == '$')
				st = P_DATA;
			break;
		case P_CS1: st = P_CS2; break;
		case P_CS2: st = P_IDLE; break;
		default:
			if (ch == '#')
				st = P_CS1;
			break;
		}
	}
	return 0;
}

/* Frame and escape data into c->out; its length. */
static size_t frame(struct rsp_conn *c, const unsigned char *data, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char sum = 0;
	size_t i, n = 0;

	c->out[n++] = '$';
	for (i = 0; i < len; i++) {
		unsigned char ch = data[i];

		if (ch == '#' || ch == '$' || ch == '}' || ch == '*') {
			c->out[n++] = '}';
			sum += '}';
			ch ^= 0x20;
		}
		c->out[n++] = (char)ch;
		sum += ch;
	}
	c->out[n++] = '#';
	c->out[n++] = hex[sum >> 4];
	c->out[n++] = hex[sum & 15];
	return n;
}

/* Wait for GDB's '+' to the packet just sent (n bytes in c->out). */
static int wait_ack(struct rsp_conn *c, size_t n)
{
	int resends = 0;

	for (;;) {
		unsigned char ch;

		if (c->ipos == c->ilen) {
			struct pollfd p = {.fd = c->fd, .events = POLLIN};
			int r = poll(&p, 1, RSP_ACK_TIMEOUT_MS);

			if (r < 0 && errno == EINTR)
				continue;
			if (r == 0) {
				log_line(c, "no ack from GDB for 10 s: connection dropped");
				c->closed = 1;
				return -1;
			}
			if (r < 0 || rsp_fill(c) < 0) {
				c->closed = 1;
				return -1;
			}
			continue;
		}
		ch = c->in[c->ipos];
		if (ch == '+') {
			c->ipos++;
			return 0;
		}
		if (ch == '$')
			return 0; /* GDB moved on: its next packet acknowledges ours */
		c->ipos++;
		if (ch == '-') {
			if (++resends > RSP_RESENDS) {
				log_line(c, "<- - (too many naks: connection dropped)");
				c->closed = 1;
				return -1;
			}
			log_line(c, "<- - (resending)");
			if (write_all(c, c->out, n))
				return -1;
		} else if (ch == 0x03) {
			log_line(c, "<- interrupt (0x03) while halted: ignored");
		}
	}
}

int rsp_send(struct rsp_conn *c, const void *data, size_t len)
{
	size_t n;

	if (c->closed)
		return -1;
	if (len > RSP_PACKET_MAX)
		return error("rsp: reply of %zu bytes exceeds the packet size %d", len,
			     RSP_PACKET_MAX);
	n = frame(c, data, len);
	log_bytes(c, "-> ", data, len);
	if (write_all(c, c->out, n))
		return -1;
	/* Acks follow GDB's packets; mid-packet input cannot hold ours. */
	if (c->noack || c->st != P_IDLE)
		return 0;
	return wait_ack(c, n);
}

int rsp_send_str(struct rsp_conn *c, const char *s)
{
	return rsp_send(c, s, strlen(s));
}

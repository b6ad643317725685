/*
 * rsp: the framing layer of the GDB Remote Serial Protocol on one
 * connected socket (DESIGN.md section 8). It turns the byte stream into
 * packets and back; what the packets mean is server/gdbserver.c's business.
 *
 *   packet    '$' payload '#' c1 c2       c1 c2 = sum of payload bytes mod 256,
 *                                          two lowercase hex digits
 *   +---+----------------------+---+----+----+
 *   | $ | payload (escaped)    | # | c1 | c2 |
 *   +---+----------------------+---+----+----+
 *   escape    '}' (x ^ 0x20)            for x in  # $ } *   (both directions)
 *   run       x '*' n                   x repeated n - 29 more times (input only;
 *                                          GDB never sends it, accepted anyway)
 *   ack       '+' good packet, '-' bad checksum: resend (until QStartNoAckMode)
 *   interrupt 0x03 between packets       (Ctrl-C while the target runs)
 *
 * The checksum covers the payload as transmitted (escapes included). Bytes
 * between packets other than '+', '-', 0x03 are skipped. A '$' inside a
 * packet starts a new one (GDB does the same). Decoded payloads longer than
 * RSP_PACKET_MAX are read to their end and reported as RSP_OVERSIZE; they
 * never overflow a buffer.
 *
 * One thread at a time may use a connection. While the target runs, the
 * gdbserver's watcher thread owns it and only calls rsp_fill() and
 * rsp_take_interrupt(); the server thread takes it back after joining it.
 */
#ifndef RAPTOR_SERVER_RSP_H
#define RAPTOR_SERVER_RSP_H

#include <stddef.h>
#include <stdio.h>

#include "util/util.h"

/* The largest payload either side sends: qSupported's PacketSize=4000 (hex). */
#define RSP_PACKET_MAX 16384

struct rsp_conn;

enum rsp_event {
	RSP_CLOSED = -1,   /* end of file or a socket error: the connection is over */
	RSP_NONE = 0,	   /* no complete packet buffered: rsp_fill() and ask again */
	RSP_PACKET = 1,	   /* a packet, acknowledged ('+') in ack mode */
	RSP_INTERRUPT = 2, /* a 0x03 byte between packets */
	RSP_OVERSIZE = 3,  /* a packet longer than RSP_PACKET_MAX: reply with an error */
	RSP_BADSUM = 4,	   /* no-ack mode only: a packet with a wrong checksum */
};

/*
 * A connection on the connected socket (or socketpair end) fd, in ack
 * mode. It owns fd from now on: rsp_conn_free() closes it. NULL (with an
 * error) when out of memory; fd is then closed too.
 */
struct rsp_conn *rsp_conn_new(int fd) MUST_CHECK;
/* Close the socket and free the connection. NULL is allowed. */
void rsp_conn_free(struct rsp_conn *c);

/* The socket, for poll(). */
int rsp_fd(const struct rsp_conn *c);
/*
 * Bytes already read from the socket (by whoever accepted it), to be
 * parsed before anything rsp_fill() reads. 0, or -1 if they do not fit the
 * input buffer.
 */
int rsp_prime(struct rsp_conn *c, const void *data, size_t n) MUST_CHECK;
/*
 * Log every packet in ("<- ") and out ("-> ") and every ack, nak and
 * interrupt to log (NULL: no logging), one line each, binary bytes as \xNN.
 */
void rsp_set_log(struct rsp_conn *c, FILE *log);
/* Leave (on = 1) ack mode: no '+'/'-' either way from now on. */
void rsp_set_noack(struct rsp_conn *c, int on);
int rsp_noack(const struct rsp_conn *c);
/* 1 once end of file or a socket error was seen. */
int rsp_closed(const struct rsp_conn *c);

/*
 * Read whatever the socket has (blocks if nothing: call it after poll()
 * says readable) into the input buffer. >0 bytes read, 0 when the buffer is
 * full (nothing read), -1 on end of file or error (rsp_closed() is then 1).
 */
int rsp_fill(struct rsp_conn *c);
/*
 * Parse the buffered input: the next event, without blocking (RSP_NONE when
 * more bytes are needed). For RSP_PACKET, *pkt gets the decoded payload
 * (NUL-terminated; binary payloads may contain NUL, *len is exact), valid
 * until the next rsp_next(). In ack mode a good packet is acknowledged
 * with '+', a bad one refused with '-' (and skipped: GDB resends it). May
 * write acks, so RSP_CLOSED also means a failed write.
 */
enum rsp_event rsp_next(struct rsp_conn *c, const char **pkt, size_t *len);
/*
 * Whether a 0x03 lies between packets in the buffered, not yet parsed
 * input: if so remove it and return 1 (for the watcher thread, so that
 * Ctrl-C reaches the target while the server thread is busy); else 0.
 */
int rsp_take_interrupt(struct rsp_conn *c);

/*
 * Send one packet with payload data[0..len) (escaped here: GDB unescapes
 * binary replies, and text replies never hold the four special bytes). In
 * ack mode wait for '+' (resending on '-', at most a few times; a new
 * packet from GDB counts as an ack). 0, or -1 when the connection failed
 * or GDB stopped answering (rsp_closed() is then 1).
 */
int rsp_send(struct rsp_conn *c, const void *data, size_t len) MUST_CHECK;
/* rsp_send() of a NUL-terminated string. */
int rsp_send_str(struct rsp_conn *c, const char *s) MUST_CHECK;

#endif

/*
 * gdbserver: the GDB Remote Serial Protocol server (DESIGN.md section 8),
 * speaking to one GDB at a time over TCP and to the debugged target only
 * through struct rsp_target_ops (server/target.h). It behaves like
 * OpenOCD's gdbserver with `-rtos hwthread` (threads = cores) plus rr's
 * reverse execution, for gdb-multiarch 13.
 *
 * qSupported: PacketSize=4000 (RSP_PACKET_MAX), QStartNoAckMode,
 * qXfer:features:read (target.xml, server/tdesc.h), qXfer:threads:read,
 * ReverseStep, ReverseContinue, swbreak, hwbreak, vContSupported, and
 * qXfer:exec-file:read when ops->exec_file names the ELF (GDB then loads
 * its symbols by itself). vCont? answers vCont;c;C;s;S; signals are
 * ignored; `x` (binary read, GDB 15) is not offered: GDB 13 uses `m`.
 *
 * Threads: GDB thread id = core + 1 (lowercase hex on the wire); 0 means
 * any thread, -1 all. Register and memory packets (and monitor reg, mdw,
 * targets' '*') act for the Hg thread (any: the last reported one); c, s,
 * bc and bs for the Hc thread, and with Hc0 or Hc-1 (GDB resuming every
 * thread) for the Hg thread: the one the user selected, whose registers
 * GDB read last (`thread 3` then `reverse-stepi` steps core 2 back); vCont
 * names its threads. After each stop reply the Hg thread is the reported
 * one, as GDB assumes.
 *
 * Scheduler-locking: a resume of one thread alone (Hc with a thread, then
 * c, s, bc or bs; a vCont whose actions all name one thread, no default)
 * cannot hold the other cores in a replay: they run as recorded, but only
 * that thread's break- and watchpoints stop it, and the stop names it (GDB
 * 13 fails an assertion when a thread it did not resume reports a stop).
 * GDB does this itself too, in every mode, to step a thread over a
 * breakpoint. GDB keeps the registers of the threads it did not resume.
 *
 * Stop replies, always with the thread:
 *   T05thread:N;                  a step finished
 *   T05thread:N;swbreak:;         a Z0 breakpoint (hwbreak:; for Z1), when
 *                                 GDB's qSupported offered swbreak+/hwbreak+
 *   T05thread:N;watch:ADDR;       a Z2 watchpoint (rwatch:, awatch: for Z3,
 *                                 Z4); GDB for ARM then steps the thread once
 *                                 more itself ("non-steppable" watchpoints)
 *   T05thread:N;replaylog:begin;  reverse execution reached the beginning
 *   T05thread:N;replaylog:end;    forward execution reached the end, and
 *                                 also when the program exited there
 *                                 (RSP_STOP_EXITED): a `W` reply would make
 *                                 GDB mourn the inferior and forbid reverse
 *                                 execution afterwards; the exit status is
 *                                 told as console output ('O') instead
 *   T02thread:N;                  interrupted (Ctrl-C, a client that went
 *                                 away, or gdbserver_stop())
 *   T06thread:N;                  resume() failed (a damaged recording):
 *                                 GDB says "SIGABRT" after the reason,
 *                                 sent as console output, and stops even
 *                                 in the middle of a `next`
 *
 * Errors: E01 a malformed packet or argument, or a target call that failed
 * (memory, registers, break/watchpoints: its reason goes to the log);
 * E02 an unknown thread; E03 a packet longer than PacketSize. Writes (G, P,
 * M, X) are refused with "E.replay is read-only" (GDB shows the text for
 * registers). A partly unknown `m` range returns its known prefix (GDB then
 * asks for the rest and reports the first unknown address); an unknown first
 * byte is E01 (and to LLDB any unknown byte: see below). Anything
 * unsupported gets the empty reply. No input makes the server exit: a
 * broken client only ends its own session.
 *
 * Monitor commands (qRcmd), OpenOCD's dialect: help (then the target's
 * "help"), reset [halt|init] (ops->reset), halt, targets, reg [NAME],
 * mdw/mdh/mdb [phys] ADDR [COUNT] (unknown bytes as xx); anything else
 * goes to ops->monitor. Output is console output ('O' packets); a command
 * that fails or is unknown prints why and replies E01, so GDB scripts stop
 * there (GDB adds "Protocol error with Rcmd"). A command that moves the
 * replay leaves GDB's register cache stale: `reset` says to run
 * `flushregs` (the target's own `goto` should say so too).
 *
 * LLDB (its gdb-remote client, LLDB 14) reads target.xml as GDB does and
 * asks a few packets of its own:
 *   qHostInfo, qProcessInfo  the triple ARCH-none-eabi (ARCH from
 *                            ops->llvm_arch, "armv7m" say; plain "arm" when
 *                            the target does not tell), Mach-O cputype 12
 *                            (ARM) and its v6-M/v7-M/v7E-M subtype, little
 *                            endian, 4-byte pointers; the process is pid 1;
 *                            qHostInfo adds watchpoint_exceptions_received:
 *                            before (LLDB then steps over the access itself)
 *   QListThreadsInStopReply  OK, and the client is taken for LLDB (GDB does
 *                            not send it): the session's stop replies (and `?`)
 *                            end with name:coreC;threads:1,..;thread-pcs:..;
 *                            and `?` names thread 1 until the session's first
 *                            stop: LLDB numbers threads in the order it hears
 *                            of them, so its thread #N is then core N-1
 *   qWatchpointSupportInfo   num:32; (the replay has no limit; LLDB wants one)
 *   qXfer:features:read      with an FPU, target.xml adds s0..s31 for LLDB
 *                            (server/tdesc.h), which it does not make from
 *                            d0..d15 itself as GDB does (and GDB must not
 *                            see them)
 * An `m` range that is partly unknown gets E01 in an LLDB session, not its
 * known prefix: LLDB 14 takes a short reply to its 512-byte cache-line
 * reads for a short line, then writes outside its buffer and crashes.
 * And a 0x03 does not cut an LLDB step short (the step runs to its end,
 * the 0x03 is dropped): LLDB sends one by itself whenever another of its
 * threads has a packet to send, and resumes every thread with `c` after
 * the SIGINT stop, which would turn the step into a continue.
 * Everything else LLDB tries gets the empty reply, and LLDB falls back
 * to what GDB uses (QThreadSuffixSupported: Hg/p; jThreadsInfo:
 * qfThreadInfo; x: m; qMemoryRegionInfo: nothing). qThreadStopInfo too, on
 * purpose: told that another thread stopped for no reason (T00), LLDB
 * takes one whose pc is on a breakpoint for stopped there, selects it as
 * the breakpoint's hit and steps it over the breakpoint when it resumes,
 * so the core that reached the breakpoint first would not be the one
 * shown, and the others' hits would never be reported. Without it, only
 * the stop reply's thread has a name in LLDB.
 *
 * Sessions: `k` ends the session at once; vKill and D reply OK and end it.
 * The target keeps its position from one session to the next.
 *
 * Extended mode (`!`, GDB's target extended-remote), as gdbserver --multi
 * with the replay as process 1: vRun;[file][;args] goes back to the
 * beginning (ops->reset; file and arguments ignored) and replies
 * T05thread:1; (qAttached then says 0); vKill, D and k (no reply) leave
 * the session up with no process: `?` says W00, no threads are listed,
 * and packets that need the process (registers, memory, resuming, points,
 * T) get E01 until vRun or vAttach;1, which replies T05thread:1; where the
 * replay is (vAttach of another pid: an E. error). Each session starts
 * attached, outside extended mode. A second
 * GDB that connects while one is attached is accepted, its first packet
 * answered with "E.raptor: another GDB is already attached to this server"
 * (GDB 13 prints it as a warning, then "Remote connection closed"), and
 * closed; the attached session is not disturbed, even during a continue.
 * Unless the attached GDB has hung up by then (a GDB that reconnects at
 * once): the newcomer is then the next session, not a second client.
 */
#ifndef RAPTOR_SERVER_GDBSERVER_H
#define RAPTOR_SERVER_GDBSERVER_H

#include <stdio.h>

#include "server/target.h"
#include "util/util.h"

#define GDBSERVER_DEFAULT_ADDR "127.0.0.1"
#define GDBSERVER_DEFAULT_PORT 3333

struct gdbserver;

/*
 * A server for the target t reached through ops (both must outlive the
 * server; ops->ncores(t) must be 1..8). Not listening yet. NULL (with an
 * error) when out of memory or the pipes cannot be made.
 */
struct gdbserver *gdbserver_new(const struct rsp_target_ops *ops, void *target) MUST_CHECK;
/* Close the listening socket and free the server (not the target). NULL is allowed. */
void gdbserver_free(struct gdbserver *srv);

/*
 * Log every packet in and out, acks, interrupts, connections and the
 * reasons of failed target calls to log (e.g. stderr for --debug); NULL
 * (the default) logs nothing. Takes effect at the next connection.
 */
void gdbserver_set_log(struct gdbserver *srv, FILE *log);

/*
 * Listen on TCP bind_addr (numeric or a host name; NULL:
 * GDBSERVER_DEFAULT_ADDR) port port (0: an ephemeral one), with
 * SO_REUSEADDR. 0 / -1 with an error naming the address and port.
 */
int gdbserver_listen(struct gdbserver *srv, const char *bind_addr, int port) MUST_CHECK;
/* The port listened on (the real one when 0 was asked), or -1 before gdbserver_listen. */
int gdbserver_port(const struct gdbserver *srv);

/*
 * Serve GDB clients one at a time, the next after each disconnects, until
 * gdbserver_stop(). 0 when stopped; -1 (with an error) when not listening
 * or the listening socket fails.
 */
int gdbserver_serve(struct gdbserver *srv) MUST_CHECK;
/*
 * Serve the one client already connected on fd (a socket or socketpair
 * end; the server owns it and closes it) until it disconnects, the session
 * ends (k, vKill, D) or gdbserver_stop(). Other connections to a listening
 * server are refused meanwhile. 0; -1 (with an error) when out of memory.
 */
int gdbserver_serve_fd(struct gdbserver *srv, int fd) MUST_CHECK;
/*
 * Make gdbserver_serve() and gdbserver_serve_fd() return soon: a running
 * resume is interrupted (GDB gets T02) and the session closed. Stays in
 * effect: later calls return at once. Async-signal-safe and thread-safe.
 */
void gdbserver_stop(struct gdbserver *srv);

#endif

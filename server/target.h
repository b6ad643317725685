/*
 * target: what the gdbserver (server/) asks of the thing it debugs. The
 * server reaches the replay only through this ops table, so the protocol
 * tests run against a fake target (tests/unit/rsp_test.c) and `raptor
 * serve` plugs the replay in (replay/target.h).
 *
 * Cores are numbered 0..ncores-1 here; the server maps them to GDB thread
 * ids 1..ncores. Registers use OpenOCD's numbering for ARMv7-M (r0..r12,
 * sp 13, lr 14, pc 15, xpsr 16, msp 17, psp 18, primask 19, basepri 20,
 * faultmask 21, control 22), the same as enum isa_reg. The FP registers of
 * cores with an FPU are s0..s31 then FPSCR (RSP_NFPREGS words, the order of
 * isa_cpu_get_fp); the server shows them to GDB as d0..d15 and fpscr.
 *
 * Every call is made from the server's one thread except interrupt(),
 * which may come from another thread (or a signal handler) while resume()
 * runs. Calls that fail return -1 after writing a one-line reason into the
 * `why` buffer (NUL-terminated, at most RSP_WHY_MAX bytes), which the
 * server may show to the user (an `E.text` reply or monitor output).
 */
#ifndef RAPTOR_SERVER_TARGET_H
#define RAPTOR_SERVER_TARGET_H

#include <stddef.h>
#include <stdint.h>

#define RSP_NREGS 23   /* r0..r15, xpsr, msp, psp, primask, basepri, faultmask, control */
#define RSP_NFPREGS 33 /* s0..s31, fpscr */
#define RSP_WHY_MAX 256

enum rsp_point {
	RSP_BP_SW = 0,	   /* Z0 */
	RSP_BP_HW = 1,	   /* Z1 */
	RSP_WP_WRITE = 2,  /* Z2 */
	RSP_WP_READ = 3,   /* Z3 */
	RSP_WP_ACCESS = 4, /* Z4 */
};

enum rsp_stop_kind {
	RSP_STOP_STEP,	    /* a single step finished: SIGTRAP */
	RSP_STOP_BREAK,	    /* at a breakpoint (before its instruction): SIGTRAP, swbreak/hwbreak */
	RSP_STOP_WATCH,	    /* an access to a watched range: watch/rwatch/awatch (forward:
			     * before the accessing instruction, as GDB on ARM expects;
			     * backward: after it) */
	RSP_STOP_BEGIN,	    /* reverse execution reached the beginning: replaylog:begin */
	RSP_STOP_END,	    /* forward execution reached the end: replaylog:end */
	RSP_STOP_INTERRUPT, /* interrupt() was called: SIGINT */
	RSP_STOP_EXITED,    /* the program exited here (forward); status in `status` */
};

struct rsp_stop {
	enum rsp_stop_kind kind;
	int core;	      /* the core (0-based) the stop is reported for */
	enum rsp_point point; /* RSP_STOP_BREAK / _WATCH: which kind */
	uint32_t addr;	      /* RSP_STOP_WATCH: the watched address accessed */
	int status;	      /* RSP_STOP_EXITED */
};

enum rsp_resume {
	RSP_CONTINUE,
	RSP_STEP, /* one instruction of `core` */
};

struct rsp_target_ops {
	/* Number of cores, 1..8. */
	int (*ncores)(void *t);
	/*
	 * Registers of core at the current position: vals[i] and known[i]
	 * (0 when the recording cannot tell, e.g. a control-flow-only one;
	 * GDB then shows <unavailable>). 0 / -1.
	 */
	int (*read_regs)(void *t, int core, uint32_t vals[RSP_NREGS], uint8_t known[RSP_NREGS],
			 char *why);
	/*
	 * Optional (the op NULL, or returning 0: GDB is not told of FP
	 * registers): 1 when the cores have an FPU whose registers read_fp
	 * gives (FPv4-SP, FPv5: s0..s31 and FPSCR). Asked once, by
	 * gdbserver_new(): it must not change.
	 */
	int (*has_fp)(void *t);
	/*
	 * With has_fp: core's FP registers at the current position, s0..s31
	 * then FPSCR in vals, and known[i] as read_regs says it (0: the
	 * recording cannot tell). 0 / -1.
	 */
	int (*read_fp)(void *t, int core, uint32_t vals[RSP_NFPREGS], uint8_t known[RSP_NFPREGS],
		       char *why);
	/*
	 * Memory as it was at the current position, as core sees it: 0 with
	 * all len bytes in buf, -1 when any byte is unknown or unmapped (why
	 * names the first such address).
	 */
	int (*read_mem)(void *t, int core, uint32_t addr, uint8_t *buf, uint32_t len, char *why);
	/* Insert (on = 1) or remove a break/watchpoint. 0 / -1. */
	int (*point)(void *t, enum rsp_point kind, uint32_t addr, uint32_t len, int on, char *why);
	/*
	 * Run: continue (all cores, in the recorded order) or step core one
	 * instruction, forward or (reverse = 1) backward, until a stop; fills
	 * *stop. Blocks; interrupt() makes it return RSP_STOP_INTERRUPT soon.
	 * alone = 1: GDB resumed core alone (its scheduler-locking): the other
	 * cores still run as recorded, a replay cannot hold them, but only
	 * core's break- and watchpoints stop it and every stop names core.
	 * A stop at either end of the history (RSP_STOP_BEGIN, _END) names
	 * core always: GDB stays on the thread it resumed.
	 * 0 / -1 (a damaged recording: the replay stays where it stopped).
	 */
	int (*resume)(void *t, enum rsp_resume how, int core, int alone, int reverse,
		      struct rsp_stop *stop, char *why);
	/* Ask a running resume() to stop. Async-signal-safe and thread-safe. */
	void (*interrupt)(void *t);
	/* Go back to the beginning of the recording (monitor reset halt). 0 / -1. */
	int (*reset)(void *t, char *why);
	/*
	 * The target's own monitor commands (qRcmd), everything the server does
	 * not handle itself: write the answer (text, lines ending in \n) with
	 * out(ctx, text). 0 done, 1 unknown command, -1 failed (why says why).
	 */
	int (*monitor)(void *t, const char *cmd, void (*out)(void *ctx, const char *text),
		       void *ctx, char *why);
	/* The position (global instruction count) now, for the server's logs. */
	uint64_t (*position)(void *t);
	/*
	 * Optional (the op NULL, or returning NULL: GDB is not told): the
	 * program's ELF file as an absolute path, which GDB then loads its
	 * symbols from when started without a file (qXfer:exec-file:read).
	 */
	const char *(*exec_file)(void *t);
	/*
	 * Optional (the op NULL, or returning NULL: plain "arm"): the cores'
	 * architecture as LLVM's target triples name it ("armv7m",
	 * "armv7em"), for LLDB's qHostInfo and qProcessInfo. A string that
	 * lives as long as the target.
	 */
	const char *(*llvm_arch)(void *t);
};

#endif

/*
 * raptor serve: a recording as a live multicore target for GDB. This file
 * is the replay-backed implementation of server/target.h's ops table; the
 * protocol is all in server/.
 *
 * Watchpoints and GDB on ARM: GDB treats ARM hardware watchpoints as
 * "non-steppable" (the target reports the access before the instruction
 * completes; GDB then single-steps it with the watchpoints removed and
 * compares the values). So a forward stop on a watchpoint is reported in
 * the state just before the accessing instruction, and GDB's own step
 * executes it. Backward, the replay stops in the state just after the
 * access and GDB's reverse step undoes it: either way GDB ends on the
 * accessing instruction with the right old and new values, as on rr.
 */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "replay/replay.h"
#include "server/gdbserver.h"
#include "server/target.h"

static const char serve_usage[] =
	"usage: raptor serve REC [options]\n"
	"\n"
	"Serve the recording in directory REC to GDB as a live multicore Cortex-M\n"
	"target (the GDB remote protocol, as OpenOCD's gdbserver with -rtos\n"
	"hwthread): one GDB thread per core, forward and reverse execution\n"
	"(reverse-step, reverse-continue, reverse-finish ...), breakpoints and\n"
	"watchpoints exact in both directions. Everything shown comes from the\n"
	"ELF, the manifest and the streams; the recording is never written.\n"
	"One GDB at a time; the server keeps serving after it disconnects.\n"
	"\n"
	"options:\n"
	"  --port N         TCP port (default 3333; 0 picks a free one)\n"
	"  --bind ADDR      address to listen on (default 127.0.0.1)\n"
	"  --at WHERE       start at 'begin' (default), 'end' or a POSITION\n"
	"                   (instructions retired by all cores)\n"
	"  --interval N     instructions between checkpoints (default 65536)\n"
	"  --memory SIZE    memory the checkpoints may hold (default 512M; K, M, G\n"
	"                   suffixes): over it they are compressed and thinned out\n"
	"                   far from the current position\n"
	"  --debug          log every packet to stderr\n"
	"  --port-file F    write the port listened on to F (for scripts)\n"
	"  -h, --help       this text\n"
	"\n"
	"In GDB: 'monitor help' lists the monitor commands: OpenOCD's (reset halt,\n"
	"targets, reg, mdw/mdh/mdb) and raptor's (info, time, goto, stats,\n"
	"who-wrote ADDR [LEN]).\n"
	"\n"
	"Exit status: 0 after SIGINT/SIGTERM, 1 when the recording cannot be\n"
	"opened or the port cannot be bound, 2 for bad usage.\n";

/* A break/watchpoint as GDB inserted it; counted, GDB may insert twice. */
struct point {
	enum rsp_point kind;
	uint32_t addr, len;
	int refs;
};

struct serve {
	struct rpl *r;
	const char *dir;
	char *elf; /* the program's absolute path, for GDB's qXfer:exec-file */
	struct point pts[2 * RPL_MAX_POINTS];
	int npts;
};

static void set_why(char *why, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void set_why(char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, RSP_WHY_MAX, fmt, ap);
	va_end(ap);
}

/* The replay's latest error as the reason, after what (NULL: nothing). */
static int failed(char *why, const char *what)
{
	if (what)
		set_why(why, "%s: %s", what, error_last());
	else
		set_why(why, "%s", error_last());
	return -1;
}

static int t_ncores(void *t)
{
	return rpl_ncores(((struct serve *)t)->r);
}

static int t_read_regs(void *t, int core, uint32_t vals[RSP_NREGS], uint8_t known[RSP_NREGS],
		       char *why)
{
	struct serve *s = t;
	struct isa_cpu *cpu;

	if (core < 0 || core >= rpl_ncores(s->r)) {
		set_why(why, "no core %d", core);
		return -1;
	}
	cpu = rpl_cpu(s->r, core);
	for (int i = 0; i < RSP_NREGS; i++) {
		/* control flow only: the PC is all the recording knows */
		known[i] = i == ISA_R_PC || rpl_regs_known(s->r);
		vals[i] = known[i] ? isa_cpu_get(cpu, (enum isa_reg)i) : 0;
	}
	return 0;
}

static int t_read_mem(void *t, int core, uint32_t addr, uint8_t *buf, uint32_t len, char *why)
{
	struct serve *s = t;
	uint32_t unknown = 0;
	int k = rpl_read_mem(s->r, addr, buf, len, &unknown);

	if (k < 0) {
		set_why(why, "0x%08x..0x%08x is not memory the recording holds (ROM or SRAM)",
			addr, addr + len - 1);
		return -1;
	}
	if (k > 0) {
		set_why(why, "the byte at 0x%08x is not known at position %" PRIu64
			" (never loaded or stored before)", unknown, rpl_position(s->r));
		return -1;
	}
	return 0;
}

static struct point *find_point(struct serve *s, enum rsp_point kind, uint32_t addr, uint32_t len)
{
	for (int i = 0; i < s->npts; i++)
		if (s->pts[i].kind == kind && s->pts[i].addr == addr &&
		    (kind <= RSP_BP_HW || s->pts[i].len == len))
			return &s->pts[i];
	return NULL;
}

static enum rpl_watch_kind watch_kind(enum rsp_point kind)
{
	return kind == RSP_WP_WRITE ? RPL_WATCH_WRITE :
	       kind == RSP_WP_READ  ? RPL_WATCH_READ :
				      RPL_WATCH_ACCESS;
}

/* Set or clear the point in the replay (once per address for breakpoints). */
static int apply_point(struct serve *s, enum rsp_point kind, uint32_t addr, uint32_t len, int on)
{
	if (kind <= RSP_BP_HW) {
		/* Z0 and Z1 at one address are one replay breakpoint */
		if (find_point(s, kind == RSP_BP_SW ? RSP_BP_HW : RSP_BP_SW, addr, 0))
			return 0;
		return rpl_break(s->r, addr, on);
	}
	return rpl_watch(s->r, addr, len, watch_kind(kind), on);
}

static int t_point(void *t, enum rsp_point kind, uint32_t addr, uint32_t len, int on, char *why)
{
	struct serve *s = t;
	struct point *p = find_point(s, kind, addr, len);

	if (on) {
		if (p) {
			p->refs++;
			return 0;
		}
		if (s->npts == (int)ARRAY_SIZE(s->pts)) {
			set_why(why, "%d break- and watchpoints already set", s->npts);
			return -1;
		}
		if (apply_point(s, kind, addr, len, 1))
			return failed(why, "cannot set it");
		s->pts[s->npts++] = (struct point){ kind, addr, len, 1 };
		return 0;
	}
	if (!p) {
		set_why(why, "no such point at 0x%08x", addr);
		return -1;
	}
	if (--p->refs)
		return 0;
	*p = s->pts[--s->npts];
	if (apply_point(s, kind, addr, len, 0))
		return failed(why, "cannot remove it");
	return 0;
}

/* Switch every point off (on = 0) or back on, around monitor searches. */
static int all_points(struct serve *s, int on)
{
	for (int i = 0; i < s->npts; i++) {
		const struct point *p = &s->pts[i];
		int twin = 0;

		if (p->kind > RSP_BP_HW) {
			if (rpl_watch(s->r, p->addr, p->len, watch_kind(p->kind), on))
				return -1;
			continue;
		}
		/* Z0 and Z1 at one address are one replay breakpoint: once */
		for (int k = 0; k < i; k++)
			twin |= s->pts[k].kind <= RSP_BP_HW && s->pts[k].addr == p->addr;
		if (!twin && rpl_break(s->r, p->addr, on))
			return -1;
	}
	return 0;
}

static int t_resume(void *t, enum rsp_resume how, int core, int reverse, struct rsp_stop *stop,
		    char *why)
{
	struct serve *s = t;
	struct rpl_stop st;
	struct point *p;
	int k;

	memset(stop, 0, sizeof(*stop));
	if (how == RSP_STEP)
		k = rpl_stepi(s->r, core, reverse, &st);
	else
		k = rpl_continue(s->r, reverse, &st);
	if (k)
		return failed(why, NULL);
	stop->core = st.core;
	switch (st.kind) {
	case RPL_STOP_BREAK:
		stop->kind = RSP_STOP_BREAK;
		p = find_point(s, RSP_BP_SW, isa_cpu_get(rpl_cpu(s->r, st.core), ISA_R_PC), 0);
		stop->point = p ? RSP_BP_SW : RSP_BP_HW;
		break;
	case RPL_STOP_WATCH:
		stop->kind = RSP_STOP_WATCH;
		stop->point = st.watch.kind == RPL_WATCH_WRITE ? RSP_WP_WRITE :
			      st.watch.kind == RPL_WATCH_READ  ? RSP_WP_READ :
								 RSP_WP_ACCESS;
		stop->addr = st.addr;
		/* forward: before the access (see the top of this file) */
		if (!reverse && rpl_seek_step(s->r, st.step - 1) < 0)
			return failed(why, NULL);
		break;
	case RPL_STOP_STEP:
		stop->kind = RSP_STOP_STEP;
		break;
	case RPL_STOP_BEGIN:
		stop->kind = RSP_STOP_BEGIN;
		break;
	case RPL_STOP_END:
		stop->kind = RSP_STOP_END;
		break;
	case RPL_STOP_INTERRUPT:
		stop->kind = RSP_STOP_INTERRUPT;
		break;
	default:
		set_why(why, "the replay stopped for no reason (%d)", st.kind);
		return -1;
	}
	return 0;
}

static void t_interrupt(void *t)
{
	rpl_interrupt(((struct serve *)t)->r);
}

static int t_reset(void *t, char *why)
{
	if (rpl_seek_step(((struct serve *)t)->r, 0) < 0)
		return failed(why, "cannot go to the beginning");
	return 0;
}

static uint64_t t_position(void *t)
{
	return rpl_position(((struct serve *)t)->r);
}

static const char *t_exec_file(void *t)
{
	return ((struct serve *)t)->elf;
}

/* ---- raptor's monitor commands ------------------------------------------------------ */

typedef void out_fn(void *ctx, const char *text);

static void outf(out_fn *out, void *ctx, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void outf(out_fn *out, void *ctx, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	out(ctx, buf);
}

static const char *enc_name(const struct st_manifest *m, int lv)
{
	static const char *const cf_names[] = { [ST_CF_NXB] = "NX_b", [ST_CF_TRB] = "TR_b",
						[ST_CF_TRE] = "TR_e", [ST_CF_TRA] = "TR_a" };
	static const char *const lv_names[] = { [ST_LV_NXLV] = "NX-LV", [ST_LV_CFIAT] = "CFiat",
						[ST_LV_MC2RT] = "mc2RT", [ST_LV_CFIATA] = "CFiat_a" };

	if (lv)
		return !m->lv_on ? "none" : lv_names[st_lv_format_enc(&m->lv)];
	return !m->cf_on ? "none" : cf_names[st_cf_format_enc(&m->cf)];
}

static int mon_info(struct serve *s, const char *arg, out_fn *out, void *ctx, char *why)
{
	const struct st_manifest *m = rpl_manifest(s->r);
	int status;

	outf(out, ctx, "recording %s (%s), made by %s\n", s->dir,
	     m->complete ? "complete" : "partial: the recorder was stopped", m->tool);
	outf(out, ctx, "program %s, sha256 %.16s..., Cortex-%s\n", m->elf, m->sha256,
	     m->model == ISA_CORTEX_M4 ? "M4" : "M3");
	outf(out, ctx, "%d cores (GDB threads 1..%d), timing seed %" PRIu64 ", jitter %u\n",
	     m->ncores, m->ncores, m->seed, m->jitter);
	outf(out, ctx, "control flow: %s%s, %zu bits, predictors %s %u/%u/%u%s\n",
	     enc_name(m, 0), m->cf_on && !m->cf.timed ? " (functional)" : "", (size_t)m->cf_bits,
	     m->bp_shared ? "shared" : "per core", m->bp.gshare, m->bp.ras, m->bp.ibtb,
	     m->bp.dir == BP_DIR_TAGE ? " (gshare/RAS/iBTB entries; a TAGE in the gshare's bits)"
				      : " (gshare/RAS/iBTB entries)");
	if (m->lv_on)
		outf(out, ctx, "load values: %s, %zu bits, %s cache %u bytes, %u-way, %u-byte "
		     "lines, %u-byte granules\n", enc_name(m, 1), (size_t)m->lv_bits,
		     m->cache.shared ? "shared" : "private", m->cache.size, m->cache.assoc,
		     m->cache.line, m->cache.granule);
	else
		outf(out, ctx, "load values: not traced (registers and memory unavailable)\n");
	if (rpl_exited(s->r, &status))
		outf(out, ctx, "the program exited with status %d at position %" PRIu64 "\n",
		     status, rpl_position(s->r));
	return 0;
}

static int mon_time(struct serve *s, const char *arg, out_fn *out, void *ctx, char *why)
{
	outf(out, ctx, "position %" PRIu64 " (step %" PRIu64 ")\n", rpl_position(s->r),
	     rpl_steps(s->r));
	for (int i = 0; i < rpl_ncores(s->r); i++)
		outf(out, ctx, "  core%d (thread %d): %" PRIu64 " instructions, cycle %" PRIu64
		     ", pc 0x%08x\n", i, i + 1, rpl_core_insns(s->r, i), rpl_cycles(s->r, i),
		     isa_cpu_get(rpl_cpu(s->r, i), ISA_R_PC));
	return 0;
}

static int mon_goto(struct serve *s, const char *arg, out_fn *out, void *ctx, char *why)
{
	uint64_t pos;
	int k;

	if (!strcmp(arg, "begin"))
		k = rpl_seek_step(s->r, 0);
	else if (!strcmp(arg, "end"))
		k = rpl_seek(s->r, UINT64_MAX);
	else if (!parse_u64(arg, &pos))
		k = rpl_seek(s->r, pos);
	else {
		set_why(why, "'%s' is not a position, 'begin' or 'end'", arg);
		return -1;
	}
	if (k < 0)
		return failed(why, NULL);
	outf(out, ctx, "at position %" PRIu64 "%s; GDB still shows the old state: run "
	     "'flushregs' (or gdbscripts' 'raptor goto')\n",
	     rpl_position(s->r), k == 1 ? " (the end of the recording)" : "");
	return 0;
}

static int mon_stats(struct serve *s, const char *arg, out_fn *out, void *ctx, char *why)
{
	const struct st_manifest *m = rpl_manifest(s->r);
	uint64_t pos = rpl_position(s->r), bytes;
	size_t n = rpl_checkpoints(s->r, &bytes);

	outf(out, ctx, "position %" PRIu64 "; %zu checkpoints, %.1f MiB\n", pos, n,
	     bytes / 1048576.0);
	outf(out, ctx, "streams: cf %" PRIu64 " bits, lv %" PRIu64 " bits\n", m->cf_bits,
	     m->lv_bits);
	if (rpl_exited(s->r, NULL) && pos)
		outf(out, ctx, "whole run: %.4f cf + %.4f lv bits per instruction\n",
		     (double)m->cf_bits / pos, (double)m->lv_bits / pos);
	outf(out, ctx, "'raptor stat %s' has every encoding's figures\n", s->dir);
	return 0;
}

/*
 * who-wrote ADDR [LEN]: the last store into [ADDR, ADDR + LEN) before now,
 * found by a reverse continue on a temporary write watchpoint with GDB's
 * points set aside; the replay comes back to where it was.
 */
static int mon_who_wrote(struct serve *s, const char *arg, out_fn *out, void *ctx, char *why)
{
	uint64_t addr, len = 1, home = rpl_steps(s->r), now = rpl_position(s->r), pos;
	char *end, *rest;
	struct rpl_stop st;
	uint32_t pc, val, unknown;
	uint8_t buf[4];
	unsigned n;
	int k, core;

	addr = strtoull(arg, &end, 0);
	if (end == arg || addr > 0xffffffffu) {
		set_why(why, "'%s' is not an address (who-wrote ADDR [LEN])", arg);
		return -1;
	}
	rest = end + strspn(end, " \t");
	if (*rest && (parse_u64(rest, &len) || !len || len > 4096)) {
		set_why(why, "'%s' is not a length from 1 to 4096", rest);
		return -1;
	}
	if (all_points(s, 0))
		return failed(why, NULL);
	k = rpl_watch(s->r, (uint32_t)addr, (uint32_t)len, RPL_WATCH_WRITE, 1);
	if (!k)
		k = rpl_continue(s->r, 1, &st);
	if (rpl_watch(s->r, (uint32_t)addr, (uint32_t)len, RPL_WATCH_WRITE, 0))
		k = -1;
	if (k) {
		k = failed(why, NULL);
		goto back;
	}
	if (st.kind != RPL_STOP_WATCH) {
		outf(out, ctx, "nothing stored into 0x%08x..0x%08x before position %" PRIu64
		     "%s\n", (uint32_t)addr, (uint32_t)(addr + len - 1), now,
		     st.kind == RPL_STOP_INTERRUPT ? " (interrupted)" : "");
		goto back;
	}
	core = st.core;
	pos = st.position;
	n = len < 4 ? (unsigned)len : 4;
	if (rpl_read_mem(s->r, (uint32_t)addr, buf, n, &unknown)) {
		set_why(why, "0x%08x is not known after the store", unknown);
		k = -1;
		goto back;
	}
	val = 0;
	for (unsigned i = 0; i < n; i++)
		val |= (uint32_t)buf[i] << 8 * i;
	/* the store instruction's address: one reverse step of its core */
	if (rpl_stepi(s->r, core, 1, &st)) {
		k = failed(why, NULL);
		goto back;
	}
	pc = isa_cpu_get(rpl_cpu(s->r, core), ISA_R_PC);
	outf(out, ctx, "0x%08x was last written by core%d (thread %d), pc 0x%08x, "
	     "instruction at position %" PRIu64 ": %u byte%s now 0x%0*x\n",
	     (uint32_t)addr, core, core + 1, pc, pos, n, n == 1 ? "" : "s", 2 * n, val);
	k = 0;
back:
	if (rpl_seek_step(s->r, home) < 0 && !k)
		k = failed(why, "cannot come back");
	if (all_points(s, 1) && !k)
		k = failed(why, "cannot restore the break- and watchpoints");
	return k;
}

static const struct {
	const char *name, *usage;
	int (*fn)(struct serve *s, const char *arg, out_fn *out, void *ctx, char *why);
} monitors[] = {
	{ "info", "info: the recording, program, cores and trace configuration", mon_info },
	{ "time", "time: the current position, each core's instructions, cycle and pc",
	  mon_time },
	{ "goto", "goto POSITION|begin|end: move the replay", mon_goto },
	{ "stats", "stats: stream sizes, bits per instruction, checkpoints", mon_stats },
	{ "who-wrote", "who-wrote ADDR [LEN]: the last store into ADDR before now",
	  mon_who_wrote },
};

static int t_monitor(void *t, const char *cmd, out_fn *out, void *ctx, char *why)
{
	size_t n;

	while (*cmd == ' ')
		cmd++;
	if (!strcmp(cmd, "help")) {
		out(ctx, "raptor's commands:\n");
		for (size_t i = 0; i < ARRAY_SIZE(monitors); i++)
			outf(out, ctx, "  %s\n", monitors[i].usage);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(monitors); i++) {
		n = strlen(monitors[i].name);
		if (!strncmp(cmd, monitors[i].name, n) && (!cmd[n] || cmd[n] == ' '))
			return monitors[i].fn(t, cmd + n + strspn(cmd + n, " "), out, ctx, why);
	}
	return 1;
}

static const struct rsp_target_ops serve_ops = {
	.ncores = t_ncores,
	.read_regs = t_read_regs,
	.read_mem = t_read_mem,
	.point = t_point,
	.resume = t_resume,
	.interrupt = t_interrupt,
	.reset = t_reset,
	.monitor = t_monitor,
	.position = t_position,
	.exec_file = t_exec_file,
};

/* ---- the command ---------------------------------------------------------------------- */

static struct gdbserver *the_server;

static void on_signal(int sig)
{
	if (the_server)
		gdbserver_stop(the_server);
}

/* Go to --at's place, with progress on a terminal. 0 / -1. */
static int go_to_start(struct serve *s, const char *at)
{
	uint64_t pos, step = 1000000;
	int tty = isatty(2), k;

	if (!strcmp(at, "begin"))
		return 0;
	if (!strcmp(at, "end"))
		pos = UINT64_MAX;
	else if (parse_u64(at, &pos))
		return error("--at: '%s' is not 'begin', 'end' or a position", at);
	for (;;) {
		uint64_t next = rpl_position(s->r) + step;

		if (next > pos)
			next = pos;
		k = rpl_run(s->r, next);
		if (k < 0)
			return -1;
		if (tty)
			fprintf(stderr, "\rraptor serve: indexing, position %" PRIu64 "...",
				rpl_position(s->r));
		if (k == 1 || rpl_position(s->r) >= pos)
			break;
	}
	if (tty)
		fputc('\n', stderr);
	if (k == 1 && pos != UINT64_MAX)
		warning("--at %s: the recording ends at position %" PRIu64, at,
			rpl_position(s->r));
	return 0;
}

int cmd_serve(int argc, char **argv)
{
	enum { O_PORT = 256, O_BIND, O_AT, O_INTERVAL, O_DEBUG, O_PORTFILE, O_MEMORY };
	static const struct option opts[] = {
		{ "port", required_argument, NULL, O_PORT },
		{ "bind", required_argument, NULL, O_BIND },
		{ "at", required_argument, NULL, O_AT },
		{ "interval", required_argument, NULL, O_INTERVAL },
		{ "memory", required_argument, NULL, O_MEMORY },
		{ "debug", no_argument, NULL, O_DEBUG },
		{ "port-file", required_argument, NULL, O_PORTFILE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bind = "127.0.0.1", *at = "begin", *port_file = NULL;
	uint64_t port = 3333, interval = 0, memory = RPL_DEFAULT_MEMORY;
	struct serve s = { 0 };
	struct sigaction sa;
	char path[4096];
	int opt, debug = 0, rc = 1;
	FILE *f;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case O_PORT:
			if (parse_u64(optarg, &port) || port > 65535)
				return error("--port: '%s' is not a port number", optarg), 2;
			break;
		case O_BIND:
			bind = optarg;
			break;
		case O_AT:
			at = optarg;
			break;
		case O_INTERVAL:
			if (parse_u64(optarg, &interval) || !interval)
				return error("--interval: '%s' is not a positive number", optarg), 2;
			break;
		case O_MEMORY:
			if (parse_size(optarg, &memory))
				return error("--memory: '%s' is not a size (512M, 2G, ...)", optarg), 2;
			break;
		case O_DEBUG:
			debug = 1;
			break;
		case O_PORTFILE:
			port_file = optarg;
			break;
		case 'h':
			fputs(serve_usage, stdout);
			return 0;
		default:
			fputs(serve_usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		error("serve: exactly one recording directory expected");
		fputs(serve_usage, stderr);
		return 2;
	}
	s.dir = argv[optind];
	s.r = rpl_open(s.dir);
	if (!s.r)
		return 1;
	if (interval)
		rpl_set_interval(s.r, interval);
	rpl_set_memory(s.r, memory);
	snprintf(path, sizeof(path), "%s/%s", s.dir, rpl_manifest(s.r)->elf);
	s.elf = realpath(path, NULL);
	if (go_to_start(&s, at))
		goto out;
	the_server = gdbserver_new(&serve_ops, &s);
	if (!the_server)
		goto out;
	if (debug)
		gdbserver_set_log(the_server, stderr);
	if (gdbserver_listen(the_server, bind, (int)port))
		goto out;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (port_file) {
		f = fopen(port_file, "w");
		if (!f || fprintf(f, "%d\n", gdbserver_port(the_server)) < 0 || fclose(f)) {
			error("--port-file %s: cannot write it", port_file);
			goto out;
		}
	}
	fprintf(stderr, "raptor serve: %s: %d cores, at position %" PRIu64 "; listening on "
		"%s:%d\n", s.dir, rpl_ncores(s.r), rpl_position(s.r), bind,
		gdbserver_port(the_server));
	fprintf(stderr, "attach with:\n  gdb-multiarch %s/%s -ex 'target remote "
		"%s:%d'\n", s.dir, rpl_manifest(s.r)->elf, bind, gdbserver_port(the_server));
	fflush(stderr);
	rc = gdbserver_serve(the_server) ? 1 : 0;
	fprintf(stderr, "raptor serve: stopped\n");
out:
	if (the_server)
		gdbserver_free(the_server);
	the_server = NULL;
	rpl_close(s.r);
	free(s.elf);
	return rc;
}

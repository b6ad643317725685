/*
 * target: the replay as the gdbserver's target (replay/target.h).
 */
#include "replay/target.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/bgindex.h"
#include "replay/etmpath.h"
#include "isa/model.h"
#include "util/util.h"

_Static_assert(RSP_NFPREGS == ISA_NFPREGS, "read_fp gives isa_cpu_get_fp's registers");
_Static_assert(RSP_NREGS == ISA_NREGS, "read_regs gives enum isa_reg's registers");

/* A break/watchpoint as GDB inserted it; counted, GDB may insert twice. */
struct point {
	enum rsp_point kind;
	uint32_t addr, len;
	int refs;
};

struct rpl_target {
	struct rpl *r;	 /* the target's: replaced once the background index is done */
	const char *elf; /* the program's absolute path, for GDB's qXfer:exec-file */
	struct point pts[2 * RPL_MAX_POINTS];
	int npts;
	struct rpl_bgindex *bg; /* the index being built (not owned), or NULL */
	int adopted;		/* bg's replay was taken (or refused) */
	uint64_t memory;	/* bg's replay's budget once it serves */
	int refused;		/* ... refused: it did not show what this one does */
	char *index;		/* the index loaded at the start, or NULL */
	uint64_t index_count;
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

static void adopt(struct rpl_target *s);

static int t_ncores(void *t)
{
	return rpl_ncores(((struct rpl_target *)t)->r);
}

static int t_read_regs(void *t, int core, uint32_t vals[RSP_NREGS], uint8_t known[RSP_NREGS],
		       char *why)
{
	struct rpl_target *s = t;
	struct isa_cpu *cpu;

	adopt(s);
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

/* The recording's core model has an FPU: the replay holds its registers. */
static int t_has_fp(void *t)
{
	return isa_model_info(rpl_manifest(((struct rpl_target *)t)->r)->model)->fpu !=
	       ISA_FPU_NONE;
}

static int t_read_fp(void *t, int core, uint32_t vals[RSP_NFPREGS], uint8_t known[RSP_NFPREGS],
		     char *why)
{
	struct rpl_target *s = t;
	uint32_t fp[ISA_NFPREGS];
	unsigned n;

	adopt(s);
	if (core < 0 || core >= rpl_ncores(s->r)) {
		set_why(why, "no core %d", core);
		return -1;
	}
	n = isa_cpu_get_fp(rpl_cpu(s->r, core), fp);
	if (n != RSP_NFPREGS) {
		set_why(why, "core %d has no FP registers (%u of %d)", core, n, RSP_NFPREGS);
		return -1;
	}
	for (int i = 0; i < RSP_NFPREGS; i++) {
		/* control flow only: no register but the PC is known */
		known[i] = rpl_regs_known(s->r);
		vals[i] = known[i] ? fp[i] : 0;
	}
	return 0;
}

static int t_read_mem(void *t, int core, uint32_t addr, uint8_t *buf, uint32_t len, char *why)
{
	struct rpl_target *s = t;
	uint32_t unknown = 0;
	int k;

	adopt(s);
	k = rpl_read_mem(s->r, addr, buf, len, &unknown);
	if (k < 0) {
		set_why(why, "0x%08x..0x%08x is not memory the recording holds (ROM or SRAM)", addr,
			addr + len - 1);
		return -1;
	}
	if (k > 0) {
		set_why(why,
			"the byte at 0x%08x is not known at position %" PRIu64
			" (the recording does not determine it: no access before, and none "
			"after that is a load seen so far)",
			unknown, rpl_position(s->r));
		return -1;
	}
	return 0;
}

static struct point *find_point(struct rpl_target *s, enum rsp_point kind, uint32_t addr,
				uint32_t len)
{
	for (int i = 0; i < s->npts; i++)
		if (s->pts[i].kind == kind && s->pts[i].addr == addr &&
		    (kind <= RSP_BP_HW || s->pts[i].len == len))
			return &s->pts[i];
	return NULL;
}

static enum rpl_watch_kind watch_kind(enum rsp_point kind)
{
	return kind == RSP_WP_WRITE  ? RPL_WATCH_WRITE
	       : kind == RSP_WP_READ ? RPL_WATCH_READ
				     : RPL_WATCH_ACCESS;
}

/* Set or clear the point in the replay (once per address for breakpoints). */
static int apply_point(struct rpl_target *s, enum rsp_point kind, uint32_t addr, uint32_t len,
		       int on)
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
	struct rpl_target *s = t;
	struct point *p = find_point(s, kind, addr, len);

	adopt(s);
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
		s->pts[s->npts++] = (struct point){kind, addr, len, 1};
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

/*
 * Switch every point off (on = 0) or back on in r (the target's replay,
 * around monitor searches, or the one taking over from it).
 */
static int points_in(struct rpl_target *s, struct rpl *r, int on)
{
	for (int i = 0; i < s->npts; i++) {
		const struct point *p = &s->pts[i];
		int twin = 0;

		if (p->kind > RSP_BP_HW) {
			if (rpl_watch(r, p->addr, p->len, watch_kind(p->kind), on))
				return -1;
			continue;
		}
		/* Z0 and Z1 at one address are one replay breakpoint: once */
		for (int k = 0; k < i; k++)
			twin |= s->pts[k].kind <= RSP_BP_HW && s->pts[k].addr == p->addr;
		if (!twin && rpl_break(r, p->addr, on))
			return -1;
	}
	return 0;
}

static int all_points(struct rpl_target *s, int on)
{
	return points_in(s, s->r, on);
}

/* Does n show GDB exactly what o does: position, step, every core's state? */
static int same_view(struct rpl *n, struct rpl *o)
{
	int sn = 0, so = 0;

	if (rpl_steps(n) != rpl_steps(o) || rpl_position(n) != rpl_position(o) ||
	    rpl_exited(n, &sn) != rpl_exited(o, &so) || sn != so)
		return 0;
	for (int c = 0; c < rpl_ncores(o); c++) {
		if (rpl_core_insns(n, c) != rpl_core_insns(o, c) ||
		    rpl_core_steps(n, c) != rpl_core_steps(o, c) ||
		    rpl_cycles(n, c) != rpl_cycles(o, c))
			return 0;
		for (int i = 0; i < RSP_NREGS; i++)
			if ((i == ISA_R_PC || rpl_regs_known(o)) &&
			    isa_cpu_get(rpl_cpu(n, c), (enum isa_reg)i) !=
				isa_cpu_get(rpl_cpu(o, c), (enum isa_reg)i))
				return 0;
		if (rpl_regs_known(o)) {
			uint32_t fn[ISA_NFPREGS], fo[ISA_NFPREGS];
			unsigned k = isa_cpu_get_fp(rpl_cpu(n, c), fn);

			if (k != isa_cpu_get_fp(rpl_cpu(o, c), fo) ||
			    memcmp(fn, fo, k * sizeof(fn[0])))
				return 0;
		}
	}
	return 1;
}

/*
 * At a GDB command, once the background index is done: its replay (at the
 * end, every checkpoint laid down) takes over, moved to this replay's exact
 * step with GDB's points and stop state. GDB sees no change; should the
 * two differ all the same, the old replay goes on and the new one is
 * dropped (reported).
 */
static void adopt(struct rpl_target *s)
{
	struct rpl *n;
	uint64_t step;

	if (!s->bg || s->adopted || rpl_bgindex_state(s->bg) != RPL_BG_DONE)
		return;
	s->adopted = 1;
	n = rpl_bgindex_take(s->bg);
	if (!n)
		return;
	step = rpl_steps(s->r);
	if (rpl_seek_step(n, step) || points_in(s, n, 1) || !same_view(n, s->r)) {
		warning("serve: the indexed replay cannot take over at step %" PRIu64
			" (%s); going on without it",
			step, error_last());
		rpl_close(n);
		s->refused = 1;
		return;
	}
	rpl_take_stop_state(n, s->r);
	rpl_close(s->r);
	s->r = n;
	rpl_set_memory(n, s->memory);
}

static int t_resume(void *t, enum rsp_resume how, int core, int alone, int reverse,
		    struct rsp_stop *stop, char *why)
{
	struct rpl_target *s = t;
	struct rpl_stop st;
	struct point *p;
	int k;

	adopt(s);
	memset(stop, 0, sizeof(*stop));
	for (;;) {
		if (how == RSP_STEP)
			k = rpl_stepi(s->r, core, reverse, &st);
		else
			k = rpl_continue(s->r, reverse, &st);
		if (k)
			return failed(why, NULL);
		if (!alone || st.core == core ||
		    (st.kind != RPL_STOP_BREAK && st.kind != RPL_STOP_WATCH))
			break;
		/*
		 * GDB resumed core alone: another core's break- or watchpoint
		 * is passed by (GDB 13 fails an assertion when a thread it did
		 * not resume reports a stop). Backward, a watchpoint stop is
		 * after the access, which the replay would find again: go to
		 * just before it first.
		 */
		if (st.kind == RPL_STOP_WATCH && reverse && rpl_seek_step(s->r, st.step - 1) < 0)
			return failed(why, NULL);
	}
	/*
	 * Running out of history is no core's event: it is reported for the
	 * thread GDB resumed, so GDB (and an IDE) stays on the thread the user
	 * stepped or continued, at either end.
	 */
	stop->core = alone || st.kind == RPL_STOP_BEGIN || st.kind == RPL_STOP_END ? core : st.core;
	switch (st.kind) {
	case RPL_STOP_BREAK:
		stop->kind = RSP_STOP_BREAK;
		p = find_point(s, RSP_BP_SW, isa_cpu_get(rpl_cpu(s->r, st.core), ISA_R_PC), 0);
		stop->point = p ? RSP_BP_SW : RSP_BP_HW;
		break;
	case RPL_STOP_WATCH:
		stop->kind = RSP_STOP_WATCH;
		stop->point = st.watch.kind == RPL_WATCH_WRITE	? RSP_WP_WRITE
			      : st.watch.kind == RPL_WATCH_READ ? RSP_WP_READ
								: RSP_WP_ACCESS;
		stop->addr = st.addr;
		/* forward: before the access (see the top of this file) */
		if (!reverse && rpl_seek_step(s->r, st.step - 1) < 0)
			return failed(why, NULL);
		break;
	case RPL_STOP_STEP: stop->kind = RSP_STOP_STEP; break;
	case RPL_STOP_BEGIN: stop->kind = RSP_STOP_BEGIN; break;
	case RPL_STOP_END: stop->kind = RSP_STOP_END; break;
	case RPL_STOP_INTERRUPT: stop->kind = RSP_STOP_INTERRUPT; break;
	default: set_why(why, "the replay stopped for no reason (%d)", st.kind); return -1;
	}
	return 0;
}

static void t_interrupt(void *t)
{
	rpl_interrupt(((struct rpl_target *)t)->r);
}

static int t_reset(void *t, char *why)
{
	adopt(t);
	if (rpl_seek_step(((struct rpl_target *)t)->r, 0) < 0)
		return failed(why, "cannot go to the beginning");
	return 0;
}

static uint64_t t_position(void *t)
{
	return rpl_position(((struct rpl_target *)t)->r);
}

static const char *t_exec_file(void *t)
{
	return ((struct rpl_target *)t)->elf;
}

static const char *t_llvm_arch(void *t)
{
	return isa_model_llvm_arch(rpl_manifest(((struct rpl_target *)t)->r)->model);
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
	static const char *const cf_names[] = {
	    [ST_CF_NXB] = "NX_b", [ST_CF_TRB] = "TR_b", [ST_CF_TRE] = "TR_e", [ST_CF_TRA] = "TR_a"};
	static const char *const lv_names[] = {[ST_LV_NXLV] = "NX-LV",
					       [ST_LV_CFIAT] = "CFiat",
					       [ST_LV_MC2RT] = "mc2RT",
					       [ST_LV_CFIATA] = "CFiat_a"};

	if (lv)
		return !m->lv_on ? "none" : lv_names[st_lv_format_enc(&m->lv)];
	return !m->cf_on ? "none" : cf_names[st_cf_format_enc(&m->cf)];
}

/* The index: loaded at the start, being built, or none. */
static void index_line(struct rpl_target *s, out_fn *out, void *ctx)
{
	char line[1024];

	if (s->index)
		outf(out, ctx, "index: %s (%" PRIu64 " checkpoints)\n", s->index, s->index_count);
	else if (s->bg) {
		rpl_bgindex_describe(s->bg, line, sizeof(line));
		outf(out, ctx, "%s%s\n", line,
		     s->refused ? "; not used: its replay differed from this one" : "");
	} else
		outf(out, ctx, "index: none; %zu checkpoints laid down so far\n",
		     rpl_checkpoints(s->r, NULL));
}

static int mon_info(struct rpl_target *s, const char *arg, out_fn *out, void *ctx, char *why)
{
	const struct st_manifest *m = rpl_manifest(s->r);
	int status;

	outf(out, ctx, "recording %s (%s), made by %s\n", rpl_dir(s->r),
	     m->complete			? "complete"
	     : m->port.kind != ST_PORT_NONE && strstr(m->tool, "import")
		 ? "partial: a capture, a window of the run"
		 : "partial: the recorder was stopped",
	     m->tool);
	outf(out, ctx, "program %s, sha256 %.16s..., %s\n", m->elf, m->sha256,
	     isa_model_info(m->model)->title);
	outf(out, ctx, "%d cores (GDB threads 1..%d), timing seed %" PRIu64 ", jitter %u\n",
	     m->ncores, m->ncores, m->seed, m->jitter);
	if (m->port.kind != ST_PORT_NONE) {
		const struct rpl_etm_stats *ps = rpl_port_stats(s->r);

		outf(out, ctx, "control flow: a trace port, %s, %zu bytes%s, decoded by OpenCSD; "
		     "sync period %u, trace IDs", m->port.kind == ST_PORT_ETM4 ? "ETMv4"
		     : m->port.kind == ST_PORT_ETM3 ? "ETMv3.5" : "MTB", (size_t)(m->cf_bits / 8),
		     m->port.tpiu     ? " of CoreSight formatter frames from a TPIU"
		     : m->port.framed ? " of CoreSight formatter frames"
				      : " (raw streams)",
		     m->port.sync_period);
		for (int c = 0; c < m->ncores; c++)
			outf(out, ctx, "%s0x%02x", c ? "," : " ", m->port.trace_id[c]);
		outf(out, ctx, "\n");
		for (int c = 0; ps && c < m->ncores; c++)
			outf(out, ctx, "  core%d: %" PRIu64 " instructions traced, %" PRIu64
			     " exceptions, %" PRIu64 " gaps (lost sync, overflow, a late start: "
			     "what ran in them is unknown)%s\n", c, ps->insns[c], ps->exceptions[c],
			     ps->gaps[c], ps->lost_at_end[c] ? ", lost at the end" : "");
	} else
		outf(out, ctx, "control flow: %s%s, %zu bits, predictors %s %u/%u/%u%s\n",
		     enc_name(m, 0), m->cf_on && !m->cf.timed ? " (functional)" : "",
		     (size_t)m->cf_bits, m->bp_shared ? "shared" : "per core", m->bp.gshare,
		     m->bp.ras, m->bp.ibtb,
		     m->bp.dir == BP_DIR_TAGE
			 ? " (gshare/RAS/iBTB entries; a TAGE in the gshare's bits)"
			 : " (gshare/RAS/iBTB entries)");
	if (m->lv_on)
		outf(out, ctx,
		     "load values: %s, %zu bits, %s cache %u bytes, %u-way, %u-byte "
		     "lines, %u-byte granules\n",
		     enc_name(m, 1), (size_t)m->lv_bits, m->cache.shared ? "shared" : "private",
		     m->cache.size, m->cache.assoc, m->cache.line, m->cache.granule);
	else
		outf(out, ctx, "load values: not traced (registers and memory unavailable)\n");
	if (rpl_exited(s->r, &status))
		outf(out, ctx, "the program exited with status %d at position %" PRIu64 "\n",
		     status, rpl_position(s->r));
	index_line(s, out, ctx);
	return 0;
}

static int mon_time(struct rpl_target *s, const char *arg, out_fn *out, void *ctx, char *why)
{
	outf(out, ctx, "position %" PRIu64 " (step %" PRIu64 ")\n", rpl_position(s->r),
	     rpl_steps(s->r));
	for (int i = 0; i < rpl_ncores(s->r); i++)
		outf(out, ctx,
		     "  core%d (thread %d): %" PRIu64 " instructions, cycle %" PRIu64
		     ", pc 0x%08x\n",
		     i, i + 1, rpl_core_insns(s->r, i), rpl_cycles(s->r, i),
		     isa_cpu_get(rpl_cpu(s->r, i), ISA_R_PC));
	index_line(s, out, ctx);
	return 0;
}

static int mon_goto(struct rpl_target *s, const char *arg, out_fn *out, void *ctx, char *why)
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
	outf(out, ctx,
	     "at position %" PRIu64 "%s; plain GDB still shows the old state: run "
	     "'maint flush register-cache' (gdbscripts/raptor.py, which raptor debug "
	     "loads, does it)\n",
	     rpl_position(s->r), k == 1 ? " (the end of the recording)" : "");
	return 0;
}

/*
 * stepi / reverse-stepi CORE [N]: GDB's stepi of thread CORE+1, N times,
 * for a control-flow-only recording, where GDB itself cannot step (it
 * builds frame ids from the stack pointer, which the trace does not
 * carry). Stops early at a breakpoint, watchpoint or either end.
 */
static int mon_step(struct rpl_target *s, const char *arg, int reverse, out_fn *out, void *ctx,
		    char *why)
{
	uint64_t core, n = 1, i;
	struct rpl_stop st = {0};
	char *end;

	core = strtoull(arg, &end, 10);
	if (end == arg || core >= (uint64_t)rpl_ncores(s->r)) {
		set_why(why, "'%s': give a core from 0 to %d (thread %d to %d), then the count",
			arg, rpl_ncores(s->r) - 1, 1, rpl_ncores(s->r));
		return -1;
	}
	while (*end == ' ')
		end++;
	if (*end && (parse_u64(end, &n) || !n)) {
		set_why(why, "'%s' is not a count of instructions", end);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (rpl_stepi(s->r, (int)core, reverse, &st))
			return failed(why, NULL);
		if (st.kind != RPL_STOP_STEP)
			break;
	}
	outf(out, ctx,
	     "core %d: pc 0x%08x, %" PRIu64 " instructions, position %" PRIu64 "%s; plain GDB "
	     "still shows the old state: run 'maint flush register-cache'\n",
	     (int)core, isa_cpu_get(rpl_cpu(s->r, (int)core), ISA_R_PC),
	     rpl_core_insns(s->r, (int)core), rpl_position(s->r),
	     st.kind == RPL_STOP_BEGIN  ? " (the beginning of the recording)"
	     : st.kind == RPL_STOP_END  ? " (the end of the recording)"
	     : st.kind == RPL_STOP_BREAK ? " (a breakpoint)"
	     : st.kind == RPL_STOP_WATCH ? " (a watchpoint)"
					 : "");
	return 0;
}

static int mon_stepi(struct rpl_target *s, const char *arg, out_fn *out, void *ctx, char *why)
{
	return mon_step(s, arg, 0, out, ctx, why);
}

static int mon_rstepi(struct rpl_target *s, const char *arg, out_fn *out, void *ctx, char *why)
{
	return mon_step(s, arg, 1, out, ctx, why);
}

static int mon_stats(struct rpl_target *s, const char *arg, out_fn *out, void *ctx, char *why)
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
	outf(out, ctx, "'raptor stat %s' has every encoding's figures\n", rpl_dir(s->r));
	return 0;
}

/*
 * who-wrote ADDR [LEN]: the last store into [ADDR, ADDR + LEN) before now,
 * found by a reverse continue on a temporary write watchpoint with GDB's
 * points set aside; the replay comes back to where it was.
 */
static int mon_who_wrote(struct rpl_target *s, const char *arg, out_fn *out, void *ctx, char *why)
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
		outf(out, ctx, "nothing stored into 0x%08x..0x%08x before position %" PRIu64 "%s\n",
		     (uint32_t)addr, (uint32_t)(addr + len - 1), now,
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
	outf(out, ctx,
	     "0x%08x was last written by core%d (thread %d), pc 0x%08x, "
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
	int (*fn)(struct rpl_target *s, const char *arg, out_fn *out, void *ctx, char *why);
} monitors[] = {
    {"info", "info: the recording, program, cores and trace configuration", mon_info},
    {"time", "time: the current position, each core's instructions, cycle and pc", mon_time},
    {"goto", "goto POSITION|begin|end: move the replay", mon_goto},
    {"stepi", "stepi CORE [N]: step core CORE (thread CORE+1) N instructions", mon_stepi},
    {"reverse-stepi", "reverse-stepi CORE [N]: step core CORE back N instructions", mon_rstepi},
    {"stats", "stats: stream sizes, bits per instruction, checkpoints", mon_stats},
    {"who-wrote", "who-wrote ADDR [LEN]: the last store into ADDR before now", mon_who_wrote},
};

static int t_monitor(void *t, const char *cmd, out_fn *out, void *ctx, char *why)
{
	size_t n;

	adopt(t);
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

const struct rsp_target_ops rpl_target_ops = {
    .ncores = t_ncores,
    .read_regs = t_read_regs,
    .has_fp = t_has_fp,
    .read_fp = t_read_fp,
    .read_mem = t_read_mem,
    .point = t_point,
    .resume = t_resume,
    .interrupt = t_interrupt,
    .reset = t_reset,
    .monitor = t_monitor,
    .position = t_position,
    .exec_file = t_exec_file,
    .llvm_arch = t_llvm_arch,
};

struct rpl_target *rpl_target_new(struct rpl *r, const char *elf)
{
	struct rpl_target *t = calloc(1, sizeof(*t));

	if (!t) {
		error("serve: out of memory (%zu bytes)", sizeof(*t));
		return NULL;
	}
	t->r = r;
	t->elf = elf;
	return t;
}

int rpl_target_set_index(struct rpl_target *t, const char *path, uint64_t count)
{
	free(t->index);
	if (!(t->index = strdup(path)))
		return error("serve: out of memory");
	t->index_count = count;
	return 0;
}

void rpl_target_set_bgindex(struct rpl_target *t, struct rpl_bgindex *bg, uint64_t memory)
{
	t->bg = bg;
	t->memory = memory;
}

struct rpl *rpl_target_replay(const struct rpl_target *t)
{
	return t->r;
}

void rpl_target_free(struct rpl_target *t)
{
	if (!t)
		return;
	rpl_close(t->r);
	free(t->index);
	free(t);
}

/* etmpath: a trace port's recording decoded into the walk's path (etmpath.h). */
#include "replay/etmpath.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/board.h"
#include "etm/cstf.h"
#include "etm/ocsd.h"
#include "etm/port.h"
#include "etm/thumb.h"
#include "replay/pmsgs.h"

#define U(x) ((unsigned long long)(x))
#define STACK 64 /* active exceptions' return addresses kept per core */

struct tr;

/*
 * RAPTOR_PATH_PLAIN set (not empty) at rpl_etm_open: the path is kept
 * plain too, as it was before it was packed (24 bytes a message and the
 * key), and every message rpl_etm_next hands out is checked against the
 * plain path's (a white-box switch, so that the tests compare both).
 */
struct plain {
	struct cfw_pmsg *v;
	uint64_t *keys;
	size_t n, a, next;
};

static void plain_push(struct plain *p, const struct cfw_pmsg *m, uint64_t key)
{
	if (p->n == p->a) {
		p->a = p->a ? 2 * p->a : 256;
		p->v = xrealloc(p->v, p->a * sizeof(*p->v));
		p->keys = xrealloc(p->keys, p->a * sizeof(*p->keys));
	}
	p->v[p->n] = *m;
	p->keys[p->n++] = key;
}

static void plain_release(struct plain *p)
{
	free(p->v);
	free(p->keys);
	*p = (struct plain){0};
}

/* One core's decoding: where its trace has got to, and its messages. */
struct core_tr {
	struct tr *t;
	int core;
	uint64_t base;	  /* the core's first byte in the file (raw streams) */
	uint64_t cnt;	  /* instructions since the core's previous message */
	uint64_t lb;	  /* lower-bound cycles so far (the merge's key) */
	int started;	  /* an instruction or exception seen */
	int gap;	  /* the trace lost the core: the next element ends the gap */
	int after_exc;	  /* the next instruction is the handler's first */
	int ret_seen;	  /* an exception return element since the latest instruction */
	int last_taken;	  /* the latest instruction was the last of its range, executed */
	int last_kind;	  /* its etm_thumb_kind */
	int end_branch;	  /* finish(): the path ends before a taken indirect branch */
	uint32_t expect;  /* the next instruction if nothing branches */
	uint32_t handler; /* after_exc: the vector's handler */
	uint32_t last_pc; /* the latest instruction */
	uint32_t stack[STACK];
	int depth;
	struct rpl_pmsgs msgs; /* its messages, the merge's key (lb) with each */
	struct plain plain;    /* RAPTOR_PATH_PLAIN: the same, plain */
};

struct tr {
	const struct st_manifest *mf;
	const char *file;
	const struct etm_image *im;
	int v3, plain;
	uint32_t vtor;
	struct core_tr c[ST_CF_MAX_CORES];
	struct rpl_etm_stats *st;
};

int rpl_etm3_ipsr(unsigned n)
{
	static const signed char map[24] = {
	    [17] = 1,  [10] = 2,  [19] = 3,  [13] = 4,	[21] = 5, [9] = 6,
	    [11] = 11, [12] = 12, [14] = 14, [15] = 15, [8] = 16, [1] = 17,
	    [2] = 18,  [3] = 19,  [4] = 20,  [5] = 21,	[6] = 22, [7] = 23,
	};

	if (n >= 24 && n < 512)
		return (int)n; /* IRQ 8 and up */
	return n < 24 && map[n] ? map[n] : -1;
}

static int PRINTF_LIKE(3, 4) fail(const struct core_tr *c, uint64_t at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->t->mf->port.kind == ST_PORT_MTB)
		return error("%s: core %d (its MTB buffer), instruction %llu, byte %llu: %s",
			     c->t->file, c->core, U(c->t->st->insns[c->core]), U(at), msg);
	return error("%s: core %d (trace ID 0x%02x), instruction %llu, byte %llu: %s", c->t->file,
		     c->core, c->t->mf->port.trace_id[c->core], U(c->t->st->insns[c->core]), U(at),
		     msg);
}

static void push(struct core_tr *c, enum cfw_pkind kind, uint64_t n, uint32_t ta, unsigned exc,
		 uint64_t at)
{
	struct cfw_pmsg m = {.n = n,
			     .at = at,
			     .ta = ta,
			     .exc = (uint16_t)exc,
			     .core = (uint8_t)c->core,
			     .kind = (uint8_t)kind};

	rpl_pmsgs_push(&c->msgs, &m, c->lb);
	if (c->t->plain)
		plain_push(&c->plain, &m, c->lb);
	c->cnt = 0;
}

/* The trace finds the core again at pc after a gap (or at its start). */
static void gap_to(struct core_tr *c, uint32_t pc, uint64_t at)
{
	push(c, CFW_P_GAP, c->cnt, pc, 0, at);
	c->t->st->gaps[c->core]++;
	c->gap = 0;
	c->depth = 0; /* what was active is not known */
	c->after_exc = 0;
}

static int on_insn(struct core_tr *c, uint32_t pc, const struct etm_ocsd_where *w, uint64_t at)
{
	const struct st_manifest *mf = c->t->mf;
	uint16_t hw1, hw2;

	if (etm_image_halfwords(c->t->im, pc, &hw1, &hw2))
		return fail(c, at, "the trace executes 0x%08x, outside the program image", pc);
	if (!c->started) {
		c->started = 1;
		if (pc != (mf->regs[c->core][ISA_R_PC] & ~1u))
			gap_to(c, pc, at); /* the trace starts after reset */
	} else if (c->gap) {
		gap_to(c, pc, at);
	} else if (c->after_exc) {
		if (pc != c->handler)
			return fail(c, at,
				    "the trace enters the handler at 0x%08x, the vector "
				    "table gives 0x%08x",
				    pc, c->handler);
	} else if (pc != c->expect) {
		if (!c->cnt)
			return fail(c, at, "the trace goes to 0x%08x before any instruction", pc);
		push(c, CFW_P_BRANCH, c->cnt, pc, 0, at);
		c->lb += mf->branch_penalty;
		if (c->depth && c->stack[c->depth - 1] == pc)
			c->depth--; /* the exception returned */
	}
	c->after_exc = 0;
	c->ret_seen = 0;
	c->cnt++;
	c->lb++;
	c->t->st->insns[c->core]++;
	c->last_pc = pc;
	c->last_kind = etm_thumb_class(hw1, hw2, NULL);
	c->last_taken = w->last && w->last_taken;
	c->expect = pc + etm_thumb_size(hw1);
	return 0;
}

static int vector(const struct core_tr *c, unsigned exc, uint32_t *pc)
{
	uint16_t lo, hi;

	/* VTOR at its reset value: the start of the code region (board.h) */
	if (etm_image_halfwords(c->t->im, c->t->vtor + 4 * exc, &lo, &hi))
		return -1;
	*pc = ((uint32_t)hi << 16 | lo) & ~1u;
	return 0;
}

static int on_exc(struct core_tr *c, unsigned n, const struct etm_ocsd_where *w, uint64_t at)
{
	const struct st_manifest *mf = c->t->mf;
	int exc = c->t->v3 ? rpl_etm3_ipsr(n) : (int)n;
	uint32_t handler, ret = c->expect, target;
	uint16_t hw1, hw2;
	int tail;

	if (exc < 2 || exc > 511)
		return fail(c, at, "exception number %u %s", n,
			    c->t->v3 ? "has no v7-M meaning in ETMv3" : "is not an exception");
	if (vector(c, (unsigned)exc, &handler))
		return fail(c, at,
			    "the vector of exception %d at 0x%08x is not in the program "
			    "image",
			    exc, c->t->vtor + 4 * exc);
	if (!c->started) {
		c->started = 1;
		c->gap = 1; /* the trace starts inside the run */
	}
	if (c->gap) {
		if (!w->ret_valid)
			return 0; /* the entry is inside the gap: the handler ends it */
		gap_to(c, w->ret, at);
		c->expect = w->ret;
		c->cnt = 0;
	}
	/* where the core would have gone: the return address */
	if (w->ret_valid)
		ret = w->ret;
	else if (c->cnt && c->last_taken && c->last_kind == ETM_THUMB_DIRECT &&
		 !etm_image_halfwords(c->t->im, c->last_pc, &hw1, &hw2) &&
		 !etm_thumb_target(c->last_pc, hw1, hw2, &target))
		ret = target;
	/*
	 * A tail-chain: at once after an exception return (a taken indirect
	 * branch in a handler with no exception return element of its own)
	 * to where the exception being left would have returned.
	 */
	tail = c->depth && !c->ret_seen && c->cnt && c->last_taken &&
	       c->last_kind == ETM_THUMB_INDIRECT &&
	       (!w->ret_valid || w->ret == c->stack[c->depth - 1]);
	if (tail) {
		push(c, CFW_P_TAIL, c->cnt, 0, (unsigned)exc, at);
		c->lb += mf->branch_penalty;
	} else {
		if (c->cnt && ret != c->expect) {
			push(c, CFW_P_BRANCH, c->cnt, ret, 0, at);
			c->lb += mf->branch_penalty;
			if (c->depth && c->stack[c->depth - 1] == ret)
				c->depth--;
		}
		push(c, CFW_P_EXC, c->cnt, 0, (unsigned)exc, at);
		c->lb += mf->exc_penalty;
		if (c->depth == STACK)
			memmove(c->stack, c->stack + 1, (STACK - 1) * sizeof(c->stack[0]));
		else
			c->depth++;
		c->stack[c->depth - 1] = ret;
	}
	c->t->st->exceptions[c->core]++;
	c->after_exc = 1;
	c->handler = handler;
	c->expect = handler;
	c->ret_seen = 0;
	c->last_taken = 0;
	return 0;
}

static int on_elem(void *ctx, uint64_t v)
{
	struct core_tr *c = ctx;
	struct etm_ocsd_where w;
	uint64_t at;

	etm_ocsd_where(&w);
	at = c->base + w.index;
	if (v & ETM_OCSD_GAP) {
		if (c->started)
			c->gap = 1;
		return 0;
	}
	if (v & ETM_OCSD_RET) {
		c->ret_seen = 1;
		return 0;
	}
	if (v & ETM_OCSD_EXC)
		return on_exc(c, (unsigned)(v & 0x3ff), &w, at);
	return on_insn(c, (uint32_t)v, &w, at);
}

/*
 * The end of a core's trace: its last instruction may be a taken branch
 * (the trace has its atom, no instruction after it): a direct one goes
 * where its encoding says; an indirect one's target is not known, and the
 * path stops before it.
 */
static void finish(struct core_tr *c)
{
	uint16_t hw1, hw2;
	uint32_t target;

	if (c->gap || !c->cnt || !c->last_taken)
		return;
	if (c->last_kind == ETM_THUMB_DIRECT &&
	    !etm_image_halfwords(c->t->im, c->last_pc, &hw1, &hw2) &&
	    !etm_thumb_target(c->last_pc, hw1, hw2, &target)) {
		push(c, CFW_P_BRANCH, c->cnt, target, 0, 0);
	} else if (c->last_kind == ETM_THUMB_INDIRECT) {
		c->cnt--;
		c->t->st->insns[c->core]--;
		c->end_branch = 1;
	}
}

/*
 * The decoded path: every core's messages, kept per core, packed
 * (pmsgs.h), handed to the walk by rpl_etm_next in the order of their
 * lower-bound cycle counts (ties to the lower core), the end messages
 * last, in core order. The walk reads the path once, forward (it keeps
 * what it has read: cfwalk.c's struct msgs), so each core's reader
 * unpacks one chunk at a time.
 */
struct rpl_etm {
	int ncores;
	struct rpl_pmsgs m[ST_CF_MAX_CORES];
	struct rpl_pcur *next; /* each core's reader: its next message to hand out */
	uint64_t end_icnt[ST_CF_MAX_CORES];
	int ends; /* end messages handed out */
	struct rpl_etm_stats st;
	int plain;
	struct plain p[ST_CF_MAX_CORES]; /* RAPTOR_PATH_PLAIN: the path plain too */
};

/*
 * RAPTOR_PATH_PLAIN: the plain path's next message (its merge as it was
 * before the path was packed) must be m, from core best (-1: none is
 * left). 0, or -1 with an error.
 */
static int plain_check(struct rpl_etm *e, int best, const struct cfw_pmsg *m, uint64_t key)
{
	struct plain *p = e->p;
	int pb = -1;

	for (int c = 0; c < e->ncores; c++)
		if (p[c].next < p[c].n &&
		    (pb < 0 || p[c].keys[p[c].next] < p[pb].keys[p[pb].next]))
			pb = c;
	if (pb < 0 && best < 0)
		return 0;
	if (pb == best && !memcmp(&p[pb].v[p[pb].next], m, sizeof(*m)) &&
	    p[pb].keys[p[pb].next] == key) {
		p[pb].next++;
		return 0;
	}
	return error("decoded path: core %d's message %llu, packed, is not the plain path's "
		     "(core %d's message %llu): RAPTOR_PATH_PLAIN", best,
		     best < 0 ? 0 : U(e->next[best].k), pb, pb < 0 ? 0 : U(p[pb].next));
}

int rpl_etm_next(void *ctx, struct cfw_pmsg *out)
{
	struct rpl_etm *e = ctx;
	const struct cfw_pmsg *m, *bm = NULL;
	uint64_t key, bkey = 0;
	int best = -1;

	for (int c = 0; c < e->ncores; c++)
		if ((m = rpl_pcur_peek(&e->next[c], &key)) && (best < 0 || key < bkey)) {
			best = c;
			bm = m;
			bkey = key;
		}
	if (e->plain && plain_check(e, best, bm, bkey))
		return 1; /* the walk says the path ends early */
	if (best >= 0) {
		*out = *bm;
		rpl_pcur_skip(&e->next[best]);
		return 0;
	}
	if (e->ends == e->ncores)
		return 1;
	*out = (struct cfw_pmsg){
	    .n = e->end_icnt[e->ends], .core = (uint8_t)e->ends, .kind = CFW_P_END};
	e->ends++;
	return 0;
}

const struct rpl_etm_stats *rpl_etm_stats_of(const struct rpl_etm *e)
{
	return &e->st;
}

void rpl_etm_free(struct rpl_etm *e)
{
	if (!e)
		return;
	for (int c = 0; c < e->ncores; c++) {
		rpl_pmsgs_release(&e->m[c]);
		plain_release(&e->p[c]);
	}
	free(e->next);
	free(e);
}

/* ---- the MTB ------------------------------------------------------------------------ */

#define MTB_MAX_RUN (1u << 24) /* instructions walked between two packets at most */
#define IS_EXC_RETURN(a) ((a) >= 0xffffff00u)

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The lowest exception number whose vector is handler (several may share one), or -1. */
static int exception_of(const struct core_tr *c, uint32_t handler)
{
	uint32_t h;

	for (unsigned e = 2; e < 512; e++) {
		if (vector(c, e, &h))
			return -1; /* past the image: the table ended */
		if (h == handler)
			return (int)e;
	}
	return -1;
}

/*
 * The instructions from `from` to `to` (to included when incl), walked in
 * the image: their count, or -1 with an error when there is no straight
 * path (the packets do not fit the program).
 */
static int64_t straight(struct core_tr *c, uint32_t from, uint32_t to, int incl, uint64_t at)
{
	uint32_t pc = from;
	uint16_t hw1, hw2;

	for (int64_t n = 0; n < MTB_MAX_RUN; n++) {
		if (pc == to && !incl)
			return n;
		if (etm_image_halfwords(c->t->im, pc, &hw1, &hw2))
			return fail(c, at,
				    "no straight path from 0x%08x to the packet's 0x%08x: the "
				    "walk leaves the program image at 0x%08x",
				    from, to, pc);
		if (pc == to)
			return n + 1;
		pc += etm_thumb_size(hw1);
	}
	return fail(c, at,
		    "no straight path from 0x%08x to the packet's 0x%08x in %u "
		    "instructions",
		    from, to, MTB_MAX_RUN);
}

/* n instructions passed (they count towards the core's next message) */
static void passed(struct core_tr *c, int64_t n)
{
	c->cnt += (uint64_t)n;
	c->lb += (uint64_t)n;
	c->t->st->insns[c->core] += (uint64_t)n;
}

/*
 * One core's MTB buffer (mtb.h), oldest packet first: a taken branch
 * (A = 0) is a branch message; an exception entry (A = 1) an exception,
 * its number the lowest whose vector is the destination (the MTB does not
 * say which; the walk enters the same handler); an exception return (A = 0
 * to an EXC_RETURN value, then A = 1 from it) a branch back to where the
 * exception came from, or a tail-chain when it goes to a handler instead;
 * a packet with S = 1 after the first, a restart: a gap. From reset to the
 * first packet the core ran straight on (it took no branch, or the buffer
 * would say so).
 */
static int mtb_core(struct core_tr *c, const uint8_t *data, size_t len)
{
	const struct st_manifest *mf = c->t->mf;
	uint32_t cur = mf->regs[c->core][ISA_R_PC] & ~1u, ret_src = 0;
	int64_t n, ret_n = 0;
	int ret_pending = 0, exc;

	if (len % 8)
		return fail(c, c->base + len - len % 8,
			    "%zu bytes is no whole number of 8-byte MTB "
			    "packets",
			    len);
	c->started = 1;
	for (size_t k = 0; k < len / 8; k++) {
		uint64_t at = c->base + 8 * k;
		uint32_t w0 = get32(data + 8 * k), w1 = get32(data + 8 * k + 4);
		uint32_t src = w0 & ~1u, dst = w1 & ~1u;
		int a = w0 & 1;

		if (k && (w1 & 1)) {
			/* the MTB was restarted: what ran since the previous packet is unknown */
			if (ret_pending)
				return fail(c, at, "a restart inside an exception return");
			gap_to(c, dst, at);
			cur = dst;
			continue;
		}
		if (ret_pending) {
			if (!a || src != cur)
				return fail(c, at,
					    "after the return to EXC_RETURN 0x%08x comes source "
					    "0x%08x with A = %d, not the EXC_RETURN packet",
					    cur, src, a);
			ret_pending = 0;
			/*
			 * To a handler, not where the exception came from: a tail-chain.
			 * Anywhere else: the return (a handler may have moved the
			 * stacked return address, as a fault handler skipping the
			 * faulting instruction does).
			 */
			passed(c, ret_n);
			if ((!c->depth || c->stack[c->depth - 1] != dst) &&
			    (exc = exception_of(c, dst)) >= 0) {
				push(c, CFW_P_TAIL, c->cnt, 0, (unsigned)exc, at);
				c->lb += mf->branch_penalty;
				c->t->st->exceptions[c->core]++;
			} else {
				if (!c->depth)
					return fail(
					    c, at,
					    "an exception return at 0x%08x with no exception "
					    "active",
					    ret_src);
				push(c, CFW_P_BRANCH, c->cnt, dst, 0, at);
				c->lb += mf->branch_penalty;
				c->depth--;
			}
			cur = dst;
			continue;
		}
		if (IS_EXC_RETURN(src))
			return fail(c, at,
				    "source 0x%08x is an EXC_RETURN value, but no return to it "
				    "came before",
				    src);
		if ((n = straight(c, cur, src, !a, at)) < 0)
			return -1;
		if (!a && IS_EXC_RETURN(dst)) {
			ret_pending = 1;
			ret_n = n;
			ret_src = src;
			cur = dst;
			continue;
		}
		passed(c, n);
		if (a) {
			if ((exc = exception_of(c, dst)) < 0)
				return fail(c, at,
					    "an exception entry to 0x%08x, which no vector of the "
					    "program's table gives",
					    dst);
			push(c, CFW_P_EXC, c->cnt, 0, (unsigned)exc, at);
			c->lb += mf->exc_penalty;
			c->t->st->exceptions[c->core]++;
			if (c->depth == STACK)
				memmove(c->stack, c->stack + 1, (STACK - 1) * sizeof(c->stack[0]));
			else
				c->depth++;
			c->stack[c->depth - 1] = src;
		} else {
			push(c, CFW_P_BRANCH, c->cnt, dst, 0, at);
			c->lb += mf->branch_penalty;
		}
		cur = dst;
	}
	if (ret_pending)
		c->gap = 1; /* the buffer ends inside a return: where it went is not known */
	return 0;
}

/* A framed capture: no data for a trace ID no core has. */
static int check_ids(struct tr *t, const uint8_t *data, size_t len)
{
	uint64_t bytes[128], first[128];

	if (cstf_scan(data, len, t->mf->port.tpiu, bytes, first))
		return error("%s: the capture is not CoreSight formatter frames", t->file);
	for (int id = 1; id < 128; id++) {
		int known = 0;

		for (int c = 0; c < t->mf->ncores; c++)
			known |= t->mf->port.trace_id[c] == id;
		if (bytes[id] && !known)
			return error(
			    "%s: byte %llu: the frames carry %llu bytes of trace ID 0x%02x, "
			    "which no core has (the configuration's trace IDs are those of "
			    "cores 0 to %d)",
			    t->file, U(first[id]), U(bytes[id]), id, t->mf->ncores - 1);
	}
	return 0;
}

/* Core c's bytes of a capture kept a core after another, from byte base: inside its len? 0 / -1. */
static int core_bytes_fit(const struct st_manifest *mf, int c, uint64_t base, size_t len,
			  const char *file)
{
	if (mf->port.bytes[c] <= len - base)
		return 0;
	return error("%s: core %d's %llu bytes from byte %llu are past the end of the file "
		     "(%zu bytes)", file, c, U(mf->port.bytes[c]), U(base), len);
}

struct rpl_etm *rpl_etm_open(const struct st_manifest *mf, const char *elf_path,
			     const uint8_t *data, size_t len, const char *file)
{
	static struct tr t; /* one decode at a time (OpenCSD's logger is process-wide) */
	struct etm_ocsd_src src[ST_CF_MAX_CORES];
	struct etm_image im;
	struct rpl_etm *e = NULL, *ret = NULL;
	struct rpl_etm_stats *st;
	uint64_t base = 0;

	if (mf->port.kind == ST_PORT_NONE) {
		error("%s: not a trace port's recording", file);
		return NULL;
	}
	if (etm_image_load(&im, elf_path))
		return NULL;
	e = xcalloc(1, sizeof(*e));
	e->ncores = mf->ncores;
	st = &e->st;
	memset(&t, 0, sizeof(t));
	t.mf = mf;
	t.file = file;
	t.im = &im;
	t.v3 = mf->port.kind == ST_PORT_ETM3;
	t.plain = e->plain = getenv("RAPTOR_PATH_PLAIN") && *getenv("RAPTOR_PATH_PLAIN");
	t.vtor = board_mem_of(mf->model).rom_base;
	t.st = st;
	for (int c = 0; c < mf->ncores; c++) {
		t.c[c] = (struct core_tr){.t = &t, .core = c};
		rpl_pmsgs_init(&t.c[c].msgs, c);
		src[c] = (struct etm_ocsd_src){
		    .v3 = t.v3, .ctx = &t.c[c], .have_regs = mf->port.have_regs};
		memcpy(src[c].regs, mf->port.regs, sizeof(src[c].regs));
		src[c].c4 =
		    (struct etm4_cfg){mf->port.trace_id[c], mf->port.sync_period, mf->port.v8m,
				      mf->port.cycle_counting ? mf->port.cc_threshold : 0};
		src[c].c3 = (struct etm3_cfg){mf->port.trace_id[c], mf->port.sync_period,
					      mf->port.cycle_counting};
	}
	if (mf->port.kind == ST_PORT_MTB) {
		for (int c = 0; c < mf->ncores; c++) {
			t.c[c].base = base;
			if (core_bytes_fit(mf, c, base, len, file))
				goto out;
			if (mtb_core(&t.c[c], data + base, mf->port.bytes[c]))
				goto out;
			base += mf->port.bytes[c];
		}
	} else if (mf->port.framed) {
		if (check_ids(&t, data, len))
			goto out;
		/*
		 * a TPIU's: OpenCSD wants the data from an FSYNC on, 4-byte aligned
		 * (a probe may have started capturing anywhere in a frame)
		 */
		size_t o = mf->port.tpiu ? cstf_tpiu_start(data, len) : 0;

		for (int c = 0; c < mf->ncores; c++)
			t.c[c].base = o;
		if (etm_ocsd_decode_src(src, mf->ncores, mf->port.tpiu ? 2 : 1, ETM_OCSD_MARKS,
					&im.mem, data + o, len - o, on_elem)) {
			error("%s: the capture of %d cores' frames cannot be decoded (above)", file,
			      mf->ncores);
			goto out;
		}
	} else {
		for (int c = 0; c < mf->ncores; c++) {
			t.c[c].base = base;
			if (core_bytes_fit(mf, c, base, len, file))
				goto out;
			if (mf->port.bytes[c] &&
			    etm_ocsd_decode_src(&src[c], 1, 0, ETM_OCSD_MARKS, &im.mem, data + base,
						mf->port.bytes[c], on_elem)) {
				error(
				    "%s: core %d (trace ID 0x%02x): its trace, bytes %llu to %llu, "
				    "cannot be decoded (above)",
				    file, c, mf->port.trace_id[c], U(base),
				    U(base + mf->port.bytes[c]));
				goto out;
			}
			base += mf->port.bytes[c];
		}
	}
	for (int c = 0; c < mf->ncores; c++) {
		finish(&t.c[c]);
		/* lost for good, or never in the trace at all */
		st->lost_at_end[c] = t.c[c].gap || !t.c[c].started;
		st->end_branch[c] = t.c[c].end_branch;
		e->end_icnt[c] = t.c[c].cnt;
		e->m[c] = t.c[c].msgs; /* the path takes them over */
		rpl_pmsgs_init(&t.c[c].msgs, c);
		e->p[c] = t.c[c].plain;
		t.c[c].plain = (struct plain){0};
	}
	e->next = xmalloc(mf->ncores * sizeof(*e->next));
	st->path_bytes = mf->ncores * sizeof(*e->next);
	for (int c = 0; c < mf->ncores; c++) {
		rpl_pcur_init(&e->next[c], &e->m[c], 0);
		st->path_messages += rpl_pmsgs_count(&e->m[c]);
		st->path_bytes += rpl_pmsgs_bytes(&e->m[c]);
		st->path_packed += (uint64_t)e->m[c].nchunks * RPL_PCHUNK;
		st->path_packed_bytes += e->m[c].packed_bytes;
	}
	ret = e;
	e = NULL;
out:
	for (int c = 0; c < mf->ncores; c++) {
		rpl_pmsgs_release(&t.c[c].msgs);
		plain_release(&t.c[c].plain);
	}
	rpl_etm_free(e);
	etm_image_release(&im);
	return ret;
}

int rpl_etm_gap_sig(const struct rpl_etm *e, int core, uint64_t nth, struct rpl_gap_sig *sig)
{
	uint64_t k = rpl_pmsgs_find_gap(&e->m[core], nth), pos;
	const struct cfw_pmsg *p, *after;
	struct rpl_pcur *cur;
	struct cfw_pmsg m;

	if (k == UINT64_MAX)
		return -1;
	cur = xmalloc(sizeof(*cur));
	rpl_pcur_init(cur, &e->m[core], k);
	sig->pc = rpl_pcur_peek(cur, NULL)->ta;
	sig->n = 0;
	sig->c = xmalloc(RPL_GAP_SIG * sizeof(*sig->c));
	/* step 0, the instruction at the target, is the first the next message counts */
	pos = 0;
	for (rpl_pcur_skip(cur); sig->n < RPL_GAP_SIG && (p = rpl_pcur_peek(cur, NULL));) {
		m = *p; /* the reader moves on to the message after it */
		rpl_pcur_skip(cur);
		if (m.kind == CFW_P_GAP)
			break;
		switch (m.kind) {
		case CFW_P_BRANCH:
			pos += m.n;
			/* an exception before the target's first instruction: that step is the
			 * entry */
			after = rpl_pcur_peek(cur, NULL);
			if (after && after->kind == CFW_P_EXC && !after->n)
				break;
			sig->c[sig->n].at = pos;
			sig->c[sig->n].pc = m.ta;
			sig->c[sig->n++].kind = 0;
			break;
		case CFW_P_EXC:
			pos += m.n;
			sig->c[sig->n].at = pos;
			sig->c[sig->n].pc = m.exc;
			sig->c[sig->n++].kind = 1;
			pos++;
			break;
		case CFW_P_TAIL:
			pos += m.n;
			sig->c[sig->n].at = pos - 1;
			sig->c[sig->n].pc = 0;
			sig->c[sig->n++].kind = 2;
			break;
		}
	}
	free(cur);
	return 0;
}

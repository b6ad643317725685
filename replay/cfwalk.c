#include "replay/cfwalk.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/board.h"
#include "predictors/bp.h"
#include "replay/zchunks.h"
#include "streams/cfmsg.h"
#include "util/leb.h"

#define MAX_CORES ST_CF_MAX_CORES
/* exception entries that interrupted an IT block, per core, not yet returned to */
#define MAX_FRAMES 16
/* functional TR_*: instructions a core may run towards its next branch message */
#define MAX_RUN (1ull << 32)
/* instructions after a counted branch before the cycle detection starts (walker.power) */
#define BRENT_DELAY 1024

#define U(x) ((unsigned long long)(x))

/* A decoded message, filed under its core. */
struct msg {
	uint64_t count; /* SL / bCnt; 0: exception or end */
	uint64_t icnt;	/* count 0: iCnt (TR_*) or SL (NX_b) */
	uint64_t cycle; /* timed: the stamp */
	/*
	 * Set when the read-ahead walker gets here (the message is then "ready"
	 * for the replay): the lower-bound cycles of the core's steps after its
	 * previous message up to and including the one that emitted this, the
	 * WFI/WFE among them, and the part of the slack (stamp - previous stamp
	 * - lb) put down to misses and jitter rather than sleep (see estimate()).
	 */
	uint64_t lb, waits, miss;
	uint64_t bit; /* where it starts in the stream */
	uint64_t seq; /* its index in the stream */
	uint32_t ta;
	uint16_t exc;
	uint8_t end, tail, taken, has_target, gap;
};

/*
 * A core's messages, by index in its list (walker.next): the newest in v,
 * plain, from index base on; the older ones packed in chunks of
 * MSG_CHUNK (pack_chunk: the fields that are not 0 or unchanged, LEB128,
 * deltas for offsets, stamps and targets: 7.7 bytes a message of a timed
 * TR_e stream, 6.6 of a trace port's path, against 88), and the chunks
 * kept in blocks of MSG_BLOCK compressed (replay/zchunks.h: the newest,
 * incomplete block raw, 2 blocks inflated for a replay going back). A
 * replay that went back reads them one chunk at a time, decoded into
 * cache. A message is packed only once the read-ahead has passed it (it
 * no longer changes) and the replay has consumed it, so a replay going
 * forward reads v.
 *
 * MSG_BLOCK: the soak workload's timed TR_e stream (10^8 instructions)
 * packs to 7.7 bytes a message at 1 core, 8.2 at 8; deflated by zlib (level
 * 1, at some 100 MB/s; level 6 saves a sixth more for 3 times the CPU) in
 * blocks of 4 chunks 3.1 and 4.4, of 16 chunks 2.9 and 4.1, of 64 2.8 and
 * 4.0. zstd's level 1 (util/zpack.h), used since, gives 2.8 and 4.3 in
 * blocks of 16 for a third of zlib's compressing time (the forward replay
 * 4% slower than with the chunks kept raw, against 14% with zlib). With
 * zlib, a block of 4, 16, 64 chunks (8, 32, 128 KiB) inflated in 0.03-0.04,
 * 0.11-0.14, 0.4-0.5 ms: a seek back pays that for up to two blocks of
 * each core, on top of walking up to --interval instructions. At 8 cores
 * a random seek and a reverse stepi took 9.1, 10.6, 11.6 ms (8.4 with the
 * chunks kept raw; 8.7 with zstd in blocks of 16); consecutive reverse
 * stepi, which find their blocks inflated, 1.1 ms whatever the size.
 */
#define MSG_CHUNK 256
#define MSG_BLOCK 16

struct msgs {
	struct msg *v;
	size_t n, a;
	uint64_t base; /* index of v[0]; base + n messages in all */
	struct rpl_zchunks z; /* chunk i holds messages i * MSG_CHUNK on */
	struct msg *cache; /* MSG_CHUNK messages: chunk cached, if not SIZE_MAX */
	size_t cached;
};

/*
 * isa_describe's answer for one PC, kept (the walk asks for a PC many
 * times), and the straight-line run that starts there: the instructions a
 * walker outside an IT block passes with nothing to do but count them (no
 * control flow, no IT, no WFI/WFE), so that it passes them all at once.
 */
struct dinfo {
	uint64_t wide;	  /* the run: bit i set when its instruction i is 32-bit */
	uint32_t target;  /* direct branches: the static target */
	uint32_t sum_gen; /* the summary whose PCs hold the whole run (0: none) */
	uint8_t state;	  /* 0: not asked yet; 1: decoded; 2: cannot be fetched or decoded */
	uint8_t size, cf;
	uint8_t wait; /* WFI or WFE: the core may sleep after it */
	uint8_t it; /* an IT instruction: its firstcond:mask (the new ITSTATE); else 0 */
	uint8_t has_run; /* run, bytes and wide are set */
	uint8_t run;	 /* the run's instructions, 0 to RUN_MAX */
	uint16_t bytes;	 /* the run's bytes */
	struct dinfo *end; /* describe's answer for the instruction after the run */
};
/* the longest run kept (wide's bits) */
#define RUN_MAX 64
#define DPAGE_BITS 12
#define DPAGE_N (1u << (DPAGE_BITS - 1))
/* 2^20 page pointers (8 MiB), touched sparsely: mapped (util.h xmap_table) */
#define DPAGE_TABLE_BYTES (((size_t)1 << (32 - DPAGE_BITS)) * sizeof(struct dinfo *))

/* An exception entry that interrupted an IT block: where, and the ITSTATE it stacked. */
struct frame {
	uint32_t ret;
	uint8_t it;
};

/* One core's walk: plain data (the replay's walkers are checkpointed). */
struct walker {
	uint32_t pc;
	uint8_t it;   /* ITSTATE, as the ISS keeps it */
	uint8_t done; /* at its end message */
	uint8_t nframes;
	struct frame frames[MAX_FRAMES];
	uint64_t bcnt; /* TR_*: bCnt since the core's previous message */
	uint64_t cnt;  /* iCnt (TR_*) or SL (NX_b) since the core's previous message */
	uint64_t insns, steps;
	uint64_t next;	/* index of its next message in its list */
	uint64_t pin;	/* cycle at its previous message (0 at reset) */
	uint64_t lb;	/* lower-bound cycles since then */
	uint64_t waits; /* WFI/WFE since then, but the latest step */
	uint8_t slept;	/* the latest step was a WFI/WFE: the core may have slept since */
	uint64_t cycle; /* the estimate after its latest step */
	/* read-ahead: slack and lower bound of the core's segments without WFI/WFE */
	uint64_t slack_sum, lb_sum;
	/*
	 * Brent's cycle detection over (pc, ITSTATE) since the last counted
	 * branch, from BRENT_DELAY instructions after it (power 0 until then,
	 * lam counting them): code that loops runs a counted branch well
	 * before that, so the walk seldom needs it
	 */
	uint64_t power, lam;
	uint32_t loop_pc;
	uint8_t loop_it;
};

struct cfw {
	const struct st_manifest *mf;
	const char *path;
	struct isa_decoder *dec;
	const struct isa_bus *bus;
	int ncores, nx, timed;
	/*
	 * pathm: the source is a decoded path (cfw_config.path), walked with
	 * NX_b's rules but for every taken branch (path_branch); unit names
	 * the offsets in messages ("bit" of the cf stream, "byte" of a trace)
	 */
	int pathm;
	const char *unit;
	int (*path_next)(void *ctx, struct cfw_pmsg *m);
	void *path_ctx;
	uint64_t src_at; /* the latest path message's byte offset */
	int src_ends;	 /* end messages filed */
	int simple; /* RAPTOR_CFW_SIMPLE: one instruction at a time (white-box switch) */
	unsigned block; /* chunks a block: MSG_BLOCK, or RAPTOR_CFW_BLOCK (white-box switch) */
	int defer;  /* in cfw_run on one core: the replay's estimate is made at the end */
	unsigned branch_penalty, exc_penalty;
	struct dinfo **pages;
	struct dinfo **used; /* the pages allocated, freed without walking 2^20 pointers */
	size_t nused, aused;

	/* the read-ahead: the stream's decoder, walkers and predictors of its own */
	struct st_cf_decoder cfd;
	struct walker pw[MAX_CORES];
	struct bp *pbp[MAX_CORES];
	struct msgs list[MAX_CORES];
	uint64_t nmsgs;
	int open_core; /* the core of a branch head whose target part may follow, or -1 */
	int ends;      /* the end messages are read: nothing more in the stream */
	int pfailed;
	char perr[1024];
	/*
	 * ahead: the read-ahead's walker of core 0 is also the replay's, whose
	 * own (rw[0], rbp[0]) are behind until adopt() (frontier_run); bpbuf
	 * carries the predictors' state over
	 */
	int ahead;
	uint8_t *bpbuf;

	struct rpl_zcoder *zc; /* the lists' compressor */

	/* the replay */
	struct walker rw[MAX_CORES];
	struct bp *rbp[MAX_CORES];
	uint64_t consumed; /* messages consumed, end messages aside: a prefix of the stream */
	/*
	 * pick()'s verdict per core (can: it may step), kept while valid: bit c
	 * of can_valid, cleared when core c steps or is restored, all of them
	 * when a message is consumed (can_consumed differs)
	 */
	uint8_t can[MAX_CORES];
	uint32_t can_valid;
	uint64_t can_consumed;
	uint64_t key[MAX_CORES]; /* a valid verdict's: the core's cycle if it can step, else UINT64_MAX */
	/*
	 * a tournament over the keys (ties to the lower index): node[1..7],
	 * node[k] the winning core under node k, whose children are 2k and
	 * 2k + 1, and from 8 up the cores (8 + c is core c; cores from ncores
	 * on never win: their keys stay UINT64_MAX)
	 */
	uint8_t node[MAX_CORES];
};

static uint64_t position(const struct cfw *x)
{
	uint64_t n = 0;

	for (int i = 0; i < x->ncores; i++)
		n += x->ahead ? x->pw[i].insns : x->rw[i].insns;
	return n;
}

/* The index in core's list of the replay's next message. */
static uint64_t replay_next(const struct cfw *x, int core)
{
	return x->ahead ? x->pw[core].next : x->rw[core].next;
}

static int walk_error(struct cfw *x, int pre, int core, uint64_t bit, const char *fmt, ...)
	PRINTF_LIKE(5, 6);

/*
 * "<file>: core C, instruction N (position P), bit B: ..." for the replay;
 * the read-ahead names its own instruction count, and the error sticks.
 */
static int walk_error(struct cfw *x, int pre, int core, uint64_t bit, const char *fmt, ...)
{
	const struct walker *w = pre ? &x->pw[core] : &x->rw[core];
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!pre)
		return error("%s: core %d, instruction %llu (position %llu), %s %llu: %s", x->path,
			     core, U(w->insns), U(position(x)), x->unit, U(bit), msg);
	snprintf(x->perr, sizeof(x->perr), "%s: core %d, instruction %llu (%s at position %llu), "
		 "%s %llu: %s", x->path, core, U(w->insns),
		 x->ahead ? "the replay walking there too," : "read ahead of the replay",
		 U(position(x)), x->unit, U(bit), msg);
	x->pfailed = 1;
	return error("%s", x->perr);
}

/* ---- message lists ---------------------------------------------------------------- */

/*
 * A packed message: a flags byte (end, tail, taken, has_target, gap), a
 * byte saying which of the fields that are often 0 follow (P_*), then the
 * fields as LEB128: count; icnt, lb, waits, miss and exc if marked; cycle,
 * bit and seq as zigzag deltas from the chunk's previous message (cycle if
 * marked); ta, if marked, as a zigzag delta from the previous message's ta
 * in the chunk (targets cluster in the code). "previous" is 0 for the
 * chunk's first message; a field not marked is 0 (cycle and ta: the
 * previous message's). docs/FORMAT.md has the same diagram.
 *
 *     7   6   5   4   3   2   1   0
 *   +---+---+---+---+---+---+---+---+
 *   | 0 | 0 | 0 |gap|tgt| T |tl |end|  flags: gap, has_target, taken, tail, end
 *   +---+---+---+---+---+---+---+---+
 *   | 0 |TA |EXC|MIS|WAI|LB |CYC|ICN|  has: P_TA ... P_ICNT
 *   +---+---+---+---+---+---+---+---+
 *   count   ULEB128
 *   icnt    ULEB128 (ICN)
 *   cycle   ULEB128, zigzag: cycle - the previous cycle (CYC)
 *   lb      ULEB128 (LB)
 *   waits   ULEB128 (WAI)
 *   miss    ULEB128 (MIS)
 *   bit     ULEB128, zigzag: bit - the previous bit
 *   seq     ULEB128, zigzag: seq - the previous seq
 *   ta      ULEB128, zigzag: ta - the previous ta (TA)
 *   exc     ULEB128 (EXC)
 */
enum { P_ICNT = 1, P_CYCLE = 2, P_LB = 4, P_WAITS = 8, P_MISS = 16, P_EXC = 32, P_TA = 64 };
/* the most one message takes packed: 9 fields of up to 10 bytes, the two head bytes */
#define MSG_PACKED_MAX (9 * LEB_MAX + 2)

/* Pack the oldest MSG_CHUNK plain messages of l into a chunk of their own. */
static void pack_chunk(struct msgs *l)
{
	uint8_t *buf = rpl_zchunks_room(&l->z, (size_t)MSG_CHUNK * MSG_PACKED_MAX), *p = buf;
	const struct msg *prev = &(struct msg){ 0 };

	for (size_t i = 0; i < MSG_CHUNK; prev = &l->v[i++]) {
		const struct msg *m = &l->v[i];
		uint8_t has = (uint8_t)((m->icnt ? P_ICNT : 0) | (m->cycle != prev->cycle ? P_CYCLE : 0) |
					(m->lb ? P_LB : 0) | (m->waits ? P_WAITS : 0) |
					(m->miss ? P_MISS : 0) | (m->exc ? P_EXC : 0) |
					(m->ta != prev->ta ? P_TA : 0));

		*p++ = (uint8_t)(m->end | m->tail << 1 | m->taken << 2 | m->has_target << 3 |
				 m->gap << 4);
		*p++ = has;
		put_uleb(&p, m->count);
		if (has & P_ICNT)
			put_uleb(&p, m->icnt);
		if (has & P_CYCLE)
			put_uleb(&p, zigzag(m->cycle, prev->cycle));
		if (has & P_LB)
			put_uleb(&p, m->lb);
		if (has & P_WAITS)
			put_uleb(&p, m->waits);
		if (has & P_MISS)
			put_uleb(&p, m->miss);
		put_uleb(&p, zigzag(m->bit, prev->bit));
		put_uleb(&p, zigzag(m->seq, prev->seq));
		if (has & P_TA)
			put_uleb(&p, zigzag(m->ta, prev->ta));
		if (has & P_EXC)
			put_uleb(&p, m->exc);
	}
	rpl_zchunks_add(&l->z, (size_t)(p - buf));
	memmove(l->v, l->v + MSG_CHUNK, (l->n - MSG_CHUNK) * sizeof(*l->v));
	l->n -= MSG_CHUNK;
	l->base += MSG_CHUNK;
}

/* Unpack chunk c of core's list into its cache: 0, or -1 with an error. */
static int unpack_chunk(struct cfw *x, int core, size_t c)
{
	struct msgs *l = &x->list[core];
	const struct msg *prev = &(struct msg){ 0 };
	const uint8_t *p, *start;
	char why[400];
	size_t len;

	l->cached = SIZE_MAX;
	error_quiet(1);
	p = start = rpl_zchunks_get(&l->z, c, &len);
	error_quiet(-1);
	if (!p) {
		snprintf(why, sizeof(why), "%s", error_last()); /* error() overwrites it */
		return error("%s: core %d (the replay at position %llu): its messages %llu to "
			     "%llu, packed, cannot be read back (an internal error): %s", x->path,
			     core, U(position(x)), U((uint64_t)c * MSG_CHUNK),
			     U((uint64_t)(c + 1) * MSG_CHUNK - 1), why);
	}
	if (!l->cache)
		l->cache = xmalloc(MSG_CHUNK * sizeof(*l->cache));
	for (size_t i = 0; i < MSG_CHUNK; prev = &l->cache[i++]) {
		struct msg *m = &l->cache[i];
		uint8_t f = *p++, has = *p++;

		m->end = f & 1;
		m->tail = f >> 1 & 1;
		m->taken = f >> 2 & 1;
		m->has_target = f >> 3 & 1;
		m->gap = f >> 4 & 1;
		m->count = get_uleb(&p);
		m->icnt = has & P_ICNT ? get_uleb(&p) : 0;
		m->cycle = has & P_CYCLE ? unzigzag(get_uleb(&p), prev->cycle) : prev->cycle;
		m->lb = has & P_LB ? get_uleb(&p) : 0;
		m->waits = has & P_WAITS ? get_uleb(&p) : 0;
		m->miss = has & P_MISS ? get_uleb(&p) : 0;
		m->bit = unzigzag(get_uleb(&p), prev->bit);
		m->seq = unzigzag(get_uleb(&p), prev->seq);
		m->ta = has & P_TA ? (uint32_t)unzigzag(get_uleb(&p), prev->ta) : prev->ta;
		m->exc = has & P_EXC ? (uint16_t)get_uleb(&p) : 0;
	}
	if (p != start + len)
		return error("%s: core %d (the replay at position %llu): its messages %llu to "
			     "%llu, packed in %zu bytes, unpack from %zu (an internal error)",
			     x->path, core, U(position(x)), U((uint64_t)c * MSG_CHUNK),
			     U((uint64_t)(c + 1) * MSG_CHUNK - 1), len, (size_t)(p - start));
	l->cached = c;
	return 0;
}

/*
 * Message k of core's list (k < its count). The pointer holds until the
 * next message is filed, or the next msg() of an older chunk of the core.
 * NULL with an error when k is packed and its chunk cannot be read back
 * (its block does not unpack: an internal error, which fails the step).
 */
static struct msg *msg(struct cfw *x, int core, uint64_t k)
{
	struct msgs *l = &x->list[core];
	size_t c;

	if (k >= l->base)
		return &l->v[k - l->base];
	c = (size_t)(k / MSG_CHUNK);
	if (l->cached != c && unpack_chunk(x, core, c))
		return NULL;
	return &l->cache[k % MSG_CHUNK];
}

/* Messages in core's list. */
static uint64_t msg_count(const struct cfw *x, int core)
{
	return x->list[core].base + x->list[core].n;
}

/* ---- code ------------------------------------------------------------------------ */

static struct dinfo *describe_new(struct cfw *x, uint32_t pc)
{
	struct dinfo **pg = &x->pages[pc >> DPAGE_BITS], *d;
	uint32_t target;
	enum isa_cf cf;
	unsigned size;
	uint16_t hw;
	char text[32];
	int s;

	if (!*pg) {
		*pg = xcalloc(DPAGE_N, sizeof(**pg));
		if (x->nused == x->aused) {
			x->aused = x->aused ? 2 * x->aused : 16;
			x->used = xrealloc(x->used, x->aused * sizeof(*x->used));
		}
		x->used[x->nused++] = *pg;
	}
	d = &(*pg)[(pc & ((1u << DPAGE_BITS) - 1)) >> 1];
	if (d->state)
		return d;
	d->state = 2;
	error_quiet(1);
	s = isa_describe(x->dec, x->bus, pc, text, sizeof(text), &size, &cf, &target);
	error_quiet(-1);
	if (s || !strncmp(text, "(undecodable", 12))
		return d; /* the ISS stops at such an instruction: it never retires */
	d->size = size;
	d->cf = cf;
	d->target = target;
	d->wait = !strncmp(text, "wfi", 3) || !strncmp(text, "wfe", 3);
	/*
	 * isa_describe does not give ITSTATE: IT is 0xBFxx with a non-zero mask
	 * (A7.7.38, the test isa/decode.c makes); its own text must agree.
	 */
	if (size == 2 && x->bus->fetch(x->bus->ctx, pc, &hw) == ISA_BUS_OK &&
	    (hw & 0xff00) == 0xbf00 && (hw & 0xf)) {
		if (isa_describe(x->dec, x->bus, pc, text, sizeof(text), NULL, NULL, NULL) ||
		    strncmp(text, "it ", 3))
			return d;
		d->it = hw & 0xff;
	}
	d->state = 1;
	return d;
}

/* describe's answer for pc: kept, or asked now. */
static inline struct dinfo *describe(struct cfw *x, uint32_t pc)
{
	struct dinfo *pg = x->pages[pc >> DPAGE_BITS];

	if (pg && pg[(pc & ((1u << DPAGE_BITS) - 1)) >> 1].state)
		return &pg[(pc & ((1u << DPAGE_BITS) - 1)) >> 1];
	return describe_new(x, pc);
}

/* An instruction the walk only counts: no control flow, no IT, no WFI/WFE. */
static int plain(const struct dinfo *d)
{
	return d->state == 1 && d->cf == ISA_CF_NONE && !d->it && !d->wait;
}

/* block() the first time at pc. */
static struct dinfo *find_run(struct cfw *x, uint32_t pc)
{
	struct dinfo *d = describe(x, pc);
	uint64_t wide = 0;
	uint32_t a = pc;
	unsigned n = 0;

	for (; n < RUN_MAX; n++) {
		const struct dinfo *e = describe(x, a);

		if (!plain(e))
			break;
		if (e->size == 4)
			wide |= 1ull << n;
		a += e->size;
	}
	d->run = n;
	d->wide = wide;
	d->bytes = a - pc;
	d->end = describe(x, a);
	d->has_run = 1;
	return d;
}

/*
 * describe(pc), with the straight-line run that starts there: its plain
 * instructions up to the next that is not (a branch, an IT, a WFI/WFE, an
 * undecodable one), at most RUN_MAX. The code never changes (the load
 * image; see cfwalk.h), so neither does a run once found.
 */
static inline struct dinfo *block(struct cfw *x, uint32_t pc)
{
	struct dinfo *d = describe(x, pc);

	return d->has_run ? d : find_run(x, pc);
}

/* The bytes of the first k instructions of d's run (k <= d->run). */
static uint32_t run_bytes(const struct dinfo *d, uint64_t k)
{
	uint32_t b = 2 * (uint32_t)k;
	uint64_t wide;

	if (k == d->run)
		return d->bytes;
	/* a run cut short (k < run <= 64): few of its instructions are 32-bit */
	for (wide = d->wide & ((1ull << k) - 1); wide; wide &= wide - 1)
		b += 2;
	return b;
}

/* The size of instruction j of d's run. */
static uint32_t run_size(const struct dinfo *d, uint64_t j)
{
	return d->wide >> j & 1 ? 4 : 2;
}

/*
 * The handler of exception exc: the vector table stays where VTOR's reset
 * value puts it, the start of the code region (0; 0x10000000 on the M33's
 * board: board_mem_of).
 */
static int vector(struct cfw *x, unsigned exc, uint32_t *pc)
{
	uint32_t vt = board_mem_of(x->mf->model).rom_base + 4 * exc;
	uint16_t lo, hi;

	if (x->bus->fetch(x->bus->ctx, vt, &lo) != ISA_BUS_OK ||
	    x->bus->fetch(x->bus->ctx, vt + 2, &hi) != ISA_BUS_OK)
		return -1;
	*pc = ((uint32_t)hi << 16 | lo) & ~1u;
	return 0;
}

/* ITAdvance (A7.3.3), as isa/cpu.c does it after every instruction but IT. */
static void it_advance(struct walker *w)
{
	if ((w->it & 7) == 0)
		w->it = 0;
	else
		w->it = (w->it & 0xe0) | ((w->it << 1) & 0x1f);
}

/*
 * Enter exception exc's handler: between instructions (tail 0: the frame
 * holds the current PC and ITSTATE, the RAS gets the return address, as
 * the trace module's bp_exception), or tail-chained from an exception
 * return (nothing stacked, the predictors untouched).
 */
static int enter(struct cfw *x, int pre, int core, unsigned exc, int tail, uint64_t bit)
{
	struct walker *w = pre ? &x->pw[core] : &x->rw[core];
	struct bp *bp = pre ? x->pbp[core] : x->rbp[core];
	uint32_t pc;

	if (vector(x, exc, &pc))
		return walk_error(x, pre, core, bit, "the vector of exception %u at 0x%08x is not in "
				  "the program's load image", exc,
				  board_mem_of(x->mf->model).rom_base + 4 * exc);
	if (!tail) {
		if (w->it) {
			/* interrupted inside an IT block: the exception return restores it */
			if (w->nframes == MAX_FRAMES)
				return walk_error(x, pre, core, bit, "more than %d exception entries "
						  "interrupted IT blocks without returning to them",
						  MAX_FRAMES);
			w->frames[w->nframes++] = (struct frame){ w->pc, w->it };
		}
		if (bp)
			bp_exception(bp, w->pc);
	}
	w->it = 0;
	w->pc = pc;
	return 0;
}

/*
 * A taken indirect branch to target: an exception return to an instruction
 * interrupted inside an IT block gets its ITSTATE back. Only an exception
 * return can land there (a call's return address never is: a BL/BLX in an
 * IT block is its last instruction), and only at the latest such frame.
 */
static void returned(struct walker *w, uint32_t target)
{
	for (int i = w->nframes - 1; i >= 0; i--)
		if (w->frames[i].ret == target) {
			w->it = w->frames[i].it;
			memmove(&w->frames[i], &w->frames[i + 1],
				(w->nframes - 1 - i) * sizeof(w->frames[0]));
			w->nframes--;
			return;
		}
}

static int is_indirect(unsigned cf)
{
	return cf == ISA_CF_RETURN || cf == ISA_CF_IND_CALL || cf == ISA_CF_IND_JUMP;
}

/* ---- the walk ------------------------------------------------------------------------ */

/*
 * Complete m's target part: the read-ahead reads T and diffTA from the
 * stream (m must be the open head), the replay finds them filed.
 */
static int get_target(struct cfw *x, int pre, int core, struct msg *m, int cond)
{
	struct st_cf_msg h = { .core = core, .count = m->count };
	char why[400];
	int k;

	if (!pre) {
		if (!m->has_target)
			return walk_error(x, pre, core, m->bit, "the replay needs a target the read-ahead "
					  "did not read (a bug)");
		return 0;
	}
	if (x->open_core != core || m != msg(x, core, msg_count(x, core) - 1))
		return walk_error(x, pre, core, m->bit, "a target part for a message that is not the "
				  "stream's head (a bug)");
	error_quiet(1);
	k = st_cf_get_target(&x->cfd, &h, cond);
	error_quiet(-1);
	if (k) {
		snprintf(why, sizeof(why), "%s", error_last());
		return walk_error(x, pre, core, m->bit, "the target part of the message for count "
				  "%llu cannot be decoded: %s", U(m->count), why);
	}
	m->taken = h.taken;
	m->ta = h.ta;
	m->has_target = 1;
	return 0;
}

/*
 * A branch of TR_b/TR_e (the papers' Fig. 6): predict, take the
 * prediction unless the message lands here, train. *used when it did.
 */
static int tr_branch(struct cfw *x, int pre, int core, struct msg *m, const struct dinfo *d,
		     int *taken, uint32_t *target, int *used, int *counted)
{
	struct walker *w = pre ? &x->pw[core] : &x->rw[core];
	struct bp *bp = pre ? x->pbp[core] : x->rbp[core];
	struct bp_branch br = { w->pc, w->pc + d->size, d->cf,
				w->it != 0 || d->cf == ISA_CF_COND_DIRECT };
	struct bp_prediction pred;

	bp_predict(bp, &br, &pred);
	*counted = pred.counts;
	if (pred.counts)
		w->bcnt++;
	if (pred.counts && m->count && w->bcnt == m->count) {
		*used = 1;
		if (pred.indirect) {
			if (get_target(x, pre, core, m, pred.conditional))
				return -1;
			*taken = m->taken;
			*target = m->taken ? m->ta : br.fallthrough;
			if (bp_classify_miss(&pred, m->taken, m->ta) == BP_MISS_NONE)
				return walk_error(x, pre, core, m->bit, "the message at count %llu says "
						  "%s 0x%08x, which is what the predictor predicts "
						  "for the branch at 0x%08x", U(m->count),
						  m->taken ? "taken to" : "not taken,", m->ta, w->pc);
		} else {
			*taken = !pred.taken;
			*target = *taken ? d->target : br.fallthrough;
		}
	} else {
		*taken = pred.taken;
		*target = br.fallthrough;
		if (pred.taken && pred.indirect) {
			if (!pred.target_known)
				return walk_error(x, pre, core, m->bit, "the predictor has no target for "
						  "the %s at 0x%08x (bCnt %llu), but the stream has no "
						  "message for it", d->cf == ISA_CF_RETURN ? "return" :
						  "indirect branch", w->pc, U(w->bcnt));
			*target = pred.target;
		} else if (pred.taken) {
			*target = d->target;
		}
	}
	bp_update(bp, &br, *taken, *target);
	return 0;
}

/* A branch of NX_b: a message for every taken conditional direct and taken indirect branch. */
static int nx_branch(struct cfw *x, int pre, int core, struct msg *m, const struct dinfo *d,
		     int *taken, uint32_t *target, int *used)
{
	struct walker *w = pre ? &x->pw[core] : &x->rw[core];
	int cond = w->it != 0 || d->cf == ISA_CF_COND_DIRECT;
	int hit = m->count && w->cnt == m->count;

	*taken = 0;
	*target = w->pc + d->size;
	if (is_indirect(d->cf)) {
		if (hit) {
			if (get_target(x, pre, core, m, cond))
				return -1;
			*taken = 1;
			*target = m->ta;
			*used = 1;
		} else if (!cond) {
			return walk_error(x, pre, core, m->bit, "the %s at 0x%08x (SL %llu) has no message, "
					  "but NX_b traces every indirect branch",
					  d->cf == ISA_CF_RETURN ? "return" : "indirect branch", w->pc,
					  U(w->cnt));
		}
	} else if (d->cf == ISA_CF_COND_DIRECT) {
		if (hit) {
			*taken = 1;
			*target = d->target;
			*used = 1;
		}
	} else {
		if (hit)
			return walk_error(x, pre, core, m->bit, "the message for SL %llu lands on the "
					  "direct branch at 0x%08x, which NX_b never traces",
					  U(m->count), w->pc);
		if (cond)
			return walk_error(x, pre, core, m->bit, "the %s at 0x%08x is inside an IT block: "
					  "NX_b does not trace whether it was taken, so the control "
					  "flow cannot be followed without the load-value stream",
					  d->cf == ISA_CF_CALL ? "BL" : "B", w->pc);
		*taken = 1;
		*target = d->target;
	}
	return 0;
}

/*
 * A branch of a decoded path: taken exactly when its message lands on it,
 * to the message's target. A direct branch must go where its encoding
 * says; an unconditional one outside an IT block cannot be passed.
 */
static int path_branch(struct cfw *x, int pre, int core, struct msg *m, const struct dinfo *d,
		       int *taken, uint32_t *target, int *used)
{
	struct walker *w = pre ? &x->pw[core] : &x->rw[core];
	int cond = w->it != 0 || d->cf == ISA_CF_COND_DIRECT;

	*taken = 0;
	*target = w->pc + d->size;
	if (m->count && w->cnt == m->count) {
		if (!is_indirect(d->cf) && m->ta != d->target)
			return walk_error(x, pre, core, m->bit, "the trace has the branch at 0x%08x "
					  "go to 0x%08x, its encoding says 0x%08x", w->pc, m->ta,
					  d->target);
		*taken = 1;
		*target = m->ta;
		*used = 1;
	} else if (!is_indirect(d->cf) && !cond && d->target != w->pc + d->size) {
		return walk_error(x, pre, core, m->bit, "the trace has the %s at 0x%08x not taken, "
				  "but it is unconditional", d->cf == ISA_CF_CALL ? "BL" : "B",
				  w->pc);
	}
	return 0;
}

/*
 * The part of a segment's slack put down to misses and jitter: all of it
 * without WFI/WFE; with them, as much as the core's segments without any
 * had per lower-bound cycle so far (the rest is sleep).
 */
static uint64_t miss_slack(const struct walker *p, uint64_t waits, uint64_t slack)
{
	uint64_t m;

	if (!waits || !p->lb_sum)
		return waits ? 0 : slack;
	m = (uint64_t)((unsigned __int128)p->lb * p->slack_sum / p->lb_sum);
	return m < slack ? m : slack;
}

/* The read-ahead reached message m of its walker p: measure the segment. */
static void segment_done(struct cfw *x, struct walker *p, struct msg *m)
{
	uint64_t slack;

	m->lb = p->lb;
	m->waits = p->waits + p->slept;
	if (!x->timed)
		return;
	slack = m->cycle - p->pin - p->lb; /* >= 0: checked before */
	m->miss = miss_slack(p, m->waits, slack);
	if (!m->waits) {
		p->slack_sum += slack;
		p->lb_sum += p->lb;
	}
}

/*
 * The cycle estimate of the replay's walker w after a step, its next
 * message m (ready) not reached. The segment from the previous stamp P0 to
 * m's P1 has lower bound L, slack S = P1 - P0 - L, of which M is put down
 * to misses (spread in proportion to the lower bound) and S - M to sleep
 * (spread evenly over its WFI/WFE, each share at once on the step after
 * one, as the board's clock jumps over a sleep). After l lower-bound
 * cycles and w WFI/WFE before the latest step: P0 + l + M l / L +
 * (S - M) w / W, which is P1 at the message. Functional: the lower bound.
 */
/* a b / c rounded down (c > 0), in 128 bits only when a b needs them */
static inline uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t p;

	if (!__builtin_mul_overflow(a, b, &p))
		return p / c;
	return (uint64_t)((unsigned __int128)a * b / c);
}

static inline uint64_t estimate_at(const struct cfw *x, const struct walker *w, uint64_t lb,
				   const struct msg *m)
{
	uint64_t slack, e;

	if (!x->timed)
		return w->pin + lb;
	if (m->cycle < w->pin + m->lb || !m->lb)
		return w->pin + lb;
	slack = m->cycle - w->pin - m->lb;
	e = w->pin + lb + muldiv(m->miss, lb, m->lb);
	if (m->waits)
		e += muldiv(slack - m->miss, w->waits, m->waits);
	return e;
}

static uint64_t estimate(const struct cfw *x, const struct walker *w, const struct msg *m)
{
	return estimate_at(x, w, w->lb, m);
}

/*
 * The read-ahead's checks after a step of its walker w that did not reach
 * w's next message m (counted: the step was a branch bCnt counts), so that
 * it does not walk on forever when the stream is wrong: 0, or -1 with an
 * error.
 */
static inline int pre_checks(struct cfw *x, int core, struct walker *w, const struct msg *m,
			     int counted)
{
	const int pre = 1;

	if (x->timed && w->pin + w->lb > m->cycle)
		return walk_error(x, pre, core, m->bit, "the core's next message is stamped cycle %llu, "
				  "but it is still running at cycle %llu at least (pc 0x%08x)",
				  U(m->cycle), U(w->pin + w->lb), w->pc);
	if (!x->nx && m->count) {
		if (w->cnt > MAX_RUN)
			return walk_error(x, pre, core, m->bit, "more than %llu instructions without "
					  "reaching the message for bCnt %llu", U(MAX_RUN),
					  U(m->count));
		if (counted) {
			w->power = w->lam = 0;
		} else if (!w->power) {
			if (++w->lam < BRENT_DELAY)
				return 0;
			w->power = 1;
			w->lam = 0;
			w->loop_pc = w->pc;
			w->loop_it = w->it;
		} else if (w->pc == w->loop_pc && w->it == w->loop_it) {
			return walk_error(x, pre, core, m->bit, "the core loops through 0x%08x with no "
					  "counted branch, so it can never reach the message for "
					  "bCnt %llu (it is at %llu)", w->pc, U(m->count),
					  U(w->bcnt));
		} else if (++w->lam == w->power) {
			w->power *= 2;
			w->lam = 0;
			w->loop_pc = w->pc;
			w->loop_it = w->it;
		}
	}
	return 0;
}

/*
 * One step of a core's walker (pre: the read-ahead's, else the replay's)
 * against its next message, which must be decoded (and, for the replay,
 * ready) and must not be its end message reached. Fills *out. 0 / -1.
 */
static int walk(struct cfw *x, int pre, int core, struct cfw_step *out)
{
	struct walker *w = pre ? &x->pw[core] : &x->rw[core];
	struct msg *m = msg(x, core, w->next);
	uint32_t target = 0, from = w->pc;
	int taken = 0, used = 0, counted = 0;
	const struct dinfo *d;
	uint64_t cost;

	memset(out, 0, sizeof(*out));
	if (!m)
		return -1;
	out->core = core;
	out->pc = w->pc;
	w->waits += w->slept;
	w->slept = 0;
	if (!m->count && !m->end) {
		if (m->tail ? m->icnt <= w->cnt : m->icnt < w->cnt)
			return walk_error(x, pre, core, m->bit, "the exception message counts %llu "
					  "instructions since the core's previous message, the core "
					  "has run %llu", U(m->icnt), U(w->cnt));
		if (m->gap && m->icnt == w->cnt) {
			/* the trace lost the core here: it is next seen at ta */
			w->pc = m->ta;
			w->it = 0;
			w->nframes = 0;
			out->exception = 1;
			out->gap = 1;
			cost = 0;
			used = 1;
			goto done;
		}
		if (!m->tail && m->icnt == w->cnt) {
			if (enter(x, pre, core, m->exc, 0, m->bit))
				return -1;
			out->exception = 1;
			out->exc = m->exc;
			cost = x->exc_penalty;
			used = 1;
			goto done;
		}
	}
	if (w->pc & 1)
		return walk_error(x, pre, core, m->bit, "the core goes to 0x%08x, which is not a Thumb "
				  "instruction address", w->pc);
	d = describe(x, w->pc);
	if (d->state != 1)
		return walk_error(x, pre, core, m->bit, "no instruction can be decoded at 0x%08x (the "
				  "replay knows the code of the program's load image only)", w->pc);
	w->cnt++;
	w->insns++;
	if (!m->count && !m->end && m->tail && m->icnt == w->cnt) {
		/* the exception return that tail-chained: no return, no branch for the predictors */
		if (d->cf != ISA_CF_RETURN && d->cf != ISA_CF_IND_JUMP)
			return walk_error(x, pre, core, m->bit, "the stream tail-chains exception %u "
					  "from the instruction at 0x%08x, which cannot return from "
					  "an exception", m->exc, w->pc);
		if (enter(x, pre, core, m->exc, 1, m->bit))
			return -1;
		out->exc = m->exc;
		out->tail = 1;
		cost = 1 + x->branch_penalty;
		used = 1;
		goto done;
	}
	w->slept = d->wait;
	if (d->it) {
		w->it = d->it;
	} else {
		if (d->cf != ISA_CF_NONE) {
			if (x->pathm ? path_branch(x, pre, core, m, d, &taken, &target, &used)
			    : x->nx  ? nx_branch(x, pre, core, m, d, &taken, &target, &used)
				     : tr_branch(x, pre, core, m, d, &taken, &target, &used,
						 &counted))
				return -1;
		}
		it_advance(w);
		if (taken && (d->cf == ISA_CF_RETURN || d->cf == ISA_CF_IND_JUMP))
			returned(w, target);
	}
	if (x->pathm && m->count && w->cnt == m->count && !used)
		return walk_error(x, pre, core, m->bit, "the trace has a taken branch at the "
				  "instruction at 0x%08x, which is not a branch", from);
	if (x->nx && m->count && w->cnt == m->count && !used)
		return walk_error(x, pre, core, m->bit, "the message for SL %llu lands on the "
				  "instruction at 0x%08x, which is not a branch that NX_b traces",
				  U(m->count), from);
	w->pc = taken ? target : from + d->size;
	cost = 1 + (taken ? x->branch_penalty : 0);
done:
	w->steps++;
	w->lb += cost;
	out->next_pc = w->pc;
	if (used) {
		if (pre) {
			if (x->timed && w->pin + w->lb > m->cycle)
				return walk_error(x, pre, core, m->bit, "the message is stamped cycle "
						  "%llu, but the core cannot get there before cycle "
						  "%llu", U(m->cycle), U(w->pin + w->lb));
			segment_done(x, w, m);
			if (m->count)
				x->open_core = -1;
		}
		w->pin = x->timed ? m->cycle : w->pin + w->lb;
		w->lb = w->waits = 0;
		w->cnt = w->bcnt = 0;
		w->power = w->lam = 0;
		w->cycle = w->pin;
		w->next++;
		out->pinned = x->timed;
		out->cycle = w->cycle;
		return 0;
	}
	if (!pre) {
		if (!x->defer)
			w->cycle = out->cycle = estimate(x, w, m);
		return 0;
	}
	return pre_checks(x, core, w, m, counted);
}

/* ---- straight-line runs ------------------------------------------------------------------- */

/*
 * How many plain instructions w may pass before a step of its own falls
 * due for its next message m (ready): an exception entry when iCnt
 * reaches m's, the exception return that tail-chains one, the end; for
 * NX_b the instruction SL lands on. A TR branch message lands on a
 * branch, never on a plain instruction.
 */
static uint64_t msg_room(const struct cfw *x, const struct walker *w, const struct msg *m)
{
	uint64_t due;

	if (!m->count) {
		if (m->tail && !m->end && !m->icnt)
			return 0;
		due = m->tail && !m->end ? m->icnt - 1 : m->icnt;
		return due > w->cnt ? due - w->cnt : 0;
	}
	if (x->nx)
		return m->count - 1 > w->cnt ? m->count - 1 - w->cnt : 0;
	return UINT64_MAX;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * Pass the first k instructions of d's run (w is at its start, outside an
 * IT block): what walk() does to w for each of them, at once.
 */
static void pass(struct walker *w, const struct dinfo *d, uint64_t k)
{
	w->waits += w->slept;
	w->slept = 0;
	w->pc += run_bytes(d, k);
	w->cnt += k;
	w->insns += k;
	w->steps += k;
	w->lb += k;
}

/*
 * The read-ahead's cycle detection over the k plain instructions of d's
 * run from pc0 that p just passed, as walk() does it after each (none of
 * them counts): the check never fires (the caller made sure loop_pc is not
 * among them, and a loop_pc moved onto one of them lies behind the rest).
 */
static void brent_pass(struct walker *p, const struct dinfo *d, uint32_t pc0, uint64_t k)
{
	uint64_t j = 0, left;

	if (!p->power) {
		if (p->lam + k < BRENT_DELAY) {
			p->lam += k;
			return;
		}
		j = BRENT_DELAY - p->lam; /* >= 1: the detection starts after instruction j */
		p->power = 1;
		p->lam = 0;
		p->loop_pc = pc0 + run_bytes(d, j);
		p->loop_it = 0;
	}
	while (j < k) {
		left = p->power - p->lam;
		if (k - j < left) {
			p->lam += k - j;
			return;
		}
		j += left;
		p->power *= 2;
		p->lam = 0;
		p->loop_pc = pc0 + run_bytes(d, j);
		p->loop_it = 0;
	}
}

/* *st: a step of core c at a plain instruction (or a branch no message lands on) at pc. */
static void plain_step(struct cfw_step *st, int c, uint32_t pc, uint32_t next_pc, uint64_t cycle)
{
	memset(st, 0, sizeof(*st));
	st->core = c;
	st->pc = pc;
	st->next_pc = next_pc;
	st->cycle = cycle;
}

/* Step st, done by walk(), into run: its summary, log and last step, its counts. */
static void run_note(struct cfw_run *run, const struct cfw_step *st)
{
	if (run->sum)
		rpl_sum_pc(run->sum, st->pc);
	if (run->log)
		run->log[run->steps] = *st;
	run->last = *st;
	run->steps++;
	run->insns += !st->exception;
}

/*
 * A TR branch d at pc (cond: inside an IT block, or B<cc>/CBZ/CBNZ) taken
 * as the predictors say, trained so (bp_follow): 1 with *counted, *taken
 * and *target (where the core goes next); 0, nothing changed, when stop
 * (its message lands on it if it counts) or when no target is predicted
 * for it taken (walk() reports that).
 */
static inline int follow(struct bp *bp, const struct dinfo *d, uint32_t pc, int cond, int stop,
			 int *counted, int *taken, uint32_t *target)
{
	struct bp_branch br = { pc, pc + d->size, d->cf, cond };

	if (bp_follow(bp, &br, stop, counted, taken, target))
		return 0;
	if (!*taken)
		*target = br.fallthrough;
	else if (!is_indirect(d->cf))
		*target = d->target;
	return 1;
}

/*
 * For the replay's walker w (its waits as they stay through a lane) and
 * its next message m: the lower bounds lb at which its estimate is below
 * thr are those below the returned limit (estimate_at grows with lb).
 */
static uint64_t lb_limit(const struct cfw *x, const struct walker *w, const struct msg *m,
			 uint64_t thr)
{
	uint64_t base = w->pin, lb;

	if (x->timed && m->cycle >= w->pin + m->lb && m->lb && m->waits)
		base += muldiv(m->cycle - w->pin - m->lb - m->miss, w->waits, m->waits);
	if (thr <= base)
		return 0;
	lb = thr - 1 - base; /* the estimate is at least base + lb */
	if (x->timed && m->cycle >= w->pin + m->lb && m->lb && m->miss)
		/* base + lb + miss lb / L <= thr - 1 from below, then exactly */
		lb = muldiv(lb, m->lb, m->lb + m->miss);
	while (lb && estimate_at(x, w, lb, m) >= thr)
		lb--;
	if (estimate_at(x, w, lb, m) >= thr)
		return 0;
	while (estimate_at(x, w, lb + 1, m) < thr)
		lb++;
	return lb + 1;
}

/*
 * The lane: walker w of core (pre: the read-ahead's, else the replay's,
 * picked), outside an IT block, goes on through straight-line runs and
 * through the branches its next message m (ready, for the replay) does
 * not land on, taking what walk() would take at each step, as many walk()
 * steps would, with their checks; it stops short of anything else (a step
 * that reaches m, an IT block, a WFI/WFE, an instruction that cannot be
 * decoded, a taken indirect branch the predictors give no target for) and
 * of its limits:
 *   - at most left steps;
 *   - the replay: after its first step, only while its estimate is below
 *     thr (it stays the core to step, pick()); the steps go into run (its
 *     summary, log and last step);
 *   - the read-ahead: its checks (pre_checks) after each branch, and
 *     before each run those pre_checks would make after each of its
 *     instructions (the stamp of m, MAX_RUN, the cycle detection); run,
 *     if not NULL, when it walks for the replay too (frontier_run), its
 *     log's cycles then the lower bounds (m's segment is not measured yet).
 * *done: the steps taken; all are instructions. 0, or -1 with an error
 * (the read-ahead's checks, a decoded path's or NX_b's branch that cannot
 * be followed), *done then counting the steps before the one that failed.
 */
static int lane(struct cfw *x, int pre, int core, const struct msg *m, uint64_t left,
		uint64_t thr, struct cfw_run *run, uint64_t *done)
{
	struct walker *w = pre ? &x->pw[core] : &x->rw[core];
	struct bp *bp = pre ? x->pbp[core] : x->rbp[core];
	uint64_t n = 0, room = msg_room(x, w, m), lim = UINT64_MAX, cap = UINT64_MAX, k, lb0;
	int brent = pre && !x->nx && m->count, s = 0, lazy = !pre && thr != UINT64_MAX;
	/* TR, no order to keep, no log: the loop below in locals */
	int hot = !x->nx && !lazy && !(run && run->log);
	uint32_t from = w->pc;
	struct dinfo *d = NULL;
	uint64_t e = 0; /* if e_ok: the estimate after the lane's last step */
	int e_ok = 0;

	*done = 0;
	if (!left || !room)
		return 0;
	w->waits += w->slept; /* as every step does: then 0 through the lane */
	w->slept = 0;
	if (pre && x->timed)
		cap = m->cycle > w->pin ? m->cycle - w->pin : 0; /* lb after a step */
	while (n < left && room) {
		uint32_t pc = w->pc;

		if (pc & 1)
			break;
		if (lazy && n) {
			/* most often the core is no longer the one to step after a step */
			if ((e = estimate(x, w, m)) >= thr) {
				e_ok = 1;
				break;
			}
			lim = lb_limit(x, w, m, thr);
			lazy = 0;
		}
		if (n && w->lb >= lim)
			break;
		if (hot && !w->it && !w->nframes && (!brent || !w->power)) {
			uint64_t lb = w->lb, cnt = w->cnt, bcnt = w->bcnt, lam = w->lam, n0 = n;
			int started = 0;

			/*
			 * The common case in locals: whole runs and the branches
			 * between them, each as below, until anything else
			 */
			for (;;) {
				if (!d)
					d = block(x, pc);
				else if (!d->has_run)
					d = find_run(x, pc);
				if (d->run) {
					k = d->run;
					if (k > left - n || k > room || lb + k > cap || cnt + k > MAX_RUN ||
					    (brent && lam + k >= BRENT_DELAY))
						break;
					if (run && run->sum && d->sum_gen != run->sum_gen) {
						for (uint64_t j = 0, a = pc; j < k; a += run_size(d, j++))
							rpl_sum_pc(run->sum, a);
						d->sum_gen = run->sum_gen;
					}
					pc += d->bytes;
					lb += k;
					cnt += k;
					lam += k;
					n += k;
					if (room != UINT64_MAX)
						room -= k;
					from = pc - run_size(d, k - 1);
					d = d->end;
				}
				if (d->state != 1 || d->wait || d->it || d->cf == ISA_CF_NONE ||
				    n == left || !room || lb + 1 + x->branch_penalty > cap ||
				    cnt + 1 > MAX_RUN)
					break;
				{
					int taken, counted;
					uint32_t target;

					if (!follow(bp, d, pc, d->cf == ISA_CF_COND_DIRECT,
						    m->count && bcnt + 1 == m->count, &counted, &taken,
						    &target))
						break;
					bcnt += (unsigned)counted;
					cnt++;
					n++;
					if (room != UINT64_MAX)
						room--;
					if (run && run->sum)
						rpl_sum_pc(run->sum, pc);
					from = pc;
					lb += 1 + (taken ? x->branch_penalty : 0);
					pc = target;
					d = NULL;
					lam = counted ? 0 : lam + 1;
					if (brent && lam >= BRENT_DELAY) {
						/* pre_checks starts the cycle detection here */
						w->power = 1;
						w->lam = 0;
						w->loop_pc = pc;
						w->loop_it = 0;
						started = 1;
						break;
					}
					if (pc & 1)
						break;
				}
			}
			w->pc = pc;
			w->lb = lb;
			w->cnt = cnt;
			w->bcnt = bcnt;
			w->insns += n - n0;
			w->steps += n - n0;
			if (brent && !started)
				w->lam = lam;
			if (started || (pc & 1) || n >= left || !room)
				continue;
		}
		if (!d)
			d = w->it ? describe(x, pc) : block(x, pc);
		else if (!w->it && !d->has_run)
			d = find_run(x, pc);
		if (!w->it && d->run) {
			k = min_u64(min_u64(d->run, room), left - n);
			if (lazy && k > 1) {
				/* the first step is the core's; most often the second is not */
				if (estimate_at(x, w, w->lb + 1, m) >= thr)
					k = 1;
				else
					lim = lb_limit(x, w, m, thr);
				lazy = 0;
			}
			if (lim != UINT64_MAX)
				k = min_u64(k, w->lb < lim ? lim - w->lb : 1);
			if (cap != UINT64_MAX)
				k = min_u64(k, cap > w->lb ? cap - w->lb : 0);
			if (brent) {
				k = min_u64(k, w->cnt < MAX_RUN ? MAX_RUN - w->cnt : 0);
				if (k && w->power && !w->loop_it && w->loop_pc > pc &&
				    w->loop_pc <= pc + run_bytes(d, k))
					break; /* the loop may close in there: walk() finds where */
			}
			if (!k)
				break;
			lb0 = w->lb;
			pass(w, d, k);
			if (brent)
				brent_pass(w, d, pc, k);
			if (run && run->sum && !(k == d->run && d->sum_gen == run->sum_gen)) {
				for (uint64_t j = 0, a = pc; j < k; a += run_size(d, j++))
					rpl_sum_pc(run->sum, a);
				if (k == d->run)
					d->sum_gen = run->sum_gen;
			}
			for (uint64_t j = 0, a = pc; run && run->log && j < k; a += run_size(d, j++))
				plain_step(&run->log[run->steps + n + j], core, a, a + run_size(d, j),
					   pre ? lb0 + j + 1 : estimate_at(x, w, lb0 + j + 1, m));
			n += k;
			if (room != UINT64_MAX)
				room -= k;
			from = w->pc - run_size(d, k - 1);
			if (k < d->run)
				break;
			d = d->end; /* describe(w->pc) */
			continue;
		}
		/* one instruction, as walk() takes it */
		if (d->state != 1 || d->wait)
			break;
		if (cap != UINT64_MAX && w->lb + 1 + x->branch_penalty > cap)
			break; /* walk() tells whether it fits */
		{
			struct bp_branch br = { pc, pc + d->size, d->cf,
						w->it != 0 || d->cf == ISA_CF_COND_DIRECT };
			int taken = 0, counted = 0, used = 0;
			uint32_t target = 0;

			if (d->it || d->cf == ISA_CF_NONE) {
				w->cnt++;
				w->insns++;
			} else if (!x->nx) {
				if (!follow(bp, d, pc, br.conditional, m->count && w->bcnt + 1 == m->count,
					    &counted, &taken, &target))
					break; /* m lands here, or walk() reports the missing target */
				w->bcnt += (unsigned)counted;
				w->cnt++;
				w->insns++;
			} else {
				/* room >= 1: the message does not land here */
				w->cnt++;
				w->insns++;
				if (x->pathm ? path_branch(x, pre, core, (struct msg *)m, d, &taken,
							   &target, &used)
					     : nx_branch(x, pre, core, (struct msg *)m, d, &taken,
							 &target, &used)) {
					s = -1;
					break;
				}
			}
			if (d->it) {
				w->it = d->it;
			} else {
				it_advance(w);
				if (taken && (d->cf == ISA_CF_RETURN || d->cf == ISA_CF_IND_JUMP) &&
				    w->nframes)
					returned(w, target);
			}
			w->pc = taken ? target : br.fallthrough;
			w->steps++;
			w->lb += 1 + (taken ? x->branch_penalty : 0);
			if (pre && pre_checks(x, core, w, m, counted)) {
				s = -1;
				break;
			}
			if (run && run->sum)
				rpl_sum_pc(run->sum, pc);
			if (run && run->log)
				plain_step(&run->log[run->steps + n], core, pc, w->pc,
					   pre ? w->lb : estimate(x, w, m));
			n++;
			if (room != UINT64_MAX)
				room--;
			from = pc;
			d = NULL;
		}
	}
	*done = n;
	if (!n || !run)
		return s;
	x->can_valid &= ~(1u << core);
	/* one core: no order to keep, the estimate is wanted at the end only */
	if (!pre && (x->ncores > 1 || run->log))
		w->cycle = e_ok ? e : estimate(x, w, m);
	plain_step(&run->last, core, from, w->pc, w->cycle);
	run->steps += n;
	run->insns += n;
	return s;
}

/* ---- reading ahead ----------------------------------------------------------------------- */

static void file_msg(struct cfw *x, const struct st_cf_msg *h, uint64_t bit)
{
	struct msgs *l = &x->list[h->core];

	if (l->n == l->a) {
		l->a = l->a ? 2 * l->a : 256;
		l->v = xrealloc(l->v, l->a * sizeof(*l->v));
	}
	l->v[l->n++] = (struct msg){ .count = h->count, .icnt = h->icnt, .cycle = h->cycle,
				     .bit = bit, .seq = x->nmsgs++, .exc = h->exc,
				     .end = !h->count && h->exc == ST_CF_END, .tail = h->tail };
	/* the oldest ones that can no longer change and the replay has passed */
	while (l->n >= 2 * MSG_CHUNK &&
	       l->base + MSG_CHUNK <= min_u64(x->pw[h->core].next, replay_next(x, h->core)))
		pack_chunk(l);
}

static int head_error(struct cfw *x, uint64_t bit, const char *what)
{
	snprintf(x->perr, sizeof(x->perr), "%s: %s %llu: %s (the stream is read %s at position "
		 "%llu)", x->path, x->unit, U(bit), what,
		 x->ahead ? "where the replay is," : "ahead of the replay", U(position(x)));
	x->pfailed = 1;
	return error("%s", x->perr);
}

/* The next message of a decoded path: filed, complete (no target part to read). */
static int read_path(struct cfw *x)
{
	struct cfw_pmsg pm, *p = &pm;
	struct msgs *l;
	struct msg *m;

	if (x->path_next(x->path_ctx, p))
		return head_error(x, x->src_at, "the decoded path ends without every core's end "
				  "(a bug)");
	x->src_at = p->at;
	if (p->core >= x->ncores || p->kind > CFW_P_END ||
	    (p->kind == CFW_P_BRANCH && !p->n) || (p->kind == CFW_P_TAIL && !p->n))
		return head_error(x, p->at, "a malformed message in the decoded path (a bug)");
	l = &x->list[p->core];
	if (l->n == l->a) {
		l->a = l->a ? 2 * l->a : 256;
		l->v = xrealloc(l->v, l->a * sizeof(*l->v));
	}
	m = &l->v[l->n++];
	*m = (struct msg){ .count = p->kind == CFW_P_BRANCH ? p->n : 0,
			   .icnt = p->kind == CFW_P_BRANCH ? 0 : p->n,
			   .bit = p->at, .seq = x->nmsgs++, .ta = p->ta,
			   .exc = p->kind == CFW_P_END ? ST_CF_END : p->exc,
			   .end = p->kind == CFW_P_END, .tail = p->kind == CFW_P_TAIL,
			   .gap = p->kind == CFW_P_GAP };
	if (p->kind == CFW_P_BRANCH)
		m->taken = m->has_target = 1;
	if (p->kind == CFW_P_END && ++x->src_ends == x->ncores)
		x->ends = 1;
	while (l->n >= 2 * MSG_CHUNK &&
	       l->base + MSG_CHUNK <= min_u64(x->pw[p->core].next, replay_next(x, p->core)))
		pack_chunk(l);
	return 0;
}

/* The next message head (no head open): filed; the end messages all at once. */
static int read_head(struct cfw *x)
{
	uint64_t at;
	struct st_cf_msg h;
	char why[400];
	int s;

	if (x->pathm)
		return read_path(x);
	at = st_cf_decoder_pos(&x->cfd);
	error_quiet(1); /* its error goes into ours, with where the replay was */
	s = st_cf_get_head(&x->cfd, &h);
	error_quiet(-1);
	if (s < 0) {
		snprintf(why, sizeof(why), "a message head cannot be decoded: %s", error_last());
		return head_error(x, at, why);
	}
	if (s == 1)
		return head_error(x, at, "the stream ends without end messages (truncated?)");
	if (h.count || h.exc != ST_CF_END) {
		file_msg(x, &h, at);
		if (h.count)
			x->open_core = h.core;
		return 0;
	}
	/* after an end message: the others follow, one per core in order, then nothing */
	for (int c = 0; c < x->ncores; c++) {
		if (c) {
			at = st_cf_decoder_pos(&x->cfd);
			if (st_cf_get_head(&x->cfd, &h))
				return head_error(x, at, "the end messages stop before every core's");
		}
		if (h.core != c || h.count || h.exc != ST_CF_END) {
			char what[96];

			snprintf(what, sizeof(what), "expected the end message of core %d, the stream "
				 "has a message of core %d", c, h.core);
			return head_error(x, at, what);
		}
		file_msg(x, &h, at);
	}
	at = st_cf_decoder_pos(&x->cfd);
	if (st_cf_get_head(&x->cfd, &h) != 1)
		return head_error(x, at, "bits are left after the end messages");
	x->ends = 1;
	return 0;
}

/* One step of the read-ahead walker of core (its next message is filed). */
static int pw_step(struct cfw *x, int core)
{
	struct walker *p = &x->pw[core];
	struct msg *m = msg(x, core, p->next); /* never packed: the read-ahead is at it */
	struct cfw_step st;

	if (!m)
		return -1;
	if (m->end && p->cnt == m->icnt) {
		if (x->timed && p->pin + p->lb > m->cycle)
			return walk_error(x, 1, core, m->bit, "the end message is stamped cycle %llu, "
					  "but the core cannot get there before cycle %llu",
					  U(m->cycle), U(p->pin + p->lb));
		segment_done(x, p, m);
		p->done = 1;
		return 0;
	}
	if (m->end && p->cnt > m->icnt)
		return walk_error(x, 1, core, m->bit, "the end message counts %llu instructions, "
				  "the core has run %llu", U(m->icnt), U(p->cnt));
	if (!x->simple) {
		uint64_t n;

		if (lane(x, 1, core, m, UINT64_MAX, UINT64_MAX, NULL, &n))
			return -1;
		if (n)
			return 0;
	}
	return walk(x, 1, core, &st);
}

/*
 * Make core's message k ready for the replay: decoded, and passed by the
 * read-ahead walker of the core (which completed its target part and
 * measured its lower bound). Reads and walks no further than needed.
 */
static int need(struct cfw *x, int core, uint64_t k)
{
	const struct walker *p = &x->pw[core];

	if (x->pfailed)
		return error("%s", x->perr);
	while (p->next <= k && !p->done) {
		if (p->next < msg_count(x, core)) {
			if (pw_step(x, core))
				return -1;
		} else if (x->open_core >= 0) {
			/* the stream's head is open: walk its core to it */
			if (pw_step(x, x->open_core))
				return -1;
		} else if (x->ends) {
			return walk_error(x, 1, core, st_cf_decoder_pos(&x->cfd), "the stream has no "
					  "message left for the core (a bug)");
		} else if (read_head(x)) {
			return -1;
		}
	}
	return 0;
}

/* ---- the replay's order ------------------------------------------------------------------ */

/* Would the replay walker's next step consume m? */
static int consumes(struct cfw *x, int core, const struct walker *w, const struct msg *m)
{
	struct bp_prediction pred;
	const struct dinfo *d;
	struct bp_branch br;

	if (!m->count)
		return m->tail ? w->cnt + 1 == m->icnt : w->cnt == m->icnt;
	if (x->nx)
		return w->cnt + 1 == m->count;
	if (w->bcnt + 1 != m->count || (w->pc & 1))
		return 0;
	d = describe(x, w->pc);
	if (d->state != 1 || d->it || d->cf == ISA_CF_NONE)
		return 0;
	br = (struct bp_branch){ w->pc, w->pc + d->size, d->cf,
				 w->it != 0 || d->cf == ISA_CF_COND_DIRECT };
	bp_predict(x->rbp[core], &br, &pred);
	return pred.counts;
}

/*
 * The core to step next: the smallest estimated cycle (ties to the lowest
 * index) among the cores that are not at their end and whose next step
 * does not consume a message that comes after an unconsumed one. 0, 1
 * when every core is at its end, -1 on error. *thr (if thr): the core
 * stays the one to step as long as its estimate is below *thr and no
 * message is consumed (UINT64_MAX: no other core can go).
 */
/* The core winning under tournament node k (>= 1; 8 + c: core c). */
static inline int tour_winner(const struct cfw *x, unsigned k)
{
	return k >= MAX_CORES ? (int)(k - MAX_CORES) : x->node[k];
}

/* Core c's key changed: play its matches to the root again. */
static void tour_update(struct cfw *x, int c)
{
	for (unsigned k = (MAX_CORES + (unsigned)c) / 2; k >= 1; k /= 2) {
		int l = tour_winner(x, 2 * k), r = tour_winner(x, 2 * k + 1);

		x->node[k] = (uint8_t)(x->key[r] < x->key[l] ? r : l);
	}
}

static int pick(struct cfw *x, int *best, uint64_t *thr)
{
	const uint64_t *key = x->key;
	int b;

	if (x->pfailed)
		return error("%s", x->perr);
	if (x->can_consumed != x->consumed) {
		x->can_valid = 0;
		x->can_consumed = x->consumed;
	}
	for (uint32_t stale = ~x->can_valid & ((1u << x->ncores) - 1); stale; stale &= stale - 1) {
		int c = __builtin_ctz(stale);
		struct walker *w = &x->rw[c];
		const struct msg *m;

		x->can[c] = 0;
		if (w->done) {
			/* at its end */
		} else if (need(x, c, w->next) || !(m = msg(x, c, w->next))) {
			return -1;
		} else if (m->end && w->cnt == m->icnt) {
			w->done = 1;
			if (x->timed)
				w->cycle = m->cycle;
		} else if (m->end || m->seq == x->consumed || !consumes(x, c, w, m)) {
			x->can[c] = 1; /* (else it waits for the stream's order) */
		}
		x->key[c] = x->can[c] ? w->cycle : UINT64_MAX;
		x->can_valid |= 1u << c;
		tour_update(x, c);
	}
	b = x->node[1];
	*best = x->can[b] ? b : -1;
	if (*best >= 0) {
		uint64_t t = UINT64_MAX;

		if (!thr)
			return 0;
		/*
		 * The others' smallest key, a core after best's plus 1 (it goes
		 * first on a tie only from there): the winners of the subtrees
		 * beside best's way to the root, each all after or all before it.
		 */
		for (unsigned k = MAX_CORES + (unsigned)b; k > 1; k /= 2) {
			int o = tour_winner(x, k ^ 1);

			if (key[o] < UINT64_MAX && key[o] + (o > b) < t)
				t = key[o] + (o > b);
		}
		*thr = t;
		return 0;
	}
	for (int c = 0; c < x->ncores; c++)
		if (!x->rw[c].done) {
			const struct msg *m = msg(x, c, x->rw[c].next);

			return m ? walk_error(x, 0, c, m->bit, "no core can go on in the stream's "
					      "order (a bug)") : -1;
		}
	return 1;
}

/* The replay's step of core c, picked. */
static int step_core(struct cfw *x, int c, struct cfw_step *out)
{
	uint64_t k = x->rw[c].next;
	const struct msg *m;

	x->can_valid &= ~(1u << c);
	if (walk(x, 0, c, out))
		return -1;
	if (x->rw[c].next != k) {
		if (!(m = msg(x, c, k)))
			return -1;
		if (m->seq != x->consumed)
			return walk_error(x, 0, c, m->bit, "a message consumed out of the stream's "
					  "order (a bug)");
		x->consumed++;
	}
	return 0;
}

int cfw_step(struct cfw *x, struct cfw_step *out)
{
	int s, c;

	s = pick(x, &c, NULL);
	if (s)
		return s;
	return step_core(x, c, out);
}

/*
 * One core, picked before its latest step, which did not consume its
 * message ready: it is still the one to step (pick() would say so) unless
 * it is at its end.
 */
static int still_picked(struct cfw *x, uint64_t ready)
{
	const struct walker *w = &x->rw[0];
	const struct msg *m;

	if (x->ncores != 1 || w->next != ready)
		return 0;
	/* only now: before the first message the list is empty (v NULL) */
	m = msg(x, 0, w->next);
	return m && !(m->end && w->cnt == m->icnt); /* (no m: pick() fails on it) */
}

/*
 * Several cores: the picked core c (its next message m ready, thr as
 * pick() gave it) takes one step of the lane's, when its next is a plain
 * instruction or a branch m does not land on and after that step it would
 * no longer be the one to step (pick() tells again): most steps of cores
 * that run abreast, for less than a lane's setup. 1 when done (into run,
 * its log too), else 0 (nothing changed but what every step does first).
 */
static int one_step(struct cfw *x, int c, const struct msg *m, uint64_t thr,
		    struct cfw_run *run)
{
	struct walker *w = &x->rw[c];
	uint32_t pc = w->pc;
	struct dinfo *d;
	uint64_t e;

	if (x->nx || w->it || w->nframes || (pc & 1) || !msg_room(x, w, m))
		return 0;
	d = block(x, pc);
	w->waits += w->slept; /* as every step does first (then 0: idempotent) */
	w->slept = 0;
	if (d->run) {
		if ((e = estimate_at(x, w, w->lb + 1, m)) < thr)
			return 0; /* the lane takes more than this one */
		w->pc += run_size(d, 0);
		w->cnt++;
		w->insns++;
		w->steps++;
		w->lb++;
	} else {
		int taken, counted;
		uint32_t target;

		if (d->state != 1 || d->wait || d->it || d->cf == ISA_CF_NONE ||
		    !follow(x->rbp[c], d, pc, d->cf == ISA_CF_COND_DIRECT,
			    m->count && w->bcnt + 1 == m->count, &counted, &taken, &target))
			return 0;
		w->bcnt += (unsigned)counted;
		w->cnt++;
		w->insns++;
		w->pc = target;
		w->steps++;
		w->lb += 1 + (taken ? x->branch_penalty : 0);
		e = estimate(x, w, m);
	}
	if (run->sum)
		rpl_sum_pc(run->sum, pc);
	w->cycle = e;
	x->can_valid &= ~(1u << c);
	plain_step(&run->last, c, pc, w->pc, e);
	if (run->log)
		run->log[run->steps] = run->last;
	run->steps++;
	run->insns++;
	return 1;
}

/*
 * May the read-ahead walk for the replay (frontier_run)? One core, not
 * the simple walk, and the replay where the
 * read-ahead is: at the same message and step, so with the same
 * predictor state (both trained by the same branches since reset).
 */
static int frontier(const struct cfw *x, const struct cfw_run *run)
{
	const struct walker *p = &x->pw[0], *w = &x->rw[0];

	return x->ncores == 1 && !x->simple && !x->pfailed && !p->done &&
	       p->next == w->next && p->steps == w->steps && p->insns == w->insns &&
	       p->pc == w->pc && p->it == w->it;
}

/*
 * The replay's walker and predictors take the read-ahead's state
 * (frontier_run): 0, or -1 with an error when the predictors' state does
 * not carry over (the same configuration on both sides: a bug).
 */
static int adopt(struct cfw *x)
{
	char why[400];

	x->ahead = 0;
	x->rw[0] = x->pw[0];
	x->can_valid = 0;
	if (x->rbp[0]) {
		size_t n = bp_state_size(x->pbp[0]);

		if (!x->bpbuf)
			x->bpbuf = xmalloc(n);
		bp_save(x->pbp[0], x->bpbuf);
		error_quiet(1);
		if (bp_restore(x->rbp[0], x->bpbuf, n)) {
			snprintf(why, sizeof(why), "%s", error_last());
			error_quiet(-1);
			return error("%s: core 0 (the replay at position %llu): the read-ahead's "
				     "predictor state does not carry over to the replay's (a bug): %s",
				     x->path, U(position(x)), why);
		}
		error_quiet(-1);
	}
	return 0;
}

/*
 * The replay at the read-ahead's frontier of one core (frontier()): rather
 * than walk the code twice, the read-ahead's walker walks for both, each
 * of its steps a step of run too, until a limit of run or the core's end
 * message; then the replay takes its state (adopt) and the read-ahead
 * goes on ahead on its own. A desync is then found at the step where the
 * stream stops fitting (the replay there too), not one message ahead of
 * the replay. 0, or -1 with an error (run counts the steps before the one
 * that failed).
 */
static int frontier_run(struct cfw *x, struct cfw_run *run)
{
	/* a logged step's estimate waits for its segment: the walker's then, its message */
	struct note {
		uint64_t pin, waits, k;
	} *notes = run->log ? xmalloc(run->max_steps * sizeof(*notes)) : NULL;
	struct walker *p = &x->pw[0];
	uint64_t left, n, k, i0, first = run->steps;
	const struct msg *m;
	struct cfw_step st;
	int s = 0;

	x->ahead = 1;
	while ((left = min_u64(run->max_steps - run->steps, run->max_insns - run->insns))) {
		if (p->next >= msg_count(x, 0)) {
			if (x->ends) {
				s = walk_error(x, 1, 0, st_cf_decoder_pos(&x->cfd), "the stream has no "
					       "message left for the core (a bug)");
				break;
			}
			if ((s = read_head(x)))
				break;
			continue;
		}
		if (!(m = msg(x, 0, p->next))) {
			s = -1;
			break;
		}
		if (m->end && p->cnt >= m->icnt)
			break; /* the end message: need() measures its segment */
		i0 = run->steps;
		s = lane(x, 1, 0, m, left, UINT64_MAX, run, &n);
		for (uint64_t i = i0; notes && i < run->steps; i++)
			notes[i] = (struct note){ p->pin, p->waits, p->next };
		if (s)
			break;
		if (n)
			continue;
		k = p->next;
		if ((s = walk(x, 1, 0, &st)))
			break;
		if (p->next != k) {
			x->consumed++; /* the step's cycle is the message's: exact */
			if (notes)
				notes[run->steps].k = UINT64_MAX;
		} else if (notes) {
			st.cycle = p->lb;
			notes[run->steps] = (struct note){ p->pin, p->waits, k };
		}
		run_note(run, &st);
	}
	if (adopt(x))
		s = -1;
	/* the message the replay heads for, ready: the read-ahead goes on ahead */
	if (!s)
		s = need(x, 0, x->rw[0].next);
	for (uint64_t i = first; notes && i < run->steps; i++) {
		struct walker w = { .pin = notes[i].pin, .waits = notes[i].waits };

		if (notes[i].k == UINT64_MAX)
			continue;
		/* measured (the read-ahead passed its message, or is at its end), else the lower bound */
		if ((notes[i].k < x->pw[0].next || (x->pw[0].done && notes[i].k == x->pw[0].next)) &&
		    (m = msg(x, 0, notes[i].k)))
			run->log[i].cycle = estimate_at(x, &w, run->log[i].cycle, m);
		else
			run->log[i].cycle += notes[i].pin;
	}
	free(notes);
	return s;
}

/*
 * The end of a run on one core: the estimate after its latest step, if
 * that step was a straight-line run or a step that consumed no message
 * (the estimate matters for the order of several cores only, and is
 * observable at the end of a run).
 */
static int run_cycle(struct cfw *x, struct cfw_run *run, int stale)
{
	const struct msg *m;
	struct walker *w;

	x->defer = 0;
	if (!stale)
		return 0;
	w = &x->rw[run->last.core];
	if (!(m = msg(x, run->last.core, w->next)))
		return -1;
	w->cycle = run->last.cycle = estimate(x, w, m);
	return 0;
}

int cfw_run(struct cfw *x, struct cfw_run *run)
{
	uint64_t thr = UINT64_MAX, ready = UINT64_MAX, n;
	const struct msg *m;
	struct cfw_step st;
	int s, c = 0, stale = 0;

	run->steps = run->insns = 0;
	for (;;) {
		if (frontier(x, run)) {
			uint64_t before = run->steps;

			s = frontier_run(x, run);
			if (run->steps > before)
				stale = x->rw[0].lb != 0; /* lb 0: it consumed a message */
			if (s) {
				x->defer = 0;
				return -1;
			}
			if (run->steps >= run->max_steps || run->insns >= run->max_insns)
				return run_cycle(x, run, stale);
			ready = UINT64_MAX; /* at the end message: pick() tells */
		}
		if (!still_picked(x, ready)) {
			if (run_cycle(x, run, stale)) /* before pick() marks the end */
				return -1;
			stale = 0;
			x->defer = x->ncores == 1 && !run->log && !x->simple;
			s = pick(x, &c, &thr);
			if (s) {
				x->defer = 0;
				return s > 0 && run->steps ? 0 : s;
			}
			ready = x->rw[c].next;
		}
		n = 0;
		if (!x->simple && (m = msg(x, c, x->rw[c].next))) {
			if (thr != UINT64_MAX && one_step(x, c, m, thr, run)) {
				n = 1;
			} else if (lane(x, 0, c, m, min_u64(run->max_steps - run->steps,
							    run->max_insns - run->insns),
					thr, run, &n)) {
				x->defer = 0;
				return -1;
			}
		}
		if (n) {
			stale = x->ncores == 1 && !run->log;
		} else {
			if (step_core(x, c, &st)) {
				x->defer = 0;
				return -1;
			}
			stale = x->defer && x->rw[c].lb; /* lb 0: it consumed a message */
			run_note(run, &st);
		}
		if (x->simple || run->steps >= run->max_steps || run->insns >= run->max_insns)
			return run_cycle(x, run, stale);
	}
}

int cfw_peek(struct cfw *x, int *core, uint32_t *pc, int *insn)
{
	const struct walker *w;
	const struct msg *m;
	int s = pick(x, core, NULL);

	if (s)
		return s;
	w = &x->rw[*core];
	if (!(m = msg(x, *core, w->next)))
		return -1;
	*pc = w->pc;
	*insn = !(!m->count && !m->end && !m->tail && m->icnt == w->cnt);
	return 0;
}

uint32_t cfw_pc(const struct cfw *x, int core)
{
	return x->rw[core].pc;
}

uint64_t cfw_cycle(const struct cfw *x, int core)
{
	return x->rw[core].cycle;
}

uint64_t cfw_insns(const struct cfw *x, int core)
{
	return x->rw[core].insns;
}

uint64_t cfw_stream_pos(const struct cfw *x)
{
	if (x->pathm)
		return x->ends ? x->mf->cf_bits : 8 * x->src_at;
	return st_cf_decoder_pos(&x->cfd);
}

uint64_t cfw_steps(const struct cfw *x, int core)
{
	return x->rw[core].steps;
}

/* ---- life ---------------------------------------------------------------------------------- */

struct cfw *cfw_new(const struct cfw_config *cfg)
{
	const struct st_manifest *mf = cfg->mf;
	const char *simple, *block;
	uint64_t b;
	struct cfw *x;

	if (!mf->cf_on) {
		error("%s: the recording has no control-flow stream", cfg->cf_path);
		return NULL;
	}
	if (!cfg->path_next && mf->cf.enc != ST_CF_NXB && mf->bp_shared && mf->ncores > 1) {
		error("%s: the %d cores share one predictor set: from the control-flow stream "
		      "alone the replay cannot know the order in which the cores' branches "
		      "trained it, so it cannot follow its predictions (record with per-core "
		      "predictors, or with a load-value stream)", cfg->cf_path, mf->ncores);
		return NULL;
	}
	x = xcalloc(1, sizeof(*x));
	x->mf = mf;
	x->path = cfg->cf_path;
	x->dec = cfg->dec;
	x->bus = cfg->bus;
	x->ncores = mf->ncores;
	x->pathm = cfg->path_next != NULL;
	x->path_next = cfg->path_next;
	x->path_ctx = cfg->path_ctx;
	x->unit = x->pathm ? "byte" : "bit";
	x->nx = x->pathm || mf->cf.enc == ST_CF_NXB;
	x->timed = !x->pathm && mf->cf.timed;
	x->branch_penalty = mf->branch_penalty;
	x->exc_penalty = mf->exc_penalty;
	x->open_core = -1;
	for (int c = 0; c < MAX_CORES; c++) {
		x->key[c] = UINT64_MAX;
		tour_update(x, c);
	}
	simple = getenv("RAPTOR_CFW_SIMPLE"); /* white-box switch */
	x->simple = simple && *simple;
	block = getenv("RAPTOR_CFW_BLOCK"); /* white-box switch */
	x->block = block && !parse_u64(block, &b) && b && b <= 1024 ? (unsigned)b : MSG_BLOCK;
	x->pages = xmap_table(DPAGE_TABLE_BYTES, "the walk's page table");
	x->zc = rpl_zcoder_new();
	for (int c = 0; c < x->ncores; c++) {
		uint32_t xpsr = mf->regs[c][ISA_R_XPSR];
		struct walker w = { .pc = mf->regs[c][ISA_R_PC] & ~1u,
				    .it = (xpsr >> 25 & 3) | (xpsr >> 10 & 0x3f) << 2 };

		x->pw[c] = x->rw[c] = w;
		x->list[c].cached = SIZE_MAX;
		rpl_zchunks_init(&x->list[c].z, x->zc, x->block);
		if (x->nx)
			continue; /* NX_b's messages do not depend on the predictors */
		x->pbp[c] = bp_new(&mf->bp);
		x->rbp[c] = bp_new(&mf->bp);
		if (!x->pbp[c] || !x->rbp[c]) {
			cfw_free(x);
			return NULL;
		}
	}
	if (!x->pathm)
		st_cf_decoder_init(&x->cfd, &mf->cf, cfg->cf, mf->cf_bits, cfg->cf_path);
	return x;
}

void cfw_free(struct cfw *x)
{
	if (!x)
		return;
	for (int c = 0; c < x->ncores; c++) {
		bp_free(x->pbp[c]);
		bp_free(x->rbp[c]);
		free(x->list[c].v);
		rpl_zchunks_release(&x->list[c].z);
		free(x->list[c].cache);
	}
	rpl_zcoder_free(x->zc);
	free(x->bpbuf);
	for (size_t i = 0; i < x->nused; i++)
		free(x->used[i]);
	free(x->used);
	xunmap_table(x->pages, DPAGE_TABLE_BYTES);
	free(x);
}

uint64_t cfw_memory(const struct cfw *x, struct cfw_msg_stats *st)
{
	uint64_t n = (uint64_t)x->nused * DPAGE_N * sizeof(struct dinfo) + rpl_zcoder_bytes(x->zc);
	struct cfw_msg_stats s = { 0 };

	for (int c = 0; c < x->ncores; c++) {
		const struct msgs *l = &x->list[c];
		struct rpl_zchunks_stats zs;

		n += l->a * sizeof(*l->v) + rpl_zchunks_bytes(&l->z, &zs) +
		     (l->cache ? MSG_CHUNK * sizeof(*l->cache) : 0);
		s.messages += l->base + l->n;
		s.packed += l->base;
		s.packed_bytes += zs.stored_bytes;
		s.packed_raw += zs.raw_bytes;
		s.blocks += zs.blocks;
		s.inflations += zs.inflations;
		s.cache_bytes += zs.cache_bytes + (l->cache ? MSG_CHUNK * sizeof(*l->cache) : 0);
	}
	s.cache_bytes += rpl_zcoder_bytes(x->zc);
	if (st)
		*st = s;
	return n;
}

size_t cfw_state_size(const struct cfw *x)
{
	size_t n = sizeof(x->rw) + sizeof(x->consumed);

	for (int c = 0; c < x->ncores; c++)
		if (x->rbp[c])
			n += bp_state_size(x->rbp[c]);
	return n;
}

void cfw_save(const struct cfw *x, void *buf)
{
	uint8_t *p = buf;

	memcpy(p, x->rw, sizeof(x->rw));
	p += sizeof(x->rw);
	memcpy(p, &x->consumed, sizeof(x->consumed));
	p += sizeof(x->consumed);
	for (int c = 0; c < x->ncores; c++)
		if (x->rbp[c]) {
			bp_save(x->rbp[c], p);
			p += bp_state_size(x->rbp[c]);
		}
}

int cfw_restore(struct cfw *x, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (len != cfw_state_size(x))
		return error("cf replay: a checkpoint of %zu bytes, %zu expected", len,
			     cfw_state_size(x));
	memcpy(x->rw, p, sizeof(x->rw));
	p += sizeof(x->rw);
	memcpy(&x->consumed, p, sizeof(x->consumed));
	p += sizeof(x->consumed);
	x->can_valid = 0;
	for (int c = 0; c < x->ncores; c++)
		if (x->rbp[c]) {
			if (bp_restore(x->rbp[c], p, bp_state_size(x->rbp[c])))
				return -1;
			p += bp_state_size(x->rbp[c]);
		}
	return 0;
}

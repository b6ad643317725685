/*
 * etm4: ETMv4 instruction-trace encoder (ARM IHI 0064). Packet diagrams,
 * bit 7 first, one line per byte, in stream order:
 *
 *   A-sync (extension)     Trace Info            Trace On    Exception return
 *   0 0 0 0 0 0 0 0  x11   0 0 0 0 0 0 0 1       00000100    00000111
 *   1 0 0 0 0 0 0 0        C=0 . . . . . . . =0  (PLCTL: no INFO, KEY, SPEC, CYCT)
 *
 *   Address with context, 32-bit, IS1 (T32)
 *   1 0 0 0 0 0 1 1
 *   0 | A[7:1]
 *   A[15:8]
 *   A[23:16]
 *   A[31:24]
 *   C V NS SF 0 0 EL[1:0]     context info: all 0 (no CID, no VMID)
 *
 *   Exact match   1 0 0 1 0 0 QE[1:0]    address = entry QE of the history
 *   Short IS1     1 0 0 1 0 1 1 0
 *                 C | A[7:1]             C=1: one more byte
 *                 A[15:8]                (the rest from the last address)
 *   Long 32 IS1   1 0 0 1 1 0 1 1
 *                 0 | A[7:1]
 *                 A[15:8]
 *                 A[23:16]
 *                 A[31:24]
 *
 *   Atom F1   1 1 1 1 0 1 1 a            a: 1 = E (taken), 0 = N
 *   Atom F2   1 1 0 1 1 0 b a            a oldest
 *   Atom F3   1 1 1 1 1 c b a
 *   Atom F6   1 1 0 A n n n n n          (n + 3) E atoms, then one atom:
 *                                        A = 0 E, A = 1 N; n = 0..20
 *
 *   Exception 0 0 0 0 0 1 1 0
 *             C E1 TYPE[4:0] E0          E1:E0 = 01: the address that
 *             0 0 P TYPE[9:5]            follows is the preferred return
 *                                        address; 10: it is also the target
 *                                        of the branch just traced
 *                                        (second byte only when C = 1)
 *
 *   Trace Info with cycle counting (PLCTL: INFO and CYCT sections)
 *   0 0 0 0 0 0 0 1
 *   0 . . . 1 0 0 1                      CYCT, SPEC 0, KEY 0, INFO
 *   0 . . . . . . 1                      INFO: CC_ENABLED
 *   C | THRESHOLD[6:0]                    CYCT: TRCCCCTLR.THRESHOLD,
 *   0 | THRESHOLD[11:7]                   second byte when C = 1
 *
 *   Cycle Count F3 (commit mode 1: no commit section)
 *   0 0 0 1 0 0 c c                      count = threshold + cc
 *   Cycle Count F1 (commit mode 1)
 *   0 0 0 0 1 1 1 U                      U = 0: the count follows
 *   C | N[6:0]                           count = threshold + N,
 *   C | N[13:7]                          up to 3 bytes (N < 2^20)
 *   0 | N[20:14]
 *
 * Address history: every address packet (exact match included) pushes its
 * address on a three-entry history (entry 0 newest) that Trace Info clears;
 * a short address packet replaces the low bits of entry 0.
 *
 * Atoms wait in a small queue and go out as late as possible, so runs of
 * taken branches pack into F6 (up to 24 atoms a byte); they are flushed
 * before any other packet, since the decoder consumes elements in order.
 * An E atom on an indirect branch must be the last of its packet and be
 * followed by the target's address before any other atom.
 */
#include <stdlib.h>
#include <string.h>

#include "etm/etm4.h"
#include "etm/bytes.h"

#define QMAX 32 /* the atom queue: atoms_out keeps it under 24 */

struct etm4 {
	struct etm4_cfg cfg;
	uint8_t *buf;
	size_t len, cap;
	size_t sync_at;	 /* len at the last A-sync */
	int started;	 /* the first instruction was traced */
	int at_boundary; /* the next instruction starts a new walk (after P0 / exception) */
	int pend_target; /* an indirect E atom waits for its target's address */
	uint32_t target;
	uint8_t atoms[QMAX]; /* 1 = E, oldest first */
	int natoms;
	uint32_t hist[3]; /* address history, 0 newest */
	uint64_t cc;	  /* cycles counted since the last Cycle Count packet */
	struct etm4_stats st;
};

void etm4_regs(const struct etm4_cfg *cfg, struct etm4_regs *r)
{
	unsigned n = 0;

	while ((1u << n) < cfg->sync_period)
		n++;
	/* TRCIDR0: bit 0 RES1; INSTP0, TRCBB, TRCCOND, TRCCCI, RETSTACK, QSUPP,
	   TSSIZE, COMMOPT all 0 */
	r->idr0 = 0x00000001;
	/* with cycle counting: TRCCCI (bit 7) and COMMOPT (bit 29): commit mode 1 */
	if (cfg->cc_threshold)
		r->idr0 |= 1u << 7 | 1u << 29;
	/* TRCIDR1: designer ARM (0x41), bits[15:12] RES1, TRCARCHMAJ 4, TRCARCHMIN 2 */
	r->idr1 = 0x4100f420;
	/* TRCIDR2: IASIZE 4 (32-bit); CIDSIZE, VMIDSIZE, DASIZE, DVSIZE 0; CCSIZE 0 (12 bits) */
	r->idr2 = 0x00000004;
	if (cfg->cc_threshold)
		r->idr2 |= 8u << 25; /* CCSIZE 8: a 20-bit cycle counter */
	r->idr8 = 0;		     /* MAXSPEC: no speculation, so no commit packets */
	r->configr = 0; /* BB, CCI, CID, VMID, COND, TS, RS, QE all off; no data trace */
	if (cfg->cc_threshold)
		r->configr |= 1u << 4; /* CCI */
	r->traceidr = cfg->trace_id;
	r->syncpr = n; /* TRCSYNCPR.PERIOD: 2^n bytes */
}

struct etm4 *etm4_new(const struct etm4_cfg *cfg)
{
	struct etm4 *e;

	if (cfg->trace_id < 1 || cfg->trace_id > 0x6f) {
		error("etm4: trace ID 0x%x out of range 0x01..0x6f", cfg->trace_id);
		return NULL;
	}
	if (cfg->sync_period < 256 || cfg->sync_period > (1u << 20) ||
	    (cfg->sync_period & (cfg->sync_period - 1))) {
		error("etm4: sync period %u is not a power of 2 in 256..2^20", cfg->sync_period);
		return NULL;
	}
	if (cfg->cc_threshold > 0xfff) {
		error("etm4: cycle count threshold %u out of range 1..4095", cfg->cc_threshold);
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		error("etm4: out of memory");
		return NULL;
	}
	e->cfg = *cfg;
	return e;
}

void etm4_free(struct etm4 *e)
{
	if (!e)
		return;
	free(e->buf);
	free(e);
}

static int put(struct etm4 *e, const uint8_t *b, size_t n)
{
	if (etm_bytes_reserve(&e->buf, &e->cap, e->len + n))
		return error("etm4: trace ID 0x%x: out of memory at byte %zu", e->cfg.trace_id,
			     e->len);
	memcpy(e->buf + e->len, b, n);
	e->len += n;
	return 0;
}

static int put1(struct etm4 *e, uint8_t b)
{
	return put(e, &b, 1);
}

/*
 * One atom packet from the head of the queue: F6 for a run of E's that
 * some atom ends (or, forced, for a run of 4 or more), else F3, F2, F1.
 */
static int atom_packet(struct etm4 *e, int force)
{
	int n = e->natoms, run = 0, take;
	uint8_t b;

	while (run < n && run < 23 && e->atoms[run])
		run++;
	if (run >= 3 && n > run) {
		b = (e->atoms[run] ? 0xc0 : 0xe0) | (run - 3); /* F6: run E's, then one */
		take = run + 1;
	} else if (run >= 4 && force) {
		b = 0xc0 | (run - 4); /* F6: run - 1 E's, then E */
		take = run;
	} else if (n >= 3) {
		b = 0xf8 | e->atoms[0] | e->atoms[1] << 1 | e->atoms[2] << 2;
		take = 3;
	} else if (n == 2) {
		b = 0xd8 | e->atoms[0] | e->atoms[1] << 1;
		take = 2;
	} else {
		b = 0xf6 | e->atoms[0];
		take = 1;
	}
	memmove(e->atoms, e->atoms + take, n - take);
	e->natoms -= take;
	return put1(e, b);
}

/*
 * Write queued atoms: all of them (force), or while the queue is long
 * enough that waiting for more could not pack them better.
 */
static int atoms_out(struct etm4 *e, int force)
{
	while (e->natoms && (force || e->natoms >= 24))
		if (atom_packet(e, force))
			return -1;
	return 0;
}

static int atom(struct etm4 *e, int taken)
{
	e->atoms[e->natoms++] = taken ? 1 : 0;
	e->st.atoms++;
	return atoms_out(e, 0);
}

static void hist_push(struct etm4 *e, uint32_t a)
{
	e->hist[2] = e->hist[1];
	e->hist[1] = e->hist[0];
	e->hist[0] = a;
}

/* An address packet for a (T32), as short as the history allows. */
static int address(struct etm4 *e, uint32_t a)
{
	uint8_t b[5];
	int n;

	e->st.addresses++;
	for (int i = 0; i < 3; i++)
		if (e->hist[i] == a) {
			hist_push(e, a);
			return put1(e, 0x90 | i);
		}
	if ((a ^ e->hist[0]) >> 8 == 0) {
		b[0] = 0x96;
		b[1] = (a >> 1) & 0x7f;
		n = 2;
	} else if ((a ^ e->hist[0]) >> 16 == 0) {
		b[0] = 0x96;
		b[1] = 0x80 | ((a >> 1) & 0x7f);
		b[2] = a >> 8;
		n = 3;
	} else {
		b[0] = 0x9b;
		b[1] = (a >> 1) & 0x7f;
		b[2] = a >> 8;
		b[3] = a >> 16;
		b[4] = a >> 24;
		n = 5;
	}
	hist_push(e, a);
	return put(e, b, n);
}

/*
 * A P0 element was just traced: with cycle counting, once the count has
 * reached the threshold, the atom packet ends here and a Cycle Count
 * packet says how many cycles since the last one (saturating at
 * ETM4_CC_MAX).
 */
static int cc_point(struct etm4 *e)
{
	unsigned thr = e->cfg.cc_threshold;
	uint64_t n;
	uint8_t b[4];
	int k = 1;

	if (!thr || e->cc < thr)
		return 0;
	if (atoms_out(e, 1))
		return -1;
	n = (e->cc > ETM4_CC_MAX ? ETM4_CC_MAX : e->cc) - thr;
	e->cc = 0;
	e->st.counts++;
	if (n <= 3)
		return put1(e, 0x10 | (uint8_t)n);
	b[0] = 0x0e;
	do {
		b[k++] = (n & 0x7f) | (n > 0x7f ? 0x80 : 0);
		n >>= 7;
	} while (n);
	return put(e, b, k);
}

void etm4_add_cycles(struct etm4 *e, uint64_t n)
{
	if (e->cfg.cc_threshold)
		e->cc += n;
}

/* A-sync, Trace Info [, Trace On], Address with context for pc. */
static int sync(struct etm4 *e, uint32_t pc, int trace_on)
{
	static const uint8_t async[12] = {[11] = 0x80};
	uint8_t tinfo[5] = {0x01, 0x00};
	size_t ntinfo = 2;
	uint8_t ac[6] = {0x83, (pc >> 1) & 0x7f, pc >> 8, pc >> 16, pc >> 24, 0x00};
	unsigned thr = e->cfg.cc_threshold;

	if (thr) {
		tinfo[1] = 0x09; /* INFO and CYCT sections */
		tinfo[2] = 0x01; /* INFO: CC_ENABLED */
		tinfo[3] = (thr & 0x7f) | (thr > 0x7f ? 0x80 : 0);
		ntinfo = 4;
		if (thr > 0x7f)
			tinfo[ntinfo++] = thr >> 7;
	}
	if (atoms_out(e, 1) || put(e, async, sizeof(async)) || put(e, tinfo, ntinfo))
		return -1;
	if (trace_on && put1(e, 0x04))
		return -1;
	memset(e->hist, 0, sizeof(e->hist)); /* Trace Info clears the history */
	hist_push(e, pc);
	e->st.syncs++;
	e->st.addresses++;
	e->sync_at = e->len;
	e->pend_target = 0;
	return put(e, ac, sizeof(ac));
}

int etm4_insn(struct etm4 *e, const struct etm4_insn *in)
{
	int taken = in->next != in->pc + in->size;

	if (in->size != 2 && in->size != 4)
		return error("etm4: trace ID 0x%x: instruction at 0x%08x of size %u",
			     e->cfg.trace_id, in->pc, in->size);
	if (!e->started) {
		if (sync(e, in->pc, 1))
			return -1;
		e->started = 1;
	} else if (e->at_boundary && e->len - e->sync_at >= e->cfg.sync_period) {
		/* the periodic sync request is served at the next P0 boundary */
		if (sync(e, in->pc, 0))
			return -1;
	} else if (e->pend_target) {
		if (atoms_out(e, 1) || address(e, e->target))
			return -1;
		e->pend_target = 0;
	}
	e->at_boundary = 0;
	e->st.insns++;
	switch (in->kind) {
	case ETM_THUMB_OTHER: return 0;
	case ETM_THUMB_DIRECT:
		if (atom(e, taken) || cc_point(e))
			return -1;
		break;
	case ETM_THUMB_ISB:
		if (atom(e, 1) || cc_point(e))
			return -1;
		break;
	case ETM_THUMB_INDIRECT:
		/* a taken indirect branch is E + its target; one that fails its condition, N */
		if (atom(e, taken || (in->flags & ETM4_EXC_RETURN)) || cc_point(e))
			return -1;
		if (!taken && !(in->flags & ETM4_EXC_RETURN))
			break;
		if (atoms_out(e, 1))
			return -1;
		if ((in->flags & (ETM4_EXC_RETURN | ETM4_TAIL)) == ETM4_EXC_RETURN && !e->cfg.v8m &&
		    put1(e, 0x07))
			return -1;
		e->pend_target = 1;
		e->target = in->next;
		break;
	}
	e->st.traced = e->st.insns;
	e->at_boundary = 1;
	return 0;
}

int etm4_exception(struct etm4 *e, unsigned number, uint32_t ret, uint32_t handler)
{
	uint8_t b[3];
	int n = 2, br = e->pend_target;

	if (number > 0x3ff)
		return error("etm4: trace ID 0x%x: exception number %u past 1023", e->cfg.trace_id,
			     number);
	if (!e->started)
		return error("etm4: trace ID 0x%x: exception %u before the first instruction",
			     e->cfg.trace_id, number);
	if (atoms_out(e, 1))
		return -1;
	/* E1:E0 = 10 when the return address is the pending branch target */
	b[0] = 0x06;
	b[1] = (number & 0x1f) << 1 | (br ? 0x40 : 0x01);
	if (number > 0x1f) {
		b[1] |= 0x80;
		b[2] = number >> 5;
		n = 3;
	}
	e->pend_target = 0;
	e->st.exceptions++;
	if (put(e, b, n) || address(e, ret) || address(e, handler) || cc_point(e))
		return -1;
	e->st.traced = e->st.insns;
	e->at_boundary = 1;
	return 0;
}

int etm4_flush(struct etm4 *e)
{
	if (atoms_out(e, 1))
		return -1;
	if (e->pend_target) {
		if (address(e, e->target))
			return -1;
		e->pend_target = 0;
	}
	return 0;
}

const uint8_t *etm4_data(const struct etm4 *e, size_t *len)
{
	*len = e->len;
	return e->buf;
}

void etm4_get_stats(const struct etm4 *e, struct etm4_stats *st)
{
	*st = e->st;
	st->bytes = e->len;
}

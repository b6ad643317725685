/*
 * etm3: ETMv3.5 instruction-trace encoder (IHI 0014). Packet diagrams,
 * bit 7 first, one line per byte:
 *
 *   A-sync    0 0 0 0 0 0 0 0  x5, then 1 0 0 0 0 0 0 0
 *
 *   I-sync    0 0 0 0 1 0 0 0
 *             L R R J S A H 0   info: L = LSiP address follows (0), R = reason
 *                               (01 trace enabled, 00 periodic), J = Jazelle,
 *                               S = non-secure, A = AltISA, H = Hyp: all 0
 *             A[7:1] T          T = 1: Thumb
 *             A[15:8]
 *             A[23:16]
 *             A[31:24]
 *
 *   P-header, format 1 (not cycle accurate)
 *             1 N E E E E 0 0   EEEE E atoms, then N N atoms (0 or 1)
 *
 *   Cycle-accurate mode (ETMCR bit 12): a W atom is a cycle boundary, the
 *   atoms after it executed in that cycle (IHI 0014, "P-header encodings in
 *   cycle-accurate mode"):
 *   P-header, format 1   1 N 0 E E E 0 0   EEE x WE, then N x WN (E + N >= 1)
 *   P-header, format 2   1 0 0 0 F G 1 0   W, then atoms F and G (1: N)
 *   P-header, format 3   1 E 1 W W W 0 0   WWW + 1 W atoms, then E x E
 *   P-header, format 4   1 0 0 1 0 F 1 0   atom F (1: N), no W: the same cycle
 *
 *   I-sync with cycle count (cycle-accurate mode, a non-periodic I-sync)
 *             0 1 1 1 0 0 0 0
 *             C count[6:0]      1 to 5 bytes, 7 bits each, C = 1: more
 *             info, then the address as in an I-sync
 *
 *   Branch address, alternative encoding, Thumb (A[0] implied 0)
 *             C A[6:1] 1        byte 0
 *             C A[13:7]         bytes 1..3 while C = 1
 *             0 X A[k+5:k]      ... the last of bytes 1..3: 6 bits, X = 1:
 *                               exception bytes follow
 *             0 X 0 1 A[31:28]  byte 4 (after four bytes with C = 1)
 *   Exception byte 0   C 0 0 N[3:0] 0   (bit 5 cancel, bit 6 AltISA, bit 0 NS: 0)
 *   Exception byte 1   0 0 0 N[8:4]     when C = 1
 *
 * The address is compressed against the last address sent (a branch
 * address or an I-sync): the packet holds just enough low bits.
 */
#include <stdlib.h>
#include <string.h>

#include "etm/etm3.h"
#include "etm/bytes.h"

struct etm3 {
	struct etm3_cfg cfg;
	uint8_t *buf;
	size_t len, cap;
	size_t sync_at;
	int started;
	unsigned ecount; /* E atoms waiting for their P-header (cycle accurate: WE pairs) */
	uint32_t last;	 /* last address sent */
	uint64_t cc;	 /* cycle accurate: cycles since the last atom, its W atoms to come */
	struct etm4_stats st;
};

void etm3_regs(const struct etm3_cfg *cfg, struct etm3_regs *r)
{
	/* ETMIDR: implementer ARM, bit 20 alternative branch encoding, bits[15:12]
	   RES1 (0xF), major 2 (ETMv3), minor 5 */
	r->idr = 0x4110f250;
	/* ETMCR: no data trace, no context ID, no timestamps, no branch output;
	   bit 12: cycle accurate */
	r->ctrl = cfg->cycle_accurate ? ETM3_CR_CYCLE_ACC : 0;
	r->ccer = 0; /* ETMCCER: no timestamps, no virtualisation extensions */
	r->traceidr = cfg->trace_id;
	r->syncfr = cfg->sync_period;
}

int etm3_exception_number(unsigned ipsr)
{
	/* the v7-M exception encoding of ETMv3 (IHI 0014, "Exception encoding
	   for ARMv7-M"): not the IPSR order */
	static const signed char map[16] = {
	    [1] = 17, [2] = 10,	 [3] = 19,  [4] = 13,  [5] = 21,
	    [6] = 9,  [11] = 11, [12] = 12, [14] = 14, [15] = 15,
	};

	if (ipsr >= 24 && ipsr < 512)
		return ipsr; /* IRQ 8 and up: the number itself */
	if (ipsr >= 16 && ipsr < 24)
		return ipsr == 16 ? 8 : ipsr - 16; /* IRQ 0 is 8, IRQ 1..7 are 1..7 */
	if (ipsr < 16 && map[ipsr])
		return map[ipsr];
	return -1;
}

struct etm3 *etm3_new(const struct etm3_cfg *cfg)
{
	struct etm3 *e;

	if (cfg->trace_id < 1 || cfg->trace_id > 0x6f) {
		error("etm3: trace ID 0x%x out of range 0x01..0x6f", cfg->trace_id);
		return NULL;
	}
	if (cfg->sync_period < 256 || cfg->sync_period > (1u << 20) ||
	    (cfg->sync_period & (cfg->sync_period - 1))) {
		error("etm3: sync period %u is not a power of 2 in 256..2^20", cfg->sync_period);
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		error("etm3: out of memory");
		return NULL;
	}
	e->cfg = *cfg;
	return e;
}

void etm3_free(struct etm3 *e)
{
	if (!e)
		return;
	free(e->buf);
	free(e);
}

static int put(struct etm3 *e, const uint8_t *b, size_t n)
{
	if (etm_bytes_reserve(&e->buf, &e->cap, e->len + n))
		return error("etm3: trace ID 0x%x: out of memory at byte %zu", e->cfg.trace_id,
			     e->len);
	memcpy(e->buf + e->len, b, n);
	e->len += n;
	return 0;
}

static int put1(struct etm3 *e, uint8_t b)
{
	return put(e, &b, 1);
}

/*
 * P-header format 1: the waiting E atoms, then n_atom N atoms (0 or 1);
 * cycle accurate, each of them with its W.
 */
static int phdr(struct etm3 *e, int n_atom)
{
	uint8_t b = 0x80 | (n_atom ? 0x40 : 0) | (e->ecount << 2);

	e->ecount = 0;
	return put1(e, b);
}

static int atoms_out(struct etm3 *e)
{
	return e->ecount ? phdr(e, 0) : 0;
}

/*
 * An atom into the run of E atoms waiting for a format 1 P-header (at most
 * max of them): an N ends the run.
 */
static int run_atom(struct etm3 *e, int executed, unsigned max)
{
	if (!executed)
		return phdr(e, 1);
	if (e->ecount == max && phdr(e, 0))
		return -1;
	e->ecount++;
	return 0;
}

/*
 * Cycle accurate: the atom of an instruction that retired k = e->cc cycles
 * after the one before: k W atoms, then the atom. A run of instructions
 * one cycle apart waits as format 1's WE pairs (up to 7); one retired in
 * the same cycle as the last (k = 0) turns the run's last WE into format
 * 2's W E F, or else is format 4; longer waits are format 3's up to 8 W
 * atoms, with the E atom in the last, or before a format 1 WN.
 */
static int atom_ca(struct etm3 *e, int executed)
{
	uint64_t k = e->cc;

	e->cc = 0;
	if (k == 1)
		return run_atom(e, executed, 7);
	if (k == 0 && e->ecount) {
		e->ecount--;
		if (atoms_out(e))
			return -1;
		return put1(e, 0x82 | (executed ? 0 : 0x04)); /* format 2: W E F */
	}
	if (atoms_out(e))
		return -1;
	if (k == 0)
		return put1(e, 0x92 | (executed ? 0 : 0x04)); /* format 4: F */
	e->st.counts++;
	for (; k > 8 || (!executed && k > 1); k -= k > 8 ? 8 : k - 1)
		if (put1(e, 0xa0 | ((k > 8 ? 7 : k - 2) << 2))) /* format 3: W atoms alone */
			return -1;
	if (!executed)
		return put1(e, 0xc0);	     /* format 1: WN */
	return put1(e, 0xe0 | (k - 1) << 2); /* format 3: k W atoms, then E */
}

static int atom(struct etm3 *e, int executed)
{
	e->st.atoms++;
	return e->cfg.cycle_accurate ? atom_ca(e, executed) : run_atom(e, executed, 15);
}

/*
 * A branch address packet for a (Thumb), with exception number exc
 * (>= 0) or none (-1).
 */
static int branch(struct etm3 *e, uint32_t a, int exc)
{
	uint8_t b[8];
	int n, k, nb;
	uint32_t diff = a ^ e->last;

	/* address bits a packet of k bytes carries: 7, 13, 20, 27 (alternative
	   encoding: the last of bytes 1..3 has 6 bits), then all 32 */
	if (exc < 0 && !(diff >> 7))
		nb = 1;
	else if (!(diff >> 13))
		nb = 2;
	else if (!(diff >> 20))
		nb = 3;
	else if (!(diff >> 27))
		nb = 4;
	else
		nb = 5;
	b[0] = (a & 0x7e) | 0x01 | (nb > 1 ? 0x80 : 0);
	for (k = 1, n = 7; k < nb && k < 4; k++) {
		if (k == nb - 1) { /* the last, 6 bits */
			b[k] = ((a >> n) & 0x3f) | (exc >= 0 ? 0x40 : 0);
			n += 6;
		} else {
			b[k] = 0x80 | ((a >> n) & 0x7f);
			n += 7;
		}
	}
	if (nb == 5)
		b[4] = 0x10 | (a >> 28) | (exc >= 0 ? 0x40 : 0);
	if (exc >= 0) {
		b[nb] = ((exc & 0xf) << 1) | (exc > 0xf ? 0x80 : 0);
		if (exc > 0xf)
			b[++nb] = (exc >> 4) & 0x1f;
		nb++;
	}
	e->last = a;
	e->st.addresses++;
	return put(e, b, nb);
}

/*
 * A-sync and I-sync for the instruction at pc: the first (trace enabled)
 * or a periodic one. Cycle accurate, the first is an I-sync with cycle
 * count, as a non-periodic I-sync must be: the W atoms before it since
 * the last P-header, of which there was none. The count is 0, which the
 * architecture reads as "unknown" (the counter's reset value): the unit
 * started with the core, and the first instruction's cycles are W atoms
 * in its P-header like any other's. Periodic I-syncs carry no count.
 */
static int sync(struct etm3 *e, uint32_t pc, int first)
{
	static const uint8_t async[6] = {0, 0, 0, 0, 0, 0x80};
	uint8_t is[7] = {0x08, first ? 0x20 : 0x00, (pc & 0xfe) | 1, pc >> 8, pc >> 16, pc >> 24};
	int ca = first && e->cfg.cycle_accurate;

	if (ca) {
		memmove(is + 2, is + 1, 5);
		is[0] = 0x70;
		is[1] = 0x00; /* the count, one byte */
	}
	if (atoms_out(e) || put(e, async, sizeof(async)) || put(e, is, 6 + ca))
		return -1;
	e->last = pc;
	e->sync_at = e->len;
	e->st.syncs++;
	e->st.addresses++;
	return 0;
}

int etm3_insn(struct etm3 *e, const struct etm4_insn *in)
{
	int taken = in->next != in->pc + in->size;

	if (in->size != 2 && in->size != 4)
		return error("etm3: trace ID 0x%x: instruction at 0x%08x of size %u",
			     e->cfg.trace_id, in->pc, in->size);
	if (!e->started) {
		if (sync(e, in->pc, 1))
			return -1;
		e->started = 1;
	} else if (e->len - e->sync_at >= e->cfg.sync_period && sync(e, in->pc, 0))
		return -1;
	e->st.insns++;
	e->st.traced = e->st.insns;
	switch (in->kind) {
	case ETM_THUMB_DIRECT: return atom(e, taken);
	case ETM_THUMB_INDIRECT:
		if (!taken && !(in->flags & ETM4_EXC_RETURN))
			return atom(e, 0);
		if (atom(e, 1) || atoms_out(e))
			return -1;
		if (in->flags & ETM4_TAIL) /* the exception's branch packet gives the handler */
			return 0;
		if ((in->flags & ETM4_EXC_RETURN) && put1(e, 0x76))
			return -1;
		return branch(e, in->next, -1);
	default: /* every other instruction executed: E (IT-block failures are not modelled) */
		return atom(e, 1);
	}
}

int etm3_exception(struct etm3 *e, unsigned ipsr, uint32_t handler)
{
	int num = etm3_exception_number(ipsr);

	if (num < 0)
		return error("etm3: trace ID 0x%x: exception %u has no ETMv3 encoding",
			     e->cfg.trace_id, ipsr);
	if (!e->started)
		return error("etm3: trace ID 0x%x: exception %u before the first instruction",
			     e->cfg.trace_id, ipsr);
	e->st.exceptions++;
	return atoms_out(e) || branch(e, handler, num) ? -1 : 0;
}

void etm3_add_cycles(struct etm3 *e, uint64_t n)
{
	if (e->cfg.cycle_accurate)
		e->cc += n;
}

int etm3_flush(struct etm3 *e)
{
	return atoms_out(e);
}

const uint8_t *etm3_data(const struct etm3 *e, size_t *len)
{
	*len = e->len;
	return e->buf;
}

void etm3_get_stats(const struct etm3 *e, struct etm4_stats *st)
{
	*st = e->st;
	st->bytes = e->len;
}

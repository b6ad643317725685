/*
 * mtb: MTB packet encoder and decoder (DDI 0486). Packet diagram, one
 * 8-byte entry, lower address first:
 *
 *   31                              1  0
 *   +--------------------------------+---+
 *   | source address [31:1]          | A |   even word
 *   +--------------------------------+---+
 *   | destination address [31:1]     | S |   odd word
 *   +--------------------------------+---+
 */
#include <stdlib.h>
#include <string.h>

#include "etm/mtb.h"
#include "etm/bytes.h"
#include "etm/thumb.h"

/* EXC_RETURN values: the branch "target" of an exception return */
#define IS_EXC_RETURN(a) ((a) >= 0xf0000000u)
/* longest straight run the decoder walks between two packets */
#define MAX_RUN (1u << 24)

struct mtb {
	uint8_t *buf;
	size_t len, cap;
	struct mtb_stats st;
};

struct mtb *mtb_new(void)
{
	struct mtb *m = calloc(1, sizeof(*m));

	if (!m)
		error("mtb: out of memory");
	return m;
}

void mtb_free(struct mtb *m)
{
	if (!m)
		return;
	free(m->buf);
	free(m);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static int packet(struct mtb *m, uint32_t src, int a, uint32_t dst)
{
	if (etm_bytes_reserve(&m->buf, &m->cap, m->len + MTB_PACKET))
		return error("mtb: out of memory at packet %llu", (unsigned long long)m->st.packets);
	put32(m->buf + m->len, (src & ~1u) | (a & 1));
	put32(m->buf + m->len + 4, (dst & ~1u) | (m->st.packets == 0));
	m->len += MTB_PACKET;
	if (!m->st.packets)
		m->st.first = m->st.insns;
	m->st.packets++;
	m->st.traced = m->st.insns;
	return 0;
}

int mtb_insn(struct mtb *m, uint32_t pc, unsigned size, uint32_t next, uint32_t exc_return)
{
	m->st.insns++;
	if (exc_return)
		return packet(m, pc, 0, exc_return) || packet(m, exc_return, 1, next) ? -1 : 0;
	if (next != pc + size)
		return packet(m, pc, 0, next);
	return 0;
}

int mtb_exception(struct mtb *m, uint32_t ret, uint32_t handler)
{
	return packet(m, ret, 1, handler);
}

const uint8_t *mtb_data(const struct mtb *m, size_t *len)
{
	*len = m->len;
	return m->buf;
}

void mtb_get_stats(const struct mtb *m, struct mtb_stats *st)
{
	*st = m->st;
	st->bytes = m->len;
}

/* Walk from *pc to end (excluded), or through end (included) when incl. */
static int walk(const struct etm_ocsd_mem *mem, uint32_t from, uint32_t end, int incl, size_t k,
		etm_ocsd_fn fn, void *ctx)
{
	uint32_t pc = from;

	for (uint32_t n = 0; n < MAX_RUN; n++) {
		const struct etm_region *r;

		if (pc == end && !incl)
			return 0;
		r = etm_ocsd_region(mem, pc, 2);
		if (!r)
			return error("mtb: packet %zu: the walk from 0x%08x to 0x%08x leaves the "
				     "image at 0x%08x",
				     k, from, end, pc);
		if (fn(ctx, pc))
			return -1;
		if (pc == end)
			return 0;
		pc += etm_thumb_size(r->data[pc - r->base] | r->data[pc - r->base + 1] << 8);
	}
	return error("mtb: packet %zu: no straight path from 0x%08x to 0x%08x in %u instructions",
		     k, from, end, MAX_RUN);
}

int mtb_decode(const uint8_t *data, size_t len, const struct etm_ocsd_mem *mem, etm_ocsd_fn fn,
	       void *ctx)
{
	uint32_t cur = 0;
	int have = 0;

	if (len % MTB_PACKET)
		return error("mtb: %zu bytes is not a whole number of 8-byte packets", len);
	for (size_t k = 0; k < len / MTB_PACKET; k++) {
		uint32_t w0 = get32(data + k * MTB_PACKET), w1 = get32(data + k * MTB_PACKET + 4);
		uint32_t src = w0 & ~1u, dst = w1 & ~1u;
		int a = w0 & 1, s = w1 & 1;

		if (s)
			have = 0; /* trace (re)started: nothing before is known */
		if (have && IS_EXC_RETURN(cur)) {
			if (!a || src != cur)
				return error(
				    "mtb: packet %zu: after the return to EXC_RETURN 0x%08x comes "
				    "source 0x%08x with A = %d, not the EXC_RETURN packet",
				    k, cur, src, a);
		} else if (have && IS_EXC_RETURN(src))
			return error(
			    "mtb: packet %zu: source 0x%08x is an EXC_RETURN value, but no "
			    "return to it came before",
			    k, src);
		else if (have && walk(mem, cur, src, !a, k, fn, ctx))
			return -1;
		cur = dst;
		have = 1;
	}
	return 0;
}

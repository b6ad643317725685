#include "replay/mem.h"

#include <stdlib.h>
#include <string.h>

#include "board/board.h"

#define PAGE_BITS RPL_MEM_PAGE_BITS
#define PAGE_SIZE RPL_MEM_PAGE_SIZE
#define ROM_PAGES RPL_MEM_ROM_PAGES
#define SRAM_PAGES RPL_MEM_SRAM_PAGES

/*
 * Pages no picture holds, kept for the next copy on write: up to this
 * many (290 KiB, which rpl_mem_pool_bytes does not count). A replay
 * copies a page at the first write after every checkpoint and frees as
 * many when the store drops checkpoints; from malloc that cost 6% of an
 * 8-core index.
 */
#define SPARE_MAX 64

/* The pages of a picture and its snapshots: what they hold together. */
struct rpl_mem_pool {
	unsigned refs; /* pictures sharing it */
	uint64_t pages;
	struct rpl_mem_page *spare[SPARE_MAX]; /* nspare pages, for page_alloc */
	unsigned nspare;
};

/* A page for m's pool, its contents undefined (a spare one if there is). */
static struct rpl_mem_page *page_alloc(struct rpl_mem *m)
{
	struct rpl_mem_pool *pool = m->pool;

	pool->pages++;
	if (pool->nspare)
		return pool->spare[--pool->nspare];
	return xmalloc(sizeof(struct rpl_mem_page));
}

static void unref(struct rpl_mem *m, struct rpl_mem_page *p)
{
	struct rpl_mem_pool *pool = m->pool;

	if (p && !--p->refs) {
		if (pool->nspare < SPARE_MAX)
			pool->spare[pool->nspare++] = p;
		else
			free(p);
		pool->pages--;
	}
}

/* m's page table changes: its latest snapshot is no longer equal to it. */
static void forget_last(struct rpl_mem *m)
{
	struct rpl_mem *l = m->last;

	if (l) {
		m->last = NULL;
		rpl_mem_free(l);
	}
}

/* A page of m that m alone holds, ready to write. */
static struct rpl_mem_page *own(struct rpl_mem *m, size_t pi)
{
	struct rpl_mem_page *p = m->page[pi], *q;

	if (p && p->refs == 1)
		return p; /* (no snapshot holds it: the latest stays equal) */
	forget_last(m);
	if (p && p->refs == 1)
		return p; /* the latest snapshot, gone, was its only other holder */
	q = page_alloc(m);
	if (p) {
		memcpy(q, p, sizeof(*q));
		p->refs--;
	} else {
		memset(q, 0, sizeof(*q));
	}
	q->refs = 1;
	m->held += !p;
	return m->page[pi] = q;
}

struct rpl_mem *rpl_mem_new(void)
{
	struct rpl_mem *m = xcalloc(1, sizeof(*m));

	m->pool = xcalloc(1, sizeof(*m->pool));
	m->pool->refs = 1;
	return m;
}

void rpl_mem_free(struct rpl_mem *m)
{
	if (!m)
		return;
	if (m->shares) {
		m->shares--;
		return;
	}
	forget_last(m);
	for (size_t i = 0; i < ARRAY_SIZE(m->page); i++)
		unref(m, m->page[i]);
	if (!--m->pool->refs) {
		while (m->pool->nspare)
			free(m->pool->spare[--m->pool->nspare]);
		free(m->pool);
	}
	free(m);
}

struct rpl_mem *rpl_mem_copy(const struct rpl_mem *m)
{
	struct rpl_mem *s = xmalloc(sizeof(*s));

	memcpy(s, m, sizeof(*s));
	s->shares = 0;
	s->last = NULL;
	s->pool->refs++;
	for (size_t i = 0; i < ARRAY_SIZE(s->page); i++)
		if (s->page[i])
			s->page[i]->refs++;
	return s;
}

struct rpl_mem *rpl_mem_snapshot(struct rpl_mem *m)
{
	if (!m->last) {
		m->last = rpl_mem_copy(m);
		m->last->shares = 1; /* m's hold */
	} else {
		m->last->shares++;
	}
	return m->last;
}

void rpl_mem_restore(struct rpl_mem *m, const struct rpl_mem *snap,
		     void (*changed)(void *ctx, uint32_t addr, uint32_t len), void *ctx)
{
	if (m->last == snap)
		return; /* equal already */
	forget_last(m);
	for (size_t i = 0; i < ARRAY_SIZE(m->page); i++) {
		if (m->page[i] == snap->page[i])
			continue;
		/* the page at its address in either map (board_mem_offset) */
		if (changed && i < ROM_PAGES) {
			changed(ctx, 0x00000000u + (uint32_t)(i << PAGE_BITS), PAGE_SIZE);
			changed(ctx, 0x10000000u + (uint32_t)(i << PAGE_BITS), PAGE_SIZE);
		} else if (changed) {
			changed(ctx, 0x20000000u + (uint32_t)((i - ROM_PAGES) << PAGE_BITS), PAGE_SIZE);
			changed(ctx, 0x38000000u + (uint32_t)((i - ROM_PAGES) << PAGE_BITS), PAGE_SIZE);
		}
		unref(m, m->page[i]);
		m->page[i] = snap->page[i];
		if (m->page[i])
			m->page[i]->refs++;
	}
	m->held = snap->held;
}

uint64_t rpl_mem_bytes(const struct rpl_mem *m)
{
	return m->held * sizeof(struct rpl_mem_page) + sizeof(*m);
}

uint64_t rpl_mem_pool_bytes(const struct rpl_mem *m)
{
	return m->pool->pages * sizeof(struct rpl_mem_page) + m->pool->refs * sizeof(*m);
}

int rpl_mem_valid(uint32_t addr, uint32_t n)
{
	return board_mem_offset(addr, n) >= 0;
}

static inline size_t page_of(uint32_t addr)
{
	return rpl_mem_page_index(addr);
}

/* memcpy of n <= 8 bytes, the usual sizes with a constant length (one move, no call). */
static inline void copy_small(uint8_t *dst, const uint8_t *src, uint32_t n)
{
	switch (n) {
	case 8: memcpy(dst, src, 8); break;
	case 4: memcpy(dst, src, 4); break;
	case 2: memcpy(dst, src, 2); break;
	case 1: *dst = *src; break;
	default: memcpy(dst, src, n); break;
	}
}

/* The known bits of bytes [off, off + n) of a page, n <= 8: a mask at bit off % 8. */
static inline uint32_t known_mask(uint32_t off, uint32_t n)
{
	return ((1u << n) - 1) << (off % 8);
}

/* Two bytes of known flags from byte off / 8 (the second may be past the end: 0). */
static inline uint32_t known_bits(const struct rpl_mem_page *p, uint32_t off)
{
	uint32_t k = off / 8;

	return p->known[k] | (k + 1 < PAGE_SIZE / 8 ? (uint32_t)p->known[k + 1] << 8 : 0);
}

/* Bytes [off, off + n) of p become known: bits at the ends, whole bytes of flags between. */
static void mark_known(struct rpl_mem_page *p, uint32_t off, uint32_t n)
{
	uint32_t end = off + n;

	for (; off < end && off % 8; off++)
		p->known[off / 8] |= 1u << (off % 8);
	if (end - off >= 8) {
		memset(p->known + off / 8, 0xff, (end - off) / 8);
		off += (end - off) / 8 * 8;
	}
	for (; off < end; off++)
		p->known[off / 8] |= 1u << (off % 8);
}

void rpl_mem_write(struct rpl_mem *m, uint32_t addr, const uint8_t *buf, uint32_t n)
{
	uint32_t off = addr & (PAGE_SIZE - 1);

	if (n <= 8 && off + n <= PAGE_SIZE) {
		/* the usual case: one page, a few bytes */
		struct rpl_mem_page *p = own(m, page_of(addr));
		uint32_t k = off / 8, mask = known_mask(off, n);

		copy_small(p->data + off, buf, n);
		p->known[k] |= (uint8_t)mask;
		if (mask >> 8)
			p->known[k + 1] |= (uint8_t)(mask >> 8);
		return;
	}
	while (n) {
		size_t pi = page_of(addr);
		struct rpl_mem_page *p = own(m, pi);
		uint32_t k;

		off = addr & (PAGE_SIZE - 1);
		k = PAGE_SIZE - off;

		if (k > n)
			k = n;
		memcpy(p->data + off, buf, k);
		mark_known(p, off, k);
		addr += k;
		buf += k;
		n -= k;
	}
}

/* The usual case: one page, a few bytes, every one of them known in m. */
static inline int read_fast(const struct rpl_mem *m, uint32_t addr, uint8_t *buf, uint32_t n)
{
	uint32_t off = addr & (PAGE_SIZE - 1);
	const struct rpl_mem_page *p;
	uint32_t mask;

	if (n > 8 || off + n > PAGE_SIZE)
		return 0;
	p = m->page[page_of(addr)];
	mask = known_mask(off, n);
	if (!p || (known_bits(p, off) & mask) != mask)
		return 0;
	copy_small(buf, p->data + off, n);
	return 1;
}

static inline int byte_known(const struct rpl_mem_page *p, uint32_t off)
{
	return p && (p->known[off / 8] >> (off % 8) & 1);
}

/* Byte by byte: m's, else under's (may be NULL); the count of neither's. */
static uint32_t read_bytes(const struct rpl_mem *m, const struct rpl_mem *under, uint32_t addr,
			   uint8_t *buf, uint32_t n, uint32_t *first)
{
	uint32_t unknown = 0;

	for (uint32_t i = 0; i < n; i++, addr++) {
		const struct rpl_mem_page *p = m->page[page_of(addr)];
		const struct rpl_mem_page *q = under ? under->page[page_of(addr)] : NULL;
		uint32_t off = addr & (PAGE_SIZE - 1);

		if (byte_known(p, off)) {
			buf[i] = p->data[off];
		} else if (byte_known(q, off)) {
			buf[i] = q->data[off];
		} else {
			buf[i] = 0;
			if (!unknown++ && first)
				*first = addr;
		}
	}
	return unknown;
}

uint32_t rpl_mem_read(const struct rpl_mem *m, uint32_t addr, uint8_t *buf, uint32_t n,
		      uint32_t *first)
{
	return read_fast(m, addr, buf, n) ? 0 : read_bytes(m, NULL, addr, buf, n, first);
}

uint32_t rpl_mem_read_under(const struct rpl_mem *m, const struct rpl_mem *under, uint32_t addr,
			    uint8_t *buf, uint32_t n, uint32_t *first)
{
	return read_fast(m, addr, buf, n) ? 0 : read_bytes(m, under, addr, buf, n, first);
}

size_t rpl_mem_npages(void)
{
	return ROM_PAGES + SRAM_PAGES;
}

const struct rpl_mem_page *rpl_mem_page(const struct rpl_mem *m, size_t i, const uint8_t **data,
					const uint8_t **known)
{
	const struct rpl_mem_page *p = m->page[i];

	if (p) {
		*data = p->data;
		*known = p->known;
	}
	return p;
}

struct rpl_mem_page *rpl_mem_page_new(struct rpl_mem *m, const uint8_t *data, const uint8_t *known)
{
	struct rpl_mem_page *p = page_alloc(m);

	p->refs = 1;
	memcpy(p->data, data, PAGE_SIZE);
	memcpy(p->known, known, PAGE_SIZE / 8);
	return p;
}

void rpl_mem_page_put(struct rpl_mem *m, struct rpl_mem_page *p)
{
	unref(m, p);
}

void rpl_mem_set_page(struct rpl_mem *m, size_t i, struct rpl_mem_page *p)
{
	forget_last(m);
	if (p)
		p->refs++;
	unref(m, m->page[i]);
	if (p && !m->page[i])
		m->held++;
	else if (!p && m->page[i])
		m->held--;
	m->page[i] = p;
}

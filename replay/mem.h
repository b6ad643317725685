/*
 * mem: the replay's picture of guest memory (ROM and SRAM): the bytes, and
 * for each byte whether the debugger knows it. The ELF's load image is
 * known from the start; a store makes its bytes known; a traced load value
 * makes its bytes known. Everything else (memory the program reads before
 * writing it, which the board starts as zero) is unknown until traced, so a
 * load the FA rules call known but that is not is caught as a desync.
 *
 * Pages of 4 KiB are allocated on first write and shared copy-on-write
 * between a picture and its snapshots (the replay's checkpoints).
 */
#ifndef RAPTOR_RPL_MEM_H
#define RAPTOR_RPL_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "board/board.h"
#include "util/util.h"

struct rpl_mem;

struct rpl_mem *rpl_mem_new(void);
void rpl_mem_free(struct rpl_mem *m);

/* Is [addr, addr+n) in ROM or SRAM (the replay's memory)? */
int rpl_mem_valid(uint32_t addr, uint32_t n);

/* Write n bytes at addr (must be valid) and mark them known. */
void rpl_mem_write(struct rpl_mem *m, uint32_t addr, const uint8_t *buf, uint32_t n);

/*
 * Read n bytes at addr (must be valid) into buf: unknown bytes read as 0.
 * Returns the number of bytes that were unknown (0: all known); *first, if
 * not NULL, gets the address of the first unknown one.
 */
uint32_t rpl_mem_read(const struct rpl_mem *m, uint32_t addr, uint8_t *buf, uint32_t n,
		      uint32_t *first);

/*
 * rpl_mem_read, where m does not know a byte, under's value of it if under
 * knows it: the replay's picture over the recording's initial image
 * (replay.h, rpl_read_mem). under may be NULL (m alone).
 */
uint32_t rpl_mem_read_under(const struct rpl_mem *m, const struct rpl_mem *under, uint32_t addr,
			    uint8_t *buf, uint32_t n, uint32_t *first);

/*
 * A snapshot sharing every page with m (copy on write), and m's page pool
 * (rpl_mem_pool_bytes); free it with rpl_mem_free. Snapshots and restores
 * only mix pictures of one pool (a picture from rpl_mem_new and the
 * snapshots of it and of them). While m has not changed since its latest
 * snapshot (or since it was restored to one), that one is handed out
 * again, not copied (a control-flow-only replay's picture never changes):
 * a snapshot is read-only.
 */
struct rpl_mem *rpl_mem_snapshot(struct rpl_mem *m);
/* As rpl_mem_snapshot, but a copy of its own, to change (rpl_mem_set_page). */
struct rpl_mem *rpl_mem_copy(const struct rpl_mem *m);
/*
 * Make m equal to snap again (sharing its pages). changed, if not NULL, is
 * called for every page whose bytes may differ (the two pictures hold
 * different copies of it) with its address and size, before it is replaced:
 * the replay drops the instructions it decoded there (self-modifying code).
 */
void rpl_mem_restore(struct rpl_mem *m, const struct rpl_mem *snap,
		     void (*changed)(void *ctx, uint32_t addr, uint32_t len), void *ctx);
/* Bytes of m's page table and of the pages m holds (shared or not). */
uint64_t rpl_mem_bytes(const struct rpl_mem *m);
/*
 * Bytes of every page held by m's pool: m, the picture it was snapshot
 * from and all their snapshots, each shared page once, and their page
 * tables. Minus
 * rpl_mem_bytes(live): what the snapshots hold that the live picture does
 * not, i.e. what freeing them all would give back.
 */
uint64_t rpl_mem_pool_bytes(const struct rpl_mem *m);

/*
 * Page by page, for the persistent index (replay/index.h): a picture is
 * rpl_mem_npages() pages of RPL_MEM_PAGE_SIZE bytes (ROM's, then SRAM's),
 * each absent (never written: all unknown) or held, possibly shared.
 */
#define RPL_MEM_PAGE_SIZE 4096u
struct rpl_mem_page;
size_t rpl_mem_npages(void);
/*
 * Page i of m: NULL if absent; else its identity (equal for pictures that
 * share it), with its bytes in *data and its known bits (bit b of byte
 * k: byte 8k + b is known) in *known, RPL_MEM_PAGE_SIZE / 8 bytes.
 */
const struct rpl_mem_page *rpl_mem_page(const struct rpl_mem *m, size_t i, const uint8_t **data,
					const uint8_t **known);
/*
 * A new page of m's pool with these bytes and known bits, held once by
 * the caller (rpl_mem_page_put gives that back).
 */
struct rpl_mem_page *rpl_mem_page_new(struct rpl_mem *m, const uint8_t *data, const uint8_t *known);
void rpl_mem_page_put(struct rpl_mem *m, struct rpl_mem_page *p);
/* Page i of m becomes p (shared; NULL: absent). p must be of m's pool. */
void rpl_mem_set_page(struct rpl_mem *m, size_t i, struct rpl_mem_page *p);

/*
 * ---- the replay's inline reads -----------------------------------------
 *
 * The layout below is mem.c's to change; it is here only so that the
 * replay's load path (one word a load, millions of loads) reads a known
 * value through the page pointer with no call and no byte loop.
 */
#define RPL_MEM_PAGE_BITS 12
#define RPL_MEM_ROM_PAGES (BOARD_ROM_SIZE / RPL_MEM_PAGE_SIZE)
#define RPL_MEM_SRAM_PAGES (BOARD_SRAM_SIZE / RPL_MEM_PAGE_SIZE)

struct rpl_mem_page {
	unsigned refs; /* memory pictures sharing this page (copy on write) */
	uint8_t data[RPL_MEM_PAGE_SIZE];
	uint8_t known[RPL_MEM_PAGE_SIZE / 8]; /* bit b of byte k: byte 8k + b is known */
};

struct rpl_mem {
	struct rpl_mem_pool *pool;
	size_t held; /* pages held: page[]'s entries that are not NULL */
	/*
	 * A snapshot: its holders beyond the first (rpl_mem_snapshot hands
	 * one out again while the picture has not changed). A picture: its
	 * latest snapshot while they are still equal (one of its holders),
	 * or NULL.
	 */
	unsigned shares;
	struct rpl_mem *last;
	struct rpl_mem_page *page[RPL_MEM_ROM_PAGES + RPL_MEM_SRAM_PAGES];
};

/*
 * Page index of a valid address, in either board map (board_mem_offset):
 * ROM at 0x0 or 0x10000000, SRAM at 0x20000000 or 0x38000000. Each sits
 * at a multiple of 128 MiB, ROM's below 512 MiB and SRAM's above, so the
 * offset is the low 27 bits and the bits from 29 up tell which.
 */
_Static_assert(BOARD_ROM_SIZE <= 0x08000000u && BOARD_SRAM_SIZE <= 0x08000000u,
	       "rpl_mem_page_index takes the offset from the low 27 bits");
static inline size_t rpl_mem_page_index(uint32_t addr)
{
	return (size_t)(addr >> 29 ? RPL_MEM_ROM_PAGES : 0) +
	       ((addr & 0x07ffffffu) >> RPL_MEM_PAGE_BITS);
}

/*
 * The n (1..8) bytes at addr (valid), little-endian, into *v: 1 when m
 * knows every one of them and they lie in one page; 0 otherwise, *v
 * untouched (rpl_mem_read then tells which byte is unknown).
 */
static inline int rpl_mem_peek(const struct rpl_mem *m, uint32_t addr, unsigned n, uint64_t *v)
{
	uint32_t off = addr & (RPL_MEM_PAGE_SIZE - 1), k = off / 8, sh = off % 8;
	const struct rpl_mem_page *p = m->page[rpl_mem_page_index(addr)];
	uint32_t want = ((1u << n) - 1) << sh, bits;
	uint64_t x;

	if (!p || n - 1 > 7 || off + n > RPL_MEM_PAGE_SIZE)
		return 0;
	/* the flags' second byte only when the bytes reach into it (none past the page) */
	bits = p->known[k] | (sh + n > 8 ? (uint32_t)p->known[k + 1] << 8 : 0);
	if ((bits & want) != want)
		return 0;
	if (n == 4) { /* (folds into one load) */
		const uint8_t *b = p->data + off;

		*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		     (uint32_t)b[3] << 24;
		return 1;
	}
	x = 0;
	for (unsigned i = n; i-- > 0;)
		x = x << 8 | p->data[off + i];
	*v = x;
	return 1;
}

/*
 * rpl_mem_write of the n (1..4) bytes of the little-endian v at addr
 * (valid) where m alone holds their page: 1; 0, nothing written, for
 * rpl_mem_write to do it (a page not held yet or shared with a snapshot,
 * bytes across pages).
 */
static inline int rpl_mem_poke(struct rpl_mem *m, uint32_t addr, unsigned n, uint32_t v)
{
	uint32_t off = addr & (RPL_MEM_PAGE_SIZE - 1), k = off / 8;
	struct rpl_mem_page *p = m->page[rpl_mem_page_index(addr)];
	uint32_t mask = ((1u << n) - 1) << (off % 8);
	uint8_t *b;

	if (!p || p->refs != 1 || n - 1 > 3 || off + n > RPL_MEM_PAGE_SIZE)
		return 0;
	b = p->data + off;
	if (n == 4) { /* (folds into one store) */
		b[0] = (uint8_t)v;
		b[1] = (uint8_t)(v >> 8);
		b[2] = (uint8_t)(v >> 16);
		b[3] = (uint8_t)(v >> 24);
	} else {
		for (unsigned i = 0; i < n; i++)
			b[i] = (uint8_t)(v >> (8 * i));
	}
	p->known[k] |= (uint8_t)mask;
	if (mask >> 8)
		p->known[k + 1] |= (uint8_t)(mask >> 8);
	return 1;
}

#endif

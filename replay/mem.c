#include "replay/mem.h"

#include <stdlib.h>
#include <string.h>

#include "board/board.h"

#define PAGE_BITS 12
#define PAGE_SIZE (1u << PAGE_BITS)
#define ROM_PAGES (BOARD_ROM_SIZE >> PAGE_BITS)
#define SRAM_PAGES (BOARD_SRAM_SIZE >> PAGE_BITS)

struct page {
	uint8_t data[PAGE_SIZE];
	uint8_t known[PAGE_SIZE / 8];
};

struct rpl_mem {
	struct page *page[ROM_PAGES + SRAM_PAGES];
};

struct rpl_mem *rpl_mem_new(void)
{
	return xcalloc(1, sizeof(struct rpl_mem));
}

void rpl_mem_free(struct rpl_mem *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(m->page); i++)
		free(m->page[i]);
	free(m);
}

int rpl_mem_valid(uint32_t addr, uint32_t n)
{
	return (addr - BOARD_ROM_BASE < BOARD_ROM_SIZE &&
		n <= BOARD_ROM_SIZE - (addr - BOARD_ROM_BASE)) ||
	       (addr - BOARD_SRAM_BASE < BOARD_SRAM_SIZE &&
		n <= BOARD_SRAM_SIZE - (addr - BOARD_SRAM_BASE));
}

/* Page index of a valid address. */
static size_t page_of(uint32_t addr)
{
	if (addr - BOARD_ROM_BASE < BOARD_ROM_SIZE)
		return (addr - BOARD_ROM_BASE) >> PAGE_BITS;
	return ROM_PAGES + ((addr - BOARD_SRAM_BASE) >> PAGE_BITS);
}

void rpl_mem_write(struct rpl_mem *m, uint32_t addr, const uint8_t *buf, uint32_t n)
{
	while (n) {
		size_t pi = page_of(addr);
		uint32_t off = addr & (PAGE_SIZE - 1), k = PAGE_SIZE - off;
		struct page *p = m->page[pi];

		if (k > n)
			k = n;
		if (!p)
			p = m->page[pi] = xcalloc(1, sizeof(*p));
		memcpy(p->data + off, buf, k);
		for (uint32_t i = off; i < off + k; i++)
			p->known[i / 8] |= 1u << (i % 8);
		addr += k;
		buf += k;
		n -= k;
	}
}

uint32_t rpl_mem_read(const struct rpl_mem *m, uint32_t addr, uint8_t *buf, uint32_t n,
		      uint32_t *first)
{
	uint32_t unknown = 0;

	for (uint32_t i = 0; i < n; i++, addr++) {
		const struct page *p = m->page[page_of(addr)];
		uint32_t off = addr & (PAGE_SIZE - 1);

		if (p && (p->known[off / 8] >> (off % 8) & 1)) {
			buf[i] = p->data[off];
		} else {
			buf[i] = 0;
			if (!unknown++ && first)
				*first = addr;
		}
	}
	return unknown;
}

/*
 * mem_test: replay/mem.h's pictures and snapshots: copy on write, a
 * snapshot handed out again while the picture has not changed (and never
 * after it has), restores, and what the pool counts.
 */
#include <stdint.h>
#include <string.h>

#include "replay/mem.h"
#include "tests/unit/tap.h"

#define SRAM 0x20000000u

static uint32_t word(const struct rpl_mem *m, uint32_t addr)
{
	uint8_t b[4] = {0};

	if (rpl_mem_read(m, addr, b, 4, NULL))
		return 0xdeadbeef; /* (not known) */
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void put(struct rpl_mem *m, uint32_t addr, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	rpl_mem_write(m, addr, b, 4);
}

int main(void)
{
	struct rpl_mem *m = rpl_mem_new(), *a, *b, *c, *d;
	uint64_t pool;

	put(m, SRAM, 1);
	put(m, SRAM + 0x1000, 2);
	a = rpl_mem_snapshot(m);
	b = rpl_mem_snapshot(m);
	tap_ok(a == b, "a picture unchanged since its snapshot: the same one handed out again");
	pool = rpl_mem_pool_bytes(m);
	c = rpl_mem_snapshot(m);
	tap_ok(c == a && rpl_mem_pool_bytes(m) == pool, "... and counted once in the pool");
	rpl_mem_free(c);

	put(m, SRAM + 0x1000, 2); /* a page the snapshot holds: copied first */
	d = rpl_mem_snapshot(m);
	tap_ok(d != a && word(a, SRAM + 0x1000) == 2 && word(d, SRAM + 0x1000) == 2,
	       "a write (even of the same value) to a page a snapshot holds: a new snapshot");
	put(m, SRAM, 7);
	tap_ok(word(a, SRAM) == 1 && word(d, SRAM) == 1 && word(m, SRAM) == 7,
	       "the snapshots keep their bytes (copy on write)");

	rpl_mem_free(a); /* b still holds it */
	tap_ok(word(b, SRAM) == 1 && word(b, SRAM + 0x1000) == 2,
	       "a snapshot freed by one holder stays for the other");

	rpl_mem_restore(m, b, NULL, NULL);
	tap_ok(word(m, SRAM) == 1, "restored to the first snapshot");
	a = rpl_mem_snapshot(m);
	tap_ok(a != b && word(a, SRAM) == 1, "after a restore: a snapshot of its own");
	rpl_mem_free(b);
	put(m, SRAM + 0x2000, 9); /* a new page: the table changes */
	c = rpl_mem_snapshot(m);
	tap_ok(c != a && word(c, SRAM + 0x2000) == 9 && word(a, SRAM + 0x2000) == 0xdeadbeef,
	       "a page added: a new snapshot; the old one does not know it");
	rpl_mem_restore(m, c, NULL, NULL);
	tap_ok(word(m, SRAM + 0x2000) == 9, "restored to its latest snapshot (nothing to do)");

	b = rpl_mem_copy(m);
	rpl_mem_set_page(b, 0, NULL);
	tap_ok(b != c && word(c, SRAM + 0x2000) == 9,
	       "rpl_mem_copy: a copy of its own, changed without touching the snapshot");
	rpl_mem_free(b);
	rpl_mem_free(c);
	rpl_mem_free(a);
	rpl_mem_free(d);
	tap_ok(rpl_mem_pool_bytes(m) > rpl_mem_bytes(m),
	       "the latest snapshot, its holders gone, is still the picture's");
	put(m, SRAM, 8);
	tap_ok(rpl_mem_pool_bytes(m) == rpl_mem_bytes(m) && word(m, SRAM) == 8,
	       "a write: it goes, and with it every page only it held (nothing else is left)");
	rpl_mem_free(m); /* the pool's last picture: everything goes (leak checkers) */
	return tap_done();
}

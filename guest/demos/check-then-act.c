/*
 * check-then-act (race demo 2): two cores both see a slot free and both
 * take it.
 *
 * A table of NSLOTS buffer slots is shared by all cores. To claim one, a
 * core looks for a slot whose owner is FREE, then writes its own mark into
 * it: a check and an act with no lock between them. When another core
 * checks the same slot in that window, both believe they own it; the later
 * store wins `owner`, the other core is left writing into a buffer it does
 * not own. Every core keeps a private list of what it claimed, and core 0
 * looks for a slot on two lists after a barrier.
 *
 * The fix: claim with LDREX/STREX (compare-and-swap), or under a spinlock.
 */
#include "demo.h"

#define NSLOTS 16
#define CLAIMS 6 /* per core; NSLOTS >= CLAIMS * cores at up to 2 cores */
#define FREE 0u

struct slot {
	volatile uint32_t owner; /* FREE, or 1 + the claiming core */
	uint32_t data[3];
};

static struct slot slots[NSLOTS];
static struct barrier bar = BARRIER_INIT;
static int claimed[RAPTOR_MAX_CORES][CLAIMS]; /* per core: slots it took */
static volatile int double_slot = -1;          /* core 0's verdict: a slot taken twice */

/* Take the first free slot; -1 when none is left. */
static int claim_slot(unsigned me)
{
	for (int i = 0; i < NSLOTS; i++) {
		if (slots[i].owner == FREE) { /* check ... */
			slots[i].owner = me + 1; /* ... act: too late if another core checked too */
			return i;
		}
	}
	return -1;
}

/* The bug showed: say so. (A place for a breakpoint, too.) */
static int report_bug(int slot, unsigned a, unsigned b)
{
	demo_text("FAIL check-then-act: slot ");
	demo_num(slot);
	demo_text(" taken by core ");
	demo_num(a);
	demo_text(" and core ");
	demo_num(b);
	demo_text("; its owner says core ");
	demo_num(slots[slot].owner - 1);
	demo_text("\n");
	return 1;
}

int main(void)
{
	unsigned me = core_id(), cores = num_cores();
	uint32_t state = 0x2545f491u * (me + 3);
	int claims = cores * CLAIMS <= NSLOTS ? CLAIMS : NSLOTS / cores;

	barrier_wait(&bar);
	for (int k = 0; k < claims; k++) {
		demo_work(&state, 4 + (state & 15));
		int i = claim_slot(me);

		claimed[me][k] = i;
		if (i >= 0)
			slots[i].data[0] = state; /* use the buffer */
	}
	barrier_wait(&bar);
	if (me != 0)
		return 0;

	for (unsigned a = 0; a < cores; a++)
		for (unsigned b = a + 1; b < cores; b++)
			for (int x = 0; x < claims; x++)
				for (int y = 0; y < claims; y++)
					if (claimed[a][x] >= 0 && claimed[a][x] == claimed[b][y]) {
						double_slot = claimed[a][x];
						return report_bug(double_slot, a, b);
					}
	demo_text("ok check-then-act: ");
	demo_num(claims * cores);
	demo_text(" slots claimed, none twice in this interleaving\n");
	return 0;
}

/*
 * racy (multicore): a data race on purpose, the heisenbug a trace debugger
 * is for. Every core increments one shared counter ITERATIONS times with a
 * plain load / add / store and no lock, so increments from different cores
 * overwrite each other. The final value depends on the interleaving: it is
 * printed next to the race-free total. The run passes when the value lies in
 * [ITERATIONS, cores * ITERATIONS]: lost updates are the point, not a failure.
 * A second, locked counter shows what the value should have been.
 */
#include "common.h"

#define ITERATIONS 2000

static volatile uint32_t counter;        /* racy */
static volatile uint32_t locked_counter; /* under lock */
static spinlock_t lock = SPINLOCK_INIT;
static struct barrier bar = BARRIER_INIT;

/* Load, think, store: the gap is where another core's store gets lost. */
static void racy_increment(void)
{
	uint32_t v = counter;

	__asm__ volatile("nop\n\tnop\n\tnop");
	counter = v + 1;
}

int main(void)
{
	unsigned me = core_id(), n = num_cores();

	barrier_wait(&bar); /* start together, so the cores really overlap */
	for (int i = 0; i < ITERATIONS; i++) {
		racy_increment();
		if (i % 64 == 0) {
			spin_lock(&lock);
			locked_counter = locked_counter + 64;
			spin_unlock(&lock);
		}
	}
	barrier_wait(&bar);
	if (me != 0)
		return 0;

	uint32_t want = n * ITERATIONS;
	uint32_t want_locked = n * 64 * ((ITERATIONS + 63) / 64);
	printf("racy: counter = %lu, expected %lu without races (%lu updates lost)\n",
	       (unsigned long)counter, (unsigned long)want, (unsigned long)(want - counter));
	if (locked_counter != want_locked)
		return fail("racy", "locked counter %lu, want %lu", (unsigned long)locked_counter,
			    (unsigned long)want_locked);
	if (counter < ITERATIONS || counter > want)
		return fail("racy", "counter %lu outside [%d, %lu]", (unsigned long)counter,
			    ITERATIONS, (unsigned long)want);
	return 0;
}

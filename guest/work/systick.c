/*
 * systick (multicore): every core runs its own SysTick and counts ticks.
 *
 * The handler bumps this core's tick count and, under a spinlock, a shared
 * total (the lock is never taken in thread mode, so a handler cannot spin on
 * a lock its own core holds). At the TICKS-th tick the handler stops its own
 * timer and drops any tick already pending, so the counts are exact however
 * fast ticks come relative to instructions (on QEMU they follow the host
 * clock: under -singlestep a tick lands every few dozen instructions).
 * Meanwhile thread mode does busy work, which the ticks interrupt at
 * arbitrary points, until it sees the last tick. Core 0 checks, after a
 * barrier, that every core counted TICKS and the shared total is
 * cores * TICKS. Works for any num_cores() from 1 to 8.
 */
#include "common.h"

#define TICKS 16
#define RELOAD 4999 /* 5000 core clocks per tick */

static volatile uint32_t ticks[RAPTOR_MAX_CORES];
static volatile uint32_t work_done[RAPTOR_MAX_CORES];
static volatile uint32_t total;
static volatile uint32_t sink; /* keeps the busy work from being optimised out */
static spinlock_t lock = SPINLOCK_INIT;
static struct barrier bar = BARRIER_INIT;

void SysTick_Handler(void)
{
	unsigned me = core_id();

	if (++ticks[me] >= TICKS)
		systick_stop(); /* also clears a tick that is already pending */
	spin_lock(&lock);
	total = total + 1;
	spin_unlock(&lock);
}

/* Something for the tick to interrupt: an xorshift walk. */
static uint32_t busy(uint32_t x)
{
	for (int i = 0; i < 50; i++)
		x = rng_next(&x);
	return x;
}

static int check(unsigned n)
{
	for (unsigned c = 0; c < n; c++)
		if (ticks[c] != TICKS)
			return fail("systick", "core %u counted %lu ticks, want %d", c,
				    (unsigned long)ticks[c], TICKS);
	if (total != n * TICKS)
		return fail("systick", "shared total %lu, want %u", (unsigned long)total,
			    n * TICKS);
	return 0;
}

int main(void)
{
	unsigned me = core_id(), n = num_cores();
	uint32_t x = 0x5EED0000u + me;

	barrier_wait(&bar);
	systick_start(RELOAD);
	while (ticks[me] < TICKS) {
		x = busy(x);
		work_done[me] = work_done[me] + 1;
	}
	sink = x;
	barrier_wait(&bar);
	if (me != 0)
		return 0;
	if (check(n) != 0)
		return 1;
	printf("systick ok: %u cores, %lu ticks in all, core 0 did %lu work units\n", n,
	       (unsigned long)total, (unsigned long)work_done[0]);
	return 0;
}

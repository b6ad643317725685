/*
 * publish (race demo 3): publication order, the data written after the
 * ready flag.
 *
 * Core 0 produces ROUNDS values for core 1 through a one-word mailbox:
 * it waits until the mailbox is empty, then raises `ready` and writes
 * `data` -- in that order, which is the bug. Core 1 waits for `ready`,
 * takes `data` and clears `ready`. When core 1 is already waiting as core 0
 * raises the flag, it can read `data` before core 0 has written it and
 * take the previous round's value. Core 1 stops at the first wrong value;
 * core 0 reports after a barrier. Other cores only join the barriers.
 *
 * The fix: write `data`, then dmb(), then set `ready` (and dmb() after
 * reading `ready` on the other side).
 */
#include "demo.h"

#define ROUNDS 12

static volatile uint32_t data;  /* the message */
static volatile uint32_t ready; /* 1: data is there for core 1 */
static volatile uint32_t stop;  /* core 1 saw a wrong value */
static struct barrier bar = BARRIER_INIT;
static uint32_t got_round, got_value; /* core 1's report */

static uint32_t value_of(uint32_t round) { return round * 1000u + 7u; }

static void produce(void)
{
	uint32_t state = 0x6d2b79f5u;

	for (uint32_t round = 1; round <= ROUNDS; round++) {
		demo_work(&state, 8 + (state & 31)); /* make the value */
		while (ready) /* the consumer has not taken the last one yet */
			if (stop)
				return;
		ready = 1;               /* publish ... */
		data = value_of(round); /* ... then write: the bug */
	}
}

static void consume(void)
{
	uint32_t state = 0x1b873593u;

	for (uint32_t round = 1; round <= ROUNDS; round++) {
		while (!ready)
			demo_work(&state, 2); /* poll now and then */
		uint32_t v = data;

		if (v != value_of(round)) {
			got_round = round;
			got_value = v;
			stop = 1;
			return;
		}
		ready = 0;
		demo_work(&state, 8 + (state & 31)); /* use the value */
	}
}

/* The bug showed: say so. (A place for a breakpoint, too.) */
static int report_bug(void)
{
	demo_text("FAIL publish: round ");
	demo_num(got_round);
	demo_text(": core 1 read data = ");
	demo_num(got_value);
	demo_text(", want ");
	demo_num(value_of(got_round));
	demo_text("\n");
	return 1;
}

int main(void)
{
	unsigned me = core_id();

	barrier_wait(&bar);
	if (me == 0)
		produce();
	else if (me == 1)
		consume();
	barrier_wait(&bar);
	if (me != 0)
		return 0;
	if (num_cores() < 2) {
		demo_text("FAIL publish: needs 2 cores\n");
		return 1;
	}
	if (stop)
		return report_bug();
	demo_text("ok publish: ");
	demo_num(ROUNDS);
	demo_text(" values passed in order in this interleaving\n");
	return 0;
}

/*
 * demo.h: helpers shared by the race demos (the .c files here).
 *
 * The demos are small multicore programs with a real concurrency bug each,
 * written to be debugged with raptor (gdbscripts/demo-*.gdb, traces/). Each
 * checks itself: core 0 prints "FAIL name: what" and returns 1 when the bug
 * showed in this run, or "ok name: ..." and 0 when the interleaving hid it.
 * Which one happens depends on the timing, i.e. on `raptor record --seed`.
 *
 * They print through semihosting (semi_puts/semi_putu), not printf, so the
 * ELFs stay small enough to commit next to their recordings.
 */
#ifndef RAPTOR_DEMO_H
#define RAPTOR_DEMO_H

#include <stdint.h>

#include "board.h"

/* Output without printf: a string, a number in decimal. */
static inline void demo_text(const char *s) { semi_puts(s); }
static inline void demo_num(uint32_t v) { semi_putu(v); }

/*
 * A job of variable length: `rounds` steps of xorshift over *state. Stands
 * in for the real work firmware does between touching shared data, so the
 * cores drift in and out of phase.
 */
static inline uint32_t demo_work(uint32_t *state, unsigned rounds)
{
	uint32_t x = *state;

	for (unsigned i = 0; i < rounds; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
	}
	*state = x;
	return x;
}

#endif

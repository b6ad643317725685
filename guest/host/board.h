/*
 * host/board.h: a stand-in for guest/sdk/board.h so the multicore workloads
 * can run on the build machine, one POSIX thread per core (harness.c).
 *
 * It checks the *algorithms* (work split, barriers, locks) at 1..8 cores
 * before any multicore board exists; it says nothing about the ARM code.
 * Only what the multicore workloads use is here; SysTick is not (systick.c
 * needs a real board).
 */
#ifndef RAPTOR_HOST_BOARD_H
#define RAPTOR_HOST_BOARD_H

#include <sched.h>
#include <stdint.h>

#define RAPTOR_MAX_CORES 8

extern _Thread_local unsigned host_core;
extern unsigned host_ncores;

static inline unsigned core_id(void) { return host_core; }
static inline unsigned num_cores(void) { return host_ncores; }

static inline void dmb(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void dsb(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void isb(void) {}
static inline void sev(void) {}
/* A sleeping core is a yielding thread: no events to wait for on a host. */
static inline void wfe(void) { sched_yield(); }
static inline void wfi(void) { sched_yield(); }

typedef struct {
	volatile uint32_t locked;
} spinlock_t;
#define SPINLOCK_INIT {0}

static inline int spin_trylock(spinlock_t *l)
{
	return __atomic_exchange_n(&l->locked, 1u, __ATOMIC_ACQUIRE) == 0;
}

static inline void spin_lock(spinlock_t *l)
{
	while (!spin_trylock(l))
		sched_yield();
}

static inline void spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0u, __ATOMIC_RELEASE);
}

static inline uint32_t atomic_add_u32(volatile uint32_t *p, uint32_t v)
{
	return __atomic_add_fetch(p, v, __ATOMIC_SEQ_CST);
}

/* Same sense-reversing algorithm as guest/sdk/board.c. */
struct barrier {
	volatile uint32_t count;
	volatile uint32_t sense;
	uint32_t local_sense[RAPTOR_MAX_CORES];
};
#define BARRIER_INIT {0, 0, {0}}

static inline void barrier_wait(struct barrier *b)
{
	unsigned me = core_id();
	uint32_t sense = b->local_sense[me] ^ 1u;

	b->local_sense[me] = sense;
	if (atomic_add_u32(&b->count, 1) == num_cores()) {
		b->count = 0;
		__atomic_store_n(&b->sense, sense, __ATOMIC_SEQ_CST);
	} else {
		while (__atomic_load_n(&b->sense, __ATOMIC_SEQ_CST) != sense)
			sched_yield();
	}
	dmb();
}

#endif

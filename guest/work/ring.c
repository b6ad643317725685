/*
 * ring (multicore): single-producer single-consumer ring buffers.
 *
 * Cores pair up: core 2k produces into ring k, core 2k+1 consumes from it.
 * The producer publishes an item with DMB then a head increment; the consumer
 * reads after seeing head move, and frees the slot with DMB then a tail
 * increment; both sleep in WFE and wake the other with SEV. With an odd core
 * count the last core has no partner and plays both roles itself, producing
 * until the ring is full, then draining it. The consumer checks every item
 * arrives once and in order; core 0 checks every ring's count and checksum
 * against a serial recomputation. Works for any num_cores() from 1 to 8.
 */
#include "common.h"

#define ITEMS 1500
#define RING_SIZE 16 /* a power of two: indices wrap with a mask */
#define MAX_RINGS ((RAPTOR_MAX_CORES + 1) / 2)

struct ring {
	volatile uint32_t head; /* written by the producer only */
	uint32_t pad0[7];       /* keep head and tail in different lines */
	volatile uint32_t tail; /* written by the consumer only */
	uint32_t pad1[7];
	uint32_t buf[RING_SIZE];
	/* consumer's report */
	uint32_t count, sum, errors;
};

static struct ring rings[MAX_RINGS];
static struct barrier bar = BARRIER_INIT;

/* Item i of ring k: distinct per ring so a cross-wired ring shows. */
static uint32_t item(unsigned k, uint32_t i)
{
	uint32_t x = (i + 1) * 0x85EBCA6Bu ^ (k + 1) * 0xC2B2AE35u;

	return x ^ (x >> 13);
}

static int ring_full(const struct ring *r)
{
	return r->head - r->tail == RING_SIZE;
}

static void put(struct ring *r, uint32_t v)
{
	r->buf[r->head % RING_SIZE] = v;
	dmb(); /* the item lands before the head that publishes it */
	r->head = r->head + 1;
	dsb();
	sev();
}

static uint32_t get(struct ring *r)
{
	dmb(); /* read the item only after seeing the head move */
	uint32_t v = r->buf[r->tail % RING_SIZE];
	dmb(); /* finish reading before handing the slot back */
	r->tail = r->tail + 1;
	dsb();
	sev();
	return v;
}

static void consume_one(struct ring *r, unsigned k)
{
	uint32_t v = get(r);

	if (v != item(k, r->count))
		r->errors++;
	r->sum += v;
	r->count++;
}

static void producer(struct ring *r, unsigned k)
{
	for (uint32_t i = 0; i < ITEMS; i++) {
		while (ring_full(r))
			wfe();
		put(r, item(k, i));
	}
}

static void consumer(struct ring *r, unsigned k)
{
	while (r->count < ITEMS) {
		while (r->head == r->tail)
			wfe();
		consume_one(r, k);
	}
}

/* No partner: fill the ring, drain it, repeat. */
static void solo(struct ring *r, unsigned k)
{
	uint32_t produced = 0;

	while (r->count < ITEMS) {
		while (produced < ITEMS && !ring_full(r))
			put(r, item(k, produced++));
		while (r->head != r->tail)
			consume_one(r, k);
	}
}

static int check(unsigned n)
{
	for (unsigned k = 0; k < (n + 1) / 2; k++) {
		uint32_t want = 0;

		for (uint32_t i = 0; i < ITEMS; i++)
			want += item(k, i);
		if (rings[k].count != ITEMS || rings[k].errors != 0 || rings[k].sum != want)
			return fail("ring", "ring %u: %lu items, %lu out of order, sum %08lx want %08lx",
				    k, (unsigned long)rings[k].count, (unsigned long)rings[k].errors,
				    (unsigned long)rings[k].sum, (unsigned long)want);
	}
	return 0;
}

int main(void)
{
	unsigned me = core_id(), n = num_cores();
	unsigned k = me / 2;

	if (me % 2 == 1)
		consumer(&rings[k], k);
	else if (me + 1 < n)
		producer(&rings[k], k);
	else
		solo(&rings[k], k);
	barrier_wait(&bar);
	if (me != 0)
		return 0;
	if (check(n) != 0)
		return 1;
	printf("ring ok: %u cores, %u rings of %d items\n", n, (n + 1) / 2, ITEMS);
	return 0;
}

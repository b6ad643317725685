/*
 * lost-update (race demo 1): a shared counter incremented without a lock.
 *
 * Every core runs JOBS jobs of varying length and counts each finished job
 * into `counter` with a plain load, add, store. When another core's store
 * lands between a core's load and its store, that store is overwritten and
 * one job goes uncounted. Core 0 checks the total after a barrier.
 *
 * Whether an update is lost depends on how the cores' jobs happen to line
 * up, so some seeds pass. The fix: atomic_add_u32(&counter, 1), or a lock.
 */
#include "demo.h"

#define JOBS 16

static volatile uint32_t counter; /* jobs finished, all cores: the race */
static struct barrier bar = BARRIER_INIT;
static uint32_t results[RAPTOR_MAX_CORES];

static void job_done(void)
{
	uint32_t n = counter; /* read ... */

	n = n + 1;
	counter = n; /* ... write: another core's store in between is lost */
}

/* The bug showed: say so. (A place for a breakpoint, too.) */
static int report_bug(uint32_t got, uint32_t want)
{
	demo_text("FAIL lost-update: counter = ");
	demo_num(got);
	demo_text(", want ");
	demo_num(want);
	demo_text(": ");
	demo_num(want - got);
	demo_text(" lost\n");
	return 1;
}

int main(void)
{
	unsigned me = core_id(), cores = num_cores();
	uint32_t state = 0x9e3779b9u * (me + 1);

	barrier_wait(&bar);
	for (int job = 0; job < JOBS; job++) {
		results[me] += demo_work(&state, 16 + (state & 31));
		job_done();
	}
	barrier_wait(&bar);
	if (me != 0)
		return 0;

	uint32_t want = cores * JOBS;

	if (counter != want)
		return report_bug(counter, want);
	demo_text("ok lost-update: counter = ");
	demo_num(counter);
	demo_text(", no update lost in this interleaving\n");
	return 0;
}

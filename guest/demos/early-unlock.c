/*
 * early-unlock (race demo 4): a lock released too early on one path.
 *
 * Every core moves money in and out of one shared `balance`, each update
 * under `lock`. Large withdrawals take another path: they are audited, and
 * whoever wrote that path released the lock before the audit, to keep it
 * short -- but before writing the new balance too. Another core that takes
 * the lock in that window reads the old balance, and one of the two updates
 * is lost. Every core tallies what it moved; core 0 checks the balance
 * against the tallies after a barrier.
 *
 * The fix: write the balance, then unlock, then audit.
 */
#include "demo.h"

#define OPS 12           /* per core */
#define LARGE 900u       /* withdrawals from here on are audited */
#define START 1000000u

static volatile uint32_t balance = START;
static spinlock_t lock = SPINLOCK_INIT;
static struct barrier bar = BARRIER_INIT;
static uint32_t moved_in[RAPTOR_MAX_CORES], moved_out[RAPTOR_MAX_CORES];
static uint32_t audit_log[RAPTOR_MAX_CORES];

static void audit(unsigned me, uint32_t amount)
{
	uint32_t h = audit_log[me] ^ amount;

	demo_work(&h, 2);
	audit_log[me] = h;
}

static void deposit(uint32_t amount)
{
	spin_lock(&lock);
	balance = balance + amount;
	spin_unlock(&lock);
}

static void withdraw(unsigned me, uint32_t amount)
{
	spin_lock(&lock);
	uint32_t b = balance;

	if (amount >= LARGE) {
		spin_unlock(&lock); /* the bug: the new balance is not written yet */
		audit(me, amount);
		balance = b - amount;
		return;
	}
	balance = b - amount;
	spin_unlock(&lock);
}

/* The bug showed: say so. (A place for a breakpoint, too.) */
static int report_bug(uint32_t got, uint32_t want)
{
	demo_text("FAIL early-unlock: balance = ");
	demo_num(got);
	demo_text(", want ");
	demo_num(want);
	demo_text("\n");
	return 1;
}

int main(void)
{
	unsigned me = core_id(), cores = num_cores();
	uint32_t state = 0x85ebca6bu * (me + 1);

	barrier_wait(&bar);
	for (int op = 0; op < OPS; op++) {
		uint32_t r = demo_work(&state, 4 + (state & 15));
		uint32_t amount = r % 1000u;

		if (r & 0x100000u) {
			deposit(amount);
			moved_in[me] += amount;
		} else {
			withdraw(me, amount);
			moved_out[me] += amount;
		}
	}
	barrier_wait(&bar);
	if (me != 0)
		return 0;

	uint32_t want = START;

	for (unsigned c = 0; c < cores; c++)
		want = want + moved_in[c] - moved_out[c];
	if (balance != want)
		return report_bug(balance, want);
	demo_text("ok early-unlock: balance = ");
	demo_num(balance);
	demo_text(" as the tallies say, in this interleaving\n");
	return 0;
}

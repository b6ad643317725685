/*
 * tindex_test: the time index (replay/tindex.h) against a brute-force
 * reference: random runs of steps (some retire an instruction, some do
 * not, some access data that crosses a block's end), then random queries
 * for breakpoints and watched ranges in both directions, each compared
 * with a scan of everything noted.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/tindex.h"
#include "tests/unit/tap.h"

struct note {
	size_t slot;
	int kind; /* 0 pc, 1 load, 2 store */
	uint32_t addr, size;
};

static uint64_t rng = 0x1234567;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* The reference: does note x hit a breakpoint at pc or the watched range w? */
static int ref_hits(const struct note *x, const uint32_t *pc, int npc, const struct rpl_tix_range *w,
		    int nw)
{
	for (int k = 0; k < npc && x->kind == 0; k++)
		if (x->addr >> RPL_TIX_CODE_SHIFT == pc[k] >> RPL_TIX_CODE_SHIFT)
			return 1;
	for (int k = 0; k < nw && x->kind; k++) {
		uint32_t a0 = x->addr >> RPL_TIX_DATA_SHIFT, a1 = (x->addr + x->size - 1) >> RPL_TIX_DATA_SHIFT;
		uint32_t b0 = w[k].addr >> RPL_TIX_DATA_SHIFT,
			 b1 = (w[k].addr + w[k].len - 1) >> RPL_TIX_DATA_SHIFT;

		if ((x->kind == 1 ? w[k].reads : w[k].writes) && a0 <= b1 && b0 <= a1)
			return 1;
	}
	return 0;
}

static void run(uint64_t interval, int steps)
{
	struct rpl_tindex *t = rpl_tix_new(interval);
	struct note *notes = calloc((size_t)steps * 3, sizeof(*notes));
	uint64_t *start = calloc((size_t)steps + 2, sizeof(*start)), pos = 0;
	size_t nnotes = 0, nslots = 1, slot = 0;
	int bad = 0;

	for (int s = 0; s < steps; s++) {
		int retire = rnd(8) != 0;
		uint32_t pc = 0x100 + 2 * rnd(2048);

		rpl_tix_pc(t, pos, pc);
		notes[nnotes++] = (struct note){ slot, 0, pc, 2 };
		for (int a = rnd(3); a > 0; a--) {
			uint32_t addr = 0x20000000 + rnd(8192), size = 1u << rnd(3);
			int store = rnd(2);

			rpl_tix_access(t, pos, addr, size, store);
			notes[nnotes++] = (struct note){ slot, 1 + store, addr, size };
		}
		pos += retire;
		rpl_tix_done(t, (uint64_t)s + 1, pos);
		if (pos == nslots * interval) {
			start[nslots++] = (uint64_t)s + 1;
			slot++;
		}
	}
	tap_is_int(rpl_tix_slots(t), nslots, "slots started");
	tap_is_int(rpl_tix_covered(t), steps, "steps covered");
	for (size_t j = 0; j < nslots; j++)
		bad += rpl_tix_slot_steps(t, j) != start[j];
	tap_ok(!bad, "interval %llu: every slot starts where the positions say",
	       (unsigned long long)interval);
	bad = 0;
	for (int s = 0; s < steps; s += 1 + rnd(5)) {
		size_t want = 0;

		while (want + 1 < nslots && start[want + 1] <= (uint64_t)s)
			want++;
		bad += rpl_tix_slot_of(t, (uint64_t)s) != want;
	}
	tap_ok(!bad, "interval %llu: rpl_tix_slot_of agrees", (unsigned long long)interval);

	for (int q = 0, wrong = 0; q < 2000; q++) {
		uint32_t pcs[2] = { 0x100 + 2 * rnd(2048), 0x100 + 2 * rnd(2048) };
		struct rpl_tix_range w[2] = {
			{ 0x20000000 + rnd(8200), 1 + rnd(16), (int)rnd(2), 1 },
			{ 0x20000000 + rnd(8200), 1 + rnd(4), 1, (int)rnd(2) },
		};
		int npc = (int)rnd(3), nw = (int)rnd(3);
		size_t at = rnd((uint32_t)nslots);
		long last = -1, first = -1;

		for (size_t i = 0; i < nnotes; i++) {
			if (!ref_hits(&notes[i], pcs, npc, w, nw))
				continue;
			if (notes[i].slot <= at && (long)notes[i].slot > last)
				last = (long)notes[i].slot;
			if (notes[i].slot >= at && (first < 0 || (long)notes[i].slot < first))
				first = (long)notes[i].slot;
		}
		if (rpl_tix_last_hit(t, at, pcs, npc, w, nw) != last ||
		    rpl_tix_first_hit(t, at, pcs, npc, w, nw) != first) {
			if (!wrong++)
				tap_diag("query %d at slot %zu: last %ld (want %ld), first %ld (want %ld)",
					 q, at, rpl_tix_last_hit(t, at, pcs, npc, w, nw), last,
					 rpl_tix_first_hit(t, at, pcs, npc, w, nw), first);
		}
		if (q == 1999)
			tap_ok(!wrong, "interval %llu, %d steps: 2000 queries both ways as the scan",
			       (unsigned long long)interval, steps);
	}
	{
		struct rpl_tix_range wide = { 0x20000000, 1u << 24, 1, 1 };

		tap_is_int(rpl_tix_last_hit(t, nslots - 1, NULL, 0, &wide, 1), nslots - 1,
			   "a range too wide to look up may hit anywhere (backward)");
		tap_is_int(rpl_tix_first_hit(t, 0, NULL, 0, &wide, 1), 0,
			   "... and forward");
	}
	tap_ok(rpl_tix_bytes(t) > 0, "it counts its bytes");
	{
		uint8_t *buf;
		size_t n = rpl_tix_serialize(t, &buf), cut;
		const char *why = NULL;
		struct rpl_tindex *u = rpl_tix_deserialize(buf, n, interval, &why);
		int same = u && rpl_tix_slots(u) == nslots && rpl_tix_covered(u) == (uint64_t)steps;

		if (!u)
			tap_diag("not read back: %s", why);

		for (int q = 0; same && q < 500; q++) {
			uint32_t pc = 0x100 + 2 * rnd(2048);
			struct rpl_tix_range w = { 0x20000000 + rnd(8200), 1 + rnd(8), (int)rnd(2), 1 };
			size_t at = rnd((uint32_t)nslots);

			same = rpl_tix_last_hit(u, at, &pc, 1, &w, 1) ==
				       rpl_tix_last_hit(t, at, &pc, 1, &w, 1) &&
			       rpl_tix_first_hit(u, at, &pc, 1, &w, 1) ==
				       rpl_tix_first_hit(t, at, &pc, 1, &w, 1) &&
			       rpl_tix_slot_steps(u, at) == rpl_tix_slot_steps(t, at);
		}
		tap_ok(same, "interval %llu: serialized and read back, it answers the same",
		       (unsigned long long)interval);
		rpl_tix_free(u);
		tap_ok(!rpl_tix_deserialize(buf, n, interval + 1, &why) &&
			       !strcmp(why, "has another interval"),
		       "another interval is refused: %s", why);
		cut = 24 + rnd((uint32_t)(n - 24));
		tap_ok(!rpl_tix_deserialize(buf, cut, interval, &why),
		       "cut at byte %zu of %zu: refused (%s)", cut, n, why);
		buf[n - 1] ^= 0x80; /* the last delta: past the slots */
		tap_ok(!rpl_tix_deserialize(buf, n, interval, &why),
		       "a slot past the end is refused (%s)", why);
		free(buf);
	}
	rpl_tix_free(t);
	free(notes);
	free(start);
}

int main(void)
{
	struct rpl_tindex *t = rpl_tix_new(100);

	tap_is_int(rpl_tix_last_hit(t, 0, (uint32_t[]){ 0x100 }, 1, NULL, 0), -1,
		   "an empty index: no hit");
	tap_is_int(rpl_tix_slot_of(t, 0), 0, "an empty index: slot 0 from step 0");
	rpl_tix_free(t);
	run(1, 300);
	run(7, 3000);
	run(64, 20000);
	return tap_done();
}

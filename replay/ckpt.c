/*
 * ckpt: the replay's checkpoints, seeks, and what the persistent index
 * reads and sets (replay/replay.h).
 */
#include "replay/replay_priv.h"

#include <stdlib.h>
#include <string.h>

#include "util/heap.h"

/* ---- checkpoints ------------------------------------------------------------------- */

static size_t blob_size(const struct rpl *r)
{
	size_t n = (size_t)r->ncores * isa_cpu_state_size();

	for (int i = 0; i < r->ncores; i++) {
		if (r->bp[i] && !(r->mf.bp_shared && i))
			n += bp_state_size(r->bp[i]);
		if (!r->cfw)
			n += dc_state_size(r->sched.tcache[i]);
	}
	if (r->cfw)
		n += cfw_state_size(r->cfw);
	if (r->fa)
		n += dc_fa_state_size(r->fa);
	if (r->mc)
		n += dc_mc2rt_state_size(r->mc);
	return n;
}

/* A checkpoint's state: struct dyn, the cycles, the generator, the blob. */
size_t rpl_ckpt_state_size(const struct rpl *r)
{
	return sizeof(struct dyn) + sizeof(r->sched.cycles) + sizeof(r->sched.rng) + blob_size(r);
}

/*
 * The process's replays together (serve runs two, one in a thread): the
 * sum of their budgets, and of what they hold as the budgets count it
 * (each replay publishes its own at every checkpoint), so that the rest of
 * the resident memory (code, libraries, decoders, caches, the allocator's
 * free memory) is shared out among them in proportion to their budgets.
 */
static _Atomic uint64_t proc_budget, proc_held;

void rpl_memory_use(const struct rpl *r, struct rpl_memory_use *u)
{
	uint64_t others, floor = r->memory / 4, rss = heap_resident();
	uint64_t held = proc_held, budgets = proc_budget;
	struct cfw_msg_stats ms = { 0 };

	u->memory = r->memory;
	u->time_index = r->tix ? rpl_tix_bytes(r->tix) : 0;
	u->initial = rpl_mem_bytes(r->init);
	u->live = rpl_mem_bytes(r->mem);
	u->walk = r->cfw ? cfw_memory(r->cfw, &ms) : 0;
	u->walk_messages = ms.messages;
	u->walk_packed = ms.packed;
	u->walk_packed_bytes = ms.packed_bytes;
	u->walk_packed_raw = ms.packed_raw;
	u->walk_blocks = ms.blocks;
	u->walk_inflations = ms.inflations;
	u->path = rpl_port_stats(r) ? rpl_port_stats(r)->path_bytes : 0;
	u->resident = rss;
	u->rest = 0;
	if (rss > held && budgets)
		u->rest = (uint64_t)((unsigned __int128)(rss - held) * r->memory / budgets);
	/*
	 * headroom: what the store may grow by before it trims again (a new
	 * checkpoint, the pages copied on write meanwhile)
	 */
	others = u->time_index + u->initial + u->live + u->walk + u->path + u->rest +
		 r->memory / 64;
	u->store = r->memory > others + floor ? r->memory - others : floor;
}

/*
 * The store's share of the budget, as the other structures and the rest of
 * the process have grown; this replay's holdings published first, so that
 * the rest is measured against them. When the rest has grown by a
 * sixteenth of the budget over its level after the last trim (or its low
 * since), the allocator's free pages go back first (malloc_trim walks the
 * heap: not at every checkpoint). Without that the rest counts what the
 * store has freed (dropped states leave holes in the heap): the bound
 * held, but the store shrank to its floor.
 */
static void share_memory(struct rpl *r)
{
	struct rpl_memory_use u;
	struct cfw_msg_stats ms;
	uint64_t now;

	/* published first: the rest is what the resident size has beyond it now */
	now = rpl_ckstore_bytes(r->ck) + (r->tix ? rpl_tix_bytes(r->tix) : 0) +
	      rpl_mem_bytes(r->init) + rpl_mem_bytes(r->mem) + (r->cfw ? cfw_memory(r->cfw, &ms) : 0) +
	      (rpl_port_stats(r) ? rpl_port_stats(r)->path_bytes : 0);
	proc_held += now - r->held; /* (modulo 2^64: a drop is a wrapped sum) */
	r->held = now;
	rpl_memory_use(r, &u);
	if (u.rest > r->rest_trimmed + r->memory / 16) {
		heap_trim();
		rpl_memory_use(r, &u);
	}
	if (u.rest < r->rest_trimmed || u.rest > r->rest_trimmed + r->memory / 16)
		r->rest_trimmed = u.rest;
	rpl_ckstore_set_budget(r->ck, u.store);
}

void rpl_memory_forget(struct rpl *r)
{
	proc_held -= r->held;
	proc_budget -= r->memory;
	r->held = r->memory = 0;
}

/* The streams' pages the decoders have passed go back to the page cache (util/fmap.h). */
static void release_streams(struct rpl *r)
{
	uint64_t cf = r->cfw ? cfw_stream_pos(r->cfw) : st_cf_decoder_pos(&r->d.cfd);

	fmap_release_before(&r->cf_map, (size_t)(cf / 8));
	if (r->mf.lv_on)
		fmap_release_before(&r->lv_map, (size_t)(st_lv_decoder_pos(&r->d.lvd) / 8));
}

/*
 * In a sweep (rpl_set_sweep), at the frontier's slot: would the store drop
 * its checkpoint before the end? The end estimated from the cf bits left
 * at twice the most bits a slot took so far (see rpl_set_sweep).
 */
static int passes_over(struct rpl *r, uint64_t slot)
{
	uint64_t pos = r->cfw ? cfw_stream_pos(r->cfw) : st_cf_decoder_pos(&r->d.cfd), left;

	if (pos < r->sweep_pos) /* (restored behind: start over) */
		r->sweep_pos = pos;
	if (pos - r->sweep_pos > r->sweep_rate)
		r->sweep_rate = pos - r->sweep_pos;
	r->sweep_pos = pos;
	if (!r->sweep_rate || pos >= r->mf.cf_bits)
		return 0;
	left = (r->mf.cf_bits - pos) / (2 * r->sweep_rate);
	return rpl_ckstore_drops(r->ck, slot, slot + left);
}

void rpl_set_sweep(struct rpl *r, int on)
{
	r->sweep = on;
	rpl_ckstore_set_eager(r->ck, on);
	r->sweep_rate = 0;
	r->sweep_pos = r->cfw ? cfw_stream_pos(r->cfw) : st_cf_decoder_pos(&r->d.cfd);
}

uint64_t rpl_swept(const struct rpl *r)
{
	return r->swept;
}

void rpl_set_once(struct rpl *r)
{
	r->once = 1;
}

/*
 * At every interval-th position (called when position reaches next_ckpt):
 * a checkpoint there unless the store has it. At the frontier it is new;
 * behind it, on a re-run of a stretch whose checkpoint thinning dropped, it
 * is laid down again if the store would keep it (replay/ckstore.h).
 */
void rpl_ckpt_take(struct rpl *r)
{
	uint64_t slot = r->d.position / r->interval;
	int fresh = r->d.steps >= r->frontier;
	struct rpl_mem *snap;
	uint8_t *state, *p;
	size_t ci;

	r->next_ckpt = (slot + 1) * r->interval;
	release_streams(r);
	share_memory(r);
	if (r->d.position != slot * r->interval || r->once)
		return; /* restored past a slot: the next one is due later (or none: once) */
	if (rpl_ckstore_count(r->ck) && r->goal_slot != UINT64_MAX && rpl_ckstore_full(r->ck) &&
	    rpl_ckstore_drops(r->ck, slot, r->goal_slot)) {
		/* on the way to a seek's destination, where it would go (as below) */
		rpl_ckstore_trim(r->ck, slot);
		if (!fresh)
			r->sum_gen++;
		return;
	}
	if (fresh && r->sweep && rpl_ckstore_count(r->ck) && passes_over(r, slot)) {
		/* (the open summary goes on over the next stretch: as if dropped) */
		r->swept++;
		rpl_ckstore_trim(r->ck, slot);
		return;
	}
	if (rpl_ckstore_count(r->ck)) {
		ci = rpl_ckstore_before_step(r->ck, r->d.steps);
		/*
		 * Re-running a stretch: no new checkpoint, but the live picture has
		 * moved on, so pages only the snapshots hold have grown: trim.
		 */
		if (rpl_ckstore_steps(r->ck, ci) == r->d.steps ||
		    (!fresh && !rpl_ckstore_wants(r->ck, slot))) {
			rpl_ckstore_trim(r->ck, slot);
			r->sum_gen++;
			return;
		}
	}
	heap_hugepages_grow();
	state = p = rpl_ckstore_block(r->ck);
	memcpy(p, &r->d, sizeof(r->d));
	/* the readers' pointers are restore_checkpoint's to set: none kept (an index is a file) */
	((struct dyn *)p)->cfd.r.buf = ((struct dyn *)p)->lvd.r.buf = NULL;
	((struct dyn *)p)->cfd.r.name = ((struct dyn *)p)->lvd.r.name = NULL;
	p += sizeof(r->d);
	memcpy(p, r->sched.cycles, sizeof(r->sched.cycles));
	p += sizeof(r->sched.cycles);
	memcpy(p, &r->sched.rng, sizeof(r->sched.rng));
	p += sizeof(r->sched.rng);
	for (int i = 0; i < r->ncores; i++) {
		isa_cpu_save(r->cpu[i], p);
		p += isa_cpu_state_size();
		if (r->bp[i] && !(r->mf.bp_shared && i)) {
			bp_save(r->bp[i], p);
			p += bp_state_size(r->bp[i]);
		}
		if (r->cfw)
			continue;
		dc_save(r->sched.tcache[i], p);
		p += dc_state_size(r->sched.tcache[i]);
	}
	if (r->cfw) {
		cfw_save(r->cfw, p);
		p += cfw_state_size(r->cfw);
	}
	if (r->fa) {
		dc_fa_save(r->fa, p);
		p += dc_fa_state_size(r->fa);
	}
	if (r->mc)
		dc_mc2rt_save(r->mc, p);
	snap = rpl_mem_snapshot(r->mem);
	rpl_ckstore_add(r->ck, slot, r->d.steps, r->d.position, state, snap, fresh);
	rpl_ckstore_trim(r->ck, slot);
	r->sum_gen++;
}

/* A page of memory changes with a restore: code there may have been rewritten. */
static void forget_decoded(void *dec, uint32_t addr, uint32_t len)
{
	isa_decoder_invalidate(dec, addr, len);
}

/* Go back (or forward) to the store's checkpoint i. 0 / -1. */
int rpl_ckpt_restore(struct rpl *r, size_t ci)
{
	const struct rpl_mem *mem;
	const uint8_t *p = rpl_ckstore_state(r->ck, ci, &mem);
	struct st_reader cr, lr;

	if (!p)
		return -1;
	r->sum_gen++;
	if (r->truth) {
		/* the ground truth is read forward only */
		st_truth_close_reader(r->truth);
		r->truth = NULL;
		for (int i = 0; i < r->ncores; i++)
			r->tq[i].head = r->tq[i].n = 0;
	}
	/*
	 * The decoders' readers point at this process's stream buffers and
	 * names: a state read from a persistent index holds another's.
	 */
	cr = r->d.cfd.r;
	lr = r->d.lvd.r;
	memcpy(&r->d, p, sizeof(r->d));
	p += sizeof(r->d);
	r->d.cfd.r.buf = cr.buf;
	r->d.cfd.r.name = cr.name;
	r->d.lvd.r.buf = lr.buf;
	r->d.lvd.r.name = lr.name;
	memcpy(r->sched.cycles, p, sizeof(r->sched.cycles));
	p += sizeof(r->sched.cycles);
	board_sched_restore(&r->sched);
	memcpy(&r->sched.rng, p, sizeof(r->sched.rng));
	p += sizeof(r->sched.rng);
	rpl_mem_restore(r->mem, mem, forget_decoded, r->dec);
	for (int i = 0; i < r->ncores; i++) {
		isa_cpu_restore(r->cpu[i], p);
		p += isa_cpu_state_size();
		if (r->bp[i] && !(r->mf.bp_shared && i)) {
			if (bp_restore(r->bp[i], p, bp_state_size(r->bp[i])))
				return -1;
			p += bp_state_size(r->bp[i]);
		}
		if (r->cfw)
			continue;
		dc_restore(r->sched.tcache[i], p);
		p += dc_state_size(r->sched.tcache[i]);
	}
	if (r->cfw) {
		if (cfw_restore(r->cfw, p, cfw_state_size(r->cfw)))
			return -1;
		p += cfw_state_size(r->cfw);
	}
	if (r->fa) {
		if (dc_fa_restore(r->fa, p, dc_fa_state_size(r->fa)))
			return -1;
		p += dc_fa_state_size(r->fa);
	}
	if (r->mc && dc_mc2rt_restore(r->mc, p, dc_mc2rt_state_size(r->mc)))
		return -1;
	r->failed = 0;
	r->next_ckpt = r->d.position + 1;
	return 0;
}

/* The latest checkpoint at or before step s (there is always the one at step 0). */
size_t rpl_ckpt_before(const struct rpl *r, uint64_t s)
{
	return rpl_ckstore_before_step(r->ck, s);
}

/* The steps of checkpoint i. */
uint64_t rpl_ckpt_steps(const struct rpl *r, size_t i)
{
	return rpl_ckstore_steps(r->ck, i);
}

void rpl_set_interval(struct rpl *r, uint64_t insns)
{
	r->interval = insns ? insns : 1;
	r->next_ckpt = r->d.position + r->interval;
	if (!r->frontier) /* the time index's slots are the checkpoints' */
		rpl_tix_restart(r);
}

void rpl_set_memory(struct rpl *r, uint64_t bytes)
{
	proc_budget += bytes - r->memory;
	r->memory = bytes;
	share_memory(r);
	rpl_ckstore_trim(r->ck, r->d.position / r->interval);
	r->sum_gen++;
}

/* Go to the state after s steps: 0, 1 if the recording ends before, -1 error. */
int rpl_seek_step(struct rpl *r, uint64_t s)
{
	size_t c = rpl_ckpt_before(r, s);
	int k;

	if (r->failed || r->d.steps > s || rpl_ckpt_steps(r, c) > r->d.steps)
		if (rpl_ckpt_restore(r, c))
			return -1;
	k = 0;
	rpl_set_goal(r, s);
	while (r->d.steps < s && !k)
		k = rpl_step_one(r);
	r->goal_slot = UINT64_MAX;
	if (r->d.ended)
		r->end_position = r->d.position;
	return k;
}

void rpl_set_goal(struct rpl *r, uint64_t s)
{
	/* (a step is an instruction but for exception entries: at most this far) */
	uint64_t ahead = s > r->d.steps ? s - r->d.steps : 0;
	uint64_t at = r->d.position + ahead < ahead ? UINT64_MAX : r->d.position + ahead;

	if (at > r->end_position)
		at = r->end_position;
	r->goal_slot = at == UINT64_MAX ? UINT64_MAX : at / r->interval;
}

int rpl_seek(struct rpl *r, uint64_t position)
{
	size_t c = rpl_ckstore_before_position(r->ck, position);
	uint64_t at = position < r->end_position ? position : r->end_position;
	int k;

	if (r->failed || r->d.position > position || rpl_ckpt_steps(r, c) > r->d.steps)
		if (rpl_ckpt_restore(r, c))
			return -1;
	/* (past the end: the end, once a run has found it; else no goal) */
	r->goal_slot = at == UINT64_MAX ? UINT64_MAX : at / r->interval;
	k = rpl_run(r, position);
	r->goal_slot = UINT64_MAX;
	if (r->d.ended)
		r->end_position = r->d.position;
	return k;
}

int rpl_index(struct rpl *r)
{
	return rpl_run(r, UINT64_MAX) < 0 ? -1 : 0;
}

/* ---- the persistent index's access (replay/index.h) ------------------------------------ */

struct rpl_ckstore *rpl_store(struct rpl *r)
{
	return r->ck;
}

struct rpl_mem *rpl_live_mem(struct rpl *r)
{
	return r->mem;
}

size_t rpl_state_size(const struct rpl *r)
{
	return r->state_size;
}

uint64_t rpl_interval(const struct rpl *r)
{
	return r->interval;
}

double rpl_progress(const struct rpl *r)
{
	if (r->cfw || !r->mf.cf_bits)
		return -1;
	return (double)st_cf_decoder_pos(&r->d.cfd) / (double)r->mf.cf_bits;
}

int rpl_adopt(struct rpl *r, struct rpl_ckstore *ck, uint64_t end_steps, uint64_t end_position)
{
	size_t last = rpl_ckstore_count(ck) - 1;
	int k;

	if (rpl_ckstore_count(ck) < 1 || rpl_ckstore_steps(ck, 0) != 0 || r->failed ||
	    r->d.steps != 0) {
		rpl_ckstore_free(ck);
		return error("%s: an index must be loaded into a fresh replay", r->dir);
	}
	rpl_ckstore_free(r->ck);
	r->ck = ck;
	/* the summaries are the index's: a run up to end_steps adds nothing */
	r->frontier = end_steps;
	r->tix_fed = 0; /* an index file's time index may replace it (rpl_set_time_index) */
	if (rpl_ckpt_restore(r, last))
		return -1;
	while (!(k = rpl_step_one(r)))
		;
	if (k < 0)
		return -1;
	if (r->d.steps != end_steps || r->d.position != end_position)
		return error("%s: the index says the recording ends after %llu steps at position "
			     "%llu, the replay ended after %llu at %llu", r->dir, U(end_steps),
			     U(end_position), U(r->d.steps), U(r->d.position));
	return 0;
}


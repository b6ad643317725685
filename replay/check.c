#include "replay/check.h"

#include <stdlib.h>
#include <string.h>

#include "board/board.h"
#include "isa/elf.h"
#include "streams/truth.h"

/* The truth's state of every core at a position. */
struct core_state {
	uint32_t regs[ISA_NREGS];
	int has_fp; /* a core with an FPU: fp holds s0..s31, FPSCR */
	uint32_t fp[ISA_NFPREGS];
};

struct probe {
	uint64_t position;
	struct core_state *core; /* every core's: ncores of them, in rpl_check_random's pool */
	/* the last data access before the position: memory still holds its value */
	int have;
	uint32_t addr, value;
	unsigned size;
};

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int by_position(const void *a, const void *b)
{
	const struct probe *x = a, *y = b;

	return x->position < y->position ? -1 : x->position > y->position;
}

/* Read the truth once, filling every probe's expected state. */
static int read_truth(const char *path, int ncores, struct probe *p, unsigned n)
{
	struct st_truth_reader *t = st_truth_open(path);
	struct st_truth_rec rec;
	struct core_state cs[ST_TRUTH_MAX_CORES];
	int have = 0;
	uint32_t addr = 0, value = 0;
	unsigned size = 0;
	uint64_t pos = 0;
	unsigned k = 0;
	int s;

	if (!t)
		return -1;
	memset(cs, 0, sizeof(cs));
	while ((s = st_truth_next(t, &rec)) == 1) {
		switch (rec.type) {
		case ST_TRUTH_RESET:
		case ST_TRUTH_EXC:
		case ST_TRUTH_INSN:
			memcpy(cs[rec.core].regs, rec.regs, sizeof(rec.regs));
			cs[rec.core].has_fp = rec.has_fp;
			memcpy(cs[rec.core].fp, rec.fp, sizeof(rec.fp));
			if (rec.type == ST_TRUTH_INSN && !(rec.flags & ST_TRUTH_FAULTED))
				pos++;
			break;
		case ST_TRUTH_ACCESS:
			have = 1;
			addr = rec.addr;
			value = rec.value;
			size = rec.size;
			break;
		case ST_TRUTH_EXIT:
		case ST_TRUTH_FP: /* folded into the records by the reader */
			break;
		}
		/* a probe is the state right after the record that retired its instruction */
		if (rec.type == ST_TRUTH_RESET && rec.core != ncores - 1)
			continue;
		if (rec.type != ST_TRUTH_INSN && rec.type != ST_TRUTH_RESET)
			continue;
		while (k < n && p[k].position == pos) {
			memcpy(p[k].core, cs, ncores * sizeof(*cs));
			p[k].have = have;
			p[k].addr = addr;
			p[k].value = value;
			p[k].size = size;
			k++;
		}
	}
	st_truth_close_reader(t);
	if (s < 0)
		return -1;
	if (k != n)
		return error("%s: the ground truth ends at position %llu, before probe %u",
			     path, (unsigned long long)pos, k);
	return 0;
}

/* ---- control flow only: every core's PC after its steps so far ------------------- */

/* One core's state at a probe of a control-flow-only replay. */
struct cf_probe {
	uint64_t steps; /* the core's steps (instructions and exception entries) */
	uint32_t pc;	/* its PC after them, in the replay */
	unsigned probe; /* which probe */
	int core;
};

static int by_steps(const void *a, const void *b)
{
	const struct cf_probe *x = a, *y = b;

	if (x->core != y->core)
		return x->core - y->core;
	return x->steps < y->steps ? -1 : x->steps > y->steps;
}

/*
 * Read the truth once: the PC of each core after its k-th step (faulted
 * attempts are no steps) must be the replay's at every probe. p is sorted
 * by core, then steps.
 */
static int check_cf_truth(const char *path, const struct cf_probe *p, size_t np,
			  const uint64_t *positions)
{
	struct st_truth_reader *t = st_truth_open(path);
	uint64_t k[ST_TRUTH_MAX_CORES] = { 0 };
	size_t first[ST_TRUTH_MAX_CORES + 1], at[ST_TRUTH_MAX_CORES];
	struct st_truth_rec rec;
	int s, ret = -1;

	if (!t)
		return -1;
	/* p is sorted by core: where each core's probes start */
	for (size_t i = 0, c = 0; c <= ST_TRUTH_MAX_CORES; c++) {
		while (i < np && (size_t)p[i].core < c)
			i++;
		first[c] = i;
	}
	memcpy(at, first, sizeof(at));
	while ((s = st_truth_next(t, &rec)) == 1) {
		int c = rec.core;

		if ((rec.type == ST_TRUTH_INSN && !(rec.flags & ST_TRUTH_FAULTED)) ||
		    rec.type == ST_TRUTH_EXC)
			k[c]++;
		else if (rec.type != ST_TRUTH_RESET)
			continue;
		for (; at[c] < first[c + 1] && p[at[c]].steps == k[c]; at[c]++)
			if (p[at[c]].pc != rec.regs[ISA_R_PC]) {
				error("random access: position %llu: core %d after %llu steps is at "
				      "pc 0x%08x, the truth says 0x%08x",
				      (unsigned long long)positions[p[at[c]].probe], c,
				      (unsigned long long)k[c], p[at[c]].pc, rec.regs[ISA_R_PC]);
				goto out;
			}
	}
	if (s < 0)
		goto out;
	for (int c = 0; c < ST_TRUTH_MAX_CORES; c++)
		if (at[c] < first[c + 1]) {
			error("random access: position %llu: core %d has run %llu steps, the truth "
			      "only %llu", (unsigned long long)positions[p[at[c]].probe], c,
			      (unsigned long long)p[at[c]].steps, (unsigned long long)k[c]);
			goto out;
		}
	ret = 0;
out:
	st_truth_close_reader(t);
	return ret;
}

/*
 * --random without registers or memory: seek the positions in a random
 * order (forward and backward), note every core's steps and PC at each,
 * then check them all against the truth in one read. A position counts
 * instructions in the replay's estimated order, so the truth's state at
 * the same position is not the reference: each core's own step count is.
 */
static int check_random_cf(struct rpl *r, unsigned n, uint64_t seed, uint64_t *end,
			   unsigned *forward, unsigned *backward)
{
	const struct st_manifest *mf = rpl_manifest(r);
	int ncores = rpl_ncores(r), ret = -1;
	uint64_t x = seed, *pos;
	struct cf_probe *p;
	size_t np = 0;
	uint8_t b[4];
	uint32_t u;
	char *path;

	if (rpl_index(r))
		return -1;
	*end = rpl_position(r);
	pos = xcalloc(n ? n : 1, sizeof(*pos));
	p = xcalloc((size_t)(n ? n : 1) * ncores, sizeof(*p));
	for (unsigned i = 0; i < n; i++)
		pos[i] = splitmix(&x) % (*end + 1);
	for (unsigned i = 0; i < n; i++) {
		uint64_t from = rpl_position(r);

		if (rpl_seek(r, pos[i]) < 0)
			goto out;
		if (rpl_position(r) != pos[i]) {
			error("random access: seeking position %llu ends at %llu",
			      (unsigned long long)pos[i], (unsigned long long)rpl_position(r));
			goto out;
		}
		if (pos[i] >= from)
			++*forward;
		else
			++*backward;
		for (int c = 0; c < ncores; c++)
			p[np++] = (struct cf_probe){ rpl_core_steps(r, c),
						     isa_cpu_get(rpl_cpu(r, c), ISA_R_PC), i, c };
		/* nothing but the PCs may be claimed known */
		if (rpl_read_mem(r, 0x20000000u, b, 4, &u) != 1 || u != 0x20000000u ||
		    rpl_read_mem(r, 0x00000000u, b, 4, &u) != 1) {
			error("random access: a control-flow-only replay claims to know memory");
			goto out;
		}
	}
	qsort(p, np, sizeof(*p), by_steps);
	path = xmalloc(strlen(rpl_dir(r)) + strlen(mf->truth_file) + 2);
	sprintf(path, "%s/%s", rpl_dir(r), mf->truth_file);
	ret = check_cf_truth(path, p, np, pos);
	free(path);
out:
	free(p);
	free(pos);
	return ret;
}

/* ---- memory: what the recording determines, against the truth's whole memory ------- */

/*
 * The truth's picture of ROM and SRAM, byte by byte: its value (the ELF's
 * image, else 0 as the board starts, then every store), and flags.
 */
#define MEM_BYTES (BOARD_ROM_SIZE + BOARD_SRAM_SIZE)
#define MEM_PAGE 4096u
enum {
	TM_KNOWN = 1,	  /* the ELF's image, or accessed before the position */
	TM_LOAD_FIRST = 2, /* its first access in the whole recording is a load */
	TM_TOUCHED = 4,	  /* accessed at all */
};

struct tmem {
	uint8_t *val, *flag;
	uint8_t *page_used; /* per page: some byte touched */
};

static int tm_index(uint32_t addr, size_t *i)
{
	int64_t off = board_mem_offset(addr, 1);

	if (off < 0)
		return -1; /* a peripheral */
	*i = (size_t)off;
	return 0;
}

/* The address of byte i of the storage on the board of the recording. */
static uint32_t tm_addr(const struct board_mem *bm, size_t i)
{
	return i < BOARD_ROM_SIZE ? bm->rom_base + (uint32_t)i
				  : bm->sram_base + (uint32_t)(i - BOARD_ROM_SIZE);
}

static int tm_elf(void *ctx, uint32_t addr, const uint8_t *data, size_t len)
{
	struct tmem *m = ctx;
	size_t i;

	for (size_t k = 0; k < len; k++) {
		if (tm_index(addr + (uint32_t)k, &i))
			return -1;
		m->val[i] = data[k];
		m->flag[i] |= TM_KNOWN;
	}
	return 0;
}

/* Pass 1: which bytes are first loaded, which touched at all. */
static int tm_first(struct tmem *m, const char *path)
{
	struct st_truth_reader *t = st_truth_open(path);
	struct st_truth_rec rec;
	int s;

	if (!t)
		return -1;
	while ((s = st_truth_next(t, &rec)) == 1) {
		if (rec.type != ST_TRUTH_ACCESS)
			continue;
		for (unsigned k = 0; k < rec.size; k++) {
			size_t i;

			if (tm_index(rec.addr + k, &i))
				break;
			if (!(m->flag[i] & TM_TOUCHED) && !rec.store)
				m->flag[i] |= TM_LOAD_FIRST;
			m->flag[i] |= TM_TOUCHED;
			m->page_used[i / MEM_PAGE] = 1;
		}
	}
	st_truth_close_reader(t);
	return s < 0 ? -1 : 0;
}

/*
 * At the replay's position: every byte of the touched pages the replay can
 * read must equal the truth; every byte the recording determines (known
 * before the position, or first loaded later) must be readable.
 */
static int tm_compare(struct rpl *r, const struct tmem *m, struct rpl_check_mem *cm)
{
	unsigned long long pos = rpl_position(r);
	struct board_mem bm = rpl_board_mem(r);

	for (size_t pg = 0; pg < MEM_BYTES / MEM_PAGE; pg++) {
		if (!m->page_used[pg])
			continue;
		for (size_t i = pg * MEM_PAGE; i < (pg + 1) * MEM_PAGE; i++) {
			uint32_t a = tm_addr(&bm, i);
			int det = m->flag[i] & (TM_KNOWN | TM_LOAD_FIRST);
			uint8_t b;

			if (rpl_read_mem(r, a, &b, 1, NULL)) {
				if (det)
					return error("memory at position %llu: the recording "
						     "determines the byte at 0x%08x (0x%02x), the "
						     "replay does not know it", pos, a, m->val[i]);
				cm->unknown++;
				continue;
			}
			if (b != m->val[i])
				return error("memory at position %llu: the byte at 0x%08x reads "
					     "0x%02x, the truth 0x%02x", pos, a, b, m->val[i]);
			if (det)
				cm->determined++;
			else
				cm->extra++;
			if (det == TM_LOAD_FIRST)
				cm->later++;
		}
	}
	cm->probes++;
	return 0;
}

/*
 * The memory check of --random: the beginning (where only the initial
 * image tells most of memory), then at most MEM_PROBES of the positions (in
 * increasing order, spread over all of them); the truth read twice (first
 * accesses, then the picture as it goes).
 */
#define MEM_PROBES 24
static int check_memory(struct rpl *r, const char *path, const struct probe *p, unsigned n,
			struct rpl_check_mem *cm)
{
	const struct st_manifest *mf = rpl_manifest(r);
	struct tmem m;
	struct st_truth_reader *t = NULL;
	struct st_truth_rec rec;
	struct isa_elf elf;
	unsigned want = (n < MEM_PROBES ? n : MEM_PROBES) + 1, k = 0;
	uint64_t pos = 0, *at = xmalloc(want * sizeof(*at));
	char *elf_path = xmalloc(strlen(rpl_dir(r)) + strlen(mf->elf) + 2);
	int ret = -1, s, ncores = rpl_ncores(r);

	sprintf(elf_path, "%s/%s", rpl_dir(r), mf->elf);
	at[0] = 0;
	for (unsigned i = 1; i < want; i++)
		at[i] = p[(size_t)(i - 1) * n / (want - 1)].position;
	m.val = xcalloc(MEM_BYTES, 1);
	m.flag = xcalloc(MEM_BYTES, 1);
	m.page_used = xcalloc(MEM_BYTES / MEM_PAGE, 1);
	memset(&elf, 0, sizeof(elf));
	if (isa_elf_load(elf_path, tm_elf, &m, &elf)) {
		isa_elf_release(&elf);
		goto out;
	}
	isa_elf_release(&elf);
	if (tm_first(&m, path) || !(t = st_truth_open(path)))
		goto out;
	while (k < want && (s = st_truth_next(t, &rec)) == 1) {
		if (rec.type == ST_TRUTH_ACCESS) {
			for (unsigned b = 0; b < rec.size; b++) {
				size_t i;

				if (tm_index(rec.addr + b, &i))
					break;
				if (rec.store)
					m.val[i] = (uint8_t)(rec.value >> (8 * b));
				m.flag[i] |= TM_KNOWN;
			}
			continue;
		}
		if (rec.type == ST_TRUTH_INSN && !(rec.flags & ST_TRUTH_FAULTED))
			pos++;
		else if (!(rec.type == ST_TRUTH_RESET && rec.core == ncores - 1))
			continue;
		while (k < want && at[k] == pos) {
			if (rpl_seek(r, pos) < 0 || tm_compare(r, &m, cm))
				goto out;
			k++;
		}
	}
	if (k < want) {
		error("%s: the ground truth ends before position %llu", path,
		      (unsigned long long)at[k]);
		goto out;
	}
	ret = 0;
out:
	if (t)
		st_truth_close_reader(t);
	free(m.val);
	free(m.flag);
	free(m.page_used);
	free(elf_path);
	free(at);
	return ret;
}

int rpl_check_random(struct rpl *r, unsigned n, uint64_t seed, uint64_t *end,
		     unsigned *forward, unsigned *backward, struct rpl_check_mem *cm)
{
	const struct st_manifest *mf = rpl_manifest(r);
	struct core_state *states;
	struct probe *p;
	uint64_t x = seed;
	unsigned *order;
	char *path;
	int ret = -1, ncores = rpl_ncores(r);

	*forward = *backward = 0;
	memset(cm, 0, sizeof(*cm));
	if (!mf->has_truth)
		return error("--random needs a recording with a ground truth (--truth)");
	if (!rpl_regs_known(r))
		return check_random_cf(r, n, seed, end, forward, backward);
	if (rpl_index(r))
		return -1;
	*end = rpl_position(r);
	p = xcalloc(n ? n : 1, sizeof(*p));
	order = xcalloc(n ? n : 1, sizeof(*order));
	for (unsigned i = 0; i < n; i++) {
		p[i].position = splitmix(&x) % (*end + 1);
		order[i] = i;
	}
	qsort(p, n, sizeof(*p), by_position);
	states = xcalloc((size_t)(n ? n : 1) * ncores, sizeof(*states));
	for (unsigned i = 0; i < n; i++)
		p[i].core = states + (size_t)i * ncores;
	path = xmalloc(strlen(rpl_dir(r)) + strlen(mf->truth_file) + 2);
	sprintf(path, "%s/%s", rpl_dir(r), mf->truth_file);
	if (read_truth(path, ncores, p, n))
		goto out;
	for (unsigned i = n; i > 1; i--) { /* shuffle the visiting order */
		unsigned j = (unsigned)(splitmix(&x) % i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct probe *q = &p[order[i]];
		uint64_t from = rpl_position(r);
		uint8_t b[4];

		if (rpl_seek(r, q->position) < 0)
			goto out;
		if (rpl_position(r) != q->position) {
			error("random access: seeking position %llu ends at %llu",
			      (unsigned long long)q->position,
			      (unsigned long long)rpl_position(r));
			goto out;
		}
		if (q->position >= from)
			++*forward;
		else
			++*backward;
		for (int c = 0; c < ncores; c++) {
			struct isa_cpu *cpu = rpl_cpu(r, c);
			const struct core_state *t = &q->core[c];
			uint32_t fp[ISA_NFPREGS];
			unsigned nfp;

			for (int k = 0; k < ISA_NREGS; k++)
				if (isa_cpu_get(cpu, k) != t->regs[k]) {
					error("random access: position %llu (reached %s from %llu): "
					      "core %d register %d is 0x%08x, the truth 0x%08x",
					      (unsigned long long)q->position,
					      q->position >= from ? "forward" : "backward",
					      (unsigned long long)from, c, k, isa_cpu_get(cpu, k),
					      t->regs[k]);
					goto out;
				}
			nfp = isa_cpu_get_fp(cpu, fp);
			if (!nfp != !t->has_fp) {
				error("random access: position %llu: core %d %s, the truth %s (a "
				      "mismatched core model)", (unsigned long long)q->position, c,
				      nfp ? "has an FPU" : "has no FPU",
				      t->has_fp ? "has FP registers" : "has no FP registers");
				goto out;
			}
			for (unsigned k = 0; k < nfp; k++)
				if (fp[k] != t->fp[k]) {
					error("random access: position %llu (reached %s from %llu): "
					      "core %d %s is 0x%08x, the truth 0x%08x",
					      (unsigned long long)q->position,
					      q->position >= from ? "forward" : "backward",
					      (unsigned long long)from, c, isa_fp_name(k), fp[k],
					      t->fp[k]);
					goto out;
				}
			if (nfp)
				cm->fp_states++;
		}
		if (!q->have || rpl_read_mem(r, q->addr, b, q->size, NULL) != 0)
			continue; /* a peripheral, or bytes the debugger does not know */
		for (unsigned k = 0; k < q->size; k++)
			if (b[k] != (uint8_t)(q->value >> (8 * k))) {
				error("random access: position %llu: the %u bytes at 0x%08x differ "
				      "from the truth", (unsigned long long)q->position, q->size,
				      q->addr);
				goto out;
			}
	}
	ret = check_memory(r, path, p, n, cm);
out:
	free(path);
	free(order);
	free(states);
	free(p);
	return ret;
}

/* ---- breakpoints, watchpoints and single steps against the truth ------------ */

struct bp_probe {
	uint32_t pc;
	int seen;
	uint64_t first_pos, last_pos; /* instructions retired before it */
	int first_core, last_core;
};

struct wp_probe {
	uint32_t addr;
	unsigned size;
	int seen;
	uint64_t first_pos, last_pos; /* instructions retired after the store */
	int first_core, last_core;
};

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Pass 1 picks PCs and store addresses at random records, pass 2 finds their first and last. */
static int scan_truth(const char *path, uint64_t *x, struct bp_probe *bp, unsigned nbp,
		      struct wp_probe *wp, unsigned nwp)
{
	struct st_truth_reader *t;
	struct st_truth_rec rec;
	uint64_t total = 0, pos, want_i[64], want_a[64];
	unsigned ki = 0, ka = 0;
	int s;

	for (int pass = 0; pass < 2; pass++) {
		uint64_t i = 0;

		if (!(t = st_truth_open(path)))
			return -1;
		pos = 0;
		if (pass == 1) {
			for (unsigned k = 0; k < nbp; k++)
				want_i[k] = splitmix(x) % (total ? total : 1);
			for (unsigned k = 0; k < nwp; k++)
				want_a[k] = splitmix(x) % (total ? total : 1);
			qsort(want_i, nbp, sizeof(*want_i), by_u64);
			qsort(want_a, nwp, sizeof(*want_a), by_u64);
		}
		while ((s = st_truth_next(t, &rec)) == 1) {
			i++;
			if (pass == 0)
				continue;
			/* the first instruction / store at or after each wanted record */
			if (rec.type == ST_TRUTH_INSN && !(rec.flags & ST_TRUTH_FAULTED)) {
				while (ki < nbp && i >= want_i[ki] && pos)
					bp[ki++].pc = rec.pc;
				pos++;
			}
			if (rec.type == ST_TRUTH_ACCESS && rec.store && rec.kind == ISA_ACC_STORE)
				while (ka < nwp && i >= want_a[ka]) {
					wp[ka].addr = rec.addr;
					wp[ka++].size = rec.size;
				}
		}
		st_truth_close_reader(t);
		if (s < 0)
			return -1;
		total = i;
	}
	/* pass 3: first and last occurrence of each */
	if (!(t = st_truth_open(path)))
		return -1;
	pos = 0;
	while ((s = st_truth_next(t, &rec)) == 1) {
		if (rec.type == ST_TRUTH_INSN && !(rec.flags & ST_TRUTH_FAULTED)) {
			for (unsigned k = 0; k < nbp; k++)
				if (bp[k].pc == rec.pc) {
					if (!bp[k].seen++) {
						bp[k].first_pos = pos;
						bp[k].first_core = rec.core;
					}
					bp[k].last_pos = pos;
					bp[k].last_core = rec.core;
				}
			pos++;
		}
		if (rec.type == ST_TRUTH_ACCESS && rec.store &&
		    (rec.kind == ISA_ACC_STORE || rec.kind == ISA_ACC_STREX))
			for (unsigned k = 0; k < nwp; k++)
				if (wp[k].size && rec.addr < wp[k].addr + wp[k].size &&
				    wp[k].addr < rec.addr + rec.size) {
					/* the store's instruction is the next 'I' record: pos + 1 after it */
					if (!wp[k].seen++) {
						wp[k].first_pos = pos + 1;
						wp[k].first_core = rec.core;
					}
					wp[k].last_pos = pos + 1;
					wp[k].last_core = rec.core;
				}
	}
	st_truth_close_reader(t);
	return s < 0 ? -1 : 0;
}

static int expect_stop(const struct rpl_stop *st, enum rpl_stop_kind kind, uint64_t pos,
		       int core, const char *what)
{
	if (st->kind == kind && st->position == pos && st->core == core)
		return 0;
	return error("%s: stopped (kind %d) at position %llu on core %d, the truth says "
		     "position %llu on core %d", what, st->kind, (unsigned long long)st->position,
		     st->core, (unsigned long long)pos, core);
}

/* ---- control flow only: breakpoints per core ------------------------------------------ */

/* Where a PC occurs in each core's own instruction sequence (instructions before it). */
struct cf_bp {
	uint64_t first[ST_TRUTH_MAX_CORES], last[ST_TRUTH_MAX_CORES];
	uint8_t seen[ST_TRUTH_MAX_CORES];
};

static int scan_truth_cf(const char *path, const struct bp_probe *bp, unsigned n,
			 struct cf_bp *cb)
{
	struct st_truth_reader *t = st_truth_open(path);
	uint64_t k[ST_TRUTH_MAX_CORES] = { 0 };
	struct st_truth_rec rec;
	int s;

	if (!t)
		return -1;
	while ((s = st_truth_next(t, &rec)) == 1) {
		if (rec.type != ST_TRUTH_INSN || (rec.flags & ST_TRUTH_FAULTED))
			continue;
		for (unsigned i = 0; i < n; i++)
			if (bp[i].pc == rec.pc) {
				if (!cb[i].seen[rec.core]) {
					cb[i].seen[rec.core] = 1;
					cb[i].first[rec.core] = k[rec.core];
				}
				cb[i].last[rec.core] = k[rec.core];
			}
		k[rec.core]++;
	}
	st_truth_close_reader(t);
	return s < 0 ? -1 : 0;
}

/*
 * A breakpoint stop of a control-flow-only replay: the core that stopped
 * must be about to execute the PC, as its instruction `want` in its own
 * order (the first or last it has there); every other core must not have
 * passed its own first occurrence (forward from the beginning) or must be
 * past its own last one (backward from the end).
 */
static int expect_cf_break(struct rpl *r, const struct rpl_stop *st, uint32_t pc,
			   const struct cf_bp *cb, int last, const char *what)
{
	int c = st->core;

	if (st->kind != RPL_STOP_BREAK || c < 0 || c >= rpl_ncores(r) || !cb->seen[c] ||
	    isa_cpu_get(rpl_cpu(r, c), ISA_R_PC) != pc ||
	    rpl_core_insns(r, c) != (last ? cb->last[c] : cb->first[c]))
		return error("%s: stopped (kind %d) on core %d after its instruction %llu, at pc "
			     "0x%08x; the truth has that core's %s there at its instruction %llu",
			     what, st->kind, c, (unsigned long long)rpl_core_insns(r, c),
			     c >= 0 && c < rpl_ncores(r) ? isa_cpu_get(rpl_cpu(r, c), ISA_R_PC) : 0,
			     last ? "last" : "first",
			     c >= 0 && c < ST_TRUTH_MAX_CORES && cb->seen[c]
				     ? (unsigned long long)(last ? cb->last[c] : cb->first[c])
				     : 0ull);
	for (int j = 0; j < rpl_ncores(r); j++) {
		if (j == c || !cb->seen[j])
			continue;
		if (last ? rpl_core_insns(r, j) <= cb->last[j]
			 : rpl_core_insns(r, j) > cb->first[j])
			return error("%s: stopped on core %d, but core %d (%llu instructions) has %s "
				     "its %s occurrence (its instruction %llu)", what, c, j,
				     (unsigned long long)rpl_core_insns(r, j),
				     last ? "not yet run" : "passed", last ? "last" : "first",
				     (unsigned long long)(last ? cb->last[j] : cb->first[j]));
	}
	return 0;
}

static int check_points_cf(struct rpl *r, const char *path, struct bp_probe *bp, unsigned n,
			   unsigned *checks)
{
	struct cf_bp *cb = xcalloc(n ? n : 1, sizeof(*cb));
	struct rpl_stop st;
	char what[96];
	int ret = -1;

	if (scan_truth_cf(path, bp, n, cb))
		goto out;
	for (unsigned k = 0; k < n; k++) {
		if (!bp[k].seen || !bp[k].first_pos)
			continue;
		snprintf(what, sizeof(what), "breakpoint at 0x%08x", bp[k].pc);
		if (rpl_break(r, bp[k].pc, 1) || rpl_seek(r, 0) < 0 || rpl_continue(r, 0, &st) ||
		    expect_cf_break(r, &st, bp[k].pc, &cb[k], 0, what) ||
		    rpl_seek(r, UINT64_MAX) < 0 || rpl_continue(r, 1, &st) ||
		    expect_cf_break(r, &st, bp[k].pc, &cb[k], 1, what) ||
		    rpl_break(r, bp[k].pc, 0))
			goto out;
		*checks += 2;
	}
	/* no data addresses: a watchpoint must be refused, not silently never hit */
	error_quiet(1);
	if (!rpl_watch(r, 0x20000000u, 4, RPL_WATCH_WRITE, 1)) {
		error_quiet(-1);
		error("a control-flow-only replay accepted a watchpoint");
		goto out;
	}
	error_quiet(-1);
	ret = 0;
out:
	free(cb);
	return ret;
}

int rpl_check_points(struct rpl *r, unsigned n, uint64_t seed, unsigned *checks)
{
	const struct st_manifest *mf = rpl_manifest(r);
	struct bp_probe bp[64] = { { 0 } };
	struct wp_probe wp[64] = { { 0 } };
	struct rpl_stop st;
	uint64_t x = seed;
	char *path, what[96];
	int ret = -1;

	*checks = 0;
	if (n > 64)
		n = 64;
	if (!mf->has_truth)
		return error("--check-points needs a recording with a ground truth (--truth)");
	if (rpl_index(r))
		return -1;
	path = xmalloc(strlen(rpl_dir(r)) + strlen(mf->truth_file) + 2);
	sprintf(path, "%s/%s", rpl_dir(r), mf->truth_file);
	if (scan_truth(path, &x, bp, n, wp, n))
		goto out;
	if (!rpl_regs_known(r)) {
		if (check_points_cf(r, path, bp, n, checks))
			goto out;
		goto stepi;
	}
	for (unsigned k = 0; k < n; k++) {
		if (!bp[k].seen || !bp[k].first_pos)
			continue;
		snprintf(what, sizeof(what), "breakpoint at 0x%08x", bp[k].pc);
		if (rpl_break(r, bp[k].pc, 1) || rpl_seek(r, 0) < 0 ||
		    rpl_continue(r, 0, &st) ||
		    expect_stop(&st, RPL_STOP_BREAK, bp[k].first_pos, bp[k].first_core, what) ||
		    rpl_seek(r, UINT64_MAX) < 0 || rpl_continue(r, 1, &st) ||
		    expect_stop(&st, RPL_STOP_BREAK, bp[k].last_pos, bp[k].last_core, what) ||
		    rpl_break(r, bp[k].pc, 0))
			goto out;
		*checks += 2;
	}
	for (unsigned k = 0; k < n; k++) {
		if (!wp[k].seen)
			continue;
		snprintf(what, sizeof(what), "write watchpoint on %u bytes at 0x%08x", wp[k].size,
			 wp[k].addr);
		if (rpl_watch(r, wp[k].addr, wp[k].size, RPL_WATCH_WRITE, 1) || rpl_seek(r, 0) < 0 ||
		    rpl_continue(r, 0, &st) ||
		    expect_stop(&st, RPL_STOP_WATCH, wp[k].first_pos, wp[k].first_core, what) ||
		    rpl_seek(r, UINT64_MAX) < 0 || rpl_continue(r, 1, &st) ||
		    expect_stop(&st, RPL_STOP_WATCH, wp[k].last_pos, wp[k].last_core, what) ||
		    rpl_watch(r, wp[k].addr, wp[k].size, RPL_WATCH_WRITE, 0))
			goto out;
		*checks += 2;
	}
stepi:
	/* stepi N forward then N backward: back at the same step, the same registers */
	for (unsigned k = 0; k < n; k++) {
		uint64_t end, at, p = splitmix(&x);
		int core = (int)(splitmix(&x) % (unsigned)rpl_ncores(r));
		uint32_t regs[ST_TRUTH_MAX_CORES][ISA_NREGS];
		unsigned steps = 1 + (unsigned)(splitmix(&x) % 40), done = 0;

		if (rpl_seek(r, UINT64_MAX) < 0)
			goto out;
		end = rpl_position(r);
		if (rpl_seek(r, p % (end + 1)) < 0 || rpl_stepi(r, core, 1, &st))
			goto out;
		at = rpl_steps(r);
		for (int c = 0; c < rpl_ncores(r); c++)
			for (int i = 0; i < ISA_NREGS; i++)
				regs[c][i] = isa_cpu_get(rpl_cpu(r, c), i);
		for (; done < steps; done++) {
			if (rpl_stepi(r, core, 0, &st))
				goto out;
			if (st.kind != RPL_STOP_STEP)
				break;
		}
		for (unsigned i = 0; i < done; i++)
			if (rpl_stepi(r, core, 1, &st))
				goto out;
		if (rpl_steps(r) != at) {
			error("stepi: %u steps of core %d forward and back end at step %llu, not %llu",
			      done, core, (unsigned long long)rpl_steps(r), (unsigned long long)at);
			goto out;
		}
		for (int c = 0; c < rpl_ncores(r); c++)
			for (int i = 0; i < ISA_NREGS; i++)
				if (regs[c][i] != isa_cpu_get(rpl_cpu(r, c), i)) {
					error("stepi: %u steps of core %d forward and back: core %d "
					      "register %d differs", done, core, c, i);
					goto out;
				}
		*checks += 1;
	}
	ret = 0;
out:
	free(path);
	return ret;
}

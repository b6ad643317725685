#include "replay/check.h"

#include <stdlib.h>
#include <string.h>

#include "streams/truth.h"

struct probe {
	uint64_t position;
	uint32_t regs[ST_TRUTH_MAX_CORES][ISA_NREGS];
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
	uint32_t regs[ST_TRUTH_MAX_CORES][ISA_NREGS];
	int have = 0;
	uint32_t addr = 0, value = 0;
	unsigned size = 0;
	uint64_t pos = 0;
	unsigned k = 0;
	int s;

	if (!t)
		return -1;
	while ((s = st_truth_next(t, &rec)) == 1) {
		switch (rec.type) {
		case ST_TRUTH_RESET:
		case ST_TRUTH_EXC:
			memcpy(regs[rec.core], rec.regs, sizeof(rec.regs));
			break;
		case ST_TRUTH_ACCESS:
			have = 1;
			addr = rec.addr;
			value = rec.value;
			size = rec.size;
			break;
		case ST_TRUTH_INSN:
			memcpy(regs[rec.core], rec.regs, sizeof(rec.regs));
			if (!(rec.flags & ST_TRUTH_FAULTED))
				pos++;
			break;
		case ST_TRUTH_EXIT:
			break;
		}
		/* a probe is the state right after the record that retired its instruction */
		if (rec.type == ST_TRUTH_RESET && rec.core != ncores - 1)
			continue;
		if (rec.type != ST_TRUTH_INSN && rec.type != ST_TRUTH_RESET)
			continue;
		while (k < n && p[k].position == pos) {
			memcpy(p[k].regs, regs, sizeof(regs));
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

int rpl_check_random(struct rpl *r, unsigned n, uint64_t seed, uint64_t *end,
		     unsigned *forward, unsigned *backward)
{
	const struct st_manifest *mf = rpl_manifest(r);
	struct probe *p;
	uint64_t x = seed;
	unsigned *order;
	char *path;
	int ret = -1, ncores = rpl_ncores(r);

	*forward = *backward = 0;
	if (!mf->has_truth)
		return error("--random needs a recording with a ground truth (--truth)");
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

			for (int k = 0; k < ISA_NREGS; k++)
				if (isa_cpu_get(cpu, k) != q->regs[c][k]) {
					error("random access: position %llu (reached %s from %llu): "
					      "core %d register %d is 0x%08x, the truth 0x%08x",
					      (unsigned long long)q->position,
					      q->position >= from ? "forward" : "backward",
					      (unsigned long long)from, c, k, isa_cpu_get(cpu, k),
					      q->regs[c][k]);
					goto out;
				}
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
	ret = 0;
out:
	free(path);
	free(order);
	free(p);
	return ret;
}

#include "replay/summary.h"

void rpl_sum_access(struct rpl_summary *s, uint32_t addr, unsigned size, int store)
{
	uint64_t *map = store ? s->wr : s->rd;
	unsigned a = rpl_sum_block_bit(addr >> 4), b = rpl_sum_block_bit((addr + size - 1) >> 4);

	map[a / 64] |= 1ull << (a % 64);
	map[b / 64] |= 1ull << (b % 64); /* an access that crosses a block */
}

int rpl_sum_may_pc(const struct rpl_summary *s, uint32_t pc)
{
	unsigned b = rpl_sum_pc_bit(pc);

	return !s->sealed || (s->pc[b / 64] >> (b % 64) & 1);
}

int rpl_sum_may_access(const struct rpl_summary *s, uint32_t addr, uint32_t len, int reads,
		       int writes)
{
	uint64_t last = (uint64_t)addr + (len ? len : 1) - 1;

	if (!s->sealed)
		return 1;
	/* every block the range touches (a huge range: surely maybe) */
	if ((last >> 4) - (addr >> 4) >= RPL_SUM_DATA_BITS)
		return 1;
	for (uint64_t blk = addr >> 4; blk <= last >> 4; blk++) {
		unsigned b = rpl_sum_block_bit((uint32_t)blk);

		if ((reads && (s->rd[b / 64] >> (b % 64) & 1)) ||
		    (writes && (s->wr[b / 64] >> (b % 64) & 1)))
			return 1;
	}
	return 0;
}

/*
 * etm_ocsd_region (etm/ocsd.h), in an object of its own: the MTB decoder
 * and the trace ports (etm/port.h) look code up with it, and what links
 * them without decoding ETM trace (raptor stat) must not pull in ocsd.o,
 * which needs libopencsd.
 */
#include "etm/ocsd.h"

const struct etm_region *etm_ocsd_region(const struct etm_ocsd_mem *m, uint32_t addr, uint32_t len)
{
	for (int i = 0; i < m->n; i++) {
		const struct etm_region *r = &m->regions[i];

		if (addr >= r->base && (uint64_t)addr - r->base + len <= r->size)
			return r;
	}
	return NULL;
}

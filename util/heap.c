/*
 * heap: transparent huge pages for the malloc heap (util/heap.h).
 */
#include "util/heap.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE ((uintptr_t)2 << 20)

static int on;
static uintptr_t advised; /* the heap is advised up to here (2 MiB-aligned) */

void heap_hugepages_init(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return;
#else
	if (on || getenv("RAPTOR_NO_HUGEPAGES"))
		return;
	/* checkpoint states (hundreds of KiB) from the heap, not a mapping each */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TOP_PAD, 32 << 20);
	advised = ((uintptr_t)sbrk(0) + HUGE - 1) & ~(HUGE - 1);
	on = 1;
	heap_hugepages_grow();
#endif
}

void heap_hugepages_grow(void)
{
	uintptr_t top;

	if (!on)
		return;
	top = (uintptr_t)sbrk(0) & ~(HUGE - 1);
	if (top <= advised)
		return;
	/* fails harmlessly (EINVAL) on a kernel without THP */
	madvise((void *)advised, top - advised, MADV_HUGEPAGE);
	advised = top;
}

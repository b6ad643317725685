/*
 * heap: transparent huge pages for the malloc heap (util/heap.h).
 */
#include "util/heap.h"

#include <malloc.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE ((uintptr_t)2 << 20)

#if defined(__SANITIZE_ADDRESS__)
#define HEAP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEAP_ASAN 1
#endif
#endif

static int on;
static uintptr_t advised; /* the heap is advised up to here (2 MiB-aligned) */

void heap_hugepages_init(void)
{
#ifdef HEAP_ASAN
	return;
#else
	if (on || !getenv("RAPTOR_HUGEPAGES") || !strcmp(getenv("RAPTOR_HUGEPAGES"), "0"))
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

uint64_t heap_resident(void)
{
#ifdef HEAP_ASAN
	return 0;
#else
	unsigned long long size, resident;
	FILE *f = fopen("/proc/self/statm", "r");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%llu %llu", &size, &resident);
	fclose(f);
	return n == 2 ? (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE) : 0;
#endif
}

void heap_trim(void)
{
	malloc_trim(0);
}

/*
 * heap: transparent huge pages for the malloc heap of a replay (opt-in),
 * and the resident size and trimming the replay's budget uses.
 *
 * A replay lays a checkpoint down every few ten thousand instructions:
 * a few hundred KiB of caches, predictors and registers (330 KiB at 8
 * cores), and copies of the memory pages written since. From malloc, that
 * memory faults in 4 KiB at a time, and in a virtual machine each fault
 * is costly: a quarter of an 8-core replay's CPU time went to them. With
 * the heap on 2 MiB pages it faults once per 2 MiB (what glibc's tunable
 * glibc.malloc.hugetlb=1 does, which a program cannot set for itself).
 *
 * heap_hugepages_init makes large blocks come from the heap too (not one
 * mapping each) and the heap grow in large steps; heap_hugepages_grow,
 * called at each checkpoint, asks for huge pages over what the heap has
 * grown by since. Neither changes what a program allocates or may free.
 *
 * Off unless the environment sets RAPTOR_HUGEPAGES=1, and always under
 * AddressSanitizer (its own allocator). Since the checkpoint states are
 * compressed in place (replay/ckstore.c), huge pages no longer pay: an
 * 8-core 10^8-instruction replay took 7.2-7.6 s of CPU without them and
 * 8.0 s with them (more system time), and the kernel's khugepaged fills
 * the 2 MiB regions the allocator has handed back, so a 10^9-instruction
 * `raptor index` peaked at 577 MiB resident against 496 MiB without,
 * over its 512 MiB budget.
 */
#ifndef RAPTOR_HEAP_H
#define RAPTOR_HEAP_H

#include <stdint.h>

void heap_hugepages_init(void);
void heap_hugepages_grow(void);

/*
 * The process's resident memory in bytes (/proc/self/statm), or 0 where it
 * cannot be known or means nothing: under AddressSanitizer, whose shadow
 * and quarantine count in it.
 */
uint64_t heap_resident(void);
/* Hand the heap's free pages back to the system (malloc_trim). */
void heap_trim(void);

#endif

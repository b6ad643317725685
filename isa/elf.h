/*
 * elf: load a guest ELF with libelf (PT_LOAD segments at their physical,
 * i.e. load, addresses, as QEMU does) and keep its symbols for messages.
 */
#ifndef RAPTOR_ISA_ELF_H
#define RAPTOR_ISA_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

struct isa_sym {
	uint32_t addr, size;
	char *name;
};

struct isa_elf {
	char *path;
	uint32_t entry;
	size_t nsyms;
	struct isa_sym *syms; /* functions and objects, sorted by address */
	uint64_t file_size;
	uint8_t sha256[32];   /* of the whole file */
	char sha256_hex[65];
};

/* Called once per loadable byte range; 0 or -1 (e.g. outside memory). */
typedef int (*isa_elf_write_fn)(void *ctx, uint32_t addr, const uint8_t *data, size_t len);

/*
 * Read path, check it is a 32-bit little-endian ARM executable, hand every
 * PT_LOAD segment to write() (file bytes, then zeroes up to p_memsz) and
 * fill *elf. Returns 0, or -1 with an error naming the file and the problem.
 * With write == NULL only the checks, hash and symbols are done.
 */
int isa_elf_load(const char *path, isa_elf_write_fn write, void *ctx,
		 struct isa_elf *elf) MUST_CHECK;

/* Symbol containing addr (Thumb bit ignored), or NULL; *off gets addr - sym. */
const struct isa_sym *isa_elf_symbol(const struct isa_elf *elf, uint32_t addr, uint32_t *off);

/* Address of a symbol by name; 0 on success, -1 if absent. */
int isa_elf_lookup(const struct isa_elf *elf, const char *name, uint32_t *addr) MUST_CHECK;

void isa_elf_release(struct isa_elf *elf);

#endif

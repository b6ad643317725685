/*
 * fuzz_elf: isa/elf.c's loader (libelf underneath) on arbitrary files, as
 * the replay calls it: once with checks only (write == NULL), then loading
 * every segment into the board's memory map (ROM 4 MiB at 0, SRAM 4 MiB at
 * 0x20000000; anything else refused, as replay/mem.c does). Then the
 * symbol lookups the messages use. First the build attributes
 * (isa/attrs.c), as run and record read them before loading.
 *
 * Oracle, besides the sanitizers: both loads agree (same verdict, same
 * hash, same symbols), and a loaded segment is handed over in full (every
 * byte of it is read here, so ASan sees a short buffer).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/attrs.h"
#include "isa/elf.h"
#include "tests/fuzz/fuzz_util.h"
#include "util/util.h"

#define ROM_SIZE (4u << 20)
#define SRAM_BASE 0x20000000u
#define SRAM_SIZE (4u << 20)

static char *path;
static uint8_t *rom, *sram;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	path = fz_join(fz_tmpdir(), "program.elf");
	rom = malloc(ROM_SIZE);
	sram = malloc(SRAM_SIZE);
	if (!rom || !sram)
		abort();
	error_quiet(1);
	return 0;
}

static int load(void *ctx, uint32_t addr, const uint8_t *data, size_t len)
{
	uint64_t end = (uint64_t)addr + len;

	if (end <= ROM_SIZE)
		memcpy(rom + addr, data, len);
	else if (addr >= SRAM_BASE && end <= (uint64_t)SRAM_BASE + SRAM_SIZE)
		memcpy(sram + (addr - SRAM_BASE), data, len);
	else
		return -1;
	(*(size_t *)ctx) += len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct isa_elf a, b;
	struct isa_attrs at;
	enum isa_model m;
	char desc[128];
	size_t loaded = 0;
	uint32_t addr, off;
	int ka, kb;

	fz_write(path, data, size);
	if (!isa_attrs_read(path, &at)) {
		(void)isa_attrs_model(&at, &m);
		isa_attrs_describe(&at, desc, sizeof(desc));
		if (!memchr(desc, 0, sizeof(desc)))
			abort();
	}
	ka = isa_elf_load(path, NULL, NULL, &a);
	kb = isa_elf_load(path, load, &loaded, &b);
	if (ka < 0) {
		if (!kb) {
			fprintf(stderr, "fuzz: refused by the checks, loaded by the load\n");
			abort();
		}
		return 0;
	}
	if (!kb) {
		if (strcmp(a.sha256_hex, b.sha256_hex) || a.nsyms != b.nsyms ||
		    a.entry != b.entry || a.file_size != size) {
			fprintf(stderr, "fuzz: the two loads disagree\n");
			abort();
		}
		for (size_t i = 0; i < b.nsyms; i++) {
			const struct isa_sym *s = isa_elf_symbol(&b, b.syms[i].addr, &off);

			if (!s || off || isa_elf_lookup(&b, b.syms[i].name, &addr)) {
				fprintf(stderr, "fuzz: symbol %s not found again\n",
					b.syms[i].name);
				abort();
			}
			if (i && b.syms[i].addr < b.syms[i - 1].addr) {
				fprintf(stderr, "fuzz: symbols not sorted\n");
				abort();
			}
		}
		(void)isa_elf_symbol(&b, b.entry, &off);
		(void)isa_elf_symbol(&b, 0xffffffffu, &off);
		isa_elf_release(&b);
	}
	isa_elf_release(&a);
	return 0;
}

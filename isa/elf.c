#include "isa/elf.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_sym(const void *a, const void *b)
{
	const struct isa_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * The hashes of the files hashed last, by identity: device, inode, size,
 * and the modification and status-change times to the nanosecond (the
 * latter cannot be set back by anyone, so a rewritten file never matches).
 * Reopening the same program (serve's vRun, the fuzz targets, raptor
 * index then serve in one process) then costs no SHA-256 of the whole ELF.
 */
struct hash_memo {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtim, ctim;
	uint8_t sha256[32];
	int used;
};
static struct hash_memo memo[8];
static unsigned memo_next;
static pthread_mutex_t memo_lock = PTHREAD_MUTEX_INITIALIZER;

static int same_file(const struct hash_memo *m, const struct stat *st)
{
	return m->used && m->dev == st->st_dev && m->ino == st->st_ino && m->size == st->st_size &&
	       m->mtim.tv_sec == st->st_mtim.tv_sec && m->mtim.tv_nsec == st->st_mtim.tv_nsec &&
	       m->ctim.tv_sec == st->st_ctim.tv_sec && m->ctim.tv_nsec == st->st_ctim.tv_nsec;
}

static void set_hex(struct isa_elf *elf)
{
	for (int i = 0; i < 32; i++)
		snprintf(elf->sha256_hex + 2 * i, 3, "%02x", elf->sha256[i]);
}

static int hash_file(int fd, const char *path, struct isa_elf *elf)
{
	struct sha256_ctx h;
	uint8_t buf[65536];
	struct stat st;
	int have_st = !fstat(fd, &st) && S_ISREG(st.st_mode);
	ssize_t n;

	if (have_st) {
		pthread_mutex_lock(&memo_lock);
		for (size_t i = 0; i < ARRAY_SIZE(memo); i++)
			if (same_file(&memo[i], &st)) {
				memcpy(elf->sha256, memo[i].sha256, sizeof(elf->sha256));
				elf->file_size = (uint64_t)st.st_size;
				pthread_mutex_unlock(&memo_lock);
				set_hex(elf);
				return 0;
			}
		pthread_mutex_unlock(&memo_lock);
	}
	sha256_init(&h);
	elf->file_size = 0;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return error("%s: cannot seek: %m", path);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		sha256_update(&h, n, buf);
		elf->file_size += n;
	}
	if (n < 0)
		return error("%s: read error: %m", path);
	sha256_digest(&h, sizeof(elf->sha256), elf->sha256);
	set_hex(elf);
	if (have_st && elf->file_size == (uint64_t)st.st_size) {
		struct hash_memo *m;

		pthread_mutex_lock(&memo_lock);
		m = &memo[memo_next++ % ARRAY_SIZE(memo)];
		*m = (struct hash_memo){ st.st_dev, st.st_ino, st.st_size, st.st_mtim, st.st_ctim,
					 { 0 }, 1 };
		memcpy(m->sha256, elf->sha256, sizeof(m->sha256));
		pthread_mutex_unlock(&memo_lock);
	}
	return 0;
}

static void read_symbols(Elf *e, struct isa_elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t cap = 0;

	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize)
			continue;
		/* the data's size, not the header's: a damaged sh_size can say 2^32 */
		for (size_t i = 0; i < d->d_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;
			int t;

			if (!gelf_getsym(d, i, &s))
				continue;
			t = GELF_ST_TYPE(s.st_info);
			if ((t != STT_FUNC && t != STT_OBJECT) || s.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (!name || !*name)
				continue;
			if (elf->nsyms == cap) {
				cap = cap ? 2 * cap : 256;
				elf->syms = xrealloc(elf->syms, cap * sizeof(*elf->syms));
			}
			elf->syms[elf->nsyms].addr = (uint32_t)s.st_value & ~1u;
			elf->syms[elf->nsyms].size = (uint32_t)s.st_size;
			elf->syms[elf->nsyms].name = xstrdup(name);
			elf->nsyms++;
		}
	}
	if (elf->nsyms) /* a stripped ELF has none, and qsort(NULL, 0) is undefined */
		qsort(elf->syms, elf->nsyms, sizeof(*elf->syms), cmp_sym);
}

static int load_segments(Elf *e, const char *path, int fd, isa_elf_write_fn write, void *ctx)
{
	size_t n;
	uint8_t *buf = NULL;
	int ret = 0, loaded = 0;

	if (elf_getphdrnum(e, &n))
		return error("%s: no program headers: %s", path, elf_errmsg(-1));
	for (size_t i = 0; i < n && !ret; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, i, &ph))
			return error("%s: bad program header %zu: %s", path, i, elf_errmsg(-1));
		if (ph.p_type != PT_LOAD || !ph.p_memsz)
			continue;
		if (ph.p_filesz > ph.p_memsz || ph.p_memsz > 0x10000000u)
			return error("%s: segment %zu has file size %llu, memory size %llu", path,
				     i, (unsigned long long)ph.p_filesz,
				     (unsigned long long)ph.p_memsz);
		buf = xcalloc(1, ph.p_memsz);
		if (ph.p_filesz &&
		    pread(fd, buf, ph.p_filesz, ph.p_offset) != (ssize_t)ph.p_filesz)
			ret = error("%s: segment %zu: cannot read %llu bytes at offset %llu", path,
				    i, (unsigned long long)ph.p_filesz,
				    (unsigned long long)ph.p_offset);
		else if (write && write(ctx, (uint32_t)ph.p_paddr, buf, ph.p_memsz))
			ret = error("%s: segment %zu at 0x%08llx (%llu bytes) does not fit the "
				    "board's memory",
				    path, i, (unsigned long long)ph.p_paddr,
				    (unsigned long long)ph.p_memsz);
		free(buf);
		loaded++;
	}
	if (!ret && !loaded)
		return error("%s: no loadable segment", path);
	return ret;
}

int isa_elf_load(const char *path, isa_elf_write_fn write, void *ctx, struct isa_elf *elf)
{
	int fd, ret = -1;
	Elf *e = NULL;
	GElf_Ehdr eh;

	memset(elf, 0, sizeof(*elf));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return error("libelf: initialisation failed: %s", elf_errmsg(-1));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return error("%s: cannot open: %m", path);
	elf->path = xstrdup(path); /* after the last early return: nothing to free there */
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		error("%s: not an ELF file", path);
		goto out;
	}
	if (!gelf_getehdr(e, &eh)) {
		error("%s: bad ELF header: %s", path, elf_errmsg(-1));
		goto out;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != EM_ARM) {
		error("%s: not a 32-bit little-endian ARM ELF (class %d, data %d, machine %d)",
		      path, eh.e_ident[EI_CLASS], eh.e_ident[EI_DATA], eh.e_machine);
		goto out;
	}
	if (eh.e_type != ET_EXEC) {
		error("%s: not an executable (ELF type %d)", path, eh.e_type);
		goto out;
	}
	elf->entry = (uint32_t)eh.e_entry;
	if (load_segments(e, path, fd, write, ctx))
		goto out;
	read_symbols(e, elf);
	if (hash_file(fd, path, elf))
		goto out;
	ret = 0;
out:
	if (e)
		elf_end(e);
	close(fd);
	if (ret)
		isa_elf_release(elf);
	return ret;
}

const struct isa_sym *isa_elf_symbol(const struct isa_elf *elf, uint32_t addr, uint32_t *off)
{
	size_t lo = 0, hi = elf->nsyms;

	addr &= ~1u;
	while (lo < hi) { /* last symbol with start <= addr */
		size_t mid = (lo + hi) / 2;

		if (elf->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct isa_sym *s = &elf->syms[lo - 1];

	if (addr - s->addr >= (s->size ? s->size : 1))
		return NULL;
	if (off)
		*off = addr - s->addr;
	return s;
}

int isa_elf_lookup(const struct isa_elf *elf, const char *name, uint32_t *addr)
{
	for (size_t i = 0; i < elf->nsyms; i++)
		if (!strcmp(elf->syms[i].name, name)) {
			*addr = elf->syms[i].addr;
			return 0;
		}
	return -1;
}

void isa_elf_release(struct isa_elf *elf)
{
	for (size_t i = 0; i < elf->nsyms; i++)
		free(elf->syms[i].name);
	free(elf->syms);
	free(elf->path);
	memset(elf, 0, sizeof(*elf));
}

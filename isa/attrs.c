/*
 * attrs: an ELF's build attributes and the core model they call for
 * (isa/attrs.h; IHI 0045 "Addenda to, and Errata in, the ABI for the Arm
 * Architecture", 3.3).
 */
#include "isa/attrs.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "isa/model.h"

#ifndef SHT_ARM_ATTRIBUTES
#define SHT_ARM_ATTRIBUTES 0x70000003
#endif

enum {
	TAG_FILE = 1, /* sub-subsection tags */
	TAG_CPU_RAW_NAME = 4,
	TAG_CPU_NAME = 5,
	TAG_CPU_ARCH = 6,
	TAG_CPU_ARCH_PROFILE = 7,
	TAG_FP_ARCH = 10,
	TAG_ABI_HARDFP_USE = 27,
	TAG_COMPATIBILITY = 32, /* ULEB128 flag, then NTBS vendor */
	TAG_DSP_EXTENSION = 46,
};

/* A cursor over buf[0, end); off is kept relative to the section for messages. */
struct cur {
	const uint8_t *buf;
	size_t pos, end;
};

static int get_uleb(struct cur *c, unsigned *v, const char *what)
{
	size_t start = c->pos;
	uint32_t x = 0;

	for (unsigned shift = 0;; shift += 7) {
		uint8_t b;

		if (c->pos >= c->end)
			return error(".ARM.attributes byte %zu: %s runs past the end", start, what);
		b = c->buf[c->pos++];
		if (shift >= 32 || (shift == 28 && (b & 0x70)))
			return error(".ARM.attributes byte %zu: %s does not fit 32 bits", start,
				     what);
		x |= (uint32_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	*v = x;
	return 0;
}

/* An NTBS: *s points into the buffer, NUL-terminated within [pos, end). */
static int get_ntbs(struct cur *c, const char **s, const char *what)
{
	const uint8_t *nul = memchr(c->buf + c->pos, 0, c->end - c->pos);

	if (!nul)
		return error(".ARM.attributes byte %zu: %s has no terminating NUL", c->pos, what);
	*s = (const char *)c->buf + c->pos;
	c->pos = (size_t)(nul - c->buf) + 1;
	return 0;
}

static int get_u32(struct cur *c, uint32_t *v, const char *what)
{
	if (c->end - c->pos < 4)
		return error(".ARM.attributes byte %zu: %s runs past the end", c->pos, what);
	*v = c->buf[c->pos] | c->buf[c->pos + 1] << 8 | c->buf[c->pos + 2] << 16 |
	     (uint32_t)c->buf[c->pos + 3] << 24;
	c->pos += 4;
	return 0;
}

/* The attributes of a Tag_File sub-subsection: tag, value, tag, value ... */
static int parse_file_attrs(struct cur *c, struct isa_attrs *a)
{
	while (c->pos < c->end) {
		unsigned tag, v = 0;
		const char *s = "";

		if (get_uleb(c, &tag, "an attribute tag"))
			return -1;
		if (tag == TAG_CPU_RAW_NAME || tag == TAG_CPU_NAME || (tag > 32 && (tag & 1))) {
			if (get_ntbs(c, &s, "a string attribute"))
				return -1;
		} else if (tag == TAG_COMPATIBILITY) {
			if (get_uleb(c, &v, "Tag_compatibility's flag") ||
			    get_ntbs(c, &s, "Tag_compatibility's vendor"))
				return -1;
		} else if (get_uleb(c, &v, "an attribute value")) {
			return -1;
		}
		switch (tag) {
		case TAG_CPU_NAME: snprintf(a->cpu_name, sizeof(a->cpu_name), "%s", s); break;
		case TAG_CPU_ARCH: a->cpu_arch = v; break;
		case TAG_CPU_ARCH_PROFILE: a->profile = v; break;
		case TAG_FP_ARCH: a->fp_arch = v; break;
		case TAG_ABI_HARDFP_USE: a->hardfp = v; break;
		case TAG_DSP_EXTENSION: a->dsp = v; break;
		}
	}
	return 0;
}

/* One vendor subsection's sub-subsections (after its name). */
static int parse_aeabi(struct cur *c, struct isa_attrs *a)
{
	while (c->pos < c->end) {
		size_t start = c->pos;
		unsigned tag;
		uint32_t size;
		struct cur sub;

		if (get_uleb(c, &tag, "a sub-subsection tag") ||
		    get_u32(c, &size, "a sub-subsection size"))
			return -1;
		if (size < c->pos - start || size > c->end - start)
			return error(".ARM.attributes byte %zu: sub-subsection of %u bytes, "
				     "%zu left in its subsection",
				     start, size, c->end - start);
		sub = (struct cur){c->buf, c->pos, start + size};
		c->pos = start + size;
		if (tag != TAG_FILE) /* Tag_Section, Tag_Symbol: not the whole program's */
			continue;
		a->present = 1;
		if (parse_file_attrs(&sub, a))
			return -1;
	}
	return 0;
}

int isa_attrs_parse(const uint8_t *buf, size_t len, struct isa_attrs *a)
{
	struct cur c = {buf, 1, len};

	memset(a, 0, sizeof(*a));
	if (!len)
		return 0;
	if (buf[0] != 'A')
		return error(".ARM.attributes byte 0: format version 0x%02x, not 'A'", buf[0]);
	while (c.pos < len) {
		size_t start = c.pos;
		uint32_t size;
		const char *vendor = NULL;
		struct cur sub;

		if (get_u32(&c, &size, "a subsection length"))
			return -1;
		if (size < 4 || size > len - start)
			return error(".ARM.attributes byte %zu: subsection of %u bytes, %zu left "
				     "in the section",
				     start, size, len - start);
		sub = (struct cur){buf, c.pos, start + size};
		c.pos = start + size;
		if (get_ntbs(&sub, &vendor, "the vendor name"))
			return -1;
		if (strcmp(vendor, "aeabi")) /* a toolchain's private attributes */
			continue;
		if (parse_aeabi(&sub, a))
			return -1;
	}
	return 0;
}

int isa_attrs_read(const char *path, struct isa_attrs *a)
{
	Elf_Scn *scn = NULL;
	Elf *e;
	int fd, ret = 0;
	size_t shstrndx;

	memset(a, 0, sizeof(*a));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0; /* the loader says why */
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx))
		goto out;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;
		char why[1024];

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (sh.sh_type != SHT_ARM_ATTRIBUTES && !(name && !strcmp(name, ".ARM.attributes")))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			break;
		error_quiet(1);
		ret = isa_attrs_parse(d->d_buf, d->d_size, a);
		error_quiet(-1);
		if (ret) {
			snprintf(why, sizeof(why), "%s", error_last());
			ret = error("%s: %s", path, why);
		}
		break;
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

/* ---- the model they call for -------------------------------------------- */

static int is_cortex_m7(const char *name)
{
	return !strcasecmp(name, "cortex-m7");
}

/* FPv4/FPv5 marked single-precision only: the M4F's and the M33's */
static int fp_sp_only(const struct isa_attrs *a)
{
	return a->hardfp == 1;
}

static int fp_double(const struct isa_attrs *a)
{
	if (!a->fp_arch || fp_sp_only(a))
		return 0;
	return a->hardfp == 3 || a->fp_arch == 7 || a->fp_arch == 8;
}

enum isa_attrs_fit isa_attrs_model(const struct isa_attrs *a, enum isa_model *m)
{
	if (!a->present || !a->cpu_arch)
		return ISA_ATTRS_NONE;
	switch (a->cpu_arch) {
	case ISA_ATTR_ARCH_V6M:
	case ISA_ATTR_ARCH_V6SM: *m = ISA_CORTEX_M0PLUS; return ISA_ATTRS_MODEL;
	case ISA_ATTR_ARCH_V7:
		if (a->profile == 'M') {
			*m = ISA_CORTEX_M3;
			return ISA_ATTRS_MODEL;
		}
		/* v7 with no profile could be anything; 'A' or 'R' is not ours */
		return a->profile ? ISA_ATTRS_NOT_M : ISA_ATTRS_NONE;
	case ISA_ATTR_ARCH_V7EM:
		if (fp_double(a) || is_cortex_m7(a->cpu_name))
			*m = ISA_CORTEX_M7;
		else
			*m = a->fp_arch ? ISA_CORTEX_M4F : ISA_CORTEX_M4;
		return ISA_ATTRS_MODEL;
	case ISA_ATTR_ARCH_V8MMAIN: *m = ISA_CORTEX_M33; return ISA_ATTRS_MODEL;
	case ISA_ATTR_ARCH_V8MBASE:
	case ISA_ATTR_ARCH_V81MMAIN: return ISA_ATTRS_NO_MODEL;
	default: return ISA_ATTRS_NOT_M;
	}
}

/* Tag_CPU_arch's values, as IHI 0045 names them. */
static const char *const arch_names[] = {
    "pre-v4",
    "v4",
    "v4T",
    "v5T",
    "v5TE",
    "v5TEJ",
    "v6",
    "v6KZ",
    "v6T2",
    "v6K",
    "v7",
    "v6-M",
    "v6S-M",
    "v7E-M",
    "v8-A",
    "v8-R",
    "v8-M baseline",
    "v8-M mainline",
    "v8.1-A",
    "v8.2-A",
    "v8.3-A",
    "v8.1-M mainline",
    "v9-A",
};

static const char *fp_name(const struct isa_attrs *a, char *buf, size_t len)
{
	static const char *const vfp[] = {"", "VFPv1", "VFPv2", "VFPv3", "VFPv3-D16"};
	int sp = fp_sp_only(a);

	switch (a->fp_arch) {
	case 5: return sp ? "FPv4-SP" : "VFPv4";
	case 6: return sp ? "FPv4-SP" : "VFPv4-D16";
	case 7: return sp ? "FPv5-SP" : "FPv5";
	case 8: return sp ? "FPv5-SP" : "FPv5-D16";
	default:
		if (a->fp_arch < ARRAY_SIZE(vfp))
			return vfp[a->fp_arch];
		snprintf(buf, len, "FP architecture %u", a->fp_arch);
		return buf;
	}
}

void isa_attrs_describe(const struct isa_attrs *a, char *buf, size_t len)
{
	char arch[48], fpbuf[32], who[64];
	const char *fp;
	enum isa_model m;
	int n;

	if (len)
		buf[0] = 0;
	if (!a->present)
		return;
	if (a->cpu_arch < ARRAY_SIZE(arch_names))
		snprintf(arch, sizeof(arch), "%s", arch_names[a->cpu_arch]);
	else
		snprintf(arch, sizeof(arch), "architecture %u", a->cpu_arch);
	if (a->cpu_arch == ISA_ATTR_ARCH_V7 && a->profile)
		snprintf(arch, sizeof(arch), "v7-%c", (char)a->profile);
	switch (isa_attrs_model(a, &m)) {
	case ISA_ATTRS_MODEL: snprintf(who, sizeof(who), "%s", isa_model_info(m)->title); break;
	case ISA_ATTRS_NO_MODEL:
		snprintf(who, sizeof(who), "%s",
			 a->cpu_arch == ISA_ATTR_ARCH_V8MBASE ? "Cortex-M23" : "Cortex-M55 or M85");
		break;
	default: /* not a Cortex-M, or no architecture: the architecture alone */
		snprintf(buf, len, "ARM%s%s%s%s", arch, a->cpu_name[0] ? " (\"" : "", a->cpu_name,
			 a->cpu_name[0] ? "\")" : "");
		return;
	}
	fp = a->fp_arch ? fp_name(a, fpbuf, sizeof(fpbuf)) : NULL;
	n = snprintf(buf, len, "%s (%s", who, arch);
	/* v7E-M has DSP by definition; v8-M says it separately */
	if (a->dsp && a->cpu_arch != ISA_ATTR_ARCH_V7EM && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, ", DSP");
	if (fp && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, ", %s", fp);
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ")");
}

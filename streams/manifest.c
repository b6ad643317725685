#include "streams/manifest.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Debian installs iniparser under /usr/include/iniparser/, upstream in /usr/include. */
#if __has_include(<iniparser.h>)
#include <iniparser.h>
#else
#include <iniparser/iniparser.h>
#endif

#include "isa/model.h"

#define ETMCR_CYCLE_ACC (1u << 12) /* ETMv3 cycle-accurate tracing */

/*
 * One table drives both directions: every key of every section, what kind
 * of value it holds and where in struct st_manifest it goes. The writer
 * prints the table in order; the reader walks the same table, so a key
 * cannot be written and then forgotten by the reader (or the reverse).
 *
 * The [coreN] sections are not in the table: they are the register names
 * below, repeated for each core.
 */
enum mf_kind {
	MF_FORMAT, /* ST_MANIFEST_FORMAT, no field */
	MF_STATE,  /* complete | partial -> int complete */
	MF_TEXT,   /* free text, non-empty -> char[ST_MANIFEST_NAME] */
	MF_NAME,   /* a file name in the recording directory -> char[ST_MANIFEST_NAME] */
	MF_SHA256, /* 64 lowercase hex digits -> char[65] */
	MF_MODEL,  /* m3 | m4 -> enum isa_model */
	MF_CORES,  /* 1..ST_CF_MAX_CORES -> int ncores */
	MF_U64,	   /* uint64_t */
	MF_UINT,   /* unsigned */
	MF_BOOL,   /* 0 | 1 -> int */
	MF_DCCFG,  /* size=,assoc=,line= -> struct dc_config */
	MF_FACFG,  /* size=,assoc=,line=,granule= -> struct dc_fa_config */
	MF_BPCFG,  /* bp_config_parse syntax -> struct bp_config */
	MF_VLC,	   /* c0,c1 -> struct st_vlc */
	MF_CFENC,  /* nxb | trb | tre | tra | none -> cf.enc, cf.adapt, cf_on */
	MF_LVENC,  /* nxlv | cfiat | mc2rt | cfiata | none -> lv.enc, lv.adapt, lv_on */
	MF_REG,	   /* 32-bit register: off is the register number */
	MF_IDS,	   /* a trace ID per core, 0x01..0x6f -> port.trace_id */
	MF_BYTES,  /* a byte count per core -> port.bytes */
	MF_REGS,   /* model | NAME=0x..,... -> port.have_regs, port.regs */
};

struct mf_key {
	const char *key;
	enum mf_kind kind;
	size_t off; /* offset in struct st_manifest (MF_REG: register number) */
};

#define K(name, kind, field) name, kind, offsetof(struct st_manifest, field)

static const struct mf_key recording_keys[] = {
    {"format", MF_FORMAT, 0},
    {K("state", MF_STATE, complete)},
    {K("tool", MF_TEXT, tool)},
};

static const struct mf_key program_keys[] = {
    {K("elf", MF_NAME, elf)},
    {K("sha256", MF_SHA256, sha256)},
    {K("model", MF_MODEL, model)},
};

static const struct mf_key board_keys[] = {
    {K("cores", MF_CORES, ncores)},
    {K("seed", MF_U64, seed)},
    {K("jitter", MF_UINT, jitter)},
    {K("branch_penalty", MF_UINT, branch_penalty)},
    {K("miss_penalty", MF_UINT, miss_penalty)},
    {K("exc_penalty", MF_UINT, exc_penalty)},
    {K("timing_cache", MF_DCCFG, timing_cache)},
};

/* The encoding comes first: with "none" it is the only key of the section. */
static const struct mf_key cf_keys[] = {
    {K("encoding", MF_CFENC, cf.enc)}, /* nxb | trb | tre | tra | none */
    {K("timed", MF_BOOL, cf.timed)},   /* diffCC present */
    {K("predictors", MF_BPCFG, bp)},   /* the trace module's and the replay's */
    {K("shared", MF_BOOL, bp_shared)}, /* one predictor set for all cores */
    {K("cnt", MF_VLC, cf.cnt)},	       /* chunk sizes of SL / bCnt (tra: the first) */
    {K("ta", MF_VLC, cf.ta)},	       /* of |diffTA| */
    {K("cc", MF_VLC, cf.cc)},	       /* of diffCC */
    {K("icnt", MF_VLC, cf.icnt)},      /* of iCnt */
    {K("file", MF_NAME, cf_file)},     /* the stream */
    {K("bits", MF_U64, cf_bits)},      /* its exact length: the file is padded */
};

/* [cf] of a real trace port's recording: the rest is in [port] */
static const struct mf_key cf_port_keys[] = {
    {K("encoding", MF_CFENC, cf.enc)}, /* etm4 | etm3 | mtb */
    {K("file", MF_NAME, cf_file)},
    {K("bits", MF_U64, cf_bits)},
};

static const struct mf_key port_keys[] = {
    {K("framed", MF_BOOL, port.framed)},
    {K("tpiu", MF_BOOL, port.tpiu)},
    {K("sync_period", MF_UINT, port.sync_period)},
    {K("v8m", MF_BOOL, port.v8m)},
    {K("trace_ids", MF_IDS, port.trace_id)},
    {K("core_bytes", MF_BYTES, port.bytes)},
    {K("etm_regs", MF_REGS, port.regs)},
    /*
     * only with cycle counting on (the last PORT_CC_KEYS; an ETMv3's
     * cycle-accurate mode has no threshold: the first alone)
     */
    {K("cycle_counting", MF_BOOL, port.cycle_counting)},
    {K("cc_threshold", MF_UINT, port.cc_threshold)},
};
#define PORT_CC_KEYS 2

/* The [port] keys m has: the cycle counting ones only when on. */
static size_t port_nkeys(const struct st_manifest *m)
{
	if (!m->port.cycle_counting)
		return ARRAY_SIZE(port_keys) - PORT_CC_KEYS;
	return ARRAY_SIZE(port_keys) - (m->port.kind == ST_PORT_ETM3);
}

const char *const *st_port_reg_names(enum st_port kind, int *n)
{
	static const char *const r4[] = {"idr0", "idr1", "idr2", "idr8", "configr"};
	static const char *const r3[] = {"idr", "cr", "ccer"};

	*n = kind == ST_PORT_ETM4 ? 5 : kind == ST_PORT_ETM3 ? 3 : 0;
	return kind == ST_PORT_ETM3 ? r3 : r4;
}

const char *st_port_name(enum st_port p)
{
	static const char *const n[] = {"none", "etm4", "etm3", "mtb"};

	return (unsigned)p < ARRAY_SIZE(n) ? n[p] : "?";
}

int st_port_parse(const char *s, enum st_port *p)
{
	for (int i = ST_PORT_ETM4; i <= ST_PORT_MTB; i++)
		if (!strcasecmp(s, st_port_name(i))) {
			*p = i;
			return 0;
		}
	return -1;
}

int st_port_parse_ids(const char *s, uint8_t *ids, int max, int *n)
{
	const char *p = s;

	*n = 0;
	for (;;) {
		unsigned long v;
		char *end;

		if (*n == max)
			return error("trace IDs '%s': more than %d", s, max);
		if (!(*p >= '0' && *p <= '9'))
			return error("trace IDs '%s': '%s' is not a number", s, p);
		v = strtoul(p, &end, 0);
		if (v < 1 || v > 0x6f)
			return error("trace IDs '%s': %.*s is not a trace ID from 0x01 to 0x6f", s,
				     (int)(end - p), p);
		for (int i = 0; i < *n; i++)
			if (ids[i] == v)
				return error("trace IDs '%s': 0x%02lx twice", s, v);
		ids[(*n)++] = (uint8_t)v;
		if (!*end)
			return 0;
		if (*end != ',')
			return error("trace IDs '%s': junk '%s'", s, end);
		p = end + 1;
	}
}

static const struct mf_key lv_keys[] = {
    {K("encoding", MF_LVENC, lv.enc)},	  /* nxlv | cfiat | mc2rt | cfiata | none */
    {K("timed", MF_BOOL, lv.timed)},	  /* dCC present */
    {K("cache", MF_FACFG, cache)},	  /* the filter's caches (granule: CFiat) */
    {K("shared", MF_BOOL, cache.shared)}, /* one cache for all cores */
    {K("cnt", MF_VLC, lv.cnt)},		  /* chunk sizes of fahCnt / THCnt */
    {K("cc", MF_VLC, lv.cc)},		  /* of dCC */
    {K("file", MF_NAME, lv_file)},
    {K("bits", MF_U64, lv_bits)},
};

static const struct mf_key truth_keys[] = {
    {K("file", MF_NAME, truth_file)},
};

#undef K

/* [coreN] keys, in enum isa_reg order; off is the register number. */
#define R(name, r) name, MF_REG, r
static const struct mf_key core_keys[] = {
    {R("r0", 0)},
    {R("r1", 1)},
    {R("r2", 2)},
    {R("r3", 3)},
    {R("r4", 4)},
    {R("r5", 5)},
    {R("r6", 6)},
    {R("r7", 7)},
    {R("r8", 8)},
    {R("r9", 9)},
    {R("r10", 10)},
    {R("r11", 11)},
    {R("r12", 12)},
    {R("sp", ISA_R_SP)},
    {R("lr", ISA_R_LR)},
    {R("pc", ISA_R_PC)},
    {R("xpsr", ISA_R_XPSR)},
    {R("msp", ISA_R_MSP)},
    {R("psp", ISA_R_PSP)},
    {R("primask", ISA_R_PRIMASK)},
    {R("basepri", ISA_R_BASEPRI)},
    {R("faultmask", ISA_R_FAULTMASK)},
    {R("control", ISA_R_CONTROL)},
};
#undef R
_Static_assert(ARRAY_SIZE(core_keys) == ISA_NREGS, "a [coreN] key per enum isa_reg");


/*
 * One section as it appears in a given manifest: its name, its keys, how
 * many of them are present (1 for [cf]/[lv] with encoding = none) and, for
 * [coreN], the core.
 */
struct mf_section {
	char name[16];
	const struct mf_key *keys;
	size_t nkeys, nactive;
	int core; /* -1 unless [coreN] */
};

#define MF_MAX_SECTIONS (7 + ST_CF_MAX_CORES)

static void section_add(struct mf_section *s, size_t *n, const char *name,
			const struct mf_key *keys, size_t nkeys, size_t nactive, int core)
{
	struct mf_section *p = &s[(*n)++];

	snprintf(p->name, sizeof(p->name), "%s", name);
	p->keys = keys;
	p->nkeys = nkeys;
	p->nactive = nactive;
	p->core = core;
}

/*
 * The sections m has, in file order. Only ncores, cf_on, lv_on and
 * has_truth matter, so the reader can call this once it has read those.
 * ncores must be in 1..ST_CF_MAX_CORES.
 */
static size_t layout(const struct st_manifest *m, struct mf_section *s)
{
	size_t n = 0;
	char name[16];

	section_add(s, &n, "recording", recording_keys, ARRAY_SIZE(recording_keys),
		    ARRAY_SIZE(recording_keys), -1);
	section_add(s, &n, "program", program_keys, ARRAY_SIZE(program_keys),
		    ARRAY_SIZE(program_keys), -1);
	section_add(s, &n, "board", board_keys, ARRAY_SIZE(board_keys), ARRAY_SIZE(board_keys), -1);
	if (m->cf_on && m->port.kind != ST_PORT_NONE) {
		section_add(s, &n, "cf", cf_port_keys, ARRAY_SIZE(cf_port_keys),
			    ARRAY_SIZE(cf_port_keys), -1);
		section_add(s, &n, "port", port_keys, ARRAY_SIZE(port_keys), port_nkeys(m), -1);
	} else {
		section_add(s, &n, "cf", cf_keys, ARRAY_SIZE(cf_keys),
			    m->cf_on ? ARRAY_SIZE(cf_keys) : 1, -1);
	}
	section_add(s, &n, "lv", lv_keys, ARRAY_SIZE(lv_keys), m->lv_on ? ARRAY_SIZE(lv_keys) : 1,
		    -1);
	for (int c = 0; c < m->ncores; c++) {
		snprintf(name, sizeof(name), "core%d", c);
		section_add(s, &n, name, core_keys, ISA_NREGS, ISA_NREGS, c);
	}
	if (m->has_truth)
		section_add(s, &n, "truth", truth_keys, ARRAY_SIZE(truth_keys),
			    ARRAY_SIZE(truth_keys), -1);
	return n;
}

void st_manifest_init(struct st_manifest *m)
{
	memset(m, 0, sizeof(*m));
	m->complete = 0;
	strcpy(m->tool, "raptor");
	m->model = ISA_CORTEX_M3;
	m->ncores = 2;
	m->seed = 1;
	m->jitter = 8;
	m->branch_penalty = 2;
	m->miss_penalty = 10;
	m->exc_penalty = 12;
	m->timing_cache = (struct dc_config){.size = 32768, .assoc = 4, .line = 32};

	m->cf_on = 1;
	st_cf_format_init(&m->cf, ST_CF_TRE, m->ncores, 1);
	/* "large" is a built-in name: it cannot fail to parse */
	if (bp_config_parse("large", &m->bp))
		m->bp = (struct bp_config){.gshare = 4096, .ras = 32, .ibtb = 64, .shift = 4};
	m->bp_shared = 0;
	strcpy(m->cf_file, "cf.bin");
	m->port.sync_period = 4096;
	for (int c = 0; c < ST_CF_MAX_CORES; c++)
		m->port.trace_id[c] = 0x10 + c;

	m->lv_on = 1;
	st_lv_format_init(&m->lv, ST_LV_CFIAT, m->ncores, 1);
	dc_fa_config_init(&m->cache);
	m->cache.ncores = m->ncores;
	m->cache.shared = 0;
	strcpy(m->lv_file, "lv.bin");

	/* off until --truth, but named so that switching it on is one assignment */
	m->has_truth = 0;
	strcpy(m->truth_file, "truth.gz");
}

/* ---- values: struct -> text --------------------------------------------- */

#define FIELD(m, k, type) ((type *)((char *)(m) + (k)->off))
#define CFIELD(m, k, type) ((const type *)((const char *)(m) + (k)->off))

/* Copy a string field, refusing one that lost its NUL. */
static int format_string(const char *s, size_t size, char *buf, size_t len)
{
	if (!memchr(s, 0, size))
		return -1;
	snprintf(buf, len, "%s", s);
	return 0;
}

/*
 * The text of key k of m (core: the [coreN] section's core) into buf. Values
 * are written as they are, good or bad: st_manifest_write reads its own
 * output back, which is where bad ones are refused, with the reader's
 * messages. -1 only for what cannot even be printed.
 */
static int format_value(const struct st_manifest *m, const struct mf_key *k, int core, char *buf,
			size_t len)
{
	switch (k->kind) {
	case MF_FORMAT: snprintf(buf, len, "%s", ST_MANIFEST_FORMAT); return 0;
	case MF_STATE: snprintf(buf, len, "%s", m->complete ? "complete" : "partial"); return 0;
	case MF_TEXT:
	case MF_NAME: return format_string(CFIELD(m, k, char), ST_MANIFEST_NAME, buf, len);
	case MF_SHA256: return format_string(m->sha256, sizeof(m->sha256), buf, len);
	case MF_MODEL:
		if ((unsigned)m->model < ISA_NMODELS)
			snprintf(buf, len, "%s", isa_model_info(m->model)->name);
		else
			snprintf(buf, len, "model%d", (int)m->model);
		return 0;
	case MF_CORES:
	case MF_BOOL: snprintf(buf, len, "%d", *CFIELD(m, k, int)); return 0;
	case MF_U64:
		snprintf(buf, len, "%llu", (unsigned long long)*CFIELD(m, k, uint64_t));
		return 0;
	case MF_UINT: snprintf(buf, len, "%u", *CFIELD(m, k, unsigned)); return 0;
	case MF_DCCFG: {
		const struct dc_config *c = CFIELD(m, k, struct dc_config);

		snprintf(buf, len, "size=%u,assoc=%u,line=%u", c->size, c->assoc, c->line);
		return 0;
	}
	case MF_FACFG: {
		const struct dc_fa_config *c = CFIELD(m, k, struct dc_fa_config);

		snprintf(buf, len, "size=%u,assoc=%u,line=%u,granule=%u", c->size, c->assoc,
			 c->line, c->granule);
		return 0;
	}
	case MF_BPCFG: bp_config_format(CFIELD(m, k, struct bp_config), buf, len); return 0;
	case MF_VLC: {
		const struct st_vlc *v = CFIELD(m, k, struct st_vlc);

		snprintf(buf, len, "%u,%u", v->c0, v->c1);
		return 0;
	}
	case MF_CFENC:
		snprintf(buf, len, "%s",
			 !m->cf_on			 ? "none"
			 : m->port.kind != ST_PORT_NONE ? st_port_name(m->port.kind)
							 : st_cf_enc_name(st_cf_format_enc(&m->cf)));
		return 0;
	case MF_REGS: {
		int n;
		const char *const *names = st_port_reg_names(m->port.kind, &n);
		size_t o = 0;

		if (!m->port.have_regs || !n) {
			snprintf(buf, len, "model");
			return 0;
		}
		for (int i = 0; i < n && o < len; i++)
			o += snprintf(buf + o, len - o, "%s%s=0x%08x", i ? "," : "", names[i],
				      m->port.regs[i]);
		return 0;
	}
	case MF_IDS:
	case MF_BYTES: {
		size_t o = 0;

		buf[0] = 0;
		for (int c = 0; c < m->ncores && o < len; c++) {
			if (k->kind == MF_IDS)
				o += snprintf(buf + o, len - o, "%s0x%02x", c ? "," : "",
					      m->port.trace_id[c]);
			else
				o += snprintf(buf + o, len - o, "%s%llu", c ? "," : "",
					      (unsigned long long)m->port.bytes[c]);
		}
		return 0;
	}
	case MF_LVENC:
		snprintf(buf, len, "%s",
			 m->lv_on ? st_lv_enc_name(st_lv_format_enc(&m->lv)) : "none");
		return 0;
	case MF_REG: snprintf(buf, len, "0x%08x", (unsigned)m->regs[core][k->off]); return 0;
	}
	return -1;
}

/* The whole file text of m; ncores must be in range. 0 / -1 naming path. */
static int print_manifest(const struct st_manifest *m, const char *path, FILE *f)
{
	struct mf_section s[MF_MAX_SECTIONS];
	size_t n = layout(m, s);
	char val[256];

	fprintf(f, "; raptor recording manifest: every key is described in docs/FORMAT.md "
		   "\"manifest.ini\"\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "[%s]\n", s[i].name);
		for (size_t j = 0; j < s[i].nactive; j++) {
			const struct mf_key *k = &s[i].keys[j];

			if (format_value(m, k, s[i].core, val, sizeof(val)))
				return error("%s: [%s] %s is not a terminated string", path,
					     s[i].name, k->key);
			fprintf(f, "%s = %s\n", k->key, val);
		}
	}
	return 0;
}

/* ---- values: text -> struct --------------------------------------------- */

struct mf_reader {
	const char *name; /* for messages: the manifest's path */
	dictionary *d;
};

/* The standard message: "<path>: [section] key = 'value': what is wrong". */
static int PRINTF_LIKE(5, 6) bad(const struct mf_reader *rd, const char *sec, const char *key,
				 const char *val, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return error("%s: [%s] %s = '%s': %s", rd->name, sec, key, val, what);
}

/* The value of [sec] key, or NULL after "[sec] key is missing". */
static const char *get(const struct mf_reader *rd, const char *sec, const char *key)
{
	char full[96];
	const char *v;

	snprintf(full, sizeof(full), "%.15s:%.63s", sec, key);
	v = iniparser_getstring(rd->d, full, NULL);
	if (!v)
		error("%s: [%s] %s is missing", rd->name, sec, key);
	return v;
}

enum { NUM_OK, NUM_NONE, NUM_JUNK, NUM_BIG };

/*
 * A number at *s: decimal digits, or 0x and hex digits. No sign, no
 * spaces, no octal (strtoull would read "010" as 8). *s is left after it.
 */
static int scan_number(const char **s, uint64_t *out)
{
	const char *p = *s;
	unsigned base = 10;
	uint64_t v = 0;
	int digits = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (;; p++, digits++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return NUM_BIG;
		v = v * base + d;
	}
	*s = p;
	if (!digits)
		return NUM_NONE;
	*out = v;
	return NUM_OK;
}

/* The whole of val as a number in 0..max. */
static int parse_number(const struct mf_reader *rd, const char *sec, const char *key,
			const char *val, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *p = val;
	uint64_t v = 0;

	switch (scan_number(&p, &v)) {
	case NUM_NONE: return bad(rd, sec, key, val, "not a number (decimal or 0x hex)");
	case NUM_BIG:
		return bad(rd, sec, key, val, "out of range (%llu..%llu)", (unsigned long long)min,
			   (unsigned long long)max);
	}
	if (*p)
		return bad(rd, sec, key, val, "junk after the number: '%s'", p);
	if (v < min || v > max)
		return bad(rd, sec, key, val, "out of range (%llu..%llu)", (unsigned long long)min,
			   (unsigned long long)max);
	*out = v;
	return 0;
}

/* "c0,c1": chunk sizes, checked by the vlc module. */
static int parse_vlc(const struct mf_reader *rd, const char *sec, const char *key, const char *val,
		     struct st_vlc *out)
{
	const char *p = val;
	uint64_t a = 0, b = 0;
	struct st_vlc v;

	if (scan_number(&p, &a) != NUM_OK || *p++ != ',' || scan_number(&p, &b) != NUM_OK || *p)
		return bad(rd, sec, key, val, "not a pair of chunk sizes c0,c1");
	v = ST_VLC((unsigned)a, (unsigned)b);
	if (a > 64 || b > 64 || st_vlc_check(v))
		return bad(rd, sec, key, val, "chunk sizes must be 1..64");
	*out = v;
	return 0;
}

/*
 * "size=N,assoc=N,line=N[,granule=N]": exactly the names in `names`, each
 * once, in any order, into vals[] (in the order of names).
 */
static int parse_cache(const struct mf_reader *rd, const char *sec, const char *key,
		       const char *val, const char *const *names, int nnames, uint32_t *vals)
{
	const char *p = val;
	unsigned seen = 0;

	while (*p) {
		const char *eq = strchr(p, '=');
		uint64_t v = 0;
		int i;

		if (!eq)
			return bad(rd, sec, key, val, "'%s' is not name=value", p);
		for (i = 0; i < nnames; i++)
			if ((size_t)(eq - p) == strlen(names[i]) && !memcmp(p, names[i], eq - p))
				break;
		if (i == nnames)
			return bad(rd, sec, key, val, "unknown item '%.*s'", (int)(eq - p), p);
		if (seen & (1u << i))
			return bad(rd, sec, key, val, "%s given twice", names[i]);
		p = eq + 1;
		if (scan_number(&p, &v) != NUM_OK || (*p && *p != ',') || v > UINT32_MAX)
			return bad(rd, sec, key, val, "%s is not a number below 2^32", names[i]);
		if (*p == ',' && !*++p)
			return bad(rd, sec, key, val, "trailing comma");
		seen |= 1u << i;
		vals[i] = (uint32_t)v;
	}
	for (int i = 0; i < nnames; i++)
		if (!(seen & (1u << i)))
			return bad(rd, sec, key, val, "%s is missing", names[i]);
	return 0;
}

/*
 * A file name of the recording: the recording is a directory and every
 * file it names lives in it, so no '/' (no escaping it with "..", no
 * absolute paths) and no "." or "..".
 */
static int parse_name(const struct mf_reader *rd, const char *sec, const char *key, const char *val,
		      char *out)
{
	if (!*val)
		return bad(rd, sec, key, val, "empty file name");
	if (strchr(val, '/'))
		return bad(rd, sec, key, val, "a file name in the recording directory has no '/'");
	if (!strcmp(val, ".") || !strcmp(val, ".."))
		return bad(rd, sec, key, val, "not a file name");
	if (strlen(val) >= ST_MANIFEST_NAME)
		return bad(rd, sec, key, val, "longer than %d characters", ST_MANIFEST_NAME - 1);
	strcpy(out, val);
	return 0;
}

/* Key k of [sec] (the value val) into m. */
static int parse_value(const struct mf_reader *rd, const char *sec, const struct mf_key *k,
		       int core, const char *val, struct st_manifest *m)
{
	const char *key = k->key;
	uint64_t v = 0;

	switch (k->kind) {
	case MF_FORMAT:
		if (strcmp(val, ST_MANIFEST_FORMAT))
			return bad(rd, sec, key, val, "not a recording this version reads (%s)",
				   ST_MANIFEST_FORMAT);
		return 0;
	case MF_STATE:
		if (!strcmp(val, "complete"))
			m->complete = 1;
		else if (!strcmp(val, "partial"))
			m->complete = 0;
		else
			return bad(rd, sec, key, val, "not complete or partial");
		return 0;
	case MF_TEXT:
		if (!*val)
			return bad(rd, sec, key, val, "empty");
		if (strlen(val) >= ST_MANIFEST_NAME)
			return bad(rd, sec, key, val, "longer than %d characters",
				   ST_MANIFEST_NAME - 1);
		strcpy(FIELD(m, k, char), val);
		return 0;
	case MF_NAME: return parse_name(rd, sec, key, val, FIELD(m, k, char));
	case MF_SHA256:
		if (strlen(val) != 64 || strspn(val, "0123456789abcdef") != 64)
			return bad(rd, sec, key, val, "not 64 lowercase hex digits");
		strcpy(m->sha256, val);
		return 0;
	case MF_MODEL:
		if (isa_model_parse(val, &m->model)) {
			char names[128];

			isa_model_names(names, sizeof(names), ", ");
			return bad(rd, sec, key, val, "not a core model (one of %s)", names);
		}
		if (!isa_model_info(m->model)->runs)
			return bad(rd, sec, key, val, "a core model this raptor does not run yet");
		return 0;
	case MF_CORES:
		if (parse_number(rd, sec, key, val, 1, ST_CF_MAX_CORES, &v))
			return -1;
		/* the sub-formats carry the count too; the manifest has it once */
		m->ncores = m->cf.ncores = m->lv.ncores = m->cache.ncores = (int)v;
		return 0;
	case MF_U64:
		if (parse_number(rd, sec, key, val, 0, UINT64_MAX, &v))
			return -1;
		*FIELD(m, k, uint64_t) = v;
		return 0;
	case MF_UINT:
		if (parse_number(rd, sec, key, val, 0, UINT_MAX, &v))
			return -1;
		*FIELD(m, k, unsigned) = (unsigned)v;
		return 0;
	case MF_BOOL:
		if (strcmp(val, "0") && strcmp(val, "1"))
			return bad(rd, sec, key, val, "not 0 or 1");
		*FIELD(m, k, int) = val[0] == '1';
		return 0;
	case MF_DCCFG: {
		static const char *const names[] = {"size", "assoc", "line"};
		uint32_t x[3];
		struct dc_config c;

		if (parse_cache(rd, sec, key, val, names, 3, x))
			return -1;
		c = (struct dc_config){.size = x[0], .assoc = x[1], .line = x[2]};
		if (dc_config_check(&c))
			return bad(rd, sec, key, val, "refused by the cache model");
		*FIELD(m, k, struct dc_config) = c;
		return 0;
	}
	case MF_FACFG: {
		static const char *const names[] = {"size", "assoc", "line", "granule"};
		uint32_t x[4];
		struct dc_fa_config *c = FIELD(m, k, struct dc_fa_config);

		/* checked with ncores and shared at the end of [lv] */
		if (parse_cache(rd, sec, key, val, names, 4, x))
			return -1;
		c->size = x[0];
		c->assoc = x[1];
		c->line = x[2];
		c->granule = x[3];
		return 0;
	}
	case MF_BPCFG: {
		struct bp_config c;

		if (bp_config_parse(val, &c) || bp_config_check(&c))
			return bad(rd, sec, key, val, "not a predictor configuration");
		*FIELD(m, k, struct bp_config) = c;
		return 0;
	}
	case MF_VLC: return parse_vlc(rd, sec, key, val, FIELD(m, k, struct st_vlc));
	case MF_CFENC: {
		enum st_cf_enc e = ST_CF_TRE;
		int r;

		if (!strcasecmp(val, "none")) {
			m->cf_on = 0;
			return 0;
		}
		if (!st_port_parse(val, &m->port.kind)) {
			m->cf_on = 1;
			return 0;
		}
		/* our message says it all: the module's would be a second line */
		error_quiet(1);
		r = st_cf_enc_parse(val, &e);
		error_quiet(-1);
		if (r)
			return bad(rd, sec, key, val, "not nxb, trb, tre, tra, etm4, etm3, mtb or none");
		m->cf_on = 1;
		st_cf_format_set_enc(&m->cf, e);
		return 0;
	}
	case MF_LVENC: {
		enum st_lv_enc e = ST_LV_CFIAT;
		int r;

		if (!strcasecmp(val, "none")) {
			m->lv_on = 0;
			return 0;
		}
		error_quiet(1);
		r = st_lv_enc_parse(val, &e);
		error_quiet(-1);
		if (r)
			return bad(rd, sec, key, val, "not nxlv, cfiat, mc2rt, cfiata or none");
		m->lv_on = 1;
		st_lv_format_set_enc(&m->lv, e);
		return 0;
	}
	case MF_REG:
		if (parse_number(rd, sec, key, val, 0, UINT32_MAX, &v))
			return -1;
		m->regs[core][k->off] = (uint32_t)v;
		return 0;
	case MF_REGS: {
		int n, seen = 0, r;
		const char *const *names = st_port_reg_names(m->port.kind, &n);
		const char *p = val;

		if (!strcmp(val, "model")) {
			m->port.have_regs = 0;
			return 0;
		}
		if (!n)
			return bad(rd, sec, key, val, "an MTB has no registers to give: 'model'");
		while (*p) {
			size_t l = strcspn(p, "=,"), vl;
			char item[32];
			int i;

			for (i = 0; i < n && (strlen(names[i]) != l || strncmp(p, names[i], l)); i++)
				;
			if (i == n || p[l] != '=')
				return bad(rd, sec, key, val, "'%.*s' is not one of the %s registers",
					   (int)l, p, st_port_name(m->port.kind));
			p += l + 1;
			vl = strcspn(p, ",");
			snprintf(item, sizeof(item), "%.*s", (int)(vl < sizeof(item) ? vl : 31), p);
			error_quiet(1);
			r = parse_number(rd, sec, key, item, 0, UINT32_MAX, &v);
			error_quiet(-1);
			if (r)
				return bad(rd, sec, key, val, "%s's '%s' is not a 32-bit value", names[i],
					   item);
			m->port.regs[i] = (uint32_t)v;
			seen |= 1 << i;
			p += vl;
			if (*p == ',')
				p++;
		}
		if (seen != (1 << n) - 1)
			return bad(rd, sec, key, val, "not every register of the %s: 'model', or all "
				   "%d", st_port_name(m->port.kind), n);
		m->port.have_regs = 1;
		return 0;
	}
	case MF_IDS:
	case MF_BYTES: {
		char item[32];
		const char *p = val;
		int c = 0, r;

		for (; c < m->ncores; c++) {
			size_t n = strcspn(p, ",");

			if (n >= sizeof(item) || (!n && !*p))
				break;
			snprintf(item, sizeof(item), "%.*s", (int)n, p);
			error_quiet(1);
			r = parse_number(rd, sec, key, item, k->kind == MF_IDS ? 1 : 0,
					 k->kind == MF_IDS ? 0x6f : UINT64_MAX, &v);
			error_quiet(-1);
			if (r)
				return bad(rd, sec, key, val, "core %d's '%s' is not %s", c, item,
					   k->kind == MF_IDS ? "a trace ID from 0x01 to 0x6f"
							     : "a byte count");
			if (k->kind == MF_IDS)
				m->port.trace_id[c] = (uint8_t)v;
			else
				m->port.bytes[c] = v;
			p += n;
			if (*p == ',' && c + 1 < m->ncores)
				p++;
		}
		if (c != m->ncores || *p)
			return bad(rd, sec, key, val, "not %d comma-separated numbers, one per core",
				   m->ncores);
		return 0;
	}
	}
	return bad(rd, sec, key, val, "internal error: kind %d", (int)k->kind);
}

/* Checks that need a whole section: the formats as their modules see them. */
static int check_section(const struct mf_reader *rd, const struct mf_section *s,
			 const struct st_manifest *m)
{
	if (!strcmp(s->name, "port")) {
		uint64_t sum = 0;

		if (m->port.sync_period < 256 || m->port.sync_period > (1u << 20) ||
		    (m->port.sync_period & (m->port.sync_period - 1)))
			return error("%s: [port] sync_period = %u: not a power of 2 in 256..2^20",
				     rd->name, m->port.sync_period);
		if (s->nactive > s->nkeys - PORT_CC_KEYS &&
		    (!m->port.cycle_counting || m->port.kind == ST_PORT_MTB ||
		     (m->port.kind == ST_PORT_ETM4 &&
		      (m->port.cc_threshold < 1 || m->port.cc_threshold > 4095))))
			return error("%s: [port] cycle_counting = %d, cc_threshold = %u: cycle "
				     "counting is an ETMv4's (etm4, with a threshold from 1 to 4095) "
				     "or an ETMv3's cycle-accurate mode (etm3, no threshold), and "
				     "the keys are left out when it is off",
				     rd->name, m->port.cycle_counting, m->port.cc_threshold);
		if (m->port.tpiu && !m->port.framed)
			return error("%s: [port] tpiu = 1: a TPIU sends formatter frames (framed = 0)",
				     rd->name);
		if (m->port.framed && m->port.kind == ST_PORT_MTB)
			return error("%s: [port] framed = 1: an MTB is read from SRAM, not through "
				     "the formatter", rd->name);
		for (int c = 0; c < m->ncores; c++) {
			sum += m->port.bytes[c];
			for (int d = 0; d < c; d++)
				if (m->port.trace_id[c] == m->port.trace_id[d])
					return error("%s: [port] trace_ids: cores %d and %d both have "
						     "0x%02x", rd->name, d, c, m->port.trace_id[c]);
		}
		if (!m->port.framed && 8 * sum != m->cf_bits)
			return error("%s: [port] core_bytes add up to %llu bytes, [cf] bits = %llu "
				     "says %llu", rd->name, (unsigned long long)sum,
				     (unsigned long long)m->cf_bits,
				     (unsigned long long)(m->cf_bits / 8));
		if (m->cf_bits % 8)
			return error("%s: [cf] bits = %llu: a trace port writes whole bytes",
				     rd->name, (unsigned long long)m->cf_bits);
	} else if (!strcmp(s->name, "cf") && m->cf_on && m->port.kind == ST_PORT_NONE) {
		if (st_cf_format_check(&m->cf))
			return error("%s: [cf]: the control-flow format is refused", rd->name);
	} else if (!strcmp(s->name, "lv") && m->lv_on) {
		if (dc_fa_config_check(&m->cache))
			return bad(rd, "lv", "cache", get(rd, "lv", "cache"),
				   "refused by the cache model (shared = %d, %d cores)",
				   m->cache.shared, m->cache.ncores);
		if (st_lv_format_check(&m->lv))
			return error("%s: [lv]: the load-value format is refused", rd->name);
	}
	return 0;
}

static const struct mf_key *find_key(const struct mf_section *s, const char *key, size_t n)
{
	for (size_t j = 0; j < n; j++)
		if (!strcmp(s->keys[j].key, key))
			return &s->keys[j];
	return NULL;
}

/*
 * Every entry of the dictionary must be a section or a key of the layout.
 * iniparser stores a section as "name" (value NULL) and a key as
 * "section:key", in file order, both lowercased.
 */
static int check_unknown(const struct mf_reader *rd, const struct mf_section *s, size_t n,
			 const struct st_manifest *m)
{
	const dictionary *d = rd->d;

	for (ssize_t i = 0; i < d->size; i++) {
		const char *full = d->key[i], *colon, *val = d->val[i] ? d->val[i] : "";
		char sec[64];
		size_t j;

		if (!full)
			continue;
		colon = strchr(full, ':');
		snprintf(sec, sizeof(sec), "%.*s", colon ? (int)(colon - full) : (int)strlen(full),
			 full);
		if (colon && !*sec)
			return error("%s: %s = '%s': key outside any section", rd->name, colon + 1,
				     val);
		for (j = 0; j < n; j++)
			if (!strcmp(s[j].name, sec))
				break;
		if (j == n) {
			if (!strncmp(sec, "core", 4) && sec[4])
				return error("%s: [%s]: unknown section (the board has %d cores: "
					     "[core0] to [core%d])",
					     rd->name, sec, m->ncores, m->ncores - 1);
			return error("%s: [%s]: unknown section", rd->name, sec);
		}
		if (!colon || find_key(&s[j], colon + 1, s[j].nactive))
			continue;
		if (find_key(&s[j], colon + 1, s[j].nkeys))
			return bad(rd, sec, colon + 1, val,
				   strcmp(sec, "port")
				       ? "unknown key (encoding = none has no other keys)"
				   : m->port.cycle_counting
				       ? "an ETMv4's alone (etm3's cycle-accurate mode has no threshold)"
				       : "only with cycle_counting = 1");
		return bad(rd, sec, colon + 1, val, "unknown key");
	}
	return 0;
}

/* The first message iniparser gives while loading, on one line. */
static char ini_msg[512];

static int ini_error(const char *fmt, ...)
{
	char one[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(one, sizeof(one), fmt, ap);
	va_end(ap);
	if (!ini_msg[0])
		snprintf(ini_msg, sizeof(ini_msg), "%s", one);
	return 0;
}

static dictionary *load(const char *file, const char *name)
{
	struct stat st;
	dictionary *d;
	FILE *f;
	char *p;

	/* iniparser only says "cannot open": find out why ourselves */
	f = fopen(file, "r");
	if (!f) {
		error("%s: cannot read: %s", name, strerror(errno));
		return NULL;
	}
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		error("%s: cannot read: %s", name, strerror(EISDIR));
		return NULL;
	}
	fclose(f);

	ini_msg[0] = 0;
	iniparser_set_error_callback(ini_error);
	d = iniparser_load(file);
	iniparser_set_error_callback(NULL);
	if (d)
		return d;
	/* "iniparser: syntax error in F (3):\n-> text\n" -> "syntax error in F (3): text" */
	p = ini_msg;
	if (!strncmp(p, "iniparser: ", 11))
		p += 11;
	for (char *q = p; *q; q++)
		if (*q == '\n')
			*q = ' ';
	for (char *q; (q = strstr(p, " -> "));)
		memmove(q + 1, q + 4, strlen(q + 4) + 1);
	for (size_t n = strlen(p); n && p[n - 1] == ' ';)
		p[--n] = 0;
	error("%s: %s", name, *p ? p : "not an INI file");
	return NULL;
}

/*
 * Read file, naming it `name` in messages (st_manifest_write checks its
 * temporary file under the final name).
 */
static int read_manifest(const char *file, const char *name, struct st_manifest *out)
{
	struct mf_reader rd = {name, NULL};
	struct mf_section s[MF_MAX_SECTIONS];
	struct st_manifest m;
	const char *v;
	size_t n;
	int ret = -1;

	rd.d = load(file, name);
	if (!rd.d)
		return -1;
	st_manifest_init(&m);

	/*
	 * First what decides which sections and keys exist, so that an
	 * unknown key is reported as such and not as the missing key it was
	 * perhaps meant to be.
	 */
	if (!(v = get(&rd, "board", "cores")) ||
	    parse_value(&rd, "board", &board_keys[0], -1, v, &m))
		goto out;
	if (!(v = get(&rd, "cf", "encoding")) || parse_value(&rd, "cf", &cf_keys[0], -1, v, &m))
		goto out;
	if (!(v = get(&rd, "lv", "encoding")) || parse_value(&rd, "lv", &lv_keys[0], -1, v, &m))
		goto out;
	m.has_truth = iniparser_find_entry(rd.d, "truth");
	/* [port] cycle_counting is there only when on (then it must say 1) */
	m.port.cycle_counting = iniparser_find_entry(rd.d, "port:cycle_counting");
	n = layout(&m, s);
	if (check_unknown(&rd, s, n, &m))
		goto out;

	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < s[i].nactive; j++) {
			const struct mf_key *k = &s[i].keys[j];

			if (!(v = get(&rd, s[i].name, k->key)) ||
			    parse_value(&rd, s[i].name, k, s[i].core, v, &m))
				goto out;
		}
		if (check_section(&rd, &s[i], &m))
			goto out;
	}
	*out = m;
	ret = 0;
out:
	iniparser_freedict(rd.d);
	return ret;
}

/*
 * The core count is stated once, [board] cores, but struct st_manifest
 * carries it four times (ncores, cf.ncores, lv.ncores, cache.ncores) so
 * that each sub-struct can be handed to its module as it is. Reading sets
 * all four from [board] cores (also for a stream whose encoding is none);
 * writing refuses a manifest where an enabled stream's copy differs.
 */
int st_manifest_read(const char *path, struct st_manifest *m)
{
	return read_manifest(path, path, m);
}

/* ---- writing ------------------------------------------------------------ */

/* The text of m into a malloc'ed string (*text), or -1. */
static int manifest_text(const struct st_manifest *m, const char *path, char **text)
{
	size_t len;
	FILE *f = open_memstream(text, &len);
	int r;

	if (!f)
		return error("%s: cannot format the manifest: %s", path, strerror(errno));
	r = print_manifest(m, path, f);
	if (fclose(f) || r) {
		free(*text);
		*text = NULL;
		return r ? r : error("%s: cannot format the manifest: %s", path, strerror(errno));
	}
	return 0;
}

/* Name the first line of a that b has differently. */
static int not_read_back(const char *path, const char *a, const char *b)
{
	while (*a && *a == *b) {
		const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');

		if (!ea || !eb || ea - a != eb - b || memcmp(a, b, ea - a))
			break;
		a = ea + 1;
		b = eb + 1;
	}
	return error("%s: '%.*s' would read back as '%.*s' (no ';', '#' or quotes in values, no "
		     "spaces around them)",
		     path, (int)strcspn(a, "\n"), a, (int)strcspn(b, "\n"), b);
}

int st_manifest_write(const struct st_manifest *m, const char *path)
{
	size_t plen = strlen(path);
	char *tmp = xmalloc(plen + 5), *text = NULL, *again = NULL;
	struct st_manifest back;
	FILE *f = NULL;
	int ret = -1;

	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp", 5);

	/* the core count is written once: the copies must agree (see st_manifest_read) */
	if (m->ncores < 1 || m->ncores > ST_CF_MAX_CORES) {
		error("%s: [board] cores = '%d': out of range (1..%d)", path, m->ncores,
		      ST_CF_MAX_CORES);
		goto out;
	}
	if ((m->cf_on && m->cf.ncores != m->ncores) || (m->lv_on && m->lv.ncores != m->ncores) ||
	    (m->lv_on && m->cache.ncores != m->ncores)) {
		error("%s: %d cores, but the cf format has %d, the lv format %d, the cache model "
		      "%d",
		      path, m->ncores, m->cf.ncores, m->lv.ncores, m->cache.ncores);
		goto out;
	}
	if (manifest_text(m, path, &text))
		goto out;

	f = fopen(tmp, "w");
	if (!f) {
		error("%s: cannot create %s: %s", path, tmp, strerror(errno));
		goto out;
	}
	if (fputs(text, f) == EOF || fflush(f) || fsync(fileno(f))) {
		error("%s: cannot write %s: %s", path, tmp, strerror(errno));
		goto out_unlink;
	}
	if (fclose(f)) {
		f = NULL;
		error("%s: cannot write %s: %s", path, tmp, strerror(errno));
		goto out_unlink;
	}
	f = NULL;

	/*
	 * Refuse to write what st_manifest_read would refuse or read
	 * differently (a ';' in a value starts a comment): read the
	 * temporary file back, under the final name so the messages are the
	 * reader's, and compare its text with ours.
	 */
	if (read_manifest(tmp, path, &back))
		goto out_unlink;
	if (manifest_text(&back, path, &again))
		goto out_unlink;
	if (strcmp(text, again)) {
		not_read_back(path, text, again);
		goto out_unlink;
	}

	if (rename(tmp, path)) {
		error("%s: cannot rename %s to it: %s", path, tmp, strerror(errno));
		goto out_unlink;
	}
	ret = 0;
	goto out;
out_unlink:
	if (f)
		fclose(f);
	unlink(tmp);
out:
	free(again);
	free(text);
	free(tmp);
	return ret;
}

/* ---- raptor import's configuration ---------------------------------------------------- */

int st_import_cfg_read(const char *path, struct st_import_cfg *out)
{
	static const char *const keys[] = {"format",	 "cores",      "framed",   "tpiu",
					   "trace_ids",	 "sync_period", "arch",	   "cpu",
					   "core_bytes", "trcidr0",    "trcidr1",  "trcidr2",
					   "trcidr8",	 "trcconfigr", "etmidr",   "etmcr",
					   "etmccer",	 "cycle_counting", "cc_threshold"};
	static const char *const r4[] = {"trcidr0", "trcidr1", "trcidr2", "trcidr8", "trcconfigr"};
	static const char *const r3[] = {"etmidr", "etmcr", "etmccer"};
	struct mf_reader rd = {path, NULL};
	struct st_import_cfg c;
	const char *v;
	uint64_t n;
	int ids = 0, ret = -1;

	rd.d = load(path, path);
	if (!rd.d)
		return -1;
	memset(&c, 0, sizeof(c));
	c.arch = -1;
	c.port.sync_period = 4096;
	for (ssize_t i = 0; i < rd.d->size; i++) {
		const char *full = rd.d->key[i];
		size_t k;

		if (!full)
			continue;
		if (strncmp(full, "trace", 5) || (full[5] && full[5] != ':')) {
			error("%s: [%.*s]: unknown section (the configuration has [trace] only)", path,
			      (int)strcspn(full, ":"), full);
			goto out;
		}
		if (!full[5])
			continue;
		for (k = 0; k < ARRAY_SIZE(keys) && strcmp(full + 6, keys[k]); k++)
			;
		if (k == ARRAY_SIZE(keys)) {
			bad(&rd, "trace", full + 6, rd.d->val[i] ? rd.d->val[i] : "", "unknown key");
			goto out;
		}
	}
	if (!(v = get(&rd, "trace", "format")))
		goto out;
	if (st_port_parse(v, &c.port.kind)) {
		bad(&rd, "trace", "format", v, "not etm4, etm3 or mtb");
		goto out;
	}
	if (!(v = get(&rd, "trace", "cores")) ||
	    parse_number(&rd, "trace", "cores", v, 1, ST_CF_MAX_CORES, &n))
		goto out;
	c.ncores = (int)n;
	if (!(v = get(&rd, "trace", "framed")))
		goto out;
	if (strcmp(v, "0") && strcmp(v, "1")) {
		bad(&rd, "trace", "framed", v, "not 0 or 1");
		goto out;
	}
	c.port.framed = v[0] == '1';
	if (c.port.framed && c.port.kind == ST_PORT_MTB) {
		bad(&rd, "trace", "framed", v, "an MTB buffer is read from SRAM, not through the "
		    "formatter");
		goto out;
	}
	if ((v = iniparser_getstring(rd.d, "trace:tpiu", NULL))) {
		if (strcmp(v, "0") && strcmp(v, "1")) {
			bad(&rd, "trace", "tpiu", v, "not 0 or 1");
			goto out;
		}
		c.port.tpiu = v[0] == '1';
		if (c.port.tpiu && !c.port.framed) {
			bad(&rd, "trace", "tpiu", v, "a TPIU sends formatter frames: framed = 1");
			goto out;
		}
	}
	if (!(v = get(&rd, "trace", "trace_ids")))
		goto out;
	error_quiet(1);
	n = st_port_parse_ids(v, c.port.trace_id, ST_CF_MAX_CORES, &ids);
	error_quiet(-1);
	if (n) {
		bad(&rd, "trace", "trace_ids", v, "%s", error_last());
		goto out;
	}
	if (ids != c.ncores) {
		bad(&rd, "trace", "trace_ids", v, "%d IDs for %d cores", ids, c.ncores);
		goto out;
	}
	if ((v = iniparser_getstring(rd.d, "trace:sync_period", NULL))) {
		if (parse_number(&rd, "trace", "sync_period", v, 256, 1u << 20, &n))
			goto out;
		if (n & (n - 1)) {
			bad(&rd, "trace", "sync_period", v, "not a power of 2");
			goto out;
		}
		c.port.sync_period = (unsigned)n;
	}
	if ((v = iniparser_getstring(rd.d, "trace:arch", NULL))) {
		if (strcmp(v, "v7m") && strcmp(v, "v8m")) {
			bad(&rd, "trace", "arch", v, "not v7m or v8m");
			goto out;
		}
		c.arch = !strcmp(v, "v8m");
	}
	/* the probe's dump of the registers: those not given keep the modelled values */
	for (int i = 0; i < 5; i++) {
		char full[32];
		const char *other = i < 3 ? r3[i] : NULL;

		snprintf(full, sizeof(full), "trace:%s", r4[i]);
		if (iniparser_getstring(rd.d, full, NULL) && c.port.kind != ST_PORT_ETM4) {
			bad(&rd, "trace", r4[i], iniparser_getstring(rd.d, full, ""),
			    "an ETMv4 register, and the format is %s", st_port_name(c.port.kind));
			goto out;
		}
		snprintf(full, sizeof(full), "trace:%s", other ? other : "");
		if (other && iniparser_getstring(rd.d, full, NULL) && c.port.kind != ST_PORT_ETM3) {
			bad(&rd, "trace", other, iniparser_getstring(rd.d, full, ""),
			    "an ETMv3 register, and the format is %s", st_port_name(c.port.kind));
			goto out;
		}
	}
	if (c.port.kind != ST_PORT_MTB) {
		int nr = c.port.kind == ST_PORT_ETM4 ? 5 : 3;
		const char *const *names = c.port.kind == ST_PORT_ETM4 ? r4 : r3;

		for (int i = 0; i < nr; i++) {
			char full[32];

			snprintf(full, sizeof(full), "trace:%s", names[i]);
			if (!(v = iniparser_getstring(rd.d, full, NULL)))
				continue;
			if (parse_number(&rd, "trace", names[i], v, 0, UINT32_MAX, &n))
				goto out;
			c.regs_given |= 1u << i;
			c.port.regs[i] = (uint32_t)n;
		}
	}
	if ((v = iniparser_getstring(rd.d, "trace:cycle_counting", NULL))) {
		if (parse_number(&rd, "trace", "cycle_counting", v, 0, 1, &n))
			goto out;
		if (n && c.port.kind == ST_PORT_MTB) {
			bad(&rd, "trace", "cycle_counting", v, "ETMv4 cycle counting or ETMv3.5 "
			    "cycle-accurate mode, and the format is mtb");
			goto out;
		}
		c.port.cycle_counting = (int)n;
		c.port.cc_threshold = n && c.port.kind == ST_PORT_ETM4 ? 1 : 0;
	}
	/* an ETMv3 dump's ETMCR says the mode too (bit 12, etm/etm3.h's
	   ETM3_CR_CYCLE_ACC): the two must agree */
	if (c.port.kind == ST_PORT_ETM3 && (c.regs_given & 2) &&
	    iniparser_getstring(rd.d, "trace:cycle_counting", NULL) &&
	    !(c.port.regs[1] & ETMCR_CYCLE_ACC) != !c.port.cycle_counting) {
		bad(&rd, "trace", "etmcr", iniparser_getstring(rd.d, "trace:etmcr", ""),
		    "bit 12 (cycle accurate) %s, and cycle_counting = %d says otherwise",
		    c.port.regs[1] & ETMCR_CYCLE_ACC ? "set" : "clear", c.port.cycle_counting);
		goto out;
	}
	if ((v = iniparser_getstring(rd.d, "trace:cc_threshold", NULL))) {
		if (!c.port.cycle_counting || c.port.kind != ST_PORT_ETM4) {
			bad(&rd, "trace", "cc_threshold", v,
			    c.port.kind != ST_PORT_ETM4
				? "an ETMv4's threshold (ETMv3.5 cycle-accurate mode has none)"
				: "needs cycle_counting = 1");
			goto out;
		}
		if (parse_number(&rd, "trace", "cc_threshold", v, 1, 4095, &n))
			goto out;
		c.port.cc_threshold = (unsigned)n;
	}
	if ((v = iniparser_getstring(rd.d, "trace:cpu", NULL)))
		snprintf(c.cpu, sizeof(c.cpu), "%s", v);
	if ((v = iniparser_getstring(rd.d, "trace:core_bytes", NULL))) {
		struct st_manifest m;
		struct mf_key k = {"core_bytes", MF_BYTES, 0};

		if (c.port.framed) {
			bad(&rd, "trace", "core_bytes", v, "a framed capture says which bytes are "
			    "whose itself");
			goto out;
		}
		memset(&m, 0, sizeof(m));
		m.ncores = c.ncores;
		if (parse_value(&rd, "trace", &k, -1, v, &m))
			goto out;
		memcpy(c.port.bytes, m.port.bytes, sizeof(c.port.bytes));
		c.have_bytes = 1;
	} else if (!c.port.framed && c.ncores > 1) {
		error("%s: [trace] core_bytes is missing: %d cores' raw streams in one file need "
		      "each core's length", path, c.ncores);
		goto out;
	}
	*out = c;
	ret = 0;
out:
	iniparser_freedict(rd.d);
	return ret;
}

#include "analysis/recstats.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/recorder.h"

/* Debian installs iniparser under /usr/include/iniparser/, upstream in /usr/include. */
#if __has_include(<iniparser.h>)
#include <iniparser.h>
#else
#include <iniparser/iniparser.h>
#endif

static const char *const enc_names[AN_NENC] = {
    "nxb",   "tnxb",  "trb",	"ttrb",	 "tre",	   "ttre",   "tra",	"ttra",	   "nxlv",
    "tnxlv", "cfiat", "tcfiat", "mc2rt", "tmc2rt", "cfiata", "tcfiata", "nxlv.gz", "tnxlv.gz",
};

/* The adaptive encodings: tra, ttra (twins 2 before), cfiata, tcfiata (4 before). */
#define AN_TRA 6
#define AN_CFIATA (AN_LV_FIRST + 6)

static const char *const field_keys[AN_NFIELDS] = {
    "cc", "ti", "cnt", "tnt", "ta", "icnt", "exc", "value",
};

static const struct {
	const char *key, *label;
	int enc;
	enum an_field field;
	struct st_vlc def;
} hists[AN_NHIST] = {
    {"cf.cnt", "bCnt", 5, AN_F_CNT, ST_VLC_TRE_BCNT},
    {"cf.ta", "|diffTA|", 5, AN_F_TA, ST_VLC_TRE_DIFFTA},
    {"cf.cc", "diffCC", 5, AN_F_CC, ST_VLC_TRE_DIFFCC},
    {"cf.icnt", "iCnt", 5, AN_F_ICNT, ST_VLC_TRE_ICNT},
    {"lv.cnt", "fahCnt", AN_LV_FIRST + 3, AN_F_CNT, ST_VLC_FAHCNT},
    {"lv.cc", "dCC", AN_LV_FIRST + 3, AN_F_CC, ST_VLC_TRE_DIFFCC},
};

const char *an_enc_name(int e)
{
	return e >= 0 && e < AN_NENC ? enc_names[e] : "?";
}

const char *an_enc_stream(int e)
{
	return e < AN_LV_FIRST ? "cf" : "lv";
}

int an_enc_timed(int e)
{
	return e & 1;
}

int an_enc_baseline(int e)
{
	return e < AN_LV_FIRST ? (e & 1) : AN_LV_FIRST + (e & 1);
}

int an_enc_fixed_twin(int e)
{
	if (e == AN_TRA || e == AN_TRA + 1)
		return e - 2;
	if (e == AN_CFIATA || e == AN_CFIATA + 1)
		return e - 4;
	return -1;
}

const char *an_field_key(enum an_field f)
{
	return field_keys[f];
}

const char *an_hist_key(enum an_hfield h)
{
	return hists[h].key;
}

const char *an_hist_label(enum an_hfield h)
{
	return hists[h].label;
}

struct st_vlc an_hist_default(enum an_hfield h)
{
	return hists[h].def;
}

int an_hist_enc(enum an_hfield h)
{
	return hists[h].enc;
}

enum an_field an_hist_field(enum an_hfield h)
{
	return hists[h].field;
}

int an_hist_signed(enum an_hfield h)
{
	return h == AN_H_DIFFTA;
}

/* FORMAT.md "Chunked unsigned fields": k chunks take c0 + 1 + (k - 1)(c1 + 1) bits. */
uint64_t an_hist_cost(const uint64_t *n, struct st_vlc ch, int sgn)
{
	uint64_t total = 0;

	for (unsigned len = 0; len < AN_NLEN; len++) {
		uint64_t k = len <= ch.c0 ? 1 : 1 + (len - ch.c0 + ch.c1 - 1) / ch.c1;

		total += n[len] * (ch.c0 + 1 + (k - 1) * (ch.c1 + 1) + (sgn ? 1 : 0));
	}
	return total;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* ---- stats.ini --------------------------------------------------------------- */

struct ini {
	dictionary *d;
	const char *name; /* for messages: REC/stats.ini */
};

static char ini_msg[512];

static int ini_error(const char *fmt, ...)
{
	va_list ap;

	if (ini_msg[0])
		return 0;
	va_start(ap, fmt);
	vsnprintf(ini_msg, sizeof(ini_msg), fmt, ap);
	va_end(ap);
	return 0;
}

static int ini_load(struct ini *ini, const char *file)
{
	FILE *f = fopen(file, "r");
	struct stat st;

	/* iniparser only says "cannot open": find out why ourselves */
	if (!f)
		return error("%s: cannot read: %s", file, strerror(errno));
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fclose(f);
		return error("%s: cannot read: %s", file, strerror(EISDIR));
	}
	fclose(f);
	ini_msg[0] = 0;
	iniparser_set_error_callback(ini_error);
	ini->d = iniparser_load(file);
	iniparser_set_error_callback(NULL);
	ini->name = file;
	if (!ini->d) {
		for (char *q = ini_msg; *q; q++)
			if (*q == '\n')
				*q = ' ';
		return error("%s: not a valid stats file: %s", file,
			     ini_msg[0] ? ini_msg : "iniparser cannot load it");
	}
	return 0;
}

static int has_section(const struct ini *ini, const char *sec)
{
	return iniparser_find_entry(ini->d, sec);
}

/* sec:key as a number; an error names the file, section, key and value. */
static int get_u64(const struct ini *ini, const char *sec, const char *key, uint64_t *out)
{
	char full[128];
	const char *v;

	snprintf(full, sizeof(full), "%s:%s", sec, key);
	v = iniparser_getstring(ini->d, full, NULL);
	if (!v)
		return error("%s: [%s] %s: missing (the recording is damaged or from an older "
			     "raptor)",
			     ini->name, sec, key);
	if (parse_u64(v, out))
		return error("%s: [%s] %s = '%s': not a number", ini->name, sec, key, v);
	return 0;
}

static int get_chunks(const struct ini *ini, const char *sec, struct st_vlc *out)
{
	char full[128];
	const char *v;
	unsigned a, b;
	int used = 0;

	snprintf(full, sizeof(full), "%s:chunks", sec);
	v = iniparser_getstring(ini->d, full, NULL);
	if (!v)
		return error("%s: [%s] chunks: missing", ini->name, sec);
	if (sscanf(v, "%u,%u%n", &a, &b, &used) != 2 || v[used] || a < 1 || a > 64 || b < 1 ||
	    b > 64)
		return error("%s: [%s] chunks = '%s': not C0,C1 with sizes 1 to 64", ini->name, sec,
			     v);
	*out = ST_VLC(a, b);
	return 0;
}

struct key_u64 {
	const char *key;
	size_t off;
};

#define CK(k)                                                                                      \
	{                                                                                          \
#k, offsetof(struct an_core, k)                                                    \
	}
static const struct key_u64 core_keys[] = {
    CK(cycles),
    CK(cond_direct),
    CK(direct),
    CK(calls),
    CK(returns),
    CK(ind_calls),
    CK(ind_jumps),
    CK(cond_indirect),
    CK(exceptions),
    CK(tail_chains),
    CK(outcome_misses),
    CK(target_misses),
    CK(loads),
    CK(stores),
    CK(uncached_loads),
    CK(cfiat_msgs),
    CK(mc2rt_msgs),
    CK(fa_load_hits),
    CK(fa_misses),
    CK(line_misses),
    CK(invalidations),
    CK(mc2rt_trace_hits),
    CK(mc2rt_trace_misses),
    CK(mc2rt_peer_supplied),
    {"instructions", offsetof(struct an_core, insns)},
};
#undef CK

static int read_cores(struct an_rec *r, const struct ini *ini)
{
	uint64_t insns = 0, cycles = 0;
	char sec[16];

	for (int c = 0; c < r->ncores; c++) {
		snprintf(sec, sizeof(sec), "core%d", c);
		for (size_t k = 0; k < ARRAY_SIZE(core_keys); k++) {
			char full[64];

			/* recorded the fast way: the counters of the cache models that ran */
			snprintf(full, sizeof(full), "%s:%s", sec, core_keys[k].key);
			if (r->fast && !r->replayed &&
			    core_keys[k].off >= offsetof(struct an_core, loads) &&
			    !iniparser_find_entry(ini->d, full))
				continue;
			if (get_u64(ini, sec, core_keys[k].key,
				    (uint64_t *)((char *)&r->core[c] + core_keys[k].off)))
				return -1;
		}
		insns += r->core[c].insns;
		if (r->core[c].cycles > cycles)
			cycles = r->core[c].cycles;
	}
	if (insns != r->insns)
		return error("%s: [run] instructions = %llu, but the cores' add up to %llu",
			     ini->name, (unsigned long long)r->insns, (unsigned long long)insns);
	if (cycles != r->cycles)
		return error("%s: [run] cycles = %llu, but the longest core ran %llu", ini->name,
			     (unsigned long long)r->cycles, (unsigned long long)cycles);
	return 0;
}

static int read_encodings(struct an_rec *r, const struct ini *ini)
{
	static const char *const cf_counts[] = {"branch_msgs", "target_msgs", "exc_msgs",
						"end_msgs"};
	char sec[32];

	for (int e = 0; e < AN_NSTREAMS; e++) {
		struct an_enc *en = &r->enc[e];
		uint64_t *counts[] = {&en->branch_msgs, &en->target_msgs, &en->exc_msgs,
				      &en->end_msgs};
		uint64_t sum = 0;

		snprintf(sec, sizeof(sec), "%s.%s", an_enc_stream(e), enc_names[e]);
		if ((an_enc_fixed_twin(e) >= 0 || (r->fast && !r->replayed)) &&
		    !has_section(ini, sec))
			continue; /* made before the adaptive encodings, or not recorded */
		en->present = 1;
		if (get_u64(ini, sec, "bits", &en->bits) || get_u64(ini, sec, "msgs", &en->msgs))
			return -1;
		for (int f = 0; f < AN_NFIELDS; f++) {
			char key[16];
			int cf_field = f != AN_F_VALUE, lv_field = f == AN_F_CC || f == AN_F_TI ||
								   f == AN_F_CNT || f == AN_F_VALUE;

			if (e < AN_LV_FIRST ? !cf_field : !lv_field)
				continue;
			snprintf(key, sizeof(key), "bits_%s", field_keys[f]);
			if (get_u64(ini, sec, key, &en->field[f]))
				return -1;
			sum += en->field[f];
		}
		if (sum != en->bits)
			return error("%s: [%s]: the field bits add up to %llu, not bits = %llu",
				     ini->name, sec, (unsigned long long)sum,
				     (unsigned long long)en->bits);
		for (size_t k = 0; e < AN_LV_FIRST && k < ARRAY_SIZE(cf_counts); k++)
			if (get_u64(ini, sec, cf_counts[k], counts[k]))
				return -1;
		if (e < AN_LV_FIRST &&
		    en->branch_msgs + en->target_msgs + en->exc_msgs + en->end_msgs != en->msgs)
			return error("%s: [%s]: message kinds add up to %llu, not msgs = %llu",
				     ini->name, sec,
				     (unsigned long long)(en->branch_msgs + en->target_msgs +
							  en->exc_msgs + en->end_msgs),
				     (unsigned long long)en->msgs);
		if ((e == AN_LV_FIRST || e == AN_LV_FIRST + 1) && !(r->fast && !r->replayed)) {
			struct an_enc *gz = &r->enc[AN_GZ_FIRST + (e & 1)];

			if (get_u64(ini, sec, "gzip1_bits", &gz->bits))
				return -1;
			gz->present = 1;
		}
	}
	return 0;
}

static int read_hists(struct an_rec *r, const struct ini *ini)
{
	char sec[32];

	for (int h = 0; h < AN_NHIST; h++) {
		struct an_hist *hi = &r->hist[h];
		const char **keys;
		int nkeys;
		uint64_t want, got;

		snprintf(sec, sizeof(sec), "hist.%s", hists[h].key);
		if (!has_section(ini, sec))
			continue;
		if (get_chunks(ini, sec, &hi->chunks))
			return -1;
		nkeys = iniparser_getsecnkeys(ini->d, sec);
		keys = xcalloc(nkeys > 0 ? nkeys : 1, sizeof(*keys));
		iniparser_getseckeys(ini->d, sec, keys);
		for (int k = 0; k < nkeys; k++) {
			const char *key = strchr(keys[k], ':') + 1;
			unsigned len;
			int used = 0;

			if (sscanf(key, "len%u%n", &len, &used) != 1 || key[used])
				continue; /* encoding, chunks, or a key of a later raptor */
			if (len >= AN_NLEN || get_u64(ini, sec, key, &hi->n[len])) {
				free(keys);
				return len >= AN_NLEN
					   ? error("%s: [%s] %s: no value is %u bits long",
						   ini->name, sec, key, len)
					   : -1;
			}
		}
		free(keys);
		/* the histogram and the encoder's count are made apart: they must agree */
		want = r->enc[hists[h].enc].field[hists[h].field];
		got = an_hist_cost(hi->n, hi->chunks, an_hist_signed(h));
		if (got != want)
			return error("%s: [%s]: the values take %llu bits with chunks %u,%u, but "
				     "[%s.%s] bits_%s = %llu",
				     ini->name, sec, (unsigned long long)got, hi->chunks.c0,
				     hi->chunks.c1, an_enc_stream(hists[h].enc),
				     enc_names[hists[h].enc], field_keys[hists[h].field],
				     (unsigned long long)want);
		hi->present = 1;
	}
	return 0;
}

/* ---- timeline.csv ------------------------------------------------------------ */

static int read_timeline(struct an_rec *r, const struct ini *ini, const char *dir)
{
	char *path = NULL, *line = NULL, want[256];
	uint64_t sums[AN_NSTREAMS] = {0}, row = 0, rows, alloc = 0;
	int col[AN_NSTREAMS], ncol = 0; /* column k holds encoding col[k] */
	const char *file;
	size_t cap = 0;
	FILE *f;
	int ret = -1;

	if (!has_section(ini, "timeline"))
		return 0;
	if (get_u64(ini, "timeline", "window", &r->window) ||
	    get_u64(ini, "timeline", "windows", &r->nwin))
		return -1;
	file = iniparser_getstring(ini->d, "timeline:file", NULL);
	if (!file || strchr(file, '/') || !*file)
		return error("%s: [timeline] file = '%s': not a file name in the recording",
			     ini->name, file ? file : "");
	if (!r->window || !r->nwin || r->nwin > 10000000)
		return error("%s: [timeline]: %llu windows of %llu cycles", ini->name,
			     (unsigned long long)r->nwin, (unsigned long long)r->window);
	rows = r->nwin * r->ncores;
	path = join(dir, file);
	f = fopen(path, "r");
	if (!f) {
		error("%s: cannot read: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	/* a column per encoding in stats.ini: an older recording has no adaptive ones */
	snprintf(want, sizeof(want), "start,core");
	for (int e = 0; e < AN_NSTREAMS; e++)
		if (r->enc[e].present) {
			snprintf(want + strlen(want), sizeof(want) - strlen(want), ",%s",
				 enc_names[e]);
			col[ncol++] = e;
		}
	if (getline(&line, &cap, f) < 0 || strcspn(line, "\n") != strlen(want) ||
	    strncmp(line, want, strlen(want))) {
		error("%s: line 1: not the header '%s'", path, want);
		goto out;
	}
	for (; getline(&line, &cap, f) >= 0; row++) {
		uint64_t v[2 + AN_NSTREAMS] = {0}, w = row / r->ncores;
		char *p = line, *end;

		if (row >= rows) {
			error("%s: line %llu: more rows than the %llu windows x %d cores of "
			      "stats.ini",
			      path, (unsigned long long)row + 2, (unsigned long long)r->nwin,
			      r->ncores);
			goto out;
		}
		for (int k = 0; k < 2 + ncol; k++) {
			errno = 0;
			v[k] = strtoull(p, &end, 10);
			if (end == p || errno ||
			    (k == 1 + ncol ? *end && *end != '\n' : *end != ',')) {
				error("%s: line %llu: field %d is not a number", path,
				      (unsigned long long)row + 2, k + 1);
				goto out;
			}
			p = end + 1;
		}
		if (v[0] != w * r->window || v[1] != row % r->ncores) {
			error("%s: line %llu: window start %llu core %llu, expected %llu core %llu",
			      path, (unsigned long long)row + 2, (unsigned long long)v[0],
			      (unsigned long long)v[1], (unsigned long long)(w * r->window),
			      (unsigned long long)(row % r->ncores));
			goto out;
		}
		if (row == alloc) {
			/* grow with the file, not with what a damaged stats.ini claims */
			alloc = alloc ? 2 * alloc : 1024;
			r->tl = xrealloc(r->tl, alloc * AN_NSTREAMS * sizeof(*r->tl));
		}
		memset(r->tl + row * AN_NSTREAMS, 0, AN_NSTREAMS * sizeof(*r->tl));
		for (int k = 0; k < ncol; k++) {
			r->tl[row * AN_NSTREAMS + col[k]] = v[2 + k];
			sums[col[k]] += v[2 + k];
		}
	}
	if (row != rows) {
		error("%s: %llu rows, stats.ini [timeline] says %llu windows x %d cores", path,
		      (unsigned long long)row, (unsigned long long)r->nwin, r->ncores);
		goto out;
	}
	for (int e = 0; e < AN_NSTREAMS; e++)
		if (sums[e] != r->enc[e].bits) {
			error("%s: the %s column adds up to %llu bits, stats.ini says %llu", path,
			      enc_names[e], (unsigned long long)sums[e],
			      (unsigned long long)r->enc[e].bits);
			goto out;
		}
	ret = 0;
out:
	if (ret) {
		free(r->tl);
		r->tl = NULL;
	}
	free(line);
	free(path);
	fclose(f);
	return ret;
}

/* ---- the recording ------------------------------------------------------------ */

/* The stream file holds ceil(bits / 8) bytes and stats.ini agrees on bits. */
static int check_stream(const struct an_rec *r, const char *sec, const char *file, uint64_t bits,
			int e)
{
	char *path;
	struct stat st;
	int ret = 0;

	if (!r->enc[e].present)
		return error("%s/manifest.ini: [%s] records %s, but stats.ini has no [%s.%s]",
			     r->dir, sec, enc_names[e], sec, enc_names[e]);
	if (bits != r->enc[e].bits)
		return error("%s/manifest.ini: [%s] bits = %llu, but stats.ini [%s.%s] bits = %llu",
			     r->dir, sec, (unsigned long long)bits, sec, enc_names[e],
			     (unsigned long long)r->enc[e].bits);
	path = join(r->dir, file);
	if (stat(path, &st))
		ret = error("%s: cannot read: %s", path, strerror(errno));
	else if ((uint64_t)st.st_size != (bits + 7) / 8)
		ret = error("%s: %llu bytes, but manifest.ini [%s] bits = %llu needs %llu", path,
			    (unsigned long long)st.st_size, sec, (unsigned long long)bits,
			    (unsigned long long)((bits + 7) / 8));
	free(path);
	return ret;
}

/*
 * What the fast recording's stats.ini holds (orig) must be what the replay
 * computed (comp): every key, but for [run] encodings and chunks.
 */
static int same_as_replay(const struct ini *orig, const struct ini *comp)
{
	int nsec = iniparser_getnsec(orig->d), ret = 0;

	for (int i = 0; i < nsec && !ret; i++) {
		const char *sec = iniparser_getsecname(orig->d, i);
		int nkeys = iniparser_getsecnkeys(orig->d, sec);
		const char **keys = xcalloc(nkeys > 0 ? nkeys : 1, sizeof(*keys));

		iniparser_getseckeys(orig->d, sec, keys);
		for (int k = 0; k < nkeys && !ret; k++) {
			const char *a = iniparser_getstring(orig->d, keys[k], ""),
				   *b = iniparser_getstring(comp->d, keys[k], NULL);

			if (!strcmp(keys[k], "run:encodings") || !strcmp(keys[k], "run:chunks"))
				continue;
			if (!b || strcmp(a, b))
				ret = error("%s: [%s] %s = %s, but replaying the recording gives "
					    "%s",
					    orig->name, sec, strchr(keys[k], ':') + 1, a,
					    b ? b : "no such key");
		}
		free(keys);
	}
	return ret;
}

/* Remove what rec_restat wrote into tmp, and tmp. */
static void remove_tmp(char *tmp)
{
	char *p;

	if (!tmp)
		return;
	p = join(tmp, "stats.ini");
	unlink(p);
	free(p);
	p = join(tmp, "timeline.csv");
	unlink(p);
	free(p);
	rmdir(tmp);
	free(tmp);
}

int an_rec_load(struct an_rec *r, const char *dir)
{
	struct ini ini = {NULL, NULL}, comp = {NULL, NULL}, *use = &ini;
	char *path, *tmp = NULL, *cpath = NULL;
	const char *encs;
	uint64_t v;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	r->dir = dir;
	r->recorded_cf = r->recorded_lv = -1;
	path = join(dir, "manifest.ini");
	if (st_manifest_read(path, &r->mf)) {
		free(path);
		return error("%s: not a readable recording", dir);
	}
	free(path);
	r->ncores = r->mf.ncores;
	path = join(dir, "stats.ini");
	if (ini_load(&ini, path))
		goto out;
	r->lv_known = 1;
	encs = iniparser_getstring(ini.d, "run:encodings", NULL);
	if (encs && strcmp(encs, "recorded")) {
		error("%s: [run] encodings = '%s': not 'recorded'", path, encs);
		goto out;
	}
	r->fast = encs != NULL;
	if (r->fast && r->mf.cf_on && r->mf.lv_on) {
		/* the other encodings: run them on a replay of the recording */
		const char *t = getenv("TMPDIR");
		size_t n = strlen(t && *t ? t : "/tmp") + 32;

		tmp = xmalloc(n);
		snprintf(tmp, n, "%s/raptor-stat.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(tmp)) {
			error("cannot create a directory '%s': %m", tmp);
			free(tmp);
			tmp = NULL;
			goto out;
		}
		if (rec_restat(dir, iniparser_getstring(ini.d, "run:chunks", NULL), tmp))
			goto out;
		cpath = join(tmp, "stats.ini");
		if (ini_load(&comp, cpath) || same_as_replay(&ini, &comp))
			goto out;
		r->replayed = 1;
		use = &comp;
	} else if (r->fast) {
		r->lv_known = r->mf.lv_on;
	}
	if (get_u64(use, "run", "cores", &v))
		goto out;
	if (v != (uint64_t)r->ncores) {
		error("%s: [run] cores = %llu, manifest.ini says %d", path, (unsigned long long)v,
		      r->ncores);
		goto out;
	}
	if (get_u64(use, "run", "instructions", &r->insns) ||
	    get_u64(use, "run", "cycles", &r->cycles) || get_u64(use, "run", "exited", &v))
		goto out;
	r->exited = v != 0;
	if (get_u64(use, "run", "status", &v))
		goto out;
	r->status = (int)v;
	if (read_cores(r, use) || read_encodings(r, use) || read_hists(r, use))
		goto out;
	/* a trace port's cf.bin is not one of the encodings stats.ini counts */
	if (r->mf.cf_on && r->mf.port.kind == ST_PORT_NONE) {
		r->recorded_cf = (int)st_cf_format_enc(&r->mf.cf) * 2 + !!r->mf.cf.timed;
		if (check_stream(r, "cf", r->mf.cf_file, r->mf.cf_bits, r->recorded_cf))
			goto out;
	}
	if (r->mf.lv_on) {
		r->recorded_lv =
		    AN_LV_FIRST + (int)st_lv_format_enc(&r->mf.lv) * 2 + !!r->mf.lv.timed;
		if (check_stream(r, "lv", r->mf.lv_file, r->mf.lv_bits, r->recorded_lv))
			goto out;
	}
	if (read_timeline(r, use, tmp ? tmp : dir))
		goto out;
	ret = 0;
out:
	if (ini.d)
		iniparser_freedict(ini.d);
	if (comp.d)
		iniparser_freedict(comp.d);
	remove_tmp(tmp);
	free(cpath);
	free(path);
	if (ret)
		an_rec_release(r);
	return ret;
}

void an_rec_release(struct an_rec *r)
{
	free(r->tl);
	r->tl = NULL;
	r->nwin = 0;
}

uint64_t an_rec_core_bits(const struct an_rec *r, int core, int e)
{
	uint64_t sum = 0;

	for (uint64_t w = 0; w < r->nwin; w++)
		sum += r->tl[(w * r->ncores + core) * AN_NSTREAMS + e];
	return sum;
}

int an_rec_windows(const struct an_rec *r, uint64_t n, struct an_windows *out)
{
	uint64_t per, k = (uint64_t)r->ncores + 1;

	memset(out, 0, sizeof(*out));
	if (!r->nwin)
		return error("%s: no timeline in this recording (made by an older raptor?): "
			     "record it again",
			     r->dir);
	if (!n || n % r->window)
		return error("--over-time %llu: must be a multiple of this recording's window "
			     "of %llu cycles",
			     (unsigned long long)n, (unsigned long long)r->window);
	per = n / r->window;
	out->n = n;
	out->count = (r->nwin + per - 1) / per;
	out->start = xcalloc(out->count, sizeof(*out->start));
	out->len = xcalloc(out->count, sizeof(*out->len));
	out->bits = xcalloc(out->count * k * AN_NSTREAMS, sizeof(*out->bits));
	for (uint64_t w = 0; w < out->count; w++) {
		out->start[w] = w * n;
		/* window w holds cycles start+1 .. start+n; the run ends at r->cycles */
		out->len[w] = r->cycles > out->start[w] + n ? n
			      : r->cycles > out->start[w]   ? r->cycles - out->start[w]
							    : 1;
	}
	for (uint64_t w = 0; w < r->nwin; w++)
		for (int c = 0; c < r->ncores; c++)
			for (int e = 0; e < AN_NSTREAMS; e++) {
				uint64_t b = r->tl[(w * r->ncores + c) * AN_NSTREAMS + e];
				uint64_t *row = out->bits + (w / per) * k * AN_NSTREAMS;

				row[c * AN_NSTREAMS + e] += b;
				row[r->ncores * AN_NSTREAMS + e] += b;
			}
	return 0;
}

void an_windows_release(struct an_windows *w)
{
	free(w->start);
	free(w->len);
	free(w->bits);
	memset(w, 0, sizeof(*w));
}

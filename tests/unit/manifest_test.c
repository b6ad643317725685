/*
 * manifest_test: the manifest's text is pinned, write then read gives the
 * same struct for every kind of recording, and each way a manifest can be
 * wrong is refused with its exact message.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "streams/manifest.h"
#include "tests/unit/capture.h"
#include "tests/unit/tap.h"

/* ---- helpers ----------------------------------------------------------- */

/* The last line of a capture, without its newline. */
static const char *last_line(const char *text)
{
	static char line[1024];
	size_t n = strlen(text);
	const char *p;

	while (n && text[n - 1] == '\n')
		n--;
	for (p = text + n; p > text && p[-1] != '\n'; p--)
		;
	snprintf(line, sizeof(line), "%.*s", (int)(text + n - p), p);
	return line;
}

static char dir[64];

/* dir/name, in one of 8 buffers used in turn: keep a copy to hold on to it. */
static const char *in_dir(const char *name)
{
	static char bufs[8][256];
	static int k;
	char *b = bufs[k++ % 8];

	snprintf(b, 256, "%s/%s", dir, name);
	return b;
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static char *get_file(const char *path)
{
	static char text[16384];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (!f)
		return NULL;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	return text;
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd32(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static const char sha[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/* What the recorder does: a valid program, and the core count everywhere. */
static void base(struct st_manifest *m, int ncores)
{
	st_manifest_init(m);
	strcpy(m->elf, "program.elf");
	strcpy(m->sha256, sha);
	strcpy(m->tool, "raptor 0.3");
	m->ncores = m->cf.ncores = m->lv.ncores = m->cache.ncores = ncores;
}

/* Field by field (the struct has padding a memcmp would see). */
static const char *diff(const struct st_manifest *a, const struct st_manifest *b)
{
#define SAME(f)                                                                                    \
	do {                                                                                       \
		if (memcmp(&a->f, &b->f, sizeof(a->f)))                                            \
			return #f;                                                                 \
	} while (0)
#define SAMESTR(f)                                                                                 \
	do {                                                                                       \
		if (strcmp(a->f, b->f))                                                            \
			return #f;                                                                 \
	} while (0)
	SAME(complete);
	SAMESTR(tool);
	SAMESTR(elf);
	SAMESTR(sha256);
	SAME(model);
	SAME(ncores);
	SAME(seed);
	SAME(jitter);
	SAME(branch_penalty);
	SAME(miss_penalty);
	SAME(exc_penalty);
	SAME(timing_cache);
	SAME(cf_on);
	SAME(cf);
	SAME(bp);
	SAME(bp_shared);
	SAMESTR(cf_file);
	SAME(cf_bits);
	SAME(port.kind);
	SAME(port.framed);
	SAME(port.sync_period);
	SAME(port.v8m);
	SAME(port.trace_id);
	SAME(port.bytes);
	SAME(port.tpiu);
	SAME(port.have_regs);
	SAME(port.regs);
	SAME(lv_on);
	SAME(lv);
	SAME(cache);
	SAMESTR(lv_file);
	SAME(lv_bits);
	SAME(regs);
	SAME(has_truth);
	SAMESTR(truth_file);
	return NULL;
#undef SAME
#undef SAMESTR
}

/* ---- the text is pinned ------------------------------------------------ */

static const char expected_text[] =
    "; raptor recording manifest: every key is described in docs/FORMAT.md \"manifest.ini\"\n"
    "[recording]\n"
    "format = raptor-recording-1\n"
    "state = complete\n"
    "tool = raptor 0.3\n"
    "[program]\n"
    "elf = program.elf\n"
    "sha256 = 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
    "model = m3\n"
    "[board]\n"
    "cores = 2\n"
    "seed = 1\n"
    "jitter = 8\n"
    "branch_penalty = 2\n"
    "miss_penalty = 10\n"
    "exc_penalty = 12\n"
    "timing_cache = size=32768,assoc=4,line=32\n"
    "[cf]\n"
    "encoding = tre\n"
    "timed = 1\n"
    "predictors = gshare=4096,ras=32,ibtb=64,shift=4\n"
    "shared = 0\n"
    "cnt = 3,2\n"
    "ta = 3,4\n"
    "cc = 4,2\n"
    "icnt = 2,2\n"
    "file = cf.bin\n"
    "bits = 123456\n"
    "[lv]\n"
    "encoding = cfiat\n"
    "timed = 1\n"
    "cache = size=32768,assoc=4,line=32,granule=4\n"
    "shared = 0\n"
    "cnt = 1,2\n"
    "cc = 4,2\n"
    "file = lv.bin\n"
    "bits = 654321\n"
    "[core0]\n"
    "r0 = 0x00000000\n"
    "r1 = 0x00000000\n"
    "r2 = 0x00000000\n"
    "r3 = 0x00000000\n"
    "r4 = 0x00000000\n"
    "r5 = 0x00000000\n"
    "r6 = 0x00000000\n"
    "r7 = 0x00000000\n"
    "r8 = 0x00000000\n"
    "r9 = 0x00000000\n"
    "r10 = 0x00000000\n"
    "r11 = 0x00000000\n"
    "r12 = 0x00000000\n"
    "sp = 0x20001000\n"
    "lr = 0xffffffff\n"
    "pc = 0x00000100\n"
    "xpsr = 0x01000000\n"
    "msp = 0x20001000\n"
    "psp = 0x00000000\n"
    "primask = 0x00000000\n"
    "basepri = 0x00000000\n"
    "faultmask = 0x00000000\n"
    "control = 0x00000000\n"
    "[core1]\n"
    "r0 = 0x00000001\n"
    "r1 = 0x00000000\n"
    "r2 = 0x00000000\n"
    "r3 = 0x00000000\n"
    "r4 = 0x00000000\n"
    "r5 = 0x00000000\n"
    "r6 = 0x00000000\n"
    "r7 = 0x00000000\n"
    "r8 = 0x00000000\n"
    "r9 = 0x00000000\n"
    "r10 = 0x00000000\n"
    "r11 = 0x00000000\n"
    "r12 = 0x00000000\n"
    "sp = 0x20002000\n"
    "lr = 0xffffffff\n"
    "pc = 0x00000100\n"
    "xpsr = 0x01000000\n"
    "msp = 0x20002000\n"
    "psp = 0x00000000\n"
    "primask = 0x00000000\n"
    "basepri = 0x00000000\n"
    "faultmask = 0x00000000\n"
    "control = 0x00000000\n";

static void default_manifest(struct st_manifest *m)
{
	base(m, 2);
	m->complete = 1;
	m->cf_bits = 123456;
	m->lv_bits = 654321;
	for (int c = 0; c < 2; c++) {
		m->regs[c][0] = (uint32_t)c;
		m->regs[c][ISA_R_SP] = m->regs[c][ISA_R_MSP] = 0x20001000u + 0x1000u * c;
		m->regs[c][ISA_R_LR] = 0xffffffffu;
		m->regs[c][ISA_R_PC] = 0x100;
		m->regs[c][ISA_R_XPSR] = 0x01000000u;
	}
}

static void test_defaults(void)
{
	struct st_manifest m, back;
	char path[256];
	const char *text;

	snprintf(path, sizeof(path), "%s", in_dir("default.ini"));
	st_manifest_init(&m);
	tap_ok(!m.complete && !strcmp(m.tool, "raptor") && m.model == ISA_CORTEX_M3 &&
		   m.ncores == 2 && m.seed == 1 && m.jitter == 8,
	       "init: partial, raptor, m3, 2 cores, seed 1, jitter 8");
	tap_ok(m.branch_penalty == 2 && m.miss_penalty == 10 && m.exc_penalty == 12 &&
		   m.timing_cache.size == 32768 && m.timing_cache.assoc == 4 &&
		   m.timing_cache.line == 32,
	       "init: penalties 2/10/12, timing cache 32768/4/32");
	tap_ok(m.cf_on && m.cf.enc == ST_CF_TRE && m.cf.ncores == 2 && m.cf.timed &&
		   m.bp.gshare == 4096 && m.bp.ras == 32 && m.bp.ibtb == 64 && !m.bp_shared &&
		   !strcmp(m.cf_file, "cf.bin"),
	       "init: timed TR_e, large predictors, private, cf.bin");
	tap_ok(m.lv_on && m.lv.enc == ST_LV_CFIAT && m.lv.ncores == 2 && m.lv.timed &&
		   m.cache.ncores == 2 && !m.cache.shared && m.cache.granule == 4 &&
		   !strcmp(m.lv_file, "lv.bin") && !m.has_truth,
	       "init: timed CFiat, private 2-core caches, lv.bin, no truth");

	default_manifest(&m);
	tap_ok(!st_manifest_write(&m, path), "write a default manifest");
	text = get_file(path);
	if (!tap_ok(text && !strcmp(text, expected_text), "its text is the pinned one") && text)
		tap_diag("got:\n%s", text);
	tap_ok(!exists(in_dir("default.ini.tmp")), "no .tmp left behind");
	tap_ok(!st_manifest_read(path, &back) && !diff(&m, &back), "it reads back the same");
}

/* ---- round trips ------------------------------------------------------- */

static void cfg_one_core(struct st_manifest *m)
{
	base(m, 1);
	m->model = ISA_CORTEX_M4;
	st_cf_format_init(&m->cf, ST_CF_NXB, 1, 1);
	st_lv_format_init(&m->lv, ST_LV_NXLV, 1, 1);
	m->has_truth = 1;
	m->complete = 0;
}

static void cfg_three_cores(struct st_manifest *m)
{
	base(m, 3);
	st_cf_format_init(&m->cf, ST_CF_TRB, 3, 0);
	st_lv_format_init(&m->lv, ST_LV_MC2RT, 3, 0);
	m->cf.cnt = ST_VLC(64, 1);
	m->lv.cc = ST_VLC(1, 64);
	m->bp = (struct bp_config){.gshare = 512, .ras = 8, .ibtb = 0, .shift = 4};
	m->bp_shared = 1;
	m->cache.shared = 1;
	m->cache.size = 1024;
	m->cache.assoc = 2;
	m->cache.line = 64;
	m->cache.granule = 8;
	m->seed = UINT64_MAX;
	m->jitter = 0;
	m->cf_bits = UINT64_MAX;
	m->lv_bits = 1;
	strcpy(m->cf_file, "a-very.long_name-of.sixty-three-characters.0123456789abcdefghij");
	strcpy(m->tool, "raptor 0.3 (built by hand, with = and , in it)");
}

static void cfg_eight_none(struct st_manifest *m)
{
	base(m, 8);
	m->cf_on = 0;
	m->lv_on = 0;
	m->has_truth = 1;
	strcpy(m->truth_file, "t.gz");
}

static void cfg_eight_tre(struct st_manifest *m)
{
	base(m, 8);
	m->cf.cnt = ST_VLC(5, 7);
	m->cf.ta = ST_VLC(2, 9);
	m->cf.cc = ST_VLC(6, 3);
	m->cf.icnt = ST_VLC(1, 1);
	m->lv.cnt = ST_VLC(2, 3);
	m->lv.cc = ST_VLC(3, 3);
	m->timing_cache = (struct dc_config){.size = 4096, .assoc = 1, .line = 16};
	m->branch_penalty = 0xffffffffu;
}

static void cfg_cf_only(struct st_manifest *m)
{
	base(m, 2);
	m->lv_on = 0;
	st_cf_format_init(&m->cf, ST_CF_TRB, 2, 1);
}

static void cfg_lv_only(struct st_manifest *m)
{
	base(m, 5);
	m->cf_on = 0;
	st_lv_format_init(&m->lv, ST_LV_CFIAT, 5, 0);
}

/* a trace port: ETMv4, each core's raw stream, ARMv8-M, the engineer's IDs */
static void cfg_etm4_raw(struct st_manifest *m)
{
	base(m, 3);
	m->lv_on = 0;
	m->port.kind = ST_PORT_ETM4;
	m->port.sync_period = 1024;
	m->port.v8m = 1;
	for (int c = 0; c < 3; c++) {
		m->port.trace_id[c] = 0x21 + c;
		m->port.bytes[c] = 5 + c;
	}
	m->cf_bits = 8 * 18;
}

static void cfg_etm3_framed(struct st_manifest *m)
{
	base(m, 2);
	m->lv_on = 0;
	m->port.kind = ST_PORT_ETM3;
	m->port.framed = 1;
	m->port.tpiu = 1;
	m->port.have_regs = 1;
	m->port.regs[0] = 0x4110f250;
	m->port.regs[1] = 0x1000;
	m->port.regs[2] = 0x7;
	m->cf_bits = 8 * 32;
}

static void test_round_trips(void)
{
	static const struct {
		const char *name;
		void (*make)(struct st_manifest *);
	} cfgs[] = {
	    {"1 core, m4, NX_b, NX-LV, truth, partial", cfg_one_core},
	    {"3 cores, untimed TR_b, mc2RT, shared, odd chunks", cfg_three_cores},
	    {"8 cores, no cf, no lv, truth", cfg_eight_none},
	    {"8 cores, TR_e and CFiat with other chunks", cfg_eight_tre},
	    {"2 cores, TR_b only", cfg_cf_only},
	    {"5 cores, untimed CFiat only", cfg_lv_only},
	    {"3 cores, ETMv4 raw streams, v8m, trace IDs 0x21..", cfg_etm4_raw},
	    {"2 cores, ETMv3 in a TPIU's frames, a register dump", cfg_etm3_framed},
	};
	char path[256];

	snprintf(path, sizeof(path), "%s", in_dir("rt.ini"));
	for (size_t i = 0; i < ARRAY_SIZE(cfgs); i++) {
		struct st_manifest m, back;
		const char *d;

		cfgs[i].make(&m);
		for (int c = 0; c < m.ncores; c++)
			for (int r = 0; r < ISA_NREGS; r++)
				m.regs[c][r] = rnd32();
		if (!tap_ok(!st_manifest_write(&m, path), "%s: write", cfgs[i].name))
			continue;
		tap_ok(!exists(in_dir("rt.ini.tmp")), "%s: no .tmp left", cfgs[i].name);
		memset(&back, 0xa5, sizeof(back));
		if (!tap_ok(!st_manifest_read(path, &back), "%s: read", cfgs[i].name))
			continue;
		d = diff(&m, &back);
		if (!tap_ok(!d, "%s: the same struct", cfgs[i].name))
			tap_diag("first difference: %s", d);
	}

	/* with encoding = none the section has nothing else */
	{
		struct st_manifest m;
		const char *text;

		cfg_eight_none(&m);
		tap_ok(!st_manifest_write(&m, path), "write without streams");
		text = get_file(path);
		tap_ok(
		    text &&
			strstr(text, "[cf]\nencoding = none\n[lv]\nencoding = none\n[core0]\n") &&
			strstr(text, "[core7]\n") && !strstr(text, "[core8]") &&
			strstr(text, "control = ") &&
			!strcmp(strstr(text, "[truth]"), "[truth]\nfile = t.gz\n"),
		    "[cf]/[lv] with encoding = none only; [truth] last");
	}
}

/* ---- the reader refuses ------------------------------------------------ */

/* The default manifest's text with the first `from` replaced by `to`. */
static const char *edited(const char *from, const char *to)
{
	static char text[16384];
	const char *p = strstr(expected_text, from);

	if (!p)
		return expected_text;
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(p - expected_text), expected_text, to,
		 p + strlen(from));
	return text;
}

/*
 * Read text as a manifest: it must fail, and the last message line must be
 * "raptor: error: <path>: <want>". Returns the whole capture.
 */
static const char *refused(const char *what, const char *text, const char *want)
{
	const char *path = in_dir("bad.ini");
	struct st_manifest m;
	char line[1024];
	const char *msg;
	int r;

	put_file(path, text);
	capture_start();
	r = st_manifest_read(path, &m);
	msg = capture_end();
	snprintf(line, sizeof(line), "raptor: error: %s: %s", path, want);
	if (!tap_ok(r == -1 && !strcmp(last_line(msg), line), "%s", what))
		tap_diag("got: %s\n# want: %s", msg, line);
	return msg;
}

static void test_refused(void)
{
	const char *msg;

	refused("missing key", edited("seed = 1\n", ""), "[board] seed is missing");
	refused("missing structural key", edited("cores = 2\n", ""), "[board] cores is missing");
	refused("no [core1]", edited("[core1]\n", ""), "[core1] r0 is missing");
	refused("[coreX] for [core1]", edited("[core1]\n", "[coreX]\n"),
		"[corex]: unknown section (the board has 2 cores: [core0] to [core1])");
	refused("unknown key", edited("[board]\n", "[board]\nsed = 1\n"),
		"[board] sed = '1': unknown key");
	refused("unknown key reported before the key it misspells",
		edited("seed = 1\n", "sed = 1\n"), "[board] sed = '1': unknown key");
	refused("unknown section", edited("[cf]\n", "[extra]\nx = 1\n[cf]\n"),
		"[extra]: unknown section");
	refused("empty unknown section", edited("[cf]\n", "[extra]\n[cf]\n"),
		"[extra]: unknown section");
	refused("a key outside any section", edited("[recording]\n", "x = 1\n[recording]\n"),
		"x = '1': key outside any section");
	refused("[core2] in a 2-core manifest", edited("[core1]\n", "[core2]\nr0 = 0\n[core1]\n"),
		"[core2]: unknown section (the board has 2 cores: [core0] to [core1])");
	refused("bad number", edited("jitter = 8", "jitter = eight"),
		"[board] jitter = 'eight': not a number (decimal or 0x hex)");
	refused("trailing junk", edited("jitter = 8", "jitter = 8x"),
		"[board] jitter = '8x': junk after the number: 'x'");
	refused("negative number", edited("jitter = 8", "jitter = -8"),
		"[board] jitter = '-8': not a number (decimal or 0x hex)");
	refused("number too large for its field", edited("jitter = 8", "jitter = 4294967296"),
		"[board] jitter = '4294967296': out of range (0..4294967295)");
	refused("number too large for 64 bits", edited("seed = 1", "seed = 18446744073709551616"),
		"[board] seed = '18446744073709551616': out of range (0..18446744073709551615)");
	refused("register above 32 bits", edited("r0 = 0x00000001", "r0 = 0x100000001"),
		"[core1] r0 = '0x100000001': out of range (0..4294967295)");
	refused("cores 9", edited("cores = 2", "cores = 9"),
		"[board] cores = '9': out of range (1..8)");
	refused("cores 0", edited("cores = 2", "cores = 0"),
		"[board] cores = '0': out of range (1..8)");
	refused("bad cf encoding", edited("encoding = tre", "encoding = trx"),
		"[cf] encoding = 'trx': not nxb, trb, tre, tra, etm4, etm3, mtb or none");
	refused("bad lv encoding", edited("encoding = cfiat", "encoding = fiat"),
		"[lv] encoding = 'fiat': not nxlv, cfiat, mc2rt, cfiata or none");
	msg = refused("bad chunk 0,2", edited("cnt = 3,2", "cnt = 0,2"),
		      "[cf] cnt = '0,2': chunk sizes must be 1..64");
	tap_is_int(capture_lines(msg), 2, "the vlc module says why first");
	refused("bad chunk 65,2", edited("cnt = 3,2", "cnt = 65,2"),
		"[cf] cnt = '65,2': chunk sizes must be 1..64");
	refused("chunks not a pair", edited("ta = 3,4", "ta = 3"),
		"[cf] ta = '3': not a pair of chunk sizes c0,c1");
	refused("chunks with junk", edited("cc = 4,2\nicnt", "cc = 4,2,1\nicnt"),
		"[cf] cc = '4,2,1': not a pair of chunk sizes c0,c1");
	refused("bad sha256 (upper case)",
		edited("sha256 = 0123456789abcdef", "sha256 = 0123456789ABCDEF"),
		"[program] sha256 = "
		"'0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef': "
		"not 64 lowercase hex digits");
	refused(
	    "bad sha256 (63 digits)", edited("sha256 = 0", "sha256 = "),
	    "[program] sha256 = '123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef': "
	    "not 64 lowercase hex digits");
	msg =
	    refused("bad predictors string",
		    edited("predictors = gshare=4096,ras=32,ibtb=64,shift=4", "predictors = huge"),
		    "[cf] predictors = 'huge': not a predictor configuration");
	tap_is_int(capture_lines(msg), 2, "the predictor module says why first");
	refused("predictors the model refuses", edited("gshare=4096", "gshare=4095"),
		"[cf] predictors = 'gshare=4095,ras=32,ibtb=64,shift=4': not a predictor "
		"configuration");
	refused("bad format", edited("raptor-recording-1", "raptor-recording-2"),
		"[recording] format = 'raptor-recording-2': not a recording this version reads "
		"(raptor-recording-1)");
	refused("bad state", edited("state = complete", "state = done"),
		"[recording] state = 'done': not complete or partial");
	refused("empty tool", edited("tool = raptor 0.3", "tool ="),
		"[recording] tool = '': empty");
	refused("bad model", edited("model = m3", "model = m9"),
		"[program] model = 'm9': not a core model (one of m3, m4, m4f, m7, m33, m0plus)");
	refused("file name with a /", edited("file = cf.bin", "file = ../cf.bin"),
		"[cf] file = '../cf.bin': a file name in the recording directory has no '/'");
	refused("file name ..", edited("file = lv.bin", "file = .."),
		"[lv] file = '..': not a file name");
	refused("empty file name", edited("elf = program.elf", "elf = "),
		"[program] elf = '': empty file name");
	refused(
	    "file name too long",
	    edited("elf = program.elf",
		   "elf = a-name-of-sixty-four-characters.0123456789abcdefghijklmnopqrstuv"),
	    "[program] elf = 'a-name-of-sixty-four-characters.0123456789abcdefghijklmnopqrstuv': "
	    "longer than 63 characters");
	refused("boolean 2", edited("shared = 0", "shared = 2"), "[cf] shared = '2': not 0 or 1");
	refused("timing cache item unknown", edited("line=32\n", "line=32,ways=2\n"),
		"[board] timing_cache = 'size=32768,assoc=4,line=32,ways=2': unknown item 'ways'");
	refused("timing cache item missing", edited("assoc=4,line=32\n", "assoc=4\n"),
		"[board] timing_cache = 'size=32768,assoc=4': line is missing");
	refused("timing cache the model refuses",
		edited("size=32768,assoc=4,line=32\n", "size=32768,assoc=3,line=32\n"),
		"[board] timing_cache = 'size=32768,assoc=3,line=32': refused by the cache model");
	refused("lv cache the model refuses", edited("granule=4", "granule=3"),
		"[lv] cache = 'size=32768,assoc=4,line=32,granule=3': refused by the cache model "
		"(shared = 0, 2 cores)");
	refused("key after encoding = none",
		edited("encoding = tre\ntimed = 1\n", "encoding = none\ntimed = 1\n"),
		"[cf] timed = '1': unknown key (encoding = none has no other keys)");
	refused("a bad value in a key iniparser lowercases", edited("jitter = 8", "JITTER = 8 8"),
		"[board] jitter = '8 8': junk after the number: ' 8'");
	{
		char want[512];

		snprintf(want, sizeof(want), "syntax error in %s (11): this is not ini",
			 in_dir("bad.ini"));
		refused("syntax error", edited("[board]\n", "[board]\nthis is not ini\n"), want);
	}
}

/* Values a reader may meet that the writer would not produce. */
/* A trace port's manifest, with the first `from` replaced by `to`: refused with want. */
static void port_refused(const char *what, const char *from, const char *to, const char *want)
{
	static char text[16384];
	struct st_manifest m;
	const char *t, *p;

	cfg_etm4_raw(&m);
	if (!tap_ok(!st_manifest_write(&m, in_dir("port.ini")), "%s: write", what))
		return;
	t = get_file(in_dir("port.ini"));
	p = t ? strstr(t, from) : NULL;
	if (!tap_ok(p != NULL, "%s: '%s' in the text", what, from))
		return;
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(p - t), t, to, p + strlen(from));
	refused(what, text, want);
}

static void test_port_refused(void)
{
	port_refused("port: IDs twice", "trace_ids = 0x21,0x22,0x23", "trace_ids = 0x21,0x22,0x21",
		     "[port] trace_ids: cores 0 and 2 both have 0x21");
	port_refused("port: an ID out of range", "trace_ids = 0x21,0x22,0x23",
		     "trace_ids = 0x21,0x22,0x70", "[port] trace_ids = '0x21,0x22,0x70': core 2's "
		     "'0x70' is not a trace ID from 0x01 to 0x6f");
	port_refused("port: too few IDs", "trace_ids = 0x21,0x22,0x23", "trace_ids = 0x21,0x22",
		     "[port] trace_ids = '0x21,0x22': not 3 comma-separated numbers, one per core");
	port_refused("port: bytes that do not add up", "core_bytes = 5,6,7", "core_bytes = 5,6,8",
		     "[port] core_bytes add up to 19 bytes, [cf] bits = 144 says 18");
	port_refused("port: sync period", "sync_period = 1024", "sync_period = 1000",
		     "[port] sync_period = 1000: not a power of 2 in 256..2^20");
	port_refused("port: a TR_e key in a port's [cf]", "bits = 144\n", "bits = 144\ntimed = 1\n",
		     "[cf] timed = '1': unknown key");
	port_refused("port: [port] missing", "framed = 0\n", "",
		     "[port] framed is missing");
	port_refused("port: a register dump that lacks one", "etm_regs = model",
		     "etm_regs = idr0=0x1,idr1=0x4100f420,idr2=4,idr8=0",
		     "[port] etm_regs = 'idr0=0x1,idr1=0x4100f420,idr2=4,idr8=0': not every register "
		     "of the etm4: 'model', or all 5");
	port_refused("port: an ETMv3 register in an ETMv4's dump", "etm_regs = model",
		     "etm_regs = idr=0x1", "[port] etm_regs = 'idr=0x1': 'idr' is not one of the "
		     "etm4 registers");
}

static void test_accepted(void)
{
	struct st_manifest m;
	char path[256];
	const char *text;

	snprintf(path, sizeof(path), "%s", in_dir("ok.ini"));
	text = edited("jitter = 8\nbranch_penalty = 2", "jitter = 010\nbranch_penalty = 0x1F");
	put_file(path, text);
	tap_ok(!st_manifest_read(path, &m) && m.jitter == 10 && m.branch_penalty == 31,
	       "010 is decimal 10 (no octal), 0x1F is 31");
	put_file(path, edited("tool = raptor 0.3", "tool = \"raptor; 0.3\"   ; a comment"));
	tap_ok(!st_manifest_read(path, &m) && !strcmp(m.tool, "raptor; 0.3"),
	       "quoted value with ';' and a comment after it");
	put_file(path, edited("[board]\ncores", "[BOARD]\nCores"));
	tap_ok(!st_manifest_read(path, &m) && m.ncores == 2,
	       "section and key names in any case (iniparser lowercases them)");
	put_file(path, edited("encoding = tre", "encoding = TRE"));
	tap_ok(!st_manifest_read(path, &m) && m.cf_on && m.cf.enc == ST_CF_TRE,
	       "encoding names in any case");
}

static void test_unreadable(void)
{
	struct st_manifest m;
	const char *msg;
	char want[512];
	int r;

	capture_start();
	r = st_manifest_read(in_dir("nonexistent.ini"), &m);
	msg = capture_end();
	snprintf(want, sizeof(want), "raptor: error: %s: cannot read: No such file or directory",
		 in_dir("nonexistent.ini"));
	if (!tap_ok(r == -1 && !strcmp(last_line(msg), want), "unreadable path"))
		tap_diag("got: %s", msg);

	capture_start();
	r = st_manifest_read(dir, &m);
	msg = capture_end();
	snprintf(want, sizeof(want), "raptor: error: %s: cannot read: Is a directory", dir);
	if (!tap_ok(r == -1 && !strcmp(last_line(msg), want), "a directory"))
		tap_diag("got: %s", msg);
}

/* ---- the writer refuses ------------------------------------------------ */

static void write_refused(const char *what, const struct st_manifest *m, const char *want)
{
	const char *path = in_dir("w.ini");
	char line[1024];
	const char *msg;
	int r;

	unlink(path);
	capture_start();
	r = st_manifest_write(m, path);
	msg = capture_end();
	snprintf(line, sizeof(line), "raptor: error: %s: %s", path, want);
	if (!tap_ok(r == -1 && !strcmp(last_line(msg), line), "write: %s", what))
		tap_diag("got: %s\n# want: %s", msg, line);
	tap_ok(!exists(path) && !exists(in_dir("w.ini.tmp")), "write: %s: no file left", what);
}

static void test_write(void)
{
	struct st_manifest m;
	char path[256], want[512];
	const char *msg;
	int r;

	st_manifest_init(&m);
	write_refused("the defaults have no program", &m, "[program] elf = '': empty file name");
	default_manifest(&m);
	strcpy(m.tool, "raptor;0.3");
	write_refused("a ';' in a value", &m,
		      "'tool = raptor;0.3' would read back as 'tool = raptor' (no ';', '#' or "
		      "quotes in values, no spaces around them)");
	default_manifest(&m);
	strcpy(m.tool, "raptor 0.3 ");
	write_refused("a trailing space", &m,
		      "'tool = raptor 0.3 ' would read back as 'tool = raptor 0.3' (no ';', '#' or "
		      "quotes in values, no spaces around them)");
	default_manifest(&m);
	strcpy(m.lv_file, "sub/lv.bin");
	write_refused(
	    "a file outside the recording", &m,
	    "[lv] file = 'sub/lv.bin': a file name in the recording directory has no '/'");
	default_manifest(&m);
	m.cf.ncores = 3;
	write_refused("cf.ncores differs", &m,
		      "2 cores, but the cf format has 3, the lv format 2, the cache model 2");
	default_manifest(&m);
	m.cache.ncores = 1;
	write_refused("cache.ncores differs", &m,
		      "2 cores, but the cf format has 2, the lv format 2, the cache model 1");
	default_manifest(&m);
	m.ncores = 9;
	write_refused("9 cores", &m, "[board] cores = '9': out of range (1..8)");
	default_manifest(&m);
	m.cf.cc = ST_VLC(0, 2);
	write_refused("chunk size 0", &m, "[cf] cc = '0,2': chunk sizes must be 1..64");
	default_manifest(&m);
	m.model = (enum isa_model)7;
	write_refused("a model that has no name", &m, "[program] model = 'model7': not a core model "
		       "(one of m3, m4, m4f, m7, m33, m0plus)");

	/* atomic replacement: the old file stays whole until the rename */
	snprintf(path, sizeof(path), "%s", in_dir("atomic.ini"));
	default_manifest(&m);
	put_file(path, "old\n");
	tap_ok(!st_manifest_write(&m, path), "write over an existing file");
	tap_ok(!strcmp(get_file(path), expected_text), "the new text replaced the old one");
	tap_ok(!exists(in_dir("atomic.ini.tmp")), "no .tmp left behind");
	capture_start();
	r = st_manifest_write(&m, in_dir("no/such/dir.ini"));
	msg = capture_end();
	snprintf(want, sizeof(want),
		 "raptor: error: %s: cannot create %s.tmp: No such file or directory",
		 in_dir("no/such/dir.ini"), in_dir("no/such/dir.ini"));
	if (!tap_ok(r == -1 && !strcmp(last_line(msg), want), "write into a missing directory"))
		tap_diag("got: %s", msg);
}

int main(void)
{
	static const char *const files[] = {"default.ini", "rt.ini", "bad.ini",
					    "ok.ini",	   "w.ini",  "atomic.ini"};

	snprintf(dir, sizeof(dir), "/tmp/manifest_test.XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_defaults();
	test_round_trips();
	test_refused();
	test_port_refused();
	test_accepted();
	test_unreadable();
	test_write();
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		unlink(in_dir(files[i]));
	rmdir(dir);
	return tap_done();
}

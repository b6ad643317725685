/* raptor stat: a recording's execution, predictor, cache and trace-size statistics. */
#include <getopt.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/plot.h"
#include "analysis/ports.h"
#include "analysis/recstats.h"
#include "cli/cli.h"
#include "etm/cstf.h"
#include "etm/mtb.h"
#include "isa/model.h"
#include "replay/etmpath.h"
#include "replay/replay.h"
#include "streams/manifest.h"

static const char stat_usage[] =
    "usage: raptor stat REC [--json | --csv[=TABLE]] [--over-time CYCLES]\n"
    "                       [--plot FILE.svg] [--cdf] [--plot-cdf FILE.svg]\n"
    "                       [--no-ports] [--etm-sync BYTES] [--ports-raw DIR]\n"
    "\n"
    "Report what a recording made by 'raptor record' says about the run and the\n"
    "trace port: per core and in total the instructions, cycles, IPC, branch mix,\n"
    "outcome and target misprediction rates, data-cache and first-access miss\n"
    "rates; for every encoding (NX_b, TR_b, TR_e, TR_a and their timed\n"
    "t-variants; NX-LV, NX-LV compressed by zlib -1, CFiat, mc2RT, CFiat_a,\n"
    "functional and timed) the bits of each field, bits per instruction, bits\n"
    "per cycle and the ratio to its Nexus-like baseline; for the adaptive\n"
    "TR_a and CFiat_a also the gain over TR_e and CFiat (their bits over the\n"
    "adaptive one's; recordings made before them have no such rows).\n"
    "Beside them the real trace ports on the same run: each core's ETMv4,\n"
    "ETMv3.5 and MTB, all the cores' ETMv4 in CoreSight formatter frames and\n"
    "the ETMv4 with cycle counting (threshold 1), fed from a replay of the\n"
    "recording (both streams needed): bits, bits per instruction and per\n"
    "cycle, per core and in total, and how many times TR_e is smaller.\n"
    "The numbers come from REC/stats.ini and\n"
    "REC/timeline.csv, checked against the manifest and the stream files. A\n"
    "recording made without 'raptor record --all-encodings' holds the recorded\n"
    "encodings only: stat replays it to compute the others (both streams are\n"
    "needed; without a load-value stream no load value is known and the\n"
    "report says what is missing).\n"
    "docs/STAT.md defines every number. A recording of a real trace port\n"
    "imported with raptor import has no stats.ini: stat then replays its trace\n"
    "and reports what the trace shows, per core (instructions, exceptions,\n"
    "gaps, bytes, bits per instruction), as text or --json (docs/ETM.md).\n"
    "\n"
    "  --json               everything as one JSON object\n"
    "  --csv[=TABLE]        one table as CSV: encodings (the default), cores,\n"
    "                       windows (with --over-time), cdf or ports\n"
    "  --over-time CYCLES   bandwidth in bits per cycle per window of CYCLES\n"
    "                       cycles (a multiple of the recording's window, see\n"
    "                       stats.ini [timeline]; 1000000 as in the papers)\n"
    "  --plot FILE.svg      draw the bandwidth over time with gnuplot (windows of\n"
    "                       --over-time, else the recording's own)\n"
    "  --cdf                the cumulative distribution of field lengths (bCnt,\n"
    "                       |diffTA|, diffCC, iCnt, fahCnt, dCC; mcfTRaptor Fig. 9)\n"
    "  --plot-cdf FILE.svg  draw those CDFs with gnuplot\n"
    "  --no-ports           leave the trace ports out of the report and the JSON\n"
    "                       (they take a replay; CSV tables but ports never do)\n"
    "  --etm-sync BYTES     the ETMs' sync period (default 4096, a power of 2\n"
    "                       from 256 to 1048576), as tools/etmcheck --sync\n"
    "  --ports-raw DIR      write the ports' streams into DIR, as etmcheck --raw\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0, 1 when the recording is missing or damaged or a plot\n"
    "cannot be drawn, 2 for bad usage.\n";

enum table { T_ENCODINGS, T_CORES, T_WINDOWS, T_CDF, T_PORTS };

struct stat_opts {
	int json, csv, cdf, no_ports;
	enum table table;
	uint64_t over_time, etm_sync;
	const char *plot, *plot_cdf, *ports_raw;
};

/* A ratio, or NaN when the denominator is 0 (printed "-" / null). */
static double rate(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : __builtin_nan("");
}

#define U(x) ((unsigned long long)(x))

/* ---- derived numbers --------------------------------------------------------- */

/* Baseline bits / e's bits; NaN without the baseline (recorded the fast way, not replayed). */
static double base_ratio(const struct an_rec *r, int e)
{
	int base = an_enc_baseline(e);

	return r->enc[base].present ? rate(r->enc[base].bits, r->enc[e].bits) : rate(0, 0);
}

/* The sum over cores, with the run's cycles (the longest core's). */
static void total_core(const struct an_rec *r, struct an_core *t)
{
	memset(t, 0, sizeof(*t));
	for (int c = 0; c < r->ncores; c++) {
		const uint64_t *src = (const uint64_t *)&r->core[c];
		uint64_t *dst = (uint64_t *)t;

		for (size_t i = 0; i < sizeof(*t) / sizeof(uint64_t); i++)
			dst[i] += src[i];
	}
	t->cycles = r->cycles;
}

struct mix {
	uint64_t cond, uncond, indirect, returns, exceptions, branches;
};

static struct mix branch_mix(const struct an_core *c)
{
	struct mix m = {c->cond_direct, c->direct + c->calls, c->ind_calls + c->ind_jumps,
			c->returns,	c->exceptions,	      0};

	m.branches = m.cond + m.uncond + m.indirect + m.returns;
	return m;
}

/* Loads the caches see (uncached ones are traced whatever the cache says). */
static uint64_t cached_loads(const struct an_core *c)
{
	return c->loads - c->uncached_loads;
}

/* The index of the encoding named name (recstats numbering). */
static int enc_index(const char *name)
{
	for (int e = 0; e < AN_NENC; e++)
		if (!strcmp(an_enc_name(e), name))
			return e;
	return -1;
}

/* What a report knows of the trace ports: pt, or NULL and why not. */
struct ports {
	const struct an_ports *pt;
	const char *why;
};

/* Bits of port p sent by core c (c = ncores: all cores). */
static uint64_t port_bits(const struct an_ports *pt, int c, enum an_port p)
{
	return c < pt->ncores ? pt->core_bits[c][p] : pt->bits[p];
}

/* The core's (or all cores', c = ncores) instructions and cycles. */
static uint64_t scope_insns(const struct an_rec *r, int c)
{
	return c < r->ncores ? r->core[c].insns : r->insns;
}

static uint64_t scope_cycles(const struct an_rec *r, int c)
{
	return c < r->ncores ? r->core[c].cycles : r->cycles;
}

/* An encoding's bits by core (from the timeline: NaN-able) or in all. */
static double scope_enc_bits(const struct an_rec *r, int c, int e)
{
	if (e < 0 || !r->enc[e].present)
		return __builtin_nan("");
	if (c == r->ncores)
		return (double)r->enc[e].bits;
	return r->nwin ? (double)an_rec_core_bits(r, c, e) : __builtin_nan("");
}

/* nxb bits / the port's (the ratio to the Nexus-like baseline), and the port's / tre's. */
static double port_ratio(const struct an_rec *r, const struct an_ports *pt, int c, enum an_port p)
{
	uint64_t b = port_bits(pt, c, p);

	return b ? scope_enc_bits(r, c, enc_index("nxb")) / b : __builtin_nan("");
}

static double port_vs_tre(const struct an_rec *r, const struct an_ports *pt, int c, enum an_port p)
{
	double t = scope_enc_bits(r, c, enc_index("tre"));

	return t > 0 ? port_bits(pt, c, p) / t : __builtin_nan("");
}

/* ---- text ----------------------------------------------------------------------- */

/* Text tables: a label of LABEL characters, then columns of COL characters. */
#define LABEL 14
#define COL 11

static void col_s(FILE *f, const char *s)
{
	fprintf(f, " %*s", COL, s);
}

static void col_u(FILE *f, uint64_t v)
{
	fprintf(f, " %*llu", COL, U(v));
}

static void col_d(FILE *f, double v, int prec)
{
	if (v != v)
		col_s(f, "-");
	else
		fprintf(f, " %*.*f", COL, prec, v);
}

static void col_pct(FILE *f, double v)
{
	if (v != v)
		col_s(f, "-");
	else
		fprintf(f, " %*.2f%%", COL - 1, 100 * v);
}

/* A header line: the title, then the column names (NULL-terminated). */
static void heading(FILE *f, const char *title, ...)
{
	va_list ap;
	const char *s;

	fprintf(f, "\n%-*s", LABEL, title);
	va_start(ap, title);
	while ((s = va_arg(ap, const char *)))
		col_s(f, s);
	va_end(ap);
	fputc('\n', f);
}

static void text_core_rows(FILE *f, const struct an_rec *r,
			   void (*row)(FILE *, const struct an_core *))
{
	struct an_core t;

	for (int c = 0; c < r->ncores; c++) {
		fprintf(f, "  core %-*d", LABEL - 7, c);
		row(f, &r->core[c]);
		fputc('\n', f);
	}
	total_core(r, &t);
	fprintf(f, "  %-*s", LABEL - 2, "all");
	row(f, &t);
	fputc('\n', f);
}

static void row_exec(FILE *f, const struct an_core *c)
{
	struct mix m = branch_mix(c);

	col_u(f, c->insns);
	col_u(f, c->cycles);
	col_d(f, rate(c->insns, c->cycles), 3);
	col_u(f, m.cond);
	col_u(f, m.uncond);
	col_u(f, m.indirect);
	col_u(f, m.returns);
	col_u(f, m.exceptions);
}

static void row_pred(FILE *f, const struct an_core *c)
{
	struct mix m = branch_mix(c);

	col_u(f, m.cond);
	col_u(f, c->outcome_misses);
	col_pct(f, rate(c->outcome_misses, m.cond));
	col_u(f, m.indirect + m.returns);
	col_u(f, c->target_misses);
	col_pct(f, rate(c->target_misses, m.indirect + m.returns));
	col_u(f, c->outcome_misses + c->target_misses);
}

static void row_cache(FILE *f, const struct an_core *c)
{
	col_u(f, c->loads);
	col_u(f, c->uncached_loads);
	col_pct(f, rate(c->line_misses, cached_loads(c)));
	col_pct(f, rate(cached_loads(c) - c->fa_load_hits, cached_loads(c)));
	col_u(f, c->cfiat_msgs);
	col_pct(f, rate(c->mc2rt_trace_misses, c->mc2rt_trace_hits + c->mc2rt_trace_misses));
	col_u(f, c->mc2rt_msgs);
}

/* Does encoding e send field k at all? (A 0 there is "-".) */
static int has_field(int e, enum an_field k)
{
	if (k == AN_F_CC)
		return an_enc_timed(e);
	if (e >= AN_LV_FIRST)
		return k == AN_F_TI || k == AN_F_VALUE || (k == AN_F_CNT && e >= AN_LV_FIRST + 2);
	return k != AN_F_VALUE && (k != AN_F_TNT || e >= 2);
}

static void label_enc(FILE *f, int e)
{
	char s[32];

	snprintf(s, sizeof(s), "%s %s", an_enc_stream(e), an_enc_name(e));
	fprintf(f, "  %-*s", LABEL - 2, s);
}

/* Where the figures of the encodings not recorded come from. */
static const char *other_encodings(const struct an_rec *r)
{
	if (!r->fast)
		return "run side by side while recording (--all-encodings)";
	if (r->replayed)
		return "computed by replaying the recording (recorded without --all-encodings)";
	if (!r->lv_known)
		return "not known: recorded without --all-encodings and without a\n"
		       "    load-value stream, whose replay knows each core's instructions but\n"
		       "    no load value: no load-value encoding can be computed (nor, by this\n"
		       "    raptor, the other control-flow ones); record with --all-encodings";
	return "not known: recorded without --all-encodings and without a\n"
	       "    control-flow stream, which the replay needs; record with --all-encodings";
}

static void text_report(FILE *f, const struct an_rec *r, const struct ports *ports, int cdf)
{
	static const enum an_field order[] = {AN_F_CC, AN_F_TI,	  AN_F_CNT, AN_F_TNT,
					      AN_F_TA, AN_F_ICNT, AN_F_EXC, AN_F_VALUE};

	fprintf(f, "recording %s: %s, %s", r->dir, r->mf.complete ? "complete" : "partial",
		r->exited ? "the program exited with status " : "the program did not exit");
	if (r->exited)
		fprintf(f, "%d", r->status);
	fprintf(f, "\n  %d cores (%s), %llu instructions, %llu cycles, IPC %.3f\n", r->ncores,
		isa_model_info(r->mf.model)->name, U(r->insns), U(r->cycles),
		r->cycles ? (double)r->insns / r->cycles : 0.0);
	fprintf(f, "  recorded streams: ");
	if (r->recorded_cf >= 0)
		fprintf(f, "cf %s (%llu bits)", an_enc_name(r->recorded_cf),
			U(r->enc[r->recorded_cf].bits));
	else if (r->mf.port.kind != ST_PORT_NONE)
		fprintf(f, "cf %s%s (%llu bits, a trace port: docs/ETM.md)",
			st_port_name(r->mf.port.kind), r->mf.port.framed ? " framed" : "",
			U(r->mf.cf_bits));
	else
		fprintf(f, "no cf");
	if (r->recorded_lv >= 0)
		fprintf(f, ", lv %s (%llu bits)\n", an_enc_name(r->recorded_lv),
			U(r->enc[r->recorded_lv].bits));
	else
		fprintf(f, ", no lv\n");
	fprintf(f, "  other encodings: %s\n", other_encodings(r));

	heading(f, "execution", "instrs", "cycles", "IPC", "cond.dir", "uncond.dir", "indirect",
		"returns", "exceptions", NULL);
	text_core_rows(f, r, row_exec);
	heading(f, "predictors", "cond.dir", "outc.miss", "rate", "indir+ret", "targ.miss", "rate",
		"messages", NULL);
	text_core_rows(f, r, row_pred);
	if (r->lv_known) {
		heading(f, "data cache", "loads", "uncached", "line miss", "FA miss", "CFiat msgs",
			"mc2RT miss", "mc2RT msgs", NULL);
		text_core_rows(f, r, row_cache);
	} else {
		fprintf(f, "\ndata cache      not known: no load-value stream, so no load, value "
			   "or cache state is known\n");
	}

	heading(f, "encoding", "bits", "msgs", "bpi", "bpc", "ratio", "to", NULL);
	for (int e = 0; e < AN_NENC; e++) {
		const struct an_enc *en = &r->enc[e];
		int base = an_enc_baseline(e), twin = an_enc_fixed_twin(e);

		if (!en->present)
			continue;
		label_enc(f, e);
		col_u(f, en->bits);
		if (e < AN_GZ_FIRST)
			col_u(f, en->msgs);
		else
			col_s(f, "-");
		col_d(f, rate(en->bits, r->insns), 4);
		col_d(f, rate(en->bits, r->cycles), 4);
		col_d(f, base_ratio(r, e), 2);
		col_s(f, e == base ? "(baseline)" : an_enc_name(base));
		if (twin >= 0)
			fprintf(f, "  gain %.4fx vs %s", rate(r->enc[twin].bits, en->bits),
				an_enc_name(twin));
		fprintf(f, "%s\n", e == r->recorded_cf || e == r->recorded_lv ? "  recorded" : "");
	}

	if (!ports->pt) {
		fprintf(f, "\ntrace ports     %s\n", ports->why);
	} else {
		const struct an_ports *pt = ports->pt;

		heading(f, "trace port", "bits", "bytes", "bpi", "bpc", "ratio", "to", "/ tre bits",
			NULL);
		for (int p = 0; p < AN_NPORTS; p++) {
			uint64_t b = pt->bits[p];

			fprintf(f, "  %-*s", LABEL - 2, an_port_name(p));
			col_u(f, b);
			col_u(f, b / 8);
			col_d(f, rate(b, r->insns), 4);
			col_d(f, rate(b, r->cycles), 4);
			col_d(f, port_ratio(r, pt, r->ncores, p), 2);
			col_s(f, "nxb");
			col_d(f, port_vs_tre(r, pt, r->ncores, p), 2);
			fputc('\n', f);
		}
		fprintf(f,
			"  (etm4 ETMv4 (%s), etm3 ETMv3.5, both a sync every %u bytes; mtb: %llu "
			"packets of %d bytes;\n   etm4.cstf: the cores' ETMv4 in CoreSight "
			"formatter frames; etm4.cc: the ETMv4 with cycle counting, threshold 1;\n"
			"   etm3.cc: the ETMv3.5 cycle accurate; fed from a replay)\n",
			pt->v8m ? "ARMv8-M" : "ARMv7-M", pt->sync_period, U(pt->mtb_packets),
			MTB_PACKET);
		heading(f, "ports by core", "etm4 bpi", "etm4 bpc", "etm3 bpi", "etm3 bpc",
			"mtb bpi", "mtb bpc", "mtb pkts", NULL);
		for (int c = 0; c <= r->ncores; c++) {
			if (c < r->ncores)
				fprintf(f, "  core %-*d", LABEL - 7, c);
			else
				fprintf(f, "  %-*s", LABEL - 2, "all");
			for (int p = 0; p < AN_PORT_FRAMES; p++) {
				col_d(f, rate(port_bits(pt, c, p), scope_insns(r, c)), 4);
				col_d(f, rate(port_bits(pt, c, p), scope_cycles(r, c)), 4);
			}
			col_u(f, c < r->ncores ? pt->core_mtb_packets[c] : pt->mtb_packets);
			fputc('\n', f);
		}
	}

	heading(f, "field bits", "diffCC/dCC", "Ti", "SL/bCnt/..", "T", "diffTA", "iCnt", "E,X",
		"value", NULL);
	for (int e = 0; e < AN_NSTREAMS; e++) {
		if (!r->enc[e].present)
			continue;
		label_enc(f, e);
		for (size_t k = 0; k < ARRAY_SIZE(order); k++)
			if (has_field(e, order[k]))
				col_u(f, r->enc[e].field[order[k]]);
			else
				col_s(f, "-");
		fputc('\n', f);
	}
	fprintf(f, "  (the count is SL in NX_b, bCnt in TR_b/TR_e/TR_a, fahCnt in CFiat/CFiat_a, "
		   "THCnt in mc2RT)\n");

	if (r->nwin) {
		fprintf(f, "\n%-*s", LABEL, "bpi by core");
		for (int c = 0; c < r->ncores; c++) {
			char s[16];

			snprintf(s, sizeof(s), "core %d", c);
			col_s(f, s);
		}
		fputc('\n', f);
		for (int e = 0; e < AN_NSTREAMS; e++) {
			if (!r->enc[e].present)
				continue;
			label_enc(f, e);
			for (int c = 0; c < r->ncores; c++)
				col_d(f, rate(an_rec_core_bits(r, c, e), r->core[c].insns), 4);
			fputc('\n', f);
		}
		fprintf(f,
			"  (timeline: %llu windows of %llu cycles; --over-time takes multiples)\n",
			U(r->nwin), U(r->window));
	}

	if (cdf) {
		int maxlen = 0;
		uint64_t total[AN_NHIST] = {0};

		for (int h = 0; h < AN_NHIST; h++)
			for (int l = 0; l < AN_NLEN; l++) {
				total[h] += r->hist[h].n[l];
				if (r->hist[h].n[l] && l > maxlen)
					maxlen = l;
			}
		fprintf(f,
			"\nfield length CDF: %% of the values that fit in L bits (TR_e and "
			"CFiat, timed)\n%-*s",
			LABEL, "  L");
		for (int h = 0; h < AN_NHIST; h++)
			col_s(f, an_hist_label(h));
		fputc('\n', f);
		for (int l = 0; l <= maxlen; l++) {
			fprintf(f, "  %-*d", LABEL - 2, l);
			for (int h = 0; h < AN_NHIST; h++) {
				uint64_t upto = 0;

				for (int m = 0; m <= l; m++)
					upto += r->hist[h].n[m];
				col_pct(f, rate(upto, total[h]));
			}
			fputc('\n', f);
		}
		fprintf(f, "  %-*s", LABEL - 2, "values");
		for (int h = 0; h < AN_NHIST; h++)
			col_u(f, total[h]);
		fputc('\n', f);
	}
}

static void text_windows(FILE *f, const struct an_rec *r, const struct an_windows *w)
{
	int k = r->ncores;
	double peak[AN_NSTREAMS], low[AN_NSTREAMS];

	fprintf(f,
		"\nbandwidth over time: bits per cycle, all cores, windows of %llu cycles\n"
		"       start  cycles",
		U(w->n));
	for (int e = 0; e < AN_NSTREAMS; e++)
		if (r->enc[e].present)
			fprintf(f, " %8s", an_enc_name(e));
	fputc('\n', f);
	for (int e = 0; e < AN_NSTREAMS; e++) {
		peak[e] = 0;
		low[e] = -1;
	}
	for (uint64_t i = 0; i < w->count; i++) {
		const uint64_t *row = w->bits + (i * (k + 1) + k) * AN_NSTREAMS;

		fprintf(f, "  %10llu %7llu", U(w->start[i]), U(w->len[i]));
		for (int e = 0; e < AN_NSTREAMS; e++) {
			double v = (double)row[e] / w->len[i];

			if (!r->enc[e].present)
				continue;
			fprintf(f, " %8.4f", v);
			if (v > peak[e])
				peak[e] = v;
			if (low[e] < 0 || v < low[e])
				low[e] = v;
		}
		fputc('\n', f);
	}
	fprintf(f, "  mean              ");
	for (int e = 0; e < AN_NSTREAMS; e++)
		if (r->enc[e].present)
			fprintf(f, " %8.4f", rate(r->enc[e].bits, r->cycles));
	fprintf(f, "\n  peak              ");
	for (int e = 0; e < AN_NSTREAMS; e++)
		if (r->enc[e].present)
			fprintf(f, " %8.4f", peak[e]);
	fprintf(f, "\n  min               ");
	for (int e = 0; e < AN_NSTREAMS; e++)
		if (r->enc[e].present)
			fprintf(f, " %8.4f", low[e] < 0 ? 0.0 : low[e]);
	fputc('\n', f);
}

/* ---- CSV ------------------------------------------------------------------------- */

static void csv_num(FILE *f, double v)
{
	if (v == v)
		fprintf(f, ",%.9g", v);
	else
		fputc(',', f);
}

static void csv_encodings(FILE *f, const struct an_rec *r)
{
	fprintf(f, "recording,stream,encoding,timed,recorded,bits,msgs");
	for (int k = 0; k < AN_NFIELDS; k++)
		fprintf(f, ",bits_%s", an_field_key(k));
	fprintf(f, ",bpi,bpc,baseline,ratio,fixed,gain\n");
	for (int e = 0; e < AN_NENC; e++) {
		const struct an_enc *en = &r->enc[e];
		int base = an_enc_baseline(e), twin = an_enc_fixed_twin(e);

		if (!en->present)
			continue;
		fprintf(f, "%s,%s,%s,%d,%d,%llu,", r->dir, an_enc_stream(e), an_enc_name(e),
			an_enc_timed(e), e == r->recorded_cf || e == r->recorded_lv, U(en->bits));
		if (e < AN_GZ_FIRST)
			fprintf(f, "%llu", U(en->msgs));
		for (int k = 0; k < AN_NFIELDS; k++)
			if (e < AN_GZ_FIRST)
				fprintf(f, ",%llu", U(en->field[k]));
			else
				fputc(',', f);
		csv_num(f, rate(en->bits, r->insns));
		csv_num(f, rate(en->bits, r->cycles));
		fprintf(f, ",%s", an_enc_name(base));
		csv_num(f, base_ratio(r, e));
		/* an adaptive encoding: its fixed-chunk twin and the gain over it */
		fprintf(f, ",%s", twin >= 0 ? an_enc_name(twin) : "");
		csv_num(f, twin >= 0 ? rate(r->enc[twin].bits, en->bits) : __builtin_nan(""));
		fputc('\n', f);
	}
}

static void csv_core_row(FILE *f, const struct an_rec *r, const char *scope,
			 const struct an_core *c)
{
	struct mix m = branch_mix(c);

	fprintf(f, "%s,%s,%llu,%llu", r->dir, scope, U(c->insns), U(c->cycles));
	csv_num(f, rate(c->insns, c->cycles));
	fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu", U(m.cond), U(m.uncond), U(m.indirect),
		U(m.returns), U(m.exceptions), U(c->outcome_misses), U(c->target_misses));
	csv_num(f, rate(c->outcome_misses, c->cond_direct));
	csv_num(f, rate(c->target_misses, m.indirect + m.returns));
	fprintf(f, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu", U(c->loads), U(c->stores),
		U(c->uncached_loads), U(c->line_misses), U(c->fa_load_hits), U(c->cfiat_msgs),
		U(c->mc2rt_msgs));
	csv_num(f, rate(c->line_misses, cached_loads(c)));
	csv_num(f, rate(cached_loads(c) - c->fa_load_hits, cached_loads(c)));
	csv_num(f, rate(c->mc2rt_trace_misses, c->mc2rt_trace_hits + c->mc2rt_trace_misses));
	fputc('\n', f);
}

static void csv_cores(FILE *f, const struct an_rec *r)
{
	struct an_core t;
	char scope[16];

	fprintf(f, "recording,core,instructions,cycles,ipc,cond_direct,uncond_direct,indirect,"
		   "returns,exceptions,outcome_misses,target_misses,outcome_miss_rate,"
		   "target_miss_rate,loads,stores,uncached_loads,line_misses,fa_load_hits,"
		   "cfiat_msgs,mc2rt_msgs,line_miss_rate,fa_miss_rate,mc2rt_trace_miss_rate\n");
	for (int c = 0; c < r->ncores; c++) {
		snprintf(scope, sizeof(scope), "%d", c);
		csv_core_row(f, r, scope, &r->core[c]);
	}
	total_core(r, &t);
	csv_core_row(f, r, "all", &t);
}

static void csv_ports(FILE *f, const struct an_rec *r, const struct an_ports *pt)
{
	fprintf(f, "recording,core,port,bits,bpi,bpc,packets,baseline,ratio,vs_tre\n");
	for (int c = 0; c <= r->ncores; c++)
		for (int p = 0; p < AN_NPORTS; p++) {
			if (c < r->ncores && p == AN_PORT_FRAMES)
				continue; /* the frames mix the cores */
			fprintf(f, "%s,", r->dir);
			if (c < r->ncores)
				fprintf(f, "%d", c);
			else
				fprintf(f, "all");
			fprintf(f, ",%s,%llu", an_port_name(p), U(port_bits(pt, c, p)));
			csv_num(f, rate(port_bits(pt, c, p), scope_insns(r, c)));
			csv_num(f, rate(port_bits(pt, c, p), scope_cycles(r, c)));
			if (p == AN_PORT_MTB)
				fprintf(
				    f, ",%llu",
				    U(c < r->ncores ? pt->core_mtb_packets[c] : pt->mtb_packets));
			else
				fputc(',', f);
			fprintf(f, ",nxb");
			csv_num(f, port_ratio(r, pt, c, p));
			csv_num(f, port_vs_tre(r, pt, c, p));
			fputc('\n', f);
		}
}

static void csv_windows(FILE *f, const struct an_rec *r, const struct an_windows *w)
{
	int k = r->ncores;

	fprintf(f, "recording,start,cycles,core,encoding,bits,bpc\n");
	for (uint64_t i = 0; i < w->count; i++)
		for (int c = 0; c <= k; c++)
			for (int e = 0; e < AN_NSTREAMS; e++) {
				uint64_t b = w->bits[(i * (k + 1) + c) * AN_NSTREAMS + e];
				char core[16];

				if (!r->enc[e].present)
					continue;
				snprintf(core, sizeof(core), c < k ? "%d" : "all", c);
				fprintf(f, "%s,%llu,%llu,%s,%s,%llu,%.9g\n", r->dir, U(w->start[i]),
					U(w->len[i]), core, an_enc_name(e), U(b),
					(double)b / w->len[i]);
			}
}

static void csv_cdf(FILE *f, const struct an_rec *r)
{
	fprintf(f, "recording,field,encoding,chunks,length,values,cdf\n");
	for (int h = 0; h < AN_NHIST; h++) {
		uint64_t total = 0, upto = 0;
		int maxlen = 0;

		if (!r->hist[h].present)
			continue;
		for (int l = 0; l < AN_NLEN; l++) {
			total += r->hist[h].n[l];
			if (r->hist[h].n[l])
				maxlen = l;
		}
		for (int l = 0; l <= maxlen; l++) {
			upto += r->hist[h].n[l];
			fprintf(f, "%s,%s,%s,%u/%u,%d,%llu", r->dir, an_hist_label(h),
				an_enc_name(an_hist_enc(h)), r->hist[h].chunks.c0,
				r->hist[h].chunks.c1, l, U(r->hist[h].n[l]));
			csv_num(f, rate(upto, total));
			fputc('\n', f);
		}
	}
}

/* ---- JSON ------------------------------------------------------------------------- */

static json_t *jnum(double v)
{
	return v == v ? json_real(v) : json_null();
}

static json_t *jint(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static json_t *json_core(const struct an_core *c)
{
	struct mix m = branch_mix(c);
	json_t *o = json_object(), *b = json_object();

	json_object_set_new(o, "instructions", jint(c->insns));
	json_object_set_new(o, "cycles", jint(c->cycles));
	json_object_set_new(o, "ipc", jnum(rate(c->insns, c->cycles)));
	json_object_set_new(b, "cond_direct", jint(m.cond));
	json_object_set_new(b, "uncond_direct", jint(m.uncond));
	json_object_set_new(b, "indirect", jint(m.indirect));
	json_object_set_new(b, "returns", jint(m.returns));
	json_object_set_new(b, "exceptions", jint(m.exceptions));
	json_object_set_new(b, "total", jint(m.branches));
	json_object_set_new(b, "calls", jint(c->calls));
	json_object_set_new(b, "ind_calls", jint(c->ind_calls));
	json_object_set_new(b, "cond_indirect", jint(c->cond_indirect));
	json_object_set_new(b, "tail_chains", jint(c->tail_chains));
	json_object_set_new(o, "branches", b);
	json_object_set_new(o, "outcome_misses", jint(c->outcome_misses));
	json_object_set_new(o, "target_misses", jint(c->target_misses));
	json_object_set_new(o, "outcome_miss_rate", jnum(rate(c->outcome_misses, m.cond)));
	json_object_set_new(o, "target_miss_rate",
			    jnum(rate(c->target_misses, m.indirect + m.returns)));
	json_object_set_new(o, "loads", jint(c->loads));
	json_object_set_new(o, "stores", jint(c->stores));
	json_object_set_new(o, "uncached_loads", jint(c->uncached_loads));
	json_object_set_new(o, "line_misses", jint(c->line_misses));
	json_object_set_new(o, "fa_load_hits", jint(c->fa_load_hits));
	json_object_set_new(o, "fa_misses", jint(c->fa_misses));
	json_object_set_new(o, "invalidations", jint(c->invalidations));
	json_object_set_new(o, "cfiat_msgs", jint(c->cfiat_msgs));
	json_object_set_new(o, "mc2rt_msgs", jint(c->mc2rt_msgs));
	json_object_set_new(o, "mc2rt_trace_hits", jint(c->mc2rt_trace_hits));
	json_object_set_new(o, "mc2rt_trace_misses", jint(c->mc2rt_trace_misses));
	json_object_set_new(o, "mc2rt_peer_supplied", jint(c->mc2rt_peer_supplied));
	json_object_set_new(o, "line_miss_rate", jnum(rate(c->line_misses, cached_loads(c))));
	json_object_set_new(o, "fa_miss_rate",
			    jnum(rate(cached_loads(c) - c->fa_load_hits, cached_loads(c))));
	json_object_set_new(
	    o, "mc2rt_trace_miss_rate",
	    jnum(rate(c->mc2rt_trace_misses, c->mc2rt_trace_hits + c->mc2rt_trace_misses)));
	return o;
}

static json_t *json_encoding(const struct an_rec *r, int e)
{
	const struct an_enc *en = &r->enc[e];
	int base = an_enc_baseline(e);
	json_t *o = json_object();

	json_object_set_new(o, "name", json_string(an_enc_name(e)));
	json_object_set_new(o, "stream", json_string(an_enc_stream(e)));
	json_object_set_new(o, "timed", json_boolean(an_enc_timed(e)));
	json_object_set_new(o, "recorded",
			    json_boolean(e == r->recorded_cf || e == r->recorded_lv));
	json_object_set_new(o, "bits", jint(en->bits));
	json_object_set_new(o, "bpi", jnum(rate(en->bits, r->insns)));
	json_object_set_new(o, "bpc", jnum(rate(en->bits, r->cycles)));
	json_object_set_new(o, "baseline", json_string(an_enc_name(base)));
	json_object_set_new(o, "ratio", jnum(base_ratio(r, e)));
	if (an_enc_fixed_twin(e) >= 0) {
		int twin = an_enc_fixed_twin(e);

		json_object_set_new(o, "fixed", json_string(an_enc_name(twin)));
		json_object_set_new(o, "gain", jnum(rate(r->enc[twin].bits, en->bits)));
	}
	if (e < AN_GZ_FIRST) {
		json_t *fl = json_object(), *fb = json_object(), *pc = json_array();

		json_object_set_new(o, "msgs", jint(en->msgs));
		for (int k = 0; k < AN_NFIELDS; k++) {
			json_object_set_new(fl, an_field_key(k), jint(en->field[k]));
			json_object_set_new(fb, an_field_key(k),
					    jnum(rate(en->field[k], r->insns)));
		}
		json_object_set_new(o, "field_bits", fl);
		json_object_set_new(o, "field_bpi", fb);
		if (e < AN_LV_FIRST) {
			json_object_set_new(o, "branch_msgs", jint(en->branch_msgs));
			json_object_set_new(o, "target_msgs", jint(en->target_msgs));
			json_object_set_new(o, "exc_msgs", jint(en->exc_msgs));
			json_object_set_new(o, "end_msgs", jint(en->end_msgs));
		}
		for (int c = 0; r->nwin && c < r->ncores; c++)
			json_array_append_new(pc, jint(an_rec_core_bits(r, c, e)));
		json_object_set_new(o, "core_bits", r->nwin ? pc : (json_decref(pc), json_null()));
	} else {
		json_object_set_new(o, "msgs", json_null());
		json_object_set_new(o, "field_bits", json_null());
	}
	return o;
}

static json_t *json_cdf(const struct an_rec *r)
{
	json_t *o = json_object();

	for (int h = 0; h < AN_NHIST; h++) {
		json_t *f = json_object(), *n = json_array(), *cdf = json_array(), *ch;
		uint64_t total = 0, upto = 0;
		int maxlen = 0;

		if (!r->hist[h].present) {
			json_decref(f);
			json_decref(n);
			json_decref(cdf);
			continue;
		}
		for (int l = 0; l < AN_NLEN; l++) {
			total += r->hist[h].n[l];
			if (r->hist[h].n[l])
				maxlen = l;
		}
		for (int l = 0; l <= maxlen; l++) {
			upto += r->hist[h].n[l];
			json_array_append_new(n, jint(r->hist[h].n[l]));
			json_array_append_new(cdf, jnum(rate(upto, total)));
		}
		ch = json_pack("[ii]", (int)r->hist[h].chunks.c0, (int)r->hist[h].chunks.c1);
		json_object_set_new(f, "encoding", json_string(an_enc_name(an_hist_enc(h))));
		json_object_set_new(f, "chunks", ch);
		json_object_set_new(f, "values", jint(total));
		json_object_set_new(f, "by_length", n);
		json_object_set_new(f, "cdf", cdf);
		json_object_set_new(o, an_hist_label(h), f);
	}
	return o;
}

static json_t *json_windows(const struct an_rec *r, const struct an_windows *w)
{
	json_t *o = json_object(), *arr = json_array();
	int k = r->ncores;

	json_object_set_new(o, "window", jint(w->n));
	for (uint64_t i = 0; i < w->count; i++) {
		json_t *win = json_object(), *bits = json_object(), *bpc = json_object(),
		       *cores = json_array();

		for (int c = 0; c <= k; c++) {
			json_t *cb = c < k ? json_object() : bits;

			for (int e = 0; e < AN_NSTREAMS; e++) {
				uint64_t b = w->bits[(i * (k + 1) + c) * AN_NSTREAMS + e];

				if (!r->enc[e].present)
					continue;
				json_object_set_new(cb, an_enc_name(e), jint(b));
				if (c == k)
					json_object_set_new(bpc, an_enc_name(e),
							    jnum((double)b / w->len[i]));
			}
			if (c < k)
				json_array_append_new(cores, cb);
		}
		json_object_set_new(win, "start", jint(w->start[i]));
		json_object_set_new(win, "cycles", jint(w->len[i]));
		json_object_set_new(win, "bits", bits);
		json_object_set_new(win, "bpc", bpc);
		json_object_set_new(win, "core_bits", cores);
		json_array_append_new(arr, win);
	}
	json_object_set_new(o, "windows", arr);
	return o;
}

static json_t *json_ports(const struct an_rec *r, const struct an_ports *pt)
{
	json_t *o = json_object(), *arr = json_array();

	json_object_set_new(o, "sync_period", json_integer(pt->sync_period));
	json_object_set_new(o, "etm4_arch", json_string(pt->v8m ? "ARMv8-M" : "ARMv7-M"));
	for (int p = 0; p < AN_NPORTS; p++) {
		json_t *e = json_object(), *cb = json_array();
		int c = r->ncores;

		json_object_set_new(e, "name", json_string(an_port_name(p)));
		json_object_set_new(e, "label", json_string(an_port_label(p)));
		json_object_set_new(e, "bits", jint(pt->bits[p]));
		json_object_set_new(e, "bpi", jnum(rate(pt->bits[p], r->insns)));
		json_object_set_new(e, "bpc", jnum(rate(pt->bits[p], r->cycles)));
		json_object_set_new(e, "baseline", json_string("nxb"));
		json_object_set_new(e, "ratio", jnum(port_ratio(r, pt, c, p)));
		json_object_set_new(e, "vs_tre", jnum(port_vs_tre(r, pt, c, p)));
		if (p == AN_PORT_MTB)
			json_object_set_new(e, "packets", jint(pt->mtb_packets));
		for (c = 0; p != AN_PORT_FRAMES && c < r->ncores; c++)
			json_array_append_new(cb, jint(pt->core_bits[c][p]));
		json_object_set_new(e, "core_bits",
				    p != AN_PORT_FRAMES ? cb : (json_decref(cb), json_null()));
		json_array_append_new(arr, e);
	}
	json_object_set_new(o, "ports", arr);
	return o;
}

static int json_report(const struct an_rec *r, const struct ports *ports,
		       const struct an_windows *w)
{
	json_t *o = json_object(), *cores = json_array(), *encs = json_array(), *rec;
	struct an_core t;
	int ret;

	json_object_set_new(o, "recording", json_string(r->dir));
	json_object_set_new(o, "state", json_string(r->mf.complete ? "complete" : "partial"));
	json_object_set_new(o, "exited", json_boolean(r->exited));
	json_object_set_new(o, "status", r->exited ? json_integer(r->status) : json_null());
	json_object_set_new(o, "cores", json_integer(r->ncores));
	json_object_set_new(o, "model", json_string(isa_model_info(r->mf.model)->name));
	json_object_set_new(o, "instructions", jint(r->insns));
	json_object_set_new(o, "cycles", jint(r->cycles));
	json_object_set_new(o, "ipc", jnum(rate(r->insns, r->cycles)));
	rec = json_object();
	json_object_set_new(rec, "cf",
			    r->recorded_cf >= 0 ? json_string(an_enc_name(r->recorded_cf))
						: json_null());
	json_object_set_new(rec, "lv",
			    r->recorded_lv >= 0 ? json_string(an_enc_name(r->recorded_lv))
						: json_null());
	json_object_set_new(o, "recorded", rec);
	json_object_set_new(o, "other_encodings",
			    json_string(!r->fast      ? "recorded"
					: r->replayed ? "replayed"
						      : "unknown"));
	json_object_set_new(o, "load_values_known", json_boolean(r->lv_known));
	for (int c = 0; c < r->ncores; c++) {
		json_t *jc = json_core(&r->core[c]);

		json_object_set_new(jc, "core", json_integer(c));
		json_array_append_new(cores, jc);
	}
	json_object_set_new(o, "per_core", cores);
	total_core(r, &t);
	json_object_set_new(o, "total", json_core(&t));
	for (int e = 0; e < AN_NENC; e++)
		if (r->enc[e].present)
			json_array_append_new(encs, json_encoding(r, e));
	json_object_set_new(o, "encodings", encs);
	json_object_set_new(o, "trace_ports", ports->pt ? json_ports(r, ports->pt) : json_null());
	json_object_set_new(o, "timeline_window", r->nwin ? jint(r->window) : json_null());
	json_object_set_new(o, "field_lengths", json_cdf(r));
	if (w)
		json_object_set_new(o, "over_time", json_windows(r, w));
	ret = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (ret)
		return error("stat: cannot write the JSON");
	putchar('\n');
	return 0;
}

/* ---- the command -------------------------------------------------------------- */

static int parse_table(const char *s, enum table *t)
{
	static const char *const names[] = {"encodings", "cores", "windows", "cdf", "ports"};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i])) {
			*t = (enum table)i;
			return 0;
		}
	return error("--csv=%s: unknown table (encodings, cores, windows, cdf, ports)", s);
}

static int usage_error(void)
{
	fputs(stat_usage, stderr);
	return 2;
}

/*
 * A trace port's recording without stats.ini (raptor import): replay its
 * path and report what the trace shows per core. 0 / 1.
 */
static int port_only(const char *dir, const struct st_manifest *mf, int json)
{
	uint64_t bytes[ST_CF_MAX_CORES] = {0}, total = 0, idb[128], first[128];
	const struct rpl_etm_stats *ps;
	struct rpl *r = rpl_open(dir);
	static const char *const names[] = {"", "ETMv4", "ETMv3.5", "MTB"};
	int s;

	if (!r || (s = rpl_run(r, UINT64_MAX)) < 0) {
		rpl_close(r);
		return error("stat: %s: the trace does not replay (above)", dir), 1;
	}
	ps = rpl_port_stats(r);
	for (int c = 0; c < mf->ncores; c++)
		bytes[c] = mf->port.bytes[c];
	if (mf->port.framed) {
		/* each core's data bytes in the frames */
		char *path = xmalloc(strlen(dir) + strlen(mf->cf_file) + 2);
		FILE *f;
		uint8_t *buf = xmalloc(mf->cf_bits / 8 + 1);
		size_t n;

		sprintf(path, "%s/%s", dir, mf->cf_file);
		f = fopen(path, "rb");
		n = f ? fread(buf, 1, mf->cf_bits / 8, f) : 0;
		if (f)
			fclose(f);
		if (n == mf->cf_bits / 8 && !cstf_scan(buf, n, mf->port.tpiu, idb, first))
			for (int c = 0; c < mf->ncores; c++)
				bytes[c] = idb[mf->port.trace_id[c]];
		free(buf);
		free(path);
	}
	for (int c = 0; c < mf->ncores; c++)
		total += ps->insns[c];
	if (json) {
		json_t *o = json_object(), *cores = json_array();

		json_object_set_new(o, "recording", json_string(dir));
		json_object_set_new(o, "port", json_string(st_port_name(mf->port.kind)));
		json_object_set_new(o, "framed", json_boolean(mf->port.framed));
		json_object_set_new(o, "bytes", json_integer((json_int_t)(mf->cf_bits / 8)));
		json_object_set_new(o, "instructions", json_integer((json_int_t)total));
		for (int c = 0; c < mf->ncores; c++) {
			json_t *k = json_object();

			json_object_set_new(k, "core", json_integer(c));
			if (mf->port.kind != ST_PORT_MTB)
				json_object_set_new(k, "trace_id", json_integer(mf->port.trace_id[c]));
			json_object_set_new(k, "instructions", json_integer((json_int_t)ps->insns[c]));
			json_object_set_new(k, "exceptions",
					    json_integer((json_int_t)ps->exceptions[c]));
			json_object_set_new(k, "gaps", json_integer((json_int_t)ps->gaps[c]));
			json_object_set_new(k, "bytes", json_integer((json_int_t)bytes[c]));
			json_array_append_new(cores, k);
		}
		json_object_set_new(o, "cores", cores);
		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else {
		printf("recording %s: a trace port's (%s%s), %llu bytes, no statistics of the run "
		       "(registers, data and timing are not traced)\n",
		       dir, names[mf->port.kind],
		       mf->port.tpiu	   ? " in CoreSight formatter frames from a TPIU"
		       : mf->port.framed ? " in CoreSight formatter frames"
					 : "",
		       (unsigned long long)(mf->cf_bits / 8));
		printf("  %d cores (%s), %llu instructions traced\n\n", mf->ncores,
		       isa_model_info(mf->model)->name, (unsigned long long)total);
		printf("trace port     trace ID         bytes        instrs         bpi  exceptions"
		       "        gaps\n");
		for (int c = 0; c < mf->ncores; c++) {
			char id[8] = "-";

			if (mf->port.kind != ST_PORT_MTB)
				snprintf(id, sizeof(id), "0x%02x", mf->port.trace_id[c]);
			printf("  core %-8d %8s  %12llu  %12llu  %10.4f  %10llu  %10llu%s\n", c, id,
			       (unsigned long long)bytes[c], (unsigned long long)ps->insns[c],
			       ps->insns[c] ? 8.0 * bytes[c] / ps->insns[c] : 0.0,
			       (unsigned long long)ps->exceptions[c],
			       (unsigned long long)ps->gaps[c],
			       ps->lost_at_end[c] ? " (lost at the end)" : "");
		}
		printf("  all          %8s  %12llu  %12llu  %10.4f\n", "",
		       (unsigned long long)(mf->cf_bits / 8), (unsigned long long)total,
		       total ? (double)mf->cf_bits / total : 0.0);
	}
	rpl_close(r);
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	enum { O_JSON = 256, O_CSV, O_OVER, O_PLOT, O_CDF, O_PLOTCDF, O_NOPORTS, O_SYNC, O_RAW };
	static const struct option opts[] = {
	    {"json", no_argument, NULL, O_JSON},
	    {"csv", optional_argument, NULL, O_CSV},
	    {"over-time", required_argument, NULL, O_OVER},
	    {"plot", required_argument, NULL, O_PLOT},
	    {"cdf", no_argument, NULL, O_CDF},
	    {"plot-cdf", required_argument, NULL, O_PLOTCDF},
	    {"no-ports", no_argument, NULL, O_NOPORTS},
	    {"etm-sync", required_argument, NULL, O_SYNC},
	    {"ports-raw", required_argument, NULL, O_RAW},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct stat_opts o = {.etm_sync = AN_PORTS_SYNC};
	struct an_windows w = {0};
	struct an_rec r;
	struct an_ports pt;
	struct ports ports = {NULL, "left out (--no-ports)"};
	int opt, table_set = 0, ret = 0, have_w = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case O_JSON: o.json = 1; break;
		case O_CSV:
			o.csv = 1;
			if (optarg) {
				if (parse_table(optarg, &o.table))
					return 2;
				table_set = 1;
			}
			break;
		case O_OVER:
			if (parse_u64(optarg, &o.over_time) || !o.over_time)
				return error("--over-time: '%s' is not a number of cycles above 0",
					     optarg),
				       2;
			break;
		case O_PLOT: o.plot = optarg; break;
		case O_CDF: o.cdf = 1; break;
		case O_PLOTCDF: o.plot_cdf = optarg; break;
		case O_NOPORTS: o.no_ports = 1; break;
		case O_SYNC:
			/* the encoders check it too; a bad one is bad usage here */
			if (parse_u64(optarg, &o.etm_sync) || o.etm_sync < 256 ||
			    o.etm_sync > 1u << 20 || (o.etm_sync & (o.etm_sync - 1)))
				return error("--etm-sync: '%s' is not a power of 2 from 256 to "
					     "%u bytes",
					     optarg, 1u << 20),
				       2;
			break;
		case O_RAW: o.ports_raw = optarg; break;
		case 'h': fputs(stat_usage, stdout); return 0;
		default: return usage_error();
		}
	}
	if (optind != argc - 1) {
		error(optind == argc ? "stat: no recording given"
				     : "stat: exactly one recording expected");
		return usage_error();
	}
	if (o.json && o.csv)
		return error("stat: --json and --csv exclude each other"), 2;
	if (o.csv && !table_set && o.over_time)
		o.table = T_WINDOWS;
	if (o.csv && o.table == T_WINDOWS && !o.over_time)
		return error("stat: --csv=windows needs --over-time CYCLES"), 2;
	if (o.csv && o.table != T_WINDOWS && o.over_time)
		return error("stat: --over-time with --csv prints the windows table, not %s",
			     o.table == T_CORES ? "cores"
			     : o.table == T_CDF ? "cdf"
						: "encodings"),
		       2;

	if (o.no_ports && (o.ports_raw || (o.csv && o.table == T_PORTS)))
		return error("stat: --no-ports excludes %s",
			     o.ports_raw ? "--ports-raw" : "--csv=ports"),
		       2;

	/* the other CSV tables have no ports: no replay for them */
	if (o.csv && o.table != T_PORTS && !o.ports_raw)
		o.no_ports = 1;

	{
		/* an imported trace port's recording: no stats.ini, only what the trace shows */
		struct st_manifest mf;
		char *sp = xmalloc(strlen(argv[optind]) + 16), *mp = xmalloc(strlen(argv[optind]) + 16);
		int port = 0;

		sprintf(sp, "%s/stats.ini", argv[optind]);
		sprintf(mp, "%s/manifest.ini", argv[optind]);
		error_quiet(1); /* a bad manifest: an_rec_load says why */
		if (!st_manifest_read(mp, &mf) && mf.port.kind != ST_PORT_NONE && access(sp, F_OK))
			port = 1;
		error_quiet(-1);
		free(sp);
		free(mp);
		if (port) {
			if (o.csv || o.over_time || o.plot || o.cdf || o.plot_cdf || o.ports_raw)
				return error("stat: %s is an imported trace port's recording: only its "
					     "summary (text or --json), no --csv, --over-time, plots, "
					     "CDFs or --ports-raw", argv[optind]), 2;
			return port_only(argv[optind], &mf, o.json);
		}
	}
	if (an_rec_load(&r, argv[optind]))
		return 1;
	if (!o.no_ports && (r.recorded_cf < 0 || r.recorded_lv < 0)) {
		ports.why = "not known: they are fed from a replay of the run, which needs "
			    "both\n    streams (this recording has no control-flow or no "
			    "load-value stream)";
		if (o.ports_raw || (o.csv && o.table == T_PORTS)) {
			error("stat: %s: the trace ports are not known: the recording has no %s "
			      "stream to replay",
			      r.dir, r.recorded_cf < 0 ? "control-flow" : "load-value");
			an_rec_release(&r);
			return 1;
		}
	} else if (!o.no_ports) {
		if (an_ports_measure(&pt, r.dir, o.etm_sync, o.ports_raw)) {
			an_rec_release(&r);
			return 1;
		}
		if (pt.ncores != r.ncores)
			ret = error("stat: %s: the ports saw %d cores, the recording has %d", r.dir,
				    pt.ncores, r.ncores);
		for (int c = 0; !ret && c < r.ncores; c++)
			if (pt.core_insns[c] != r.core[c].insns)
				ret = error("stat: %s: core %d: the ports were fed %llu "
					    "instructions, stats.ini has %llu",
					    r.dir, c, U(pt.core_insns[c]), U(r.core[c].insns));
		if (ret) {
			an_rec_release(&r);
			return 1;
		}
		ports.pt = &pt;
	}
	if (o.over_time || o.plot) {
		if (an_rec_windows(&r, o.over_time ? o.over_time : r.window, &w)) {
			/* a window that does not fit the recording is bad usage */
			ret = o.over_time && r.nwin ? 2 : 1;
			an_rec_release(&r);
			return ret;
		}
		have_w = 1;
	}
	if (o.json) {
		ret = json_report(&r, &ports, o.over_time ? &w : NULL);
	} else if (o.csv) {
		switch (o.table) {
		case T_ENCODINGS: csv_encodings(stdout, &r); break;
		case T_CORES: csv_cores(stdout, &r); break;
		case T_WINDOWS: csv_windows(stdout, &r, &w); break;
		case T_CDF: csv_cdf(stdout, &r); break;
		case T_PORTS: csv_ports(stdout, &r, ports.pt); break;
		}
	} else {
		text_report(stdout, &r, &ports, o.cdf);
		if (o.over_time)
			text_windows(stdout, &r, &w);
	}
	if (!ret && o.plot && an_plot_timeline(&r, &w, o.plot))
		ret = -1;
	if (!ret && o.plot_cdf && an_plot_cdf(&r, o.plot_cdf))
		ret = -1;
	if (fflush(stdout))
		ret = error("stat: cannot write the report: %m");
	if (have_w)
		an_windows_release(&w);
	an_rec_release(&r);
	return ret ? 1 : 0;
}

/* raptor tune: the chunk sizes that make a set of recordings' traces smallest. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recstats.h"
#include "analysis/tune.h"
#include "cli/cli.h"

static const char tune_usage[] =
    "usage: raptor tune REC... [--max N] [--json | --csv]\n"
    "\n"
    "Search the chunk sizes (c0, c1) of the variable-length fields, as the\n"
    "papers do (TRaptor Sec. 5.2, mcfTRaptor Sec. 5, CFAT Sec. 4.2): i0,i1 for\n"
    "bCnt, j0,j1 for |diffTA|, h0,h1 for diffCC, the iCnt chunks (TR_e), and\n"
    "the fahCnt and dCC chunks (CFiat). The cost of every pair is exact: it\n"
    "comes from the histograms of the fields' values by bit length that\n"
    "'raptor record' writes to stats.ini (or, for a recording made without\n"
    "--all-encodings, that a replay of it computes), summed over all the\n"
    "recordings given (the papers minimise the total over a benchmark suite).\n"
    "\n"
    "Prints per field the best pair and its bits, the bits at the papers'\n"
    "defaults (and at the recordings' own sizes when they differ), the total\n"
    "size of TR_e and CFiat (functional and timed) at the defaults and at the\n"
    "best sizes, and a sensitivity table: the cost of the pairs around the best\n"
    "one, in percent above it. 'raptor record --chunks' records with the sizes\n"
    "found.\n"
    "\n"
    "  --max N      search c0 and c1 in 1..N (default 16, at most 64)\n"
    "  --json       everything as one JSON object (with every pair's cost)\n"
    "  --csv        every pair's cost: field,c0,c1,bits,above_best,best,default\n"
    "  -h, --help   this text\n"
    "\n"
    "Exit status: 0, 1 when a recording is missing, damaged or has no\n"
    "histograms (recorded by an older raptor), 2 for bad usage.\n";

#define U(x) ((unsigned long long)(x))
#define SENS 2 /* the sensitivity table spans best +- SENS in c0 and c1 */

/* The encodings whose totals tune reports, and the histogrammed fields they send. */
static const struct {
	int enc;
	const char *label;
	unsigned fields; /* bit h: field an_hfield h */
} totals[] = {
    {4, "TR_e, functional", 1u << AN_H_BCNT | 1u << AN_H_DIFFTA | 1u << AN_H_ICNT},
    {5, "TR_e, timed", 1u << AN_H_BCNT | 1u << AN_H_DIFFTA | 1u << AN_H_ICNT | 1u << AN_H_DIFFCC},
    {AN_LV_FIRST + 2, "CFiat, functional", 1u << AN_H_FAHCNT},
    {AN_LV_FIRST + 3, "CFiat, timed", 1u << AN_H_FAHCNT | 1u << AN_H_DCC},
};

struct tune_run {
	int nrec;
	struct an_rec *rec;
	uint64_t insns;
	struct an_tune t[AN_NHIST];
	/* the recordings' own sizes: the same in all, or mixed */
	struct st_vlc recorded[AN_NHIST];
	int mixed[AN_NHIST];
	/* per total: bits not in the tuned fields (summed over recordings) */
	uint64_t rest[ARRAY_SIZE(totals)];
};

static int same(struct st_vlc a, struct st_vlc b)
{
	return a.c0 == b.c0 && a.c1 == b.c1;
}

static uint64_t total_with(const struct tune_run *run, size_t k, const struct st_vlc *ch)
{
	uint64_t bits = run->rest[k];

	for (int h = 0; h < AN_NHIST; h++)
		if (totals[k].fields & 1u << h)
			bits += an_tune_cost(&run->t[h], ch[h]);
	return bits;
}

static double above(uint64_t bits, uint64_t best)
{
	return best ? 100.0 * ((double)bits - (double)best) / (double)best : 0.0;
}

static void text_report(const struct tune_run *run)
{
	struct st_vlc def[AN_NHIST], best[AN_NHIST];
	int any_mixed_or_other = 0;

	for (int h = 0; h < AN_NHIST; h++) {
		def[h] = an_hist_default(h);
		best[h] = run->t[h].best;
		any_mixed_or_other |= run->mixed[h] || !same(run->recorded[h], def[h]);
	}
	printf("raptor tune: %d recording%s, %llu instructions; c0 and c1 searched in 1..%u\n\n",
	       run->nrec, run->nrec == 1 ? "" : "s", U(run->insns), run->t[0].max);
	printf("field           values  default         bits     best         bits   change%s\n",
	       any_mixed_or_other ? "   recorded         bits" : "");
	for (int h = 0; h < AN_NHIST; h++) {
		const struct an_tune *t = &run->t[h];
		uint64_t values = 0, db = an_tune_cost(t, def[h]), bb = an_tune_cost(t, best[h]);
		char d[16], b[16];

		for (int l = 0; l < AN_NLEN; l++)
			values += t->n[l];
		snprintf(d, sizeof(d), "%u,%u", def[h].c0, def[h].c1);
		snprintf(b, sizeof(b), "%u,%u", best[h].c0, best[h].c1);
		printf("  %-10s %11llu  %-7s %12llu  %-7s %12llu  %6.2f%%", an_hist_label(h),
		       U(values), d, U(db), b, U(bb),
		       db ? 100.0 * ((double)bb - (double)db) / (double)db : 0.0);
		if (run->mixed[h]) {
			printf("   mixed\n");
		} else if (any_mixed_or_other) {
			snprintf(d, sizeof(d), "%u,%u", run->recorded[h].c0, run->recorded[h].c1);
			printf("   %-7s %12llu\n", d, U(an_tune_cost(t, run->recorded[h])));
		} else {
			putchar('\n');
		}
	}
	printf("\ntotal bits              defaults         best   change\n");
	for (size_t k = 0; k < ARRAY_SIZE(totals); k++) {
		uint64_t db = total_with(run, k, def), bb = total_with(run, k, best);

		printf("  %-18s %12llu %12llu  %6.2f%%\n", totals[k].label, U(db), U(bb),
		       db ? 100.0 * ((double)bb - (double)db) / (double)db : 0.0);
	}
	printf("\nsensitivity: bits above the best pair, in %%; * the best, d the default\n");
	for (int h = 0; h < AN_NHIST; h++) {
		const struct an_tune *t = &run->t[h];
		uint64_t bb = an_tune_cost(t, best[h]);
		int lo0 = (int)best[h].c0 - SENS, hi0 = (int)best[h].c0 + SENS,
		    lo1 = (int)best[h].c1 - SENS, hi1 = (int)best[h].c1 + SENS;

		if (lo0 < 1)
			lo0 = 1, hi0 = 1 + 2 * SENS;
		if (hi0 > (int)t->max)
			hi0 = (int)t->max, lo0 = hi0 - 2 * SENS < 1 ? 1 : hi0 - 2 * SENS;
		if (lo1 < 1)
			lo1 = 1, hi1 = 1 + 2 * SENS;
		if (hi1 > (int)t->max)
			hi1 = (int)t->max, lo1 = hi1 - 2 * SENS < 1 ? 1 : hi1 - 2 * SENS;
		printf("  %-10s", an_hist_label(h));
		for (int c1 = lo1; c1 <= hi1; c1++)
			printf("    c1=%-3d", c1);
		putchar('\n');
		for (int c0 = lo0; c0 <= hi0; c0++) {
			printf("    c0=%-5d", c0);
			for (int c1 = lo1; c1 <= hi1; c1++) {
				struct st_vlc ch = ST_VLC((unsigned)c0, (unsigned)c1);
				const char *mark = same(ch, best[h])  ? "*"
						   : same(ch, def[h]) ? "d"
								      : " ";

				printf(" %8.2f%s", above(an_tune_cost(t, ch), bb), mark);
			}
			putchar('\n');
		}
	}
}

static void csv_report(const struct tune_run *run)
{
	printf("field,c0,c1,bits,above_best,best,default\n");
	for (int h = 0; h < AN_NHIST; h++) {
		const struct an_tune *t = &run->t[h];
		uint64_t bb = an_tune_cost(t, t->best);

		for (unsigned c0 = 1; c0 <= t->max; c0++)
			for (unsigned c1 = 1; c1 <= t->max; c1++) {
				struct st_vlc ch = ST_VLC(c0, c1);
				uint64_t b = t->cost[(c0 - 1) * t->max + c1 - 1];

				printf("%s,%u,%u,%llu,%.6f,%d,%d\n", an_hist_label(h), c0, c1, U(b),
				       above(b, bb) / 100, same(ch, t->best),
				       same(ch, an_hist_default(h)));
			}
	}
}

static json_t *pair(struct st_vlc ch)
{
	return json_pack("[ii]", (int)ch.c0, (int)ch.c1);
}

static int json_report(const struct tune_run *run)
{
	json_t *o = json_object(), *recs = json_array(), *fields = json_object(),
	       *tot = json_object();
	struct st_vlc def[AN_NHIST], best[AN_NHIST];
	int ret;

	for (int i = 0; i < run->nrec; i++)
		json_array_append_new(recs, json_string(run->rec[i].dir));
	json_object_set_new(o, "recordings", recs);
	json_object_set_new(o, "instructions", json_integer((json_int_t)run->insns));
	json_object_set_new(o, "max", json_integer(run->t[0].max));
	for (int h = 0; h < AN_NHIST; h++) {
		const struct an_tune *t = &run->t[h];
		json_t *f = json_object(), *grid = json_array();
		uint64_t values = 0;

		def[h] = an_hist_default(h);
		best[h] = t->best;
		for (int l = 0; l < AN_NLEN; l++)
			values += t->n[l];
		for (unsigned c0 = 1; c0 <= t->max; c0++) {
			json_t *rowj = json_array();

			for (unsigned c1 = 1; c1 <= t->max; c1++)
				json_array_append_new(
				    rowj,
				    json_integer((json_int_t)t->cost[(c0 - 1) * t->max + c1 - 1]));
			json_array_append_new(grid, rowj);
		}
		json_object_set_new(f, "encoding", json_string(an_enc_name(an_hist_enc(h))));
		json_object_set_new(f, "values", json_integer((json_int_t)values));
		json_object_set_new(f, "default", pair(def[h]));
		json_object_set_new(f, "default_bits",
				    json_integer((json_int_t)an_tune_cost(t, def[h])));
		json_object_set_new(f, "best", pair(t->best));
		json_object_set_new(f, "best_bits",
				    json_integer((json_int_t)an_tune_cost(t, t->best)));
		json_object_set_new(f, "recorded",
				    run->mixed[h] ? json_null() : pair(run->recorded[h]));
		json_object_set_new(
		    f, "recorded_bits",
		    run->mixed[h] ? json_null()
				  : json_integer((json_int_t)an_tune_cost(t, run->recorded[h])));
		json_object_set_new(f, "cost", grid);
		json_object_set_new(fields, an_hist_label(h), f);
	}
	json_object_set_new(o, "fields", fields);
	for (size_t k = 0; k < ARRAY_SIZE(totals); k++)
		json_object_set_new(tot, an_enc_name(totals[k].enc),
				    json_pack("{s:I,s:I}", "default",
					      (json_int_t)total_with(run, k, def), "best",
					      (json_int_t)total_with(run, k, best)));
	json_object_set_new(o, "totals", tot);
	ret = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (ret)
		return error("tune: cannot write the JSON");
	putchar('\n');
	return 0;
}

int cmd_tune(int argc, char **argv)
{
	enum { O_MAX = 256, O_JSON, O_CSV };
	static const struct option opts[] = {
	    {"max", required_argument, NULL, O_MAX},
	    {"json", no_argument, NULL, O_JSON},
	    {"csv", no_argument, NULL, O_CSV},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct tune_run run = {0};
	uint64_t max = 16;
	int opt, json = 0, csv = 0, ret = 1, loaded = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case O_MAX:
			if (parse_u64(optarg, &max) || max < 1 || max > AN_TUNE_MAX)
				return error("--max: '%s' is not a number from 1 to %d", optarg,
					     AN_TUNE_MAX),
				       2;
			break;
		case O_JSON: json = 1; break;
		case O_CSV: csv = 1; break;
		case 'h': fputs(tune_usage, stdout); return 0;
		default: fputs(tune_usage, stderr); return 2;
		}
	}
	if (optind == argc) {
		error("tune: no recording given");
		fputs(tune_usage, stderr);
		return 2;
	}
	if (json && csv)
		return error("tune: --json and --csv exclude each other"), 2;

	run.nrec = argc - optind;
	run.rec = xcalloc(run.nrec, sizeof(*run.rec));
	for (int h = 0; h < AN_NHIST; h++)
		an_tune_init(&run.t[h], (unsigned)max, an_hist_signed(h));
	for (int i = 0; i < run.nrec; i++, loaded++) {
		struct an_rec *r = &run.rec[i];

		if (an_rec_load(r, argv[optind + i]))
			goto out;
		run.insns += r->insns;
		for (int h = 0; h < AN_NHIST; h++) {
			if (!r->hist[h].present) {
				an_rec_release(r);
				if (r->fast && !r->replayed)
					error("%s: no [hist.%s]: a recording without both streams, "
					      "made without --all-encodings; record it again with "
					      "--all-encodings",
					      r->dir, an_hist_key(h));
				else
					error("%s: stats.ini has no [hist.%s] (recorded by an older "
					      "raptor?): "
					      "record it again",
					      r->dir, an_hist_key(h));
				goto out;
			}
			an_tune_add(&run.t[h], r->hist[h].n);
			if (!i)
				run.recorded[h] = r->hist[h].chunks;
			else if (!same(run.recorded[h], r->hist[h].chunks))
				run.mixed[h] = 1;
		}
		/* what the tuned fields do not change: checked equal to the histograms at load */
		for (size_t k = 0; k < ARRAY_SIZE(totals); k++) {
			uint64_t rest = r->enc[totals[k].enc].bits;

			for (int h = 0; h < AN_NHIST; h++)
				if (totals[k].fields & 1u << h)
					rest -= an_hist_cost(r->hist[h].n, r->hist[h].chunks,
							     an_hist_signed(h));
			run.rest[k] += rest;
		}
	}
	for (int h = 0; h < AN_NHIST; h++)
		an_tune_search(&run.t[h]);
	if (json)
		ret = json_report(&run) ? 1 : 0;
	else if (csv)
		csv_report(&run), ret = 0;
	else
		text_report(&run), ret = 0;
	if (fflush(stdout)) {
		error("tune: cannot write the report: %m");
		ret = 1;
	}
out:
	for (int i = 0; i < loaded; i++)
		an_rec_release(&run.rec[i]);
	for (int h = 0; h < AN_NHIST; h++)
		an_tune_release(&run.t[h]);
	free(run.rec);
	return ret;
}

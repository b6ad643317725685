#include "analysis/plot.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* A growing script text. */
struct text {
	char *buf;
	size_t len, cap;
};

static void PRINTF_LIKE(2, 3) add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			die("plot: vsnprintf failed");
		if (t->len + (size_t)n < t->cap)
			break;
		t->cap = 2 * (t->cap + (size_t)n) + 4096;
		t->buf = xrealloc(t->buf, t->cap);
	}
	t->len += (size_t)n;
}

/* gnuplot string literal in single quotes: a quote is doubled. */
static void add_quoted(struct text *t, const char *s)
{
	add(t, "'");
	for (; *s; s++)
		add(t, *s == '\'' ? "''" : "%c", *s);
	add(t, "'");
}

/*
 * Run gnuplot with the script on its stdin; its own messages go to our
 * stderr. Then svg must exist and be non-empty.
 */
static int run_gnuplot(const struct text *script, const char *svg)
{
	int fd[2], status;
	struct stat st;
	pid_t pid;
	size_t off = 0;
	void (*old)(int);

	if (pipe(fd))
		return error("plot: pipe: %m");
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return error("plot: fork: %m");
	}
	if (!pid) {
		dup2(fd[0], 0);
		close(fd[0]);
		close(fd[1]);
		execlp("gnuplot", "gnuplot", (char *)NULL);
		fprintf(stderr,
			"raptor: error: cannot run gnuplot: %s (Debian package "
			"gnuplot-nox)\n",
			strerror(errno));
		_exit(127);
	}
	close(fd[0]);
	old = signal(SIGPIPE, SIG_IGN);
	while (off < script->len) {
		ssize_t n = write(fd[1], script->buf + off, script->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	close(fd[1]);
	signal(SIGPIPE, old);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("plot: waitpid: %m");
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
		return error("%s: not written: gnuplot could not run", svg);
	if (WEXITSTATUS(status))
		return error("%s: not written: gnuplot failed (exit status %d)", svg,
			     WEXITSTATUS(status));
	if (stat(svg, &st) || !st.st_size)
		return error("%s: gnuplot wrote nothing", svg);
	return 0;
}

static void header(struct text *t, const char *svg, int width, int height)
{
	add(t,
	    "set terminal svg size %d,%d dynamic enhanced font 'Helvetica,12' "
	    "background rgb 'white'\nset output ",
	    width, height);
	add_quoted(t, svg);
	add(t, "\nset grid\nset key outside right top vertical Left reverse noenhanced\n");
}

/*
 * Colours by family: the Nexus-like baseline grey, TR_b / CFiat blue, TR_e /
 * mc2RT red, TR_a / CFiat_a green.
 */
static const char *const colours[4] = {"#555555", "#1f77b4", "#d62728", "#2ca02c"};

/*
 * Lines with a small point at every window: a window with bits between two
 * without (a gap on the log scale) has no line to either side, and only
 * its point shows it.
 */
#define LINESPOINTS "linespoints pt 7 ps 0.35"

int an_plot_timeline(const struct an_rec *r, const struct an_windows *w, const char *svg)
{
	struct text t = {NULL, 0, 0};
	int k = r->ncores, positive[AN_NSTREAMS] = {0}, rec_cf = r->recorded_cf,
	    rec_lv = r->recorded_lv, ret;
	char title[256];

	/* without recorded streams, show what the default recording would send */
	if (rec_cf < 0 && rec_lv < 0) {
		rec_cf = 5;		  /* ttre */
		rec_lv = AN_LV_FIRST + 3; /* tcfiat */
	}
	for (uint64_t i = 0; i < w->count; i++)
		for (int e = 0; e < AN_NSTREAMS; e++)
			if (w->bits[(i * (k + 1) + k) * AN_NSTREAMS + e])
				positive[e] = 1;

	header(&t, svg, 1100, 1150);
	/* columns: 1 end cycle, 2..17 bpc of all cores per encoding, 18.. per core */
	add(&t, "$data << EOD\n");
	for (uint64_t i = 0; i < w->count; i++) {
		const uint64_t *row = w->bits + i * (k + 1) * AN_NSTREAMS;
		double len = (double)w->len[i];

		add(&t, "%llu", (unsigned long long)(w->start[i] + w->len[i]));
		for (int e = 0; e < AN_NSTREAMS; e++)
			add(&t, " %.9g", row[k * AN_NSTREAMS + e] / len);
		for (int c = 0; c < k; c++) {
			uint64_t b = (rec_cf >= 0 ? row[c * AN_NSTREAMS + rec_cf] : 0) +
				     (rec_lv >= 0 ? row[c * AN_NSTREAMS + rec_lv] : 0);

			add(&t, " %.9g", b / len);
		}
		add(&t, "\n");
	}
	add(&t, "EOD\n");
	snprintf(title, sizeof(title),
		 "raptor stat %s: trace port bandwidth over time, %d cores, "
		 "windows of %llu cycles",
		 r->dir, k, (unsigned long long)w->n);
	add(&t, "set multiplot layout 3,1 title ");
	add_quoted(&t, title);
	add(&t, " font 'Helvetica,14'\n");
	add(&t,
	    "set xlabel 'cycle (end of window)'\nset ylabel 'bits per cycle'\n"
	    "set format x '%%.0s%%c'\nset xrange [0:%llu]\n",
	    (unsigned long long)(w->count ? w->start[w->count - 1] + w->len[w->count - 1] : 1));

	for (int panel = 0; panel < 2; panel++) {
		int first = panel ? AN_LV_FIRST : 0, any = 0;

		for (int e = first; e < first + 8; e++)
			any |= positive[e];
		add(&t, "set title '%s'\n%s\n",
		    panel
			? "Load values: NX-LV (Nexus-like), CFiat, mc2RT, CFiat_{a}; timed "
			  "solid, functional dashed (log scale; gaps: no bits)"
			: "Control flow: NX_{b} (Nexus-like), TR_{b}, TR_{e}, TR_{a}; timed solid, "
			  "functional dashed (log scale; gaps: no bits)",
		    any ? "set logscale y\nset format y '%g'" : "unset logscale y");
		add(&t, "plot ");
		any = 0;
		/* timed first: the papers' figures are of time-stamped traces */
		for (int timed = 1; timed >= 0; timed--)
			for (int e = first + timed; e < first + 8; e += 2) {
				if (!positive[e])
					continue;
				add(&t,
				    "%s$data using 1:%d with " LINESPOINTS
				    " lw %s dt %d lc rgb '%s' "
				    "title '%s'",
				    any++ ? ", " : "", e + 2, timed ? "2" : "1.5", timed ? 1 : 2,
				    colours[(e - first) / 2], an_enc_name(e));
			}
		if (!any)
			add(&t, "0 with lines title 'no messages'");
		add(&t, "\nunset logscale y\n");
	}
	snprintf(title, sizeof(title), "Recorded streams by core: %s%s%s", rec_cf >= 0 ? "cf " : "",
		 rec_cf >= 0 ? an_enc_name(rec_cf) : "",
		 rec_lv >= 0 ? (rec_cf >= 0 ? " + lv " : "lv ") : "");
	if (rec_lv >= 0)
		snprintf(title + strlen(title), sizeof(title) - strlen(title), "%s",
			 an_enc_name(rec_lv));
	add(&t, "set title ");
	add_quoted(&t, title);
	add(&t, "\nset format y '%%g'\nplot ");
	for (int c = 0; c < k; c++)
		add(&t, "%s$data using 1:%d with " LINESPOINTS " lw 1.5 title 'core %d'",
		    c ? ", " : "", 2 + AN_NSTREAMS + c, c);
	add(&t, "\nunset multiplot\nset output\n");
	ret = run_gnuplot(&t, svg);
	free(t.buf);
	return ret;
}

static const char *const cdf_colours[AN_NHIST] = {
    "#9400d3", "#009e73", "#56b4e9", "#e69f00", "#d62728", "#0072b2",
};

int an_plot_cdf(const struct an_rec *r, const char *svg)
{
	struct text t = {NULL, 0, 0};
	int maxlen = 0, any = 0, ret;
	char title[256];

	for (int h = 0; h < AN_NHIST; h++)
		for (int l = 0; r->hist[h].present && l < AN_NLEN; l++)
			if (r->hist[h].n[l] && l > maxlen)
				maxlen = l;
	for (int h = 0; h < AN_NHIST; h++)
		any |= r->hist[h].present;
	if (!any)
		return error("%s: no field histograms in this recording (made by an older "
			     "raptor?): record it again",
			     r->dir);
	header(&t, svg, 1000, 620);
	add(&t, "$data << EOD\n");
	for (int l = 0; l <= maxlen; l++) {
		add(&t, "%d", l);
		for (int h = 0; h < AN_NHIST; h++) {
			uint64_t total = 0, upto = 0;

			for (int m = 0; m < AN_NLEN; m++) {
				total += r->hist[h].n[m];
				if (m <= l)
					upto += r->hist[h].n[m];
			}
			add(&t, total ? " %.6f" : " NaN", total ? 100.0 * upto / total : 0.0);
		}
		add(&t, "\n");
	}
	add(&t, "EOD\n");
	snprintf(title, sizeof(title),
		 "raptor stat %s: cumulative distribution of field "
		 "lengths (TR_{e} and CFiat, timed)",
		 r->dir);
	add(&t, "set title ");
	add_quoted(&t, title);
	add(&t,
	    "\nset xlabel 'minimum length of the value (bits)'\n"
	    "set ylabel 'values with at most that many bits (%%)'\n"
	    "set yrange [0:100]\nset xrange [0:%d]\nset xtics 1\nplot ",
	    maxlen + 1);
	any = 0;
	for (int h = 0; h < AN_NHIST; h++) {
		uint64_t total = 0;

		for (int m = 0; m < AN_NLEN; m++)
			total += r->hist[h].n[m];
		if (!total)
			continue;
		add(&t, "%s$data using 1:%d with steps lw 2 lc rgb '%s' title '%s (%llu values)'",
		    any++ ? ", " : "", h + 2, cdf_colours[h], an_hist_label(h),
		    (unsigned long long)total);
	}
	if (!any)
		add(&t, "NaN title 'no values'");
	add(&t, "\nset output\n");
	ret = run_gnuplot(&t, svg);
	free(t.buf);
	return ret;
}

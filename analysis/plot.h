/*
 * plot: SVG charts of a recording's statistics, drawn by gnuplot (Debian
 * package gnuplot-nox) fed a script with the data inline on a pipe.
 */
#ifndef RAPTOR_PLOT_H
#define RAPTOR_PLOT_H

#include "analysis/recstats.h"
#include "util/util.h"

/*
 * Bandwidth over time into svg: bits per cycle per window of w, one line per
 * encoding (control flow and load values in their own panels, timed
 * encodings solid, functional dashed), and a panel with the recorded
 * streams' bandwidth per core. 0, or -1 with an error (gnuplot missing or
 * failing, svg not written).
 */
int an_plot_timeline(const struct an_rec *r, const struct an_windows *w,
		     const char *svg) MUST_CHECK;

/* CDFs of the field lengths (mcfTRaptor Fig. 9, CFAT Fig. 5) into svg. 0 / -1. */
int an_plot_cdf(const struct an_rec *r, const char *svg) MUST_CHECK;

#endif

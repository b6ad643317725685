#include "record/profile.h"

#include <stdlib.h>
#include <string.h>

struct rec_profile {
	int ncores;
	uint64_t window; /* cycles per window */
	size_t used;	 /* windows that may hold bits: 0 .. used-1 */
	size_t alloc;	 /* windows allocated */
	uint64_t *bits;	 /* [window][core][stream] */
	/* the window of the last cycle asked for: cycles first .. first + span - 1 (span 0: none) */
	uint64_t first, span;
	size_t last;
	uint64_t hist[REC_PF_NFIELDS][REC_PROF_LENGTHS];
};

static const char *const field_names[REC_PF_NFIELDS] = {
    "cf.cnt", "cf.ta", "cf.cc", "cf.icnt", "lv.cnt", "lv.cc",
};

struct rec_profile *rec_prof_new(int ncores)
{
	struct rec_profile *p = xcalloc(1, sizeof(*p));

	p->ncores = ncores;
	p->window = REC_PROF_WINDOW0;
	return p;
}

void rec_prof_free(struct rec_profile *p)
{
	if (!p)
		return;
	free(p->bits);
	free(p);
}

static size_t row(const struct rec_profile *p, size_t w, int core)
{
	return (w * p->ncores + core) * REC_PROF_STREAMS;
}

/* 1, 2, 10, 20, 100, ...: each divides the next, so the merge is exact. */
static unsigned grow_factor(uint64_t window)
{
	while (window >= 10 && window % 10 == 0)
		window /= 10;
	return window == 1 ? 2 : 5;
}

/* Make the windows f times longer, merging neighbours. */
static void merge(struct rec_profile *p)
{
	unsigned f = grow_factor(p->window);
	size_t n = (p->used + f - 1) / f, per = (size_t)p->ncores * REC_PROF_STREAMS;

	for (size_t w = 0; w < n; w++) {
		uint64_t *dst = p->bits + row(p, w, 0);

		if (w)
			memcpy(dst, p->bits + row(p, w * f, 0), per * sizeof(*dst));
		for (size_t k = 1; k < f && w * f + k < p->used; k++) {
			const uint64_t *src = p->bits + row(p, w * f + k, 0);

			for (size_t i = 0; i < per; i++)
				dst[i] += src[i];
		}
	}
	if (p->used > n) /* (none used yet, bits may be NULL: a run's first message late) */
		memset(p->bits + row(p, n, 0), 0, (p->used - n) * per * sizeof(*p->bits));
	p->used = n;
	p->window *= f;
	p->span = 0;
}

static size_t window_of(const struct rec_profile *p, uint64_t cycle)
{
	return cycle ? (size_t)((cycle - 1) / p->window) : 0;
}

void rec_prof_bits(struct rec_profile *p, int core, int stream, uint64_t cycle, uint64_t bits)
{
	size_t w;

	/* (the cores' cycles move slowly: mostly the window of the last call, no division) */
	if (cycle - p->first < p->span) {
		p->bits[row(p, p->last, core) + stream] += bits;
		return;
	}
	w = window_of(p, cycle);
	if (__builtin_expect(w >= p->used, 0)) {
		while ((w = window_of(p, cycle)) >= REC_PROF_MAX_WINDOWS)
			merge(p);
		if (w >= p->alloc) {
			size_t n = p->alloc ? p->alloc : 64,
			       per = (size_t)p->ncores * REC_PROF_STREAMS;

			while (n <= w)
				n *= 2;
			if (n > REC_PROF_MAX_WINDOWS)
				n = REC_PROF_MAX_WINDOWS;
			p->bits = xrealloc(p->bits, n * per * sizeof(*p->bits));
			memset(p->bits + row(p, p->alloc, 0), 0,
			       (n - p->alloc) * per * sizeof(*p->bits));
			p->alloc = n;
		}
		if (w >= p->used)
			p->used = w + 1;
	}
	if (cycle) {
		p->last = w;
		p->first = (uint64_t)w * p->window + 1;
		p->span = p->window;
	}
	p->bits[row(p, w, core) + stream] += bits;
}

void rec_prof_value(struct rec_profile *p, enum rec_prof_field f, uint64_t v)
{
	p->hist[f][v ? 64 - __builtin_clzll(v) : 0]++;
}

/* Windows to write: enough for the run's cycles and every bit counted. */
static size_t nwindows(const struct rec_profile *p, uint64_t cycles)
{
	size_t n = cycles ? window_of(p, cycles) + 1 : 1;

	return n > p->used ? n : p->used;
}

void rec_prof_write_stats(const struct rec_profile *p, FILE *f, const char *const *chunks,
			  uint64_t cycles, uint32_t streams)
{
	for (int k = 0; k < REC_PF_NFIELDS; k++) {
		if (!(streams & 1u << (k < REC_PF_FAHCNT ? REC_PROF_TTRE : REC_PROF_TCFIAT)))
			continue;
		fprintf(f, "\n[hist.%s]\nencoding = %s\nchunks = %s\n", field_names[k],
			k < REC_PF_FAHCNT ? "ttre" : "tcfiat", chunks[k]);
		for (int l = 0; l < REC_PROF_LENGTHS; l++)
			if (p->hist[k][l])
				fprintf(f, "len%d = %llu\n", l, (unsigned long long)p->hist[k][l]);
	}
	fprintf(f, "\n[timeline]\nfile = timeline.csv\nwindow = %llu\nwindows = %zu\n",
		(unsigned long long)p->window, nwindows(p, cycles));
}

int rec_prof_write_timeline(const struct rec_profile *p, const char *path, const char *const *names,
			    uint64_t cycles, uint32_t streams)
{
	FILE *f = fopen(path, "w");
	size_t n = nwindows(p, cycles);
	int ret = 0;

	if (!f)
		return error("cannot create '%s': %m", path);
	fputs("start,core", f);
	for (int s = 0; s < REC_PROF_STREAMS; s++)
		if (streams & 1u << s)
			fprintf(f, ",%s", names[s]);
	fputc('\n', f);
	for (size_t w = 0; w < n; w++) {
		for (int c = 0; c < p->ncores; c++) {
			fprintf(f, "%llu,%d", (unsigned long long)(w * p->window), c);
			for (int s = 0; s < REC_PROF_STREAMS; s++)
				if (streams & 1u << s)
					fprintf(f, ",%llu",
						w < p->used
						    ? (unsigned long long)p->bits[row(p, w, c) + s]
						    : 0ULL);
			fputc('\n', f);
		}
	}
	if (ferror(f))
		ret = error("error writing '%s': %m", path);
	if (fclose(f) && !ret)
		ret = error("error writing '%s': %m", path);
	return ret;
}

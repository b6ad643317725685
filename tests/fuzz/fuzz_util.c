#define _GNU_SOURCE /* mkdtemp, nftw's FTW_DEPTH */
#include "tests/fuzz/fuzz_util.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *tmp_root;

static void fz_fail(const char *what, const char *path)
{
	fprintf(stderr, "fuzz: %s %s: %s\n", what, path ? path : "", strerror(errno));
	abort();
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void rm_tmp(void)
{
	if (tmp_root)
		nftw(tmp_root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fz_tmpdir(void)
{
	static const char *const bases[] = {"/dev/shm", NULL};
	const char *env = getenv("TMPDIR");
	char tmpl[PATH_MAX];

	if (tmp_root)
		return tmp_root;
	for (size_t i = 0; i < 2; i++) {
		const char *b = bases[i] ? bases[i] : env ? env : "/tmp";

		snprintf(tmpl, sizeof(tmpl), "%s/raptor-fuzz.XXXXXX", b);
		if (mkdtemp(tmpl)) {
			tmp_root = strdup(tmpl);
			if (!tmp_root)
				fz_fail("out of memory", NULL);
			atexit(rm_tmp);
			return tmp_root;
		}
	}
	fz_fail("cannot make a scratch directory like", tmpl);
	return NULL;
}

char *fz_join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = malloc(n);

	if (!p)
		fz_fail("out of memory", NULL);
	snprintf(p, n, "%s/%s", a, b);
	return p;
}

void fz_write(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f))
		fz_fail("cannot write", path);
}

char *fz_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, k;

	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			cap = 2 * cap + 4096 + 1;
			buf = realloc(buf, cap);
			if (!buf)
				fz_fail("out of memory reading", path);
		}
		k = fread(buf + n, 1, cap - n - 1, f);
		n += k;
	} while (k);
	fclose(f);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

char *fz_recs_dir(void)
{
	const char *env = getenv("RAPTOR_FUZZ_RECS");
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env) {
		char *p = strdup(env);

		if (!p)
			fz_fail("out of memory", NULL);
		return p;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		fz_fail("cannot find the executable", "/proc/self/exe");
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	return fz_join(exe, "recs");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **fz_list_dirs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0;

	if (!d)
		fz_fail("cannot open the base recordings (run tests/fuzz/run.sh, or set "
			"RAPTOR_FUZZ_RECS):",
			dir);
	while ((e = readdir(d))) {
		char *p = fz_join(dir, e->d_name);
		struct stat sb;

		if (e->d_name[0] == '.' || stat(p, &sb) || !S_ISDIR(sb.st_mode)) {
			free(p);
			continue;
		}
		v = realloc(v, (n + 2) * sizeof(*v));
		if (!v)
			fz_fail("out of memory", NULL);
		v[n++] = p;
	}
	closedir(d);
	if (!n) {
		errno = ENOENT;
		fz_fail("no base recording in", dir);
	}
	qsort(v, n, sizeof(*v), cmp_str);
	v[n] = NULL;
	return v;
}

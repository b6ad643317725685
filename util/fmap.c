/* fmap: a file mapped read-only (util/fmap.h). */
#include "util/fmap.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define RELEASE_STEP ((size_t)1 << 20)

/*
 * The files mapped so far, for the SIGBUS message ("A, B"): written under
 * the lock before a mapping is used, read by the handler only.
 */
static char mapped_names[2048];
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

/* A mapped file that shrank under us: say so and stop (async-signal-safe). */
static void on_sigbus(int sig)
{
	static const char head[] = "raptor: fatal: a mapped recording file (";
	static const char tail[] = ") changed (shrank) while raptor was reading it (SIGBUS); "
				   "recordings must not be modified while they are replayed or "
				   "served\n";
	ssize_t k = write(2, head, sizeof(head) - 1);

	k = write(2, mapped_names, strlen(mapped_names));
	k = write(2, tail, sizeof(tail) - 1);
	(void)k;
	(void)sig;
	_exit(128);
}

/* Catch SIGBUS (once) and add path to the names it reports. */
static void note_mapped(const char *path)
{
	static int caught;
	struct sigaction sa;
	size_t have, len = strlen(path);

	pthread_mutex_lock(&names_lock);
	have = strlen(mapped_names);
	if (!strstr(mapped_names, path) && have + len + 3 < sizeof(mapped_names)) {
		if (have)
			strcat(mapped_names, ", ");
		strcat(mapped_names, path);
	}
	if (!caught) {
		caught = 1;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigbus;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGBUS, &sa, NULL);
	}
	pthread_mutex_unlock(&names_lock);
}

int fmap_open(struct fmap *m, const char *path, uint64_t want, const char *what)
{
	struct stat sb;
	void *p;
	int fd;

	memset(m, 0, sizeof(*m));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error("%s: cannot open: %m", path);
	if (fstat(fd, &sb)) {
		error("%s: cannot read: %m", path);
		goto fail;
	}
	if (S_ISDIR(sb.st_mode)) {
		errno = EISDIR;
		error("%s: cannot read: %m", path);
		goto fail;
	}
	if ((uint64_t)sb.st_size != want) {
		error("%s: %lld bytes, but %s%s", path, (long long)sb.st_size, what,
		      (uint64_t)sb.st_size < want ? ": the file is truncated" : "");
		goto fail;
	}
	if (!want) {
		m->p = xcalloc(1, 1);
		close(fd);
		return 0;
	}
	if ((uint64_t)(size_t)want != want) {
		error("%s: %llu bytes do not fit this machine's address space", path,
		      (unsigned long long)want);
		goto fail;
	}
	p = mmap(NULL, (size_t)want, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		error("%s: cannot map %llu bytes: %m", path, (unsigned long long)want);
		goto fail;
	}
	close(fd);
	note_mapped(path);
	madvise(p, (size_t)want, MADV_SEQUENTIAL);
	m->p = p;
	m->len = (size_t)want;
	m->mapped = 1;
	return 0;
fail:
	close(fd);
	return -1;
}

void fmap_release_before(struct fmap *m, size_t off)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), to;

	if (!m->mapped)
		return;
	if (off > m->len)
		off = m->len;
	to = off / page * page;
	if (to < m->released)
		m->released = to; /* went back: those pages are in again */
	if (to - m->released < RELEASE_STEP)
		return;
	madvise((void *)(m->p + m->released), to - m->released, MADV_DONTNEED);
	m->released = to;
}

void fmap_close(struct fmap *m)
{
	if (m->mapped)
		munmap((void *)m->p, m->len);
	else
		free((void *)m->p);
	memset(m, 0, sizeof(*m));
}

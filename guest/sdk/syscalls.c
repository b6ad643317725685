/*
 * syscalls.c: the newlib system layer for the raptor board.
 *
 * Output goes through semihosting SYS_WRITE0 in NUL-terminated chunks (not
 * SYS_WRITE, which needs a handle from SYS_OPEN). Nothing here polls a
 * device, so a run's instruction stream does not depend on host timing.
 *
 * newlib's stdio and malloc are not locked: in multicore workloads only one
 * core (core 0) may use printf or malloc.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "board.h"

/* Prototypes for the hooks newlib calls (it declares none of them). */
int _write(int fd, const void *buf, size_t len);
int _read(int fd, void *buf, size_t len);
int _close(int fd);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
off_t _lseek(int fd, off_t off, int whence);
void *_sbrk(ptrdiff_t incr);
int _kill(int pid, int sig);
int _getpid(void);
_Noreturn void _exit(int status);

/* raptor.ld: heap from end of .bss (.noinit) up to the lowest core stack. */
extern char __heap_start[], __heap_limit[];

#define WRITE_CHUNK 64

/*
 * Copy up to WRITE_CHUNK bytes into a NUL-terminated buffer and print it.
 * An embedded NUL would end SYS_WRITE0 early, so it goes out by SYS_WRITEC.
 */
int _write(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	char chunk[WRITE_CHUNK + 1];
	size_t done = 0;

	if (fd != 1 && fd != 2) {
		errno = EBADF;
		return -1;
	}
	while (done < len) {
		size_t n = 0;

		while (done + n < len && n < WRITE_CHUNK && p[done + n] != '\0') {
			chunk[n] = p[done + n];
			n++;
		}
		if (n == 0) { /* p[done] is a NUL byte */
			semi_putc('\0');
			done++;
			continue;
		}
		chunk[n] = '\0';
		semi_puts(chunk);
		done += n;
	}
	return (int)len;
}

/* No input device: every read is end of file. */
int _read(int fd, void *buf, size_t len)
{
	(void)fd, (void)buf, (void)len;
	return 0;
}

int _close(int fd)
{
	(void)fd;
	return -1;
}

/* A character device, so newlib line-buffers stdout. */
int _fstat(int fd, struct stat *st)
{
	(void)fd;
	st->st_mode = S_IFCHR;
	return 0;
}

int _isatty(int fd)
{
	(void)fd;
	return 1;
}

off_t _lseek(int fd, off_t off, int whence)
{
	(void)fd, (void)off, (void)whence;
	return 0;
}

void *_sbrk(ptrdiff_t incr)
{
	static char *brk;
	char *old;

	if (brk == NULL)
		brk = __heap_start;
	if (incr > __heap_limit - brk || incr < __heap_start - brk) {
		errno = ENOMEM;
		return (void *)-1;
	}
	old = brk;
	brk += incr;
	return old;
}

int _kill(int pid, int sig)
{
	(void)pid, (void)sig;
	errno = EINVAL;
	return -1;
}

int _getpid(void)
{
	return 1;
}

_Noreturn void _exit(int status)
{
	board_exit(status);
}

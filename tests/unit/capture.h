/*
 * capture.h: catch what error() prints to stderr, for unit tests
 * (tests/unit/NAME.c), header-only like tap.h.
 *
 *   #include "tests/unit/capture.h"
 *
 *   capture_start();
 *   rc = st_get_bits(&r, 4, &v);
 *   msg = capture_end();
 *   tap_ok(rc == -1 && strstr(msg, "runs past the end"), "short read refused");
 *
 * Between capture_start and capture_end, file descriptor 2 goes to a
 * temporary file; capture_end puts the old stderr back and returns what was
 * written, at most CAPTURE_MAX - 1 bytes, NUL-terminated, in a static buffer
 * the next capture_end overwrites. Captures do not nest. If the temporary
 * file cannot be made, stderr is left alone and the text is empty.
 */
#ifndef RAPTOR_CAPTURE_H
#define RAPTOR_CAPTURE_H

#include <stdio.h>
#include <unistd.h>

#define CAPTURE_MAX 4096

static int capture_fd_ = -1; /* the real stderr while a capture runs */
static FILE *capture_file_;

static inline void capture_start(void)
{
	fflush(stderr);
	capture_fd_ = dup(2);
	capture_file_ = tmpfile();
	if (capture_file_)
		dup2(fileno(capture_file_), 2);
}

static inline const char *capture_end(void)
{
	static char text[CAPTURE_MAX];
	size_t n = 0;

	fflush(stderr);
	if (capture_fd_ >= 0) {
		dup2(capture_fd_, 2);
		close(capture_fd_);
		capture_fd_ = -1;
	}
	if (capture_file_) {
		rewind(capture_file_);
		n = fread(text, 1, sizeof(text) - 1, capture_file_);
		fclose(capture_file_);
		capture_file_ = NULL;
	}
	text[n] = 0;
	return text;
}

/* The lines in a captured text: how many messages error() printed. */
static inline int capture_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

#endif

/*
 * raptor serve: a recording as a live multicore target for GDB. This file
 * parses the options and wires the replay (replay/replay.h), its target
 * ops (replay/target.h) and the gdbserver (server/gdbserver.h) together;
 * the protocol is all in server/.
 */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "replay/bgindex.h"
#include "replay/replay.h"
#include "replay/target.h"
#include "server/gdbserver.h"

static const char serve_usage[] =
	"usage: raptor serve REC [options]\n"
	"\n"
	"Serve the recording in directory REC to GDB as a live multicore Cortex-M\n"
	"target (the GDB remote protocol, as OpenOCD's gdbserver with -rtos\n"
	"hwthread): one GDB thread per core, forward and reverse execution\n"
	"(reverse-step, reverse-continue, reverse-finish ...), breakpoints and\n"
	"watchpoints exact in both directions. Everything shown comes from the\n"
	"ELF, the manifest and the streams; the recording is never written.\n"
	"One GDB at a time; the server keeps serving after it disconnects.\n"
	"\n"
	"options:\n"
	"  --port N         TCP port (default 3333; 0 picks a free one)\n"
	"  --bind ADDR      address to listen on (default 127.0.0.1)\n"
	"  --at WHERE       start at 'begin' (default), 'end' or a POSITION\n"
	"                   (instructions retired by all cores)\n"
	"  --interval N     instructions between checkpoints (default 65536)\n"
	"  --memory SIZE    the server's resident memory (default 512M; K, M, G\n"
	"                   suffixes): checkpoints, time index, initial image and\n"
	"                   memory picture (control flow only: the decoded\n"
	"                   messages) get what the rest of the process leaves;\n"
	"                   over it the checkpoints are\n"
	"                   compressed and thinned out far from the current\n"
	"                   position; while the index is built in the background,\n"
	"                   a quarter for the replay serving, the rest for the one\n"
	"                   indexing\n"
	"  --no-index       ignore the recording's index (raptor index); without it,\n"
	"                   a valid index is loaded, so every position is reached\n"
	"                   from a nearby checkpoint at once and continue and\n"
	"                   reverse-continue skip stretches from the start; a\n"
	"                   missing or invalid one is built in the background\n"
	"                   while GDB is served, and used once it is done\n"
	"  --cache-dir DIR  where to look for the index of a read-only recording\n"
	"                   (default $XDG_CACHE_HOME/raptor)\n"
	"  --debug          log every packet to stderr\n"
	"  --port-file F    write the port listened on to F (for scripts)\n"
	"  -h, --help       this text\n"
	"\n"
	"In GDB: 'monitor help' lists the monitor commands: OpenOCD's (reset halt,\n"
	"targets, reg, mdw/mdh/mdb) and raptor's (info, time, goto, stats,\n"
	"who-wrote ADDR [LEN]). 'target extended-remote' works too, as IDEs use it:\n"
	"'run' starts the recording again from its beginning, 'kill' and 'detach'\n"
	"keep the connection, 'attach 1' takes the replay where it is.\n"
	"\n"
	"Exit status: 0 after SIGINT/SIGTERM, 1 when the recording cannot be\n"
	"opened or the port cannot be bound, 2 for bad usage.\n";

/* What the command wires together. */
struct serve {
	struct rpl *r;
	const char *dir;
	char *elf; /* the program's absolute path, for GDB's qXfer:exec-file */
	struct rpl_target *t;
	int at_end; /* an index was loaded: the replay is at the end, every checkpoint laid */
	struct cli_index idx;
	struct rpl_bgindex *bg; /* the index being built */
};

/* ---- the command ---------------------------------------------------------------------- */

static struct gdbserver *the_server;

static void on_signal(int sig)
{
	if (the_server)
		gdbserver_stop(the_server);
}

/* Go to --at's place, with progress on a terminal. 0 / -1. */
static int go_to_start(struct serve *s, const char *at)
{
	uint64_t pos, step = 1000000;
	int tty = isatty(2), k;

	if (!strcmp(at, "begin"))
		pos = 0;
	else if (!strcmp(at, "end"))
		pos = UINT64_MAX;
	else if (parse_u64(at, &pos))
		return error("--at: '%s' is not 'begin', 'end' or a position", at);
	if (s->at_end) {
		/* from the index's nearest checkpoint */
		k = rpl_seek(s->r, pos);
		if (k < 0)
			return -1;
		if (k == 1 && pos != UINT64_MAX)
			warning("--at %s: the recording ends at position %" PRIu64, at,
				rpl_position(s->r));
		return 0;
	}
	if (!pos)
		return 0;
	for (;;) {
		uint64_t next = rpl_position(s->r) + step;

		if (next > pos)
			next = pos;
		k = rpl_run(s->r, next);
		if (k < 0)
			return -1;
		if (tty)
			fprintf(stderr, "\rraptor serve: indexing, position %" PRIu64 "...",
				rpl_position(s->r));
		if (k == 1 || rpl_position(s->r) >= pos)
			break;
	}
	if (tty)
		fputc('\n', stderr);
	if (k == 1 && pos != UINT64_MAX)
		warning("--at %s: the recording ends at position %" PRIu64, at,
			rpl_position(s->r));
	return 0;
}

/*
 * No valid index: a second replay of the recording builds it in a thread
 * (replay/bgindex.h) while the first serves GDB; the target adopts it once
 * it is done. The two share --memory: a quarter for the one serving (it
 * holds only what GDB visited), the rest for the one indexing, all of it
 * for the one left. Progress on stderr if it is a terminal. 0 / -1.
 */
static int start_bgindex(struct serve *s, uint64_t interval, uint64_t memory, const char *cache)
{
	struct rpl *r = rpl_open(s->dir);

	if (!r)
		return -1;
	if (interval)
		rpl_set_interval(r, interval);
	rpl_set_memory(r, memory - memory / 4);
	s->bg = rpl_bgindex_start(r, cache, isatty(2) ? stderr : NULL);
	if (!s->bg)
		return -1;
	rpl_set_memory(rpl_target_replay(s->t), memory / 4);
	rpl_target_set_bgindex(s->t, s->bg, memory);
	fprintf(stderr, "raptor serve: no valid index: building it in the background\n");
	return 0;
}

int cmd_serve(int argc, char **argv)
{
	enum { O_PORT = 256, O_BIND, O_AT, O_INTERVAL, O_DEBUG, O_PORTFILE, O_MEMORY, O_NOINDEX,
	       O_CACHE };
	static const struct option opts[] = {
		{ "port", required_argument, NULL, O_PORT },
		{ "bind", required_argument, NULL, O_BIND },
		{ "at", required_argument, NULL, O_AT },
		{ "interval", required_argument, NULL, O_INTERVAL },
		{ "memory", required_argument, NULL, O_MEMORY },
		{ "debug", no_argument, NULL, O_DEBUG },
		{ "no-index", no_argument, NULL, O_NOINDEX },
		{ "cache-dir", required_argument, NULL, O_CACHE },
		{ "port-file", required_argument, NULL, O_PORTFILE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bind = "127.0.0.1", *at = "begin", *port_file = NULL, *cache = NULL;
	uint64_t port = 3333, interval = 0, memory = RPL_DEFAULT_MEMORY;
	struct serve s = { 0 };
	struct sigaction sa;
	char path[4096];
	int opt, debug = 0, rc = 1, noindex = 0;
	FILE *f;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case O_PORT:
			if (parse_u64(optarg, &port) || port > 65535)
				return error("--port: '%s' is not a port number", optarg), 2;
			break;
		case O_BIND:
			bind = optarg;
			break;
		case O_AT:
			at = optarg;
			break;
		case O_INTERVAL:
			if (parse_u64(optarg, &interval) || !interval)
				return error("--interval: '%s' is not a positive number", optarg), 2;
			break;
		case O_MEMORY:
			if (parse_size(optarg, &memory))
				return error("--memory: '%s' is not a size (512M, 2G, ...)", optarg), 2;
			break;
		case O_DEBUG:
			debug = 1;
			break;
		case O_NOINDEX:
			noindex = 1;
			break;
		case O_CACHE:
			cache = optarg;
			break;
		case O_PORTFILE:
			port_file = optarg;
			break;
		case 'h':
			fputs(serve_usage, stdout);
			return 0;
		default:
			fputs(serve_usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		error("serve: exactly one recording directory expected");
		fputs(serve_usage, stderr);
		return 2;
	}
	s.dir = argv[optind];
	s.r = cli_open_indexed(s.dir, interval, memory, !noindex, cache, 0, &s.at_end, &s.idx);
	if (!s.r)
		return 1;
	snprintf(path, sizeof(path), "%s/%s", s.dir, rpl_manifest(s.r)->elf);
	s.elf = realpath(path, NULL);
	if (go_to_start(&s, at))
		goto out;
	s.t = rpl_target_new(s.r, s.elf);
	if (!s.t)
		goto out;
	s.r = NULL; /* the target's */
	if (s.idx.path[0] && rpl_target_set_index(s.t, s.idx.path, s.idx.count))
		goto out;
	if (s.idx.missing && start_bgindex(&s, interval, memory, cache))
		goto out;
	the_server = gdbserver_new(&rpl_target_ops, s.t);
	if (!the_server)
		goto out;
	if (debug)
		gdbserver_set_log(the_server, stderr);
	if (gdbserver_listen(the_server, bind, (int)port))
		goto out;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (port_file) {
		f = fopen(port_file, "w");
		if (!f || fprintf(f, "%d\n", gdbserver_port(the_server)) < 0 || fclose(f)) {
			error("--port-file %s: cannot write it", port_file);
			goto out;
		}
	}
	fprintf(stderr, "raptor serve: %s: %d cores, at position %" PRIu64 "; listening on "
		"%s:%d\n", s.dir, rpl_ncores(rpl_target_replay(s.t)),
		rpl_position(rpl_target_replay(s.t)), bind, gdbserver_port(the_server));
	fprintf(stderr, "attach with:\n  gdb-multiarch %s/%s -ex 'target remote "
		"%s:%d'\n", s.dir, rpl_manifest(rpl_target_replay(s.t))->elf, bind,
		gdbserver_port(the_server));
	fflush(stderr);
	rc = gdbserver_serve(the_server) ? 1 : 0;
	fprintf(stderr, "raptor serve: stopped\n");
out:
	if (the_server)
		gdbserver_free(the_server);
	the_server = NULL;
	rpl_bgindex_free(s.bg); /* stopped within a slice */
	rpl_target_free(s.t);
	rpl_close(s.r);
	free(s.elf);
	return rc;
}

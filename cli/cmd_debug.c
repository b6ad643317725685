/*
 * raptor debug: one command to debug a recording, as `rr replay` does. A
 * child process runs `raptor serve` (cmd_serve, in-process) on a free port
 * of 127.0.0.1 with its output in a log file; GDB is then started attached
 * to it with gdbscripts/raptor.py loaded, and its exit stops the server.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "streams/manifest.h"

#ifndef RAPTOR_DATADIR
#define RAPTOR_DATADIR "/usr/local/share/raptor"
#endif
#ifndef RAPTOR_SRCDIR
#define RAPTOR_SRCDIR "."
#endif

static const char debug_usage[] =
	"usage: raptor debug REC [options] [-- GDB-ARGS...]\n"
	"\n"
	"Debug the recording in directory REC with GDB in one command: serve it\n"
	"(raptor serve) on a free port of 127.0.0.1, start gdb-multiarch on its\n"
	"program attached to the server, with gdbscripts/raptor.py loaded (the\n"
	"raptor commands; GDB's view follows 'monitor goto' and 'monitor reset'),\n"
	"and stop the server when GDB exits. The server's messages go to a log\n"
	"file, shown only if it fails.\n"
	"\n"
	"options (passed on to raptor serve; see 'raptor serve --help'):\n"
	"  --at WHERE       start at 'begin' (default), 'end' or a POSITION\n"
	"  --interval N     instructions between checkpoints\n"
	"  --memory SIZE    the server's resident memory (512M, 2G, ...)\n"
	"  --no-index       ignore the recording's index\n"
	"  --cache-dir DIR  where to look for the index of a read-only recording\n"
	"  --port N         serve on port N rather than a free one\n"
	"  --debug          log every packet (to the log file)\n"
	"options of their own:\n"
	"  --gdb PROG       the GDB to run (default: $RAPTOR_GDB, else gdb-multiarch)\n"
	"  --log FILE       keep the server's log in FILE\n"
	"  --no-scripts     do not load gdbscripts/raptor.py\n"
	"  -h, --help       this text\n"
	"\n"
	"Arguments after '--' go to GDB after raptor's own, e.g.\n"
	"  raptor debug rec -- -batch -ex 'info threads' -ex 'reverse-stepi'\n"
	"raptor.py is found next to the binary (../gdbscripts/raptor.py in a\n"
	"build, ../share/raptor/raptor.py once installed), or in\n"
	"$RAPTOR_GDBSCRIPTS.\n"
	"\n"
	"Exit status: GDB's; 1 when the server or GDB cannot be started, 2 for\n"
	"bad usage.\n";

/* The file name's directory part in place ("." if none). */
static void dirname_in(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash)
		*slash = 0;
	else
		strcpy(path, ".");
}

/*
 * raptor.py: $RAPTOR_GDBSCRIPTS/raptor.py, then beside the running binary
 * (a build: BIN/../gdbscripts, an install: BIN/../share/raptor), then the
 * install's data directory compiled in, then the source tree built from
 * (a BUILD directory elsewhere). 0 with path set, -1 if none.
 */
static int find_script(char *path, size_t size)
{
	char exe[PATH_MAX];
	const char *env = getenv("RAPTOR_GDBSCRIPTS");
	ssize_t n;

	if (env && *env) {
		snprintf(path, size, "%s/raptor.py", env);
		return access(path, R_OK) ? -1 : 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		dirname_in(exe);
		snprintf(path, size, "%s/../gdbscripts/raptor.py", exe);
		if (!access(path, R_OK))
			return 0;
		snprintf(path, size, "%s/../share/raptor/raptor.py", exe);
		if (!access(path, R_OK))
			return 0;
	}
	snprintf(path, size, "%s/raptor.py", RAPTOR_DATADIR);
	if (!access(path, R_OK))
		return 0;
	snprintf(path, size, "%s/gdbscripts/raptor.py", RAPTOR_SRCDIR);
	return access(path, R_OK) ? -1 : 0;
}

/* Is prog runnable (a path, or found in $PATH)? */
static int runnable(const char *prog)
{
	const char *p = getenv("PATH"), *colon;
	char path[PATH_MAX];

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	for (; p && *p; p = *colon ? colon + 1 : colon) {
		colon = strchr(p, ':');
		if (!colon)
			colon = p + strlen(p);
		snprintf(path, sizeof(path), "%.*s/%s", (int)(colon - p), *p == ':' ? "." : p,
			 prog);
		if (!access(path, X_OK))
			return 1;
	}
	return 0;
}

static void show_log(const char *log)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(log, "r");

	if (!f)
		return;
	fprintf(stderr, "raptor debug: the server's log (%s):\n", log);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(f);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * The server: a child in its own process group, so that the terminal's
 * Ctrl-C goes to GDB (which interrupts the target through the protocol)
 * rather than stopping the server; it dies with raptor debug.
 */
static pid_t start_server(char **argv, const char *log)
{
	pid_t pid = fork();
	int fd, argc = 0;

	if (pid)
		return pid;
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		_exit(1);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		_exit(1);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		dup2(fd, 0);
	while (argv[argc])
		argc++;
	fflush(NULL);
	_exit(cmd_serve(argc, argv));
}

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	got_term = sig;
}

/*
 * Wait for the port file: the port, -1 if the server exited (reaped), -2
 * if raptor debug was interrupted.
 */
static int wait_port(pid_t server, const char *port_file)
{
	int status, port;
	FILE *f;

	for (;;) {
		f = fopen(port_file, "r");
		if (f) {
			if (fscanf(f, "%d", &port) == 1 && port > 0) {
				fclose(f);
				return port;
			}
			fclose(f);
		}
		if (waitpid(server, &status, WNOHANG) == server)
			return -1;
		if (got_term)
			return -2;
		sleep_ms(20);
	}
}

int cmd_debug(int argc, char **argv)
{
	enum { O_AT = 256, O_INTERVAL, O_MEMORY, O_NOINDEX, O_CACHE, O_PORT, O_DEBUG, O_GDB,
	       O_LOG, O_NOSCRIPTS };
	static const struct option opts[] = {
		{ "at", required_argument, NULL, O_AT },
		{ "interval", required_argument, NULL, O_INTERVAL },
		{ "memory", required_argument, NULL, O_MEMORY },
		{ "no-index", no_argument, NULL, O_NOINDEX },
		{ "cache-dir", required_argument, NULL, O_CACHE },
		{ "port", required_argument, NULL, O_PORT },
		{ "debug", no_argument, NULL, O_DEBUG },
		{ "gdb", required_argument, NULL, O_GDB },
		{ "log", required_argument, NULL, O_LOG },
		{ "no-scripts", no_argument, NULL, O_NOSCRIPTS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *gdb = getenv("RAPTOR_GDB"), *log = NULL, *port = "0", *dir;
	char **sargv = NULL, **gargv = NULL, tmp[] = "/tmp/raptor-debug.XXXXXX";
	char port_file[PATH_MAX], tmp_log[PATH_MAX], script[PATH_MAX], elf[PATH_MAX];
	char source_cmd[PATH_MAX + 16], target_cmd[64];
	int opt, sargc = 0, gargc = 0, noscripts = 0, rc = 1, status = 0, port_n, made_tmp = 0;
	int server_done = 0, dd, handlers = 0;
	struct st_manifest *m = NULL;
	struct sigaction sa, old_int, old_quit, old_term, old_hup;
	pid_t server = -1, gdb_pid;

	if (!gdb || !*gdb)
		gdb = "gdb-multiarch";
	/* serve's argv: "serve" REC --port P --port-file F, what was passed on, NULL */
	sargv = calloc(2 * argc + 8, sizeof(*sargv)); /* --at=X gives two */
	gargv = calloc(argc + 16, sizeof(*gargv));
	if (!sargv || !gargv) {
		error("debug: out of memory");
		goto out;
	}
	sargc = 6;
	/* GDB's arguments: after the first "--", which getopt must not see */
	for (dd = 1; dd < argc && strcmp(argv[dd], "--"); dd++)
		;
	optind = 1;
	while ((opt = getopt_long(dd, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case O_AT:
			sargv[sargc++] = "--at", sargv[sargc++] = optarg;
			break;
		case O_INTERVAL:
			sargv[sargc++] = "--interval", sargv[sargc++] = optarg;
			break;
		case O_MEMORY:
			sargv[sargc++] = "--memory", sargv[sargc++] = optarg;
			break;
		case O_CACHE:
			sargv[sargc++] = "--cache-dir", sargv[sargc++] = optarg;
			break;
		case O_NOINDEX:
			sargv[sargc++] = "--no-index";
			break;
		case O_DEBUG:
			sargv[sargc++] = "--debug";
			break;
		case O_PORT:
			port = optarg;
			break;
		case O_GDB:
			gdb = optarg;
			break;
		case O_LOG:
			log = optarg;
			break;
		case O_NOSCRIPTS:
			noscripts = 1;
			break;
		case 'h':
			fputs(debug_usage, stdout);
			rc = 0;
			goto out;
		default:
			fputs(debug_usage, stderr);
			rc = 2;
			goto out;
		}
	}
	if (optind != dd - 1) {
		error("debug: exactly one recording directory expected (GDB's arguments go "
		      "after '--')");
		fputs(debug_usage, stderr);
		rc = 2;
		goto out;
	}
	dir = argv[optind];
	optind = dd + 1; /* GDB's arguments, if any */

	if (!runnable(gdb)) {
		if (!strcmp(gdb, "gdb-multiarch"))
			error("debug: gdb-multiarch is not installed; install it with:\n"
			      "  sudo apt-get install -y gdb-multiarch");
		else
			error("debug: '%s' cannot be run (--gdb or $RAPTOR_GDB)", gdb);
		goto out;
	}
	m = malloc(sizeof(*m));
	snprintf(elf, sizeof(elf), "%s/manifest.ini", dir);
	if (!m || st_manifest_read(elf, m))
		goto out;
	snprintf(elf, sizeof(elf), "%s/%s", dir, m->elf);
	if (!noscripts && find_script(script, sizeof(script))) {
		warning("debug: gdbscripts/raptor.py not found beside the binary nor in "
			"$RAPTOR_GDBSCRIPTS: GDB starts without it (after 'monitor goto', "
			"run 'maint flush register-cache')");
		noscripts = 1;
	}

	if (!mkdtemp(tmp)) {
		error("debug: cannot make a directory in /tmp: %s", strerror(errno));
		goto out;
	}
	made_tmp = 1;
	snprintf(port_file, sizeof(port_file), "%s/port", tmp);
	snprintf(tmp_log, sizeof(tmp_log), "%s/serve.log", tmp);
	if (!log)
		log = tmp_log;
	sargv[0] = "serve";
	sargv[1] = (char *)dir;
	sargv[2] = "--port";
	sargv[3] = (char *)port;
	sargv[4] = "--port-file";
	sargv[5] = port_file;
	sargv[sargc] = NULL;

	/*
	 * Until GDB runs, Ctrl-C, SIGTERM and SIGHUP stop raptor debug and
	 * the server; then, as system() does, the terminal's Ctrl-C is GDB's
	 * and a SIGTERM or SIGHUP to raptor debug stops both.
	 */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGQUIT, &sa, &old_quit);
	handlers = 1;
	fflush(NULL);
	server = start_server(sargv, log);
	if (server < 0) {
		error("debug: cannot fork: %s", strerror(errno));
		goto out;
	}
	port_n = wait_port(server, port_file);
	if (port_n == -2) {
		error("debug: interrupted while the server was starting");
		goto out;
	}
	if (port_n < 0) {
		server_done = 1;
		error("debug: the server did not start");
		show_log(log);
		goto out;
	}

	snprintf(target_cmd, sizeof(target_cmd), "target remote 127.0.0.1:%d", port_n);
	snprintf(source_cmd, sizeof(source_cmd), "source %s", script);
	gargv[gargc++] = (char *)gdb;
	gargv[gargc++] = "-q";
	gargv[gargc++] = elf;
	gargv[gargc++] = "-ex";
	gargv[gargc++] = target_cmd;
	if (!noscripts) {
		gargv[gargc++] = "-ex";
		gargv[gargc++] = source_cmd;
	}
	while (optind < argc)
		gargv[gargc++] = argv[optind++];
	gargv[gargc] = NULL;

	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	fflush(NULL);
	gdb_pid = fork();
	if (gdb_pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
		execvp(gdb, gargv);
		fprintf(stderr, "raptor: debug: cannot run %s: %s\n", gdb, strerror(errno));
		_exit(127);
	}
	if (gdb_pid < 0) {
		error("debug: cannot fork: %s", strerror(errno));
	} else {
		while (waitpid(gdb_pid, &status, 0) < 0) {
			if (errno != EINTR)
				break;
			if (got_term)
				kill(gdb_pid, got_term);
		}
		rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
out:
	if (server > 0 && !server_done) {
		kill(server, SIGTERM);
		if (waitpid(server, &status, 0) == server &&
		    !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
			error("debug: the server failed");
			show_log(log);
			if (!rc)
				rc = 1;
		}
	}
	if (handlers) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		sigaction(SIGHUP, &old_hup, NULL);
	}
	if (made_tmp) {
		unlink(port_file);
		unlink(tmp_log);
		rmdir(tmp);
	}
	free(m);
	free(sargv);
	free(gargv);
	return rc;
}

/*
 * raptor: trace-replay gdbserver for multicore Cortex-M firmware.
 * main() dispatches to one command per table entry.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const struct cli_command commands[] = {
	{ "run", cmd_run, "run a program on the virtual multicore board, without tracing" },
	{ "record", cmd_record, "run a program with the trace modules and write a recording" },
	{ "replay", cmd_replay, "replay a recording from its streams, optionally verified" },
	{ "index", cmd_index, "replay a recording once and keep its checkpoints in an index file" },
	{ "serve", cmd_serve, "serve a recording to GDB: target remote :3333, forward and reverse" },
	{ "debug", cmd_debug, "serve a recording and start gdb-multiarch on it, in one command" },
	{ "import", cmd_import, "make a recording of an ETM or MTB trace captured from hardware" },
	{ "stat", cmd_stat, "a recording's statistics: rates, bits per field, bandwidth" },
	{ "tune", cmd_tune, "find the chunk sizes that make recordings' traces smallest" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: raptor <command> [options]\n\n"
		   "raptor replays recorded multicore Cortex-M runs for GDB.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'raptor <command> --help' describes a command; 'raptor --version'\n"
		   "prints the version.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("raptor %s\n", RAPTOR_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "raptor: '%s' is not a raptor command\n\n", argv[1]);
	usage(stderr);
	return 2;
}

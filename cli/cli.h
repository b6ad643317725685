/* cli: the raptor command-line front end; one cmd_*.c per subcommand. */
#ifndef RAPTOR_CLI_H
#define RAPTOR_CLI_H

#include <stdint.h>

#include "util/util.h"

struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_run(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_index(int argc, char **argv);
int cmd_debug(int argc, char **argv);
int cmd_import(int argc, char **argv);

struct rpl;
/*
 * Open the recording in dir for replay or serve, with interval (0: the
 * default) and memory set, and, if use, its index (replay/index.h): a
 * valid one is loaded ("raptor: index: loaded N checkpoints from FILE"
 * on stderr unless quiet); an invalid one is reported and rebuilt (the
 * recording replayed to its end and the index written). *at_end: the
 * replay is at the end of the recording with every checkpoint laid down
 * (as after rpl_index). NULL on error (reported).
 *
 * info (NULL: none) is for serve, which builds a missing or invalid index
 * in the background (replay/bgindex.h) rather than first: with info, such
 * an index is reported but not rebuilt, and info says what was found.
 */
struct cli_index {
	int missing;	 /* use, and no valid index was loaded: build one */
	char path[4096]; /* the index loaded ("": none) */
	uint64_t count;	 /* its checkpoints */
};
struct rpl *cli_open_indexed(const char *dir, uint64_t interval, uint64_t memory, int use,
			     const char *cache_dir, int quiet, int *at_end, struct cli_index *info);

/* Parse --cpu NAME (a model that runs: m3, m4, m4f, m7, m0plus); 0 / -1 (reported). */
int cli_parse_model(const char *s, int *model);

/*
 * The core model to run the ELF at path on (cli/cpu.c; the rules are in
 * docs/BOARD.md, "Core model"): cpu is --cpu's or --force-cpu's NAME (force
 * set), or NULL for none. Without one, the ELF's build attributes choose
 * (Cortex-M3 when it has none); with one, it must cover what the ELF was
 * built for unless force. Warnings are printed; *from (NULL: not wanted)
 * says where the model came from, for --stats. 0 with *model set, or -1
 * with the error printed.
 */
int cli_pick_model(const char *path, const char *cpu, int force, int *model,
		   const char **from) MUST_CHECK;

#endif

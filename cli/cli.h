/* cli: the raptor command-line front end; one cmd_*.c per subcommand. */
#ifndef RAPTOR_CLI_H
#define RAPTOR_CLI_H

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

/* Parse --cpu m3|m4; 0 / -1. */
int cli_parse_model(const char *s, int *model);

#endif

/* raptor run: execute an ELF on the board, no tracing. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/board.h"
#include "cli/cli.h"
#include "isa/model.h"

static const char run_usage[] =
	"usage: raptor run ELF [options]\n"
	"\n"
	"Run a program on the virtual multicore Cortex-M board (QEMU mps2-an385\n"
	"memory map, semihosting, N cores sharing memory) without tracing.\n"
	"UART and semihosting output go to stdout; the exit status is the guest's\n"
	"(SYS_EXIT / SYS_EXIT_EXTENDED), or 125 when the run fails.\n"
	"\n"
	"options:\n"
	"  --cores N          number of cores, 1..8 (default 1, as QEMU's mps2 boards)\n"
	"  --cpu m3|m4|m4f|m7|m0plus|m33  core model: Cortex-M3, Cortex-M4 with DSP,\n"
	"                     Cortex-M4F (M4 with FPv4-SP; --trace-regs adds s0-s31,\n"
	"                     FPSCR), Cortex-M7 (FPv5-D16, double precision: the\n"
	"                     same registers, d0-d15 = s0-s31), Cortex-M0+ (ARMv6-M)\n"
	"                     or Cortex-M33 (ARMv8-M mainline, FPv5-SP; the\n"
	"                     mps2-an505 memory map).\n"
	"                     Default: what the ELF's build attributes say\n"
	"                     (.ARM.attributes), m3 when it has none. A --cpu that\n"
	"                     lacks what the ELF was built for (m3 for a v7E-M ELF)\n"
	"                     is refused; a larger one (m4 for m3) is fine\n"
	"  --force-cpu NAME   that core model whatever the ELF was built for (its\n"
	"                     instructions the core lacks fault; a warning says so)\n"
	"  --seed S           seed of the timing jitter (default 1); same seed, same run\n"
	"  --jitter N         longest jitter stall in cycles, 0 for none (default 8)\n"
	"  --max-insns N      stop with an error after N instructions (default: no limit)\n"
	"  --trace-regs FILE  write one line per executed instruction, in global order:\n"
	"                     <core> <pc> <r0> ... <r12> <sp> <lr> <xpsr>, each 8 hex\n"
	"                     digits, registers as they were BEFORE the instruction\n"
	"                     (QEMU's convention; an IT instruction and a condition-\n"
	"                     failed instruction each count as one). '-' is stdout.\n"
	"  --stats            print the board (cores, model and where the model came\n"
	"                     from), instructions and cycles per core and decoder\n"
	"                     counters to stderr at the end\n"
	"  -h, --help         this text\n"
	"\n"
	"environment:\n"
	"  RAPTOR_NO_DECODE_CACHE=1  decode every instruction afresh (white-box)\n";

static struct board *running;

static void on_signal(int sig)
{
	if (running)
		board_interrupt(running);
}

static void print_stats(struct board *b, int model, const char *from)
{
	const struct isa_model_info *mi = isa_model_info((enum isa_model)model);
	uint64_t lookups, decodes;

	fprintf(stderr, "board: %d core%s, %s (%s; %s)\n", board_ncores(b),
		board_ncores(b) == 1 ? "" : "s", mi->title, mi->name, from);
	for (int i = 0; i < board_ncores(b); i++)
		fprintf(stderr, "core %d: %llu instructions, %llu cycles\n", i,
			(unsigned long long)isa_cpu_icount(board_cpu(b, i)),
			(unsigned long long)board_cycles(b, i));
	isa_decoder_stats(board_decoder(b), &lookups, &decodes);
	fprintf(stderr, "decoder: %llu lookups, %llu decodes\n", (unsigned long long)lookups,
		(unsigned long long)decodes);
	fprintf(stderr, "engine: %llu steps on the fast path%s\n",
		(unsigned long long)isa_decoder_fast_steps(board_decoder(b)),
		isa_simple_engine() ? " (RAPTOR_SIMPLE_ENGINE)" : "");
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cores", required_argument, NULL, 'c' },
		{ "cpu", required_argument, NULL, 'm' },
		{ "force-cpu", required_argument, NULL, 'M' },
		{ "seed", required_argument, NULL, 's' },
		{ "jitter", required_argument, NULL, 'j' },
		{ "max-insns", required_argument, NULL, 'n' },
		{ "trace-regs", required_argument, NULL, 't' },
		{ "stats", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct board_config cfg;
	struct board *b;
	const char *trace_path = NULL, *cpu = NULL, *from = NULL;
	FILE *trace = NULL;
	uint64_t v;
	int opt, model, force_cpu = 0, status = 0, ret = 125, stats = 0;

	board_config_init(&cfg);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			if (parse_u64(optarg, &v) || v < 1 || v > BOARD_MAX_CORES)
				return error("--cores: '%s' is not a number from 1 to %d", optarg,
					     BOARD_MAX_CORES), 2;
			cfg.ncores = (int)v;
			break;
		case 'm':
		case 'M':
			if (cli_parse_model(optarg, &model))
				return 2;
			cpu = optarg;
			force_cpu = opt == 'M';
			break;
		case 's':
			if (parse_u64(optarg, &cfg.seed))
				return error("--seed: '%s' is not a number", optarg), 2;
			break;
		case 'j':
			if (parse_u64(optarg, &v) || v > 1000000)
				return error("--jitter: '%s' is not a number up to 1000000", optarg), 2;
			cfg.jitter = (unsigned)v;
			break;
		case 'n':
			if (parse_u64(optarg, &cfg.max_insns))
				return error("--max-insns: '%s' is not a number", optarg), 2;
			break;
		case 't':
			trace_path = optarg;
			break;
		case 'S':
			stats = 1;
			break;
		case 'h':
			fputs(run_usage, stdout);
			return 0;
		default:
			fputs(run_usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(run_usage, stderr);
		return 2;
	}
	if (cli_pick_model(argv[optind], cpu, force_cpu, &model, &from))
		return 125;
	cfg.model = model;
	b = board_new(&cfg);
	if (!b)
		return 2;
	if (board_load(b, argv[optind]))
		goto out;
	if (trace_path) {
		trace = strcmp(trace_path, "-") ? fopen(trace_path, "w") : stdout;
		if (!trace) {
			error("--trace-regs: cannot open '%s': %m", trace_path);
			goto out;
		}
		setvbuf(trace, NULL, _IOFBF, 1 << 20);
		board_trace_regs(b, trace);
	}
	running = b;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (board_run(b, &status) == 0)
		ret = status;
	running = NULL;
	if (stats)
		print_stats(b, model, from);
out:
	fflush(stdout);
	if (trace && trace != stdout && fclose(trace)) {
		error("--trace-regs: error writing '%s': %m", trace_path);
		ret = 125;
	}
	board_free(b);
	return ret;
}

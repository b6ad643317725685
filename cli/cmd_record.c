/* raptor record: run a program on the board with the trace modules attached. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "record/recorder.h"

static const char record_usage[] =
	"usage: raptor record ELF -o REC [options]\n"
	"\n"
	"Run a program on the virtual multicore Cortex-M board with every core's\n"
	"mcfTRaptor (control-flow) and mlvCFiat (load-value) trace modules attached,\n"
	"and write the recording directory REC: manifest.ini, program.elf, cf.bin,\n"
	"lv.bin, stats.ini, timeline.csv and, with --truth, truth.gz\n"
	"(docs/FORMAT.md).\n"
	"Only the encodings chosen run, the fast way; `raptor stat REC` computes the\n"
	"others' figures afterwards by replaying the recording. With --all-encodings\n"
	"every encoding runs side by side while recording and stats.ini has them all.\n"
	"The program's UART and semihosting output go to stdout, the summary to\n"
	"stderr. Exit status: the program's (SYS_EXIT), or 125 when no complete\n"
	"recording was made (a failed or interrupted run still leaves a replayable\n"
	"partial recording of what ran, marked state = partial), 2 for bad usage.\n"
	"\n"
	"board:\n"
	"  --cores N            number of cores, 1..8 (default 1)\n"
	"  --cpu m3|m4|m4f|m7|m0plus|m33  core model (default: from the ELF's build attributes,\n"
	"                       m3 when it has none; the rules are raptor run's);\n"
	"                       manifest.ini keeps it, and replay and serve use it\n"
	"  --force-cpu NAME     that core model whatever the ELF was built for\n"
	"  --seed S             seed of the timing jitter (default 1)\n"
	"  --jitter N           longest jitter stall in cycles, 0 for none (default 8)\n"
	"  --max-insns N        stop after N instructions (a partial recording)\n"
	"trace modules:\n"
	"  --cf CONFIG          predictors: small, medium, large, S0..B4, or\n"
	"                       gshare=P,ras=R,ibtb=Q[,shift=S] (default large);\n"
	"                       small+, medium+, large+ or ,dir=tage: a TAGE outcome\n"
	"                       predictor in the bits of that gshare\n"
	"  --lv CACHE           data cache: size=N,assoc=N,line=N,granule=N, any\n"
	"                       subset (default size=32K,assoc=4,line=32,granule=4)\n"
	"  --share-predictors   one predictor set for all cores (default: per core)\n"
	"  --share-cache        one data cache for all cores (default: private caches\n"
	"                       with write-invalidate coherence)\n"
	"  --cf-enc ENC         control-flow stream: tre, tra (TR_e with chunk sizes\n"
	"                       that adapt at run time), trb, nxb or none (default tre);\n"
	"                       or a real trace port instead of mcfTRaptor: etm4\n"
	"                       (ETMv4), etm3 (ETMv3.5) or mtb (the Micro Trace\n"
	"                       Buffer), each core's trace unit writing cf.bin as the\n"
	"                       silicon would, no load-value stream (docs/ETM.md)\n"
	"trace port (with --cf-enc etm4, etm3 or mtb):\n"
	"  --port-framed        all cores' ETM streams in one capture of CoreSight\n"
	"                       formatter frames, a trace ID per core (as an ETB/ETR\n"
	"                       stores them); default: each core's raw stream\n"
	"  --port-tpiu[=hsync]  the frames as a TPIU sends them: an FSYNC (ff ff ff 7f)\n"
	"                       before every 16th frame (implies --port-framed);\n"
	"                       =hsync: and an HSYNC (ff 7f) where the port idled\n"
	"                       between the funnel's bursts, as on a 16-bit port\n"
	"  --trace-ids LIST     the cores' trace IDs, comma-separated, 0x01..0x6f\n"
	"                       (default 0x10, 0x11, ...)\n"
	"  --port-sync BYTES    the ETMs' synchronisation period, a power of 2 from\n"
	"                       256 to 1048576 (TRCSYNCPR / ETMSYNCFR; default 4096)\n"
	"  --port-arch v7m|v8m  what OpenCSD's ETMv4 decoder is told (default: v8m\n"
	"                       for an M33, else v7m)\n"
	"  --port-cycles[=N]    etm4: cycle counting on, the cycle count threshold N\n"
	"                       (TRCCCCTLR, 1..4095; default 1, the least allowed):\n"
	"                       Cycle Count packets with the timing model's cycles;\n"
	"                       etm3: cycle-accurate mode (ETMCR bit 12, no N): every\n"
	"                       cycle a W atom in the P-headers\n"
	"  --lv-enc ENC         load-value stream: cfiat, cfiata (CFiat with adaptive\n"
	"                       chunk sizes), mc2rt, nxlv or none (default cfiat)\n"
	"  --timed              time-stamped messages (diffCC / dCC; the default)\n"
	"  --functional         no time stamps: one global message order only\n"
	"  --chunks LIST        chunk sizes as KEY=C0/C1, comma-separated: cnt, ta,\n"
	"                       cc, icnt (TR_e bCnt, |diffTA|, diffCC, iCnt; default\n"
	"                       3/2, 3/4, 4/2, 2/2), fah, lvcc (CFiat fahCnt and dCC;\n"
	"                       default 1/2, 4/2); tra and cfiata start from them\n"
	"  --all-encodings      run every encoding side by side (NX_b, TR_b, TR_e,\n"
	"                       TR_a; NX-LV and its zlib size, CFiat, mc2RT,\n"
	"                       CFiat_a; each timed and functional) and write all\n"
	"                       their sizes and statistics to stats.ini, as\n"
	"                       benchmarks want: several times slower. Without it\n"
	"                       stats.ini has the recorded ones (docs/STAT.md)\n"
	"output:\n"
	"  -o, --output REC     the recording directory (created; required)\n"
	"  --force              replace a recording already in REC\n"
	"  --truth              also write the ground truth (truth.gz): every\n"
	"                       instruction's registers and every access's value\n"
	"  -q, --quiet          no summary\n"
	"  -h, --help           this text\n"
	"\n"
	"A progress line is shown on stderr when it is a terminal. Ctrl-C stops the\n"
	"run and still writes the recording of what ran.\n";

static void on_signal(int sig)
{
	(void)sig;
	rec_interrupt();
}

int cmd_record(int argc, char **argv)
{
	enum {
		O_CORES = 256, O_CPU, O_FORCE_CPU, O_SEED, O_JITTER, O_MAX, O_CF, O_LV, O_SHP, O_SHC,
		O_CFENC, O_LVENC, O_TIMED, O_FUNC, O_CHUNKS, O_FORCE, O_TRUTH, O_ALL,
		O_FRAMED, O_TPIU, O_IDS, O_PSYNC, O_PARCH, O_PCYC,
	};
	static const struct option opts[] = {
		{ "cores", required_argument, NULL, O_CORES },
		{ "cpu", required_argument, NULL, O_CPU },
		{ "force-cpu", required_argument, NULL, O_FORCE_CPU },
		{ "seed", required_argument, NULL, O_SEED },
		{ "jitter", required_argument, NULL, O_JITTER },
		{ "max-insns", required_argument, NULL, O_MAX },
		{ "cf", required_argument, NULL, O_CF },
		{ "lv", required_argument, NULL, O_LV },
		{ "share-predictors", no_argument, NULL, O_SHP },
		{ "share-cache", no_argument, NULL, O_SHC },
		{ "cf-enc", required_argument, NULL, O_CFENC },
		{ "lv-enc", required_argument, NULL, O_LVENC },
		{ "timed", no_argument, NULL, O_TIMED },
		{ "functional", no_argument, NULL, O_FUNC },
		{ "chunks", required_argument, NULL, O_CHUNKS },
		{ "all-encodings", no_argument, NULL, O_ALL },
		{ "port-framed", no_argument, NULL, O_FRAMED },
		{ "port-tpiu", optional_argument, NULL, O_TPIU },
		{ "trace-ids", required_argument, NULL, O_IDS },
		{ "port-sync", required_argument, NULL, O_PSYNC },
		{ "port-arch", required_argument, NULL, O_PARCH },
		{ "port-cycles", optional_argument, NULL, O_PCYC },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, O_FORCE },
		{ "truth", no_argument, NULL, O_TRUTH },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rec_options o;
	const char *cpu = NULL;
	uint64_t v;
	int opt, model, force_cpu = 0, status = 0, ret, lv_set = 0, arch = -1, ids = 0, cc_n = 0;

	rec_options_init(&o);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "ho:q", opts, NULL)) != -1) {
		switch (opt) {
		case O_CORES:
			if (parse_u64(optarg, &v) || v < 1 || v > BOARD_MAX_CORES)
				return error("--cores: '%s' is not a number from 1 to %d", optarg,
					     BOARD_MAX_CORES), 2;
			o.board.ncores = (int)v;
			break;
		case O_CPU:
		case O_FORCE_CPU:
			if (cli_parse_model(optarg, &model))
				return 2;
			cpu = optarg;
			force_cpu = opt == O_FORCE_CPU;
			break;
		case O_SEED:
			if (parse_u64(optarg, &o.board.seed))
				return error("--seed: '%s' is not a number", optarg), 2;
			break;
		case O_JITTER:
			if (parse_u64(optarg, &v) || v > 1000000)
				return error("--jitter: '%s' is not a number up to 1000000", optarg), 2;
			o.board.jitter = (unsigned)v;
			break;
		case O_MAX:
			if (parse_u64(optarg, &o.board.max_insns))
				return error("--max-insns: '%s' is not a number", optarg), 2;
			break;
		case O_CF:
			if (bp_config_parse(optarg, &o.bp))
				return 2;
			break;
		case O_LV:
			if (dc_fa_config_parse(optarg, &o.cache))
				return 2;
			break;
		case O_SHP:
			o.bp_shared = 1;
			break;
		case O_SHC:
			o.cache.shared = 1;
			break;
		case O_CFENC:
			o.port.kind = ST_PORT_NONE;
			if (!strcmp(optarg, "none"))
				o.cf_on = 0;
			else if (!st_port_parse(optarg, &o.port.kind))
				o.cf_on = 0;
			else if (st_cf_enc_parse(optarg, &o.cf_enc))
				return 2;
			else
				o.cf_on = 1;
			break;
		case O_FRAMED:
			o.port.framed = 1;
			break;
		case O_TPIU:
			if (optarg && strcmp(optarg, "hsync"))
				return error("--port-tpiu=%s: only hsync (HSYNCs where the port "
					     "idles)", optarg), 2;
			o.port.framed = o.port.tpiu = 1;
			o.port.hsync = optarg != NULL;
			break;
		case O_IDS:
			if (st_port_parse_ids(optarg, o.port.trace_id, BOARD_MAX_CORES, &ids))
				return 2;
			break;
		case O_PSYNC:
			if (parse_u64(optarg, &v) || v < 256 || v > (1u << 20) || (v & (v - 1)))
				return error("--port-sync: '%s' is not a power of 2 from 256 to "
					     "1048576", optarg), 2;
			o.port.sync_period = (unsigned)v;
			break;
		case O_PCYC:
			v = 1;
			cc_n = optarg != NULL;
			if (optarg && (parse_u64(optarg, &v) || v < 1 || v > 4095))
				return error("--port-cycles: '%s' is not a threshold from 1 to 4095",
					     optarg), 2;
			o.port.cycle_counting = 1;
			o.port.cc_threshold = (unsigned)v;
			break;
		case O_PARCH:
			if (strcmp(optarg, "v7m") && strcmp(optarg, "v8m"))
				return error("--port-arch: '%s' is not v7m or v8m", optarg), 2;
			arch = !strcmp(optarg, "v8m");
			break;
		case O_LVENC:
			lv_set = 1;
			if (!strcmp(optarg, "none"))
				o.lv_on = 0;
			else if (st_lv_enc_parse(optarg, &o.lv_enc))
				return 2;
			else
				o.lv_on = 1;
			break;
		case O_TIMED:
			o.timed = 1;
			break;
		case O_FUNC:
			o.timed = 0;
			break;
		case O_CHUNKS:
			if (rec_chunks_parse(optarg, &o))
				return 2;
			break;
		case 'o':
			o.dir = optarg;
			break;
		case O_FORCE:
			o.force = 1;
			break;
		case O_TRUTH:
			o.truth = 1;
			break;
		case O_ALL:
			o.all_encodings = 1;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'h':
			fputs(record_usage, stdout);
			return 0;
		default:
			fputs(record_usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		error("record: exactly one ELF file expected");
		fputs(record_usage, stderr);
		return 2;
	}
	if (!o.dir)
		return error("record: -o REC is required (the recording directory)"), 2;
	o.elf = argv[optind];
	if (cli_pick_model(o.elf, cpu, force_cpu, &model, NULL))
		return 125;
	o.board.model = model;
	if (o.port.kind != ST_PORT_NONE) {
		if (lv_set && o.lv_on)
			return error("record: --cf-enc %s records control flow only: no --lv-enc "
				     "(a trace port has no load-value stream)",
				     st_port_name(o.port.kind)), 2;
		if (o.all_encodings)
			return error("record: --all-encodings runs mcfTRaptor's encodings, not a "
				     "trace port's (raptor stat REC shows the ports beside them)"), 2;
		if (ids && ids != o.board.ncores)
			return error("--trace-ids: %d IDs for %d cores", ids, o.board.ncores), 2;
		if (o.port.framed && o.port.kind == ST_PORT_MTB)
			return error("--port-%s: an MTB is read from SRAM, not through the "
				     "formatter", o.port.tpiu ? "tpiu" : "framed"), 2;
		if (o.port.cycle_counting && o.port.kind == ST_PORT_MTB)
			return error("--port-cycles: cycle counting is the ETMs' (--cf-enc etm4 or "
				     "etm3); an MTB has none"), 2;
		if (cc_n && o.port.kind == ST_PORT_ETM3)
			return error("--port-cycles=%u: ETMv3.5 cycle-accurate mode traces every "
				     "cycle, there is no threshold (--port-cycles alone)",
				     o.port.cc_threshold), 2;
		if (o.port.kind == ST_PORT_ETM3)
			o.port.cc_threshold = 0;
		o.lv_on = 0;
		o.port.v8m = arch >= 0 ? arch : model == ISA_CORTEX_M33;
	} else if (o.port.framed || ids || arch >= 0 || o.port.sync_period != 4096 ||
		   o.port.cycle_counting) {
		return error("record: --port-framed, --port-tpiu, --trace-ids, --port-sync, "
			     "--port-arch and --port-cycles need --cf-enc etm4, etm3 or mtb"), 2;
	}
	o.progress = isatty(2);
	if (dc_fa_config_check(&o.cache))
		return 2;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	ret = rec_run(&o, &status);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	fflush(stdout);
	return ret ? 125 : status;
}

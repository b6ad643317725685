/* raptor replay: rebuild a recorded run from its streams, optionally checked. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/cli.h"
#include "replay/check.h"
#include "replay/etmpath.h"
#include "replay/replay.h"

static const char replay_usage[] =
	"usage: raptor replay REC [options]\n"
	"\n"
	"Replay the recording in directory REC from its ELF, manifest and streams\n"
	"alone (never the ground truth): every core's instructions, in the recorded\n"
	"global order, with every stream message checked where it falls due. A\n"
	"desync (a message that does not fit, a stream that ends early or runs on,\n"
	"a value the debugger should know but does not) stops the replay with an\n"
	"error naming the stream file, the core, the instruction and the bit offset.\n"
	"\n"
	"A recording without a load-value stream (record --lv-enc none) is replayed\n"
	"from its control flow alone: each core's PCs and exceptions are exact, no\n"
	"register but the PC and no memory is known, and the cores' interleaving is\n"
	"estimated (exact at the messages' time stamps, or in the message order of a\n"
	"functional stream; approximate between them).\n"
	"\n"
	"options:\n"
	"  --verify        also compare every step with the recording's ground truth\n"
	"                  (truth.gz: core, PC, cycle, all registers, the FP ones\n"
	"                  s0..s31 and FPSCR too on a core with an FPU, every memory\n"
	"                  access and value); the first difference is an error.\n"
	"                  Control flow only: each core's instructions (count and\n"
	"                  PC of each) and exception entries, and the cycle of every\n"
	"                  time-stamped message; registers and memory are not traced\n"
	"                  so not compared\n"
	"  --to POSITION   stop after POSITION instructions (all cores, global order)\n"
	"  --random N      random access: index the recording, then seek N random\n"
	"                  positions in a shuffled order (forward and backward from\n"
	"                  checkpoints) and compare every core's registers (FP too)\n"
	"                  and the memory last accessed with the ground truth there\n"
	"                  (control flow only: every core's PC after its steps so far)\n"
	"  --check-points N  pick N program counters and N store addresses from the\n"
	"                  ground truth: continue forward from the beginning and\n"
	"                  reverse-continue from the end to each (breakpoints, write\n"
	"                  watchpoints), and do N stepi-forward-then-back rounds;\n"
	"                  every stop must be the truth's (N up to 64). Control\n"
	"                  flow only: breakpoints (the stopped core's instruction\n"
	"                  must be the first / last at that PC of that core, and no\n"
	"                  other core's occurrence may be passed) and stepi; no\n"
	"                  watchpoints\n"
	"  --interval N    instructions between checkpoints (default 65536), which\n"
	"                  --random and --check-points lay down and an index keeps\n"
	"                  (a replay straight through lays down none)\n"
	"  --memory SIZE   the replay's resident memory (default 512M; K, M, G\n"
	"                  suffixes): checkpoints, time index, initial image and\n"
	"                  memory picture (a control-flow-only replay: its decoded\n"
	"                  messages) get what the rest of the process (code,\n"
	"                  decoder, caches, free heap) leaves (the streams are\n"
	"                  mapped, their pages behind the replay handed back);\n"
	"                  over it the checkpoints are compressed, and thinned\n"
	"                  out far from where the replay is, then laid down\n"
	"                  again when it comes back\n"
	"  --seed S        seed of --random's choices (default 1)\n"
	"  --no-index      ignore the recording's index (raptor index); without it,\n"
	"                  a valid index is loaded (its checkpoints and summaries,\n"
	"                  the replay then at the end: --random, --check-points and\n"
	"                  --to start from there) and an invalid one rebuilt. --verify\n"
	"                  without --random or --check-points replays everything\n"
	"                  and never uses it\n"
	"  --cache-dir DIR where to look for the index of a read-only recording\n"
	"                  (default $XDG_CACHE_HOME/raptor)\n"
	"  -q, --quiet     no summary\n"
	"  -h, --help      this text\n"
	"\n"
	"Exit status: 0 when the replay reached the end (or POSITION) with no desync\n"
	"and, with --verify, no difference; 1 otherwise; 2 for bad usage.\n";

/* What a trace port's decoded path holds (etmpath.h): bytes a message, packed and in all. */
static void print_path_memory(const struct rpl_etm_stats *ps)
{
	if (!ps->path_messages)
		return;
	fprintf(stderr, "  decoded path: %llu messages in %llu bytes (%.2f a message); %llu of "
		"them packed in %llu bytes (%.2f a message)\n",
		(unsigned long long)ps->path_messages, (unsigned long long)ps->path_bytes,
		(double)ps->path_bytes / ps->path_messages,
		(unsigned long long)ps->path_packed, (unsigned long long)ps->path_packed_bytes,
		ps->path_packed ? (double)ps->path_packed_bytes / ps->path_packed : 0.0);
}

int cmd_replay(int argc, char **argv)
{
	enum { O_VERIFY = 256, O_TO, O_RANDOM, O_INTERVAL, O_SEED, O_POINTS, O_MEMORY, O_NOINDEX,
	       O_CACHE };
	static const struct option opts[] = {
		{ "verify", no_argument, NULL, O_VERIFY },
		{ "to", required_argument, NULL, O_TO },
		{ "random", required_argument, NULL, O_RANDOM },
		{ "interval", required_argument, NULL, O_INTERVAL },
		{ "memory", required_argument, NULL, O_MEMORY },
		{ "seed", required_argument, NULL, O_SEED },
		{ "check-points", required_argument, NULL, O_POINTS },
		{ "no-index", no_argument, NULL, O_NOINDEX },
		{ "cache-dir", required_argument, NULL, O_CACHE },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t to = UINT64_MAX, nrandom = 0, interval = 0, seed = 1, bytes, end = 0;
	uint64_t memory = RPL_DEFAULT_MEMORY;
	struct rpl_ckstore_stats cs;
	struct rpl_check_mem cm;
	struct rpl_memory_use mu;
	unsigned fwd, bwd, checks;
	uint64_t npoints = 0;
	int opt, verify = 0, quiet = 0, s, status, full, noindex = 0, at_end = 0;
	const char *cache = NULL;
	struct rpl_verify_stats vs;
	struct timespec t0, t1;
	struct rpl *r;
	double secs;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "hq", opts, NULL)) != -1) {
		switch (opt) {
		case O_VERIFY:
			verify = 1;
			break;
		case O_TO:
			if (parse_u64(optarg, &to))
				return error("--to: '%s' is not a number", optarg), 2;
			break;
		case O_RANDOM:
			if (parse_u64(optarg, &nrandom) || nrandom > 1000000)
				return error("--random: '%s' is not a number up to 1000000", optarg), 2;
			break;
		case O_INTERVAL:
			if (parse_u64(optarg, &interval) || !interval)
				return error("--interval: '%s' is not a positive number", optarg), 2;
			break;
		case O_MEMORY:
			if (parse_size(optarg, &memory))
				return error("--memory: '%s' is not a size (512M, 2G, ...)", optarg), 2;
			break;
		case O_POINTS:
			if (parse_u64(optarg, &npoints) || !npoints || npoints > 64)
				return error("--check-points: '%s' is not a number from 1 to 64",
					     optarg), 2;
			break;
		case O_SEED:
			if (parse_u64(optarg, &seed))
				return error("--seed: '%s' is not a number", optarg), 2;
			break;
		case O_NOINDEX:
			noindex = 1;
			break;
		case O_CACHE:
			cache = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(replay_usage, stdout);
			return 0;
		default:
			fputs(replay_usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		error("replay: exactly one recording directory expected");
		fputs(replay_usage, stderr);
		return 2;
	}
	r = cli_open_indexed(argv[optind], interval, memory,
			     !noindex && (!verify || nrandom || npoints), cache, quiet, &at_end, NULL);
	if (!r)
		return 1;
	if ((npoints || nrandom) && rpl_port_stats(r)) {
		const struct rpl_etm_stats *ps = rpl_port_stats(r);
		uint64_t gaps = 0;

		for (int i = 0; i < rpl_ncores(r); i++)
			gaps += ps->gaps[i];
		if (gaps) {
			error("replay: %s: --%s compares positions with the truth's, and the %llu "
			      "gaps of this trace shift them by what ran in them (unknown): "
			      "--verify aligns the truth at each gap",
			      argv[optind], npoints ? "check-points" : "random",
			      (unsigned long long)gaps);
			rpl_close(r);
			return 1;
		}
	}
	if (npoints) {
		s = rpl_check_points(r, (unsigned)npoints, seed, &checks);
		if (!s && !quiet && rpl_regs_known(r))
			fprintf(stderr, "raptor replay: %s: %u breakpoint, watchpoint and stepi "
				"checks in both directions equal the ground truth\n", argv[optind],
				checks);
		else if (!s && !quiet)
			fprintf(stderr, "raptor replay: %s: %u breakpoint and stepi checks in both "
				"directions equal the ground truth's PCs (control flow only: "
				"watchpoints refused)\n", argv[optind], checks);
		rpl_close(r);
		return s ? 1 : 0;
	}
	if (nrandom) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		s = rpl_check_random(r, (unsigned)nrandom, seed, &end, &fwd, &bwd, &cm);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
		if (!s && !quiet) {
			size_t n = rpl_checkpoints(r, &bytes);
			char what[96];

			if (!rpl_regs_known(r))
				snprintf(what, sizeof(what), " (every core's PC after its steps)");
			else if (cm.fp_states)
				snprintf(what, sizeof(what), " (FP registers too: 33 in each of %u "
					 "core states)", cm.fp_states);
			else
				what[0] = 0;
			rpl_checkpoint_stats(r, &cs);
			fprintf(stderr, "raptor replay: %s: %llu random positions among %llu equal "
				"the ground truth%s (%u reached forward, %u backward; %zu checkpoints, "
				"%.1f MiB; %.2f s)\n", argv[optind], (unsigned long long)nrandom,
				(unsigned long long)end,
				what, fwd, bwd, n, bytes / 1048576.0, secs);
			rpl_memory_use(r, &mu);
			fprintf(stderr, "  checkpoints: %llu bytes now, %llu at most, budget %llu "
				"of --memory %llu (time index %llu, initial image %llu, live "
				"memory %llu, cf walk %llu, decoded path %llu, rest of the process "
				"%llu of %llu "
				"resident); %zu compressed (%zu of them as deltas; %llu to %llu "
				"bytes), %llu dropped, %llu laid down again\n", (unsigned long long)cs.bytes,
				(unsigned long long)cs.peak, (unsigned long long)cs.budget,
				(unsigned long long)mu.memory, (unsigned long long)mu.time_index,
				(unsigned long long)mu.initial, (unsigned long long)mu.live,
				(unsigned long long)mu.walk, (unsigned long long)mu.path,
				(unsigned long long)mu.rest,
				(unsigned long long)mu.resident, cs.packed, cs.deltas,
				(unsigned long long)cs.raw_state, (unsigned long long)cs.packed_state,
				(unsigned long long)cs.dropped, (unsigned long long)cs.recreated);
			if (mu.walk_messages)
				fprintf(stderr, "  control-flow walk: %llu messages decoded, %llu of "
					"them packed in %llu bytes (%llu before deflating; %llu "
					"blocks deflated, %llu inflated going back)\n",
					(unsigned long long)mu.walk_messages,
					(unsigned long long)mu.walk_packed,
					(unsigned long long)mu.walk_packed_bytes,
					(unsigned long long)mu.walk_packed_raw,
					(unsigned long long)mu.walk_blocks,
					(unsigned long long)mu.walk_inflations);
			if (cm.probes)
				fprintf(stderr, "  memory at %u of them: %llu bytes the "
					"recording determines (%llu of them from a later load), "
					"all readable and equal to the truth (%llu more read, "
					"equal; %llu unknown)\n", cm.probes,
					(unsigned long long)cm.determined,
					(unsigned long long)cm.later, (unsigned long long)cm.extra,
					(unsigned long long)cm.unknown);
		}
		rpl_close(r);
		return s ? 1 : 0;
	}
	if (verify && rpl_verify(r)) {
		rpl_close(r);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rpl_set_once(r); /* no going back: no checkpoint */
	s = at_end ? rpl_seek(r, to) : rpl_run(r, to);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (!quiet) {
		full = rpl_regs_known(r);
		fprintf(stderr, "raptor replay: %s: %llu instructions replayed%s%s in %.2f s",
			argv[optind], (unsigned long long)rpl_position(r),
			s == 1 ? " (the whole recording)" : s == 0 ? "" : " before the error",
			full ? "" : " from the control flow alone", secs);
		if (secs > 0)
			fprintf(stderr, " (%.1f MIPS)", rpl_position(r) / secs / 1e6);
		fputc('\n', stderr);
		for (int i = 0; i < rpl_ncores(r); i++)
			fprintf(stderr, "  core %d: %llu instructions, %llu cycles%s\n", i,
				(unsigned long long)rpl_core_insns(r, i),
				(unsigned long long)rpl_cycles(r, i), full ? "" : " (estimated)");
		if (rpl_port_stats(r)) {
			const struct rpl_etm_stats *ps = rpl_port_stats(r);

			for (int i = 0; i < rpl_ncores(r); i++)
				if (ps->lost_at_end[i] && !ps->insns[i] && !ps->gaps[i])
					fprintf(stderr, "  core %d: not in the trace at all\n", i);
				else if (ps->gaps[i] || ps->lost_at_end[i])
					fprintf(stderr, "  core %d: %llu gaps in its trace%s: the "
						"instructions in them are unknown\n", i,
						(unsigned long long)ps->gaps[i],
						ps->lost_at_end[i] ? " (the last never closed)" : "");
			print_path_memory(ps);
		}
		if (rpl_exited(r, &status)) {
			if (full)
				fprintf(stderr, "  the program exited with status %d\n", status);
			else
				fprintf(stderr, "  the program exited (its status is not traced)\n");
		}
		if (verify && full) {
			char fp[96] = "";

			rpl_verify_stats(r, &vs);
			if (vs.fp_states)
				snprintf(fp, sizeof(fp), " (FP registers too: 33 in each of %llu "
					 "states)", (unsigned long long)vs.fp_states);
			fprintf(stderr, "  %llu instructions verified against the ground truth%s, "
				"%s\n", (unsigned long long)rpl_verified(r), fp,
				s < 0 ? "stopped at the error above" : "0 differences");
		} else if (verify) {
			rpl_verify_stats(r, &vs);
			fprintf(stderr, "  %llu instructions' PCs and %llu exception entries verified "
				"against the ground truth, registers and memory not traced, %s\n",
				(unsigned long long)vs.insns, (unsigned long long)vs.exceptions,
				s < 0 ? "stopped at the error above" : "0 differences");
			if (rpl_port_stats(r))
				fprintf(stderr, "  trace port: %llu gaps the trace marks (%llu of the "
					"truth's steps in them, not compared), %llu instructions after "
					"the trace's last (untraced, straight-line)\n",
					(unsigned long long)vs.gaps, (unsigned long long)vs.in_gaps,
					(unsigned long long)vs.untraced);
			fprintf(stderr, "  %llu steps' cycles equal their messages' time stamps and "
				"the truth; %llu estimated, off by %.1f cycles on average, at most "
				"%llu\n", (unsigned long long)vs.stamps,
				(unsigned long long)vs.estimated, vs.mean_cycle_error,
				(unsigned long long)vs.max_cycle_error);
		}
	}
	rpl_close(r);
	return s < 0 ? 1 : 0;
}

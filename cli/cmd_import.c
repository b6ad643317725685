/*
 * raptor import: a trace captured from hardware (raw ETM bytes, or the
 * CoreSight formatter frames an ETB/ETR or a probe stores) + the ELF + a
 * small configuration -> a recording directory that replay, serve, stat
 * and the gdbscripts take (docs/ETM.md "Importing a capture").
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board/board.h"
#include "cli/cli.h"
#include "etm/etm3.h"
#include "etm/etm4.h"
#include "replay/etmpath.h"
#include "replay/replay.h"
#include "streams/manifest.h"

static const char import_usage[] =
    "usage: raptor import CAPTURE --elf ELF --config CONF -o REC [options]\n"
    "\n"
    "Make a recording of a trace captured from hardware: CAPTURE holds the\n"
    "ETMv4 or ETMv3.5 instruction trace bytes, either each core's raw stream\n"
    "(one after the other) or CoreSight formatter frames with a trace ID per\n"
    "core (as an ETB/ETR stores them: 16-byte frames, no frame syncs), or each\n"
    "core's MTB buffer (oldest packet first); ELF is the program that ran;\n"
    "CONF says how the trace units were programmed:\n"
    "\n"
    "  [trace]\n"
    "  format = etm4        ; etm4 | etm3 | mtb\n"
    "  cores = 2            ; 1..8\n"
    "  framed = 1           ; 0: raw streams (an MTB: always 0)\n"
    "  trace_ids = 0x10,0x11\n"
    "  sync_period = 4096   ; optional\n"
    "  arch = v7m           ; optional (etm4): v7m | v8m, default from the core\n"
    "  cpu = m3             ; optional: the core model, default from the ELF\n"
    "  core_bytes = 10,20   ; raw streams or buffers of several cores: each\n"
    "                       ; one's bytes\n"
    "  cycle_counting = 1   ; optional: the units counted cycles (etm4), or\n"
    "                       ; traced cycle-accurate (etm3, ETMCR bit 12)\n"
    "  cc_threshold = 1     ; optional, etm4 with it: their threshold (default 1)\n"
    "\n"
    "The units must have traced instructions alone, as docs/ETM.md describes\n"
    "(cycle counts aside: no timestamps, branch broadcast, return stack or data\n"
    "trace). REC gets manifest.ini, program.elf and cf.bin (the capture,\n"
    "byte for byte). The capture is decoded (ETM: with OpenCSD) and every core's\n"
    "path walked once: a capture that does not decode, or that the program\n"
    "does not explain (the wrong ELF, a wrong trace ID, garbage), is refused\n"
    "with the byte offset, the core and the instruction, and no recording is\n"
    "left. Where the trace loses a core (lost sync, an overflow) and finds it\n"
    "again at a later sync packet, the recording marks a gap there instead of\n"
    "inventing instructions; a trace that starts after reset starts with one.\n"
    "Only control flow is known: registers and memory are unavailable.\n"
    "\n"
    "options:\n"
    "  --elf ELF            the program (required)\n"
    "  --config CONF        the trace units' configuration (required)\n"
    "  -o, --output REC     the recording directory (created; required)\n"
    "  --force              replace what REC holds\n"
    "  -q, --quiet          no summary\n"
    "  -h, --help           this text\n"
    "\n"
    "Exit status: 0, 1 when the capture is refused, 2 for bad usage.\n";

static const char *const rec_files[] = {"manifest.ini", "program.elf", "cf.bin"};

static void remove_rec(const char *dir)
{
	char p[4096];

	for (size_t i = 0; i < ARRAY_SIZE(rec_files); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, rec_files[i]);
		unlink(p);
	}
	rmdir(dir);
}

/* The recording's files from the configuration, the board at reset and the capture. */
static int write_rec(const char *dir, const char *elf, const char *capture,
		     const struct st_import_cfg *cfg, int model, uint64_t size)
{
	struct board_config bc;
	struct st_manifest m;
	struct board *b;
	char p[4096];
	int ret = -1;

	board_config_init(&bc);
	bc.ncores = cfg->ncores;
	bc.model = model;
	b = board_new(&bc);
	if (!b || board_load(b, elf))
		goto out;
	st_manifest_init(&m);
	/*
	 * partial: a capture is a window of the run (an ETB keeps what fits),
	 * whether the program exited after it is not known
	 */
	m.complete = 0;
	snprintf(m.tool, sizeof(m.tool), "raptor %s import", RAPTOR_VERSION);
	snprintf(m.elf, sizeof(m.elf), "program.elf");
	memcpy(m.sha256, board_elf(b)->sha256_hex, sizeof(m.sha256));
	m.model = model;
	m.ncores = cfg->ncores;
	/* the board's timing: the cores' interleaving is estimated with it */
	m.seed = bc.seed;
	m.jitter = bc.jitter;
	m.branch_penalty = bc.branch_penalty;
	m.miss_penalty = bc.miss_penalty;
	m.exc_penalty = bc.exc_penalty;
	m.cf_on = 1;
	m.port = cfg->port;
	m.port.v8m = cfg->arch >= 0 ? cfg->arch : model == ISA_CORTEX_M33;
	if (cfg->regs_given) {
		/* the probe's dump; what it lacks, the modelled unit's values */
		uint32_t model_regs[5] = {0};

		if (cfg->port.kind == ST_PORT_ETM4) {
			struct etm4_cfg c4 = {0x10, cfg->port.sync_period, m.port.v8m,
					      cfg->port.cycle_counting ? cfg->port.cc_threshold : 0};
			struct etm4_regs r4;

			etm4_regs(&c4, &r4);
			model_regs[0] = r4.idr0;
			model_regs[1] = r4.idr1;
			model_regs[2] = r4.idr2;
			model_regs[3] = r4.idr8;
			model_regs[4] = r4.configr;
		} else {
			struct etm3_cfg c3 = {0x10, cfg->port.sync_period, cfg->port.cycle_counting};
			struct etm3_regs r3;

			etm3_regs(&c3, &r3);
			model_regs[0] = r3.idr;
			model_regs[1] = r3.ctrl;
			model_regs[2] = r3.ccer;
		}
		for (int i = 0; i < 5; i++)
			if (!(cfg->regs_given >> i & 1))
				m.port.regs[i] = model_regs[i];
		m.port.have_regs = 1;
	}
	if (m.port.framed)
		memset(m.port.bytes, 0, sizeof(m.port.bytes));
	m.cf_bits = 8 * size;
	st_cf_format_init(&m.cf, ST_CF_NXB, m.ncores, 0);
	m.lv_on = 0;
	for (int c = 0; c < m.ncores; c++)
		for (int r = 0; r < ISA_NREGS; r++)
			m.regs[c][r] = isa_cpu_get(board_cpu(b, c), r);
	m.has_truth = 0;
	snprintf(p, sizeof(p), "%s/program.elf", dir);
	if (file_copy(elf, p))
		goto out;
	snprintf(p, sizeof(p), "%s/cf.bin", dir);
	if (file_copy(capture, p))
		goto out;
	snprintf(p, sizeof(p), "%s/manifest.ini", dir);
	if (st_manifest_write(&m, p))
		goto out;
	ret = 0;
out:
	board_free(b);
	return ret;
}

int cmd_import(int argc, char **argv)
{
	enum { O_ELF = 256, O_CONFIG, O_FORCE };
	static const struct option opts[] = {
	    {"elf", required_argument, NULL, O_ELF},
	    {"config", required_argument, NULL, O_CONFIG},
	    {"output", required_argument, NULL, 'o'},
	    {"force", no_argument, NULL, O_FORCE},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *elf = NULL, *conf = NULL, *dir = NULL, *capture;
	struct st_import_cfg cfg;
	const struct rpl_etm_stats *ps;
	struct stat st;
	uint64_t sum = 0;
	int opt, force = 0, quiet = 0, model, s;
	struct rpl *r;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "ho:q", opts, NULL)) != -1) {
		switch (opt) {
		case O_ELF: elf = optarg; break;
		case O_CONFIG: conf = optarg; break;
		case 'o': dir = optarg; break;
		case O_FORCE: force = 1; break;
		case 'q': quiet = 1; break;
		case 'h': fputs(import_usage, stdout); return 0;
		default: fputs(import_usage, stderr); return 2;
		}
	}
	if (optind != argc - 1 || !elf || !conf || !dir) {
		error("import: one CAPTURE, --elf, --config and -o are required");
		fputs(import_usage, stderr);
		return 2;
	}
	capture = argv[optind];
	if (st_import_cfg_read(conf, &cfg))
		return 1;
	if (cli_pick_model(elf, cfg.cpu[0] ? cfg.cpu : NULL, 0, &model, NULL))
		return 1;
	if (stat(capture, &st))
		return error("%s: cannot read: %m", capture), 1;
	if (!st.st_size)
		return error("%s: empty: no trace", capture), 1;
	if (cfg.port.framed && !cfg.port.tpiu && st.st_size % 16)
		return error("%s: %llu bytes, no whole number of 16-byte formatter frames: "
			     "truncated at byte %llu? (framed = 1 in %s)",
			     capture, (unsigned long long)st.st_size,
			     (unsigned long long)(st.st_size - st.st_size % 16), conf),
		       1;
	if (!cfg.port.framed) {
		if (!cfg.have_bytes)
			cfg.port.bytes[0] = (uint64_t)st.st_size;
		for (int c = 0; c < cfg.ncores; c++)
			sum += cfg.port.bytes[c];
		if (sum != (uint64_t)st.st_size)
			return error("%s: %llu bytes, but %s's core_bytes add up to %llu (%s at "
				     "byte %llu?)",
				     capture, (unsigned long long)st.st_size, conf,
				     (unsigned long long)sum,
				     sum > (uint64_t)st.st_size ? "truncated" : "something else",
				     (unsigned long long)(sum > (uint64_t)st.st_size ? st.st_size
										    : sum)),
			       1;
	}
	if (mkdir(dir, 0777) && !(errno == EEXIST && force))
		return error("%s: cannot create the recording directory: %m%s", dir,
			     errno == EEXIST ? " (--force replaces it)" : ""),
		       1;
	if (write_rec(dir, elf, capture, &cfg, model, (uint64_t)st.st_size)) {
		remove_rec(dir);
		return 1;
	}
	/* decode and walk it once: a capture that does not replay is refused now */
	r = rpl_open(dir);
	s = r ? rpl_run(r, UINT64_MAX) : -1;
	if (s < 0) {
		error("import: %s does not replay (the byte offsets above are the capture's: %s "
		      "is a copy of it); no recording made",
		      capture, "cf.bin");
		rpl_close(r);
		remove_rec(dir);
		return 1;
	}
	ps = rpl_port_stats(r);
	if (!quiet) {
		fprintf(stderr,
			"raptor import: %s: %s, %d cores, %llu bytes%s: %llu instructions\n", dir,
			st_port_name(cfg.port.kind), cfg.ncores, (unsigned long long)st.st_size,
			cfg.port.framed ? " of frames" : "", (unsigned long long)rpl_position(r));
		for (int c = 0; c < cfg.ncores; c++)
			fprintf(stderr,
				"  core %d (trace ID 0x%02x): %llu instructions, %llu "
				"exceptions, %llu gaps%s\n",
				c, cfg.port.trace_id[c], (unsigned long long)rpl_core_insns(r, c),
				(unsigned long long)ps->exceptions[c],
				(unsigned long long)ps->gaps[c],
				!ps->lost_at_end[c]		      ? ""
				: !ps->insns[c] && !ps->gaps[c] ? " (not in the capture at all)"
								: " (lost at the end)");
	}
	rpl_close(r);
	return 0;
}

/*
 * ports: the real trace ports' bandwidth on a recording's run, for `raptor
 * stat` (docs/STAT.md "Trace ports"): every core's ETMv4, ETMv3.5 and MTB
 * (etm/port.h), and all the cores' ETMv4 streams in one capture of
 * CoreSight formatter frames (etm/cstf.h), fed from the replayed run.
 *
 * The recording is replayed (replay/replay.h) with an observer that feeds
 * each core's ports every retired instruction, fault and exception entry
 * in the core's order, with the PC and LR the replayed core holds after
 * the step; the formatter takes a core's new ETMv4 bytes once there are 16
 * or more, in the replay's step order (which is the board's), and the rest
 * at the end, core by core. That is what tools/etmcheck does with the
 * ground truth, with the same settings, so the sizes are the same
 * (tests/t0810-stat-etm.sh checks it byte for byte). A full replay needs
 * both streams: a control-flow-only recording is refused.
 */
#ifndef RAPTOR_ANALYSIS_PORTS_H
#define RAPTOR_ANALYSIS_PORTS_H

#include <stdint.h>

#include "analysis/recstats.h"
#include "util/util.h"

/*
 * AN_PORT_ETM4CC: a second ETMv4 per core with cycle counting on at the
 * least threshold (1), fed each step's cycles from the replay: the cost of
 * the counts beside AN_PORT_ETM4's stream without them. AN_PORT_ETM3CC:
 * the same for a second ETMv3.5 in cycle-accurate mode, beside
 * AN_PORT_ETM3.
 */
enum an_port {
	AN_PORT_ETM4,
	AN_PORT_ETM3,
	AN_PORT_MTB,
	AN_PORT_FRAMES,
	AN_PORT_ETM4CC,
	AN_PORT_ETM3CC,
	AN_NPORTS
};

#define AN_PORTS_SYNC 4096 /* the ETMs' default sync period, etmcheck's */

struct an_ports {
	int ncores;
	int v8m;				     /* ETMv4 told ARMv8-M (an M33 recording) */
	unsigned sync_period;			     /* both ETMs' */
	uint64_t bits[AN_NPORTS];		     /* all cores */
	uint64_t core_bits[AN_MAX_CORES][AN_NPORTS]; /* AN_PORT_FRAMES: 0, not per core */
	uint64_t core_insns[AN_MAX_CORES];	     /* instructions fed to each core's ports */
	uint64_t mtb_packets, core_mtb_packets[AN_MAX_CORES];
};

/* "etm4", "etm3", "mtb", "etm4.cstf", "etm4.cc", "etm3.cc" (CSV and JSON names). */
const char *an_port_name(enum an_port p);
/*
 * "ETMv4", "ETMv3.5", "MTB", "ETMv4 in CoreSight frames", "ETMv4 with cycle
 * counting", "ETMv3.5 cycle accurate".
 */
const char *an_port_label(enum an_port p);

/*
 * Replay the recording in dir and measure its ports with the ETMs' sync
 * period sync (bytes, a power of 2 from 256 to 2^20). raw: NULL, or a
 * directory where the streams are written as etmcheck --raw writes them
 * (etm4-coreC.bin, etm3-coreC.bin, mtb-coreC.bin, etm4-frames.bin). 0, or
 * -1 with an error (no full replay possible, a desync, code outside the
 * ELF, bad settings, a file that cannot be written).
 */
int an_ports_measure(struct an_ports *pt, const char *dir, unsigned sync,
		     const char *raw) MUST_CHECK;

#endif

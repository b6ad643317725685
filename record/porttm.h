/*
 * porttm: the board's real trace units, for `raptor record --cf-enc etm4 |
 * etm3 | mtb` (docs/ETM.md "Recording through a trace port"): every core's
 * ETMv4, ETMv3.5 or MTB (etm/port), fed each step of the core as it
 * retires, and, when framed, a CoreSight formatter (etm/cstf) that merges
 * the cores' ETM bytes as a funnel drains their FIFOs: a core's new bytes
 * go into the frames once there are 16 of them, with the core's trace ID
 * (tpiu: as a TPIU sends them, an FSYNC before every 16th frame; hsync:
 * and an HSYNC where the port idled, before the frame after each burst).
 * The trace is held in memory (as an ETB/ETR or the MTB's SRAM holds it)
 * and written to the recording when the run ends.
 */
#ifndef RAPTOR_PORTTM_H
#define RAPTOR_PORTTM_H

#include <stdint.h>
#include <stdio.h>

#include "isa/isa.h"
#include "streams/manifest.h"
#include "util/util.h"

struct rec_port;

/*
 * cfg: kind, framed, tpiu, sync_period, v8m, trace_id[] and the cycle counting of the manifest's
 * [port]; elf: the program (its load image classifies the instructions);
 * reset_pc: each core's PC at reset. NULL with an error (bad settings,
 * the ELF).
 */
struct rec_port *rec_port_new(const struct st_port_cfg *cfg, int ncores, const char *elf,
			      const uint32_t *reset_pc);
void rec_port_free(struct rec_port *p);

/*
 * A step of core: st as the board reports it, next and lr the core's PC
 * and LR after it, cycle the core's cycle count after it (the timing
 * model's: what the ETMv4's cycle counting and the ETMv3's cycle-accurate
 * mode count). The first error
 * sticks: 0, or -1 with it (also at every later call), naming the core and
 * instruction.
 */
int rec_port_step(struct rec_port *p, int core, const struct isa_step *st, uint32_t next,
		  uint32_t lr, uint64_t cycle) MUST_CHECK;

/*
 * The end of the run: flush the trace units, write the trace to f (named
 * path: each core's stream or buffer in core order, or the frames), each
 * core's bytes into bytes[] (framed: 0) and the total into *total. 0 / -1.
 */
int rec_port_finish(struct rec_port *p, FILE *f, const char *path, uint64_t *bytes,
		    uint64_t *total) MUST_CHECK;

#endif

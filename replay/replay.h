/*
 * replay: rebuild every instruction of every core from a recording (ELF +
 * manifest + streams; never the ground truth), DESIGN.md section 7.
 *
 * Full fidelity (a control-flow and a load-value stream): the cores run in
 * the ISS over the replay's own memory picture (replay/mem.h), with the
 * software copies of the predictors and caches. Every load asks the cache
 * copy: a hit must read bytes the debugger knows, a miss takes its value
 * from the next load-value message, which must be this core's, with this
 * core's hit count. The board's timing model (board/sched.h, parameters
 * from the manifest) orders the cores, so the recorded interleaving is
 * reproduced exactly; then every message of both streams falls due at a
 * known step, and each is checked when it does: its core, its counts, its
 * exception number, its target and its time stamp against the replay's
 * cycle count. Any disagreement, a stream that ends early or has bits left
 * over, a value the FA rules say is known but is not, is a desync: an error
 * naming the stream file, the core, the instruction count and the bit
 * offset, and the replay stops there.
 *
 * A position is the number of instructions retired by all cores so far,
 * in the global order (0 = the reset state).
 */
#ifndef RAPTOR_REPLAY_H
#define RAPTOR_REPLAY_H

#include <stdint.h>

#include "isa/isa.h"
#include "streams/manifest.h"
#include "util/util.h"

struct rpl;

/*
 * Open the recording in directory dir: read and check the manifest, check
 * the ELF's SHA-256 against it, load the program and the streams, set up
 * the cores at reset (their registers must equal the manifest's). NULL with
 * an error naming the file and the problem.
 */
struct rpl *rpl_open(const char *dir);
void rpl_close(struct rpl *r);

const struct st_manifest *rpl_manifest(const struct rpl *r);

/*
 * Compare every step with the ground truth dir/truth.gz from now on (core,
 * PC, flags, cycle, all registers, every access). 0, or -1 if it cannot be
 * opened (or the recording has none).
 */
int rpl_verify(struct rpl *r) MUST_CHECK;

/*
 * Run forward until position `to` (UINT64_MAX: the end of the recording).
 * Returns 1 at the end of the recording, 0 when `to` was reached first, -1
 * on a desync, a verification difference or an ISS error (reported).
 */
int rpl_run(struct rpl *r, uint64_t to) MUST_CHECK;

/* Instructions retired so far, all cores, and by one core. */
uint64_t rpl_position(const struct rpl *r);
uint64_t rpl_core_insns(const struct rpl *r, int core);
/* Instructions compared with the ground truth so far. */
uint64_t rpl_verified(const struct rpl *r);
uint64_t rpl_cycles(const struct rpl *r, int core);
int rpl_ncores(const struct rpl *r);
struct isa_cpu *rpl_cpu(struct rpl *r, int core);
/* 1 once the program exited (SYS_EXIT) in the replay. *status gets its status. */
int rpl_exited(const struct rpl *r, int *status);

#endif

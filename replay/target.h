/*
 * target: the replay as the gdbserver's target, the implementation of
 * server/target.h's ops table that `raptor serve` plugs in (cli/cmd_serve.c
 * only parses options and wires the replay, this and the server together).
 *
 * It keeps GDB's break- and watchpoints counted (GDB may insert one twice;
 * a Z0 and a Z1 at one address are one replay breakpoint), turns replay
 * stops into server stops, and adds raptor's own monitor commands (info,
 * time, goto, stats, who-wrote), and swaps its replay for the one that
 * built the index in the background once that is done.
 *
 * Watchpoints and GDB on ARM: GDB treats ARM hardware watchpoints as
 * "non-steppable" (the target reports the access before the instruction
 * completes; GDB then single-steps it with the watchpoints removed and
 * compares the values). So a forward stop on a watchpoint is reported in
 * the state just before the accessing instruction, and GDB's own step
 * executes it. Backward, the replay stops in the state just after the
 * access and GDB's reverse step undoes it: either way GDB ends on the
 * accessing instruction with the right old and new values, as on rr.
 */
#ifndef RAPTOR_REPLAY_TARGET_H
#define RAPTOR_REPLAY_TARGET_H

#include "replay/bgindex.h"
#include "replay/replay.h"
#include "server/target.h"

struct rpl_target;

/* The ops table; its `void *t` is a struct rpl_target. */
extern const struct rsp_target_ops rpl_target_ops;

/*
 * A target for the replay r, which becomes the target's (rpl_target_free
 * closes it; on failure it stays the caller's). elf: the program's
 * absolute path, which GDB is offered to load its symbols from
 * (qXfer:exec-file), or NULL; not owned, it must outlive the target. NULL
 * (with an error) when out of memory.
 */
struct rpl_target *rpl_target_new(struct rpl *r, const char *elf) MUST_CHECK;
/* Free the target and its replay. NULL is allowed. */
void rpl_target_free(struct rpl_target *t);

/* r loaded the index at path with count checkpoints (for monitor info). 0 / -1. */
int rpl_target_set_index(struct rpl_target *t, const char *path, uint64_t count) MUST_CHECK;
/*
 * The index is being built in the background (replay/bgindex.h; not
 * owned: free it after the target's last command, before the target). At
 * the first GDB command after it is done, its replay takes over: moved to
 * the exact step, points and stop state of the one serving, whose place it
 * takes (that one is closed), with `memory` (rpl_set_memory) from then on:
 * while both run, the caller shares --memory out between them. monitor
 * info and time show its progress.
 */
void rpl_target_set_bgindex(struct rpl_target *t, struct rpl_bgindex *bg, uint64_t memory);
/* The replay serving now (it changes when the background index is adopted). */
struct rpl *rpl_target_replay(const struct rpl_target *t);

#endif

/*
 * etmpath: a real trace port's recording (manifest [port]: ETMv4 or
 * ETMv3.5, raw per core or in CoreSight formatter frames) decoded by
 * OpenCSD (etm/ocsd.h) into the decoded path the control-flow-only walk
 * follows (replay/cfwalk.h, struct cfw_pmsg), so that everything built on
 * that walk (replay, --verify, stat, serve, reverse execution) takes such
 * recordings as it takes a cf-only one. docs/ETM.md "Replaying a trace
 * port" gives the design; in short:
 *
 *   - OpenCSD's instruction ranges, expanded into instruction addresses,
 *     give each core's PC sequence; a change of the PC that is not to the
 *     next instruction becomes a CFW_P_BRANCH at the instruction before it
 *     (the walk checks that it is a branch, and a direct one's target);
 *   - OpenCSD's exception elements become CFW_P_EXC, or CFW_P_TAIL when
 *     the exception follows an exception return at once (no exception
 *     return element between, the return address that of the exception
 *     being left); the handler the trace shows must be the vector's;
 *   - a loss of sync, an overflow or any restart of a core's trace after
 *     it was traced (OpenCSD resynchronises at the next sync packet)
 *     becomes CFW_P_GAP to where the trace finds the core again: the
 *     instructions in between are not invented; so does a trace that does
 *     not start at the core's reset PC (a capture from hardware);
 *   - the cores' messages are merged by the lower bound of their cycle
 *     counts (the walk's own estimate), so that the walk's global order is
 *     the estimated one.
 *
 * An MTB recording (each core's buffer) is read here, packet by packet
 * (mtb_core in etmpath.c: mtb_decode gives no exception entries): its
 * branches, exception entries (the number is the lowest whose vector is
 * the handler: the MTB records the handler, not the number), returns and
 * tail-chains become the same messages.
 */
#ifndef RAPTOR_ETMPATH_H
#define RAPTOR_ETMPATH_H

#include <stddef.h>
#include <stdint.h>

#include "replay/cfwalk.h"
#include "streams/manifest.h"
#include "util/util.h"

struct rpl_etm_stats {
	uint64_t insns[ST_CF_MAX_CORES]; /* instructions the trace shows */
	uint64_t gaps[ST_CF_MAX_CORES];	 /* CFW_P_GAP messages, the start's included */
	uint64_t exceptions[ST_CF_MAX_CORES];
	/* the trace lost the core and never found it again, or never had it */
	uint8_t lost_at_end[ST_CF_MAX_CORES];
	/*
	 * the core's last traced instruction is a taken indirect branch whose
	 * target the trace does not give (no instruction after it is traced):
	 * the path ends before it
	 */
	uint8_t end_branch[ST_CF_MAX_CORES];
	/*
	 * The path as it is held (replay/pmsgs.h): its messages (the end
	 * messages aside) and the bytes it takes in all (its readers too);
	 * those of them packed, and their bytes.
	 */
	uint64_t path_messages, path_bytes, path_packed, path_packed_bytes;
};

/*
 * Decode data[0..len), the trace file `file` of the recording described by
 * mf (port.kind ETM4, ETM3 or MTB), over the program at elf_path, into a
 * decoded path (data is not kept). NULL with an error naming the file, the
 * core, its instruction count and the byte offset (an image that does not
 * explain the trace, a trace ID no core has, a handler that is not the
 * vector's, OpenCSD's own errors).
 */
struct rpl_etm;
struct rpl_etm *rpl_etm_open(const struct st_manifest *mf, const char *elf_path,
			     const uint8_t *data, size_t len, const char *file);
void rpl_etm_free(struct rpl_etm *e);

/*
 * cfw_config.path_next for the path (ctx: the struct rpl_etm): its next
 * message in the order of the cores' lower-bound cycle counts (ties to the
 * lower core), the end messages last, in core order; 0, or 1 after them.
 */
int rpl_etm_next(void *ctx, struct cfw_pmsg *m);

/* What the decode found, per core. */
const struct rpl_etm_stats *rpl_etm_stats_of(const struct rpl_etm *e);

/*
 * What the path says a core does after its nth gap (n from 0), for
 * aligning a ground truth there (replay --verify): the PC the trace finds
 * the core at, and a constraint per message of the core after it, up to
 * RPL_GAP_SIG of them or its next gap or end (step 0 is the instruction
 * at pc; steps are instructions and exception entries): step `at` is an
 * instruction at `pc` (kind 0), an entry into exception `pc` (kind 1), or
 * a tail-chaining instruction (kind 2). Enough of them to reach past a
 * loop the core was in when the trace found it, whose iterations look
 * alike. 0 (c allocated: free it), or -1 when the path has no such gap.
 */
#define RPL_GAP_SIG 4096
struct rpl_gap_sig {
	uint32_t pc;
	int n;
	struct rpl_gap_con {
		uint64_t at;
		uint32_t pc;
		int kind;
	} * c;
};
int rpl_etm_gap_sig(const struct rpl_etm *e, int core, uint64_t nth,
		    struct rpl_gap_sig *sig) MUST_CHECK;

/* The IPSR number of an ETMv3 (v7-M encoding) exception number, or -1. */
int rpl_etm3_ipsr(unsigned etm3_number);

#endif

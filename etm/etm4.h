/*
 * etm4: an ETMv4 instruction-trace encoder, the byte stream the trace unit
 * of a Cortex-M7 / M33 class core writes to its trace port (ARM IHI 0064,
 * "ETM Architecture Specification ETMv4", chapter 6 "Descriptions of Trace
 * Packets"). One struct etm4 per core, fed every retired instruction and
 * every exception entry in the core's program order.
 *
 * The trace unit it models is configured as a trace engineer would for
 * instruction trace alone (docs/ETM.md gives the register values):
 * ETMv4.2, 32-bit instruction addresses, no data trace, cycle counting
 * only when asked (cc_threshold, below), no timestamps, no branch broadcast, no return stack, no conditional
 * instruction trace, no Q elements, no speculation (TRCIDR8.MAXSPEC = 0,
 * so no commit packets), no context ID or VMID; a periodic synchronisation
 * request every sync_period bytes (TRCSYNCPR).
 *
 * Packets it writes (bytes in stream order; see etm4.c for the diagrams):
 *   A-sync          00 x11, 80
 *   Trace Info      01 00                  (no optional sections)
 *   Trace On        04
 *   Address+context 83 A[7:1] A[15:8] A[23:16] A[31:24] 00   (32-bit, IS1)
 *   Address         exact match 90..92; short IS1 96 +1/2 bytes; long IS1 9B +4
 *   Atoms           formats 1, 2, 3 and 6 (F6: a run of E atoms + one more)
 *   Exception       06 + 1 or 2 bytes (type = M-profile exception number),
 *                   then the preferred return address, then the handler's
 *   Exception return 07 (ARMv7-M: a P0 element of its own)
 *
 * With cycle counting (cc_threshold > 0: TRCCONFIGR.CCI, TRCCCCTLR.THRESHOLD,
 * commit mode 1, a 20-bit counter) Trace Info carries the INFO (CC enabled)
 * and CYCT (threshold) sections, and after a P0 element (an atom or an
 * exception) at which the cycles counted since the last count reach the
 * threshold, the atom packet ends there and a Cycle Count packet follows:
 *   Cycle Count F3  0001 00 CC            count = threshold + CC (0..3)
 *   Cycle Count F1  0000111 0 + count - threshold, 7 bits a byte, bit 7 = more
 */
#ifndef RAPTOR_ETM_ETM4_H
#define RAPTOR_ETM_ETM4_H

#include <stddef.h>
#include <stdint.h>

#include "etm/thumb.h"
#include "util/util.h"

/* Settings of the modelled trace unit. */
struct etm4_cfg {
	uint8_t trace_id;     /* TRCTRACEIDR, 1..0x6f (CoreSight trace ID) */
	unsigned sync_period; /* bytes between sync requests, a power of 2, 256..2^20 */
	int v8m;	      /* ARMv8-M (M33): exception return is not a P0 element */
	/*
	 * 0: no cycle counting. Else cycle counting on with this threshold
	 * (TRCCCCTLR.THRESHOLD, 1..4095; 1 is the least the architecture
	 * allows, TRCIDR3.CCITMIN): a count goes out at the first P0 element
	 * at which at least this many cycles were counted since the last one.
	 */
	unsigned cc_threshold;
};
#define ETM4_CC_MAX 0xfffffu /* a 20-bit counter (TRCIDR2.CCSIZE 8): counts saturate here */

/* The ETMv4 ID and programming registers these settings imply. */
struct etm4_regs {
	uint32_t idr0, idr1, idr2, idr8, configr, traceidr, syncpr;
};
void etm4_regs(const struct etm4_cfg *cfg, struct etm4_regs *out);

/* One retired instruction. */
struct etm4_insn {
	uint32_t pc;
	uint32_t next;		  /* the PC executed next by this core (target or fall-through) */
	unsigned size;		  /* 2 or 4 */
	enum etm_thumb_kind kind; /* etm_thumb_class of it */
	unsigned flags;		  /* ETM4_EXC_RETURN, ETM4_TAIL */
};
#define ETM4_EXC_RETURN 1u /* the branch returned from an exception */
#define ETM4_TAIL 2u	   /* ... and tail-chained: etm4_exception follows */

struct etm4_stats {
	uint64_t bytes, insns;
	/* instructions a decoder can rebuild: up to the last P0 element or exception */
	uint64_t traced;
	uint64_t atoms, addresses, exceptions, syncs;
	uint64_t counts; /* Cycle Count packets */
};

struct etm4;

/* A new encoder, or NULL with an error naming the bad setting. */
struct etm4 *etm4_new(const struct etm4_cfg *cfg);
void etm4_free(struct etm4 *e);

/* Trace one retired instruction. 0, or -1 with an error (bad size, out of memory). */
int etm4_insn(struct etm4 *e, const struct etm4_insn *in) MUST_CHECK;
/*
 * Trace an exception entry: number (IPSR value), the preferred return
 * address and the handler's first instruction. 0 / -1.
 */
int etm4_exception(struct etm4 *e, unsigned number, uint32_t ret, uint32_t handler) MUST_CHECK;
/*
 * Cycle counting: the board's cycles the core spent since the last call
 * (an instruction's, an exception entry's, a sleep's), counted towards
 * the next P0 element: call it before the etm4_insn / etm4_exception of
 * the step that cost them. Ignored without cycle counting.
 */
void etm4_add_cycles(struct etm4 *e, uint64_t n);
/* Write out the atoms still pending (end of trace). 0 / -1. */
int etm4_flush(struct etm4 *e) MUST_CHECK;

/* The bytes written so far (valid until the next call on e) and their count. */
const uint8_t *etm4_data(const struct etm4 *e, size_t *len);
void etm4_get_stats(const struct etm4 *e, struct etm4_stats *st);

#endif

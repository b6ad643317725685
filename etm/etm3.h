/*
 * etm3: an ETMv3.5 instruction-trace encoder, the byte stream of the ETM
 * of a Cortex-M3 / M4 (ARM IHI 0014, "Embedded Trace Macrocell
 * Architecture Specification ETMv3", chapter 7 "Trace packets"), fed like
 * etm4 with every retired instruction and exception entry of one core.
 *
 * ETMv3 is instruction based: every instruction is an atom, E (executed)
 * or N (failed its condition), packed in P-headers; a branch address
 * packet follows each taken indirect branch and carries each exception
 * entry (the handler's address, the exception number in the ETMv3
 * v7-M encoding). The trace unit modelled (docs/ETM.md has the register
 * values): ETMv3.5, alternative branch address encoding, instruction trace
 * only, cycle-accurate mode only when asked (cycle_accurate, below), no
 * context ID, no timestamps, no branch broadcast, a periodic A-sync +
 * I-sync every sync_period bytes.
 *
 * Packets (bytes in stream order; diagrams in etm3.c):
 *   A-sync           00 00 00 00 00 80
 *   I-sync           08, info (reason), A[7:0] | T, A[15:8], A[23:16], A[31:24]
 *   P-header fmt 1   1 N E E E E 0 0     (E count E atoms, then N count N atoms)
 *   Branch address   1 to 5 bytes, + 1 or 2 exception bytes
 *   Exception exit   76
 *
 * Cycle accurate (ETMCR bit 12), every instruction's cycles since the one
 * before are W atoms in the P-headers, formats 1 to 4 of that mode
 * (etm3.c), and the first I-sync is an I-sync with cycle count:
 *   I-sync + count   70, count (1 to 5 bytes), info, A[7:0] | T, ..., A[31:24]
 */
#ifndef RAPTOR_ETM_ETM3_H
#define RAPTOR_ETM_ETM3_H

#include <stddef.h>
#include <stdint.h>

#include "etm/etm4.h"
#include "util/util.h"

struct etm3_cfg {
	uint8_t trace_id;     /* ETMTRACEIDR, 1..0x6f */
	unsigned sync_period; /* bytes between A-sync + I-sync, a power of 2, 256..2^20 */
	int cycle_accurate;   /* ETMCR bit 12: every cycle in the P-headers */
};
#define ETM3_CR_CYCLE_ACC (1u << 12) /* ETMCR: cycle-accurate tracing */

/* The ETM registers these settings imply (OpenCSD's ocsd_etmv3_cfg, and ETMSYNCFR). */
struct etm3_regs {
	uint32_t idr, ctrl, ccer, traceidr, syncfr;
};
void etm3_regs(const struct etm3_cfg *cfg, struct etm3_regs *out);

/* The exception number ETMv3 gives a v7-M exception (IPSR value), or -1. */
int etm3_exception_number(unsigned ipsr);

struct etm3;

struct etm3 *etm3_new(const struct etm3_cfg *cfg);
void etm3_free(struct etm3 *e);

/* One retired instruction (struct etm4_insn: pc, next, size, kind, flags). 0 / -1. */
int etm3_insn(struct etm3 *e, const struct etm4_insn *in) MUST_CHECK;
/* An exception entry: IPSR number and handler address. 0 / -1. */
int etm3_exception(struct etm3 *e, unsigned ipsr, uint32_t handler) MUST_CHECK;
/*
 * Cycle accurate: the board's cycles the core spent since the last call
 * (an instruction's, an exception entry's, a sleep's), W atoms before the
 * next instruction's atom: call it before the etm3_insn of the step that
 * cost them. Ignored otherwise.
 */
void etm3_add_cycles(struct etm3 *e, uint64_t n);
/* Write out the atoms still pending. 0 / -1. */
int etm3_flush(struct etm3 *e) MUST_CHECK;

const uint8_t *etm3_data(const struct etm3 *e, size_t *len);
/*
 * bytes, insns, atoms (= insns), addresses, exceptions, syncs; traced =
 * insns; counts: atoms that waited more than one cycle (format 3 P-headers)
 */
void etm3_get_stats(const struct etm3 *e, struct etm4_stats *st);

#endif

/*
 * mtb: the CoreSight Micro Trace Buffer of a Cortex-M0+ / M23 / M33 (ARM
 * DDI 0486, "MTB execution trace packet format"): one 8-byte packet per
 * non-sequential change of the PC, written to SRAM, and raptor's own
 * decoder for it (OpenCSD has none: the format is simple).
 *
 *   word 0 (even word)  source[31:1] | A     A = 1: the change came from an
 *                                            exception; source is then the
 *                                            preferred return address
 *   word 1 (odd word)   dest[31:1]   | S     S = 1: the first packet after
 *                                            tracing started
 *   (each word little endian)
 *
 * A taken branch is (branch address, A = 0) -> target. An exception entry
 * is (preferred return address, A = 1) -> handler. An exception return is
 * two packets: (returning instruction, A = 0) -> EXC_RETURN value, then
 * (EXC_RETURN, A = 1) -> where execution resumes (the first instruction of
 * the next handler when the return tail-chains). A branch to the next
 * instruction is sequential: no packet.
 *
 * The buffer is modelled as unbounded (a real MTB wraps in its SRAM window,
 * keeping the last MTB_MASTER.MASK-sized part, or stops at a watermark).
 */
#ifndef RAPTOR_ETM_MTB_H
#define RAPTOR_ETM_MTB_H

#include <stddef.h>
#include <stdint.h>

#include "etm/ocsd.h"
#include "util/util.h"

#define MTB_PACKET 8

struct mtb_stats {
	uint64_t bytes, packets, insns;
	/* instructions before the first packet's destination (no decoder sees them) */
	uint64_t first;
	/* instructions up to the last packet's source, included when it executed */
	uint64_t traced;
};

struct mtb;

struct mtb *mtb_new(void);
void mtb_free(struct mtb *m);

/*
 * A retired instruction at pc of size bytes, followed by next. exc_return:
 * the EXC_RETURN value when the instruction returned from an exception
 * (next is then where execution resumed, or the tail-chained handler),
 * else 0. 0 / -1 (out of memory).
 */
int mtb_insn(struct mtb *m, uint32_t pc, unsigned size, uint32_t next,
	     uint32_t exc_return) MUST_CHECK;
/* An exception entry (not tail-chained): preferred return address, handler. 0 / -1. */
int mtb_exception(struct mtb *m, uint32_t ret, uint32_t handler) MUST_CHECK;

const uint8_t *mtb_data(const struct mtb *m, size_t *len);
void mtb_get_stats(const struct mtb *m, struct mtb_stats *st);

/*
 * Decode an MTB buffer (len a multiple of 8), oldest packet first, over
 * the code in mem: fn gets every instruction address executed from the
 * first packet's destination to the last packet's source (included when
 * A = 0), in order. 0, or -1 with an error naming the packet index and the
 * addresses when the image has no sequential path between two packets, a
 * packet is malformed (bit 0 of an address misused, an EXC_RETURN not
 * followed by its A = 1 packet), or fn stopped the decode.
 */
int mtb_decode(const uint8_t *data, size_t len, const struct etm_ocsd_mem *mem, etm_ocsd_fn fn,
	       void *ctx) MUST_CHECK;

#endif

/*
 * ocsd: decoding ETMv4 and ETMv3 instruction trace with OpenCSD (the
 * libopencsd C API): one decode tree per raw stream or per capture of
 * formatter frames, OpenCSD's ETMv4 instruction decoder (or ETMv3
 * decoder) set up from the registers etm4_regs() (etm3_regs()) gives, and
 * the program image as its memory. OpenCSD's generic elements come back
 * as the sequence of executed instruction addresses and exceptions.
 * Not reentrant: one decode at a time per process (OpenCSD's error logger
 * is process-wide too).
 */
#ifndef RAPTOR_ETM_OCSD_H
#define RAPTOR_ETM_OCSD_H

#include <stddef.h>
#include <stdint.h>

#include "etm/etm3.h"
#include "etm/etm4.h"
#include "util/util.h"

/*
 * Called for every instruction OpenCSD says was executed, in order
 * (pc), and for every exception (pc = ETM_OCSD_EXC | number, after the
 * instructions before it). Return 0 to go on, -1 to stop the decode.
 * ctx is the caller's and must not be NULL.
 */
#define ETM_OCSD_EXC 0x100000000ull
typedef int (*etm_ocsd_fn)(void *ctx, uint64_t pc);

/*
 * The memory OpenCSD reads code from: regions (the program's loaded
 * segments), each data[0..size) at address base. A read that starts in a
 * region returns what the region holds from there (OpenCSD asks for 4
 * bytes at every instruction, also at a region's last halfword).
 */
struct etm_region {
	uint32_t base, size;
	const uint8_t *data;
};
struct etm_ocsd_mem {
	const struct etm_region *regions;
	int n;
};

/* The region holding [addr, addr + len), or NULL. */
const struct etm_region *etm_ocsd_region(const struct etm_ocsd_mem *m, uint32_t addr, uint32_t len);

/*
 * Decode data[0..len) (one core's raw ETMv4 stream, no frame formatting)
 * as written by an encoder with settings cfg, calling fn. 0 when the whole
 * stream decoded with no error; -1 with an error naming the trace ID and
 * OpenCSD's message and byte index (also when fn stopped it: then fn's own
 * error came first).
 */
int etm_ocsd_decode(const struct etm4_cfg *cfg, const struct etm_ocsd_mem *mem, const uint8_t *data,
		    size_t len, etm_ocsd_fn fn, void *ctx) MUST_CHECK;
/*
 * Decode a capture of CoreSight formatter frames (etm/cstf: 16-byte,
 * memory aligned, no frame syncs) holding n ETMv4 streams, cfg[i] with its
 * trace ID: elements of source i go to fn with ctx[i]. 0 / -1 as above.
 */
int etm_ocsd_decode_frames(const struct etm4_cfg *cfg, int n, const struct etm_ocsd_mem *mem,
			   const uint8_t *data, size_t len, etm_ocsd_fn fn,
			   void *const *ctx) MUST_CHECK;
/*
 * A source for etm_ocsd_decode_src: an ETMv4 (c4) or, v3 set, an ETMv3
 * (c3) trace unit, whose elements go to fn with ctx.
 */
struct etm_ocsd_src {
	int v3;
	struct etm4_cfg c4;
	struct etm3_cfg c3;
	void *ctx;
	/*
	 * have_regs: OpenCSD gets these instead of what c4 / c3 imply (a
	 * probe's dump): ETMv4 TRCIDR0, TRCIDR1, TRCIDR2, TRCIDR8, TRCCONFIGR;
	 * ETMv3 ETMIDR, ETMCR, ETMCCER; the trace ID stays c4's / c3's
	 */
	int have_regs;
	uint32_t regs[5];
};

/*
 * flags of etm_ocsd_decode_src. ETM_OCSD_MARKS: a loss of sync, an
 * overflow or any other restart of a source's trace after it delivered
 * instructions is no error: fn gets ETM_OCSD_GAP before the first element
 * after it (the instructions in between are unknown); an exception return
 * element gives fn ETM_OCSD_RET.
 */
#define ETM_OCSD_MARKS 1u
#define ETM_OCSD_RET 0x200000000ull
#define ETM_OCSD_GAP 0x400000000ull
/*
 * ETM_OCSD_CYCLES: every cycle count OpenCSD reports (its CYCLE_COUNT
 * element, or the count an instruction range carries) gives fn
 * ETM_OCSD_CC | count, after the instructions it counts up to.
 * etm_ocsd_decode and etm_ocsd_decode_frames deliver them whenever the
 * configuration has cycle counting on (cc_threshold), etm_ocsd_decode3
 * when it is cycle accurate. ETMv3 (cycle-accurate mode): one count after
 * every instruction, its W atoms (the cycles since the instruction
 * before); those of a P-header with no atom are added to the next one's.
 * The count of an I-sync with cycle count (the W atoms before a
 * non-periodic I-sync) is not delivered.
 */
#define ETM_OCSD_CYCLES 2u
#define ETM_OCSD_CC 0x800000000ull

/*
 * n sources (framed: n ETMv4 or n ETMv3 sources in one capture of
 * formatter frames, each with its trace ID: 1 memory aligned (ETB/ETR),
 * 2 a TPIU's with FSYNCs between frames, found from the first FSYNC on;
 * else n = 1 and a raw stream).
 * 0 / -1 as etm_ocsd_decode.
 */
int etm_ocsd_decode_src(const struct etm_ocsd_src *src, int n, int framed, unsigned flags,
			const struct etm_ocsd_mem *mem, const uint8_t *data, size_t len,
			etm_ocsd_fn fn) MUST_CHECK;

/*
 * The same decode a piece at a time: etm_ocsd_open sets up the tree (NULL
 * with an error), etm_ocsd_feed decodes the next len bytes (OpenCSD's byte
 * index counts from the first byte fed; a TPIU's capture must start at an
 * FSYNC and come in multiples of 4 bytes), etm_ocsd_end flushes it at the
 * end of the trace (no feed after it), both 0 / -1 as etm_ocsd_decode;
 * etm_ocsd_close frees it. Several may be open at once; their elements are
 * delivered during etm_ocsd_feed and etm_ocsd_end only.
 */
struct etm_ocsd;
struct etm_ocsd *etm_ocsd_open(const struct etm_ocsd_src *src, int n, int framed,
			       unsigned flags, const struct etm_ocsd_mem *mem, etm_ocsd_fn fn);
int etm_ocsd_feed(struct etm_ocsd *o, const uint8_t *data, size_t len) MUST_CHECK;
int etm_ocsd_end(struct etm_ocsd *o) MUST_CHECK;
void etm_ocsd_close(struct etm_ocsd *o);

/*
 * Inside fn: the element being delivered: its byte index in the data
 * given to the decode, its trace ID and, for an exception, the preferred
 * return address when OpenCSD knows it (ret_valid), and whether it is
 * also the target of the branch just traced (ret_br_tgt); for an
 * instruction, whether it is the last of OpenCSD's range (last: a
 * waypoint, or where the trace stopped) and then whether it was executed
 * (last_taken: a branch taken).
 */
struct etm_ocsd_where {
	uint64_t index;
	unsigned trace_id;
	int ret_valid, ret_br_tgt;
	uint32_t ret;
	int last, last_taken;
};
void etm_ocsd_where(struct etm_ocsd_where *w);

/* The same for an ETMv3 stream (etm3), with OpenCSD's ETMv3 decoder (ARMv7-M). */
int etm_ocsd_decode3(const struct etm3_cfg *cfg, const struct etm_ocsd_mem *mem,
		     const uint8_t *data, size_t len, etm_ocsd_fn fn, void *ctx) MUST_CHECK;

#endif

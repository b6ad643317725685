/*
 * port: one core's real trace ports side by side -- its ETMv4 (etm/etm4),
 * its ETMv3.5 (etm/etm3) and its MTB (etm/mtb) -- fed from the core's
 * retired instructions and exception entries in its program order, as
 * tools/etmcheck feeds them from the ground truth: an instruction's size
 * and class from its encoding in the program image (etm/thumb), whether it
 * branched from the PC after it, exception entries with their number, and
 * exception returns and tail-chains. The port keeps what the encoders need
 * besides: the PC the core would execute next (an exception's preferred
 * return address) and, per active exception, that address and the
 * EXC_RETURN value LR held at the entry (the MTB writes it).
 *
 * Also the program image the classification reads (struct etm_image: the
 * ELF's loaded segments, merged as etmcheck merges them).
 */
#ifndef RAPTOR_ETM_PORT_H
#define RAPTOR_ETM_PORT_H

#include <stdint.h>

#include "etm/etm3.h"
#include "etm/etm4.h"
#include "etm/mtb.h"
#include "etm/ocsd.h"
#include "util/util.h"

#define ETM_IMAGE_MAX_REGIONS 32
#define ETM_PORT_EXC_DEPTH 64

/* The loaded bytes of a program, as OpenCSD's memory wants them (etm/ocsd.h). */
struct etm_image {
	struct etm_region r[ETM_IMAGE_MAX_REGIONS];
	struct etm_ocsd_mem mem; /* regions = r, n: the regions in use */
};

/*
 * Load the ELF at path (isa/elf.h checks it): every loaded segment becomes
 * a region, merged with any other closer than 4 KiB, each with 4 zero bytes
 * past its end (OpenCSD reads a word at every instruction). 0, or -1 with
 * an error (nothing to release then).
 */
int etm_image_load(struct etm_image *im, const char *path) MUST_CHECK;
void etm_image_release(struct etm_image *im);
/* The first 4 bytes at pc as two halfwords; 0, or -1 when pc is outside the image. */
int etm_image_halfwords(const struct etm_image *im, uint32_t pc, uint16_t *hw1,
			uint16_t *hw2) MUST_CHECK;

struct etm_port_cfg {
	int core;	       /* for messages; trace ID 0x10 + core unless trace_id */
	unsigned sync_period;  /* both ETMs' sync period in bytes (etm4_cfg) */
	int v8m;	       /* ARMv8-M (etm4_cfg.v8m) */
	uint8_t trace_id;      /* 0: 0x10 + core */
	unsigned only;	       /* 0: all three; else the ETM_PORT_* to run */
	unsigned cc_threshold; /* the ETMv4's cycle counting (etm4_cfg), 0: off */
	int cycle_accurate;    /* the ETMv3's cycle-accurate mode (etm3_cfg) */
};
#define ETM_PORT_ETM4 1u
#define ETM_PORT_ETM3 2u
#define ETM_PORT_MTB 4u

/* One core's ports (those not run are NULL). */
struct etm_port {
	struct etm4 *e4;
	struct etm3 *e3;
	struct mtb *mtb;
	const struct etm_image *im;
	int core;
	uint64_t insns;			     /* retired instructions fed */
	uint32_t cur_pc;		     /* the PC the core executes next */
	uint32_t exc[ETM_PORT_EXC_DEPTH];    /* preferred return addresses */
	uint32_t excret[ETM_PORT_EXC_DEPTH]; /* EXC_RETURN values */
	int nexc;
};

/*
 * Set up p's encoders with cfg over the image im (which must outlive p);
 * reset_pc: the core's PC at reset. 0, or -1 with an error (bad settings,
 * out of memory; nothing to release then).
 */
int etm_port_init(struct etm_port *p, const struct etm_port_cfg *cfg, const struct etm_image *im,
		  uint32_t reset_pc) MUST_CHECK;
void etm_port_release(struct etm_port *p);

/*
 * One retired instruction at pc, after which the core's PC was next.
 * exc_return: it returned from an exception; tail: ... and tail-chained
 * into exception number tail (its handler is next), LR then holding lr.
 * 0, or -1 with an error naming the core and instruction (pc outside the
 * image, a direct branch that went elsewhere than its encoding says, an
 * exception return with none active, out of memory).
 */
int etm_port_insn(struct etm_port *p, uint32_t pc, uint32_t next, int exc_return, unsigned tail,
		  uint32_t lr) MUST_CHECK;
/* An instruction at pc faulted and did not retire (its exception follows). */
void etm_port_fault(struct etm_port *p, uint32_t pc);
/* An exception entry: IPSR number, the handler (the PC after), LR after the entry. 0 / -1. */
int etm_port_exception(struct etm_port *p, unsigned number, uint32_t handler,
		       uint32_t lr) MUST_CHECK;
/*
 * Cycles the core spent since the last call (a step's, a sleep's), for the
 * ETMv4's cycle counting and the ETMv3's cycle-accurate mode: before the
 * etm_port_insn / etm_port_exception of the step that cost them. Nothing
 * without them.
 */
void etm_port_cycles(struct etm_port *p, uint64_t n);
/* End of trace: write out the ETMs' pending atoms. 0 / -1. */
int etm_port_finish(struct etm_port *p) MUST_CHECK;

/*
 * Write one raw trace to DIR/WHAT-coreC.bin (core >= 0) or DIR/WHAT.bin (a
 * capture of all cores, core < 0): the files etmcheck --raw and raptor stat
 * --ports-raw both write. 0, or -1 with an error naming the file.
 */
int etm_raw_write(const char *dir, const char *what, int core, const uint8_t *data,
		  size_t len) MUST_CHECK;

#endif

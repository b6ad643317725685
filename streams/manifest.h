/*
 * manifest: the recording's description, REC/manifest.ini, read with
 * iniparser (Debian libiniparser) and written by hand in the same syntax.
 *
 * It says everything the debugger needs to decode and replay the streams
 * and nothing it should not know (no register or memory values beyond the
 * reset state, no statistics): the board, the program's hash, the predictor
 * and cache configurations, the encodings and chunk sizes, the stream
 * files and their exact lengths in bits. docs/FORMAT.md "manifest.ini"
 * lists every key; this is the layout (values are examples):
 *
 *   [recording]
 *   format = raptor-recording-1
 *   state = complete            ; or "partial": the recorder did not finish
 *   tool = raptor 0.3
 *   [program]
 *   elf = program.elf           ; file in the recording directory
 *   sha256 = 64 hex digits      ; of that file
 *   model = m3                  ; m3 | m4
 *   [board]
 *   cores = 2
 *   seed = 1
 *   jitter = 8
 *   branch_penalty = 2
 *   miss_penalty = 10
 *   exc_penalty = 12
 *   timing_cache = size=32768,assoc=4,line=32
 *   [cf]
 *   encoding = tre              ; nxb | trb | tre | tra | none (no cf stream)
 *   timed = 1
 *   predictors = gshare=4096,ras=32,ibtb=64,shift=4
 *   shared = 0
 *   cnt = 3,2                   ; chunk sizes c0,c1 (tra, cfiata: the first ones)
 *   ta = 3,4
 *   cc = 4,2
 *   icnt = 2,2
 *   file = cf.bin
 *   bits = 123456               ; exact stream length (the file is padded)
 *   [cf]                        ; a real trace port instead (docs/ETM.md):
 *   encoding = etm4             ; etm4 | etm3 | mtb
 *   file = cf.bin
 *   bits = 8 x its bytes
 *   [port]                      ; only then
 *   framed = 1                  ; CoreSight formatter frames, a trace ID per core
 *   tpiu = 0                    ; 1: as a TPIU sends them (FSYNCs between frames)
 *   sync_period = 4096          ; TRCSYNCPR / ETMSYNCFR, in bytes
 *   v8m = 0                     ; OpenCSD's ETMv4 decoder told ARMv8-M
 *   trace_ids = 0x10,0x11       ; one per core
 *   core_bytes = 1234,567       ; not framed: each core's bytes, one after the other
 *   etm_regs = model            ; or the probe's dump: idr0=0x..,idr1=..,idr2=..,idr8=..,
 *                               ; configr=.. (etm4), idr=..,cr=..,ccer=.. (etm3)
 *   cycle_counting = 1          ; only when the ETMv4s counted cycles, then
 *   cc_threshold = 1            ; with their threshold (1..4095); or the
 *                               ; ETMv3s traced cycle-accurate (no threshold)
 *   [lv]
 *   encoding = cfiat            ; nxlv | cfiat | mc2rt | cfiata | none
 *   timed = 1
 *   cache = size=32768,assoc=4,line=32,granule=4
 *   shared = 0
 *   cnt = 1,2
 *   cc = 4,2
 *   file = lv.bin
 *   bits = 654321
 *   [core0]                     ; one per core: the state at reset
 *   r0 = 0x00000000 ... r12, sp, lr, pc, xpsr, msp, psp, primask, basepri,
 *   faultmask, control
 *   [truth]                     ; only with --truth
 *   file = truth.gz
 *
 * Sections [cf]/[lv] with encoding = none have no other keys. Reading is
 * strict: a missing key, an unknown section or key, a value that does not
 * parse or does not fit (cores 1..8, chunk sizes 1..64, sizes the cache
 * model refuses, a sha256 that is not 64 hex digits) is an error naming the
 * file, the section, the key and the value.
 */
#ifndef RAPTOR_MANIFEST_H
#define RAPTOR_MANIFEST_H

#include <stdint.h>

#include "caches/dc.h"
#include "caches/fa.h"
#include "isa/isa.h"
#include "predictors/bp.h"
#include "streams/cfmsg.h"
#include "streams/lvmsg.h"
#include "util/util.h"

#define ST_MANIFEST_FORMAT "raptor-recording-1"
#define ST_MANIFEST_NAME 64 /* bytes of a file name field, NUL included */

/* A real trace port as the control-flow stream (docs/ETM.md). */
enum st_port { ST_PORT_NONE, ST_PORT_ETM4, ST_PORT_ETM3, ST_PORT_MTB };
struct st_port_cfg {
	enum st_port kind;
	int framed;	      /* one capture of CoreSight formatter frames */
	int tpiu;	      /* ... as a TPIU sends them: FSYNCs between frames */
	/*
	 * raptor record --port-tpiu=hsync alone, not in the manifest: the TPIU
	 * fills the port's idle spells with HSYNCs (readers take them in any
	 * TPIU capture)
	 */
	int hsync;
	unsigned sync_period; /* bytes, a power of 2, 256..2^20 */
	int v8m;
	uint8_t trace_id[ST_CF_MAX_CORES];
	uint64_t bytes[ST_CF_MAX_CORES]; /* not framed: each core's part of the file */
	/*
	 * have_regs: the trace units' ID and configuration registers as a
	 * probe dumped them (raptor import), given to OpenCSD instead of the
	 * modelled ones (docs/ETM.md): ETMv4 TRCIDR0, TRCIDR1, TRCIDR2,
	 * TRCIDR8, TRCCONFIGR; ETMv3 ETMIDR, ETMCR, ETMCCER (regs[0..2])
	 */
	int have_regs;
	uint32_t regs[5];
	/*
	 * ETMv4 cycle counting (docs/ETM.md): on with the threshold
	 * cc_threshold (1..4095); the keys cycle_counting and cc_threshold are
	 * in [port] only when it is on. ETMv3: cycle-accurate mode (ETMCR bit
	 * 12), cycle_counting alone, cc_threshold 0
	 */
	int cycle_counting;
	unsigned cc_threshold;
};
/* "etm4", "etm3", "mtb" */
const char *st_port_name(enum st_port p);
/* 0 with *p, or -1 (no message) */
int st_port_parse(const char *s, enum st_port *p) MUST_CHECK;

/*
 * "0x10,0x11,..." (comma-separated, decimal or 0x hex, each 0x01..0x6f, no
 * ID twice, at most max) into ids[], their count into *n. 0, or -1 with an
 * error quoting the bad item.
 */
int st_port_parse_ids(const char *s, uint8_t *ids, int max, int *n) MUST_CHECK;
/* The names of kind's dumpable registers (n of them: 5 for ETMv4, 3 for ETMv3, 0 for the MTB). */
const char *const *st_port_reg_names(enum st_port kind, int *n);

struct st_manifest {
	int complete;			/* state = complete (1) / partial (0) */
	char tool[ST_MANIFEST_NAME];
	/* [program] */
	char elf[ST_MANIFEST_NAME];
	char sha256[65];
	enum isa_model model;
	/* [board] */
	int ncores;
	uint64_t seed;
	unsigned jitter, branch_penalty, miss_penalty, exc_penalty;
	struct dc_config timing_cache;
	/* [cf] */
	int cf_on;
	struct st_cf_format cf;		/* cf.ncores = ncores */
	struct bp_config bp;
	int bp_shared;
	char cf_file[ST_MANIFEST_NAME];
	uint64_t cf_bits;
	struct st_port_cfg port; /* kind != NONE: the cf stream is that port's trace */
	/* [lv] */
	int lv_on;
	struct st_lv_format lv;		/* lv.ncores = ncores */
	struct dc_fa_config cache;	/* ncores, shared filled in too */
	char lv_file[ST_MANIFEST_NAME];
	uint64_t lv_bits;
	/* [coreN] */
	uint32_t regs[ST_CF_MAX_CORES][ISA_NREGS];
	/* [truth] */
	int has_truth;
	char truth_file[ST_MANIFEST_NAME];
};

/* Zero everything, then the defaults of `raptor record`. */
void st_manifest_init(struct st_manifest *m);

/*
 * Write m to path atomically (path.tmp, fsync, rename), so a reader sees
 * the old or the new manifest, never half of one. 0, or -1 with an error
 * naming path.
 */
int st_manifest_write(const struct st_manifest *m, const char *path) MUST_CHECK;

/* Read and check path into *m: 0, or -1 with an error (see the top). */
int st_manifest_read(const char *path, struct st_manifest *m) MUST_CHECK;

/*
 * The configuration of a capture for `raptor import` (docs/FORMAT.md
 * "Import configuration"), an INI file read with the manifest's reader:
 *
 *   [trace]
 *   format = etm4        ; etm4 | etm3 | mtb
 *   cores = 2            ; 1..8
 *   framed = 1           ; 0: raw streams, one per core, one after the other
 *   tpiu = 0             ; optional: 1, the frames as a TPIU sends them
 *   trace_ids = 0x10,0x11
 *   sync_period = 4096   ; optional (default 4096)
 *   arch = v7m           ; optional: v7m | v8m (default from the core model)
 *   cpu = m3             ; optional: the core model (default from the ELF)
 *   core_bytes = 10,20   ; raw streams of several cores: each core's bytes
 *   trcidr0, trcidr1, trcidr2, trcidr8, trcconfigr   ; optional (etm4): the
 *   etmidr, etmcr, etmccer                           ; probe's dump (etm3)
 *   cycle_counting = 1   ; optional: the units counted cycles (etm4) or
 *                        ; traced cycle-accurate (etm3)
 *   cc_threshold = 1     ; optional, etm4 with cycle_counting = 1: their threshold
 *
 * Strict: an unknown section or key, a missing one, a bad value is an
 * error naming the file, the key and the value.
 */
struct st_import_cfg {
	struct st_port_cfg port; /* kind, framed, tpiu, sync_period, trace_id, bytes, regs */
	int ncores;
	int arch;     /* -1: not given; 0 v7m, 1 v8m */
	char cpu[16]; /* "": not given */
	int have_bytes;
	/* bit i: port.regs[i] was given (st_port_reg_names order); the caller fills the rest */
	unsigned regs_given;
};
int st_import_cfg_read(const char *path, struct st_import_cfg *out) MUST_CHECK;

#endif

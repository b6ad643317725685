/*
 * truth: the ground truth of a recording, REC/truth.gz (`raptor record
 * --truth`). Only verification (`raptor replay --verify`) and baselines read
 * it; the debugger never does.
 *
 * A gzip file (members of up to 1 MiB of records, libdeflate; zlib reads
 * them as one stream) holding, after an 8-byte magic "RPTRUTH1" and one byte
 * ncores, a sequence of records in global order (the order the board
 * executed them). Integers are little endian. Every record starts with a
 * type byte and the core:
 *
 *   'R' core u8 | regs u32 x ISA_NREGS          a core's state at reset
 *   'A' core u8 | kind u8 | size u8 | store u8 | addr u32 | value u32
 *        one data access (kind = enum isa_access; value in the low size
 *        bytes), listed before the record of the step that made it
 *   'I' core u8 | flags u8 | pc u32 | dcycle u32 | mask u32 | values u32 x popcount(mask)
 *        one instruction: flags bit 0 = it faulted (did not retire), bit 1
 *        = exception return, bit 2 = tail-chained; dcycle = the core's
 *        cycles spent since its previous 'I'/'X' record; mask bit r =
 *        register r (enum isa_reg) changed, its new value follows (in
 *        increasing r). The state is the one AFTER the instruction.
 *   'X' core u8 | exc u16 | dcycle u32 | mask u32 | values ...
 *        an exception entry (not tail-chained: those are in the 'I' flags),
 *        with the state after it
 *   'F' core u8 | mask u64 | values u32 x popcount(mask)
 *        the FP registers of a core with an FPU (s0..s31 then FPSCR, as
 *        isa_cpu_get_fp gives them: mask bit i = register i, 0..32, changed,
 *        its new value follows in increasing i), right before that core's
 *        'R', 'I' or 'X' record whose step changed them: the state is the one
 *        after that step. The core's first 'F' comes before its 'R' and holds
 *        all 33; a core without an FPU has none (so an integer recording's
 *        truth is what it was before 'F' records existed).
 *   'E' core u8 | status u32                   the program exited (last record)
 *
 * The writer keeps each core's previous registers to build the masks; the
 * reader keeps them to give whole states back.
 */
#ifndef RAPTOR_TRUTH_H
#define RAPTOR_TRUTH_H

#include <stdint.h>

#include "isa/isa.h"
#include "util/util.h"

#define ST_TRUTH_MAGIC "RPTRUTH1"
#define ST_TRUTH_MAX_CORES 8

enum st_truth_type {
	ST_TRUTH_RESET = 'R',
	ST_TRUTH_ACCESS = 'A',
	ST_TRUTH_INSN = 'I',
	ST_TRUTH_EXC = 'X',
	ST_TRUTH_EXIT = 'E',
	ST_TRUTH_FP = 'F', /* folded into the next record by the reader, never returned */
};

#define ST_TRUTH_FAULTED 1u
#define ST_TRUTH_EXC_RETURN 2u
#define ST_TRUTH_TAIL 4u

struct st_truth_rec {
	enum st_truth_type type;
	int core;
	/* RESET, INSN, EXC: the whole state of core after the record */
	uint32_t regs[ISA_NREGS];
	uint32_t changed; /* INSN, EXC: the mask as stored; RESET: all ones */
	/*
	 * RESET, INSN, EXC: has_fp: the core has FP state in the truth (its
	 * 'F' records), then fp is the whole of it after the record (s0..s31,
	 * FPSCR, isa_cpu_get_fp's order) and fp_changed the mask of the 'F'
	 * record right before it (0: none, nothing changed). All 0 otherwise.
	 */
	int has_fp;
	uint32_t fp[ISA_NFPREGS];
	uint64_t fp_changed;
	/* INSN */
	uint32_t pc;
	unsigned flags;
	/* INSN, EXC */
	uint64_t cycle; /* the core's absolute cycle (sum of dcycle) */
	unsigned exc;
	/* ACCESS */
	enum isa_access kind;
	unsigned size, store;
	uint32_t addr, value;
	/* EXIT */
	uint32_t status;
};

struct st_truth_writer;

/* Create path (gzip level 1) for ncores cores: NULL with an error naming path. */
struct st_truth_writer *st_truth_create(const char *path, int ncores);
/* Append records; errors are kept and reported by st_truth_close. */
void st_truth_reset(struct st_truth_writer *w, int core, const uint32_t regs[ISA_NREGS]);
void st_truth_access(struct st_truth_writer *w, int core, enum isa_access kind, unsigned size,
		     int store, uint32_t addr, uint32_t value);
void st_truth_insn(struct st_truth_writer *w, int core, unsigned flags, uint32_t pc,
		   uint64_t cycle, const uint32_t regs[ISA_NREGS]);
void st_truth_exc(struct st_truth_writer *w, int core, unsigned exc, uint64_t cycle,
		  const uint32_t regs[ISA_NREGS]);
void st_truth_exit(struct st_truth_writer *w, int core, uint32_t status);
/*
 * The FP registers v (s0..s31, FPSCR: isa_cpu_get_fp's order) of a core
 * with an FPU, called right before each st_truth_reset, st_truth_insn and
 * st_truth_exc of that core: an 'F' record of those that changed since the
 * core's previous call, nothing if none did; the first call (all 33) must
 * come before the core's reset. Never called for a core without an FPU.
 */
void st_truth_fp(struct st_truth_writer *w, int core, const uint32_t v[ISA_NFPREGS]);
/* Flush what is buffered so far to the file (a crash keeps a readable prefix). 0 / -1. */
int st_truth_flush(struct st_truth_writer *w) MUST_CHECK;
/* Finish and free: 0, or -1 with the first write error (naming the file). */
int st_truth_close(struct st_truth_writer *w) MUST_CHECK;

struct st_truth_reader;

/* Open path: NULL with an error (unreadable, not gzip, bad magic, ncores 0 or > 8). */
struct st_truth_reader *st_truth_open(const char *path);
int st_truth_ncores(const struct st_truth_reader *r);
/*
 * Next record into *rec: 1, 0 at the end of the file, -1 with an error
 * naming the file and the record's byte offset in the uncompressed data
 * (truncated record, unknown type, core out of range, an INSN/EXC before
 * the core's RESET, a register mask with bits past the last register, an
 * 'F' record not followed by its core's RESET/INSN/EXC, or a core's first
 * 'F' after its RESET or without every FP register). 'F' records are
 * folded into the record that follows them, never returned.
 */
int st_truth_next(struct st_truth_reader *r, struct st_truth_rec *rec) MUST_CHECK;
/* Records returned so far ('F' records not counted). */
uint64_t st_truth_count(const struct st_truth_reader *r);
void st_truth_close_reader(struct st_truth_reader *r);

#endif

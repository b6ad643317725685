/*
 * cfmsg: the control-flow trace messages, encode and decode side by side
 * (mcfTRaptor paper Table 3 and Fig. 7; DESIGN.md section 3;
 * docs/FORMAT.md "Control-flow stream" has the same diagrams).
 *
 * One stream carries the messages of all cores in the order the trace
 * port emitted them; Ti names the core. Three encodings share one message
 * layout and differ in what triggers a message and in chunk sizes:
 *
 *   NX_b  Nexus-like: a message per taken conditional branch, per taken
 *         indirect branch, per exception. "count" is SL, the instructions
 *         retired since the core's previous message, the branch included.
 *   TR_b  mcfTRaptor, fixed chunks: a message per predictor miss or
 *         exception. "count" is bCnt, branches counted since the previous
 *         message, the mispredicted one included (so >= 1).
 *   TR_e  as TR_b with variable chunk sizes.
 *   TR_a  as TR_e with chunk sizes that adapt at run time (adapt.h): the
 *         fields' (c0,c1) follow the values already sent, the same in the
 *         decoder. fmt.enc is ST_CF_TRE with fmt.adapt = 1; the chunk
 *         sizes of the format are the starting ones. Each field adapts
 *         over the whole stream, all cores' values together (per-core
 *         histograms measured worse: docs/FORMAT.md).
 *
 * Field order of every message (fields in brackets only when present):
 *
 *   +--------+----+-------+-- count > 0: branch -------------------------+
 *   |[diffCC]| Ti | count | [T] [diffTA]                                  |
 *   +--------+----+-------+-----------------------------------------------+
 *   +--------+----+-------+------+-----+---+  count = 0: exception / end
 *   |[diffCC]| Ti |   0   | iCnt |  E  | X |
 *   +--------+----+-------+------+-----+---+
 *
 *   diffCC  timed form only: cycles since this core's previous message in
 *           this stream (first message: since cycle 0); chunks cc.
 *   Ti      core index, ceil(log2 ncores) bits (none for 1 core).
 *   count   SL (NX_b) or bCnt (TR_*), chunks cnt.
 *   T       TR_* only, only for a CONDITIONAL indirect branch (in an IT
 *           block): 1 taken, 0 not taken.
 *   diffTA  target address minus this core's previous message target
 *           (PTA, initially 0), sign bit then |diffTA| in chunks ta;
 *           present for an indirect branch that was taken (NX_b: every
 *           indirect branch message; TR_*: target misses, and for a
 *           conditional indirect one only when T = 1). PTA := TA after.
 *   iCnt    instructions retired by this core since its previous message;
 *           chunks icnt.
 *   E       9 bits: the exception number taken (ARMv7-M IPSR value, 1..511);
 *           0 marks the END of this core's trace (iCnt then counts the
 *           instructions after its last message).
 *   X       1 bit: 1 = the exception was tail-chained from the exception
 *           return that was the last of the iCnt instructions; 0 = taken
 *           between two instructions. 0 in the end message.
 *
 * Whether a branch message has [T] and [diffTA] is not in the message: it
 * depends on the kind of branch the count lands on, which only the replay
 * knows. So decoding is two calls: st_cf_get_head, then (for count > 0 and
 * an indirect branch) st_cf_get_target.
 */
#ifndef RAPTOR_CFMSG_H
#define RAPTOR_CFMSG_H

#include <stdint.h>
#include <stdio.h>

#include "streams/adapt.h"
#include "streams/bitio.h"
#include "streams/vlc.h"
#include "util/util.h"

#define ST_CF_MAX_CORES 8
#define ST_CF_EXC_BITS 9
#define ST_CF_END 0 /* E value of the end-of-trace message */

/*
 * The encodings. ST_CF_TRA names TR_a, which is TR_e's messages with
 * adaptive chunks: in a struct st_cf_format it appears as enc = ST_CF_TRE,
 * adapt = 1 (everything that depends on the messages, the replay included,
 * sees TR_e); st_cf_format_enc gives the name back.
 */
enum st_cf_enc {
	ST_CF_NXB,
	ST_CF_TRB,
	ST_CF_TRE,
	ST_CF_TRA,
};

struct st_cf_format {
	enum st_cf_enc enc; /* NX_b, TR_b or TR_e: the messages */
	int ncores;	    /* 1..ST_CF_MAX_CORES */
	int timed;	    /* diffCC present */
	int adapt;	    /* TR_a: chunk sizes adapt (enc = ST_CF_TRE only) */
	struct st_vlc cnt, ta, cc, icnt; /* TR_a: the starting sizes */
};

/*
 * The papers' chunk sizes: NX_b and TR_b: cnt 8/8, ta 16/16, cc 8/8,
 * icnt 8/8; TR_e: cnt (3,2), ta (3,4), cc (4,2), icnt (2,2); TR_a starts
 * from TR_e's. enc may be ST_CF_TRA (the format then says TR_e, adapt 1).
 */
void st_cf_format_init(struct st_cf_format *f, enum st_cf_enc enc, int ncores, int timed);
/* 0, or -1 with an error naming the bad field. */
int st_cf_format_check(const struct st_cf_format *f) MUST_CHECK;
/* The encoding f is: its enc, or ST_CF_TRA for TR_e with adapt. */
enum st_cf_enc st_cf_format_enc(const struct st_cf_format *f);
/* Make f encoding enc (ST_CF_TRA: TR_e, adapt 1), its chunk sizes untouched. */
void st_cf_format_set_enc(struct st_cf_format *f, enum st_cf_enc enc);

/* "nxb", "trb", "tre", "tra" (also accepted by st_cf_enc_parse, case-insensitive). */
const char *st_cf_enc_name(enum st_cf_enc enc);
int st_cf_enc_parse(const char *s, enum st_cf_enc *enc) MUST_CHECK;
/* Bits of the Ti field: ceil(log2 ncores), 0 for one core. */
unsigned st_ti_bits(int ncores);

/* What a message says. */
struct st_cf_msg {
	int core;
	uint64_t cycle;	 /* absolute cycle of core (timed form; encoder input, decoder output) */
	uint64_t count;	 /* SL / bCnt; 0: exception or end */
	/* count > 0 */
	int indirect;	 /* encoder input: the branch is indirect (has [T] [diffTA]) */
	int cond;	 /* encoder input: ... and conditional (TR_*: has T) */
	int taken;	 /* T (1 for an unconditional indirect branch) */
	uint32_t ta;	 /* target address, if indirect and taken */
	/* count = 0 */
	uint64_t icnt;
	unsigned exc;	 /* 0 = end of trace */
	int tail;
};

/* Bits spent per field, and messages by kind, summed over the stream. */
struct st_cf_fields {
	uint64_t cc, ti, cnt, tnt, ta, icnt, exc; /* exc counts E and X */
	uint64_t msgs, branch_msgs, target_msgs, exc_msgs, end_msgs;
};
uint64_t st_cf_fields_total(const struct st_cf_fields *f);

/* TR_a's state, the same in encoder and decoder: one per field and stream. */
struct st_cf_adapt {
	struct st_adapt cc, cnt, ta, icnt;
};

struct st_cf_encoder {
	struct st_cf_format fmt;
	struct st_writer w;
	uint32_t pta[ST_CF_MAX_CORES];
	uint64_t pcc[ST_CF_MAX_CORES];
	struct st_cf_fields fields;
	struct st_cf_adapt ad; /* TR_a only */
};

/* fmt must pass st_cf_format_check. */
void st_cf_encoder_init(struct st_cf_encoder *e, const struct st_cf_format *fmt);
void st_cf_encoder_release(struct st_cf_encoder *e);
/*
 * Append one message. For count > 0, indirect/cond/taken/ta say which
 * optional fields follow; for count = 0, icnt/exc/tail. cycle must not go
 * back for a core (timed form). Never fails: bad input is a caller bug (BUG).
 */
void st_cf_put(struct st_cf_encoder *e, const struct st_cf_msg *m);

struct st_cf_decoder {
	struct st_cf_format fmt;
	struct st_reader r;
	uint32_t pta[ST_CF_MAX_CORES];
	uint64_t pcc[ST_CF_MAX_CORES];
	struct st_cf_fields fields;
	struct st_cf_adapt ad; /* TR_a only */
};

/* Decode nbits bits of buf (not copied); name is for messages (a file name). */
void st_cf_decoder_init(struct st_cf_decoder *d, const struct st_cf_format *fmt,
			const void *buf, uint64_t nbits, const char *name);

/*
 * Read the next message's head into *m: core, cycle (timed form: the
 * core's previous cycle + diffCC; otherwise 0), count, and for count = 0
 * icnt, exc, tail. Returns 0; 1 at the clean end of the stream (no bits
 * left); -1 with an error naming the stream, the field and the bit offset
 * where the message starts (truncated, Ti >= ncores, a value too large).
 * On -1 the reader stays at the message start.
 */
int st_cf_get_head(struct st_cf_decoder *d, struct st_cf_msg *m) MUST_CHECK;

/*
 * Read the rest of a branch message (count > 0) whose branch the replay
 * found to be indirect: T if cond (TR_* only; NX_b messages are only for
 * taken branches, so m->taken = 1 there), then diffTA if taken. Fills
 * m->taken and m->ta, updates PTA. 0, or -1 as above.
 */
int st_cf_get_target(struct st_cf_decoder *d, struct st_cf_msg *m, int cond) MUST_CHECK;

static inline uint64_t st_cf_decoder_pos(const struct st_cf_decoder *d)
{
	return st_reader_pos(&d->r);
}

#endif

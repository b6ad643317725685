/*
 * lvmsg: the load-value trace messages, encode and decode side by side
 * (CFAT paper Fig. 3-6, mc2RT Fig. 8; DESIGN.md section 4; the same
 * diagrams are in docs/FORMAT.md "Load-value stream").
 *
 * One stream carries the messages of all cores in emission order; Ti
 * names the core.
 *
 *   NX-LV   every load:                   | [dCC] | Ti |       | value |
 *   CFiat   a load the FA flags miss:     | [dCC] | Ti | fahCnt| value |
 *   mc2RT   a line the trace bit misses:  | [dCC] | Ti | THCnt | value |
 *
 *   dCC     timed form only: cycles since this core's previous message in
 *           this stream (first: since cycle 0); chunks cc.
 *   Ti      core index, ceil(log2 ncores) bits (none for 1 core).
 *   fahCnt / THCnt
 *           loads (CFiat) or line reads (mc2RT) of this core that hit since
 *           its previous message; chunks cnt. Absent in NX-LV.
 *   value   the bytes in address order, each byte 8 bits LSB first. How
 *           many is NOT in the message: the replay knows the access
 *           (NX-LV: the access size; CFiat: the covered granules; mc2RT:
 *           the line; an uncached load: the access size in every encoding).
 *
 * So decoding is two calls: st_lv_get_head, then st_lv_get_value.
 *
 * CFiat_a is CFiat with chunk sizes that adapt at run time (adapt.h), the
 * same in the decoder, each field over the whole stream (all cores'
 * values together). In a struct st_lv_format it is enc = ST_LV_CFIAT with adapt = 1,
 * so everything that depends on the messages (the replay's filter) sees
 * CFiat; st_lv_format_enc gives ST_LV_CFIATA back.
 */
#ifndef RAPTOR_LVMSG_H
#define RAPTOR_LVMSG_H

#include <stdint.h>

#include "streams/adapt.h"
#include "streams/bitio.h"
#include "streams/vlc.h"
#include "util/util.h"

#define ST_LV_MAX_CORES 8
#define ST_LV_MAX_VALUE 256 /* bytes: the largest line */

enum st_lv_enc {
	ST_LV_NXLV,
	ST_LV_CFIAT,
	ST_LV_MC2RT,
	ST_LV_CFIATA, /* in a format: ST_LV_CFIAT with adapt = 1 */
};

struct st_lv_format {
	enum st_lv_enc enc; /* NX-LV, CFiat or mc2RT: the messages */
	int ncores;
	int timed;
	int adapt;	      /* CFiat_a: chunk sizes adapt (enc = ST_LV_CFIAT only) */
	struct st_vlc cnt, cc; /* CFiat_a: the starting sizes */
};

/*
 * The papers' chunk sizes: NX-LV cc 8/8 (no cnt); CFiat cnt (1,2), cc (4,2);
 * mc2RT cnt 8/8, cc 8/8; CFiat_a starts from CFiat's. enc may be
 * ST_LV_CFIATA (the format then says CFiat, adapt 1).
 */
void st_lv_format_init(struct st_lv_format *f, enum st_lv_enc enc, int ncores, int timed);
int st_lv_format_check(const struct st_lv_format *f) MUST_CHECK;
/* The encoding f is: its enc, or ST_LV_CFIATA for CFiat with adapt. */
enum st_lv_enc st_lv_format_enc(const struct st_lv_format *f);
/* Make f encoding enc (ST_LV_CFIATA: CFiat, adapt 1), its chunk sizes untouched. */
void st_lv_format_set_enc(struct st_lv_format *f, enum st_lv_enc enc);

/* "nxlv", "cfiat", "mc2rt", "cfiata" (parse is case-insensitive). */
const char *st_lv_enc_name(enum st_lv_enc enc);
int st_lv_enc_parse(const char *s, enum st_lv_enc *enc) MUST_CHECK;

struct st_lv_msg {
	int core;
	uint64_t cycle; /* absolute cycle (timed form) */
	uint64_t count; /* fahCnt / THCnt; 0 in NX-LV */
};

struct st_lv_fields {
	uint64_t cc, ti, cnt, value;
	uint64_t msgs;
};
uint64_t st_lv_fields_total(const struct st_lv_fields *f);

/* CFiat_a's state, the same in encoder and decoder: one per field and stream. */
struct st_lv_adapt {
	struct st_adapt cc, cnt;
};

struct st_lv_encoder {
	struct st_lv_format fmt;
	struct st_writer w;
	uint64_t pcc[ST_LV_MAX_CORES];
	struct st_lv_fields fields;
	struct st_lv_adapt ad; /* CFiat_a only */
};

void st_lv_encoder_init(struct st_lv_encoder *e, const struct st_lv_format *fmt);
void st_lv_encoder_release(struct st_lv_encoder *e);
/* Append one message with n value bytes (n <= ST_LV_MAX_VALUE). */
void st_lv_put(struct st_lv_encoder *e, const struct st_lv_msg *m, const uint8_t *value,
	       unsigned n);

struct st_lv_decoder {
	struct st_lv_format fmt;
	struct st_reader r;
	uint64_t pcc[ST_LV_MAX_CORES];
	struct st_lv_fields fields;
	struct st_lv_adapt ad; /* CFiat_a only */
};

void st_lv_decoder_init(struct st_lv_decoder *d, const struct st_lv_format *fmt,
			const void *buf, uint64_t nbits, const char *name);
/* Next head: 0; 1 at the clean end of the stream; -1 (error names stream, field, bit offset). */
int st_lv_get_head(struct st_lv_decoder *d, struct st_lv_msg *m) MUST_CHECK;
/* The n value bytes of the message whose head was just read: 0 / -1. */
int st_lv_get_value(struct st_lv_decoder *d, uint8_t *value, unsigned n) MUST_CHECK;

static inline uint64_t st_lv_decoder_pos(const struct st_lv_decoder *d)
{
	return st_reader_pos(&d->r);
}

#endif

/*
 * ocsd: OpenCSD's ETMv4 and ETMv3 decoders over one raw stream, or several
 * ETMv4 streams in CoreSight formatter frames. OpenCSD
 * walks the program image from each address it learns, instruction by
 * instruction, to the next waypoint (its own Thumb decoder decides which
 * instructions are), and reports ranges [st_addr, en_addr) of executed
 * instructions; we expand each range back into instruction addresses with
 * the sizes the image gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "etm/ocsd.h"

struct dec {
	const struct etm_ocsd_mem *mem;
	etm_ocsd_fn fn;
	unsigned flags;		 /* ETM_OCSD_MARKS, ETM_OCSD_CYCLES */
	uint8_t lost[128];	 /* MARKS: the source lost sync and has not delivered since */
	uint8_t traced[128];	 /* MARKS: the source delivered an instruction */
	void *ctx[128];	     /* fn's context per trace ID; NULL: no such source */
	uint64_t elems[128]; /* elements per trace ID */
	uint64_t cc_pend[128]; /* ETMv3: W atoms of P-headers with no atom, for the next one */
	int v3;		       /* ETMv3 sources */
	/*
	 * ETMv3: the source is cycle accurate (ETMCR bit 12 in what OpenCSD
	 * was given); owed: it is, and a non-periodic I-sync at byte owed_at
	 * came with no cycle count, which a Cycle count packet must give
	 * before the next one (packet_mon)
	 */
	uint8_t ca[128], owed[128];
	uint64_t owed_at[128];
	struct mon {
		struct dec *d;
		uint8_t id;
	} mon[128];
	int failed;	     /* fn stopped us, or an element we cannot accept */
	char msg[256];	     /* OpenCSD's last logged message */
};

/* The element being delivered (etm_ocsd_where): one decode at a time. */
static struct etm_ocsd_where where;

void etm_ocsd_where(struct etm_ocsd_where *w)
{
	*w = where;
}

static uint32_t mem_read(const void *p, const ocsd_vaddr_t addr, const ocsd_mem_space_acc_t space,
			 const uint32_t req, uint8_t *buf)
{
	const struct etm_region *r = addr >> 32 ? NULL : etm_ocsd_region(p, (uint32_t)addr, 1);
	uint32_t off, n;

	if (!r)
		return 0;
	off = (uint32_t)addr - r->base;
	n = r->size - off < req ? r->size - off : req;
	memcpy(buf, r->data + off, n);
	return n;
}

static void log_cb(const void *p, const char *s, const int len)
{
	struct dec *d = (struct dec *)p;

	snprintf(d->msg, sizeof(d->msg), "%.*s", len > 0 && s[len - 1] == '\n' ? len - 1 : len, s);
}

static int range(struct dec *d, unsigned id, const ocsd_generic_trace_elem *el)
{
	uint32_t pc = el->st_addr, n = 0;

	while (pc < el->en_addr) {
		const struct etm_region *r = etm_ocsd_region(d->mem, pc, 2);
		uint16_t hw1;

		if (!r)
			return error("etm ocsd: trace ID 0x%x: range 0x%08llx..0x%08llx leaves the "
				     "image at 0x%08x",
				     id, (unsigned long long)el->st_addr,
				     (unsigned long long)el->en_addr, pc);
		hw1 = r->data[pc - r->base] | r->data[pc - r->base + 1] << 8;
		where.last = pc + etm_thumb_size(hw1) >= el->en_addr;
		where.last_taken = where.last && el->last_instr_exec;
		if (d->fn(d->ctx[id], pc))
			return -1;
		pc += etm_thumb_size(hw1);
		n++;
	}
	if (pc != el->en_addr || n != el->num_instr_range)
		return error("etm ocsd: trace ID 0x%x: range 0x%08llx..0x%08llx holds %u "
			     "instructions, OpenCSD says %u",
			     id, (unsigned long long)el->st_addr, (unsigned long long)el->en_addr,
			     n, el->num_instr_range);
	return 0;
}

/*
 * OpenCSD's ETMv3 packets, as its packet processor reads them: the cycle
 * information a cycle-accurate unit writes, and no other does (IHI 0014,
 * "Cycle count packet": a count for every non-periodic I-sync), tells a
 * capture read in the wrong mode, before its misread P-headers make a
 * path. Not cycle accurate: an I-sync with cycle count or a Cycle count
 * packet is refused. Cycle accurate: a non-periodic I-sync without a count
 * owes a Cycle count packet before the next non-periodic I-sync (unless
 * that one restarts after an overflow) or the end of the trace.
 */
static void packet_mon(const void *p, const ocsd_datapath_op_t op, const ocsd_trc_index_t idx,
		       const void *pkt_in, const uint32_t size, const uint8_t *data)
{
	const struct mon *m = p;
	struct dec *d = m->d;
	const ocsd_etmv3_pkt *pkt = pkt_in;
	unsigned id = m->id;

	if (op != OCSD_OP_DATA || d->failed)
		return;
	switch (pkt->type) {
	case ETM3_PKT_I_SYNC_CYCLE:
	case ETM3_PKT_CYCLE_COUNT:
		if (!d->ca[id]) {
			error("etm ocsd: trace ID 0x%x: byte %llu: %s, which an ETMv3 writes in "
			      "cycle-accurate mode alone, and the unit is said not to be (ETMCR "
			      "bit 12 clear: cycle_counting = 1 missing?)",
			      id, (unsigned long long)idx,
			      pkt->type == ETM3_PKT_CYCLE_COUNT ? "a Cycle count packet"
								: "an I-sync with cycle count");
			d->failed = 1;
			return;
		}
		d->owed[id] = 0;
		break;
	case ETM3_PKT_I_SYNC:
		if (!d->ca[id] || pkt->isync_info.reason == iSync_Periodic)
			break;
		if (d->owed[id] && pkt->isync_info.reason != iSync_TraceRestartAfterOverflow) {
			error("etm ocsd: trace ID 0x%x: the I-sync at byte %llu has no cycle count "
			      "and no Cycle count packet came before the next at byte %llu, which a "
			      "cycle-accurate ETMv3 must give: was the unit cycle accurate "
			      "(cycle_counting = 1, ETMCR bit 12)?",
			      id, (unsigned long long)d->owed_at[id], (unsigned long long)idx);
			d->owed[id] = 0; /* said */
			d->failed = 1;
			return;
		}
		d->owed[id] = 1;
		d->owed_at[id] = idx;
		break;
	default: break;
	}
}

/* Why a decode may have failed, for its message: a cycle count owed (packet_mon), or "". */
static const char *owed_hint(const struct dec *d, char *buf, size_t n)
{
	for (int id = 0; id < 128; id++)
		if (d->owed[id]) {
			snprintf(buf, n,
				 "; trace ID 0x%x's I-sync at byte %llu had no cycle count, and no "
				 "Cycle count packet came after it, which a cycle-accurate ETMv3 "
				 "gives: was the unit really cycle accurate (cycle_counting = 1)?",
				 id, (unsigned long long)d->owed_at[id]);
			return buf;
		}
	return "";
}

static ocsd_datapath_resp_t elem_cb(const void *p, const ocsd_trc_index_t idx, const uint8_t id,
				    const ocsd_generic_trace_elem *el)
{
	struct dec *d = (struct dec *)p;
	int bad = 0;

	if (d->failed)
		return OCSD_RESP_FATAL_INVALID_DATA;

	if (id >= 128 || !d->ctx[id]) {
		error("etm ocsd: an element for trace ID 0x%x, which no source has, at byte %llu",
		      id, (unsigned long long)idx);
		d->failed = 1;
		return OCSD_RESP_FATAL_INVALID_DATA;
	}
	d->elems[id]++;
	where = (struct etm_ocsd_where){.index = idx, .trace_id = id};
	switch (el->elem_type) {
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
		if ((d->flags & ETM_OCSD_MARKS) && d->lost[id] && d->traced[id] &&
		    d->fn(d->ctx[id], ETM_OCSD_GAP)) {
			bad = -1;
			break;
		}
		d->lost[id] = 0;
		d->traced[id] = 1;
		bad = range(d, id, el);
		if (!bad && el->has_cc && (d->flags & ETM_OCSD_CYCLES)) {
			bad = d->fn(d->ctx[id], ETM_OCSD_CC | (el->cycle_count + d->cc_pend[id]));
			d->cc_pend[id] = 0;
		}
		break;
	case OCSD_GEN_TRC_ELEM_CYCLE_COUNT:
		/*
		 * ETMv4: the cycles up to the P0 element before. ETMv3: W atoms
		 * alone (a format 3 P-header with no E), the cycles before the
		 * next atom, whose range carries the rest of them
		 */
		if (d->v3)
			d->cc_pend[id] += el->cycle_count;
		else if (d->flags & ETM_OCSD_CYCLES)
			bad = d->fn(d->ctx[id], ETM_OCSD_CC | el->cycle_count);
		break;
	case OCSD_GEN_TRC_ELEM_EXCEPTION:
		if (el->excep_ret_addr) {
			where.ret_valid = 1;
			where.ret = (uint32_t)el->en_addr;
			where.ret_br_tgt = el->excep_ret_addr_br_tgt;
		}
		if ((d->flags & ETM_OCSD_MARKS) && d->lost[id] && d->traced[id]) {
			/* an exception right after the resync: the gap comes first */
			if (d->fn(d->ctx[id], ETM_OCSD_GAP)) {
				bad = -1;
				break;
			}
			d->lost[id] = 0;
		}
		bad = d->fn(d->ctx[id], ETM_OCSD_EXC | el->exception_number);
		break;
	case OCSD_GEN_TRC_ELEM_EXCEPTION_RET:
		if ((d->flags & ETM_OCSD_MARKS) && !d->lost[id])
			bad = d->fn(d->ctx[id], ETM_OCSD_RET);
		break;
	case OCSD_GEN_TRC_ELEM_NO_SYNC:
	case OCSD_GEN_TRC_ELEM_TRACE_ON:
		/*
		 * NO_SYNC is the first element of every source's decode; later, a
		 * loss of sync. TRACE_ON follows every (re)synchronisation: trace
		 * enabled, or restarted after an overflow or a discontinuity.
		 */
		if (d->flags & ETM_OCSD_MARKS) {
			if (d->traced[id])
				d->lost[id] = 1;
		} else if (el->elem_type == OCSD_GEN_TRC_ELEM_NO_SYNC && d->elems[id] > 1) {
			bad = error("etm ocsd: trace ID 0x%x: sync lost at byte %llu", id,
				    (unsigned long long)idx);
		}
		break;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
	case OCSD_GEN_TRC_ELEM_ADDR_UNKNOWN:
	case OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH:
		bad = error(
		    "etm ocsd: trace ID 0x%x: element type %d at byte %llu (address 0x%08llx): "
		    "the program image does not explain the trace",
		    id, (int)el->elem_type, (unsigned long long)idx,
		    (unsigned long long)el->st_addr);
		break;
	default: /* PE_CONTEXT, EO_TRACE: nothing to check */ break;
	}
	if (bad) {
		d->failed = 1;
		return OCSD_RESP_FATAL_INVALID_DATA;
	}
	return OCSD_RESP_CONT;
}

static int errlog_ready;

/* An open decode tree and where its decode has got to (etm_ocsd_open). */
struct etm_ocsd {
	struct dec d;
	dcd_tree_handle_t t;
	ocsd_datapath_resp_t resp;
	size_t done;	   /* bytes decoded */
	unsigned trace_id; /* the first source's, for messages */
	int n, ended;
	void *cfgs; /* etm_ocsd_open's decoder configurations, alive with the tree */
};

/*
 * One decode tree: n decoders (name, OCSD_BUILTIN_DCD_*, set up by ocfg[i],
 * of size cfg_size, for trace ID id[i], whose elements go to fn with
 * ctx[i]) over one raw stream (n = 1) or frames (framed 1: memory aligned,
 * 2: with FSYNCs). NULL with an error.
 */
static struct etm_ocsd *open_tree(const char *name, const void *ocfg, size_t cfg_size,
				  const uint8_t *id, int n, int framed, unsigned flags,
				  const struct etm_ocsd_mem *mem, etm_ocsd_fn fn, void *const *ctx)
{
	struct etm_ocsd *o = calloc(1, sizeof(*o));
	struct dec *d;

	if (!o) {
		error("etm ocsd: out of memory");
		return NULL;
	}
	d = &o->d;
	d->mem = mem;
	d->fn = fn;
	d->flags = flags;
	d->v3 = !strcmp(name, OCSD_BUILTIN_DCD_ETMV3);
	o->trace_id = id[0];
	o->n = n;
	o->resp = OCSD_RESP_CONT;
	/* a TPIU's: FSYNCs between frames, HSYNCs (an idle port) at any halfword */
	o->t = ocsd_create_dcd_tree(framed ? OCSD_TRC_SRC_FRAME_FORMATTED : OCSD_TRC_SRC_SINGLE,
				    framed == 2 ? OCSD_DFRMTR_HAS_FSYNCS | OCSD_DFRMTR_HAS_HSYNCS
				    : framed    ? OCSD_DFRMTR_FRAME_MEM_ALIGN
						: 0);
	if (o->t == C_API_INVALID_TREE_HANDLE) {
		error("etm ocsd: trace ID 0x%x: cannot create an OpenCSD decode tree", o->trace_id);
		free(o);
		return NULL;
	}
	/* OpenCSD's default error logger is one per process: set it up once
	   (each set-up allocates a new one) */
	if (!errlog_ready &&
	    (ocsd_def_errlog_init(OCSD_ERR_SEV_ERROR, 1) != OCSD_OK ||
	     ocsd_def_errlog_config_output(C_API_MSGLOGOUT_FLG_NONE, NULL) != OCSD_OK)) {
		error("etm ocsd: trace ID 0x%x: cannot set up OpenCSD's error log", o->trace_id);
		goto fail;
	}
	errlog_ready = 1;
	if (ocsd_def_errlog_set_strprint_cb(o->t, d, log_cb) != OCSD_OK) {
		error("etm ocsd: trace ID 0x%x: cannot set up OpenCSD's error log", o->trace_id);
		goto fail;
	}
	for (int i = 0; i < n; i++) {
		unsigned char csid = 0;

		if (id[i] >= 128 || d->ctx[id[i]]) {
			error("etm ocsd: trace ID 0x%x twice or out of range", id[i]);
			goto fail;
		}
		d->ctx[id[i]] = ctx[i];
		if (ocsd_dt_create_decoder(o->t, name, OCSD_CREATE_FLG_FULL_DECODER,
					   (const uint8_t *)ocfg + i * cfg_size,
					   &csid) != OCSD_OK) {
			error("etm ocsd: trace ID 0x%x: OpenCSD refuses the %s configuration (%s)",
			      id[i], name, d->msg);
			goto fail;
		}
		if (!d->v3)
			continue;
		d->ca[id[i]] = !!(((const ocsd_etmv3_cfg *)ocfg)[i].reg_ctrl & ETM3_CR_CYCLE_ACC);
		d->mon[id[i]] = (struct mon){d, id[i]};
		if (ocsd_dt_attach_packet_callback(o->t, csid, OCSD_C_API_CB_PKT_MON, packet_mon,
						   &d->mon[id[i]]) != OCSD_OK) {
			error("etm ocsd: trace ID 0x%x: cannot watch OpenCSD's ETMv3 packets",
			      id[i]);
			goto fail;
		}
	}
	if (ocsd_dt_set_gen_elem_outfn(o->t, elem_cb, d) != OCSD_OK ||
	    ocsd_dt_add_callback_mem_acc(o->t, 0, 0xffffffffull, OCSD_MEM_SPACE_ANY, mem_read,
					 mem) != OCSD_OK) {
		error("etm ocsd: trace ID 0x%x: cannot attach the element sink or the image",
		      o->trace_id);
		goto fail;
	}
	return o;
fail:
	etm_ocsd_close(o);
	return NULL;
}

int etm_ocsd_feed(struct etm_ocsd *o, const uint8_t *data, size_t len)
{
	size_t done = 0;
	char hint[256];

	if (o->d.failed || OCSD_DATA_RESP_IS_FATAL(o->resp) || o->ended)
		return error("etm ocsd: trace ID 0x%x: the decode stopped before byte %zu", o->trace_id,
			     o->done);
	while (done < len && !o->d.failed) {
		uint32_t used = 0,
			 chunk = len - done > (1u << 20) ? 1u << 20 : (uint32_t)(len - done);

		o->resp = ocsd_dt_process_data(o->t, OCSD_OP_DATA, o->done + done, chunk,
					       data + done, &used);
		done += used;
		if (OCSD_DATA_RESP_IS_FATAL(o->resp) || (!used && !OCSD_DATA_RESP_IS_WAIT(o->resp)))
			break;
		if (OCSD_DATA_RESP_IS_WAIT(o->resp))
			o->resp = ocsd_dt_process_data(o->t, OCSD_OP_FLUSH, 0, 0, NULL, NULL);
	}
	o->done += done;
	if (o->d.failed)
		return error("etm ocsd: trace ID 0x%x%s: decode stopped at byte %zu%s", o->trace_id,
			     o->n > 1 ? " and the others" : "", o->done,
			     owed_hint(&o->d, hint, sizeof(hint)));
	if (OCSD_DATA_RESP_IS_FATAL(o->resp) || done < len)
		return error("etm ocsd: trace ID 0x%x: OpenCSD fails at byte %zu (response %d): %s%s",
			     o->trace_id, o->done, (int)o->resp,
			     o->d.msg[0] ? o->d.msg : "no message",
			     owed_hint(&o->d, hint, sizeof(hint)));
	return 0;
}

int etm_ocsd_end(struct etm_ocsd *o)
{
	if (o->d.failed || OCSD_DATA_RESP_IS_FATAL(o->resp))
		return error("etm ocsd: trace ID 0x%x: the decode stopped before byte %zu", o->trace_id,
			     o->done);
	o->ended = 1;
	o->resp = ocsd_dt_process_data(o->t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	if (o->d.failed)
		return error("etm ocsd: trace ID 0x%x%s: decode stopped at the end of the trace "
			     "(byte %zu)", o->trace_id, o->n > 1 ? " and the others" : "", o->done);
	if (OCSD_DATA_RESP_IS_FATAL(o->resp))
		return error("etm ocsd: trace ID 0x%x: OpenCSD fails at the end of the trace (byte "
			     "%zu, response %d): %s", o->trace_id, o->done, (int)o->resp,
			     o->d.msg[0] ? o->d.msg : "no message");
	for (int id = 0; id < 128; id++)
		if (o->d.owed[id])
			return error("etm ocsd: trace ID 0x%x: the I-sync at byte %llu has no cycle "
				     "count and no Cycle count packet came before the end of the "
				     "trace (byte %zu), which a cycle-accurate ETMv3 gives unless "
				     "the capture was cut right after it: was the unit cycle "
				     "accurate (cycle_counting = 1, ETMCR bit 12)?",
				     id, (unsigned long long)o->d.owed_at[id], o->done);
	return 0;
}

void etm_ocsd_close(struct etm_ocsd *o)
{
	if (!o)
		return;
	ocsd_destroy_dcd_tree(o->t);
	free(o->cfgs);
	free(o);
}

/* A whole decode of data[0..len) with a tree open_tree's arguments make. 0 / -1. */
static int decode(const char *name, const void *ocfg, size_t cfg_size, const uint8_t *id, int n,
		  int framed, unsigned flags, const struct etm_ocsd_mem *mem, const uint8_t *data,
		  size_t len, etm_ocsd_fn fn, void *const *ctx)
{
	struct etm_ocsd *o = open_tree(name, ocfg, cfg_size, id, n, framed, flags, mem, fn, ctx);
	int ret;

	if (!o)
		return -1;
	ret = etm_ocsd_feed(o, data, len) || etm_ocsd_end(o) ? -1 : 0;
	etm_ocsd_close(o);
	return ret;
}

static void etmv4_cfg(const struct etm4_cfg *cfg, ocsd_etmv4_cfg *oc)
{
	struct etm4_regs r;

	etm4_regs(cfg, &r);
	memset(oc, 0, sizeof(*oc));
	oc->reg_idr0 = r.idr0;
	oc->reg_idr1 = r.idr1;
	oc->reg_idr2 = r.idr2;
	oc->reg_idr8 = r.idr8;
	oc->reg_configr = r.configr;
	oc->reg_traceidr = r.traceidr;
	oc->arch_ver = cfg->v8m ? ARCH_V8 : ARCH_V7;
	oc->core_prof = profile_CortexM;
}

int etm_ocsd_decode(const struct etm4_cfg *cfg, const struct etm_ocsd_mem *mem, const uint8_t *data,
		    size_t len, etm_ocsd_fn fn, void *ctx)
{
	ocsd_etmv4_cfg oc;

	etmv4_cfg(cfg, &oc);
	return decode(OCSD_BUILTIN_DCD_ETMV4I, &oc, sizeof(oc), &cfg->trace_id, 1, 0,
		      cfg->cc_threshold ? ETM_OCSD_CYCLES : 0, mem, data, len, fn, &ctx);
}

static void etmv3_cfg(const struct etm3_cfg *cfg, ocsd_etmv3_cfg *oc)
{
	struct etm3_regs r;

	etm3_regs(cfg, &r);
	memset(oc, 0, sizeof(*oc));
	oc->reg_idr = r.idr;
	oc->reg_ctrl = r.ctrl;
	oc->reg_ccer = r.ccer;
	oc->reg_trc_id = r.traceidr;
	oc->arch_ver = ARCH_V7;
	oc->core_prof = profile_CortexM;
}

int etm_ocsd_decode3(const struct etm3_cfg *cfg, const struct etm_ocsd_mem *mem,
		     const uint8_t *data, size_t len, etm_ocsd_fn fn, void *ctx)
{
	ocsd_etmv3_cfg oc;

	etmv3_cfg(cfg, &oc);
	return decode(OCSD_BUILTIN_DCD_ETMV3, &oc, sizeof(oc), &cfg->trace_id, 1, 0,
		      cfg->cycle_accurate ? ETM_OCSD_CYCLES : 0, mem, data, len, fn, &ctx);
}

int etm_ocsd_decode_frames(const struct etm4_cfg *cfg, int n, const struct etm_ocsd_mem *mem,
			   const uint8_t *data, size_t len, etm_ocsd_fn fn, void *const *ctx)
{
	ocsd_etmv4_cfg oc[128];
	uint8_t id[128];

	if (n < 1 || n > 128)
		return error("etm ocsd: %d sources in one capture", n);
	if (len % 16)
		return error(
		    "etm ocsd: a capture of %zu bytes is no whole number of 16-byte frames", len);
	for (int i = 0; i < n; i++) {
		etmv4_cfg(&cfg[i], &oc[i]);
		id[i] = cfg[i].trace_id;
	}
	return decode(OCSD_BUILTIN_DCD_ETMV4I, oc, sizeof(oc[0]), id, n, 1,
		      cfg[0].cc_threshold ? ETM_OCSD_CYCLES : 0, mem, data, len, fn, ctx);
}

struct etm_ocsd *etm_ocsd_open(const struct etm_ocsd_src *src, int n, int framed,
			       unsigned flags, const struct etm_ocsd_mem *mem, etm_ocsd_fn fn)
{
	ocsd_etmv4_cfg *o4;
	ocsd_etmv3_cfg *o3;
	struct etm_ocsd *o;
	uint8_t id[128];
	void *ctx[128];

	if (n < 1 || n > 128 || (!framed && n != 1)) {
		error("etm ocsd: %d sources in one %s", n, framed ? "capture" : "raw stream");
		return NULL;
	}
	/* the configurations live as long as the tree (OpenCSD may keep them) */
	o4 = calloc(n, sizeof(*o4));
	o3 = calloc(n, sizeof(*o3));
	if (!o4 || !o3) {
		free(o4);
		free(o3);
		error("etm ocsd: out of memory");
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		if (src[i].v3 != src[0].v3) {
			free(o4);
			free(o3);
			error("etm ocsd: ETMv3 and ETMv4 sources in one capture");
			return NULL;
		}
		if (src[i].v3)
			etmv3_cfg(&src[i].c3, &o3[i]);
		else
			etmv4_cfg(&src[i].c4, &o4[i]);
		if (src[i].have_regs && src[i].v3) {
			o3[i].reg_idr = src[i].regs[0];
			o3[i].reg_ctrl = src[i].regs[1];
			o3[i].reg_ccer = src[i].regs[2];
		} else if (src[i].have_regs) {
			o4[i].reg_idr0 = src[i].regs[0];
			o4[i].reg_idr1 = src[i].regs[1];
			o4[i].reg_idr2 = src[i].regs[2];
			o4[i].reg_idr8 = src[i].regs[3];
			o4[i].reg_configr = src[i].regs[4];
		}
		id[i] = src[i].v3 ? src[i].c3.trace_id : src[i].c4.trace_id;
		ctx[i] = src[i].ctx;
	}
	if (src[0].v3) {
		free(o4);
		o = open_tree(OCSD_BUILTIN_DCD_ETMV3, o3, sizeof(o3[0]), id, n, framed, flags, mem,
			      fn, ctx);
		if (o)
			o->cfgs = o3;
		else
			free(o3);
		return o;
	}
	free(o3);
	o = open_tree(OCSD_BUILTIN_DCD_ETMV4I, o4, sizeof(o4[0]), id, n, framed, flags, mem, fn,
		      ctx);
	if (o)
		o->cfgs = o4;
	else
		free(o4);
	return o;
}

int etm_ocsd_decode_src(const struct etm_ocsd_src *src, int n, int framed, unsigned flags,
			const struct etm_ocsd_mem *mem, const uint8_t *data, size_t len,
			etm_ocsd_fn fn)
{
	struct etm_ocsd *o;
	uint8_t *copy = NULL;
	int ret;

	if (framed == 1 && len % 16)
		return error("etm ocsd: a capture of %zu bytes is no whole number of 16-byte frames",
			     len);
	if (framed == 2) {
		/*
		 * a TPIU's, given to OpenCSD 4 bytes at a time (the part frame at
		 * the end left out): a last halfword is made whole with an HSYNC
		 * (the port idled), and as after HSYNCs a frame starts at any
		 * halfword, where OpenCSD looks for an FSYNC with a 4-byte read, up
		 * to 2 bytes past the end, a copy with room for it
		 */
		len -= len % 2;
		if (!(copy = calloc(1, len + 6)))
			return error("etm ocsd: out of memory for a %zu-byte capture", len);
		memcpy(copy, data, len);
		if (len % 4) {
			copy[len++] = 0xff;
			copy[len++] = 0x7f;
		}
		data = copy;
	}
	if (!(o = etm_ocsd_open(src, n, framed, flags, mem, fn))) {
		free(copy);
		return -1;
	}
	ret = etm_ocsd_feed(o, data, len) || etm_ocsd_end(o) ? -1 : 0;
	etm_ocsd_close(o);
	free(copy);
	return ret;
}

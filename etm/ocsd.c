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
#include <string.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "etm/ocsd.h"

struct dec {
	const struct etm_ocsd_mem *mem;
	etm_ocsd_fn fn;
	unsigned flags;		 /* ETM_OCSD_MARKS */
	uint8_t lost[128];	 /* MARKS: the source lost sync and has not delivered since */
	uint8_t traced[128];	 /* MARKS: the source delivered an instruction */
	void *ctx[128];	     /* fn's context per trace ID; NULL: no such source */
	uint64_t elems[128]; /* elements per trace ID */
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

static ocsd_datapath_resp_t elem_cb(const void *p, const ocsd_trc_index_t idx, const uint8_t id,
				    const ocsd_generic_trace_elem *el)
{
	struct dec *d = (struct dec *)p;
	int bad = 0;

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

/*
 * One decode tree: n decoders (name, OCSD_BUILTIN_DCD_*, set up by ocfg[i],
 * of size cfg_size, for trace ID id[i], whose elements go to fn with
 * ctx[i]) over one raw stream (n = 1) or frames (framed).
 */
static int decode(const char *name, const void *ocfg, size_t cfg_size, const uint8_t *id, int n,
		  int framed, unsigned flags, const struct etm_ocsd_mem *mem, const uint8_t *data,
		  size_t len, etm_ocsd_fn fn, void *const *ctx)
{
	static struct dec d; /* large: not on the stack; one decode at a time */
	dcd_tree_handle_t t;
	ocsd_datapath_resp_t resp = OCSD_RESP_CONT;
	unsigned trace_id = id[0];
	size_t done = 0;
	int ret = -1;

	memset(&d, 0, sizeof(d));
	d.mem = mem;
	d.fn = fn;
	d.flags = flags;
	t = ocsd_create_dcd_tree(framed ? OCSD_TRC_SRC_FRAME_FORMATTED : OCSD_TRC_SRC_SINGLE,
				 framed == 2 ? OCSD_DFRMTR_HAS_FSYNCS
				 : framed    ? OCSD_DFRMTR_FRAME_MEM_ALIGN
					     : 0);
	if (t == C_API_INVALID_TREE_HANDLE)
		return error("etm ocsd: trace ID 0x%x: cannot create an OpenCSD decode tree",
			     trace_id);
	/* OpenCSD's default error logger is one per process: set it up once
	   (each set-up allocates a new one) */
	if (!errlog_ready &&
	    (ocsd_def_errlog_init(OCSD_ERR_SEV_ERROR, 1) != OCSD_OK ||
	     ocsd_def_errlog_config_output(C_API_MSGLOGOUT_FLG_NONE, NULL) != OCSD_OK)) {
		error("etm ocsd: trace ID 0x%x: cannot set up OpenCSD's error log", trace_id);
		goto out;
	}
	errlog_ready = 1;
	if (ocsd_def_errlog_set_strprint_cb(t, &d, log_cb) != OCSD_OK) {
		error("etm ocsd: trace ID 0x%x: cannot set up OpenCSD's error log", trace_id);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		unsigned char csid = 0;

		if (id[i] >= 128 || d.ctx[id[i]]) {
			error("etm ocsd: trace ID 0x%x twice or out of range", id[i]);
			goto out;
		}
		d.ctx[id[i]] = ctx[i];
		if (ocsd_dt_create_decoder(t, name, OCSD_CREATE_FLG_FULL_DECODER,
					   (const uint8_t *)ocfg + i * cfg_size,
					   &csid) != OCSD_OK) {
			error("etm ocsd: trace ID 0x%x: OpenCSD refuses the %s configuration (%s)",
			      id[i], name, d.msg);
			goto out;
		}
	}
	if (ocsd_dt_set_gen_elem_outfn(t, elem_cb, &d) != OCSD_OK ||
	    ocsd_dt_add_callback_mem_acc(t, 0, 0xffffffffull, OCSD_MEM_SPACE_ANY, mem_read, mem) !=
		OCSD_OK) {
		error("etm ocsd: trace ID 0x%x: cannot attach the element sink or the image",
		      trace_id);
		goto out;
	}
	while (done < len && !d.failed) {
		uint32_t used = 0,
			 chunk = len - done > (1u << 20) ? 1u << 20 : (uint32_t)(len - done);

		resp = ocsd_dt_process_data(t, OCSD_OP_DATA, done, chunk, data + done, &used);
		done += used;
		if (OCSD_DATA_RESP_IS_FATAL(resp) || (!used && !OCSD_DATA_RESP_IS_WAIT(resp)))
			break;
		if (OCSD_DATA_RESP_IS_WAIT(resp))
			resp = ocsd_dt_process_data(t, OCSD_OP_FLUSH, 0, 0, NULL, NULL);
	}
	if (!d.failed && !OCSD_DATA_RESP_IS_FATAL(resp))
		resp = ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	if (d.failed) {
		error("etm ocsd: trace ID 0x%x%s: decode stopped at byte %zu of %zu", trace_id,
		      n > 1 ? " and the others" : "", done, len);
		goto out;
	}
	if (OCSD_DATA_RESP_IS_FATAL(resp) || done < len) {
		error("etm ocsd: trace ID 0x%x: OpenCSD fails at byte %zu of %zu (response %d): %s",
		      trace_id, done, len, (int)resp, d.msg[0] ? d.msg : "no message");
		goto out;
	}
	ret = 0;
out:
	ocsd_destroy_dcd_tree(t);
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
	return decode(OCSD_BUILTIN_DCD_ETMV4I, &oc, sizeof(oc), &cfg->trace_id, 1, 0, 0, mem,
		      data, len, fn, &ctx);
}

int etm_ocsd_decode3(const struct etm3_cfg *cfg, const struct etm_ocsd_mem *mem,
		     const uint8_t *data, size_t len, etm_ocsd_fn fn, void *ctx)
{
	struct etm3_regs r;
	ocsd_etmv3_cfg oc = {0};

	etm3_regs(cfg, &r);
	oc.reg_idr = r.idr;
	oc.reg_ctrl = r.ctrl;
	oc.reg_ccer = r.ccer;
	oc.reg_trc_id = r.traceidr;
	oc.arch_ver = ARCH_V7;
	oc.core_prof = profile_CortexM;
	return decode(OCSD_BUILTIN_DCD_ETMV3, &oc, sizeof(oc), &cfg->trace_id, 1, 0, 0, mem, data,
		      len, fn, &ctx);
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
	return decode(OCSD_BUILTIN_DCD_ETMV4I, oc, sizeof(oc[0]), id, n, 1, 0, mem, data, len, fn,
		      ctx);
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

int etm_ocsd_decode_src(const struct etm_ocsd_src *src, int n, int framed, unsigned flags,
			const struct etm_ocsd_mem *mem, const uint8_t *data, size_t len,
			etm_ocsd_fn fn)
{
	static ocsd_etmv4_cfg o4[128];
	static ocsd_etmv3_cfg o3[128];
	uint8_t id[128];
	void *ctx[128];

	if (n < 1 || n > 128 || (!framed && n != 1))
		return error("etm ocsd: %d sources in one %s", n, framed ? "capture" : "raw stream");
	if (framed == 1 && len % 16)
		return error("etm ocsd: a capture of %zu bytes is no whole number of 16-byte frames",
			     len);
	if (framed == 2)
		len -= len % 4; /* a TPIU's: 4-byte aligned, the part frame at the end left out */
	for (int i = 0; i < n; i++) {
		if (src[i].v3 != src[0].v3)
			return error("etm ocsd: ETMv3 and ETMv4 sources in one capture");
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
	if (src[0].v3)
		return decode(OCSD_BUILTIN_DCD_ETMV3, o3, sizeof(o3[0]), id, n, framed, flags, mem,
			      data, len, fn, ctx);
	return decode(OCSD_BUILTIN_DCD_ETMV4I, o4, sizeof(o4[0]), id, n, framed, flags, mem, data,
		      len, fn, ctx);
}

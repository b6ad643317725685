/* ports: the real trace ports fed from a replayed recording (ports.h). */
#include <stdio.h>
#include <string.h>

#include "analysis/ports.h"
#include "etm/cstf.h"
#include "etm/port.h"
#include "isa/isa.h"
#include "replay/replay.h"

/*
 * A core's new ETMv4 bytes go to the formatter once there are this many,
 * as a funnel drains each trace unit's FIFO in bursts (tools/etmcheck's
 * FRAME_BURST: the two must agree for the sizes to).
 */
#define FRAME_BURST 16

struct feed {
	struct rpl *rp;
	struct etm_port port[AN_MAX_CORES];
	struct etm_port cc[AN_MAX_CORES]; /* the ETMs alone, counting cycles */
	uint64_t cycle[AN_MAX_CORES];	  /* each core's cycle after its last step */
	size_t framed[AN_MAX_CORES];	  /* bytes of each ETMv4 stream in the frames */
	struct cstf *frames;
	int ncores, failed;
};

const char *an_port_name(enum an_port p)
{
	static const char *const n[AN_NPORTS] = {"etm4",      "etm3",	 "mtb",
						 "etm4.cstf", "etm4.cc", "etm3.cc"};

	return n[p];
}

const char *an_port_label(enum an_port p)
{
	static const char *const n[AN_NPORTS] = {"ETMv4",
						 "ETMv3.5",
						 "MTB",
						 "ETMv4 in CoreSight frames",
						 "ETMv4 with cycle counting",
						 "ETMv3.5 cycle accurate"};

	return n[p];
}

/* Core c's ETMv4 bytes written since last time into the frames, if at least min. */
static int to_frames(struct feed *f, int c, size_t min)
{
	size_t len;
	const uint8_t *d = etm4_data(f->port[c].e4, &len);

	if (len == f->framed[c] || len - f->framed[c] < min)
		return 0;
	if (cstf_put(f->frames, 0x10 + c, d + f->framed[c], len - f->framed[c]))
		return -1;
	f->framed[c] = len;
	return 0;
}

/* One step into a core's ports. 0 / -1. */
static int feed_step(struct etm_port *p, const struct isa_step *st, uint32_t next, uint32_t lr)
{
	if (st->ev == ISA_EV_EXCEPTION)
		return etm_port_exception(p, st->exc, next, lr);
	if (st->faulted) {
		etm_port_fault(p, st->pc);
		return 0;
	}
	return etm_port_insn(p, st->pc, next, st->exc_return, st->exc_return ? st->exc : 0, lr);
}

/* rpl_observe: every step that retired, faulted or took an exception. */
static void on_step(void *ctx, int core, const struct isa_step *st, uint64_t cycle,
		    const struct board_access *acc, int nacc)
{
	struct feed *f = ctx;
	struct etm_port *p = &f->port[core];
	const struct isa_cpu *cpu;
	uint32_t next, lr;
	int k = 0;

	if (f->failed)
		return;
	/* the state after the step, as the truth records it */
	cpu = rpl_cpu(f->rp, core);
	next = isa_cpu_get(cpu, ISA_R_PC);
	lr = isa_cpu_get(cpu, ISA_R_LR);
	k = feed_step(p, st, next, lr);
	etm_port_cycles(&f->cc[core], cycle - f->cycle[core]);
	f->cycle[core] = cycle;
	if (!k)
		k = feed_step(&f->cc[core], st, next, lr);
	if (k || to_frames(f, core, FRAME_BURST))
		f->failed = 1;
}

/* After the run: flush, count, write the raw streams. */
static int collect(struct feed *f, struct an_ports *pt, const char *raw)
{
	const uint8_t *d;
	size_t len;

	for (int c = 0; c < f->ncores; c++)
		if (etm_port_finish(&f->port[c]) || etm_port_finish(&f->cc[c]))
			return -1;
	/* the cores' last ETMv4 bytes, in core order, and the last frame padded */
	for (int c = 0; c < f->ncores; c++)
		if (to_frames(f, c, 0))
			return -1;
	if (cstf_finish(f->frames))
		return -1;
	for (int c = 0; c < f->ncores; c++) {
		struct etm_port *p = &f->port[c];
		struct mtb_stats ms;

		mtb_get_stats(p->mtb, &ms);
		pt->core_insns[c] = p->insns;
		pt->core_mtb_packets[c] = ms.packets;
		pt->mtb_packets += ms.packets;
		d = etm4_data(p->e4, &len);
		pt->core_bits[c][AN_PORT_ETM4] = 8 * (uint64_t)len;
		if (raw && etm_raw_write(raw, "etm4", c, d, len))
			return -1;
		d = etm3_data(p->e3, &len);
		pt->core_bits[c][AN_PORT_ETM3] = 8 * (uint64_t)len;
		if (raw && etm_raw_write(raw, "etm3", c, d, len))
			return -1;
		d = mtb_data(p->mtb, &len);
		pt->core_bits[c][AN_PORT_MTB] = 8 * (uint64_t)len;
		if (raw && etm_raw_write(raw, "mtb", c, d, len))
			return -1;
		etm4_data(f->cc[c].e4, &len);
		pt->core_bits[c][AN_PORT_ETM4CC] = 8 * (uint64_t)len;
		etm3_data(f->cc[c].e3, &len);
		pt->core_bits[c][AN_PORT_ETM3CC] = 8 * (uint64_t)len;
		for (int k = 0; k < AN_NPORTS; k++)
			if (k != AN_PORT_FRAMES)
				pt->bits[k] += pt->core_bits[c][k];
	}
	d = cstf_data(f->frames, &len);
	pt->bits[AN_PORT_FRAMES] = 8 * (uint64_t)len;
	if (raw && etm_raw_write(raw, "etm4-frames", -1, d, len))
		return -1;
	return 0;
}

int an_ports_measure(struct an_ports *pt, const char *dir, unsigned sync, const char *raw)
{
	struct feed f;
	struct etm_image im;
	const struct st_manifest *mf;
	char path[4096];
	int ret = -1, have_im = 0, s;

	memset(pt, 0, sizeof(*pt));
	memset(&f, 0, sizeof(f));
	f.rp = rpl_open(dir);
	if (!f.rp)
		return -1;
	mf = rpl_manifest(f.rp);
	if (!rpl_regs_known(f.rp)) {
		error("stat: %s: the trace ports need a full replay, and this recording has no "
		      "load-value stream",
		      dir);
		goto out;
	}
	if (mf->ncores > AN_MAX_CORES) {
		error("stat: %s: %d cores, at most %d", dir, mf->ncores, AN_MAX_CORES);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, mf->elf);
	if (etm_image_load(&im, path))
		goto out;
	have_im = 1;
	f.ncores = pt->ncores = mf->ncores;
	pt->v8m = mf->model == ISA_CORTEX_M33;
	pt->sync_period = sync;
	if (!(f.frames = cstf_new()))
		goto out;
	for (int c = 0; c < f.ncores; c++) {
		struct etm_port_cfg cfg = {.core = c, .sync_period = sync, .v8m = pt->v8m};
		struct etm_port_cfg ccfg = {.core = c,
					    .sync_period = sync,
					    .v8m = pt->v8m,
					    .only = ETM_PORT_ETM4 | ETM_PORT_ETM3,
					    .cc_threshold = 1,
					    .cycle_accurate = 1};
		uint32_t pc = isa_cpu_get(rpl_cpu(f.rp, c), ISA_R_PC);

		if (etm_port_init(&f.port[c], &cfg, &im, pc) ||
		    etm_port_init(&f.cc[c], &ccfg, &im, pc)) {
			error("stat: %s: core %d: cannot set up the trace ports (sync period %u)",
			      dir, c, sync);
			goto out;
		}
	}
	/* one run forward: no checkpoints needed */
	rpl_set_interval(f.rp, UINT64_MAX);
	if (rpl_observe(f.rp, on_step, &f))
		goto out;
	s = rpl_run(f.rp, UINT64_MAX);
	if (s < 0)
		goto out;
	if (f.failed) {
		error("stat: %s: the trace ports stopped (the error above)", dir);
		goto out;
	}
	if (collect(&f, pt, raw))
		goto out;
	ret = 0;
out:
	for (int c = 0; c < AN_MAX_CORES; c++) {
		etm_port_release(&f.port[c]);
		etm_port_release(&f.cc[c]);
	}
	cstf_free(f.frames);
	f.frames = NULL;
	if (have_im)
		etm_image_release(&im);
	rpl_close(f.rp);
	return ret;
}

/* porttm: the board's ETM / MTB trace units (porttm.h). */
#include "record/porttm.h"

#include <stdlib.h>
#include <string.h>

#include "etm/cstf.h"
#include "etm/port.h"

#define FRAME_BURST 16 /* a core's bytes go into the frames 16 at a time */
/* a TPIU's frame synchronisation: an FSYNC before every 16th frame (FSCR) */
#define TPIU_FSYNC_PERIOD 16

struct rec_port {
	struct st_port_cfg cfg;
	int ncores;
	struct etm_image im;
	struct etm_port port[ST_CF_MAX_CORES];
	struct cstf *frames;
	size_t framed[ST_CF_MAX_CORES];	 /* each core's bytes already in the frames */
	uint64_t cycle[ST_CF_MAX_CORES]; /* each core's cycle after its last step */
	int failed;
	char err[512];
};

static const uint8_t *data_of(const struct rec_port *p, int c, size_t *len)
{
	const struct etm_port *e = &p->port[c];

	switch (p->cfg.kind) {
	case ST_PORT_ETM4: return etm4_data(e->e4, len);
	case ST_PORT_ETM3: return etm3_data(e->e3, len);
	default: return mtb_data(e->mtb, len);
	}
}

struct rec_port *rec_port_new(const struct st_port_cfg *cfg, int ncores, const char *elf,
			      const uint32_t *reset_pc)
{
	struct rec_port *p;
	unsigned only = cfg->kind == ST_PORT_ETM4   ? ETM_PORT_ETM4
			: cfg->kind == ST_PORT_ETM3 ? ETM_PORT_ETM3
						    : ETM_PORT_MTB;

	if (cfg->kind == ST_PORT_NONE) {
		error("record: no trace port");
		return NULL;
	}
	if (cfg->framed && cfg->kind == ST_PORT_MTB) {
		error("record: an MTB is read from SRAM, not through the formatter: no "
		      "--port-framed");
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	p->cfg = *cfg;
	p->ncores = ncores;
	if (etm_image_load(&p->im, elf)) {
		free(p);
		return NULL;
	}
	for (int c = 0; c < ncores; c++) {
		struct etm_port_cfg pc = {.core = c,
					  .sync_period = cfg->sync_period,
					  .v8m = cfg->v8m,
					  .trace_id = cfg->trace_id[c],
					  .only = only,
					  .cc_threshold =
					      cfg->cycle_counting ? cfg->cc_threshold : 0,
					  .cycle_accurate = cfg->cycle_counting};

		if (etm_port_init(&p->port[c], &pc, &p->im, reset_pc[c])) {
			p->ncores = c;
			rec_port_free(p);
			return NULL;
		}
	}
	if (cfg->framed && !(p->frames = cstf_new())) {
		rec_port_free(p);
		return NULL;
	}
	if (p->frames && cfg->tpiu)
		cstf_set_fsync(p->frames, TPIU_FSYNC_PERIOD);
	if (p->frames && cfg->tpiu && cfg->hsync)
		cstf_set_hsync(p->frames, 1);
	return p;
}

void rec_port_free(struct rec_port *p)
{
	if (!p)
		return;
	for (int c = 0; c < p->ncores; c++)
		etm_port_release(&p->port[c]);
	cstf_free(p->frames);
	etm_image_release(&p->im);
	free(p);
}

/* Core c's new bytes into the frames, if there are at least min of them. */
static int to_frames(struct rec_port *p, int c, size_t min)
{
	size_t len;
	const uint8_t *d = data_of(p, c, &len);

	if (len == p->framed[c] || len - p->framed[c] < min)
		return 0;
	if (cstf_put(p->frames, p->cfg.trace_id[c], d + p->framed[c], len - p->framed[c]))
		return -1;
	p->framed[c] = len;
	return 0;
}

int rec_port_step(struct rec_port *p, int core, const struct isa_step *st, uint32_t next,
		  uint32_t lr, uint64_t cycle)
{
	struct etm_port *e = &p->port[core];
	int k = 0;

	if (p->failed)
		return error("%s", p->err);
	etm_port_cycles(e, cycle - p->cycle[core]);
	p->cycle[core] = cycle;
	switch (st->ev) {
	case ISA_EV_EXCEPTION: k = etm_port_exception(e, st->exc, next, lr); break;
	case ISA_EV_INSN:
	case ISA_EV_STOP:
		if (st->faulted)
			etm_port_fault(e, st->pc);
		else
			k = etm_port_insn(e, st->pc, next, st->exc_return,
					  st->exc_return ? st->exc : 0, lr);
		break;
	case ISA_EV_SLEEP: break;
	}
	if (!k && p->frames)
		k = to_frames(p, core, FRAME_BURST);
	if (k) {
		p->failed = 1;
		snprintf(p->err, sizeof(p->err), "record: core %d's trace unit: %s", core,
			 error_last());
		return error("%s", p->err);
	}
	return 0;
}

int rec_port_finish(struct rec_port *p, FILE *f, const char *path, uint64_t *bytes, uint64_t *total)
{
	const uint8_t *d;
	size_t len;

	*total = 0;
	if (p->failed)
		return error("%s", p->err);
	for (int c = 0; c < p->ncores; c++) {
		bytes[c] = 0;
		if (etm_port_finish(&p->port[c]))
			return -1;
	}
	if (p->frames) {
		for (int c = 0; c < p->ncores; c++)
			if (to_frames(p, c, 0))
				return -1;
		if (cstf_finish(p->frames))
			return -1;
		d = cstf_data(p->frames, &len);
		if (len && fwrite(d, 1, len, f) != len)
			return error("cannot write '%s': %m", path);
		*total = len;
		return 0;
	}
	for (int c = 0; c < p->ncores; c++) {
		d = data_of(p, c, &len);
		if (len && fwrite(d, 1, len, f) != len)
			return error("cannot write '%s': %m", path);
		bytes[c] = len;
		*total += len;
	}
	return 0;
}

/* port: a core's ETMv4, ETMv3.5 and MTB fed side by side (port.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etm/port.h"
#include "etm/thumb.h"
#include "isa/elf.h"

#define REGION_GAP 4096 /* segments closer than this share one region */

/* isa_elf_load's writer: merge [addr, addr + len) into the image's regions. */
static int image_write(void *ctx, uint32_t addr, const uint8_t *data, size_t len)
{
	struct etm_image *im = ctx;
	uint64_t end = (uint64_t)addr + len;
	uint8_t *d;

	for (int i = 0; i < im->mem.n; i++) {
		struct etm_region *r = &im->r[i];
		uint64_t lo = r->base < addr ? r->base : addr, rend = (uint64_t)r->base + r->size;
		uint64_t hi = rend > end ? rend : end;

		if (addr > rend + REGION_GAP || r->base > end + REGION_GAP)
			continue;
		d = calloc(1, hi - lo + 4);
		if (!d)
			return error("etm image: out of memory for a %llu-byte region",
				     (unsigned long long)(hi - lo));
		memcpy(d + (r->base - lo), r->data, r->size);
		memcpy(d + (addr - lo), data, len);
		free((void *)r->data);
		r->base = lo;
		r->size = hi - lo + 4; /* 4 zero bytes past the end: OpenCSD reads words */
		r->data = d;
		return 0;
	}
	if (im->mem.n == ETM_IMAGE_MAX_REGIONS)
		return error("etm image: more than %d separate loaded regions",
			     ETM_IMAGE_MAX_REGIONS);
	d = calloc(1, len + 4);
	if (!d)
		return error("etm image: out of memory for a %zu-byte region", len);
	memcpy(d, data, len);
	im->r[im->mem.n++] = (struct etm_region){.base = addr, .size = len + 4, .data = d};
	return 0;
}

int etm_image_load(struct etm_image *im, const char *path)
{
	struct isa_elf elf;

	memset(im, 0, sizeof(*im));
	im->mem.regions = im->r;
	if (isa_elf_load(path, image_write, im, &elf)) {
		etm_image_release(im);
		return -1;
	}
	isa_elf_release(&elf);
	return 0;
}

void etm_image_release(struct etm_image *im)
{
	for (int i = 0; i < im->mem.n; i++)
		free((void *)im->r[i].data);
	im->mem.n = 0;
}

int etm_image_halfwords(const struct etm_image *im, uint32_t pc, uint16_t *hw1, uint16_t *hw2)
{
	const struct etm_region *r = etm_ocsd_region(&im->mem, pc, 4);
	const uint8_t *p;

	if (!r)
		return -1;
	p = r->data + (pc - r->base);
	*hw1 = p[0] | p[1] << 8;
	*hw2 = p[2] | p[3] << 8;
	return 0;
}

int etm_port_init(struct etm_port *p, const struct etm_port_cfg *cfg, const struct etm_image *im,
		  uint32_t reset_pc)
{
	uint8_t id = cfg->trace_id ? cfg->trace_id : 0x10 + cfg->core;
	unsigned only = cfg->only ? cfg->only : ETM_PORT_ETM4 | ETM_PORT_ETM3 | ETM_PORT_MTB;
	struct etm4_cfg c4 = {.trace_id = id,
			      .sync_period = cfg->sync_period,
			      .v8m = cfg->v8m,
			      .cc_threshold = cfg->cc_threshold};
	struct etm3_cfg c3 = {
	    .trace_id = id, .sync_period = cfg->sync_period, .cycle_accurate = cfg->cycle_accurate};

	memset(p, 0, sizeof(*p));
	p->im = im;
	p->core = cfg->core;
	p->cur_pc = reset_pc;
	if (((only & ETM_PORT_ETM4) && !(p->e4 = etm4_new(&c4))) ||
	    ((only & ETM_PORT_ETM3) && !(p->e3 = etm3_new(&c3))) ||
	    ((only & ETM_PORT_MTB) && !(p->mtb = mtb_new()))) {
		etm_port_release(p);
		return -1;
	}
	return 0;
}

void etm_port_release(struct etm_port *p)
{
	etm4_free(p->e4);
	etm3_free(p->e3);
	mtb_free(p->mtb);
	p->e4 = NULL;
	p->e3 = NULL;
	p->mtb = NULL;
}

int etm_port_insn(struct etm_port *p, uint32_t pc, uint32_t next, int exc_return, unsigned tail,
		  uint32_t lr)
{
	struct etm4_insn in = {.pc = pc, .next = next};
	uint16_t hw1, hw2;
	uint32_t target, excret = 0;

	if (etm_image_halfwords(p->im, pc, &hw1, &hw2))
		return error("etm port: core %d: instruction %llu at 0x%08x is outside the "
			     "program image",
			     p->core, (unsigned long long)p->insns, pc);
	in.size = etm_thumb_size(hw1);
	in.kind = etm_thumb_class(hw1, hw2, NULL);
	/* the decoders walk the image: a direct branch must go where its encoding says */
	if (in.kind == ETM_THUMB_DIRECT && next != pc + in.size &&
	    (etm_thumb_target(pc, hw1, hw2, &target) || target != next))
		return error("etm port: core %d: instruction %llu: the branch at 0x%08x goes to "
			     "0x%08x, its encoding %04x %04x says 0x%08x",
			     p->core, (unsigned long long)p->insns, pc, next, hw1, hw2, target);
	if (exc_return) {
		if (!p->nexc)
			return error("etm port: core %d: instruction %llu at 0x%08x: an exception "
				     "return with no exception active",
				     p->core, (unsigned long long)p->insns, pc);
		in.flags = ETM4_EXC_RETURN | (tail ? ETM4_TAIL : 0);
		excret = p->excret[p->nexc - 1];
	}
	if ((p->e4 && etm4_insn(p->e4, &in)) || (p->e3 && etm3_insn(p->e3, &in)) ||
	    (p->mtb && mtb_insn(p->mtb, pc, in.size, next, excret)))
		return -1;
	p->insns++;
	if (exc_return && tail) {
		/* the new handler returns where the old one would have */
		if ((p->e4 && etm4_exception(p->e4, tail, p->exc[p->nexc - 1], next)) ||
		    (p->e3 && etm3_exception(p->e3, tail, next)))
			return -1;
		p->excret[p->nexc - 1] = lr;
	} else if (exc_return) {
		p->nexc--;
	}
	p->cur_pc = next;
	return 0;
}

void etm_port_fault(struct etm_port *p, uint32_t pc)
{
	p->cur_pc = pc;
}

int etm_port_exception(struct etm_port *p, unsigned number, uint32_t handler, uint32_t lr)
{
	if (p->nexc == ETM_PORT_EXC_DEPTH)
		return error("etm port: core %d: exceptions nested deeper than %d, at "
			     "instruction %llu",
			     p->core, ETM_PORT_EXC_DEPTH, (unsigned long long)p->insns);
	p->exc[p->nexc] = p->cur_pc;
	p->excret[p->nexc++] = lr;
	if ((p->e4 && etm4_exception(p->e4, number, p->cur_pc, handler)) ||
	    (p->e3 && etm3_exception(p->e3, number, handler)) ||
	    (p->mtb && mtb_exception(p->mtb, p->cur_pc, handler)))
		return -1;
	p->cur_pc = handler;
	return 0;
}

void etm_port_cycles(struct etm_port *p, uint64_t n)
{
	if (p->e4)
		etm4_add_cycles(p->e4, n);
	if (p->e3)
		etm3_add_cycles(p->e3, n);
}

int etm_port_finish(struct etm_port *p)
{
	return (p->e4 && etm4_flush(p->e4)) || (p->e3 && etm3_flush(p->e3)) ? -1 : 0;
}

int etm_raw_write(const char *dir, const char *what, int core, const uint8_t *data, size_t len)
{
	char path[4096];
	FILE *f;

	if (core < 0)
		snprintf(path, sizeof(path), "%s/%s.bin", dir, what);
	else
		snprintf(path, sizeof(path), "%s/%s-core%d.bin", dir, what, core);
	f = fopen(path, "wb");
	if (!f)
		return error("cannot create '%s': %m", path);
	if (fwrite(data, 1, len, f) != len) {
		fclose(f);
		return error("cannot write '%s': %m", path);
	}
	if (fclose(f))
		return error("cannot write '%s': %m", path);
	return 0;
}

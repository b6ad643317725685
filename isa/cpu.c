/*
 * cpu.c: a core's lifecycle, the step loop, memory helpers and IT state.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/fast.h"
#include "isa/isa_priv.h"
#include "isa/model.h"

struct isa_cpu *isa_cpu_new(int core, enum isa_model model, struct isa_decoder *d,
			    const struct isa_bus *bus)
{
	struct isa_cpu *c = xcalloc(1, sizeof(*c));

	c->core = core;
	c->model = model;
	c->dec = d;
	c->bus = bus;
	isa_scs_reset(c);
	return c;
}

void isa_cpu_free(struct isa_cpu *cpu)
{
	free(cpu);
}

/*
 * Reset (B1.5.5). Values the architecture leaves UNKNOWN take QEMU's, so the
 * two can be compared from the first instruction: LR = 0xFFFFFFFF and
 * xPSR = 0x41000000 (Z set, as QEMU's reset leaves it).
 */
int isa_cpu_reset(struct isa_cpu *c, uint32_t vtor)
{
	uint32_t sp, pc;

	memset(&c->s, 0, sizeof(c->s));
	isa_scs_reset(c);
	c->s.scs.vtor = vtor;
	if (c->bus->read(c->bus->ctx, c, vtor, 4, &sp, ISA_ACC_VECTOR) != ISA_BUS_OK ||
	    c->bus->read(c->bus->ctx, c, vtor + 4, 4, &pc, ISA_ACC_VECTOR) != ISA_BUS_OK)
		return error("isa: core %d: cannot read the reset vector at 0x%08x", c->core,
			     vtor);
	c->s.r[13] = sp & ~3u;
	c->s.r[14] = 0xffffffffu;
	c->s.r[15] = pc & ~1u;
	c->s.apsr = APSR_Z;
	c->s.tbit_clear = !(pc & 1);
	return 0;
}

unsigned isa_cpu_get_fp(const struct isa_cpu *c, uint32_t v[ISA_NFPREGS])
{
	if (isa_model_info(c->model)->fpu == ISA_FPU_NONE)
		return 0;
	memcpy(v, c->s.fpr, sizeof(c->s.fpr));
	v[32] = c->s.fpscr;
	return ISA_NFPREGS;
}

const char *isa_fp_name(unsigned i)
{
	static const char *const names[ISA_NFPREGS] = {
		"s0",  "s1",  "s2",  "s3",  "s4",  "s5",  "s6",  "s7",	"s8",  "s9",  "s10",
		"s11", "s12", "s13", "s14", "s15", "s16", "s17", "s18", "s19", "s20", "s21",
		"s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29", "s30", "s31", "fpscr",
	};

	return i < ISA_NFPREGS ? names[i] : "?";
}

int isa_cpu_core(const struct isa_cpu *cpu)
{
	return cpu->core;
}

uint64_t isa_cpu_icount(const struct isa_cpu *cpu)
{
	return cpu->s.icount;
}

int isa_sp_is_psp(const struct isa_cpu *c)
{
	return !c->s.ipsr && (c->s.control & 2);
}

void isa_select_sp(struct isa_cpu *c, int psp)
{
	int cur = (c->s.control >> 1) & 1;

	/* in handler mode the active SP is always MSP; SPSEL only records */
	if (!c->s.ipsr && cur != psp) {
		uint32_t t = c->s.r[13];

		c->s.r[13] = c->s.other_sp;
		c->s.other_sp = t;
	}
	c->s.control = (c->s.control & ~2u) | (psp ? 2u : 0);
}

uint32_t isa_xpsr(const struct isa_cpu *c)
{
	uint32_t it = c->s.it;

	return (c->s.apsr & 0xf80f0000u) | (c->s.tbit_clear ? 0 : 1u << 24) |
	       (it & 3) << 25 | (it >> 2) << 10 | c->s.ipsr;
}

uint32_t isa_cpu_get(const struct isa_cpu *c, enum isa_reg r)
{
	int psp = isa_sp_is_psp(c);

	switch (r) {
	case ISA_R_XPSR: return isa_xpsr(c);
	case ISA_R_MSP: return psp ? c->s.other_sp : c->s.r[13];
	case ISA_R_PSP: return psp ? c->s.r[13] : c->s.other_sp;
	case ISA_R_PRIMASK: return c->s.primask;
	case ISA_R_BASEPRI: return c->s.basepri;
	case ISA_R_FAULTMASK: return c->s.faultmask;
	case ISA_R_CONTROL: return c->s.control;
	default:
		if ((unsigned)r < 16)
			return c->s.r[r];
		return 0;
	}
}

void isa_cpu_get_regs(const struct isa_cpu *c, uint32_t regs[ISA_NREGS])
{
	int psp = isa_sp_is_psp(c);

	memcpy(regs, c->s.r, 16 * sizeof(*regs));
	regs[ISA_R_XPSR] = isa_xpsr(c);
	regs[ISA_R_MSP] = psp ? c->s.other_sp : c->s.r[13];
	regs[ISA_R_PSP] = psp ? c->s.r[13] : c->s.other_sp;
	regs[ISA_R_PRIMASK] = c->s.primask;
	regs[ISA_R_BASEPRI] = c->s.basepri;
	regs[ISA_R_FAULTMASK] = c->s.faultmask;
	regs[ISA_R_CONTROL] = c->s.control;
}

void isa_cpu_set(struct isa_cpu *c, enum isa_reg r, uint32_t v)
{
	int psp = isa_sp_is_psp(c);

	switch (r) {
	case ISA_R_XPSR:
		c->s.apsr = v & 0xf80f0000u;
		c->s.ipsr = v & 0x1ff;
		c->s.it = (v >> 25 & 3) | (v >> 10 & 0x3f) << 2;
		c->s.tbit_clear = !(v >> 24 & 1);
		break;
	case ISA_R_MSP: *(psp ? &c->s.other_sp : &c->s.r[13]) = v; break;
	case ISA_R_PSP: *(psp ? &c->s.r[13] : &c->s.other_sp) = v; break;
	case ISA_R_PRIMASK: c->s.primask = v & 1; break;
	case ISA_R_BASEPRI: c->s.basepri = v & 0xff; break;
	case ISA_R_FAULTMASK: c->s.faultmask = v & 1; break;
	case ISA_R_CONTROL:
		c->s.control = v & (isa_model_info(c->model)->fpu != ISA_FPU_NONE ? 5 : 1);
		isa_select_sp(c, v >> 1 & 1);
		break;
	default:
		if ((unsigned)r < 16)
			c->s.r[r] = r == 15 ? v & ~1u : v;
		break;
	}
}

void isa_cpu_trace_regs(const struct isa_cpu *c, FILE *f)
{
	const uint32_t *r = c->s.r;

	fprintf(f,
		"%08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x "
		"%08x %08x %08x",
		c->core, r[15], r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9],
		r[10], r[11], r[12], r[13], r[14], isa_xpsr(c));
	/* with an FPU, then s0..s31 and FPSCR (tools/qemulog --fpu writes the same) */
	if (isa_model_info(c->model)->fpu != ISA_FPU_NONE) {
		for (int i = 0; i < 32; i++)
			fprintf(f, " %08x", c->s.fpr[i]);
		fprintf(f, " %08x", c->s.fpscr);
	}
	fputc('\n', f);
}

size_t isa_cpu_state_size(void)
{
	return sizeof(struct isa_state);
}

void isa_cpu_save(const struct isa_cpu *cpu, void *buf)
{
	memcpy(buf, &cpu->s, sizeof(cpu->s));
}

void isa_cpu_restore(struct isa_cpu *cpu, const void *buf)
{
	memcpy(&cpu->s, buf, sizeof(cpu->s));
}

void isa_cpu_signal_event(struct isa_cpu *c)
{
	c->s.event = 1;
	if (c->s.sleeping == 2)
		c->s.sleeping = 0, c->s.event = 0;
}

int isa_cpu_will_execute(const struct isa_cpu *c)
{
	if (c->s.lockup || c->s.pend_fault || isa_pending_preempts(c))
		return 0;
	if (c->s.sleeping == 1 && isa_pending_wakes_wfi(c))
		return 1;
	return !c->s.sleeping;
}

int isa_cpu_sleeping(const struct isa_cpu *c)
{
	if (!c->s.sleeping)
		return 0;
	return c->s.sleeping == 1 ? !isa_pending_wakes_wfi(c) : !isa_pending_preempts(c);
}

void isa_cpu_snoop_store(struct isa_cpu *c, uint32_t addr, unsigned size)
{
	if (c->s.excl.valid && addr < c->s.excl.addr + 4 && addr + size > c->s.excl.addr)
		c->s.excl.valid = 0;
}

/* ---- memory ------------------------------------------------------------ */

static int in_ppb(uint32_t addr)
{
	return (addr >> 20) == 0xe00;
}

int isa_load(struct isa_cpu *c, uint32_t addr, unsigned size, uint32_t *val,
	     enum isa_access kind)
{
	int r = c->bus->read(c->bus->ctx, c, addr, size, val, kind);

	if (r == ISA_BUS_DEFAULT && in_ppb(addr))
		r = isa_scs_read(c, addr, size, val) ? ISA_BUS_FAULT : ISA_BUS_OK;
	if (r != ISA_BUS_OK)
		return isa_fault(c, EXC_BUSFAULT, BFSR_PRECISERR | BFSR_BFARVALID, addr);
	return EX_OK;
}

int isa_store(struct isa_cpu *c, uint32_t addr, unsigned size, uint32_t val,
	      enum isa_access kind)
{
	if (in_ppb(addr) && kind != ISA_ACC_STACK) {
		if (isa_scs_write(c, addr, size, val))
			return isa_fault(c, EXC_BUSFAULT, BFSR_PRECISERR | BFSR_BFARVALID, addr);
	}
	if (c->bus->write(c->bus->ctx, c, addr, size, val, kind) != ISA_BUS_OK)
		return isa_fault(c, EXC_BUSFAULT, BFSR_PRECISERR | BFSR_BFARVALID, addr);
	isa_decoder_invalidate(c->dec, addr, size);
	return EX_OK;
}

/* ---- the step ---------------------------------------------------------- */

/*
 * The general step (the simple engine): every case in the order of the
 * architecture, the reference the fast path below is checked against
 * (RAPTOR_SIMPLE_ENGINE=1 runs it for every step).
 */
static int step_general(struct isa_cpu *c, struct isa_step *out)
{
	const struct isa_insn *in;
	int err, r, pass;
	unsigned cond;

	memset(out, 0, sizeof(*out));
	if (c->s.lockup)
		return error("isa: core %d: locked up (fault in HardFault) at pc 0x%08x",
			     c->core, c->s.r[15]);
	if (c->s.pend_fault || isa_pending_preempts(c)) {
		r = isa_take_pending(c, out);
		if (r < 0)
			return -1;
		if (r > 0) {
			c->s.sleeping = 0;
			return 0;
		}
	}
	if (c->s.sleeping == 1 && isa_pending_wakes_wfi(c))
		c->s.sleeping = 0; /* woken, the interrupt stays pending (PRIMASK) */
	if (c->s.sleeping) {
		out->ev = ISA_EV_SLEEP;
		out->pc = out->next_pc = c->s.r[15];
		return 0;
	}

	c->pc = c->s.r[15];
	out->ev = ISA_EV_INSN;
	out->pc = c->pc;
	if (c->s.tbit_clear) {
		/* executing with EPSR.T = 0: INVSTATE before anything happens */
		out->faulted = 1;
		out->next_pc = c->pc;
		c->s.icount++;
		isa_fault(c, EXC_USAGEFAULT, UFSR_INVSTATE, 0);
		return 0;
	}
	in = isa_decode(c->dec, c->bus, c->pc, &err);
	if (!in) {
		/* instruction fetch bus error: precise BusFault on this instruction */
		out->faulted = 1;
		out->next_pc = c->pc;
		c->s.icount++;
		isa_fault(c, EXC_BUSFAULT, BFSR_IBUSERR, 0);
		return 0;
	}
	out->size = in->size;
	out->cf = in->cf;
	out->insn_id = in->id;
	out->in_it = in_it_block(c);

	c->next_pc = c->pc + in->size;
	c->stop = 0;
	c->branched = 0;
	c->exc_return = 0;
	c->tail_exc = 0;
	cond = out->in_it ? c->s.it >> 4 : in->cond;
	pass = cond >= 14 || cond_pass(c->s.apsr, cond);
	out->executed = pass;
	if (pass) {
		uint8_t it_before = c->s.it;

		r = in->fn(c, in);
		if (r == EX_FATAL)
			return -1;
		if (r == EX_FAULT) {
			/* did not retire: PC and ITSTATE stay on this instruction */
			out->faulted = 1;
			out->next_pc = c->pc;
			c->s.it = it_before;
			c->s.icount++;
			return 0;
		}
	}
	if (in->fn != isa_exec_it && !c->exc_return)
		it_advance(c);
	c->s.r[15] = c->next_pc;
	out->next_pc = c->next_pc;
	out->taken = c->branched;
	out->exc_return = c->exc_return;
	out->exc = c->tail_exc;
	c->s.icount++;
	if (c->stop)
		out->ev = ISA_EV_STOP;
	return 0;
}

int isa_plain_failed(const struct isa_cpu *c, const struct isa_insn *in, uint32_t pc)
{
	return error("isa: core %d: internal error: the block engine's instruction 0x%08x at pc "
		     "0x%08x did not retire (isa_insn_plain, isa_insn_dbranch)", c->core, in->raw,
		     pc);
}

int isa_cpu_step_plain(struct isa_cpu *c, uint32_t *pcp, struct isa_step *out)
{
	return isa_cpu_step_plain_inline(c, pcp, out);
}

/*
 * The fast path: a core that is awake, not locked up, in Thumb state, with
 * no fault and no exception pending (not even one that could not preempt:
 * the test is one OR of the pending words) executes the instruction at its
 * PC, found in the decode cache. Everything else, and a cache miss, takes
 * the general step, which then does exactly what it always did.
 */
int isa_cpu_step(struct isa_cpu *c, struct isa_step *out)
{
	const struct isa_insn *in = fast_insn(c, c->s.r[15]);

	if (__builtin_expect(!in, 0))
		return step_general(c, out);
	return isa_cpu_step_decoded(c, in, out);
}

int isa_cpu_step_decoded(struct isa_cpu *c, const struct isa_insn *in, struct isa_step *out)
{
	uint32_t pc = c->s.r[15];
	unsigned cond;
	int r;

	isa_fast_begin(c, in, pc);
	out->ev = ISA_EV_INSN;
	out->pc = pc;
	out->size = in->size;
	out->cf = in->cf;
	out->insn_id = in->id;
	out->in_it = in_it_block(c);
	out->faulted = 0;
	cond = out->in_it ? c->s.it >> 4 : in->cond;
	out->executed = cond >= 14 || cond_pass(c->s.apsr, cond);
	if (out->executed) {
		uint8_t it_before = c->s.it;

		r = in->fn(c, in);
		if (__builtin_expect(r != EX_OK, 0)) {
			if (r == EX_FATAL)
				return -1;
			/* did not retire: PC and ITSTATE stay on this instruction */
			out->faulted = 1;
			out->next_pc = pc;
			out->taken = out->exc_return = 0;
			out->exc = 0;
			c->s.it = it_before;
			c->s.icount++;
			return 0;
		}
	}
	/* (ITSTATE 0: ITAdvance leaves it so) */
	if (c->s.it && in->fn != isa_exec_it && !c->exc_return)
		it_advance(c);
	c->s.r[15] = c->next_pc;
	out->next_pc = c->next_pc;
	out->taken = c->branched;
	out->exc_return = c->exc_return;
	out->exc = c->tail_exc;
	c->s.icount++;
	if (c->stop)
		out->ev = ISA_EV_STOP;
	return 0;
}

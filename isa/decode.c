/*
 * decode.c: Capstone 4 -> struct isa_insn, once per PC.
 *
 * Capstone 4.0.2 traps handled here (DESIGN.md section 6):
 * - it must be opened THUMB | MCLASS, or MSR/MRS do not decode;
 * - it keeps IT state in the handle: we never show it an IT instruction
 *   (IT is decoded by hand) so no state can leak between decodes;
 * - update_flags is derived from printed text and is wrong for some
 *   encodings (`adc r0, r1, #2` reports it set); the S bit is taken from
 *   the raw encoding instead (s_mode);
 * - post-indexed addressing shows disp 0 plus an extra immediate operand;
 * - branch immediates are absolute targets; `adr` carries the raw offset;
 * - it has no ARMv8-M: the load-acquire/store-release group decodes only
 *   in its V8 mode (a second handle, used for that group alone: V8 mode
 *   would also decode ARMv8-A instructions an M33 lacks), MRS/MSR of
 *   MSPLIM/PSPLIM not at all, and the Security Extension's SG, BXNS, BLXNS
 *   and TT come out as other instructions (LDRD, BX, STREX): those are
 *   decoded by hand here, before Capstone (v8m_hand).
 */
#include <stdlib.h>
#include <string.h>

#include "isa/isa_priv.h"
#include "isa/model.h"

#define DC_TABLE_BYTES ((size_t)(1u << (32 - DC_PAGE_BITS)) * sizeof(struct isa_insn *))

struct isa_decoder *isa_decoder_new(enum isa_model model)
{
	struct isa_decoder *d = xcalloc(1, sizeof(*d));

	if (cs_open(CS_ARCH_ARM, CS_MODE_THUMB | CS_MODE_MCLASS, &d->cs) != CS_ERR_OK)
		die("capstone: cannot open an ARM Thumb/M-class handle");
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	d->model = model;
	d->v6m = isa_model_info(model)->arch == ISA_ARCH_V6M;
	d->v8m = isa_model_info(model)->arch == ISA_ARCH_V8MML;
	if (d->v8m) {
		if (cs_open(CS_ARCH_ARM, CS_MODE_THUMB | CS_MODE_MCLASS | CS_MODE_V8, &d->cs_v8) !=
		    CS_ERR_OK)
			die("capstone: cannot open an ARM Thumb/M-class/V8 handle");
		cs_option(d->cs_v8, CS_OPT_DETAIL, CS_OPT_ON);
	}
	d->cache_on = !getenv("RAPTOR_NO_DECODE_CACHE"); /* white-box switch */
	d->simple = isa_simple_engine() || !d->cache_on;
	/* 8 MiB of page pointers, touched sparsely: mapped (calloc cleared it whole) */
	d->pages = xmap_table(DC_TABLE_BYTES, "the decode cache's page table");
	return d;
}

int isa_simple_engine(void)
{
	const char *e = getenv("RAPTOR_SIMPLE_ENGINE");

	return e && *e && strcmp(e, "0");
}

void isa_decoder_free(struct isa_decoder *d)
{
	if (!d)
		return;
	/* only the pages decoded into: touching all 2^20 pointers costs milliseconds */
	for (size_t i = 0; i < d->nused; i++)
		free(d->used[i]);
	free(d->used);
	xunmap_table(d->pages, DC_TABLE_BYTES);
	cs_close(&d->cs);
	if (d->v8m)
		cs_close(&d->cs_v8);
	free(d);
}

void isa_decoder_set_cache(struct isa_decoder *d, int on)
{
	d->cache_on = on;
	d->simple = isa_simple_engine() || !on;
}

void isa_decoder_invalidate(struct isa_decoder *d, uint32_t addr, uint32_t len)
{
	/* a 32-bit instruction starting 2 bytes earlier overlaps too */
	uint32_t a = (addr - 2) & ~1u, end = addr + len;

	while (a != end && a - (addr - 2) < len + 2) {
		struct isa_insn *pg = d->pages[a >> DC_PAGE_BITS];

		if (!pg) {
			/* nothing decoded in this page: on to the next one (may wrap to 0) */
			a = (a | ((1u << DC_PAGE_BITS) - 1)) + 1;
			continue;
		}
		pg[(a & ((1u << DC_PAGE_BITS) - 1)) >> 1].fn = NULL;
		pg[(a & ((1u << DC_PAGE_BITS) - 1)) >> 1].plain = 0;
		pg[(a & ((1u << DC_PAGE_BITS) - 1)) >> 1].dbranch = 0;
		pg[(a & ((1u << DC_PAGE_BITS) - 1)) >> 1].sload = 0;
		a += 2;
	}
}

static int creg(unsigned r)
{
	switch (r) {
	case ARM_REG_SP: return 13;
	case ARM_REG_LR: return 14;
	case ARM_REG_PC: return 15;
	default:
		if (r >= ARM_REG_R0 && r <= ARM_REG_R12)
			return r - ARM_REG_R0;
		return -1;
	}
}

/*
 * Flag setting from the raw encoding. 16-bit ALU instructions set flags
 * outside an IT block only (A6.2.1 "setflags = !InITBlock()"), compares
 * always; 32-bit data processing carries an explicit S bit (hw1 bit 4).
 */
static uint8_t s_mode_of(uint32_t raw, unsigned size)
{
	if (size == 2) {
		unsigned hw = raw;

		if ((hw >> 14) == 0) { /* shift/add/sub/mov/cmp immediate */
			if ((hw >> 11) == 5) /* CMP imm8 */
				return S_ALWAYS;
			return S_OUTSIDE_IT;
		}
		if ((hw >> 10) == 0x10) { /* data processing (register) */
			unsigned op = hw >> 6 & 0xf;

			return (op == 8 || op == 10 || op == 11) ? S_ALWAYS : S_OUTSIDE_IT;
		}
		if ((hw >> 8) == 0x45) /* CMP high registers */
			return S_ALWAYS;
		return S_NEVER;
	}
	unsigned hw1 = raw >> 16, hw2 = raw & 0xffff;

	if ((hw1 & 0xfa00) == 0xf000 && !(hw2 & 0x8000)) /* modified immediate */
		return (hw1 >> 4 & 1) ? S_ALWAYS : S_NEVER;
	if ((hw1 & 0xfe00) == 0xea00) /* shifted register */
		return (hw1 >> 4 & 1) ? S_ALWAYS : S_NEVER;
	if ((hw1 & 0xff80) == 0xfa00 && (hw2 & 0xf0f0) == 0xf000) /* shift by register */
		return (hw1 >> 4 & 1) ? S_ALWAYS : S_NEVER;
	return S_NEVER;
}

/* Carry out of ThumbExpandImm_C: 0 unchanged, 2 clear, 3 set. */
static uint8_t imm_carry_of(uint32_t raw, unsigned size, uint32_t imm)
{
	unsigned hw1 = raw >> 16, hw2 = raw & 0xffff;

	if (size != 4 || (hw1 & 0xfa00) != 0xf000 || (hw2 & 0x8000))
		return 0;
	unsigned imm12 = (hw1 >> 10 & 1) << 11 | (hw2 >> 12 & 7) << 8 | (hw2 & 0xff);

	if ((imm12 >> 10) == 0)
		return 0;
	return 2 | (imm >> 31);
}

static int is_ldst(unsigned id)
{
	switch (id) {
	case ARM_INS_LDR: case ARM_INS_LDRB: case ARM_INS_LDRH: case ARM_INS_LDRSB:
	case ARM_INS_LDRSH: case ARM_INS_LDRD: case ARM_INS_STR: case ARM_INS_STRB:
	case ARM_INS_STRH: case ARM_INS_STRD:
		return 1;
	}
	return 0;
}

static int is_multi(unsigned id)
{
	switch (id) {
	case ARM_INS_LDM: case ARM_INS_LDMDB: case ARM_INS_STM: case ARM_INS_STMDB:
	case ARM_INS_PUSH: case ARM_INS_POP:
		return 1;
	}
	return 0;
}

/*
 * The ARMv8-M load-acquire/store-release group (LDA, LDAB, LDAH, STL, STLB,
 * STLH and their exclusive forms): T32 "load/store exclusive, TBB/TBH"
 * space with op bit 7 set; size 3 (the doubleword forms) is ARMv8-A only.
 *
 *   hw1: 1110 1000 110 L | Rn      hw2: Rt | Rt2 | 1 ex sz | Rd
 */
static int v8m_acqrel(uint32_t raw, unsigned size)
{
	return size == 4 && (raw >> 16 & 0xffe0) == 0xe8c0 && (raw & 0x80) &&
	       (raw >> 4 & 3) != 3;
}

/* The Capstone handle that decodes raw for d. */
static csh handle_for(const struct isa_decoder *d, uint32_t raw, unsigned size)
{
	return d->v8m && v8m_acqrel(raw, size) ? d->cs_v8 : d->cs;
}

/*
 * ARMv8-M encodings decoded by hand (see the top of this file). The
 * Security Extension is not modelled (the core stays in Secure state,
 * docs/BOARD.md): its instructions get a name and stop the run as
 * unimplemented. MRS/MSR of MSPLIM/PSPLIM (SYSm 0x0A, 0x0B) go to the
 * ordinary MRS/MSR handlers, which read the raw bits.
 */
enum { HAND_NONE, HAND_SECEXT, HAND_MRS, HAND_MSR };

static int v8m_hand(uint32_t raw, unsigned size, const char **name)
{
	unsigned hw1 = raw >> 16, hw2 = raw & 0xffff;

	*name = NULL;
	if (size == 2) {
		if ((raw & 0xff87) == 0x4704)
			*name = "bxns";
		else if ((raw & 0xff87) == 0x4784)
			*name = "blxns";
		return *name ? HAND_SECEXT : HAND_NONE;
	}
	if (raw == 0xe97fe97fu) {
		*name = "sg";
	} else if ((hw1 & 0xfff0) == 0xe840 && (hw2 & 0xf03f) == 0xf000) {
		static const char *const tt[] = {"tt", "ttt", "tta", "ttat"};

		*name = tt[hw2 >> 6 & 3];
	} else if ((hw1 & 0xffe0) == 0xec20 && hw2 == 0x0a00) {
		*name = hw1 & 0x10 ? "vlldm" : "vlstm";
	} else if (hw1 == 0xf3ef && (hw2 & 0xf000) == 0x8000) {
		if (hw2 & 0x80)
			*name = "mrs";
		else if ((hw2 & 0xfe) == 0x0a)
			return HAND_MRS;
	} else if ((hw1 & 0xfff0) == 0xf380 && (hw2 & 0xff00) == 0x8800) {
		if (hw2 & 0x80)
			*name = "msr";
		else if ((hw2 & 0xfe) == 0x0a)
			return HAND_MSR;
	}
	return *name ? HAND_SECEXT : HAND_NONE;
}

static const char *reg_name(unsigned r)
{
	static const char *const n[16] = {"r0", "r1", "r2",  "r3",  "r4",  "r5", "r6", "r7",
					  "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc"};

	return n[r & 15];
}

/* Text of a hand-decoded instruction into buf; 0 if raw is not one. */
static int v8m_hand_text(uint32_t raw, unsigned size, char *buf, size_t len)
{
	const char *name;
	unsigned hw1 = raw >> 16, hw2 = raw & 0xffff;

	switch (v8m_hand(raw, size, &name)) {
	case HAND_SECEXT:
		if (size == 2) /* BXNS, BLXNS */
			snprintf(buf, len, "%s %s", name, reg_name(raw >> 3));
		else if (name[0] == 't') /* TT* Rd, Rn */
			snprintf(buf, len, "%s %s, %s", name, reg_name(hw2 >> 8), reg_name(hw1));
		else if (name[0] == 'v') /* VLLDM, VLSTM Rn */
			snprintf(buf, len, "%s %s", name, reg_name(hw1));
		else if (hw1 == 0xf3ef) /* MRS of a Non-secure alias */
			snprintf(buf, len, "mrs %s, SYSm 0x%02x", reg_name(hw2 >> 8), hw2 & 0xff);
		else if (name[0] == 'm')
			snprintf(buf, len, "msr SYSm 0x%02x, %s", hw2 & 0xff, reg_name(hw1));
		else
			snprintf(buf, len, "%s", name);
		snprintf(buf + strlen(buf), len - strlen(buf), ": the Security Extension");
		return 1;
	case HAND_MRS:
		snprintf(buf, len, "mrs %s, %s", reg_name(raw >> 8), raw & 1 ? "psplim" : "msplim");
		return 1;
	case HAND_MSR:
		snprintf(buf, len, "msr %s, %s", raw & 1 ? "psplim" : "msplim", reg_name(hw1));
		return 1;
	}
	return 0;
}

int isa_exec_unimplemented(struct isa_cpu *c, const struct isa_insn *in)
{
	char text[192] = "?";
	cs_insn *ci;
	uint8_t b[4];

	if (in->size == 2) {
		b[0] = in->raw;
		b[1] = in->raw >> 8;
	} else {
		b[0] = in->raw >> 16;
		b[1] = in->raw >> 24;
		b[2] = in->raw;
		b[3] = in->raw >> 8;
	}
	/* those named by hand: Capstone would show another instruction */
	if (!(c->dec->v8m && v8m_hand_text(in->raw, in->size, text, sizeof(text))) &&
	    cs_disasm(handle_for(c->dec, in->raw, in->size), b, in->size, c->pc, 1, &ci) == 1) {
		snprintf(text, sizeof(text), "%s %s", ci->mnemonic, ci->op_str);
		cs_free(ci, 1);
	}
	return error("isa: core %d: unimplemented instruction at pc 0x%08x after %llu "
		     "instructions: encoding 0x%0*x (%s)",
		     c->core, c->pc, (unsigned long long)c->s.icount, in->size * 2, in->raw,
		     text);
}

static int exec_undecodable(struct isa_cpu *c, const struct isa_insn *in)
{
	return error("isa: core %d: undecodable instruction at pc 0x%08x after %llu "
		     "instructions: encoding 0x%0*x",
		     c->core, c->pc, (unsigned long long)c->s.icount, in->size * 2, in->raw);
}

static void convert(struct isa_decoder *d, struct isa_insn *in, const cs_insn *ci)
{
	const cs_arm *a = &ci->detail->arm;
	int n = 0;

	in->id = ci->id;
	in->cond = (a->cc == ARM_CC_INVALID) ? 14 : a->cc - 1;
	in->writeback = a->writeback;
	for (int i = 0; i < a->op_count; i++) {
		const cs_arm_op *o = &a->operands[i];
		struct isa_op *op;

		if (is_multi(ci->id) && o->type == ARM_OP_REG &&
		    (i > 0 || ci->id == ARM_INS_PUSH || ci->id == ARM_INS_POP)) {
			in->reglist |= 1u << creg(o->reg);
			continue;
		}
		if (o->type == ARM_OP_IMM && n > 0 && in->op[n - 1].kind == OP_MEM &&
		    is_ldst(ci->id)) {
			in->post = 1;
			in->post_imm = o->imm;
			continue;
		}
		if (n == ISA_MAXOPS)
			break;
		op = &in->op[n++];
		op->index = 0xff;
		switch (o->type) {
		case ARM_OP_REG:
			op->kind = OP_REG;
			op->reg = creg(o->reg);
			op->shift_type = o->shift.type;
			op->shift = o->shift.value;
			break;
		case ARM_OP_IMM:
		case ARM_OP_PIMM:
		case ARM_OP_CIMM:
			op->kind = OP_IMM;
			op->imm = o->imm;
			break;
		case ARM_OP_MEM:
			op->kind = OP_MEM;
			op->reg = creg(o->mem.base);
			op->imm = o->mem.disp;
			if (o->mem.index != ARM_REG_INVALID) {
				op->index = creg(o->mem.index);
				op->shift_type = ARM_SFT_LSL;
				op->shift = o->shift.type == ARM_SFT_LSL ? o->shift.value
									 : o->mem.lshift;
			}
			break;
		default: /* system registers: handlers decode the raw bits */
			op->kind = OP_NONE;
			break;
		}
	}
	in->nops = n;
	in->s_mode = s_mode_of(in->raw, in->size);
	if (in->nops && in->op[in->nops - 1].kind == OP_IMM)
		in->imm_carry = imm_carry_of(in->raw, in->size, in->op[in->nops - 1].imm);
	in->fn = isa_exec_table[ci->id] ? isa_exec_table[ci->id] : isa_dsp_table[ci->id];
	if (!in->fn)
		in->fn = isa_exec_unimplemented;
	if (isa_is_vfp(d->model, in->raw, in->size))
		in->fn = isa_model_info(d->model)->fpu != ISA_FPU_NONE ? isa_exec_vfp : isa_exec_nocp;
}

/*
 * ARMv6-M (A5.1, A5.3): of the 32-bit Thumb encodings only BL, MSR, MRS,
 * DMB, DSB and ISB exist; of the 16-bit ones CBZ, CBNZ and IT do not.
 * Everything else is UNDEFINED there. The 32-bit patterns are QEMU's
 * (translate.c, disas_thumb2_insn), which decodes the same set. QEMU 7.2
 * does execute CBZ, CBNZ and IT on a Cortex-M0 (its 16-bit decoder has
 * no check): raptor follows the architecture and faults (docs/BOARD.md).
 */
static int v6m_undefined(uint32_t raw, unsigned size)
{
	static const uint32_t match[] = {0xf3808000u /* MSR */, 0xf3b08040u /* DSB */,
					 0xf3b08050u /* DMB */, 0xf3b08060u /* ISB */,
					 0xf3e08000u /* MRS */, 0xf000d000u /* BL */};
	static const uint32_t mask[] = {0xffe0d000u, 0xfff0d0f0u, 0xfff0d0f0u,
					0xfff0d0f0u, 0xffe0d000u, 0xf800d000u};

	if (size == 2)
		return (raw & 0xf500) == 0xb100 || /* CBZ, CBNZ */
		       ((raw & 0xff00) == 0xbf00 && (raw & 0xf)); /* IT */
	for (size_t i = 0; i < ARRAY_SIZE(match); i++)
		if ((raw & mask[i]) == match[i])
			return 0;
	return 1;
}

static int fetch_insn(const struct isa_bus *bus, uint32_t pc, uint32_t *raw, unsigned *size)
{
	uint16_t hw1, hw2;

	if (bus->fetch(bus->ctx, pc, &hw1) != ISA_BUS_OK)
		return -1;
	if ((hw1 >> 11) >= 0x1d) {
		if (bus->fetch(bus->ctx, pc + 2, &hw2) != ISA_BUS_OK)
			return -1;
		*raw = (uint32_t)hw1 << 16 | hw2;
		*size = 4;
	} else {
		*raw = hw1;
		*size = 2;
	}
	return 0;
}

/*
 * Decode raw at pc into *in. If text: when Capstone is asked (not for IT,
 * the ARMv6-M and ARMv8-M encodings decided by hand), its text is put
 * there too ("mnemonic operands", or "(undecodable 0x...)"), and 1 is
 * returned: isa_describe then needs no second disassembly. Else 0.
 */
static int decode_into(struct isa_decoder *d, struct isa_insn *in, uint32_t pc, uint32_t raw,
		       unsigned size, char *text, size_t len)
{
	uint8_t b[4];
	cs_insn *ci;

	memset(in, 0, sizeof(*in));
	in->raw = raw;
	in->size = size;
	in->cond = 14;
	if (d->v6m && v6m_undefined(raw, size)) {
		/* no Capstone id: the trace modules see no branch in it */
		in->fn = isa_exec_undefined;
		return 0;
	}
	if (size == 2 && (raw & 0xff00) == 0xbf00 && (raw & 0xf)) {
		in->fn = isa_exec_it; /* IT: never shown to Capstone */
		in->plain = 1;
		return 0;
	}
	if (d->v8m) {
		const char *name;
		int hand = v8m_hand(raw, size, &name);

		if (hand == HAND_SECEXT) {
			in->fn = isa_exec_unimplemented;
			return 0;
		}
		/*
		 * LDAEXD/STLEXD are ARMv8-A's: UNDEFINED on ARMv8-M (QEMU 7.2
		 * executes them on its M33; raptor follows the architecture)
		 */
		if (size == 4 && (raw >> 16 & 0xffe0) == 0xe8c0 && (raw & 0xf0) == 0xf0) {
			in->fn = isa_exec_undefined;
			return 0;
		}
		if (hand != HAND_NONE) {
			in->id = hand == HAND_MRS ? ARM_INS_MRS : ARM_INS_MSR;
			in->fn = isa_exec_table[in->id];
			return 0;
		}
	}
	if (size == 2) {
		b[0] = raw;
		b[1] = raw >> 8;
	} else {
		b[0] = raw >> 16;
		b[1] = raw >> 24;
		b[2] = raw;
		b[3] = raw >> 8;
	}
	if (cs_disasm(handle_for(d, raw, size), b, size, pc, 1, &ci) != 1) {
		in->fn = exec_undecodable;
		if (isa_is_vfp(d->model, raw, size)) /* the FP handler reports what it lacks */
			in->fn = isa_model_info(d->model)->fpu != ISA_FPU_NONE ? isa_exec_vfp
										: isa_exec_nocp;
		if (text)
			snprintf(text, len, "(undecodable 0x%0*x)", (int)size * 2, raw);
		return text != NULL;
	}
	if (text)
		snprintf(text, len, "%s %s", ci->mnemonic, ci->op_str);
	convert(d, in, ci);
	isa_classify(in);
	in->plain = (uint8_t)isa_insn_plain(in);
	in->dbranch = (uint8_t)isa_insn_dbranch(in);
	in->sload = (uint8_t)isa_insn_sload(in);
	if (!d->simple)
		isa_specialise(in);
	cs_free(ci, 1);
	return text != NULL;
}

const struct isa_insn *isa_decode(struct isa_decoder *d, const struct isa_bus *bus,
				  uint32_t pc, int *err)
{
	struct isa_insn *pg, *in;
	uint32_t raw;
	unsigned size;

	*err = 0;
	d->lookups++;
	if (d->cache_on) {
		pg = d->pages[pc >> DC_PAGE_BITS];
		if (pg) {
			in = &pg[(pc & ((1u << DC_PAGE_BITS) - 1)) >> 1];
			if (in->fn)
				return in;
		} else {
			pg = d->pages[pc >> DC_PAGE_BITS] = xcalloc(DC_PAGE_INSNS, sizeof(*pg));
			if (d->nused == d->aused) {
				d->aused = d->aused ? 2 * d->aused : 16;
				d->used = xrealloc(d->used, d->aused * sizeof(*d->used));
			}
			d->used[d->nused++] = pg;
			in = &pg[(pc & ((1u << DC_PAGE_BITS) - 1)) >> 1];
		}
	} else {
		in = &d->scratch;
	}
	if (fetch_insn(bus, pc, &raw, &size)) {
		*err = 1;
		return NULL;
	}
	decode_into(d, in, pc, raw, size, NULL, 0);
	d->decodes++;
	return in;
}

uint64_t isa_decoder_fast_steps(const struct isa_decoder *d)
{
	return d->fast;
}

void isa_decoder_stats(const struct isa_decoder *d, uint64_t *lookups, uint64_t *decodes)
{
	*lookups = d->lookups + d->fast;
	*decodes = d->decodes;
}

int isa_describe(struct isa_decoder *d, const struct isa_bus *bus, uint32_t pc, char *buf,
		 size_t len, unsigned *size, enum isa_cf *cf, uint32_t *target)
{
	uint32_t raw;
	unsigned sz;
	struct isa_insn in;
	uint8_t b[4];
	cs_insn *ci;
	char text[sizeof(ci->mnemonic) + sizeof(ci->op_str)]; /* "%s %s" of them fits */
	int texted;

	if (fetch_insn(bus, pc, &raw, &sz))
		return error("isa: cannot fetch an instruction at 0x%08x", pc);
	texted = decode_into(d, &in, pc, raw, sz, buf && len ? text : NULL, sizeof(text));
	if (size)
		*size = sz;
	if (cf)
		*cf = in.cf;
	if (target)
		*target = (in.cf == ISA_CF_DIRECT || in.cf == ISA_CF_CALL ||
			   in.cf == ISA_CF_COND_DIRECT) && in.nops
				  ? (uint32_t)in.op[in.nops - 1].imm
				  : 0;
	if (buf && len) {
		const char *undef = in.fn == isa_exec_undefined && d->v6m
					    ? " (UNDEFINED on ARMv6-M)" : "";

		/* IT by its bits, never through Capstone (it would keep its state) */
		if (sz == 2 && (raw & 0xff00) == 0xbf00 && (raw & 0xf)) {
			static const char *cc[] = { "eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc",
						    "hi", "ls", "ge", "lt", "gt", "le", "al", "nv" };
			snprintf(buf, len, "it %s (mask 0x%x)%s", cc[raw >> 4 & 15], raw & 15,
				 undef);
			return 0;
		}
		if (d->v8m && v8m_hand_text(raw, sz, buf, len))
			return 0;
		if (texted) { /* decode_into's disassembly, the same as below */
			snprintf(buf, len, "%s%s", text, undef);
			return 0;
		}
		if (sz == 2) {
			b[0] = raw;
			b[1] = raw >> 8;
		} else {
			b[0] = raw >> 16;
			b[1] = raw >> 24;
			b[2] = raw;
			b[3] = raw >> 8;
		}
		if (cs_disasm(handle_for(d, raw, sz), b, sz, pc, 1, &ci) == 1) {
			snprintf(buf, len, "%s %s%s", ci->mnemonic, ci->op_str, undef);
			cs_free(ci, 1);
		} else {
			snprintf(buf, len, "(undecodable 0x%0*x)%s", sz * 2, raw, undef);
		}
	}
	return 0;
}

/*
 * thumb: size and trace class of a Thumb instruction from its encoding.
 * Encodings from the ARMv7-M ARM, A5 "The Thumb Instruction Set Encoding";
 * hw1 is the halfword at the lower address.
 */
#include "etm/thumb.h"

static uint32_t sext(uint32_t v, unsigned bits)
{
	uint32_t m = 1u << (bits - 1);

	return (v ^ m) - m;
}

static int is_b_t1(uint16_t hw1)
{
	/* 1101 cond imm8; cond 1110 is UDF, 1111 SVC */
	return (hw1 & 0xf000) == 0xd000 && (hw1 & 0x0e00) != 0x0e00;
}

static int is_b_t3(uint16_t hw1, uint16_t hw2)
{
	/* 11110 S cond imm6 : 10 J1 0 J2 imm11; cond 111x is another group */
	return (hw1 & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0x8000 && (hw1 & 0x0380) != 0x0380;
}

enum etm_thumb_kind etm_thumb_class(uint16_t hw1, uint16_t hw2, int *link)
{
	int dummy;

	if (!link)
		link = &dummy;
	*link = 0;
	if (etm_thumb_size(hw1) == 2) {
		if (is_b_t1(hw1) || (hw1 & 0xf800) == 0xe000 || (hw1 & 0xf500) == 0xb100)
			return ETM_THUMB_DIRECT; /* B<c> T1, B T2, CBZ/CBNZ */
		if ((hw1 & 0xff00) == 0x4700) {	 /* BX, BLX (register), BXNS, BLXNS */
			*link = (hw1 >> 7) & 1;
			return ETM_THUMB_INDIRECT;
		}
		if ((hw1 & 0xfd87) == 0x4487) /* ADD PC, Rm / MOV PC, Rm */
			return ETM_THUMB_INDIRECT;
		if ((hw1 & 0xff00) == 0xbd00) /* POP {..., PC} */
			return ETM_THUMB_INDIRECT;
		return ETM_THUMB_OTHER;
	}
	if (is_b_t3(hw1, hw2) || ((hw1 & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0x9000))
		return ETM_THUMB_DIRECT; /* B<c> T3, B T4 */
	if ((hw1 & 0xf800) == 0xf000 && (hw2 & 0xd000) == 0xd000) {
		*link = 1; /* BL */
		return ETM_THUMB_DIRECT;
	}
	if ((hw1 & 0xfff0) == 0xe8d0 && (hw2 & 0xffe0) == 0xf000)
		return ETM_THUMB_INDIRECT; /* TBB, TBH */
	if (((hw1 & 0xffd0) == 0xe890 || (hw1 & 0xffd0) == 0xe910) && (hw2 & 0x8000))
		return ETM_THUMB_INDIRECT; /* LDM(IA|DB) with the PC, POP.W */
	if ((hw1 & 0xff70) == 0xf850 && (hw2 >> 12) == 0xf)
		return ETM_THUMB_INDIRECT; /* LDR PC: imm12, imm8, register, literal */
	if (hw1 == 0xf3bf && (hw2 & 0xfff0) == 0x8f60)
		return ETM_THUMB_ISB;
	return ETM_THUMB_OTHER;
}

int etm_thumb_target(uint32_t pc, uint16_t hw1, uint16_t hw2, uint32_t *target)
{
	uint32_t off;

	if (etm_thumb_size(hw1) == 2) {
		if (is_b_t1(hw1))
			off = sext((hw1 & 0xffu) << 1, 9);
		else if ((hw1 & 0xf800) == 0xe000)
			off = sext((hw1 & 0x7ffu) << 1, 12);
		else if ((hw1 & 0xf500) == 0xb100) /* i:imm5:0, forward only */
			off = ((hw1 >> 2) & 0x3eu) | ((hw1 >> 3) & 0x40u);
		else
			return -1;
		*target = pc + 4 + off;
		return 0;
	}
	if ((hw1 & 0xf800) != 0xf000 || !(hw2 & 0x8000))
		return -1;
	uint32_t s = (hw1 >> 10) & 1, j1 = (hw2 >> 13) & 1, j2 = (hw2 >> 11) & 1;

	if (is_b_t3(hw1, hw2)) {
		/* S:J2:J1:imm6:imm11:0 */
		off = s << 20 | j2 << 19 | j1 << 18 | (hw1 & 0x3fu) << 12 | (hw2 & 0x7ffu) << 1;
		*target = pc + 4 + sext(off, 21);
		return 0;
	}
	if (hw2 & 0x1000) { /* B T4, BL: S:I1:I2:imm10:imm11:0 */
		uint32_t i1 = !(j1 ^ s), i2 = !(j2 ^ s);

		off = s << 24 | i1 << 23 | i2 << 22 | (hw1 & 0x3ffu) << 12 | (hw2 & 0x7ffu) << 1;
		*target = pc + 4 + sext(off, 25);
		return 0;
	}
	return -1;
}

/*
 * tdesc: the ARMv7-M register set the gdbserver shows GDB, as target.xml
 * (qXfer:features:read) and as `monitor reg` names, in OpenOCD's numbering
 * (server/target.h):
 *
 *   regnum  0..12  r0..r12  org.gnu.gdb.arm.m-profile  group general
 *          13      sp       data_ptr
 *          14      lr
 *          15      pc       code_ptr
 *          16      xpsr
 *          17, 18  msp, psp  org.gnu.gdb.arm.m-system  group system, data_ptr
 *          19..22  primask, basepri, faultmask, control   (same feature and
 *                  group, where OpenOCD puts them)
 *
 * and, for a target with an FPU (ops->has_fp) only, after them:
 *
 *          23..38  d0..d15  org.gnu.gdb.arm.vfp  group float, 64 bits, ieee_double
 *          39      fpscr    (same feature and group)
 *
 * as GDB's features/arm/arm-vfpv2.xml has them (FPv4-SP-D16 and FPv5-D16
 * have that layout), plus group="float" on the d registers (GDB puts
 * registers of a float type there anyway; LLDB then lists them with fpscr
 * rather than as general registers). GDB requires d0..d15 and fpscr by name
 * in that feature and then makes s0..s31 pseudo registers itself (s2n the
 * low half of dn, s2n+1 the high half), so target.xml must not list s
 * registers. Without an FPU, target.xml is the first 23 registers alone, as
 * before FP registers were served.
 *
 * Integer registers are 32 bits wide, d registers 64: a `g` reply is 23
 * little-endian words, or with an FPU 23 words, 16 doublewords and fpscr
 * (224 bytes). `monitor reg` prints OpenOCD's widths (/1, /8, /1, /3 for
 * primask..control; /64 for d registers) and names (xPSR).
 *
 * For LLDB, which reads the same target.xml, r0..pc carry their DWARF
 * numbers (dwarf_regnum 0..15; d0..d15 256..271, the ARM DWARF numbers of
 * the VFP-v3 d registers) and the registers with a role say it (generic):
 * pc, sp, ra (lr), flags (xpsr) and fp (r7: Thumb code keeps its frame
 * pointer there, ARM code in r11). GDB ignores both attributes.
 *
 * LLDB (14) does not make s registers from the d ones, and GDB must not be
 * given any: LLDB's target.xml (lldb = 1) adds s0..s31 after fpscr, each
 * the half of a d register (LLDB's value_regnums and offset attributes),
 * regnum 40..71 (never asked for: LLDB reads the d register), DWARF 64..95
 * (the numbers gcc's DWARF gives single-precision registers).
 */
#ifndef RAPTOR_SERVER_TDESC_H
#define RAPTOR_SERVER_TDESC_H

#include <stddef.h>

#include "server/target.h"
#include "util/util.h"

#define RSP_REG_D0 23	 /* d0..d15: 23..38 */
#define RSP_REG_FPSCR 39 /* after them */
#define RSP_NREGS_FP 40	 /* registers with an FPU */

struct rsp_reg {
	const char *name;     /* in target.xml */
	const char *ocd_name; /* in OpenOCD's `reg` output */
	int bits;	      /* target.xml bitsize: 32, or 64 (d registers) */
	int ocd_bits;	      /* width in OpenOCD's `reg` output */
	const char *type;     /* target.xml type: int, data_ptr, code_ptr, ieee_double */
	const char *group;    /* target.xml group */
	const char *feature;  /* target.xml feature */
	int dwarf;	      /* target.xml dwarf_regnum, for LLDB; -1: none */
	const char *generic;  /* target.xml generic (LLDB's role: pc, sp, fp, ra, flags); NULL */
};

/* Indexed by OpenOCD's register number; the first RSP_NREGS without an FPU. */
extern const struct rsp_reg rsp_regs[RSP_NREGS_FP];

/*
 * Write target.xml into buf (size bytes, NUL-terminated): the integer
 * registers, with fp = 1 the FP ones too, and with fp = 1 and lldb = 1
 * LLDB's s0..s31 as well. Its length, or -1 when it does not fit.
 */
int rsp_tdesc_xml(char *buf, size_t size, int fp, int lldb) MUST_CHECK;

/*
 * The number of the register called name among the first nregs (RSP_NREGS,
 * or RSP_NREGS_FP with an FPU): either of its names in any case, r13..r15,
 * or a decimal number. -1 if none.
 */
int rsp_reg_find(const char *name, int nregs);

#endif

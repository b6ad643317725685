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
 * Every register is 32 bits wide in target.xml, so a `g` reply is 23
 * little-endian words; `monitor reg` prints OpenOCD's widths (/1, /8, /1,
 * /3 for the last four) and names (xPSR).
 *
 * For LLDB, which reads the same target.xml, r0..pc carry their DWARF
 * numbers (dwarf_regnum 0..15) and the registers with a role say it
 * (generic): pc, sp, ra (lr), flags (xpsr) and fp (r7: Thumb code keeps
 * its frame pointer there, ARM code in r11). GDB ignores both attributes.
 */
#ifndef RAPTOR_SERVER_TDESC_H
#define RAPTOR_SERVER_TDESC_H

#include <stddef.h>

#include "server/target.h"
#include "util/util.h"

struct rsp_reg {
	const char *name;     /* in target.xml */
	const char *ocd_name; /* in OpenOCD's `reg` output */
	int ocd_bits;	      /* width in OpenOCD's `reg` output */
	const char *type;     /* target.xml type: int, data_ptr, code_ptr */
	const char *group;    /* target.xml group */
	const char *feature;  /* target.xml feature */
	int dwarf;	      /* target.xml dwarf_regnum, for LLDB; -1: none */
	const char *generic;  /* target.xml generic (LLDB's role: pc, sp, fp, ra, flags); NULL */
};

/* Indexed by OpenOCD's register number. */
extern const struct rsp_reg rsp_regs[RSP_NREGS];

/*
 * Write target.xml into buf (size bytes, NUL-terminated). Its length, or -1
 * when it does not fit.
 */
int rsp_tdesc_xml(char *buf, size_t size) MUST_CHECK;

/*
 * The number of the register called name: either of its names in any
 * case, r13..r15, or a decimal number. -1 if none.
 */
int rsp_reg_find(const char *name);

#endif

#include "server/tdesc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MPROF "org.gnu.gdb.arm.m-profile"
#define MSYS "org.gnu.gdb.arm.m-system"
#define VFP "org.gnu.gdb.arm.vfp"

const struct rsp_reg rsp_regs[RSP_NREGS_FP] = {
    {"r0", "r0", 32, 32, "int", "general", MPROF, 0, NULL},
    {"r1", "r1", 32, 32, "int", "general", MPROF, 1, NULL},
    {"r2", "r2", 32, 32, "int", "general", MPROF, 2, NULL},
    {"r3", "r3", 32, 32, "int", "general", MPROF, 3, NULL},
    {"r4", "r4", 32, 32, "int", "general", MPROF, 4, NULL},
    {"r5", "r5", 32, 32, "int", "general", MPROF, 5, NULL},
    {"r6", "r6", 32, 32, "int", "general", MPROF, 6, NULL},
    {"r7", "r7", 32, 32, "int", "general", MPROF, 7, "fp"},
    {"r8", "r8", 32, 32, "int", "general", MPROF, 8, NULL},
    {"r9", "r9", 32, 32, "int", "general", MPROF, 9, NULL},
    {"r10", "r10", 32, 32, "int", "general", MPROF, 10, NULL},
    {"r11", "r11", 32, 32, "int", "general", MPROF, 11, NULL},
    {"r12", "r12", 32, 32, "int", "general", MPROF, 12, NULL},
    {"sp", "sp", 32, 32, "data_ptr", "general", MPROF, 13, "sp"},
    {"lr", "lr", 32, 32, "int", "general", MPROF, 14, "ra"},
    {"pc", "pc", 32, 32, "code_ptr", "general", MPROF, 15, "pc"},
    {"xpsr", "xPSR", 32, 32, "int", "general", MPROF, -1, "flags"},
    {"msp", "msp", 32, 32, "data_ptr", "system", MSYS, -1, NULL},
    {"psp", "psp", 32, 32, "data_ptr", "system", MSYS, -1, NULL},
    {"primask", "primask", 32, 1, "int", "system", MSYS, -1, NULL},
    {"basepri", "basepri", 32, 8, "int", "system", MSYS, -1, NULL},
    {"faultmask", "faultmask", 32, 1, "int", "system", MSYS, -1, NULL},
    {"control", "control", 32, 3, "int", "system", MSYS, -1, NULL},
    {"d0", "d0", 64, 64, "ieee_double", "float", VFP, 256, NULL},
    {"d1", "d1", 64, 64, "ieee_double", "float", VFP, 257, NULL},
    {"d2", "d2", 64, 64, "ieee_double", "float", VFP, 258, NULL},
    {"d3", "d3", 64, 64, "ieee_double", "float", VFP, 259, NULL},
    {"d4", "d4", 64, 64, "ieee_double", "float", VFP, 260, NULL},
    {"d5", "d5", 64, 64, "ieee_double", "float", VFP, 261, NULL},
    {"d6", "d6", 64, 64, "ieee_double", "float", VFP, 262, NULL},
    {"d7", "d7", 64, 64, "ieee_double", "float", VFP, 263, NULL},
    {"d8", "d8", 64, 64, "ieee_double", "float", VFP, 264, NULL},
    {"d9", "d9", 64, 64, "ieee_double", "float", VFP, 265, NULL},
    {"d10", "d10", 64, 64, "ieee_double", "float", VFP, 266, NULL},
    {"d11", "d11", 64, 64, "ieee_double", "float", VFP, 267, NULL},
    {"d12", "d12", 64, 64, "ieee_double", "float", VFP, 268, NULL},
    {"d13", "d13", 64, 64, "ieee_double", "float", VFP, 269, NULL},
    {"d14", "d14", 64, 64, "ieee_double", "float", VFP, 270, NULL},
    {"d15", "d15", 64, 64, "ieee_double", "float", VFP, 271, NULL},
    {"fpscr", "fpscr", 32, 32, "int", "float", VFP, -1, NULL},
};

int rsp_tdesc_xml(char *buf, size_t size, int fp, int lldb)
{
	const char *feature = NULL;
	size_t n = 0, off = 0;
	int i, k;

#define ADD(...)                                                                                   \
	do {                                                                                       \
		k = snprintf(buf + n, size - n, __VA_ARGS__);                                      \
		if (k < 0 || (size_t)k >= size - n)                                                \
			return -1;                                                                 \
		n += (size_t)k;                                                                    \
	} while (0)

	if (!size)
		return -1;
	ADD("<?xml version=\"1.0\"?>\n"
	    "<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
	    "<target version=\"1.0\">\n"
	    "<architecture>arm</architecture>\n");
	for (i = 0; i < (fp ? RSP_NREGS_FP : RSP_NREGS); i++) {
		const struct rsp_reg *r = &rsp_regs[i];

		if (r->feature != feature) {
			if (feature)
				ADD("</feature>\n");
			feature = r->feature;
			ADD("<feature name=\"%s\">\n", feature);
		}
		ADD("<reg name=\"%s\" bitsize=\"%d\" regnum=\"%d\" type=\"%s\" group=\"%s\"",
		    r->name, r->bits, i, r->type, r->group);
		if (r->dwarf >= 0)
			ADD(" dwarf_regnum=\"%d\"", r->dwarf);
		if (r->generic)
			ADD(" generic=\"%s\"", r->generic);
		ADD("/>\n");
	}
	/*
	 * LLDB only: s0..s31 as parts of the d registers (value_regnums, and
	 * the offset in the g packet: s2n+1 is dn's high word), so that LLDB
	 * finds a float variable that DWARF puts in s15. It reads them from
	 * the d registers, never with p.
	 */
	for (i = 0; fp && lldb && i < 32; i++) {
		int d = RSP_REG_D0 + i / 2;

		for (off = 0, k = 0; k < d; k++)
			off += (size_t)rsp_regs[k].bits / 8;
		ADD("<reg name=\"s%d\" bitsize=\"32\" regnum=\"%d\" type=\"ieee_single\" "
		    "group=\"float\" value_regnums=\"%d\" offset=\"%zu\" dwarf_regnum=\"%d\"/>\n",
		    i, RSP_NREGS_FP + i, d, off + 4 * (size_t)(i % 2), 64 + i);
	}
	ADD("</feature>\n</target>\n");
#undef ADD
	return (int)n;
}

int rsp_reg_find(const char *name, int nregs)
{
	char *end;
	long v;
	int i;

	for (i = 0; i < nregs; i++)
		if (!strcasecmp(name, rsp_regs[i].name) || !strcasecmp(name, rsp_regs[i].ocd_name))
			return i;
	if (!strcasecmp(name, "r13"))
		return 13;
	if (!strcasecmp(name, "r14"))
		return 14;
	if (!strcasecmp(name, "r15"))
		return 15;
	v = strtol(name, &end, 10);
	if (*name >= '0' && *name <= '9' && !*end && v >= 0 && v < nregs)
		return (int)v;
	return -1;
}

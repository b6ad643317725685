/*
 * attrs: an ELF's build attributes (the .ARM.attributes section, "aeabi"
 * vendor subsection) and the core model they call for.
 *
 * The format is in ARM's "Addenda to, and Errata in, the ABI for the Arm
 * Architecture" (IHI 0045), section 3.3 "Build attributes":
 *
 *   'A'                              format version
 *   +--------+-------------+----------------------------------+
 *   | u32 len| "aeabi\0"   | sub-subsections ...               |  vendor
 *   +--------+-------------+----------------------------------+  subsection
 *                          | tag 1 (Tag_File) | u32 len | attrs |  (repeated;
 *                          +------------------+---------+-------+  lengths count
 *                                                                  their own
 *   attrs: ULEB128 tag, then a ULEB128 or an NTBS value:            header)
 *     tags 4, 5 (names) and odd tags >= 32 are NTBS, 32 is ULEB then NTBS,
 *     every other tag is ULEB128.
 *
 * Only the file-wide attributes (Tag_File) count; Tag_Section and
 * Tag_Symbol sub-subsections, other vendors and unknown tags are skipped.
 */
#ifndef RAPTOR_ISA_ATTRS_H
#define RAPTOR_ISA_ATTRS_H

#include <stddef.h>
#include <stdint.h>

#include "isa/isa.h"

/* Tag_CPU_arch values (IHI 0045 3.3.5.2) raptor tells apart. */
enum {
	ISA_ATTR_ARCH_V7 = 10,
	ISA_ATTR_ARCH_V6M = 11,
	ISA_ATTR_ARCH_V6SM = 12,
	ISA_ATTR_ARCH_V7EM = 13,
	ISA_ATTR_ARCH_V8MBASE = 16,
	ISA_ATTR_ARCH_V8MMAIN = 17,
	ISA_ATTR_ARCH_V81MMAIN = 21,
};

struct isa_attrs {
	int present;	   /* an "aeabi" Tag_File sub-subsection was found */
	char cpu_name[64]; /* Tag_CPU_name (5): gcc writes "7E-M", gas .cpu "Cortex-M4" */
	unsigned cpu_arch; /* Tag_CPU_arch (6); 0 (pre-v4) when absent */
	unsigned profile;  /* Tag_CPU_arch_profile (7): 'A', 'R', 'M', 'S', or 0 */
	unsigned fp_arch;  /* Tag_FP_arch (10): 0 none, 5-6 VFPv4, 7-8 FPv5 */
	unsigned hardfp;   /* Tag_ABI_HardFP_use (27): 0 as fp_arch, 1 SP only, 3 SP+DP */
	unsigned dsp;	   /* Tag_DSP_extension (46): 1 when allowed */
};

/*
 * Parse the contents of a .ARM.attributes section (buf, len) into *a
 * (cleared first). 0, or -1 with an error() naming the byte offset and
 * what is wrong there (what was read before it stays in *a).
 */
int isa_attrs_parse(const uint8_t *buf, size_t len, struct isa_attrs *a) MUST_CHECK;

/*
 * Read the build attributes of the ELF file path. A file with no
 * .ARM.attributes section is fine (a->present == 0). -1 with an error()
 * when the file cannot be read as an ELF or its section is malformed.
 */
int isa_attrs_read(const char *path, struct isa_attrs *a) MUST_CHECK;

/* What the attributes say about the core, for isa_attrs_model. */
enum isa_attrs_fit {
	ISA_ATTRS_NONE,	    /* no attributes, or no architecture in them: no opinion */
	ISA_ATTRS_MODEL,    /* a Cortex-M that raptor names: *m */
	ISA_ATTRS_NO_MODEL, /* an M-profile architecture raptor has no model of (v8-M baseline,
			       v8.1-M) */
	ISA_ATTRS_NOT_M,    /* an A or R profile or pre-v6 architecture: not a Cortex-M program */
};

/*
 * The model the attributes call for:
 *   v6-M, v6S-M                     -> m0plus
 *   v7 (M profile)                  -> m3
 *   v7E-M                           -> m4; m4f with an FP architecture;
 *                                      m7 with a double-precision one (FPv5
 *                                      not marked SP-only, or HardFP_use 3)
 *                                      or when Tag_CPU_name says Cortex-M7
 *   v8-M mainline                   -> m33
 *   v8-M baseline, v8.1-M mainline  -> ISA_ATTRS_NO_MODEL
 * *m is set only for ISA_ATTRS_MODEL.
 */
enum isa_attrs_fit isa_attrs_model(const struct isa_attrs *a, enum isa_model *m);

/*
 * What the attributes describe, for messages, into buf:
 * "Cortex-M4F (v7E-M, FPv4-SP)", "Cortex-M33 (v8-M mainline, DSP, FPv5-SP)",
 * "ARMv8-M baseline (Cortex-M23)", "ARMv4T". "" when !a->present.
 */
void isa_attrs_describe(const struct isa_attrs *a, char *buf, size_t len);

#endif

/*
 * dsp.c: the ARMv7E-M DSP extension (Cortex-M4): parallel add/subtract,
 * saturating arithmetic, packing, halfword multiplies, SEL and the GE flags.
 * On a Cortex-M3 every one of these is UNDEFINED (UsageFault UNDEFINSTR).
 */
#include "isa/isa_priv.h"

const isa_exec_fn isa_dsp_table[ARM_INS_ENDING] = {
	[0] = NULL,
};

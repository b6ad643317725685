/*
 * model: the table of core models (isa/model.h).
 */
#include "isa/model.h"

#include <stdio.h>
#include <string.h>

#include "util/util.h"

static const struct isa_model_info models[] = {
    [ISA_CORTEX_M3] = {"m3", "Cortex-M3", ISA_ARCH_V7M, 0, ISA_FPU_NONE, 0x410fc231u, 1},
    [ISA_CORTEX_M4] = {"m4", "Cortex-M4", ISA_ARCH_V7M, 1, ISA_FPU_NONE, 0x410fc240u, 1},
    [ISA_CORTEX_M4F] = {"m4f", "Cortex-M4F", ISA_ARCH_V7M, 1, ISA_FPU_SP, 0x410fc240u, 1},
    [ISA_CORTEX_M7] = {"m7", "Cortex-M7", ISA_ARCH_V7M, 1, ISA_FPU_DP, 0x411fc272u, 1},
    [ISA_CORTEX_M33] = {"m33", "Cortex-M33", ISA_ARCH_V8MML, 1, ISA_FPU_SP, 0x410fd213u, 1},
    [ISA_CORTEX_M0PLUS] = {"m0plus", "Cortex-M0+", ISA_ARCH_V6M, 0, ISA_FPU_NONE, 0x410cc601u, 1},
};
_Static_assert(ARRAY_SIZE(models) == ISA_NMODELS, "a row per enum isa_model");

const struct isa_model_info *isa_model_info(enum isa_model m)
{
	return (unsigned)m < ISA_NMODELS ? &models[m] : &models[ISA_CORTEX_M3];
}

int isa_model_parse(const char *name, enum isa_model *m)
{
	if (!strncmp(name, "cortex-", 7))
		name += 7;
	for (size_t i = 0; i < ARRAY_SIZE(models); i++) {
		if (!strcmp(name, models[i].name)) {
			*m = (enum isa_model)i;
			return 0;
		}
	}
	return -1;
}

void isa_model_names(char *buf, size_t len, const char *sep)
{
	size_t n = 0;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(models) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? sep : "", models[i].name);
}

const char *isa_model_lacks(enum isa_model big, enum isa_model small)
{
	const struct isa_model_info *b = isa_model_info(big), *s = isa_model_info(small);

	if (b->arch < s->arch)
		return s->arch == ISA_ARCH_V8MML ? "it has no ARMv8-M instructions"
						 : "it has only the ARMv6-M instructions";
	if (b->dsp < s->dsp)
		return "it has no DSP extension";
	if (b->fpu < s->fpu)
		return b->fpu == ISA_FPU_NONE ? "it has no FPU"
					      : "its FPU is single-precision only";
	return "";
}

const char *isa_model_llvm_arch(enum isa_model m)
{
	const struct isa_model_info *mi = isa_model_info(m);

	switch (mi->arch) {
	case ISA_ARCH_V6M: return "armv6m";
	case ISA_ARCH_V8MML: return "armv8m.main";
	default: return mi->dsp ? "armv7em" : "armv7m";
	}
}

int isa_model_covers(enum isa_model big, enum isa_model small)
{
	return !*isa_model_lacks(big, small);
}

void isa_model_running_names(char *buf, size_t len, const char *sep)
{
	size_t n = 0;
	int first = 1;

	if (len)
		buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(models) && n < len; i++) {
		if (!models[i].runs)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", first ? "" : sep, models[i].name);
		first = 0;
	}
}

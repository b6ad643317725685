/*
 * model: what each Cortex-M core model has (architecture, DSP, FP
 * extension, CPUID) and its names. The ISS, the manifest and the command
 * line all read this table, so a model is described in one place.
 */
#ifndef RAPTOR_ISA_MODEL_H
#define RAPTOR_ISA_MODEL_H

#include <stdint.h>

#include "isa/isa.h"

enum isa_arch {
	ISA_ARCH_V6M,	/* ARMv6-M: Cortex-M0, M0+ */
	ISA_ARCH_V7M,	/* ARMv7-M: Cortex-M3, M4, M7 */
	ISA_ARCH_V8MML, /* ARMv8-M mainline: Cortex-M33 */
};

enum isa_fpu {
	ISA_FPU_NONE,
	ISA_FPU_SP, /* single precision: FPv4-SP (M4F), FPv5-SP (M33) */
	ISA_FPU_DP, /* single and double: FPv5-D16 (M7) */
};

struct isa_model_info {
	const char *name;  /* as --cpu and manifest.ini say it: "m4f" */
	const char *title; /* "Cortex-M4F" */
	enum isa_arch arch;
	int dsp; /* the DSP extension (SIMD, saturating, long multiplies) */
	enum isa_fpu fpu;
	uint32_t cpuid; /* SCB CPUID, as QEMU's model of the core reads it */
	/*
	 * 1 when the ISS executes this model exactly; 0 for models that are
	 * named (manifests, ELF attributes) but not implemented yet.
	 */
	int runs;
};

/* The model's description; never NULL for a valid enum value. */
const struct isa_model_info *isa_model_info(enum isa_model m);
/* "m4f" -> ISA_CORTEX_M4F; also "cortex-m4f". 0, or -1 (unknown; no message). */
int isa_model_parse(const char *name, enum isa_model *m);
/*
 * 1 when a core of model big runs every instruction a program built for
 * model small may use: an architecture at least as large (v6-M < v7-M <
 * v8-M mainline), the DSP extension if small has it, an FPU at least as
 * large (none < single < double precision). 0 otherwise.
 */
int isa_model_covers(enum isa_model big, enum isa_model small);
/*
 * Why big does not cover small, for messages: "it has no DSP extension",
 * "it has no FPU", ... ("" when it covers).
 */
const char *isa_model_lacks(enum isa_model big, enum isa_model small);
/*
 * The architecture as LLVM's target triples name it, for debuggers that
 * want a triple (LLDB): "armv6m", "armv7m", "armv7em" (v7-M with the DSP
 * extension), "armv8m.main". The arm spelling, not thumb: LLDB attached
 * without the ELF knows from either that the core runs Thumb code only,
 * and with the ELF it keeps the ELF's "arm" architecture alongside an
 * armv7m triple, while a thumbv7m one replaces it and LLDB 14 then fails
 * to read the ELF's sections. A static string.
 */
const char *isa_model_llvm_arch(enum isa_model m);
/* The names of the models that run (runs = 1), separated by sep, into buf. */
void isa_model_running_names(char *buf, size_t len, const char *sep);
/* The names of every model, separated by sep ("m0plus|m3|m4|..."), into buf. */
void isa_model_names(char *buf, size_t len, const char *sep);

#endif

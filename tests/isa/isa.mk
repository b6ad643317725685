# isa.mk: the ISA corner-case programs (tests/isa/*.S), self-checking bare
# assembly with their own vector table (common.inc) and weak fallback
# handlers (defaults.S). Files named dsp-* are built for Cortex-M4, fp-*
# for Cortex-M4F (FPv4-SP, hard float), v6m-* for Cortex-M0+ (ARMv6-M,
# with v6m.inc and v6m.ld: QEMU's microbit memory map), fp64-* for
# Cortex-M7 (FPv5-D16, double precision, hard float), v8m-* for Cortex-M33
# (ARMv8-M mainline, soft float, with v8m.ld: QEMU mps2-an505's Secure
# map), the others for Cortex-M3. Output: $(BUILD)/isatest/NAME.elf.

ISA_TEST_SRC := $(filter-out tests/isa/defaults.S,$(wildcard tests/isa/*.S))
ISA_TEST_ELF := $(ISA_TEST_SRC:tests/isa/%.S=$(BUILD)/isatest/%.elf)
isa_test_cpu = $(if $(filter dsp-%,$(notdir $(1))),cortex-m4,$(if $(filter fp-%,$(notdir \
	$(1))),cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard,$(if $(filter fp64-%,$(notdir \
	$(1))),cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard,$(if $(filter v6m-%,$(notdir \
	$(1))),cortex-m0plus,$(if $(filter v8m-%,$(notdir $(1))),cortex-m33+nofp,cortex-m3)))))
isa_test_ld = tests/isa/$(if $(filter v6m-%,$(notdir $(1))),v6m,$(if $(filter v8m-%,$(notdir \
	$(1))),v8m,isa)).ld

isatests: $(ISA_TEST_ELF)

$(BUILD)/isatest/%.elf: tests/isa/%.S tests/isa/defaults.S tests/isa/common.inc tests/isa/isa.ld \
		tests/isa/v6m.inc tests/isa/v6m.ld tests/isa/v8m.ld
	@mkdir -p $(dir $@)
	$(ARM_PREFIX)gcc -mcpu=$(call isa_test_cpu,$<) -mthumb -nostdlib -Itests/isa \
		-T $(call isa_test_ld,$<) $< tests/isa/defaults.S -o $@

# fp64-ctx and fp64-exc are fp-ctx and fp-exc built for the Cortex-M7.
$(BUILD)/isatest/fp64-ctx.elf: tests/isa/fp-ctx.S
$(BUILD)/isatest/fp64-exc.elf: tests/isa/fp-exc.S

# guest.mk: the raptor board SDK and workloads (bare-metal Cortex-M ELFs).
# Included by the top-level Makefile, which sets BUILD and ARM_PREFIX.
#
# Every workload is built for each CPU x OPT into
#   $(BUILD)/guest/NAME-CPU-OPT.elf
# single-core ones with -DRAPTOR_SINGLE_CORE=1 (they run on stock QEMU),
# multicore ones without (they read the core registers at 0xD0000000).
# The multicore workloads are also built single-core, as
#   $(BUILD)/guest/sc/NAME-CPU-OPT.elf
# so QEMU can check their logic at one core. A few single-core workloads
# are also built with clang (GUEST_CLANG) for the M4F and M7:
#   $(BUILD)/guest/NAME-m4f-clang-OPT.elf, NAME-m7-clang-OPT.elf
# Lists, one ELF path per line: single.list, multi.list, multi-sc.list,
# multi-m4f.list, multi-m7.list, m33.list, multi-m33.list, m0plus.list.
# The long multicore workloads (GUEST_LONG, ~10^8 instructions, for the
# replay benchmarks) are built the same ways but kept out of those lists,
# which the tests run: they have their own, long.list and long-sc.list.

GUEST_CC      := $(ARM_PREFIX)gcc
GUEST_OUT     := $(BUILD)/guest
GUEST_CPUS    := m3 m4
GUEST_OPTS    := O0 O2 Os
GUEST_SINGLE  := crc32 sha256 qsort dijkstra bitcount stringsearch fft matmul \
	printf irq bitops dsp fpmath
GUEST_MULTI   := reduction ring radix lu nbody racy systick
GUEST_LONG    := soak
GUEST_SDK     := crt0 board syscalls
# The memory map: raptor.ld (QEMU mps2-an385's), m33.ld for the Cortex-M33
# (mps2-an505's Secure aliases), m0plus.ld for the Cortex-M0+ (the
# microbit's 256 KiB flash and 16 KiB RAM); all take their sections from
# sections.ld.
GUEST_LDS     := guest/sdk/raptor.ld
GUEST_LDS_m33 := guest/sdk/m33.ld
GUEST_LDS_m33f := guest/sdk/m33.ld
GUEST_LDS_m0plus := guest/sdk/m0plus.ld
guest_lds = $(or $(GUEST_LDS_$(1)),$(GUEST_LDS))

GUEST_WARN    := -Wall -Wextra
GUEST_ARCH_m3 := -mcpu=cortex-m3 -mthumb -mfloat-abi=soft
GUEST_ARCH_m4 := -mcpu=cortex-m4 -mthumb -mfloat-abi=soft
GUEST_ARCH_m4f := -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16
GUEST_ARCH_m7 := -mcpu=cortex-m7 -mthumb -mfloat-abi=hard -mfpu=fpv5-d16
GUEST_ARCH_m0plus := -mcpu=cortex-m0plus -mthumb -mfloat-abi=soft
# Cortex-M33 (ARMv8-M mainline with DSP) built soft-float, and hard-float
# (FPv5-SP) for the workloads GCC compiles without FPv5-only instructions.
GUEST_ARCH_m33 := -mcpu=cortex-m33+nofp -mthumb -mfloat-abi=soft
GUEST_ARCH_m33f := -mcpu=cortex-m33 -mthumb -mfloat-abi=hard -mfpu=fpv5-sp-d16
# The clang configurations, CPU m4f-clang and m7-clang: the compiler's
# target (GUEST_CLANG_ARCH_CPU) and, for the gcc driver that links, the
# gcc flags that pick the same multilib (GUEST_ARCH_CPU).
GUEST_CLANG_ARCH_m4f-clang := --target=thumbv7em-none-eabihf -mcpu=cortex-m4 \
	-mfpu=fpv4-sp-d16 -mfloat-abi=hard -mthumb
GUEST_CLANG_ARCH_m7-clang := --target=thumbv7em-none-eabihf -mcpu=cortex-m7 \
	-mfpu=fpv5-d16 -mfloat-abi=hard -mthumb
GUEST_ARCH_m4f-clang := $(GUEST_ARCH_m4f)
GUEST_ARCH_m7-clang := $(GUEST_ARCH_m7)
# newlib's headers, beside the libc.a GCC links (/usr/lib/arm-none-eabi/include
# on Debian). -fshort-enums: GCC's arm-none-eabi ABI (Tag_ABI_enum_size
# small), which newlib was built with; clang's default is 32-bit enums.
GUEST_NEWLIB_INC = $(abspath $(dir $(shell $(GUEST_CC) -print-file-name=libc.a))../include)
GUEST_CLANG_CFLAGS = -fshort-enums -isystem $(GUEST_NEWLIB_INC)
# libgcc's assembly objects have no .note.GNU-stack, which GNU ld 2.39+ warns
# about once a clang object pulls one in (__aeabi_d2iz): say it explicitly.
GUEST_LDFLAGS_m4f-clang := -Wl,-z,noexecstack
GUEST_LDFLAGS_m7-clang := -Wl,-z,noexecstack
GUEST_MODE_sc := -DRAPTOR_SINGLE_CORE=1
GUEST_MODE_mc :=
GUEST_CFLAGS  := -std=gnu11 -g $(GUEST_WARN) -ffunction-sections -fdata-sections \
	-Iguest/sdk -MMD -MP
GUEST_LDFLAGS := -nostartfiles -Wl,--gc-sections -Lguest/sdk
GUEST_LIBS    := -Wl,--start-group -lc -lm -lgcc -Wl,--end-group

# The 6 build configurations, as CPU-OPT.
GUEST_CONFIGS := $(foreach c,$(GUEST_CPUS),$(foreach o,$(GUEST_OPTS),$(c)-$(o)))

# $(call guest_elfs,NAMES,DIR): every NAME-CPU-OPT.elf under DIR.
guest_elfs = $(foreach n,$(1),$(foreach g,$(GUEST_CONFIGS),$(2)/$(n)-$(g).elf))

GUEST_SINGLE_ELFS := $(call guest_elfs,$(GUEST_SINGLE),$(GUEST_OUT))
# Hard-float Cortex-M4F (FPv4-SP) builds of the single-core workloads:
# NAME-m4f-OPT.elf, in single.list too (QEMU's mps2-an386 checks them, with
# the FP registers: slower, so two levels, ~8M instructions, keep t0100
# within its time limit; O0 and O3 were checked by hand, 0 mismatches).
GUEST_M4F_OPTS := O2 Os
GUEST_M4F_ELFS := $(foreach n,$(GUEST_SINGLE),$(foreach o,$(GUEST_M4F_OPTS),\
	$(GUEST_OUT)/$(n)-m4f-$(o).elf))
GUEST_SINGLE_ELFS += $(GUEST_M4F_ELFS)
# Hard-float builds of the multicore workloads at one level: NAME-m4f-O2.elf,
# in their own list, multi-m4f.list (t0360 records them with the FP ground
# truth), so that multi.list and the suites that run it keep their size.
GUEST_M4F_MULTI_OPT := O2
GUEST_M4F_MULTI_ELFS := $(foreach n,$(GUEST_MULTI),$(GUEST_OUT)/$(n)-m4f-$(GUEST_M4F_MULTI_OPT).elf)
# Cortex-M7 (FPv5-D16, double precision) builds, NAME-m7-OPT.elf, in
# single.list (t0104 checks them against QEMU's mps2-an500): the FP-heavy
# workloads, a few integer ones, and dmath, double precision only, built
# for the M7 alone. Their multicore FP workloads at O2 go to multi-m7.list
# (t0360 records them).
# The FP ones at every level GCC users pick (O0 O2 O3 Os), the others
# (fft computes in Q15 but for its sin() table) at two, so the suites that
# run all of single.list grow by less than a tenth.
GUEST_M7_FP := fpmath printf dmath
GUEST_M7_INT := fft matmul crc32 qsort sha256
GUEST_M7_SINGLE := $(GUEST_M7_FP) $(GUEST_M7_INT)
GUEST_M7_OPTS := O0 O2 O3 Os
GUEST_M7_ELFS := $(foreach n,$(GUEST_M7_FP),$(foreach o,$(GUEST_M7_OPTS),\
	$(GUEST_OUT)/$(n)-m7-$(o).elf)) $(foreach n,$(GUEST_M7_INT),$(foreach o,O2 Os,\
	$(GUEST_OUT)/$(n)-m7-$(o).elf))
GUEST_SINGLE_ELFS += $(GUEST_M7_ELFS)
GUEST_M7_MULTI := dpar nbody lu reduction
GUEST_M7_MULTI_ELFS := $(foreach n,$(GUEST_M7_MULTI),$(GUEST_OUT)/$(n)-m7-O2.elf)
# Cortex-M33 builds (m33.ld's map, QEMU mps2-an505 checks them): the
# single-core workloads at three levels in m33.list, the multicore ones at
# one in multi-m33.list, each list of its own so the others keep their size.
GUEST_M33_OPTS := O0 O2 Os
GUEST_M33_ELFS := $(foreach n,$(GUEST_SINGLE),$(foreach o,$(GUEST_M33_OPTS),\
	$(GUEST_OUT)/$(n)-m33-$(o).elf))
# Hard-float M33 builds (FPv5-SP) of the workloads that use FP, at O2, in
# m33.list too: NAME-m33f-O2.elf (fpmath's use VSEL, an FPv5 instruction).
GUEST_M33F := fft printf fpmath
GUEST_M33_ELFS += $(GUEST_M33F:%=$(GUEST_OUT)/%-m33f-O2.elf)
GUEST_M33_MULTI_OPT := O2
GUEST_M33_MULTI_ELFS := $(foreach n,$(GUEST_MULTI),$(GUEST_OUT)/$(n)-m33-$(GUEST_M33_MULTI_OPT).elf)
# clang builds (LLVM's code generator, not GCC's, against the same QEMU
# oracle): NAME-m4f-clang-OPT.elf for the Cortex-M4F and NAME-m7-clang-OPT.elf
# for the Cortex-M7 (cpu_of in tests/isa-diff-suite.sh and the ELF's build
# attributes read the model from them), at O2 and Os, in single.list (t0101
# and t0104 compare them with QEMU, t0300 replays them). Compiled by clang
# for thumbv7em-none-eabihf with newlib's headers, linked by the gcc driver
# like the gcc builds: same SDK objects (compiled by clang too), linker
# script, and the newlib and libgcc of the matching multilib.
GUEST_CLANG       ?= clang
GUEST_CLANG_M4F   := fpmath crc32 sha256
GUEST_CLANG_M7    := fpmath crc32 sha256 dmath
GUEST_CLANG_OPTS  := O2 Os
GUEST_CLANG_ELFS  := $(foreach n,$(GUEST_CLANG_M4F),$(foreach o,$(GUEST_CLANG_OPTS),\
	$(GUEST_OUT)/$(n)-m4f-clang-$(o).elf)) $(foreach n,$(GUEST_CLANG_M7),\
	$(foreach o,$(GUEST_CLANG_OPTS),$(GUEST_OUT)/$(n)-m7-clang-$(o).elf))
GUEST_SINGLE_ELFS += $(GUEST_CLANG_ELFS)
# Cortex-M0+ (ARMv6-M) builds, NAME-m0plus-OPT.elf, in m0plus.list (t0103
# compares them with QEMU's microbit, a Cortex-M0): the single-core
# workloads whose code and data fit m0plus.ld's 256 KiB and 16 KiB and use
# nothing ARMv6-M lacks (not irq: Thumb-2 asm, BASEPRI, UsageFault; bitops, dsp: CLZ, RBIT,
# SSAT; matmul: .bss is too big), at three levels, and fpmath (all soft
# float there: 9M instructions a build) at O2 only.
GUEST_M0PLUS      := crc32 sha256 qsort dijkstra bitcount stringsearch fft printf
GUEST_M0PLUS_OPTS := O0 O2 Os
GUEST_M0PLUS_ELFS := $(foreach n,$(GUEST_M0PLUS),$(foreach o,$(GUEST_M0PLUS_OPTS),\
	$(GUEST_OUT)/$(n)-m0plus-$(o).elf)) $(GUEST_OUT)/fpmath-m0plus-O2.elf
GUEST_MULTI_ELFS  := $(call guest_elfs,$(GUEST_MULTI),$(GUEST_OUT))
GUEST_MULTI_SC_ELFS := $(call guest_elfs,$(GUEST_MULTI),$(GUEST_OUT)/sc)
GUEST_LONG_ELFS   := $(call guest_elfs,$(GUEST_LONG),$(GUEST_OUT))
GUEST_LONG_SC_ELFS := $(call guest_elfs,$(GUEST_LONG),$(GUEST_OUT)/sc)

# Objects live in $(GUEST_OUT)/obj/CPU-OPT-MODE/{sdk,work}/, MODE = sc | mc.
# $(1) = CPU, $(2) = OPT, $(3) = MODE
define GUEST_CONFIG_RULES
$(GUEST_OUT)/obj/$(1)-$(2)-$(3)/%.o: guest/%.c
	@mkdir -p $$(dir $$@)
	$$(GUEST_CC) $$(GUEST_ARCH_$(1)) -$(2) $$(GUEST_MODE_$(3)) $$(GUEST_CFLAGS) -c $$< -o $$@

GUEST_SDK_OBJ_$(1)-$(2)-$(3) := $$(GUEST_SDK:%=$(GUEST_OUT)/obj/$(1)-$(2)-$(3)/sdk/%.o)
endef

# The same with clang, for the clang CPUs (m4f-clang, m7-clang); no clang
# is a clear error, not a missing-command one.
define GUEST_CLANG_CONFIG_RULES
$(GUEST_OUT)/obj/$(1)-$(2)-$(3)/%.o: guest/%.c
	@command -v $$(GUEST_CLANG) >/dev/null || { echo "guest: no $$(GUEST_CLANG) (GUEST_CLANG):" \
		"the clang builds (NAME-m4f-clang-*, NAME-m7-clang-*) need clang 14 or later;" \
		"scripts/bootstrap.sh installs it" >&2; exit 1; }
	@mkdir -p $$(dir $$@)
	$$(GUEST_CLANG) $$(GUEST_CLANG_ARCH_$(1)) -$(2) $$(GUEST_MODE_$(3)) $$(GUEST_CLANG_CFLAGS) \
		$$(GUEST_CFLAGS) -c $$< -o $$@

GUEST_SDK_OBJ_$(1)-$(2)-$(3) := $$(GUEST_SDK:%=$(GUEST_OUT)/obj/$(1)-$(2)-$(3)/sdk/%.o)
endef

# $(1) = ELF path, $(2) = workload, $(3) = CPU, $(4) = OPT, $(5) = MODE
define GUEST_ELF_RULE
$(1): $(GUEST_OUT)/obj/$(3)-$(4)-$(5)/work/$(2).o $$(GUEST_SDK_OBJ_$(3)-$(4)-$(5)) \
		$(call guest_lds,$(3)) guest/sdk/sections.ld
	@mkdir -p $$(dir $$@)
	$$(GUEST_CC) $$(GUEST_ARCH_$(3)) -$(4) -g $$(GUEST_LDFLAGS) $$(GUEST_LDFLAGS_$(3)) \
		-T $(call guest_lds,$(3)) \
		-Wl,-Map=$$(basename $$@).map -o $$@ \
		$$(filter %.o,$$^) $$(GUEST_LIBS)
endef

$(foreach c,$(GUEST_CPUS),$(foreach o,$(GUEST_OPTS),$(foreach m,sc mc,\
	$(eval $(call GUEST_CONFIG_RULES,$(c),$(o),$(m))))))
$(foreach o,$(GUEST_M4F_OPTS),$(eval $(call GUEST_CONFIG_RULES,m4f,$(o),sc)))
$(foreach n,$(GUEST_SINGLE),$(foreach o,$(GUEST_M4F_OPTS),\
	$(eval $(call GUEST_ELF_RULE,$(GUEST_OUT)/$(n)-m4f-$(o).elf,$(n),m4f,$(o),sc))))
$(eval $(call GUEST_CONFIG_RULES,m4f,$(GUEST_M4F_MULTI_OPT),mc))
$(foreach o,$(GUEST_M33_OPTS),$(eval $(call GUEST_CONFIG_RULES,m33,$(o),sc)))
$(foreach n,$(GUEST_SINGLE),$(foreach o,$(GUEST_M33_OPTS),\
	$(eval $(call GUEST_ELF_RULE,$(GUEST_OUT)/$(n)-m33-$(o).elf,$(n),m33,$(o),sc))))
$(eval $(call GUEST_CONFIG_RULES,m33,$(GUEST_M33_MULTI_OPT),mc))
$(eval $(call GUEST_CONFIG_RULES,m33f,O2,sc))
$(foreach n,$(GUEST_M33F),$(eval $(call GUEST_ELF_RULE,$(GUEST_OUT)/$(n)-m33f-O2.elf,$(n),m33f,O2,sc)))
$(foreach n,$(GUEST_MULTI),$(eval $(call GUEST_ELF_RULE,\
	$(GUEST_OUT)/$(n)-m33-$(GUEST_M33_MULTI_OPT).elf,$(n),m33,$(GUEST_M33_MULTI_OPT),mc)))
$(foreach n,$(GUEST_MULTI),$(eval $(call GUEST_ELF_RULE,\
	$(GUEST_OUT)/$(n)-m4f-$(GUEST_M4F_MULTI_OPT).elf,$(n),m4f,$(GUEST_M4F_MULTI_OPT),mc)))
$(foreach o,$(GUEST_M7_OPTS),$(eval $(call GUEST_CONFIG_RULES,m7,$(o),sc)))
$(foreach n,$(GUEST_M7_SINGLE),$(foreach o,$(GUEST_M7_OPTS),\
	$(eval $(call GUEST_ELF_RULE,$(GUEST_OUT)/$(n)-m7-$(o).elf,$(n),m7,$(o),sc))))
$(eval $(call GUEST_CONFIG_RULES,m7,O2,mc))
$(foreach n,$(GUEST_M7_MULTI),$(eval $(call GUEST_ELF_RULE,\
	$(GUEST_OUT)/$(n)-m7-O2.elf,$(n),m7,O2,mc)))
$(foreach c,m4f-clang m7-clang,$(foreach o,$(GUEST_CLANG_OPTS),\
	$(eval $(call GUEST_CLANG_CONFIG_RULES,$(c),$(o),sc))))
$(foreach n,$(GUEST_CLANG_M4F),$(foreach o,$(GUEST_CLANG_OPTS),$(eval $(call GUEST_ELF_RULE,\
	$(GUEST_OUT)/$(n)-m4f-clang-$(o).elf,$(n),m4f-clang,$(o),sc))))
$(foreach n,$(GUEST_CLANG_M7),$(foreach o,$(GUEST_CLANG_OPTS),$(eval $(call GUEST_ELF_RULE,\
	$(GUEST_OUT)/$(n)-m7-clang-$(o).elf,$(n),m7-clang,$(o),sc))))
$(foreach o,$(GUEST_M0PLUS_OPTS),$(eval $(call GUEST_CONFIG_RULES,m0plus,$(o),sc)))
$(foreach n,$(GUEST_M0PLUS) fpmath,$(foreach o,$(GUEST_M0PLUS_OPTS),$(eval $(call GUEST_ELF_RULE,\
	$(GUEST_OUT)/$(n)-m0plus-$(o).elf,$(n),m0plus,$(o),sc))))
$(foreach n,$(GUEST_SINGLE),$(foreach c,$(GUEST_CPUS),$(foreach o,$(GUEST_OPTS),\
	$(eval $(call GUEST_ELF_RULE,$(GUEST_OUT)/$(n)-$(c)-$(o).elf,$(n),$(c),$(o),sc)))))
$(foreach n,$(GUEST_MULTI) $(GUEST_LONG),$(foreach c,$(GUEST_CPUS),$(foreach o,$(GUEST_OPTS),\
	$(eval $(call GUEST_ELF_RULE,$(GUEST_OUT)/$(n)-$(c)-$(o).elf,$(n),$(c),$(o),mc)))))
$(foreach n,$(GUEST_MULTI) $(GUEST_LONG),$(foreach c,$(GUEST_CPUS),$(foreach o,$(GUEST_OPTS),\
	$(eval $(call GUEST_ELF_RULE,$(GUEST_OUT)/sc/$(n)-$(c)-$(o).elf,$(n),$(c),$(o),sc)))))

# The lists are rewritten whenever an ELF is newer, so they never go stale.
# single.list also follows this file, which says which builds it holds.
$(GUEST_OUT)/single.list: $(GUEST_SINGLE_ELFS) guest/guest.mk
	@printf '%s\n' $(filter %.elf,$^) > $@
$(GUEST_OUT)/multi.list: $(GUEST_MULTI_ELFS)
	@printf '%s\n' $^ > $@
$(GUEST_OUT)/multi-sc.list: $(GUEST_MULTI_SC_ELFS)
	@printf '%s\n' $^ > $@
$(GUEST_OUT)/multi-m4f.list: $(GUEST_M4F_MULTI_ELFS)
	@printf '%s\n' $^ > $@
$(GUEST_OUT)/multi-m7.list: $(GUEST_M7_MULTI_ELFS)
	@printf '%s\n' $^ > $@
$(GUEST_OUT)/m33.list: $(GUEST_M33_ELFS)
	@printf '%s\n' $^ > $@
$(GUEST_OUT)/multi-m33.list: $(GUEST_M33_MULTI_ELFS)
	@printf '%s\n' $^ > $@
$(GUEST_OUT)/m0plus.list: $(GUEST_M0PLUS_ELFS)
	@printf '%s\n' $^ > $@
$(GUEST_OUT)/long.list: $(GUEST_LONG_ELFS)
	@printf '%s\n' $^ > $@
$(GUEST_OUT)/long-sc.list: $(GUEST_LONG_SC_ELFS)
	@printf '%s\n' $^ > $@

.PHONY: guest guest-check guest-count
guest: $(GUEST_OUT)/single.list $(GUEST_OUT)/multi.list $(GUEST_OUT)/multi-sc.list \
	$(GUEST_OUT)/multi-m4f.list $(GUEST_OUT)/multi-m7.list $(GUEST_OUT)/long.list \
	$(GUEST_OUT)/long-sc.list $(GUEST_OUT)/m33.list $(GUEST_OUT)/multi-m33.list \
	$(GUEST_OUT)/m0plus.list

# Run every single-core ELF (and the single-core multicore builds) on QEMU.
guest-check: guest
	@guest/qemu-check.sh $(GUEST_OUT)/single.list $(GUEST_OUT)/multi-sc.list

# Same, counting retired instructions (slow: QEMU single-steps and logs).
guest-count: guest
	@guest/qemu-check.sh --count $(GUEST_OUT)/single.list $(GUEST_OUT)/multi-sc.list

# The race demos (guest/demos/: debugged by gdbscripts/demo-*.gdb, recorded
# in traces/): multicore, Cortex-M3 at -O0, so every source line keeps its
# own loads and stores. -fdebug-prefix-map keeps the build directory out of
# the debug info: the same sources give the same ELF in any checkout.
GUEST_DEMOS      := lost-update check-then-act publish early-unlock
GUEST_DEMO_ELFS  := $(GUEST_DEMOS:%=$(GUEST_OUT)/demos/%.elf)
GUEST_DEMO_FLAGS := $(GUEST_ARCH_m3) -O0 $(GUEST_CFLAGS) -fdebug-prefix-map=$(CURDIR)=.

$(GUEST_OUT)/obj/demos/%.o: guest/%.c
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(GUEST_DEMO_FLAGS) -c $< -o $@

$(GUEST_OUT)/demos/%.elf: $(GUEST_OUT)/obj/demos/demos/%.o \
		$(GUEST_SDK:%=$(GUEST_OUT)/obj/demos/sdk/%.o) $(GUEST_LDS) guest/sdk/sections.ld
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(GUEST_ARCH_m3) -O0 -g $(GUEST_LDFLAGS) -T $(GUEST_LDS) \
		-Wl,-Map=$(basename $@).map \
		-o $@ $(filter %.o,$^) $(GUEST_LIBS)

# Objects made by pattern rules are intermediate: keep them, for -MMD.
.SECONDARY: $(GUEST_DEMOS:%=$(GUEST_OUT)/obj/demos/demos/%.o) \
	$(GUEST_SDK:%=$(GUEST_OUT)/obj/demos/sdk/%.o)

.PHONY: guest-demos
guest-demos: $(GUEST_DEMO_ELFS)
guest: guest-demos

# The multicore algorithms on the build machine, one thread per core, at
# 1..8 cores (guest/host/): checks the work split, barriers and locks before
# a multicore board exists. systick needs a real SysTick and is left out.
GUEST_HOST_WORK := $(filter-out systick,$(GUEST_MULTI)) $(GUEST_LONG)
GUEST_HOST_BINS := $(GUEST_HOST_WORK:%=$(GUEST_OUT)/host/%)

$(GUEST_OUT)/host/%: guest/work/%.c guest/host/harness.c guest/host/board.h guest/work/common.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Iguest/host -Dmain=guest_main -c $< -o $@.o
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Iguest/host -c guest/host/harness.c -o $@-harness.o
	$(CC) -o $@ $@.o $@-harness.o -lpthread

.PHONY: guest-host-check
guest-host-check: $(GUEST_HOST_BINS)
	@fails=0; for b in $(GUEST_HOST_BINS); do for n in 1 2 3 4 5 6 7 8; do \
		if out=$$(timeout 60 $$b $$n 2>&1); then echo "PASS $$n cores: $$out"; \
		else echo "FAIL $$b $$n cores: $$out"; fails=$$((fails + 1)); fi; \
	done; done; echo "guest-host-check: $$fails failed"; [ $$fails = 0 ]

-include $(wildcard $(GUEST_OUT)/obj/*/*/*.d)

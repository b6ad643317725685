# bench.mk: benchmark-only programs. Not included by the top-level Makefile:
# bench/run.sh builds them with `make -f Makefile -f bench/bench.mk TARGET`,
# so they get the same settings (ALL_CFLAGS, PKG_LIBS, config.mak) without
# `make all` or `make check` ever building them.

BENCH_BIN := $(BUILD)/bench/rplbench

bench-tools: $(BENCH_BIN)

$(BUILD)/bench/rplbench: bench/rplbench.c $(BUILD)/libraptor.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libraptor.a $(PKG_LIBS) -lm

.PHONY: bench-tools

# soak with ROUNDS rounds (bench/scale.sh): soak-rN-m3-O2.elf, multicore,
# and soak-rN-sc-m3-O2.elf, single-core (runs on stock QEMU).
SOAK_SDK_mc = $(GUEST_SDK_OBJ_m3-O2-mc)
SOAK_SDK_sc = $(GUEST_SDK_OBJ_m3-O2-sc)
define SOAK_RULE
$(BUILD)/bench/soak/soak-r%$(2)-m3-O2.elf: guest/work/soak.c $$(SOAK_SDK_$(1)) \
		$(call guest_lds,m3) guest/sdk/sections.ld
	@mkdir -p $$(dir $$@)
	$$(GUEST_CC) $$(GUEST_ARCH_m3) -O2 $$(GUEST_MODE_$(1)) -DROUNDS=$$* \
		$$(filter-out -MMD -MP,$$(GUEST_CFLAGS)) $$(GUEST_LDFLAGS) $$(GUEST_LDFLAGS_m3) \
		-T $(call guest_lds,m3) -o $$@ \
		guest/work/soak.c $$(SOAK_SDK_$(1)) $$(GUEST_LIBS)
endef
$(eval $(call SOAK_RULE,mc,))
$(eval $(call SOAK_RULE,sc,-sc))
